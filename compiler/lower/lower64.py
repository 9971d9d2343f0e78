"""Lowering 64-bit floating point (and the 64-bit integer operations the ISA
lacks) to 32-bit integer IR: the pass Mesa runs as ``nir_lower_doubles`` +
``nir_lower_int64`` on GPUs without fp64, such as Apple's AGX.

After ``lower_64bit(shader)``:

- no ALU instruction computes on a 64-bit float: each (scalarised first) became
  the soft-fp64 sequence of ``compiler.lower.fp64`` on the value's two 32-bit
  words, read with ``unpack_64_2x32_split_x/y`` and rebuilt with
  ``pack_64_2x32_split`` (a register pair in the backend);
- 64-bit integer division and remainder are long divisions on word pairs
  (``compiler.lower.int64``); 64-bit integer add, multiply, shifts, logic and
  comparisons stay, the ISA having 64-bit integer ALU forms;
- 64-bit loads and stores of memory (uniforms, UBOs, SSBOs, shared, scratch)
  are 32-bit accesses of twice the components, at most four words each.

64-bit values left are moves, vectors, selects, constants and phis, which the
backend keeps in register pairs.
"""

from __future__ import annotations

from compiler.ir.builder import Builder
from compiler.ir.core import Alu, AluSrc, Def, Intrinsic, Shader, replace_uses, walk_instrs
from compiler.ir.passes.scalar import lower_alu_to_scalar

from . import fp64, int64
from .errors import LoweringError
from .words import Words

__all__ = ["lower_64bit", "LOWERED_FLOAT_OPS"]


class Lower64Error(LoweringError):
    """A 64-bit float operation this lowering cannot express (GLSL has none of them:
    transcendentals, derivatives); the compile fails with its message."""


def _unary(fn):
    return lambda w, a: fn(w, a)


def _fsub(w, a, b):
    return fp64.fadd(w, a, b, subtract=True)


def _frcp(w, a):
    return fp64.fdiv(w, _one(w), a)


def _frsq(w, a):
    return fp64.fdiv(w, _one(w), fp64.fsqrt(w, a))


def _one(w):
    return fp64.F64(w.c(0), w.c(0x3FF00000))


def _ffract(w, a):
    return _fsub(w, a, fp64.ffloor(w, a))


def _fmod(w, a, b):                      # a - b * floor(a / b), each step rounded (the IR's definition)
    return _fsub(w, a, fp64.fmul(w, b, fp64.ffloor(w, fp64.fdiv(w, a, b))))


def _flrp(w, a, b, t):                   # a * (1 - t) + b * t
    return fp64.fadd(w, fp64.fmul(w, a, _fsub(w, _one(w), t)), fp64.fmul(w, b, t))


# op -> (function of F64 operands, result kind: "f64" | "bool"); fdiv and fsqrt (and what
# uses them) emit a counted loop
_FLOAT_OPS = {
    "fneg": (fp64.fneg, "f64"), "fabs": (fp64.fabs, "f64"), "fsat": (fp64.fsat, "f64"),
    "fsign": (fp64.fsign, "f64"), "ffloor": (fp64.ffloor, "f64"), "fceil": (fp64.fceil, "f64"),
    "ftrunc": (fp64.ftrunc, "f64"), "fround_even": (fp64.fround_even, "f64"), "ffract": (_ffract, "f64"),
    "frcp": (_frcp, "f64"), "frsq": (_frsq, "f64"), "fsqrt": (fp64.fsqrt, "f64"),
    "fadd": (fp64.fadd, "f64"), "fsub": (_fsub, "f64"), "fmul": (fp64.fmul, "f64"),
    "fdiv": (fp64.fdiv, "f64"), "fmod": (_fmod, "f64"), "fmin": (fp64.fmin, "f64"),
    "fmax": (fp64.fmax, "f64"), "ffma": (fp64.ffma, "f64"), "flrp": (_flrp, "f64"),
    "flt": (fp64.flt, "bool"), "fge": (fp64.fge, "bool"), "feq": (fp64.feq, "bool"),
    "fneu": (fp64.fneu, "bool"),
}
LOWERED_FLOAT_OPS = frozenset(_FLOAT_OPS)

_REDUCTION_PREFIXES = ("fdot", "ball_fequal", "bany_fnequal")
_LOADS = {"load_uniform", "load_ubo", "load_ssbo", "load_shared", "load_scratch", "load_input",
          "load_interpolated_input"}
_STORES = {"store_ssbo", "store_shared", "store_scratch", "store_output"}
_VARYING_IO = {"load_input", "load_interpolated_input", "store_output"}   # components count words


def _is_float64_op(i: Alu) -> bool:
    op = i.op
    src_bits = i.srcs[0].def_.bit_size if i.srcs else 0
    if op in _FLOAT_OPS or op.startswith(_REDUCTION_PREFIXES):
        return src_bits == 64
    if len(op) >= 4 and op[1] == "2" and op[0] in "fiub":
        dst_f64 = op[2] == "f" and op[3:] == "64"
        int64_float = (op[0] in "iu" and src_bits == 64 and op[2] == "f") or \
            (op[0] == "f" and op[2] in "iu" and op[3:] == "64")        # no 64-bit int <-> float convert
        return (op[0] == "f" and src_bits == 64) or dst_f64 or int64_float
    return False


def _is_int64_lowered(i: Alu) -> bool:
    return i.op in int64.LOWERED_OPS and i.dest.bit_size == 64


def lower_64bit(shader: Shader) -> bool:
    """The pass (see the module docstring). Raises ``Lower64Error`` for a 64-bit
    float operation GLSL does not have (transcendentals, derivatives)."""
    progress = False
    if lower_alu_to_scalar(shader, filter=lambda i: _is_float64_op(i) or _is_int64_lowered(i)):
        progress = True
    for func in shader.functions:
        for i in walk_instrs(func.body):
            if isinstance(i, Alu) and i.op[0] == "f" and i.op not in _FLOAT_OPS and i.dest.bit_size == 64 \
                    and not i.op.startswith(_REDUCTION_PREFIXES) and "2" not in i.op[1:3]:
                raise Lower64Error(f"64-bit floating-point {i.op} is not supported (no fp64 unit; not lowered)")
        mapping: dict[Def, Def] = {}
        # collected first: a lowered division or root adds a loop, splitting its block
        todo = [i for i in walk_instrs(func.body)
                if (isinstance(i, Alu) and (_is_float64_op(i) or _is_int64_lowered(i))) or
                (isinstance(i, Intrinsic) and i.name in _LOADS and i.dest.bit_size == 64) or
                (isinstance(i, Intrinsic) and i.name in _STORES and i.srcs[0].bit_size == 64)]
        found = (None, 0)           # (block, index) of the last instruction lowered: the next is after it
        for instr in todo:
            b = Builder(func, shader)
            block = instr.block
            b.block, b.index = block, block.instrs.index(instr, found[1] if found[0] is block else 0)
            if isinstance(instr, Alu):
                srcs = [_resolve(mapping, s) for s in instr.srcs]
                mapping[instr.dest] = _lower_alu(b, instr, srcs)
            elif instr.name in _LOADS:
                mapping[instr.dest] = _lower_load(b, instr)
            else:
                _lower_store(b, instr, _resolve_def(mapping, instr.srcs[0]))
            block = instr.block      # a lowered division or root splits the block: the code after moved
            at = b.index if b.block is block and b.index is not None else block.instrs.index(instr)
            assert block.instrs[at] is instr
            del block.instrs[at]
            instr.block = None
            found = (block, at)
            progress = True
        replace_uses(func.body, mapping)
    return progress


def _resolve_def(mapping, d: Def) -> Def:
    while d in mapping:
        d = mapping[d]
    return d


def _resolve(mapping, s: AluSrc) -> AluSrc:
    return AluSrc(_resolve_def(mapping, s.def_), s.swizzle)


def _words_of(b: Builder, s: AluSrc) -> fp64.F64:
    """The two words of scalar 64-bit source ``s``."""
    one = AluSrc(s.def_, (s.swizzle[0],))
    v = s.def_ if s.def_.num_components == 1 else b.mov(one)
    return fp64.F64(b.unpack_64_2x32_split_x(v), b.unpack_64_2x32_split_y(v), v)


def _scalar32(b: Builder, s: AluSrc) -> Def:
    return b.mov(AluSrc(s.def_, (s.swizzle[0],)))


def _pack(b: Builder, x: fp64.F64) -> Def:
    return x.v if x.v is not None else b.pack_64_2x32_split(x.lo, x.hi)


def _lower_alu(b: Builder, i: Alu, srcs: list[AluSrc]) -> Def:
    w = Words(b, anchor=i)
    op = i.op
    assert i.dest.num_components == 1, "scalarised first"
    if op == "ffma" and not i.exact:
        # a multiply-add the compiler formed (a matrix product: from_ast's mat_vec) rounds
        # twice, as Mesa's soft-fp64 __ffma64 does: a fused one costs three times the code.
        # GLSL's fma() is marked exact and stays fused.
        a, b_, c = (_words_of(b, s) for s in srcs)
        return _pack(b, fp64.fadd(w, fp64.fmul(w, a, b_), c))
    if op in _FLOAT_OPS:
        fn, kind = _FLOAT_OPS[op]
        result = fn(w, *[_words_of(b, s) for s in srcs])
        return result if kind == "bool" else _pack(b, result)
    if op in int64.LOWERED_OPS:
        return int64.lower_op(w, op, [_words_of(b, s) for s in srcs])
    # conversions: <src>2<dst><bits>
    s, d, bits = op[0], op[2], int(op[3:])
    src_bits = srcs[0].def_.bit_size
    if s == "f" and src_bits == 64:
        x = _words_of(b, srcs[0])
        if d == "f":
            if bits == 64:
                return _pack(b, x)
            if bits == 32:
                return fp64.f64_to_f32(w, x)
            return b.f2f16(fp64.f64_to_f32(w, x))
        if d == "b":
            return w.ne(w.or_(w.and_(x.hi, 0x7FFFFFFF), x.lo), 0)
        words = fp64.f64_to_int(w, x, 2 if bits == 64 else 1, signed=d == "i")
        if bits == 64:
            return b.pack_64_2x32_split(words[0], words[1])
        if bits == 32:
            return words[0]
        return b.alu(f"u2u{bits}", words[0])
    if s == "f" and d in "iu":                 # float32/16 -> 64-bit integer, through the exact double
        f = _scalar32(b, srcs[0]) if src_bits == 32 else b.f2f32(AluSrc(srcs[0].def_, (srcs[0].swizzle[0],)))
        words = fp64.f64_to_int(w, fp64.f2f64_from32(w, f), 2, signed=d == "i")
        return b.pack_64_2x32_split(words[0], words[1])
    if s in "iu" and src_bits == 64 and d == "f" and bits != 64:     # 64-bit integer -> float32, one rounding
        x = _words_of(b, srcs[0])
        f = fp64.int_to_f32(w, [x.lo, x.hi], signed=s == "i")
        return f if bits == 32 else b.f2f16(f)
    # a conversion to double
    assert d == "f" and bits == 64, op
    if s == "f":
        f = _scalar32(b, srcs[0]) if src_bits == 32 else b.f2f32(AluSrc(srcs[0].def_, (srcs[0].swizzle[0],)))
        return _pack(b, fp64.f2f64_from32(w, f))
    if s == "b":
        one = w.sel(_scalar32(b, srcs[0]), 0x3FF00000, 0)
        return b.pack_64_2x32_split(w.c(0), one)
    if src_bits == 64:
        x = _words_of(b, srcs[0])
        return _pack(b, fp64.int_to_f64(w, [x.lo, x.hi], signed=s == "i"))
    v = _scalar32(b, srcs[0])
    if src_bits < 32:
        v = b.alu(f"{s}2{s}32", AluSrc(srcs[0].def_, (srcs[0].swizzle[0],)))
    return _pack(b, fp64.int_to_f64(w, [v], signed=s == "i"))


# ---------------------------------------------------------------- memory

def _offset_moves(i: Intrinsic) -> tuple[str, int | None]:
    """How to address the second half of a split access: ("base", None) to add to
    the ``base`` index, or ("src", k) to add to source k."""
    if i.name in ("load_ubo", "load_ssbo"):
        return "src", 1
    if i.name == "store_ssbo":
        return "src", 2
    return "base", None


def _chunk(b: Builder, i: Intrinsic, first: int) -> tuple[list[Def], dict]:
    srcs, ix = list(i.srcs), dict(i.indices)
    if i.name in _VARYING_IO:
        # shader inputs/outputs: 32-bit word components; the words of a dvec3/dvec4 run
        # on into the second of its two locations (component 4 on), which lower_io's
        # location offsets already count
        ix["component"] = 2 * ix.get("component", 0) + 2 * first
        return srcs, ix
    byte_offset = 8 * first
    if byte_offset:
        how, k = _offset_moves(i)
        if how == "src":
            srcs[k] = b.iadd(srcs[k], b.iimm(byte_offset, srcs[k].bit_size))
        else:
            ix["base"] = ix.get("base", 0) + byte_offset
    return srcs, ix


def _lower_load(b: Builder, i: Intrinsic) -> Def:
    n = i.dest.num_components
    parts: list[Def] = []
    for first in range(0, n, 2):
        count = min(2, n - first)
        srcs, ix = _chunk(b, i, first)
        if "range" in ix:
            ix["range"] = 8 * count
        if "align" in ix:
            ix["align"] = min(ix["align"], 8)
        words = b.intrinsic(i.name, *srcs, num_components=2 * count, bit_size=32, **ix)
        for c in range(count):
            parts.append(b.pack_64_2x32_split(b.channel(words, 2 * c), b.channel(words, 2 * c + 1)))
    return parts[0] if n == 1 else b.vec(*parts)


def _lower_store(b: Builder, i: Intrinsic, value: Def) -> None:
    n = value.num_components
    mask = i.indices.get("write_mask", (1 << n) - 1)
    for first in range(0, n, 2):
        count = min(2, n - first)
        sub_mask = mask >> first & ((1 << count) - 1)
        if not sub_mask:
            continue
        srcs, ix = _chunk(b, i, first)
        words = []
        for c in range(first, first + count):
            one = AluSrc(value, (c,))
            words += [b.unpack_64_2x32_split_x(one), b.unpack_64_2x32_split_y(one)]
        ix["write_mask"] = sum(3 << (2 * c) for c in range(count) if sub_mask >> c & 1)
        if "align" in ix:
            ix["align"] = min(ix["align"], 8)
        srcs[0] = b.vec(*words)
        b.intrinsic(i.name, *srcs, **ix)
