"""Physical memory: one large anonymous mapping that GEM objects are carved from.

Sole responsibility: own the "RAM" the GPU and the CPU share, and hand out
page-aligned ranges of it. Like drm-shim's 4 GiB memfd, the mapping is
reserved, not committed: the OS commits pages on first touch, and a freed
range is returned to the OS (``MADV_DONTNEED``), so it reads as zero when
allocated again. ``bytes`` is a numpy uint8 view of the whole arena; a
memoryview of a range (what ``mmap`` returns) shares memory with it.
"""

from __future__ import annotations

import bisect
import mmap
import threading

import numpy as np

import layout

from .errors import errno, fail

__all__ = ["Arena", "PAGE_SIZE_B"]

PAGE_SIZE_B = layout.PAGE_B


class Arena:
    """Physical pages: first-fit allocation of page-aligned ranges."""

    def __init__(self, size_B: int = 4 << 30):
        if size_B % PAGE_SIZE_B:
            raise ValueError(f"arena size must be a multiple of the {PAGE_SIZE_B}-byte page")
        self.size_B = size_B
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0)
        self._map = mmap.mmap(-1, size_B, flags=flags, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        self.bytes = np.frombuffer(self._map, dtype=np.uint8)
        self._view = memoryview(self._map)
        self._lock = threading.Lock()
        # Free ranges as parallel sorted lists of starts and sizes.
        self._free_starts: list[int] = [0]
        self._free_sizes: list[int] = [size_B]
        self.used_B = 0

    def alloc(self, size_B: int) -> int:
        """Reserve ``size_B`` (a page multiple) bytes of zeroed memory; return the offset."""
        assert size_B > 0 and size_B % PAGE_SIZE_B == 0, "allocations are whole pages"
        with self._lock:
            for i, free in enumerate(self._free_sizes):
                if free >= size_B:
                    start = self._free_starts[i]
                    if free == size_B:
                        del self._free_starts[i], self._free_sizes[i]
                    else:
                        self._free_starts[i] += size_B
                        self._free_sizes[i] -= size_B
                    self.used_B += size_B
                    return start
        raise fail(errno.ENOMEM, "GPU memory arena exhausted")

    def free(self, start: int, size_B: int) -> None:
        """Return a range; its pages go back to the OS and read as zero next time."""
        self._map.madvise(mmap.MADV_DONTNEED, start, size_B)
        with self._lock:
            i = bisect.bisect_left(self._free_starts, start)
            self._free_starts.insert(i, start)
            self._free_sizes.insert(i, size_B)
            # Coalesce with the next and the previous free range.
            if i + 1 < len(self._free_starts) and start + size_B == self._free_starts[i + 1]:
                self._free_sizes[i] += self._free_sizes.pop(i + 1)
                self._free_starts.pop(i + 1)
            if i > 0 and self._free_starts[i - 1] + self._free_sizes[i - 1] == start:
                self._free_sizes[i - 1] += self._free_sizes.pop(i)
                self._free_starts.pop(i)
            self.used_B -= size_B

    @property
    def address(self) -> int:
        """The arena's address in this process (GEM_USERPTR remaps ranges of it)."""
        return self.bytes.ctypes.data

    def view(self, start: int, size_B: int) -> memoryview:
        """A writable memoryview of ``[start, start + size_B)`` sharing the arena's memory."""
        return self._view[start:start + size_B]
