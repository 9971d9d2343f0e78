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

__all__ = ["store_render_target"]

TILINGS = {P.Tiling.LINEAR: "linear", P.Tiling.TWIDDLED: "twiddled",
           P.Tiling.TWIDDLED_COMPRESSED: "twiddled_compressed"}


def store_render_target(memory, desc_va: int, tile_offset_B: int, tile_buffer: np.ndarray,
                        px: np.ndarray, py: np.ndarray, samples: int) -> None:
    """Store records ``tile_buffer`` (pixel p, sample s at row p * samples + s) of the
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
    image = memory.read(base, lay.size_B, "PBE")
    if lay.is_level_compressed(d.level):
        layout.resolve(lay, image, d.level, 0)
    records = tile_buffer.reshape(len(px), samples, -1)
    cols = np.arange(bpp)
    for s in range(min(samples, lay.sample_count_sa)):
        offs = layout.offset_B(lay, px[keep], py[keep], 0, d.level, s)
        image[offs[:, None] + cols] = records[keep, s, tile_offset_B:tile_offset_B + bpp]
    memory.write(base, image, "PBE")
