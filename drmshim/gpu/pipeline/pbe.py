"""PBE: the pixel back end. Stores a render target from tile memory into an image.

Sole responsibility: for one ``USC_PBE`` binding of an end-of-tile pipeline, copy
the bytes at ``tile_offset_B`` of every tile-memory record (one record per pixel
and sample) into the image its ``PBE`` descriptor describes, through ``layout``
(linear, twiddled, twiddled_compressed: a compressed level is resolved and left
"uncompressed", as ``layout.tile`` does). The bytes are already in the image's
format (``st_tile`` converts); the PBE converts nothing. A tile-memory sample
count above the image's stores the image's samples only (resolving is the
end-of-tile program's job). Accesses are unit "PBE".
"""

from __future__ import annotations

import numpy as np

import layout
from uapi import packets as P

from ..texture.descriptors import format_by_id
from .usc_words import read_words
from .zls import TILINGS

__all__ = ["store_render_target"]

_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_OFFSET_CACHE: dict = {}


def _offsets(lay, xs: np.ndarray, ys: np.ndarray, level: int, sample: int, pixels_key=None) -> np.ndarray:
    """Byte offsets of pixels (xs, ys): the PBE's address generator, remembered for
    the last few (layout, pixel set) pairs when the caller names the pixel set."""
    return _remembered(("offsets", lay, level, sample, pixels_key), pixels_key,
                       lambda: layout.offset_B(lay, xs, ys, 0, level, sample))


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


def store_render_target(memory, desc_va: int, tile_offset_B: int, tile_buffer: np.ndarray,
                        px: np.ndarray, py: np.ndarray, samples: int, pixels_key=None) -> None:
    """``pixels_key``: a hashable name of the pixel set (px, py), for address reuse.
    Store records ``tile_buffer`` (pixel p, sample s at row p * samples + s) of the
    pixels (px, py) into the image of the PBE descriptor at ``desc_va``."""
    d = P.PBE.unpack(read_words(memory, desc_va, P.PBE.size_words, "PBE").tolist())
    fmt = format_by_id(d.format_id)
    tiling = TILINGS[d.tiling]
    lay = layout.make_miptree(d.width_px, d.height_px, levels=d.levels, format=fmt.name,
                              sample_count_sa=d.sample_count, tiling=tiling,
                              linear_stride_B=d.linear_stride_B if tiling == "linear" else 0)
    bpp = fmt.block_size_B
    if tile_offset_B + bpp > tile_buffer.shape[1]:
        raise ValueError(f"PBE at 0x{desc_va:x}: {fmt.name} at byte {tile_offset_B} exceeds the "
                         f"{tile_buffer.shape[1]}-byte tile record")
    keep = np.flatnonzero((px < lay.level_width_px(d.level)) & (py < lay.level_height_px(d.level)))
    if len(keep) == 0:
        return
    base = d.address + d.layer * d.layer_stride_B
    records = tile_buffer.reshape(len(px), samples, -1)
    whole = len(keep) == len(px)
    stored = min(samples, lay.sample_count_sa)
    # Pixels named by the caller are distinct: when they cover every byte of an
    # uncompressed image, the PBE only writes (no read of the old contents, 4 MB
    # at 1024x1024 RGBA8).
    overwrite = (whole and pixels_key is not None and not lay.is_level_compressed(d.level)
                 and len(px) * stored * bpp == lay.size_B)
    if overwrite:
        image = np.empty(lay.size_B, np.uint8)
    else:
        image = memory.read(base, lay.size_B, "PBE")
        if lay.is_level_compressed(d.level):
            layout.resolve(lay, image, d.level, 0)
    xs, ys = (px, py) if whole else (px[keep], py[keep])
    key = pixels_key if whole else None
    word = _WORDS.get(bpp)
    for s in range(stored):
        offs = _offsets(lay, xs, ys, d.level, s, key)
        words = _word_index(offs, bpp, (lay, d.level, s, key), key)
        if words is not None and tile_offset_B % bpp == 0 and tile_buffer.shape[1] % bpp == 0 \
                and tile_buffer.flags.c_contiguous:
            # records read as whole words (a strided gather of words, not of bytes)
            column = tile_buffer.view(word).reshape(len(px), samples, -1)[:, s, tile_offset_B // bpp]
            image.view(word)[words] = column if whole else column[keep]
            continue
        data = records[:, s, tile_offset_B:tile_offset_B + bpp] if whole else \
            records[keep, s, tile_offset_B:tile_offset_B + bpp]
        if words is not None:
            image.view(word)[words] = np.ascontiguousarray(data).view(word).reshape(-1)
        else:
            image[offs[:, None] + np.arange(bpp)] = data
    memory.write(base, image, "PBE")
