"""The GPU watchdog: a command half that spends its budget is stopped and reported
TIMEOUT, its queue becomes guilty (later work cancelled, SUBMIT gives ECANCELED),
other queues keep running, and destroying a queue or closing a file never waits
on runaway work."""

from __future__ import annotations

import errno
import threading
import time

import pytest

import uapi
from drmshim.firmware import watchdog
from drmshim.kernel.scheduler import UserQueue
from uapi import packets as P

from .helpers import Dev, compute, render

ffi = uapi.ffi
BASE = 0x1_0000_0000
FEEDBACK_B = ffi.sizeof("struct drm_asahi_cmd_feedback")
BUDGET_MS = 300


def _fence_error(d, handle: int) -> int:
    return d.kernel_file().syncobjs.items[handle].fence_for(0).error


def _counters(d, queue: int) -> dict:
    record = ffi.new("struct drm_asahi_queue_counters *")
    d.ioctl("ASAHI_QUEUE_COUNTERS", queue_id=queue, pointer=int(ffi.cast("uintptr_t", record)),
            size=ffi.sizeof(record[0]))
    return {name: getattr(record, name) for name, _ in ffi.typeof(record[0]).fields}


def _looping_stream(d, vm: int) -> tuple[int, memoryview]:
    """A CDM stream at BASE whose only block links back to itself; and a feedback buffer."""
    handle = d.gem(0x8000)
    d.bind(vm, handle, BASE, 0x8000)
    view = d.map(handle, 0x8000)
    link = P.pack("CDM_STREAM_LINK", target=BASE)
    view[:len(link)] = link
    return handle, view


def _feedback(view: memoryview):
    raw = bytearray(view[0x4000:0x4000 + FEEDBACK_B])
    return ffi.cast("struct drm_asahi_cmd_feedback *", ffi.from_buffer(raw)), raw


def test_a_stream_linking_to_itself_times_out_and_the_queue_is_guilty(open_private, capsys):
    kernel, d = open_private(gpu_timeout_ms=BUDGET_MS)
    vm = d.vm()
    handle, view = _looping_stream(d, vm)
    queue, other = d.queue(vm), d.queue(vm)
    out, behind, fine = d.syncobj(), d.syncobj(), d.syncobj()
    d.submit(queue, compute(cdm_ctrl_stream_base=BASE, feedback_handle=handle, feedback_offset=0x4000,
                            feedback_size=FEEDBACK_B), out_syncs=[out])
    d.submit(queue, compute(), out_syncs=[behind])   # queued behind the runaway job
    other_file = Dev(d.path)                          # another process's file on the same GPU
    other_done = other_file.syncobj()
    other_file.submit(other_file.queue(other_file.vm()), compute(), out_syncs=[other_done])
    d.wait([out, behind], timeout_s=60, flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)
    other_file.wait([other_done], timeout_s=60)
    assert other_file.kernel_file().syncobjs.items[other_done].fence_for(0).error == 0
    other_file.close()
    assert _fence_error(d, out) == errno.ETIMEDOUT
    assert _fence_error(d, behind) == errno.ECANCELED
    fb, keep = _feedback(view)
    assert fb.status == uapi.DRM_ASAHI_STATUS_TIMEOUT and not fb.flags & uapi.DRM_ASAHI_FEEDBACK_FAULT_VALID
    counters = _counters(d, queue)
    assert counters["timeouts"] == 1 and counters["cancelled"] == 1 and counters["commands"] == 2
    assert "GPU timeout" in capsys.readouterr().err
    # the guilty queue refuses new work; the other queue of the same VM keeps running
    assert d.errno_of("ASAHI_SUBMIT", queue_id=queue, cmdbuf=d.array("char", compute()),
                      cmdbuf_size=len(compute())) == errno.ECANCELED
    d.submit(other, compute(), out_syncs=[fine])
    d.wait([fine], timeout_s=30)
    assert _fence_error(d, fine) == 0 and _counters(d, other)["timeouts"] == 0


class LoopingExecutor:
    """A GPU whose compute work spins in Python until told to stop (or forever)."""

    concurrent = True

    def __init__(self):
        self.release = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()

    def run_vertex(self, command) -> None:
        pass

    run_fragment = run_vertex

    def run_compute(self, command) -> None:
        if command.cmd.cdm_ctrl_stream_base != 1:
            return
        self.started.set()
        spins = 0
        try:
            while not self.release.is_set():
                spins += 1      # no budget checks here: only the watchdog thread can stop it
        finally:
            self.finished.set()


def test_work_between_budget_checks_is_stopped_by_the_watchdog_thread(open_private):
    executor = LoopingExecutor()
    kernel, d = open_private(gpu=executor, gpu_timeout_ms=BUDGET_MS)
    queue = d.queue(d.vm())
    out = d.syncobj()
    d.submit(queue, compute(cdm_ctrl_stream_base=1), out_syncs=[out])
    d.wait([out], timeout_s=60)
    assert executor.finished.is_set() and not executor.release.is_set()
    assert _fence_error(d, out) == errno.ETIMEDOUT


def test_a_disabled_watchdog_never_stops_work(open_private):
    executor = LoopingExecutor()
    kernel, d = open_private(gpu=executor, gpu_timeout_ms=0)
    queue = d.queue(d.vm())
    out = d.syncobj()
    d.submit(queue, compute(cdm_ctrl_stream_base=1), out_syncs=[out])
    assert executor.started.wait(30)
    assert not d.signaled(out)
    executor.release.set()
    d.wait([out], timeout_s=30)
    assert _fence_error(d, out) == 0


def test_queue_destroy_and_close_do_not_wait_for_a_runaway_job(open_private, monkeypatch):
    monkeypatch.setattr(UserQueue, "FLUSH_TIMEOUT_S", 0.2)
    executor = LoopingExecutor()
    kernel, d = open_private(gpu=executor, gpu_timeout_ms=0)   # nothing will stop it
    vm = d.vm()
    d.bind(vm, d.gem(), BASE, 0x4000)
    queue = d.queue(vm)
    gpu_vm = d.kernel_file().vms.items[vm]
    d.submit(queue, compute(cdm_ctrl_stream_base=1))
    assert executor.started.wait(30)
    destroyer = threading.Thread(target=d.ioctl, args=("ASAHI_QUEUE_DESTROY",), kwargs={"queue_id": queue})
    destroyer.start()
    d.gem()                              # the file's other ioctls are not blocked meanwhile
    destroyer.join(30)
    assert not destroyer.is_alive() and not executor.finished.is_set()   # returned; the job still runs
    d.ioctl("ASAHI_VM_DESTROY", vm_id=vm)
    assert len(gpu_vm.mappings()) == 1   # the running job's queue still holds the VM ...
    queue2 = d.queue(d.vm())
    d.submit(queue2, compute(cdm_ctrl_stream_base=1))
    closer = threading.Thread(target=d.close)
    closer.start()
    closer.join(30)
    assert not closer.is_alive()
    executor.release.set()
    for _ in range(300):                 # ... until the job ends, then it is released
        if not gpu_vm.mappings():
            break
        time.sleep(0.05)
    assert gpu_vm.mappings() == []


# ------------------------------------------------------------ the watchdog itself
def test_run_budgeted_cooperative_and_preemptive():
    def cooperative():
        while True:
            watchdog.check_budget("CDM", 0x1234)

    error, budget = watchdog.run_budgeted(50, cooperative)
    assert isinstance(error, watchdog.JobTimeout) and (budget.unit, budget.address) == ("CDM", 0x1234)

    def spin():
        x = 0
        while True:
            x += 1

    error, budget = watchdog.run_budgeted(50, spin)
    assert isinstance(error, watchdog.JobTimeout) and budget.used_ns() >= 50_000_000

    def fails():
        raise ValueError("broken")

    error, _ = watchdog.run_budgeted(50, fails)
    assert isinstance(error, ValueError)
    assert watchdog.run_budgeted(50, lambda: None)[0] is None
    watchdog.check_budget("VDM")         # outside a budget: nothing happens


def test_no_timeout_is_delivered_after_run_budgeted_returns():
    """Budgets that expire just as the work ends: the exception is either reported
    or withdrawn, never raised later in the caller."""
    def busy(ms):
        end = time.thread_time() + ms / 1000
        while time.thread_time() < end:
            pass

    outcomes = set()
    for i in range(40):
        error, _ = watchdog.run_budgeted(5, busy, 4 + (i % 3))
        outcomes.add(type(error).__name__)
        total = 0
        for _ in range(20000):   # plenty of bytecodes in which a stray exception would land
            total += 1
    assert outcomes <= {"NoneType", "JobTimeout"}


def test_short_runs_do_not_wake_the_watchdog_each(monkeypatch):
    """A stream of short RUNs under the default budget (a submission per tiny draw)
    arms a budget each: the watchdog thread is woken only for a budget it could otherwise see spent too late (one
    shorter than its next look), not twice per RUN. A short budget still wakes it."""
    watchdog.run_budgeted(watchdog.DEFAULT_TIMEOUT_MS, lambda: None)    # the thread runs
    time.sleep(0.05)
    wakes = []
    real = watchdog._watchdog.wake.notify
    monkeypatch.setattr(watchdog._watchdog.wake, "notify", lambda *a: (wakes.append(1), real(*a)))
    for _ in range(50):
        assert watchdog.run_budgeted(watchdog.DEFAULT_TIMEOUT_MS, lambda: None)[0] is None
    assert len(wakes) <= 2
    wakes.clear()
    def spin():
        while True:
            pass
    error, _ = watchdog.run_budgeted(50, spin)         # stopped between any checks
    assert isinstance(error, watchdog.JobTimeout) and wakes


def test_the_watchdog_sleeps_until_the_soonest_budget_could_be_spent(monkeypatch):
    """While a long budget is armed the watchdog thread does not poll: it sleeps until
    the budget could be spent (it looked every 50 ms, each look taking the GIL from the
    work). A budget of 60 s armed for 0.4 s: at most two looks."""
    watchdog.run_budgeted(watchdog.DEFAULT_TIMEOUT_MS, lambda: None)    # the thread runs
    looks = []
    real = watchdog._watchdog.wake.wait
    monkeypatch.setattr(watchdog._watchdog.wake, "wait", lambda *a: (looks.append(a), real(*a))[1])
    error, _ = watchdog.run_budgeted(watchdog.DEFAULT_TIMEOUT_MS, time.sleep, 0.4)
    assert error is None
    assert len(looks) <= 2, looks


@pytest.mark.parametrize("raw, value", [("", watchdog.DEFAULT_TIMEOUT_MS), ("250", 250), ("0", 0), ("-5", 0)])
def test_timeout_from_env(monkeypatch, raw, value):
    monkeypatch.setenv("SHIMGL_GPU_TIMEOUT_MS", raw)
    assert watchdog.timeout_from_env() == value


def test_timeout_from_env_rejects_garbage(monkeypatch):
    monkeypatch.setenv("SHIMGL_GPU_TIMEOUT_MS", "soon")
    with pytest.raises(ValueError, match="SHIMGL_GPU_TIMEOUT_MS"):
        watchdog.timeout_from_env()


def test_a_kernel_takes_its_budget_from_the_environment(monkeypatch):
    from drmshim import Kernel

    monkeypatch.setenv("SHIMGL_GPU_TIMEOUT_MS", "1234")
    assert Kernel(arena_size_B=1 << 24).gpu_timeout_ms == 1234
    assert Kernel(arena_size_B=1 << 24, gpu_timeout_ms=5).gpu_timeout_ms == 5


def test_a_vdm_stream_linking_to_itself_times_out_in_the_vertex_half(open_private):
    kernel, d = open_private(gpu_timeout_ms=BUDGET_MS)
    vm = d.vm()
    handle = d.gem(0x8000)
    d.bind(vm, handle, BASE, 0x8000)
    view = d.map(handle, 0x8000)
    link = P.pack("VDM_STREAM_LINK", target=BASE)
    view[:len(link)] = link
    out = d.syncobj()
    queue = d.queue(vm)
    d.submit(queue, render(vdm_ctrl_stream_base=BASE, feedback_handle=handle, feedback_offset=0x4000,
                           feedback_size=FEEDBACK_B), out_syncs=[out])
    d.wait([out], timeout_s=60)
    assert _fence_error(d, out) == errno.ETIMEDOUT
    fb, keep = _feedback(view)
    assert fb.status == uapi.DRM_ASAHI_STATUS_TIMEOUT and fb.fragment_start_ns == 0   # stopped before fragments
    assert _counters(d, queue)["timeouts"] == 1
