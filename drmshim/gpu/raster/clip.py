"""Clipping in clip space: triangles, lines and points, vectorised.

A vertex is inside a plane when its signed distance is >= 0. The planes are

* x and y against a **guard band**: ``-G*w <= x, y <= G*w`` with ``G =
  guard_band_ndc`` (default 8: geometry up to 8 viewport-widths off screen is
  not clipped; the rasteriser scissors it to the viewport, which gives the same
  pixels as clipping exactly at ``|x| <= w``). ``G = 1`` clips at the view volume.
* z against the view volume: ``-w <= z <= w`` (GL's default), or ``0 <= z <= w``
  (``zero_to_one_depth=True``, glClipControl's GL_ZERO_TO_ONE); ``clip_z=False``
  skips both (depth clamp).
* every user clip distance (a per-vertex output; the primitive is clipped where
  the interpolated distance is < 0; there is no enable mask, as in the notes).

Output vertices are barycentric blends of the primitive's original vertices, so the
caller interpolates any vertex output ``a`` of a clipped primitive's corner as
``sum_j weights[..., j] * a[prim_vertices[prim, j]]`` (``blend``). Clip-space blends are
the right blends for perspective-correct outputs.

Non-finite input: a NaN distance (a NaN position component or clip distance)
counts as outside every plane, and an output primitive with a non-finite corner
(NaN, or an infinity the blend turned into NaN) is dropped. So a primitive with a
NaN or infinite vertex is discarded, as the hardware's clipper discards it; the
draw's other primitives are unaffected.

Watertightness: an edge shared by two triangles is cut at the same point in both,
bit for bit: the cut always goes from the inside endpoint to the outside one with
``t = d_in / (d_in - d_out)``, and distances and positions of blended vertices are sums
in which only the two endpoints' weights are nonzero (and float addition commutes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .assembly import _expand
from .native_geometry import clip_codes as clip_codes_c
from .native_geometry import window_triangles as window_triangles_c

#: The guard band's default half-width in NDC (module doc).
GUARD_BAND_NDC = 8.0


@dataclass(frozen=True)
class ClippedPrims:
    """Output of ``clip_triangles`` / ``clip_lines``.

    ``prim``: (N,) int64 index of the input primitive each output primitive comes
    from, non-decreasing (draw order is kept; a clipped triangle becomes a fan of
    up to 3 + planes - 2 triangles, consecutive).
    ``weights``: (N, k, k) float64 (may be a read-only broadcast view when nothing
    was clipped); corner c of output primitive n is
    ``sum_j weights[n, c, j] * input_vertex[prim[n], j]``; rows sum to 1.
    ``position``: (N, k, 4) float64 clip-space positions of the output corners.
    k = 3 for triangles, 2 for lines.
    """

    prim: np.ndarray
    weights: np.ndarray
    position: np.ndarray

    def __len__(self) -> int:
        return len(self.prim)


def clip_planes(*, guard_band_ndc: float = GUARD_BAND_NDC, clip_z: bool = True,
                zero_to_one_depth: bool = False) -> np.ndarray:
    """(P, 4) float64 plane vectors: distance of clip position p is ``p @ plane``."""
    g = float(guard_band_ndc)
    planes = [(1, 0, 0, g), (-1, 0, 0, g), (0, 1, 0, g), (0, -1, 0, g)]
    if clip_z:
        planes.append((0, 0, 1, 0) if zero_to_one_depth else (0, 0, 1, 1))
        planes.append((0, 0, -1, 1))
    return np.array(planes, dtype=np.float64)


def vertex_distances(position: np.ndarray, clip_distance: np.ndarray | None = None, *,
                     guard_band_ndc: float = GUARD_BAND_NDC, clip_z: bool = True,
                     zero_to_one_depth: bool = False) -> np.ndarray:
    """(V, P + D) float64 signed distances of every vertex to every clip plane, in
    the order of ``clip_planes`` (same options), then the user clip distances.

    ``position``: (V, 4) clip-space x, y, z, w. ``clip_distance``: (V, D) or None.
    """
    pos = np.asarray(position, dtype=np.float64).reshape(-1, 4)
    x, y, z, w = pos.T
    gw = float(guard_band_ndc) * w
    cols = [gw + x, gw - x, gw + y, gw - y]
    if clip_z:
        cols += [z if zero_to_one_depth else z + w, w - z]
    if clip_distance is not None:
        cd = np.asarray(clip_distance, dtype=np.float64).reshape(len(pos), -1)
        cols += list(cd.T)
    dist = np.stack(cols, axis=1)
    dist[np.isnan(dist)] = -np.inf      # NaN is outside every plane (see "Non-finite" above)
    return dist


def outcodes(dist: np.ndarray) -> np.ndarray:
    """(V,) int64: bit p set where vertex distance to plane p is negative."""
    bits = (dist < 0).astype(np.int64) << np.arange(dist.shape[1], dtype=np.int64)
    return np.bitwise_or.reduce(bits, axis=1)


def _codes(pos: np.ndarray, clip_distance, *, guard_band_ndc: float = GUARD_BAND_NDC, clip_z: bool = True,
           zero_to_one_depth: bool = False) -> np.ndarray:
    """``outcodes(vertex_distances(...))``: in C when the kernel takes it."""
    got = clip_codes_c(pos, clip_distance, guard_band_ndc, clip_z, zero_to_one_depth)
    if got is not None:
        return got
    return outcodes(vertex_distances(pos, clip_distance, guard_band_ndc=guard_band_ndc, clip_z=clip_z,
                                     zero_to_one_depth=zero_to_one_depth))


def _blend3(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """sum_j weights[..., j] * values[..., j, :], summed left to right (see module doc)."""
    return (weights[..., 0, None] * values[..., None, 0, :] + weights[..., 1, None] * values[..., None, 1, :]
            + weights[..., 2, None] * values[..., None, 2, :])


def _clip_polygons(dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sutherland-Hodgman on N triangles at once.

    ``dist``: (N, 3, P) distances of the triangles' vertices. Returns the clipped
    polygons as (N, M, 3) barycentric weights and (N,) vertex counts, M = 3 + P.
    The loop runs over planes only.
    """
    n, _, nplanes = dist.shape
    m = 3 + nplanes
    w = np.zeros((n, m, 3))
    w[:, 0, 0] = w[:, 1, 1] = w[:, 2, 2] = 1.0
    count = np.full(n, 3, dtype=np.int64)
    rows = np.arange(n)[:, None]
    slot = np.arange(m)[None, :]
    for p in range(nplanes):
        dp = dist[:, :, p]                                   # (N, 3)
        with np.errstate(invalid="ignore"):                  # 0 * -inf of a NaN vertex: NaN, outside
            d = (w[..., 0] * dp[:, None, 0] + w[..., 1] * dp[:, None, 1]) + w[..., 2] * dp[:, None, 2]
        valid = slot < count[:, None]
        nxt = np.where(slot + 1 < count[:, None], slot + 1, 0)
        d_next = d[rows, nxt]
        inside = d >= 0
        inside_next = d_next >= 0
        emit_self = valid & inside
        emit_cross = valid & (inside != inside_next)
        emits = emit_self.astype(np.int64) + emit_cross
        pos_self = np.cumsum(emits, axis=1) - emits
        pos_cross = pos_self + emit_self
        # crossing vertex: from the inside endpoint towards the outside one
        i_in = np.where(inside, slot, nxt)
        i_out = np.where(inside, nxt, slot)
        d_in = np.where(inside, d, d_next)
        d_out = np.where(inside, d_next, d)
        w_in = w[rows, i_in]
        w_out = w[rows, i_out]
        with np.errstate(divide="ignore", invalid="ignore"):   # non-crossing slots: unused
            t = d_in / (d_in - d_out)
            w_cross = w_in + t[..., None] * (w_out - w_in)
        new = np.zeros_like(w)
        r_self, c_self = np.nonzero(emit_self)
        new[r_self, pos_self[r_self, c_self]] = w[r_self, c_self]
        r_cross, c_cross = np.nonzero(emit_cross)
        new[r_cross, pos_cross[r_cross, c_cross]] = w_cross[r_cross, c_cross]
        w = new
        count = emits.sum(axis=1)
    return w, count


def clip_triangles(position: np.ndarray, triangles: np.ndarray,
                   clip_distance: np.ndarray | None = None, **plane_options) -> ClippedPrims:
    """Clip triangles against the guard band, z planes and user clip distances.

    ``position``: (V, 4) clip-space vertex positions; ``triangles``: (T, 3) vertex ids
    (``assemble`` output); ``clip_distance``: (V, D) or None. ``plane_options``: those of
    ``clip_planes``. Triangles wholly inside pass unchanged (identity weights); wholly
    outside one plane are dropped; the rest go through Sutherland-Hodgman and are
    fan-triangulated from their first vertex. Output corners with w <= 0 cannot occur
    with z clipping on; with it off, such triangles are dropped.
    """
    pos = np.asarray(position, dtype=np.float64).reshape(-1, 4)
    tris = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    code = _codes(pos, clip_distance, **plane_options)
    c0, c1, c2 = code[tris[:, 0]], code[tris[:, 1]], code[tris[:, 2]]
    accept = (c0 | c1 | c2) == 0
    reject = (c0 & c1 & c2) != 0
    if accept.all():
        return ClippedPrims(np.arange(len(tris)), np.broadcast_to(np.eye(3), (len(tris), 3, 3)), pos[tris])
    dist = vertex_distances(pos, clip_distance, **plane_options)
    partial = np.flatnonzero(~accept & ~reject)
    acc = np.flatnonzero(accept)
    prim = [acc]
    weights = [np.broadcast_to(np.eye(3), (len(acc), 3, 3))]
    position_out = [pos[tris[acc]]]
    if len(partial):
        wpoly, count = _clip_polygons(dist[tris[partial]])
        ntri = np.maximum(count - 2, 0)
        poly, local = _expand(ntri)
        corners = np.stack((np.zeros_like(local), local + 1, local + 2), axis=1)
        w = wpoly[poly[:, None], corners]
        prim.append(partial[poly])
        weights.append(w)
        with np.errstate(invalid="ignore"):                  # non-finite corners are dropped below
            position_out.append(_blend3(w, pos[tris[partial[poly]]]))
    prim = np.concatenate(prim)
    order = np.argsort(prim, kind="stable")
    prim = prim[order]
    weights = np.concatenate(weights)[order]
    position_out = np.concatenate(position_out)[order]
    keep = (position_out[..., 3] > 0).all(axis=1) & _finite_corners(position_out)
    if not keep.all():
        prim, weights, position_out = prim[keep], weights[keep], position_out[keep]
    return ClippedPrims(prim, weights, position_out)


def _finite_corners(position_out: np.ndarray) -> np.ndarray:
    """(N,) bool: output primitives whose every corner position is finite."""
    return np.isfinite(position_out).all(axis=(1, 2))


def clip_lines(position: np.ndarray, lines: np.ndarray,
               clip_distance: np.ndarray | None = None, **plane_options) -> ClippedPrims:
    """Clip line segments (Liang-Barsky style, parametric along the segment).

    ``lines``: (L, 2) vertex ids. Returns ``ClippedPrims`` with k = 2: corner c is
    ``weights[n, c, 0] * v0 + weights[n, c, 1] * v1``. Segments that are wholly
    outside a plane or clipped to a single point are dropped.
    """
    pos = np.asarray(position, dtype=np.float64).reshape(-1, 4)
    segs = np.asarray(lines, dtype=np.int64).reshape(-1, 2)
    dv = vertex_distances(pos, clip_distance, **plane_options)[segs]     # (L, 2, P)
    d0, d1 = dv[:, 0, :], dv[:, 1, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t_cut = d0 / (d0 - d1)
    t0 = np.where(d0 < 0, t_cut, 0.0).max(axis=1, initial=0.0)
    t1 = np.where(d1 < 0, t_cut, 1.0).min(axis=1, initial=1.0)
    keep = ~((d0 < 0) & (d1 < 0)).any(axis=1) & (t0 < t1)
    prim = np.flatnonzero(keep)
    t = np.stack((t0[prim], t1[prim]), axis=1)                          # (N, 2)
    weights = np.stack((1.0 - t, t), axis=2)                            # (N, corner, 2)
    p = pos[segs[prim]]                                                 # (N, 2, 4)
    with np.errstate(invalid="ignore"):
        position_out = weights[..., 0, None] * p[:, None, 0, :] + weights[..., 1, None] * p[:, None, 1, :]
    finite = _finite_corners(position_out)
    if not finite.all():
        prim, weights, position_out = prim[finite], weights[finite], position_out[finite]
    return ClippedPrims(prim, weights, position_out)


def cull_points(position: np.ndarray, clip_distance: np.ndarray | None = None, *,
                clip_z: bool = True, zero_to_one_depth: bool = False) -> np.ndarray:
    """(N,) bool: points kept. GL discards a point whose vertex is outside the view
    volume (x, y at ``|x|, |y| <= w``, no guard band) or has a negative user clip
    distance; points are never cut. A point with a NaN position is discarded."""
    d = vertex_distances(position, clip_distance, guard_band_ndc=1.0, clip_z=clip_z,
                         zero_to_one_depth=zero_to_one_depth)
    return outcodes(d) == 0


def blend(values: np.ndarray, prim_vertices: np.ndarray, clipped: ClippedPrims) -> np.ndarray:
    """Interpolate per-vertex ``values`` (V, ...) at the corners of ``clipped``.

    ``prim_vertices``: the (P, k) vertex ids given to the clipper. Returns
    (N, k, ...) float64.
    """
    v = np.asarray(values, dtype=np.float64)
    src = v[np.asarray(prim_vertices)[clipped.prim]]                    # (N, k, ...)
    k = clipped.weights.shape[-1]
    w = clipped.weights.reshape(clipped.weights.shape + (1,) * (v.ndim - 1))
    out = w[:, :, 0] * src[:, None, 0]
    for j in range(1, k):
        out = out + w[:, :, j] * src[:, None, j]
    return out


def unclipped_window(position_words: np.ndarray, triangles: np.ndarray, viewport, max_coord_px: float, *,
                     guard_band_ndc: float = GUARD_BAND_NDC, clip_z: bool = True,
                     zero_to_one_depth: bool = False) -> tuple[ClippedPrims, np.ndarray] | None:
    """``clip_triangles`` and the viewport transform in one C pass when no triangle
    is cut: each is wholly inside every plane or wholly outside one (trivially
    rejected, as a clipper's outcode test drops it before any clipping).
    ``position_words`` (4, V) uint32 float32 bits of the clip positions,
    ``triangles`` (T, 3). Returns (the ``ClippedPrims`` clip_triangles gives then,
    identity weights, without positions; the (N, 3, 4) window corners of its
    primitives), or None when some triangle needs cutting or a corner lies beyond
    ``max_coord_px`` (or the kernel does not take the call): the caller runs the
    general path. ``viewport``: a record with translate_x/y/z and scale_x/y/z, or
    None (NDC is the window)."""
    got = window_triangles_c(position_words, triangles, viewport, guard_band_ndc, clip_z, zero_to_one_depth,
                             max_coord_px)
    if got is None:
        return None
    kept, win = got
    return ClippedPrims(kept, np.broadcast_to(np.eye(3), (len(kept), 3, 3)), None), win
