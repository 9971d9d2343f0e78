"""The job watchdog: each command half has a time budget, as drm_sched's job timeout.

Sole responsibility: bound how long the GPU may spend on one firmware RUN (the
vertex half, the fragment half or the compute work of one command), and stop
it when the budget is spent. A stopped command is reported ``TIMEOUT`` by the
firmware queues, which also mark their user queue guilty (``queues.py``).

The budget is GPU time. Our GPU is software, so GPU time is the CPU time of the
firmware thread running the command (``time.thread_time``): a loaded host slows
the job down without spending its budget, and a job waiting for the GPU (behind
another queue's work) spends nothing. Default ``DEFAULT_TIMEOUT_MS``: 60 s, where
amdgpu's graphics job timeout is 10 s, because this GPU runs shaders some thousand
times slower than hardware: a real program's one-off precomputation (VTK's PBR
lookup table, 1,024 samples per pixel of a 512x512 target) takes 30 s of it and
was stopped at 10 s. ``SHIMGL_GPU_TIMEOUT_MS`` sets it when a kernel is created,
``0`` disables the watchdog.

Two ways of stopping, both cheap:

- cooperative: the GPU units call :func:`check_budget` at their natural steps (a
  control-stream block, a tile pass, a compute slice). It reads one thread-local
  and the thread's CPU clock, and raises :class:`JobTimeout` naming the unit and
  the address it had reached.
- preemptive, for work between such steps (a shader looping inside the shader
  core): one watchdog thread per process watches the armed budgets on their
  threads' CPU clocks and, once one is spent, raises :class:`JobTimeout` in that
  thread asynchronously (``PyThreadState_SetAsyncExc``). A budget is armed only
  while the executor runs: disarming takes the watchdog's lock and withdraws any
  exception not yet delivered, so it never lands in firmware code.
"""

from __future__ import annotations

import ctypes
import math
import os
import threading
import time

__all__ = ["DEFAULT_TIMEOUT_MS", "JobTimeout", "Budget", "timeout_from_env", "check_budget", "run_budgeted",
           "current_position"]

DEFAULT_TIMEOUT_MS = 60_000
#: With no budget armed, the watchdog thread looks again after this long before it
#: sleeps until one is: arming a budget wakes it only when the budget could be spent
#: before its next look, so a stream of short RUNs (a submission per tiny draw or
#: readback) does not wake it twice each. With budgets armed it sleeps until the
#: soonest could be spent (CPU time cannot outrun the wall clock): under the default
#: budget, about once a minute while work flows. (It looked every 50 ms: each look
#: takes the GIL from the thread doing the work, which under load then waits for a
#: CPU to get it back.)
_IDLE_S = 1.0


def timeout_from_env() -> int:
    """``SHIMGL_GPU_TIMEOUT_MS`` (ms of GPU time per command half; 0: no watchdog), else the default."""
    raw = os.environ.get("SHIMGL_GPU_TIMEOUT_MS", "").strip()
    if not raw:
        return DEFAULT_TIMEOUT_MS
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"SHIMGL_GPU_TIMEOUT_MS={raw!r}: expected milliseconds (0 disables the watchdog)") from None
    return max(0, value)


class JobTimeout(Exception):
    """The command spent its budget. No constructor arguments (an asynchronous
    exception is raised by class); where it stopped is in the :class:`Budget`."""


class Budget:
    """One RUN's allowance of CPU time on the thread that executes it."""

    def __init__(self, timeout_ms: int):
        self.thread_id = threading.get_ident()
        self.clock = time.pthread_getcpuclockid(self.thread_id)
        self.reset(timeout_ms)

    def reset(self, timeout_ms: int) -> None:
        """A fresh allowance from now, on the same thread (one Budget per firmware
        thread serves each of its RUNs in turn)."""
        self.timeout_ns = timeout_ms * 1_000_000
        self.start_ns = time.thread_time_ns()
        self.deadline_ns = self.start_ns + self.timeout_ns
        self.unit = ""          # where the work was when last checked
        self.address = 0
        self.expired = False
        self.armed = False
        self.checks = 0

    @property
    def enabled(self) -> bool:
        return self.timeout_ns > 0

    def used_ns(self) -> int:
        return time.clock_gettime_ns(self.clock) - self.start_ns

    def check(self, unit: str, address: int = 0) -> None:
        """Note where the work is; raise JobTimeout when the budget is spent. The
        clock (a system call) is read at every CHECK_CLOCK_EVERY-th check: units
        check at small steps (a control-stream block), and the watchdog thread
        stops work that runs on between them anyway."""
        self.unit, self.address = unit, address
        self.checks += 1
        if self.expired or ((self.checks - 1) % CHECK_CLOCK_EVERY == 0 and time.thread_time_ns() > self.deadline_ns):
            self.expired = True
            raise JobTimeout()


#: A cooperative check reads the thread's CPU clock once in this many (``Budget.check``).
CHECK_CLOCK_EVERY = 16

_local = threading.local()


def check_budget(unit: str, address: int = 0) -> None:
    """Raise JobTimeout when the command this thread runs has spent its budget
    (no-op outside a firmware RUN, e.g. in unit tests of the GPU model)."""
    budget = getattr(_local, "budget", None)
    if budget is not None:
        budget.check(unit, address)


def current_position() -> tuple[str, int] | None:
    """(unit, address) of the last budget check of the command this thread runs
    (None outside a firmware RUN): where the work had got to."""
    budget = getattr(_local, "budget", None)
    return None if budget is None else (budget.unit, budget.address)


class _Watchdog:
    """The process's watchdog thread over every armed budget."""

    def __init__(self):
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.budgets: set[Budget] = set()
        self.thread: threading.Thread | None = None
        self.wake_at = math.inf     # monotonic time of the thread's next look (inf: until notified)

    def arm(self, budget: Budget) -> None:
        with self.lock:
            budget.armed = True
            self.budgets.add(budget)
            if self.thread is None:
                self.thread = threading.Thread(target=self._loop, daemon=True, name="shimgl-gpu-watchdog")
                self.thread.start()
            # CPU time cannot run faster than the wall clock: a budget that cannot be
            # spent before the thread's next look needs no wake-up
            if time.monotonic() + budget.timeout_ns / 1e9 < self.wake_at:
                self.wake.notify()

    def disarm(self, budget: Budget) -> None:
        with self.lock:
            budget.armed = False
            self.budgets.discard(budget)
            if budget.expired:   # withdraw an exception raised but not yet delivered
                _set_async_exc(budget.thread_id, None)

    def _loop(self) -> None:
        with self.lock:
            idle = False
            while True:
                if not self.budgets:
                    if idle:            # none armed for a whole _IDLE_S: sleep until one is
                        self.wake_at = math.inf
                        self.wake.wait()
                        idle = False
                    else:
                        idle = True
                        self.wake_at = time.monotonic() + _IDLE_S
                        self.wake.wait(_IDLE_S)
                    continue
                idle = False
                soonest_s = math.inf
                for budget in list(self.budgets):
                    try:
                        left_ns = budget.deadline_ns - time.clock_gettime_ns(budget.clock)
                    except OSError:         # the thread is gone
                        self.budgets.discard(budget)
                        continue
                    if left_ns <= 0 and not budget.expired:
                        budget.expired = True
                        _set_async_exc(budget.thread_id, JobTimeout)
                    elif left_ns > 0:       # CPU time cannot run faster than the wall clock
                        soonest_s = min(soonest_s, left_ns / 1e9)
                if soonest_s == math.inf:   # every budget spent, its exception on the way
                    soonest_s = _IDLE_S
                wait_s = max(soonest_s, 0.001)
                self.wake_at = time.monotonic() + wait_s
                self.wake.wait(wait_s)


def _set_async_exc(thread_id: int, exc_type) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc_type) if exc_type is not None else None)


_watchdog = _Watchdog()


def run_budgeted(timeout_ms: int, work, *args) -> tuple[BaseException | None, Budget]:
    """Run ``work(*args)`` on this thread under a budget of ``timeout_ms`` (0: none).

    Returns (the exception ``work`` ended with, or None; the budget). A spent budget
    gives a JobTimeout, whichever way it was stopped (work that completed before
    the watchdog's exception was delivered counts as completed). Nothing escapes, and no
    asynchronous JobTimeout can arrive after this returns: disarming is retried
    until it completes without one being delivered on the way."""
    budget = getattr(_local, "spare", None)       # this thread's, from its last RUN
    if budget is None or budget.armed:
        budget = _local.spare = Budget(timeout_ms)
    else:
        budget.reset(timeout_ms)
    outcome: BaseException | None = None
    finished = False
    if budget.enabled:
        _local.budget = budget
        _watchdog.arm(budget)
    while True:
        try:
            if not finished:
                finished = True
                try:
                    work(*args)
                except JobTimeout:
                    raise
                except Exception as error:  # noqa: BLE001 - reported by the caller
                    outcome = error
            if budget.enabled:
                _local.budget = None
                _watchdog.disarm(budget)
            return outcome, budget
        except JobTimeout as timeout:
            budget.expired = True
            outcome = timeout
