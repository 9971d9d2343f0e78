"""Types of the IR.

SSA values carry only a bit size (1, 8, 16, 32, 64) and a component count
(1-4, 8, 16); whether the bits are a float, a signed or an unsigned integer or a
boolean is decided by each operation, as in NIR. Variables (before vars->SSA)
carry a full type: a vector, an array of a type, or a struct.

Printed forms: ``f32x4``, ``i32``, ``u16x2``, ``b1``; arrays ``f32x4[8]``;
structs ``{f32x4 pos; f32 w}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

__all__ = [
    "BASE_TYPES", "BIT_SIZES", "VECTOR_WIDTHS", "VecType", "ArrayType", "StructType",
    "VarType", "parse_type", "numpy_dtype", "raw_dtype", "SWIZZLE_LETTERS",
]

BASE_TYPES = ("float", "int", "uint", "bool")
BIT_SIZES = (1, 8, 16, 32, 64)
VECTOR_WIDTHS = (1, 2, 3, 4, 8, 16)
SWIZZLE_LETTERS = "xyzw" + "efghijklmnop"   # xyzw for 0-3, then NIR-like letters beyond

_PREFIX = {"float": "f", "int": "i", "uint": "u", "bool": "b"}
_BASE_OF_PREFIX = {v: k for k, v in _PREFIX.items()}


def numpy_dtype(base: str, bit_size: int) -> np.dtype:
    """The numpy dtype holding a value of ``base`` (float/int/uint/bool) and ``bit_size``."""
    if base == "bool" or bit_size == 1:
        return np.dtype(np.bool_)
    kind = {"float": "f", "int": "i", "uint": "u"}[base]
    if kind == "f" and bit_size == 8:
        raise ValueError("there is no 8-bit float")
    return np.dtype(f"{kind}{bit_size // 8}")


def raw_dtype(bit_size: int) -> np.dtype:
    """The dtype the interpreter stores raw bits of a value in (bool for 1-bit)."""
    return numpy_dtype("uint", bit_size) if bit_size != 1 else np.dtype(np.bool_)


@dataclass(frozen=True)
class VecType:
    """A scalar or vector: base type, bit size, component count."""
    base: str
    bit_size: int
    components: int = 1

    def __post_init__(self):
        assert self.base in BASE_TYPES, f"bad base type {self.base!r}"
        assert self.bit_size in BIT_SIZES, f"bad bit size {self.bit_size}"
        assert self.components in VECTOR_WIDTHS, f"bad vector width {self.components}"
        assert (self.base == "bool") == (self.bit_size == 1), "booleans, and only they, are 1-bit"

    def __str__(self) -> str:
        s = f"{_PREFIX[self.base]}{self.bit_size}"
        return s if self.components == 1 else f"{s}x{self.components}"

    @property
    def size_slots(self) -> int:
        """Number of scalar components (the unit of scalar lowering)."""
        return self.components

    def byte_size(self) -> int:
        return max(1, self.bit_size // 8) * self.components


@dataclass(frozen=True)
class ArrayType:
    """``length`` elements of ``element``. Matrices are arrays of column vectors."""
    element: "VarType"
    length: int

    def __str__(self) -> str:
        return f"{self.element}[{self.length}]"

    @property
    def size_slots(self) -> int:
        return self.element.size_slots * self.length

    def byte_size(self) -> int:
        return self.element.byte_size() * self.length


@dataclass(frozen=True)
class StructType:
    """Named fields, in order. ``offsets_B``: the fields' byte offsets in a buffer when
    the shader placed them itself (ARB_enhanced_layouts' offset/align on the members of
    a uniform or storage block; None: the std140/std430 rules place them)."""
    fields: tuple[tuple[str, "VarType"], ...]
    offsets_B: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if self.offsets_B is not None:
            return "{" + "; ".join(f"{t} {n} @{o}" for (n, t), o in zip(self.fields, self.offsets_B)) + "}"
        return "{" + "; ".join(f"{t} {n}" for n, t in self.fields) + "}"

    def field_index(self, name: str) -> int:
        for i, (n, _t) in enumerate(self.fields):
            if n == name:
                return i
        raise KeyError(name)

    @property
    def size_slots(self) -> int:
        return sum(t.size_slots for _n, t in self.fields)

    def byte_size(self) -> int:
        return sum(t.byte_size() for _n, t in self.fields)


VarType = VecType | ArrayType | StructType

_VEC_RE = re.compile(r"([fiub])(\d+)(?:x(\d+))?")


def parse_type(text: str) -> VarType:
    """Parse the printed form of a type (inverse of ``str``)."""
    t, rest = _parse_type(text.strip())
    if rest.strip():
        raise ValueError(f"trailing text in type {text!r}: {rest!r}")
    return t


def _parse_type(s: str) -> tuple[VarType, str]:
    s = s.lstrip()
    if s.startswith("{"):
        fields, offsets = [], []
        s = s[1:]
        while True:
            s = s.lstrip()
            if s.startswith("}"):
                s = s[1:]
                break
            ftype, s = _parse_type(s)
            m = re.match(r"\s*([A-Za-z_]\w*)\s*;?", s)
            if not m:
                raise ValueError(f"expected a field name at {s!r}")
            fields.append((m.group(1), ftype))
            s = s[m.end():]
            m = re.match(r"\s*@(\d+)\s*;?", s)         # an explicit offset
            if m:
                offsets.append(int(m.group(1)))
                s = s[m.end():]
        t: VarType = StructType(tuple(fields), tuple(offsets) if offsets else None)
    else:
        m = _VEC_RE.match(s)
        if not m:
            raise ValueError(f"expected a type at {s!r}")
        t = VecType(_BASE_OF_PREFIX[m.group(1)], int(m.group(2)), int(m.group(3) or 1))
        s = s[m.end():]
    while True:
        m = re.match(r"\[(\d+)\]", s)
        if not m:
            return t, s
        t = ArrayType(t, int(m.group(1)))
        s = s[m.end():]
