"""Indirect draws with client-memory vertex arrays in the compatibility profile (GL 4.6
compatibility section 10.4; piglit gl-3.0-multidrawarrays-vertexid -indirect): the
command is read back from the DRAW_INDIRECT_BUFFER and drawn as the direct draw it
names, as Mesa does (it was INVALID_OPERATION, nothing drawn). gl_VertexID is the
command's first + i; gl_DrawID the command's index. Quadrant colours by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

VS = """#version 460 compatibility
in vec4 pos;
out vec4 c;
void main() {
    c = vec4(float(gl_VertexID >= 8), float(gl_DrawID), 1.0, 1.0);
    gl_Position = pos;
}
"""
FS = "#version 460 compatibility\nin vec4 c;\nvoid main() { gl_FragColor = c; }\n"
# quads (fans) of the left and the right half, each listed twice: vertices 0-7 and 8-15
LEFT = [[-1, -1], [0, -1], [0, 1], [-1, 1]]
RIGHT = [[0, -1], [1, -1], [1, 1], [0, 1]]
VERTS = np.array(LEFT + RIGHT + LEFT + RIGHT, np.float32)


def _setup():
    ctx = driver.Context(api="compat", width=8, height=8)
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "pos")
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, VERTS)      # client memory
    ctx.glEnableVertexAttribArray(0)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    return ctx


def _indirect(ctx, words):
    b = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, b)
    data = np.array(words, np.int32)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)


def _halves(ctx):
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    img = img.reshape(8, 8, 4)
    assert (img[:, :4] == img[0, 0]).all() and (img[:, 4:] == img[0, 4]).all()
    return tuple(img[0, 0]), tuple(img[0, 4])


def test_multi_draw_arrays_indirect_reads_the_commands():
    ctx = _setup()
    _indirect(ctx, [4, 1, 8, 0,     # left half from vertex 8: red, draw 0
                    4, 1, 4, 0])    # right half from vertex 4: draw 1
    ctx.glMultiDrawArraysIndirect(E.GL_TRIANGLE_FAN, None, 2, 0)
    expect(ctx, E.GL_NO_ERROR)
    assert _halves(ctx) == ((255, 0, 255, 255), (0, 255, 255, 255))


def test_draw_elements_indirect_with_client_arrays():
    ctx = _setup()
    ebo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
    idx = np.array([9, 9, 0, 1, 2, 3], np.uint16)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx, E.GL_STATIC_DRAW)
    _indirect(ctx, [4, 1, 2, 12, 0])            # indices 2..5 (0-3) + base vertex 12: right half
    ctx.glDrawElementsIndirect(E.GL_TRIANGLE_FAN, E.GL_UNSIGNED_SHORT, None)
    expect(ctx, E.GL_NO_ERROR)
    assert _halves(ctx) == ((0, 0, 0, 0), (255, 0, 255, 255))
