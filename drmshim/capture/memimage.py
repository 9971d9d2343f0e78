"""GPU memory as a capture or a core dump holds it: mappings plus what was saved.

Sole responsibility: answer ``read(va, nbytes, unit)`` (the GPUMemory read, so
``uapi.packets.memory_reader`` works over it) from a list of VM mappings, the
contents of whole objects and loose VA ranges; raise :class:`NotCaptured` for
bytes that were not saved or not mapped. It never records faults, so the kernel
can also use it over a live VM (:func:`live_image`) without side effects.
:class:`RecordingMemory` remembers which ranges a reader touched: that is how a
capture finds the memory the commands reference.
"""

from __future__ import annotations

import bisect
from dataclasses import asdict, dataclass

import numpy as np

import layout

__all__ = ["MappingInfo", "MemoryImage", "NotCaptured", "RecordingMemory", "live_image", "merge_ranges",
           "PAGE_SIZE_B"]

PAGE_SIZE_B = layout.PAGE_B


class NotCaptured(ValueError):
    """The bytes asked for are unmapped, or mapped but not saved."""


@dataclass(frozen=True)
class MappingInfo:
    """``[va, va + size_B)`` maps object ``gem`` (a kernel-wide id) from ``gem_offset_B``."""

    va: int
    size_B: int
    gem: int
    gem_offset_B: int
    single_page: bool = False
    readable: bool = True
    writable: bool = True

    @property
    def end(self) -> int:
        return self.va + self.size_B

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "MappingInfo":
        """Forgiving: raises ValueError/TypeError/KeyError for a malformed entry (callers report it)."""
        def num(key):
            v = d[key]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"mapping {key} is {v!r}")
            return v
        return cls(num("va"), num("size_B"), num("gem"), num("gem_offset_B"), bool(d.get("single_page", False)),
                   bool(d.get("readable", True)), bool(d.get("writable", True)))

    def object_offset(self, va: int) -> int:
        """Offset in the object of ``va`` (inside this mapping)."""
        if self.single_page:
            return self.gem_offset_B + (va - self.va) % PAGE_SIZE_B
        return self.gem_offset_B + (va - self.va)

    def contiguous_until(self, va: int) -> int:
        """The end of the object-contiguous run that contains ``va``."""
        if self.single_page:
            return min(self.end, (va // PAGE_SIZE_B + 1) * PAGE_SIZE_B)
        return self.end


class MemoryImage:
    """Read-only GPU memory rebuilt from saved data.

    ``objects``: object id -> its bytes (whole objects); ``ranges``: (va, bytes)
    pieces saved by VA. Ranges win over objects where both cover a byte.
    """

    def __init__(self, mappings: list[MappingInfo], objects: dict | None = None,
                 ranges: list[tuple[int, bytes]] | None = None):
        self.mappings = sorted(mappings, key=lambda m: m.va)
        self._starts = [m.va for m in self.mappings]
        self.objects = objects or {}
        self.ranges = sorted(((int(va), data) for va, data in (ranges or []) if len(data)), key=lambda r: r[0])
        self._range_starts = [va for va, _ in self.ranges]

    def mapping_at(self, va: int) -> MappingInfo | None:
        i = bisect.bisect_right(self._starts, va) - 1
        if i >= 0 and va < self.mappings[i].end:
            return self.mappings[i]
        return None

    def _range_at(self, va: int) -> tuple[int, bytes] | None:
        i = bisect.bisect_right(self._range_starts, va) - 1
        if i >= 0 and va < self.ranges[i][0] + len(self.ranges[i][1]):
            return self.ranges[i]
        return None

    def _next_range_start(self, va: int) -> int | None:
        i = bisect.bisect_right(self._range_starts, va)
        return self._range_starts[i] if i < len(self._range_starts) else None

    def read_bytes(self, va: int, nbytes: int) -> bytes:
        if va < 0 or nbytes < 0 or va + nbytes > 1 << 64:
            raise NotCaptured(f"read of {nbytes} bytes at {va:#x}: outside the address space")
        out = bytearray()
        pos, end = va, va + nbytes
        while pos < end:
            r = self._range_at(pos)
            if r is not None:
                r_va, data = r
                take = min(end, r_va + len(data)) - pos
                out += data[pos - r_va:pos - r_va + take]
                pos += take
                continue
            m = self.mapping_at(pos)
            if m is None:
                raise NotCaptured(f"0x{pos:x} is not mapped")
            content = self.objects.get(m.gem)
            if content is None:
                raise NotCaptured(f"0x{pos:x} (object {m.gem}) was not captured")
            stop = min(end, m.contiguous_until(pos))
            nxt = self._next_range_start(pos)
            if nxt is not None:
                stop = min(stop, nxt)
            off = m.object_offset(pos)
            piece = bytes(content[off:off + (stop - pos)])
            if len(piece) != stop - pos:
                raise NotCaptured(f"0x{pos:x}: object {m.gem} content is shorter than its mapping")
            out += piece
            pos = stop
        return bytes(out)

    def read(self, va: int, nbytes: int, unit: str = "") -> np.ndarray:
        """The GPUMemory read: a uint8 array, or NotCaptured."""
        return np.frombuffer(self.read_bytes(int(va), int(nbytes)), dtype=np.uint8).copy()

    def readable(self, va: int, nbytes: int = 1) -> bool:
        try:
            self.read_bytes(va, nbytes)
            return True
        except NotCaptured:
            return False


class RecordingMemory:
    """Wraps a memory and remembers every ``[va, va + n)`` successfully read."""

    def __init__(self, memory):
        self.memory = memory
        self.reads: list[tuple[int, int]] = []

    def read(self, va: int, nbytes: int, unit: str = "") -> np.ndarray:
        data = self.memory.read(va, nbytes, unit)
        self.reads.append((int(va), int(nbytes)))
        return data

    def read_bytes(self, va: int, nbytes: int) -> bytes:
        read_bytes = getattr(self.memory, "read_bytes", None)
        data = read_bytes(va, nbytes) if read_bytes is not None else bytes(self.memory.read(va, nbytes, ""))
        self.reads.append((int(va), int(nbytes)))
        return data


def merge_ranges(ranges, align_B: int = 1) -> list[tuple[int, int]]:
    """Sorted, merged (va, size_B) ranges, each widened to ``align_B`` boundaries."""
    spans = sorted((va // align_B * align_B, -(-(va + n) // align_B) * align_B) for va, n in ranges if n > 0)
    out: list[list[int]] = []
    for start, end in spans:
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e - s) for s, e in out]


def live_image(vm) -> MemoryImage:
    """A live VM's memory (no copies: object contents are views of the arena)."""
    mappings, objects = [], {}
    for m in vm.mappings():
        mappings.append(MappingInfo(m.va, m.end - m.va, m.gem.id, m.gem_offset_B, m.single_page, m.readable,
                                    m.writable))
        objects[m.gem.id] = m.gem.bytes
    return MemoryImage(mappings, objects)
