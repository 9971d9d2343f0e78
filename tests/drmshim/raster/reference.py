"""Clarity-first reference implementations for the raster tests (slow, obvious).

Coverage is decided with exact Python integers on the snapped vertices, the
top-left rule written as the spec states it (left edge / top edge), independently
of the library's edge-coefficient formulation.
"""

from __future__ import annotations

import numpy as np

SUB = 256


def snap(v: float) -> int:
    return int(np.rint(v * SUB))


def covered_samples(tri_px, width, height, offsets_16ths=((8, 8),)):
    """(H, W, S) bool coverage of one triangle given as 3 (x, y) window points."""
    (x0, y0), (x1, y1), (x2, y2) = [(snap(x), snap(y)) for x, y in tri_px]
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    out = np.zeros((height, width, len(offsets_16ths)), bool)
    if area == 0:
        return out
    if area < 0:  # make it counter-clockwise in (x right, y up) terms
        x1, y1, x2, y2 = x2, y2, x1, y1
    verts = [(x0, y0), (x1, y1), (x2, y2)]
    ys, xs = np.mgrid[0:height, 0:width]
    for s, (ox, oy) in enumerate(offsets_16ths):
        px = xs.astype(np.int64) * SUB + ox * 16
        py = ys.astype(np.int64) * SUB + oy * 16
        inside = np.ones((height, width), bool)
        for i in range(3):
            ax, ay = verts[i]
            bx, by = verts[(i + 1) % 3]
            # edge a->b with the interior on its left (ccw): cross >= 0 inside
            e = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
            # ties: the interior lies to the right (+x) of the edge ("left edge"),
            # or the edge is horizontal with the interior below it (+y, "top edge")
            interior_right = (by - ay) < 0          # going down (-y) with interior on left = +x side
            interior_plus_y = (by == ay) and (bx > ax)
            keep_tie = interior_right or interior_plus_y
            inside &= (e > 0) | ((e == 0) & keep_tie)
        out[..., s] = inside
    return out


def coverage_count(tris_px, width, height, offsets_16ths=((8, 8),)):
    """(H, W, S) int: how many triangles cover each sample."""
    total = np.zeros((height, width, len(offsets_16ths)), np.int64)
    for t in tris_px:
        total += covered_samples(t, width, height, offsets_16ths)
    return total
