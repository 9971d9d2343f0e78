"""``covered_rows``: a few triangles' coverage as one interval per pixel row (the
full-screen quad, a blit's rectangle, one big triangle), against an analytic
rectangle (pixel centres inside, top-left fill rule: the left and top edges
included, the right and bottom ones not; the shared diagonal covers each centre
once) and against ``covered_pixels``' blocks and spans (``ROW_INTERVALS`` off,
the specification) for quads with non-integer edges, both diagonals, rectangles
cut by the region, rotated quads and random few-triangle sets."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from drmshim.gpu.raster import covered_pixels, rasterize, setup_triangles

rasterize_module = importlib.import_module("drmshim.gpu.raster.rasterize")


def _window(tris_xy):
    t = np.asarray(tris_xy, np.float64).reshape(-1, 3, 2)
    out = np.empty(t.shape[:2] + (4,))
    out[..., :2] = t
    out[..., 2] = 0.5
    out[..., 3] = 1.0
    return out


def _quad(x0, y0, x1, y1, diagonal: int):
    """The two triangles of a strip over the rectangle, split along one diagonal
    (0: (x0, y0)-(x1, y1), 1: the other), wound as a strip winds them."""
    if diagonal == 0:
        return [[(x0, y0), (x1, y0), (x1, y1)], [(x0, y0), (x1, y1), (x0, y1)]]
    return [[(x0, y0), (x1, y0), (x0, y1)], [(x1, y0), (x1, y1), (x0, y1)]]


def _spec(setup, rect, rows=None):
    rasterize_module.ROW_INTERVALS = False
    try:
        return covered_pixels(setup, rect, rows=rows)
    finally:
        rasterize_module.ROW_INTERVALS = True


def _fx(rng, lo, hi):
    """A coordinate on the 1/256 grid (snapping leaves it as it is)."""
    return float(rng.integers(lo * 256, hi * 256)) / 256


@pytest.mark.parametrize("diagonal", [0, 1])
def test_a_quad_covers_the_pixel_centres_of_its_rectangle(diagonal):
    rng = np.random.default_rng(diagonal)
    W, H = 70, 50
    for trial in range(40):
        x0, y0 = _fx(rng, -10, 40), _fx(rng, -10, 30)
        x1, y1 = x0 + _fx(rng, 0, 50), y0 + _fx(rng, 0, 40)
        if trial % 5 == 0:          # edges on pixel centres and on pixel edges
            x0, y0, x1, y1 = np.floor([x0, y0, x1, y1]) + (0.5 if trial % 10 else 0.0)
        setup = setup_triangles(_window(_quad(x0, y0, x1, y1, diagonal)), cull="none")
        rect = (0, 0, W, H) if trial % 2 else (3, 5, 61, 44)
        got = rasterize_module.covered_rows(setup, rect)
        assert got is not None
        image, count = covered_pixels(setup, rect)
        cx = np.arange(rect[0], rect[2]) + 0.5
        cy = np.arange(rect[1], rect[3]) + 0.5
        expect = ((cy >= y0) & (cy < y1))[:, None] & ((cx >= x0) & (cx < x1))[None, :]
        np.testing.assert_array_equal(image, expect, err_msg=str((x0, y0, x1, y1, rect)))
        assert count == int(expect.sum())        # the diagonal's centres once, not twice
        frags = rasterize(setup, rect)
        assert count == len(frags)


@pytest.mark.parametrize("case", ["quads", "rotated", "few", "big", "rows"])
def test_the_intervals_are_the_blocks_and_spans(case):
    rng = np.random.default_rng(["quads", "rotated", "few", "big", "rows"].index(case))
    taken = 0
    for trial in range(30):
        if case == "quads":
            x0, y0 = rng.uniform(-20, 60, 2)
            x1, y1 = x0 + rng.uniform(0, 80), y0 + rng.uniform(0, 80)
            tris = _quad(x0, y0, x1, y1, trial % 2)
        elif case == "rotated":             # a quad's rows are intervals of varying ends
            c, r, t = rng.uniform(10, 60, 2), rng.uniform(5, 40), rng.uniform(0, np.pi)
            corners = [c + r * np.array([np.cos(t + k * np.pi / 2), np.sin(t + k * np.pi / 2)]) for k in range(4)]
            tris = [[corners[0], corners[1], corners[2]], [corners[0], corners[2], corners[3]]]
        elif case == "few":                 # gaps between spans: None, else the union
            n = int(rng.integers(1, 9))
            tris = rng.uniform(-10, 80, (n, 1, 2)) + rng.uniform(-30, 30, (n, 3, 2))
        elif case == "big":                 # a full-screen triangle past the region
            tris = [[(-70, -10), (150, -10), (40, 170)]] if trial % 2 else [[(-1, -1), (200, -1), (-1, 200)]]
            tris = np.asarray(tris, float) + rng.uniform(-1, 1)
        else:                               # a subset of rows, more rows than taken
            tris = np.concatenate([_quad(*sorted(rng.uniform(-5, 70, 2)), *sorted(rng.uniform(-5, 70, 2)), k % 2)
                                   for k in range(6)])
        setup = setup_triangles(_window(tris), cull="none")
        rect = (0, 0, 64, 72) if trial % 3 else (int(rng.integers(-3, 10)), int(rng.integers(-3, 10)), 57, 61)
        rows = np.array([1, 2, 7], np.int64) if case == "rows" else None
        got = rasterize_module.covered_rows(setup, rect, rows=rows)
        want_image, want_count = _spec(setup, rect, rows)
        image, count = covered_pixels(setup, rect, rows=rows)
        np.testing.assert_array_equal(image, want_image)
        assert count == want_count
        if got is not None:
            taken += 1
            lo, hi, n = got
            xs = np.arange(rect[2] - rect[0])
            np.testing.assert_array_equal((xs >= lo[:, None]) & (xs <= hi[:, None]), want_image)
            assert n == want_count
    if case in ("quads", "rotated", "big"):
        assert taken == 30
    else:
        assert 0 < taken < 30


def test_more_triangles_than_the_limit_take_the_blocks():
    tris = np.concatenate([_quad(k, 0, k + 1, 10, 0) for k in range(5)])       # 10 triangles
    setup = setup_triangles(_window(tris), cull="none")
    assert rasterize_module.covered_rows(setup, (0, 0, 16, 16)) is None
    image, count = covered_pixels(setup, (0, 0, 16, 16))
    assert count == 50 and image[:10, :5].all() and image.sum() == 50


def test_intervals_asked_again_are_remembered_by_the_rows_bytes():
    """A frame's quad asks again with the same corners: the C answer is taken again
    (read-only). A quad moved by 1/256 px, or the same rows of another setup, is
    computed afresh (the remembered answer would be stale)."""
    native = importlib.import_module("drmshim.gpu.raster.native")
    if not native.KERNELS.usable():
        pytest.skip("no C compiler")
    native._ROW_INTERVALS.clear()
    rect = (0, 0, 40, 30)
    a = setup_triangles(_window(_quad(2.5, 3.0, 30.0, 20.0, 0)), cull="none")
    first = rasterize_module.covered_rows(a, rect)
    again = rasterize_module.covered_rows(setup_triangles(_window(_quad(2.5, 3.0, 30.0, 20.0, 0)), cull="none"), rect)
    assert again[0] is first[0] and not first[0].flags.writeable
    for moved in ([2.5 + 1 / 256, 3.0, 30.0, 20.0], [2.5, 3.0, 30.0, 20.0 - 1 / 256], [2.5, 3.0, 35.0, 20.0]):
        setup = setup_triangles(_window(_quad(*moved, 0)), cull="none")
        lo, hi, n = rasterize_module.covered_rows(setup, rect)
        image, count = _spec(setup, rect)
        xs = np.arange(rect[2] - rect[0])
        np.testing.assert_array_equal((xs >= lo[:, None]) & (xs <= hi[:, None]), image)
        assert n == count
    assert rasterize_module.covered_rows(a, rect)[2] == first[2]
