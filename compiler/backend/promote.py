"""Constant promotion (Mesa's ``agx_opt_promote_constants``): 32-bit constants the
ALU cannot take as 8-bit immediates were materialised by ``mov_imm`` in each block
that needs them; this pass moves them to uniform registers the driver fills
(``UniformSlot`` kind ``constant``, ``binding`` = the 32-bit value), so the
``mov_imm`` instructions and the registers they occupy go away.

Runs after instruction selection, when every other uniform slot (buffer and
attribute addresses) is allocated, so it only uses registers left over: the most
used values first, while ``UniformLayout`` has room. A constant is promoted only
when every read of it is a ``Src`` field of a real instruction (not a phi, a
vector operand, a pseudo copy or a branch condition)."""

from __future__ import annotations

from uapi.isa import Reg
from uapi.isa.fields import Src

from .abi import BackendError, UniformLayout
from .mir import MFunction, MIf, Ref, VReg, field_kind, walk_mblocks

__all__ = ["promote_constants"]


def _conditions(nodes):
    for n in nodes:
        if isinstance(n, MIf):
            yield n.cond
            yield from _conditions(n.then_list)
            yield from _conditions(n.else_list)
        elif hasattr(n, "body"):
            yield from _conditions(n.body)


def promote_constants(func: MFunction, layout: UniformLayout) -> int:
    """Promote what fits; returns the number of ``mov_imm`` removed."""
    blocks = list(walk_mblocks(func.body))
    defs: dict[VReg, tuple] = {}          # vreg -> (block, instr)
    for b in blocks:
        for ins in b.instrs:
            d = ins.f.get("dst") if ins.op == "mov_imm" else None
            if isinstance(d, VReg) and d.size == 32 and d.count == 1:
                defs[d] = (b, ins)
    if not defs:
        return 0
    uses: dict[VReg, list] = {v: [] for v in defs}
    bad: set[VReg] = set()
    for b in blocks:
        for p in b.phis + b.mem_phis:
            bad.update(x.vreg for x in p.srcs.values() if isinstance(x, Ref))
        for ins in b.instrs:
            if ins.pseudo:
                bad.update(ins.uses())
                continue
            for k, x in ins.f.items():
                v = x.vreg if isinstance(x, Ref) else x if isinstance(x, VReg) else None
                if k == "dst" or v not in uses:
                    continue
                if isinstance(x, Ref) and (x.off, x.size) == (0, 32) and isinstance(field_kind(ins.op, k), Src):
                    uses[v].append((ins, k))
                else:
                    bad.add(v)
    for cond in _conditions(func.body):
        bad.update(x.vreg for x in cond[2:] if isinstance(x, Ref))
    by_value: dict[int, list[VReg]] = {}
    for v, (_b, ins) in defs.items():
        if v not in bad and uses[v]:
            by_value.setdefault(ins.f["imm"] & 0xFFFFFFFF, []).append(v)
    removed = 0
    for value, vregs in sorted(by_value.items(), key=lambda kv: -sum(len(uses[v]) for v in kv[1])):
        try:
            index = layout.slot("constant", value, 1)
        except BackendError:
            break                          # out of uniform registers: the rest stay mov_imm
        reg = Reg("u", 2 * index, 32)
        for v in vregs:
            for ins, k in uses[v]:
                ins.f[k] = reg
                ins.changed()
            b, ins = defs[v]
            b.instrs.remove(ins)
            removed += 1
    return removed
