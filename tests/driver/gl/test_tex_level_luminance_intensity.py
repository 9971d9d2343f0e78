"""glGetTexLevelParameteriv's luminance and intensity queries (GL 4.6
compatibility profile, section 8.11.2 and table 23.17: TEXTURE_LUMINANCE_SIZE,
TEXTURE_INTENSITY_SIZE and their _TYPE): the bits and component type of the
image's L and I components, 0 and NONE where its format has none. A core
context does not know the names (INVALID_ENUM). Panda3D queries both for every
texture it loads; shimgl answered INVALID_ENUM in compatibility contexts."""

import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

QUERIES = (E.GL_TEXTURE_LUMINANCE_SIZE, E.GL_TEXTURE_INTENSITY_SIZE,
           E.GL_TEXTURE_LUMINANCE_TYPE, E.GL_TEXTURE_INTENSITY_TYPE)

UN = E.GL_UNSIGNED_NORMALIZED


def _texture(ctx, internal_format, fmt):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, internal_format, 4, 4, 0, fmt, E.GL_UNSIGNED_BYTE, None)
    assert ctx.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("internal_format,fmt,want", [
    (E.GL_LUMINANCE8, E.GL_LUMINANCE, (8, 0, UN, E.GL_NONE)),
    (E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE_ALPHA, (8, 0, UN, E.GL_NONE)),
    (E.GL_INTENSITY8, E.GL_RED, (0, 8, E.GL_NONE, UN)),
    (E.GL_RGBA8, E.GL_RGBA, (0, 0, E.GL_NONE, E.GL_NONE)),
])
def test_compatibility_context_reports_luminance_and_intensity(internal_format, fmt, want):
    ctx = glhelp.context(4, 4, api="compat")
    _texture(ctx, internal_format, fmt)
    got = tuple(ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, q)[0] for q in QUERIES)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert got == want
    # the float query answers the same
    assert ctx.glGetTexLevelParameterfv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_LUMINANCE_SIZE)[0] == float(want[0])


def test_undefined_level_reports_zero_and_none():
    ctx = glhelp.context(4, 4, api="compat")
    _texture(ctx, E.GL_LUMINANCE8, E.GL_LUMINANCE)
    got = tuple(ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 1, q)[0] for q in QUERIES)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert got == (0, 0, E.GL_NONE, E.GL_NONE)


@pytest.mark.parametrize("pname", QUERIES)
def test_core_context_rejects_the_names(pname):
    ctx = glhelp.context(4, 4, api="gl46")
    _texture(ctx, E.GL_RGBA8, E.GL_RGBA)
    ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, pname)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
