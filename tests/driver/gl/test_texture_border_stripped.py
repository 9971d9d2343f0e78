"""Texture borders in the compatibility profile (GL 4.6 compatibility section 8.5:
border 0 or 1; core, GLES and rectangle textures: 0, else INVALID_VALUE). The border
texels are not stored, as on Mesa's drivers: glTexImage* keeps the inner image of
the client data and glCopyTexImage* copies the inner rectangle of the read region
(piglit copyteximage-border). Expected texels picked out of the inputs by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def make_ctx(api: str):
    return driver.Context(api=api, width=8, height=8)


def _texture(ctx, target=E.GL_TEXTURE_2D) -> int:
    t = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(target, t)
    return t


def _get(ctx, target, w, h) -> np.ndarray:
    raw = ctx.glGetTexImage(target, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(raw), np.uint8).reshape(h, w, 4)


def test_teximage_keeps_the_inner_image():
    ctx = make_ctx("compat")
    _texture(ctx)
    client = np.arange(6 * 6 * 4, dtype=np.uint8).reshape(6, 6, 4)     # 4x4 inside a 1-texel border
    ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 6, 6, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, client.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    assert (_get(ctx, E.GL_TEXTURE_2D, 4, 4) == client[1:5, 1:5]).all()
    assert ctx.glGetIntegerv(E.GL_UNPACK_SKIP_PIXELS) == [0]      # the context's pixel store is untouched


def test_teximage_1d_and_3d_borders():
    ctx = make_ctx("compat")
    _texture(ctx, E.GL_TEXTURE_1D)
    row = np.arange(5 * 4, dtype=np.uint8).reshape(1, 5, 4)
    ctx.glTexImage1D(E.GL_TEXTURE_1D, 0, E.GL_RGBA8, 5, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, row.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    assert (_get(ctx, E.GL_TEXTURE_1D, 3, 1) == row[:, 1:4]).all()
    _texture(ctx, E.GL_TEXTURE_3D)
    vol = np.arange(4 * 4 * 4 * 4, dtype=np.uint8).reshape(4, 4, 4, 4)   # 2x2x2 inside
    ctx.glTexImage3D(E.GL_TEXTURE_3D, 0, E.GL_RGBA8, 4, 4, 4, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, vol.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    raw = ctx.glGetTexImage(E.GL_TEXTURE_3D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    assert (np.frombuffer(bytes(raw), np.uint8).reshape(2, 2, 2, 4) == vol[1:3, 1:3, 1:3]).all()


def test_copyteximage_copies_the_inner_rectangle():
    ctx = make_ctx("compat")
    ctx.glClearColor(0, 0, 1, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(E.GL_SCISSOR_TEST)
    ctx.glScissor(3, 2, 2, 3)                # red on x 3..4, y 2..4
    ctx.glClearColor(1, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDisable(E.GL_SCISSOR_TEST)
    _texture(ctx)
    ctx.glCopyTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 1, 4, 5, 1)     # inner: x 3..4, y 2..4
    expect(ctx, E.GL_NO_ERROR)
    assert (_get(ctx, E.GL_TEXTURE_2D, 2, 3) == [255, 0, 0, 255]).all()
    _texture(ctx, E.GL_TEXTURE_1D)
    ctx.glCopyTexImage1D(E.GL_TEXTURE_1D, 0, E.GL_RGBA8, 1, 3, 6, 1)        # inner: x 2..5 of row 3
    expect(ctx, E.GL_NO_ERROR)
    blue, red = [0, 0, 255, 255], [255, 0, 0, 255]
    assert (_get(ctx, E.GL_TEXTURE_1D, 4, 1) == [[blue, red, red, blue]]).all()


@pytest.mark.parametrize("api, target, border", [
    ("compat", E.GL_TEXTURE_2D, 2), ("compat", E.GL_TEXTURE_RECTANGLE, 1),
    ("gl43", E.GL_TEXTURE_2D, 1), ("gles2", E.GL_TEXTURE_2D, 1), ("gles1", E.GL_TEXTURE_2D, 1)])
def test_borders_other_than_legacy_ones_are_invalid_value(api, target, border):
    ctx = make_ctx(api)
    t = _texture(ctx, target)
    ctx.glTexImage2D(target, 0, E.GL_RGBA, 6, 6, border, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(6 * 6 * 4))
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glCopyTexImage2D(target, 0, E.GL_RGBA, 0, 0, 6, 6, border)
    expect(ctx, E.GL_INVALID_VALUE)
    assert ctx.textures.get(t).image(0, 0) is None          # no state change
