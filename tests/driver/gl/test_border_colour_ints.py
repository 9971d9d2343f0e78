"""GL 4.6 sections 8.10 and 2.2.2: a border colour given to glTexParameteriv /
glSamplerParameteriv is signed-normalised (2^31 - 1 is 1.0), and the integer
getters return the colour that way; the float getters see the same colour."""

from driver.gl import enums as E
from tests.driver.agx import glhelp

MAX = (1 << 31) - 1


def test_texture_border_colour_through_integers():
    ctx = glhelp.context(1, 1, api="gl45")
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureParameteriv(t, E.GL_TEXTURE_BORDER_COLOR, [MAX, MAX // 4, -(MAX // 2), 0])
    got = ctx.glGetTextureParameterfv(t, E.GL_TEXTURE_BORDER_COLOR)
    assert [round(v, 6) for v in got] == [1.0, 0.25, -0.5, 0.0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_BORDER_COLOR, [0.5, -1.0, 2.0, 0.0])
    assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_BORDER_COLOR) == [round(0.5 * MAX), -MAX, MAX, 0]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_sampler_border_colour_through_integers():
    ctx = glhelp.context(1, 1, api="gl45")
    (s,) = ctx.glGenSamplers(1)
    ctx.glSamplerParameteriv(s, E.GL_TEXTURE_BORDER_COLOR, [0, MAX, MAX // 2, -MAX])
    got = ctx.glGetSamplerParameterfv(s, E.GL_TEXTURE_BORDER_COLOR)
    assert [round(v, 6) for v in got] == [0.0, 1.0, 0.5, -1.0]
    assert ctx.glGetSamplerParameteriv(s, E.GL_TEXTURE_BORDER_COLOR) == [0, MAX, MAX // 2, -MAX]
