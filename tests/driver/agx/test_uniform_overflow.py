"""A vertex stage whose uniforms do not fit the uniform registers: what does not fit
is read from UBO 0 (the default block in memory) and renders as if it fitted."""

import numpy as np

from tests.driver.agx.glhelp import context, program, vertices

VS = """#version 300 es
in vec2 pos;
uniform vec4 shift;
uniform vec4 table[70];
uniform int pick;
uniform vec4 last;
out vec4 col;
void main() { gl_Position = vec4(pos + shift.xy, 0.0, 1.0); col = table[pick] + table[69] * 0.5 + last; }"""
FS = """#version 300 es
precision highp float; in vec4 col; out vec4 color;
void main() { color = col; }"""


def test_uniforms_past_the_registers_render():
    ctx = context(16, 16)
    p = program(ctx, VS, FS)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32) * 0.5
    vertices(ctx, p, quad, {"pos": (2, 0)}, 2)
    table = np.zeros((70, 4), np.float32)
    table[:, 0] = np.linspace(0, 0.5, 70)
    table[41] = (0.25, 0.5, 0.125, 0.5)
    table[69] = (0.5, 0.25, 0.5, 0.5)
    ctx.glUniform4fv(ctx.glGetUniformLocation(p, "table"), 70, table.reshape(-1))
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "shift"), 0.25, 0.0, 0.0, 0.0)
    ctx.glUniform1i(ctx.glGetUniformLocation(p, "pick"), 41)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "last"), 0.0, 0.125, 0.25, 0.25)
    ctx.glClearColor(0.0, 0.0, 0.0, 0.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLE_STRIP, 0, 4)
    img = ctx.read_pixels().astype(int)
    want = np.round((table[41] + table[69] * 0.5 + [0.0, 0.125, 0.25, 0.25]).clip(0, 1) * 255)
    # x in [-0.25, 0.75] -> columns 6..13, y in [-0.5, 0.5] -> rows 4..11
    assert np.abs(img[4:12, 6:14] - want).max() <= 1
    assert (img[:, :6] == 0).all() and (img[:4] == 0).all()
    assert ctx.glGetError() == 0
