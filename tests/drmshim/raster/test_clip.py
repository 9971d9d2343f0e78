"""Clipping: areas against an independent single-polygon clipper, coverage of
clipped meshes against the analytic half-spaces, invariants of the blends, lines
and points."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from drmshim.gpu.raster import (blend, clip_lines, clip_triangles, cull_points, rasterize,
                                setup_triangles, vertex_distances, viewport_transform)


def polygon_area(poly):
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))


def clip_polygon_exact(poly, dist):
    """Pure-Python Sutherland-Hodgman with exact fractions; poly: [(x, y)], dist: f(x, y)."""
    out = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        dp, dq = dist(*p), dist(*q)
        if dp >= 0:
            out.append(p)
        if (dp >= 0) != (dq >= 0):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def ortho_tri(xy, z):
    """clip-space vertices with w = 1."""
    xy = np.asarray(xy, float)
    return np.column_stack((xy, np.asarray(z, float), np.ones(len(xy))))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1.5, 1.5, allow_nan=False), min_size=6, max_size=6),
       st.lists(st.floats(-3, 3, allow_nan=False), min_size=3, max_size=3),
       st.lists(st.floats(-2, 2, allow_nan=False), min_size=3, max_size=3))
def test_clipped_area_matches_exact_clipper(xy, z, ucd):
    xy = np.array(xy).reshape(3, 2)
    pos = ortho_tri(xy, z)
    clipped = clip_triangles(pos, np.array([[0, 1, 2]]), np.array(ucd)[:, None], guard_band_ndc=1.0)
    got = sum(abs(polygon_area([tuple(v[:2]) for v in t])) for t in clipped.position)
    # exact reference: planes written as functions of (x, y) via the triangle's plane
    F = Fraction
    P = [(F(a), F(b)) for a, b in xy]
    M = np.array([[xy[1, 0] - xy[0, 0], xy[2, 0] - xy[0, 0]], [xy[1, 1] - xy[0, 1], xy[2, 1] - xy[0, 1]]])
    det = F(M[0, 0]) * F(M[1, 1]) - F(M[0, 1]) * F(M[1, 0])
    if det == 0:
        assert got == pytest.approx(0, abs=1e-9)
        return

    def lerp_attr(vals):
        v0, v1, v2 = (F(v) for v in vals)

        def f(x, y):
            dx, dy = x - P[0][0], y - P[0][1]
            s = (F(M[1, 1]) * dx - F(M[0, 1]) * dy) / det
            t = (-F(M[1, 0]) * dx + F(M[0, 0]) * dy) / det
            return v0 + s * (v1 - v0) + t * (v2 - v0)
        return f

    zf, uf = lerp_attr(z), lerp_attr(ucd)
    planes = [lambda x, y: x + 1, lambda x, y: 1 - x, lambda x, y: y + 1, lambda x, y: 1 - y,
              lambda x, y: zf(x, y) + 1, lambda x, y: 1 - zf(x, y), uf]
    poly = P
    for d in planes:
        poly = clip_polygon_exact(poly, d)
        if len(poly) < 3:
            poly = []
            break
    want = abs(float(polygon_area(poly))) if poly else 0.0
    assert got == pytest.approx(want, rel=1e-9, abs=1e-9)


def test_blend_weights_invariants_perspective():
    rng = np.random.default_rng(1)
    pos = rng.uniform(-3, 3, size=(60, 4))
    pos[:, 3] = rng.uniform(-1, 3, size=60)
    ucd = rng.uniform(-1, 1, size=(60, 2))
    tris = rng.integers(0, 60, size=(80, 3))
    c = clip_triangles(pos, tris, ucd)
    np.testing.assert_allclose(c.weights.sum(-1), 1.0, atol=1e-12)
    assert (c.weights >= -1e-12).all()
    np.testing.assert_allclose(blend(pos, tris, c), c.position, atol=1e-12)
    d = vertex_distances(c.position.reshape(-1, 4), blend(ucd, tris, c).reshape(-1, 2))
    assert (d >= -1e-9).all()
    assert (np.diff(c.prim) >= 0).all()
    assert (c.position[..., 3] > 0).all()


def test_unclipped_triangles_pass_unchanged():
    pos = ortho_tri([(0, 0), (0.5, 0), (0, 0.5), (0.2, 0.2)], [0, 0, 0, 0.5])
    tris = np.array([[0, 1, 2], [1, 3, 2]])
    c = clip_triangles(pos, tris)
    assert c.prim.tolist() == [0, 1]
    np.testing.assert_array_equal(c.weights, np.broadcast_to(np.eye(3), (2, 3, 3)))
    np.testing.assert_array_equal(c.position, pos[tris])


def test_outside_triangles_dropped_and_guard_band():
    pos = ortho_tri([(0, 0), (1, 0), (0, 1)], [-2, -3, -1.5])     # behind the near plane
    assert len(clip_triangles(pos, np.array([[0, 1, 2]]))) == 0
    wide = ortho_tri([(-3, 0), (3, 0), (0, 0.5)], [0, 0, 0])       # off screen in x only
    assert len(clip_triangles(wide, np.array([[0, 1, 2]]))) == 1   # inside the default guard band
    assert len(clip_triangles(wide, np.array([[0, 1, 2]]), guard_band_ndc=1.0)) == 3


def test_zero_to_one_depth_and_no_z_clip():
    pos = ortho_tri([(0, 0), (1, 0), (0, 1)], [-0.5, 0.5, 0.5])
    assert len(clip_triangles(pos, np.array([[0, 1, 2]]))) == 1
    c = clip_triangles(pos, np.array([[0, 1, 2]]), zero_to_one_depth=True)
    assert (c.position[..., 2] >= -1e-12).all() and len(c) == 2
    assert len(clip_triangles(ortho_tri([(0, 0), (1, 0), (0, 1)], [-5, -5, -5]), np.array([[0, 1, 2]]),
                              clip_z=False)) == 1


def test_shared_edge_cut_bit_identical():
    # two triangles share edge (0, 1) in opposite directions; the edge crosses near
    pos = np.array([[-0.5, -0.3, -2.0, 1.0], [0.4, 0.6, 0.7, 1.3], [0.8, -0.7, 0.1, 1.1], [-0.9, 0.8, 0.2, 0.9]])
    c = clip_triangles(pos, np.array([[0, 1, 2], [1, 0, 3]]))
    pts0 = {tuple(p) for p in c.position[c.prim == 0].reshape(-1, 4)}
    pts1 = {tuple(p) for p in c.position[c.prim == 1].reshape(-1, 4)}
    shared = pts0 & pts1
    assert len(shared) == 2          # vertex 1 and the cut point on edge 0-1, bit for bit


@pytest.mark.parametrize("samples", [1, 4])
def test_clipped_mesh_is_watertight_and_matches_half_spaces(samples):
    # a jittered grid in clip space (w = 1) whose depth slopes through near and far,
    # with a user clip distance slicing it: every pixel inside all half-spaces is
    # covered exactly once, everything else not at all (but pixels at the cuts).
    rng = np.random.default_rng(11)
    n = 8
    g = np.linspace(-1, 1, n + 1)
    X, Y = np.meshgrid(g, g)
    X[1:-1, 1:-1] += rng.uniform(-0.3, 0.3, (n - 1, n - 1)) * 2 / n
    Y[1:-1, 1:-1] += rng.uniform(-0.3, 0.3, (n - 1, n - 1)) * 2 / n
    Z = 2.2 * X + 0.3 * Y                       # crosses z = -w and z = w
    U = 0.5 - X - Y                             # user clip distance
    pos = np.column_stack((X.ravel(), Y.ravel(), Z.ravel(), np.ones(X.size)))
    idx = np.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    a, b, c_, d = idx[:-1, :-1].ravel(), idx[:-1, 1:].ravel(), idx[1:, 1:].ravel(), idx[1:, :-1].ravel()
    tris = np.concatenate((np.stack((a, b, c_), 1), np.stack((a, c_, d), 1)))
    clipped = clip_triangles(pos, tris, U.ravel()[:, None])
    size = 64
    win = viewport_transform(clipped.position, (0, 0, size, size))
    setup = setup_triangles(win)
    frags = rasterize(setup, (0, 0, size, size), samples)
    count = np.zeros((size, size, samples), int)
    for s in range(samples):
        on = (frags.coverage >> s) & 1 == 1
        np.add.at(count[..., s], (frags.y[on], frags.x[on]), 1)
    assert count.max() == 1
    from drmshim.gpu.raster import sample_positions_px
    sp = sample_positions_px(samples)
    ys, xs = np.mgrid[0:size, 0:size]
    for s in range(samples):
        nx = (xs + sp[s, 0]) / size * 2 - 1
        ny = (ys + sp[s, 1]) / size * 2 - 1
        z = 2.2 * nx + 0.3 * ny
        u = 0.5 - nx - ny
        want = (z >= -1) & (z <= 1) & (u >= 0)
        margin = (np.abs(z + 1) < 0.02) | (np.abs(z - 1) < 0.02) | (np.abs(u) < 0.02)
        diff = (count[..., s] == 1) != want
        assert not (diff & ~margin).any()
        assert want.sum() > 200


def test_lines_clip_parametric():
    pos = np.array([[-2.0, 0.0, 0.0, 1.0], [2.0, 0.0, 0.0, 1.0], [0.0, 0.0, -3.0, 1.0], [0.0, 0.0, 0.0, 1.0],
                    [0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 3.0, 1.0]])
    lines = np.array([[0, 1], [2, 3], [4, 5]])
    c = clip_lines(pos, lines, guard_band_ndc=1.0)
    assert c.prim.tolist() == [0, 1]
    np.testing.assert_allclose(c.position[0, :, 0], [-1.0, 1.0])
    np.testing.assert_allclose(c.weights[0], [[0.75, 0.25], [0.25, 0.75]])
    np.testing.assert_allclose(c.position[1, :, 2], [-1.0, 0.0])
    np.testing.assert_allclose(c.weights[1, 0], [1 / 3, 2 / 3])   # z: -3 -> 0 meets -1 at t = 2/3
    ucd = np.array([[1.0], [-1.0], [1], [1], [1], [1]])
    c2 = clip_lines(pos, lines, ucd, guard_band_ndc=1.0)
    np.testing.assert_allclose(c2.position[0, :, 0], [-1.0, 0.0])


def test_points_culled_not_clipped():
    pos = np.array([[0, 0, 0, 1], [1.5, 0, 0, 1], [0, 0, -1.2, 1], [0.99, -0.99, 0.99, 1]], float)
    assert cull_points(pos).tolist() == [True, False, False, True]
    assert cull_points(pos, np.array([[-1.0], [1], [1], [0.0]])).tolist() == [False, False, False, True]


def test_guard_band_gives_the_view_volume_pixels():
    # big triangles far off screen: clipping at the guard band and scissoring gives
    # the pixels of exact view-volume clipping, up to snapping of the new vertices
    rng = np.random.default_rng(9)
    pos = np.ones((90, 4))
    pos[:, :3] = rng.uniform(-5, 5, (90, 3))
    pos[:, 2] = rng.uniform(-0.9, 0.9, 90)
    tris = np.arange(90).reshape(30, 3)
    size = 48
    counts = []
    for g in (1.0, 8.0):
        c = clip_triangles(pos, tris, guard_band_ndc=g)
        setup = setup_triangles(viewport_transform(c.position, (0, 0, size, size)), prim=c.prim)
        f = rasterize(setup, (0, 0, size, size), 1)
        count = np.zeros((30, size, size), int)
        np.add.at(count, (setup.prim[f.tri], f.y, f.x), 1)
        assert count.max() == 1           # a clipped fan covers each pixel once
        counts.append(count)
    differ = (counts[0] != counts[1]).sum()
    assert counts[0].sum() > 5000 and differ <= counts[0].sum() * 0.002
