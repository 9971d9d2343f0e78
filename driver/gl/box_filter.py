"""Mipmap levels made on the CPU by a 2 x 2 box filter, for the images the GPU's
blit cannot filter: depth (a depth blit takes the nearest value, GL 4.6 section
18.3.1, which would shift each level by half a texel) and compressed formats the GL
encodes itself. Each level is the mean of 2 x 2 texels of the level above, an odd
side repeating its edge texel, as Mesa's software path makes them."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from driver.gallium import Box, PipeMap
from driver.gallium.util import minify
from driver.gl.pixels import from_resource_bytes

__all__ = ["box_filtered_levels"]


def box_filtered_levels(pipe, res, first: int, last: int, layer0: int,
                        layers: int) -> Iterator[tuple[int, int, int, np.ndarray]]:
    """(level, width, height, values) for levels ``first + 1 .. last`` of ``res``,
    layers ``layer0 ..`` (``layers`` faces or array layers): ``values`` (layers, h,
    w, 4) float64, decoded from the resource's format (level ``first`` is read
    once; each next level is filtered from the one before)."""
    w, h = minify(res.template.width_px, first), minify(res.template.height_px, first)
    tr = pipe.transfer_map(res, first, PipeMap.READ, Box(0, 0, layer0, w, h, layers))
    try:
        raw = bytes(tr.data[:tr.layer_stride_B * layers])
    finally:
        pipe.transfer_unmap(tr)
    values = from_resource_bytes(raw, res.format.name, (layers, h, w)).astype(np.float64)
    for level in range(first + 1, last + 1):
        h2, w2 = max(1, h // 2), max(1, w // 2)
        ys = np.minimum(np.arange(2 * h2), h - 1)
        xs = np.minimum(np.arange(2 * w2), w - 1)
        values = values[:, ys][:, :, xs].reshape(layers, h2, 2, w2, 2, 4).mean((2, 4))
        h, w = h2, w2
        yield level, w, h, values
