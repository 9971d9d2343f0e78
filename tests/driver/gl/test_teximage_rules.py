"""Three rules of glTexImage*/glTexSubImage* (GL 4.6 sections 8.5 and 8.7), each found
missing by a piglit test: an image of level L is at most MAX_TEXTURE_SIZE >> L a side
(max-texture-size-level); TexSubImage refuses pixel data of the wrong kind as TexImage
does (teximage-errors: STENCIL_INDEX data into a depth image); and the 1D/2D commands
ignore UNPACK_SKIP_IMAGES (texsubimage-unpack sets it to 1 on purpose). Expected values
are the spec's errors and the texels given, read back with glGetTexImage."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def level_width(c, target, lvl):
    return c.glGetTexLevelParameteriv(target, lvl, E.GL_TEXTURE_WIDTH)[0]


@pytest.mark.parametrize("api", ["gl33", "compat"])
def test_an_image_larger_than_its_level_allows_is_invalid_value(api):
    c = driver.Context(api=api, width=4, height=4)
    top = c.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0]
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, top, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(c, E.GL_NO_ERROR)
    c.glTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(c, E.GL_NO_ERROR)
    for lvl, w, h in ((1, top, 1), (1, 1, top), (2, top // 2, 1), (2, 1, top // 2)):
        c.glTexImage2D(E.GL_TEXTURE_2D, lvl, E.GL_RGBA8, w, h, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        expect(c, E.GL_INVALID_VALUE)
    assert (level_width(c, E.GL_TEXTURE_2D, 0), level_width(c, E.GL_TEXTURE_2D, 1),
            level_width(c, E.GL_TEXTURE_2D, 2)) == (top, 4, 0)          # nothing changed
    # the largest image a level takes is fine, and the layers of an array are no side
    c.glTexImage2D(E.GL_TEXTURE_2D, 2, E.GL_RGBA8, top // 4, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(c, E.GL_NO_ERROR)
    c.glBindTexture(E.GL_TEXTURE_2D_ARRAY, c.glGenTextures(1)[0])
    layers = min(64, c.glGetIntegerv(E.GL_MAX_ARRAY_TEXTURE_LAYERS)[0])
    c.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, 5, E.GL_RGBA8, 1, 1, layers, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(c, E.GL_NO_ERROR)
    big3d = c.glGetIntegerv(E.GL_MAX_3D_TEXTURE_SIZE)[0]
    c.glBindTexture(E.GL_TEXTURE_3D, c.glGenTextures(1)[0])
    c.glTexImage3D(E.GL_TEXTURE_3D, 1, E.GL_RGBA8, 1, 1, big3d, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(c, E.GL_INVALID_VALUE)


def test_sub_image_data_must_match_the_image_kind():
    c = driver.Context(api="gl46", width=4, height=4)
    depth = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, depth)
    c.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_DEPTH_COMPONENT16, 2, 2)
    ints = np.full(4, 7, np.int32).tobytes()
    c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 2, E.GL_STENCIL_INDEX, E.GL_INT, ints)
    expect(c, E.GL_INVALID_OPERATION)
    c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 2, E.GL_RED, E.GL_FLOAT, np.zeros(4, np.float32).tobytes())
    expect(c, E.GL_INVALID_OPERATION)                       # colour data into a depth image
    half = np.full(4, 0.5, np.float32)
    c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 2, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, half.tobytes())
    expect(c, E.GL_NO_ERROR)
    got = np.frombuffer(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
    assert np.allclose(got, 0.5, atol=1 / 65535)             # the refused uploads wrote nothing
    colour = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, colour)
    c.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 2, 2)
    c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 2, E.GL_STENCIL_INDEX, E.GL_INT, ints)
    expect(c, E.GL_INVALID_OPERATION)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_STENCIL_INDEX, E.GL_INT, ints)
    expect(c, E.GL_INVALID_OPERATION)                        # immutable or not: the data is refused first
    stencil = c.glGenTextures(1)[0]                          # stencil data into a stencil image is fine
    c.glBindTexture(E.GL_TEXTURE_2D, stencil)
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_STENCIL_INDEX8, 2, 2, 0, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE,
                   bytes([1, 2, 3, 4]))
    c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 1, 1, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE, bytes([9]))
    expect(c, E.GL_NO_ERROR)


@pytest.mark.parametrize("api", ["gl33", "compat", "gles3"])
def test_two_dimensional_uploads_ignore_skip_images(api):
    c = driver.Context(api=api, width=4, height=4)
    first = np.arange(16, dtype=np.uint8)                   # one 2x2 RGBA image
    second = first + 100                                     # what SKIP_IMAGES = 1 would read
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    c.glPixelStorei(E.GL_UNPACK_SKIP_IMAGES, 1)
    c.glPixelStorei(E.GL_UNPACK_IMAGE_HEIGHT, 2)
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                   np.concatenate([first, second]).tobytes())
    expect(c, E.GL_NO_ERROR)
    fbo = c.glGenFramebuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    c.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)

    def texels():
        return np.frombuffer(c.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)

    assert (texels() == first).all()
    c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 1, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                      np.concatenate([second[:4], first[:4]]).tobytes())
    expect(c, E.GL_NO_ERROR)
    assert (texels()[4:8] == second[:4]).all()
    # a 3D image does skip: its first image comes from the second in memory
    c.glBindTexture(E.GL_TEXTURE_3D, c.glGenTextures(1)[0])
    c.glTexImage3D(E.GL_TEXTURE_3D, 0, E.GL_RGBA8, 2, 2, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                   np.concatenate([first, second]).tobytes())
    expect(c, E.GL_NO_ERROR)
    c.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, c.glGetIntegerv(E.GL_TEXTURE_BINDING_3D)[0],
                                0, 0)
    assert (texels() == second).all()
