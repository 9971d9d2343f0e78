"""The ALU op table: the one description of every ALU operation.

Each entry gives the name, the input and output types (NIR style: ``float`` is
unsized and takes the size of the instruction, ``float32`` is fixed; ``bool1`` is
the 1-bit boolean), the input and output component counts (0 = per component,
the width of the destination), algebraic properties, and a numpy implementation.
The builder methods (``b.fadd(x, y)``), the constant folder, the interpreter, the
printer and the parser are all derived from this table.

The numpy implementation receives each source as an array of the source's type
(already swizzled, shape ``(components, ...)``) and returns an array that is cast
to the output type. It is called under ``np.errstate(all="ignore")``: GLSL leaves
overflow and domain errors undefined, we only need to be deterministic.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .types import numpy_dtype, raw_dtype

__all__ = ["OpInfo", "OPS", "parse_type_spec", "evaluate_op", "COMMUTATIVE", "ASSOCIATIVE"]

COMMUTATIVE = "commutative"
ASSOCIATIVE = "associative"

_SPEC_RE = re.compile(r"(float|int|uint|bool)(\d*)$")


@functools.lru_cache(maxsize=None)
def parse_type_spec(spec: str) -> tuple[str, int | None]:
    """``"float32"`` -> ``("float", 32)``; ``"float"`` -> ``("float", None)`` (unsized)."""
    m = _SPEC_RE.match(spec)
    assert m, f"bad type spec {spec!r}"
    return m.group(1), int(m.group(2)) if m.group(2) else None


@dataclass(frozen=True)
class OpInfo:
    """One ALU operation."""
    name: str
    output_type: str
    input_types: tuple[str, ...]
    impl: Callable[..., np.ndarray] | None
    output_size: int = 0                        # components; 0 = per component
    input_sizes: tuple[int, ...] = ()           # per input; 0 = per component
    properties: frozenset[str] = field(default_factory=frozenset)
    description: str = ""

    @property
    def num_inputs(self) -> int:
        return len(self.input_types)

    @property
    def is_per_component(self) -> bool:
        return self.output_size == 0 and all(s == 0 for s in self.input_sizes)

    @property
    def commutative(self) -> bool:
        return COMMUTATIVE in self.properties

    @property
    def associative(self) -> bool:
        return ASSOCIATIVE in self.properties

    @property
    def foldable(self) -> bool:
        """False for ops that depend on neighbouring lanes (derivatives)."""
        return self.impl is not None

    def input_bit_size(self, i: int, unsized: int) -> int:
        _base, size = parse_type_spec(self.input_types[i])
        return size if size is not None else unsized

    def output_bit_size(self, unsized: int) -> int:
        _base, size = parse_type_spec(self.output_type)
        return size if size is not None else unsized


OPS: dict[str, OpInfo] = {}


def _op(name, out, ins, impl, out_size=0, in_sizes=None, props=(), desc=""):
    assert name not in OPS, f"op {name} defined twice"
    OPS[name] = OpInfo(name, out, tuple(ins), impl, out_size,
                       tuple(in_sizes) if in_sizes is not None else (0,) * len(ins),
                       frozenset(props), desc)


def _unop(name, t, impl, desc="", out=None):
    _op(name, out or t, (t,), impl, desc=desc)


def _binop(name, t, impl, props=(), desc="", out=None, in2=None):
    _op(name, out or t, (t, in2 or t), impl, props=props, desc=desc)


CA = (COMMUTATIVE, ASSOCIATIVE)


# ---------------------------------------------------------------- helpers

def _fsat(a):
    return np.where(np.isnan(a), 0, np.clip(a, 0, 1)).astype(a.dtype)


def _fmin(a, b):
    return np.fmin(a, b)          # NaN-avoiding like GLSL min on most hardware


def _fmax(a, b):
    return np.fmax(a, b)


def _int_div(a, b):
    """Signed division truncating toward zero; x/0 = 0 (undefined in GLSL)."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    q = np.abs(a64) // np.abs(safe) * np.sign(a64) * np.sign(safe)
    return np.where(b64 == 0, 0, q)


def _int_rem(a, b):
    """Remainder with the sign of the dividend (C %); x%0 = 0."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    return np.where(b64 == 0, 0, a64 - _int_div(a, b) * b64)


def _int_mod(a, b):
    """Remainder with the sign of the divisor (floored); x mod 0 = 0."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    return np.where(b64 == 0, 0, np.mod(a64, safe))


def _udiv(a, b):
    return np.where(b == 0, 0, a // np.where(b == 0, 1, b))


def _umod(a, b):
    return np.where(b == 0, 0, a % np.where(b == 0, 1, b))


def _shift_count(a, b):
    return (b.astype(np.uint64) & np.uint64(a.dtype.itemsize * 8 - 1)).astype(np.int64)


def _ishl(a, b):
    bits = a.dtype.itemsize * 8
    u = a.view(numpy_dtype("uint", bits)).astype(np.uint64)
    mask = np.uint64((1 << bits) - 1)
    return ((u << _shift_count(a, b).astype(np.uint64)) & mask).astype(numpy_dtype("uint", bits))


def _ishr(a, b):
    return a.astype(np.int64) >> _shift_count(a, b)


def _ushr(a, b):
    return a.astype(np.uint64) >> _shift_count(a, b).astype(np.uint64)


def _bit_count(a):
    u = a.astype(np.uint64)
    count = np.zeros(a.shape, np.uint32)
    for i in range(a.dtype.itemsize * 8):
        count += ((u >> np.uint64(i)) & np.uint64(1)).astype(np.uint32)
    return count


def _ufind_msb(a):
    u = a.astype(np.uint64)
    result = np.full(a.shape, -1, np.int32)
    for i in range(a.dtype.itemsize * 8):
        result = np.where((u >> np.uint64(i)) & np.uint64(1), i, result)
    return result


def _ifind_msb(a):
    # Highest bit that differs from the sign bit (GLSL findMSB for signed ints).
    bits = a.dtype.itemsize * 8
    u = a.view(numpy_dtype("uint", bits))
    flipped = np.where(a < 0, ~u, u)
    return _ufind_msb(flipped)


def _find_lsb(a):
    u = a.astype(np.uint64) if a.dtype.kind == "u" else a.view(numpy_dtype("uint", a.dtype.itemsize * 8)).astype(np.uint64)
    result = np.full(a.shape, -1, np.int32)
    for i in reversed(range(a.dtype.itemsize * 8)):
        result = np.where((u >> np.uint64(i)) & np.uint64(1), i, result)
    return result


def _bitfield_reverse(a):
    bits = a.dtype.itemsize * 8
    u = a.astype(np.uint64)
    r = np.zeros(a.shape, np.uint64)
    for i in range(bits):
        r |= ((u >> np.uint64(i)) & np.uint64(1)) << np.uint64(bits - 1 - i)
    return r


def _ubfe(a, off, bits):
    width = a.dtype.itemsize * 8
    off64 = off.astype(np.int64) & (width - 1)
    n = bits.astype(np.int64) & (width - 1)
    mask = (np.uint64(1) << n.astype(np.uint64)) - np.uint64(1)
    v = (a.astype(np.uint64) >> off64.astype(np.uint64)) & mask
    return np.where(bits == 0, 0, v)


def _ibfe(a, off, bits):
    width = a.dtype.itemsize * 8
    u = _ubfe(a.view(numpy_dtype("uint", width)), off, bits).astype(np.int64)
    n = bits.astype(np.int64) & (width - 1)
    sign = np.where(n > 0, (u >> np.maximum(n - 1, 0)) & 1, 0)
    return np.where(sign == 1, u - (np.int64(1) << n), u)


def _bitfield_insert(base, ins, off, bits):
    width = base.dtype.itemsize * 8
    off64 = (off.astype(np.int64) & (width - 1)).astype(np.uint64)
    n = (bits.astype(np.int64) & (width - 1)).astype(np.uint64)
    mask = ((np.uint64(1) << n) - np.uint64(1)) << off64
    b, i = base.astype(np.uint64), ins.astype(np.uint64)
    v = (b & ~mask) | ((i << off64) & mask)
    return np.where(bits == 0, b, v)


def _f2i(a):
    return np.trunc(np.nan_to_num(a, nan=0.0)).astype(np.float64)


def _pack_half_2x16(v):
    h = v.astype(np.float16).view(np.uint16).astype(np.uint32)
    return (h[0:1] | (h[1:2] << np.uint32(16)))


def _unpack_half_2x16(v):
    u = v.astype(np.uint32)
    lo = (u & np.uint32(0xFFFF)).astype(np.uint16).view(np.float16)
    hi = (u >> np.uint32(16)).astype(np.uint16).view(np.float16)
    return np.concatenate([lo, hi]).astype(np.float32)


def _pack_unorm_4x8(v):
    q = np.rint(np.clip(v, 0, 1) * 255).astype(np.uint32)
    return q[0:1] | (q[1:2] << np.uint32(8)) | (q[2:3] << np.uint32(16)) | (q[3:4] << np.uint32(24))


def _unpack_unorm_4x8(v):
    u = v.astype(np.uint32)
    parts = [((u >> np.uint32(8 * i)) & np.uint32(0xFF)).astype(np.float32) / np.float32(255) for i in range(4)]
    return np.concatenate(parts)


# ---------------------------------------------------------------- the table

# Moves and vector construction (typeless: "uint" here only means "bits").
_unop("mov", "uint", lambda a: a, "copy (with the source swizzle)")
for _n in (2, 3, 4, 8, 16):
    _op(f"vec{_n}", "uint", ("uint",) * _n, lambda *cs: np.concatenate(cs),
        out_size=_n, in_sizes=(1,) * _n, desc=f"build a {_n}-component vector")

# Float arithmetic.
_unop("fneg", "float", lambda a: -a)
_unop("fabs", "float", np.abs)
_unop("fsat", "float", _fsat, "clamp to [0, 1]")
_unop("fsign", "float", np.sign)
_unop("ffloor", "float", np.floor)
_unop("fceil", "float", np.ceil)
_unop("ftrunc", "float", np.trunc)
_unop("fround_even", "float", np.rint)
_unop("ffract", "float", lambda a: a - np.floor(a))
_unop("frcp", "float", lambda a: 1 / a)
_unop("frsq", "float", lambda a: 1 / np.sqrt(a))
_unop("fsqrt", "float", np.sqrt)
_unop("fexp2", "float", np.exp2)
_unop("flog2", "float", np.log2)
_unop("fsin", "float", np.sin)
_unop("fcos", "float", np.cos)
_unop("fddx", "float", None, "screen-space x derivative (2x2 quads)")
_unop("fddy", "float", None, "screen-space y derivative (2x2 quads)")
_binop("fadd", "float", lambda a, b: a + b, CA)
_binop("fsub", "float", lambda a, b: a - b)
_binop("fmul", "float", lambda a, b: a * b, CA)
_binop("fdiv", "float", lambda a, b: a / b)
_binop("fmod", "float", lambda a, b: a - b * np.floor(a / b), desc="GLSL mod(): a - b*floor(a/b)")
_binop("fpow", "float", np.power)
_binop("fmin", "float", _fmin, CA)
_binop("fmax", "float", _fmax, CA)
_op("ffma", "float", ("float",) * 3, lambda a, b, c: a * b + c)
_op("flrp", "float", ("float",) * 3, lambda a, b, c: a * (1 - c) + b * c, desc="mix(a, b, c)")

# Comparisons give 1-bit booleans.
_binop("flt", "float", lambda a, b: a < b, out="bool1")
_binop("fge", "float", lambda a, b: a >= b, out="bool1")
_binop("feq", "float", lambda a, b: a == b, (COMMUTATIVE,), out="bool1")
_binop("fneu", "float", lambda a, b: a != b, (COMMUTATIVE,), out="bool1", desc="not equal or unordered")
_binop("ilt", "int", lambda a, b: a < b, out="bool1")
_binop("ige", "int", lambda a, b: a >= b, out="bool1")
_binop("ieq", "int", lambda a, b: a == b, (COMMUTATIVE,), out="bool1")
_binop("ine", "int", lambda a, b: a != b, (COMMUTATIVE,), out="bool1")
_binop("ult", "uint", lambda a, b: a < b, out="bool1")
_binop("uge", "uint", lambda a, b: a >= b, out="bool1")

# Integer arithmetic and bit operations (iand/ior/ixor/inot also act on booleans).
_unop("ineg", "int", lambda a: -a.astype(np.int64))
_unop("iabs", "int", lambda a: np.abs(a.astype(np.int64)))
_unop("isign", "int", np.sign)
_unop("inot", "uint", lambda a: ~a)
_unop("bit_count", "uint", _bit_count, out="uint32")
_unop("ufind_msb", "uint", _ufind_msb, out="int32")
_unop("ifind_msb", "int", _ifind_msb, out="int32")
_unop("find_lsb", "int", _find_lsb, out="int32")
_unop("bitfield_reverse", "uint", _bitfield_reverse)
_binop("iadd", "int", lambda a, b: a.astype(np.int64) + b.astype(np.int64), CA)
_binop("isub", "int", lambda a, b: a.astype(np.int64) - b.astype(np.int64))
_binop("imul", "int", lambda a, b: a.astype(np.int64) * b.astype(np.int64), CA)
_binop("idiv", "int", _int_div)
_binop("irem", "int", _int_rem)
_binop("imod", "int", _int_mod)
_binop("udiv", "uint", _udiv)
_binop("umod", "uint", _umod)
_binop("imin", "int", np.minimum, CA)
_binop("imax", "int", np.maximum, CA)
_binop("umin", "uint", np.minimum, CA)
_binop("umax", "uint", np.maximum, CA)
_binop("iand", "uint", lambda a, b: a & b, CA)
_binop("ior", "uint", lambda a, b: a | b, CA)
_binop("ixor", "uint", lambda a, b: a ^ b, CA)
_binop("ishl", "int", _ishl, in2="uint32")
_binop("ishr", "int", _ishr, in2="uint32")
_binop("ushr", "uint", _ushr, in2="uint32")
_binop("umul_high", "uint32", lambda a, b: (a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(32), (COMMUTATIVE,),
       desc="high 32 bits of the 64-bit product of two 32-bit unsigned integers")
_op("ubitfield_extract", "uint", ("uint", "int32", "int32"), _ubfe)
_op("ibitfield_extract", "int", ("int", "int32", "int32"), _ibfe)
_op("bitfield_insert", "uint", ("uint", "uint", "int32", "int32"), _bitfield_insert)

# Selection.
_op("bcsel", "uint", ("bool1", "uint", "uint"), lambda c, a, b: np.where(c, a, b),
    desc="c ? a : b, per component")

# Reductions.
for _n in (2, 3, 4):
    _op(f"fdot{_n}", "float", ("float", "float"), lambda a, b: np.sum(a * b, axis=0, keepdims=True),
        out_size=1, in_sizes=(_n, _n), props=(COMMUTATIVE,))
    _op(f"ball_fequal{_n}", "bool1", ("float", "float"),
        lambda a, b: np.all(a == b, axis=0, keepdims=True), 1, (_n, _n), (COMMUTATIVE,))
    _op(f"bany_fnequal{_n}", "bool1", ("float", "float"),
        lambda a, b: np.any(a != b, axis=0, keepdims=True), 1, (_n, _n), (COMMUTATIVE,))
    _op(f"ball_iequal{_n}", "bool1", ("int", "int"),
        lambda a, b: np.all(a == b, axis=0, keepdims=True), 1, (_n, _n), (COMMUTATIVE,))
    _op(f"bany_inequal{_n}", "bool1", ("int", "int"),
        lambda a, b: np.any(a != b, axis=0, keepdims=True), 1, (_n, _n), (COMMUTATIVE,))

# Packing.
_op("pack_half_2x16", "uint32", ("float32",), _pack_half_2x16, 1, (2,))
_op("unpack_half_2x16", "float32", ("uint32",), _unpack_half_2x16, 2, (1,))
_op("pack_unorm_4x8", "uint32", ("float32",), _pack_unorm_4x8, 1, (4,))
_op("unpack_unorm_4x8", "float32", ("uint32",), _unpack_unorm_4x8, 4, (1,))

# 64-bit values as pairs of 32-bit words (the fp64/int64 lowering's seam, as NIR's).
_op("pack_64_2x32_split", "uint64", ("uint32", "uint32"),
    lambda lo, hi: lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32)), desc="lo | hi << 32")
_unop("unpack_64_2x32_split_x", "uint64", lambda a: a & np.uint64(0xFFFFFFFF), "low 32 bits", out="uint32")
_unop("unpack_64_2x32_split_y", "uint64", lambda a: a >> np.uint64(32), "high 32 bits", out="uint32")

# Conversions: <src>2<dst><size>, e.g. f2i32, u2f16, b2f32, f2b1.
_CONV_SRC = {"f": "float", "i": "int", "u": "uint", "b": "bool1"}
_CONV_DST = {"f": (16, 32, 64), "i": (8, 16, 32, 64), "u": (8, 16, 32, 64)}
for _s, _stype in _CONV_SRC.items():
    for _d, _sizes in _CONV_DST.items():
        if _s == "b" and _d == "u":
            continue
        for _size in _sizes:
            _dtype = {"f": "float", "i": "int", "u": "uint"}[_d] + str(_size)
            if _s == "f" and _d in "iu":
                _impl = _f2i
            elif _s == "b":
                _impl = lambda a: a.astype(np.int64)  # noqa: E731
            else:
                _impl = lambda a: a  # noqa: E731  (the cast to the output type does the work)
            _unop(f"{_s}2{_d}{_size}", _stype, _impl, out=_dtype)
_unop("f2b1", "float", lambda a: a != 0, out="bool1")
_unop("i2b1", "int", lambda a: a != 0, out="bool1")


# ---------------------------------------------------------------- evaluation

def _cast(value: np.ndarray, base: str, bits: int) -> np.ndarray:
    dtype = numpy_dtype(base, bits)
    value = np.asarray(value)
    if dtype.kind in "iu" and value.dtype.kind == "f":
        value = np.nan_to_num(value, nan=0.0, posinf=0.0, neginf=0.0)
        value = np.clip(value, np.iinfo(np.int64).min, np.iinfo(np.int64).max).astype(np.int64)
    if dtype.kind in "iu" and value.dtype.kind in "iub" and value.dtype != dtype:
        # Wrap (two's complement truncation) rather than saturate.
        value = value.astype(np.int64).astype(np.uint64) if value.dtype.kind != "u" else value.astype(np.uint64)
    return value.astype(dtype)


def evaluate_op(op: OpInfo, srcs: list[np.ndarray], src_bit_sizes: list[int], dest_bit_size: int) -> np.ndarray:
    """Evaluate ``op`` on raw-bit sources (already swizzled, shape ``(comps, ...)``).

    Returns the raw bits of the result (dtype from ``types.raw_dtype``). Shared by the
    constant folder and the interpreter, so they cannot disagree."""
    if op.impl is None:
        raise ValueError(f"{op.name} cannot be evaluated without neighbouring lanes")
    typed = []
    for i, (raw, bits) in enumerate(zip(srcs, src_bit_sizes)):
        base, _size = parse_type_spec(op.input_types[i])
        typed.append(np.asarray(raw).view(numpy_dtype(base, bits)) if bits != 1 else np.asarray(raw, bool))
    with np.errstate(all="ignore"):
        result = op.impl(*typed)
        out_base, _ = parse_type_spec(op.output_type)
        out = _cast(result, out_base, dest_bit_size)
    return out.view(raw_dtype(dest_bit_size)) if dest_bit_size != 1 else out
