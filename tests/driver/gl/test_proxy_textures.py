"""Proxy textures (GL 4.6 section 8.22): glTexImage* on a GL_PROXY_TEXTURE_* target
checks the image as its texture target would, stores no texel, and the level queries
of the proxy target describe the image (all 0 when it could not be made)."""

import pytest

import driver
from driver.gl import enums as E


def level(c, target, pname, lvl=0):
    return c.glGetTexLevelParameteriv(target, lvl, pname)[0]


@pytest.mark.parametrize("api", ["gl33", "compat"])
def test_a_proxy_image_is_described_and_stores_nothing(api):
    c = driver.Context(api=api, width=4, height=4)
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, 0, E.GL_RGBA8, 64, 32, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    c.glTexImage3D(E.GL_PROXY_TEXTURE_3D, 1, E.GL_R32F, 8, 4, 2, 0, E.GL_RED, E.GL_FLOAT, None)
    c.glTexImage2D(E.GL_PROXY_TEXTURE_CUBE_MAP, 0, E.GL_RGBA8, 16, 16, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_NO_ERROR
    assert (level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_WIDTH), level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_HEIGHT),
            level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_INTERNAL_FORMAT)) == (64, 32, E.GL_RGBA8)
    assert level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_RED_SIZE) == 8
    assert level(c, E.GL_PROXY_TEXTURE_3D, E.GL_TEXTURE_DEPTH, 1) == 2
    assert level(c, E.GL_PROXY_TEXTURE_3D, E.GL_TEXTURE_WIDTH, 0) == 0          # level 0 never asked for
    assert level(c, E.GL_PROXY_TEXTURE_CUBE_MAP, E.GL_TEXTURE_WIDTH) == 16
    # the real targets are untouched: no texture bound, the default textures empty
    assert c.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [0]
    assert level(c, E.GL_TEXTURE_2D, E.GL_TEXTURE_WIDTH) == 0
    assert c.glGetError() == E.GL_NO_ERROR


def test_an_image_too_large_clears_the_proxy_without_error():
    c = driver.Context(api="gl33", width=4, height=4)
    big = c.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0] * 2
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, 0, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, 0, E.GL_RGBA8, big, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_NO_ERROR
    assert level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_WIDTH) == 0
    assert level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_INTERNAL_FORMAT) == E.GL_RGBA   # undefined image's
    c.glTexImage1D(E.GL_PROXY_TEXTURE_1D, 1, E.GL_RGBA8, big // 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_NO_ERROR
    assert level(c, E.GL_PROXY_TEXTURE_1D, E.GL_TEXTURE_WIDTH, 1) == 0


def test_bad_arguments_are_errors_and_change_nothing():
    c = driver.Context(api="gl33", width=4, height=4)
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, 0, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, 0, 0x1234, 16, 16, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, -1, E.GL_RGBA8, 16, 16, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_INVALID_VALUE
    # a level past log2(MAX_TEXTURE_SIZE) is an error for a proxy too (GL 4.6 section 8.5;
    # piglit proxy-texture), the first level past it included; a rectangle has level 0 only
    top = (c.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0]).bit_length() - 1
    for lvl in (top + 1, 5555):
        c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, lvl, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        assert c.glGetError() == E.GL_INVALID_VALUE
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, top, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_NO_ERROR                # too big at that level: cleared, no error
    assert level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_WIDTH, top) == 0
    c.glTexImage2D(E.GL_PROXY_TEXTURE_RECTANGLE, 1, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glTexImage2D(E.GL_PROXY_TEXTURE_3D, 0, E.GL_RGBA8, 16, 16, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_INVALID_ENUM            # a 3D proxy is not a TexImage2D target
    assert level(c, E.GL_PROXY_TEXTURE_2D, E.GL_TEXTURE_WIDTH) == 8
    c.glBindTexture(E.GL_PROXY_TEXTURE_2D, 1)
    assert c.glGetError() == E.GL_INVALID_ENUM            # a proxy names no texture object


def test_gles_has_no_proxies():
    c = driver.Context(api="gles3", width=4, height=4)
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, 0, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_INVALID_ENUM
