"""glBindBufferOffsetEXT (GL_EXT_transform_feedback) binds a buffer from `offset` to its end
as the end is when the binding is used: a glBufferData that grows the buffer after the
binding gives feedback the new room (as glBindBufferBase does), one that shrinks it
stops feedback at the new end."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

VS = """#version 120
attribute float input_value;
varying float output_value;
void main() { gl_Position = vec4(0.0); output_value = 100.0 + input_value; }
"""


@pytest.mark.parametrize("initial, new, written", [(7, 10, 2), (10, 7, 1)])
def test_offset_binding_follows_the_buffer_size(initial, new, written):
    ctx = driver.Context(api="compat", width=4, height=4)
    if "GL_EXT_transform_feedback" not in ctx.glGetString(E.GL_EXTENSIONS).split():
        pytest.skip("no GL_EXT_transform_feedback")
    prog = ctx.glCreateProgram()
    sh, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, VS)
    assert ok, log
    ctx.glAttachShader(prog, sh)
    ctx.glTransformFeedbackVaryings(prog, 1, ["output_value"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * initial, None, E.GL_STREAM_READ)
    ctx.glBindBufferOffsetEXT(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf, 12)         # from float 3
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * new, np.full(new, -1.0, np.float32).tobytes(),
                     E.GL_STREAM_READ)
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
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [written]
    out = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * new)), np.float32)
    want = [-1.0] * new
    for i in range(3 * written):
        want[3 + i] = 101.0 + i
    assert out.tolist() == want
    assert ctx.glGetError() == E.GL_NO_ERROR
