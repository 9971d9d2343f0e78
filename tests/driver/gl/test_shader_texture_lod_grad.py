"""GL_ARB_shader_texture_lod's explicit-gradient functions (texture2DGradARB,
texture2DProjGradARB, ...) in GLSL 1.10: zero gradients select level 0, large
ones the last level (a mipmapped texture with one colour per level)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

LEVELS = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)]     # 4x4, 2x2, 1x1


def _draw(ctx, expr):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    for lv, colour in enumerate(LEVELS):
        n = 4 >> lv
        ctx.glTexImage2D(E.GL_TEXTURE_2D, lv, E.GL_RGBA8, n, n, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                         np.tile(np.array(colour, np.uint8), n * n))
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    vs = "#version 110\nvoid main() { gl_Position = gl_Vertex; }\n"
    fs = ("#version 110\n#extension GL_ARB_shader_texture_lod : require\nuniform sampler2D t;\n"
          f"void main() {{ gl_FragColor = {expr}; }}\n")
    glhelp.program(ctx, vs, fs)
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).tolist()


@pytest.mark.parametrize("expr, level", [
    ("texture2DGradARB(t, vec2(0.5), vec2(0.0), vec2(0.0))", 0),
    ("texture2DGradARB(t, vec2(0.5), vec2(1.0, 0.0), vec2(0.0, 1.0))", 2),
    ("texture2DProjGradARB(t, vec3(1.0, 1.0, 2.0), vec2(0.0), vec2(0.0))", 0),
    ("texture2DProjGradARB(t, vec4(1.0, 1.0, 0.0, 2.0), vec2(0.5, 0.0), vec2(0.0, 0.5))", 1),
])
def test_explicit_gradients_pick_the_level(expr, level):
    ctx = glhelp.context(4, 4, api="compat")
    assert _draw(ctx, expr) == list(LEVELS[level])
