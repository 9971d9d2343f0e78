"""Transform feedback beyond the basics: indexed draws (desktop GL), strips/fans/loops
decomposed into primitives, matrix/array/built-in varyings, buffer overflow (writing
stops; PRIMITIVES_WRITTEN vs PRIMITIVES_GENERATED), pause/resume, gl_NextBuffer and
gl_SkipComponents (GL 4.x), glDrawTransformFeedback, and the errors of each. Every
captured value is checked against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.agx.encode import feedback_records
from driver.gallium import PipePrim

from .helpers import expect

VS = """#version 330
in vec4 p;
out vec4 v;
void main() { gl_Position = p; v = p * 2.0 + float(gl_VertexID); }"""
FS = """#version 330
in vec4 v;
out vec4 o;
void main() { o = v; }"""


def _ctx(api="gl43"):
    return driver.Context(api=api, width=8, height=8)


def _program(ctx, varyings, mode=E.GL_INTERLEAVED_ATTRIBS, vs=VS, fs=FS, link_ok=True):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    ctx.glTransformFeedbackVaryings(p, len(varyings), varyings, mode)
    ctx.glLinkProgram(p)
    assert bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]) == link_ok, ctx.glGetProgramInfoLog(p)
    if link_ok:
        ctx.glUseProgram(p)
    return p


def _vertices(ctx, verts):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, verts.nbytes, verts, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    return vao


def _feedback_buffers(ctx, sizes_f32):
    bufs = ctx.glGenBuffers(len(sizes_f32))
    for i, (b, n) in enumerate(zip(bufs, sizes_f32)):
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, b)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * n, np.full(n, -7, np.float32), E.GL_STREAM_READ)
        ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, i, b)
    return bufs


def _read(ctx, buf, n):
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    view = ctx.glMapBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * n, E.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.float32).copy()
    ctx.glUnmapBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER)
    return out


def _verts(n, seed=0):
    return np.random.default_rng(seed).random((n, 4)).astype(np.float32)


def _expected_v(verts, ids):
    return verts[ids] * 2.0 + ids[:, None].astype(np.float32)


# -- decomposition (pure) ----------------------------------------------------------------

def test_records_of_strips_fans_loops_and_restart():
    ids = np.arange(5)
    assert feedback_records(PipePrim.TRIANGLE_STRIP, ids).tolist() == [0, 1, 2, 2, 1, 3, 2, 3, 4]
    assert feedback_records(PipePrim.TRIANGLE_FAN, ids).tolist() == [0, 1, 2, 0, 2, 3, 0, 3, 4]
    assert feedback_records(PipePrim.LINE_LOOP, np.arange(3)).tolist() == [0, 1, 1, 2, 2, 0]
    assert feedback_records(PipePrim.LINE_STRIP, np.arange(3)).tolist() == [0, 1, 1, 2]
    assert feedback_records(PipePrim.TRIANGLES, np.array([0, 1, 2, 3])).tolist() == [0, 1, 2]
    with_restart = np.array([0, 1, 2, -1, 3, 4, 5, 6])
    assert feedback_records(PipePrim.TRIANGLE_STRIP, with_restart).tolist() == [0, 1, 2, 3, 4, 5, 5, 4, 6]


def test_records_under_the_first_vertex_convention_start_with_the_provoking_vertex():
    """GL_FIRST_VERTEX_CONVENTION: each recorded primitive starts with the vertex that
    flat-shades it (strip triangle i: vertex i; fan triangle i: vertex i + 1, GL 4.6
    table 13.2), winding kept, so the records drawn as GL_TRIANGLES with the same
    convention shade as the strip or fan did (piglit ext_transform_feedback tessellation
    ... flat_first)."""
    ids = np.arange(5)
    assert feedback_records(PipePrim.TRIANGLE_STRIP, ids, True).tolist() == [0, 1, 2, 1, 3, 2, 2, 3, 4]
    assert feedback_records(PipePrim.TRIANGLE_FAN, ids, True).tolist() == [1, 2, 0, 2, 3, 0, 3, 4, 0]
    assert feedback_records(PipePrim.LINE_STRIP, np.arange(3), True).tolist() == [0, 1, 1, 2]
    assert feedback_records(PipePrim.TRIANGLES, np.array([0, 1, 2]), True).tolist() == [0, 1, 2]


# -- capture -------------------------------------------------------------------------------

@pytest.mark.parametrize("prim,xfb_prim", [(E.GL_TRIANGLES, E.GL_TRIANGLES), (E.GL_TRIANGLE_STRIP, E.GL_TRIANGLES),
                                           (E.GL_TRIANGLE_FAN, E.GL_TRIANGLES), (E.GL_LINE_LOOP, E.GL_LINES),
                                           (E.GL_POINTS, E.GL_POINTS)])
def test_indexed_draw_captures_each_primitive_vertex(prim, xfb_prim):
    verts = _verts(8, 1)
    indices = np.array([5, 1, 7, 1, 2, 5, 0, 3, 2], np.uint32)
    mode_map = {E.GL_TRIANGLES: PipePrim.TRIANGLES, E.GL_TRIANGLE_STRIP: PipePrim.TRIANGLE_STRIP,
                E.GL_TRIANGLE_FAN: PipePrim.TRIANGLE_FAN, E.GL_LINE_LOOP: PipePrim.LINE_LOOP,
                E.GL_POINTS: PipePrim.POINTS}
    base_vertex = 0
    ids = feedback_records(mode_map[prim], indices.astype(np.int64)) + base_vertex
    with _ctx() as ctx:
        _program(ctx, ["v", "gl_Position"])
        _vertices(ctx, verts)
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, indices.nbytes, indices, E.GL_STATIC_DRAW)
        (buf,) = _feedback_buffers(ctx, [8 * len(ids) + 8])
        q = ctx.glGenQueries(1)[0]
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q)
        ctx.glBeginTransformFeedback(xfb_prim)
        ctx.glDrawElements(prim, len(indices), E.GL_UNSIGNED_INT, 0)
        ctx.glEndTransformFeedback()
        ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
        per = {E.GL_TRIANGLES: 3, E.GL_LINES: 2, E.GL_POINTS: 1}[xfb_prim]
        assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0] == len(ids) // per
        got = _read(ctx, buf, 8 * len(ids) + 8).reshape(-1, 8)
        np.testing.assert_allclose(got[:len(ids), :4], _expected_v(verts, ids), rtol=1e-6)
        np.testing.assert_allclose(got[:len(ids), 4:], verts[ids], rtol=1e-6)
        assert (got[len(ids):] == -7).all()
        assert ctx.glGetError() == E.GL_NO_ERROR


def test_indexed_base_vertex_instanced_with_restart():
    verts = _verts(12, 2)
    indices = np.array([0, 1, 2, 0xFFFF, 3, 4, 5, 6], np.uint16)
    with _ctx() as ctx:
        _program(ctx, ["v"])
        _vertices(ctx, verts)
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, indices.nbytes, indices, E.GL_STATIC_DRAW)
        ctx.glEnable(E.GL_PRIMITIVE_RESTART_FIXED_INDEX)
        ids = feedback_records(PipePrim.TRIANGLE_STRIP, np.array([0, 1, 2, -1, 3, 4, 5, 6])) + 3
        n = len(ids) * 2
        (buf,) = _feedback_buffers(ctx, [4 * n])
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawElementsInstancedBaseVertex(E.GL_TRIANGLE_STRIP, len(indices), E.GL_UNSIGNED_SHORT, 0, 2, 3)
        ctx.glEndTransformFeedback()
        got = _read(ctx, buf, 4 * n).reshape(-1, 4)
        want = _expected_v(verts, ids)
        np.testing.assert_allclose(got, np.concatenate([want, want]), rtol=1e-6)


CHAIN_VS = """#version 330
out int next;
out float shade;
void main() {
    gl_Position = vec4((float(gl_VertexID) + 0.5) / 4.0 - 1.0, 0.0, 0.0, 1.0);
    shade = float(gl_VertexID + 1) / 8.0;
    next = gl_VertexID + 1;
}"""
CHAIN_FS = """#version 330
in float shade;
out vec4 o;
void main() { o = vec4(shade, 0.0, 0.0, 1.0); }"""


def test_captured_indices_feed_the_next_draw_of_the_same_batch():
    """A buffer transform feedback writes is the index buffer of the very next draw, with
    no read-back in between (GL needs no barrier for it): each draw captures its vertex id
    + 1, which the next draw reads as its index. Six draws alternate two buffers; the
    points land in pixels 0..5 of an 8-pixel row with red (id + 1) / 8."""
    with driver.Context(api="gl43", width=8, height=1) as ctx:
        _program(ctx, ["next"], vs=CHAIN_VS, fs=CHAIN_FS)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        bufs = ctx.glGenBuffers(2)
        for b in bufs:
            ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
            ctx.glBufferData(E.GL_ARRAY_BUFFER, 4, np.zeros(1, np.uint32), E.GL_STREAM_COPY)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        for i in range(6):
            ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, bufs[i % 2])
            ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, bufs[(i + 1) % 2])
            ctx.glBeginTransformFeedback(E.GL_POINTS)
            ctx.glDrawElements(E.GL_POINTS, 1, E.GL_UNSIGNED_INT, 0)
            ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        red = np.frombuffer(ctx.glReadPixels(0, 0, 8, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)[0::4]
        ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, bufs[0])
        last = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_COPY_READ_BUFFER, 0, 4)), np.uint32)
    np.testing.assert_allclose(red, [32, 64, 96, 128, 159, 191, 0, 0], atol=1)     # (id + 1) / 8 * 255
    assert last.tolist() == [6]             # the sixth draw (id 5) wrote 6 into buffer 0


MATRIX_VS = """#version 330
in vec4 p;
out mat3 m;
out float arr[3];
out vec2 pair[2];
out float gl_ClipDistance[2];
void main() {
    gl_Position = p;
    m = mat3(p.xyz, p.yzw, p.zwx * 3.0);
    for (int i = 0; i < 3; i++) arr[i] = p.x + float(i);
    pair[0] = p.xy; pair[1] = p.zw * -1.0;
    gl_ClipDistance[0] = p.y - 0.5;
    gl_ClipDistance[1] = p.z;
}"""
MATRIX_FS = """#version 330
in mat3 m;
in float arr[3];
in vec2 pair[2];
out vec4 o;
void main() { o = vec4(m[0], arr[1] + pair[1].x); }"""


def test_matrix_array_and_builtin_varyings():
    verts = _verts(6, 3)
    names = ["m", "arr[2]", "pair", "gl_ClipDistance", "gl_Position"]
    with _ctx() as ctx:
        p = _program(ctx, names, vs=MATRIX_VS, fs=MATRIX_FS)
        assert ctx.glGetTransformFeedbackVarying(p, 0) == ("m", 1, E.GL_FLOAT_MAT3)
        assert ctx.glGetTransformFeedbackVarying(p, 1) == ("arr[2]", 1, E.GL_FLOAT)
        assert ctx.glGetTransformFeedbackVarying(p, 2) == ("pair", 2, E.GL_FLOAT_VEC2)
        _vertices(ctx, verts)
        stride = 9 + 1 + 4 + 2 + 4
        (buf,) = _feedback_buffers(ctx, [stride * 6])
        ctx.glEnable(E.GL_CLIP_DISTANCE0)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
        ctx.glEndTransformFeedback()
        got = _read(ctx, buf, stride * 6).reshape(6, stride)
    x, y, z, w = verts.T
    want = np.stack([x, y, z, y, z, w, 3 * z, 3 * w, 3 * x, x + 2, x, y, -z, -w, y - 0.5, z, x, y, z, w], 1)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


WIDE_VS = """#version 330
in vec4 p;
out vec4 wide[17];
void main() {
    gl_Position = p;
    for (int i = 0; i < 17; i++) wide[i] = p;
}"""
WIDE_FS = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }"


def test_separate_mode_matrix_too_wide_is_a_link_error():
    with _ctx() as ctx:
        # 68 components in one separate varying: more than the limit (64)
        assert ctx.glGetIntegerv(E.GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS)[0] < 68
        p = _program(ctx, ["wide"], E.GL_SEPARATE_ATTRIBS, vs=WIDE_VS, fs=WIDE_FS, link_ok=False)
        assert "SEPARATE_COMPONENTS" in ctx.glGetProgramInfoLog(p)
        for bad in (["nothere"], ["arr[3]"], ["arr", "arr[1]"], ["m[0]"]):
            p = _program(ctx, bad, vs=MATRIX_VS, fs=MATRIX_FS, link_ok=False)


def test_next_buffer_and_skip_components_on_gl4():
    """GL_ARB_transform_feedback3: gl_NextBuffer and gl_SkipComponents."""
    verts = _verts(3, 4)
    with _ctx() as ctx:
        p = _program(ctx, ["v", "gl_SkipComponents2", "gl_NextBuffer", "gl_SkipComponents1", "gl_Position"])
        assert ctx.glGetTransformFeedbackVarying(p, 1) == ("gl_SkipComponents2", 2, E.GL_NONE)
        assert ctx.glGetTransformFeedbackVarying(p, 2) == ("gl_NextBuffer", 0, E.GL_NONE)
        _vertices(ctx, verts)
        b0, b1 = _feedback_buffers(ctx, [6 * 3, 5 * 3])
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 3)
        ctx.glEndTransformFeedback()
        g0 = _read(ctx, b0, 18).reshape(3, 6)
        g1 = _read(ctx, b1, 15).reshape(3, 5)
    ids = np.arange(3)
    np.testing.assert_allclose(g0[:, :4], _expected_v(verts, ids), rtol=1e-6)
    assert (g0[:, 4:] == -7).all()                       # skipped components are not written
    assert (g1[:, 0] == -7).all()
    np.testing.assert_allclose(g1[:, 1:], verts, rtol=1e-6)


def test_next_buffer_is_not_a_name_on_gles3_and_invalid_in_separate_mode():
    with _ctx() as ctx:
        # ARB_transform_feedback3: INVALID_OPERATION when the names are given, state unchanged
        p = _program(ctx, ["v"], E.GL_SEPARATE_ATTRIBS)
        ctx.glTransformFeedbackVaryings(p, 2, ["v", "gl_NextBuffer"], E.GL_SEPARATE_ATTRIBS)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glGetProgramiv(p, E.GL_TRANSFORM_FEEDBACK_VARYINGS)[0] == 1
    es_vs = "#version 300 es\nin vec4 p;\nout vec4 v;\nvoid main() { gl_Position = p; v = p; }"
    es_fs = "#version 300 es\nprecision highp float;\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }"
    with _ctx("gles3") as ctx:
        _program(ctx, ["v", "gl_SkipComponents1"], vs=es_vs, fs=es_fs, link_ok=False)


def test_overflow_stops_writing_and_queries_differ():
    verts = _verts(9, 5)
    with _ctx() as ctx:
        _program(ctx, ["v"])
        _vertices(ctx, verts)
        (buf,) = _feedback_buffers(ctx, [4 * 7 + 3])             # room for 7 vertices: 2 triangles
        written, generated = ctx.glGenQueries(2)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, written)
        ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, generated)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 9)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)                   # no room left at all
        ctx.glEndTransformFeedback()
        ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
        ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetQueryObjectuiv(written, E.GL_QUERY_RESULT)[0] == 2
        assert ctx.glGetQueryObjectuiv(generated, E.GL_QUERY_RESULT)[0] == 4
        got = _read(ctx, buf, 31)
    np.testing.assert_allclose(got[:24].reshape(6, 4), _expected_v(verts, np.arange(6)), rtol=1e-6)
    assert (got[24:] == -7).all()


def test_gles3_overflowing_draw_and_draw_elements_are_errors():
    es_vs = "#version 300 es\nin vec4 p;\nout vec4 v;\nvoid main() { gl_Position = p; v = p; }"
    es_fs = "#version 300 es\nprecision highp float;\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }"
    with _ctx("gles3") as ctx:
        _program(ctx, ["v"], vs=es_vs, fs=es_fs)
        _vertices(ctx, _verts(6))
        (buf,) = _feedback_buffers(ctx, [4 * 3])
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glDrawElements(E.GL_TRIANGLES, 3, E.GL_UNSIGNED_BYTE, bytes([0, 1, 2]))
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)                    # the buffer is full now
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glEndTransformFeedback()


def test_pause_resume_and_draw_transform_feedback():
    """GL_ARB_transform_feedback2: objects, pause/resume, glDrawTransformFeedback."""
    verts = _verts(6, 6)
    with _ctx() as ctx:
        _program(ctx, ["gl_Position"])
        _vertices(ctx, verts)
        xfb = ctx.glGenTransformFeedbacks(1)[0]
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, xfb)
        (buf,) = _feedback_buffers(ctx, [4 * 12])
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        ctx.glPauseTransformFeedback()
        ctx.glDrawArrays(E.GL_POINTS, 0, 6)                        # not captured, any mode
        ctx.glDrawTransformFeedback(E.GL_POINTS, xfb)              # still active (paused)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glResumeTransformFeedback()
        ctx.glDrawArrays(E.GL_TRIANGLES, 3, 3)
        ctx.glEndTransformFeedback()
        got = _read(ctx, buf, 24).reshape(6, 4)
        np.testing.assert_allclose(got, verts, rtol=1e-6)
        # draw the 6 captured vertices again, capturing them into a second object
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 0)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
        (buf2,) = _feedback_buffers(ctx, [4 * 12])
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawTransformFeedback(E.GL_POINTS, xfb)
        ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        got2 = _read(ctx, buf2, 48).reshape(12, 4)
        np.testing.assert_allclose(got2[:6], verts, rtol=1e-6)
        assert (got2[6:] == -7).all()


def test_draw_transform_feedback_needs_gl4():
    with _ctx("gl33") as ctx:
        ctx.glDrawTransformFeedback(E.GL_POINTS, 0)
        expect(ctx, E.GL_INVALID_OPERATION)
    with _ctx("gles3") as ctx:
        ctx.glDrawTransformFeedback(E.GL_POINTS, 0)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_gles3_needs_the_identical_mode_but_desktop_takes_strips():
    es_vs = "#version 300 es\nin vec4 p;\nout vec4 v;\nvoid main() { gl_Position = p; v = p; }"
    es_fs = "#version 300 es\nprecision highp float;\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }"
    with _ctx("gles3") as ctx:
        _program(ctx, ["v"], vs=es_vs, fs=es_fs)
        _vertices(ctx, _verts(6))
        _feedback_buffers(ctx, [4 * 12])
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glEndTransformFeedback()
    with _ctx("gl43") as ctx:
        _program(ctx, ["v"])
        _vertices(ctx, _verts(6))
        _feedback_buffers(ctx, [4 * 12])
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glEndTransformFeedback()
