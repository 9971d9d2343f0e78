"""The GPU model never raises: malformed commands, descriptors and programs end
as the fault a GPU reports (unit, address), and non-finite positions are
discarded by the clipper without failing the draw's other primitives."""

from __future__ import annotations

import errno

import numpy as np
import pytest

import uapi
from drmshim.gpu.pipeline import Executor
from drmshim.gpu.pipeline import ppp as ppp_module
from drmshim.gpu.raster import clip_lines, clip_triangles, cull_points
from drmshim.memory import GPUFault
from uapi import packets as P

from tests.drmshim.kernel.helpers import compute, open_private  # noqa: F401 (fixture)

from .gpu import BASE, Scene, Space, command, constant_fs

GOOD = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1]], float)


# ------------------------------------------------------------ non-finite positions
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("component", [0, 1, 2, 3])
def test_a_non_finite_vertex_discards_its_triangle_only(bad, component):
    def render(vertices):
        sc = Scene(Space(), 32, 32, clear=(0, 0, 1, 1))
        sc.draw(vertices, constant_fs((1, 0, 0, 1)))
        with np.errstate(all="raise"):      # no warning escapes either
            return sc.render()

    broken = GOOD[[0, 2, 1]] + [0.5, 0.5, 0, 0]
    broken[1, component] = bad
    expected = render(GOOD)
    assert (expected[..., 0] == 255).sum() == 496          # the good triangle: half of 32x32, minus the diagonal
    got = render(np.concatenate([broken, GOOD]))
    if component == 3 and bad > 0:
        # w = +inf is a finite vertex (x/w = 0: the viewport's centre): a real triangle,
        # drawn as the hardware draws it; the good triangle is still all there
        assert ((got[..., 0] == 255) >= (expected[..., 0] == 255)).all()
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("primitive", ["LINES", "POINTS"])
def test_non_finite_lines_and_points_are_discarded(primitive):
    def render(vertices):
        sc = Scene(Space(), 32, 32, clear=(0, 0, 1, 1))
        sc.draw(vertices, constant_fs((1, 0, 0, 1)), primitive=primitive)
        return sc.render()

    good = np.array([[-0.5, -0.5, 0, 1], [0.5, 0.25, 0, 1]], float)
    bad = good.copy()
    bad[:, 0] = [np.nan, np.inf]
    expected = render(good)
    assert (expected[..., 0] == 255).any()
    np.testing.assert_array_equal(render(np.concatenate([bad, good])), expected)


def test_a_point_at_w_0_is_discarded_and_the_points_after_it_drawn():
    """(0, 0, 0, 0) passes the clip test (-w <= x, y, z <= w) but has no window
    position (0/0): the rasteriser drops it, the points after it keep their places
    (the fault once was an IndexError mapping them back to draw primitives)."""
    def render(vertices):
        sc = Scene(Space(), 32, 32, clear=(0, 0, 1, 1))
        sc.draw(vertices, constant_fs((1, 0, 0, 1)), primitive="POINTS")
        with np.errstate(all="raise"):      # no warning escapes either
            return sc.render()

    good = np.array([[-0.5, -0.5, 0, 1], [0.5, 0.25, 0, 1]], float)
    expected = render(good)
    assert (expected[..., 0] == 255).sum() == 2            # two 1-pixel points
    np.testing.assert_array_equal(render(np.concatenate([np.zeros((1, 4)), good])), expected)


def test_clipper_drops_exactly_the_non_finite_primitives():
    pos = np.array([[0, 0, 0, 1], [0.5, 0, 0, 1], [0, 0.5, 0, 1], [np.nan, 0, 0, 1], [0, 0, 0, np.nan]], float)
    clipped = clip_triangles(pos, np.array([[0, 1, 2], [0, 1, 3], [0, 4, 2], [2, 1, 0]]))
    assert clipped.prim.tolist() == [0, 3]
    lines = clip_lines(pos, np.array([[0, 1], [1, 3], [4, 2], [2, 0]]))
    assert lines.prim.tolist() == [0, 3]
    assert cull_points(pos).tolist() == [True, True, True, False, False]
    with_clip_nan = clip_triangles(pos[:3], np.array([[0, 1, 2]]), clip_distance=np.array([[1.0], [np.nan], [1.0]]))
    assert len(with_clip_nan) == 0


def test_a_viewport_beyond_the_fixed_point_range_discards_instead_of_raising():
    sc = Scene(Space(), 32, 32, clear=(0, 0, 1, 1))
    sc.viewport = lambda: dict(translate_x=1e30, scale_x=1e30, translate_y=16, scale_y=16, translate_z=0.5,
                               scale_z=0.5)
    sc.draw(GOOD, constant_fs((1, 0, 0, 1)))
    img = sc.render()
    assert (img[..., 2] == 255).all()          # nothing drawn, the clear colour everywhere
    assert ppp_module.R.MAX_WINDOW_COORD_PX == 1 << 17


# ------------------------------------------------------------ malformed state
def _fault(fn) -> GPUFault:
    with pytest.raises(GPUFault) as info:
        fn()
    return info.value


def test_unknown_usc_word_is_a_fault_of_the_reading_unit_at_the_word():
    space = Space()
    bad_words = space.put(np.array([0xEE, 0, 0, 0], np.uint32).tobytes(), 16)
    launch = P.pack("CDM_LAUNCH", pipeline=bad_words, grid_x_tg=1, threadgroup_x_threads=1)
    stream = space.put(launch + P.pack("CDM_TERMINATE"), 16)
    fault = _fault(lambda: Executor().run_compute(command(space, "compute", cdm_ctrl_stream_base=stream)))
    assert (fault.info.unit, fault.info.address) == ("CDM", bad_words) and "unknown tag" in fault.info.reason


def test_undecodable_program_is_a_usc_fault_at_the_program():
    space = Space()
    code = space.put(b"\xff" * 64, 64)
    pipe = space.usc(code_va=code)
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=1, threadgroup_x_threads=1)
    stream = space.put(launch + P.pack("CDM_TERMINATE"), 16)
    fault = _fault(lambda: Executor().run_compute(command(space, "compute", cdm_ctrl_stream_base=stream)))
    assert (fault.info.unit, fault.info.address) == ("USC", code) and fault.info.reason


def test_unknown_block_ends_the_stream_with_a_fault():
    space = Space()
    stream = space.put(np.array([0xFFFFFFFF] * 4, np.uint32).tobytes(), 16)
    fault = _fault(lambda: Executor().run_compute(command(space, "compute", cdm_ctrl_stream_base=stream)))
    assert (fault.info.unit, fault.info.address) == ("CDM", stream) and "unknown block" in fault.info.reason


def test_unknown_depth_tiling_is_a_zls_fault():
    sc = Scene(Space(), 16, 16)
    sc.draw(GOOD, constant_fs((1, 0, 0, 1)))
    tiling = next(f for f in P.ZLS_CONTROL.fields if f.name == "depth_tiling")
    unknown = max(int(v) for v in P.Tiling) + 1
    assert unknown < (1 << tiling.size)                    # the field can hold a value no tiling has
    word = int(np.frombuffer(P.pack("ZLS_CONTROL", depth_store=True), np.uint32)[0]) | unknown << tiling.start
    fault = _fault(lambda: sc.render(zls_ctrl=word, depth={"base": 0x1234_0000}))
    assert (fault.info.unit, fault.info.address) == ("ZLS", 0x1234_0000) and "tiling" in fault.info.reason


def test_internal_error_of_a_unit_is_that_unit_s_fault(monkeypatch):
    sc = Scene(Space(), 16, 16)
    sc.draw(GOOD, constant_fs((1, 0, 0, 1)))

    def broken(*args, **kwargs):
        raise KeyError("something the model did not expect")

    monkeypatch.setattr("drmshim.gpu.pipeline.render.process_draws", broken)
    fault = _fault(lambda: sc.render())
    assert fault.info.unit == "VDM" and "KeyError" in fault.info.reason


def test_malformed_work_through_the_kernel_is_a_fault_not_an_unknown_error(open_private, capsys):
    kernel, d = open_private()
    vm = d.vm()
    handle = d.gem(0x8000)
    d.bind(vm, handle, BASE, 0x8000)
    view = d.map(handle, 0x8000)
    bad_words = BASE + 0x100
    view[0x100:0x110] = np.array([0xEE, 0, 0, 0], np.uint32).tobytes()
    launch = P.pack("CDM_LAUNCH", pipeline=bad_words, grid_x_tg=1, threadgroup_x_threads=1)
    stream = launch + P.pack("CDM_TERMINATE")
    view[:len(stream)] = stream
    size = uapi.ffi.sizeof("struct drm_asahi_cmd_feedback")
    out = d.syncobj()
    d.submit(d.queue(vm), compute(cdm_ctrl_stream_base=BASE, feedback_handle=handle, feedback_offset=0x4000,
                                  feedback_size=size), out_syncs=[out])
    d.wait([out], timeout_s=30)
    assert d.kernel_file().syncobjs.items[out].fence_for(0).error == errno.EIO
    raw = bytearray(view[0x4000:0x4000 + size])
    fb = uapi.ffi.cast("struct drm_asahi_cmd_feedback *", uapi.ffi.from_buffer(raw))
    assert fb.status == uapi.DRM_ASAHI_STATUS_FAULT and fb.fault_address == bad_words
    assert fb.fault_unit == uapi.DRM_ASAHI_UNIT_CDM and fb.flags & uapi.DRM_ASAHI_FEEDBACK_FAULT_VALID
    assert "Traceback" not in capsys.readouterr().err


def test_local_memory_without_an_allocation_is_a_usc_fault():
    """A kernel using threadgroup memory in a pipeline that allocates none (no USC_SHARED)."""
    space = Space()
    code = space.program("get_sr r1, thread_position_in_grid.x\nmov_imm r2, 0\nlocal_store.i32 r1, r2, 0\n"
                         "local_load.i32 r4, r2, 0\nwait 0\nstop")
    pipe = space.usc(code_va=code)
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=2, threadgroup_x_threads=4)
    stream = space.put(launch + P.pack("CDM_TERMINATE"), 16)
    fault = _fault(lambda: Executor().run_compute(command(space, "compute", cdm_ctrl_stream_base=stream)))
    assert fault.info.unit.startswith("USC")
