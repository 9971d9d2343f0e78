"""The SYNCOBJ_* ioctls: the full DRM sync-object interface.

Sole responsibility: argument validation and the effect of CREATE, DESTROY,
HANDLE_TO_FD, FD_TO_HANDLE (incl. sync-file export/import), WAIT,
TIMELINE_WAIT, RESET, SIGNAL, TIMELINE_SIGNAL, QUERY and TRANSFER, with the
errnos of ``drm_syncobj.c``. Every handle is looked up before anything changes.
Waits drop the file lock while they block.
"""

from __future__ import annotations

import struct

import uapi

from . import fds
from .errors import check, errno, fail
from .syncobj import Fence, Syncobj, wait_many
from .usercopy import array_size, copy_from_user, copy_to_user

__all__ = ["SYNC_IOCTLS", "BLOCKING"]

ffi = uapi.ffi
WAIT_FLAGS = (uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT
              | uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE)
TIMELINE_WAIT_FLAGS = WAIT_FLAGS | uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE
TRANSFER_WAIT_S = 10.0  # how long TRANSFER with WAIT_FOR_SUBMIT waits for a fence, as the kernel


# The arrays are decoded from the copied bytes themselves. (A pointer cast from a
# temporary ``ffi.from_buffer`` does not keep the bytes alive: they could be freed and
# reused by another thread before being read, giving garbage handles.)
# The count is bounded (ENOMEM) before anything is allocated, and the memory checked (EFAULT).
def _u32s(address: int, count: int) -> list[int]:
    return list(struct.unpack(f"={count}I", copy_from_user(address, array_size(count, 4))))


def _u64s(address: int, count: int) -> list[int]:
    return list(struct.unpack(f"={count}Q", copy_from_user(address, array_size(count, 8))))


def _lookup_all(file, handles: list[int]) -> list[Syncobj]:
    return [file.syncobj(h) for h in handles]


def create(kernel, file, arg) -> None:
    check(not (arg.flags & ~uapi.DRM_SYNCOBJ_CREATE_SIGNALED), errno.EINVAL, "unknown SYNCOBJ_CREATE flags")
    arg.handle = file.syncobjs.add(Syncobj(kernel.sync, bool(arg.flags & uapi.DRM_SYNCOBJ_CREATE_SIGNALED)))


def destroy(kernel, file, arg) -> None:
    check(arg.pad == 0, errno.EINVAL, "pad must be zero")
    check(arg.handle in file.syncobjs.items, errno.EINVAL, f"no sync object {arg.handle}")
    del file.syncobjs.items[arg.handle]


def handle_to_fd(kernel, file, arg) -> None:
    check(arg.pad == 0, errno.EINVAL, "pad must be zero")
    check(not (arg.flags & ~uapi.DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE), errno.EINVAL,
          "unknown SYNCOBJ_HANDLE_TO_FD flags")
    syncobj = file.syncobjs.items.get(arg.handle)
    check(syncobj is not None, errno.EINVAL, f"no sync object {arg.handle}")
    if arg.flags & uapi.DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE:
        with kernel.sync.lock:
            fence = syncobj.fence_for(0)
        check(fence is not None, errno.EINVAL, "exporting a sync file from a sync object with no fence")
        arg.fd = fds.install(fds.ExportedSyncFile(fence))
    else:
        arg.fd = fds.install(fds.ExportedSyncobj(syncobj))


def fd_to_handle(kernel, file, arg) -> None:
    check(arg.pad == 0, errno.EINVAL, "pad must be zero")
    check(not (arg.flags & ~uapi.DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE), errno.EINVAL,
          "unknown SYNCOBJ_FD_TO_HANDLE flags")
    if arg.flags & uapi.DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE:
        exported = fds.lookup(arg.fd, fds.ExportedSyncFile)
        file.syncobj(arg.handle).replace(exported.fence)
    else:
        exported = fds.lookup(arg.fd, fds.ExportedSyncobj)
        check(exported.syncobj.state is kernel.sync, errno.EINVAL, "sync object of another device")
        arg.handle = file.syncobjs.add(exported.syncobj)


def _wait(kernel, file, arg, timeline: bool) -> None:
    allowed = TIMELINE_WAIT_FLAGS if timeline else WAIT_FLAGS
    check(not (arg.flags & ~allowed), errno.EINVAL, "unknown wait flags")
    check(arg.count_handles > 0, errno.EINVAL, "waiting on no sync objects")
    check(arg.pad == 0, errno.EINVAL, "pad must be zero")
    handles = _u32s(arg.handles, arg.count_handles)
    points = _u64s(arg.points, arg.count_handles) if timeline else [0] * arg.count_handles
    with file.lock:
        syncobjs = _lookup_all(file, handles)
    flags = arg.flags
    arg.first_signaled = wait_many(
        kernel.sync, list(zip(syncobjs, points)), arg.timeout_nsec,
        wait_all=bool(flags & uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL),
        for_submit=bool(flags & uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT),
        available=bool(flags & uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE))


def wait(kernel, file, arg) -> None:
    _wait(kernel, file, arg, timeline=False)


def timeline_wait(kernel, file, arg) -> None:
    _wait(kernel, file, arg, timeline=True)


def _array(file, arg) -> list[Syncobj]:
    check(arg.pad == 0, errno.EINVAL, "pad must be zero")
    check(arg.count_handles > 0, errno.EINVAL, "no sync objects")
    return _lookup_all(file, _u32s(arg.handles, arg.count_handles))


def reset(kernel, file, arg) -> None:
    for syncobj in _array(file, arg):
        syncobj.replace(None)


def signal(kernel, file, arg) -> None:
    for syncobj in _array(file, arg):
        syncobj.replace(Fence.stub(kernel.sync))


def timeline_signal(kernel, file, arg) -> None:
    check(arg.flags == 0, errno.EINVAL, "TIMELINE_SIGNAL flags must be zero")
    check(arg.count_handles > 0, errno.EINVAL, "no sync objects")
    syncobjs = _lookup_all(file, _u32s(arg.handles, arg.count_handles))
    points = _u64s(arg.points, arg.count_handles)
    for syncobj, point in zip(syncobjs, points):
        syncobj.add_point(point, Fence.stub(kernel.sync))


def query(kernel, file, arg) -> None:
    check(not (arg.flags & ~uapi.DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), errno.EINVAL, "unknown QUERY flags")
    check(arg.count_handles > 0, errno.EINVAL, "no sync objects")
    syncobjs = _lookup_all(file, _u32s(arg.handles, arg.count_handles))
    last = bool(arg.flags & uapi.DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
    with kernel.sync.lock:
        points = [s.query(last) for s in syncobjs]
    copy_to_user(arg.points, ffi.buffer(ffi.new("__u64[]", points))[:])


def transfer(kernel, file, arg) -> None:
    check(arg.pad == 0, errno.EINVAL, "pad must be zero")
    check(not (arg.flags & ~uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT), errno.EINVAL, "unknown TRANSFER flags")
    src, dst = file.syncobj(arg.src_handle), file.syncobj(arg.dst_handle)
    if arg.flags & uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT:
        try:
            wait_many(kernel.sync, [(src, arg.src_point)], kernel.now_ns() + int(TRANSFER_WAIT_S * 1e9),
                      wait_all=True, for_submit=True, available=True)
        except OSError as error:
            if error.errno == errno.ETIME:
                raise fail(errno.ETIME, "no fence appeared on the source point") from None
            raise
    with kernel.sync.lock:
        fence = src.fence_for(arg.src_point)
    check(fence is not None, errno.EINVAL, "the source point has no fence")
    if arg.dst_point:
        dst.add_point(arg.dst_point, fence)
    else:
        dst.replace(fence)


SYNC_IOCTLS = {
    "DRM_IOCTL_SYNCOBJ_CREATE": create,
    "DRM_IOCTL_SYNCOBJ_DESTROY": destroy,
    "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD": handle_to_fd,
    "DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE": fd_to_handle,
    "DRM_IOCTL_SYNCOBJ_WAIT": wait,
    "DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT": timeline_wait,
    "DRM_IOCTL_SYNCOBJ_RESET": reset,
    "DRM_IOCTL_SYNCOBJ_SIGNAL": signal,
    "DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL": timeline_signal,
    "DRM_IOCTL_SYNCOBJ_QUERY": query,
    "DRM_IOCTL_SYNCOBJ_TRANSFER": transfer,
}
# Ioctls that block: they take the file lock only for their lookups.
BLOCKING = {"DRM_IOCTL_SYNCOBJ_WAIT", "DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT", "DRM_IOCTL_SYNCOBJ_TRANSFER"}
