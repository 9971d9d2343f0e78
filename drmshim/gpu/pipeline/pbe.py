"""PBE: the pixel back end. Stores a render target from tile memory into an image.

Sole responsibility: for one ``USC_PBE`` binding of an end-of-tile pipeline, copy
the bytes at ``tile_offset_B`` of every tile-memory record (one record per pixel
and sample) into the image its ``PBE`` descriptor describes, through ``layout``
(linear, twiddled, twiddled_compressed: a compressed level is resolved and left
"uncompressed", as ``layout.tile`` does). The bytes are already in the image's
format (``st_tile`` converts); the PBE converts nothing. A tile-memory sample
count above the image's stores the image's samples only (resolving is the
end-of-tile program's job). Accesses are unit "PBE".

Memory traffic: when the caller names its pixel set (``pixels_key``: distinct
pixels), the PBE touches only the level it stores: it writes the level's body
without reading it when the pixels cover every byte of it, else reads and writes
back that range; a compressed level covered whole gets its tiles' metadata words
set "uncompressed" (what resolving it would leave) without resolving the body it
overwrites. An unnamed pixel set (a group of a huge framebuffer's tiles) touches
only the byte span it reaches (read back unless covered byte for byte; on a
compressed level when it covers the compression tiles it touches whole). A partly
covered compressed level takes the general path: read the whole image, resolve,
scatter, write it back. All leave the same bytes.
"""

from __future__ import annotations

import threading

import numpy as np

import layout
from uapi import packets as P

from ...memory import malformed
from ..texture.descriptors import format_by_id
from .native import block_plan, gather_blocks
from .usc_words import read_words
from .zls import TILINGS

__all__ = ["store_render_target", "fill_possible", "target"]

_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_OFFSET_CACHE: dict = {}


def _offsets(lay, xs: np.ndarray, ys: np.ndarray, level: int, sample: int, pixels_key=None,
             origin_B: int = 0) -> np.ndarray:
    """Byte offsets of pixels (xs, ys) from ``origin_B``: the PBE's address generator,
    remembered for the last few (layout, pixel set) pairs when the caller names the
    pixel set."""
    return _remembered(("offsets", lay, level, sample, pixels_key, origin_B), pixels_key,
                       lambda: layout.offset_B(lay, xs, ys, 0, level, sample) - origin_B)


def _remembered(key, pixels_key, make):
    """``make()``, kept in _OFFSET_CACHE under ``key`` when the pixel set is named."""
    if pixels_key is None:
        return make()
    value = _OFFSET_CACHE.get(key)
    if value is None:
        if len(_OFFSET_CACHE) > 16:
            _OFFSET_CACHE.clear()
        value = _OFFSET_CACHE[key] = make()
    return value


def _word_index(offs: np.ndarray, bpp: int, key, pixels_key) -> np.ndarray | None:
    """Offsets as indices of ``bpp``-byte words of the image, or None when some
    offset is not word-aligned (remembered with the offsets)."""
    word = _WORDS.get(bpp)

    def make():
        return None if word is None or (offs % bpp).any() else offs // bpp
    return _remembered(("words",) + key, pixels_key, make)


_TARGETS: dict = {}


def target(memory, desc_va: int):
    """The PBE descriptor at ``desc_va`` decoded: (descriptor, format, layout), one
    object while the descriptor's bytes are the same (``_target``)."""
    return _target(memory, desc_va)


def _target(memory, desc_va: int):
    """(descriptor, format, layout) of the PBE descriptor at ``desc_va``; the decoded
    triple is remembered by the descriptor's bytes (frames store the same targets),
    looked at through the memory's window where it gives one (else read, which
    faults where it must)."""
    window = getattr(memory, "window", None)
    seen = window(desc_va, 4 * P.PBE.size_words, True) if window is not None else None
    raw = seen.tobytes() if seen is not None else read_words(memory, desc_va, P.PBE.size_words, "PBE").tobytes()
    hit = _TARGETS.get(raw)
    if hit is not None:
        return hit
    d = P.PBE.unpack(np.frombuffer(raw, "<u4").tolist())
    try:
        fmt = format_by_id(d.format_id)
        tiling = TILINGS[d.tiling]
        lay = layout.make_miptree(d.width_px, d.height_px, levels=d.levels, format=fmt.name,
                                  sample_count_sa=d.sample_count, tiling=tiling,
                                  linear_stride_B=d.linear_stride_B if tiling == "linear" else 0)
        if not 0 <= d.level < lay.levels:
            raise ValueError(f"level {d.level} of a {lay.levels}-level image")
    except Exception as error:  # noqa: BLE001 - a descriptor the PBE cannot use
        raise malformed("PBE", desc_va, error) from None
    if len(_TARGETS) > 32:
        _TARGETS.clear()
    hit = _TARGETS[raw] = (d, fmt, lay)
    return hit


def fill_possible(memory, desc_va: int, tile_offset_B: int, record: np.ndarray, px: np.ndarray, py: np.ndarray,
                  samples: int, pixels_key) -> bool:
    """Whether ``store_render_target`` can store tile memory holding ``record`` in
    every record (distinct pixels (px, py) named ``pixels_key``, ``samples`` per
    pixel) as a fill: single-sampled images whose level the pixels cover byte for
    byte, in whole words. A descriptor the PBE cannot use faults as in the
    general path."""
    target = _target(memory, desc_va)
    key = (id(target), tile_offset_B, len(record), len(px), samples, pixels_key)
    known = _FILL_POSSIBLE.get(key) if pixels_key is not None else None
    if known is not None and known[0] is target:
        return known[1]
    answer = _fill_possible(target, tile_offset_B, record, px, py, samples, pixels_key)
    if pixels_key is not None:
        if len(_FILL_POSSIBLE) > 32:
            _FILL_POSSIBLE.clear()
        _FILL_POSSIBLE[key] = (target, answer)
    return answer


#: ``fill_possible``'s answers by the decoded target (the descriptor's bytes), the
#: record's offset and size, and the named pixel set.
_FILL_POSSIBLE: dict = {}


def _fill_possible(target, tile_offset_B: int, record, px, py, samples: int, pixels_key) -> bool:
    d, fmt, lay = target
    bpp = lay.bytes_per_block_B
    if pixels_key is None or lay.sample_count_sa != 1 or tile_offset_B + fmt.block_size_B > len(record) \
            or _WORDS.get(bpp) is None or lay.blocksize_B != bpp or not 0 <= d.level < lay.levels:
        return False
    level_w, level_h = lay.level_width_px(d.level), lay.level_height_px(d.level)
    if len(px) != level_w * level_h or len(px) * bpp != lay.level_size_B(d.level):
        return False
    extent = _remembered(("extent", pixels_key), pixels_key, lambda: (int(px.max()), int(py.max())))
    return extent[0] < level_w and extent[1] < level_h


#: A uniform store (a clear) of a whole compressed level is the hardware's fast
#: clear (``layout.fast_clear``: every subtile solid); tests switch it off to
#: compare with the plain fill.
FAST_CLEARS = True

#: Gather a whole level 16 words at a time in C (``native.gather_blocks``) when the
#: words' records go in blocks of one shape; tests switch it off to compare with
#: numpy's ``take``.
GATHER_BLOCKS = True

_FILLS: dict = {}
_THREAD = threading.local()
#: The largest gathered level a firmware thread keeps a buffer for.
IMAGE_KEPT_B = 64 << 20


def _image_scratch(n: int, dtype) -> np.ndarray:
    """This thread's image buffer of ``n`` words: a gathered level lives only until
    it is written to memory."""
    n_B = n * np.dtype(dtype).itemsize
    if n_B > IMAGE_KEPT_B:
        return np.empty(n, dtype)
    held = getattr(_THREAD, "image", None)
    if held is None or held.nbytes < n_B:
        held = _THREAD.image = np.empty(n_B, np.uint8)
    return held[:n_B].view(dtype)


def _fill(n_words: int, word) -> np.ndarray:
    """A read-only array of ``n_words`` copies of ``word``, remembered for the last
    few: frames clear to the same values again and again."""
    key = (n_words, word.dtype.str, int(word))
    image = _FILLS.get(key)
    if image is None:
        if len(_FILLS) >= 2:
            _FILLS.clear()
        image = _FILLS[key] = np.full(n_words, word, word.dtype)
        image.flags.writeable = False
    return image


def store_render_target(memory, desc_va: int, tile_offset_B: int, tile_buffer: np.ndarray | None,
                        px: np.ndarray, py: np.ndarray, samples: int, pixels_key=None,
                        uniform: np.ndarray | None = None, target=None) -> None:
    """``pixels_key``: a hashable name of the pixel set (px, py), for address reuse.
    Store records ``tile_buffer`` (pixel p, sample s at row p * samples + s) of the
    pixels (px, py) into the image of the PBE descriptor at ``desc_va``. ``uniform``
    (with ``tile_buffer`` None): every record holds these bytes, and
    ``fill_possible`` said the store is a fill: a compressed level (layer 0) is
    fast-cleared (``FAST_CLEARS``), any other filled. ``target``: ``target(memory,
    desc_va)`` when the caller has it already."""
    d, fmt, lay = target if target is not None else _target(memory, desc_va)
    bpp = fmt.block_size_B
    if uniform is not None:
        word_B = lay.bytes_per_block_B
        word = uniform[tile_offset_B:tile_offset_B + word_B].view(_WORDS[word_B])[0]
        lo = lay.level_offsets_B[d.level]
        base = d.address + d.layer * d.layer_stride_B
        if FAST_CLEARS and lay.is_level_compressed(d.level) and d.layer == 0:
            # the hardware's fast clear: solid subtiles, 8 copies a tile
            quick = layout.fast_clear_fills(lay, d.level, 0, uniform[tile_offset_B:tile_offset_B + word_B])
            if quick is not None and quick[0] <= lay.size_B and _fill_window(memory, base, lay.size_B, quick[1]):
                return
            image = _window(memory, base, lay.size_B, read=False)
            if image is not None:
                layout.fast_clear(lay, image, d.level, 0, uniform[tile_offset_B:tile_offset_B + word_B])
                return
        n_B = len(px) * word_B
        if not _fill_window(memory, base + lo, n_B, ((0, word.dtype, (len(px),), (word_B,), word),)):
            # (a memset of the level through its window, no source image; else a write)
            memory.write(base + lo, _fill(len(px), word), "PBE")
        if lay.is_level_compressed(d.level):
            _mark_level_uncompressed(memory, lay, d.level, base)
        return
    if tile_offset_B + bpp > tile_buffer.shape[1]:
        raise malformed("PBE", desc_va, f"{fmt.name} at byte {tile_offset_B} exceeds the "
                                        f"{tile_buffer.shape[1]}-byte tile record")
    level_w, level_h = lay.level_width_px(d.level), lay.level_height_px(d.level)
    extent = _remembered(("extent", pixels_key), pixels_key, lambda: (int(px.max()), int(py.max()))) \
        if len(px) else (level_w, level_h)
    if extent[0] < level_w and extent[1] < level_h:
        keep = slice(None)                          # every pixel is inside the level
    else:
        keep = np.flatnonzero((px < level_w) & (py < level_h))
        if len(keep) == 0:
            return
        if len(keep) == len(px):
            keep = slice(None)
    base = d.address + d.layer * d.layer_stride_B
    whole = isinstance(keep, slice)
    stored = min(samples, lay.sample_count_sa)
    compressed = lay.is_level_compressed(d.level)
    # the pixels (distinct when named) are every pixel of the level, every sample
    full_level = whole and pixels_key is not None and len(px) == level_w * level_h and stored == lay.sample_count_sa
    if pixels_key is not None and (full_level or not compressed):
        lo, size_B = lay.level_offsets_B[d.level], lay.level_size_B(d.level)
        if full_level and len(px) * lay.blocksize_B == size_B:
            # every byte is written: no read; one sample of whole words is a gather,
            # straight into the level's memory when the PBE may write it in place
            into = _window(memory, base + lo, size_B, read=False) if stored == 1 else None
            image = _gather_level(lay, d.level, tile_buffer, px, py, samples, tile_offset_B, pixels_key, lo, into) \
                if stored == 1 else None
            if image is not None and image is into:
                if compressed:
                    _mark_level_uncompressed(memory, lay, d.level, base)
                return
            if image is None:
                image = np.empty(size_B, np.uint8)
                _scatter(image, lay, d.level, tile_buffer, px, py, keep, whole, samples, stored, tile_offset_B,
                         pixels_key, lo)
        else:
            image = memory.read(base + lo, size_B, "PBE")
            _scatter(image, lay, d.level, tile_buffer, px, py, keep, whole, samples, stored, tile_offset_B,
                     pixels_key, lo)
        memory.write(base + lo, image, "PBE")
        if compressed:
            _mark_level_uncompressed(memory, lay, d.level, base)
        return
    if pixels_key is None and _store_span(memory, lay, d.level, base, tile_buffer, px, py, keep, whole, samples,
                                          stored, tile_offset_B):
        return
    image = memory.read(base, lay.size_B, "PBE")
    if compressed:
        layout.resolve(lay, image, d.level, 0)
    _scatter(image, lay, d.level, tile_buffer, px, py, keep, whole, samples, stored, tile_offset_B, None, 0)
    memory.write(base, image, "PBE")


def _store_span(memory, lay, level: int, base: int, tile_buffer, px, py, keep, whole: bool, samples: int,
                stored: int, tile_offset_B: int) -> bool:
    """Store an unnamed pixel set touching only the byte span of the level it
    reaches: that span is read back unless the pixels cover it byte for byte, so a
    group of a huge framebuffer's tiles costs its own bytes, not the image's. A
    compressed level takes this path only when the pixels cover every sample of
    each compression tile they touch (those tiles' metadata words are then set
    "uncompressed", which is what resolving them would leave). Returns False when
    the general path must store them (a partly covered compressed tile)."""
    compressed = lay.is_level_compressed(level)
    if compressed and stored != lay.sample_count_sa:
        return False
    xs, ys = (px, py) if whole else (px[keep], py[keep])
    if len(xs) == 0:
        return True
    block_B = lay.blocksize_B
    level_B = lay.level_offsets_B[level]
    offs = layout.offset_B(lay, xs, ys, 0, level, 0) - level_B
    first = int(offs.min())
    span_B = int(offs.max()) + block_B - first
    seen = np.zeros(-(-span_B // block_B), bool)
    seen[(offs - first) // block_B] = True
    distinct = int(np.count_nonzero(seen)) == len(xs)
    tiles = None
    if compressed:
        tiles = _whole_compression_tiles(lay, level, xs, ys) if distinct else None
        if tiles is None:
            return False
    covers = distinct and stored == lay.sample_count_sa and len(xs) * block_B == span_B
    image = np.empty(span_B, np.uint8) if covers else memory.read(base + level_B + first, span_B, "PBE")
    bpp = lay.bytes_per_block_B
    word = _WORDS.get(bpp)
    offs -= first                                     # sample 0's bytes, from the span's start
    aligned = word is not None and not (first % bpp or (offs % bpp).any())
    for s in range(stored):                           # sample s is s * bpp further
        column = _record_words(tile_buffer, len(px), samples, s, tile_offset_B, bpp) if aligned else None
        if column is not None:
            image.view(word)[offs // bpp + s] = column if whole else column[keep]
        else:
            data = tile_buffer.reshape(len(px), samples, -1)[:, s, tile_offset_B:tile_offset_B + bpp]
            image[(offs + s * bpp)[:, None] + np.arange(bpp)] = data if whole else data[keep]
    memory.write(base + level_B + first, image, "PBE")
    if tiles is not None:
        words = layout.metadata_index(lay, level, tiles[0], tiles[1], 0).astype(np.uint64)
        memory.scatter(np.uint64(base) + words, np.full(len(words), layout.tile_mode_uncompressed(lay.format),
                                                         np.uint64), "PBE")
    return True


def _whole_compression_tiles(lay, level: int, xs: np.ndarray, ys: np.ndarray):
    """(tx, ty) of the compression tiles that distinct pixels (xs, ys) touch, when
    they cover every pixel of the level inside each of them; else None."""
    fx = 2 if lay.sample_count_sa == 4 else 1
    fy = 2 if lay.sample_count_sa >= 2 else 1
    tile_w_px, tile_h_px = 16 // fx, 16 // fy           # 16 x 16 samples, in pixels
    width_tl = lay.metadata_width_tl(level)
    counts = np.bincount((ys >> (tile_h_px.bit_length() - 1)) * width_tl + (xs >> (tile_w_px.bit_length() - 1)))
    touched = np.flatnonzero(counts)
    ty, tx = np.divmod(touched, width_tl)
    level_w, level_h = lay.level_width_px(level), lay.level_height_px(level)
    inside = ((np.minimum((tx + 1) * tile_w_px, level_w) - tx * tile_w_px)
              * (np.minimum((ty + 1) * tile_h_px, level_h) - ty * tile_h_px))
    return (tx, ty) if np.array_equal(counts[touched], inside) else None


def _scatter(image, lay, level: int, tile_buffer, px, py, keep, whole: bool, samples: int, stored: int,
             tile_offset_B: int, pixels_key, origin_B: int) -> None:
    """Write the records' bytes at ``tile_offset_B`` into ``image``, which holds the
    image's bytes from ``origin_B`` on."""
    bpp = lay.bytes_per_block_B
    records = tile_buffer.reshape(len(px), samples, -1)
    xs, ys = (px, py) if whole else (px[keep], py[keep])
    key = pixels_key if whole else None
    word = _WORDS.get(bpp)
    for s in range(stored):
        offs = _offsets(lay, xs, ys, level, s, key, origin_B)
        words = _word_index(offs, bpp, (lay, level, s, key, origin_B), key)
        column = None if words is None else _record_words(tile_buffer, len(px), samples, s, tile_offset_B, bpp)
        if column is not None:
            # records read as whole words (a strided gather of words, not of bytes)
            image.view(word)[words] = column if whole else column[keep]
            continue
        data = records[:, s, tile_offset_B:tile_offset_B + bpp] if whole else \
            records[keep, s, tile_offset_B:tile_offset_B + bpp]
        if words is not None:
            image.view(word)[words] = np.ascontiguousarray(data).view(word).reshape(-1)
        else:
            image[offs[:, None] + np.arange(bpp)] = data


def _record_words(tile_buffer, n: int, samples: int, sample: int, tile_offset_B: int, bpp: int):
    """The ``bpp``-byte field at ``tile_offset_B`` of sample ``sample`` of the ``n``
    pixels' records, one word per pixel (a strided view), or None when the field
    does not read as whole words."""
    word = _WORDS.get(bpp)
    if word is None or tile_offset_B % bpp or tile_buffer.shape[1] % bpp or not tile_buffer.flags.c_contiguous:
        return None
    return tile_buffer.view(word).reshape(n, samples, -1)[:, sample, tile_offset_B // bpp]


def _gather_level(lay, level: int, tile_buffer, px, py, samples: int, tile_offset_B: int, pixels_key,
                  origin_B: int, into: np.ndarray | None = None):
    """A single-sampled level that the (distinct, named) pixels cover byte for byte,
    built as one gather of whole words from the records (the inverse of the
    scatter's addresses), or None when the words are not aligned. Records that all
    hold one value (a clear, a constant fill) give that value everywhere, without
    the gather. ``into``: the level's bytes in memory, written in place and returned."""
    bpp = lay.bytes_per_block_B
    column = _record_words(tile_buffer, len(px), samples, 0, tile_offset_B, bpp)
    if column is None:
        return None
    first = column[0]
    if column[-1] == first and column[len(column) // 2] == first and (column == first).all():
        if into is not None:
            into.view(column.dtype).fill(first)
            return into
        return _fill(len(column), first).view(np.uint8)     # one value everywhere (a clear, a fill)
    key = (lay, level, 0, pixels_key, origin_B)
    words = _word_index(_offsets(lay, px, py, level, 0, pixels_key, origin_B), bpp, key, pixels_key)
    if words is None:
        return None
    pixel_of = _remembered(("inverse",) + key, pixels_key, lambda: _inverse(words))
    out = into.view(column.dtype) if into is not None else _image_scratch(len(column), column.dtype)
    # (a fresh image is written to memory at once: fresh pages cost more than the scratch)
    plan = _remembered(("blocks",) + key, pixels_key, lambda: (block_plan(pixel_of),))[0] if GATHER_BLOCKS else None
    if plan is not None:
        gather_blocks(column, plan, out)
    else:
        column.take(pixel_of, out=out)
    return into if into is not None else out.view(np.uint8)


def _inverse(words: np.ndarray) -> np.ndarray:
    """The permutation's inverse: the pixel stored at each word."""
    inv = np.empty(len(words), np.intp)
    inv[words] = np.arange(len(words), dtype=np.intp)
    return inv


def _mark_level_uncompressed(memory, lay, level: int, base: int) -> None:
    """Set every tile's metadata word of a compressed level (layer 0 from ``base``)
    "uncompressed", leaving the rest of the level's metadata range as it is."""
    lo = lay.metadata_offset_B + lay.level_offsets_compressed_B[level]
    words, size_B = _remembered(("metadata", lay, level), True, lambda: _metadata_words(lay, level))
    mode = np.uint64(layout.tile_mode_uncompressed(lay.format))
    meta = _window(memory, base + lo, size_B, read=True)
    if meta is not None:                                # read and written in place
        if len(words) * 8 == size_B:                    # (distinct words filling the range: all of it)
            meta.view(np.uint64).fill(mode)
        else:
            meta.view(np.uint64)[words] = mode
        return
    meta = memory.read(base + lo, size_B, "PBE").view(np.uint64)
    meta[words] = mode
    memory.write(base + lo, meta, "PBE")


def _window(memory, va: int, size_B: int, read: bool):
    """The bytes of ``[va, va + size_B)`` as a view the PBE may write (and read, when
    ``read``) in place, or None: the access then goes through ``read``/``write``,
    which fault where they must."""
    window = getattr(memory, "window", None)
    if window is None or size_B <= 0:
        return None
    view = window(va, size_B, False)
    if view is None or (read and window(va, size_B, True) is None):
        return None
    return view


def _fill_window(memory, va: int, size_B: int, fills) -> bool:
    """Write ``fills`` (``layout.apply_fills``) into ``[va, va + size_B)`` through
    the memory's window (a memory that keeps a fragment half's effects,
    ``repeat.FillRecorder``, does it and keeps them); False when it gives none
    (nothing written: the caller then writes as it would have)."""
    fill_window = getattr(memory, "fill_window", None)
    if fill_window is not None:
        return fill_window(va, size_B, fills)
    view = _window(memory, va, size_B, read=False)
    if view is None:
        return False
    layout.apply_fills(view, fills)
    return True


def _metadata_words(lay, level: int) -> tuple[np.ndarray, int]:
    """Indices (8-byte words from the level's metadata start) of all its tiles, and
    the bytes from that start to the last one's end."""
    ty, tx = np.mgrid[0:lay.metadata_height_tl(level), 0:lay.metadata_width_tl(level)]
    offs = layout.metadata_index(lay, level, tx.ravel(), ty.ravel(), 0)
    words = (offs - lay.metadata_offset_B - lay.level_offsets_compressed_B[level]) // 8
    return words, 8 * (int(words.max()) + 1)
