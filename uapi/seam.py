"""The syscall seam between userspace and the kernel.

Sole responsibility: route ``open``/``ioctl``/``mmap``/``close`` on device paths to
the backend registered for that path, exactly as a real driver's syscalls reach a
real kernel. The driver calls only these four functions; it never imports a
backend. A backend (drmshim registers ``/dev/dri/renderD128``) is any object with
the methods of :class:`Backend`.

Backends are found the way Mesa's drm-shim is injected under an unmodified
driver: the first ``open`` of a path with no registered backend loads the
``shimgl.uapi_backends`` entry points, each of which registers itself.

``ioctl`` returns 0 or raises ``OSError`` with the errno the kernel would give.
"""

from __future__ import annotations

import builtins
import errno
import importlib
import os
import sys
import threading
from typing import Protocol

__all__ = ["Backend", "register_backend", "unregister_backend", "open", "ioctl", "mmap", "close"]


class Backend(Protocol):
    """What a kernel backend offers for one device path."""

    def open(self, path: str) -> object:
        """Return a new open-file object (one DRM file) for ``path``."""

    def ioctl(self, file: object, request: int, arg: object) -> int:
        """Handle one ioctl; return 0 or raise OSError(errno)."""

    def mmap(self, file: object, offset: int, length: int) -> memoryview:
        """Map ``length`` bytes at the fake file ``offset``; return shared memory."""

    def close(self, file: object) -> None:
        """Release the open file (after its in-flight work ends)."""


_lock = threading.Lock()
_backends: dict[str, Backend] = {}
_files: dict[int, tuple[Backend, object]] = {}
_entry_points_loaded = False
# Fake descriptors start high so they can never be confused with real ones.
_next_fd = 1 << 20


def register_backend(path: str, backend: Backend) -> None:
    """Make ``backend`` answer for device ``path`` (replacing any earlier one)."""
    with _lock:
        _backends[path] = backend


def unregister_backend(path: str) -> None:
    with _lock:
        _backends.pop(path, None)


def _dist_name(entry: str) -> str:
    """The normalised distribution name of a ``*.dist-info``/``*.egg-info`` folder."""
    return entry.rsplit(".", 1)[0].split("-", 1)[0].lower().replace("_", "-").replace(".", "-")


def entry_point_values(group: str) -> list[str]:
    """The ``module:attr`` values of entry-point ``group`` declared by the
    distributions on ``sys.path`` (their ``entry_points.txt``), the first
    distribution of a name winning, as ``importlib.metadata`` orders them; read
    directly because importing ``importlib.metadata`` (email, zipfile, csv...)
    costs ~25 ms of every process's start."""
    seen: set[str] = set()
    values: list[str] = []
    for base in sys.path:
        try:
            entries = sorted(os.listdir(base or "."))
        except OSError:
            continue
        for entry in entries:
            if not entry.endswith((".dist-info", ".egg-info")):
                continue
            name = _dist_name(entry)
            if name in seen:
                continue
            seen.add(name)
            try:
                with builtins.open(os.path.join(base or ".", entry, "entry_points.txt")) as f:
                    text = f.read()
            except OSError:
                continue
            section = None
            for line in text.splitlines():
                line = line.strip()
                if not line or line.startswith(("#", ";")):
                    continue
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1].strip()
                elif section == group and "=" in line:
                    values.append(line.split("=", 1)[1].strip())
    return values


def _load_entry_point_backends() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for value in entry_point_values("shimgl.uapi_backends"):
        module, _, attr = value.partition(":")
        target = importlib.import_module(module.strip())
        for part in attr.split()[0].split(".") if attr.strip() else ():
            target = getattr(target, part)
        target()


def open(path: str) -> int:  # noqa: A001 - the syscall's name
    """Open a device path; return a file descriptor. ENOENT if nothing answers."""
    global _next_fd
    if path not in _backends:
        _load_entry_point_backends()
    backend = _backends.get(path)
    if backend is None:
        raise OSError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    file = backend.open(path)
    with _lock:
        fd = _next_fd
        _next_fd += 1
        _files[fd] = (backend, file)
    return fd


def _lookup(fd: int) -> tuple[Backend, object]:
    try:
        return _files[fd]
    except (KeyError, TypeError):       # not open, or not even a descriptor
        raise OSError(errno.EBADF, os.strerror(errno.EBADF)) from None


def _integers(**values) -> None:
    """What the C prototypes guarantee a real syscall: integer arguments (EINVAL otherwise)."""
    for name, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise OSError(errno.EINVAL, f"{os.strerror(errno.EINVAL)} ({name} is not an integer)")


def ioctl(fd: int, request: int, arg: object) -> int:
    """Issue ``request`` with ``arg`` (a cffi struct pointer) on ``fd``."""
    backend, file = _lookup(fd)
    if type(request) is not int:        # (an int subclass or anything else: checked)
        _integers(request=request)
    return backend.ioctl(file, request & 0xFFFFFFFF, arg)


def mmap(fd: int, offset: int, length: int) -> memoryview:
    """Map ``length`` bytes of ``fd`` at ``offset``; writable, shared with the GPU."""
    backend, file = _lookup(fd)
    _integers(offset=offset, length=length)
    return backend.mmap(file, offset, length)


def close(fd: int) -> None:
    with _lock:
        backend, file = _lookup(fd)
        del _files[fd]
    backend.close(file)
