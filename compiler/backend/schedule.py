"""Pre-RA list scheduling, per block.

A dependency DAG over the block's instructions: SSA edges (a use after its
definition) plus order edges between instructions the table marks as not
reorderable (memory, texture, varyings, fragment outputs, barriers keep their
relative order; loads are not moved across stores or barriers). The scheduler
repeatedly takes, among the ready instructions, one that is an asynchronous op
or feeds one (address arithmetic), else the first in the original order. The
effect: loads and texture fetches start as early as their operands allow, so
the ``wait`` for them lands as late as possible (waits.py), while everything
else keeps its order (AGX has no ALU latencies to hide, and reordering ALU work
would only raise register pressure).
"""

from __future__ import annotations

import heapq

from .mir import MFunction, linear_blocks

__all__ = ["schedule", "ASYNC_LATENCY"]

ASYNC_LATENCY = 8


def _latency(ins) -> int:
    info = ins.info
    return ASYNC_LATENCY if info is not None and info.is_async else 1


def _fixed(ins) -> bool:
    """Instructions that keep their order relative to each other."""
    if ins.pseudo:
        return ins.op == "preload"
    return not ins.info.can_reorder


def schedule_block(instrs: list) -> list:
    n = len(instrs)
    if n < 3:
        return instrs
    succs = [set() for _ in range(n)]
    preds = [set() for _ in range(n)]
    def_at = {}
    last_fixed = None
    for k, ins in enumerate(instrs):
        for v in ins.uses():
            j = def_at.get(v)
            if j is not None:
                succs[j].add(k)
                preds[k].add(j)
        for v in ins.defs():
            def_at[v] = k
        if _fixed(ins) or ins.op == "mov_imm" and not hasattr(ins.f.get("dst"), "id"):
            if last_fixed is not None:
                succs[last_fixed].add(k)
                preds[k].add(last_fixed)
            last_fixed = k
        if k and instrs[0].op == "preload":
            succs[0].add(k)
            preds[k].add(0)
    prio = [0] * n          # 1: an async op or an instruction feeding one
    for k in range(n - 1, -1, -1):
        prio[k] = int(_latency(instrs[k]) > 1 or any(prio[s] for s in succs[k]))
    waiting = [len(p) for p in preds]
    ready = [(-prio[k], k) for k in range(n) if not waiting[k]]
    heapq.heapify(ready)
    out = []
    while ready:
        _p, k = heapq.heappop(ready)
        out.append(instrs[k])
        for s in succs[k]:
            waiting[s] -= 1
            if not waiting[s]:
                heapq.heappush(ready, (-prio[s], s))
    assert len(out) == n, "dependency cycle in a block"
    return out


def schedule(func: MFunction) -> None:
    for b in linear_blocks(func):
        b.instrs = schedule_block(b.instrs)
