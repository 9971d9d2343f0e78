"""Rasterisation: setup triangles -> fragments, in bulk, already in rank layers.

Three steps, each vectorised over all triangles at once:

1. **Blocks.** The raster rectangle is cut into ``block_px`` x ``block_px`` blocks
   on a grid aligned with the rectangle's corner. Every (triangle, block) pair the
   triangle's pixel bounding box touches is classified from the edge functions at
   the corners of its sample extent: rejected (outside one edge), full (inside all
   edges: coverage known without per-sample work) or partial.
2. **Layers.** Pairs are numbered within their block in triangle order (the block
   rank). Block rank k of all blocks forms layer k: a layer never holds two pairs
   of one block, hence never two fragments of one pixel, and a pixel's fragments
   appear in increasing layers in triangle (= primitive) order. These are the
   ISP's per-pixel rank layers at block granularity, found by sorting pairs, never
   fragments.
3. **Pixels.** Full pairs of a whole block expand by broadcasting; for the others
   (partial pairs, blocks cut by the bounding box or the rectangle) every pixel row
   gets its exact covered span per sample from the three edge functions (int64
   floor/ceil divisions), and only pixels inside the spans are expanded.

A fragment is one (triangle, pixel) with a nonzero sample coverage mask.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .constants import SUBPIXEL_BITS, SUBPIXEL_ONE, sample_positions_fx
from .native import block_pairs as block_pairs_c
from .native import emit_fragments as emit_fragments_c
from .native import row_intervals as row_intervals_c
from .native import span_fragments as span_fragments_c
from .native_geometry import block_layers as block_layers_c
from .setup import TriangleSetup


@dataclass(frozen=True)
class Fragments:
    """Rasteriser output, F fragments of ``samples`` samples each.

    ``tri`` (F,) int32: setup-triangle row (``setup.prim[tri]`` is the primitive id).
    ``x``, ``y`` (F,) int32: pixel. ``coverage`` (F,) uint8: bit s = sample s covered.
    ``z`` (F, samples) float32: window depth at each sample (polygon offset added,
    clamped to the depth clamp range), valid where covered.
    ``layer_offsets`` (L + 1,) int64 or None: fragments ``layer_offsets[k] :
    layer_offsets[k+1]`` form layer k; no pixel occurs twice in a layer, and the
    fragments of a pixel occur in increasing layers in primitive order (``layers``
    turns this into the ISP's ``RankLayers``). None: no layering known (use
    ``isp.rank_layers``).
    """

    tri: np.ndarray
    x: np.ndarray
    y: np.ndarray
    coverage: np.ndarray
    z: np.ndarray
    samples: int
    layer_offsets: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.tri)

    def take(self, index: np.ndarray) -> "Fragments":
        """The fragments at ``index`` (int array or bool mask), in that order (the
        layering is dropped)."""
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
    """(owner, index within owner) for ``counts[i]`` items of owner i (int32 when
    the total allows, else int64)."""
    total = int(counts.sum())
    it = np.int32 if total < 2 ** 31 else np.int64
    owner = np.repeat(np.arange(len(counts), dtype=it), counts)
    start = (np.cumsum(counts) - counts).astype(it)
    local = np.arange(total, dtype=it) - np.repeat(start, counts)
    return owner, local


def _group_ranks(group: np.ndarray) -> np.ndarray:
    """Rank of each item within its group, in input order (group: (P,) int64 >= 0)."""
    n = len(group)
    if n == 0:
        return np.zeros(0, np.int64)
    key = group * n + np.arange(n, dtype=np.int64)          # unique: plain sort suffices
    key.sort()
    item = key % n
    g = key // n
    idx = np.arange(n, dtype=np.int64)
    start = np.empty(n, bool)
    start[0] = True
    np.not_equal(g[1:], g[:-1], out=start[1:])
    rank = np.empty(n, np.int64)
    rank[item] = idx - np.maximum.accumulate(np.where(start, idx, 0))
    return rank


def _span_fragments(a, b, cb, px0, py0, pw, ph, pos):
    """``_span_fragments_numpy`` (the specification) in C when the kernel is usable
    (``native.span_fragments``: the same arrays)."""
    got = span_fragments_c(a, b, cb, px0, py0, pw, ph, pos)
    return got if got is not None else _span_fragments_numpy(a, b, cb, px0, py0, pw, ph, pos)


def _span_fragments_numpy(a, b, cb, px0, py0, pw, ph, pos):
    """Covered pixels of P partial pairs, found per pixel row as exact spans.

    ``a``, ``b``, ``cb`` (P, 3) int64: edge coefficients (fill-rule bias folded into
    ``cb``); the pair covers pixels (px0 + dx, py0 + dy), 0 <= dx < pw, 0 <= dy < ph;
    ``pos`` (S, 2) sample offsets in fx. On one pixel row, at sample s, edge i is
    ``e(dx) = e0 + A*dx`` with A = 256 a, so ``e >= 0`` holds on a half-line of dx
    whose end is an exact integer floor/ceil division; three half-lines and the
    pair's width give the row's span. Only pixels inside the union of the samples'
    spans are expanded; per-sample bits compare dx with each sample's span.

    Returns (pair, dx, dy, coverage): int32, int32, int32, uint8, one per pixel
    with at least one covered sample, pair-major and row-major.
    """
    row_pair, dy, spans = _row_spans(a, b, cb, px0, py0, pw, ph, pos)
    samples = len(pos)
    if samples == 1:
        lo, hi = spans[0]
    else:
        lo = np.minimum.reduce([sp[0] for sp in spans])
        hi = np.maximum.reduce([sp[1] for sp in spans])
    count = np.maximum(hi - lo + 1, 0)
    row, k = _expand_counts(count)
    dx = (lo[row] + k).astype(np.int32)
    pair = row_pair[row]
    pdy = dy[row]
    if samples == 1:
        cov = np.ones(len(row), np.uint8)
    else:
        cov = np.zeros(len(row), np.uint8)
        for s, (slo, shi) in enumerate(spans):
            inside = (dx >= slo[row]) & (dx <= shi[row])
            cov |= inside.astype(np.uint8) << s
        nz = np.flatnonzero(cov)
        if len(nz) < len(cov):
            pair, dx, pdy, cov = pair[nz], dx[nz], pdy[nz], cov[nz]
    return pair, dx, pdy, cov


def _row_spans(a, b, cb, px0, py0, pw, ph, pos):
    """Every pixel row of P pairs (see ``_span_fragments_numpy``) and its exact span
    per sample: (row_pair, dy, [(lo, hi) per sample]), int64 dx bounds from the
    pair's origin pixel, inclusive (lo > hi: nothing covered)."""
    samples = len(pos)
    row_pair, dy = _expand_counts(ph)
    w = pw[row_pair]
    big = np.int64(1) << 40
    spans = []
    for s in range(samples):
        lo = np.zeros(len(row_pair), np.int64)
        hi = w.astype(np.int64) - 1
        for i in range(3):
            ai = a[:, i]
            # edge value at the pair's origin pixel, sample s, then at each row start
            e0 = cb[:, i] + ai * ((px0 << SUBPIXEL_BITS) + pos[s, 0]) + b[:, i] * ((py0 << SUBPIXEL_BITS) + pos[s, 1])
            thr = -(e0[row_pair] + (b[:, i] << SUBPIXEL_BITS)[row_pair] * dy)     # need A*dx >= thr
            A = (ai << SUBPIXEL_BITS)[row_pair]
            zero = A == 0
            q = thr // np.where(zero, 1, A)                      # floor(thr / A)
            exact = q * A == thr
            lo = np.maximum(lo, np.where(A > 0, q + ~exact, 0))  # ceil for A > 0
            hi = np.minimum(hi, np.where(A < 0, q, big))         # floor for A < 0
            hi = np.where(zero & (thr > 0), -1, hi)              # A == 0: all or nothing
        spans.append((lo, hi))
    return row_pair, dy, spans


def _block_pairs(setup: TriangleSetup, rect, pos, rows, block_px):
    """Step 1: the (triangle, block) pairs that are not rejected, in triangle order:
    (B, grid_w, ptri, gx, gy, px0, py0, pw, ph, full, a, b, cb). Pair k covers at
    most pixels px0..px0+pw-1, py0..py0+ph-1 of block (gx, gy); ``full``: every
    sample of them is inside; ``a``, ``b``, ``cb``: its edge coefficients."""
    rows, bx0, by0, bx1, by1 = _pixel_boxes(setup, rect, pos, rows)
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)

    # --- 1. (triangle, block) pairs on the rectangle's block grid -------------------
    if block_px is None:
        mean_area = float(((bx1 - bx0) * (by1 - by0)).mean()) if len(rows) else 0.0
        block_px = 16 if mean_area > 1024 else 8
    B = int(block_px)
    grid_w = max((rx1 - rx0 + B - 1) // B, 1)
    got = block_pairs_c(setup, rows, bx0, by0, bx1, by1, rx0, ry0, B, pos)
    if got is not None:
        return (B, grid_w, *got)
    gx0 = (bx0 - rx0) // B
    gy0 = (by0 - ry0) // B
    ngx = (bx1 - 1 - rx0) // B - gx0 + 1
    ngy = (by1 - 1 - ry0) // B - gy0 + 1
    owner, blk = _expand_counts(ngx * ngy)
    gy, gx = np.divmod(blk, ngx[owner])
    gx += gx0[owner]
    gy += gy0[owner]
    px0 = np.maximum(rx0 + gx * B, bx0[owner])
    py0 = np.maximum(ry0 + gy * B, by0[owner])
    pw = np.minimum(rx0 + gx * B + B, bx1[owner]) - px0
    ph = np.minimum(ry0 + gy * B + B, by1[owner]) - py0
    ptri = rows[owner]
    sx_lo = (px0 << SUBPIXEL_BITS) + pos[:, 0].min()
    sx_hi = ((px0 + pw - 1) << SUBPIXEL_BITS) + pos[:, 0].max()
    sy_lo = (py0 << SUBPIXEL_BITS) + pos[:, 1].min()
    sy_hi = ((py0 + ph - 1) << SUBPIXEL_BITS) + pos[:, 1].max()
    reject = np.zeros(len(ptri), bool)
    full = np.ones(len(ptri), bool)
    a = setup.edge_a[ptri]
    b = setup.edge_b[ptri]
    cb = setup.edge_c[ptri] - setup.edge_bias[ptri]
    for i in range(3):
        ai, bi = a[:, i], b[:, i]
        xa, xb = np.where(ai > 0, sx_hi, sx_lo), np.where(ai > 0, sx_lo, sx_hi)
        ya, yb = np.where(bi > 0, sy_hi, sy_lo), np.where(bi > 0, sy_lo, sy_hi)
        reject |= cb[:, i] + ai * xa + bi * ya < 0
        full &= cb[:, i] + ai * xb + bi * yb >= 0
    keep = np.flatnonzero(~reject)
    ptri, gx, gy, px0, py0, pw, ph, full = (v[keep] for v in (ptri, gx, gy, px0, py0, pw, ph, full))
    a, b, cb = a[keep], b[keep], cb[keep]
    return B, grid_w, ptri, gx, gy, px0, py0, pw, ph, full, a, b, cb


def _pixel_boxes(setup: TriangleSetup, rect, pos, rows):
    """The setup ``rows`` (None: all) whose pixel box inside ``rect`` is not empty,
    with that box (bx0, by0, bx1, by1: the pixels with a sample inside the row's fx
    bounding box, exclusive ends), int64."""
    rows = np.arange(len(setup), dtype=np.int64) if rows is None else np.asarray(rows, np.int64)
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    # pixels with a sample inside the triangle's fx bounding box
    xf, yf = setup.x_fx.take(rows, axis=0), setup.y_fx.take(rows, axis=0)
    # (per-corner minimum/maximum: numpy's axis=1 reductions are slow over 3 columns)
    x_lo, x_hi = np.minimum(np.minimum(xf[:, 0], xf[:, 1]), xf[:, 2]), np.maximum(np.maximum(xf[:, 0], xf[:, 1]), xf[:, 2])
    y_lo, y_hi = np.minimum(np.minimum(yf[:, 0], yf[:, 1]), yf[:, 2]), np.maximum(np.maximum(yf[:, 0], yf[:, 1]), yf[:, 2])
    bx0 = np.maximum(-((int(pos[:, 0].max()) - x_lo) >> SUBPIXEL_BITS), rx0)
    by0 = np.maximum(-((int(pos[:, 1].max()) - y_lo) >> SUBPIXEL_BITS), ry0)
    bx1 = np.minimum(((x_hi - int(pos[:, 0].min())) >> SUBPIXEL_BITS) + 1, rx1)
    by1 = np.minimum(((y_hi - int(pos[:, 1].min())) >> SUBPIXEL_BITS) + 1, ry1)
    live = (bx1 > bx0) & (by1 > by0)
    return rows[live], bx0[live], by0[live], bx1[live], by1[live]


def covered_pixels(setup: TriangleSetup, rect: tuple[int, int, int, int], *, rows: np.ndarray | None = None,
                   block_px: int | None = None) -> tuple[np.ndarray, int]:
    """Single-sample coverage without fragments: (bool image of ``rect``, rows y0..y1-1
    by columns x0..x1-1, set where some triangle covers the pixel; the number of
    fragments ``rasterize`` would return). For passes that only need which pixels
    are covered (one uniform shader, no depth/stencil): whole full blocks are set
    block by block on the grid, so a full-screen quad costs a few thousand block
    writes instead of a million fragments. Same pairs and spans as ``rasterize``."""
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    got = covered_rows(setup, rect, rows=rows) if ROW_INTERVALS else None
    if got is not None:
        lo, hi, count = got
        return _interval_image(lo, hi, max(rx1 - rx0, 0)), count
    pos = sample_positions_fx(1)
    B, grid_w, ptri, gx, gy, px0, py0, pw, ph, full, a, b, cb = _block_pairs(setup, rect, pos, rows, block_px)
    grid_h = max((ry1 - ry0 + B - 1) // B, 1)
    padded = np.zeros((grid_h * B, grid_w * B), bool)
    whole = full & (pw == B) & (ph == B)
    padded.reshape(grid_h, B, grid_w, B)[gy[whole], :, gx[whole], :] = True
    rest = ~whole
    pair, dx, dy, _ = _span_fragments(a[rest], b[rest], cb[rest], px0[rest], py0[rest], pw[rest], ph[rest], pos)
    padded[(py0[rest] - ry0).astype(np.int32)[pair] + dy, (px0[rest] - rx0).astype(np.int32)[pair] + dx] = True
    count = int(np.count_nonzero(whole)) * B * B + len(pair)
    return padded[:max(ry1 - ry0, 0), :max(rx1 - rx0, 0)], count


#: Find the coverage of a few triangles as one interval per pixel row
#: (``covered_rows``); tests switch it off to compare with the blocks and spans.
ROW_INTERVALS = True
#: The most live setup rows ``covered_rows`` takes (its arrays are rows x height).
ROW_INTERVAL_TRIS = 8
_FAR = np.int64(1) << 40


def covered_rows(setup: TriangleSetup, rect: tuple[int, int, int, int], *,
                 rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Single-sample coverage of a few triangles (at most ``ROW_INTERVAL_TRIS`` rows
    reach ``rect``; a full-screen quad, a blit's rectangle or big triangle) as one
    interval per pixel row, with no per-pixel work: (lo, hi, fragments), int64 (h,)
    columns from ``rect``'s x0, inclusive (lo > hi: the row covers nothing), and the
    number of fragments ``rasterize`` would return. Each triangle's exact span of
    every row is ``rasterize``'s (``_row_spans``: the three edge functions with the
    fill rule, so the tie-break of a shared diagonal and the partial pixels of
    non-integer edges are its); the row's covered pixels are their union. None
    when there are more triangles or some row's union is not one interval."""
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    h = max(ry1 - ry0, 0)
    pos = sample_positions_fx(1)
    if (len(setup) if rows is None else len(rows)) <= ROW_INTERVAL_TRIS:
        got = row_intervals_c(setup, np.arange(len(setup), dtype=np.int64) if rows is None else rows, rect, pos)
        if got is not None:
            return got or None
    rows, bx0, by0, bx1, by1 = _pixel_boxes(setup, rect, pos, rows)
    n = len(rows)
    if n > ROW_INTERVAL_TRIS:
        return None
    got = row_intervals_c(setup, rows, rect, pos)
    if got is not None:
        return got or None
    lo = np.full((max(n, 1), h), _FAR, np.int64)
    hi = np.full((max(n, 1), h), -_FAR, np.int64)
    if n == 0:
        return lo[0], hi[0], 0
    a, b = setup.edge_a.take(rows, axis=0), setup.edge_b.take(rows, axis=0)
    cb = setup.edge_c.take(rows, axis=0) - setup.edge_bias.take(rows, axis=0)
    row_pair, dy, ((s_lo, s_hi),) = _row_spans(a, b, cb, bx0, by0, bx1 - bx0, by1 - by0, pos)
    live = np.flatnonzero(s_hi >= s_lo)
    fragments = int((s_hi[live] - s_lo[live] + 1).sum())
    tri, y = row_pair[live], (by0 - ry0)[row_pair[live]] + dy[live]
    x0 = (bx0 - rx0)[tri]
    lo[tri, y] = x0 + s_lo[live]
    hi[tri, y] = x0 + s_hi[live]
    if n == 1:
        return lo[0], hi[0], fragments
    order = np.argsort(lo, axis=0, kind="stable")       # per row, the spans from the left
    lo = np.take_along_axis(lo, order, 0)
    reach = np.maximum.accumulate(np.take_along_axis(hi, order, 0), axis=0)
    if ((lo[1:] != _FAR) & (lo[1:] > reach[:-1] + 1)).any():
        return None                                     # a gap between two spans of a row
    return lo[0], reach[-1], fragments


def _interval_image(lo: np.ndarray, hi: np.ndarray, w: int) -> np.ndarray:
    """The bool (h, w) image of one inclusive interval per row (``covered_rows``):
    a rectangle as one slice, other shapes by comparing columns."""
    image = np.zeros((len(lo), w), bool)
    on = np.flatnonzero(hi >= lo)
    if len(on) == 0:
        return image
    left, right = lo[on], hi[on]
    if on[-1] - on[0] + 1 == len(on) and (left == left[0]).all() and (right == right[0]).all():
        image[on[0]:on[-1] + 1, left[0]:right[0] + 1] = True
        return image
    xs = np.arange(w)
    np.logical_and(xs >= lo[:, None], xs <= hi[:, None], out=image)
    return image


class Scratch:
    """Output memory one caller reuses from call to call of ``rasterize``: the
    fragments of a call are views of it, valid until the next call given the same
    scratch. Big fragment arrays are otherwise fresh pages every call (the kernel
    maps and zeroes each page on first touch); reused, they are written in place.
    Holds at most ``max_B`` bytes (beyond that a call allocates as usual)."""

    def __init__(self, max_B: int):
        self.max_B = max_B
        self._arrays: dict = {}

    def empty(self, name: str, shape: tuple, dtype) -> np.ndarray:
        """An uninitialised array of ``shape``, from the scratch when it fits."""
        dtype = np.dtype(dtype)
        n_B = int(np.prod(shape)) * dtype.itemsize
        held = self._arrays.get(name)
        if held is not None and held.nbytes >= n_B:
            return held[:n_B].view(dtype).reshape(shape)
        others = sum(a.nbytes for k, a in self._arrays.items() if k != name)
        if others + n_B > self.max_B:
            return np.empty(shape, dtype)
        self._arrays[name] = np.empty(n_B, np.uint8)
        return self._arrays[name].view(dtype).reshape(shape)


def _fresh(name: str, shape, dtype, scratch: "Scratch | None") -> np.ndarray:
    return np.empty(shape, dtype) if scratch is None else scratch.empty(name, shape, dtype)


def rasterize(setup: TriangleSetup, rect: tuple[int, int, int, int], samples: int = 1, *,
              rows: np.ndarray | None = None, depth_clamp: tuple[float, float] = (0.0, 1.0),
              block_px: int | None = None, depth: bool = True, scratch: Scratch | None = None,
              centre: bool = False) -> Fragments:
    """Rasterise setup triangles inside ``rect`` = (x0, y0, x1, y1) pixels (exclusive).

    ``rect`` is the intersection of viewport, scissor, framebuffer and, for tiled
    rendering, the tile (``intersect_rects``). ``samples``: 1, 2 or 4 at the standard
    positions (``constants.SAMPLE_POSITIONS_16THS``). ``rows``: optional increasing
    subset of setup rows (a tile's list). ``depth_clamp``: the range fragment depth
    is clamped to after the offset ([0, 1] for GL; [min(n,f), max(n,f)] with depth
    clamp). ``block_px``: the block size (a power of two); None picks 16 when the
    triangles' clipped bounding boxes average over 1024 px, else 8 (measured best
    for big and for small triangles). ``depth``: False when no one reads the
    fragments' depth (no depth/stencil test in the pass): ``z`` is then a read-only
    array of zeros, not computed. ``scratch``: the caller's ``Scratch``; the arrays
    of whole blocks' fragments are then views of it (valid until its next use).
    ``centre``: every sample is taken at the pixel centre (``PPP_RASTER.multisample``
    off): coverage all or none and one depth per pixel, on ``samples`` samples.
    Returns layered ``Fragments`` (see there).
    """
    pos = np.repeat(sample_positions_fx(1), samples, axis=0) if centre else sample_positions_fx(samples)   # (S, 2)
    all_bits = (1 << samples) - 1
    B, grid_w, ptri, gx, gy, px0, py0, pw, ph, full, a, b, cb = _block_pairs(setup, rect, pos, rows, block_px)

    # --- 2. layers: rank of each pair within its block, triangle order ----------------
    whole = full & (pw == B) & (ph == B)
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    grid_h = max((ry1 - ry0 + B - 1) // B, 1)
    got = block_layers_c(gx, gy, grid_w, grid_w * grid_h, whole)
    if got is not None:
        layer, nlayers, order = got
    else:
        layer = _group_ranks(gy * grid_w + gx)
        nlayers = int(layer.max()) + 1 if len(layer) else 0
        # two streams, each in layer order: whole-block full pairs, then all the others
        order = np.argsort(np.where(whole, 0, nlayers) + layer, kind="stable")
    ptri, px0, py0, pw, ph, full, whole, layer, a, b, cb = (
        v.take(order, axis=0) for v in (ptri, px0, py0, pw, ph, full, whole, layer, a, b, cb))
    n_whole = int(whole.sum())

    # per-pair depth plane: z at sample s of pixel (px0, py0), and slopes per pixel
    pos_px = pos / SUBPIXEL_ONE
    zt = (setup.z[:, 0] + setup.z_offset - setup.dzdx * (setup.x_fx[:, 0] / SUBPIXEL_ONE)
          - setup.dzdy * (setup.y_fx[:, 0] / SUBPIXEL_ONE))[ptri]
    dzdx = setup.dzdx[ptri]
    dzdy = setup.dzdy[ptri]
    zp = (zt + dzdx * px0 + dzdy * py0)[:, None] + dzdx[:, None] * pos_px[:, 0] + dzdy[:, None] * pos_px[:, 1]
    zp = zp.astype(np.float32)
    dzdx = dzdx.astype(np.float32)
    dzdy = dzdy.astype(np.float32)

    # --- 3a. the other pairs: exact spans per pixel row ------------------------------
    rest = slice(n_whole, None)
    pair, dx, dy, r_cov = _span_fragments(a[rest], b[rest], cb[rest], px0[rest], py0[rest],
                                          pw[rest], ph[rest], pos)
    # the partial pairs are in layer order and their fragments pair-major: a layer's
    # fragments are those of its run of pairs
    runs = np.searchsorted(layer[rest], np.arange(nlayers + 1))
    r_layer_counts = np.diff(np.searchsorted(pair, runs))

    def partial_stream():
        r_tri = ptri[rest].astype(np.int32)[pair]
        r_x = px0[rest].astype(np.int32)[pair] + dx
        r_y = py0[rest].astype(np.int32)[pair] + dy
        r_z = zp[rest][pair] + (dzdx[rest][pair] * dx + dzdy[rest][pair] * dy)[:, None] if depth else None
        return r_tri, r_x, r_y, r_z

    # --- 3b. whole full blocks, broadcast straight into the output, layer by layer --
    nb = B * B
    w_layer_counts = np.bincount(layer[:n_whole], minlength=nlayers) * nb
    offsets = np.zeros(nlayers + 1, np.int64)
    np.cumsum(w_layer_counts + r_layer_counts, out=offsets[1:])
    # (with or without whole blocks, every fragment's depth is float32: the span
    # fragments' binary64 depth is rounded once when it is stored)
    total = int(offsets[-1])
    tri = _fresh("tri", (total,), np.int32, scratch)
    x = _fresh("x", (total,), np.int32, scratch)
    y = _fresh("y", (total,), np.int32, scratch)
    coverage = _fresh("coverage", (total,), np.uint8, scratch)
    z = _fresh("z", (total, samples), np.float32, scratch) if depth else None
    w_pairs = np.concatenate(([0], np.cumsum(w_layer_counts // nb)))
    r_off = np.concatenate(([0], np.cumsum(r_layer_counts)))
    if not emit_fragments_c(w_pairs, r_off, offsets, B, samples, all_bits, ptri[:n_whole], px0[:n_whole],
                            py0[:n_whole], pair, dx, dy, r_cov, n_whole, ptri, px0, py0, zp, dzdx, dzdy,
                            tri, x, y, coverage, z):
        _emit_numpy(w_pairs, r_off, offsets, B, samples, all_bits, n_whole, ptri, px0, py0, zp, dzdx, dzdy,
                    r_cov, partial_stream(), tri, x, y, coverage, z)
    if depth:
        lo, hi = depth_clamp
        np.maximum(z, np.float32(lo), out=z)
        np.minimum(z, np.float32(hi), out=z)
    else:
        z = np.broadcast_to(np.float32(0), (total, samples))
    offsets = np.unique(offsets)          # drop layers left empty by zero-coverage pairs
    return Fragments(tri.astype(np.int32, copy=False), x.astype(np.int32, copy=False),
                     y.astype(np.int32, copy=False), coverage, z, samples, offsets)


def _emit_numpy(w_pairs, r_off, offsets, B, samples, all_bits, n_whole, ptri, px0, py0, zp, dzdx, dzdy, r_cov,
                partial, tri, x, y, coverage, z) -> None:
    """``rasterize``'s step 3 (the specification of ``native.emit_fragments``): layer
    k's whole full blocks (pairs ``w_pairs[k]:w_pairs[k+1]``) broadcast, then its
    partial pairs' span fragments (``r_off[k]:r_off[k+1]`` of ``partial`` = (tri, x,
    y, z)), written at ``offsets[k]``; ``z`` None: no depth."""
    r_tri, r_x, r_y, r_z = partial
    nb = B * B
    nlayers = len(offsets) - 1
    ly, lx = np.divmod(np.arange(nb, dtype=np.int32), B)
    lxf, lyf = lx.astype(np.float32), ly.astype(np.float32)
    w_tri, w_x, w_y = (v[:n_whole].astype(np.int32) for v in (ptri, px0, py0))

    def whole(dst: int, p0: int, p1: int) -> None:
        n = p1 - p0
        end = dst + n * nb
        tri[dst:end].reshape(n, nb)[:] = w_tri[p0:p1, None]
        np.add(w_x[p0:p1, None], lx, out=x[dst:end].reshape(n, nb))
        np.add(w_y[p0:p1, None], ly, out=y[dst:end].reshape(n, nb))
        coverage[dst:end] = all_bits
        if z is None:
            return
        dz = dzdx[p0:p1, None] * lxf
        dz += dzdy[p0:p1, None] * lyf
        np.add(zp[p0:p1, None, :], dz[:, :, None], out=z[dst:end].reshape(n, nb, samples))

    if len(r_tri) == 0:
        whole(0, 0, n_whole)
        return
    if n_whole == 0:                    # the span fragments are already in layer order
        tri[:], x[:], y[:], coverage[:] = r_tri, r_x, r_y, r_cov
        if z is not None:
            z[:] = r_z                  # (binary64 rounded once to float32)
        return
    for k in range(nlayers):
        dst = int(offsets[k])
        if w_pairs[k + 1] > w_pairs[k]:
            whole(dst, int(w_pairs[k]), int(w_pairs[k + 1]))
            dst += int(w_pairs[k + 1] - w_pairs[k]) * nb
        r0, r1 = int(r_off[k]), int(r_off[k + 1])
        if r1 > r0:
            end = dst + r1 - r0
            tri[dst:end] = r_tri[r0:r1]
            x[dst:end] = r_x[r0:r1]
            y[dst:end] = r_y[r0:r1]
            coverage[dst:end] = r_cov[r0:r1]
            if z is not None:
                z[dst:end] = r_z[r0:r1]


def barycentrics(setup: TriangleSetup, frags: Fragments, *, sample: int | None = None,
                 perspective: bool = True, over_vertices: bool = True) -> np.ndarray:
    """Interpolation weights of every fragment, float32.

    Evaluated at the pixel centre (``sample`` None) or at sample ``sample`` of
    ``frags.samples``; outside the triangle they extrapolate (GL's non-centroid rule).
    ``perspective``: perspective-correct (smooth) or screen-linear (noperspective).
    Returns (F, 3) weights over the setup triangle's corners, or with
    ``over_vertices`` (F, k) over the primitive's vertices (k = 2 for lines, 1 for
    points; same as corners for triangles). Rows sum to 1.

    Per triangle, the (perspective-scaled) barycentric numerators and their sum are
    planes in x, y; they are set up exactly in float64 at a reference pixel near
    corner 0 and evaluated per fragment in float32 from one row gather.
    """
    if sample is None:
        ox = oy = SUBPIXEL_ONE // 2
    else:
        ox, oy = (int(v) for v in sample_positions_fx(frags.samples)[sample])
    n = len(frags)
    if n == 0:
        return np.zeros((0, 3 if not over_vertices or setup.corner_weights is None
                         else setup.corner_weights.shape[2]), np.float32)
    # reference pixel: the fragments' corner, so the float32 plane offsets stay small
    rx, ry = int(frags.x.min()), int(frags.y.min())
    X = (rx << SUBPIXEL_BITS) + ox
    Y = (ry << SUBPIXEL_BITS) + oy
    k = 1.0 / setup.area2_fx
    if perspective:
        k = k[:, None] * setup.inv_w
    else:
        k = np.broadcast_to(k[:, None], (len(setup), 3))
    dx = frags.x.astype(np.float32)
    dx -= np.float32(rx)
    dy = frags.y.astype(np.float32)
    dy -= np.float32(ry)
    tri = frags.tri
    lam = np.empty((3, n), np.float32)
    # linear weights sum to 1: the third is 1 - the others; perspective ones need all
    for i in range(3 if perspective else 2):
        e_ref = setup.edge_a[:, i] * X + setup.edge_b[:, i] * Y + setup.edge_c[:, i]      # exact int64
        c = (e_ref * k[:, i]).astype(np.float32)
        ga = ((setup.edge_a[:, i] << SUBPIXEL_BITS) * k[:, i]).astype(np.float32)
        gb = ((setup.edge_b[:, i] << SUBPIXEL_BITS) * k[:, i]).astype(np.float32)
        v = lam[i]
        np.multiply(np.take(ga, tri), dx, out=v)
        v += np.take(gb, tri) * dy
        v += np.take(c, tri)
    if perspective:
        total = lam[0] + lam[1]
        total += lam[2]
        np.reciprocal(total, out=total)
        lam *= total
    else:
        np.subtract(1.0, lam[0], out=lam[2])
        lam[2] -= lam[1]
    lam = lam.T
    if over_vertices and setup.corner_weights is not None:
        lam = np.einsum("fc,fck->fk", lam, setup.corner_weights[frags.tri].astype(np.float32))
    return lam


def point_coords(setup: TriangleSetup, frags: Fragments) -> np.ndarray:
    """(F, 2) float32 gl_PointCoord at pixel centres for point fragments (setup made
    by ``setup_points``)."""
    if setup.corner_uv is None:
        raise ValueError("point_coords needs a setup from setup_points")
    lam = barycentrics(setup, frags, perspective=False, over_vertices=False)
    uv = setup.corner_uv.astype(np.float32)[frags.tri]
    return np.einsum("fc,fcu->fu", lam, uv)
