"""UAPI compatibility: a command the size of upstream's ``drm_asahi_cmd_render``
(240 bytes) or ``drm_asahi_cmd_compute`` (64 bytes), without our appended
feedback fields, is accepted and executed exactly like a full-size one; the
extension is found from the command header's size and is off when absent."""

from __future__ import annotations

import errno

import numpy as np
import pytest

import uapi
from uapi import packets as P
from uapi.isa import assemble

from .helpers import compute, render

ffi = uapi.ffi
UPSTREAM_RENDER_B, UPSTREAM_COMPUTE_B = 240, 64
BASE = 0x1_0000_0000

# out[i] = 7 * i + 1 for the 32 threads of one threadgroup
KERNEL = """
get_sr r0, thread_position_in_grid.x
mov_imm r1, 7
imad r2, r0, r1, 1
device_store.i32 r2, u0_u1, r0, 2, 0
wait 0
stop
"""


def test_the_appended_fields_start_at_the_upstream_sizes():
    assert ffi.offsetof("struct drm_asahi_cmd_render", "feedback_handle") == UPSTREAM_RENDER_B
    assert ffi.offsetof("struct drm_asahi_cmd_compute", "feedback_handle") == UPSTREAM_COMPUTE_B
    assert len(render(size=UPSTREAM_RENDER_B)) == 8 + UPSTREAM_RENDER_B


def _compute_job(d, vm) -> tuple[memoryview, int]:
    """A real compute job in a bound object: the stream at BASE, its pipeline,
    kernel and uniforms after it, the output at BASE + 0x2000."""
    handle = d.gem(0x4000)
    d.bind(vm, handle, BASE, 0x4000)
    view = d.map(handle, 0x4000)
    out = BASE + 0x2000
    code = assemble(KERNEL)
    view[0x800:0x800 + len(code)] = code
    uniforms = np.zeros(4, np.uint32)
    uniforms[:2].view(np.uint64)[0] = out
    view[0xC00:0xC10] = uniforms.tobytes()
    words = (P.pack("USC_SHADER", register_count=8, code=BASE + 0x800)
             + P.pack("USC_UNIFORM", start_halves=0, size_halves=4, buffer=BASE + 0xC00) + P.pack("USC_END"))
    view[0x400:0x400 + len(words)] = words
    stream = (P.pack("CDM_LAUNCH", pipeline=BASE + 0x400, grid_x_tg=1, threadgroup_x_threads=32)
              + P.pack("CDM_TERMINATE"))
    view[:len(stream)] = stream
    return view, out


@pytest.mark.parametrize("size", [UPSTREAM_COMPUTE_B, None])
def test_an_upstream_sized_compute_command_runs(open_private, size):
    kernel, d = open_private()
    vm = d.vm()
    view, _ = _compute_job(d, vm)
    out = d.syncobj()
    d.submit(d.queue(vm), compute(cdm_ctrl_stream_base=BASE, size=size), out_syncs=[out])
    d.wait([out], timeout_s=30)
    assert d.kernel_file().syncobjs.items[out].fence_for(0).error == 0
    np.testing.assert_array_equal(np.frombuffer(view[0x2000:0x2080], np.uint32), 7 * np.arange(32) + 1)


def test_an_upstream_sized_render_command_runs(open_private):
    kernel, d = open_private()
    vm = d.vm()
    queue = d.queue(vm)
    outs = [d.syncobj(), d.syncobj()]
    d.submit(queue, render(size=UPSTREAM_RENDER_B), out_syncs=[outs[0]])
    d.submit(queue, render(size=UPSTREAM_RENDER_B, cmd_type=uapi.DRM_ASAHI_CMD_BLIT), out_syncs=[outs[1]])
    d.wait(outs, timeout_s=30, flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)
    assert [d.kernel_file().syncobjs.items[o].fence_for(0).error for o in outs] == [0, 0]


def test_feedback_fields_cut_off_by_the_size_are_absent(open_private):
    from .helpers import GateExecutor
    executor = GateExecutor()
    kernel, d = open_private(gpu=executor)
    vm = d.vm()
    queue = d.queue(vm)
    handle = d.gem()
    out = d.syncobj()
    # the payload ends before the feedback fields: whatever follows is not read
    d.submit(queue, compute(size=UPSTREAM_COMPUTE_B, feedback_handle=handle, feedback_size=64), out_syncs=[out])
    d.wait([out])
    (command,) = executor.commands
    assert command.cmd.feedback_handle == 0 and command.feedback_target is None
    # cut in the middle of the extension: a handle without a size is malformed
    cmd = compute(size=UPSTREAM_COMPUTE_B + 4, feedback_handle=handle, feedback_size=64)
    assert d.errno_of("ASAHI_SUBMIT", queue_id=queue, cmdbuf=d.array("char", cmd),
                      cmdbuf_size=len(cmd)) == errno.EINVAL
