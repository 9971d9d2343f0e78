"""Generic attribute 0 aliases the conventional vertex position in the compatibility
profile (GL 4.6 compatibility section 10.2): a program's own input bound to location 0
reads glVertexPointer's array when generic array 0 is disabled, and an enabled generic
array 0 wins over it (piglit shaders/attribute0: piglit_draw_rect feeds
glVertexPointer when the program has no `piglit_vertex`). Core contexts have no
conventional arrays. The expected images are half-covered rectangles, by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

VS = "attribute vec4 vertex;\nvoid main() { gl_Position = vertex; }\n"
FS = "void main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n"
LEFT_HALF = np.array([[-1, -1, 0, 1], [0, -1, 0, 1], [-1, 1, 0, 1], [0, 1, 0, 1]], np.float32)
BOTTOM_HALF = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 0, 0, 1], [1, 0, 0, 1]], np.float32)


def _setup():
    ctx = driver.Context(api="compat", width=8, height=8)
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "vertex")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glClearColor(0, 0, 1, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    return ctx


def _green(ctx) -> np.ndarray:
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return (img.reshape(8, 8, 4) == [0, 255, 0, 255]).all(axis=2)


def test_location_0_reads_the_vertex_array():
    ctx = _setup()
    ctx.glVertexPointer(4, E.GL_FLOAT, 0, LEFT_HALF)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    want = np.zeros((8, 8), bool)
    want[:, :4] = True
    assert (_green(ctx) == want).all()


def test_an_enabled_generic_array_0_wins():
    ctx = _setup()
    ctx.glVertexPointer(4, E.GL_FLOAT, 0, LEFT_HALF)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, BOTTOM_HALF)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    want = np.zeros((8, 8), bool)
    want[:4, :] = True              # rows from the bottom
    assert (_green(ctx) == want).all()
