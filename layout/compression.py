"""Compression metadata of ``twiddled_compressed`` layouts.

What is known of AGX lossless compression (Mesa ail and libagx), and what this
model does with it:

- The body of a compressed level is addressed exactly like the twiddled layout.
- The metadata holds one byte per 8 x 4-sample *subtile*, 8 bytes per 16 x 16-sample
  *tile* (MSAA images are seen "stretched": 2x doubles the height, 4x both axes,
  see ``effective_width_sa``). Subtile k of a tile is column ``k % 2``, row ``k // 2``.
- Tiles of a level are stored "fully twiddled": the low bits of the tile
  coordinates interleave (x in the low bit) up to the smaller grid dimension
  rounded to a power of two; the larger axis's remaining bits go on top. Levels
  are at ``level_offsets_compressed_B``, layers ``compression_layer_stride_B`` apart,
  all after the image body at ``metadata_offset_B``.
- Mode ``subtile_uncompressed_mode(format)`` (0x1f / 0x3f / 0x7f / 0xff for
  1 / 2 / 4 / 8-16 byte blocks) means the subtile's data is stored plainly in the
  body. This is the mode the GPU model's PBE and the CPU write.
- Mode ``SUBTILE_SOLID`` (0x03) means the whole subtile has one value: copy k of
  the 8 copies stored at the start of the tile's body (the tile's top-left pixel's
  address + k elements), as the hardware's fast clear writes them.
- Other modes are real hardware compression that this model never produces;
  reading them raises ValueError.

``clear_metadata`` must be called on a new compressed image (the driver does it
at allocation) so that its body reads plainly.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .addressing import _read, _region, _write, offset_B, spread_bits
from .formats import Format, get_format
from .miptree import Layout

__all__ = ["SUBTILE_SOLID", "subtile_uncompressed_mode", "tile_mode_uncompressed",
           "metadata_index", "clear_metadata", "tile_modes", "set_tiles_uncompressed",
           "resolve", "fast_clear", "fast_clear_fills", "apply_fills", "solid_patches", "fill_solid",
           "solid_value"]

SUBTILE_SOLID = 0x03
_UNCOMPRESSED = {1: 0x1F, 2: 0x3F, 4: 0x7F, 8: 0xFF, 16: 0xFF}


def subtile_uncompressed_mode(format: str | Format) -> int:
    """The per-subtile metadata byte meaning "stored plainly", by block size."""
    fmt = get_format(format)
    try:
        return _UNCOMPRESSED[fmt.block_size_B]
    except KeyError:
        raise ValueError(f"{fmt.name}: compression needs a 1, 2, 4, 8 or 16-byte format") from None


def tile_mode_uncompressed(format: str | Format) -> int:
    """The 64-bit metadata word of a tile whose 8 subtiles are all uncompressed."""
    return subtile_uncompressed_mode(format) * 0x0101010101010101


def _check_compressed_level(lay: Layout, level: int, layer: int) -> None:
    if lay.tiling != "twiddled_compressed":
        raise ValueError("compression metadata exists only for twiddled_compressed layouts")
    if not 0 <= level < lay.compressed_levels:
        raise ValueError(f"level {level} has no compression metadata "
                         f"(only the first {lay.compressed_levels} levels do)")
    if not 0 <= layer < lay.depth_px:
        raise ValueError(f"layer {layer} out of range (the image has {lay.depth_px} layers)")


def metadata_index(lay: Layout, level: int, tx, ty, layer=0) -> np.ndarray:
    """Byte offsets (from the image start) of the 8-byte metadata words of tiles
    (tx, ty) of a level and layer; vectorised over tx, ty, layer."""
    tx = np.asarray(tx, dtype=np.int64)
    ty = np.asarray(ty, dtype=np.int64)
    layer = np.asarray(layer, dtype=np.int64)
    w_tl, h_tl = lay.metadata_width_tl(level), lay.metadata_height_tl(level)
    major = tx if w_tl > h_tl else ty
    intl_bits = (min(w_tl, h_tl) - 1).bit_length()  # ceil(log2(minor dimension))
    mask = (1 << intl_bits) - 1
    index_tl = (spread_bits(tx & mask) | (spread_bits(ty & mask) << 1)) + ((major & ~mask) << intl_bits)
    return (lay.metadata_offset_B + layer * lay.compression_layer_stride_B
            + lay.level_offsets_compressed_B[level] + index_tl * 8)


def clear_metadata(lay: Layout, buf: np.ndarray) -> None:
    """Mark every tile of every compressed level and layer "uncompressed"."""
    if lay.tiling != "twiddled_compressed":
        raise ValueError("compression metadata exists only for twiddled_compressed layouts")
    buf[lay.metadata_offset_B:lay.size_B] = subtile_uncompressed_mode(lay.format)


def _tile_grid(lay: Layout, level: int):
    ty, tx = np.mgrid[0:lay.metadata_height_tl(level), 0:lay.metadata_width_tl(level)]
    return tx.astype(np.int64), ty.astype(np.int64)


@lru_cache(maxsize=64)
def _subtile_offsets(lay: Layout, level: int, layer: int) -> np.ndarray:
    """Byte offsets of every subtile mode of a level and layer (height_tl, width_tl, 8)."""
    tx, ty = _tile_grid(lay, level)
    offs = metadata_index(lay, level, tx, ty, layer)[..., None] + np.arange(8)
    offs.flags.writeable = False
    return offs


@lru_cache(maxsize=64)
def _subtile_span_B(lay: Layout, level: int, layer: int) -> tuple[int, int]:
    """[lo, hi): the bytes from the first to the last subtile mode of a level and
    layer (the modes themselves when the span has no other byte, as in a
    power-of-two level)."""
    offs = _subtile_offsets(lay, level, layer)
    return int(offs.min()), int(offs.max()) + 1


def _all_plain(lay: Layout, buf: np.ndarray, level: int, layer: int, unc: int) -> bool:
    """Whether every subtile mode of the level and layer is ``unc``: when every byte
    of their span is (a superset of them: one compare over contiguous bytes), else
    by the modes themselves."""
    lo, hi = _subtile_span_B(lay, level, layer)
    if hi <= buf.size and buf[lo:hi].tobytes() == _repeated(unc, hi - lo):
        return True
    return bool((tile_modes(lay, buf, level, layer) == unc).all())


@lru_cache(maxsize=16)
def _repeated(byte: int, n: int) -> bytes:
    return bytes([byte]) * n


def tile_modes(lay: Layout, buf: np.ndarray, level: int, layer: int = 0) -> np.ndarray:
    """The subtile modes of a level and layer: uint8 (height_tl, width_tl, 8)."""
    _check_compressed_level(lay, level, layer)
    return buf[_subtile_offsets(lay, level, layer)]


def set_tiles_uncompressed(lay: Layout, buf: np.ndarray, level: int, layer: int,
                           x: int, y: int, w: int, h: int) -> None:
    """Mark "uncompressed" every tile touching the pixel region (after a plain write
    to it; the caller must have resolved solid tiles it only partly overwrote)."""
    _check_compressed_level(lay, level, layer)
    if w <= 0 or h <= 0:
        return
    sx = 2 if lay.sample_count_sa == 4 else 1
    sy = 2 if lay.sample_count_sa >= 2 else 1
    ty, tx = np.mgrid[(y * sy) // 16:-(-(y + h) * sy // 16), (x * sx) // 16:-(-(x + w) * sx // 16)]
    offs = metadata_index(lay, level, tx, ty, layer)
    buf[offs[..., None] + np.arange(8)] = subtile_uncompressed_mode(lay.format)


def solid_patches(lay: Layout, buf: np.ndarray, level: int, layer: int = 0):
    """The samples covered by solid subtiles and their values:
    ``(px, py, sample, values)`` with values uint8 (m, bytes_per_block).

    Raises ValueError on a mode this model does not know."""
    modes = tile_modes(lay, buf, level, layer)
    unc = subtile_uncompressed_mode(lay.format)
    unknown = (modes != unc) & (modes != SUBTILE_SOLID)
    if np.any(unknown):
        ty, tx, k = np.argwhere(unknown)[0]
        raise ValueError(f"unknown compression mode 0x{modes[ty, tx, k]:02x} at level {level}, "
                         f"layer {layer}, tile ({tx}, {ty}), subtile {k}")
    ty, tx, k = (a.astype(np.int64) for a in np.nonzero(modes == SUBTILE_SOLID))
    S = lay.sample_count_sa
    fx = 2 if S == 4 else 1
    fy = 2 if S >= 2 else 1
    # The 32 samples of each solid subtile, in sample space.
    dy, dx = np.mgrid[0:4, 0:8]
    sxs = (tx * 16 + (k % 2) * 8)[:, None] + dx.reshape(-1)[None]
    sys_ = (ty * 16 + (k // 2) * 4)[:, None] + dy.reshape(-1)[None]
    w_sa = lay.level_width_px(level) * fx
    h_sa = lay.level_height_px(level) * fy
    inside = (sxs < w_sa) & (sys_ < h_sa)
    px, py = sxs // fx, sys_ // fy
    if S == 4:
        sample = (sxs & 1) | ((sys_ & 1) << 1)
    elif S == 2:
        sample = sys_ & 1
    else:
        sample = np.zeros_like(sxs)
    # Copy k of the tile's solid value starts k elements after the tile's first pixel.
    tile_base = offset_B(lay, (tx * 16) // fx, (ty * 16) // fy, layer, level, 0)
    src = (tile_base + k * lay.blocksize_B)[:, None] + sample * lay.bytes_per_block_B
    px, py, sample, src = px[inside], py[inside], sample[inside], src[inside]
    values = buf[src[:, None] + np.arange(lay.bytes_per_block_B)]
    return px, py, sample, values


def _solid_subtiles(lay: Layout, buf: np.ndarray, level: int, layer: int):
    """The level's solid subtiles as a grid in pixel space, or None when it has none
    (every mode "uncompressed": the common case, one comparison of the metadata):
    ``(solid, values, sub_w_px, sub_h_px)`` with ``solid`` bool (rows, cols) and
    ``values`` uint8 (rows, cols, blocksize_B), subtile (r, c) covering pixels
    [c * sub_w_px, (c + 1) * sub_w_px) x [r * sub_h_px, ...), every sample of them
    (an element's samples sit in one subtile: sample space stretches by 1 or 2).

    Raises ValueError on a mode this model does not know."""
    _check_compressed_level(lay, level, layer)
    unc = subtile_uncompressed_mode(lay.format)
    if _all_plain(lay, buf, level, layer, unc):
        return None
    modes = tile_modes(lay, buf, level, layer)
    plain = modes == unc
    unknown = ~plain & (modes != SUBTILE_SOLID)
    if np.any(unknown):
        ty, tx, k = np.argwhere(unknown)[0]
        raise ValueError(f"unknown compression mode 0x{modes[ty, tx, k]:02x} at level {level}, "
                         f"layer {layer}, tile ({tx}, {ty}), subtile {k}")
    h_tl, w_tl = modes.shape[:2]
    fx = 2 if lay.sample_count_sa == 4 else 1
    fy = 2 if lay.sample_count_sa >= 2 else 1
    # subtile k of a tile is its column k % 2, row k // 2 (each 8 x 4 samples)
    solid = (~plain).reshape(h_tl, w_tl, 4, 2).transpose(0, 2, 1, 3).reshape(h_tl * 4, w_tl * 2)
    ty, tx, k = (a.astype(np.int64) for a in np.nonzero(~plain))
    # copy k of a tile's value: k elements (all samples each) after the tile's first pixel
    src = offset_B(lay, (tx * 16) // fx, (ty * 16) // fy, layer, level, 0) + k * lay.blocksize_B
    values = np.zeros((h_tl * 4, w_tl * 2, lay.blocksize_B), np.uint8)
    values[ty * 4 + k // 2, tx * 2 + k % 2] = buf[src[:, None] + np.arange(lay.blocksize_B)]
    return solid, values, 8 // fx, 4 // fy


def fill_solid(lay: Layout, buf: np.ndarray, level: int, layer: int, x_el: int, y_el: int,
               out: np.ndarray) -> bool:
    """Overwrite the pixels of ``out`` (uint8 (h, w, blocksize_B): the level's region
    at (x_el, y_el) as its body reads) that lie in solid subtiles with their
    subtile's value, by subtile rather than by sample: each row of subtiles is
    spread into a scratch box by broadcasting, which is copied (masked when not
    every subtile is solid) into ``out``; a level with no solid subtile costs one
    look at its metadata. Returns whether any pixel was solid. ``solid_patches``
    lists the same values sample by sample."""
    grid = _solid_subtiles(lay, buf, level, layer)
    if grid is None:
        return False
    solid, values, sw, sh = grid
    h, w = out.shape[:2]
    r0, c0 = y_el // sh, x_el // sw
    r1, c1 = -(-(y_el + h) // sh), -(-(x_el + w) // sw)
    solid, values = solid[r0:r1, c0:c1], values[r0:r1, c0:c1]
    if not solid.any():
        return False
    nr, nc, size_B = values.shape
    # each row of subtiles as one pixel row (elements as words when they fit one),
    # then broadcast down the subtile's rows: inner loops run along whole rows
    word = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}.get(size_B)
    rows = np.repeat(values.view(word)[..., 0] if word else values, sw, axis=1)   # (nr, nc * sw[, size_B])
    mask = None if solid.all() else np.repeat(solid, sw, axis=1)
    tail = () if word else (size_B,)
    box = np.empty((nr, sh, nc * sw) + tail, rows.dtype)
    box[...] = rows[:, None]
    box = box.reshape((nr * sh, nc * sw) + tail)
    crop = np.s_[y_el - r0 * sh:y_el - r0 * sh + h, x_el - c0 * sw:x_el - c0 * sw + w]
    dst = out.reshape(-1).view(word).reshape(h, w) if word else out
    if mask is None:
        dst[...] = box[crop]
    else:
        full = np.broadcast_to(mask[:, None], (nr, sh, nc * sw)).reshape(nr * sh, nc * sw)[crop]
        np.copyto(dst, box[crop], where=full if word else full[..., None])
    return True


def resolve(lay: Layout, buf: np.ndarray, level: int, layer: int = 0) -> None:
    """Rewrite a level's solid subtiles as plain data and mark every tile
    "uncompressed" (what the hardware's in-place decompression does)."""
    if _solid_subtiles(lay, buf, level, layer) is not None:
        # the whole level as it reads (solid subtiles filled in), written back plainly
        w_el, h_el = lay.level_width_el(level), lay.level_height_el(level)
        region = _region(lay, level, layer, 0, 0, w_el, h_el)
        image = _read(buf, region, lay.blocksize_B)
        fill_solid(lay, buf, level, layer, 0, 0, image)
        _write(buf, region, image, lay.blocksize_B)
    buf[_subtile_offsets(lay, level, layer)] = subtile_uncompressed_mode(lay.format)


def fast_clear(lay: Layout, buf: np.ndarray, level: int, layer: int, value: np.ndarray) -> None:
    """Clear a level to one value the way the hardware's fast clear does: every
    subtile solid, and 8 copies of the value at the start of each tile's body.
    ``value`` is one element of one sample (``bytes_per_block`` bytes). The rest of
    the body is not touched (it reads as the value), so a clear writes the
    metadata and 8 elements a tile, not the level."""
    _check_compressed_level(lay, level, layer)
    value = np.asarray(value, dtype=np.uint8).reshape(-1)
    if value.size != lay.bytes_per_block_B:
        raise ValueError(f"a clear value of {lay.format} is {lay.bytes_per_block_B} bytes, not {value.size}")
    quick = fast_clear_fills(lay, level, layer, value)
    if quick is not None and isinstance(buf, np.ndarray) and buf.dtype == np.uint8 and buf.ndim == 1 \
            and buf.size >= quick[0]:
        apply_fills(buf, quick[1])      # the usual case: the metadata words one range, the copies one strided view
        return
    meta, at, unit_B, run = _fast_clear_plan(lay, level, layer)
    buf = buf if isinstance(buf, np.ndarray) else np.frombuffer(buf, np.uint8)
    buf = buf.reshape(-1).view(np.uint8)
    if meta is not None:            # each tile's 8 modes as one 8-byte word
        buf[:buf.size // 8 * 8].view(np.uint64)[meta] = np.uint64(SUBTILE_SOLID * 0x0101010101010101)
    else:
        buf[_subtile_offsets(lay, level, layer)] = SUBTILE_SOLID
    if run is not None:             # tiles one stride apart: their copies are a strided view
        word = _WORD.get(value.size) if not (run[0] % value.size or run[1] % value.size) else None
        if word is not None:
            _copies_view(buf, run, value.size)[...] = value.view(word)[0]
        else:
            _copies_view(buf, run, 1)[...] = np.tile(value, 8 * lay.sample_count_sa)
    elif unit_B == value.size:      # the copies as whole elements
        word = _WORD[unit_B]
        buf[:buf.size // unit_B * unit_B].view(word)[at] = value.view(word)[0]
    else:                           # as bytes: 8 * samples copies a tile
        buf[at] = np.tile(value, 8 * lay.sample_count_sa)


_WORD = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


@lru_cache(maxsize=64)
def _fast_clear_plan(lay: Layout, level: int, layer: int):
    """Where a fast clear writes: (each tile's metadata word as an index of 8-byte
    words from the image start, or None when they are not 8-byte aligned; the
    copies, each tile's 8 * samples elements from its first pixel, as indices of
    ``unit_B``-byte units; ``unit_B``: the element size when it is 1, 2, 4 or 8
    bytes and every copy is aligned to it, else 1 (byte offsets))."""
    tx, ty = _tile_grid(lay, level)
    tx, ty = tx.reshape(-1), ty.reshape(-1)
    meta_B = metadata_index(lay, level, tx, ty, layer)
    meta = None if (meta_B % 8).any() else meta_B // 8
    fx = 2 if lay.sample_count_sa == 4 else 1
    fy = 2 if lay.sample_count_sa >= 2 else 1
    base = offset_B(lay, (tx * 16) // fx, (ty * 16) // fy, layer, level, 0).reshape(-1).astype(np.int64)
    n_el = 8 * lay.sample_count_sa
    unit_B = lay.bytes_per_block_B
    if unit_B in _WORD and not (base % unit_B).any():
        at = (base // unit_B)[:, None] + np.arange(n_el)
    else:
        unit_B = 1
        at = base[:, None] + np.arange(n_el * lay.bytes_per_block_B)
    for a in (meta, at):
        if a is not None:
            a.flags.writeable = False
    order = np.sort(base)
    copy_B = n_el * lay.bytes_per_block_B
    run = None
    if len(order) > 1 and (np.diff(order) == order[1] - order[0]).all() and order[1] - order[0] >= copy_B:
        run = (int(order[0]), int(order[1] - order[0]), len(order), copy_B)
    elif len(order) == 1:
        run = (int(order[0]), copy_B, 1, copy_B)
    return meta, at, unit_B, run


def fast_clear_fills(lay: Layout, level: int, layer: int, value: np.ndarray):
    """``fast_clear`` of ``value`` as fills of the image's bytes, when the level's plan
    has the usual shape (the tiles' metadata words consecutive, the copies one
    stride apart): (the bytes an image needs at least, fills for ``apply_fills``),
    else None (``fast_clear`` then writes the plan by indices). Two fills: the
    metadata words, every subtile solid; the copies, a strided view of whole
    elements filled with the value."""
    quick = _fast_clear_views(lay, level, layer)
    if quick is None:
        return None
    need, (meta_at, meta_n), (first, stride, n, words), word = quick
    copy = np.asarray(value, dtype=np.uint8).reshape(-1).view(word)[0]
    return need, ((meta_at, np.uint64, (meta_n,), (8,), _SOLID_WORD),
                  (first, word, (n, words), (stride, word().itemsize), copy))


_SOLID_WORD = np.uint64(SUBTILE_SOLID * 0x0101010101010101)    # a tile's 8 subtile modes, all solid


def apply_fills(buf: np.ndarray, fills) -> None:
    """Write ``fills`` into ``buf`` (uint8, one dimension): each (byte offset, word
    type, shape, byte strides, word) fills that strided view of ``buf`` with the word."""
    for offset_B, word_type, shape, strides, word in fills:
        np.ndarray(shape, word_type, buffer=buf, offset=offset_B, strides=strides).fill(word)


@lru_cache(maxsize=64)
def _fast_clear_views(lay: Layout, level: int, layer: int):
    """The plan of ``_fast_clear_plan`` as byte ranges, when it has the usual shape:
    (the bytes an image needs at least, (the first metadata word's byte offset, the
    number of words) when the tiles' words are consecutive, (first copy's byte
    offset, byte stride between tiles, tiles, copy words) when the copies are one
    strided run of whole elements, the element word) or None. Writing the same
    words as the plan's indices, in a different order (each written once)."""
    meta, _, _, run = _fast_clear_plan(lay, level, layer)
    word = _WORD.get(lay.bytes_per_block_B)
    if meta is None or run is None or word is None or len(meta) == 0:
        return None
    lo, n = int(meta.min()), len(meta)
    if int(meta.max()) - lo + 1 != n:          # distinct indices spanning n words: the range itself
        return None
    first, stride, tiles, copy_B = run
    word_B = lay.bytes_per_block_B
    if first % word_B or stride % word_B or copy_B % word_B:
        return None
    need = max(8 * (lo + n), first + (tiles - 1) * stride + copy_B)
    return need, (8 * lo, n), (first, stride, tiles, copy_B // word_B), word


@lru_cache(maxsize=64)
def _solid_plan(lay: Layout, level: int, layer: int):
    """What ``solid_value`` looks at in the common case, or None: (the subtile modes'
    span [lo, hi) when it holds nothing else, the bytes it holds when all are solid,
    the first tile's copies, the stride between tiles, the tile count, the element
    word) for a single-sampled level of 1, 2, 4 or 8-byte elements whose tiles are
    one stride apart."""
    _check_compressed_level(lay, level, layer)
    if lay.sample_count_sa != 1 or lay.blocksize_B not in _WORD:
        return None
    lo, hi = _subtile_span_B(lay, level, layer)
    if hi - lo != _subtile_offsets(lay, level, layer).size:
        return None
    _, _, _, run = _fast_clear_plan(lay, level, layer)
    word_B = lay.blocksize_B
    if run is None or run[3] != 8 * word_B or run[0] % word_B or run[1] % word_B:
        return None
    return lo, hi, _repeated(SUBTILE_SOLID, hi - lo), run[0], run[1], run[2], _WORD[word_B]


def _copies_view(buf: np.ndarray, run, word_B: int) -> np.ndarray:
    """The tiles' copies as a strided view of ``buf`` (uint8): (tiles, copy words)
    of ``word_B``-byte words (which must divide the first offset and the stride)."""
    first, stride, n, copy_B = run
    words = buf[:buf.size // word_B * word_B].view(_WORD[word_B])
    return np.lib.stride_tricks.as_strided(words[first // word_B:], shape=(n, copy_B // word_B),
                                           strides=(stride, word_B))


def solid_value(lay: Layout, buf: np.ndarray, level: int, layer: int = 0) -> np.ndarray | None:
    """The one value (uint8, ``blocksize_B``) every pixel of a single-sampled
    compressed level reads as, when every subtile is solid with that value (what a
    fast clear leaves), else None. Costs a look at the metadata and at the tiles'
    copies, not at the level."""
    plan = _solid_plan(lay, level, layer)
    if plan is not None:            # the usual case in a few numpy calls
        lo, hi, solid, first, stride, n, word = plan
        if hi <= buf.size and first + (n - 1) * stride + 8 * word().itemsize <= buf.size \
                and buf[lo:hi].tobytes() == solid:
            copies = np.ndarray((n, 8), word, buffer=buf, offset=first, strides=(stride, word().itemsize))
            value = copies[0, 0]
            return value.reshape(1).view(np.uint8).copy() if (copies == value).all() else None
    _check_compressed_level(lay, level, layer)
    if lay.sample_count_sa != 1:
        return None
    lo, hi = _subtile_span_B(lay, level, layer)
    if hi > buf.size or buf[lo:hi].tobytes() != _repeated(SUBTILE_SOLID, hi - lo):
        if not (tile_modes(lay, buf, level, layer) == SUBTILE_SOLID).all():
            return None
    _, at, unit_B, run = _fast_clear_plan(lay, level, layer)
    word_B = lay.blocksize_B
    if run is not None and run[0] + (run[2] - 1) * run[1] + run[3] <= buf.size and word_B in _WORD \
            and not (run[0] % word_B or run[1] % word_B):
        copies = _copies_view(buf, run, word_B)
        first = copies[0, 0]
        return first.reshape(1).view(np.uint8).copy() if (copies == first).all() else None
    if unit_B == lay.blocksize_B:
        copies = buf[:buf.size // unit_B * unit_B].view(_WORD[unit_B])[at]
        first = copies.reshape(-1)[0]
        return first.reshape(1).view(np.uint8) if (copies == first).all() else None
    copies = buf[at].reshape(-1, lay.blocksize_B)
    return copies[0].copy() if (copies == copies[0]).all() else None
