"""The rasteriser's C kernels (``drmshim.gpu.raster.native``) against their numpy
specification: ``rasterize`` and ``covered_pixels`` give the same arrays (values,
dtypes, layering) with the kernels on and off, for random triangles of every size,
snapped to pixel edges or not, 1, 2 and 4 samples, rows subsets, rectangles cut by
the viewport and both block sizes. The other rasteriser tests check the default
path (the kernels when a C compiler is there) against independent references."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from drmshim.gpu.raster import covered_pixels, rasterize, setup_triangles

native = importlib.import_module("drmshim.gpu.raster.native")

pytestmark = pytest.mark.skipif(not native.KERNELS.usable(), reason="no C compiler: numpy runs alone")


@pytest.fixture
def numpy_only():
    """Run a block with the kernels off, then on again."""
    class Switch:
        def __enter__(self):
            native.KERNELS.enabled = False

        def __exit__(self, *exc):
            native.KERNELS.enabled = True
    yield Switch()
    native.KERNELS.enabled = True


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
