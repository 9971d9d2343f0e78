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
from .usc_words import read_words

__all__ = ["StreamError", "walk"]

MAX_BLOCKS = 1 << 20
MAX_DEPTH = 8


class StreamError(RuntimeError):
    """A control stream the unit cannot execute (unknown block, runaway, bad nesting)."""


def walk(memory, start_va: int, stream: "P.Stream", unit: str) -> Iterator[tuple[int, object]]:
    """(va, record) of each executed block, ending after the terminate block."""
    va, returns = start_va, []
    for _ in range(MAX_BLOCKS):
        check_budget(unit, va)
        w0 = int(read_words(memory, va, 1, unit)[0])
        kind = stream.identify(w0)
        if kind is None:
            raise StreamError(f"{unit}: unknown block 0x{w0:08x} at 0x{va:x}")
        if isinstance(kind, P.Group):
            n = kind.size_words_for(kind.header.unpack([w0]))
        else:
            n = kind.size_words
        rec = kind.unpack(read_words(memory, va, n, unit).tolist())
        yield va, rec
        name = rec.group.name if isinstance(rec, P.GroupRecord) else rec.name
        if name.endswith("_TERMINATE"):
            return
        if name.endswith("_STREAM_LINK"):
            if rec.with_return:
                if len(returns) >= MAX_DEPTH:
                    raise StreamError(f"{unit}: calls nested deeper than {MAX_DEPTH} at 0x{va:x}")
                returns.append(va + 4 * n)
            va = rec.target
            continue
        if name == "CDM_RETURN" or (name == "VDM_BARRIER" and rec.returns):
            if returns:
                va = returns.pop()
                continue
            if name == "CDM_RETURN":
                raise StreamError(f"{unit}: return with no caller at 0x{va:x}")
        va += 4 * n
    raise StreamError(f"{unit}: more than {MAX_BLOCKS} blocks from 0x{start_va:x}")
