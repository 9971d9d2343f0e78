"""Depth-tested passes resolved without fragment arrays (``fragment._visible_pass``,
``raster.visible_pixels``) against their specification: ``rasterize``, the ISP's
depth test with owners and ``hidden_surface_removal``, run with
``fragment.VISIBLE_PASSES`` off. Images, the stored depth buffer, counters,
statistics and occlusion counts must be identical; passes of other kinds are left
to the rasteriser."""

import numpy as np
import pytest

import layout
from drmshim.gpu import raster as R
from drmshim.gpu.pipeline import Executor, fragment, render
from uapi import packets as P

from .gpu import Scene, Space
from .test_equivalence import BINDINGS, OPAQUE_FS, random_triangles

RED = "\n".join(["mov_imm r4, 0x3f800000", "mov_imm r5, 0", "mov_imm r6, 0", "mov_imm r7, 0x3f800000",
                 "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])


@pytest.fixture
def calls(monkeypatch):
    """The (fragments, passed) of every visible_pixels call the pipeline made."""
    seen = []
    original = R.visible_pixels

    def spy(*args, **kw):
        got = original(*args, **kw)
        seen.append(got[3:])
        return got
    monkeypatch.setattr(R, "visible_pixels", spy)
    return seen


def _zls(fmt="Z32_FLOAT"):
    return int.from_bytes(P.pack("ZLS_CONTROL", depth_store=True, depth_format=fmt, depth_tiling="TWIDDLED"),
                          "little")


def _run(monkeypatch, make, visible: bool, debug: str = "", ex=None):
    """Render ``make(space)``'s scene -> (image, (fragments, tiles), statistics,
    occlusion counts, the stored depth buffer's bytes)."""
    monkeypatch.setattr(fragment, "VISIBLE_PASSES", visible)
    monkeypatch.setenv("SHIMGL_DEBUG", debug)
    sp = Space()
    sc = make(sp)
    lay = layout.make_miptree(sc.W, sc.H, format="Z32_FLOAT", tiling="twiddled")
    zbuf = sp.alloc(lay.size_B, 16384)
    stats = sp.put(np.zeros(6, np.uint64))
    queries = sp.put(np.array([7, 0], np.uint64))
    sc.blocks.insert(0, P.pack("VDM_STATE", statistics=dict(counters=stats)))
    img = sc.render(Executor(**(ex or {})), isp_oclqry_base=queries, zls_ctrl=_zls(), depth={"base": zbuf})
    c = sc.last.counters.snapshot()
    return img, (c["fragments"], c["tiles"]), sp.get(stats, 6, np.uint64), sp.get(queries, 2, np.uint64), \
        sp.get(zbuf, lay.size_B)


def _same(a, b):
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]
    for x, y in zip(a[2:], b[2:]):
        np.testing.assert_array_equal(x, y)


def _opaque(W, H, n, seed, fs=OPAQUE_FS, size=0.5, clear_depth=1.0, scissor=None, viewport=None, **zs):
    def make(sp):
        sc = Scene(sp, W, H, clear=(0.2, 0.3, 0.4, 1.0), clear_depth=clear_depth)
        ppp = dict(occlusion=dict(mode="COUNTING", index=1), zs=zs or dict(depth_func="LESS", depth_write=True))
        if scissor is not None:
            ppp.update(raster=dict(scissor_enable=True), scissor=scissor)
        if viewport is not None:
            ppp["viewport"] = {**sc.viewport(), **viewport}
        if fs is None:      # no fragment program: depth only
            sc.draw(random_triangles(n, seed, size=size)[:, :4], 0, **ppp)
        else:
            sc.draw(random_triangles(n, seed, size=size), fs, varyings=4, cf_bindings=BINDINGS, **ppp)
        return sc
    return make


@pytest.mark.parametrize("W,H,n,size", [(100, 70, 60, 0.5), (64, 64, 400, 0.08), (33, 129, 30, 1.2)])
def test_depth_tested_pass_without_fragments_is_the_specification(monkeypatch, calls, W, H, n, size):
    make = _opaque(W, H, n, seed=W + n, size=size)
    want = _run(monkeypatch, make, visible=False)
    assert not calls
    got = _run(monkeypatch, make, visible=True)
    assert calls and all(passed <= frags for frags, passed in calls)
    _same(got, want)
    # shaded (one per visible pixel) < passed (the occlusion count) <= rasterised
    assert 0 < want[2][5] == want[1][0] < want[3][1]
    assert len(np.unique(want[0].reshape(-1, 4), axis=0)) > 20        # a real picture
    np.testing.assert_array_equal(_run(monkeypatch, make, visible=False, debug="interp")[0], want[0])


@pytest.mark.parametrize("zs,clear_depth", [
    (dict(depth_func="GREATER", depth_write=True), 0.0),
    (dict(depth_func="LEQUAL", depth_write=False), 0.6),
    (dict(depth_func="EQUAL", depth_write=True), 1.0),
    (dict(depth_func="ALWAYS", depth_write=True), 1.0),
    (dict(depth_func="NEVER", depth_write=True), 1.0),
])
def test_every_depth_function(monkeypatch, calls, zs, clear_depth):
    make = _opaque(72, 56, 80, seed=3, clear_depth=clear_depth, **zs)
    want = _run(monkeypatch, make, visible=False)
    got = _run(monkeypatch, make, visible=True)
    assert calls
    _same(got, want)


def test_scissor_depth_range_and_programs_of_every_kind(monkeypatch, calls):
    """A scissor rectangle, a viewport depth range that clamps, a constant-colour
    program (its record broadcast) and no program at all (depth only)."""
    scissor = dict(min_x_px=5, max_x_px=61, min_y_px=3, max_y_px=50)
    for make in (_opaque(80, 64, 70, seed=8, scissor=scissor),
                 _opaque(80, 64, 70, seed=9, viewport=dict(min_depth=0.3, max_depth=0.6)),
                 _opaque(80, 64, 70, seed=10, fs=RED),
                 _opaque(80, 64, 70, seed=11, fs=None)):
        calls.clear()
        want = _run(monkeypatch, make, visible=False)
        got = _run(monkeypatch, make, visible=True)
        assert calls
        _same(got, want)


def test_partial_renders_and_bands_of_tiles_give_the_same_pass(monkeypatch, calls):
    """Passes cut by the tiler's capacity (partial renders: later passes load the
    depth the earlier ones left) and bands of tile rows with shading steps of few
    primitives."""
    monkeypatch.setattr(render, "GROUP_PIXELS", 64 * 64)
    monkeypatch.setattr(render, "STEP_FRAGMENTS", 3000)
    make = _opaque(96, 160, 60, seed=5)
    ex = dict(sysmem=False, tvb_entries=40)
    want = _run(monkeypatch, make, visible=False, ex=ex)
    got = _run(monkeypatch, make, visible=True, ex=ex)
    assert len(calls) > 4
    _same(got, want)


def test_other_passes_are_left_to_the_rasteriser(monkeypatch, calls):
    """Two draws in one pass, a stencil test, multisampling and HSR off are not taken."""
    def two(sp):
        sc = _opaque(64, 48, 20, seed=1)(sp)
        sc.draw(random_triangles(20, 2), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS,
                zs=dict(depth_func="LESS", depth_write=True))
        return sc

    def stencil(sp):
        sc = Scene(sp, 64, 48)
        sc.draw(random_triangles(20, 3), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS,
                zs=dict(depth_func="LESS", depth_write=True, stencil_test=True),
                stencil_front=dict(compare="ALWAYS", depth_pass="REPLACE", reference=3))
        return sc

    def msaa(sp):
        sc = Scene(sp, 64, 48, samples=4)
        sc.draw(random_triangles(20, 4), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS,
                zs=dict(depth_func="LESS", depth_write=True))
        return sc
    for make, ex in ((two, None), (stencil, None), (msaa, None), (_opaque(64, 48, 20, seed=6), dict(hsr=False))):
        want = _run(monkeypatch, make, visible=False, ex=ex)
        got = _run(monkeypatch, make, visible=True, ex=ex)
        assert not calls
        _same(got, want)


def test_uncovered_region_and_hidden_background(monkeypatch, calls):
    """A full-screen quad in front hides the background program (every record
    written); one that fails the depth test everywhere shades nothing."""
    W, H = 70, 50
    quad = np.array([[-1, -1, 0, 1, 0.5, 0.25, 1, 1], [1, -1, 0, 1, 0, 1, 0, 1],
                     [-1, 1, 0, 1, 1, 0, 0, 1], [1, 1, 0, 1, 0, 0, 1, 1]], np.float32)
    for clear_depth in (1.0, 0.0):
        def make(sp):
            sc = Scene(sp, W, H, clear=(0.1, 0.2, 0.3, 1.0), clear_depth=clear_depth)
            sc.draw(quad, OPAQUE_FS, primitive="TRIANGLE_STRIP", varyings=4, cf_bindings=BINDINGS,
                    zs=dict(depth_func="LESS", depth_write=True), occlusion=dict(mode="COUNTING", index=1))
            return sc
        calls.clear()
        want = _run(monkeypatch, make, visible=False)
        got = _run(monkeypatch, make, visible=True)
        assert calls == [(W * H, W * H if clear_depth else 0)]
        _same(got, want)
    assert (want[0][..., :3] == (26, 51, 76)).all()        # (the clear colour: nothing passed)
