"""The vertex half keeps a bounded amount of setup rows and coefficient planes.

Once the draws processed keep more than VERTEX_KEPT_B bytes, the vertex work
stops after that draw; the fragment half renders what was kept (ending in a
partial render), then resumes the vertex work at the next draw. The images below
are drawn with a limit that makes every draw a segment of its own and compared
with the image drawn in one segment."""

import numpy as np
import pytest

import drmshim.gpu.pipeline.render as render
from drmshim.gpu.pipeline import Executor

from .gpu import Scene, Space
from .test_equivalence import BINDINGS, BLEND_FS, OPAQUE_FS, random_triangles

W = H = 64
DRAWS = 12


def _scene(fs, samples=1):
    sp = Space()
    sc = Scene(sp, W, H, clear=(0.2, 0.3, 0.4, 1.0), samples=samples)
    for i in range(DRAWS):          # depth-tested, each draw its own triangles
        sc.draw(random_triangles(10, seed=100 + i), fs, varyings=4, cf_bindings=BINDINGS,
                zs=dict(depth_func="LESS", depth_write=True))
    return sc


@pytest.mark.parametrize("fs", [OPAQUE_FS, BLEND_FS], ids=["opaque", "blend"])
@pytest.mark.parametrize("sysmem", [False, True], ids=["tiles", "sysmem"])
def test_a_segment_per_draw_gives_the_one_segment_image(monkeypatch, fs, sysmem):
    whole_scene = _scene(fs)
    whole = whole_scene.render(Executor(sysmem=sysmem))
    assert whole_scene.last.feedback.partial_renders == 0
    assert len(np.unique(whole.reshape(-1, 4), axis=0)) > 50      # a real picture
    monkeypatch.setattr(render, "VERTEX_KEPT_B", 0)                # one draw per segment
    sc = _scene(fs)
    parts = sc.render(Executor(sysmem=sysmem))
    fb = sc.last.feedback
    assert fb.partial_renders == DRAWS - 1 and fb.tvb_overflows == fb.partial_renders
    np.testing.assert_array_equal(parts, whole)


def test_segments_and_tvb_overflows_together(monkeypatch):
    """One draw per segment, each binned into passes of at most 6 (tile,
    primitive) entries: partial renders of both kinds, the same image, and no
    segment keeps more than its one draw's rows."""
    whole = _scene(BLEND_FS).render(Executor(sysmem=False))
    segments = []
    original = render.next_segment

    def spy(executor, command, tvb):
        original(executor, command, tvb)
        segments.append((len(tvb.draws), len(tvb.setup) if tvb.setup is not None else 0))

    monkeypatch.setattr(render, "next_segment", spy)
    monkeypatch.setattr(render, "VERTEX_KEPT_B", 0)
    sc = _scene(BLEND_FS)
    parts = sc.render(Executor(sysmem=False, tvb_entries=6))
    assert sc.last.feedback.partial_renders > DRAWS
    np.testing.assert_array_equal(parts, whole)
    assert [draws for draws, _ in segments] == [1] * DRAWS
    assert all(0 < rows <= 20 for _, rows in segments)      # 10 triangles, a few split by clipping


PRIMITIVE_ID_FS = "\n".join([
    "ldcf r4, cf1", "mov_imm r8, 0x3b808081", "fmul r4, r4, r8",    # the primitive id / 255
    "mov_imm r5, 0", "mov_imm r6, 0", "mov_imm r7, 0x3f800000",
    "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])


@pytest.mark.parametrize("part_lanes", [1 << 16, 6, 3], ids=["whole", "parts-of-2", "parts-of-1"])
def test_instance_parts_go_on_with_the_primitive_ids(monkeypatch, part_lanes):
    """40 instances of one triangle over each other: the last drawn is the 40th
    instance's, primitive id 39, however the draw is cut into parts of whole
    instances (each part its own segment)."""
    monkeypatch.setattr(render, "VERTEX_PART_LANES", part_lanes)
    monkeypatch.setattr(render, "VERTEX_KEPT_B", 0)
    sc = Scene(Space(), W, H, clear=(0, 0, 0, 0))
    tri = np.array([[-0.9, -0.9, 0, 1], [0.9, -0.9, 0, 1], [0, 0.9, 0, 1]], np.float32)
    sc.draw(tri, PRIMITIVE_ID_FS, instances=40,
            cf_bindings=[dict(base_slot=0, base_cf=1, components=1, source="PRIMITIVE_ID", shade_model="FLAT")])
    img = sc.render(Executor(sysmem=False))
    covered = img[..., 3] == 255
    assert covered.sum() > W * H // 4
    assert (img[covered][:, 0] == 39).all(), np.unique(img[covered][:, 0])
    assert sc.last.feedback.partial_renders == (0 if part_lanes > 3 * 40 else 40 // (part_lanes // 3) - 1)
