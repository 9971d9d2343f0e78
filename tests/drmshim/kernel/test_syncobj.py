"""DRM sync objects through the seam: binary and timeline, waits, sharing, sync files."""

from __future__ import annotations

import errno
import threading
import time

import pytest

import uapi

from .helpers import Dev

ALL = uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL
FOR_SUBMIT = uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT
AVAILABLE = uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE
LAST_SUBMITTED = uapi.DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED


def _wait_errno(dev, handles, **kw) -> int:
    with pytest.raises(OSError) as info:
        dev.wait(handles, **kw)
    return info.value.errno


def _signal(dev, handles):
    dev.ioctl("SYNCOBJ_SIGNAL", handles=dev.array("__u32", handles), count_handles=len(handles))


def _timeline_signal(dev, handles, points):
    dev.ioctl("SYNCOBJ_TIMELINE_SIGNAL", handles=dev.array("__u32", handles), points=dev.array("__u64", points),
              count_handles=len(handles))


def _query(dev, handles, flags=0) -> list[int]:
    points = uapi.ffi.new("__u64[]", len(handles))
    dev.ioctl("SYNCOBJ_QUERY", handles=dev.array("__u32", handles), points=uapi.ffi.cast("uintptr_t", points),
              count_handles=len(handles), flags=flags)
    return list(points)


def _later(seconds, action):
    thread = threading.Timer(seconds, action)
    thread.start()
    return thread


def test_create_signalled_or_not(dev):
    assert dev.signaled(dev.syncobj(signaled=True))
    assert _wait_errno(dev, [dev.syncobj()], timeout_s=0) == errno.EINVAL  # no fence at all
    assert dev.errno_of("SYNCOBJ_CREATE", flags=2) == errno.EINVAL


def test_wait_times_out_with_etime_on_time(dev):
    s = dev.syncobj()
    # Nothing will ever signal it: WAIT_FOR_SUBMIT on an empty sync object waits out the timeout.
    start = time.monotonic()
    assert _wait_errno(dev, [s], timeout_s=0.2, flags=FOR_SUBMIT) == errno.ETIME
    elapsed = time.monotonic() - start
    assert 0.2 <= elapsed < 2.0


def test_zero_or_past_timeout_polls(dev):
    s = dev.syncobj()
    args = dict(handles=dev.array("__u32", [s]), count_handles=1, flags=FOR_SUBMIT)
    assert dev.errno_of("SYNCOBJ_WAIT", timeout_nsec=0, **args) == errno.ETIME
    assert dev.errno_of("SYNCOBJ_WAIT", timeout_nsec=1, **args) == errno.ETIME


def test_wait_for_submit_waits_for_a_fence_to_appear(dev):
    s = dev.syncobj()
    timer = _later(0.05, lambda: _signal(dev, [s]))
    assert dev.wait([s], timeout_s=5, flags=FOR_SUBMIT) == 0
    timer.join()


def test_wait_any_reports_first_signaled_and_wait_all_needs_all(dev):
    a, b, c = dev.syncobj(), dev.syncobj(), dev.syncobj()
    _signal(dev, [b])
    assert dev.wait([a, b, c], timeout_s=0, flags=FOR_SUBMIT) == 1
    assert _wait_errno(dev, [a, b, c], timeout_s=0, flags=FOR_SUBMIT | ALL) == errno.ETIME
    timer = _later(0.05, lambda: _signal(dev, [a, c]))
    dev.wait([a, b, c], timeout_s=5, flags=FOR_SUBMIT | ALL)
    timer.join()


def test_reset_removes_the_fence(dev):
    s = dev.syncobj(signaled=True)
    dev.ioctl("SYNCOBJ_RESET", handles=dev.array("__u32", [s]), count_handles=1)
    assert _wait_errno(dev, [s], timeout_s=0) == errno.EINVAL


def test_array_errors_change_nothing(dev):
    s = dev.syncobj(signaled=True)
    handles = dev.array("__u32", [s, 999])
    assert dev.errno_of("SYNCOBJ_RESET", handles=handles, count_handles=2) == errno.ENOENT
    assert dev.signaled(s)  # the good handle was not reset
    assert dev.errno_of("SYNCOBJ_RESET", handles=handles, count_handles=0) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_SIGNAL", handles=handles, count_handles=1, pad=1) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_WAIT", handles=handles, count_handles=0, timeout_nsec=0) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_WAIT", handles=handles, count_handles=2, timeout_nsec=0) == errno.ENOENT
    assert dev.errno_of("SYNCOBJ_WAIT", handles=handles, count_handles=1, timeout_nsec=0,
                        flags=AVAILABLE) == errno.EINVAL  # AVAILABLE is for timeline waits only
    assert dev.errno_of("SYNCOBJ_WAIT", handles=handles, count_handles=1, timeout_nsec=0, flags=1 << 9) == errno.EINVAL


def test_destroy(dev):
    s = dev.syncobj()
    assert dev.errno_of("SYNCOBJ_DESTROY", handle=s, pad=1) == errno.EINVAL
    dev.ioctl("SYNCOBJ_DESTROY", handle=s)
    assert dev.errno_of("SYNCOBJ_DESTROY", handle=s) == errno.EINVAL
    assert _wait_errno(dev, [s], timeout_s=0) == errno.ENOENT


def test_timeline_signal_wait_and_query(dev):
    t = dev.syncobj()
    assert _query(dev, [t]) == [0]
    _timeline_signal(dev, [t], [3])
    assert _query(dev, [t]) == [3]
    assert dev.signaled(t, point=2)  # 2 <= 3: covered by link 3
    assert dev.signaled(t, point=3)
    # Point 5 has no fence yet: EINVAL without WAIT_FOR_SUBMIT, a wait with it.
    with pytest.raises(OSError) as info:
        dev.wait([t], points=[5], timeout_s=0)
    assert info.value.errno == errno.EINVAL
    timer = _later(0.05, lambda: _timeline_signal(dev, [t], [5]))
    dev.wait([t], points=[5], timeout_s=5, flags=FOR_SUBMIT)
    timer.join()
    assert _query(dev, [t]) == [5] and _query(dev, [t], LAST_SUBMITTED) == [5]


def test_timeline_point_waits_for_every_earlier_link(open_private):
    kernel, d = open_private()
    t = d.syncobj()
    syncobj = d.kernel_file().syncobjs.items[t]
    from drmshim.kernel import Fence
    pending = Fence(kernel.sync)
    syncobj.add_point(1, pending)  # an unsignalled job fence at point 1
    _timeline_signal(d, [t], [2])
    assert not d.signaled(t, point=2)  # link 2 is signalled but link 1 is not
    assert _query(d, [t]) == [0] and _query(d, [t], LAST_SUBMITTED) == [2]
    # WAIT_AVAILABLE only needs the point to exist.
    d.wait([t], points=[2], timeout_s=0, flags=AVAILABLE)
    pending.signal()
    assert d.signaled(t, point=2) and _query(d, [t]) == [2]


def test_timeline_errors(dev):
    t = dev.syncobj()
    args = dict(handles=dev.array("__u32", [t]), points=dev.array("__u64", [1]), count_handles=1)
    assert dev.errno_of("SYNCOBJ_TIMELINE_SIGNAL", flags=1, **args) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_QUERY", flags=2, **args) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_QUERY", handles=dev.array("__u32", [999]), points=args["points"],
                        count_handles=1) == errno.ENOENT


def test_transfer_between_binary_and_timeline(dev):
    binary, timeline = dev.syncobj(signaled=True), dev.syncobj()
    dev.ioctl("SYNCOBJ_TRANSFER", src_handle=binary, dst_handle=timeline, src_point=0, dst_point=7)
    assert _query(dev, [timeline]) == [7]
    other = dev.syncobj()
    dev.ioctl("SYNCOBJ_TRANSFER", src_handle=timeline, dst_handle=other, src_point=7, dst_point=0)
    assert dev.signaled(other)
    empty = dev.syncobj()
    assert dev.errno_of("SYNCOBJ_TRANSFER", src_handle=empty, dst_handle=other) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_TRANSFER", src_handle=999, dst_handle=other) == errno.ENOENT
    assert dev.errno_of("SYNCOBJ_TRANSFER", src_handle=binary, dst_handle=other, pad=1) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_TRANSFER", src_handle=binary, dst_handle=other, flags=1 << 5) == errno.EINVAL


def test_handle_to_fd_shares_the_sync_object(dev):
    other = Dev()
    try:
        s = dev.syncobj()
        fd = dev.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=s).fd
        imported = other.ioctl("SYNCOBJ_FD_TO_HANDLE", fd=fd).handle
        uapi.close(fd)
        _signal(dev, [s])
        assert other.signaled(imported)
        other.ioctl("SYNCOBJ_RESET", handles=other.array("__u32", [imported]), count_handles=1)
        assert _wait_errno(dev, [s], timeout_s=0) == errno.EINVAL  # same object: reset for both
    finally:
        other.close()


def test_sync_file_export_is_a_snapshot_and_imports(dev):
    EXPORT = uapi.DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE
    IMPORT = uapi.DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE
    s = dev.syncobj(signaled=True)
    fd = dev.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=s, flags=EXPORT).fd
    dev.ioctl("SYNCOBJ_RESET", handles=dev.array("__u32", [s]), count_handles=1)  # does not touch the file
    target = dev.syncobj()
    dev.ioctl("SYNCOBJ_FD_TO_HANDLE", handle=target, fd=fd, flags=IMPORT)
    assert dev.signaled(target)
    uapi.close(fd)
    assert dev.errno_of("SYNCOBJ_HANDLE_TO_FD", handle=s, flags=EXPORT) == errno.EINVAL  # no fence
    assert dev.errno_of("SYNCOBJ_HANDLE_TO_FD", handle=999) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_HANDLE_TO_FD", handle=s, flags=2) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_HANDLE_TO_FD", handle=s, pad=1) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_FD_TO_HANDLE", fd=424242) == errno.EINVAL
    assert dev.errno_of("SYNCOBJ_FD_TO_HANDLE", handle=target, fd=fd, flags=IMPORT) == errno.EINVAL  # closed
    live = dev.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=target, flags=EXPORT).fd
    assert dev.errno_of("SYNCOBJ_FD_TO_HANDLE", handle=999, fd=live, flags=IMPORT) == errno.ENOENT
    uapi.close(live)


def test_exported_fds_are_seam_descriptors(dev):
    s = dev.syncobj()
    fd1 = dev.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=s).fd
    fd2 = dev.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=s).fd
    assert fd1 != fd2 and fd1 >= 0
    uapi.close(fd1)
    with pytest.raises(OSError) as info:
        uapi.close(fd1)
    assert info.value.errno == errno.EBADF
    with pytest.raises(OSError) as info:
        uapi.ioctl(fd2, uapi.DRM_IOCTL_SYNCOBJ_CREATE, uapi.ffi.new("struct drm_syncobj_create *"))
    assert info.value.errno == errno.ENOTTY
    uapi.close(fd2)


def test_int64_max_timeout_means_forever(dev):
    s = dev.syncobj()
    timer = _later(0.05, lambda: _signal(dev, [s]))
    dev.ioctl("SYNCOBJ_WAIT", handles=dev.array("__u32", [s]), count_handles=1, timeout_nsec=(1 << 63) - 1,
              flags=FOR_SUBMIT)
    timer.join()


def test_wait_deadline_is_accepted_as_a_hint(dev):
    s = dev.syncobj(signaled=True)
    dev.ioctl("SYNCOBJ_WAIT", handles=dev.array("__u32", [s]), count_handles=1, timeout_nsec=0,
              flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE, deadline_nsec=time.monotonic_ns())


def test_handle_arrays_are_read_intact_while_other_threads_allocate(dev):
    """WAIT, TIMELINE_WAIT and QUERY read their handle (and point) arrays as they are, even
    when other threads allocate and free small objects all the time (the kernel must not
    read the copied array through a pointer into an object already freed)."""
    import sys

    handles = [dev.syncobj(signaled=True) for _ in range(4)]
    stop = threading.Event()
    errors = []

    def churn():
        junk = []
        while not stop.is_set():
            junk = [bytes([0xA5]) * (4 + i % 5) for i in range(64)] + [junk[:1]]

    def waiter(h):
        try:
            for _ in range(1500):
                dev.wait([h])
                dev.wait([h], points=[0])
                assert _query(dev, [h]) == [0]
        except Exception as e:             # noqa: BLE001 - reported below
            errors.append(e)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)            # switch threads as often as possible
    try:
        churners = [threading.Thread(target=churn) for _ in range(2)]
        waiters = [threading.Thread(target=waiter, args=(h,)) for h in handles]
        for t in churners + waiters:
            t.start()
        for t in waiters:
            t.join()
    finally:
        stop.set()
        for t in churners:
            t.join()
        sys.setswitchinterval(interval)
    assert not errors, errors[:3]
