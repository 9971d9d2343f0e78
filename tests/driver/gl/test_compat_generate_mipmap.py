"""GL_GENERATE_MIPMAP (compatibility profile, SGIS_generate_mipmap): a change
to the base level of a texture with the flag regenerates its mipmaps."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp


def _level(ctx, level, n):
    return np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, level, E.GL_RGBA, E.GL_UNSIGNED_BYTE),
                         np.uint8).reshape(n, n, 4)


def test_uploads_to_the_base_level_regenerate_the_mipmaps():
    ctx = glhelp.context(2, 2, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_GENERATE_MIPMAP, E.GL_TRUE)
    assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_GENERATE_MIPMAP) == [1]
    base = np.zeros((4, 4, 4), np.uint8)
    base[..., 0] = 200                      # red everywhere: every level is red
    base[..., 3] = 255
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, base)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 2, E.GL_TEXTURE_WIDTH) == [1]
    assert (_level(ctx, 1, 2) == [200, 0, 0, 255]).all()
    assert (_level(ctx, 2, 1) == [200, 0, 0, 255]).all()
    # a sub-image of the base level regenerates: the top-left 2x2 becomes green,
    # so level 1's texel (0, 0) is green and level 2 is the mean of one green and three red quarters
    green = np.tile(np.array([0, 200, 0, 255], np.uint8), (2, 2, 1))
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, green)
    l1 = _level(ctx, 1, 2)
    assert l1[0, 0].tolist() == [0, 200, 0, 255] and l1[1, 1].tolist() == [200, 0, 0, 255]
    assert (np.abs(_level(ctx, 2, 1)[0, 0].astype(int) - [150, 50, 0, 255]) <= 1).all()
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_without_the_flag_nothing_is_generated():
    ctx = glhelp.context(2, 2, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(64))
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 1, E.GL_TEXTURE_WIDTH) == [0]
