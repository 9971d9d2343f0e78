"""Strict control-stream walking for the GPU units (VDM and CDM).

Sole responsibility: yield the decoded blocks of a VDM or CDM stream in
execution order, following stream links, calls (``with_return``) and returns,
through the packet table's stream descriptions (``uapi.packets.VDM_STREAM`` /
``CDM_STREAM``). Unlike the decoder's forgiving walker, the hardware stops at the
first thing it cannot execute: a bad address is a GPUFault of the walking unit,
an unknown block or a stream longer than ``MAX_BLOCKS`` is a :class:`StreamError`.
Each block is one step of the job's watchdog budget (a stream that links to
itself is stopped as a GPU timeout well before that bound).
"""

from __future__ import annotations

from typing import Iterator

from uapi import packets as P

from ...firmware.watchdog import check_budget
from ...memory import GPUFault, malformed
from .usc_words import decoded

__all__ = ["StreamError", "walk"]

MAX_BLOCKS = 1 << 20
MAX_DEPTH = 8


class StreamError(GPUFault):
    """A control stream the unit cannot execute (unknown block, runaway, bad
    nesting): the walking unit's fault at the block's address."""

    def __init__(self, unit: str, va: int, reason: str):
        super().__init__(malformed(unit, va, reason).info)


#: Bytes of stream looked at in one piece (``_Reader``).
WINDOW_B = 512


class _Reader:
    """A stream's blocks as the unit reads them: from a window of the memory
    (``WINDOW_B`` bytes at a time, where the memory gives one: a range the unit may
    read whole, so no read in it could fault) or else block by block with GPU reads,
    which fault where the words do. The same bytes either way."""

    __slots__ = ("memory", "unit", "window", "base", "raw")

    def __init__(self, memory, unit: str):
        self.memory, self.unit = memory, unit
        self.window = getattr(memory, "window", None)
        self.base, self.raw = 0, b""

    def read(self, va: int, nbytes: int) -> bytes:
        at = va - self.base
        if 0 <= at and at + nbytes <= len(self.raw):
            return self.raw[at:at + nbytes]
        if self.window is not None:
            for size in (WINDOW_B, nbytes):
                seen = self.window(va, size, True)
                if seen is not None:
                    self.base, self.raw = va, seen.tobytes()
                    return self.raw[:nbytes]
        return self.memory.read(va, nbytes, self.unit).tobytes()


def walk(memory, start_va: int, stream: "P.Stream", unit: str) -> Iterator[tuple[int, object]]:
    """(va, record) of each executed block, ending after the terminate block."""
    va, returns = start_va, []
    reader = _Reader(memory, unit)
    for _ in range(MAX_BLOCKS):
        check_budget(unit, va)
        head = reader.read(va, 4)
        w0 = int.from_bytes(head, "little")
        kind = stream.identify(w0)
        if kind is None:
            raise StreamError(unit, va, f"unknown block 0x{w0:08x}")
        if isinstance(kind, P.Group):
            n = kind.size_words_for(decoded(kind.header, head))
        else:
            n = kind.size_words
        rec = decoded(kind, reader.read(va, 4 * n))
        yield va, rec
        name = rec.group.name if isinstance(rec, P.GroupRecord) else rec.name
        if name.endswith("_TERMINATE"):
            return
        if name.endswith("_STREAM_LINK"):
            if rec.with_return:
                if len(returns) >= MAX_DEPTH:
                    raise StreamError(unit, va, f"calls nested deeper than {MAX_DEPTH}")
                returns.append(va + 4 * n)
            va = rec.target
            continue
        if name == "CDM_RETURN" or (name == "VDM_BARRIER" and rec.returns):
            if returns:
                va = returns.pop()
                continue
            if name == "CDM_RETURN":
                raise StreamError(unit, va, "return with no caller")
        va += 4 * n
    raise StreamError(unit, start_va, f"more than {MAX_BLOCKS} blocks")
