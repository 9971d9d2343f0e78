"""The backend's machine IR: ISA instructions over virtual registers, in the
IR's structured control flow.

An :class:`MInstr` is one ``uapi.isa`` instruction (``op`` is the table name) whose
register fields hold *virtual* operands until register allocation replaces them
by ``uapi.isa.Reg``: a :class:`VReg` for a destination or a whole-vector operand,
a :class:`Ref` (a scalar view into a vreg) for an ALU source. Other field values
are what ``uapi.isa.make`` takes (immediates, enums, flags, uniform registers).
Three pseudo-instructions exist only before register allocation: ``collect``
(build a vector from scalars: a parallel copy), ``copy`` (parallel copy, made
for phis) and ``preload`` (read registers the hardware set before the shader
started: the vertex ABI's base vertex / base instance).

Control flow mirrors the IR: a function body is a list alternating
:class:`MBlock` and :class:`MIf` / :class:`MLoop`; a block may end with
``break`` / ``continue`` (``MBlock.jump``); phis are scalar and name their
predecessor blocks. Values are SSA: every vreg is written by exactly one
instruction (or phi).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from uapi.isa import BY_NAME, Imm, Reg
from uapi.isa.fields import Dst, Src, Vec

__all__ = ["VReg", "Ref", "Const", "MInstr", "MPhi", "MBlock", "MIf", "MLoop", "MFunction", "walk_mblocks",
           "PSEUDO_OPS", "field_kind", "mcfg", "linear_blocks", "MemPhi", "phi_source_vregs"]

PSEUDO_OPS = ("collect", "copy", "preload")
_ids = itertools.count()


class VReg:
    """A virtual register: ``count`` elements of ``size`` bits in consecutive
    16-bit halves; ``align`` (halves) constrains where it may start."""
    __slots__ = ("id", "size", "count", "align", "hint", "spillable")

    def __init__(self, size: int, count: int = 1, align: int | None = None):
        assert size in (16, 32, 64) and count >= 1, f"bad vreg {size}x{count}"
        self.id = next(_ids)
        self.size, self.count = size, count
        self.align = align if align is not None else (1 if size == 16 else 2)
        self.hint: "VReg | None" = None      # prefer the register of this vreg (phi affinity)
        self.spillable = True                # False for the short-lived reloads made by spilling

    @property
    def halves(self) -> int:
        return self.size // 16 * self.count

    def __repr__(self) -> str:
        return f"%{self.id}" + (f":{self.size}" if self.count == 1 else f":{self.size}x{self.count}")


@dataclass(frozen=True)
class Ref:
    """A scalar operand: ``size`` bits at half offset ``off`` of ``vreg``."""
    vreg: VReg
    off: int
    size: int

    def __repr__(self) -> str:
        return f"{self.vreg!r}" + (f"[{self.off}:{self.size}]" if (self.off, self.size) != (0, self.vreg.size) else "")


@dataclass(frozen=True)
class Const:
    """A constant operand (raw bits) not yet placed: an immediate if it fits the
    field, else materialised with ``mov_imm``."""
    bits: int
    size: int


def field_kind(op: str, name: str):
    return BY_NAME[op].field(name).kind


class MInstr:
    """One machine instruction. ``f``: field values. For pseudos: ``dsts`` and
    ``srcs`` lists (collect: one vector dst; copy/preload: parallel lists)."""
    __slots__ = ("op", "f", "dsts", "srcs", "pseudo", "_uses")

    def __init__(self, op: str, f: dict | None = None, dsts=None, srcs=None):
        assert op in BY_NAME or op in PSEUDO_OPS, f"unknown op {op}"
        self.op, self.f = op, dict(f or {})
        self.dsts, self.srcs = list(dsts or []), list(srcs or [])
        self.pseudo = op in PSEUDO_OPS
        self._uses = None

    def defs(self) -> list[VReg]:
        if self.pseudo:
            return [d for d in self.dsts if isinstance(d, VReg)]
        d = self.f.get("dst")
        return [d] if isinstance(d, VReg) else []

    def changed(self) -> None:
        """Call after editing operands in place (``map_uses`` does)."""
        self._uses = None

    def use_operands(self) -> list:
        if self.pseudo:
            return list(self.srcs)
        return [v for k, v in self.f.items() if k != "dst"]

    def uses(self) -> list[VReg]:
        if self._uses is None:
            out = []
            for v in self.use_operands():
                if isinstance(v, Ref):
                    out.append(v.vreg)
                elif isinstance(v, VReg):
                    out.append(v)
            self._uses = out
        return self._uses

    def map_uses(self, fn) -> None:
        """Replace every use operand ``x`` (Ref or VReg) by ``fn(x)``."""
        if self.pseudo:
            self.srcs = [fn(s) if isinstance(s, (Ref, VReg)) else s for s in self.srcs]
        else:
            for k, v in list(self.f.items()):
                if k != "dst" and isinstance(v, (Ref, VReg)):
                    self.f[k] = fn(v)
        self._uses = None

    @property
    def info(self):
        return BY_NAME.get(self.op)

    def __repr__(self) -> str:
        if self.pseudo:
            return f"{self.op} {self.dsts} <- {self.srcs}"
        return f"{self.op} " + ", ".join(f"{k}={v!r}" for k, v in self.f.items())


@dataclass(eq=False)
class MPhi:
    dst: VReg
    srcs: dict = field(default_factory=dict)     # MBlock -> operand (Ref or Const)


@dataclass(eq=False)
class MemPhi:
    """A spilled phi: each predecessor stores its source to the stack slot at its end."""
    dst: VReg
    slot_B: int
    srcs: dict = field(default_factory=dict)


@dataclass(eq=False)
class MBlock:
    instrs: list = field(default_factory=list)
    phis: list = field(default_factory=list)
    mem_phis: list = field(default_factory=list)   # MemPhi: phis whose value lives on the stack
    jump: str | None = None                       # "break" / "continue"
    id: int = field(default_factory=lambda: next(_ids))

    def __repr__(self) -> str:
        return f"<MBlock {self.id}>"


@dataclass(eq=False)
class MIf:
    """``cond``: (op, cond, a, b) with op ``icmp`` or ``fcmp``: lanes where
    ``cond(a, b)`` holds run the then-list."""
    cond: tuple
    then_list: list
    else_list: list


@dataclass(eq=False)
class MLoop:
    body: list


@dataclass(eq=False)
class MFunction:
    body: list
    stage: str
    stack_base_B: int = 0          # scratch (IR load/store_scratch) bytes; spill slots follow
    spill_B: int = 0
    spilled: dict = field(default_factory=dict)   # VReg -> ("slot", offset_B) or ("remat", MInstr)
    reloads: dict = field(default_factory=dict)   # reload VReg -> (its instruction, ("slot", offset_B) / ("remat", MInstr))
    spills: int = 0
    fills: int = 0


def walk_mblocks(nodes):
    for n in nodes:
        if isinstance(n, MBlock):
            yield n
        elif isinstance(n, MIf):
            yield from walk_mblocks(n.then_list)
            yield from walk_mblocks(n.else_list)
        else:
            yield from walk_mblocks(n.body)


def linear_blocks(func: MFunction) -> list[MBlock]:
    """Blocks in program order (a dominance-compatible order for structured code)."""
    return list(walk_mblocks(func.body))


@dataclass
class MCFG:
    preds: dict
    succs: dict
    if_cond_block: dict     # MBlock ending with an MIf -> that MIf


def mcfg(func: MFunction) -> MCFG:
    """Predecessors/successors of every block, from the structure (as compute_cfg)."""
    preds = {b: [] for b in walk_mblocks(func.body)}
    succs = {b: [] for b in preds}
    cond_block = {}

    def edge(a, b):
        if b is not None:
            succs[a].append(b)
            preds[b].append(a)

    def first(nodes):
        return nodes[0]

    def link(nodes, next_block, loop_head, loop_after):
        for i, node in enumerate(nodes):
            following = nodes[i + 1] if i + 1 < len(nodes) else None
            if isinstance(node, MBlock):
                if node.jump == "continue":
                    edge(node, loop_head)
                elif node.jump == "break":
                    edge(node, loop_after)
                elif isinstance(following, MIf):
                    cond_block[node] = following
                    edge(node, first(following.then_list))
                    edge(node, first(following.else_list))
                elif isinstance(following, MLoop):
                    edge(node, first(following.body))
                elif following is None:
                    edge(node, next_block)
            elif isinstance(node, MIf):
                link(node.then_list, following, loop_head, loop_after)
                link(node.else_list, following, loop_head, loop_after)
            else:
                link(node.body, first(node.body), first(node.body), following)

    link(func.body, None, None, None)
    return MCFG(preds, succs, cond_block)


def is_vec_field(op: str, name: str) -> bool:
    return isinstance(field_kind(op, name), Vec)


def is_src_field(op: str, name: str) -> bool:
    return isinstance(field_kind(op, name), Src)


def is_dst_field(op: str, name: str) -> bool:
    return isinstance(field_kind(op, name), Dst)


def phys(reg_half: int, size: int, count: int = 1) -> Reg:
    return Reg("r", reg_half, size, count)


_ = Imm  # re-exported for users of the module


def phi_source_vregs(func: MFunction, block: MBlock, succs) -> set:
    """Vregs read at the end of ``block`` by the phis (register and memory) of its successors."""
    out = set()
    for s in succs:
        for p in s.phis:
            x = p.srcs.get(block)
            if isinstance(x, Ref):
                out.add(x.vreg)
        for p in s.mem_phis:
            x = p.srcs.get(block)
            if isinstance(x, Ref) and x.vreg not in func.spilled:
                out.add(x.vreg)
    return out
