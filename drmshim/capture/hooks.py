"""Where the kernel calls into capture: two calls in ``drmshim/kernel/kernel.py``.

Sole responsibility: the glue. ``install(kernel)`` (from ``Kernel.__init__``)
returns the kernel's :class:`KernelHooks` and, with ``SHIMGL_DEBUG=trace``,
routes the kernel's ``ioctl`` and ``mmap`` through the tracer.
``hooks.on_submit(file, arg, queue, job, copied)`` (from the SUBMIT ioctl, after
validation, before the job is queued, with the bytes SUBMIT copied)
captures the submission when ``SHIMGL_CAPTURE`` says so, and arranges for a core
dump when one of its commands faults. Nothing here may make a SUBMIT fail: an
error is logged and the submission goes on.
"""

from __future__ import annotations

import itertools
import sys
import threading
import traceback

from ..firmware import debug_enabled
from .capture import CaptureState
from .coredump import CoreDumper
from .snapshot import copy_submit
from .trace import traced, traced_mmap

__all__ = ["KernelHooks", "install"]


class KernelHooks:
    """One kernel's capture state, core dumper and submit counter."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.capture = CaptureState(kernel)
        self.dumper = CoreDumper(kernel)
        self.dumps_enabled = True
        self._seq = itertools.count()
        self._lock = threading.Lock()

    def on_submit(self, file, arg, queue, job, copied: tuple[bytes, bytes]) -> None:
        """``copied``: the sync array's and the command buffer's bytes SUBMIT copied."""
        try:
            self._on_submit(file, arg, queue, job, copied)
        except Exception:  # noqa: BLE001 - capture must never break SUBMIT
            print("shimgl capture: internal error (the submission goes on):", file=sys.stderr)
            traceback.print_exc()

    def _on_submit(self, file, arg, queue, job, user_bytes: tuple[bytes, bytes]) -> None:
        # (called before the job is queued: the queue's last done fence is the previous job's)
        with self._lock:
            seq = next(self._seq)
        wanted = self.capture.wanted()
        if wanted is not None:
            self.capture.capture(*wanted, file, queue, job, copy_submit(arg, *user_bytes), queue.last_done, seq)
        if self.dumps_enabled:
            # the job calls ``job_done`` when it completes with a faulted command (and only
            # then: a submission is decoded for its dump only); nothing is made per job here
            job.observer = (self, file, queue, arg, user_bytes, seq)

    def job_done(self, file, queue, job, arg, user_bytes: tuple[bytes, bytes], seq: int) -> None:
        """A job completed with a faulted command (before its fence signals): its core dump
        (``arg`` is SUBMIT's own copy of the struct, never reused)."""
        try:
            self.dumper.job_done(file, queue, job, lambda: copy_submit(arg, *user_bytes), seq)
        except Exception:  # noqa: BLE001 - a failed dump must not stop the signal
            traceback.print_exc()


def install(kernel) -> KernelHooks:
    """The hooks of a new kernel; with ``SHIMGL_DEBUG=trace`` its ioctls and mmaps are logged."""
    if debug_enabled("trace"):
        kernel.ioctl = traced(kernel.ioctl)
        kernel.mmap = traced_mmap(kernel.mmap)
    return KernelHooks(kernel)
