"""Mipmap levels outside the base..max range (GL 4.6 sections 8.14, 8.17): images
specified for levels the texture does not sample yet are kept, and an immutable
texture's base and max levels are clamped to the levels it has."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = "#version 130\nin vec2 p; out vec2 tc; void main() { tc = p * 0.5 + 0.5; gl_Position = vec4(p, 0, 1); }"
FS = "#version 130\nuniform sampler2D s; in vec2 tc; out vec4 o; void main() { o = texture(s, tc); }"


def _draw_level(ctx, prog, tex, level):
    ctx.glTextureParameteri(tex, E.GL_TEXTURE_BASE_LEVEL, level)
    ctx.glTextureParameteri(tex, E.GL_TEXTURE_MAX_LEVEL, level)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return tuple(np.frombuffer(ctx.glReadPixels(5, 5, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8))


def test_levels_uploaded_above_max_level_are_sampled_later():
    ctx = glhelp.context(16, 16, api="gl43")
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glBindTextureUnit(0, t)
    ctx.glTextureStorage2D(t, 4, E.GL_RGBA8, 8, 8)
    colours = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 0, 255)]
    for lv, c in enumerate(colours):
        s = 8 >> lv
        ctx.glTextureSubImage2D(t, lv, 0, 0, s, s, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(c) * s * s)
    ctx.glTextureParameteri(t, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glTextureParameteri(t, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    prog = glhelp.program(ctx, VS, FS)
    ctx.glUseProgram(prog)
    glhelp.vertices(ctx, prog, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), {"p": (2, 0)}, 2)
    # the first draw samples level 0 only: the other three images wait, then each is drawn
    assert [_draw_level(ctx, prog, t, lv) for lv in (0, 1, 2, 3)] == colours


def test_immutable_base_and_max_level_are_clamped():
    ctx = glhelp.context(4, 4, api="gl43")
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureStorage2D(t, 3, E.GL_RGBA8, 8, 8)
    ctx.glTextureParameteri(t, E.GL_TEXTURE_MAX_LEVEL, 10)
    assert ctx.glGetTextureParameteriv(t, E.GL_TEXTURE_MAX_LEVEL) == [2]
    ctx.glTextureParameteri(t, E.GL_TEXTURE_BASE_LEVEL, 7)
    assert ctx.glGetTextureParameteriv(t, E.GL_TEXTURE_BASE_LEVEL) == [2]
    # a mutable texture keeps what was set (GL 4.6 table 23.15: any non-negative value)
    (m,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureParameteri(m, E.GL_TEXTURE_MAX_LEVEL, 10)
    assert ctx.glGetTextureParameteriv(m, E.GL_TEXTURE_MAX_LEVEL) == [10]
