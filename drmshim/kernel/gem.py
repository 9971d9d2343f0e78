"""GEM objects: page-aligned ranges of the physical arena with a reference count.

Sole responsibility: one buffer object's identity, size, placement and lifetime.
References are held by handles (in any file), VM mappings, bind objects (timestamp
buffers), exported PRIME fds and in-flight jobs; the pages go back to the arena
when the last reference is dropped. A CPU mapping (``mmap``) holds no reference,
unlike Linux: using a memoryview after its object is freed sees whatever reuses
those pages.
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from .arena import PAGE_SIZE_B, Arena

__all__ = ["GEMObject", "page_align"]

_ids = itertools.count(1)


def page_align(size_B: int) -> int:
    return (size_B + PAGE_SIZE_B - 1) // PAGE_SIZE_B * PAGE_SIZE_B


class GEMObject:
    """A buffer object. ``private_vm`` is the VM a VM-private object belongs to."""

    def __init__(self, arena: Arena, size_B: int, flags: int, private_vm=None):
        self.id = next(_ids)
        self.arena = arena
        self.size_B = size_B
        self.flags = flags
        self.private_vm = private_vm
        self.phys = arena.alloc(size_B)
        self._refs = 1
        self._lock = threading.Lock()
        #: GEM_USERPTR: the process's pages this object shares (``userptr.UserPages``)
        self.user_pages = None

    @property
    def mmap_offset(self) -> int:
        """The fake file offset userspace passes to ``mmap`` (its arena offset, as in drm-shim)."""
        return self.phys

    @property
    def bytes(self) -> np.ndarray:
        """The object's memory as a uint8 array shared with the GPU and with mmaps."""
        return self.arena.bytes[self.phys:self.phys + self.size_B]

    def get(self) -> "GEMObject":
        with self._lock:
            assert self._refs > 0, "GEM object used after its last reference was dropped"
            self._refs += 1
        return self

    def put(self) -> None:
        with self._lock:
            self._refs -= 1
            last = self._refs == 0
        if last:
            if self.user_pages is not None:     # the user range keeps the final bytes in its own pages
                self.user_pages.release()
            self.arena.free(self.phys, self.size_B)

    @property
    def alive(self) -> bool:
        return self._refs > 0

    def __repr__(self) -> str:
        return f"GEMObject(id={self.id}, size_B=0x{self.size_B:x}, phys=0x{self.phys:x})"
