"""Viewport transform, polygon offset, and the tiler (binning, overflow)."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu.raster import (bin_triangles, min_resolvable_depth, polygon_offset, rasterize,
                                setup_triangles, viewport_transform)


def test_viewport_transform_formula():
    clip = np.array([[-1.0, -1.0, -1.0, 1.0], [2.0, 1.0, 1.0, 2.0], [0.0, 0.0, 0.0, 4.0]])
    win = viewport_transform(clip, (10, 20, 200, 100), (0.25, 0.75))
    np.testing.assert_allclose(win[0], [10, 20, 0.25, 1.0])
    np.testing.assert_allclose(win[1], [210, 95, 0.625, 0.5])     # ndc (1, 0.5, 0.5)
    np.testing.assert_allclose(win[2], [110, 70, 0.5, 0.25])
    win01 = viewport_transform(clip, (0, 0, 2, 2), (0.0, 1.0), zero_to_one_depth=True)
    np.testing.assert_allclose(win01[:, 2], [-1.0, 0.5, 0.0])
    inv = viewport_transform(clip, (0, 0, 2, 2), (1.0, 0.0))     # reversed depth range
    np.testing.assert_allclose(inv[:, 2], [1.0, 0.25, 0.5])


def test_polygon_offset_formula_and_clamp():
    dzdx = np.array([0.01, -0.03, 0.0])
    dzdy = np.array([0.02, 0.01, 0.0])
    r = 2.0 ** -24
    np.testing.assert_allclose(polygon_offset(dzdx, dzdy, 2.0, 3.0, 0.0, r), [0.04 + 3 * r, 0.06 + 3 * r, 3 * r])
    np.testing.assert_allclose(polygon_offset(dzdx, dzdy, 2.0, 3.0, 0.05, r), [0.04 + 3 * r, 0.05, 3 * r])
    np.testing.assert_allclose(polygon_offset(dzdx, dzdy, -2.0, 0.0, -0.05, r), [-0.04, -0.05, 0.0])


def test_polygon_offset_in_setup_uses_depth_slopes():
    # z = 0.1 + 0.01 x + 0.002 y over a triangle
    xy = np.array([[0.0, 0.0], [50.0, 0.0], [0.0, 40.0]])
    win = np.column_stack((xy, 0.1 + 0.01 * xy[:, 0] + 0.002 * xy[:, 1], np.ones(3)))[None]
    s = setup_triangles(win, offset=(1.5, 2.0, 0.0), depth_format="unorm16")
    np.testing.assert_allclose(s.dzdx, 0.01)
    np.testing.assert_allclose(s.dzdy, 0.002)
    np.testing.assert_allclose(s.z_offset, 1.5 * 0.01 + 2.0 * 2.0 ** -16)


def test_min_resolvable_depth():
    assert min_resolvable_depth("unorm24").item() == 2.0 ** -24
    assert min_resolvable_depth("unorm16").item() == 2.0 ** -16
    # float: 2^(e - 23) with max |z| = 0.75 = 1.5 * 2^-1 -> e = -1
    assert min_resolvable_depth("float32", np.array([0.75]))[0] == 2.0 ** -24
    assert min_resolvable_depth("float32", np.array([1.0]))[0] == 2.0 ** -23
    with pytest.raises(ValueError):
        min_resolvable_depth("d42")


def test_snap_range_checked():
    win = np.array([[[0, 0, 0, 1], [1e9, 0, 0, 1], [0, 5, 0, 1]]], float)
    with pytest.raises(ValueError):
        setup_triangles(win)


def random_setup(rng, n, size):
    win = np.empty((n, 3, 4))
    centre = rng.uniform(0, size, (n, 1, 2))
    win[..., :2] = centre + rng.uniform(-30, 30, (n, 3, 2))
    win[..., 2] = 0.5
    win[..., 3] = 1
    return setup_triangles(win)


@pytest.mark.parametrize("exact", [False, True])
def test_tiles_hold_every_fragment(exact):
    rng = np.random.default_rng(2)
    setup = random_setup(rng, 80, 100)
    tl = bin_triangles(setup, 100, 90, tile_size_px=16, exact=exact)
    assert not tl.overflow and tl.rows_end == len(setup)
    frags = rasterize(setup, (0, 0, 100, 90), 4)
    tile = (frags.y // 16) * tl.tiles_x + frags.x // 16
    listed = set()
    for t in tl.nonempty_tiles():
        rows = tl.tile_rows(t)
        assert (np.diff(rows) > 0).all()           # draw order within a tile
        listed |= {(int(t), int(r)) for r in rows}
    need = set(zip(tile.tolist(), frags.tri.tolist()))
    assert need <= listed
    # per-tile rasterisation of the tile lists reproduces the whole frame
    total = sum(len(rasterize(setup, tl.tile_rect(t), 4, rows=tl.tile_rows(t))) for t in tl.nonempty_tiles())
    assert total == len(frags)
    if exact:
        loose = bin_triangles(setup, 100, 90, tile_size_px=16, exact=False)
        assert tl.entries <= loose.entries


def test_tiler_overflow_bins_a_prefix_and_resumes():
    rng = np.random.default_rng(3)
    setup = random_setup(rng, 50, 128)
    full = bin_triangles(setup, 128, 128, tile_size_px=32)
    cap = full.entries // 3
    seen = []
    first = 0
    partial_renders = 0
    while first < len(setup):
        tl = bin_triangles(setup, 128, 128, tile_size_px=32, capacity_entries=cap, first_row=first)
        assert tl.entries <= cap or tl.rows_end - tl.rows_begin == 1
        assert tl.rows_begin == first and tl.rows_end > first
        seen.append(tl.rows)
        partial_renders += tl.overflow
        first = tl.rows_end
    assert partial_renders >= 2
    assert sum(len(r) for r in seen) == full.entries
    assert np.array_equal(np.unique(np.concatenate(seen)), np.unique(full.rows))


def test_polygon_mode_line_and_point_after_culling():
    from drmshim.gpu.raster import face_and_cull, polygon_edges, polygon_vertices, rasterize, setup_lines, setup_points
    win = np.zeros((2, 3, 4))
    win[..., 2:] = (0.5, 1.0)
    win[0, :, :2] = [(2.5, 2.5), (12.5, 2.5), (2.5, 12.5)]       # ccw (y up): front
    win[1, :, :2] = [(20.5, 2.5), (20.5, 12.5), (30.5, 2.5)]     # cw: back
    keep, front = face_and_cull(win, "ccw", "back")
    assert keep.tolist() == [True, False] and front.tolist() == [True, False]
    ends, prim = polygon_edges(win[keep], np.flatnonzero(keep))
    assert ends.shape == (3, 2, 4) and prim.tolist() == [0, 0, 0]
    setup = setup_lines(ends, 1.0, prim=prim)
    frags = rasterize(setup, (0, 0, 32, 16))
    got = set(zip(frags.x.tolist(), frags.y.tolist()))
    assert {(x, 2) for x in range(3, 12)} <= got            # bottom edge y = 2.5
    assert {(2, y) for y in range(3, 12)} <= got            # left edge x = 2.5
    assert (7, 7) in got                                    # the hypotenuse through (7.5, 7.5)
    assert (5, 5) not in got                                # interior not filled
    pts, pprim = polygon_vertices(win[keep])
    ps = setup_points(pts, 1.0, prim=pprim)
    pf = rasterize(ps, (0, 0, 32, 16))
    assert set(zip(pf.x.tolist(), pf.y.tolist())) == {(2, 2), (12, 2), (2, 12)}


def test_tile_regions_cover_the_frame_once():
    rng = np.random.default_rng(5)
    setup = random_setup(rng, 60, 100)
    tl = bin_triangles(setup, 100, 100, tile_size_px=16)
    whole = rasterize(setup, (0, 0, 100, 100), 4)
    keys = set()
    for ty in range(0, tl.tiles_y, 3):
        for tx in range(0, tl.tiles_x, 3):
            rect, rows = tl.region(tx, ty, min(tx + 3, tl.tiles_x), min(ty + 3, tl.tiles_y))
            assert (np.diff(rows) > 0).all()
            f = rasterize(setup, rect, 4, rows=rows)
            keys |= set(zip(f.tri.tolist(), f.x.tolist(), f.y.tolist(), f.coverage.tolist()))
    assert keys == set(zip(whole.tri.tolist(), whole.x.tolist(), whole.y.tolist(), whole.coverage.tolist()))
