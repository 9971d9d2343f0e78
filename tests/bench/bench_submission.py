"""The kernel and firmware framework's cost per submission, without the GPU:
what every SUBMIT pays besides its job bodies (decoding and validating the
command buffer, the user copies, the queue hand-over, the firmware threads'
dispatch, completion, feedback, the fence signal and the SYNCOBJ_WAIT that sees
it), on a kernel whose executor runs nothing (``NullExecutor``).

Each submission is what the GL driver submits for a frame: a
SET_FRAGMENT_ATTACHMENTS record (the render target) and one render command (a
vertex and a fragment half) with a feedback record, and one out-sync, waited for
at once, as a glFinish after a frame does.

Rows (microseconds per submission, best of three runs): process CPU (every
thread), wall, and each thread's CPU with the time it was runnable but waited for
a CPU (the host's load) and the times it was scheduled, per submission (from
``/proc/self/task/*/schedstat``, Linux only; a sleeping thread's wake-up is one
switch, so the switches count the hand-offs). The submitting thread's wall time
is its CPU, its run-queue wait and its sleep: the time it waited for the
firmware threads.

``python -m tests.bench.bench_submission [--submissions N]``."""

from __future__ import annotations

import os
import sys
import threading
import time


def _thread_stats() -> dict[str, tuple[int, int, int]]:
    """Thread name -> (CPU ns, run-queue wait ns, times scheduled) of this process's threads."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    out = {}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/schedstat") as f:
                cpu_ns, wait_ns, slices = f.read().split()
        except (OSError, ValueError):
            continue
        out[names.get(int(task), task)] = (int(cpu_ns), int(wait_ns), int(slices))
    return out


def _role(name: str) -> str:
    for role in ("Vertex", "Fragment", "Compute", "sched", "watchdog"):
        if role in name:
            return role
    return "submitter" if name == threading.current_thread().name else name


def run(submissions: int = 2000) -> list[tuple[str, float, str]]:
    import uapi
    from drmshim.firmware import NullExecutor
    from tests.drmshim.kernel.helpers import Dev, attachments, private_device, ptr, render

    ffi = uapi.ffi
    kernel, path = private_device(gpu=NullExecutor())
    dev = Dev(path)
    try:
        queue = dev.queue(dev.vm())
        out = dev.syncobj()
        feedback = dev.gem()
        command = attachments(uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, [{"pointer": 1 << 32, "size": 1 << 20}]) \
            + render(feedback_handle=feedback, feedback_size=ffi.sizeof("struct drm_asahi_cmd_feedback"))
        cmdbuf = ffi.new("char[]", command)
        syncs = ffi.new("struct drm_asahi_sync[]", [{"sync_type": uapi.DRM_ASAHI_SYNC_SYNCOBJ, "handle": out}])
        submit = ffi.new("struct drm_asahi_submit *", dict(
            queue_id=queue, syncs=ptr(syncs), out_sync_count=1, cmdbuf=ptr(cmdbuf), cmdbuf_size=len(command)))
        handles = ffi.new("__u32[]", [out])
        wait = ffi.new("struct drm_syncobj_wait *", dict(
            handles=ptr(handles), count_handles=1, timeout_nsec=(1 << 63) - 1,
            flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL))
        best = None
        for _ in range(3):
            before, cpu0, wall0 = _thread_stats(), time.process_time(), time.perf_counter()
            for _ in range(submissions):
                uapi.ioctl(dev.fd, uapi.DRM_IOCTL_ASAHI_SUBMIT, submit)
                uapi.ioctl(dev.fd, uapi.DRM_IOCTL_SYNCOBJ_WAIT, wait)
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            after = _thread_stats()
            if best is None or cpu < best[0]:
                best = (cpu, wall, before, after)
    finally:
        dev.close()
        uapi.unregister_backend(path)
    cpu, wall, before, after = best
    per = 1e6 / submissions
    rows = [("submission framework: SUBMIT + SYNCOBJ_WAIT, no GPU (us CPU)", cpu * per,
             f"{submissions} submissions, wall {wall * per:.0f} us each")]
    for name, (cpu_ns, wait_ns, slices) in sorted(after.items()):
        cpu0_ns, wait0_ns, slices0 = before.get(name, (0, 0, 0))
        if cpu_ns - cpu0_ns > 1000 * submissions:        # threads with at least 1 us each
            rows.append((f"  thread {_role(name)} (us CPU)", (cpu_ns - cpu0_ns) / 1e3 / submissions,
                         f"waited {(wait_ns - wait0_ns) / 1e3 / submissions:.0f} us for a CPU, "
                         f"scheduled {(slices - slices0) / submissions:.1f} times"))
    return rows


def main(argv: list[str]) -> int:
    count = int(argv[argv.index("--submissions") + 1]) if "--submissions" in argv else 2000
    for what, value, note in run(count):
        print(f"{what:<66} {value:>10.1f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
