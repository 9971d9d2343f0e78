"""Per-instance matrix attributes (a mat4 with glVertexAttribDivisor on each column):
one draw runs every instance, each instance reading its matrix row at
``instance / divisor``; positions captured with transform feedback and pixels,
both checked against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

VS = """#version 330
in vec4 p;
in mat4 xf;
out vec4 c;
void main() { gl_Position = xf * p; c = vec4(float(gl_InstanceID) / 4.0, 0.5, 0.25, 1.0); }"""
FS = """#version 330
in vec4 c;
out vec4 o;
void main() { o = c; }"""


def _setup(ctx, mats, divisor):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glTransformFeedbackVaryings(p, 1, ["gl_Position"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glBindAttribLocation(p, 0, "p")
    ctx.glBindAttribLocation(p, 1, "xf")
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vbo, mbo = ctx.glGenBuffers(2)
    # a 4x4-pixel square at the bottom-left of a 32x32 target
    sq = np.array([[-1, -1, 0, 1], [-0.75, -1, 0, 1], [-1, -0.75, 0, 1],
                   [-0.75, -1, 0, 1], [-0.75, -0.75, 0, 1], [-1, -0.75, 0, 1]], np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, sq.nbytes, sq, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, mbo)
    data = np.ascontiguousarray(mats.transpose(0, 2, 1))      # column-major rows
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    for c in range(4):
        ctx.glVertexAttribPointer(1 + c, 4, E.GL_FLOAT, False, 64, 16 * c)
        ctx.glEnableVertexAttribArray(1 + c)
        ctx.glVertexAttribDivisor(1 + c, divisor)
    return sq


@pytest.mark.parametrize("divisor", [1, 2])
def test_mat4_divisor_is_one_draw(divisor):
    n = 4
    mats = np.stack([np.eye(4, dtype=np.float32) for _ in range(n)])
    for i in range(n):
        mats[i, 0, 3] = 0.5 * i           # translate x by i * 8 px
        mats[i, 1, 3] = 0.25 * (i % 2)     # and y by 4 px on odd instances
        mats[i, 2, 2] = 0.5
    with driver.Context(api="gl33", width=32, height=32) as ctx:
        sq = _setup(ctx, mats, divisor)
        xfb = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, xfb)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * 4 * 6 * n, None, E.GL_STREAM_READ)
        ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        batch = ctx.pipe.render_batch()
        before = batch.draws
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArraysInstanced(E.GL_TRIANGLES, 0, 6, n)
        ctx.glEndTransformFeedback()
        assert ctx.pipe.render_batch() is batch and batch.draws - before == 1
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, xfb)
        got = np.frombuffer(bytes(ctx.glMapBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * 4 * 6 * n,
                                                        E.GL_MAP_READ_BIT)), np.float32).reshape(n, 6, 4)
        ctx.glUnmapBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER)
        img = ctx.read_pixels()
    want = np.stack([sq @ mats[i // divisor].T for i in range(n)])
    np.testing.assert_allclose(got, want, rtol=1e-6)
    expected = np.zeros((32, 32, 4), np.uint8)
    for i in range(n):
        m = i // divisor
        x0, y0 = 8 * m, 4 * (m % 2)
        expected[y0:y0 + 4, x0:x0 + 4] = (round(i / 4 * 255), 128, 64, 255)
    # later instances cover earlier ones where they overlap (divisor 2: same square)
    np.testing.assert_array_equal(img, expected)
