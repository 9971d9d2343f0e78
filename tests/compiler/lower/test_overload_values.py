"""Every overload (each genType size and base) of the ALU built-in functions is
executed on the IR interpreter with random inputs and compared with numpy,
component by component, within the GLSL precision (relative 2e-5 / absolute 2e-6
for expansions; exact for the integer, bit and relational functions)."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.glsl.builtin_functions import all_builtin_functions
from tests.compiler.lower.harness import as_f32, as_i32, run_vertex

LANES = 32
rng = np.random.default_rng(2024)


def _atan(y, x=None):
    return np.arctan(y) if x is None else np.arctan2(y, x)


def _sx(a):   # integers as signed 32-bit, from any integer array
    return np.asarray(a, np.int64).astype(np.uint32).view(np.int32).astype(np.int64)


def _bfe(v, off, bits, signed):
    v = np.asarray(v, np.int64) & 0xFFFFFFFF
    out = (v >> off) & ((np.int64(1) << bits) - 1)
    if signed:
        sign = (out >> np.maximum(bits - 1, 0)) & 1
        out = np.where((bits > 0) & (sign == 1), out - (np.int64(1) << bits), out)
    return np.where(bits == 0, 0, out)


def _bfi(base, ins, off, bits):
    mask = ((np.int64(1) << bits) - 1) << off
    return ((np.asarray(base, np.int64) & ~mask) | ((np.asarray(ins, np.int64) << off) & mask)) & 0xFFFFFFFF


def _msb(v, signed):
    v = np.asarray(v, np.int64)
    if signed:
        v = np.where(v < 0, ~v, v)
    v = v & 0xFFFFFFFF
    return np.array([int(x).bit_length() - 1 for x in v.ravel()]).reshape(v.shape)


def _lsb(v):
    v = np.asarray(v, np.int64) & 0xFFFFFFFF
    return np.array([(int(x) & -int(x)).bit_length() - 1 if x else -1 for x in v.ravel()]).reshape(v.shape)


def _rev(v):
    v = np.asarray(v, np.int64) & 0xFFFFFFFF
    return np.array([int(f"{int(x):032b}"[::-1], 2) for x in v.ravel()]).reshape(v.shape)


def _dot(a, b):
    return np.sum(a * b, axis=0, keepdims=True)


def _norm(a):
    return np.sqrt(_dot(a, a))


def _refract(i, n, eta):
    d = _dot(n, i)
    k = 1 - eta * eta * (1 - d * d)
    return np.where(k < 0, 0.0, eta * i - (eta * d + np.sqrt(np.maximum(k, 0))) * n)


# name -> (reference, float input range, integer input range, tolerance (rtol, atol))
F = (-4.0, 4.0)
REF = {
    "radians": (np.radians, F), "degrees": (np.degrees, F), "sin": (np.sin, F), "cos": (np.cos, F),
    "tan": (np.tan, (-1.4, 1.4)), "asin": (np.arcsin, (-0.99, 0.99)), "acos": (np.arccos, (-0.99, 0.99)),
    "atan": (_atan, (-30, 30)), "sinh": (np.sinh, F), "cosh": (np.cosh, F), "tanh": (np.tanh, F),
    "asinh": (np.arcsinh, F), "acosh": (np.arccosh, (1.01, 9)), "atanh": (np.arctanh, (-0.95, 0.95)),
    "pow": (np.power, (0.1, 4)), "exp": (np.exp, F), "log": (np.log, (0.01, 9)), "exp2": (np.exp2, F),
    "log2": (np.log2, (0.01, 9)), "sqrt": (np.sqrt, (0, 9)), "inversesqrt": (lambda a: 1 / np.sqrt(a), (0.01, 9)),
    "abs": (np.abs, F), "sign": (np.sign, F), "floor": (np.floor, F), "trunc": (np.trunc, F),
    "round": (np.rint, F), "roundEven": (np.rint, F), "ceil": (np.ceil, F), "fract": (lambda a: a - np.floor(a), F),
    "mod": (lambda a, b: a - b * np.floor(a / b), (0.5, 4)), "min": (np.minimum, F), "max": (np.maximum, F),
    "clamp": (lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi), F),
    "mix": (lambda x, y, a: np.where(a, y, x) if a.dtype == bool else x * (1 - a) + y * a, (0, 1)),
    "step": (lambda e, x: (x >= e).astype(float), F),
    "smoothstep": (lambda e0, e1, x: (lambda t: t * t * (3 - 2 * t))(np.clip((x - e0) / (e1 - e0), 0, 1)), (0, 1)),
    "isnan": (np.isnan, F), "isinf": (np.isinf, F), "fma": (lambda a, b, c: a * b + c, F),
    "ldexp": (lambda x, e: np.ldexp(x, e.astype(int)), F),
    "length": (_norm, F), "distance": (lambda a, b: _norm(a - b), F), "dot": (_dot, F),
    "cross": (lambda a, b: np.cross(a.T, b.T).T, F), "normalize": (lambda a: a / _norm(a), F),
    "faceforward": (lambda n, i, r: np.where(_dot(r, i) < 0, n, -n), F),
    "reflect": (lambda i, n: i - 2 * _dot(n, i) * n, F), "refract": (_refract, (-0.7, 0.7)),
    "lessThan": (np.less, F), "lessThanEqual": (np.less_equal, F), "greaterThan": (np.greater, F),
    "greaterThanEqual": (np.greater_equal, F), "equal": (np.equal, F), "notEqual": (np.not_equal, F),
    "any": (lambda b: np.any(b, axis=0, keepdims=True), F), "all": (lambda b: np.all(b, axis=0, keepdims=True), F),
    "not": (np.logical_not, F),
    "bitCount": (lambda v: np.array([bin(int(x) & 0xFFFFFFFF).count("1") for x in v.ravel()]).reshape(v.shape), F),
    "findLSB": (_lsb, F), "bitfieldReverse": (_rev, F),
    "noise1": (lambda x: np.zeros((1, x.shape[1])), F), "noise2": (lambda x: np.zeros((2, x.shape[1])), F),
    "noise3": (lambda x: np.zeros((3, x.shape[1])), F), "noise4": (lambda x: np.zeros((4, x.shape[1])), F),
}
SPECIAL = {"findMSB", "bitfieldExtract", "bitfieldInsert", "floatBitsToInt", "floatBitsToUint", "intBitsToFloat",
           "uintBitsToFloat", "modf", "frexp", "uaddCarry", "usubBorrow", "umulExtended", "imulExtended"}
TOLERANCE = {"pow": (3e-5, 1e-6), "exp": (3e-6, 0), "sinh": (1e-5, 1e-5), "cosh": (1e-5, 1e-5),
             "refract": (1e-5, 1e-5), "atanh": (1e-5, 1e-6), "asinh": (1e-5, 1e-6), "acosh": (1e-5, 1e-6),
             "tanh": (1e-5, 1e-6), "smoothstep": (1e-5, 1e-6), "mod": (1e-5, 1e-5), "distance": (1e-5, 1e-6),
             # i - 2 dot(n, i) n cancels: with inputs in [-4, 4] the float32 terms reach
             # 2 * 16 * 4 * 4 = 512, whose rounding (512 * 2^-24 ~ 3e-5) bounds the error
             "reflect": (2e-6, 1e-4)}

OVERLOADS = [f for f in all_builtin_functions()
             if (f.name in REF or f.name in SPECIAL) and f.availability.desktop  # (ES-only mix(bvec): below)
             and not any(t.is_matrix or t.is_opaque or t.base == "double" for _d, t in f.params)]


def _decl(t):
    return {"float": "vec4", "int": "ivec4", "uint": "uvec4", "bool": "ivec4"}[t.base]


def _arg(i, t):
    sw = "xyzw"[:t.vector_size]
    if t.base == "bool":
        return f"(a{i}.x != 0)" if t.vector_size == 1 else f"notEqual(a{i}.{sw}, ivec{t.vector_size}(0))"
    return f"a{i}.{sw}"


def _inputs(f, lo_hi):
    vals = {}
    for i, (_d, t) in enumerate(f.params):
        if _d != "in":
            continue
        if t.base == "float":
            lo, hi = lo_hi
            vals[f"a{i}"] = rng.uniform(lo, hi, (4, LANES)).astype(np.float32)
        elif t.base == "bool":
            vals[f"a{i}"] = rng.integers(0, 2, (4, LANES)).astype(np.int32)
        elif f.name in ("ldexp",):
            vals[f"a{i}"] = rng.integers(-20, 20, (4, LANES)).astype(np.int32)
        elif f.name in ("min", "max", "clamp", "abs", "sign", "lessThan", "lessThanEqual", "greaterThan",
                        "greaterThanEqual", "equal", "notEqual", "mix"):
            vals[f"a{i}"] = rng.integers(-5, 5, (4, LANES)).astype(np.int32 if t.base == "int" else np.int64) \
                .astype(np.int32) if t.base == "int" else rng.integers(0, 9, (4, LANES)).astype(np.uint32)
        else:
            vals[f"a{i}"] = rng.integers(-2**31, 2**31, (4, LANES)).astype(np.int32)
            if t.base == "uint":
                vals[f"a{i}"] = vals[f"a{i}"].view(np.uint32)
    return vals


def _source(f, extra_outs=()):
    decls = "".join(f"in {_decl(t)} a{i};\n" for i, (d, t) in enumerate(f.params) if d == "in")
    args, outs = [], []
    for i, (d, t) in enumerate(f.params):
        if d == "in":
            args.append(_arg(i, t))
        else:
            args.append(f"o{i}")
            outs.append((i, t))
    call = f"{f.name}({', '.join(args)})"
    rt = f.return_type
    lines = [f"{t} o{i};" for i, t in outs]
    body = []
    if not rt.is_void:
        body.append(f"r = {_widen(rt, call)};")
    else:
        body.append(f"{call};")
    for i, t in outs:
        body.append(f"r{i} = {_widen(t, f'o{i}')};")
    outdecl = "" if rt.is_void else f"{_flat(rt)}out {_wide(rt)} r;\n"
    outdecl += "".join(f"{_flat(t)}out {_wide(t)} r{i};\n" for i, t in outs)
    version = max(430, f.availability.desktop)     # mix(genBType...) is GLSL 4.50
    return (f"#version {version}\n{decls}{outdecl}void main() {{\n  " + " ".join(lines) + "\n  "
            + "\n  ".join(body) + "\n}\n")


def _wide(t):
    return {"float": "vec4", "int": "ivec4", "uint": "uvec4", "bool": "ivec4"}[t.base]


def _flat(t):
    return "" if t.base == "float" else "flat "


def _widen(t, expr):
    n = t.vector_size
    zero = {"float": "0.0", "int": "0", "uint": "0u", "bool": "0"}[t.base]
    inner = expr if t.base != "bool" else (f"int({expr})" if n == 1 else f"ivec{n}({expr})")
    return f"{_wide(t)}({inner}{(', ' + zero) * (4 - n)})"


def _read(raw, t):
    if t.base == "float":
        return as_f32(raw)[:t.vector_size].astype(np.float64)
    if t.base == "uint":
        return np.asarray(raw, np.uint32)[:t.vector_size].astype(np.int64)
    return as_i32(raw)[:t.vector_size].astype(np.int64)


def _np_args(f, vals):
    out = []
    for i, (d, t) in enumerate(f.params):
        if d != "in":
            continue
        v = vals[f"a{i}"][:t.vector_size]
        if t.base == "bool":
            v = v != 0
        elif t.base == "float":
            v = v.astype(np.float64)
        else:
            v = v.astype(np.int64)
        out.append(v)
    return out


def _special(name, f, args):
    """(return value, out values) references for the functions with out parameters or bit tricks."""
    if name == "findMSB":
        return _msb(args[0], f.params[0][1].base == "int"), []
    if name == "bitfieldExtract":
        return _bfe(args[0], args[1], args[2], f.params[0][1].base == "int"), []
    if name == "bitfieldInsert":
        return _bfi(args[0], args[1], args[2], args[3]), []
    if name in ("floatBitsToInt", "floatBitsToUint"):
        return args[0].astype(np.float32).view(np.uint32).astype(np.int64), []
    if name in ("intBitsToFloat", "uintBitsToFloat"):
        return args[0].astype(np.int64).astype(np.uint32).view(np.float32).astype(np.float64), []
    if name == "modf":
        fr, wh = np.modf(args[0])
        return fr, [wh]
    if name == "frexp":
        m, e = np.frexp(args[0])
        return m, [e]
    if name == "uaddCarry":
        s = args[0] + args[1]
        return s & 0xFFFFFFFF, [s >> 32]
    if name == "usubBorrow":
        return (args[0] - args[1]) & 0xFFFFFFFF, [(args[0] < args[1]).astype(np.int64)]
    if name in ("umulExtended", "imulExtended"):
        a, b = (args[0], args[1]) if name == "umulExtended" else (_sx(args[0]), _sx(args[1]))
        p = a.astype(object) * b.astype(object)
        hi = np.vectorize(lambda x: (int(x) >> 32) & 0xFFFFFFFF, otypes=[np.int64])(p)
        lo = np.vectorize(lambda x: int(x) & 0xFFFFFFFF, otypes=[np.int64])(p)
        return None, [hi, lo]
    raise KeyError(name)


@pytest.mark.parametrize("index", range(len(OVERLOADS)),
                         ids=[f"{f.name}({','.join(str(t) for _d, t in f.params)})" for f in OVERLOADS])
def test_overload_value(index):
    f = OVERLOADS[index]
    name = f.name
    ref, lo_hi = (REF[name][0], REF[name][1]) if name in REF else (None, F)
    if name in ("floatBitsToInt", "floatBitsToUint"):
        lo_hi = (-1e6, 1e6)
    if name in ("modf", "frexp"):
        lo_hi = (-100.0, 100.0)
    vals = _inputs(f, lo_hi)
    if name in ("bitfieldExtract", "bitfieldInsert"):        # offset + bits <= 32
        k = 1 if name == "bitfieldExtract" else 2
        off = rng.integers(0, 32, (4, LANES))
        vals[f"a{k}"] = off.astype(np.int32)
        vals[f"a{k + 1}"] = np.array([[rng.integers(0, 33 - o) for o in row] for row in off], np.int32)
    src = _source(f)
    outs, _info, it = run_vertex(src, vals, LANES)
    args = _np_args(f, vals)
    if name in SPECIAL:
        want, want_outs = _special(name, f, args)
    else:
        want, want_outs = ref(*args), []
    rtol, atol = TOLERANCE.get(name, (2e-6, 2e-6))
    exact = f.return_type.base in ("int", "uint", "bool") or name in ("abs", "sign", "floor", "ceil", "trunc",
                                                                         "round", "roundEven", "min", "max", "clamp")
    if want is not None:
        got = _read(outs["r"], f.return_type)
        want = np.asarray(want, np.float64 if f.return_type.base == "float" else np.int64)
        if f.return_type.base == "int":
            want = _sx(want)
        want = np.broadcast_to(want, got.shape)
        if exact:
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    outs_t = [(i, t) for i, (d, t) in enumerate(f.params) if d != "in"]
    for (i, t), w in zip(outs_t, want_outs):
        got = _read(outs[f"r{i}"], t)
        w = np.asarray(w, np.float64 if t.base == "float" else np.int64)
        np.testing.assert_array_equal(got, _sx(w) if t.base == "int" else w)


def test_most_overloads_are_executed():
    assert len(OVERLOADS) > 350


def test_es_mix_of_booleans_and_integers():
    src = """#version 310 es
in highp ivec4 a; in highp ivec4 b; in highp ivec4 c; flat out highp ivec4 r; flat out highp ivec4 s;
void main() { bvec4 m = notEqual(c, ivec4(0));
  r = ivec4(mix(notEqual(a, ivec4(0)), notEqual(b, ivec4(0)), m)); s = mix(a, b, m); }"""
    a, b, c = (rng.integers(-3, 3, (4, LANES)).astype(np.int32) for _ in range(3))
    outs, _i, _it = run_vertex(src, {"a": a, "b": b, "c": c}, LANES)
    np.testing.assert_array_equal(as_i32(outs["r"]), np.where(c != 0, b != 0, a != 0))
    np.testing.assert_array_equal(as_i32(outs["s"]), np.where(c != 0, b, a))
