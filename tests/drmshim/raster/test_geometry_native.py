"""The per-triangle C kernels (``drmshim.gpu.raster.native_geometry``) against their
numpy specification: clip codes, triangle set-up, coefficient planes, binning and
rasterize's layer order give the same arrays (values and dtypes) with the kernels
on and off, over random inputs that reach every branch (culling, degenerate and
out-of-range triangles, NaN and clipped vertices, user clip distances, polygon
offset, tile capacity). The other raster tests check the default path (the kernels
when a C compiler is there) against independent references."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from drmshim.gpu.pipeline import ppp
from drmshim.gpu.raster import (bin_triangles, clip_triangles, rasterize, setup_lines, setup_points,
                                setup_triangles, vertex_distances)
from drmshim.gpu.raster.clip import _codes, outcodes

geometry = importlib.import_module("drmshim.gpu.raster.native_geometry")

pytestmark = pytest.mark.skipif(not geometry.KERNELS.usable(), reason="no C compiler: numpy runs alone")


def _both(fn):
    """(numpy result, C result) of ``fn()``."""
    geometry.KERNELS.enabled = False
    try:
        want = fn()
    finally:
        geometry.KERNELS.enabled = True
    return want, fn()


def _same_arrays(want, got, names):
    for name in names:
        a, b = getattr(want, name), getattr(got, name)
        if a is None or b is None:
            assert a is None and b is None, name
            continue
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        np.testing.assert_array_equal(a, b, err_msg=name)


SETUP_FIELDS = ("prim", "x_fx", "y_fx", "edge_a", "edge_b", "edge_c", "edge_bias", "area2_fx", "front_facing",
                "z", "inv_w", "dzdx", "dzdy", "z_offset", "bbox_px", "xy_px", "corner_weights", "corner_uv")


def _windows(rng, n, scale):
    centre = rng.uniform(-50, 300, (n, 1, 2))
    xy = centre + rng.uniform(-scale, scale, (n, 3, 2))
    xy[::7] = np.round(xy[::7])                                # on pixel edges
    xy[1::11, 2] = xy[1::11, 0]                                # degenerate (zero area)
    xy[2::13, 1] = xy[2::13, 0] + 1e-4                          # zero area once snapped
    z = rng.uniform(-0.5, 1.5, (n, 3, 1))
    return np.concatenate([xy, z, rng.uniform(0.1, 2, (n, 3, 1))], 2)


@pytest.mark.parametrize("cull", ["none", "front", "back", "front_and_back"])
@pytest.mark.parametrize("front_face", ["ccw", "cw"])
def test_setup_triangles_is_the_numpy_specification(cull, front_face):
    rng = np.random.default_rng(7 + len(cull) + len(front_face))
    for scale, offset in ((3, None), (40, (1.5, 3.0, 0.0)), (400, (-2.0, 1.0, 0.01))):
        win = _windows(rng, 500, scale)
        prim = rng.integers(0, 1000, len(win))
        want, got = _both(lambda: setup_triangles(win, prim=prim, front_face=front_face, cull=cull, offset=offset,
                                                  depth_format="float32" if scale == 400 else "unorm24"))
        _same_arrays(want, got, SETUP_FIELDS)
        assert 0 < len(got) < len(win) or cull == "front_and_back"


def test_lines_and_points_set_up_as_numpy():
    rng = np.random.default_rng(3)
    ends = _windows(rng, 200, 30)[:, :2]
    want, got = _both(lambda: setup_lines(ends, 2.5, offset=(1.0, 1.0, 0.0)))
    _same_arrays(want, got, SETUP_FIELDS)
    size = rng.uniform(1, 9, 200)
    want, got = _both(lambda: setup_points(ends[:, 0], size))
    _same_arrays(want, got, SETUP_FIELDS)


def test_out_of_range_corners_raise_as_numpy():
    win = _windows(np.random.default_rng(4), 10, 5)
    for bad in (2.0 ** 17, np.nan, -np.inf):
        w = win.copy()
        w[5, 1, 1] = bad
        for enabled in (False, True):
            geometry.KERNELS.enabled = enabled
            try:
                with pytest.raises(ValueError, match="window coordinate"):
                    setup_triangles(w)
            finally:
                geometry.KERNELS.enabled = True


@pytest.mark.parametrize("options", [dict(), dict(clip_z=False), dict(zero_to_one_depth=True),
                                     dict(guard_band_ndc=1.0)])
def test_clip_codes_and_clipping_are_the_numpy_specification(options):
    rng = np.random.default_rng(11)
    pos = rng.uniform(-3, 3, (600, 4))
    pos[:, 3] = rng.uniform(-0.2, 1.5, 600)
    pos[::37, 0] = np.nan
    pos[::41, 3] = 0.0
    cd = rng.uniform(-1, 3, (600, 2))
    for clip_distance in (None, cd):
        want = outcodes(vertex_distances(pos, clip_distance, **options))
        got = _codes(pos, clip_distance, **options)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        assert (got != 0).any() and (got == 0).any()
        tris = rng.integers(0, 600, (400, 3))
        w, g = _both(lambda: clip_triangles(pos, tris, clip_distance, **options))
        _same_arrays(w, g, ("prim", "weights", "position"))
    inside = pos.copy()
    inside[:, :3] = rng.uniform(-0.9, 0.9, (600, 3))
    inside[:, 3] = 1.0
    tris = rng.integers(0, 600, (400, 3))
    w, g = _both(lambda: clip_triangles(inside, tris))
    _same_arrays(w, g, ("prim", "weights", "position"))


def test_planes_are_the_numpy_specification():
    rng = np.random.default_rng(5)
    T, n_cf = 700, 6
    xw, yw = rng.uniform(-10, 300, (2, T, 3))
    xw[::9, 2], yw[::9, 2] = xw[::9, 0], yw[::9, 0]             # det == 0: a, b = 0
    values = [rng.uniform(-5, 5, (T, 3)) for _ in range(4)]
    values[1][::5] = np.inf
    cfs = [0, 5, 2, 3]
    want = np.zeros((T, n_cf, 3), np.float32)
    for cf, v in zip(cfs, values):
        with np.errstate(invalid="ignore"):
            want[:, cf] = ppp._plane(xw, yw, v)
    got = np.zeros((T, n_cf, 3), np.float32)
    assert geometry.planes(xw, yw, values, cfs, got)
    np.testing.assert_array_equal(got, want)
    assert not got[:, [1, 4]].any()


@pytest.mark.parametrize("exact", [True, False])
def test_binning_is_the_numpy_specification(exact):
    rng = np.random.default_rng(9)
    setup = setup_triangles(_windows(rng, 800, 60))
    entries = 0
    for W, H, tile in ((256, 200, 32), (100, 300, 16)):
        for capacity, first in ((None, 0), (None, 300), (500, 0), (200, 100), (1, 0), (10 ** 6, 5)):
            want, got = _both(lambda: bin_triangles(setup, W, H, tile_size_px=tile, capacity_entries=capacity,
                                                    first_row=first, exact=exact))
            _same_arrays(want, got, ("offsets", "rows", "tiles_x", "tiles_y", "rows_begin", "rows_end",
                                     "overflow"))
            entries += got.entries
    assert entries > 10_000


@pytest.mark.parametrize("samples", [1, 4])
def test_rasterize_layers_are_the_numpy_specification(samples):
    rng = np.random.default_rng(12 + samples)
    setup = setup_triangles(_windows(rng, 600, 25))
    for rect, block in (((0, 0, 256, 256), 8), ((-3, 5, 180, 250), 16), ((10, 10, 300, 40), None)):
        want, got = _both(lambda: rasterize(setup, rect, samples, block_px=block))
        _same_arrays(want, got, ("tri", "x", "y", "coverage", "z", "layer_offsets"))
        assert len(got) > 1000 and len(got.layer_offsets) > 3


class _Viewport:
    translate_x, translate_y, translate_z = 512.25, 300.5, 0.5
    scale_x, scale_y, scale_z = 512.25, -300.5, 0.5


@pytest.mark.parametrize("vp", [None, _Viewport()])
@pytest.mark.parametrize("options", [dict(), dict(clip_z=False), dict(zero_to_one_depth=True)])
def test_unclipped_window_is_clipping_and_the_viewport(vp, options):
    """The one-pass window of uncut triangles (``unclipped_window``) equals the
    general path (clip_triangles, ppp._window, ppp._representable) bit for bit, and
    refuses exactly the calls where some triangle is cut, or dropped for another
    reason than lying wholly outside one clip plane (the trivial reject, which it
    takes: half the trials put a third of the triangles wholly beyond one plane)."""
    from drmshim.gpu.raster import MAX_WINDOW_COORD_PX, unclipped_window
    rng = np.random.default_rng(21)
    taken = refused = taken_with_rejects = 0
    for trial in range(60):
        V = 300
        pos = np.empty((V, 4), np.float32)
        pos[:, :2] = rng.uniform(-1, 1, (V, 2))
        pos[:, 2] = rng.uniform(0, 0.4, V)                     # inside every z plane (|z| < w)
        pos[:, 3] = rng.uniform(0.5, 2, V)
        if trial % 4 == 1:
            pos[rng.integers(0, V), rng.integers(0, 4)] = (np.nan, 3.0, -9.0, 1e-30)[trial % 3]
        if trial % 4 == 2:
            pos[rng.integers(0, V), 2] = 1.7                    # beyond the far plane
        if trial % 8 == 3:
            pos[rng.integers(0, V), 0] = 5e3 if vp is not None else 1.5e5   # off the fixed-point range
        tris = rng.integers(0, V, (200, 3))
        if trial % 2 == 0:
            # vertices 200..299 beyond one plane each (x > 8w, x < -8w, y > 8w or z > w):
            # triangles made of them alone lie wholly outside that plane
            out = np.arange(200, 300)
            side = out % 4
            pos[out[side == 0], 0] = 9 * pos[out[side == 0], 3] + rng.uniform(0, 50, (side == 0).sum())
            pos[out[side == 1], 0] = -9 * pos[out[side == 1], 3]
            pos[out[side == 2], 1] = 8.5 * pos[out[side == 2], 3]
            pos[out[side == 3], 2] = 1.5 * pos[out[side == 3], 3]
            tris[:120] = rng.integers(0, 200, (120, 3))
            same = [out[side == k] for k in range(4)]
            tris[120:] = np.stack([rng.choice(same[k % 4], 3) for k in range(80)])
        words = np.ascontiguousarray(pos.T).view(np.uint32)       # (4, V), as the vertex outputs' rows
        got = unclipped_window(words, tris, vp, MAX_WINDOW_COORD_PX, **options)
        general = clip_triangles(pos.astype(np.float64), tris, None, **options)
        window, clipped = ppp._representable(ppp._window(general.position, vp), general)
        # the independent outcode test: wholly outside one plane
        code = outcodes(vertex_distances(pos.astype(np.float64), None, **options))[tris]
        outside = (code[:, 0] & code[:, 1] & code[:, 2]) != 0
        simple = np.array_equal(clipped.prim, np.flatnonzero(~outside)) and np.array_equal(
            clipped.weights, np.broadcast_to(np.eye(3), clipped.weights.shape))
        if got is None:
            refused += 1
            assert not simple or geometry.KERNELS.enabled is False
            continue
        taken += 1
        taken_with_rejects += bool(outside.any())
        assert simple
        c, win = got
        np.testing.assert_array_equal(c.prim, clipped.prim)
        assert c.prim.dtype == np.int64 and c.weights.shape == (len(c.prim), 3, 3)
        assert win.dtype == window.dtype and win.shape == window.shape
        np.testing.assert_array_equal(win, window)
    assert taken > 10 and refused > 5 and taken_with_rejects > 5


def test_unclipped_window_of_triangles_all_outside_is_empty():
    """A draw whose every triangle lies wholly beyond the guard band (a tiny triangle
    far from a small viewport) keeps nothing, in the one pass."""
    from drmshim.gpu.raster import MAX_WINDOW_COORD_PX, unclipped_window
    from drmshim.gpu.raster.clip import GUARD_BAND_NDC
    pos = np.array([[20.0, 0, 0, 1], [21, 1, 0, 1], [22, 0, 0, 1]], np.float32)
    assert GUARD_BAND_NDC < 20
    words = np.ascontiguousarray(pos.T).view(np.uint32)
    got = unclipped_window(words, np.array([[0, 1, 2]]), _Viewport(), MAX_WINDOW_COORD_PX)
    assert got is not None
    c, win = got
    assert len(c.prim) == 0 and win.shape == (0, 3, 4)
    assert len(clip_triangles(pos.astype(np.float64), np.array([[0, 1, 2]]))) == 0


def test_planes_read_vertex_words_as_the_pipeline_does():
    """Components given as the vertex outputs' float32 words (ppp's varyings: the C
    pass gathers word[verts], times 1/w when perspective) give ppp's numpy planes."""
    rng = np.random.default_rng(8)
    T, V, n_cf = 500, 900, 5
    xw, yw = rng.uniform(-10, 300, (2, T, 3))
    inv_w = rng.uniform(0.2, 3, (T, 3))
    verts = rng.integers(0, V, (T, 3))
    words = [rng.uniform(-4, 4, V).astype(np.float32).view(np.uint32) for _ in range(2)]
    words[1][::7] = np.float32(np.inf).view(np.uint32)

    def corners(values):
        return (values.get() if isinstance(values, ppp._Lazy) else values)[verts]
    comps = [ppp._Corners(corners, ppp._Lazy(words[0]), inv_w, words[0]),
             ppp._Corners(corners, ppp._Lazy(words[1]), None, words[1]),
             inv_w,
             ppp._Corners(corners, ppp._Lazy(words[1]), inv_w, None)]          # (no word: values())
    cfs = [4, 0, 2, 1]
    want = np.zeros((T, n_cf, 3), np.float32)
    with np.errstate(invalid="ignore"):
        for cf, v in zip(cfs, comps):
            want[:, cf] = ppp._plane(xw, yw, v.values() if isinstance(v, ppp._Corners) else v)
    got = np.zeros((T, n_cf, 3), np.float32)
    assert geometry.planes(xw, yw, comps, cfs, got, verts=verts, inv_w=inv_w)
    np.testing.assert_array_equal(got, want)
    assert np.isnan(got[:, 0]).any() and not got[:, 3].any()
