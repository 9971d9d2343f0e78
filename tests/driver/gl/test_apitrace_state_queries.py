"""State programs read at start-up or for every snapshot: apitrace's replayers
(glretrace -s, qapitrace's state dump: a query they get INVALID_ENUM for makes
the snapshot fail) and moderngl's Context.info."""

from __future__ import annotations

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


@pytest.mark.parametrize("api", ["gl33", "compat"])
def test_clamp_read_color(api):
    """GL 4.6 table 23.36: CLAMP_READ_COLOR, initially FIXED_ONLY, set by glClampColor."""
    ctx = make_ctx(api)
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) == [E.GL_FIXED_ONLY]
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, E.GL_FALSE)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) == [E.GL_FALSE]
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, 7)                  # not TRUE/FALSE/FIXED_ONLY
    expect(ctx, E.GL_INVALID_ENUM)
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) == [E.GL_FALSE]


def test_clamp_read_color_is_not_gles_state():
    ctx = make_ctx("gles3")
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) is None
    expect(ctx, E.GL_INVALID_ENUM)


@pytest.mark.parametrize("api", ["gl33", "gl43", "compat"])
def test_point_parameters(api):
    """GL 4.6 table 23.10 (core state, moderngl's Context.info reads it):
    POINT_FADE_THRESHOLD_SIZE 1.0 and POINT_SPRITE_COORD_ORIGIN UPPER_LEFT initially,
    then what glPointParameter set; a negative threshold is INVALID_VALUE."""
    ctx = make_ctx(api)
    assert ctx.glGetFloatv(E.GL_POINT_FADE_THRESHOLD_SIZE) == [1.0]
    assert ctx.glGetIntegerv(E.GL_POINT_SPRITE_COORD_ORIGIN) == [E.GL_UPPER_LEFT]
    ctx.glPointParameterf(E.GL_POINT_FADE_THRESHOLD_SIZE, 2.5)
    ctx.glPointParameteri(E.GL_POINT_SPRITE_COORD_ORIGIN, E.GL_LOWER_LEFT)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glPointParameterf(E.GL_POINT_FADE_THRESHOLD_SIZE, -1.0)
    expect(ctx, E.GL_INVALID_VALUE)
    assert ctx.glGetFloatv(E.GL_POINT_FADE_THRESHOLD_SIZE) == [2.5]
    assert ctx.glGetIntegerv(E.GL_POINT_SPRITE_COORD_ORIGIN) == [E.GL_LOWER_LEFT]


@pytest.mark.parametrize("api", ["gles2", "gl33"])
def test_empty_sub_image_regions_write_nothing(api):
    """apitrace's state dump of a GLES texture finds each level's size by
    glTexSubImage2D of 0x0 regions at growing offsets (GL 4.6 section 8.6: a
    region inside the image, or touching its far edge, with no texels is valid).
    Those calls set no error, change no texel, and the texture is then read back
    through a framebuffer (was: an internal error in the later glReadPixels)."""
    import numpy as np
    ctx = make_ctx(api)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    texels = np.arange(6 * 4 * 4, dtype=np.uint8).reshape(4, 6, 4)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 6, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels.tobytes())
    for x, y in [(1, 1), (6, 0), (0, 4), (6, 4)]:
        ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, x, y, 0, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(4))
        expect(ctx, E.GL_NO_ERROR)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 7, 0, 0, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(4))
    expect(ctx, E.GL_INVALID_VALUE)                             # past the far edge
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    got = ctx.glReadPixels(0, 0, 6, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    expect(ctx, E.GL_NO_ERROR)
    assert np.frombuffer(got, np.uint8).reshape(4, 6, 4).tolist() == texels.tolist()
