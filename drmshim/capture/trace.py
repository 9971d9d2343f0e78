"""``SHIMGL_DEBUG=trace``: log every ioctl (and mmap), like Mesa's wrap library.

Sole responsibility: wrap a kernel's ``ioctl`` (and ``mmap``) so each call logs one line on
stderr: the file, the ioctl's name (decoded from the request number through
``uapi.drm``'s table), the struct's fields as passed in, then the result: ``= 0``
and the fields the kernel changed, or ``= -ERRNO (message)``. Formatting never
raises: an argument that is not a struct is shown by its repr.
"""

from __future__ import annotations

import errno
import sys
from typing import Callable

import uapi

from .streams import struct_items

__all__ = ["traced", "traced_mmap", "describe_request", "format_fields"]

ffi = uapi.ffi


def describe_request(request: int) -> str:
    """``DRM_IOCTL_ASAHI_SUBMIT`` for a known request number, else ``ioctl 0x...``."""
    spec = uapi.drm.BY_NR.get(uapi.drm.ioc_nr(request))
    if spec is None or (request >> 8) & 0xFF != uapi.drm.ioctls.DRM_IOCTL_BASE:
        return f"ioctl 0x{request:x}"
    name = spec.name.removeprefix("DRM_IOCTL_")
    size = uapi.drm.ioc_size(request)
    if size != ffi.sizeof(spec.struct):
        name += f"[{size} B]"
    return name


def _fields(arg) -> dict | None:
    try:
        if ffi.typeof(arg).kind != "pointer" or ffi.typeof(arg).item.kind != "struct":
            return None
        return dict(struct_items(arg))
    except (TypeError, AttributeError, ffi.error):
        return None


def format_fields(values: dict) -> str:
    def fmt(name, v):
        if isinstance(v, int) and (v > 0xFFFF or name.endswith(("ptr", "pointer", "syncs", "cmdbuf", "handles",
                                                                  "points", "addr", "offset"))):
            return f"{name}=0x{v:x}"
        if isinstance(v, list):
            return f"{name}=[{', '.join(str(x) for x in v[:8])}{', ...' if len(v) > 8 else ''}]"
        return f"{name}={v}"
    return ", ".join(fmt(k, v) for k, v in values.items())


def _emitter(log: Callable[[str], None] | None) -> Callable[[str], None]:
    def emit(line: str) -> None:
        if log is not None:
            log(line)
        else:
            print(line, file=sys.stderr, flush=True)
    return emit


def traced_mmap(mmap: Callable, log: Callable[[str], None] | None = None) -> Callable:
    """``mmap(file, offset, length)`` that logs each call."""
    emit = _emitter(log)

    def wrapper(file, offset, length):
        where = getattr(file, "name", "?")
        try:
            view = mmap(file, offset, length)
        except OSError as e:
            emit(f"shimgl trace: {where} mmap(offset=0x{offset:x}, length={length}) = "
                 f"-{errno.errorcode.get(e.errno, str(e.errno))} ({e.strerror})")
            raise
        emit(f"shimgl trace: {where} mmap(offset=0x{offset:x}, length={length}) = {len(view)} bytes")
        return view

    wrapper.__wrapped__ = mmap
    return wrapper


def traced(ioctl: Callable, log: Callable[[str], None] | None = None) -> Callable:
    """``ioctl(file, request, arg)`` that logs each call (to stderr unless ``log``)."""
    emit = _emitter(log)

    def wrapper(file, request, arg):
        name = describe_request(request)
        before = _fields(arg)
        where = getattr(file, "name", "?")
        args = format_fields(before) if before is not None else repr(arg)
        try:
            result = ioctl(file, request, arg)
        except OSError as e:
            code = errno.errorcode.get(e.errno, str(e.errno))
            emit(f"shimgl trace: {where} {name}({args}) = -{code} ({e.strerror})")
            raise
        after = _fields(arg)
        changed = {k: v for k, v in (after or {}).items() if before is None or before.get(k) != v}
        emit(f"shimgl trace: {where} {name}({args}) = {result}" + (f" -> {format_fields(changed)}" if changed else ""))
        return result

    wrapper.__wrapped__ = ioctl
    return wrapper
