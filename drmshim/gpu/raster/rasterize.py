"""Rasterisation: setup triangles -> fragments, in bulk.

Two levels, both vectorised over all triangles at once:

1. Every triangle's pixel bounding box (clipped to the raster rectangle) is cut
   into blocks of ``block_px`` x ``block_px`` pixels aligned on the box's corner.
   Each (triangle, block) pair is classified from the edge functions at the corners
   of its sample extent: rejected (outside one edge), full (inside all edges:
   coverage known without per-sample work) or partial.
2. Surviving pairs expand to pixels (row by row with ``np.repeat``); partial ones
   evaluate the three edge functions at every sample in exact int64 arithmetic.

A fragment is one (triangle, pixel) with a nonzero sample coverage mask. Fragments
come out in setup-triangle order (and within a triangle, block by block), which is
primitive order: the ISP ranks them per pixel from that.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .constants import SUBPIXEL_BITS, SUBPIXEL_ONE, sample_positions_fx
from .setup import TriangleSetup


@dataclass(frozen=True)
class Fragments:
    """Rasteriser output, F fragments of ``samples`` samples each.

    ``tri`` (F,) int32: setup-triangle row (``setup.prim[tri]`` is the primitive id).
    ``x``, ``y`` (F,) int32: pixel. ``coverage`` (F,) uint8: bit s = sample s covered.
    ``z`` (F, samples) float32: window depth at each sample (polygon offset added,
    clamped to the depth clamp range), valid where covered.
    """

    tri: np.ndarray
    x: np.ndarray
    y: np.ndarray
    coverage: np.ndarray
    z: np.ndarray
    samples: int

    def __len__(self) -> int:
        return len(self.tri)

    def take(self, index: np.ndarray) -> "Fragments":
        """The fragments at ``index`` (int array or bool mask), in that order."""
        return Fragments(self.tri[index], self.x[index], self.y[index], self.coverage[index],
                         self.z[index], self.samples)


def intersect_rects(*rects: tuple[int, int, int, int] | None) -> tuple[int, int, int, int]:
    """Intersection of (x0, y0, x1, y1) rectangles (exclusive ends); None is ignored."""
    x0 = y0 = -(1 << 30)
    x1 = y1 = 1 << 30
    for r in rects:
        if r is None:
            continue
        x0, y0 = max(x0, int(r[0])), max(y0, int(r[1]))
        x1, y1 = min(x1, int(r[2])), min(y1, int(r[3]))
    return x0, y0, max(x1, x0), max(y1, y0)


def _expand_counts(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(owner, index within owner) for ``counts[i]`` items of owner i."""
    total = int(counts.sum())
    owner = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    start = np.cumsum(counts) - counts
    local = np.arange(total, dtype=np.int64) - np.repeat(start, counts)
    return owner, local


def _expand_rects(x0: np.ndarray, y0: np.ndarray, w: np.ndarray, h: np.ndarray):
    """All pixels of rectangles (origin x0, y0; size w, h; all (P,) int64), row-major.

    Returns (rect index, x, y), each (sum(w*h),) int64.
    """
    row_rect, row_local = _expand_counts(h)                 # one entry per rectangle row
    row_w = w[row_rect]
    pix_row, pix_local = _expand_counts(row_w)
    rect = row_rect[pix_row]
    x = x0[rect] + pix_local
    y = y0[rect] + row_local[pix_row]
    return rect, x, y


def rasterize(setup: TriangleSetup, rect: tuple[int, int, int, int], samples: int = 1, *,
              rows: np.ndarray | None = None, depth_clamp: tuple[float, float] = (0.0, 1.0),
              block_px: int = 8) -> Fragments:
    """Rasterise setup triangles inside ``rect`` = (x0, y0, x1, y1) pixels (exclusive).

    ``rect`` is the intersection of viewport, scissor, framebuffer and, for tiled
    rendering, the tile (``intersect_rects``). ``samples``: 1, 2 or 4 at the standard
    positions (``constants.SAMPLE_POSITIONS_16THS``). ``rows``: optional sorted subset of
    setup rows (a tile's list). ``depth_clamp``: the range fragment depth is clamped
    to after the offset ([0, 1] for GL; [min(n,f), max(n,f)] with depth clamp).
    """
    pos = sample_positions_fx(samples)                      # (S, 2)
    all_bits = (1 << samples) - 1
    rows = np.arange(len(setup), dtype=np.int64) if rows is None else np.asarray(rows, np.int64)
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    bb = setup.bbox_px[rows]
    bx0 = np.maximum(bb[:, 0], rx0)
    by0 = np.maximum(bb[:, 1], ry0)
    bw = np.minimum(bb[:, 2], rx1) - bx0
    bh = np.minimum(bb[:, 3], ry1) - by0
    live = (bw > 0) & (bh > 0)
    rows, bx0, by0, bw, bh = rows[live], bx0[live], by0[live], bw[live], bh[live]

    # --- level 1: (triangle, block) pairs ---------------------------------------
    B = int(block_px)
    nbx = (bw + B - 1) // B
    nby = (bh + B - 1) // B
    pair_tri_local, blk = _expand_counts(nbx * nby)
    pbx = blk % nbx[pair_tri_local]
    pby = blk // nbx[pair_tri_local]
    px0 = bx0[pair_tri_local] + pbx * B
    py0 = by0[pair_tri_local] + pby * B
    pw = np.minimum(px0 + B, (bx0 + bw)[pair_tri_local]) - px0
    ph = np.minimum(py0 + B, (by0 + bh)[pair_tri_local]) - py0
    ptri = rows[pair_tri_local]
    # sample extent of the block in fx
    sx_lo = (px0 << SUBPIXEL_BITS) + pos[:, 0].min()
    sx_hi = ((px0 + pw - 1) << SUBPIXEL_BITS) + pos[:, 0].max()
    sy_lo = (py0 << SUBPIXEL_BITS) + pos[:, 1].min()
    sy_hi = ((py0 + ph - 1) << SUBPIXEL_BITS) + pos[:, 1].max()
    reject = np.zeros(len(ptri), bool)
    full = np.ones(len(ptri), bool)
    for i in range(3):
        a = setup.edge_a[ptri, i]
        b = setup.edge_b[ptri, i]
        cb = setup.edge_c[ptri, i] - setup.edge_bias[ptri, i]
        emax = cb + a * np.where(a > 0, sx_hi, sx_lo) + b * np.where(b > 0, sy_hi, sy_lo)
        emin = cb + a * np.where(a > 0, sx_lo, sx_hi) + b * np.where(b > 0, sy_lo, sy_hi)
        reject |= emax < 0
        full &= emin >= 0
    keep = ~reject
    ptri, px0, py0, pw, ph, full = ptri[keep], px0[keep], py0[keep], pw[keep], ph[keep], full[keep]

    # --- level 2: pixels ---------------------------------------------------------
    pair, x, y = _expand_rects(px0, py0, pw, ph)
    tri = ptri[pair]
    coverage = np.full(len(tri), all_bits, dtype=np.uint8)
    part = np.flatnonzero(~full[pair])
    if len(part):
        t = tri[part]
        X = x[part] << SUBPIXEL_BITS
        Y = y[part] << SUBPIXEL_BITS
        cov = np.zeros(len(part), dtype=np.uint8)
        inside = [None] * samples
        for i in range(3):
            a = setup.edge_a[t, i]
            b = setup.edge_b[t, i]
            base = a * X + b * Y + (setup.edge_c[t, i] - setup.edge_bias[t, i])
            for s in range(samples):
                ok = (base + (a * pos[s, 0] + b * pos[s, 1])) >= 0
                inside[s] = ok if i == 0 else (inside[s] & ok)
        for s in range(samples):
            cov |= inside[s].astype(np.uint8) << s
        coverage[part] = cov
        nonzero = coverage != 0
        if not nonzero.all():
            tri, x, y, coverage = tri[nonzero], x[nonzero], y[nonzero], coverage[nonzero]

    # --- depth per sample ----------------------------------------------------------
    z = sample_depth(setup, tri, x, y, samples, depth_clamp)
    return Fragments(tri.astype(np.int32), x.astype(np.int32), y.astype(np.int32), coverage, z, samples)


def sample_depth(setup: TriangleSetup, tri: np.ndarray, x: np.ndarray, y: np.ndarray,
                 samples: int, depth_clamp: tuple[float, float] = (0.0, 1.0)) -> np.ndarray:
    """(F, samples) float32 window depth of triangles ``tri`` at pixels (x, y)'s samples,
    from the depth plane through the snapped corners, plus the polygon offset."""
    pos_px = sample_positions_fx(samples) / SUBPIXEL_ONE
    x0_px = setup.x_fx[:, 0] / SUBPIXEL_ONE
    y0_px = setup.y_fx[:, 0] / SUBPIXEL_ONE
    dzdx, dzdy = setup.dzdx, setup.dzdy
    # per triangle and sample: depth at pixel (0, 0)'s sample s
    z_origin = (setup.z[:, 0] + setup.z_offset - dzdx * x0_px - dzdy * y0_px)[:, None] \
        + dzdx[:, None] * pos_px[None, :, 0] + dzdy[:, None] * pos_px[None, :, 1]
    zf = dzdx[tri] * x + dzdy[tri] * y
    z = z_origin[tri] + zf[:, None]
    lo, hi = depth_clamp
    np.clip(z, lo, hi, out=z)
    return z.astype(np.float32)


def barycentrics(setup: TriangleSetup, frags: Fragments, *, sample: int | None = None,
                 perspective: bool = True, over_vertices: bool = True) -> np.ndarray:
    """Interpolation weights of every fragment, float32.

    Evaluated at the pixel centre (``sample`` None) or at sample ``sample`` of
    ``frags.samples``; outside the triangle they extrapolate (GL's non-centroid rule).
    ``perspective``: perspective-correct (smooth) or screen-linear (noperspective).
    Returns (F, 3) weights over the setup triangle's corners, or with
    ``over_vertices`` (F, k) over the primitive's vertices (k = 2 for lines, 1 for
    points; same as corners for triangles). Rows sum to 1.
    """
    t = frags.tri.astype(np.int64)
    if sample is None:
        ox = oy = SUBPIXEL_ONE // 2
    else:
        ox, oy = sample_positions_fx(frags.samples)[sample]
    X = (frags.x.astype(np.int64) << SUBPIXEL_BITS) + ox
    Y = (frags.y.astype(np.int64) << SUBPIXEL_BITS) + oy
    inv_area = 1.0 / setup.area2_fx[t]
    lam = np.empty((len(t), 3), dtype=np.float64)
    for i in range(3):
        e = setup.edge_a[t, i] * X + setup.edge_b[t, i] * Y + setup.edge_c[t, i]
        lam[:, i] = e * inv_area
    if perspective:
        lam *= setup.inv_w[t]
        lam /= lam.sum(axis=1, keepdims=True)
    if over_vertices and setup.corner_weights is not None:
        lam = np.einsum("fc,fck->fk", lam, setup.corner_weights[t])
    return lam.astype(np.float32)


def point_coords(setup: TriangleSetup, frags: Fragments) -> np.ndarray:
    """(F, 2) float32 gl_PointCoord at pixel centres for point fragments (setup made
    by ``setup_points``)."""
    if setup.corner_uv is None:
        raise ValueError("point_coords needs a setup from setup_points")
    lam = barycentrics(setup, frags, perspective=False, over_vertices=False).astype(np.float64)
    uv = setup.corner_uv[frags.tri]
    return np.einsum("fc,fcu->fu", lam, uv).astype(np.float32)
