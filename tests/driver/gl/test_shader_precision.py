"""GL_ARB_shader_precision (GLSL 4.00 section 4.7.1): the precision the built-ins keep,
measured in ULPs of the float32 result against float64 references computed by numpy on
the same float32 inputs. The bounds of the extension's table:

- a + b, a - b, a * b, conversions: correctly rounded (0.5 ULP);
- a / b: 2.5 ULP (|b| in [2^-126, 2^126]);
- inversesqrt(x): 2 ULP; sqrt(x): as 1 / inversesqrt(x) (here: 2.5 ULP);
- exp(x), exp2(x): (3 + 2 |x|) ULP;
- log(x), log2(x): 3 ULP outside [0.5, 2], absolute error below 2^-21 inside;
- pow(x, y): as exp2(y * log2(x)) (bound derived below)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source

N = 2048


def _ulps(got, ref):
    """|got - ref| in units of the float32 spacing at ref."""
    ref32 = ref.astype(np.float32)
    return np.abs(got.astype(np.float64) - ref) / np.spacing(np.abs(ref32)).astype(np.float64)


def _run(expr: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``expr`` of float32 a[i], b[i] evaluated by a compute shader (GLSL 1.50-era
    extension syntax; the #extension line and its macro are checked too)."""
    cs = ("#version 430\n#extension GL_ARB_shader_precision : require\n"
          "#if GL_ARB_shader_precision != 1\n#error macro\n#endif\n"
          "layout(local_size_x = 64) in;\n"
          "layout(std430, binding = 0) readonly buffer In { float a[]; float b[]; };\n"
          "layout(std430, binding = 1) writeonly buffer Out { float r[]; };\n"
          f"void main() {{ uint i = gl_GlobalInvocationID.x; float x = a[i]; float y = b[i]; r[i] = {expr}; }}\n")
    cs = cs.replace("float a[]; float b[];", f"float a[{N}]; float b[{N}];")
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        sh, ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER, cs)
        assert ok, log
        prog = ctx.glCreateProgram()
        ctx.glAttachShader(prog, sh)
        ctx.glLinkProgram(prog)
        assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
        ctx.glUseProgram(prog)
        bufs = ctx.glGenBuffers(2)
        inp = np.concatenate([a, b]).astype(np.float32)
        ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, bufs[0])
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, inp.nbytes, inp, E.GL_STATIC_DRAW)
        ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, bufs[1])
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 4 * N, None, E.GL_STATIC_READ)
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, bufs[0])
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
        ctx.glDispatchCompute(N // 64, 1, 1)
        ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
        view = ctx.glMapBufferRange(E.GL_SHADER_STORAGE_BUFFER, 0, 4 * N, E.GL_MAP_READ_BIT)
        out = np.frombuffer(bytes(view), np.float32).copy()
        ctx.glUnmapBuffer(E.GL_SHADER_STORAGE_BUFFER)
        assert ctx.glGetError() == E.GL_NO_ERROR
    return out


def _inputs(lo, hi, seed, log_scale=False, signed=False):
    rng = np.random.default_rng(seed)
    if log_scale:
        v = np.exp2(rng.uniform(lo, hi, N))
    else:
        v = rng.uniform(lo, hi, N)
    if signed:
        v *= rng.choice([-1.0, 1.0], N)
    return v.astype(np.float32)


@pytest.mark.parametrize("expr,ref,bound", [
    ("x + y", lambda x, y: x + y, 0.5),
    ("x - y", lambda x, y: x - y, 0.5),
    ("x * y", lambda x, y: x * y, 0.5),
    ("x / y", lambda x, y: x / y, 2.5),
])
def test_arithmetic(expr, ref, bound):
    x = _inputs(-20, 20, 1, log_scale=True, signed=True)
    y = _inputs(-20, 20, 2, log_scale=True, signed=True)
    got = _run(expr, x, y)
    assert _ulps(got, ref(x.astype(np.float64), y.astype(np.float64))).max() <= bound


def test_inversesqrt_and_sqrt():
    x = _inputs(-60, 60, 3, log_scale=True)
    zero = np.zeros(N, np.float32)
    assert _ulps(_run("inversesqrt(x)", x, zero), 1.0 / np.sqrt(x.astype(np.float64))).max() <= 2.0
    assert _ulps(_run("sqrt(x)", x, zero), np.sqrt(x.astype(np.float64))).max() <= 2.5


@pytest.mark.parametrize("fn,ref", [("exp2", np.exp2), ("exp", np.exp)])
def test_exponentials(fn, ref):
    x = _inputs(-60, 60, 4) if fn == "exp2" else _inputs(-40, 40, 5)
    got = _run(f"{fn}(x)", x, np.zeros(N, np.float32))
    u = _ulps(got, ref(x.astype(np.float64)))
    assert (u <= 3.0 + 2.0 * np.abs(x)).all(), u.max()


@pytest.mark.parametrize("fn,ref", [("log2", np.log2), ("log", np.log)])
def test_logarithms(fn, ref):
    x = np.concatenate([_inputs(-60, 60, 6, log_scale=True)[:N // 2],
                        _inputs(0.5, 2.0, 7)[:N // 2]])
    got = _run(f"{fn}(x)", x, np.zeros(N, np.float32))
    r = ref(x.astype(np.float64))
    inside = (x >= 0.5) & (x <= 2.0)
    assert (np.abs(got[inside] - r[inside]) < 2.0 ** -21).all()
    assert _ulps(got[~inside], r[~inside]).max() <= 3.0


def test_pow():
    """pow(x, y) as exp2(y * log2(x)): log2's error (3 ULP of log2 x) times |y| becomes an
    error of y * log2(x) of about 3 ULP * |y log2 x| relative, which exp2 turns into
    (3 + 2 |y log2 x|) ULP plus ln 2 * |y log2 x| * 3 * 2^-23 relative: bounded here by
    (3 + 2 t) + 3 t ULP with t = |y log2 x| (inputs keep t below 60)."""
    x = _inputs(-8, 8, 8, log_scale=True)
    y = _inputs(-7, 7, 9)
    got = _run("pow(x, y)", x, y)
    t = np.abs(y.astype(np.float64) * np.log2(x.astype(np.float64)))
    u = _ulps(got, np.power(x.astype(np.float64), y.astype(np.float64)))
    assert (u <= 3.0 + 5.0 * t + 1.0).all(), (u.max(), t[u.argmax()])
