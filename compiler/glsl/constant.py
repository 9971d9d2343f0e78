"""Constant folding on typed values.

Values (see ast.py): scalar, vector and matrix values are tuples of Python
scalars in column-major order; arrays are tuples of element values; structs
tuples of member values. int and uint arithmetic wraps at 32 bits; float
results are rounded to single precision (double stays double).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from . import types as T


def f32(x: float) -> float:
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def wrap_int(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def wrap_uint(x: int) -> int:
    return x & 0xFFFFFFFF


def wrap_bits(x: int, bits: int, signed: bool) -> int:
    x &= (1 << bits) - 1
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def normalize(base: str, x):
    """Bring a Python number into the value set of a scalar base type."""
    if base == "bool":
        return bool(x)
    if base in ("int64", "uint64"):
        return wrap_bits(int(x), 64, base == "int64")
    if base == "int":
        return wrap_int(int(x))
    if base == "uint":
        return wrap_uint(int(x))
    if base == "float":
        return f32(float(x))
    return float(x)


def convert_scalar(x, base: str):
    """GLSL scalar conversion (constructor rules): float->int truncates, x->bool is x != 0."""
    if base == "bool":
        return x != 0
    if base in ("int", "uint", "int64", "uint64"):
        if isinstance(x, float):
            if math.isnan(x) or math.isinf(x):
                return 0
            x = int(x)  # truncation toward zero
        return normalize(base, int(x))
    return normalize(base, float(x))


def convert(value: tuple, dst: T.GLSLType) -> tuple:
    """Component-wise conversion of a scalar/vector/matrix value to `dst`'s base type."""
    return tuple(convert_scalar(c, dst.base) for c in value)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _scalar_op(op: str, base: str, a, b):
    if op == "+":
        r = a + b
    elif op == "-":
        r = a - b
    elif op == "*":
        r = a * b
    elif op == "/":
        if base in ("int", "uint", "int64", "uint64"):
            if b == 0:
                return 0  # undefined; Mesa folds to 0 too
            r = _trunc_div(a, b)
        else:
            if b == 0:
                r = math.copysign(math.inf, a) if a != 0 else math.nan
            else:
                r = a / b
    elif op == "%":
        if b == 0:
            return 0
        r = a - b * _trunc_div(a, b)
    elif op == "<<":
        r = a << (b & (63 if base in ("int64", "uint64") else 31))
    elif op == ">>":
        r = a >> (b & (63 if base in ("int64", "uint64") else 31))
    elif op == "&":
        r = a & b
    elif op == "|":
        r = a | b
    elif op == "^":
        r = a ^ b
    else:
        raise KeyError(op)
    return normalize(base, r)


def _matmul(a: tuple, at: T.GLSLType, b: tuple, bt: T.GLSLType, rt: T.GLSLType) -> tuple:
    """Column-major product; vectors are columns on the right and rows on the left."""
    a_rows = at.vector_size
    a_cols = at.columns if at.is_matrix else (1 if not at.is_vector else at.vector_size)
    if at.is_vector:  # row vector * matrix
        a_rows, a_cols = 1, at.vector_size
    b_rows = bt.vector_size
    b_cols = bt.columns if bt.is_matrix else 1

    def ea(r, c):
        return a[c * a_rows + r]

    def eb(r, c):
        return b[c * b_rows + r]

    assert a_cols == b_rows, "shape mismatch in constant matrix product"
    out = []
    for c in range(b_cols):
        for r in range(a_rows):
            out.append(normalize(rt.base, sum(ea(r, k) * eb(k, c) for k in range(a_cols))))
    return tuple(out)


def fold_binary(op: str, lt: T.GLSLType, lv: tuple, rt: T.GLSLType, rv: tuple,
                result: T.GLSLType):
    """Fold `lv op rv` (operands already converted to a common base type)."""
    if op in ("==", "!="):
        eq = lv == rv
        return (eq if op == "==" else not eq,)
    if op in ("<", ">", "<=", ">="):
        a, b = lv[0], rv[0]
        return ({"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op],)
    if op in ("&&", "||", "^^"):
        a, b = lv[0], rv[0]
        return ({"&&": a and b, "||": a or b, "^^": a != b}[op],)
    if op == "*" and (lt.is_matrix or rt.is_matrix) and not (lt.is_scalar or rt.is_scalar):
        return _matmul(lv, lt, rv, rt, result)
    n = max(len(lv), len(rv))
    la = lv if len(lv) == n else lv * n
    ra = rv if len(rv) == n else rv * n
    base = result.base
    return tuple(_scalar_op(op, base, a, b) for a, b in zip(la, ra))


def fold_unary(op: str, t: T.GLSLType, v: tuple):
    if op == "-":
        return tuple(normalize(t.base, -x) for x in v)
    if op == "+":
        return v
    if op == "!":
        return (not v[0],)
    if op == "~":
        return tuple(normalize(t.base, ~x) for x in v)
    return None


# -- constructors ------------------------------------------------------------


def flatten(t: T.GLSLType, v: tuple) -> list:
    return list(v)


def construct(t: T.GLSLType, args: list[tuple[T.GLSLType, tuple]]):
    """The value of a constructor `t(args...)` with all-constant arguments."""
    if t.is_array or t.is_struct:
        return tuple(v for _, v in args)
    if t.is_matrix:
        if len(args) == 1 and args[0][0].is_matrix:
            st, sv = args[0]
            out = []
            for c in range(t.columns):
                for r in range(t.vector_size):
                    if c < st.columns and r < st.vector_size:
                        out.append(convert_scalar(sv[c * st.vector_size + r], t.base))
                    else:
                        out.append(convert_scalar(1 if r == c else 0, t.base))
            return tuple(out)
        if len(args) == 1 and args[0][0].is_scalar:
            x = convert_scalar(args[0][1][0], t.base)
            zero = convert_scalar(0, t.base)
            return tuple(x if r == c else zero for c in range(t.columns) for r in range(t.vector_size))
    comps = [convert_scalar(c, t.base) for _, v in args for c in v]
    n = t.components
    if len(comps) == 1 and n > 1:
        return tuple(comps * n)
    return tuple(comps[:n])


# -- built-in functions --------------------------------------------------------


def _round_even(x: float) -> float:
    return float(round(x))


def _sign(x):
    return (x > 0) - (x < 0) if isinstance(x, int) else float((x > 0) - (x < 0))


def _smoothstep(e0, e1, x):
    if e1 == e0:
        return 0.0
    t = min(max((x - e0) / (e1 - e0), 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


_ELEMENTWISE = {
    "radians": lambda x: x * math.pi / 180.0,
    "degrees": lambda x: x * 180.0 / math.pi,
    "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "asin": math.asin, "acos": math.acos,
    "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh,
    "exp": math.exp, "log": math.log, "exp2": lambda x: 2.0 ** x, "log2": math.log2,
    "sqrt": math.sqrt, "inversesqrt": lambda x: 1.0 / math.sqrt(x),
    "abs": abs, "sign": _sign, "floor": math.floor, "ceil": math.ceil,
    "trunc": math.trunc, "round": _round_even, "roundEven": _round_even,
    "fract": lambda x: x - math.floor(x),
}
_ELEMENTWISE2 = {
    "pow": lambda x, y: x ** y, "atan": math.atan2, "min": min, "max": max,
    "mod": lambda x, y: x - y * math.floor(x / y), "step": lambda e, x: 0.0 if x < e else 1.0,
}


def _fma(x: float, y: float, z: float) -> float:
    """x * y + z rounded once (from exact rationals) for finite operands; a double
    result (a float one is rounded again by normalize)."""
    if not all(math.isfinite(v) for v in (x, y, z)):
        return x * y + z
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    if exact == 0:
        return x * y + z                       # the sign of an exact zero
    return exact.numerator / exact.denominator


def _broadcast(values: list[tuple], n: int) -> list[tuple]:
    return [v if len(v) == n else v * n for v in values]


_M32 = 0xFFFFFFFF


def _find_msb(x: int, signed: bool) -> int:
    """findMSB: the highest bit set (of a negative int: the highest bit clear); -1 for none."""
    if signed and x < 0:
        x = ~x
    return (x & _M32).bit_length() - 1


def _bitfield_extract(x: int, offset: int, bits: int, signed: bool) -> int:
    if bits == 0:
        return 0
    field = ((x & _M32) >> offset) & ((1 << bits) - 1)
    return field - (1 << bits) if signed and field >> (bits - 1) else field


def _bitfield_insert(base: int, insert: int, offset: int, bits: int) -> int:
    mask = ((1 << bits) - 1) << offset
    return ((base & _M32) & ~mask) | (((insert & _M32) << offset) & mask)


def _ldexp32(x: float, e: int) -> float:
    """ldexp with a binary32 result: one too small for a normal number is a zero of its
    sign (denormals flushed, as the GPU's arithmetic does; GLSL 4.60 section 8.3)."""
    r = math.ldexp(x, max(min(e, 400), -400))
    return math.copysign(0.0, x) if r != 0 and abs(r) < 2.0 ** -126 else r


# GLSL 3.30 / ARB_gpu_shader5 bit casts (section 8.3): (struct format in, out)
_BIT_CASTS = {"floatBitsToInt": ("<f", "<i"), "floatBitsToUint": ("<f", "<I"),
              "intBitsToFloat": ("<i", "<f"), "uintBitsToFloat": ("<I", "<f")}

# integer built-ins of GLSL 4.00 / ARB_gpu_shader5 (section 8.8), folded in constant expressions
_BITWISE1 = {
    "bitCount": lambda x, s: bin(x & _M32).count("1"),
    "findLSB": lambda x, s: ((x & _M32) & -(x & _M32)).bit_length() - 1,
    "findMSB": _find_msb,
    "bitfieldReverse": lambda x, s: int(f"{x & _M32:032b}"[::-1], 2),
}


def fold_builtin(name: str, ret: T.GLSLType, args: list[tuple[T.GLSLType, tuple]]):
    """Fold a built-in call with constant arguments, or None when not foldable."""
    try:
        vals = [v for _, v in args]
        if ret.is_void or any(t.is_opaque for t, _ in args):
            return None
        n = max((len(v) for v in vals), default=1)
        if name in _ELEMENTWISE and len(vals) == 1:
            f = _ELEMENTWISE[name]
            return tuple(normalize(ret.base, f(x)) for x in vals[0])
        if name in _ELEMENTWISE2 and len(vals) == 2:
            f = _ELEMENTWISE2[name]
            a, b = _broadcast(vals, n)
            if name == "mod" and ret.base in ("int", "uint", "int64", "uint64"):
                return None
            return tuple(normalize(ret.base, f(x, y)) for x, y in zip(a, b))
        if name in _BITWISE1 and len(vals) == 1 and args[0][0].base in ("int", "uint"):
            signed = args[0][0].base == "int"
            return tuple(normalize(ret.base, _BITWISE1[name](x, signed)) for x in vals[0])
        if name == "bitfieldExtract":
            signed = args[0][0].base == "int"
            return tuple(normalize(ret.base, _bitfield_extract(x, vals[1][0], vals[2][0], signed)) for x in vals[0])
        if name == "bitfieldInsert":
            return tuple(normalize(ret.base, _bitfield_insert(x, y, vals[2][0], vals[3][0]))
                         for x, y in zip(vals[0], vals[1]))
        if name == "ldexp" and ret.base == "float":
            a, e = _broadcast(vals, n)
            return tuple(normalize(ret.base, _ldexp32(x, k)) for x, k in zip(a, e))
        if name in _BIT_CASTS:
            src, dst = _BIT_CASTS[name]
            return tuple(normalize(ret.base, struct.unpack(dst, struct.pack(src, x))[0]) for x in vals[0])
        if name == "fma":
            a, b, c = _broadcast(vals, n)
            return tuple(normalize(ret.base, _fma(x, y, z)) for x, y, z in zip(a, b, c))
        if name == "clamp":
            a, lo, hi = _broadcast(vals, n)
            return tuple(normalize(ret.base, min(max(x, l), h)) for x, l, h in zip(a, lo, hi))
        if name == "mix" and args[2][0].base != "bool":
            a, b, t = _broadcast(vals, n)
            return tuple(normalize(ret.base, x * (1 - s) + y * s) for x, y, s in zip(a, b, t))
        if name == "mix":
            a, b, t = _broadcast(vals, n)
            return tuple(y if s else x for x, y, s in zip(a, b, t))
        if name == "smoothstep":
            e0, e1, x = _broadcast(vals, n)
            return tuple(normalize(ret.base, _smoothstep(p, q, r)) for p, q, r in zip(e0, e1, x))
        if name == "dot":
            return (normalize(ret.base, sum(x * y for x, y in zip(*vals))),)
        if name == "length":
            return (normalize(ret.base, math.sqrt(sum(x * x for x in vals[0]))),)
        if name == "distance":
            return (normalize(ret.base, math.sqrt(sum((x - y) ** 2 for x, y in zip(*vals)))),)
        if name == "normalize":
            ln = math.sqrt(sum(x * x for x in vals[0]))
            return tuple(normalize(ret.base, x / ln) for x in vals[0])
        if name == "cross":
            (a0, a1, a2), (b0, b1, b2) = vals
            return tuple(normalize(ret.base, x) for x in
                         (a1 * b2 - b1 * a2, a2 * b0 - b2 * a0, a0 * b1 - b0 * a1))
        if name in ("lessThan", "lessThanEqual", "greaterThan", "greaterThanEqual", "equal", "notEqual"):
            op = {"lessThan": "<", "lessThanEqual": "<=", "greaterThan": ">", "greaterThanEqual": ">=",
                  "equal": "==", "notEqual": "!="}[name]
            return tuple(eval(f"x {op} y", {"x": x, "y": y}) for x, y in zip(*vals))  # noqa: S307
        if name == "any":
            return (any(vals[0]),)
        if name == "all":
            return (all(vals[0]),)
        if name == "not":
            return tuple(not x for x in vals[0])
        if name == "matrixCompMult":
            return tuple(normalize(ret.base, x * y) for x, y in zip(*vals))
        if name == "transpose":
            mt, mv = args[0]
            return tuple(mv[c * mt.vector_size + r] for r in range(mt.vector_size) for c in range(mt.columns))
        if name == "outerProduct":          # column i is c * r[i]
            c, r = vals
            return tuple(normalize(ret.base, x * y) for y in r for x in c)
        if name == "reflect":
            i, n = vals
            d = sum(x * y for x, y in zip(n, i))
            return tuple(normalize(ret.base, x - 2.0 * d * y) for x, y in zip(i, n))
        if name == "refract":
            i, n, (eta,) = vals[0], vals[1], vals[2][:1]
            d = sum(x * y for x, y in zip(n, i))
            k = 1.0 - eta * eta * (1.0 - d * d)
            if k < 0.0:
                return tuple(normalize(ret.base, 0.0) for _x in i)
            return tuple(normalize(ret.base, eta * x - (eta * d + math.sqrt(k)) * y) for x, y in zip(i, n))
        if name == "faceforward":
            n, i, nref = vals
            keep = sum(x * y for x, y in zip(nref, i)) < 0.0
            return tuple(normalize(ret.base, x if keep else -x) for x in n)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    return None
