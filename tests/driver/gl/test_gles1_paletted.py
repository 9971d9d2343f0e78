"""GL_OES_compressed_paletted_texture (OpenGL ES 1.1 contexts): glCompressedTexImage2D
of a palette and indices (4-bit indices two a byte, the first in the high half;
a negative level gives that many further mipmap levels), expanded by the GL; the
errors the extension and ES 1.1 section 3.7 name. Texels checked by drawing with
NEAREST filtering, against palettes written by hand."""

import numpy as np

import driver
from driver.gl import enums as E

P4_RGBA8, P8_R5G6B5, P4_RGB8 = 0x8B91, 0x8B97, 0x8B90


def _draw(ctx, size_px):
    """A quad of size_px x size_px window pixels at the origin with texcoords 0..1."""
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glLoadIdentity()
    ctx.glOrthof(0, 2, 0, 2, -1, 1)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glEnableClientState(E.GL_TEXTURE_COORD_ARRAY)
    s = float(size_px)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array([[0, 0], [s, 0], [0, s], [s, s]], np.float32).tobytes())
    ctx.glTexCoordPointer(2, E.GL_FLOAT, 0, np.array([[0, 0], [1, 0], [0, 1], [1, 1]], np.float32).tobytes())
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    return np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(2, 2, 4)


def test_paletted_rgba8_with_a_mipmap_level():
    palette = np.zeros((16, 4), np.uint8)
    palette[0], palette[1], palette[2], palette[3] = (10, 20, 30, 255), (255, 0, 0, 255), (0, 255, 0, 255), \
        (0, 0, 255, 128)
    # level 0 (2 x 2): indices 1, 2 / 3, 0 -> bytes 0x12, 0x30; level 1 (1 x 1): index 2 -> 0x20
    data = palette.tobytes() + bytes([0x12, 0x30, 0x20])
    with driver.Context(api="gles1", width=2, height=2) as ctx:
        assert "GL_OES_compressed_paletted_texture" in ctx.glGetString(E.GL_EXTENSIONS).split()
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, -1, P4_RGBA8, 2, 2, 0, len(data), data)
        assert ctx.glGetError() == E.GL_NO_ERROR
        got = _draw(ctx, 2)                   # one texel a pixel: level 0, rows bottom-up
        assert got.tolist() == [[[255, 0, 0, 255], [0, 255, 0, 255]], [[0, 0, 255, 128], [10, 20, 30, 255]]]
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        got = _draw(ctx, 1)                   # the 2 x 2 image over one pixel: level 1
        assert got[0, 0].tolist() == [0, 255, 0, 255]


def test_paletted_565_and_rgb8_entries():
    palette = np.zeros(256, "<u2")
    palette[5] = 0xF800                       # 5:6:5 red
    data = palette.tobytes() + bytes([5])
    with driver.Context(api="gles1", width=2, height=2) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, P8_R5G6B5, 1, 1, 0, len(data), data)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert _draw(ctx, 2)[0, 0].tolist() == [255, 0, 0, 255]
        # 3-byte entries: a 2 x 2 image, rows of 6 bytes (unpack alignment 4 pads them to 8)
        pal = np.zeros((16, 3), np.uint8)
        pal[7] = (1, 2, 3)
        data = pal.tobytes() + bytes([0x77, 0x77])
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, P4_RGB8, 2, 2, 0, len(data), data)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert _draw(ctx, 2).reshape(4, 4).tolist() == [[1, 2, 3, 255]] * 4


def test_paletted_errors():
    with driver.Context(api="gles1", width=2, height=2) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        size = 16 * 4 + (16 * 16) // 2                      # PALETTE4_RGBA8, 16 x 16
        buf = bytes(size + 64)
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, P4_RGBA8, 16, 16, 0, size - 1, buf)
        assert ctx.glGetError() == E.GL_INVALID_VALUE       # imageSize short of the image
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 1, P4_RGBA8, 8, 8, 0, 16 * 4 + 32, buf)
        assert ctx.glGetError() == E.GL_INVALID_VALUE       # a positive level
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, P4_RGBA8, 16, 16, 1, size, buf)
        assert ctx.glGetError() == E.GL_INVALID_VALUE       # a border (ES 1.1's TexImage2D rule)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, P4_RGBA8, 16, 16, 0, P4_RGBA8, E.GL_UNSIGNED_BYTE, buf)
        assert ctx.glGetError() == E.GL_INVALID_VALUE       # not an internal format of TexImage2D
        ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, P4_RGBA8, 16, 16, 0, size, buf)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glCompressedTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 4, 4, P4_RGBA8, 8, buf)
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
    with driver.Context(api="gles2", width=2, height=2) as es2:
        assert "GL_OES_compressed_paletted_texture" not in es2.glGetString(E.GL_EXTENSIONS).split()
        (t,) = es2.glGenTextures(1)
        es2.glBindTexture(E.GL_TEXTURE_2D, t)
        es2.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, P4_RGBA8, 16, 16, 0, size, buf)
        assert es2.glGetError() == E.GL_INVALID_ENUM


def test_es1_compressed_formats_are_etc1_and_the_paletted_ones():
    """COMPRESSED_TEXTURE_FORMATS of an ES 1.1 context: the formats of its listed
    extensions (OES_compressed_ETC1_RGB8_texture, the ten paletted ones); formats of
    extensions it does not list (BPTC, S3TC, ASTC) are INVALID_ENUM."""
    with driver.Context(api="gles1", width=2, height=2) as ctx:
        listed = ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        assert sorted(listed) == [0x8B90 + i for i in range(10)] + [0x8D64]
        assert ctx.glGetIntegerv(E.GL_NUM_COMPRESSED_TEXTURE_FORMATS) == [11]
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        for fmt in (0x8E8C, 0x83F0):                    # RGBA_BPTC_UNORM, RGB_S3TC_DXT1
            ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 4, 4, 0, 16 if fmt == 0x8E8C else 8, bytes(16))
            assert ctx.glGetError() == E.GL_INVALID_ENUM
