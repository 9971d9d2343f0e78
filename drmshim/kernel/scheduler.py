"""User queues and their scheduler, as drm_sched runs them.

Sole responsibility: hold a user queue's jobs in submission order and release
each to the firmware once all its in-fences have signalled. An unsignalled
in-fence holds back the later jobs of its queue (jobs are released in order)
and no other queue. SUBMIT returns as soon as the job is queued; the scheduler
thread sleeps on a waiter of its own registered on its first job's in-fences (so
only those fences' signals and its own submissions wake it), without spinning.
A job whose in-fences have all signalled when it is pushed, behind no other job
of its queue (none pending, none being handed over), is handed to the firmware
by SUBMIT itself, as drm_sched's run-job path does for a job with nothing to wait
for: the same order, without waking the scheduler thread (a thread hand-off
costs more CPU than the hand-over).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

from ..firmware import Counters, Firmware, FirmwareJob
from .errors import errno
from .syncobj import Fence, SyncState

__all__ = ["Job", "UserQueue"]


@dataclass
class Job:
    """One SUBMIT: its firmware job, the fences it waits for and the fence it signals."""

    firmware_job: FirmwareJob
    in_fences: list[Fence]
    done: Fence
    references: list = field(default_factory=list)  # GEM objects held until completion
    #: (hooks, file, queue, arg, copied bytes, seq) of the capture hooks: a job that
    #: completes with a faulted command calls ``hooks.job_done`` first (its core dump)
    observer: tuple | None = None

    def complete(self, error: int) -> None:
        observer = self.observer
        if observer is not None and any(c.feedback.fault is not None for c in self.firmware_job.commands):
            hooks, *rest = observer
            hooks.job_done(rest[0], rest[1], self, *rest[2:])
        self.done.signal(error)
        for gem in self.references:
            gem.put()
        self.references = []


class UserQueue:
    """A ``drm_asahi_queue_create`` queue: scheduler thread plus firmware queues."""

    FLUSH_TIMEOUT_S = 1.0

    def __init__(self, queue_id: int, vm, priority: int, usc_exec_base: int, firmware: Firmware,
                 sync: SyncState):
        self.queue_id = queue_id
        self.vm = vm
        self.priority = priority
        self.firmware_priority = 3 - priority
        self.usc_exec_base = usc_exec_base
        self.firmware = firmware
        self.counters = Counters()
        self.sync = sync
        self._waiter = sync.waiter()                          # the scheduler thread's
        self._drained = threading.Condition(sync.lock)         # shutdown waits on it
        self._pending: deque[Job] = deque()
        self._handing = 0                  # jobs taken from the queue, not yet in the firmware
        self._closing = False
        self.last_done: Fence | None = None    # the done fence of the job pushed last
        self._thread = threading.Thread(target=self._loop, daemon=True, name=f"shimgl-sched-{firmware.name}")
        self._thread.start()

    def push(self, job: Job) -> None:
        job.firmware_job.on_complete = job.complete
        self.last_done = job.done
        with self.sync.lock:
            if self._pending or self._handing or self._closing or (
                    job.in_fences and not all(f.signaled for f in job.in_fences)):
                self._pending.append(job)
                if len(self._pending) == 1:
                    self._waiter.wake()
                return
            self._handing += 1
        self._hand_over(job)

    def _hand_over(self, job: Job) -> None:
        """Give a released job to the firmware; jobs queued meanwhile wait until it is there."""
        try:
            self.firmware.submit(job.firmware_job)
        finally:
            with self.sync.lock:
                self._handing -= 1
                if not self._handing and self._pending:
                    self._waiter.wake()

    def _ready(self) -> bool:
        return self._closing or (bool(self._pending) and not self._handing
                                 and all(f.signaled for f in self._pending[0].in_fences))

    def _loop(self) -> None:
        waiter = self._waiter
        while True:
            with self.sync.lock:
                while not self._ready():
                    if self._pending:          # woken by the first job's in-fences only
                        for fence in self._pending[0].in_fences:
                            waiter.watch(fence)
                    waiter.wait()
                waiter.release()
                if self._closing:
                    return
                job = self._pending.popleft()
                self._handing += 1
                if not self._pending:
                    self._drained.notify_all()
            self._hand_over(job)

    @property
    def guilty(self) -> bool:
        """Whether a job of this queue timed out (the queue was reset): new
        submissions are refused with ECANCELED."""
        return self.firmware.guilty

    def shutdown(self) -> None:
        """Flush, then stop, never waiting on runaway work: as drm_sched tears down
        an entity, wait up to ``FLUSH_TIMEOUT_S`` in all for queued jobs to reach the
        firmware and complete; jobs still blocked on their in-fences after that are
        killed (their fences signal ESRCH). Work already in the firmware carries on
        in the background (a runaway job until its watchdog stops it); the queue's
        VM reference is dropped once the firmware threads have ended."""
        deadline = time.monotonic() + self.FLUSH_TIMEOUT_S
        with self.sync.lock:
            self._drained.wait_for(lambda: not self._pending, self.FLUSH_TIMEOUT_S)
            self._closing = True
            cancelled = list(self._pending)
            self._pending.clear()
            self._waiter.wake()
        if self._thread is not threading.current_thread():
            self._thread.join()
        for job in cancelled:
            job.complete(errno.ESRCH)
        self.firmware.retire(max(0.0, deadline - time.monotonic()), on_idle=self.vm.put)
