"""Transform feedback of doubles (GL 4.0 / ARB_gpu_shader_fp64 with GL 4.6 section
11.1.2.1): a double is captured as its 8 bytes (two 32-bit words, low first) and
counts as two components; a dvec3 or dvec4 (6 or 8 words, more than one stream
output entry holds) is captured whole, through glTransformFeedbackVaryings in
interleaved and separate mode and through xfb_offset qualifiers. The captured bytes
are compared with numpy float64 bit for bit."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

VS = """#version 400
out vec4 color;
out dvec3 v3;
out dvec2 v2;
out dvec4 v4[2];
out dmat2x3 m;
void main() {
    double k = double(gl_VertexID + 1);
    gl_Position = vec4(0.0);
    color = vec4(1.0, 0.5, 0.25, 0.125) * float(k);
    v3 = dvec3(0.1lf, 1e300, -1.0lf / 3.0lf) * k;
    v2 = dvec2(0.2lf, 0.7lf) * k;
    v4[0] = dvec4(1.0lf, 2.0lf, 3.0lf, 4.0lf) / k;
    v4[1] = dvec4(5e-310, -0.0lf, 7.0lf, 8.0lf) * k;
    m = dmat2x3(1.0lf, 2.0lf, 3.0lf, 4.0lf, 5.0lf, 6.0lf) * k;
}"""
FS = "#version 400\nout vec4 o;\nvoid main() { o = vec4(1.0); }"
POINTS = 3


def _program(ctx, vs, varyings=None, mode=E.GL_INTERLEAVED_ATTRIBS):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    if varyings:
        ctx.glTransformFeedbackVaryings(p, len(varyings), varyings, mode)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    return p


def _capture(ctx, p, sizes_B):
    ctx.glUseProgram(p)
    bufs = ctx.glGenBuffers(len(sizes_B))
    for i, (b, n) in enumerate(zip(bufs, sizes_B)):
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, n, bytes([0xEE]) * n, E.GL_STREAM_READ)
        ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, i, b)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, 0, POINTS)
    ctx.glEndTransformFeedback()
    assert ctx.glGetError() == E.GL_NO_ERROR
    out = []
    for b, n in zip(bufs, sizes_B):
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
        out.append(bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, n)))
    return out


def _k():
    return np.arange(1, POINTS + 1, dtype=np.float64)[:, None]


def _bits(a):
    return np.ascontiguousarray(a, np.float64).view(np.uint64)


V3 = lambda: np.array([0.1, 1e300, -1.0 / 3.0]) * _k()
V2 = lambda: np.array([0.2, 0.7]) * _k()
V4_0 = lambda: np.array([1.0, 2.0, 3.0, 4.0]) / _k()
V4_1 = lambda: np.array([5e-310, -0.0, 7.0, 8.0]) * _k()
M = lambda: np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]) * _k()
COLOR = lambda: (np.array([1.0, 0.5, 0.25, 0.125], np.float32) * _k().astype(np.float32))


def test_interleaved_doubles_between_floats():
    ctx = driver.Context(api="gl46", width=4, height=4)
    p = _program(ctx, VS, ["v3", "color", "v2", "v4[1]", "m"])
    # record: v3 6 words, color 4, v2 4, v4[1] 8, m 12 = 34 words
    assert ctx.glGetTransformFeedbackVarying(p, 0) == ("v3", 1, E.GL_DOUBLE_VEC3)
    assert ctx.glGetTransformFeedbackVarying(p, 4) == ("m", 1, E.GL_DOUBLE_MAT2x3)
    (raw,) = _capture(ctx, p, [34 * 4 * POINTS])
    words = np.frombuffer(raw, np.uint32).reshape(POINTS, 34)
    doubles = lambda a, b: words[:, a:b].copy().view(np.float64)
    np.testing.assert_array_equal(_bits(doubles(0, 6)), _bits(V3()))
    np.testing.assert_array_equal(words[:, 6:10].copy().view(np.float32), COLOR())
    np.testing.assert_array_equal(_bits(doubles(10, 14)), _bits(V2()))
    np.testing.assert_array_equal(_bits(doubles(14, 22)), _bits(V4_1()))
    np.testing.assert_array_equal(_bits(doubles(22, 34)), _bits(M()))


def test_separate_doubles_each_in_its_buffer():
    ctx = driver.Context(api="gl46", width=4, height=4)
    # a dvec4[2] is 16 components (doubles count twice): within MAX_..._SEPARATE_COMPONENTS
    assert ctx.glGetIntegerv(E.GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS)[0] >= 16
    p = _program(ctx, VS, ["v3", "v4", "color"], E.GL_SEPARATE_ATTRIBS)
    b0, b1, b2 = _capture(ctx, p, [24 * POINTS, 64 * POINTS, 16 * POINTS])
    np.testing.assert_array_equal(_bits(np.frombuffer(b0, np.float64).reshape(POINTS, 3)), _bits(V3()))
    v4 = np.frombuffer(b1, np.float64).reshape(POINTS, 8)
    np.testing.assert_array_equal(_bits(v4), _bits(np.concatenate([V4_0(), V4_1()], 1)))
    np.testing.assert_array_equal(np.frombuffer(b2, np.float32).reshape(POINTS, 4), COLOR())


def test_xfb_qualifiers_capture_dvec3_and_dvec4():
    vs = """#version 440
layout(xfb_buffer = 0, xfb_offset = 0) out dvec3 a;
layout(xfb_buffer = 0, xfb_offset = 24) out float f;
layout(xfb_buffer = 0, xfb_offset = 32) out dvec4 b;
void main() {
    double k = double(gl_VertexID + 1);
    gl_Position = vec4(0.0);
    a = dvec3(0.1lf, 1e300, -1.0lf / 3.0lf) * k;
    f = 2.5 * float(k);
    b = dvec4(5e-310, -0.0lf, 7.0lf, 8.0lf) * k;
}"""
    ctx = driver.Context(api="gl46", width=4, height=4)
    p = _program(ctx, vs)
    (raw,) = _capture(ctx, p, [64 * POINTS])          # stride 64: 24 + 4 (+4 hole) + 32
    words = np.frombuffer(raw, np.uint32).reshape(POINTS, 16)
    np.testing.assert_array_equal(_bits(words[:, 0:6].copy().view(np.float64)), _bits(V3()))
    np.testing.assert_array_equal(words[:, 6].copy().view(np.float32), 2.5 * np.arange(1, POINTS + 1))
    assert (words[:, 7] == 0xEEEEEEEE).all()          # the hole keeps its bytes
    np.testing.assert_array_equal(_bits(words[:, 8:16].copy().view(np.float64)), _bits(V4_1()))
