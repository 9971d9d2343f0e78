"""glCopyImageSubData between texture views (GL 4.6 sections 8.18 and 18.3.3): a view's
level 0 and layer 0 are its minimum level and layer of the shared storage, so a copy
through views lands where the views say (piglit arb_copy_image-texview; the copy used
the storage's level 0 and layer 0). The expected texels are written by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

RED, GREEN = [255, 0, 0, 255], [0, 255, 0, 255]


def _fill(c, target, level, w, h, d, colour, z=0):
    data = np.array([colour] * (w * h * d), np.uint8).tobytes()
    if target == E.GL_TEXTURE_2D:
        c.glTexSubImage2D(target, level, 0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data)
    else:
        c.glTexSubImage3D(target, level, 0, 0, z, w, h, d, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data)


def _texels(c, target, level):
    return np.frombuffer(bytes(c.glGetTexImage(target, level, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                         np.uint8).reshape(-1, 4).tolist()


@pytest.mark.parametrize("i,j", [(0, 1), (1, 0), (1, 1)])
def test_copy_between_level_views(i, j):
    c = driver.Context("gl46", 4, 4)
    src, dst = c.glGenTextures(2)
    for t in (src, dst):
        c.glBindTexture(E.GL_TEXTURE_2D, t)
        c.glTexStorage2D(E.GL_TEXTURE_2D, 2, E.GL_RGBA8, 2, 2)
        _fill(c, E.GL_TEXTURE_2D, 0, 2, 2, 1, RED)
        _fill(c, E.GL_TEXTURE_2D, 1, 1, 1, 1, RED)
    c.glBindTexture(E.GL_TEXTURE_2D, src)
    c.glTexSubImage2D(E.GL_TEXTURE_2D, i, 0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(GREEN))
    views = c.glGenTextures(2)
    c.glTextureView(views[0], E.GL_TEXTURE_2D, src, E.GL_RGBA8, i, 1, 0, 1)
    c.glTextureView(views[1], E.GL_TEXTURE_2D, dst, E.GL_RGBA8, j, 1, 0, 1)
    c.glCopyImageSubData(views[0], E.GL_TEXTURE_2D, 0, 0, 0, 0, views[1], E.GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1)
    assert c.glGetError() == E.GL_NO_ERROR
    c.glBindTexture(E.GL_TEXTURE_2D, dst)
    assert _texels(c, E.GL_TEXTURE_2D, j)[0] == GREEN
    assert _texels(c, E.GL_TEXTURE_2D, 1 - j)[0] == RED          # the other level untouched


@pytest.mark.parametrize("i,j", [(0, 1), (1, 0), (1, 1)])
def test_copy_between_layer_views(i, j):
    c = driver.Context("gl46", 4, 4)
    src, dst = c.glGenTextures(2)
    for t in (src, dst):
        c.glBindTexture(E.GL_TEXTURE_2D_ARRAY, t)
        c.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 1, 1, 2)
        _fill(c, E.GL_TEXTURE_2D_ARRAY, 0, 1, 1, 2, RED)
    c.glBindTexture(E.GL_TEXTURE_2D_ARRAY, src)
    _fill(c, E.GL_TEXTURE_2D_ARRAY, 0, 1, 1, 1, GREEN, z=i)
    views = c.glGenTextures(2)
    c.glTextureView(views[0], E.GL_TEXTURE_2D_ARRAY, src, E.GL_RGBA8, 0, 1, i, 1)
    c.glTextureView(views[1], E.GL_TEXTURE_2D_ARRAY, dst, E.GL_RGBA8, 0, 1, j, 1)
    c.glCopyImageSubData(views[0], E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0,
                         views[1], E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 1, 1, 1)
    assert c.glGetError() == E.GL_NO_ERROR
    c.glBindTexture(E.GL_TEXTURE_2D_ARRAY, dst)
    expect = [RED, RED]
    expect[j] = GREEN
    assert _texels(c, E.GL_TEXTURE_2D_ARRAY, 0) == expect
    # a layer past the view's one layer: outside the view
    c.glCopyImageSubData(views[0], E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0,
                         views[1], E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, -1, 1, 1, 1)
    assert c.glGetError() == E.GL_INVALID_VALUE
