"""Encoder, decoder, assembler and disassembler: all four are loops over the
fields of the table entry (``table.py``); nothing here knows a particular
instruction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .fields import Flag
from .table import BY_NAME, BY_OPCODE, Field, Op

__all__ = ["Instruction", "DecodeError", "AsmError", "encode", "decode", "decode_one", "disassemble",
           "assemble", "assemble_line", "format_instruction", "present_fields", "make"]


class DecodeError(ValueError):
    """Bytes that are not an instruction (unknown opcode, bad field, stray bits)."""


class AsmError(ValueError):
    """Text that is not an instruction; carries the line number when known."""


@dataclass(frozen=True)
class Instruction:
    """One instruction: its table entry and the value of every present field."""

    op: Op
    values: dict

    def __getitem__(self, name: str):
        return self.values[name]

    def __str__(self) -> str:
        return format_instruction(self)

    def __hash__(self):
        return hash((self.op.name, tuple(sorted(self.values.items()))))


def present_fields(op: Op, values: dict) -> list[Field]:
    """The fields that exist for these suffix values (``when`` predicates hold)."""
    return [f for f in op.fields if f.when is None or f.when(values)]


def make(name: str, **values) -> Instruction:
    """Build an instruction from keyword values; absent flags default to False and
    absent slots/modifiers to 0/False. Used by the compiler's builder."""
    op = BY_NAME[name]
    full = {}
    for f in op.fields:
        if f.name in values:
            full[f.name] = values.pop(f.name)
        elif isinstance(f.kind, Flag):
            full[f.name] = False
        elif f.name in ("slot", "shift"):
            full[f.name] = 0
    if values:
        raise TypeError(f"{name}: unknown fields {sorted(values)}")
    keep = {f.name for f in present_fields(op, full)}
    missing = keep - set(full)
    if missing:
        raise TypeError(f"{name}: missing fields {sorted(missing)}")
    return Instruction(op, {k: v for k, v in full.items() if k in keep})


def encode(ins: Instruction | list[Instruction]) -> bytes:
    """Instruction(s) -> bytes (little-endian; opcode in bits 0..7)."""
    if isinstance(ins, list):
        return b"".join(encode(i) for i in ins)
    word = ins.op.opcode
    for f in present_fields(ins.op, ins.values):
        word |= f.kind.pack(ins.values[f.name]) << f.start
    return word.to_bytes(ins.op.length_B, "little")


def decode_one(data: bytes, offset: int = 0) -> Instruction:
    """Decode the instruction at ``offset``; raises DecodeError."""
    if offset >= len(data):
        raise DecodeError(f"no instruction at offset {offset}")
    op = BY_OPCODE.get(data[offset])
    if op is None:
        raise DecodeError(f"unknown opcode 0x{data[offset]:02x} at offset {offset}")
    if offset + op.length_B > len(data):
        raise DecodeError(f"{op.name} at offset {offset} is truncated")
    word = int.from_bytes(data[offset:offset + op.length_B], "little")
    values: dict = {}
    suffixes = [f for f in op.fields if f.role == "suffix"]
    try:
        for f in suffixes:
            values[f.name] = f.kind.unpack((word >> f.start) & ((1 << f.kind.bits) - 1))
        fields = present_fields(op, values)
        for f in fields:
            if f.role != "suffix":
                values[f.name] = f.kind.unpack((word >> f.start) & ((1 << f.kind.bits) - 1))
    except ValueError as e:
        raise DecodeError(f"{op.name} at offset {offset}: {e}") from None
    covered = 0xFF
    for f in fields:
        covered |= f.mask
    stray = word & ~covered
    if stray:
        raise DecodeError(f"{op.name} at offset {offset}: nonzero bits outside fields: 0x{stray:x}")
    return Instruction(op, values)


def decode(data: bytes) -> list[tuple[int, Instruction]]:
    """Decode a whole buffer: [(byte offset, instruction)]."""
    out, off = [], 0
    while off < len(data):
        ins = decode_one(data, off)
        out.append((off, ins))
        off += ins.op.length_B
    return out


def format_instruction(ins: Instruction) -> str:
    op, v = ins.op, ins.values
    fields = present_fields(op, v)
    text = op.name
    for f in fields:
        if f.role == "suffix":
            if isinstance(f.kind, Flag):
                text += f".{f.name}" if v[f.name] else ""
            else:
                text += f".{v[f.name]}"
    operands = []
    for f in fields:
        if f.role != "op":
            continue
        s = f.kind.format(v[f.name])
        for mod in ("abs", "neg"):
            if v.get(f"{f.name}_{mod}"):
                s += f".{mod}"
        operands.append(s)
    return text + (" " + ", ".join(operands) if operands else "")


def disassemble(data: bytes, offsets: bool = False) -> str:
    """Bytes -> assembly text, one instruction per line (optionally with offsets)."""
    lines = []
    for off, ins in decode(data):
        lines.append(f"{off:6x}:  {ins}" if offsets else str(ins))
    return "\n".join(lines) + ("\n" if lines else "")


_LABEL_RE = re.compile(r"^([A-Za-z_.][\w.]*):\s*(.*)$")


def assemble_line(line: str, labels: dict | None = None, here: int = 0) -> Instruction:
    """One line of assembly -> Instruction. Branch targets may be labels."""
    head, _, rest = line.strip().partition(" ")
    name, *suffix_tokens = head.split(".")
    op = BY_NAME.get(name)
    if op is None:
        raise AsmError(f"unknown instruction {name!r}")
    values: dict = {}
    tokens = list(suffix_tokens)
    for f in op.fields:
        if f.role != "suffix":
            continue
        if isinstance(f.kind, Flag):
            values[f.name] = bool(tokens) and tokens[0] == f.name
            if values[f.name]:
                tokens.pop(0)
        else:
            if not tokens:
                raise AsmError(f"{name}: missing .{f.name} suffix (one of {', '.join(f.kind.names)})")
            try:
                values[f.name] = f.kind.parse(tokens.pop(0))
            except ValueError as e:
                raise AsmError(f"{name}: {e}") from None
    if tokens:
        raise AsmError(f"{name}: unexpected suffix(es) {'.'.join(tokens)}")
    fields = present_fields(op, values)
    for f in fields:
        if f.role == "mod":
            values[f.name] = False
    operands = [t.strip() for t in rest.split(",")] if rest.strip() else []
    opfields = [f for f in fields if f.role == "op"]
    if len(operands) != len(opfields):
        raise AsmError(f"{name}: expected {len(opfields)} operands ({', '.join(f.name for f in opfields)}), "
                       f"got {len(operands)}")
    for f, text in zip(opfields, operands):
        parts = text.split(".")
        while len(parts) > 1 and parts[-1] in ("abs", "neg") and f"{f.name}_{parts[-1]}" in values:
            values[f"{f.name}_{parts.pop()}"] = True
        text = ".".join(parts)
        if labels is not None and f.name == "target" and text in labels:
            values[f.name] = labels[text] - here
            continue
        try:
            values[f.name] = f.kind.parse(text)
        except (ValueError, AssertionError) as e:
            raise AsmError(f"{name}: operand {f.name}: {e}") from None
    ins = Instruction(op, values)
    try:
        encode(ins)  # validates every field
    except AssertionError as e:
        raise AsmError(f"{name}: {e}") from None
    return ins


def _strip(line: str) -> str:
    for c in (";", "//"):
        line = line.split(c, 1)[0]
    return line.strip()


def assemble(text: str) -> bytes:
    """Assembly text (one instruction per line, ``label:`` lines, ``;``/``//``
    comments) -> bytes. Branch targets may be labels or byte offsets."""
    lines = [_strip(line) for line in text.splitlines()]
    # pass 1: instruction sizes and label offsets (sizes never depend on labels)
    labels: dict[str, int] = {}
    items: list[tuple[int, int, str]] = []
    off = 0
    for no, line in enumerate(lines, 1):
        m = _LABEL_RE.match(line)
        if m and not m.group(1) in BY_NAME:
            labels[m.group(1)] = off
            line = m.group(2)
        if not line:
            continue
        name = line.split(" ")[0].split(".")[0]
        op = BY_NAME.get(name)
        if op is None:
            raise AsmError(f"line {no}: unknown instruction {name!r}")
        items.append((no, off, line))
        off += op.length_B
    out = bytearray()
    for no, off, line in items:
        try:
            out += encode(assemble_line(line, labels, off))
        except AsmError as e:
            raise AsmError(f"line {no}: {e}") from None
    return bytes(out)
