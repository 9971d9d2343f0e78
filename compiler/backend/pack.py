"""Encoding: machine instructions over allocated registers -> ``uapi.isa``
instructions -> bytes, through the one ISA table (``uapi.isa.make`` /
``encode``); branch targets resolved from instruction lengths."""

from __future__ import annotations

from dataclasses import dataclass

from uapi.isa import Instruction, Reg, encode, make
from uapi.isa.fields import Vec

from .mir import MInstr, Ref, VReg, field_kind

__all__ = ["Label", "Branch", "physical", "operand", "assemble_items"]


class Label:
    """A position in the linear program (a loop head)."""


@dataclass
class Branch:
    op: str          # jmp_exec_any / jmp_exec_none
    target: Label


def operand(x, reg: dict, vec: bool = False):
    """A virtual operand -> ``uapi.isa.Reg`` (other values unchanged)."""
    if isinstance(x, Ref):
        return Reg("r", reg[x.vreg] + x.off, x.size)
    if isinstance(x, VReg):
        h = reg[x]
        if vec:
            size = min(x.size, 32)
            return Reg("r", h, size, x.halves // (size // 16))
        assert x.count == 1, f"vector {x} where a scalar register is expected"
        return Reg("r", h, x.size)
    return x


def physical(ins: MInstr, reg: dict) -> Instruction:
    assert not ins.pseudo, f"pseudo-instruction {ins.op} reached encoding"
    values = {}
    for k, v in ins.f.items():
        values[k] = operand(v, reg, isinstance(field_kind(ins.op, k), Vec))
    return make(ins.op, **values)


def assemble_items(items: list) -> bytes:
    """Instructions, labels and branches -> (bytes, the encoded instructions);
    branch offsets are in bytes from the branch instruction."""
    offsets, off = {}, 0
    for it in items:
        if isinstance(it, Label):
            offsets[id(it)] = off
        elif isinstance(it, Branch):
            off += make(it.op, target=0).op.length_B
        else:
            off += it.op.length_B
    out, final = bytearray(), []
    for it in items:
        if isinstance(it, Label):
            continue
        if isinstance(it, Branch):
            it = make(it.op, target=offsets[id(it.target)] - len(out))
        out += encode(it)
        final.append(it)
    return bytes(out), final
