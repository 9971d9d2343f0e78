"""glGenerateMipmap of compressed images (desktop GL: the GL decodes, filters and
encodes each level again; GLES 3.2 section 8.14.4 refuses formats that are not
colour-renderable, so compressed ones are INVALID_OPERATION), the component
resolution reported for compressed images (TEXTURE_*_SIZE/TYPE, as Mesa), and
GL_EXT_texture_compression_rgtc in desktop contexts.

Expectations by hand: a 32 x 32 image of four flat quadrants (red, green, blue,
white) averages, level after level, to the same four quadrants, down to the
level where a quadrant is 4 x 4 texels (one block); each of those blocks holds
one colour, which every encoder reproduces exactly (BC7 within 1/255)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

DXT1_RGBA, DXT5, RGTC1, BC7, BC6_UNSIGNED = 0x83F1, 0x83F3, 0x8DBB, 0x8E8C, 0x8E8F
QUADS = ((1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1))    # lower-left, lower-right, upper-left, upper-right


def _quadrants(size):
    img = np.zeros((size, size, 4), np.float32)
    h = size // 2
    img[:h, :h], img[:h, h:], img[h:, :h], img[h:, h:] = QUADS
    return img


@pytest.mark.parametrize("fmt,channels,tol", [(DXT5, 4, 0.0), (DXT1_RGBA, 4, 0.0), (BC7, 4, 1 / 255),
                                              (BC6_UNSIGNED, 3, 0.0), (RGTC1, 1, 0.0)])
def test_generate_mipmap_of_a_compressed_image(fmt, channels, tol):
    ctx = glhelp.context(4, 4, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 32, 32, 0, E.GL_RGBA, E.GL_FLOAT, _quadrants(32).tobytes())
    ctx.glGenerateMipmap(E.GL_TEXTURE_2D)
    expect(ctx, E.GL_NO_ERROR)
    for level, size in ((1, 16), (2, 8)):
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, level, E.GL_TEXTURE_COMPRESSED) == [1]
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, level, E.GL_TEXTURE_INTERNAL_FORMAT) == [fmt]
        got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, level, E.GL_RGBA, E.GL_FLOAT), np.float32)
        want = _quadrants(size)
        if channels == 1:
            want[..., 1:3] = 0
        got = got.reshape(size, size, 4)
        assert np.abs(got[..., :channels] - want[..., :channels]).max() <= tol + 1e-6
    # every level down to 1 x 1 exists (the texture is complete)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 5, E.GL_TEXTURE_WIDTH) == [1]


def test_gles_refuses_mipmap_generation_of_compressed_images():
    es = make_ctx("gles3")
    (t,) = es.glGenTextures(1)
    es.glBindTexture(E.GL_TEXTURE_2D, t)
    es.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 32, bytes(32))
    expect(es, E.GL_NO_ERROR)
    es.glGenerateMipmap(E.GL_TEXTURE_2D)
    expect(es, E.GL_INVALID_OPERATION)


@pytest.mark.parametrize("fmt,sizes,kind", [
    (0x83F0, (4, 4, 4, 0), E.GL_UNSIGNED_NORMALIZED),      # DXT1 RGB
    (DXT1_RGBA, (4, 4, 4, 1), E.GL_UNSIGNED_NORMALIZED),   # one-bit alpha
    (DXT5, (4, 4, 4, 4), E.GL_UNSIGNED_NORMALIZED),
    (RGTC1, (8, 0, 0, 0), E.GL_UNSIGNED_NORMALIZED),
    (0x8DBE, (8, 8, 0, 0), E.GL_SIGNED_NORMALIZED),         # SIGNED_RG_RGTC2
    (BC7, (8, 8, 8, 8), E.GL_UNSIGNED_NORMALIZED),
    (BC6_UNSIGNED, (16, 16, 16, 0), E.GL_FLOAT),
])
def test_compressed_images_report_their_component_resolution(fmt, sizes, kind):
    ctx = glhelp.context(4, 4, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 8, 8, 0, E.GL_RGBA, E.GL_FLOAT, None)
    expect(ctx, E.GL_NO_ERROR)
    q = lambda p: ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, p)[0]     # noqa: E731
    assert (q(E.GL_TEXTURE_RED_SIZE), q(E.GL_TEXTURE_GREEN_SIZE), q(E.GL_TEXTURE_BLUE_SIZE),
            q(E.GL_TEXTURE_ALPHA_SIZE)) == sizes
    assert q(E.GL_TEXTURE_RED_TYPE) == kind
    assert q(E.GL_TEXTURE_ALPHA_TYPE) == (kind if sizes[3] else E.GL_NONE)
    assert q(E.GL_TEXTURE_DEPTH_SIZE) == 0


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_desktop_contexts_list_ext_texture_compression_rgtc(api):
    """Mesa lists the EXT name beside ARB_texture_compression_rgtc in desktop GL
    (same formats and enums: COMPRESSED_RED_RGTC1_EXT = COMPRESSED_RED_RGTC1);
    piglit's EXT directory asks for the EXT name."""
    ctx = glhelp.context(4, 4, api=api)
    names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
    assert {"GL_EXT_texture_compression_rgtc", "GL_ARB_texture_compression_rgtc"} <= names
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    block = bytes([200, 100]) + bytes(6)          # e0 = 200 > e1 = 100, every index 0: all texels 200
    ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, 0x8DBB, 4, 4, 0, 8, block)   # COMPRESSED_RED_RGTC1_EXT
    expect(ctx, E.GL_NO_ERROR)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED, E.GL_UNSIGNED_BYTE), np.uint8)
    assert got.tolist() == [200] * 16


def test_generate_mipmap_flag_regenerates_levels_of_compressed_images():
    """GL_GENERATE_MIPMAP (compatibility profile): a new compressed base level,
    given as client data the GL compresses or as blocks, regenerates the levels."""
    ctx = glhelp.context(4, 4, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_GENERATE_MIPMAP, E.GL_TRUE)
    red = np.zeros((16, 16, 4), np.float32)
    red[..., 0] = 1
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, DXT5, 16, 16, 0, E.GL_RGBA, E.GL_FLOAT, red.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    assert [ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, lv, E.GL_TEXTURE_WIDTH)[0] for lv in range(5)] == \
        [16, 8, 4, 2, 1]
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 3, E.GL_RGBA, E.GL_FLOAT), np.float32)
    assert got.reshape(2, 2, 4)[..., :3].tolist() == [[[1, 0, 0]] * 2] * 2
    # blocks: a DXT1 block of c0 = c1 = pure blue (565: 0x001F), every index 0
    blue = bytes([0x1F, 0x00, 0x1F, 0x00]) + bytes(4)
    ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, DXT1_RGBA, 8, 8, 0, 32, blue * 4)
    expect(ctx, E.GL_NO_ERROR)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 3, E.GL_RGBA, E.GL_FLOAT), np.float32)
    assert got.tolist() == [0, 0, 1, 1]
