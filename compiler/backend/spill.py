"""Spilling: move a value to the stack for its whole life ("spill everywhere").

After its definition the value is stored (``stack_store``) to its own slot; each
use reads it back (``stack_load``) into a fresh short-lived vreg just before the
instruction (at the end of the predecessor block for a phi source, before the
branch for an if condition). Values made by ``mov_imm`` or ``get_sr`` are
rematerialised instead: the defining instruction is repeated before each use
(Mesa's agx_spill does the same for these). A spilled phi becomes a *memory
phi* (Braun & Hack): no register at all, each predecessor stores its source to
the slot at its end (lowered after allocation, ``lower_memory_phis``). The
register allocator picks what to spill (ra.py); this module only rewrites.

Stack offsets that do not fit an 8-bit immediate go through r0h (the unused
half of the nesting-counter register); memory-phi moves use r1.
"""

from __future__ import annotations

from uapi.isa import Imm, Reg

from .abi import TEMP_REG, BackendError
from .mir import Const, MemPhi, MFunction, MInstr, Ref, VReg, mcfg, walk_mblocks

__all__ = ["spill_value", "REMAT_OPS", "stack_offset_operand", "lower_memory_phis"]

REMAT_OPS = ("mov_imm", "get_sr")
OFFSET_TEMP = Reg("r", 1, 16)   # r0h


def stack_offset_operand(offset_B: int, out: list):
    """An operand for a stack offset: an immediate when it fits 8 bits, else r0h
    loaded by a ``mov_imm`` appended to ``out``."""
    if offset_B < 256:
        return Imm(offset_B)
    if offset_B >= 1 << 16:
        raise BackendError(f"stack offset {offset_B} B per lane is too large")
    out.append(MInstr("mov_imm", {"dst": OFFSET_TEMP, "imm": offset_B}))
    return OFFSET_TEMP


def _find_def(func: MFunction, v: VReg):
    for b in walk_mblocks(func.body):
        for p in b.phis:
            if p.dst is v:
                return b, None, p
        for k, ins in enumerate(b.instrs):
            if (v in ins.dsts) if ins.pseudo else (ins.f.get("dst") is v):
                return b, k, ins
    raise AssertionError(f"no definition of {v}")


def _reload(v: VReg, operand, func: MFunction, out: list):
    """Instructions (appended to ``out``) giving ``operand`` (a Ref or the vreg
    itself) of spilled ``v`` in a fresh vreg; returns the new operand."""
    kind, what = func.spilled[v]
    if kind == "remat":
        nv = VReg(v.size, v.count, v.align)
        out.append(MInstr(what.op, {**what.f, "dst": nv}))
        new = Ref(nv, operand.off, operand.size) if isinstance(operand, Ref) else nv
        source = ("remat", what)
    elif isinstance(operand, VReg):
        nv = VReg(v.size, v.count, v.align)
        out.append(MInstr("stack_load", {"dst": nv, "offset": stack_offset_operand(what, out)}))
        func.fills += 1
        new, source = nv, ("slot", what)
    else:
        nv = VReg(32, 2) if operand.size == 64 else VReg(operand.size, 1)
        out.append(MInstr("stack_load", {"dst": nv, "offset": stack_offset_operand(what + 2 * operand.off, out)}))
        func.fills += 1
        new, source = Ref(nv, 0, operand.size), ("slot", what + 2 * operand.off)
    nv.spillable = False
    func.reloads[nv] = (out[-1], source)
    return new


def _reload_operands(func: MFunction, v: VReg, ins: MInstr, out: list) -> None:
    """Point ``ins``'s operands of ``v`` at reloads appended to ``out`` (one per view of ``v``)."""
    cache = {}

    def repl(x):
        if (isinstance(x, Ref) and x.vreg is v) or x is v:
            key = (x.off, x.size) if isinstance(x, Ref) else "all"
            if key not in cache:
                cache[key] = _reload(v, x, func, out)
            return cache[key]
        return x
    ins.map_uses(repl)


def _slot(func: MFunction, v: VReg) -> int:
    slot = func.stack_base_B + func.spill_B
    func.spill_B += (v.halves * 2 + 3) // 4 * 4
    return slot


def spill_value(func: MFunction, v: VReg, users: dict | None = None) -> None:
    """Rewrite ``func`` so that ``v`` lives on the stack (or is rematerialised).
    ``users``, when the caller knows them: {block: the instructions reading ``v``, in
    order}, so that only those are visited (the same rewrite)."""
    assert v not in func.spilled, f"{v} spilled twice"
    block, k, d = _find_def(func, v)
    store: list = []
    if k is None:                                # a phi: make it a memory phi
        if v.size == 64:
            raise BackendError("cannot spill a 64-bit phi")
        slot = _slot(func, v)
        func.spilled[v] = ("slot", slot)
        block.phis.remove(d)
        srcs = dict(d.srcs)
        for pred, x in srcs.items():     # sources reloaded only for this phi: read them from memory
            if isinstance(x, Ref) and x.vreg in func.reloads and x.off == 0 and x.size == x.vreg.size:
                ins, source = func.reloads[x.vreg]
                if sum(x.vreg in i.uses() for i in pred.instrs) == 0 and ins in pred.instrs:
                    pred.instrs.remove(ins)
                    func.fills -= ins.op == "stack_load"
                    srcs[pred] = source
        block.mem_phis.append(MemPhi(v, slot, srcs))
        func.spills += 1
    elif d.op in REMAT_OPS:
        func.spilled[v] = ("remat", d)
    else:
        slot = _slot(func, v)
        func.spilled[v] = ("slot", slot)
        store.append(MInstr("stack_store", {"data": v, "offset": stack_offset_operand(slot, store)}))
        block.instrs[k + 1:k + 1] = store
        func.spills += 1
    cfg = mcfg(func)
    for b in walk_mblocks(func.body):
        if users is None:
            new_instrs = []
            for ins in b.instrs:
                if v not in ins.uses() or ins is d or any(ins is x for x in store):
                    new_instrs.append(ins)
                    continue
                _reload_operands(func, v, ins, new_instrs)
                new_instrs.append(ins)
            b.instrs = new_instrs
        else:
            instrs, at = b.instrs, 0
            for ins in users.get(b, ()):
                j = instrs.index(ins, at)
                reloads: list = []
                _reload_operands(func, v, ins, reloads)
                instrs[j:j] = reloads
                at = j + len(reloads) + 1
        for s in cfg.succs[b]:            # register phi sources in successors
            for p in s.phis:
                x = p.srcs.get(b)
                if isinstance(x, Ref) and x.vreg is v:
                    p.srcs[b] = _reload(v, x, func, b.instrs)
        node = cfg.if_cond_block.get(b)   # an if condition at the end of the block
        if node is not None:
            kind, cond, a, c = node.cond
            if isinstance(a, Ref) and a.vreg is v:
                a = _reload(v, a, func, b.instrs)
            if isinstance(c, Ref) and c.vreg is v:
                c = _reload(v, c, func, b.instrs)
            node.cond = (kind, cond, a, c)
    if k is not None and d.op in REMAT_OPS:
        block.instrs.remove(d)


# ---------------------------------------------------------------------------
# Memory phis, after register allocation

def lower_memory_phis(func: MFunction, reg: dict, pred, mem_phis: list) -> list:
    """Instructions storing each memory phi's source for predecessor ``pred``
    (a parallel copy between stack slots; cycles go through a spare slot)."""
    from .pack import operand as phys
    temp = Reg("r", 2 * TEMP_REG, 32)
    moves = []   # (dst slot, size, source)
    for p in mem_phis:
        x = p.srcs[pred]
        if isinstance(x, tuple):
            src = x
        elif isinstance(x, Ref) and x.vreg in func.spilled:
            kind, what = func.spilled[x.vreg]
            src = ("remat", what) if kind == "remat" else ("slot", what + 2 * x.off)
        else:
            src = ("value", x)
        if src == ("slot", p.slot_B):
            continue
        moves.append((p.slot_B, p.dst.size, src))
    out: list = []

    def t(size):
        return temp if size == 32 else Reg("r", 2 * TEMP_REG, 16)

    def emit(dst_slot, size, src):
        if src[0] == "value":
            x = src[1]
            if isinstance(x, Ref):
                data = phys(x, reg)
            elif isinstance(x, Const):
                out.append(MInstr("mov_imm", {"dst": t(size), "imm": x.bits}))
                data = t(size)
            else:
                out.append(MInstr("mov", {"dst": t(size), "a": x}))
                data = t(size)
        elif src[0] == "remat":
            out.append(MInstr(src[1].op, {**src[1].f, "dst": t(size)}))
            data = t(size)
        else:
            out.append(MInstr("stack_load", {"dst": t(size), "offset": stack_offset_operand(src[1], out)}))
            data = t(size)
        out.append(MInstr("stack_store", {"data": data, "offset": stack_offset_operand(dst_slot, out)}))

    pending = list(moves)
    while pending:
        read = {m[2][1] for m in pending if m[2][0] == "slot"}
        ready = [m for m in pending if m[0] not in read]
        if ready:
            for m in ready:
                emit(*m)
                pending.remove(m)
            continue
        # a cycle of slots: park one slot's value in a spare slot
        d0, size, _src = pending[0]
        spare = func.stack_base_B + func.spill_B
        func.spill_B += 4
        emit(spare, size, ("slot", d0))
        pending = [(d, s, ("slot", spare) if src == ("slot", d0) else src) for d, s, src in pending]
    return out
