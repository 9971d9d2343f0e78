"""Vertex streams of the geometry stage (GL_ARB_gpu_shader5, GL_ARB_transform_feedback3;
GL 4.6 sections 11.3.4.2 and 13.3): EmitStreamVertex / EndStreamPrimitive, layout(stream),
each stream captured to its own transform feedback buffers, only stream 0 rasterised,
indexed queries per stream, glDrawTransformFeedbackStream, and the errors the
specifications name. Expected values are computed by hand from the shaders."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect
from .test_geometry import _shader

VS = """#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS = """#version 150
out vec4 frag;
void main() { frag = vec4(1.0, 0.0, 0.0, 1.0); }
"""
SIMPLE_GS = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
out float x;
void main() { gl_Position = gl_in[0].gl_Position; x = 1.0; EmitVertex(); }
"""


def _ctx(api="gl46", size=8):
    return driver.Context(api=api, width=size, height=size)


def _program(ctx, gs, varyings=None, mode=E.GL_INTERLEAVED_ATTRIBS, vs=VS, fs=FS, link_ok=True):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)):
        if src is not None:
            ctx.glAttachShader(p, _shader(ctx, kind, src))
    if varyings:
        ctx.glTransformFeedbackVaryings(p, len(varyings), varyings, mode)
    ctx.glLinkProgram(p)
    assert bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]) == link_ok, ctx.glGetProgramInfoLog(p)
    return p


# -- GL_ARB_transform_feedback3's limits and varyings errors -------------------------------

def test_max_transform_feedback_buffers_is_queryable_and_reached_by_next_buffer():
    with _ctx() as ctx:
        assert ctx.glGetIntegerv(E.GL_MAX_TRANSFORM_FEEDBACK_BUFFERS)[0] == 4
        expect(ctx, E.GL_NO_ERROR)


def test_special_names_need_interleaved_mode_and_fewer_separators_than_buffers():
    """ARB_transform_feedback3: INVALID_OPERATION for gl_NextBuffer / gl_SkipComponentsN in
    SEPARATE_ATTRIBS mode, and for MAX_TRANSFORM_FEEDBACK_BUFFERS (4) gl_NextBuffer names."""
    with _ctx() as ctx:
        p = _program(ctx, SIMPLE_GS)
        for special in ("gl_NextBuffer", "gl_SkipComponents1", "gl_SkipComponents4"):
            ctx.glTransformFeedbackVaryings(p, 2, ["x", special], E.GL_SEPARATE_ATTRIBS)
            expect(ctx, E.GL_INVALID_OPERATION)
        names = ["a", "gl_NextBuffer", "b", "gl_NextBuffer", "c", "gl_NextBuffer", "d", "gl_NextBuffer", "e"]
        ctx.glTransformFeedbackVaryings(p, len(names), names, E.GL_INTERLEAVED_ATTRIBS)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glTransformFeedbackVaryings(p, 7, names[:7], E.GL_INTERLEAVED_ATTRIBS)      # 3 separators
        expect(ctx, E.GL_NO_ERROR)


# -- vertex streams ------------------------------------------------------------------------
# one input point, `invocations` invocations: invocation i emits one point to each stream,
# streams 3, 2, 1 after 0 (GL's order inside a stream is the invocations' order)
STREAMS_GS = """#version 400
layout(points, invocations = 3) in;
layout(points, max_vertices = 4) out;
out float s0;
layout(stream = 1) out vec2 s1a;
layout(stream = 2) out float s2;
layout(stream = 3) out vec3 s3;
layout(stream = 1) out vec3 s1b;
void main() {
    float i = float(gl_InvocationID);
    gl_Position = gl_in[0].gl_Position;
    s0 = 1.0 + i;
    EmitVertex();
    EndPrimitive();
    s3 = vec3(12.0, 13.0, 14.0) + i;
    EmitStreamVertex(3);
    EndStreamPrimitive(3);
    s2 = 7.0 + i;
    EmitStreamVertex(2);
    s1a = vec2(2.0, 3.0) + i;
    s1b = vec3(4.0, 5.0, 6.0) + i;
    EmitStreamVertex(1);
    EndStreamPrimitive(1);
}
"""
STREAMS_VARYINGS = ["s0", "gl_NextBuffer", "s1a", "s1b", "gl_NextBuffer", "s2", "gl_NextBuffer", "s3"]
FLOATS_PER_RECORD = [1, 5, 1, 3]


def _buffers(ctx, sizes_f32):
    bufs = ctx.glGenBuffers(len(sizes_f32))
    for i, (b, n) in enumerate(zip(bufs, sizes_f32)):
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * n, np.full(n, -1, np.float32).tobytes(),
                         E.GL_STREAM_READ)
        ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, i, b)
    return bufs


def _read(ctx, buf, n):
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    return np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * n)), np.float32)


def _points(ctx, pts):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    data = np.asarray(pts, np.float32)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    return vao


def test_max_vertex_streams_and_indexed_query_errors():
    with _ctx() as ctx:
        assert ctx.glGetIntegerv(E.GL_MAX_VERTEX_STREAMS)[0] == 4
        assert ctx.glGetFloatv(E.GL_MAX_FRAGMENT_INTERPOLATION_OFFSET)[0] >= 0.5     # ARB_gpu_shader5's minimum
        q = ctx.glGenQueries(3)
        ctx.glBeginQueryIndexed(E.GL_PRIMITIVES_GENERATED, 4, q[0])
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glBeginQueryIndexed(E.GL_SAMPLES_PASSED, 1, q[0])      # not a per-stream target
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glBeginQueryIndexed(E.GL_PRIMITIVES_GENERATED, 2, q[0])
        ctx.glBeginQueryIndexed(E.GL_PRIMITIVES_GENERATED, 2, q[1])
        expect(ctx, E.GL_INVALID_OPERATION)                          # that stream's query is active
        ctx.glBeginQueryIndexed(E.GL_PRIMITIVES_GENERATED, 1, q[1])  # another stream's is not
        ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q[2])            # nor stream 0's
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetQueryIndexediv(E.GL_PRIMITIVES_GENERATED, 2, E.GL_CURRENT_QUERY) == [q[0]]
        assert ctx.glGetQueryIndexediv(E.GL_PRIMITIVES_GENERATED, 0, E.GL_CURRENT_QUERY) == [q[2]]
        ctx.glEndQueryIndexed(E.GL_PRIMITIVES_GENERATED, 3)
        expect(ctx, E.GL_INVALID_OPERATION)
        for i, name in ((2, q[0]), (1, q[1]), (0, q[2])):
            ctx.glEndQueryIndexed(E.GL_PRIMITIVES_GENERATED, i)
            assert ctx.glGetQueryObjectuiv(name, E.GL_QUERY_RESULT) == [0]     # nothing drawn
        expect(ctx, E.GL_NO_ERROR)
        ctx.glDrawTransformFeedbackStream(E.GL_POINTS, 0, 4)
        expect(ctx, E.GL_INVALID_VALUE)


def test_each_stream_is_captured_to_its_buffers_and_counted():
    """Three invocations of one point: every stream gets 3 points, in invocation order."""
    n = 3
    with _ctx() as ctx:
        p = _program(ctx, STREAMS_GS, STREAMS_VARYINGS, fs=None)
        ctx.glUseProgram(p)
        bufs = _buffers(ctx, [n * k + 2 for k in FLOATS_PER_RECORD])      # 2 spare floats each
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        q = ctx.glGenQueries(8)
        for i in range(4):
            ctx.glBeginQueryIndexed(E.GL_PRIMITIVES_GENERATED, i, q[i])
            ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, i, q[4 + i])
        _points(ctx, [[0.0, 0.0]])
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        for i in range(4):
            ctx.glEndQueryIndexed(E.GL_PRIMITIVES_GENERATED, i)
            ctx.glEndQueryIndexed(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, i)
        ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        assert [ctx.glGetQueryObjectuiv(x, E.GL_QUERY_RESULT)[0] for x in q] == [n] * 8
        got = [_read(ctx, b, n * k + 2) for b, k in zip(bufs, FLOATS_PER_RECORD)]
    inv = np.arange(n, dtype=np.float32)[:, None]
    want = [1.0 + inv, np.hstack([2.0 + inv, 3.0 + inv, 4.0 + inv, 5.0 + inv, 6.0 + inv]), 7.0 + inv,
            np.hstack([12.0 + inv, 13.0 + inv, 14.0 + inv])]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g[:w.size], w.reshape(-1))
        np.testing.assert_array_equal(g[w.size:], [-1.0, -1.0])            # nothing past the records


def test_only_stream_0_is_rasterised():
    """Stream 0's point at the input position is drawn; stream 1's point at the centre is not."""
    gs = """#version 400
layout(points) in;
layout(points, max_vertices = 2) out;
void main() {
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
    gl_Position = vec4(0.125, 0.125, 0.0, 1.0);     // the centre of pixel (4, 4)
    EmitStreamVertex(1);
}
"""
    size = 8
    with _ctx(size=size) as ctx:
        p = _program(ctx, gs)
        ctx.glUseProgram(p)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _points(ctx, [[-0.625, -0.625]])                  # the centre of pixel (1, 1)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        img = np.frombuffer(ctx.glReadPixels(0, 0, size, size, E.GL_RGBA, E.GL_UNSIGNED_BYTE),
                            np.uint8).reshape(size, size, 4)
    red = img[:, :, 0] > 0
    assert red[1, 1] and red.sum() == 1, np.argwhere(red)


def test_draw_transform_feedback_stream_draws_what_that_stream_captured():
    """Stream 1 captures two positions, stream 2 one; glDrawTransformFeedbackStream(stream 1)
    draws two points at them, stream 2 one point, stream 3 (nothing captured) none."""
    gs = """#version 400
layout(points) in;
layout(points, max_vertices = 3) out;
layout(stream = 1) out vec4 p1;
layout(stream = 2) out vec4 p2;
void main() {
    p1 = vec4(-0.625, -0.625, 0.0, 1.0);  EmitStreamVertex(1);   // pixel (1, 1)
    p1 = vec4(0.625, -0.625, 0.0, 1.0);   EmitStreamVertex(1);   // pixel (6, 1)
    p2 = vec4(0.625, 0.625, 0.0, 1.0);    EmitStreamVertex(2);   // pixel (6, 6)
}
"""
    draw_vs = """#version 150
in vec4 pos;
void main() { gl_Position = pos; }
"""
    size = 8
    with _ctx(size=size) as ctx:
        p = _program(ctx, gs, ["p1", "gl_NextBuffer", "p2"], fs=None)
        draw = _program(ctx, None, vs=draw_vs)
        bufs = _buffers(ctx, [8, 8])
        xfb = ctx.glGenTransformFeedbacks(1)[0]
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, xfb)
        for i, b in enumerate(bufs):
            ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, i, b)
        ctx.glUseProgram(p)
        _points(ctx, [[0.0, 0.0]])
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        ctx.glEndTransformFeedback()
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 0)
        ctx.glDisable(E.GL_RASTERIZER_DISCARD)
        ctx.glUseProgram(draw)
        images = []
        for stream, buf in ((1, bufs[0]), (2, bufs[1]), (3, bufs[1])):
            vao = ctx.glGenVertexArrays(1)[0]
            ctx.glBindVertexArray(vao)
            ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
            ctx.glVertexAttribPointer(ctx.glGetAttribLocation(draw, "pos"), 4, E.GL_FLOAT, False, 0, 0)
            ctx.glEnableVertexAttribArray(ctx.glGetAttribLocation(draw, "pos"))
            ctx.glClear(E.GL_COLOR_BUFFER_BIT)
            ctx.glDrawTransformFeedbackStream(E.GL_POINTS, xfb, stream)
            expect(ctx, E.GL_NO_ERROR)
            img = np.frombuffer(ctx.glReadPixels(0, 0, size, size, E.GL_RGBA, E.GL_UNSIGNED_BYTE),
                                np.uint8).reshape(size, size, 4)
            images.append(sorted(map(tuple, np.argwhere(img[:, :, 0] > 0))))
    assert images == [[(1, 1), (1, 6)], [(6, 6)], []]


def test_stream_overflow_is_reported_per_stream():
    """Stream 1's buffer holds one of its two points: its STREAM_OVERFLOW query is true,
    stream 2's (room for both) false, TRANSFORM_FEEDBACK_OVERFLOW (any stream) true."""
    gs = """#version 400
layout(points) in;
layout(points, max_vertices = 4) out;
layout(stream = 1) out float a;
layout(stream = 2) out float b;
void main() {
    a = 1.0; EmitStreamVertex(1);
    a = 2.0; EmitStreamVertex(1);
    b = 3.0; EmitStreamVertex(2);
    b = 4.0; EmitStreamVertex(2);
}
"""
    with _ctx() as ctx:
        p = _program(ctx, gs, ["a", "gl_NextBuffer", "b"], fs=None)
        ctx.glUseProgram(p)
        bufs = _buffers(ctx, [1, 2])
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        q = ctx.glGenQueries(5)
        ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 1, q[0])
        ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 2, q[1])
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_OVERFLOW, q[2])
        ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1, q[3])
        ctx.glBeginQueryIndexed(E.GL_PRIMITIVES_GENERATED, 1, q[4])
        _points(ctx, [[0.0, 0.0]])
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        ctx.glEndTransformFeedback()
        ctx.glEndQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 1)
        ctx.glEndQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 2)
        ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_OVERFLOW)
        ctx.glEndQueryIndexed(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1)
        ctx.glEndQueryIndexed(E.GL_PRIMITIVES_GENERATED, 1)
        expect(ctx, E.GL_NO_ERROR)
        assert [ctx.glGetQueryObjectuiv(x, E.GL_QUERY_RESULT)[0] for x in q] == [1, 0, 1, 1, 2]
        assert list(_read(ctx, bufs[0], 1)) == [1.0] and list(_read(ctx, bufs[1], 2)) == [3.0, 4.0]


# -- compile and link errors ------------------------------------------------------------------
def _compile_log(ctx, kind, src):
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    return ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)


GS_HEAD = "#version 400\nlayout(points) in;\nlayout(points, max_vertices = 2) out;\n"


@pytest.mark.parametrize("body, message", [
    ("layout(stream = 4) out float x;\nvoid main() {}\n", "MAX_VERTEX_STREAMS"),
    ("void main() { int k = 1; EmitStreamVertex(k); }\n", "constant expression"),
    ("layout(stream = 1) in;\nvoid main() {}\n", "geometry shader outputs"),
    ("layout(stream = 1) out B { layout(stream = 2) float x; };\nvoid main() {}\n", "must match"),
])
def test_stream_compile_errors(body, message):
    with _ctx() as ctx:
        ok, log = _compile_log(ctx, E.GL_GEOMETRY_SHADER, GS_HEAD + body)
        assert not ok and message in log and "error:" in log, log


def test_stream_qualifier_needs_glsl_400_or_the_extension():
    src = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n" \
          "layout(stream = 1) out float x;\nvoid main() {}\n"
    with _ctx() as ctx:
        ok, log = _compile_log(ctx, E.GL_GEOMETRY_SHADER, src)
        assert not ok and "GL_ARB_gpu_shader5" in log, log
    with _ctx("gl33") as ctx:       # no GL 4.0: the vertex shader side has no streams either
        ok, log = _compile_log(ctx, E.GL_VERTEX_SHADER, "#version 330\nlayout(stream = 1) out float x;\nvoid main() {}\n")
        assert not ok, log


def test_default_stream_and_block_streams_are_kept():
    """`layout(stream = N) out;` applies to later outputs; a block's members take its stream."""
    from compiler.glsl import parse
    from compiler.lower.geometry import geometry_interface
    unit = parse(GS_HEAD + "out float a;\nlayout(stream = 2) out;\nout float b;\n"
                 "layout(stream = 3) out B { float c; layout(stream = 3) float d; } inst;\n"
                 "layout(stream = 1) out float e;\nvoid main() { EmitStreamVertex(3); EmitVertex(); }\n", "geometry")
    iface = geometry_interface(unit)
    assert {o.name: o.stream for o in iface.outputs} == {"gl_Position": 0, "a": 0, "b": 2, "B.c": 3, "B.d": 3,
                                                         "e": 1}
    assert iface.streams == 4 and unit.geometry.emit_streams == {3}


@pytest.mark.parametrize("gs, fs, varyings, message", [
    # EmitStreamVertex's stream beyond MAX_VERTEX_STREAMS - 1 (a link error, as Mesa)
    (GS_HEAD + "void main() { EmitStreamVertex(4); }\n", None, None, "EmitStreamVertex(4)"),
    (GS_HEAD + "void main() { EndStreamPrimitive(-1); }\n", None, None, "EmitStreamVertex(-1)"),
    # streams other than 0 need the points output primitive
    ("#version 400\nlayout(points) in;\nlayout(line_strip, max_vertices = 2) out;\n"
     "void main() { EmitStreamVertex(1); }\n", None, None, "points output"),
    # only stream 0 reaches the fragment stage
    (GS_HEAD + "layout(stream = 1) out vec4 c;\nvoid main() { c = vec4(1.0); EmitStreamVertex(1); }\n",
     "#version 150\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n", None, "stream 1"),
    # one buffer, two streams (ARB_transform_feedback3)
    (GS_HEAD + "out float a;\nlayout(stream = 1) out float b;\nvoid main() { EmitVertex(); }\n", None,
     ["a", "b"], "vertex streams 0 and 1"),
])
def test_stream_link_errors(gs, fs, varyings, message):
    with _ctx() as ctx:
        p = _program(ctx, gs, varyings, fs=fs, link_ok=False)
        assert message in ctx.glGetProgramInfoLog(p), ctx.glGetProgramInfoLog(p)


# -- overflow queries of streams 0 and 1 deciding results, query buffers and conditional
# rendering (ARB_transform_feedback_overflow_query). Each input point emits one point to
# stream 0 and one to stream 1; three points are drawn, so each stream needs 3 records of
# one float: buffer sizes (3, 2) overflow stream 1 only.
TWO_STREAMS_GS = """#version 400
layout(points) in;
layout(points, max_vertices = 2) out;
out float a;
layout(stream = 1) out float b;
void main() {
    gl_Position = gl_in[0].gl_Position;
    a = 1.0; EmitStreamVertex(0); EndStreamPrimitive(0);
    b = 2.0; EmitStreamVertex(1); EndStreamPrimitive(1);
}
"""


def _overflow_queries(ctx, sizes):
    """The three points drawn into buffers of `sizes` floats, under a STREAM_OVERFLOW query of
    stream 0, one of stream 1 and a TRANSFORM_FEEDBACK_OVERFLOW query: their names."""
    _buffers(ctx, sizes)
    _points(ctx, [[0.0, 0.0], [0.5, 0.5], [-0.5, -0.5]])
    q = ctx.glGenQueries(3)
    ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 0, q[0])
    ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 1, q[1])
    ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_OVERFLOW, q[2])
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, 0, 3)
    ctx.glEndTransformFeedback()
    ctx.glEndQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 0)
    ctx.glEndQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 1)
    ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_OVERFLOW)
    expect(ctx, E.GL_NO_ERROR)
    return q


@pytest.mark.parametrize("sizes, want", [((3, 2), [0, 1, 1]), ((2, 3), [1, 0, 1]), ((3, 3), [0, 0, 0])])
def test_stream_overflow_of_stream_0_ignores_the_other_streams(sizes, want):
    """Stream 0's STREAM_OVERFLOW query is true only when stream 0's buffer was short (it
    read the pipe's predicate over every capture pass, stream 1's included)."""
    with _ctx() as ctx:
        p = _program(ctx, TWO_STREAMS_GS, ["a", "gl_NextBuffer", "b"], fs=None)
        ctx.glUseProgram(p)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        q = _overflow_queries(ctx, sizes)
        assert [ctx.glGetQueryObjectuiv(x, E.GL_QUERY_RESULT)[0] for x in q] == want
        # the same answers written to a query buffer (stream 1's wrote the pipe's primitive count)
        qbo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_QUERY_BUFFER, qbo)
        ctx.glBufferData(E.GL_QUERY_BUFFER, 12, bytes([0xEE]) * 12, E.GL_DYNAMIC_COPY)
        q2 = _overflow_queries(ctx, sizes)
        for i, x in enumerate(q2):
            ctx.glGetQueryObjectuiv(x, E.GL_QUERY_RESULT, 4 * i)
        expect(ctx, E.GL_NO_ERROR)
        got = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_QUERY_BUFFER, 0, 12)), np.uint32)
        assert list(got) == want


@pytest.mark.parametrize("which, inverted", [(0, False), (0, True), (1, False), (1, True), (2, False)])
@pytest.mark.parametrize("sizes", [(3, 2), (3, 3)])
def test_conditional_rendering_on_an_overflow_query_decides_geometry_draws(sizes, which, inverted):
    """glBeginConditionalRender on an overflow query: a draw through the geometry stage (lowered
    to compute passes) is done when the query's result is true (false when inverted) and
    skipped otherwise - nothing generated, nothing captured; the geometry passes ran anyway."""
    with _ctx() as ctx:
        p = _program(ctx, TWO_STREAMS_GS, ["a", "gl_NextBuffer", "b"], fs=None)
        ctx.glUseProgram(p)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        q = _overflow_queries(ctx, sizes)
        result = {(3, 2): [0, 1, 1], (3, 3): [0, 0, 0]}[sizes][which]
        bufs = _buffers(ctx, [3, 3])
        generated = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, generated)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glBeginConditionalRender(q[which], E.GL_QUERY_WAIT_INVERTED if inverted else E.GL_QUERY_WAIT)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        ctx.glEndConditionalRender()
        ctx.glEndTransformFeedback()
        ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
        expect(ctx, E.GL_NO_ERROR)
        drawn = bool(result) != inverted
        assert ctx.glGetQueryObjectuiv(generated, E.GL_QUERY_RESULT)[0] == int(drawn)
        assert list(_read(ctx, bufs[0], 1)) == ([1.0] if drawn else [-1.0])
        assert list(_read(ctx, bufs[1], 1)) == ([2.0] if drawn else [-1.0])
