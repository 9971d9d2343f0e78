"""The ISA reference manual, generated from the table (``python -m uapi.isa.reference``
writes ``uapi/isa/REFERENCE.md``; a test checks the checked-in file is current)."""

from __future__ import annotations

import sys
from pathlib import Path

from .fields import Cf, Dst, Enum, Flag, SInt, Src, UInt, Vec
from .table import OPS, Field, Op

__all__ = ["reference_markdown", "REFERENCE_PATH"]

REFERENCE_PATH = Path(__file__).with_name("REFERENCE.md")


def _kind(f: Field) -> str:
    k = f.kind
    if isinstance(k, Dst):
        return "destination register (half index 0-7, size code 8-9: 16/32/64)"
    if isinstance(k, Src):
        return ("source (value 0-8, kind 9-10: reg/uniform/imm8, size 11-12)"
                + ("; immediates are 8-bit floats" if k.float_imm else ""))
    if isinstance(k, Vec):
        return "vector of registers (first half 0-7, 32-bit 8, count-1 9-11)"
    if isinstance(k, Cf):
        return "coefficient register"
    if isinstance(k, Enum):
        return "one of " + ", ".join(f"`{n}`" for n in k.names)
    if isinstance(k, Flag):
        return "flag"
    if isinstance(k, SInt):
        return f"signed {k.bits}-bit integer"
    if isinstance(k, UInt):
        return f"unsigned {k.bits}-bit integer"
    return type(k).__name__


def _syntax(op: Op) -> str:
    text = op.name
    for f in op.fields:
        if f.role == "suffix":
            text += f"[.{f.name}]" if isinstance(f.kind, Flag) else f".{f.name.upper()}"
    operands = []
    for f in op.fields:
        if f.role == "op":
            s = f.name
            mods = [m for m in ("abs", "neg") if any(g.name == f"{f.name}_{m}" for g in op.fields)]
            s += "".join(f"[.{m}]" for m in mods)
            operands.append(f"[{s}]" if f.when is not None else s)
    return text + (" " + ", ".join(operands) if operands else "")


def _semantics(op: Op) -> str:
    if op.impl is not None and op.impl.__doc__:
        return op.impl.__doc__.strip().splitlines()[0]
    return ""


def reference_markdown() -> str:
    out = ["# shimgl ISA reference", "",
           "Generated from `uapi/isa/table.py` by `python -m uapi.isa.reference`; do not edit.",
           "Bits 0-7 of every instruction are the opcode; a field's bits are counted from bit 0 of the",
           "little-endian instruction. `[operand]` exists only for some suffix values (see `when` in the table).",
           "Conventions (rounding, denormals, NaN): see `uapi/isa/semantics.py`.", ""]
    unit = None
    for op in OPS:
        if op.unit != unit:
            unit = op.unit
            out += [f"## unit `{unit}`", ""]
        flags = [f"schedule class `{op.schedule_class}`"]
        flags += [n for n, v in (("can eliminate", op.can_eliminate), ("can reorder", op.can_reorder),
                                 ("asynchronous (wait on its slot)", op.is_async)) if v]
        out += [f"### `{op.name}` — opcode 0x{op.opcode:02x}, {op.length_B} bytes", "",
                f"`{_syntax(op)}`", ""]
        if op.doc or _semantics(op):
            out += [(op.doc or _semantics(op)), ""]
        out += ["Flags: " + ", ".join(flags) + (f"; destination sizes {'/'.join(map(str, op.sizes))}"
                                                 if any(f.name == "dst" and isinstance(f.kind, Dst) for f in op.fields)
                                                 else ""), ""]
        if op.fields:
            out += ["| field | bits | role | kind |", "|---|---|---|---|"]
            for f in sorted(op.fields, key=lambda f: f.start):
                out.append(f"| `{f.name}` | {f.start}-{f.end - 1} | {f.role}{' (conditional)' if f.when else ''} "
                           f"| {_kind(f)} |")
            out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    REFERENCE_PATH.write_text(reference_markdown())
    print(f"wrote {REFERENCE_PATH}", file=sys.stderr)
