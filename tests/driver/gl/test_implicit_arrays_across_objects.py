"""Arrays declared without size in several shader objects of one stage (GLSL 1.20
section 4.1.9, GLSL 1.50 for block members): each object sizes its declaration by its
own largest constant index; the link gives the array the largest of those sizes, or the
one explicit size when an object states it (a size implied by use beyond it is a link
error), as Mesa's linker. A block declared by several objects is one block. Values by
hand."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

MAIN_VS = """#version 150
in vec4 pos;
out vec4 color[];
out blk { float v[]; float w[2]; } b;
void f();
void main() {
    f();
    color[3] = vec4(0.0, 0.0, 1.0, 1.0);
    b.v[0] = 0.25;
    b.w[1] = 0.5;
    gl_Position = pos;
}
"""
F_VS = """#version 150
out vec4 color[];
out blk { float v[]; float w[2]; } b;
void f() {
    color[1] = vec4(1.0, 0.0, 0.0, 1.0);
    b.v[2] = 0.75;
    b.w[0] = 1.0;
}
"""
FS = """#version 150
in vec4 color[4];
in blk { float v[3]; float w[2]; } b;
uniform int i;
out vec4 o;
void main() {
    o = i == 0 ? color[1] + color[3] : vec4(b.v[0], b.v[2], b.w[0], b.w[1]);
}
"""


def _link(ctx, shaders):
    p = ctx.glCreateProgram()
    for kind, src in shaders:
        ctx.glAttachShader(p, glhelp.compile_shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    return p


def test_sizes_implied_in_two_objects_are_merged():
    """color[] is indexed 3 in one vertex object and 1 in the other (sizes 4 and 2: 4);
    b.v[] 0 and 2 (sizes 1 and 3: 3); the fragment stage declares those sizes."""
    ctx = glhelp.context(2, 1, api="gl33")
    p = _link(ctx, [(E.GL_VERTEX_SHADER, MAIN_VS), (E.GL_VERTEX_SHADER, F_VS), (E.GL_FRAGMENT_SHADER, FS)])
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(p, "pos")
    ctx.glEnableVertexAttribArray(loc)
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)
    got = []
    for i in range(2):
        ctx.glUniform1i(ctx.glGetUniformLocation(p, "i"), i)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        got.append(px.reshape(2, 4)[0].tolist())
    assert got == [[255, 0, 255, 255], [64, 191, 255, 128]]


@pytest.mark.parametrize("explicit, ok", [(4, True), (3, False), (5, True)])
def test_an_explicit_size_in_another_object(explicit, ok):
    """One object declares color[explicit], the other indexes color[] up to 3 (size 4):
    the explicit size holds when it is at least 4 (piglit's intrastage-unsized-array
    tests); the fragment stage declares the same size (4 with a 3: the vertex stage fails first)."""
    ctx = glhelp.context(2, 1, api="gl33")
    f_vs = F_VS.replace("out vec4 color[];", f"out vec4 color[{explicit}];")
    fs = FS.replace("in vec4 color[4];", f"in vec4 color[{max(explicit, 4)}];")
    p = _link(ctx, [(E.GL_VERTEX_SHADER, MAIN_VS), (E.GL_VERTEX_SHADER, f_vs), (E.GL_FRAGMENT_SHADER, fs)])
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [int(ok)], ctx.glGetProgramInfoLog(p)
    if not ok:
        assert "color" in ctx.glGetProgramInfoLog(p)
