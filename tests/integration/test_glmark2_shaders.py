"""glmark2-es2's conditionals, function and loop scenes, reduced to their
fragment shaders: each pixel's value is a chain of `d = fract(3.0 * d)` (or the
conditional `fract(2.0 * d)` / `fract(3.0 * d)`) over
`d = fract(gl_FragCoord.x * gl_FragCoord.y * 0.0001)` in a `precision mediump
float` shader. Every step multiplies a rounding error by 3, so five steps tell
apart arithmetic precisions: float32 and float16 (`mediump` evaluated at 16
bits, as Mesa's llvmpipe does on CPUs with F16C) differ in ~58% of a 160x120
frame's pixels.

shimgl evaluates every precision at float32 (GLSL ES 1.00 section 4.5.2: the
qualifiers are minimum precisions). The expected values are numpy's float32
evaluation of the same expression at the same pixel centres, compared bit for
bit through a float32 colour buffer."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

W, H = 160, 120

VS = """#version 100
attribute vec4 pos;
void main() { gl_Position = pos; }"""

# glmark2's fragment shaders with its prelude (mediump by default, the product of
# the window coordinates highp) and five steps of each kind
FS_TEMPLATE = """#version 100
precision mediump float;
uniform int loops;
void main(void)
{
    highp vec2 FragCoord = gl_FragCoord.xy;
    float d = fract(FragCoord.x * FragCoord.y * 0.0001);
%s
    gl_FragColor = vec4(d, d, d, 1.0);
}"""

STEPS = {
    "simple": "    d = fract(3.0 * d);\n" * 5,
    "conditional": "    if (d >= 0.5) d = fract(2.0 * d); else d = fract(3.0 * d);\n" * 5,
    "loop": "    for (int i = 0; i < 5; i++) d = fract(3.0 * d);\n",
    "uniform-loop": "    for (int i = 0; i < loops; i++) d = fract(3.0 * d);\n",      # fragment-uniform=true
}


def _expected(kind: str, dtype) -> np.ndarray:
    """The shader's d at every pixel centre, each operation rounded to dtype
    (row 0 at the bottom, as glReadPixels returns it)."""
    f32 = np.float32
    y, x = np.mgrid[0:H, 0:W].astype(f32) + f32(0.5)
    p = x * y * f32(0.0001)                               # highp: float32 in both cases
    d = (p - np.floor(p)).astype(dtype)
    for _ in range(5):
        if kind == "conditional":
            k = np.where(d >= dtype(0.5), dtype(2), dtype(3)).astype(dtype)
        else:
            k = dtype(3)
        v = (k * d).astype(dtype)
        d = (v - np.floor(v)).astype(dtype)
    return d.astype(f32)


def _render(kind: str) -> np.ndarray:
    ctx = glhelp.context(W, H, api="gles3")
    glhelp.renderbuffer_target(ctx, E.GL_RGBA32F, W, H)
    prog = glhelp.program(ctx, VS, FS_TEMPLATE % STEPS[kind])
    if kind == "uniform-loop":
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "loops"), 5)
    quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], np.float32)
    glhelp.vertices(ctx, prog, quad, {"pos": (2, 0)}, 2)
    ctx.glViewport(0, 0, W, H)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(H, W, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return got[..., 0]


@pytest.mark.parametrize("kind", sorted(STEPS))
def test_mediump_fract_chains_are_float32_exact(kind):
    got = _render(kind)
    exact = _expected(kind, np.float32)
    half = _expected(kind, np.float16)
    # the case separates the precisions: float16 is off by more than 2/255 in a
    # large share of the pixels
    assert (np.abs(half - exact) > 2 / 255).mean() > 0.3
    np.testing.assert_array_equal(got, exact)
