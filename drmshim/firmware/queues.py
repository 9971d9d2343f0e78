"""The firmware queues of one user queue, with the barrier rules of the UAPI notes.

Sole responsibility: turn each job's commands into WAIT/RUN operations on three
firmware queues (vertex, fragment, compute) and execute them, each queue in its
own thread, in order. The rules:

- A render command's explicit barrier waits go in the vertex queue before its
  vertex half; the fragment queue always waits for the vertex half before the
  fragment half. So vertex work runs ahead of earlier fragment work unless a
  barrier forbids it.
- A compute command's waits go in the compute queue; compute runs in order.
- A blit (fragment-only render command) has its waits and its execution in the
  fragment queue.
- A barrier on boundary ``b`` of a kind waits until the first ``b`` commands of
  that kind in the job (0: all earlier jobs' commands of that kind) have
  completed. Render and compute of one user queue run concurrently.
- A wait already implied is not repeated: by an earlier wait of the same queue
  on the same kind, or by the queue's own order (the compute queue completes
  compute commands in order, the fragment queue completes render commands).

Which host thread executes an operation is not part of these rules. A render
command given to idle firmware (no operation queued or running on the vertex or
the fragment queue) has its vertex half, with the vertex queue's barrier waits
before it, run by the fragment queue's thread, just before its fragment half:
the GPU is idle, so there is nothing for the vertex half to run ahead of, and
waking the vertex thread would cost a thread hand-off (two, with the one back to
the fragment thread) for nothing. Their events are still the vertex queue's
(``WAIT R0f; RUN R1v`` in the Vertex queue). A later vertex half, queued while that one has not
run, waits for it (a WAIT of the vertex queue on its own counter that no trace
shows): vertex halves run in order.

Counters are absolute per user queue: ``vertex`` (vertex halves run), ``render``
(render commands fully complete, i.e. fragment halves and blits) and
``compute``. A barrier on boundary b of a job whose first render command has
absolute number n+1 waits for ``render >= n + b``.
"""

from __future__ import annotations

import errno
import operator
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import uapi
from uapi.drm import record_format

from ..memory import GPUFault
from .command import FirmwareCommand
from .executor import GPUExecutor
from .trace import FirmwareEvent
from .watchdog import DEFAULT_TIMEOUT_MS, JobTimeout, run_budgeted

__all__ = ["Firmware", "FirmwareJob", "QUEUE_NAMES", "STATUS_ERRNO"]

QUEUE_NAMES = ("Compute", "Vertex", "Fragment")
#: Each half of a command: the executor's entry point (a blit's, ``run_blit``, is
#: optional: ``run_fragment`` without it) and the timestamp pair it writes.
_ENTRY = {"vertex": "run_vertex", "fragment": "run_fragment", "compute": "run_compute"}
_STAMP = {"vertex": "vertex", "fragment": "fragment", "blit": "fragment", "compute": "compute"}
_FEEDBACK_RECORD = record_format("struct drm_asahi_cmd_feedback")
_FEEDBACK_NAMES = tuple(name for name, _ in uapi.ffi.typeof("struct drm_asahi_cmd_feedback").fields)
#: The record's fields copied from the command's Feedback as they are.
_FEEDBACK_FIELDS = ("status", "start_ns", "end_ns", "vertex_start_ns", "vertex_end_ns", "fragment_start_ns",
                    "fragment_end_ns", "tvb_size_B", "tvb_usage_B", "tvb_overflows", "partial_renders")
_FEEDBACK_GET = operator.attrgetter(*_FEEDBACK_FIELDS)
_FEEDBACK_AT = tuple(_FEEDBACK_NAMES.index(name) for name in _FEEDBACK_FIELDS)     # their places in the record
_INDEX_AT, _FAULT_ADDRESS_AT, _FAULT_UNIT_AT, _FLAGS_AT = (
    _FEEDBACK_NAMES.index(name) for name in ("command_index", "fault_address", "fault_unit", "flags"))
NONE = uapi.DRM_ASAHI_BARRIER_NONE
#: The fence error of a job whose first failed command ended with each status
#: (what the Asahi kernel gives its fences for each kind of work error).
STATUS_ERRNO = {
    uapi.DRM_ASAHI_STATUS_FAULT: errno.EIO,
    uapi.DRM_ASAHI_STATUS_TIMEOUT: errno.ETIMEDOUT,
    uapi.DRM_ASAHI_STATUS_KILLED: errno.ECANCELED,
    uapi.DRM_ASAHI_STATUS_UNKNOWN_ERROR: errno.ENODATA,
}


@dataclass
class FirmwareJob:
    """A job as the firmware receives it: its commands and a completion callback."""

    commands: list[FirmwareCommand]
    on_complete: Callable[[int], None]  # called with 0 or the errno of the first failure
    seq: int = 0
    remaining: int = 0
    error: int = 0


@dataclass
class _Op:
    op: str  # "WAIT" or "RUN"
    what: str  # event name: "C0", "R1f", "R1v", "C2"
    job: FirmwareJob
    counter: str = ""  # WAIT: counter that must reach target
    target: int = 0
    half: str = ""  # RUN: "vertex", "fragment", "compute"
    command: FirmwareCommand | None = None
    bumps: tuple[str, ...] = ()  # RUN: counters incremented when done
    queue: str = ""  # the firmware queue the op belongs to, when another queue's thread runs it
    hidden: bool = False  # WAIT: an order of the host threads, not of the firmware queues (no event)


@dataclass
class _Ring:
    name: str
    ops: deque = field(default_factory=deque)
    waited: dict = field(default_factory=lambda: {"render": -1, "compute": -1})
    thread: threading.Thread | None = None
    cv: threading.Condition | None = None     # on the firmware's lock: this queue's thread waits on it
    idle: bool = False                        # its thread sleeps: no op, or its first op a WAIT not yet met
    busy: bool = False                        # its thread runs a RUN (from taking it to counting it done)
    wakeups: int = 0                          # times its thread was woken (a test hook)


class Firmware:
    """The vertex, fragment and compute firmware queues of one user queue.

    ``timeout_ms``: the watchdog budget of each RUN (GPU time, see ``watchdog.py``;
    0: none). A RUN that spends it is stopped and reported TIMEOUT, and the user
    queue becomes ``guilty``: every later command of it is KILLED without running
    (the kernel also refuses new submissions), as drm_sched does with the entity
    of a job that timed out. Other user queues are not affected.
    """

    def __init__(self, name: str, executor: GPUExecutor, gpu_lock: threading.Lock | None,
                 listeners: list[Callable[[FirmwareEvent], None]], timeout_ms: int = DEFAULT_TIMEOUT_MS):
        self.name = name
        self.timeout_ms = timeout_ms
        self.guilty = False
        self._idle_callbacks: list[Callable[[], None]] = []
        self._live_threads = 0
        self.executor = executor
        self.gpu_lock = None if getattr(executor, "concurrent", False) else gpu_lock
        self.listeners = listeners
        # one lock; each queue's thread sleeps on a condition of its own, so an event
        # wakes only the threads it concerns (new ops: that queue; a counter: the
        # queues waiting on one), and ``cv`` wakes the rest (drain, stop)
        lock = threading.RLock()
        self.cv = threading.Condition(lock)
        self.done = {"vertex": 0, "render": 0, "compute": 0}
        self.assigned = {"vertex": 0, "render": 0, "compute": 0}
        self.rings = {n: _Ring(n, cv=threading.Condition(lock)) for n in QUEUE_NAMES}
        self.in_flight: list[FirmwareJob] = []
        self._jobs = 0
        self._inlined_vertex = 0      # the number of the last vertex half given to the fragment thread
        self._stopping = False

    # ------------------------------------------------------------ planning
    def _wait(self, ring: _Ring, kind: str, base: int, boundary: int, job: FirmwareJob,
              own_completed: int | None) -> None:
        """Queue a wait on ``boundary`` of ``kind`` unless NONE or implied."""
        if boundary == NONE:
            return
        target = base + boundary
        if target <= ring.waited[kind] or (own_completed is not None and target <= own_completed):
            return
        ring.waited[kind] = target
        letter, suffix = ("R", "f") if kind == "render" else ("C", "")
        ring.ops.append(_Op("WAIT", f"{letter}{boundary}{suffix}", job, counter=kind, target=target))

    def submit(self, job: FirmwareJob) -> None:
        """Queue every command of ``job`` on the firmware queues (returns at once)."""
        vertex, fragment, compute = self.rings["Vertex"], self.rings["Fragment"], self.rings["Compute"]
        with self.cv:
            queued = {name: len(ring.ops) for name, ring in self.rings.items()}
            self._jobs += 1
            job.seq = self._jobs
            job.remaining = len(job.commands)
            self.in_flight.append(job)
            base_r, base_c = self.assigned["render"], self.assigned["compute"]
            for command in job.commands:
                if command.kind == "render":
                    before = len(vertex.ops)
                    self._wait(vertex, "render", base_r, command.vdm_barrier, job, None)
                    self._wait(vertex, "compute", base_c, command.cdm_barrier, job, None)
                    self.assigned["vertex"] += 1
                    self.assigned["render"] += 1
                    run_vertex = _Op("RUN", f"{command.name}v", job, half="vertex", command=command,
                                     bumps=("vertex",))
                    if not (before or vertex.busy or fragment.ops or fragment.busy):
                        # idle firmware: the fragment thread runs the vertex half first,
                        # after the vertex queue's waits for it (still the vertex queue's)
                        while vertex.ops:
                            wait = vertex.ops.popleft()
                            wait.queue = "Vertex"
                            fragment.ops.append(wait)
                        run_vertex.queue = "Vertex"
                        fragment.ops.append(run_vertex)
                        self._inlined_vertex = self.assigned["vertex"]
                    else:
                        if self.done["vertex"] < self._inlined_vertex:     # vertex halves in order
                            vertex.ops.append(_Op("WAIT", "", job, counter="vertex", target=self._inlined_vertex,
                                                  hidden=True))
                        vertex.ops.append(run_vertex)
                    fragment.ops.append(_Op("WAIT", f"{command.name}v", job, counter="vertex",
                                            target=self.assigned["vertex"]))
                    fragment.ops.append(_Op("RUN", f"{command.name}f", job, half="fragment", command=command,
                                            bumps=("render",)))
                elif command.kind == "blit":
                    own = self.assigned["render"]
                    self._wait(fragment, "render", base_r, command.vdm_barrier, job, own)
                    self._wait(fragment, "compute", base_c, command.cdm_barrier, job, None)
                    self.assigned["render"] += 1
                    fragment.ops.append(_Op("RUN", f"{command.name}f", job, half="blit", command=command,
                                            bumps=("render",)))
                else:
                    own = self.assigned["compute"]
                    self._wait(compute, "render", base_r, command.vdm_barrier, job, None)
                    self._wait(compute, "compute", base_c, command.cdm_barrier, job, own)
                    self.assigned["compute"] += 1
                    compute.ops.append(_Op("RUN", command.name, job, half="compute", command=command,
                                           bumps=("compute",)))
            self._start_threads()
            for name, ring in self.rings.items():   # wake a queue only for work it can start
                if ring.idle and len(ring.ops) != queued[name] and self._runnable(ring):
                    ring.cv.notify()

    # ----------------------------------------------------------- execution
    def _start_threads(self) -> None:
        for ring in self.rings.values():
            if ring.thread is None:
                ring.thread = threading.Thread(target=self._thread_main, args=(ring,), daemon=True,
                                               name=f"shimgl-fw-{self.name}-{ring.name}")
                self._live_threads += 1
                ring.thread.start()

    def _emit(self, ring: _Ring, op: _Op) -> None:
        if op.hidden:
            return
        event = FirmwareEvent(self.name, op.job.seq, op.queue or ring.name, op.op, op.what)
        for listener in list(self.listeners):
            listener(event)

    def _runnable(self, ring: _Ring) -> bool:
        """(Under the lock.) Whether the queue's first op can start: a RUN, or a WAIT met."""
        if not ring.ops:
            return False
        op = ring.ops[0]
        return op.op == "RUN" or self.done[op.counter] >= op.target

    def _thread_main(self, ring: _Ring) -> None:
        try:
            self._loop(ring)
        finally:
            with self.cv:
                self._live_threads -= 1
                callbacks = self._idle_callbacks if self._live_threads == 0 else []
                if callbacks:
                    self._idle_callbacks = []
            for callback in callbacks:
                callback()

    def _loop(self, ring: _Ring) -> None:
        """Run the queue's ops in order. The thread sleeps while its first op cannot
        start (none, or a WAIT whose counter is short) and is woken only when that
        changes: by ``submit`` for new work it can start, by the queue whose RUN
        meets its WAIT. WAITs already met are passed without sleeping (one wake-up
        per command half, none for the WAIT before it)."""
        ops, done, cv = ring.ops, self.done, ring.cv
        listeners = self.listeners
        while True:
            passed = []
            with cv:
                while True:
                    if ops:
                        op = ops[0]
                        if op.op == "RUN":
                            ops.popleft()
                            ring.busy = True
                            break
                        if done[op.counter] >= op.target:
                            passed.append(ops.popleft())
                            continue
                    elif self._stopping:
                        op = None
                        break
                    ring.idle = True
                    cv.wait()
                    ring.idle = False
                    ring.wakeups += 1
            if listeners:
                for wait in passed:
                    self._emit(ring, wait)
                if op is not None:
                    self._emit(ring, op)
            if op is None:
                return
            self._run(op)
            with self.cv:
                ring.busy = False
                for counter in op.bumps:
                    done[counter] += 1
                for other in self.rings.values():
                    if other.idle and other is not ring and self._runnable(other):
                        other.cv.notify()
            if op.half != "vertex":
                self._command_done(op.job, op.command)

    def _run(self, op: _Op) -> None:
        command = op.command
        if command.failed:  # the vertex half failed: the command stopped there
            return
        feedback = command.feedback
        if self.guilty:     # the queue was reset: later work is cancelled, not run
            command.failed = True
            feedback.status = uapi.DRM_ASAHI_STATUS_KILLED
            command.counters.add(cancelled=1)
            return
        half = op.half
        if half == "blit":
            run = getattr(self.executor, "run_blit", self.executor.run_fragment)
        else:
            run = getattr(self.executor, _ENTRY[half])
        stamp = _STAMP[half]
        start_ns = time.monotonic_ns()
        if half != "fragment":
            feedback.start_ns = start_ns
        if command.timestamp_targets:
            self._timestamp(command, f"{stamp}_start", start_ns)
        if self.gpu_lock is not None:
            with self.gpu_lock:   # waiting for the GPU spends no budget
                error, budget = run_budgeted(self.timeout_ms, run, command)
        else:
            error, budget = run_budgeted(self.timeout_ms, run, command)
        if isinstance(error, JobTimeout):
            command.failed = True
            feedback.status = uapi.DRM_ASAHI_STATUS_TIMEOUT
            self.guilty = True
            command.counters.add(timeouts=1)
            where = f"{budget.unit} at 0x{budget.address:x}" if budget.unit else "the shader core"
            print(f"shimgl firmware: {self.name} {op.what}: GPU timeout after {self.timeout_ms} ms of GPU time "
                  f"(stopped in {where}); the queue is guilty, its later work is cancelled", file=sys.stderr)
        elif isinstance(error, GPUFault):
            command.failed = True
            feedback.fault = error.info
            feedback.status = uapi.DRM_ASAHI_STATUS_FAULT
        elif error is not None:  # a broken executor must not kill the firmware
            command.failed = True
            feedback.status = uapi.DRM_ASAHI_STATUS_UNKNOWN_ERROR
            print(f"shimgl firmware: {self.name} {op.what} crashed:", file=sys.stderr)
            traceback.print_exception(error, file=sys.stderr)
        end_ns = time.monotonic_ns()
        if half == "vertex":
            feedback.vertex_start_ns, feedback.vertex_end_ns = start_ns, end_ns
        elif half in ("fragment", "blit"):
            feedback.fragment_start_ns, feedback.fragment_end_ns = start_ns, end_ns
        feedback.end_ns = end_ns
        if command.timestamp_targets:
            self._timestamp(command, f"{stamp}_end", end_ns)

    @staticmethod
    def _timestamp(command: FirmwareCommand, which: str, value_ns: int) -> None:
        target = command.timestamp_targets.get(which)
        if target is not None and command.physical is not None:
            command.physical[target:target + 8] = np.frombuffer(np.uint64(value_ns).tobytes(), np.uint8)

    def _command_done(self, job: FirmwareJob, command: FirmwareCommand) -> None:
        feedback = command.feedback
        if feedback.fault is None and command.faults:
            feedback.fault = command.faults[0]
            feedback.soft_fault = True
        if not command.failed:
            feedback.status = uapi.DRM_ASAHI_STATUS_COMPLETE
        faults = 1 if feedback.fault is not None else 0
        command.counters.add(commands=1, faults=faults, partial_renders=feedback.partial_renders)
        self._write_feedback(command)
        if command.failed and not job.error:
            job.error = STATUS_ERRNO.get(feedback.status, errno.ENODATA)
        with self.cv:
            job.remaining -= 1
            finished = job.remaining == 0
            if finished:
                self.in_flight.remove(job)
            self.cv.notify_all()
        if finished:
            job.on_complete(job.error)

    @staticmethod
    def _write_feedback(command: FirmwareCommand) -> None:
        if command.feedback_target is None or command.physical is None:
            return
        phys, size_B = command.feedback_target
        fb = command.feedback
        values = [0] * len(_FEEDBACK_NAMES)
        for at, value in zip(_FEEDBACK_AT, _FEEDBACK_GET(fb)):
            values[at] = value
        values[_INDEX_AT] = command.index
        if fb.fault is not None:
            values[_FAULT_ADDRESS_AT] = fb.fault.address
            values[_FAULT_UNIT_AT] = unit_number(fb.fault.unit)
            values[_FLAGS_AT] = (
                uapi.DRM_ASAHI_FEEDBACK_FAULT_VALID
                | (uapi.DRM_ASAHI_FEEDBACK_FAULT_IS_READ if fb.fault.is_read else 0)
                | (uapi.DRM_ASAHI_FEEDBACK_SOFT_FAULT if fb.soft_fault else 0))
        record = _FEEDBACK_RECORD.pack(*values)
        command.physical[phys:phys + size_B] = np.frombuffer(record, np.uint8, size_B)

    # ------------------------------------------------------------ lifetime
    def drain(self, timeout_s: float | None = None) -> bool:
        """Wait until every submitted job has completed."""
        with self.cv:
            return self.cv.wait_for(lambda: not self.in_flight, timeout_s)

    def _wake_all(self) -> None:
        """(Under the lock.) Every thread re-checks what it waits for."""
        for ring in self.rings.values():
            ring.cv.notify()
        self.cv.notify_all()

    def stop(self) -> None:
        """Drain, then end the firmware threads (waits for everything submitted)."""
        self.drain()
        with self.cv:
            self._stopping = True
            self._wake_all()
        for ring in self.rings.values():
            if ring.thread is not None and ring.thread is not threading.current_thread():
                ring.thread.join()

    def retire(self, timeout_s: float, on_idle: Callable[[], None]) -> bool:
        """End the queues without waiting on runaway work: wait up to ``timeout_s``
        for the submitted jobs to complete, then let the threads end once their
        queues are empty (work still running completes, or is stopped by its
        watchdog, in the background). ``on_idle`` runs once every thread has ended:
        now if they have, else from the last one. Returns whether all work completed."""
        deadline = time.monotonic() + timeout_s
        drained = self.drain(timeout_s)
        with self.cv:
            self._stopping = True
            self._wake_all()
            run_now = self._live_threads == 0
            if not run_now:
                self._idle_callbacks.append(on_idle)
        if run_now:
            on_idle()
        elif drained:   # idle threads end at once: let them, so on_idle has run on return
            for ring in self.rings.values():
                if ring.thread is not None and ring.thread is not threading.current_thread():
                    ring.thread.join(max(1.0, deadline - time.monotonic()))
        return drained


def unit_number(unit: str) -> int:
    """``enum drm_asahi_fault_unit`` value of a unit name ("USC", "TEX", ...); UNKNOWN if none."""
    base = unit.split("(")[0].strip().upper()       # "USC(local)" is the USC
    return uapi.drm.constants.get(f"DRM_ASAHI_UNIT_{base}", uapi.DRM_ASAHI_UNIT_UNKNOWN)
