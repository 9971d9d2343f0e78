"""Transform feedback declared in the shader (ARB_enhanced_layouts, GLSL 4.40 section
4.4.2.1): xfb_buffer/xfb_offset/xfb_stride capture without glTransformFeedbackVaryings,
from globals, arrays, structs, named and unnamed blocks and the geometry stage, into
buffers with holes; the captured bytes are compared with numpy, and the program
interface queries (GL_TRANSFORM_FEEDBACK_VARYING / _BUFFER) with the layout declared."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

HEAD = "#version 440\n"
FS = "#version 150\nout vec4 o;\nvoid main() { o = vec4(1.0); }"


@pytest.fixture
def ctx():
    # GLSL 4.40 has the qualifiers without the #extension (a GL 4.6 context)
    return driver.Context(api="gl46", width=8, height=8)


def _program(ctx, stages, link_ok=True):
    p = ctx.glCreateProgram()
    for kind, src in stages:
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    assert bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]) == link_ok, ctx.glGetProgramInfoLog(p)
    return p


def _capture(ctx, prog, sizes_f32: dict, points: int = 3, written: int | None = None):
    """Draw `points` points with rasterisation discarded; returns binding -> float32 array."""
    ctx.glUseProgram(prog)
    bufs = {}
    for binding, n in sizes_f32.items():
        b = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * n, np.full(n, -7, np.float32), E.GL_STREAM_READ)
        ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, binding, b)
        bufs[binding] = (b, n)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    q = ctx.glGenQueries(1)[0]
    ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q)
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, 0, points)
    ctx.glEndTransformFeedback()
    ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0] == (points if written is None else written)
    out = {}
    for binding, (b, n) in bufs.items():
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
        view = ctx.glMapBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * n, E.GL_MAP_READ_BIT)
        out[binding] = np.frombuffer(bytes(view), np.float32).copy()
        ctx.glUnmapBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER)
    return out


def _expected(points, record_f32, fields):
    """fields: (first float in the record, values per vertex id: f(i) -> list)."""
    exp = np.full((points, record_f32), -7, np.float32)
    for first, f in fields:
        for i in range(points):
            vals = f(i)
            exp[i, first:first + len(vals)] = vals
    return exp.reshape(-1)


def test_globals_and_a_buffer_hole(ctx):
    vs = HEAD + """
layout(xfb_offset = 0) out float x1;
layout(xfb_offset = 4) out float x2[2];
layout(xfb_offset = 12) out vec3 x3;
layout(xfb_buffer = 2) out;
layout(xfb_offset = 0) out float y1;
layout(xfb_offset = 8, xfb_stride = 32) out vec4 y2;
out vec4 not_captured;
void main() {
  float i = float(gl_VertexID);
  gl_Position = vec4(0.0);
  x1 = 1.0 + i; x2[0] = 2.0 + i; x2[1] = 3.0 + i; x3 = vec3(4.0, 5.0, 6.0) + i;
  y1 = 7.0 + i; y2 = vec4(8.0, 9.0, 10.0, 11.0) + i; not_captured = vec4(i);
}"""
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    got = _capture(ctx, p, {0: 3 * 6, 2: 3 * 8})
    np.testing.assert_array_equal(got[0], _expected(3, 6, [(0, lambda i: [1 + i, 2 + i, 3 + i, 4 + i, 5 + i, 6 + i])]))
    # buffer 2: y1 at float 0, a hole (float 1), y2 at floats 2-5, stride 32 bytes (floats 6-7 untouched)
    np.testing.assert_array_equal(got[2], _expected(3, 8, [(0, lambda i: [7 + i]),
                                                           (2, lambda i: [8 + i, 9 + i, 10 + i, 11 + i])]))
    assert ctx.glGetProgramiv(p, E.GL_TRANSFORM_FEEDBACK_VARYINGS)[0] == 5
    assert ctx.glGetProgramiv(p, E.GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH)[0] == 3


def test_blocks_and_structs(ctx):
    vs = HEAD + """
struct S { float a; vec2 b[2]; };
out Unnamed {
  layout(xfb_offset = 12) float u1;
  layout(xfb_offset = 0) vec3 u0;
  vec4 not_captured;
};
layout(xfb_buffer = 1, xfb_offset = 0) out Named { float n0; vec4 n1; } named;
layout(xfb_buffer = 3, xfb_offset = 4) out S s;
void main() {
  float i = float(gl_VertexID);
  gl_Position = vec4(0.0);
  u0 = vec3(1.0, 2.0, 3.0) + i; u1 = 4.0 + i; not_captured = vec4(0.0);
  named.n0 = 10.0 + i; named.n1 = vec4(11.0, 12.0, 13.0, 14.0) + i;
  s.a = 20.0 + i; s.b[0] = vec2(21.0, 22.0) + i; s.b[1] = vec2(23.0, 24.0) + i;
}"""
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    got = _capture(ctx, p, {0: 2 * 4, 1: 2 * 5, 3: 2 * 6}, points=2)
    np.testing.assert_array_equal(got[0], _expected(2, 4, [(0, lambda i: [1 + i, 2 + i, 3 + i, 4 + i])]))
    np.testing.assert_array_equal(got[1], _expected(2, 5, [(0, lambda i: [10 + i, 11 + i, 12 + i, 13 + i, 14 + i])]))
    np.testing.assert_array_equal(got[3], _expected(2, 6, [(1, lambda i: [20 + i, 21 + i, 22 + i, 23 + i, 24 + i])]))


def test_geometry_stage_captures(ctx):
    vs = "#version 150\nvoid main() { gl_Position = vec4(float(gl_VertexID)); }"
    gs = HEAD + """
layout(points) in;
layout(points, max_vertices = 2) out;
layout(xfb_offset = 0) out float a;
layout(xfb_buffer = 1, xfb_offset = 0) out vec2 b;
void main() {
  for (int k = 0; k < 2; k++) {
    gl_Position = gl_in[0].gl_Position;
    a = gl_in[0].gl_Position.x * 10.0 + float(k);
    b = vec2(a, -a);
    EmitVertex();
    EndPrimitive();
  }
}"""
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, FS)])
    ctx.glUseProgram(p)
    got = _capture(ctx, p, {0: 6, 1: 12}, points=3, written=6)
    a = np.array([10 * v + k for v in range(3) for k in range(2)], np.float32)
    np.testing.assert_array_equal(got[0], a)
    np.testing.assert_array_equal(got[1], np.stack([a, -a], 1).reshape(-1))


def test_program_interface_queries(ctx):
    vs = HEAD + """
layout(xfb_offset = 0) out float x1;
layout(xfb_offset = 4) out float x2;
layout(xfb_offset = 12) out vec3 x3;
layout(xfb_buffer = 3, xfb_offset = 4) out vec4 y2;
void main() { gl_Position = vec4(0.0); x1 = 0.0; x2 = 0.0; x3 = vec3(0.0); y2 = vec4(0.0); }"""
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    n = ctx.glGetProgramInterfaceiv(p, E.GL_TRANSFORM_FEEDBACK_BUFFER, E.GL_ACTIVE_RESOURCES)
    assert (n[0] if isinstance(n, (list, tuple)) else n) == 2
    mx = ctx.glGetProgramInterfaceiv(p, E.GL_TRANSFORM_FEEDBACK_BUFFER, E.GL_MAX_NUM_ACTIVE_VARIABLES)
    assert (mx[0] if isinstance(mx, (list, tuple)) else mx) == 3
    buffers = {}
    for i in range(2):
        vals = ctx.glGetProgramResourceiv(p, E.GL_TRANSFORM_FEEDBACK_BUFFER, i, 4,
                                          [E.GL_BUFFER_BINDING, E.GL_NUM_ACTIVE_VARIABLES,
                                           E.GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE, E.GL_ACTIVE_VARIABLES], 8)
        vals = list(vals[1] if isinstance(vals, tuple) else vals)
        buffers[vals[0]] = vals
    assert sorted(buffers) == [0, 3]
    assert buffers[0][1:3] == [3, 24] and buffers[3][1:3] == [1, 20]
    seen = {}
    for idx in buffers[0][3:6] + buffers[3][3:4]:
        name = ctx.glGetProgramResourceName(p, E.GL_TRANSFORM_FEEDBACK_VARYING, idx, 16)
        name = name[1] if isinstance(name, tuple) else name
        vals = ctx.glGetProgramResourceiv(p, E.GL_TRANSFORM_FEEDBACK_VARYING, idx, 3,
                                          [E.GL_TRANSFORM_FEEDBACK_BUFFER_INDEX, E.GL_OFFSET, E.GL_TYPE], 3)
        seen[name] = list(vals[1] if isinstance(vals, tuple) else vals)
    assert seen == {"x1": [0, 0, E.GL_FLOAT], "x2": [0, 4, E.GL_FLOAT], "x3": [0, 12, E.GL_FLOAT_VEC3],
                    "y2": [1, 4, E.GL_FLOAT_VEC4]}


def test_begin_needs_the_captured_bindings(ctx):
    vs = HEAD + "layout(xfb_offset = 0) out vec4 a;\nvoid main() { gl_Position = vec4(0.0); a = vec4(1.0); }"
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    ctx.glUseProgram(p)
    # binding 0 left unbound: beginning the capture is an error and changes nothing
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION


def test_limits_agree_with_the_shading_language(ctx):
    """GL_MAX_TRANSFORM_FEEDBACK_BUFFERS / _INTERLEAVED_COMPONENTS are the GLSL constants,
    and a record of exactly the interleaved limit compiles, links and captures."""
    from compiler.glsl.builtin_variables import LIMITS
    assert ctx.glGetIntegerv(E.GL_MAX_TRANSFORM_FEEDBACK_BUFFERS)[0] == LIMITS["gl_MaxTransformFeedbackBuffers"]
    comps = ctx.glGetIntegerv(E.GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS)[0]
    assert comps == LIMITS["gl_MaxTransformFeedbackInterleavedComponents"]
    vs = HEAD + """
layout(xfb_buffer = 3, xfb_stride = gl_MaxTransformFeedbackInterleavedComponents * 4) out;
layout(xfb_buffer = 3, xfb_offset = gl_MaxTransformFeedbackInterleavedComponents * 4 - 16) out vec4 last;
void main() { gl_Position = vec4(0.0); last = vec4(1.0, 2.0, 3.0, float(gl_VertexID)); }"""
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    got = _capture(ctx, p, {3: 2 * comps}, points=2)
    exp = np.full((2, comps), -7, np.float32)
    exp[:, -4:] = [[1, 2, 3, 0], [1, 2, 3, 1]]
    np.testing.assert_array_equal(got[3], exp.reshape(-1))
    s = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderSource(s, 1, [vs.replace("- 16) out vec4", "- 12) out vec4")])
    ctx.glCompileShader(s)
    assert not ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0]
    assert "overflows xfb_stride" in ctx.glGetShaderInfoLog(s)


def test_doubles_are_captured_whole(ctx):
    """A dvec2 at an 8-byte xfb_offset: its two doubles land at bytes 8..23 of the record
    (the stride rounded to 8), bit for bit."""
    vs = HEAD + """
layout(xfb_offset = 0) out float f;
layout(xfb_offset = 8) out dvec2 d;
void main() {
  gl_Position = vec4(0.0);
  f = 1.5 + float(gl_VertexID);
  d = dvec2(0.1, 1e300) * double(gl_VertexID + 1);
}"""
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    got = _capture(ctx, p, {0: 2 * 6}, points=2).get(0).reshape(2, 6)
    np.testing.assert_array_equal(got[:, 0], [1.5, 2.5])
    np.testing.assert_array_equal(got[:, 1], [-7, -7])                 # the hole before d
    doubles = got[:, 2:].copy().view(np.float64)
    np.testing.assert_array_equal(doubles, np.array([[0.1, 1e300], [0.2, 2e300]]))


def test_geometry_streams_capture_into_their_buffers(ctx):
    """Outputs of vertex stream 1 name buffer 1 with xfb qualifiers; stream 0 buffer 0."""
    vs = "#version 150\nvoid main() { gl_Position = vec4(float(gl_VertexID)); }"
    gs = HEAD + """
layout(points) in;
layout(points, max_vertices = 3) out;
layout(stream = 0, xfb_buffer = 0, xfb_offset = 0) out float s0;
layout(stream = 1, xfb_buffer = 1, xfb_offset = 0) out vec2 s1;
void main() {
  float v = gl_in[0].gl_Position.x;
  s0 = v; EmitStreamVertex(0); EndStreamPrimitive(0);
  for (int k = 0; k < 2; k++) { s1 = vec2(v, float(k)); EmitStreamVertex(1); EndStreamPrimitive(1); }
}"""
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, FS)])
    got = _capture(ctx, p, {0: 3, 1: 12}, points=3, written=3)
    np.testing.assert_array_equal(got[0], [0, 1, 2])
    np.testing.assert_array_equal(got[1], [v for i in range(3) for k in range(2) for v in (i, k)])


def test_a_dvec3_capture_takes_its_six_words(ctx):
    """(dvec3/dvec4 captures are tested bit for bit in test_fp64_xfb.py)"""
    vs = HEAD + "layout(xfb_offset = 0) out dvec3 d;\nvoid main() { gl_Position = vec4(0.0); d = dvec3(1.0); }"
    p = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    got = _capture(ctx, p, {0: 6}, points=1).get(0)
    np.testing.assert_array_equal(got.view(np.float64), [1.0, 1.0, 1.0])
