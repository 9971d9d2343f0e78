"""User queues and their scheduler, as drm_sched runs them.

Sole responsibility: hold a user queue's jobs in submission order and release
each to the firmware once all its in-fences have signalled. An unsignalled
in-fence holds back the later jobs of its queue (jobs are released in order)
and no other queue. SUBMIT returns as soon as the job is queued; the scheduler
thread waits on the kernel's sync condition variable, without spinning; a job with nothing
ahead of it and its in-fences signalled is released by the submitting thread.
"""

from __future__ import annotations

import threading
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

    def complete(self, error: int) -> None:
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
        self._pending: deque[Job] = deque()
        self._releasing = False                 # a job is on its way to the firmware (keeps order)
        self._closing = False
        self._thread = threading.Thread(target=self._loop, daemon=True, name=f"shimgl-sched-{firmware.name}")
        self._thread.start()

    def push(self, job: Job) -> None:
        job.firmware_job.on_complete = job.complete
        with self.sync.cv:
            # drm_sched's fast path: a job behind nothing, whose in-fences have all signalled,
            # is released to the firmware by the submitting thread (no scheduler hand-off).
            # Order holds: nothing is pending and no other release is under way.
            direct = (not self._pending and not self._releasing and not self._closing
                      and all(f.signaled for f in job.in_fences))
            if not direct:
                self._pending.append(job)
                self.sync.cv.notify_all()
                return
            self._releasing = True
        self._release(job)

    def _release(self, job: Job) -> None:
        """Hand ``job`` to the firmware (``_releasing`` set by the caller, under the lock)."""
        try:
            self.firmware.submit(job.firmware_job)
        finally:
            with self.sync.cv:
                self._releasing = False
                if self._pending or self._closing:
                    self.sync.cv.notify_all()

    def _ready(self) -> bool:
        return self._closing or (not self._releasing and bool(self._pending)
                                 and all(f.signaled for f in self._pending[0].in_fences))

    def _loop(self) -> None:
        while True:
            with self.sync.cv:
                self.sync.cv.wait_for(self._ready)
                if self._closing:
                    return
                job = self._pending.popleft()
                self._releasing = True
            self._release(job)

    def shutdown(self) -> None:
        """Flush, then stop: as drm_sched tears down an entity, wait up to
        ``FLUSH_TIMEOUT_S`` for queued jobs to reach the firmware; jobs still blocked on
        their in-fences after that are killed (their fences signal ESRCH). The firmware
        then finishes everything it has, and the threads end."""
        with self.sync.cv:
            self.sync.cv.wait_for(lambda: not self._pending and not self._releasing, self.FLUSH_TIMEOUT_S)
            self._closing = True
            cancelled = list(self._pending)
            self._pending.clear()
            self.sync.cv.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join()
        for job in cancelled:
            job.complete(errno.ESRCH)
        self.firmware.stop()
        self.vm.put()
