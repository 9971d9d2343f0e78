"""File descriptors for exported objects: dma-bufs, sync-object fds and sync files.

Sole responsibility: give PRIME exports, SYNCOBJ_HANDLE_TO_FD and sync-file
exports descriptors that behave like fds on the uapi seam. They are not OS fds:
each export opens the internal device path ``/dev/shimgl/export`` through the
seam, so the descriptor comes from the seam's own table, is unique in the
process, and is closed with ``uapi.close(fd)`` like any other. A dma-buf fd can
also be mapped with ``uapi.mmap(fd, 0, size)``. Other ioctls on them give ENOTTY.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import uapi

from .errors import errno, fail

__all__ = ["ExportedDmaBuf", "ExportedSyncobj", "ExportedSyncFile", "install", "lookup", "EXPORT_PATH"]

EXPORT_PATH = "/dev/shimgl/export"


@dataclass
class ExportedDmaBuf:
    gem: object  # GEMObject; the fd holds one reference

    def release(self) -> None:
        self.gem.put()


@dataclass
class ExportedSyncobj:
    syncobj: object

    def release(self) -> None:
        pass


@dataclass
class ExportedSyncFile:
    fence: object

    def release(self) -> None:
        pass


class _ExportBackend:
    """The seam backend answering for exported descriptors."""

    def __init__(self):
        self.lock = threading.Lock()
        self.pending = None
        self.by_fd: dict[int, object] = {}
        self.registered = False

    def open(self, path: str) -> object:
        obj, self.pending = self.pending, None
        if obj is None:
            raise fail(errno.ENOENT, "nothing is being exported")
        return obj

    def ioctl(self, file: object, request: int, arg: object) -> int:
        raise fail(errno.ENOTTY, "exported descriptors answer no ioctls")

    def mmap(self, file: object, offset: int, length: int) -> memoryview:
        if not isinstance(file, ExportedDmaBuf):
            raise fail(errno.ENODEV, "only dma-buf descriptors can be mapped")
        gem = file.gem
        if offset < 0 or length <= 0 or offset + length > gem.size_B:
            raise fail(errno.EINVAL, "mapping outside the buffer")
        return gem.arena.view(gem.phys + offset, length)

    def close(self, file: object) -> None:
        with self.lock:
            for fd, obj in list(self.by_fd.items()):
                if obj is file:
                    del self.by_fd[fd]
        file.release()


_backend = _ExportBackend()


def install(obj) -> int:
    """Give ``obj`` a descriptor on the seam; ``uapi.close(fd)`` releases it."""
    with _backend.lock:
        if not _backend.registered:
            uapi.register_backend(EXPORT_PATH, _backend)
            _backend.registered = True
        _backend.pending = obj
        fd = uapi.open(EXPORT_PATH)
        _backend.by_fd[fd] = obj
    return fd


def lookup(fd: int, kind: type, unknown_errno: int = errno.EINVAL):
    """The exported object behind ``fd`` if it is a ``kind``; ``unknown_errno`` when no
    descriptor is open there, EINVAL when it is another kind (as dma_buf_get/fget do)."""
    with _backend.lock:
        obj = _backend.by_fd.get(fd)
    if obj is None:
        raise fail(unknown_errno, "no such exported descriptor")
    if not isinstance(obj, kind):
        raise fail(errno.EINVAL, f"descriptor is not a {kind.__name__}")
    return obj
