"""PPP back half: viewport transform, face determination and culling, polygon
offset, and triangle setup (fixed-point edge functions with the fill rule).

Coordinate conventions (window space, what the rasteriser sees):

* x_px grows with the column, y_px with the row of the framebuffer; pixel (x, y)
  covers [x, x+1) x [y, y+1); its centre is (x + 0.5, y + 0.5). GL's window y=0 is
  row 0 (the caller flips rows, if it wants to, when it stores the image).
* Positions are snapped to 1/256 px (``SUBPIXEL_BITS`` = 8), round-half-even, for
  coverage, the fill rule and depth. Attribute planes go through the corners'
  unsnapped positions (``xy_px``), as Mesa's llvmpipe sets them up: an attribute
  then takes its vertex's value at the vertex's true position, and a sub-pixel
  triangle's gradients do not carry the snap error (up to 1/512 px on a side).
* z is window depth (after the depth range); ``inv_w`` = 1 / clip w, for
  perspective-correct interpolation.
* The signed area is positive when the vertices go counter-clockwise in a y-up
  window (the GL convention for GL_CCW front faces): with x right and y up that is
  area = ((x1-x0)(y2-y0) - (x2-x0)(y1-y0)) / 2 > 0.

Fill rule (top-left, stated for these axes): a sample exactly on an edge belongs to
the triangle iff the edge function's x coefficient is > 0 (the interior is to the
right of the edge: a "left" edge), or it is 0 and its y coefficient is > 0 (a
horizontal edge with the interior at larger y: a "top" edge when row 0 is drawn at
the top). This is the symbolic perturbation of every sample by (+eps, +eps^2): no
perturbed sample lies on an edge, so triangles sharing edges and vertices cover
each sample exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .constants import (CCW, CULL_BACK, CULL_FRONT, CULL_FRONT_AND_BACK, MAX_WINDOW_COORD_PX,
                        SUBPIXEL_ONE, CullMode, FrontFace, enum_value)
from .native_geometry import setup_triangles_c


def viewport_transform(position: np.ndarray, viewport_px: tuple[float, float, float, float],
                       depth_range: tuple[float, float] = (0.0, 1.0), *,
                       zero_to_one_depth: bool = False) -> np.ndarray:
    """Perspective divide and viewport transform.

    ``position``: (..., 4) clip-space x, y, z, w (w > 0 after clipping).
    ``viewport_px``: (x, y, width, height) as glViewport. ``depth_range``: (near, far)
    as glDepthRange. With ``zero_to_one_depth`` NDC z in [0, 1] maps to [n, f]
    (GL_ZERO_TO_ONE), otherwise NDC z in [-1, 1] does.
    Returns (..., 4) float64: x_px, y_px, z (window depth), inv_w (1 / clip w).
    """
    p = np.asarray(position, dtype=np.float64)
    inv_w = 1.0 / p[..., 3]
    vx, vy, vw, vh = (float(v) for v in viewport_px)
    near, far = (float(v) for v in depth_range)
    out = np.empty(p.shape, dtype=np.float64)
    out[..., 0] = vx + (p[..., 0] * inv_w + 1.0) * (0.5 * vw)
    out[..., 1] = vy + (p[..., 1] * inv_w + 1.0) * (0.5 * vh)
    zn = p[..., 2] * inv_w
    if zero_to_one_depth:
        out[..., 2] = near + (far - near) * zn
    else:
        out[..., 2] = near + (far - near) * 0.5 * (zn + 1.0)
    out[..., 3] = inv_w
    return out


def min_resolvable_depth(depth_format: str, max_abs_z: np.ndarray | float = 1.0) -> np.ndarray:
    """r of glPolygonOffset: the depth step guaranteed to be resolved.

    ``"unorm16"``/``"unorm24"``/``"unorm32"``: 2^-n (the D3D/Vulkan convention for UNORM
    depth; GL leaves the constant to the implementation). ``"float32"``: 2^(e - 23)
    with e the exponent of the largest |z| of the primitive (GL 4.6, 14.6.5), so it
    is per primitive: ``max_abs_z`` (T,) gives that z.
    """
    if depth_format.startswith("unorm"):
        bits = int(depth_format[5:])
        return np.full(np.shape(max_abs_z), 2.0 ** -bits)
    if depth_format == "float32":
        _, e = np.frexp(np.asarray(max_abs_z, dtype=np.float64))  # z = m * 2^e, 0.5 <= m < 1
        return np.ldexp(1.0, (e - 1) - 23)
    raise ValueError(f"unknown depth format {depth_format!r}")


def polygon_offset(dzdx: np.ndarray, dzdy: np.ndarray, factor: float, units: float,
                   clamp: float = 0.0, r: np.ndarray | float = 2.0 ** -24) -> np.ndarray:
    """Per-primitive depth offset (glPolygonOffsetClamp).

    ``dzdx``, ``dzdy``: (T,) window-depth slopes per pixel. ``m = max(|dzdx|, |dzdy|)``
    (the approximation GL allows); ``o = m * factor + r * units``, then limited to at
    most ``clamp`` (clamp > 0) or at least ``clamp`` (clamp < 0); 0 or NaN: no limit.
    """
    m = np.maximum(np.abs(dzdx), np.abs(dzdy))
    o = m * float(factor) + np.asarray(r, dtype=np.float64) * float(units)
    if clamp > 0:
        o = np.minimum(o, clamp)
    elif clamp < 0:
        o = np.maximum(o, clamp)
    return o


@dataclass(frozen=True)
class TriangleSetup:
    """Everything the rasteriser needs, per setup triangle (T of them).

    ``prim`` (T,) int64: the caller's primitive id for each setup triangle (a line
    or point becomes two setup triangles with the same id).
    ``x_fx``, ``y_fx`` (T, 3) int64: snapped window positions in 1/256 px.
    ``edge_a``, ``edge_b``, ``edge_c`` (T, 3) int64: edge function i (opposite corner i)
    is ``E_i(X, Y) = a*X + b*Y + c`` in fx, > 0 inside; ``E_i / area2_fx`` is the
    barycentric of corner i.
    ``edge_bias`` (T, 3) int64: 0 where the fill rule keeps samples on edge i, else 1;
    a sample is covered iff ``E_i - bias_i >= 0`` for all i.
    ``area2_fx`` (T,) int64 > 0: twice the area in fx^2.
    ``front_facing`` (T,) bool.
    ``z`` (T, 3) float64 window depth at the corners; ``inv_w`` (T, 3) float64.
    ``dzdx``, ``dzdy`` (T,) float64: depth slope per pixel; ``z_offset`` (T,) float64
    polygon offset, added to every sample's depth.
    ``bbox_px`` (T, 4) int64: x0, y0, x1, y1 (exclusive) pixels that may be covered.
    ``xy_px`` (T, 3, 2) float64: the corners' window x, y before snapping (the
    attribute planes go through them).
    ``corner_weights`` (T, 3, k) float64 or None: corner c of setup triangle t is
    ``sum_j corner_weights[t, c, j] * vertex_j`` of primitive ``prim[t]`` (lines: k=2,
    points: k=1); None means identity (k=3).
    ``corner_uv`` (T, 3, 2) float64 or None: point-sprite coordinates at the corners.
    """

    prim: np.ndarray
    x_fx: np.ndarray
    y_fx: np.ndarray
    edge_a: np.ndarray
    edge_b: np.ndarray
    edge_c: np.ndarray
    edge_bias: np.ndarray
    area2_fx: np.ndarray
    front_facing: np.ndarray
    z: np.ndarray
    inv_w: np.ndarray
    dzdx: np.ndarray
    dzdy: np.ndarray
    z_offset: np.ndarray
    bbox_px: np.ndarray
    xy_px: np.ndarray
    corner_weights: np.ndarray | None = None
    corner_uv: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.prim)


def snap_fx(coord_px: np.ndarray) -> np.ndarray:
    """Window coordinates (px, float) -> int64 fixed point with ``SUBPIXEL_BITS``."""
    c = np.asarray(coord_px, dtype=np.float64)
    if c.size and not (np.abs(c) < MAX_WINDOW_COORD_PX).all():
        raise ValueError(f"window coordinate beyond +-{MAX_WINDOW_COORD_PX} px (or NaN): "
                         "clip with a smaller guard band")
    return np.rint(c * SUBPIXEL_ONE).astype(np.int64)


def signed_area2_fx(x_fx: np.ndarray, y_fx: np.ndarray) -> np.ndarray:
    """(T,) int64 twice the signed area of snapped triangles (>0: CCW in y-up)."""
    return ((x_fx[:, 1] - x_fx[:, 0]) * (y_fx[:, 2] - y_fx[:, 0])
            - (x_fx[:, 2] - x_fx[:, 0]) * (y_fx[:, 1] - y_fx[:, 0]))


def _face_and_cull(area2: np.ndarray, front_face, cull) -> tuple[np.ndarray, np.ndarray]:
    ccw = area2 > 0
    front = ccw if enum_value(front_face, FrontFace, "front face") == CCW else ~ccw
    mode = enum_value(cull, CullMode, "cull mode")
    keep = area2 != 0
    if mode == CULL_FRONT:
        keep &= ~front
    elif mode == CULL_BACK:
        keep &= front
    elif mode == CULL_FRONT_AND_BACK:
        keep &= False
    return keep, front


def face_and_cull(window: np.ndarray, front_face: int | str = CCW,
                  cull: int | str = "none") -> tuple[np.ndarray, np.ndarray]:
    """(keep, front_facing), both (T,) bool, for (T, 3, 4) window triangles: what
    ``setup_triangles`` decides, for callers that draw the triangles another way
    (polygon mode line/point: cull first, then ``polygon_edges`` / ``polygon_vertices``).
    Zero-area triangles are not kept."""
    win = np.asarray(window, dtype=np.float64).reshape(-1, 3, 4)
    return _face_and_cull(signed_area2_fx(snap_fx(win[..., 0]), snap_fx(win[..., 1])), front_face, cull)


def polygon_edges(window: np.ndarray, prim: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """glPolygonMode(GL_LINE): the edges (0,1), (1,2), (2,0) of every triangle.

    Returns ((3T, 2, 4) line endpoints for ``setup_lines``, (3T,) primitive ids).
    Edges shared by two drawn triangles are drawn by both, as in GL. Barycentrics
    of the lines are over the edge's endpoints (corners c and (c+1) % 3).
    """
    win = np.asarray(window, dtype=np.float64).reshape(-1, 3, 4)
    prim = np.arange(len(win), dtype=np.int64) if prim is None else np.asarray(prim, dtype=np.int64)
    ends = win[:, [[0, 1], [1, 2], [2, 0]]]
    return ends.reshape(-1, 2, 4), np.repeat(prim, 3)


def polygon_vertices(window: np.ndarray, prim: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """glPolygonMode(GL_POINT): the corners of every triangle, ((3T, 4), (3T,) ids)."""
    win = np.asarray(window, dtype=np.float64).reshape(-1, 3, 4)
    prim = np.arange(len(win), dtype=np.int64) if prim is None else np.asarray(prim, dtype=np.int64)
    return win.reshape(-1, 4), np.repeat(prim, 3)


def setup_triangles(window: np.ndarray, *, prim: np.ndarray | None = None,
                    front_face: int | str = CCW, cull: int | str = "none",
                    offset: tuple[float, float, float] | None = None,
                    depth_format: str = "unorm24",
                    corner_weights: np.ndarray | None = None,
                    corner_uv: np.ndarray | None = None,
                    always_front: bool = False) -> TriangleSetup:
    """Face determination, culling, polygon offset and edge setup.

    ``window``: (T, 3, 4) float64 from ``viewport_transform`` (x_px, y_px, z, inv_w).
    ``prim``: (T,) caller's primitive ids (default 0..T-1).
    ``front_face``: "ccw" or "cw" (glFrontFace); ``cull``: "none", "front", "back",
    "front_and_back" (glCullFace with GL_CULL_FACE enabled; "none" when disabled).
    ``offset``: (factor, units, clamp) when polygon offset is enabled for these
    primitives, else None. ``depth_format`` chooses r (``min_resolvable_depth``).
    Zero-area triangles (after snapping) and culled ones are dropped; the result
    keeps the input order. ``always_front``: lines and points are front-facing.
    """
    win = np.asarray(window, dtype=np.float64).reshape(-1, 3, 4)
    n = len(win)
    prim = np.arange(n, dtype=np.int64) if prim is None else np.asarray(prim, dtype=np.int64)
    front_ccw = enum_value(front_face, FrontFace, "front face") == CCW
    got = setup_triangles_c(win, front_ccw, enum_value(cull, CullMode, "cull mode"), always_front)
    if got is not None:               # the C kernel: the same arrays as the numpy code below
        sel = got.pop("sel")
        if corner_weights is not None:
            corner_weights = np.asarray(corner_weights, dtype=np.float64)[sel]
        if corner_uv is not None:
            corner_uv = np.asarray(corner_uv, dtype=np.float64)[sel]
        return TriangleSetup(prim=prim[sel], **got, z_offset=_z_offset(got["z"], got["dzdx"], got["dzdy"], offset,
                                                                       depth_format),
                             corner_weights=corner_weights, corner_uv=corner_uv)
    return _setup_triangles_numpy(win, prim, front_face, cull, offset, depth_format, corner_weights, corner_uv,
                                  always_front)


def _z_offset(z: np.ndarray, dzdx: np.ndarray, dzdy: np.ndarray, offset, depth_format: str) -> np.ndarray:
    """Each kept triangle's polygon offset (zeros without ``offset``)."""
    if offset is None:
        return np.zeros(len(dzdx))
    factor, units, clamp = offset
    r = min_resolvable_depth(depth_format, np.abs(z).max(axis=1))
    return polygon_offset(dzdx, dzdy, factor, units, clamp, r)


def _setup_triangles_numpy(win, prim, front_face, cull, offset, depth_format, corner_weights, corner_uv,
                           always_front) -> TriangleSetup:
    """``setup_triangles`` in numpy: the specification of ``native_geometry.setup_tris``."""
    n = len(win)
    x_fx = snap_fx(win[..., 0])
    y_fx = snap_fx(win[..., 1])
    area2 = signed_area2_fx(x_fx, y_fx)
    keep, front = _face_and_cull(area2, front_face, cull)
    if always_front:
        front = np.ones(n, bool)
    sel = np.flatnonzero(keep)
    x_fx, y_fx, area2, front, win, prim = x_fx[sel], y_fx[sel], area2[sel], front[sel], win[sel], prim[sel]
    if corner_weights is not None:
        corner_weights = np.asarray(corner_weights, dtype=np.float64)[sel]
    if corner_uv is not None:
        corner_uv = np.asarray(corner_uv, dtype=np.float64)[sel]

    sign = np.where(area2 > 0, 1, -1).astype(np.int64)
    j = np.array([1, 2, 0])
    k = np.array([2, 0, 1])
    # E_i(X, Y) = (Xk - Xj)(Y - Yj) - (Yk - Yj)(X - Xj), oriented so the inside is > 0
    a = -(y_fx[:, k] - y_fx[:, j]) * sign[:, None]
    b = (x_fx[:, k] - x_fx[:, j]) * sign[:, None]
    c = -(a * x_fx[:, j] + b * y_fx[:, j])
    bias = np.where((a > 0) | ((a == 0) & (b > 0)), 0, 1).astype(np.int64)
    area2 = np.abs(area2)

    z = win[..., 2]
    # depth plane from snapped positions: z = z0 + dzdx * dx_px + dzdy * dy_px
    dx1 = (x_fx[:, 1] - x_fx[:, 0]) / SUBPIXEL_ONE
    dx2 = (x_fx[:, 2] - x_fx[:, 0]) / SUBPIXEL_ONE
    dy1 = (y_fx[:, 1] - y_fx[:, 0]) / SUBPIXEL_ONE
    dy2 = (y_fx[:, 2] - y_fx[:, 0]) / SUBPIXEL_ONE
    det = dx1 * dy2 - dx2 * dy1
    dz1 = z[:, 1] - z[:, 0]
    dz2 = z[:, 2] - z[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        dzdx = np.where(det != 0, (dz1 * dy2 - dz2 * dy1) / det, 0.0)
        dzdy = np.where(det != 0, (dx1 * dz2 - dx2 * dz1) / det, 0.0)
    z_offset = _z_offset(z, dzdx, dzdy, offset, depth_format)

    x0 = x_fx.min(axis=1) >> 8
    y0 = y_fx.min(axis=1) >> 8
    x1 = (x_fx.max(axis=1) >> 8) + 1
    y1 = (y_fx.max(axis=1) >> 8) + 1
    bbox = np.stack((x0, y0, x1, y1), axis=1)
    return TriangleSetup(prim=prim, x_fx=x_fx, y_fx=y_fx, edge_a=a, edge_b=b, edge_c=c,
                         edge_bias=bias, area2_fx=area2, front_facing=front, z=z,
                         inv_w=win[..., 3], dzdx=dzdx, dzdy=dzdy, z_offset=z_offset,
                         bbox_px=bbox, xy_px=win[..., :2].copy(), corner_weights=corner_weights,
                         corner_uv=corner_uv)


def setup_lines(window: np.ndarray, width_px: float = 1.0, *, prim: np.ndarray | None = None,
                offset: tuple[float, float, float] | None = None,
                depth_format: str = "unorm24", smooth: bool = False) -> TriangleSetup:
    """Lines as parallelograms (GL's non-antialiased wide-line region).

    ``window``: (L, 2, 4) endpoints from ``viewport_transform``. An x-major segment
    (|dx| >= |dy|) is swept vertically by +-width/2, a y-major one horizontally; the
    ends are cut perpendicular to the major axis. The parallelogram is two setup
    triangles rasterised with the fill rule, so for width 1 every column (x-major)
    gets one pixel, close to but not exactly the diamond-exit rule of GL's width-1
    lines (the endpoint pixels may differ, and the shared endpoint of two strip
    segments may be drawn by both). ``corner_weights`` map corners to the endpoints,
    so barycentrics over the line's two vertices interpolate along it.

    ``smooth`` (GL_LINE_SMOOTH, ``setup_smooth_lines``): the antialiasing rectangle.
    """
    win = np.asarray(window, dtype=np.float64).reshape(-1, 2, 4)
    n = len(win)
    prim = np.arange(n, dtype=np.int64) if prim is None else np.asarray(prim, dtype=np.int64)
    if smooth:
        return setup_smooth_lines(win, width_px, prim=prim, offset=offset, depth_format=depth_format)
    p0, p1 = win[:, 0], win[:, 1]
    dx = p1[:, 0] - p0[:, 0]
    dy = p1[:, 1] - p0[:, 1]
    xmajor = np.abs(dx) >= np.abs(dy)
    half = 0.5 * float(width_px)
    off = np.zeros((n, 4))
    off[:, 0] = np.where(xmajor, 0.0, half)
    off[:, 1] = np.where(xmajor, half, 0.0)
    return _segment_quads(p0, p1, off, prim, offset, depth_format)


def _segment_quads(p0: np.ndarray, p1: np.ndarray, off: np.ndarray, prim: np.ndarray, offset,
                   depth_format: str, edge_uv: np.ndarray | None = None) -> TriangleSetup:
    """Each segment p0 -> p1 swept by +-``off`` (N, 4) as the parallelogram
    (p0 - off, p0 + off, p1 + off, p1 - off), two setup triangles whose
    ``corner_weights`` map corners to the endpoints. ``edge_uv`` (2,): the
    ``corner_uv`` of the -off and +off sides (the +off side gets it reversed)."""
    n = len(p0)
    a, b, c, d = p0 - off, p0 + off, p1 + off, p1 - off
    tris = np.stack((np.stack((a, b, c), 1), np.stack((a, c, d), 1)), 1).reshape(-1, 3, 4)
    w0 = np.array([1.0, 0.0])
    w1 = np.array([0.0, 1.0])
    cw = np.broadcast_to(np.array([[w0, w0, w1], [w0, w1, w1]]), (n, 2, 3, 2)).reshape(-1, 3, 2)
    uv = None
    if edge_uv is not None:
        near, far = np.asarray(edge_uv, np.float64), np.asarray(edge_uv, np.float64)[::-1]
        uv = np.broadcast_to(np.array([[near, far, far], [near, far, near]]), (n, 2, 3, 2)).reshape(-1, 3, 2)
    return setup_triangles(tris, prim=np.repeat(prim, 2), offset=offset, depth_format=depth_format,
                           corner_weights=cw, corner_uv=uv, always_front=True)


def setup_smooth_lines(win: np.ndarray, width_px: float, *, prim: np.ndarray,
                       offset: tuple[float, float, float] | None, depth_format: str) -> TriangleSetup:
    """Antialiased lines (GL 4.6 section 14.5.1.2): the rectangle of the segment's
    length and ``width_px`` around it, grown by half a pixel on both long sides so
    every pixel it partly covers gets a fragment; the ends are perpendicular to the
    segment at the endpoints. ``corner_uv`` carries, per fragment, its distances in
    pixels to the grown rectangle's two long edges (u0 + u1 = width + 1): the
    fragment stage takes ``clamp(min(u0, u1), 0, 1)`` as its coverage, the part of a
    pixel-wide box across the line that the width-wide strip covers (exact for
    axis-aligned lines). Zero-length segments give no fragments."""
    p0, p1 = win[:, 0], win[:, 1]
    d = p1[:, :2] - p0[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    keep = length > 0
    p0, p1, d, length, prim = p0[keep], p1[keep], d[keep], length[keep], prim[keep]
    half = 0.5 * (float(width_px) + 1.0)
    off = np.zeros((len(p0), 4))
    off[:, 0] = -half * d[:, 1] / length
    off[:, 1] = half * d[:, 0] / length
    # (u0, u1) on the -off edge; the +off edge has them the other way round
    return _segment_quads(p0, p1, off, prim, offset, depth_format, edge_uv=(0.0, 2 * half))


def setup_points(window: np.ndarray, size_px: np.ndarray | float = 1.0, *,
                 prim: np.ndarray | None = None, sprite_origin_lower_left: bool = False,
                 offset: tuple[float, float, float] | None = None,
                 depth_format: str = "unorm24") -> TriangleSetup:
    """Square non-antialiased points: the square of side ``size_px`` centred on the
    vertex, as two setup triangles (fill rule: pixel centres on the right/bottom
    border are out, so a size-1 point at a pixel centre covers exactly that pixel).

    ``window``: (N, 4). ``size_px``: scalar or (N,) (gl_PointSize, already clamped).
    ``corner_uv`` holds gl_PointCoord at the corners: s goes 0 -> 1 left to right, t
    1 -> 0 bottom (small y) to top with GL's default GL_UPPER_LEFT origin in a y-up
    window, 0 -> 1 with ``sprite_origin_lower_left``.
    """
    win = np.asarray(window, dtype=np.float64).reshape(-1, 4)
    n = len(win)
    prim = np.arange(n, dtype=np.int64) if prim is None else np.asarray(prim, dtype=np.int64)
    half = 0.5 * np.broadcast_to(np.asarray(size_px, dtype=np.float64), (n,))
    corners = np.repeat(win[:, None, :], 4, axis=1)
    sx = np.array([-1.0, 1.0, 1.0, -1.0])
    sy = np.array([-1.0, -1.0, 1.0, 1.0])
    corners[..., 0] += sx * half[:, None]
    corners[..., 1] += sy * half[:, None]
    uv = np.stack(((sx + 1) / 2, (sy + 1) / 2 if sprite_origin_lower_left else (1 - sy) / 2), axis=1)
    quad = np.array([[0, 1, 2], [0, 2, 3]])
    tris = corners[:, quad].reshape(-1, 3, 4)
    corner_uv = np.broadcast_to(uv[quad], (n, 2, 3, 2)).reshape(-1, 3, 2)
    cw = np.ones((2 * n, 3, 1))
    return setup_triangles(tris, prim=np.repeat(prim, 2), offset=offset, depth_format=depth_format,
                           corner_weights=cw, corner_uv=corner_uv, always_front=True)
