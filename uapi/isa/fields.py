"""Field kinds of the instruction table: how one field's value maps to bits and to
assembly text, and back.

A kind knows its width, which bit patterns are valid (``codes()``), and four
conversions: ``pack(value) -> bits``, ``unpack(bits) -> value``, ``format(value)
-> text`` and ``parse(text) -> value``. Pack asserts that a value fits; unpack
rejects invalid patterns. Every table field has one kind, so the encoder,
decoder, assembler and disassembler are all the same loop over fields.

Register operands are :class:`Reg` values. Registers are counted in 16-bit halves
(as Mesa does): half ``2n`` is ``rNl``, ``2n+1`` is ``rNh``, the 32-bit ``rN``
is halves 2n..2n+1 and the 64-bit ``rN_rN+1`` is halves 2n..2n+3.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .semantics import minifloat_decode, minifloat_encode

__all__ = ["Reg", "Imm", "Kind", "Dst", "Src", "Vec", "Cf", "UInt", "SInt", "Enum", "Flag",
           "N_HALVES", "N_UNIFORM_HALVES", "SIZE_CODES", "r16", "r32", "r64", "u32", "u64", "vec", "imm", "fimm"]

N_HALVES = 256           # r0l .. r127h
N_UNIFORM_HALVES = 512   # u0l .. u255h
SIZE_CODES = (16, 32, 64)


@dataclass(frozen=True)
class Reg:
    """A register operand: ``file`` 'r' (general) or 'u' (uniform), first 16-bit
    half, element size in bits, and element count (vectors of consecutive registers)."""

    file: str
    half: int
    size: int
    count: int = 1

    @property
    def halves(self) -> range:
        """The 16-bit halves this operand covers."""
        return range(self.half, self.half + self.count * self.size // 16)

    def __str__(self) -> str:
        f = self.file
        if self.size == 16:
            names = [f"{f}{h // 2}{'lh'[h % 2]}" for h in range(self.half, self.half + self.count)]
        elif self.size == 32:
            names = [f"{f}{self.half // 2 + i}" for i in range(self.count)]
        else:
            names = [f"{f}{self.half // 2}_{f}{self.half // 2 + 1}"]
        return "_".join(names)


@dataclass(frozen=True)
class Imm:
    """An 8-bit immediate source (integer, or a minifloat code for float operands)."""

    code: int


_REG_RE = re.compile(r"^([ru])(\d+)([lh]?)$")


def parse_reg_list(text: str) -> list[tuple[str, int, int]]:
    """'r4_r5' -> [('r', 8, 32), ('r', 10, 32)] as (file, half, size)."""
    out = []
    for part in text.split("_"):
        m = _REG_RE.match(part)
        if not m:
            raise ValueError(f"not a register: {text!r}")
        f, n, lh = m.group(1), int(m.group(2)), m.group(3)
        out.append((f, 2 * n + (lh == "h"), 16 if lh else 32))
    return out


class Kind:
    """Base of field kinds. Subclasses set ``bits``."""

    bits: int = 0

    def codes(self):
        """Every valid bit pattern (a range or a tuple), in increasing kind order."""
        return range(1 << self.bits)

    def pack(self, value) -> int:
        raise NotImplementedError

    def unpack(self, code: int):
        raise NotImplementedError

    def format(self, value) -> str:
        return str(value)

    def parse(self, text: str):
        raise NotImplementedError


_DST_CODES = tuple(h | (s << 8) for s in range(3) for h in range(N_HALVES) if s == 0 or h % 2 == 0)
_SRC_CODES = (tuple(h | (s << 11) for s in range(3) for h in range(N_HALVES) if s == 0 or h % 2 == 0)
              + tuple(h | (1 << 9) | (s << 11) for s in range(3) for h in range(N_UNIFORM_HALVES)
                      if s == 0 or h % 2 == 0)
              + tuple(v | (2 << 9) for v in range(256)))
_VEC_CODES = tuple(h | (s << 8) | (c << 9) for s, size in enumerate((16, 32)) for c in range(8)
                   for h in range(0, N_HALVES, 1 + s) if h + (c + 1) * size // 16 <= N_HALVES)


class Dst(Kind):
    """A destination register: half index (8 bits) and size code (2 bits: 16/32/64)."""

    bits = 10

    def codes(self):
        return _DST_CODES

    def pack(self, r: Reg) -> int:
        assert isinstance(r, Reg) and r.file == "r" and r.count == 1, f"destination must be one r register, got {r}"
        assert r.size in SIZE_CODES and 0 <= r.half < N_HALVES, f"bad register {r}"
        assert r.size == 16 or r.half % 2 == 0, f"{r.size}-bit register must start on an even half"
        return r.half | (SIZE_CODES.index(r.size) << 8)

    def unpack(self, code: int) -> Reg:
        half, s = code & 0xFF, code >> 8
        if s == 3 or (s and half % 2):
            raise ValueError(f"invalid register code 0x{code:x}")
        return Reg("r", half, SIZE_CODES[s])

    def parse(self, text: str) -> Reg:
        return _parse_scalar(text, "r")


def _parse_scalar(text: str, files: str) -> Reg:
    regs = parse_reg_list(text)
    f, half, size = regs[0]
    if f not in files:
        raise ValueError(f"register file {f!r} not allowed here: {text!r}")
    if len(regs) == 1:
        return Reg(f, half, size)
    if len(regs) == 2 and size == 32 and regs[1] == (f, half + 2, 32):
        return Reg(f, half, 64)
    raise ValueError(f"not a 16/32/64-bit register: {text!r}")


class Src(Kind):
    """An ALU source (13 bits): value (9), kind (2: register, uniform, 8-bit
    immediate), size code (2). ``float_imm`` makes immediates minifloats."""

    bits = 13

    def __init__(self, float_imm: bool = False):
        self.float_imm = float_imm

    def codes(self):
        return _SRC_CODES

    def pack(self, v) -> int:
        if isinstance(v, Imm):
            assert 0 <= v.code < 256, f"immediate {v.code} does not fit 8 bits"
            return v.code | (2 << 9)
        assert isinstance(v, Reg) and v.count == 1 and v.size in SIZE_CODES, f"bad source {v}"
        limit = N_HALVES if v.file == "r" else N_UNIFORM_HALVES
        assert 0 <= v.half < limit and (v.size == 16 or v.half % 2 == 0), f"bad source register {v}"
        return v.half | ((v.file == "u") << 9) | (SIZE_CODES.index(v.size) << 11)

    def unpack(self, code: int):
        value, kind, s = code & 0x1FF, (code >> 9) & 3, code >> 11
        if kind == 2:
            if value > 255 or s:
                raise ValueError(f"invalid immediate source 0x{code:x}")
            return Imm(value)
        if kind == 3 or s == 3 or (s and value % 2) or (kind == 0 and value >= N_HALVES):
            raise ValueError(f"invalid source code 0x{code:x}")
        return Reg("ru"[kind], value, SIZE_CODES[s])

    def format(self, v) -> str:
        if isinstance(v, Imm):
            return repr(minifloat_decode(v.code)) if self.float_imm else str(v.code)
        return str(v)

    def parse(self, text: str):
        if text[:1] in "ru" and text[1:2].isdigit():
            return _parse_scalar(text, "ru")
        try:
            number = float(text) if self.float_imm else int(text, 0)
        except ValueError:
            raise ValueError(f"not a register or immediate: {text!r}") from None
        if self.float_imm:
            return Imm(minifloat_encode(number))
        value = number
        if not 0 <= value < 256:
            raise ValueError(f"integer immediate {value} does not fit 8 bits (use mov_imm or a uniform)")
        return Imm(value)


class Vec(Kind):
    """A vector of 1..8 consecutive registers (12 bits): first half (8), size (1:
    16/32), count - 1 (3)."""

    bits = 12

    def codes(self):
        return _VEC_CODES

    def pack(self, r: Reg) -> int:
        assert isinstance(r, Reg) and r.file == "r" and r.size in (16, 32) and 1 <= r.count <= 8, f"bad vector {r}"
        assert r.size == 16 or r.half % 2 == 0, f"32-bit vector {r} must start on an even half"
        assert r.half + r.count * r.size // 16 <= N_HALVES, f"vector {r} runs past r127h"
        return r.half | ((r.size == 32) << 8) | ((r.count - 1) << 9)

    def unpack(self, code: int) -> Reg:
        half, s, c = code & 0xFF, (code >> 8) & 1, code >> 9
        r = Reg("r", half, 32 if s else 16, c + 1)
        if (s and half % 2) or half + r.count * r.size // 16 > N_HALVES:
            raise ValueError(f"invalid vector code 0x{code:x}")
        return r

    def parse(self, text: str) -> Reg:
        regs = parse_reg_list(text)
        f, half, size = regs[0]
        step = size // 16
        if f != "r" or any(r != ("r", half + i * step, size) for i, r in enumerate(regs)):
            raise ValueError(f"not a vector of consecutive r registers: {text!r}")
        return Reg("r", half, size, len(regs))


class Cf(Kind):
    """A coefficient register cf0..cf255."""

    bits = 8

    def pack(self, v: int) -> int:
        assert 0 <= v < 256, f"cf{v} out of range"
        return v

    def unpack(self, code: int) -> int:
        return code

    def format(self, v: int) -> str:
        return f"cf{v}"

    def parse(self, text: str) -> int:
        if not text.startswith("cf"):
            raise ValueError(f"not a coefficient register: {text!r}")
        return int(text[2:])


class UInt(Kind):
    def __init__(self, bits: int):
        self.bits = bits

    def pack(self, v: int) -> int:
        assert 0 <= v < (1 << self.bits), f"{v} does not fit {self.bits} unsigned bits"
        return v

    def unpack(self, code: int) -> int:
        return code

    def format(self, v: int) -> str:
        return f"0x{v:x}" if self.bits > 8 else str(v)

    def parse(self, text: str) -> int:
        return int(text, 0)


class SInt(Kind):
    def __init__(self, bits: int):
        self.bits = bits

    def pack(self, v: int) -> int:
        assert -(1 << (self.bits - 1)) <= v < (1 << (self.bits - 1)), f"{v} does not fit {self.bits} signed bits"
        return v & ((1 << self.bits) - 1)

    def unpack(self, code: int) -> int:
        return code - (1 << self.bits) if code >> (self.bits - 1) else code

    def parse(self, text: str) -> int:
        return int(text, 0)


class Enum(Kind):
    """Names indexed by code; codes past the end are invalid."""

    def __init__(self, bits: int, names: tuple[str, ...]):
        assert len(names) <= (1 << bits), f"{len(names)} names do not fit {bits} bits"
        assert len(set(names)) == len(names), f"duplicate names in {names}"
        self.bits, self.names = bits, tuple(names)

    def codes(self):
        return range(len(self.names))

    def pack(self, v: str) -> int:
        assert v in self.names, f"{v!r} is not one of {self.names}"
        return self.names.index(v)

    def unpack(self, code: int) -> str:
        if code >= len(self.names):
            raise ValueError(f"invalid enum code {code}")
        return self.names[code]

    def parse(self, text: str) -> str:
        if text not in self.names:
            raise ValueError(f"{text!r} is not one of {self.names}")
        return text


class Flag(Kind):
    bits = 1

    def pack(self, v: bool) -> int:
        return int(bool(v))

    def unpack(self, code: int) -> bool:
        return bool(code)


# ---------------------------------------------------------------------------
# Operand constructors for builders (the compiler's backend)

def r32(n: int) -> Reg:
    """32-bit rN."""
    return Reg("r", 2 * n, 32)


def r16(n: int, high: bool = False) -> Reg:
    """16-bit rNl / rNh."""
    return Reg("r", 2 * n + int(high), 16)


def r64(n: int) -> Reg:
    """64-bit rN_rN+1 (n even or odd: any pair of consecutive 32-bit registers)."""
    return Reg("r", 2 * n, 64)


def u32(n: int) -> Reg:
    return Reg("u", 2 * n, 32)


def u64(n: int) -> Reg:
    return Reg("u", 2 * n, 64)


def vec(n: int, count: int, size: int = 32) -> Reg:
    """``count`` consecutive registers from rN (size 32) or from half N (size 16)."""
    return Reg("r", 2 * n if size == 32 else n, size, count)


def imm(value: int) -> Imm:
    """8-bit integer immediate."""
    assert 0 <= value < 256, f"integer immediate {value} does not fit 8 bits"
    return Imm(value)


def fimm(value: float) -> Imm:
    """8-bit float immediate (raises ValueError when not representable)."""
    return Imm(minifloat_encode(value))
