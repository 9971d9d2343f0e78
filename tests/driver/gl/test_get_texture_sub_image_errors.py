"""glGetTextureSubImage's errors (GL 4.6 section 8.11.4, as Mesa answers piglit's
arb_get_texture_sub_image-errors): a level outside the target's possible ones is
INVALID_VALUE; a level never specified reads as an empty image, so a non-empty box
there is INVALID_VALUE (it was INVALID_OPERATION) and so is an empty box off its
origin; a cube map whose level is not cube complete is INVALID_OPERATION (five faces
read without error before). Nothing is written on an error."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def test_levels_and_empty_images():
    ctx = driver.Context(api="gl46", width=4, height=4)
    tex = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)[0]
    ctx.glTextureStorage2D(tex, 4, E.GL_RGBA8, 8, 8)
    for level, want in ((-1, E.GL_INVALID_VALUE), (99, E.GL_INVALID_VALUE), (4, E.GL_INVALID_VALUE),
                        (3, E.GL_NO_ERROR)):
        ctx.glGetTextureSubImage(tex, level, 0, 0, 0, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 256)
        expect(ctx, want)
    empty = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, empty)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 0, 0, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert ctx.glGetTextureSubImage(empty, 0, 0, 0, 0, 0, 0, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 256) == b""
    expect(ctx, E.GL_NO_ERROR)
    ctx.glGetTextureSubImage(empty, 0, 1, 2, 0, 0, 0, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 256)
    expect(ctx, E.GL_INVALID_VALUE)


def test_a_cube_map_must_be_cube_complete():
    ctx = driver.Context(api="gl46", width=4, height=4)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, tex)
    texels = np.arange(4 * 4 * 4, dtype=np.uint8)
    for face in range(5):
        ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA,
                         E.GL_UNSIGNED_BYTE, texels.tobytes())
    assert ctx.glGetTextureSubImage(tex, 0, 0, 0, 0, 4, 4, 5, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 1024) is None
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     texels.tobytes())
    got = ctx.glGetTextureSubImage(tex, 0, 0, 0, 0, 4, 4, 5, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 1024)
    expect(ctx, E.GL_NO_ERROR)
    assert bytes(got) == texels.tobytes() * 5
