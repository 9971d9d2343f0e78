"""Scheduling as drm_sched does it: asynchronous SUBMIT, in-fences, independent queues,
faults that stop one command only, and file close after in-flight work."""

from __future__ import annotations

import errno
import threading
import time

import numpy as np
import pytest

import uapi
from drmshim.memory import FaultInfo, GPUFault

from .helpers import GateExecutor, compute, render

ffi = uapi.ffi


@pytest.fixture
def gpu(open_private):
    executor = GateExecutor()
    kernel, d = open_private(gpu=executor)
    return executor, kernel, d, d.vm()


def test_submit_returns_before_the_work_runs(gpu):
    executor, _, d, vm = gpu
    queue = d.queue(vm)
    gate = executor.gates[("compute", 1)] = threading.Event()
    out = d.syncobj()
    d.submit(queue, compute(cdm_ctrl_stream_base=1), out_syncs=[out])
    assert not d.signaled(out)
    gate.set()
    d.wait([out], timeout_s=5)
    assert ("compute done", 1) in executor.log


def test_two_queues_run_concurrently(gpu):
    executor, _, d, vm = gpu
    qa, qb = d.queue(vm), d.queue(vm)
    met = threading.Event()
    seen = {}
    # Queue A's command can only finish once queue B's command has run at the same time.
    executor.actions[("compute", 1)] = lambda c: seen.setdefault("a", met.wait(5))
    executor.actions[("compute", 2)] = lambda c: met.set()
    a, b = d.syncobj(), d.syncobj()
    d.submit(qa, compute(cdm_ctrl_stream_base=1), out_syncs=[a])
    time.sleep(0.02)
    d.submit(qb, compute(cdm_ctrl_stream_base=2), out_syncs=[b])
    d.wait([a, b], timeout_s=5, flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)
    assert seen["a"] is True


def test_unsignalled_in_sync_holds_back_its_queue_only(gpu):
    executor, _, d, vm = gpu
    producer, blocked, free = d.queue(vm), d.queue(vm), d.queue(vm)
    gate = executor.gates[("compute", 9)] = threading.Event()
    s, a1, a2, b = d.syncobj(), d.syncobj(), d.syncobj(), d.syncobj()
    d.submit(producer, compute(cdm_ctrl_stream_base=9), out_syncs=[s])  # s: a fence, not yet signalled
    d.submit(blocked, compute(cdm_ctrl_stream_base=1), in_syncs=[s], out_syncs=[a1])
    d.submit(blocked, compute(cdm_ctrl_stream_base=2), out_syncs=[a2])  # no in-sync, but queued behind a1
    d.submit(free, compute(cdm_ctrl_stream_base=3), out_syncs=[b])
    d.wait([b], timeout_s=5)
    # A wait on the blocked job's fence times out, on time, with ETIME.
    start = time.monotonic()
    with pytest.raises(OSError) as info:
        d.wait([a1, a2], timeout_s=0.2)
    assert info.value.errno == errno.ETIME
    assert 0.2 <= time.monotonic() - start < 2.0
    assert ("compute", 1) not in executor.log and ("compute", 2) not in executor.log
    gate.set()
    d.wait([a1, a2], timeout_s=5, flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)
    order = [tag for half, tag in executor.log if half == "compute"]
    assert order.index(9) < order.index(1) < order.index(2)


def test_timeline_in_sync_waits_for_its_point(gpu):
    executor, _, d, vm = gpu
    queue = d.queue(vm)
    t, out = d.syncobj(), d.syncobj()
    d.ioctl("SYNCOBJ_TIMELINE_SIGNAL", handles=d.array("__u32", [t]), points=d.array("__u64", [1]), count_handles=1)
    d.submit(queue, compute(cdm_ctrl_stream_base=4), in_syncs=[(t, 1)], out_syncs=[out])
    d.wait([out], timeout_s=5)


def test_a_gpu_fault_stops_that_command_only(gpu):
    executor, kernel, d, vm = gpu
    queue, other = d.queue(vm), d.queue(vm)
    handle = d.gem()
    view = d.map(handle, 0x4000)
    size = ffi.sizeof("struct drm_asahi_cmd_feedback")

    def fault(command):
        command.memory.read(0xDEAD_0000, 4, "TEX")  # unmapped: raises GPUFault

    executor.actions[("vertex", 5)] = fault
    out, out_other = d.syncobj(), d.syncobj()
    d.submit(queue, render(vdm_ctrl_stream_base=5, feedback_handle=handle, feedback_size=size)
             + compute(cdm_ctrl_stream_base=6, feedback_handle=handle, feedback_size=size, feedback_offset=256),
             out_syncs=[out])
    d.submit(other, compute(cdm_ctrl_stream_base=7), out_syncs=[out_other])
    d.wait([out, out_other], timeout_s=5, flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)
    halves = [(h, tag) for h, tag in executor.log if "done" not in h]
    assert ("fragment", 5) not in halves  # the faulting render stopped at its vertex half
    assert ("compute", 6) in halves and ("compute", 7) in halves  # later and other work ran
    raw = bytearray(view[:size])
    fb = ffi.cast("struct drm_asahi_cmd_feedback *", ffi.from_buffer(raw))
    assert fb.status == uapi.DRM_ASAHI_STATUS_FAULT and fb.command_index == 0
    assert fb.fault_address == 0xDEAD_0000 and fb.fault_unit == uapi.DRM_ASAHI_UNIT_TEX
    assert fb.flags == uapi.DRM_ASAHI_FEEDBACK_FAULT_VALID | uapi.DRM_ASAHI_FEEDBACK_FAULT_IS_READ
    raw2 = bytearray(view[256:256 + size])
    assert ffi.cast("struct drm_asahi_cmd_feedback *", ffi.from_buffer(raw2)).status == uapi.DRM_ASAHI_STATUS_COMPLETE
    # The job's fence carries EIO; the other queue's fence no error.
    syncobjs = d.kernel_file().syncobjs.items
    assert syncobjs[out].fence_for(0).error == errno.EIO
    assert syncobjs[out_other].fence_for(0).error == 0
    counters = ffi.new("struct drm_asahi_queue_counters *")
    d.ioctl("ASAHI_QUEUE_COUNTERS", queue_id=queue, pointer=int(ffi.cast("uintptr_t", counters)), size=64)
    assert (counters.commands, counters.faults) == (2, 1)


def test_soft_faults_complete_and_report_the_fault(open_private):
    executor = GateExecutor()
    _, d = open_private(gpu=executor, soft_faults=True)
    queue = d.queue(d.vm())
    handle = d.gem()
    view = d.map(handle, 0x4000)
    got = {}
    executor.actions[("compute", 3)] = lambda c: got.setdefault(
        "value", c.memory.gather(np.array([0x5000_0000], np.uint64), np.uint32, "USC").tolist())
    out = d.syncobj()
    size = ffi.sizeof("struct drm_asahi_cmd_feedback")
    d.submit(queue, compute(cdm_ctrl_stream_base=3, feedback_handle=handle, feedback_size=size), out_syncs=[out])
    d.wait([out], timeout_s=5)
    assert got["value"] == [0]
    raw = bytearray(view[:size])
    fb = ffi.cast("struct drm_asahi_cmd_feedback *", ffi.from_buffer(raw))
    assert fb.status == uapi.DRM_ASAHI_STATUS_COMPLETE and fb.fault_address == 0x5000_0000
    assert fb.flags & uapi.DRM_ASAHI_FEEDBACK_SOFT_FAULT
    assert d.kernel_file().syncobjs.items[out].fence_for(0).error == 0


def test_an_executor_crash_is_an_unknown_error_not_a_hang(gpu, capsys):
    executor, _, d, vm = gpu
    queue = d.queue(vm)
    executor.actions[("compute", 8)] = lambda c: 1 / 0
    out = d.syncobj()
    d.submit(queue, compute(cdm_ctrl_stream_base=8), out_syncs=[out])
    d.wait([out], timeout_s=5)
    assert d.kernel_file().syncobjs.items[out].fence_for(0).error == errno.ENODATA
    assert "ZeroDivisionError" in capsys.readouterr().err


def test_close_releases_after_in_flight_work_ends(gpu):
    executor, kernel, d, vm = gpu
    queue = d.queue(vm)
    handle = d.gem(0x8000)
    d.bind(vm, handle, 0x1_0000_0000, 0x8000)
    gate = executor.gates[("compute", 1)] = threading.Event()
    d.submit(queue, compute(cdm_ctrl_stream_base=1))
    closer = threading.Thread(target=d.close)
    closer.start()
    closer.join(0.1)
    assert closer.is_alive()  # waiting for the running job
    assert kernel.arena.used_B == 0x8000
    gate.set()
    closer.join(5)
    assert not closer.is_alive()
    assert ("compute done", 1) in executor.log
    assert kernel.arena.used_B == 0


def test_close_kills_jobs_blocked_on_in_syncs(open_private, monkeypatch):
    from drmshim.kernel.scheduler import UserQueue
    monkeypatch.setattr(UserQueue, "FLUSH_TIMEOUT_S", 0.05)
    executor = GateExecutor()
    kernel, producer = open_private(gpu=executor)
    from .helpers import Dev
    consumer = Dev(producer.path)
    gate = executor.gates[("compute", 1)] = threading.Event()
    s = producer.syncobj()
    producer.submit(producer.queue(producer.vm()), compute(cdm_ctrl_stream_base=1), out_syncs=[s])
    fd = producer.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=s).fd
    imported = consumer.ioctl("SYNCOBJ_FD_TO_HANDLE", fd=fd).handle
    uapi.close(fd)
    out = consumer.syncobj()
    consumer.submit(consumer.queue(consumer.vm()), compute(cdm_ctrl_stream_base=2), in_syncs=[imported],
                    out_syncs=[out])
    syncobj = consumer.kernel_file().syncobjs.items[out]
    consumer.close()
    assert syncobj.fence_for(0).signaled and syncobj.fence_for(0).error == errno.ESRCH
    gate.set()
    producer.wait([s], timeout_s=5)
    assert ("compute", 2) not in executor.log
