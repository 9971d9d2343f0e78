"""GEM objects over the process's own memory (GEM_USERPTR, i915's userptr).

Sole responsibility: make a range of the process's address space and a range of
the physical arena the same pages, and undo it. The arena is one private
mapping, so the two cannot share pages as they are; instead both ranges are
remapped (``mmap`` with ``MAP_FIXED``) onto one new memfd: first the arena's
range, then the user's bytes are copied into it, then the user's range. From
then on a CPU store to the user range is a store to the object (the GPU reads it
at its next access) and the other way round, as with pinned pages on a real
GPU. When the object's last reference goes, ``release`` gives the user range
fresh private pages holding the object's final bytes (when the range is still
this object's: a program that unmapped it meanwhile did what the extensions
call undefined, and gets nothing remapped) and the arena range fresh zero
pages, and closes the memfd.

The host page (4 KiB) is the granule of the user range; the object itself is
whole GPU pages (the arena's), its tail past the user range seen only by the GPU.
"""

from __future__ import annotations

import ctypes
import mmap
import os

from .errors import errno, fail
from .usercopy import check_user_range, mapped_from

__all__ = ["HOST_PAGE_B", "UserPages"]

HOST_PAGE_B = mmap.PAGESIZE

_libc = ctypes.CDLL(None, use_errno=True)
_mmap = _libc.mmap
_mmap.restype = ctypes.c_void_p
_mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
_MAP_FAILED = ctypes.c_void_p(-1).value
_RW = mmap.PROT_READ | mmap.PROT_WRITE


_MAP_FIXED = 0x10           # Linux's value (Python's mmap module does not name it)


def _map_fixed(address: int, size_B: int, flags: int, fd: int = -1, offset_B: int = 0) -> None:
    """mmap(address, ..., flags | MAP_FIXED): replace whatever is mapped there."""
    got = _mmap(address, size_B, _RW, flags | _MAP_FIXED, fd, offset_B)
    if got in (None, _MAP_FAILED) or got != address:
        err = ctypes.get_errno()
        raise fail(errno.ENOMEM, f"mmap of 0x{address:x}+{size_B} failed: {os.strerror(err)}")


class UserPages:
    """The user range ``[address, address + size_B)`` and the arena range at
    ``arena_address`` (``object_B`` >= ``size_B`` bytes) aliased onto one memfd."""

    def __init__(self, address: int, size_B: int, arena_address: int, object_B: int, name: str):
        if address % HOST_PAGE_B or size_B % HOST_PAGE_B or size_B <= 0:
            raise fail(errno.EINVAL, f"user range 0x{address:x}+{size_B} is not whole host pages")
        check_user_range(address, size_B, writing=True)
        self.address, self.size_B = address, size_B
        self.arena_address, self.object_B = arena_address, object_B
        self.name = name
        self.fd = os.memfd_create(name, os.MFD_CLOEXEC)
        try:
            os.ftruncate(self.fd, object_B)
            _map_fixed(arena_address, object_B, mmap.MAP_SHARED, self.fd)
            ctypes.memmove(arena_address, address, size_B)
            _map_fixed(address, size_B, mmap.MAP_SHARED, self.fd)
        except BaseException:
            self._restore_arena()
            os.close(self.fd)
            raise

    def _still_ours(self) -> bool:
        """Whether every page of the user range is still mapped from this memfd."""
        return mapped_from(self.address, self.size_B, f"/memfd:{self.name} ")

    def _restore_arena(self) -> None:
        _map_fixed(self.arena_address, self.object_B, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)

    def release(self) -> None:
        """The user range gets private pages with the object's bytes, the arena range
        fresh zero pages; the memfd is closed."""
        if self._still_ours():
            _map_fixed(self.address, self.size_B, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            ctypes.memmove(self.address, self.arena_address, self.size_B)
        self._restore_arena()
        os.close(self.fd)
