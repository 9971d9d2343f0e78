"""glTexImage2D/glTexSubImage2D of uncompressed data into a specific S3TC or RGTC
format (EXT_texture_compression_s3tc, ARB_texture_compression_rgtc): the GL
compresses. Checked by reading the blocks back (glGetCompressedTexImage) and
decoding them with numpy-free expectations: two-colour images of 565 colours are
exact, so the decoded image equals the uploaded one."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

DXT1, DXT5 = 0x83F1, 0x83F3          # GL_COMPRESSED_RGBA_S3TC_DXT1/DXT5_EXT


def _checker(w, h):
    """Two colours whose channels are exact in RGB565 (and any alpha in DXT5)."""
    a, b = (255, 0, 0, 255), (0, 255, 255, 136)
    y, x = np.mgrid[0:h, 0:w]
    return np.where(((x // 2 + y // 3) % 2 == 0)[..., None], a, b).astype(np.uint8)


def test_teximage_compresses_and_reads_back():
    ctx = glhelp.context(4, 4, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    img = _checker(16, 8)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, DXT5, 16, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_COMPRESSED) == [1]
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [DXT5]
    # 16 x 8 texels: 4 x 2 blocks of 16 bytes
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE) == [128]
    assert len(ctx.glGetCompressedTexImage(E.GL_TEXTURE_2D, 0)) == 128
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert (got.reshape(8, 16, 4) == img).all()


def test_npot_edges_and_sub_images():
    ctx = glhelp.context(4, 4, api="compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    img = _checker(6, 5)
    img[..., 3] = 255                              # DXT1: opaque
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, DXT1, 6, 5, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img.tobytes())
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert (got.reshape(5, 6, 4) == img).all()
    # a block-aligned region is compressed in place; an unaligned one is refused
    patch = np.full((4, 4, 4), (0, 0, 255, 255), np.uint8)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, patch.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 1, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, patch.tobytes())
    expect(ctx, E.GL_INVALID_OPERATION)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    want = img.copy()
    want[:4, :4] = patch
    assert (got.reshape(5, 6, 4) == want).all()


def test_rgtc_red_values_keep_their_extremes():
    ctx = glhelp.context(4, 4, api="gl43")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    red = np.tile(np.array([[10, 250], [250, 10]], np.uint8), (2, 2))    # two values per block: exact
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RED_RGTC1, 4, 4, 0, E.GL_RED, E.GL_UNSIGNED_BYTE,
                     red.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED, E.GL_UNSIGNED_BYTE), np.uint8)
    assert (got.reshape(4, 4) == red).all()


def test_errors():
    ctx = make_ctx("gl43")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_3D, t)
    ctx.glTexImage3D(E.GL_TEXTURE_3D, 0, DXT5, 4, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(ctx, E.GL_INVALID_OPERATION)                # no 3D S3TC images
    ctx.glBindTexture(E.GL_TEXTURE_2D, t + 1)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, DXT5, 4, 4, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE, None)
    expect(ctx, E.GL_INVALID_OPERATION)                # integer pixel data into a colour format
    es = make_ctx("gles3")
    (t,) = es.glGenTextures(1)
    es.glBindTexture(E.GL_TEXTURE_2D, t)
    es.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RGBA8_ETC2_EAC, 4, 4, 0, E.GL_RGBA,
                    E.GL_UNSIGNED_BYTE, None)
    expect(es, E.GL_INVALID_VALUE)                     # GLES never compresses client data


def test_compressed_texture_formats_lists_the_general_purpose_ones():
    """GL 4.6 section 8.7: only formats "suitable for general-purpose usage": linear RGB and
    RGBA. Accepted but unlisted: DXT1 RGBA (one-bit alpha), sRGB S3TC, RGTC."""
    ctx = make_ctx("gl43")
    listed = set(ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS))
    assert len(listed) == ctx.glGetIntegerv(E.GL_NUM_COMPRESSED_TEXTURE_FORMATS)[0]
    assert {0x83F0, 0x83F2, 0x83F3} <= listed                    # DXT1 RGB, DXT3, DXT5
    assert not {0x83F1, 0x8C4C, 0x8C4F, E.GL_COMPRESSED_RED_RGTC1, E.GL_COMPRESSED_RG_RGTC2} & listed
    assert E.GL_COMPRESSED_RGB8_ETC2 in listed and E.GL_COMPRESSED_RGBA_BPTC_UNORM in listed


def test_unsized_snorm_and_generic_srgb_formats():
    ctx = make_ctx("compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, 0x8F90, 4, 4, 0, E.GL_RED, E.GL_BYTE, None)      # GL_RED_SNORM
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_RED_TYPE) == [E.GL_SIGNED_NORMALIZED]
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_RED_SIZE) == [8]
    # a generic compressed sRGB format stored uncompressed reads back as its linear base
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_SRGB_ALPHA, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [E.GL_RGBA]
    es = make_ctx("gles3")
    (t,) = es.glGenTextures(1)
    es.glBindTexture(E.GL_TEXTURE_2D, t)
    es.glTexImage2D(E.GL_TEXTURE_2D, 0, 0x8F90, 4, 4, 0, E.GL_RED, E.GL_BYTE, None)
    expect(es, E.GL_INVALID_VALUE)                  # GLES has sized SNORM formats only


def test_gles_compresses_s3tc_and_rgtc_where_their_extensions_exist():
    es = make_ctx("gles3")
    (t,) = es.glGenTextures(1)
    es.glBindTexture(E.GL_TEXTURE_2D, t)
    es.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RED_RGTC1, 8, 8, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, None)
    expect(es, E.GL_NO_ERROR)                      # EXT_texture_compression_rgtc (GLES 3)
    es.glTexImage2D(E.GL_TEXTURE_2D, 0, DXT5, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(256))
    expect(es, E.GL_NO_ERROR)                      # EXT_texture_compression_s3tc
