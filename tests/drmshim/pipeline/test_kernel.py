"""Through the uapi seam: a render and a compute command submitted to the kernel
(default GPU model), faults reported in the feedback while later commands run."""

import numpy as np
import pytest

import uapi
from drmshim.gpu.pipeline import Executor
from uapi import packets as P

from ..kernel.helpers import Dev, header, private_device
from .gpu import BASE, Scene, Space, constant_fs, u64_uniforms
from .test_compute import ADD_ONE

ffi = uapi.ffi
SIZE = 16 << 20


class MappedMemory:
    """The test's view of one GEM object bound at BASE (through its mmap)."""

    def __init__(self, view: memoryview):
        self.bytes = np.frombuffer(view, np.uint8)

    def read(self, va, n, unit):
        return self.bytes[va - BASE:va - BASE + n].copy()

    def write(self, va, data, unit):
        raw = np.frombuffer(bytes(data), np.uint8) if isinstance(data, (bytes, bytearray)) else \
            np.ascontiguousarray(data).view(np.uint8).ravel()
        self.bytes[va - BASE:va - BASE + raw.size] = raw


@pytest.fixture
def gpu():
    kernel, path = private_device(gpu=lambda kernel: Executor(kernel))
    d = Dev(path)
    vm = d.vm()
    bo = d.gem(SIZE)
    d.bind(vm, bo, BASE, SIZE)
    fb = d.gem(0x4000)
    space = Space.__new__(Space)
    space.mem = MappedMemory(d.map(bo, SIZE))
    space.top = BASE + 0x1000
    queue = d.ioctl("ASAHI_QUEUE_CREATE", vm_id=vm, priority=1, usc_exec_base=BASE).queue_id
    yield d, space, queue, fb, d.map(fb, 0x4000)
    d.close()
    uapi.unregister_backend(path)


def _record(command, feedback_handle, offset, kind):
    struct = "struct drm_asahi_cmd_compute" if kind == "compute" else "struct drm_asahi_cmd_render"
    rec = ffi.new(struct + " *", command.cmd)
    rec.feedback_handle, rec.feedback_offset, rec.feedback_size = feedback_handle, offset, 128
    cmd_type = uapi.DRM_ASAHI_CMD_COMPUTE if kind == "compute" else uapi.DRM_ASAHI_CMD_RENDER
    return header(cmd_type, bytes(ffi.buffer(rec)), uapi.DRM_ASAHI_BARRIER_NONE, uapi.DRM_ASAHI_BARRIER_NONE)


def _feedback(view, offset):
    fb = ffi.new("struct drm_asahi_cmd_feedback *")
    ffi.memmove(fb, bytes(view[offset:offset + ffi.sizeof(fb[0])]), ffi.sizeof(fb[0]))
    return fb


def test_triangle_and_compute_through_the_kernel_and_a_fault_that_does_not_stop_the_next(gpu):
    d, space, queue, fb_bo, fb_view = gpu
    W = H = 32
    sc = Scene(space, W, H, clear=(0, 0, 1, 1))
    sc.draw([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1]], constant_fs((1, 0, 0, 1)))
    render = sc.command()
    bad = Scene(space, W, H)
    bad.draw([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1]], constant_fs((1, 0, 0, 1)))
    faulty = bad.command(vdm_ctrl_stream_base=0xBAD_0000)
    buf = space.put(np.arange(16, dtype=np.uint32))
    pipe = space.usc(ADD_ONE, uniforms=u64_uniforms(buf))
    stream = space.put(P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=4, threadgroup_x_threads=4)
                       + P.pack("CDM_TERMINATE"), 16)
    from .gpu import command
    compute = command(space, "compute", cdm_ctrl_stream_base=stream)
    cmdbuf = _record(faulty, fb_bo, 0, "render") + _record(render, fb_bo, 256, "render") \
        + _record(compute, fb_bo, 512, "compute")
    out = d.syncobj()
    d.submit(queue, cmdbuf, out_syncs=[out])
    d.wait([out])
    img = sc.target.pixels()
    y, x = np.mgrid[0:H, 0:W]
    lower_left = x + y < W - 1        # strictly inside; the diagonal pixels' centres are on no edge
    assert (img[lower_left][:, 0] == 255).all() and (img[x + y > W - 1][:, 2] == 255).all()
    np.testing.assert_array_equal(space.get(buf, 16, np.uint32), np.arange(16) + 1)
    f0, f1, f2 = _feedback(fb_view, 0), _feedback(fb_view, 256), _feedback(fb_view, 512)
    assert f0.status == uapi.DRM_ASAHI_STATUS_FAULT and f0.fault_address == 0xBAD_0000
    assert f0.fault_unit == uapi.DRM_ASAHI_UNIT_VDM and f0.flags & uapi.DRM_ASAHI_FEEDBACK_FAULT_IS_READ
    assert f1.status == f2.status == uapi.DRM_ASAHI_STATUS_COMPLETE


def test_partial_renders_reach_the_feedback_and_the_queue_counters(monkeypatch):
    from .test_equivalence import BINDINGS, OPAQUE_FS, random_triangles
    monkeypatch.setenv("SHIMGL_TVB_ENTRIES", "16")     # read when the kernel makes its executor
    _, path = private_device()
    d2 = Dev(path)
    try:
        vm = d2.vm()
        bo = d2.gem(SIZE)
        d2.bind(vm, bo, BASE, SIZE)
        fbo = d2.gem(0x4000)
        view = d2.map(fbo, 0x4000)
        sp = Space.__new__(Space)
        sp.mem = MappedMemory(d2.map(bo, SIZE))
        sp.top = BASE + 0x1000
        q = d2.ioctl("ASAHI_QUEUE_CREATE", vm_id=vm, priority=1, usc_exec_base=BASE).queue_id
        sc = Scene(sp, 32, 32)
        sc.draw(random_triangles(40), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS)
        out = d2.syncobj()
        d2.submit(q, _record(sc.command(), fbo, 0, "render"), out_syncs=[out])
        d2.wait([out])
        f = _feedback(view, 0)
        assert f.status == uapi.DRM_ASAHI_STATUS_COMPLETE and f.partial_renders >= 2
        assert f.tvb_overflows == f.partial_renders and f.tvb_size_B == 16 * 8
        counters = ffi.new("struct drm_asahi_queue_counters *")
        d2.ioctl("ASAHI_QUEUE_COUNTERS", queue_id=q, pointer=int(ffi.cast("uintptr_t", counters)),
                 size=ffi.sizeof(counters[0]))
        assert counters.partial_renders == f.partial_renders and counters.primitives == 40
        assert counters.vertices == 120 and counters.fragments > 0 and counters.tiles > 0
    finally:
        d2.close()
        uapi.unregister_backend(path)
