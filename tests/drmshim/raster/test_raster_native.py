"""The rasteriser's C kernels (``drmshim.gpu.raster.native``) against their numpy
specification: ``rasterize`` and ``covered_pixels`` give the same arrays (values,
dtypes, layering) with the kernels on and off, for random triangles of every size,
snapped to pixel edges or not, 1, 2 and 4 samples, rows subsets, rectangles cut by
the viewport and both block sizes; the ISP's depth test (``depth_stencil`` without
stencil) gives the same buffer, masks and owners. The other rasteriser tests check the default
path (the kernels when a C compiler is there) against independent references."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from drmshim.gpu.raster import DepthStencilState, Fragments, covered_pixels, depth_stencil, rasterize, setup_triangles
from drmshim.gpu.raster.constants import COMPARE_FUNCS

native = importlib.import_module("drmshim.gpu.raster.native")
geometry = importlib.import_module("drmshim.gpu.raster.native_geometry")

pytestmark = pytest.mark.skipif(not native.KERNELS.usable(), reason="no C compiler: numpy runs alone")


@pytest.fixture
def numpy_only():
    """Run a block with the kernels off, then on again."""
    class Switch:
        def __enter__(self):
            native.KERNELS.enabled = geometry.KERNELS.enabled = False

        def __exit__(self, *exc):
            native.KERNELS.enabled = geometry.KERNELS.enabled = True
    yield Switch()
    native.KERNELS.enabled = geometry.KERNELS.enabled = True


def _random_setup(rng, trial: int):
    n = int(rng.integers(1, 300))
    scale = (3, 30, 200)[trial % 3]                       # small, medium, big triangles
    centre = rng.uniform(-20, 120, (n, 1, 2))
    xy = centre + rng.uniform(-scale, scale, (n, 3, 2))
    if trial % 4 == 0:
        xy = np.round(xy)                                 # corners and edges on pixel edges
    win = np.concatenate([xy, rng.uniform(0, 1, (n, 3, 1)), np.ones((n, 3, 1))], 2)
    return setup_triangles(win, cull="none")


def _same(want, got):
    for name in ("tri", "x", "y", "coverage", "z", "layer_offsets"):
        a, b = getattr(want, name), getattr(got, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        np.testing.assert_array_equal(a, b, err_msg=name)


@pytest.mark.parametrize("samples", [1, 2, 4])
def test_rasterize_is_the_numpy_specification(numpy_only, samples):
    rng = np.random.default_rng(100 + samples)
    fragments = 0
    for trial in range(24):
        setup = _random_setup(rng, trial)
        rect = (int(rng.integers(-5, 20)), int(rng.integers(-5, 20)),
                int(rng.integers(40, 130)), int(rng.integers(40, 130)))
        rows = None
        if trial % 2 and len(setup) > 1:
            rows = np.sort(rng.choice(len(setup), size=len(setup) // 2, replace=False))
        block = (8, 16, None)[trial % 3]
        for depth in (True, False):
            with numpy_only:
                want = rasterize(setup, rect, samples, rows=rows, depth=depth, block_px=block)
            got = rasterize(setup, rect, samples, rows=rows, depth=depth, block_px=block)
            _same(want, got)
            fragments += len(want)
        if samples == 1:
            with numpy_only:
                want_img, want_n = covered_pixels(setup, rect, rows=rows, block_px=block)
            got_img, got_n = covered_pixels(setup, rect, rows=rows, block_px=block)
            np.testing.assert_array_equal(want_img, got_img)
            assert want_n == got_n
    assert fragments > 10_000          # the comparison saw real work


def test_a_later_call_leaves_earlier_fragments_alone():
    """What a call returns must not change when the thread rasterises again
    (every block partial: the coverage array comes straight from the span kernel)."""
    a = setup_triangles(np.array([[[0.3, 0.2, 0.5, 1], [7.6, 0.4, 0.5, 1], [0.2, 6.7, 0.5, 1]]]), cull="none")
    b = setup_triangles(np.array([[[1.3, 1.2, 0.5, 1], [5.6, 1.4, 0.5, 1], [1.2, 5.7, 0.5, 1]]]), cull="none")
    first = rasterize(a, (0, 0, 8, 8), 4)
    kept = {k: getattr(first, k).copy() for k in ("tri", "x", "y", "coverage")}
    rasterize(b, (0, 0, 8, 8), 4)
    for k, v in kept.items():
        np.testing.assert_array_equal(getattr(first, k), v)


# -- the ISP's depth test over all layers in one pass (native.depth_test)

Z_VALUES = np.array([0.0, -0.0, 0.25, 0.5, 0.75, 1.0, np.nan], np.float32)


@pytest.mark.parametrize("samples", [1, 2, 4])
@pytest.mark.parametrize("func", COMPARE_FUNCS)
def test_depth_test_is_the_numpy_specification(numpy_only, samples, func):
    """Depth buffer, sample masks and owners (both layouts) the same with the kernel
    on and off: rasteriser layers (runs) and sorted rank layers (an order array),
    partial coverage, NaN and signed-zero depths."""
    rng = np.random.default_rng(7 + samples + 10 * COMPARE_FUNCS.index(func))
    size = 24
    seen = 0
    for trial in range(6):
        n = int(rng.integers(50, 400))
        centre = rng.uniform(0, size, (n, 1, 2))
        xy = centre + rng.uniform(-6, 6, (n, 3, 2))
        win = np.concatenate([xy, rng.uniform(0, 1, (n, 3, 1)), np.ones((n, 3, 1))], 2)
        frags = rasterize(setup_triangles(win, cull="none"), (0, 0, size, size), samples)
        z = rng.choice(Z_VALUES, size=frags.z.shape)
        if trial % 2:       # no rasteriser layering: sorted rank layers with an order array
            frags = frags.take(rng.permutation(len(frags))[: len(frags) // 2])
        for write in (True, False):
            state = DepthStencilState(depth_test=True, depth_func=func, depth_write=write)
            depth0 = rng.choice(Z_VALUES, size=(size, size, samples))
            records = rng.permutation(size * size).astype(np.int64)      # any record layout
            index = records[frags.y.astype(np.int64) * size + frags.x] * samples
            results = []
            for off in (True, False):
                d = depth0.copy()
                owner = np.full((size, size, samples), -1, np.int64)
                flat_owner = np.full(size * size * samples, -1, np.int64)
                if off:
                    with numpy_only:
                        p1 = depth_stencil(frags, state, d, None, z=z, owner=owner)
                        d2 = depth0.copy()
                        p2 = depth_stencil(frags, state, d2, None, z=z, owner=flat_owner, owner_index=index)
                else:
                    p1 = depth_stencil(frags, state, d, None, z=z, owner=owner)
                    d2 = depth0.copy()
                    p2 = depth_stencil(frags, state, d2, None, z=z, owner=flat_owner, owner_index=index)
                results.append((p1, d, owner, p2, d2, flat_owner))
            for want, got in zip(*results):
                assert want.dtype == got.dtype
                np.testing.assert_array_equal(want.view(np.uint8), got.view(np.uint8))    # bits (NaN, -0.0)
            seen += len(frags)
    assert seen > 2_000


def test_depth_test_outside_the_buffer_raises_as_numpy():
    """A fragment outside the depth buffer: the kernel touches nothing and numpy raises."""
    frags = Fragments(np.array([0, 0], np.int32), np.array([1, 9], np.int32), np.array([1, 9], np.int32),
                      np.array([1, 1], np.uint8), np.array([[0.5], [0.5]], np.float32), 1)
    depth = np.ones((4, 4, 1), np.float32)
    with pytest.raises(IndexError):
        depth_stencil(frags, DepthStencilState(depth_test=True, depth_func="less"), depth, None)


# -- HSR of a depth-tested single-sampled pass without fragments (native.visible_rows)

def _visible_scene(rng, trial: int, size: int):
    n = int(rng.integers(1, 400))
    scale = (3, 12, 90)[trial % 3]                        # small, medium, big (whole 8x8 and 16x16 blocks)
    centre = rng.uniform(-10, size + 10, (n, 1, 2))
    xy = centre + rng.uniform(-scale, scale, (n, 3, 2))
    if trial % 4 == 0:
        xy = np.round(xy)                                 # corners and edges on pixel edges
    z = rng.uniform(-0.2, 1.2, (n, 3, 1))                 # some clamped
    if trial % 5 == 1:
        z[rng.integers(0, n, 3)] = np.nan
    win = np.concatenate([xy, z, np.ones((n, 3, 1))], 2)
    offset = (0.0, 0.0, 0.0) if trial % 3 else (float(rng.uniform(-2, 2)), 3.0, 0.0)
    return setup_triangles(win, cull="none", offset=offset)


@pytest.mark.parametrize("func", COMPARE_FUNCS)
def test_visible_pixels_is_the_numpy_specification(numpy_only, func):
    """``visible_pixels`` (the rasteriser, the clip rectangle, the depth test in primitive
    order with owners) gives the same visible fragments, records, counts and depth
    buffer bits with the kernel on and off: small and big triangles (whole blocks of
    both sizes), regions off the framebuffer's corner, clip rectangles, row subsets,
    polygon offset, clamped and NaN depths, signed zeros in the buffer."""
    from drmshim.gpu.raster import visible_pixels
    rng = np.random.default_rng(31 + COMPARE_FUNCS.index(func))
    size = 96
    seen = passed_total = 0
    for trial in range(12):
        setup = _visible_scene(rng, trial, size)
        x0, y0 = int(rng.integers(0, 20)), int(rng.integers(0, 20))
        rect = (x0, y0, int(rng.integers(x0 + 1, size + 1)), int(rng.integers(y0 + 1, size + 1)))
        clip = None if trial % 2 else (int(rng.integers(0, 30)), int(rng.integers(0, 30)), 80, 70)
        rows = None
        if trial % 3 == 2 and len(setup) > 1:
            rows = np.sort(rng.choice(len(setup), size=len(setup) // 2, replace=False))
        for write in (True, False):
            state = DepthStencilState(depth_test=True, depth_func=func, depth_write=write)
            depth0 = rng.choice(Z_VALUES, size=(size, size, 1))
            clamp = (0.0, 1.0) if trial % 4 else (0.25, 0.75)
            results = []
            for off in (True, False):
                d = depth0.copy()
                if off:
                    with numpy_only:
                        got = visible_pixels(setup, rect, state, d, rows=rows, clip=clip, depth_clamp=clamp)
                else:
                    got = visible_pixels(setup, rect, state, d, rows=rows, clip=clip, depth_clamp=clamp)
                results.append((*got, d))
            want, got = results
            for name, a, b in zip(("tri", "x", "y", "fragments", "passed", "depth"), want, got):
                a, b = np.atleast_1d(a), np.atleast_1d(b)
                assert a.dtype == b.dtype and a.shape == b.shape, name
                np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8), err_msg=name)    # bits
            seen += want[3]
            passed_total += want[4]
    assert seen > 10_000 and (passed_total > 1_000 or func == "never")     # the comparison saw real work


def test_visible_pixels_takes_no_stencil_test():
    from drmshim.gpu.raster import visible_pixels
    setup = setup_triangles(np.array([[[0.3, 0.2, 0.5, 1], [7.6, 0.4, 0.5, 1], [0.2, 6.7, 0.5, 1]]]), cull="none")
    with pytest.raises(ValueError):
        visible_pixels(setup, (0, 0, 8, 8), DepthStencilState(depth_test=True, stencil_test=True),
                       np.ones((8, 8, 1), np.float32))


def test_covered_rows_is_the_numpy_specification(numpy_only):
    """``native.row_intervals`` (covered_rows in C) gives numpy's intervals, count
    and gap verdict: few random triangles (gaps and unions), quads with both
    diagonals, on and off the pixel grid, rows subsets and cut rectangles."""
    from drmshim.gpu.raster import covered_rows
    rng = np.random.default_rng(77)
    verdicts = set()
    for trial in range(60):
        n = int(rng.integers(1, 9))
        if trial % 3 == 0:
            x0, y0 = rng.uniform(-20, 60, 2)
            x1, y1 = x0 + rng.uniform(0, 90), y0 + rng.uniform(0, 90)
            quad = [[(x0, y0), (x1, y0), (x1, y1)], [(x0, y0), (x1, y1), (x0, y1)]] if trial % 2 else \
                [[(x0, y0), (x1, y0), (x0, y1)], [(x1, y0), (x1, y1), (x0, y1)]]
            xy = np.array(quad)
        else:
            xy = rng.uniform(-10, 90, (n, 1, 2)) + rng.uniform(-40, 40, (n, 3, 2))
        if trial % 4 == 1:
            xy = np.round(xy)
        win = np.concatenate([xy, np.full(xy.shape[:2] + (1,), 0.5), np.ones(xy.shape[:2] + (1,))], 2)
        setup = setup_triangles(win, cull="none")
        rect = (0, 0, 80, 70) if trial % 2 else (int(rng.integers(-4, 12)), int(rng.integers(-4, 12)), 75, 66)
        rows = np.arange(1, len(setup), dtype=np.int64) if trial % 5 == 4 and len(setup) > 1 else None
        with numpy_only:
            want = covered_rows(setup, rect, rows=rows)
        got = covered_rows(setup, rect, rows=rows)
        verdicts.add(want is None)
        if want is None:
            assert got is None
            continue
        for a, b in zip(want[:2], got[:2]):
            assert a.dtype == b.dtype == np.int64
            np.testing.assert_array_equal(a, b)
        assert want[2] == got[2]
    assert verdicts == {True, False}
