"""What queues and waits cost the kernel: QUEUE_DESTROY (and close) end a queue's
threads and drop what it holds, and a signal wakes only the waiters of the sync
object or fence it signals (per-object waiter lists, as dma_fence callbacks), never
the other threads blocked in the kernel."""

from __future__ import annotations

import errno
import threading
import time

import uapi

from .helpers import GateExecutor, compute


def _kernel_threads(kernel_files) -> list[threading.Thread]:
    """The live scheduler and firmware threads of the given files' queues (by name)."""
    names = tuple(f"-{f.name}/" for f in kernel_files)
    return [t for t in threading.enumerate()
            if t.name.startswith(("shimgl-sched", "shimgl-fw")) and any(n in t.name for n in names)]


def _until(predicate, what: str, limit_s: float = 10.0) -> None:
    """Wait for another thread to reach a state (bounded; not a timing assertion)."""
    deadline = time.monotonic() + limit_s
    while not predicate():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.005)


def test_queue_destroy_ends_its_threads_and_releases_its_vm(open_private):
    kernel, d = open_private(gpu=GateExecutor())
    vm = d.vm()
    file = d.kernel_file()
    vm_object = file.vm(vm)
    refs_before = vm_object._refs
    queues = [d.queue(vm) for _ in range(20)]
    for q in queues:
        out = d.syncobj()
        d.submit(q, compute(), out_syncs=[out])   # starts the firmware threads too
        d.wait([out])
    assert len(_kernel_threads([file])) == 20 * 4      # a scheduler and 3 firmware rings each
    assert vm_object._refs == refs_before + 20           # each queue holds its VM
    for q in queues:
        d.ioctl("ASAHI_QUEUE_DESTROY", queue_id=q)
    assert file.queues.items == {}
    _until(lambda: not _kernel_threads([file]), "the destroyed queues' threads end")
    assert vm_object._refs == refs_before
    assert d.errno_of("ASAHI_QUEUE_DESTROY", queue_id=queues[0]) == errno.ENOENT
    assert d.errno_of("ASAHI_QUEUE_DESTROY", queue_id=12345) == errno.ENOENT


def test_closing_the_file_ends_its_queues_threads(open_private):
    kernel, d = open_private()
    vm = d.vm()
    file = d.kernel_file()
    for _ in range(5):
        d.queue(vm)
    assert len(_kernel_threads([file])) == 5            # schedulers; no work, no firmware threads
    d.close()
    _until(lambda: not _kernel_threads([file]), "the closed file's threads end")
    assert file not in kernel.files


def _blocked_waiter(syncobj, what: str):
    """The one waiter a blocked SYNCOBJ_WAIT registered on ``syncobj``."""
    _until(lambda: len(syncobj.waiters) == 1, what)
    return next(iter(syncobj.waiters))


def test_a_signal_on_one_sync_object_does_not_wake_a_waiter_of_another(open_private):
    kernel, d = open_private()
    a, b = d.syncobj(), d.syncobj()
    file = d.kernel_file()
    result = {}

    def wait_for_b():
        try:
            result["first"] = d.wait([b], timeout_s=30, flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT)
        except OSError as error:          # pragma: no cover - reported below
            result["error"] = error.errno

    thread = threading.Thread(target=wait_for_b)
    thread.start()
    waiter = _blocked_waiter(file.syncobj(b), "the wait on B blocks")
    handles_a = d.array("__u32", [a])
    for point in range(1, 201):           # binary signals, resets and timeline points on A
        d.ioctl("SYNCOBJ_SIGNAL", handles=handles_a, count_handles=1)
        d.ioctl("SYNCOBJ_RESET", handles=handles_a, count_handles=1)
    assert waiter.wakeups == 0
    d.ioctl("SYNCOBJ_SIGNAL", handles=d.array("__u32", [b]), count_handles=1)
    thread.join(30)
    assert result == {"first": 0}
    assert waiter.wakeups == 1
    assert file.syncobj(b).waiters == set()          # unregistered on return


def test_a_fence_wakes_only_its_waiters_and_idle_queues_are_not_woken(open_private):
    """A waiter on B's fence (B points at a job not yet run) is not woken by the
    signals of A's fence, and the kernel's idle queue threads are woken by nothing."""
    executor = GateExecutor()
    kernel, d = open_private(gpu=executor)
    vm = d.vm()
    for _ in range(10):
        d.queue(vm)                                  # idle schedulers, blocked in the kernel
    busy = d.queue(vm)
    gate = executor.gates[("compute", 0xB)] = threading.Event()
    b = d.syncobj()
    d.submit(busy, compute(cdm_ctrl_stream_base=0xB), out_syncs=[b])
    before = kernel.sync.wakeups
    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("first", d.wait([b], timeout_s=30)))
    thread.start()
    b_fence = d.kernel_file().syncobj(b).links[0][1]
    _until(lambda: len(b_fence.waiters) == 1, "the wait on B's fence blocks")
    waiter = next(iter(b_fence.waiters))
    a = d.syncobj()
    handles, points = d.array("__u32", [a]), uapi.ffi.new("__u64[]", 1)
    for point in range(1, 2001):
        points[0] = point
        d.ioctl("SYNCOBJ_TIMELINE_SIGNAL", handles=handles, points=int(uapi.ffi.cast("uintptr_t", points)),
                count_handles=1)
    assert waiter.wakeups == 0
    assert kernel.sync.wakeups == before              # 2,000 signals woke no thread at all
    gate.set()
    thread.join(30)
    assert done == {"first": 0} and waiter.wakeups == 1


def test_a_scheduler_is_woken_by_its_first_jobs_in_fence_only(open_private):
    kernel, d = open_private(gpu=GateExecutor())
    vm = d.vm()
    queue_id = d.queue(vm)
    queue = d.kernel_file().queue(queue_id)
    gate_sync, other, out = d.syncobj(), d.syncobj(), d.syncobj()
    from drmshim.kernel import Fence
    pending = Fence(kernel.sync, "test in-fence")       # as another queue's unfinished job
    d.kernel_file().syncobj(gate_sync).replace(pending)
    d.submit(queue_id, compute(), in_syncs=[gate_sync], out_syncs=[out])
    _until(lambda: queue._waiter in pending.waiters, "the scheduler waits on the in-fence")
    wakeups = queue._waiter.wakeups
    for _ in range(100):
        d.ioctl("SYNCOBJ_SIGNAL", handles=d.array("__u32", [other]), count_handles=1)
    assert queue._waiter.wakeups == wakeups
    assert not d.signaled(out)
    pending.signal()
    d.wait([out], timeout_s=30)
    assert queue._waiter.wakeups == wakeups + 1


def test_a_ready_job_on_an_idle_queue_is_handed_over_by_submit(open_private):
    """SUBMIT hands a job with nothing to wait for to the firmware itself (the
    scheduler thread is not woken); a job behind a blocked one still waits for it and
    goes through the scheduler thread, in order."""
    kernel, d = open_private(gpu=GateExecutor())
    vm = d.vm()
    queue_id = d.queue(vm)
    queue = d.kernel_file().queue(queue_id)
    handed = []
    submit = queue.firmware.submit
    queue.firmware.submit = lambda job: (handed.append(threading.current_thread().name), submit(job))
    wakeups = queue._waiter.wakeups
    first = d.syncobj()
    d.submit(queue_id, compute(cdm_ctrl_stream_base=1), out_syncs=[first])
    d.wait([first], timeout_s=30)
    assert handed == [threading.current_thread().name]
    assert queue._waiter.wakeups == wakeups
    from drmshim.kernel import Fence
    gate_sync, blocked, behind = d.syncobj(), d.syncobj(), d.syncobj()
    pending = Fence(kernel.sync, "test in-fence")
    d.kernel_file().syncobj(gate_sync).replace(pending)
    d.submit(queue_id, compute(cdm_ctrl_stream_base=2), in_syncs=[gate_sync], out_syncs=[blocked])
    d.submit(queue_id, compute(cdm_ctrl_stream_base=3), out_syncs=[behind])     # ready, but behind
    time.sleep(0.05)
    assert not d.signaled(behind) and len(handed) == 1
    pending.signal()
    d.wait([blocked, behind], timeout_s=30, flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)
    assert handed[1:] == [f"shimgl-sched-{queue.firmware.name}"] * 2
