"""GLSL int64 (GL_ARB_gpu_shader_int64) end to end: int64_t/uint64_t and their
vectors, 64-bit literals, conversions, arithmetic (division lowered to word
pairs), comparisons and the built-ins, on the IR interpreter and on the GPU model,
against numpy int64/uint64."""

import numpy as np
import pytest

from compiler.compile import front_half
from compiler.glsl import GLSLCompileError
from compiler.lower import LowerInterpreter

LANES = 16
RNG = np.random.default_rng(31)
A = RNG.integers(-2 ** 63, 2 ** 63, LANES, dtype=np.int64) >> RNG.integers(0, 62, LANES)
B = RNG.integers(-2 ** 63, 2 ** 63, LANES, dtype=np.int64) >> RNG.integers(0, 62, LANES)
A[:4] = [-2 ** 63, 2 ** 63 - 1, -7, 0]
B[:4] = [3, -1, 2, 5]
B[B == 0] = 1

HEAD = "#version 430\n#extension GL_ARB_gpu_shader_int64 : require\n"


def _run(expr, out="int64_t", a=A, b=B, decl=""):
    src = HEAD + f"""layout(local_size_x = {LANES}) in;
layout(std430, binding = 0) buffer In {{ int64_t v[]; }};
layout(std430, binding = 1) buffer Out {{ {out} r[]; }};
{decl}
void main() {{ uint i = gl_GlobalInvocationID.x; int64_t a = v[2u * i]; int64_t b = v[2u * i + 1u];
  uint64_t ua = uint64_t(a), ub = uint64_t(b); r[i] = {expr}; }}"""
    shader, _info = front_half(src, "compute")
    data = np.stack([a, b], 1).reshape(-1).view(np.uint8).copy()
    result = np.zeros(LANES * 8, np.uint8)
    LowerInterpreter(lanes=LANES, ssbos={0: data, 1: result}).run(shader)
    return result


def _u(x):
    return np.asarray(x).astype(np.int64).view(np.uint64)


CASES = [
    ("a + b * 3l - 0x100000000l", lambda a, b, ua, ub: a + b * 3 - 0x100000000),
    ("a / b", lambda a, b, ua, ub: _tdiv(a, b)),
    ("a % b", lambda a, b, ua, ub: a - b * _tdiv(a, b)),
    ("int64_t(ua / ub)", lambda a, b, ua, ub: (ua // ub).view(np.int64)),
    ("int64_t(ua % ub)", lambda a, b, ua, ub: (ua % ub).view(np.int64)),
    ("(a << 3) ^ (a >> 5) | int64_t(ua >> 7ul)",
     lambda a, b, ua, ub: (a << 3) ^ (a >> 5) | (ua >> np.uint64(7)).view(np.int64)),
    ("-a & ~b", lambda a, b, ua, ub: -a & ~b),
    ("a < b ? 1l : (ua < ub ? 2l : 3l)", lambda a, b, ua, ub: np.where(a < b, 1, np.where(ua < ub, 2, 3))),
    ("min(a, b) + max(a, 0l) + abs(b) + sign(a)", lambda a, b, ua, ub: np.minimum(a, b) + np.maximum(a, 0)
     + np.abs(b) + np.sign(a)),
    ("clamp(a, -1000l, 1000l)", lambda a, b, ua, ub: np.clip(a, -1000, 1000)),
    ("int64_t(int(a)) + int64_t(uint(b)) + int64_t(7)", lambda a, b, ua, ub: a.astype(np.int32).astype(np.int64)
     + b.astype(np.uint32).astype(np.int64) + 7),
    ("int64_t(double(a >> 11) * 2.0lf)", lambda a, b, ua, ub: ((a >> 11).astype(np.float64) * 2).astype(np.int64)),
    ("int64_t(float(a))", lambda a, b, ua, ub: np.where(np.abs(a.astype(np.float32)) < 2.0 ** 63,
                                                        a.astype(np.float32), 0).astype(np.int64)),
]


def _tdiv(a, b):
    q = np.abs(a.astype(object)) // np.abs(b.astype(object))
    q = np.where((a < 0) != (b < 0), -q, q)
    return np.array([int(x) & (2 ** 64 - 1) for x in q], np.uint64).view(np.int64)


@pytest.mark.parametrize("expr,ref", CASES, ids=[e for e, _ in CASES])
def test_int64_expressions_on_the_interpreter(expr, ref):
    if expr == "int64_t(float(a))":
        a = A.copy()
        a[:2] = [1 << 40, -(1 << 50)]
    else:
        a = A
    got = _run(expr, a=a).view(np.int64)
    with np.errstate(all="ignore"):
        expected = np.asarray(ref(a, B, _u(a), _u(B)), np.int64)
    if expr == "int64_t(float(a))":
        keep = np.abs(a) < 2 ** 62
        got, expected = got[keep], expected[keep]
    np.testing.assert_array_equal(got, expected)


def test_int64_needs_its_extension_and_literal_suffixes():
    with pytest.raises(GLSLCompileError):
        front_half("#version 430\nvoid main() { int64_t x = 1; }", "vertex")
    with pytest.raises(GLSLCompileError):
        front_half("#version 430\nvoid main() { int x = int(1l); }", "vertex")
    front_half(HEAD + "void main() { int64_t x = 1l; uint64_t y = 0xFFFFFFFFFFFFFFFFul; i64vec2 v = i64vec2(x); "
               "u64vec4 w = u64vec4(y); int64_t z = 2; uint64_t q = 3u; double d = x; }", "vertex")


def test_int64_bit_casts_and_packing():
    got = _run("int64_t(unpackInt2x32(a).y) + packInt2x32(ivec2(7, -1)) + doubleBitsToInt64(int64BitsToDouble(b))")
    expected = (A >> 32) + np.int64(-(1 << 32) + 7) + B
    np.testing.assert_array_equal(got.view(np.int64), expected)
    got = _run("packUint2x32(unpackUint2x32(ua) + uvec2(1u, 0u)) + doubleBitsToUint64(1.0lf)", out="uint64_t")
    lo = (_u(A) & np.uint64(0xFFFFFFFF)) + np.uint64(1)
    expected = ((_u(A) & ~np.uint64(0xFFFFFFFF)) | (lo & np.uint64(0xFFFFFFFF))) + np.float64(1).view(np.uint64)
    np.testing.assert_array_equal(got.view(np.uint64), expected)


def test_int64_vector_relational_functions():
    got = _run("uint64_t(lessThan(i64vec2(a, b), i64vec2(b, a)).x) + 2ul * uint64_t(greaterThan(u64vec2(ua), "
               "u64vec2(ub)).y) + 4ul * uint64_t(all(equal(i64vec3(a), i64vec3(a))))", out="uint64_t")
    expected = (A < B).astype(np.uint64) + 2 * (_u(A) > _u(B)).astype(np.uint64) + 4
    np.testing.assert_array_equal(got.view(np.uint64), expected)


def test_int64_on_the_shader_core():
    """Native 64-bit integer ALU forms (add, multiply, shifts, compares) and the
    lowered division, compiled by the backend and run by the shader core."""
    from .backend.harness import Run
    n = 64
    rng = np.random.default_rng(8)
    a = rng.integers(-2 ** 63, 2 ** 63, n, dtype=np.int64) >> rng.integers(0, 62, n)
    b = rng.integers(-2 ** 40, 2 ** 40, n, dtype=np.int64)
    b[b == 0] = 3
    shader, _info = front_half(HEAD + """layout(std430, binding = 0) buffer B { i64vec4 v[]; };
    void main() { int i = gl_VertexID; int64_t a = v[i].x, b = v[i].y;
                  v[i].z = a * 5l + (a >> 3) - b; v[i].w = a / b + (a < b ? 1l : 0l); gl_Position = vec4(0.0); }""",
                               "vertex")
    data = np.stack([a, b, np.zeros(n, np.int64), np.zeros(n, np.int64)], 1).reshape(-1)
    _ctx, out = Run(shader).core(n, ssbos={0: data.view(np.uint8)})
    out = np.frombuffer(bytes(out[0]), np.int64).reshape(n, 4)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out[:, 2], a * 5 + (a >> 3) - b)
    np.testing.assert_array_equal(out[:, 3], _tdiv(a, b) + (a < b))


def test_int64_float_conversions_round_once_on_the_core():
    """int64 -> float rounds the 64-bit value once (not through a double); float ->
    int64 truncates; both lowered to word code, here compiled and run on the core."""
    from .backend.harness import Run
    n = 64
    rng = np.random.default_rng(9)
    a = rng.integers(-2 ** 63, 2 ** 63, n, dtype=np.int64) >> rng.integers(0, 62, n)
    # 2^53 + 2^29 + 1 rounds up as a float; through a double (2^53 + 2^29 exactly) it would tie to even
    a[:2] = [2 ** 53 + 2 ** 29 + 1, -(2 ** 53 + 2 ** 29 + 1)]
    f = rng.uniform(-2 ** 40, 2 ** 40, n).astype(np.float32)
    shader, _info = front_half(HEAD + """layout(std430, binding = 0) buffer B { int64_t a[64]; float f[64];
        float ra[64]; int64_t rf[64]; };
    void main() { int i = gl_VertexID; ra[i] = float(a[i]); rf[i] = int64_t(f[i]); gl_Position = vec4(0.0); }""",
                               "vertex")
    data = np.concatenate([a.view(np.uint8), f.view(np.uint8), np.zeros(4 * n, np.uint8), np.zeros(8 * n, np.uint8)])
    _ctx, out = Run(shader).core(n, ssbos={0: data})
    out = np.frombuffer(bytes(out[0]), np.uint8)
    np.testing.assert_array_equal(out[12 * n:16 * n].view(np.float32), a.astype(np.float32))
    np.testing.assert_array_equal(out[16 * n:24 * n].view(np.int64), np.trunc(f).astype(np.int64))
    assert out[12 * n:12 * n + 4].view(np.float32)[0] == np.float32(2 ** 53 + 2 ** 30)
