"""Small draws of one state set up together (``ppp.process_draws``) give what
setting them up one by one gives: the same setup rows, planes, row draws and
per-draw geometry in the TVB, the same counters and the same image, for a mix of
topologies (lists, strips, fans, indexed with restarts, instanced), flat shading
with either provoking vertex, culling, draws that need clipping (the group falls
back to draw by draw), a state change and a points draw in between, and with a
segment limit that cuts groups (their later draws, already shaded, start the
next segment)."""

from __future__ import annotations

import numpy as np
import pytest

import drmshim.gpu.pipeline.render as render
from drmshim.gpu import raster as R
from drmshim.gpu.pipeline import Executor

from .gpu import Scene, Space
from .test_equivalence import BINDINGS, BLEND_FS, OPAQUE_FS, random_triangles

W = H = 48
PROCESS_DRAWS, NEXT_SEGMENT = render.process_draws, render.next_segment
FLAT = [dict(base_slot=0, base_cf=0, components=1, shade_model="LINEAR"),
        dict(base_slot=1, base_cf=1, components=4, shade_model="FLAT")]


def _scene(fs, provoking="FIRST", clipped=False):
    sc = Scene(Space(), W, H, clear=(0.2, 0.3, 0.4, 1.0))
    zs = dict(depth_func="LESS", depth_write=True)
    raster = dict(provoking_vertex=provoking)
    for i in range(6):                                   # triangle lists
        sc.draw(random_triangles(3, seed=10 + i), fs, varyings=4, cf_bindings=BINDINGS, zs=zs, raster=raster)
    for i in range(5):                                   # strips, flat colour
        v = random_triangles(2, seed=30 + i)[:5]
        sc.draw(v, fs, primitive="TRIANGLE_STRIP", varyings=4, cf_bindings=FLAT, zs=zs, raster=raster)
    for i in range(4):                                   # fans, indexed with a restart, instanced
        v = random_triangles(2, seed=50 + i)
        sc.draw(v, fs, primitive="TRIANGLE_FAN", indices=[0, 1, 2, 3, 0xFFFF, 4, 5, 1], index_size="U16",
                restart=0xFFFF, instances=1 + i % 3, varyings=4, cf_bindings=FLAT, zs=zs, raster=raster)
    for i in range(3):                                   # back faces culled
        sc.draw(random_triangles(4, seed=70 + i), fs, varyings=4, cf_bindings=BINDINGS, zs=zs,
                raster=dict(raster, cull_back=True))
    sc.draw(random_triangles(2, seed=90)[:1], fs, primitive="POINTS", varyings=4, cf_bindings=BINDINGS,
            raster=dict(raster, point_size_px=3.0))
    for i in range(4):                                   # some cross the near plane: clipped
        v = random_triangles(3, seed=100 + i)
        if clipped and i % 2:
            v[0, 2] = -3.0 * v[0, 3]
        sc.draw(v, fs, varyings=4, cf_bindings=BINDINGS, zs=zs, raster=raster)
    return sc


def _run(monkeypatch, group_draws: int, kept_B=None, **scene):
    monkeypatch.setattr(render, "GROUP_DRAWS", group_draws)
    if kept_B is not None:
        monkeypatch.setattr(render, "VERTEX_KEPT_B", kept_B)
    groups = []
    real = PROCESS_DRAWS

    def spy(memory, items, *args):
        groups.append(len(items))
        return real(memory, items, *args)

    monkeypatch.setattr(render, "process_draws", spy)
    segments = []
    real_segment = NEXT_SEGMENT

    def keep(executor, command, tvb):
        real_segment(executor, command, tvb)
        segments.append((tvb.setup, tvb.planes.copy(), tvb.row_draw.copy(),
                         [(g.draw.index, g.primitives, g.rect) for g in tvb.draws]))

    monkeypatch.setattr(render, "next_segment", keep)
    sc = _scene(**scene)
    image = sc.render(Executor(sysmem=False))
    return image, segments, groups, sc.last.counters.snapshot()


def _same_segments(a, b):
    assert len(a) == len(b)
    for (sa, pa, ra, da), (sb, pb, rb, db) in zip(a, b):
        assert da == db
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(pa, pb)
        assert (sa is None) == (sb is None)
        if sa is not None:
            for f in R.TriangleSetup.__dataclass_fields__:
                x, y = getattr(sa, f), getattr(sb, f)
                assert (x is None) == (y is None), f
                if x is not None:
                    assert x.dtype == y.dtype, f
                    np.testing.assert_array_equal(x, y, err_msg=f)


@pytest.mark.parametrize("fs", [OPAQUE_FS, BLEND_FS], ids=["opaque", "blend"])
@pytest.mark.parametrize("provoking", ["FIRST", "LAST"])
@pytest.mark.parametrize("clipped", [False, True], ids=["inside", "clipped"])
def test_grouped_setup_is_draw_by_draw_setup(monkeypatch, fs, provoking, clipped):
    alone, seg_alone, groups_alone, counters_alone = _run(monkeypatch, 1, fs=fs, provoking=provoking,
                                                          clipped=clipped)
    assert max(groups_alone) == 1
    grouped, seg_grouped, groups, counters = _run(monkeypatch, 64, fs=fs, provoking=provoking, clipped=clipped)
    assert max(groups) >= 5                       # the lists and the strips went together
    assert len(groups) < len(groups_alone)
    assert len(np.unique(alone.reshape(-1, 4), axis=0)) > 20          # a real picture
    np.testing.assert_array_equal(grouped, alone)
    _same_segments(seg_grouped, seg_alone)
    assert counters == counters_alone


def test_a_segment_limit_cuts_groups(monkeypatch):
    """One draw per segment: each group ends after its first draw, and the
    draws it shaded ahead begin the next segments, in order."""
    alone, seg_alone, _, counters_alone = _run(monkeypatch, 1, kept_B=0, fs=BLEND_FS)
    grouped, seg_grouped, groups, counters = _run(monkeypatch, 64, kept_B=0, fs=BLEND_FS)
    assert max(groups) >= 5
    np.testing.assert_array_equal(grouped, alone)
    _same_segments(seg_grouped, seg_alone)
    assert counters == counters_alone
