"""Rasteriser: coverage against independently evaluated edge functions, the fill
rule on shared edges (every sample of a tiled square covered exactly once), MSAA
sample positions, scissor rectangles, block sizes, depth and barycentrics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from drmshim.gpu.raster import (SAMPLE_POSITIONS_16THS, Scratch, barycentrics, intersect_rects, point_coords,
                                rasterize, setup_lines, setup_points, setup_triangles, signed_area2_fx, snap_fx)

from .reference import coverage_count, covered_samples


def window_tris(tris_xy, z=0.5, inv_w=1.0):
    """(T, 3, 2) pixel positions -> (T, 3, 4) window array for setup."""
    t = np.asarray(tris_xy, dtype=np.float64).reshape(-1, 3, 2)
    out = np.empty(t.shape[:2] + (4,))
    out[..., :2] = t
    out[..., 2] = z
    out[..., 3] = inv_w
    return out


def check_layering(frags):
    """The rasteriser's contract: each (triangle, pixel) once, nonzero coverage;
    within a layer no pixel twice; a pixel's fragments in increasing layers come in
    increasing triangle order."""
    key = frags.tri.astype(np.int64) * 2 ** 20 + frags.y * 1024 + frags.x
    assert len(np.unique(key)) == len(key)
    assert (frags.coverage != 0).all()
    off = frags.layer_offsets
    assert off[0] == 0 and off[-1] == len(frags) and (np.diff(off) > 0).all()
    layer = np.repeat(np.arange(len(off) - 1), np.diff(off))
    pix = frags.y.astype(np.int64) * 1024 + frags.x
    for k in range(len(off) - 1):
        p = pix[off[k]:off[k + 1]]
        assert len(np.unique(p)) == len(p)
    order = np.lexsort((layer, pix))
    same = pix[order][1:] == pix[order][:-1]
    assert (np.diff(frags.tri[order])[same] > 0).all()


def raster_count(tris_xy, width, height, samples=1, **kw):
    setup = setup_triangles(window_tris(tris_xy))
    frags = rasterize(setup, (0, 0, width, height), samples, **kw)
    count = np.zeros((height, width, samples), np.int64)
    for s in range(samples):
        on = (frags.coverage >> s) & 1 == 1
        np.add.at(count[..., s], (frags.y[on], frags.x[on]), 1)
    return count, frags, setup


def test_single_triangle_matches_edge_functions():
    tri = [[(1.3, 2.7), (17.9, 5.2), (6.4, 19.1)]]
    got, _, _ = raster_count(tri, 24, 24)
    want = coverage_count(tri, 24, 24)
    assert got.sum() > 100
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("samples", [1, 2, 4])
@pytest.mark.parametrize("block_px", [1, 4, 8, 16])
def test_random_triangles_match_reference(samples, block_px):
    rng = np.random.default_rng(samples * 100 + block_px)
    tris = rng.uniform(-4, 36, size=(12, 3, 2))
    got, frags, setup = raster_count(tris, 32, 32, samples, block_px=block_px)
    want = coverage_count(tris, 32, 32, SAMPLE_POSITIONS_16THS[samples])
    np.testing.assert_array_equal(got, want)
    check_layering(frags)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-3, 19, allow_nan=False, width=32), min_size=6, max_size=6),
       st.sampled_from([1, 4]))
def test_hypothesis_triangle_coverage(coords, samples):
    tri = np.array(coords).reshape(1, 3, 2)
    got, _, _ = raster_count(tri, 16, 16, samples)
    want = coverage_count(tri, 16, 16, SAMPLE_POSITIONS_16THS[samples])
    np.testing.assert_array_equal(got, want)


def grid_mesh(n, size, jitter, rng, flip_diagonals=True):
    """A square [0, size]^2 tiled by 2 n^2 triangles over a jittered (n+1)^2 grid."""
    g = np.linspace(0, size, n + 1)
    xs, ys = np.meshgrid(g, g)
    pts = np.stack((xs, ys), -1)
    inner = (slice(1, n), slice(1, n))
    step = size / n
    pts[inner] += rng.uniform(-jitter, jitter, pts[inner].shape) * step
    tris = []
    for j in range(n):
        for i in range(n):
            a, b, c, d = pts[j, i], pts[j, i + 1], pts[j + 1, i + 1], pts[j + 1, i]
            if flip_diagonals and (i + j) % 2:
                tris += [(a, b, d), (b, c, d)]
            else:
                tris += [(a, b, c), (a, c, d)]
    return np.array(tris)


@pytest.mark.parametrize("samples", [1, 4])
def test_fill_rule_grid_mesh_each_sample_once(samples):
    rng = np.random.default_rng(7)
    tris = grid_mesh(6, 30.0, 0.35, rng)
    got, frags, _ = raster_count(tris, 30, 30, samples)
    check_layering(frags)
    assert (got == 1).all(), f"holes {np.sum(got == 0)}, overlaps {np.sum(got > 1)}"


def test_fill_rule_fan_around_centre_pixel_corner_and_centre():
    # fans whose hub sits exactly on a pixel centre and on a pixel corner
    for hub in [(8.5, 8.5), (8.0, 8.0), (8.25, 7.5)]:
        ring = np.array([(0, 0), (16, 0), (16, 8.5), (16, 16), (8.5, 16), (0, 16), (0, 8)], float)
        tris = [(hub, ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]
        got, _, _ = raster_count(tris, 16, 16)
        assert (got == 1).all(), hub


def test_fill_rule_strip_with_reversed_winding():
    # a triangle strip as the assembler emits it (alternate winding kept) plus
    # mirrored orientation: culling is off, so winding must not matter
    xs = np.arange(0, 17, 2.0)
    top = [(x, 0.0) for x in xs]
    bot = [(x + 0.5, 16.0) for x in xs]
    verts = [v for pair in zip(top, bot) for v in pair]
    tris = [(verts[i], verts[i + 1], verts[i + 2]) for i in range(len(verts) - 2)]
    got, _, _ = raster_count(tris, 16, 16)
    inside = np.zeros((16, 16), bool)
    # the strip covers the parallelogram between y=0 and y=16, x from 0.5*y/16..16+
    assert (got[..., 0] <= 1).all()
    ref = coverage_count(tris, 16, 16)
    np.testing.assert_array_equal(got, ref)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(2, 7), st.floats(0.0, 0.45))
def test_hypothesis_random_meshes_watertight(seed, n, jitter):
    rng = np.random.default_rng(seed)
    tris = grid_mesh(n, 24.0, jitter, rng, flip_diagonals=bool(seed & 1))
    # a strong jitter can fold a quad, or leave a sliver that folds once snapped to
    # 1/256 px (the rasteriser's corners): then it is no tiling
    area = signed_area2_fx(snap_fx(tris[..., 0]), snap_fx(tris[..., 1]))
    assume((area > 0).all())
    got, _, _ = raster_count(tris, 24, 24, 4)
    assert (got == 1).all()


def test_diagonal_shared_edges_exact_pixel_centres():
    # edges passing exactly through pixel centres: the shared-edge tie decides
    tris = [[(0.5, 0.5), (12.5, 12.5), (0.5, 12.5)], [(0.5, 0.5), (12.5, 0.5), (12.5, 12.5)],
            [(12.5, 0.5), (16, 0), (12.5, 12.5)]]
    got, _, _ = raster_count(tris, 16, 16)
    assert got.max() == 1
    np.testing.assert_array_equal(got, coverage_count(tris, 16, 16))


def test_rect_restricts_fragments_and_tiles_partition():
    rng = np.random.default_rng(3)
    tris = rng.uniform(0, 40, size=(20, 3, 2))
    setup = setup_triangles(window_tris(tris))
    whole = rasterize(setup, (0, 0, 40, 40), 4)
    parts = [rasterize(setup, (x, y, x + 16, y + 16), 4) for y in range(0, 40, 16) for x in range(0, 40, 16)]
    keys = lambda f: set(zip(f.tri.tolist(), f.x.tolist(), f.y.tolist(), f.coverage.tolist()))
    union = set().union(*(keys(p) for p in parts))
    assert union == keys(whole)
    assert sum(len(p) for p in parts) == len(whole)
    sc = rasterize(setup, intersect_rects((0, 0, 40, 40), (5, 7, 20, 30)), 1)
    assert sc.x.min() >= 5 and sc.x.max() < 20 and sc.y.min() >= 7 and sc.y.max() < 30


def test_rows_subset():
    rng = np.random.default_rng(4)
    setup = setup_triangles(window_tris(rng.uniform(0, 20, size=(10, 3, 2))))
    sub = rasterize(setup, (0, 0, 20, 20), rows=np.array([2, 5, 7]))
    assert set(np.unique(sub.tri)) <= {2, 5, 7}
    whole = rasterize(setup, (0, 0, 20, 20))
    assert len(sub) == np.isin(whole.tri, [2, 5, 7]).sum()


def test_scratch_gives_the_same_fragments_in_reused_memory():
    """With a caller's Scratch the fragments equal those of a fresh call, call after
    call (big and small passes, 1 and 4 samples, with and without depth); a later
    call that fits reuses the memory; beyond the scratch's size a call allocates."""
    rng = np.random.default_rng(12)
    big = np.concatenate([[[0, 0], [300, 0], [0, 300]], [[300, 300], [0, 300], [300, 0]]]).reshape(-1, 3, 2)
    tris = np.concatenate([big, rng.uniform(0, 200, size=(30, 3, 2))])
    setup = setup_triangles(window_tris(tris, z=0.25))
    sc = Scratch(64 << 20)
    fields = ("tri", "x", "y", "coverage", "z", "layer_offsets")
    earlier = []
    for samples, rows, depth in [(1, None, True), (4, None, True), (1, np.arange(2, 20), False), (1, None, True)]:
        want = rasterize(setup, (0, 0, 256, 256), samples, rows=rows, depth=depth)
        got = rasterize(setup, (0, 0, 256, 256), samples, rows=rows, depth=depth, scratch=sc)
        for f in fields:
            a, b = getattr(want, f), getattr(got, f)
            assert (a is None) == (b is None) and (a is None or np.array_equal(a, b)), f
        earlier.append(got.x)
    assert any(np.shares_memory(x, got.x) for x in earlier[:-1])     # the last call reused memory
    small = Scratch(1 << 10)                          # too small: the call allocates its own
    got = rasterize(setup, (0, 0, 256, 256), 1, scratch=small)
    assert np.array_equal(got.x, rasterize(setup, (0, 0, 256, 256), 1).x) and not small._arrays


def test_depth_plane_and_barycentrics():
    win = np.array([[[2.0, 1.0, 0.2, 1.0], [30.0, 3.0, 0.8, 0.5], [5.0, 29.0, 0.5, 0.25]]])
    setup = setup_triangles(win)
    frags = rasterize(setup, (0, 0, 32, 32), 4)
    # analytic linear barycentrics at pixel centres
    P = np.stack((frags.x + 0.5, frags.y + 0.5), 1)
    A, B, C = win[0, :, :2]
    T = np.array([B - A, C - A]).T
    l12 = np.linalg.solve(T, (P - A).T).T
    lam = np.column_stack((1 - l12.sum(1), l12))
    got_lin = barycentrics(setup, frags, perspective=False)
    np.testing.assert_allclose(got_lin, lam, atol=2e-3)  # vertices snapped to 1/256 px
    z_centre = lam @ win[0, :, 2]
    # 4x samples straddle the centre symmetrically: their mean depth is the centre depth
    np.testing.assert_allclose(frags.z.mean(1), z_centre, atol=1e-4)
    pw = lam * win[0, :, 3]
    pw /= pw.sum(1, keepdims=True)
    np.testing.assert_allclose(barycentrics(setup, frags, perspective=True), pw, atol=2e-3)
    s2 = barycentrics(setup, frags, sample=2, perspective=False)
    np.testing.assert_allclose(s2.sum(1), 1, atol=1e-5)


def test_depth_clamped_and_offset_added():
    win = window_tris([[(0, 0), (8, 0), (0, 8)]], z=0.9)
    setup = setup_triangles(win, offset=(0.0, 2 ** 22, 0.0))      # +0.25
    frags = rasterize(setup, (0, 0, 8, 8))
    np.testing.assert_allclose(frags.z, 1.0)
    setup = setup_triangles(win, offset=(0.0, -2 ** 22, 0.0))
    np.testing.assert_allclose(rasterize(setup, (0, 0, 8, 8)).z, 0.65, atol=1e-6)


def test_cull_modes():
    ccw = [(0, 0), (8, 0), (0, 8)]
    cw = [(0, 0), (0, 8), (8, 0)]
    win = window_tris([ccw, cw])
    for cull, front_face, kept in [("none", "ccw", [0, 1]), ("back", "ccw", [0]), ("front", "ccw", [1]),
                                   ("back", "cw", [1]), ("front", "cw", [0]), ("front_and_back", "ccw", [])]:
        setup = setup_triangles(win, cull=cull, front_face=front_face)
        assert setup.prim.tolist() == kept, (cull, front_face)
    setup = setup_triangles(win, front_face="cw")
    assert setup.front_facing.tolist() == [False, True]


def test_degenerate_triangles_dropped():
    setup = setup_triangles(window_tris([[(0, 0), (4, 4), (8, 8)], [(1, 1), (1, 1), (5, 2)]]))
    assert len(setup) == 0
    assert len(rasterize(setup, (0, 0, 8, 8))) == 0


def test_points_square_and_sprite_coords():
    win = np.array([[4.5, 4.5, 0.5, 1.0], [10.0, 10.0, 0.5, 1.0], [1.5, 12.5, 0.3, 1.0]])
    setup = setup_points(win, np.array([1.0, 4.0, 3.0]))
    frags = rasterize(setup, (0, 0, 16, 16))
    for p, (xs, ys) in enumerate([((4,), (4,)), (range(8, 12), range(8, 12)), (range(0, 3), range(11, 14))]):
        on = setup.prim[frags.tri] == p
        got = set(zip(frags.x[on].tolist(), frags.y[on].tolist()))
        assert got == {(x, y) for x in xs for y in ys}, p
    pc = point_coords(setup, frags)
    on = setup.prim[frags.tri] == 1
    # size-4 point at (10, 10): pixel centres 8.5..11.5 -> s = 1/8, 3/8, 5/8, 7/8
    np.testing.assert_allclose(pc[on, 0], (frags.x[on] + 0.5 - 8.0) / 4, atol=1e-6)
    np.testing.assert_allclose(pc[on, 1], 1 - (frags.y[on] + 0.5 - 8.0) / 4, atol=1e-6)
    bw = barycentrics(setup, frags)
    assert bw.shape == (len(frags), 1)
    np.testing.assert_allclose(bw, 1.0, atol=1e-6)   # float32 weights


def test_lines_one_pixel_per_column_and_interpolation():
    win = np.array([[[0.5, 2.0, 0.0, 1.0], [20.5, 9.0, 1.0, 1.0]],   # x-major
                    [[3.0, 0.5, 0.0, 1.0], [6.0, 15.5, 1.0, 1.0]]])  # y-major
    setup = setup_lines(win, 1.0)
    frags = rasterize(setup, (0, 0, 24, 24))
    for line, major, n in [(0, "x", 20), (1, "y", 15)]:
        on = setup.prim[frags.tri] == line
        along = frags.x[on] if major == "x" else frags.y[on]
        assert sorted(along.tolist()) == list(range(int(along.min()), int(along.min()) + n)), line
    w = barycentrics(setup, frags, perspective=False)
    assert w.shape == (len(frags), 2)
    on = setup.prim[frags.tri] == 0
    np.testing.assert_allclose(w[on, 1], (frags.x[on] + 0.5 - 0.5) / 20.0, atol=1e-3)
    np.testing.assert_allclose(frags.z[on, 0], w[on, 1], atol=1e-3)


@pytest.mark.parametrize("rect", [(0, 0, 96, 80), (5, 3, 90, 77)])
@pytest.mark.parametrize("block_px", [8, 16, None])
def test_covered_pixels_is_the_image_of_rasterize(rect, block_px):
    """covered_pixels (whole blocks written on the block grid, no fragments) covers
    exactly the pixels rasterize gives fragments for, and counts its fragments."""
    from drmshim.gpu.raster import covered_pixels
    rng = np.random.default_rng(block_px or 1)
    big = rng.uniform(-10, 100, (6, 3, 2))                                  # whole and cut blocks
    small = rng.uniform(0, 90, (40, 1, 2)) + rng.uniform(-4, 4, (40, 3, 2))   # partial blocks only
    quad = np.array([[[0, 0], [96, 0], [0, 80]], [[96, 0], [96, 80], [0, 80]]], float)
    setup = setup_triangles(window_tris(np.concatenate([big, small, quad])))
    rows = np.arange(2, len(setup), 2)                                       # a subset, like a tile list
    for r in (None, rows):
        frags = rasterize(setup, rect, rows=r, block_px=block_px)
        image, count = covered_pixels(setup, rect, rows=r, block_px=block_px)
        expect = np.zeros((rect[3] - rect[1], rect[2] - rect[0]), bool)
        expect[frags.y - rect[1], frags.x - rect[0]] = True
        np.testing.assert_array_equal(image, expect)
        assert count == len(frags)


@pytest.mark.parametrize("samples", [1, 4])
@pytest.mark.parametrize("block_px", [4, 16])
def test_without_depth_only_z_is_left_out(samples, block_px):
    """rasterize(depth=False) gives the same fragments and layers, with z all zero
    (big triangles: whole blocks and spans; small ones: spans only)."""
    rng = np.random.default_rng(7)
    for size in (6, 60):
        tris = rng.uniform(-4, 68, size=(15, 1, 2)) + rng.uniform(-size, size, size=(15, 3, 2))
        setup = setup_triangles(window_tris(tris, z=0.25))
        a = rasterize(setup, (0, 0, 64, 64), samples, block_px=block_px)
        b = rasterize(setup, (0, 0, 64, 64), samples, block_px=block_px, depth=False)
        assert len(a) > 50
        for name in ("tri", "x", "y", "coverage", "layer_offsets"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert b.z.shape == a.z.shape and not b.z.any()


@pytest.mark.parametrize("samples", [1, 4])
def test_depth_is_float32_with_or_without_whole_blocks(samples):
    """A fragment's depth does not depend on the other triangles of its pass: a
    small triangle alone (no whole 8x8 block in the pass) and beside a big unrelated
    one (whole blocks) gives the same float32 depths, the plane's value rounded once."""
    small = [(3.3, 2.1), (9.7, 3.9), (4.2, 8.6)]
    big = [(40.0, 0.0), (200.0, 0.0), (40.0, 200.0)]
    win_small = window_tris([small])
    win_small[0, :, 2] = (0.1, 0.7, 0.3)                 # a sloped depth plane
    win = np.concatenate([win_small, window_tris([big], z=0.5)])
    alone = rasterize(setup_triangles(win_small), (0, 0, 256, 256), samples, block_px=8)
    mixed = rasterize(setup_triangles(win), (0, 0, 256, 256), samples, block_px=8)
    assert alone.z.dtype == np.float32 and mixed.z.dtype == np.float32
    mine = mixed.tri == 0
    order = np.lexsort((mixed.x[mine], mixed.y[mine]))
    order_alone = np.lexsort((alone.x, alone.y))
    assert np.array_equal(alone.x[order_alone], mixed.x[mine][order])
    np.testing.assert_array_equal(alone.z[order_alone], mixed.z[mine][order])
    # the plane's value at each sample, from the corners in float64, rounded to float32
    pos = np.array(SAMPLE_POSITIONS_16THS[samples], np.float64) / 16.0
    X = alone.x[:, None] + pos[None, :, 0]
    Y = alone.y[:, None] + pos[None, :, 1]
    xs, ys = np.array(small).T
    A = np.array([[xs[1] - xs[0], ys[1] - ys[0]], [xs[2] - xs[0], ys[2] - ys[0]]])
    g = np.linalg.solve(A, np.array([0.6, 0.2]))
    want = 0.1 + g[0] * (X - xs[0]) + g[1] * (Y - ys[0])
    np.testing.assert_allclose(alone.z, want, atol=2e-3)  # (corners snapped to 1/256 px)


@pytest.mark.parametrize("samples", [2, 4])
def test_centre_sampling_is_single_sample_coverage_and_depth_on_every_sample(samples):
    """``centre`` (PPP_RASTER.multisample off): each sample of a pixel has the pixel
    centre's coverage (the reference's one-sample count) and its depth."""
    rng = np.random.default_rng(7 + samples)
    tris = rng.uniform(-4, 36, size=(10, 3, 2))
    win = window_tris(tris)
    win[..., 2] = rng.uniform(0, 1, size=(10, 3))
    setup = setup_triangles(win)
    frags = rasterize(setup, (0, 0, 32, 32), samples, centre=True)
    assert (frags.coverage == (1 << samples) - 1).all()          # all samples or no fragment
    count = np.zeros((32, 32), np.int64)
    np.add.at(count, (frags.y, frags.x), 1)
    np.testing.assert_array_equal(count, coverage_count(tris, 32, 32)[..., 0])
    one = rasterize(setup, (0, 0, 32, 32), 1)
    key = lambda f: np.lexsort((f.x, f.y, f.tri))              # noqa: E731
    a, b = key(frags), key(one)
    np.testing.assert_array_equal(frags.tri[a], one.tri[b])
    np.testing.assert_array_equal(frags.z[a], np.repeat(one.z[b], samples, axis=1))
    check_layering(frags)
