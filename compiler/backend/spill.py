"""Spilling: move a value to the stack for its whole life ("spill everywhere").

After its definition the value is stored (``stack_store``) to its own slot; each
use reads it back (``stack_load``) into a fresh short-lived vreg just before the
instruction (at the end of the predecessor block for a phi source, before the
branch for an if condition). Values made by ``mov_imm`` or ``get_sr`` are
rematerialised instead: the defining instruction is repeated before each use
(Mesa's agx_spill does the same for these). The register allocator picks what
to spill (ra.py); this module only rewrites the program.
"""

from __future__ import annotations

from uapi.isa import Imm, Reg

from .abi import TEMP_REG
from .mir import MFunction, MInstr, MBlock, MIf, Ref, VReg, mcfg, walk_mblocks

__all__ = ["spill_value", "REMAT_OPS", "stack_offset_operand"]

REMAT_OPS = ("mov_imm", "get_sr")


def stack_offset_operand(offset_B: int, out: list):
    """An operand for a stack offset: an immediate when it fits 8 bits, else the
    temporary r1 loaded by a ``mov_imm`` appended to ``out``."""
    if offset_B < 256:
        return Imm(offset_B)
    out.append(MInstr("mov_imm", {"dst": Reg("r", 2 * TEMP_REG, 32), "imm": offset_B}))
    return Reg("r", 2 * TEMP_REG, 32)


def _find_def(func: MFunction, v: VReg):
    for b in walk_mblocks(func.body):
        for p in b.phis:
            if p.dst is v:
                return b, None, p
        for k, ins in enumerate(b.instrs):
            if v in ins.defs():
                return b, k, ins
    raise AssertionError(f"no definition of {v}")


def _reload(v: VReg, operand, slot_B: int, remat: MInstr | None, out: list):
    """Instructions (appended to ``out``) giving ``operand`` (a Ref or the vreg
    itself) of spilled ``v`` in a fresh vreg; returns the new operand."""
    new = _reload1(v, operand, slot_B, remat, out)
    (new.vreg if isinstance(new, Ref) else new).spillable = False
    return new


def _reload1(v: VReg, operand, slot_B: int, remat: MInstr | None, out: list):
    if remat is not None:
        nv = VReg(v.size, v.count, v.align)
        out.append(MInstr(remat.op, {**remat.f, "dst": nv}))
        return Ref(nv, operand.off, operand.size) if isinstance(operand, Ref) else nv
    if isinstance(operand, VReg):
        nv = VReg(v.size, v.count, v.align)
        offset = stack_offset_operand(slot_B, out)
        out.append(MInstr("stack_load", {"dst": nv, "offset": offset}))
        return nv
    if operand.size == 64:
        nv = VReg(32, 2)
    else:
        nv = VReg(operand.size, 1)
    offset = stack_offset_operand(slot_B + 2 * operand.off, out)
    out.append(MInstr("stack_load", {"dst": nv, "offset": offset}))
    return Ref(nv, 0, operand.size)


def spill_value(func: MFunction, v: VReg) -> bool:
    """Rewrite ``func`` so that ``v`` lives on the stack (or is rematerialised).
    Returns True when it was a real spill (a slot was used)."""
    block, k, d = _find_def(func, v)
    remat = d if isinstance(d, MInstr) and d.op in REMAT_OPS else None
    slot_B = 0
    if remat is None:
        slot_B = func.stack_base_B + func.spill_B
        func.spill_B += (v.halves * 2 + 3) // 4 * 4
        store: list = []
        offset = stack_offset_operand(slot_B, store)
        store.append(MInstr("stack_store", {"data": v, "offset": offset}))
        func.spills += 1
        if k is None:        # a phi: store after the block's leading preload, if any
            pos = 1 if block.instrs and block.instrs[0].op == "preload" else 0
        else:
            pos = k + 1
        block.instrs[pos:pos] = store
    cfg = mcfg(func)
    for b in walk_mblocks(func.body):
        new_instrs = []
        for ins in b.instrs:
            if ins is d or v not in ins.uses():
                new_instrs.append(ins)
                continue
            cache = {}

            def repl(x, ins=ins, cache=cache, out=new_instrs):
                if (isinstance(x, Ref) and x.vreg is v) or x is v:
                    key = (x.off, x.size) if isinstance(x, Ref) else "all"
                    if key not in cache:
                        cache[key] = _reload(v, x, slot_B, remat, out)
                        if remat is None:
                            func.fills += 1
                    return cache[key]
                return x
            ins.map_uses(repl)
            new_instrs.append(ins)
        b.instrs = new_instrs
        # phi sources in successors
        for s in cfg.succs[b]:
            for p in s.phis:
                x = p.srcs.get(b)
                if isinstance(x, Ref) and x.vreg is v:
                    p.srcs[b] = _reload(v, x, slot_B, remat, b.instrs)
                    func.fills += remat is None
        # an if condition at the end of the block
        node = cfg.if_cond_block.get(b)
        if node is not None:
            kind, cond, a, c = node.cond
            if any(isinstance(x, Ref) and x.vreg is v for x in (a, c)):
                a = _reload(v, a, slot_B, remat, b.instrs) if isinstance(a, Ref) and a.vreg is v else a
                c = _reload(v, c, slot_B, remat, b.instrs) if isinstance(c, Ref) and c.vreg is v else c
                node.cond = (kind, cond, a, c)
                func.fills += remat is None
    if remat is not None:
        block.instrs.remove(d)
    return remat is None


_ = (MBlock, MIf)
