"""A small draw whose PPP inputs are a recent draw's takes that draw's setup rows and
planes (``ppp.process_draw``, ``SAME_GEOMETRY_DRAWS``): rendering a scene again in a
second command (the same vertex outputs and state) computes no draw's geometry
again, and gives the rows, planes, per-draw geometry, counters and image of the
first render and of rendering with the memory off; a draw whose outputs differ
(another position) or whose coefficient bindings differ computes its own; the
remembered arrays are read-only."""

from __future__ import annotations

import numpy as np

import drmshim.gpu.pipeline.ppp as ppp
import drmshim.gpu.pipeline.render as render
from drmshim.gpu.pipeline import Executor

from .gpu import Scene, Space
from .test_equivalence import BINDINGS, BLEND_FS, random_triangles
from .test_grouped_setup import _same_segments, _scene

REAL_SEGMENT = render.next_segment


def _render_twice(monkeypatch, scene: Scene):
    """(images, segments, counters, geometry computations) of two renders of ``scene``."""
    monkeypatch.setattr(render, "GROUP_DRAWS", 1)        # every draw through process_draw
    computed = []
    real = ppp._process_draw
    monkeypatch.setattr(ppp, "_process_draw", lambda *a: computed.append(1) or real(*a))
    segments = []

    def keep(executor, command, tvb):
        REAL_SEGMENT(executor, command, tvb)
        segments.append((tvb.setup, tvb.planes.copy(), tvb.row_draw.copy(),
                         [(g.draw.index, g.primitives, g.rect) for g in tvb.draws]))

    monkeypatch.setattr(render, "next_segment", keep)
    out = []
    for _ in range(2):
        computed.clear()
        segments.clear()
        image = scene.render(Executor(sysmem=False)).copy()
        out.append((image, list(segments), scene.last.counters.snapshot(), len(computed)))
    return out


def test_a_scene_drawn_again_takes_its_geometry(monkeypatch):
    ppp._GEOMETRY.clear()
    monkeypatch.setattr(ppp, "SAME_GEOMETRY_DRAWS", 0)
    (off1, seg_off, cnt_off, n_off), (off2, _, _, n_off2) = _render_twice(monkeypatch, _scene(BLEND_FS))
    assert n_off == n_off2 > 15
    monkeypatch.setattr(ppp, "SAME_GEOMETRY_DRAWS", 64)
    (im1, seg1, cnt1, n1), (im2, seg2, cnt2, n2) = _render_twice(monkeypatch, _scene(BLEND_FS))
    assert n1 == n_off and n2 == 0                     # the second render computed no geometry
    assert len(np.unique(im1.reshape(-1, 4), axis=0)) > 20
    for image in (im1, im2, off2):
        np.testing.assert_array_equal(image, off1)
    _same_segments(seg1, seg_off)
    _same_segments(seg2, seg_off)
    assert cnt1 == cnt2 == cnt_off
    setup, planes = next(iter(ppp._GEOMETRY.values()))[1][:2]
    assert not setup.edge_a.flags.writeable and not planes.flags.writeable


def test_other_outputs_or_bindings_compute_their_own(monkeypatch):
    ppp._GEOMETRY.clear()
    monkeypatch.setattr(render, "GROUP_DRAWS", 1)
    computed = []
    real = ppp._process_draw
    monkeypatch.setattr(ppp, "_process_draw", lambda *a: computed.append(1) or real(*a))
    tri = random_triangles(1, seed=3)
    moved = tri.copy()
    moved[0, 0] += 0.125
    flat = [dict(base_slot=0, base_cf=0, components=1, shade_model="LINEAR"),
            dict(base_slot=1, base_cf=1, components=4, shade_model="FLAT")]
    sc = Scene(Space(), 32, 32)
    for v, bindings in ((tri, BINDINGS), (tri, BINDINGS), (moved, BINDINGS), (tri, flat)):
        sc.draw(v, BLEND_FS, varyings=4, cf_bindings=bindings)
    image = sc.render(Executor(sysmem=False))
    assert len(computed) == 3                           # the second draw took the first's
    monkeypatch.setattr(ppp, "SAME_GEOMETRY_DRAWS", 0)
    np.testing.assert_array_equal(sc.render(Executor(sysmem=False)), image)


def test_one_draw_drawn_again_is_binned_as_before(monkeypatch):
    """A command of one remembered draw: its rows are read-only, and the tiler's
    passes of the last such rows are taken again (``render._bin``): the same passes
    and image as binning them afresh (memory off)."""
    ppp._GEOMETRY.clear()
    binned = []
    real = render._bin_rows
    monkeypatch.setattr(render, "_bin_rows", lambda *a: binned.append(1) or real(*a))
    passes = []

    def keep(executor, command, tvb):
        REAL_SEGMENT(executor, command, tvb)
        passes.append([(p.rows.copy(), p.tiles.copy(), p.entries) for p in tvb.passes])

    monkeypatch.setattr(render, "next_segment", keep)
    sc = Scene(Space(), 96, 80)
    sc.draw(random_triangles(4, seed=5), BLEND_FS, varyings=4, cf_bindings=BINDINGS)
    images = [sc.render(Executor(sysmem=False)).copy() for _ in range(3)]
    assert len(binned) == 1 and len(passes) == 3
    monkeypatch.setattr(ppp, "SAME_GEOMETRY_DRAWS", 0)
    images.append(sc.render(Executor(sysmem=False)).copy())
    assert len(binned) == 2
    for image in images[1:]:
        np.testing.assert_array_equal(image, images[0])
    for got in passes[1:]:
        assert len(got) == len(passes[0])
        for (r, t, e), (r0, t0, e0) in zip(got, passes[0]):
            np.testing.assert_array_equal(r, r0)
            np.testing.assert_array_equal(t, t0)
            assert e == e0
    assert len(passes[0][0][1]) > 3                      # several tiles
