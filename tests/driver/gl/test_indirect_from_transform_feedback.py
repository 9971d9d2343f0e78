"""An indirect draw whose records transform feedback has just captured into its
DRAW_INDIRECT_BUFFER draws what was captured (GL 4.6 section 10.5: the parameters are
read when the command runs, after every earlier command's writes), with no glFinish
in between: the capture and the draw go into one render batch unless the driver
submits the capturing work first."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx.glhelp import program

VS_DRAW = """#version 330
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS_RED = """#version 330
out vec4 c;
void main() { c = vec4(1.0, 0.0, 0.0, 1.0); }
"""
# one point whose captured outputs are the record (count, instances, first, base ...)
VS_RECORD = """#version 330
out ivec4 head;
out int tail;
uniform ivec4 record_head;
uniform int record_tail;
void main() { head = record_head; tail = record_tail; gl_Position = vec4(0.0); }
"""


def _capture_program(ctx):
    vs = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderSource(vs, 1, [VS_RECORD], None)
    ctx.glCompileShader(vs)
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, vs)
    ctx.glTransformFeedbackVaryings(p, 2, ["head", "tail"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    return p


@pytest.mark.parametrize("indexed", [False, True], ids=["arrays", "elements"])
def test_the_draw_reads_the_records_transform_feedback_wrote(indexed):
    ctx = driver.Context(api="gl46", width=64, height=64)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vb, ib, eb = ctx.glGenBuffers(3)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vb)
    # the lower-left half of the window
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 24, np.array([-1, -1, 1, -1, -1, 1], np.float32).tobytes(),
                     E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(0)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, eb)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 12, np.array([0, 1, 2], np.uint32).tobytes(), E.GL_STATIC_DRAW)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, ib)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, 20, bytes(20), E.GL_STATIC_DRAW)   # count 0 until captured
    draw = program(ctx, VS_DRAW, FS_RED)
    capture = _capture_program(ctx)
    ctx.glBindBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, ib, 0, 20)
    ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glUseProgram(capture)
    # arrays: count 3, 1 instance, first 0, base instance 0; elements: count 3, 1 instance,
    # first index 0, base vertex 0, base instance 0
    ctx.glUniform4i(ctx.glGetUniformLocation(capture, "record_head"), 3, 1, 0, 0)
    ctx.glUniform1i(ctx.glGetUniformLocation(capture, "record_tail"), 0)
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    ctx.glEndTransformFeedback()
    ctx.glDisable(E.GL_RASTERIZER_DISCARD)
    ctx.glUseProgram(draw)
    if indexed:
        ctx.glDrawElementsIndirect(E.GL_TRIANGLES, E.GL_UNSIGNED_INT, 0)
    else:
        ctx.glDrawArraysIndirect(E.GL_TRIANGLES, 0)
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = ctx.read_pixels()
    assert list(px[16, 16]) == [255, 0, 0, 255]          # inside the triangle
    assert list(px[48, 48]) == [0, 0, 255, 255]          # outside: the clear colour
