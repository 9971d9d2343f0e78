"""GL_MESA_shader_integer_functions and GL_EXT_shader_integer_mix in GLSL 1.30 shaders.

A ``#version 130`` vertex shader that enables the extensions computes, for random
32-bit operands fed as integer vertex attributes, uaddCarry, usubBorrow, umulExtended,
imulExtended, bitfieldExtract/Insert/Reverse, bitCount, findLSB/findMSB, frexp, ldexp,
an int argument converted implicitly to a uint parameter, the best-match overload rule
and mix() of integers by a boolean vector; the results are captured by transform
feedback and compared with numpy (wide products in Python integers). Without the
extension GLSL 1.30 refuses the same calls; the names are listed in desktop contexts
from GL 3.0 and in GLES 3.x contexts, and the macros are defined."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import compile_source

N = 48
RNG = np.random.default_rng(15)

VS = """#version 130
#extension GL_MESA_shader_integer_functions : require
#extension GL_EXT_shader_integer_mix : require
#if !defined(GL_MESA_shader_integer_functions) || !defined(GL_EXT_shader_integer_mix)
#error macro missing
#endif
in uvec4 a;
in uvec4 b;
in ivec4 c;
in vec4 f;
flat out uvec4 add_carry;     // sum, carry, difference, borrow (x components of a, b)
flat out uvec4 umul;          // msb, lsb of a.x * b.x; msb, lsb of a.y * b.y
flat out ivec4 imul;          // msb, lsb of c.x * c.y; msb, lsb of c.z * c.w
flat out uvec4 fields;        // bitfieldExtract(a.x, 3, 17), bitfieldInsert(a.y, b.y, 5, 11),
                              // bitfieldReverse(a.z), bitCount(a.w)
flat out ivec4 sfields;       // bitfieldExtract(c.x, 4, 13) (sign-extended), findLSB(a.x),
                              // findMSB(c.y), findMSB(a.y)
flat out ivec4 exps;          // frexp exponents of f
out vec4 mants;               // frexp significands of f
out vec4 scaled;              // ldexp(f, (c & 31) - 16)
flat out uvec4 conv;          // uint parameter called with int; best-match overload; mix()es
flat out ivec4 imix;

uint as_uint(uint x) { return x; }
uint pick(float x, int y, float z) { return 1u; }
uint pick(float x, int y, int z) { return 2u; }     // better for z: the one chosen

void main() {
    uint carry, borrow;
    uint sum = uaddCarry(a.x, b.x, carry);
    uint diff = usubBorrow(a.x, b.x, borrow);
    add_carry = uvec4(sum, carry, diff, borrow);
    uvec2 hi, lo;
    umulExtended(a.xy, b.xy, hi, lo);
    umul = uvec4(hi.x, lo.x, hi.y, lo.y);
    ivec2 ihi, ilo;
    imulExtended(c.xz, c.yw, ihi, ilo);
    imul = ivec4(ihi.x, ilo.x, ihi.y, ilo.y);
    fields = uvec4(bitfieldExtract(a.x, 3, 17), bitfieldInsert(a.y, b.y, 5, 11),
                   bitfieldReverse(a.z), uint(bitCount(a.w)));
    sfields = ivec4(bitfieldExtract(c.x, 4, 13), findLSB(a.x), findMSB(c.y), findMSB(a.y));
    ivec4 e;
    mants = frexp(f, e);
    exps = e;
    scaled = ldexp(f, (c & 31) - 16);
    int k = c.x;
    conv = uvec4(as_uint(k), pick(1, 2, 3), mix(a.z, b.z, a.w > b.w), mix(false, a.z > b.z, true) ? 7u : 9u);
    imix = mix(c, -c, bvec4(true, false, a.x > b.x, false));
    gl_Position = vec4(0.0);
}
"""
FS = "#version 130\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
VARYINGS = ["add_carry", "umul", "imul", "fields", "sfields", "exps", "mants", "scaled", "conv", "imix"]


def _inputs():
    a = RNG.integers(0, 2**32, (N, 4), dtype=np.uint64).astype(np.uint32)
    b = RNG.integers(0, 2**32, (N, 4), dtype=np.uint64).astype(np.uint32)
    c = RNG.integers(-2**31, 2**31, (N, 4), dtype=np.int64).astype(np.int32)
    f = (RNG.standard_normal((N, 4)) * 10.0 ** RNG.integers(-6, 7, (N, 4))).astype(np.float32)
    a[0] = [0, 0, 0, 0]                       # findLSB/findMSB of 0 = -1, bitCount 0
    b[0] = [1, 0xFFFFFFFF, 0, 0]              # borrow, largest products
    c[1] = [-1, 0, -2**31, -2**31]            # findMSB(0) = -1, the most negative product
    f[2] = [0.0, -0.0, 1.0, 0.75]             # frexp(0) = (0, 0)
    return a, b, c, f


def _capture(ctx, a, b, c, f):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glTransformFeedbackVaryings(prog, len(VARYINGS), VARYINGS, E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    for name, arr in (("a", a), ("b", b), ("c", c), ("f", f)):
        loc = ctx.glGetAttribLocation(prog, name)
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, arr.nbytes, arr.tobytes(), E.GL_STATIC_DRAW)
        if arr.dtype == np.float32:
            ctx.glVertexAttribPointer(loc, 4, E.GL_FLOAT, False, 0, 0)
        else:
            ctx.glVertexAttribIPointer(loc, 4, E.GL_UNSIGNED_INT if arr.dtype == np.uint32 else E.GL_INT, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
    size = N * len(VARYINGS) * 16
    out = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, out)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, size, None, E.GL_STREAM_READ)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, out)
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, 0, N)
    ctx.glEndTransformFeedback()
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    raw = bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, size))
    words = np.frombuffer(raw, np.uint32).reshape(N, len(VARYINGS), 4)
    return {name: words[:, i] for i, name in enumerate(VARYINGS)}


def _extract(x: int, offset: int, bits: int, signed: bool) -> int:
    v = (x >> offset) & ((1 << bits) - 1)
    return v - (1 << bits) if signed and v >> (bits - 1) else v


def _msb(x: int) -> int:
    """findMSB of a 32-bit two's-complement value: the highest bit differing from the sign."""
    x &= 0xFFFFFFFF
    if x >> 31:
        x = ~x & 0xFFFFFFFF
    return x.bit_length() - 1


def test_integer_functions_in_glsl_130_against_numpy():
    ctx = glhelp.context(4, 4, api="compat")
    a, b, c, f = _inputs()
    got = _capture(ctx, a, b, c, f)
    A, B, C = a.astype(object), b.astype(object), c.astype(object)
    for i in range(N):
        ax, bx = int(A[i, 0]), int(B[i, 0])
        want = [(ax + bx) & 0xFFFFFFFF, int(ax + bx > 0xFFFFFFFF), (ax - bx) & 0xFFFFFFFF, int(ax < bx)]
        assert got["add_carry"][i].tolist() == want, i
        p0, p1 = ax * bx, int(A[i, 1]) * int(B[i, 1])
        assert got["umul"][i].tolist() == [p0 >> 32, p0 & 0xFFFFFFFF, p1 >> 32, p1 & 0xFFFFFFFF], i
        q0, q1 = int(C[i, 0]) * int(C[i, 1]), int(C[i, 2]) * int(C[i, 3])
        want = [(q0 >> 32) & 0xFFFFFFFF, q0 & 0xFFFFFFFF, (q1 >> 32) & 0xFFFFFFFF, q1 & 0xFFFFFFFF]
        assert got["imul"][i].tolist() == want, i
        ay, by, az, aw = (int(v) for v in (A[i, 1], B[i, 1], A[i, 2], A[i, 3]))
        mask = ((1 << 11) - 1) << 5
        want = [_extract(ax, 3, 17, False), (ay & ~mask) | ((by << 5) & mask),
                int(f"{az:032b}"[::-1], 2), bin(aw).count("1")]
        assert got["fields"][i].tolist() == want, i
        want = [_extract(int(C[i, 0]) & 0xFFFFFFFF, 4, 13, True), (ax & -ax).bit_length() - 1,
                _msb(int(C[i, 1])), ay.bit_length() - 1]
        assert got["sfields"][i].view(np.int32).tolist() == want, i
    mant, expo = np.frexp(f)
    assert (got["exps"].view(np.int32) == expo).all()
    assert (got["mants"].view(np.float32) == mant).all()
    assert (got["scaled"].view(np.float32) == np.ldexp(f, (c & 31) - 16)).all()
    cmp_w = a[:, 3] > b[:, 3]
    assert (got["conv"][:, 0] == c[:, 0].view(np.uint32)).all()
    assert (got["conv"][:, 1] == 2).all()
    assert (got["conv"][:, 2] == np.where(cmp_w, b[:, 2], a[:, 2])).all()
    assert (got["conv"][:, 3] == np.where(a[:, 2] > b[:, 2], 7, 9)).all()
    sel = np.stack([np.ones(N, bool), np.zeros(N, bool), a[:, 0] > b[:, 0], np.zeros(N, bool)], axis=1)
    assert (got["imix"].view(np.int32) == np.where(sel, -c, c)).all()


@pytest.mark.parametrize("call", ["uint s = uaddCarry(1u, 2u, k);", "int n = bitCount(3u);",
                                  "float m = ldexp(1.0, 2);", "uint u = 1; uint s = uaddCarry(u, 2u, k);"])
def test_glsl_130_refuses_the_functions_without_the_extension(call):
    ctx = glhelp.context(4, 4, api="compat")
    body = f"out vec4 o;\nvoid main() {{ uint k; {call} o = vec4(1.0); }}\n"
    assert not compile_source(ctx, E.GL_FRAGMENT_SHADER, "#version 130\n" + body)[1]
    ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, "#version 130\n"
                             "#extension GL_MESA_shader_integer_functions : require\n" + body)[1:]
    assert ok, log


def test_the_extension_leaves_out_the_rest_of_gpu_shader5():
    """fma(), the sample qualifier and textureGatherOffsets stay ARB_gpu_shader5's."""
    ctx = glhelp.context(4, 4, api="compat")
    head = "#version 130\n#extension GL_MESA_shader_integer_functions : require\nout vec4 o;\n"
    for src in ("uniform vec4 x;\nvoid main() { o = fma(x, x, x); }\n",
                "sample in vec4 x;\nvoid main() { o = x; }\n"):
        assert not compile_source(ctx, E.GL_FRAGMENT_SHADER, head + src)[1], src


def test_listed_from_gl30_and_gles3():
    def names(ctx):
        return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
    for api in ("compat", "gl32", "gl46", "gles3", "gles32"):
        got = names(glhelp.context(4, 4, api=api))
        assert {"GL_MESA_shader_integer_functions", "GL_EXT_shader_integer_mix"} <= got, api
    ctx = glhelp.context(4, 4, api="gles3")
    ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, "#version 300 es\n"
                             "#extension GL_MESA_shader_integer_functions : require\n"
                             "in highp uvec2 a;\nflat out highp uint s;\n"
                             "void main() { highp uint k; s = uaddCarry(a.x, a.y, k) + k;"
                             " gl_Position = vec4(0.0); }\n")[1:]
    assert ok, log
    assert not compile_source(ctx, E.GL_VERTEX_SHADER, "#version 100\n"
                              "#extension GL_MESA_shader_integer_functions : require\n"
                              "void main() { gl_Position = vec4(0.0); }\n")[1]


def test_ldexp_flushes_results_below_the_normal_range_to_a_signed_zero():
    """ldexp whose result is below 2^-126 gives a zero of x's sign (the GPU's float unit
    keeps no denormals; piglit's ldexp tests expect it); the normal range is exact."""
    ctx = glhelp.context(4, 4, api="gl46")
    x = np.array([0.5, -0.5, 1.0, -1.0, 0.75, 1.1754944e-38, 0.999999940, 3.0], np.float32)
    e = np.array([-127, -127, -126, -130, 125, 125, 128, -200], np.int32)
    src = """#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { float x[8]; int e[8]; float r[8]; };
void main() { uint i = gl_LocalInvocationIndex; r[i] = ldexp(x[i], e[i]); }
"""
    prog = glhelp.compute_program(ctx, src)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
    data = x.tobytes() + e.tobytes() + bytes(32)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, len(data), data, E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glUseProgram(prog)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    got = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 64, 32)), np.float32)
    want = np.ldexp(x.astype(np.float64), e)
    want = np.where(np.abs(want) < 2.0 ** -126, np.copysign(0.0, x), want).astype(np.float32)
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
