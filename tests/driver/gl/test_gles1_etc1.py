"""GL_OES_compressed_ETC1_RGB8_texture in OpenGL ES 1.1 contexts (the extension
is written against ES 1.0 and Mesa lists it for ES 1 as for ES 2): an ETC1 block
given by hand decodes and textures a fixed-function draw."""

import numpy as np

import driver
from driver.gl import enums as E

ETC1 = 0x8D64
# individual mode, base colour (31, 0, 0) -> 255 red in both halves, table 0 (2, 8, -2, -8);
# pixel index bits: most significant plane 0xffff, least 0x0000 -> index 2 for every pixel
# (modifier -2): red 253, green and blue clamp to 0
RED_BLOCK = bytes.fromhex("f8000002ffff0000")


def test_es1_lists_and_samples_etc1():
    with driver.Context(api="gles1", width=4, height=4) as ctx:
        names = ctx.glGetString(E.GL_EXTENSIONS).split()
        assert "GL_OES_compressed_ETC1_RGB8_texture" in names
        assert ETC1 in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, ETC1, 4, 4, 0, 8, RED_BLOCK)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glEnable(E.GL_TEXTURE_2D)
        ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
        ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
        ctx.glEnableClientState(E.GL_TEXTURE_COORD_ARRAY)
        quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
        ctx.glVertexPointer(2, E.GL_FLOAT, 0, quad.tobytes())
        ctx.glTexCoordPointer(2, E.GL_FLOAT, 0, ((quad + 1) / 2).astype(np.float32).tobytes())
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        got = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(16, 4)
        assert got.tolist() == [[253, 0, 0, 255]] * 16


import pytest  # noqa: E402


@pytest.mark.parametrize("api", ["gles1", "gles2"])
def test_etc1_is_no_internal_format_of_teximage_or_copyteximage(api):
    """GLES 1.1/2.0: glTexImage2D with the ETC1 token as internal format is
    INVALID_VALUE (an internal format outside table 3.3, checked before the equally
    invalid format), glCopyTexImage2D with it INVALID_ENUM (the command lists its
    formats as enums), and the ETC1 image takes no sub-image update (the extension:
    INVALID_OPERATION), as piglit's oes_compressed_etc1_rgb8_texture-basic checks."""
    with driver.Context(api=api, width=8, height=8) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, ETC1, 8, 8, 0, ETC1, E.GL_UNSIGNED_BYTE, bytes(32))
        assert ctx.glGetError() == E.GL_INVALID_VALUE
        ctx.glCopyTexImage2D(E.GL_TEXTURE_2D, 0, ETC1, 0, 0, 8, 8, 0)
        assert ctx.glGetError() == E.GL_INVALID_ENUM
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, ETC1, 8, 8, 0, 32, RED_BLOCK * 4)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glCompressedTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 8, 8, ETC1, 32, RED_BLOCK * 4)
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
        ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 8, 8, E.GL_RGB, E.GL_UNSIGNED_BYTE, bytes(192))
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
