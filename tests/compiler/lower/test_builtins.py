"""Every GLSL built-in function lowered to IR ops, executed on the IR interpreter and
compared with numpy within the GLSL precision (section 4.7.1 of GLSL 4.30: the
operations the ISA has natively are exact in the interpreter; expansions are held
to a few ULP / 1e-5 relative, atan-based ones to 1e-6 rad absolute)."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.glsl.builtin_functions import all_builtin_functions
from compiler.lower.builtins import BUILTIN_NAMES
from tests.compiler.lower.harness import as_f32, as_i32, run_fragment, run_vertex

LANES = 64
rng = np.random.default_rng(7)


def U(lo, hi):
    return rng.uniform(lo, hi, (4, LANES)).astype(np.float32)


def run(expr: str, inputs: dict, out_type="vec4", version="430", decls="", lanes=LANES):
    ins = "".join(f"in {_t(v)} {k};\n" for k, v in inputs.items())
    flat = "flat " if out_type[0] in "iu" else ""
    src = f"#version {version}\n{ins}{decls}{flat}out {out_type} r;\nvoid main() {{ r = {expr}; }}\n"
    outs, _info, _it = run_vertex(src, inputs, lanes)
    raw = outs["r"]
    return as_f32(raw) if out_type.startswith("vec") or out_type == "float" else (
        as_i32(raw) if out_type[0] == "i" or out_type == "int" else raw)


def _t(v):
    return {"f": "vec4", "i": "ivec4", "u": "uvec4"}[np.asarray(v).dtype.kind]


def close(got, want, rtol=1e-5, atol=1e-6):
    want = np.asarray(want, np.float64)
    got = np.asarray(got, np.float64)[:want.shape[0]]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# name -> (expression, inputs, numpy reference, rtol, atol)
a_any, b_any, c_any = U(-4, 4), U(-4, 4), U(0, 1)
a_pos, b_pos = U(0.01, 8), U(-3, 3)
a_unit = U(-0.999, 0.999)
FLOAT_CASES = {
    "radians": ("radians(a)", {"a": a_any}, lambda a: np.radians(a), 1e-6, 1e-6),
    "degrees": ("degrees(a)", {"a": a_any}, lambda a: np.degrees(a), 1e-6, 1e-5),
    "sin": ("sin(a)", {"a": a_any}, np.sin, 1e-6, 1e-6),
    "cos": ("cos(a)", {"a": a_any}, np.cos, 1e-6, 1e-6),
    "tan": ("tan(a)", {"a": U(-1.4, 1.4)}, np.tan, 1e-5, 1e-6),
    "asin": ("asin(a)", {"a": a_unit}, np.arcsin, 1e-5, 2e-6),
    "acos": ("acos(a)", {"a": a_unit}, np.arccos, 1e-5, 2e-6),
    "atan": ("atan(a)", {"a": U(-50, 50)}, np.arctan, 1e-6, 1e-6),
    "atan2": ("atan(a, b)", {"a": a_any, "b": b_any}, np.arctan2, 1e-6, 2e-6),
    "sinh": ("sinh(a)", {"a": U(-5, 5)}, np.sinh, 1e-5, 1e-5),
    "cosh": ("cosh(a)", {"a": U(-5, 5)}, np.cosh, 1e-5, 1e-5),
    "tanh": ("tanh(a)", {"a": U(-12, 12)}, np.tanh, 1e-5, 1e-6),
    "asinh": ("asinh(a)", {"a": a_any}, np.arcsinh, 1e-5, 1e-6),
    "acosh": ("acosh(a)", {"a": U(1.01, 9)}, np.arccosh, 1e-5, 1e-6),
    "atanh": ("atanh(a)", {"a": U(-0.95, 0.95)}, np.arctanh, 1e-5, 1e-6),
    "pow": ("pow(a, b)", {"a": a_pos, "b": b_pos}, np.power, 2e-5, 1e-6),
    "exp": ("exp(a)", {"a": U(-10, 10)}, np.exp, 3e-6, 0),
    "log": ("log(a)", {"a": a_pos}, np.log, 1e-6, 1e-6),
    "exp2": ("exp2(a)", {"a": U(-10, 10)}, np.exp2, 1e-6, 0),
    "log2": ("log2(a)", {"a": a_pos}, np.log2, 1e-6, 1e-6),
    "sqrt": ("sqrt(a)", {"a": a_pos}, np.sqrt, 1e-6, 0),
    "inversesqrt": ("inversesqrt(a)", {"a": a_pos}, lambda a: 1 / np.sqrt(a), 1e-6, 0),
    "abs": ("abs(a)", {"a": a_any}, np.abs, 0, 0),
    "sign": ("sign(a)", {"a": a_any}, np.sign, 0, 0),
    "floor": ("floor(a)", {"a": a_any}, np.floor, 0, 0),
    "trunc": ("trunc(a)", {"a": a_any}, np.trunc, 0, 0),
    "round": ("round(a)", {"a": a_any}, np.rint, 0, 0),
    "roundEven": ("roundEven(a * 2.0 + 0.5)", {"a": np.round(a_any)}, lambda a: np.rint(a * 2 + 0.5), 0, 0),
    "ceil": ("ceil(a)", {"a": a_any}, np.ceil, 0, 0),
    "fract": ("fract(a)", {"a": a_any}, lambda a: a - np.floor(a), 0, 1e-7),
    "mod": ("mod(a, b)", {"a": a_any, "b": U(0.5, 3)}, lambda a, b: a - b * np.floor(a / b), 1e-5, 1e-6),
    "mod_scalar": ("mod(a, 1.25)", {"a": a_any}, lambda a: a - 1.25 * np.floor(a / 1.25), 1e-5, 1e-6),
    "min": ("min(a, b)", {"a": a_any, "b": b_any}, np.minimum, 0, 0),
    "max": ("max(a, b.x)", {"a": a_any, "b": b_any}, lambda a, b: np.maximum(a, b[0]), 0, 0),
    "clamp": ("clamp(a, -1.0, b.y)", {"a": a_any, "b": U(0, 2)}, lambda a, b: np.clip(a, -1, b[1]), 0, 0),
    "mix": ("mix(a, b, c)", {"a": a_any, "b": b_any, "c": c_any}, lambda a, b, c: a * (1 - c) + b * c, 1e-5, 1e-6),
    "mix_bool": ("mix(a, b, greaterThan(c, vec4(0.5)))", {"a": a_any, "b": b_any, "c": c_any},
                 lambda a, b, c: np.where(c > 0.5, b, a), 0, 0),
    "step": ("step(b, a)", {"a": a_any, "b": b_any}, lambda a, b: (a >= b).astype(np.float32), 0, 0),
    "smoothstep": ("smoothstep(-1.0, 2.0, a)", {"a": a_any},
                   lambda a: (lambda t: t * t * (3 - 2 * t))(np.clip((a + 1) / 3, 0, 1)), 1e-5, 1e-6),
    "isnan": ("vec4(isnan(a / b))", {"a": np.where(a_any > 2, 0, a_any).astype(np.float32),
                                     "b": np.where(a_any > 2, 0, 1).astype(np.float32)},
              lambda a, b: np.isnan(np.float32(a) / b).astype(np.float32), 0, 0),
    "isinf": ("vec4(isinf(a / b))", {"a": a_any, "b": np.where(b_any > 2, 0, 1).astype(np.float32)},
              lambda a, b: np.isinf(a / b).astype(np.float32), 0, 0),
    "fma": ("fma(a, b, c)", {"a": a_any, "b": b_any, "c": c_any}, lambda a, b, c: a * b + c, 1e-6, 1e-6),
    "ldexp": ("ldexp(a, ivec4(b * 10.0))", {"a": a_any, "b": b_any},
              lambda a, b: np.ldexp(a, np.trunc(b * 10).astype(int)), 1e-6, 0),
    "length": ("vec4(length(a), length(a.xy), length(a.xyz), length(a.x))", {"a": a_any},
               lambda a: np.stack([np.linalg.norm(a, axis=0), np.linalg.norm(a[:2], axis=0),
                                   np.linalg.norm(a[:3], axis=0), np.abs(a[0])]), 1e-6, 0),
    "distance": ("vec4(distance(a, b))", {"a": a_any, "b": b_any},
                 lambda a, b: np.broadcast_to(np.linalg.norm(a - b, axis=0), (4, LANES)), 1e-6, 0),
    "dot": ("vec4(dot(a, b), dot(a.xy, b.xy), dot(a.xyz, b.xyz), dot(a.x, b.x))", {"a": a_any, "b": b_any},
            lambda a, b: np.stack([np.sum(a * b, 0), np.sum(a[:2] * b[:2], 0), np.sum(a[:3] * b[:3], 0),
                                   a[0] * b[0]]), 1e-5, 1e-5),
    "cross": ("vec4(cross(a.xyz, b.xyz), 0.0)", {"a": a_any, "b": b_any},
              lambda a, b: np.concatenate([np.cross(a[:3].T, b[:3].T).T, np.zeros((1, LANES))]), 1e-5, 1e-5),
    "normalize": ("normalize(a)", {"a": a_any}, lambda a: a / np.linalg.norm(a, axis=0), 1e-6, 1e-6),
    "faceforward": ("faceforward(a, b, c)", {"a": a_any, "b": b_any, "c": U(-1, 1)},
                    lambda a, n_i, nref: np.where(np.sum(nref * n_i, 0) < 0, a, -a), 0, 0),
    "reflect": ("reflect(a, normalize(b))", {"a": a_any, "b": b_any},
                lambda i, n: (lambda n: i - 2 * np.sum(n * i, 0) * n)(n / np.linalg.norm(n, axis=0)), 1e-5, 1e-5),
    "refract": ("refract(normalize(a), normalize(b), 0.7)", {"a": a_any, "b": b_any}, None, 1e-5, 1e-5),
    "dFdx": None, "dFdy": None, "fwidth": None,
}


def _refract(i, n, eta=0.7):
    i = i / np.linalg.norm(i, axis=0)
    n = n / np.linalg.norm(n, axis=0)
    d = np.sum(n * i, 0)
    k = 1 - eta * eta * (1 - d * d)
    return np.where(k < 0, 0, eta * i - (eta * d + np.sqrt(np.maximum(k, 0))) * n)


@pytest.mark.parametrize("case", [k for k, v in FLOAT_CASES.items() if v is not None])
def test_float_builtin(case):
    expr, inputs, ref, rtol, atol = FLOAT_CASES[case]
    if case == "refract":
        ref = _refract
    got = run(expr, inputs)
    want = ref(*[np.asarray(v, np.float64) if case not in ("isnan",) else v for v in inputs.values()])
    close(got, want, rtol, atol)


def test_modf_frexp():
    a = U(-100, 100)
    got = run("vec4(modf(a.x, tmp), tmp, frexp(a.y, e), float(e))", {"a": a},
              decls="float tmp; int e;\n")
    frac, whole = np.modf(a[0])
    m, ex = np.frexp(a[1])
    close(got, np.stack([frac, whole, m, ex]), 0, 1e-5)


def test_modf_in_main_scope():
    a = U(-100, 100)
    src = """#version 430
in vec4 a; out vec4 r;
void main() { vec4 i; vec4 f = modf(a, i); r = f + i * 0.0 + (a - i - f); }"""
    outs, _i, _it = run_vertex(src, {"a": a}, LANES)
    close(as_f32(outs["r"]), np.modf(a)[0], 0, 1e-5)


def test_bit_encoding():
    a = U(-100, 100)
    got = run("ivec4(floatBitsToInt(a.x), floatBitsToUint(a.y), floatBitsToInt(intBitsToFloat(floatBitsToInt(a.z))),"
              " floatBitsToUint(uintBitsToFloat(floatBitsToUint(a.w))))", {"a": a}, out_type="ivec4")
    np.testing.assert_array_equal(got.view(np.uint32), a.view(np.uint32))


PACK_V = U(-1.2, 1.2)
PACK_NAMES = ("Unorm2x16", "Snorm2x16", "Unorm4x8", "Snorm4x8")


@pytest.mark.parametrize("name,n,bits,signed", [("Unorm2x16", 2, 16, False), ("Snorm2x16", 2, 16, True),
                                                ("Unorm4x8", 4, 8, False), ("Snorm4x8", 4, 8, True)])
def test_pack_unpack_norm(name, n, bits, signed):
    v = PACK_V
    arg = "a" if n == 4 else "a.xy"
    got = run(f"uvec4(pack{name}({arg}))", {"a": v}, out_type="uvec4")[0]
    scale = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    q = np.rint(np.clip(v[:n], -1 if signed else 0, 1) * scale).astype(np.int64) & ((1 << bits) - 1)
    want = sum(q[i] << (bits * i) for i in range(n)).astype(np.uint32)
    np.testing.assert_array_equal(got, want)
    back = run(f"vec4(unpack{name}(pk.x){'' if n == 4 else ', 0.0, 0.0'})",
               {"pk": np.stack([want] * 4).astype(np.uint32)})
    ref = np.clip(v[:n], -1 if signed else 0, 1)
    np.testing.assert_allclose(back[:n], ref, atol=1 / scale)


def test_pack_half():
    v = U(-1000, 1000)
    got = run("uvec4(packHalf2x16(a.xy))", {"a": v}, out_type="uvec4")[0]
    h = v[:2].astype(np.float16).view(np.uint16).astype(np.uint32)
    np.testing.assert_array_equal(got, h[0] | (h[1] << 16))
    back = run("vec4(unpackHalf2x16(p.x), 0.0, 0.0)", {"p": np.stack([got] * 4)})
    np.testing.assert_array_equal(back[:2], v[:2].astype(np.float16).astype(np.float32))


MATS = {2: rng.uniform(-2, 2, (2, 2)), 3: rng.uniform(-2, 2, (3, 3)), 4: rng.uniform(-2, 2, (4, 4))}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_matrix_functions(n):
    m = MATS[n].astype(np.float32)        # numpy [row][col]
    cols = ", ".join(f"{float(m[r, c])!r}" for c in range(n) for r in range(n))
    decl = f"const mat{n} M = mat{n}({cols});\n"
    got = run("vec4(determinant(M))", {"a": a_any}, decls=decl)
    close(got[0], np.full(LANES, np.linalg.det(m.astype(np.float64))), 1e-5, 1e-5)
    inv = np.linalg.inv(m.astype(np.float64))
    for c in range(n):
        g = run(f"vec4(inverse(M)[{c}]{', 0.0' * (4 - n)})", {"a": a_any}, decls=decl)
        close(g[:n, 0], inv[:, c], 1e-4, 1e-5)
        g = run(f"vec4(transpose(M)[{c}]{', 0.0' * (4 - n)})", {"a": a_any}, decls=decl)
        close(g[:n, 0], m.T[:, c], 0, 0)
        g = run(f"vec4(matrixCompMult(M, M)[{c}]{', 0.0' * (4 - n)})", {"a": a_any}, decls=decl)
        close(g[:n, 0], (m * m)[:, c], 1e-6, 0)
        sw = "xyzw"[:n]
        g = run(f"vec4(outerProduct(a.{sw}, b.{'wzyx'[:n]})[{c}]{', 0.0' * (4 - n)})", {"a": a_any, "b": b_any},
                decls=decl)
        close(g[:n], a_any[:n] * b_any[::-1][c], 1e-6, 1e-6)


def test_non_square_matrices():
    a, b = a_any, b_any
    src = """#version 430
in vec4 a; in vec4 b; out vec4 r;
void main() {
    mat2x3 m = mat2x3(a.xyz, b.xyz);           // 2 columns of 3
    mat3x2 t = transpose(m);
    vec3 v = m * a.xy;                          // 3-vector
    vec2 w = a.xyz * m;                         // row vector times matrix
    mat2 p = t * m;                             // 2x2
    r = vec4(v.x + w.y, p[1][0], determinant(p), outerProduct(a.xy, b.xyz)[2][1]);
}"""
    outs, _i, _it = run_vertex(src, {"a": a, "b": b}, LANES)
    got = as_f32(outs["r"]).astype(np.float64)
    m = np.stack([a[:3], b[:3]], axis=1)        # [row 3][col 2][lane]
    v = np.einsum("rcl,cl->rl", m, a[:2])
    w = np.einsum("rl,rcl->cl", a[:3], m)
    p = np.einsum("rcl,rdl->cdl", m, m)        # m^T m: [c][d]
    want = np.stack([v[0] + w[1], p[0, 1], p[0, 0] * p[1, 1] - p[0, 1] * p[1, 0], a[1] * b[2]])
    close(got, want, 1e-5, 1e-5)


REL = {"lessThan": np.less, "lessThanEqual": np.less_equal, "greaterThan": np.greater,
       "greaterThanEqual": np.greater_equal, "equal": np.equal, "notEqual": np.not_equal}


@pytest.mark.parametrize("name", sorted(REL))
@pytest.mark.parametrize("kind", ["vec4", "ivec4", "uvec4"])
def test_vector_relational(name, kind):
    a = np.round(U(0, 4)) if kind == "vec4" else np.round(U(0, 4)).astype(np.int32)
    b = np.round(U(0, 4)) if kind == "vec4" else np.round(U(0, 4)).astype(np.int32)
    if kind == "uvec4":
        a, b = a.astype(np.uint32), b.astype(np.uint32)
    got = run(f"vec4({name}(a, b))", {"a": a, "b": b})
    np.testing.assert_array_equal(got, REL[name](a, b).astype(np.float32))


def test_any_all_not_bvec():
    a, b = np.round(U(0, 2)), np.round(U(0, 2))
    got = run("vec4(any(lessThan(a, b)), all(lessThan(a.xy, b.xy)), not(equal(a.zw, b.zw)))", {"a": a, "b": b})
    want = np.stack([np.any(a < b, 0), np.all(a[:2] < b[:2], 0), a[2] != b[2], a[3] != b[3]]).astype(np.float32)
    np.testing.assert_array_equal(got, want)
    got = run("vec4(equal(lessThan(a, b), greaterThan(b, a)))", {"a": a, "b": b})
    np.testing.assert_array_equal(got, np.ones((4, LANES), np.float32))


IA = rng.integers(-2**31, 2**31, (4, LANES)).astype(np.int32)
IB = rng.integers(-2**31, 2**31, (4, LANES)).astype(np.int32)


def test_integer_common():
    small = (IA % 1000).astype(np.int32)
    got = run("ivec4(abs(a.x), sign(a.y), min(a.z, b.z), clamp(a.w, -50, 50))", {"a": small, "b": IB % 1000},
              out_type="ivec4")
    want = np.stack([np.abs(small[0]), np.sign(small[1]), np.minimum(small[2], IB[2] % 1000),
                     np.clip(small[3], -50, 50)])
    np.testing.assert_array_equal(got, want)
    ua, ub = IA.view(np.uint32), IB.view(np.uint32)
    got = run("uvec4(max(a.x, b.x), min(a.y, b.y), clamp(a.z, 10u, 1000000u), a.w / (b.w | 1u))",
              {"a": ua, "b": ub}, out_type="uvec4")
    want = np.stack([np.maximum(ua[0], ub[0]), np.minimum(ua[1], ub[1]), np.clip(ua[2], 10, 1000000),
                     ua[3] // (ub[3] | 1)])
    np.testing.assert_array_equal(got, want)


def test_uadd_usub_umul_imul():
    ua, ub = IA.view(np.uint32), IB.view(np.uint32)
    got = run("uvec4(uaddCarry(a.x, b.x, c1), c1, usubBorrow(a.y, b.y, c2), c2)", {"a": ua, "b": ub},
              out_type="uvec4", decls="uint c1; uint c2;\n")
    s = ua[0].astype(np.uint64) + ub[0]
    np.testing.assert_array_equal(got[0], (s & 0xFFFFFFFF).astype(np.uint32))
    np.testing.assert_array_equal(got[1], (s >> 32).astype(np.uint32))
    np.testing.assert_array_equal(got[2], (ua[1].astype(np.int64) - ub[1]).astype(np.uint64).astype(np.uint32))
    np.testing.assert_array_equal(got[3], (ua[1] < ub[1]).astype(np.uint32))
    src = """#version 430
in uvec4 a; in uvec4 b; flat out uvec4 r;
void main() { uint hi, lo; int ihi, ilo; umulExtended(a.x, b.x, hi, lo);
  imulExtended(int(a.y), int(b.y), ihi, ilo); r = uvec4(hi, lo, uint(ihi), uint(ilo)); }"""
    outs, _i, _it = run_vertex(src, {"a": ua, "b": ub}, LANES)
    got = outs["r"]
    p = ua[0].astype(object) * ub[0].astype(object)
    np.testing.assert_array_equal(got[0], np.array([int(x) >> 32 for x in p], np.uint64).astype(np.uint32))
    np.testing.assert_array_equal(got[1], np.array([int(x) & 0xFFFFFFFF for x in p], np.uint64).astype(np.uint32))
    sp = IA[1].astype(object) * IB[1].astype(object)
    np.testing.assert_array_equal(got[2], np.array([(int(x) >> 32) & 0xFFFFFFFF for x in sp], np.uint64)
                                  .astype(np.uint32))
    np.testing.assert_array_equal(got[3], np.array([int(x) & 0xFFFFFFFF for x in sp], np.uint64).astype(np.uint32))


def _bfe(v, off, bits, signed):
    out = []
    for x, o, n in zip(v, off, bits):
        u = (int(x) & 0xFFFFFFFF) >> int(o)
        u &= (1 << int(n)) - 1
        if signed and n and u >> (int(n) - 1):
            u -= 1 << int(n)
        out.append(u if n else 0)
    return np.array(out, np.int64)


def test_bitfield_functions():
    off = rng.integers(0, 32, LANES)
    bits = np.array([rng.integers(0, 33 - o) for o in off])
    bits[:2] = [32, 0]
    off[:2] = 0
    a = np.stack([IA[0], off, bits, IB[0]]).astype(np.int32)
    got = run("ivec4(bitfieldExtract(a.x, a.y, a.z), int(bitfieldExtract(uint(a.x), a.y, a.z)),"
              " bitfieldInsert(a.x, a.w, a.y, a.z), bitfieldReverse(a.x))", {"a": a}, out_type="ivec4")
    np.testing.assert_array_equal(got[0], _bfe(IA[0], off, bits, True).astype(np.int32))
    np.testing.assert_array_equal(got[1].view(np.uint32), _bfe(IA[0], off, bits, False).astype(np.uint32))
    ins = []
    for x, y, o, n in zip(IA[0], IB[0], off, bits):
        mask = ((1 << int(n)) - 1) << int(o)
        ins.append(((int(x) & ~mask) | ((int(y) << int(o)) & mask)) & 0xFFFFFFFF)
    np.testing.assert_array_equal(got[2].view(np.uint32), np.array(ins, np.uint64).astype(np.uint32))
    rev = [int(f"{int(x) & 0xFFFFFFFF:032b}"[::-1], 2) for x in IA[0]]
    np.testing.assert_array_equal(got[3].view(np.uint32), np.array(rev, np.uint64).astype(np.uint32))


def test_bit_counting():
    a = IA.copy()
    a[:, :3] = [[0, -1, 1]] * 4
    got = run("ivec4(bitCount(a.x), findLSB(a.y), findMSB(a.z), findMSB(uint(a.w)))", {"a": a}, out_type="ivec4")
    u = a.view(np.uint32)
    np.testing.assert_array_equal(got[0], [bin(int(x)).count("1") for x in u[0]])
    np.testing.assert_array_equal(got[1], [(int(x) & -int(x)).bit_length() - 1 if x else -1 for x in u[1]])
    msb = [(int(x) if x >= 0 else ~int(x)).bit_length() - 1 for x in a[2]]
    np.testing.assert_array_equal(got[2], msb)
    np.testing.assert_array_equal(got[3], [int(x).bit_length() - 1 for x in u[3]])


def test_noise_is_zero():
    got = run("vec4(noise1(a), noise2(a).y, noise3(a).z, noise4(a).w)", {"a": a_any})
    np.testing.assert_array_equal(got, 0)


def test_derivatives_in_fragment_shader():
    lanes = 16
    x = rng.uniform(-2, 2, (4, lanes)).astype(np.float32)
    src = """#version 430
in vec4 v; out vec4 o;
void main() { o = vec4(dFdx(v.x), dFdy(v.y), fwidth(v.z), 0.0); }"""
    from compiler.lower import RenderTarget
    from compiler.ir import ShaderKey
    key = ShaderKey.make(render_targets=(RenderTarget(format="i32"),))
    tiles, _info, _it = run_fragment(src, {"v": x}, lanes, key=key)
    got = as_f32(tiles[0])
    q = x.reshape(4, -1, 2, 2)               # lane = 4*quad + 2*y + x
    ddx = (q[..., 1:2] - q[..., 0:1]).repeat(2, -1).reshape(4, lanes)
    ddy = (q[..., 1:2, :] - q[..., 0:1, :]).repeat(2, -2).reshape(4, lanes)
    np.testing.assert_allclose(got[0], ddx[0], atol=1e-6)
    np.testing.assert_allclose(got[1], ddy[1], atol=1e-6)
    np.testing.assert_allclose(got[2], np.abs(ddx[2]) + np.abs(ddy[2]), atol=1e-6)


def test_ftransform_uses_the_mvp_uniform():
    m = rng.uniform(-1, 1, (4, 4)).astype(np.float32)      # [col][row]
    v = U(-3, 3)
    src = "#version 110\nvoid main() { gl_Position = ftransform(); }\n"
    outs, info, _it = run_vertex(src, {"gl_Vertex": v}, LANES, uniforms={"gl_ModelViewProjectionMatrix": m})
    assert info.uniforms["gl_ModelViewProjectionMatrix"].matrix_stride_B == 16
    close(as_f32(outs["gl_Position"]), np.einsum("cr,cl->rl", m, v), 1e-5, 1e-5)


# Functions tested elsewhere (textures, images, atomics, barriers: test_memory.py/test_texture.py).
TESTED_ELSEWHERE = {"interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset", "barrier",
                    "memoryBarrier", "memoryBarrierAtomicCounter", "memoryBarrierBuffer", "memoryBarrierShared",
                    "memoryBarrierImage", "groupMemoryBarrier", "atomicCounterIncrement", "atomicCounterDecrement",
                    "atomicCounter",
                    # EXT_gpu_shader4's name for trunc: drawn in tests/driver/gl/test_gpu_shader4.py
                    "truncate",
                    # AMD_shader_trinary_minmax: tests/driver/gl/test_trinary_minmax.py
                    "min3", "max3", "mid3",
                    # ARB_shader_clock: tests/driver/gl/test_shader_clock.py (a counter, no fixed value)
                    "clock2x32ARB", "clockARB",
                    # doubles: tests/compiler/test_fp64_glsl.py; int64: tests/compiler/test_int64_glsl.py
                    "packDouble2x32", "unpackDouble2x32", "doubleBitsToInt64", "doubleBitsToUint64",
                    "int64BitsToDouble", "uint64BitsToDouble", "packInt2x32", "packUint2x32", "unpackInt2x32",
                    "unpackUint2x32",
                    # group votes: tests/compiler/test_group_vote_compile.py, tests/driver/gl/test_group_vote.py
                    "anyInvocation", "allInvocations", "allInvocationsEqual", "anyInvocationARB",
                    "allInvocationsARB", "allInvocationsEqualARB",
                    # ARB_shader_ballot: tests/driver/gl/test_shader_ballot.py, tests/drmshim/usc/test_simd.py
                    "ballotARB", "readInvocationARB", "readFirstInvocationARB",
                    # ARB_derivative_control: drawn in tests/driver/gl/test_core_extensions.py
                    "dFdxFine", "dFdyFine", "fwidthFine", "dFdxCoarse", "dFdyCoarse", "fwidthCoarse",
                    # geometry stage: tests/compiler/test_geometry.py and tests/driver/gl/test_geometry.py
                    "EmitVertex", "EndPrimitive",
                    # vertex streams: tests/driver/gl/test_geometry_streams.py
                    "EmitStreamVertex", "EndStreamPrimitive"}
NOT_LOWERED: set = set()


def test_every_builtin_name_is_lowered_and_tested():
    names = {f.name for f in all_builtin_functions()}
    from compiler.lower.builtins import _is_texture_function
    lowered = set(BUILTIN_NAMES) | {n for n in names if _is_texture_function(n) or n.startswith(("atomic", "image"))}
    assert names - lowered == NOT_LOWERED
    import inspect
    import sys
    text = inspect.getsource(sys.modules[__name__])
    covered = set(REL) | {f"{p}{n}" for p in ("pack", "unpack") for n in PACK_NAMES}
    missing = [n for n in names if not n.startswith(("texture", "texel", "shadow", "image", "atomic"))
               and n not in TESTED_ELSEWHERE | NOT_LOWERED | covered and f"{n}(" not in text]
    assert not missing, missing
