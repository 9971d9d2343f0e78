"""A virtual-address heap (Mesa's util_vma_heap, simplified).

Sole responsibility: hand out page-aligned GPU virtual address ranges from a
fixed span and take them back, coalescing neighbours. First fit from the
bottom. Units: bytes everywhere (``_B``)."""

from __future__ import annotations

import bisect

import layout

__all__ = ["VAHeap"]


class VAHeap:
    """Free ranges of [start_B, end_B) kept sorted by address."""

    def __init__(self, start_B: int, end_B: int, page_B: int = layout.PAGE_B):
        assert start_B % page_B == 0 and end_B % page_B == 0 and start_B < end_B, \
            f"heap [0x{start_B:x}, 0x{end_B:x}) must be page-aligned and non-empty"
        self.start_B, self.end_B, self.page_B = start_B, end_B, page_B
        self._starts: list[int] = [start_B]
        self._ends: list[int] = [end_B]

    @property
    def free_B(self) -> int:
        return sum(e - s for s, e in zip(self._starts, self._ends))

    def alloc(self, size_B: int, align_B: int | None = None) -> int:
        """A range of size_B (rounded up to pages) aligned to align_B; MemoryError when full."""
        align = max(align_B or self.page_B, self.page_B)
        size = -(-size_B // self.page_B) * self.page_B
        for i, (s, e) in enumerate(zip(self._starts, self._ends)):
            va = -(-s // align) * align
            if va + size > e:
                continue
            # split the free range [s, e) into [s, va) and [va + size, e)
            del self._starts[i], self._ends[i]
            if va + size < e:
                self._starts.insert(i, va + size)
                self._ends.insert(i, e)
            if s < va:
                self._starts.insert(i, s)
                self._ends.insert(i, va)
            return va
        raise MemoryError(f"VA heap [0x{self.start_B:x}, 0x{self.end_B:x}) has no {size} B range "
                          f"aligned to {align} B")

    def free(self, va: int, size_B: int) -> None:
        size = -(-size_B // self.page_B) * self.page_B
        end = va + size
        assert self.start_B <= va and end <= self.end_B, f"0x{va:x}+{size} is outside the heap"
        i = bisect.bisect_left(self._starts, va)
        assert (i == 0 or self._ends[i - 1] <= va) and (i == len(self._starts) or end <= self._starts[i]), \
            f"double free of 0x{va:x}"
        # merge with the previous and the next free range
        if i > 0 and self._ends[i - 1] == va:
            i -= 1
            va = self._starts[i]
            del self._starts[i], self._ends[i]
        if i < len(self._starts) and self._starts[i] == end:
            end = self._ends[i]
            del self._starts[i], self._ends[i]
        self._starts.insert(i, va)
        self._ends.insert(i, end)
