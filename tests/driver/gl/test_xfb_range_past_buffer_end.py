"""A transform feedback binding made with glBindBufferRange ends at the buffer's current end
when glBufferData shrank the buffer after the binding (GL 4.6 section 6.1.1: the GL never
writes past the end of a bound buffer): feedback stops at the first primitive that does
not fit, PRIMITIVES_WRITTEN counts what was written, and the bytes after stay."""

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

VS = """#version 120
attribute float input_value;
varying float output_value;
void main() { gl_Position = vec4(0.0); output_value = 100.0 + input_value; }
"""


def test_range_shrunk_by_buffer_data_holds_one_triangle():
    ctx = driver.Context(api="compat", width=4, height=4)
    prog = ctx.glCreateProgram()
    sh, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, VS)
    assert ok, log
    ctx.glAttachShader(prog, sh)
    ctx.glTransformFeedbackVaryings(prog, 1, ["output_value"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1]
    ctx.glUseProgram(prog)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 40, None, E.GL_STREAM_READ)       # 10 floats
    ctx.glBindBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf, 12, 28)              # floats 3..9
    canary = np.full(7, -1.0, np.float32)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 28, canary.tobytes(), E.GL_STREAM_READ)  # now 7
    # the range is now floats 3..6: room for one triangle of 3 floats, not two
    loc = ctx.glGetAttribLocation(prog, "input_value")
    values = np.arange(1, 7, dtype=np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, 0)
    ctx.glVertexAttribPointer(loc, 1, E.GL_FLOAT, E.GL_FALSE, 4, values)
    ctx.glEnableVertexAttribArray(loc)
    q = ctx.glGenQueries(1)[0]
    ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
    ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
    ctx.glEndTransformFeedback()
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [1]
    out = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 28)), np.float32)
    assert out.tolist() == [-1.0, -1.0, -1.0, 101.0, 102.0, 103.0, -1.0]
    assert ctx.glGetError() == E.GL_NO_ERROR
