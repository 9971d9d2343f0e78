"""SUBMIT and queues: validation (nothing runs, nothing changes), syncs, feedback, timestamps, counters."""

from __future__ import annotations

import errno
import struct

import numpy as np
import pytest

import uapi

from .helpers import NONE, GateExecutor, attachments, blit, compute, ptr, render

ffi = uapi.ffi


@pytest.fixture
def gpu(open_private):
    executor = GateExecutor()
    kernel, d = open_private(gpu=executor)
    vm = d.vm()
    return executor, kernel, d, vm, d.queue(vm)


def test_submit_runs_and_signals_the_out_sync(dev):
    vm = dev.vm()
    queue = dev.queue(vm)
    out = dev.syncobj()
    dev.submit(queue, render(0, 0) + compute(), out_syncs=[out])
    dev.wait([out], timeout_s=5)


def test_timeline_out_sync_adds_a_point(dev):
    queue = dev.queue(dev.vm())
    t = dev.syncobj()
    dev.submit(queue, compute(), out_syncs=[(t, 5)])
    dev.wait([t], points=[5], timeout_s=5)
    points = ffi.new("__u64[1]")
    dev.ioctl("SYNCOBJ_QUERY", handles=dev.array("__u32", [t]), points=ptr(points), count_handles=1)
    assert points[0] == 5


def test_64_commands_are_allowed_65_are_not(gpu):
    executor, _, d, _, queue = gpu
    out = d.syncobj()
    d.submit(queue, compute() * 64, out_syncs=[out])
    d.wait([out])
    assert len([e for e in executor.log if e[0] == "compute"]) == 64
    with pytest.raises(OSError) as info:
        d.submit(queue, compute() * 65)
    assert info.value.errno == errno.EINVAL


def _bad_submissions():
    r, c = render, compute
    return [
        ("flags", r(), {"flags": 1}, errno.EINVAL),
        ("pad", r(), {"pad": 1}, errno.EINVAL),
        ("unknown queue", r(), {"queue_id": 999}, errno.ENOENT),
        ("no commands", b"", {}, errno.EINVAL),
        ("only attachments", attachments(uapi.DRM_ASAHI_SET_COMPUTE_ATTACHMENTS, []), {}, errno.EINVAL),
        ("future render barrier", r() + r(vdm=2), {}, errno.EINVAL),
        ("own render boundary", r(vdm=1), {}, errno.EINVAL),
        ("future compute barrier", c() + r(cdm=2), {}, errno.EINVAL),
        ("compute barrier on itself", c(cdm=1), {}, errno.EINVAL),
        ("truncated header", r() + b"\0\0\0", {}, errno.EINVAL),
        ("payload past the end", r()[:-8], {}, errno.EINVAL),
        ("payload larger than the struct", r() + b"\0" * 8, {"_grow": 8}, errno.EINVAL),
        ("unknown command type", r(cmd_type=9), {}, errno.EINVAL),
        ("render flags", r(flags=1 << 5), {}, errno.EINVAL),
        ("width 0", r(width_px=0), {}, errno.EINVAL),
        ("width > 16384", r(width_px=16385), {}, errno.EINVAL),
        ("layers > 2048", r(layers=2049), {}, errno.EINVAL),
        ("3 samples", r(samples=3), {}, errno.EINVAL),
        ("uTile 16x32", r(utile_width_px=16, utile_height_px=32), {}, errno.EINVAL),
        ("compute flags", c(flags=1), {}, errno.EINVAL),
        ("attachments with barriers", attachments(uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, [{}], vdm=0) + r(), {},
         errno.EINVAL),
        ("attachment flags", attachments(uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, [{"flags": 1}]) + r(), {},
         errno.EINVAL),
        ("attachment pad", attachments(uapi.DRM_ASAHI_SET_VERTEX_ATTACHMENTS, [{"pad": 1}]) + r(), {}, errno.EINVAL),
        ("partial attachment", attachments(uapi.DRM_ASAHI_SET_VERTEX_ATTACHMENTS, [{}])[:-4], {}, errno.EINVAL),
        ("unknown timestamp object", r(ts_vtx={"start": {"handle": 77}}), {}, errno.ENOENT),
        ("unknown feedback object", c(feedback_handle=77, feedback_size=8), {}, errno.ENOENT),
        ("feedback size without object", c(feedback_size=8), {}, errno.EINVAL),
    ]


@pytest.mark.parametrize("name, cmdbuf, fields, code", _bad_submissions(), ids=[b[0] for b in _bad_submissions()])
def test_malformed_submission_fails_and_executes_nothing(gpu, name, cmdbuf, fields, code):
    executor, kernel, d, vm, queue = gpu
    fields = dict(fields)
    grow = fields.pop("_grow", 0)
    if grow:  # claim a payload larger than struct drm_asahi_cmd_render
        cmd_type, size, vdm, cdm = struct.unpack("<HHHH", cmdbuf[:8])
        cmdbuf = struct.pack("<HHHH", cmd_type, size + grow, vdm, cdm) + cmdbuf[8:]
    out = d.syncobj()
    with pytest.raises(OSError) as info:
        d.submit(queue, cmdbuf, out_syncs=[out], **fields)
    assert info.value.errno == code
    d.submit(queue, compute(cdm_ctrl_stream_base=0xF00D))  # the queue still works afterwards ...
    d.ioctl("ASAHI_QUEUE_DESTROY", queue_id=queue)  # ... and drains
    assert executor.log == [("compute", 0xF00D), ("compute done", 0xF00D)]  # only that ran
    with pytest.raises(OSError) as info:  # the out-sync was not touched
        d.wait([out], timeout_s=0)
    assert info.value.errno == errno.EINVAL


@pytest.mark.parametrize("sync, code", [
    ({"sync_type": 2, "handle": "s"}, errno.EINVAL),
    ({"sync_type": 0, "handle": 999}, errno.ENOENT),
    ({"sync_type": 0, "handle": "s", "timeline_value": 1}, errno.EINVAL),  # a point on a binary sync
    ({"sync_type": 0, "handle": "empty"}, errno.EINVAL),  # an in-sync without a fence
    ({"sync_type": 1, "handle": "s", "timeline_value": 9}, errno.EINVAL),  # a point not yet submitted
])
def test_bad_in_syncs(gpu, sync, code):
    executor, _, d, _, queue = gpu
    handles = {"s": d.syncobj(signaled=True), "empty": d.syncobj()}
    sync = dict(sync, handle=handles.get(sync["handle"], sync["handle"]))
    syncs = d.array("struct drm_asahi_sync", [sync])
    cmdbuf = compute()
    assert d.errno_of("ASAHI_SUBMIT", syncs=syncs, cmdbuf=d.array("char", cmdbuf), cmdbuf_size=len(cmdbuf),
                      queue_id=queue, in_sync_count=1) == code
    assert executor.log == []


def test_short_payload_is_zero_extended(gpu):
    executor, _, d, _, queue = gpu
    out = d.syncobj()
    d.submit(queue, compute(size=24, cdm_ctrl_stream_base=0x1234, sampler_heap=0x99), out_syncs=[out])
    d.wait([out])
    (command,) = executor.commands
    assert command.cmd.cdm_ctrl_stream_base == 0x1234 and command.cmd.sampler_heap == 0  # cut off: zero


def test_queue_create_and_destroy_errors(dev):
    vm = dev.vm()
    for priority in (uapi.DRM_ASAHI_PRIORITY_HIGH, uapi.DRM_ASAHI_PRIORITY_REALTIME, 7):
        assert dev.errno_of("ASAHI_QUEUE_CREATE", vm_id=vm, priority=priority) == errno.EINVAL
    assert dev.errno_of("ASAHI_QUEUE_CREATE", vm_id=vm, flags=1) == errno.EINVAL
    assert dev.errno_of("ASAHI_QUEUE_CREATE", vm_id=999) == errno.ENOENT
    q = dev.queue(vm, priority=uapi.DRM_ASAHI_PRIORITY_LOW)
    assert dev.errno_of("ASAHI_QUEUE_DESTROY", queue_id=q, pad=1) == errno.EINVAL
    dev.ioctl("ASAHI_QUEUE_DESTROY", queue_id=q)
    assert dev.errno_of("ASAHI_QUEUE_DESTROY", queue_id=q) == errno.ENOENT


def test_executor_gets_the_vm_the_struct_and_attachments(gpu):
    executor, kernel, d, vm, queue = gpu
    out = d.syncobj()
    cmdbuf = (attachments(uapi.DRM_ASAHI_SET_VERTEX_ATTACHMENTS, [{"pointer": 0x1000, "size": 64}])
              + attachments(uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, [{"pointer": 0x2000, "size": 32}])
              + render(vdm_ctrl_stream_base=0xAB, width_px=640, height_px=480)
              + attachments(uapi.DRM_ASAHI_SET_COMPUTE_ATTACHMENTS, [{"pointer": 0x3000, "size": 8}])
              + compute(cdm_ctrl_stream_base=0xCD) + blit(vdm_ctrl_stream_base=0xEF))
    d.submit(queue, cmdbuf, out_syncs=[out])
    d.wait([out])
    r, c, b = sorted({id(x): x for x in executor.commands}.values(), key=lambda x: x.index)
    assert (r.kind, r.name, r.index, c.kind, c.name, b.kind, b.name) == ("render", "R1", 0, "compute", "C1", "blit", "R2")
    assert (r.cmd.width_px, r.cmd.height_px) == (640, 480)
    assert [(a.pointer, a.size_B) for a in r.vertex_attachments] == [(0x1000, 64)]
    assert [(a.pointer, a.size_B) for a in r.fragment_attachments] == [(0x2000, 32)]
    assert [(a.pointer, a.size_B) for a in c.compute_attachments] == [(0x3000, 8)]
    assert r.vm is kernel.queue_vm(d.kernel_file(), queue)
    halves = [h for h, tag in executor.log if tag == 0xEF and "done" not in h]
    assert halves == ["fragment"]  # a blit has no vertex half


def _timestamps(d, size=0x4000):
    handle = d.gem(2 * size)
    obj = d.ioctl("ASAHI_GEM_BIND_OBJECT", op=uapi.DRM_ASAHI_BIND_OBJECT_OP_BIND,
                  flags=uapi.DRM_ASAHI_BIND_OBJECT_USAGE_TIMESTAMPS, handle=handle, offset=size, range=size)
    return handle, obj.object_handle, d.map(handle, 2 * size)


def test_timestamps_are_written_to_the_bound_object(dev):
    queue = dev.queue(dev.vm())
    handle, obj, view = _timestamps(dev)
    out = dev.syncobj()
    stamps = lambda a, b: {"start": {"handle": obj, "offset": a}, "end": {"handle": obj, "offset": b}}
    dev.submit(queue, render(ts_vtx=stamps(0, 8), ts_frag=stamps(16, 24)) + compute(ts=stamps(32, 40)),
               out_syncs=[out])
    dev.wait([out])
    t = np.frombuffer(bytes(view[0x4000:0x4000 + 48]), dtype=np.uint64)
    assert np.all(t > 0)
    assert t[0] <= t[1] <= t[2] <= t[3]  # vertex start/end, then fragment start/end
    assert t[4] <= t[5]
    assert bytes(view[:0x4000]) == bytes(0x4000)  # the part outside the object is untouched


def test_bind_object_errors(dev):
    handle = dev.gem(0x8000)
    T = uapi.DRM_ASAHI_BIND_OBJECT_USAGE_TIMESTAMPS
    B, U = uapi.DRM_ASAHI_BIND_OBJECT_OP_BIND, uapi.DRM_ASAHI_BIND_OBJECT_OP_UNBIND
    for fields, code in [(dict(op=B, flags=0, handle=handle, range=0x4000), errno.EINVAL),
                         (dict(op=B, flags=T, handle=handle, range=0), errno.EINVAL),
                         (dict(op=B, flags=T, handle=handle, offset=0x4000, range=0x8000), errno.EINVAL),
                         (dict(op=B, flags=T, handle=handle, range=0x4000, vm_id=1), errno.EINVAL),
                         (dict(op=B, flags=T, handle=999, range=0x4000), errno.ENOENT),
                         (dict(op=7, flags=T, handle=handle, range=0x4000), errno.EINVAL),
                         (dict(op=U, object_handle=999), errno.ENOENT)]:
        assert dev.errno_of("ASAHI_GEM_BIND_OBJECT", **fields) == code, fields
    obj = dev.ioctl("ASAHI_GEM_BIND_OBJECT", op=B, flags=T, handle=handle, range=0x4000).object_handle
    assert dev.errno_of("ASAHI_GEM_BIND_OBJECT", op=U, object_handle=obj, flags=T) == errno.EINVAL
    dev.ioctl("ASAHI_GEM_BIND_OBJECT", op=U, object_handle=obj)
    queue = dev.queue(dev.vm())
    with pytest.raises(OSError) as info:  # a timestamp naming the unbound object
        dev.submit(queue, compute(ts={"start": {"handle": obj}}))
    assert info.value.errno == errno.ENOENT


def test_timestamp_outside_its_object_is_einval(dev):
    queue = dev.queue(dev.vm())
    _, obj, _ = _timestamps(dev)
    with pytest.raises(OSError) as info:
        dev.submit(queue, compute(ts={"end": {"handle": obj, "offset": 0x4000 - 4}}))
    assert info.value.errno == errno.EINVAL


def test_command_feedback_reports_timing(dev):
    queue = dev.queue(dev.vm())
    handle = dev.gem()
    view = dev.map(handle, 0x4000)
    size = ffi.sizeof("struct drm_asahi_cmd_feedback")
    out = dev.syncobj()
    dev.submit(queue, render(feedback_handle=handle, feedback_size=size, feedback_offset=64)
               + compute(feedback_handle=handle, feedback_size=16, feedback_offset=256), out_syncs=[out])
    dev.wait([out])
    raw = bytearray(view[64:64 + size])
    fb = ffi.cast("struct drm_asahi_cmd_feedback *", ffi.from_buffer(raw))
    assert fb.status == uapi.DRM_ASAHI_STATUS_COMPLETE and fb.command_index == 0
    assert 0 < fb.vertex_start_ns <= fb.vertex_end_ns <= fb.fragment_start_ns <= fb.fragment_end_ns == fb.end_ns
    assert fb.flags == 0
    short = bytes(view[256:256 + size])
    assert struct.unpack("<II", short[:8]) == (uapi.DRM_ASAHI_STATUS_COMPLETE, 1)
    assert short[16:] == bytes(size - 16)  # only feedback_size bytes are written


def test_feedback_outside_the_object_is_einval(dev):
    queue = dev.queue(dev.vm())
    handle = dev.gem()
    for offset in (0x4000 - 8, 4):  # past the end; unaligned
        with pytest.raises(OSError) as info:
            dev.submit(queue, compute(feedback_handle=handle, feedback_size=16, feedback_offset=offset))
        assert info.value.errno == errno.EINVAL


def test_queue_counters(gpu):
    executor, _, d, _, queue = gpu
    executor.actions[("vertex", 1)] = lambda c: c.counters.add(vertices=3, primitives=1)
    def fragment(command):
        command.counters.add(fragments=256, tiles=1, shader_instructions=40)
        command.feedback.partial_renders = 2  # the firmware counts these for the queue

    executor.actions[("fragment", 1)] = fragment
    out = d.syncobj()
    d.submit(queue, render(vdm_ctrl_stream_base=1) + compute(), out_syncs=[out])
    d.wait([out])
    counters = ffi.new("struct drm_asahi_queue_counters *")
    d.ioctl("ASAHI_QUEUE_COUNTERS", queue_id=queue, pointer=ptr(counters), size=ffi.sizeof(counters[0]))
    assert (counters.commands, counters.vertices, counters.primitives, counters.fragments, counters.tiles,
            counters.shader_instructions, counters.partial_renders, counters.faults) == (2, 3, 1, 256, 1, 40, 2, 0)
    partial = ffi.new("struct drm_asahi_queue_counters *")
    d.ioctl("ASAHI_QUEUE_COUNTERS", queue_id=queue, pointer=ptr(partial), size=8)
    assert partial.commands == 2 and partial.vertices == 0
    assert d.errno_of("ASAHI_QUEUE_COUNTERS", queue_id=999, pointer=ptr(partial), size=8) == errno.ENOENT
    assert d.errno_of("ASAHI_QUEUE_COUNTERS", queue_id=queue, pointer=ptr(partial), size=8, flags=1) == errno.EINVAL
    with pytest.raises(ValueError, match="unknown performance counters"):
        executor.commands[0].counters.add(pixels=1)


def test_a_command_buffer_decoded_before_is_checked_again_for_what_it_names(gpu):
    """SUBMIT keeps the decode of a command buffer by its bytes (and the GPU
    configuration): the same bytes again are not parsed again, but the objects they
    name are looked up again, other bytes are decoded afresh, a bad buffer is never
    kept, and a changed configuration decodes again."""
    from dataclasses import replace
    executor, kernel, d, _, queue = gpu
    handle = d.gem()
    size = ffi.sizeof("struct drm_asahi_cmd_feedback")
    cmdbuf = (attachments(uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, [{"pointer": 0x2000, "size": 32}] * 2)
              + render(feedback_handle=handle, feedback_size=size, feedback_offset=64))
    for _ in range(2):
        out = d.syncobj()
        d.submit(queue, cmdbuf, out_syncs=[out])
        d.wait([out])
    assert len(kernel.decoded_submits) == 1
    first, again = executor.commands[0], executor.commands[-1]
    assert first is not again and first.cmd is not again.cmd          # each job its own copy
    assert (again.cmd.width_px, again.fragment_attachments) == (first.cmd.width_px, first.fragment_attachments)
    # one byte changed (an invalid width): decoded afresh, refused, and not kept
    bad = cmdbuf[:-len(render())] + render(width_px=0, feedback_handle=handle, feedback_size=size)
    for _ in range(2):
        assert d.errno_of("ASAHI_SUBMIT", cmdbuf=d.array("char", bad), cmdbuf_size=len(bad),
                          queue_id=queue) == errno.EINVAL
    assert len(kernel.decoded_submits) == 1
    # the same good bytes with a configuration allowing fewer attachments: decoded again
    config = kernel.config
    kernel.config = replace(config, max_attachments=1)
    assert d.errno_of("ASAHI_SUBMIT", cmdbuf=d.array("char", cmdbuf), cmdbuf_size=len(cmdbuf),
                      queue_id=queue) == errno.EINVAL
    kernel.config = config
    # the feedback object closed: the same bytes now name nothing (ENOENT)
    d.ioctl("GEM_CLOSE", handle=handle)
    assert d.errno_of("ASAHI_SUBMIT", cmdbuf=d.array("char", cmdbuf), cmdbuf_size=len(cmdbuf),
                      queue_id=queue) == errno.ENOENT
