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

Register pressure (after Mesa's ``agx_pressure_schedule``): given the register
budget, a block whose peak pressure in that order passes the budget (it would
spill) is scheduled again bottom-up over the same DAG, each step taking the ready
instruction that adds the fewest live register halves (its operands that become
live, each shared among the instructions left that read it, minus its results
that die), ties to the one with fewer instructions above it
(the smaller computation ends nearer its use), then to the later one in the
original order;
the result replaces the order when its peak is lower.
"""

from __future__ import annotations

import heapq

from .mir import MFunction, linear_blocks

__all__ = ["schedule", "schedule_block", "schedule_block_pressure", "peak_pressure"]


def _is_async(ins) -> bool:
    info = ins.info
    return info is not None and info.is_async


def _fixed(ins) -> bool:
    """Instructions that keep their order relative to each other."""
    if ins.pseudo:
        return ins.op == "preload"
    return not ins.info.can_reorder


def _dag(instrs: list):
    n = len(instrs)
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
    return succs, preds


def schedule_block(instrs: list) -> list:
    n = len(instrs)
    if n < 3:
        return instrs
    succs, preds = _dag(instrs)
    prio = [0] * n          # 1: an async op or an instruction feeding one
    for k in range(n - 1, -1, -1):
        prio[k] = int(_is_async(instrs[k]) or any(prio[s] for s in succs[k]))
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


def peak_pressure(instrs: list, live_out: set) -> int:
    """The most register halves live at once in ``instrs`` (as the spiller counts:
    at each instruction, its results with what lives after it, or its operands with
    what lives before it)."""
    live = set(live_out)
    cur = sum(v.halves for v in live)         # halves of ``live``, kept as it changes
    peak = cur
    for ins in reversed(instrs):
        defs = set(ins.defs())
        peak = max(peak, cur + sum(v.halves for v in defs if v not in live))
        for v in defs:
            if v in live:
                live.remove(v)
                cur -= v.halves
        for v in set(ins.uses()):
            if v not in live:
                live.add(v)
                cur += v.halves
        peak = max(peak, cur)
    return peak


def schedule_block_pressure(instrs: list, live_out: set) -> list:
    """Bottom-up list scheduling for the lowest pressure (see the module notes)."""
    n = len(instrs)
    if n < 3:
        return instrs
    succs, preds = _dag(instrs)
    # Sethi-Ullman in spirit: of two equally good candidates, finish the smaller
    # computation first (bottom-up: the one with fewer instructions above it)
    above = [0] * n
    for k in range(n):
        for p in preds[k]:
            above[k] |= above[p] | (1 << p)
    size = [a.bit_count() for a in above]
    left = [len(s) for s in succs]
    # each instruction's distinct operands and results, once, in operand order: the
    # float sums below add in this order, so it must not depend on hashes (a set of
    # vregs iterates in memory-address order, and the rounding of the sums then
    # changed which instruction won a tie: the binary differed from run to run)
    uses = [tuple(dict.fromkeys(ins.uses())) for ins in instrs]
    defs = [tuple(dict.fromkeys(ins.defs())) for ins in instrs]
    readers: dict = {}                 # value -> instructions left that read it
    for vs in uses:
        for v in vs:
            readers[v] = readers.get(v, 0) + 1
    ready = [k for k in range(n) if not left[k]]
    live = set(live_out)
    order = []

    def cost(k):
        # a value read by several instructions becomes live for all of them: each
        # pays its share (else the first reader of a wide value always waits)
        born = sum(v.halves / readers[v] for v in uses[k] if v not in live)
        dies = sum(v.halves for v in defs[k] if v in live)
        return born - dies, size[k], -k
    while ready:
        k = min(ready, key=cost)
        ready.remove(k)
        for v in uses[k]:
            readers[v] -= 1
        live.difference_update(defs[k])
        live.update(uses[k])
        order.append(k)
        for p in preds[k]:
            left[p] -= 1
            if not left[p]:
                ready.append(p)
    assert len(order) == n, "dependency cycle in a block"
    return [instrs[k] for k in reversed(order)]


def schedule(func: MFunction, budget_halves: int | None = None) -> None:
    """Schedule every block; with ``budget_halves``, blocks that would pass it are
    scheduled for pressure instead when that lowers their peak."""
    for b in linear_blocks(func):
        b.instrs = schedule_block(b.instrs)
    if budget_halves is None:
        return
    from .ra import _term_uses, liveness
    cfg, blocks, _live_in, live_out = liveness(func)
    for b in blocks:
        out = set(live_out[b]) | set(_term_uses(cfg, b))
        peak = peak_pressure(b.instrs, out)
        if peak <= budget_halves:
            continue
        alt = schedule_block_pressure(b.instrs, out)
        if peak_pressure(alt, out) < peak:
            b.instrs = alt
