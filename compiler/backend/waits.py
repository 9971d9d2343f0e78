"""Scoreboard ``wait`` insertion (Mesa's agx_insert_waits, simplified).

Asynchronous instructions (``is_async`` in the table: memory, stack, texture,
image and atomic ops) deliver their results later, tracked on a scoreboard slot.
Walking the linear program, the registers an async op writes are pending on its
slot; an instruction that reads or overwrites a pending register first gets a
``wait`` on that slot. Every slot is flushed before control flow (if/else/pop/
push/while, branches, loop heads) and before barriers, so no wait ever depends
on the path taken.
"""

from __future__ import annotations

from uapi.isa import Instruction, Reg, make

from .pack import Branch, Label

__all__ = ["insert_waits", "register_use"]


def register_use(ins: Instruction) -> tuple[set, set]:
    """(halves read, halves written) of general registers."""
    reads, writes = set(), set()
    for f in ins.op.fields:
        v = ins.values.get(f.name)
        if isinstance(v, Reg) and v.file == "r":
            (writes if f.name == "dst" else reads).update(v.halves)
    return reads, writes


def _flush_point(it) -> bool:
    if isinstance(it, (Label, Branch)):
        return True
    return it.op.unit in ("cf", "jmp") or it.op.schedule_class == "barrier" and it.op.name != "wait"


def insert_waits(items: list) -> tuple[list, int]:
    """Returns (items with waits, number of waits inserted)."""
    out, pending, count = [], {}, 0

    def wait(slots):
        nonlocal pending, count
        for s in sorted(slots):
            out.append(make("wait", slot=s))
            count += 1
        pending = {h: s for h, s in pending.items() if s not in slots}

    for it in items:
        if _flush_point(it):
            if pending:
                wait(set(pending.values()))
            out.append(it)
            continue
        reads, writes = register_use(it)
        hit = {pending[h] for h in reads | writes if h in pending}
        if hit:
            wait(hit)
        out.append(it)
        if it.op.is_async and "slot" in it.values:
            for h in writes:
                pending[h] = it["slot"]
    return out, count
