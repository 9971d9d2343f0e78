"""GLSL built-in functions end to end: each one compiled from GLSL by the whole
compiler (front half + backend), run on the shader core as a compute shader
over random inputs, and compared with numpy within the GLSL precision rules
(exact where the specification asks for exactness; 2^-11 absolute for sin/cos;
a few ulp for division, exp, log, pow, inversesqrt; derived functions as their
definitions allow)."""

import numpy as np
import pytest

from compiler.compile import compile_glsl
from drmshim.gpu.usc import ExecContext

from .harness import Run

N = 128
RNG = np.random.default_rng(11)
X, Y, Z = (RNG.uniform(-2, 2, (N, 4)).astype(np.float64) for _ in range(3))
for arr in (X, Y, Z):
    arr[:4, 0] = [0.0, 1.0, -1.0, 0.5]
F = np.float32

SRC = """#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Inp {{ vec4 a[]; }};
layout(std430, binding = 1) buffer Outp {{ vec4 r[]; }};
void main() {{
  uint i = gl_GlobalInvocationID.x;
  vec4 x = a[3u * i], y = a[3u * i + 1u], z = a[3u * i + 2u];
  {decl}
  r[i] = vec4({expr});
}}
"""


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def run_compute(expr: str, decl: str = "", raw: bool = False) -> np.ndarray:
    compiled = compile_glsl(SRC.format(expr=expr, decl=decl), "compute")
    inputs = np.stack([X, Y, Z], axis=1).astype(np.float32).reshape(-1)
    ctx = ExecContext.for_compute((N // 64, 1, 1), (64, 1, 1), local_memory_B=compiled.local_memory_B)
    _, out = _Compiled(compiled).core(N, ssbos={0: inputs.view(np.uint8), 1: np.zeros(N * 16, np.uint8)}, ctx=ctx)
    words = out[1].view(np.uint32).reshape(N, 4)
    return words if raw else words.view(np.float32).astype(np.float64)


def f32(v):
    return np.asarray(v, np.float32).astype(np.float64)


def vec4(*cols):
    cols = [np.broadcast_to(np.asarray(c, np.float64), (N,)) if np.ndim(c) <= 1 else c for c in cols]
    out = []
    for c in cols:
        out.extend([c] if c.ndim == 1 else [c[:, k] for k in range(c.shape[1])])
    return np.stack(out, axis=1)


x, y, z = f32(X), f32(Y), f32(Z)


def smooth(e0, e1, v):
    t = np.clip((v - e0) / (e1 - e0), 0, 1)
    return t * t * (3 - 2 * t)


def refl(i, n):
    return i - 2 * np.sum(n * i, axis=1, keepdims=True) * n


def norm(v):
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def refr(i, n, eta):
    d = np.sum(n * i, axis=1, keepdims=True)
    k = 1 - eta * eta * (1 - d * d)
    return np.where(k < 0, 0.0, eta * i - (eta * d + np.sqrt(np.maximum(k, 0))) * n)


def mat(*cols):       # (N, 4 cols, rows)
    return np.stack(cols, axis=1)


def bits(v, t=np.int32):
    return np.asarray(v, np.float32).view(t)


def ivec(v):
    return np.trunc(np.asarray(v, np.float32)).astype(np.int64).astype(np.int32)


def bit_reverse(a):
    u = a.astype(np.uint32).astype(np.uint64)
    r = np.zeros_like(u)
    for k in range(32):
        r |= ((u >> np.uint64(k)) & np.uint64(1)) << np.uint64(31 - k)
    return r.astype(np.uint32).view(np.int32)


def find_lsb(a):
    u = a.astype(np.uint32)
    return np.where(u == 0, -1, np.log2((u & (~u + np.uint32(1))).astype(np.float64)).astype(np.int32))


def find_msb(a):
    u = np.where(a < 0, ~a, a).astype(np.uint32).astype(np.float64)
    return np.where(u == 0, -1, np.floor(np.log2(np.maximum(u, 1))).astype(np.int32))


def u(v):
    return (np.abs(np.asarray(v, np.float32)) * np.float32(1e9)).astype(np.uint32).astype(np.uint64)


# name: (GLSL expression, numpy reference (N, 4), rtol, atol[, declarations])
CASES = {
    "radians": ("radians(x)", lambda: np.radians(x), 1e-6, 0),
    "degrees": ("degrees(x)", lambda: np.degrees(x), 1e-6, 0),
    "sin": ("sin(x)", lambda: np.sin(x), 0, 2 ** -11),
    "cos": ("cos(x)", lambda: np.cos(x), 0, 2 ** -11),
    "tan": ("tan(x * 0.5)", lambda: np.tan(x * 0.5), 1e-4, 2 ** -11),
    "asin": ("asin(x * 0.45)", lambda: np.arcsin(f32(x * 0.45)), 1e-4, 1e-4),
    "acos": ("acos(x * 0.45)", lambda: np.arccos(f32(x * 0.45)), 1e-4, 1e-4),
    "atan": ("atan(x)", lambda: np.arctan(x), 1e-4, 1e-4),
    "atan2": ("atan(x, y)", lambda: np.arctan2(x, y), 1e-4, 1e-4),
    "sinh": ("sinh(x)", lambda: np.sinh(x), 1e-4, 1e-4),
    "cosh": ("cosh(x)", lambda: np.cosh(x), 1e-4, 1e-4),
    "tanh": ("tanh(x)", lambda: np.tanh(x), 1e-4, 1e-4),
    "asinh": ("asinh(x)", lambda: np.arcsinh(x), 1e-4, 1e-4),
    "acosh": ("acosh(abs(x) + 1.0)", lambda: np.arccosh(f32(np.abs(x) + 1)), 1e-4, 1e-3),
    "atanh": ("atanh(x * 0.45)", lambda: np.arctanh(f32(x * 0.45)), 1e-4, 1e-4),
    "pow": ("pow(abs(x) + 0.1, y)", lambda: np.power(f32(np.abs(x) + 0.1), y), 1e-5, 1e-6),
    "exp": ("exp(x)", lambda: np.exp(x), 1e-5, 1e-6),
    "log": ("log(abs(x) + 0.1)", lambda: np.log(f32(np.abs(x) + 0.1)), 1e-5, 2 ** -21),
    "exp2": ("exp2(x)", lambda: np.exp2(x), 1e-6, 0),
    "log2": ("log2(abs(x) + 0.1)", lambda: np.log2(f32(np.abs(x) + 0.1)), 1e-6, 2 ** -21),
    "sqrt": ("sqrt(abs(x))", lambda: np.sqrt(np.abs(x)), 1e-6, 0),
    "inversesqrt": ("inversesqrt(abs(x) + 0.1)", lambda: 1 / np.sqrt(f32(np.abs(x) + 0.1)), 1e-6, 0),
    "abs": ("abs(x)", lambda: np.abs(x), 0, 0),
    "sign": ("sign(x)", lambda: np.sign(x), 0, 0),
    "floor": ("floor(x)", lambda: np.floor(x), 0, 0),
    "trunc": ("trunc(x)", lambda: np.trunc(x), 0, 0),
    "round": ("round(x * 4.0)", lambda: np.rint(f32(x * 4)), 0, 0),
    "roundEven": ("roundEven(x * 4.0)", lambda: np.rint(f32(x * 4)), 0, 0),
    "ceil": ("ceil(x)", lambda: np.ceil(x), 0, 0),
    "fract": ("fract(x)", lambda: f32(x - np.floor(x)), 1e-7, 1e-7),
    "mod": ("mod(x, y)", lambda: x - y * np.floor(x / y), 1e-5, 1e-5),
    "modf": ("modf(x, f) + f * 10.0", lambda: (x - np.trunc(x)) + np.trunc(x) * 10, 1e-6, 1e-6, "vec4 f;"),
    "min": ("min(x, y)", lambda: np.minimum(x, y), 0, 0),
    "max": ("max(x, y)", lambda: np.maximum(x, y), 0, 0),
    "clamp": ("clamp(x, -0.5, 0.75)", lambda: np.clip(x, -0.5, 0.75), 0, 0),
    "mix": ("mix(x, y, z)", lambda: x * (1 - z) + y * z, 1e-5, 1e-5),
    "mix_bool": ("mix(x, y, lessThan(x, z))", lambda: np.where(x < z, y, x), 0, 0),
    "step": ("step(y, x)", lambda: (x >= y).astype(float), 0, 0),
    "smoothstep": ("smoothstep(-1.0, 1.5, x)", lambda: smooth(-1.0, 1.5, x), 1e-5, 1e-6),
    "isnan": ("vec4(isnan(log(x)))", lambda: (x < 0).astype(float), 0, 0),
    "isinf": ("vec4(isinf(1.0 / (x - x)))", lambda: np.ones_like(x), 0, 0),
    "floatBitsToInt": ("intBitsToFloat(floatBitsToInt(x) + 1)", lambda: f32((bits(x) + 1).view(np.float32)), 0, 0),
    "floatBitsToUint": ("uintBitsToFloat(floatBitsToUint(x) ^ 0x80000000u)", lambda: -x, 0, 0),
    "fma": ("fma(x, y, z)", lambda: x * y + z, 1e-6, 1e-6),
    "frexp": ("frexp(x, e) + vec4(e)", lambda: np.frexp(x)[0] + np.frexp(x)[1], 1e-6, 0, "ivec4 e;"),
    "ldexp": ("ldexp(x, ivec4(3, -2, 0, 7))", lambda: x * np.array([8, 0.25, 1, 128.0]), 0, 0),
    "length": ("vec4(length(x), distance(x, y), dot(x, y), length(x.xy))",
               lambda: vec4(np.linalg.norm(x, axis=1), np.linalg.norm(x - y, axis=1), np.sum(x * y, 1),
                            np.linalg.norm(x[:, :2], axis=1)), 1e-5, 1e-5),
    "cross": ("vec4(cross(x.xyz, y.xyz), 0.0)", lambda: vec4(np.cross(x[:, :3], y[:, :3]), 0.0), 1e-5, 1e-5),
    "normalize": ("normalize(x)", lambda: norm(x), 1e-5, 1e-6),
    "faceforward": ("faceforward(x, y, z)", lambda: np.where(np.sum(z * y, 1, keepdims=True) < 0, x, -x), 0, 0),
    "reflect": ("reflect(x, normalize(y))", lambda: refl(x, norm(y)), 1e-4, 1e-5),
    "refract": ("refract(normalize(x), normalize(y), 0.66)", lambda: refr(norm(x), norm(y), 0.66), 1e-4, 1e-5),
    "matrixCompMult": ("matrixCompMult(mat2(x), mat2(y))[1].xyxy", lambda: (x * y)[:, [2, 3, 2, 3]], 1e-6, 0),
    "outerProduct": ("outerProduct(x, y)[2]", lambda: x * y[:, 2:3], 1e-6, 0),
    "transpose": ("transpose(mat4(x, y, z, x * y))[1]", lambda: vec4(x[:, 1], y[:, 1], z[:, 1], f32(x * y)[:, 1]), 0, 0),
    "determinant": ("vec4(determinant(mat2(x)), determinant(mat3(x.xyz, y.xyz, z.xyz)), "
                    "determinant(mat4(x, y, z, vec4(1.0, 2.0, 3.0, 5.0))), 0.0)",
                    lambda: vec4(np.linalg.det(x.reshape(N, 2, 2)), np.linalg.det(mat(x[:, :3], y[:, :3], z[:, :3])),
                                 np.linalg.det(mat(x, y, z, np.broadcast_to([1.0, 2, 3, 5], (N, 4)))), 0.0),
                    1e-4, 1e-4),
    "inverse": ("inverse(mat3(x.xyz, y.xyz, vec3(0.5, 1.0, 4.0)))[1].xyzx",
                lambda: np.linalg.inv(mat(x[:, :3], y[:, :3], np.broadcast_to([0.5, 1.0, 4.0], (N, 3))))[:, 1][:, [0, 1, 2, 0]],
                1e-3, 1e-3),
    "relational": ("vec4(lessThanEqual(x, y).x, greaterThan(x, y).y, greaterThanEqual(x, y).z, notEqual(x, x).w) + "
                   "vec4(equal(x, y)) + vec4(any(lessThan(x, y)), all(lessThan(x, y)), not(lessThan(x, y)).xy)",
                   lambda: vec4((x[:, 0] <= y[:, 0]) + 0.0 + (np.any(x < y, 1)), (x[:, 1] > y[:, 1]) + 0.0 + np.all(x < y, 1),
                                (x[:, 2] >= y[:, 2]) + 0.0 + (x[:, 0] >= y[:, 0]), 0.0 + (x[:, 1] >= y[:, 1]))
                   + (x == y), 0, 0),
    "packUnorm2x16": ("vec4(unpackUnorm2x16(packUnorm2x16(x.xy)), unpackSnorm2x16(packSnorm2x16(x.zw)))",
                      lambda: vec4(np.rint(np.clip(x[:, :2], 0, 1) * 65535) / 65535,
                                   np.clip(np.rint(np.clip(x[:, 2:], -1, 1) * 32767) / 32767, -1, 1)), 1e-6, 1e-6),
    "packUnorm4x8": ("unpackUnorm4x8(packUnorm4x8(x))", lambda: np.rint(np.clip(x, 0, 1) * 255) / 255, 1e-6, 1e-6),
    "packSnorm4x8": ("unpackSnorm4x8(packSnorm4x8(x))", lambda: np.clip(np.rint(np.clip(x, -1, 1) * 127) / 127, -1, 1),
                     1e-6, 1e-6),
    "packHalf2x16": ("vec4(unpackHalf2x16(packHalf2x16(x.xy)), unpackHalf2x16(packHalf2x16(y.zw)))",
                     lambda: vec4(f32(x[:, :2].astype(np.float16)), f32(y[:, 2:].astype(np.float16))), 0, 0),
    "bitfieldExtract": ("vec4(bitfieldExtract(ivec4(x * 1000.0), 2, 5))",
                        lambda: ((ivec(x * 1000) >> 2) & 31) - np.where((ivec(x * 1000) >> 6) & 1, 32, 0), 0, 0),
    "bitfieldInsert": ("vec4(bitfieldInsert(ivec4(x * 1000.0), ivec4(y * 1000.0), 3, 4))",
                       lambda: (ivec(x * 1000) & ~(15 << 3)) | ((ivec(y * 1000) & 15) << 3), 0, 0),
    "bitfieldReverse": ("vec4(bitfieldReverse(ivec4(x * 1000.0)) >> 20)", lambda: bit_reverse(ivec(x * 1000)) >> 20, 0, 0),
    "bitCount": ("vec4(bitCount(ivec4(x * 1000.0)))",
                 lambda: np.bitwise_count(ivec(x * 1000).view(np.uint32)).astype(float), 0, 0),
    "findLSB": ("vec4(findLSB(ivec4(x * 1000.0)))", lambda: find_lsb(ivec(x * 1000)), 0, 0),
    "findMSB": ("vec4(findMSB(ivec4(x * 1000.0)))", lambda: find_msb(ivec(x * 1000)), 0, 0),
    "uaddCarry": ("vec4(uaddCarry(uvec4(abs(x) * 1e9), uvec4(abs(y) * 1e9), c) % 1000u) + vec4(c)",
                  lambda: ((u(x) + u(y)) % 2 ** 32 % 1000) + ((u(x) + u(y)) >= 2 ** 32), 0, 0, "uvec4 c;"),
    "usubBorrow": ("vec4(usubBorrow(uvec4(abs(x) * 1e9), uvec4(abs(y) * 1e9), c) % 1000u) + vec4(c)",
                   lambda: ((u(x) - u(y)) % 2 ** 32 % 1000) + (u(x) < u(y)), 0, 0, "uvec4 c;"),
    "umulExtended": ("vec4(lsb % 1000u) + vec4(msb)",
                     lambda: ((u(x) * u(y)) % 2 ** 32 % 1000) + ((u(x) * u(y)) >> 32),
                     1e-6, 0, "uvec4 msb, lsb; umulExtended(uvec4(abs(x) * 1e9), uvec4(abs(y) * 1e9), msb, lsb);"),
    "imulExtended": ("vec4(msb)",
                     lambda: (ivec(x * 1e8).astype(np.int64) * ivec(y * 1e8).astype(np.int64)) >> 32,
                     0, 0, "ivec4 msb, lsb; imulExtended(ivec4(x * 1e8), ivec4(y * 1e8), msb, lsb);"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_builtin(name):
    case = CASES[name]
    expr, ref, rtol, atol = case[:4]
    decl = case[4] if len(case) > 4 else ""
    got = run_compute(expr, decl)
    with np.errstate(all="ignore"):
        exp = np.asarray(ref(), np.float64).reshape(N, 4)
    ok = (got == exp) | (np.abs(got - exp) <= atol + rtol * np.abs(exp)) | (np.isnan(got) & np.isnan(exp))
    assert ok.all(), f"{name}: lanes {np.argwhere(~ok)[:4].tolist()}: got {got[~ok][:4]}, expected {exp[~ok][:4]}"


def test_atomics_and_barriers_in_glsl():
    src = """#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Inp { vec4 a[]; };
layout(std430, binding = 1) buffer Outp { uint counters[8]; uint olds[]; };
shared uint s[64];
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
  s[l] = l * 2u;
  barrier();
  memoryBarrierShared();
  uint other = s[(l + 1u) % 64u];
  olds[i] = atomicAdd(counters[0], 1u) * 1000u + other;
  atomicMax(counters[1], i);
  atomicMin(counters[2], 100u + i);
  atomicOr(counters[3], 1u << (i % 32u));
  atomicXor(counters[4], i);
  atomicAnd(counters[5], ~(1u << (i % 8u)));
  atomicExchange(counters[6], 7u);
  atomicCompSwap(counters[7], 0u, i + 1u);
}
"""
    compiled = compile_glsl(src, "compute")
    out = np.zeros(32 + 4 * N, np.uint8)
    out.view(np.uint32)[2] = 0xFFFFFFFF
    out.view(np.uint32)[5] = 0xFFFFFFFF
    ctx = ExecContext.for_compute((N // 64, 1, 1), (64, 1, 1), local_memory_B=compiled.local_memory_B)
    _, res = _Compiled(compiled).core(N, ssbos={0: np.zeros(16 * N, np.uint8), 1: out}, ctx=ctx)
    w = res[1].view(np.uint32)
    c, olds = w[:8], w[8:]
    assert c[0] == N and c[1] == N - 1 and c[2] == 100 and c[3] == 0xFFFFFFFF
    assert c[4] == np.bitwise_xor.reduce(np.arange(N, dtype=np.uint32)) and c[5] == 0xFFFFFF00
    assert c[6] == 7 and c[7] != 0
    l = np.arange(N) % 64
    assert sorted(olds // 1000) == list(range(N)) and ((olds % 1000) == (l + 1) % 64 * 2).all()
