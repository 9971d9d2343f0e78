"""Transform feedback of geometry shader output (GL 4.6 section 13.3): what the geometry
stage emits is recorded in primitive order, strips as independent primitives, and the
queries count it (PRIMITIVES_GENERATED, PRIMITIVES_WRITTEN, overflow). Expected values
are computed by hand from the shaders."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect
from .test_geometry import _shader, _vertices

VS = """#version 150
in vec2 pos;
out float vid;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vid = float(gl_VertexID); }
"""
FS = """#version 150
out vec4 frag;
void main() { frag = vec4(1.0); }
"""
# each point: a strip of 4 vertices (two triangles), `tag` = 10 * point + vertex
STRIP = """#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in float vid[];
out float tag;
void main() {
    for (int k = 0; k < 4; k++) {
        tag = 10.0 * vid[0] + float(k);
        gl_Position = gl_in[0].gl_Position + vec4(float(k), 0.0, 0.0, 0.0);
        EmitVertex();
    }
}
"""
# input primitive p emits p points of value p (output counts known only on the GPU)
VARIABLE = """#version 150
layout(points) in;
layout(points, max_vertices = 4) out;
out float tag;
void main() {
    for (int k = 0; k < gl_PrimitiveIDIn; k++) {
        tag = float(gl_PrimitiveIDIn);
        gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
        EmitVertex();
    }
}
"""


def _xfb_program(ctx, gs, varyings, mode=E.GL_INTERLEAVED_ATTRIBS):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, FS)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glTransformFeedbackVaryings(p, len(varyings), varyings, mode)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    return p


def _feedback_buffer(ctx, size_B, index=0):
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, size_B, bytes([0xEE]) * size_B, E.GL_STREAM_READ)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, index, buf)
    return buf


def _floats(ctx, buf, size_B):
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    return np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, size_B)), np.float32)


def _query(ctx, target):
    q = ctx.glGenQueries(1)[0]
    ctx.glBeginQuery(target, q)
    return q


def _result(ctx, target, q):
    ctx.glEndQuery(target)
    return ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0]


def _strip_records(points):
    """The tags of two points' strips as independent triangles: (0, 1, 2) and the odd
    triangle wound (2, 1, 3) (its first two vertices swapped, GL 4.6 table 10.1)."""
    out = []
    for p in points:
        out += [10 * p + k for k in (0, 1, 2, 2, 1, 3)]
    return out


def test_strip_output_is_recorded_as_triangles_in_order():
    with driver.Context(api="gl33", width=8, height=8) as ctx:
        p = _xfb_program(ctx, STRIP, ["tag", "gl_Position"])
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(-0.5, 0.0), (0.25, 0.5)])
        stride = 5 * 4
        buf = _feedback_buffer(ctx, 16 * stride)
        gen = _query(ctx, E.GL_PRIMITIVES_GENERATED)
        q_written = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q_written)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_POINTS, 0, 2)
        ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        assert _result(ctx, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q_written) == 4
        assert _result(ctx, E.GL_PRIMITIVES_GENERATED, gen) == 4
        got = _floats(ctx, buf, 16 * stride).reshape(16, 5)
        tags = _strip_records([0, 1])
        np.testing.assert_array_equal(got[:12, 0], tags)
        x0 = {0: -0.5, 1: 0.25}
        y0 = {0: 0.0, 1: 0.5}
        want_pos = [(x0[t // 10] + t % 10, y0[t // 10], 0.0, 1.0) for t in tags]
        np.testing.assert_array_equal(got[:12, 1:], np.float32(want_pos))
        # nothing written past the 12 records
        assert (got[12:].view(np.uint32) == 0xEEEEEEEE).all()


def test_gpu_determined_counts_are_compacted_in_primitive_order():
    with driver.Context(api="gl33", width=8, height=8) as ctx:
        p = _xfb_program(ctx, VARIABLE, ["tag"])
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(0.0, 0.0)] * 4)
        buf = _feedback_buffer(ctx, 4 * 8)
        q = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 4)
        ctx.glDrawArrays(E.GL_POINTS, 0, 3)      # appended after the first draw's 6
        ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        assert _result(ctx, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q) == 8
        # 0 + 1 + 2 + 3 points, then 0 + 1 + 2 of which only the first two fit (8 records)
        np.testing.assert_array_equal(_floats(ctx, buf, 32), [1, 2, 2, 3, 3, 3, 1, 2])


def test_overflow_drops_whole_primitives_and_is_reported():
    """Room for 7 vertices: 2 triangles of the 4 the strips make are written."""
    with driver.Context(api="gl40", width=8, height=8) as ctx:
        p = _xfb_program(ctx, STRIP, ["tag"])
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(-0.5, 0.0), (0.25, 0.5)])
        buf = _feedback_buffer(ctx, 7 * 4)
        qw = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, qw)
        qo = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_OVERFLOW, qo)
        gen = _query(ctx, E.GL_PRIMITIVES_GENERATED)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_POINTS, 0, 2)
        ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        assert _result(ctx, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, qw) == 2
        assert _result(ctx, E.GL_TRANSFORM_FEEDBACK_OVERFLOW, qo) == 1
        assert _result(ctx, E.GL_PRIMITIVES_GENERATED, gen) == 4
        got = _floats(ctx, buf, 28)
        np.testing.assert_array_equal(got[:6], _strip_records([0])[:6])
        assert struct.unpack("<I", got[6:7].tobytes())[0] == 0xEEEEEEEE


def test_a_vertex_stage_without_outputs_is_not_counted_as_written():
    """An empty vertex shader (the geometry stage makes every vertex from nothing):
    PRIMITIVES_WRITTEN counts the geometry output the buffer holds, whole points / lines,
    in a GL 3.2 context (the query is GL 3.0's). Room for 3 floats: 3 of 4 points, 1 of 2
    lines."""
    empty_vs = "#version 150\nvoid main() { }\n"
    gs = """#version 150
layout(points) in;
layout({out}, max_vertices = 4) out;
out float tag;
void main() {{
    for (int k = 0; k < 4; k++) {{
        tag = 100.0 + float(k);
        EmitVertex();
        if (k % 2 == 1) EndPrimitive();
    }}
}}
"""
    for mode, out, written in ((E.GL_POINTS, "points", 3), (E.GL_LINES, "line_strip", 1)):
        with driver.Context(api="gl32", width=8, height=8) as ctx:
            p = ctx.glCreateProgram()
            for kind, src in ((E.GL_VERTEX_SHADER, empty_vs), (E.GL_GEOMETRY_SHADER, gs.format(out=out))):
                ctx.glAttachShader(p, _shader(ctx, kind, src))
            ctx.glTransformFeedbackVaryings(p, 1, ["tag"], E.GL_INTERLEAVED_ATTRIBS)
            ctx.glLinkProgram(p)
            assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
            ctx.glUseProgram(p)
            ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
            buf = _feedback_buffer(ctx, 3 * 4)
            qw = _query(ctx, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
            gen = _query(ctx, E.GL_PRIMITIVES_GENERATED)
            ctx.glEnable(E.GL_RASTERIZER_DISCARD)
            ctx.glBeginTransformFeedback(mode)
            ctx.glDrawArrays(E.GL_POINTS, 0, 1)
            ctx.glEndTransformFeedback()
            expect(ctx, E.GL_NO_ERROR)
            assert _result(ctx, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, qw) == written
            assert _result(ctx, E.GL_PRIMITIVES_GENERATED, gen) == (4 if out == "points" else 2)
            got = _floats(ctx, buf, 12)
            n = written * (1 if out == "points" else 2)
            np.testing.assert_array_equal(got[:n], 100.0 + np.arange(n))


def test_draw_transform_feedback_draws_the_captured_geometry_output():
    """glDrawTransformFeedback draws the vertices the geometry stage recorded."""
    with driver.Context(api="gl40", width=8, height=8) as ctx:
        p = _xfb_program(ctx, VARIABLE, ["tag"])
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(0.0, 0.0)] * 4)
        tfo = ctx.glGenTransformFeedbacks(1)[0]
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, tfo)
        _feedback_buffer(ctx, 4 * 16)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 4)
        ctx.glEndTransformFeedback()
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 0)
        # draw the 6 recorded vertices with a plain program and count them
        plain = ctx.glCreateProgram()
        ctx.glAttachShader(plain, _shader(ctx, E.GL_VERTEX_SHADER,
                                          "#version 150\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n"))
        ctx.glAttachShader(plain, _shader(ctx, E.GL_FRAGMENT_SHADER, FS))
        ctx.glLinkProgram(plain)
        ctx.glUseProgram(plain)
        gen = _query(ctx, E.GL_PRIMITIVES_GENERATED)
        ctx.glDrawTransformFeedback(E.GL_POINTS, tfo)
        expect(ctx, E.GL_NO_ERROR)
        assert _result(ctx, E.GL_PRIMITIVES_GENERATED, gen) == 6


def test_primitive_mode_must_match_the_geometry_output():
    """GL 4.6 section 13.3: with a geometry stage its output primitive (not the draw
    mode) must match the transform feedback primitive mode."""
    with driver.Context(api="gl33", width=8, height=8) as ctx:
        p = _xfb_program(ctx, STRIP, ["tag"])
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(-0.5, 0.0), (0.25, 0.5)])
        buf = _feedback_buffer(ctx, 64)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawArrays(E.GL_POINTS, 0, 2)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glEndTransformFeedback()
        assert (_floats(ctx, buf, 64).view(np.uint32) == 0xEEEEEEEE).all()


def test_varyings_name_geometry_outputs():
    """The captured varyings are the geometry stage's outputs: a vertex-stage-only
    output is a link error."""
    with driver.Context(api="gl33", width=8, height=8) as ctx:
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, STRIP), (E.GL_FRAGMENT_SHADER, FS)):
            ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glTransformFeedbackVaryings(p, 1, ["vid"], E.GL_INTERLEAVED_ATTRIBS)
        ctx.glLinkProgram(p)
        assert not ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]


def test_pipeline_statistics_count_the_geometry_stage():
    """ARB_pipeline_statistics_query: GEOMETRY_SHADER_INVOCATIONS is one per input
    primitive and instance (4 x 2), PRIMITIVES_EMITTED what the invocations emitted
    (0 + 1 + 2 + 3 points per instance), and the passes' compute kernels are not
    COMPUTE_SHADER_INVOCATIONS."""
    with driver.Context(api="gl46", width=8, height=8) as ctx:
        p = _xfb_program(ctx, VARIABLE, ["tag"])
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(0.0, 0.0)] * 4)
        targets = (E.GL_GEOMETRY_SHADER_INVOCATIONS, E.GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED,
                   E.GL_COMPUTE_SHADER_INVOCATIONS)
        qs = {t: _query(ctx, t) for t in targets}
        ctx.glDrawArraysInstanced(E.GL_POINTS, 0, 4, 2)
        expect(ctx, E.GL_NO_ERROR)
        got = {t: _result(ctx, t, q) for t, q in qs.items()}
        assert got == {E.GL_GEOMETRY_SHADER_INVOCATIONS: 8, E.GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED: 12,
                       E.GL_COMPUTE_SHADER_INVOCATIONS: 0}


def test_rasterizer_discard_without_fragment_stage_counts_and_captures():
    """A vertex + geometry program (no fragment stage) under RASTERIZER_DISCARD: each
    line strip segment is one invocation emitting one point whose `int[2]` output holds
    the segment's vertex ids + 1 (piglit's primitive-types does this); a one-element
    array output is captured too. PRIMITIVES_GENERATED counts the emitted points."""
    vs = "#version 150\nout int vertex_id;\nvoid main() { vertex_id = gl_VertexID; }\n"
    gs = """#version 150
layout(lines) in;
layout(points, max_vertices = 1) out;
in int vertex_id[2];
out int ends[2];
out int first[1];
void main() {
    for (int i = 0; i < 2; i++)
        ends[i] = vertex_id[i] + 1;
    first[0] = vertex_id[0];
    EmitVertex();
}
"""
    with driver.Context(api="gl33", width=8, height=8) as ctx:
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs)):
            ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glTransformFeedbackVaryings(p, 3, ["ends[0]", "ends[1]", "first[0]"], E.GL_INTERLEAVED_ATTRIBS)
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        buf = _feedback_buffer(ctx, 4 * 12)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        for vertices, want in ((1, 0), (2, 1), (4, 3)):
            gen = _query(ctx, E.GL_PRIMITIVES_GENERATED)
            ctx.glBeginTransformFeedback(E.GL_POINTS)
            ctx.glDrawArrays(E.GL_LINE_STRIP, 0, vertices)
            ctx.glEndTransformFeedback()
            expect(ctx, E.GL_NO_ERROR)
            assert _result(ctx, E.GL_PRIMITIVES_GENERATED, gen) == want
        got = _floats(ctx, buf, 4 * 9).view(np.int32)
        np.testing.assert_array_equal(got, [1, 2, 0, 2, 3, 1, 3, 4, 2])


_RESTART_CASES = {   # draw mode: (input layout, primitives a run of n vertices makes, GL 4.6 section 10.1)
    E.GL_POINTS: ("points", lambda n: n),
    E.GL_LINE_LOOP: ("lines", lambda n: n if n >= 2 else 0),
    E.GL_LINE_STRIP: ("lines", lambda n: max(n - 1, 0)),
    E.GL_LINES: ("lines", lambda n: n // 2),
    E.GL_TRIANGLES: ("triangles", lambda n: n // 3),
    E.GL_TRIANGLE_STRIP: ("triangles", lambda n: max(n - 2, 0)),
    E.GL_TRIANGLE_FAN: ("triangles", lambda n: max(n - 2, 0)),
    E.GL_LINES_ADJACENCY: ("lines_adjacency", lambda n: n // 4),
    E.GL_LINE_STRIP_ADJACENCY: ("lines_adjacency", lambda n: max(n - 3, 0)),
    E.GL_TRIANGLES_ADJACENCY: ("triangles_adjacency", lambda n: n // 6),
    E.GL_TRIANGLE_STRIP_ADJACENCY: ("triangles_adjacency", lambda n: (n - 4) // 2 if n >= 6 else 0),
}


@pytest.mark.parametrize("mode", list(_RESTART_CASES), ids=[hex(m) for m in _RESTART_CASES])
def test_primitive_restart_keeps_counting_primitive_ids(mode):
    """GL 4.6 section 11.3.4.5: a restart does not reset gl_PrimitiveIDIn. Runs of 1..12
    vertices, each ended by the restart index: the captured ids are 0, 1, ... for every
    primitive the runs make, incomplete ones dropped."""
    layout, per_run = _RESTART_CASES[mode]
    gs = f"""#version 150
layout({layout}) in;
layout(points, max_vertices = 1) out;
out int primitive_id;
void main() {{ primitive_id = gl_PrimitiveIDIn; EmitVertex(); }}
"""
    restart = 1
    elements = []
    for n in range(1, 13):
        elements += [j if j != restart else j + 1 for j in range(n)] + [restart]
    total = sum(per_run(n) for n in range(1, 13))
    with driver.Context(api="gl33", width=8, height=8) as ctx:
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, "#version 150\nvoid main() { }\n"), (E.GL_GEOMETRY_SHADER, gs)):
            ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glTransformFeedbackVaryings(p, 1, ["primitive_id"], E.GL_INTERLEAVED_ATTRIBS)
        ctx.glLinkProgram(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        buf = _feedback_buffer(ctx, 4 * 80)
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, len(elements), bytes(elements), E.GL_STATIC_DRAW)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glEnable(E.GL_PRIMITIVE_RESTART)
        ctx.glPrimitiveRestartIndex(restart)
        gen = _query(ctx, E.GL_PRIMITIVES_GENERATED)
        ctx.glBeginTransformFeedback(E.GL_POINTS)
        ctx.glDrawElements(mode, len(elements), E.GL_UNSIGNED_BYTE, 0)
        ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        assert _result(ctx, E.GL_PRIMITIVES_GENERATED, gen) == total
        got = _floats(ctx, buf, 4 * total).view(np.int32)
        np.testing.assert_array_equal(got, np.arange(total))


def test_indirect_draws_feed_the_geometry_stage():
    """glDrawArraysIndirect / glDrawElementsIndirect (GL 4.0) with a geometry stage: the
    records' counts, first vertex/index, base vertex and instances are those drawn."""
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = _xfb_program(ctx, STRIP, ["tag"])
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(0.0, 0.0)] * 4)
        buf = _feedback_buffer(ctx, 4 * 48)
        cmd = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, cmd)
        # arrays: 1 vertex from vertex 2; elements: indices [1, 0] at index 1, base vertex 2
        words = struct.pack("<4I", 1, 1, 2, 0) + struct.pack("<5I", 2, 1, 1, 2, 0)
        ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, len(words), words, E.GL_STATIC_DRAW)
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 6, struct.pack("<3H", 7, 1, 0), E.GL_STATIC_DRAW)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArraysIndirect(E.GL_POINTS, 0)
        ctx.glDrawElementsIndirect(E.GL_POINTS, E.GL_UNSIGNED_SHORT, 16)
        ctx.glEndTransformFeedback()
        expect(ctx, E.GL_NO_ERROR)
        # vertex 2, then vertices 1 + 2 = 3 and 0 + 2 = 2
        np.testing.assert_array_equal(_floats(ctx, buf, 4 * 18), _strip_records([2, 3, 2]))


def test_only_the_input_primitives_run_side_effects():
    """The kernel's dispatch is rounded up to whole workgroups: the padding invocations
    must not run the shader's image atomics (5 points: ids 0, 2, 4 count in texel 0, 1
    and 3 in texel 1), and images are bound in the geometry stage."""
    vs = "#version 430\nvoid main() { gl_Position = vec4(0.0); }\n"
    gs = """#version 430
layout(points) in;
layout(points, max_vertices = 1) out;
layout(r32ui, binding = 2) uniform uimage2D counter;
void main() { imageAtomicAdd(counter, ivec2(gl_PrimitiveIDIn % 2, 0), 1u); }
"""
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs)):
            ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glLinkProgram(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_R32UI, 2, 1)
        ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 1, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT, bytes(8))
        ctx.glBindImageTexture(2, tex, 0, False, 0, E.GL_READ_WRITE, E.GL_R32UI)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glDrawArrays(E.GL_POINTS, 0, 5)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
        got = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT)),
                            np.uint32)
        np.testing.assert_array_equal(got, [3, 2])
