"""copy_from_user / copy_to_user for the seam's user pointers.

Sole responsibility: turn the u64 "user pointers" of ioctl structs (addresses of
cffi-owned memory in this process) into bytes and structs, and back. A NULL
pointer with a nonzero length is EFAULT, as in the kernel.
"""

from __future__ import annotations

import uapi

from .errors import errno, fail

__all__ = ["copy_from_user", "copy_to_user", "struct_from_bytes"]

ffi = uapi.ffi


def copy_from_user(address: int, size_B: int) -> bytes:
    if size_B == 0:
        return b""
    if address == 0:
        raise fail(errno.EFAULT, "NULL user pointer")
    return ffi.buffer(ffi.cast("char *", address), size_B)[:]


def copy_to_user(address: int, data: bytes) -> None:
    if not data:
        return
    if address == 0:
        raise fail(errno.EFAULT, "NULL user pointer")
    ffi.memmove(ffi.cast("char *", address), data, len(data))


def struct_from_bytes(ctype: str, data: bytes):
    """A new zeroed ``ctype`` with ``data`` copied over its first bytes (shorter is zero-extended)."""
    out = ffi.new(f"{ctype} *")
    n = min(len(data), ffi.sizeof(ctype))
    ffi.memmove(out, data[:n], n)
    return out
