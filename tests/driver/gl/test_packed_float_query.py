"""EXT_packed_float's RGBA_SIGNED_COMPONENTS_EXT: which components of the draw
framebuffer's first draw buffer hold signed values, against the extension's
rules worked out by hand per format."""

import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

RGBA_SIGNED_COMPONENTS = 0x8C3C
LUMINANCE16F, ALPHA16F = 0x881E, 0x881C


@pytest.mark.parametrize("internal, signed", [
    (E.GL_RGBA8, [0, 0, 0, 0]),
    (E.GL_R8I, [1, 0, 0, 0]),              # signed integers are signed
    (E.GL_RG8_SNORM, [1, 1, 0, 0]),        # absent components never are (the extension's issue 17)
    (E.GL_RGBA8UI, [0, 0, 0, 0]),
    (E.GL_RGBA16F, [1, 1, 1, 1]),
    (E.GL_RGB32F, [1, 1, 1, 0]),
    (E.GL_R11F_G11F_B10F, [0, 0, 0, 0]),   # the packed floats have no sign bit
    (LUMINANCE16F, [1, 1, 1, 0]),          # luminance stands for red, green and blue
    (ALPHA16F, [0, 0, 0, 1]),
])
def test_the_first_draw_buffer_s_signed_components(internal, signed):
    ctx = glhelp.context(4, 4, api="compat")
    assert ctx.glGetIntegerv(RGBA_SIGNED_COMPONENTS) == [0, 0, 0, 0]        # the window: RGBA8
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    integer = internal in (E.GL_R8I, E.GL_RGBA8UI)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, internal, 4, 4, 0, E.GL_RGBA_INTEGER if integer else E.GL_RGBA,
                     E.GL_INT if integer else E.GL_FLOAT, None)
    assert ctx.glGetError() == E.GL_NO_ERROR
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    assert ctx.glGetIntegerv(RGBA_SIGNED_COMPONENTS) == signed
    assert ctx.glGetBooleanv(RGBA_SIGNED_COMPONENTS) == [bool(v) for v in signed]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_only_draw_buffer_0_counts():
    """A signed image on attachment 1 while draw buffer 0 has no image: no
    component is signed; with draw buffer 0 set to NONE neither."""
    ctx = glhelp.context(4, 4, api="compat")
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA16F, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, E.GL_RENDERBUFFER, rb)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    assert ctx.glGetIntegerv(RGBA_SIGNED_COMPONENTS) == [0, 0, 0, 0]
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT1, E.GL_NONE])
    assert ctx.glGetIntegerv(RGBA_SIGNED_COMPONENTS) == [1, 1, 1, 1]
    ctx.glDrawBuffers(2, [E.GL_NONE, E.GL_COLOR_ATTACHMENT1])
    assert ctx.glGetIntegerv(RGBA_SIGNED_COMPONENTS) == [0, 0, 0, 0]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_not_a_gles_query():
    ctx = glhelp.context(1, 1, api="gles3")
    ctx.glGetIntegerv(RGBA_SIGNED_COMPONENTS)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
