"""GL_3DFX_texture_compression_FXT1 and GL_S3_s3tc through driver.Context.

FXT1: glCompressedTexImage2D of a hand-built block (its texels worked out from the
extension's CC_CHROMA layout), glGetCompressedTexImage, glGetTexImage and a draw
sampling it; glTexImage2D compressing piglit-like quadrants; the errors the
extension names; COMPRESSED_TEXTURE_FORMATS; absent from GLES.
S3_s3tc: its four names take S3TC blocks (DXT1 RGB, DXT1 RGB, DXT3, DXT5, as Mesa
maps them), in glCompressedTexImage2D and in glTexImage2D (the GL compresses)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect
from .test_formats_internal import _draw_sampled, _texture

T2 = E.GL_TEXTURE_2D
RGB_FXT1, RGBA_FXT1 = E.GL_COMPRESSED_RGB_FXT1_3DFX, E.GL_COMPRESSED_RGBA_FXT1_3DFX


def _chroma_block() -> bytes:
    """CC_CHROMA (bits 127:125 = 010): colours red, green, blue, RGB555 (5, 10, 20) =
    (41, 82, 165); texel t (left half t < 16, 4 x 4 row-major each) has index t % 4."""
    word = 0b010 << 125
    for k, (r, g, b) in enumerate([(31, 0, 0), (0, 31, 0), (0, 0, 31), (5, 10, 20)]):
        word |= (b | g << 5 | r << 10) << (64 + 15 * k)
    for t in range(32):
        word |= (t % 4) << (2 * t)
    return word.to_bytes(16, "little")


CHROMA_ROW = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [41, 82, 165, 255]] * 2


def _extensions(ctx) -> list[str]:
    return [ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]


def test_listed_in_desktop_contexts_only():
    for api in ("compat", "gl46"):
        with driver.Context(api=api, width=4, height=4) as ctx:
            names = _extensions(ctx)
            assert "GL_3DFX_texture_compression_FXT1" in names and "GL_S3_s3tc" in names
            formats = ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
            # FXT1 is general-purpose (both formats listed); S3's names are not listed (as Mesa)
            assert {RGB_FXT1, RGBA_FXT1} <= set(formats)
            assert not {E.GL_RGB_S3TC, E.GL_RGB4_S3TC, E.GL_RGBA_S3TC, E.GL_RGBA4_S3TC} & set(formats)
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        assert "GL_3DFX_texture_compression_FXT1" not in _extensions(ctx)
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, RGB_FXT1, 8, 4, 0, 16, _chroma_block())
        expect(ctx, E.GL_INVALID_ENUM)


def test_fxt1_block_upload_read_back_and_draw():
    block = _chroma_block()
    with driver.Context(api="compat", width=8, height=4) as ctx:
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, RGBA_FXT1, 8, 4, 0, 16, block)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_COMPRESSED) == [1]
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE) == [16]
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [RGBA_FXT1]
        # Mesa's approximate sizes: colour 4 bits, alpha 1
        assert [ctx.glGetTexLevelParameteriv(T2, 0, p)[0] for p in
                (E.GL_TEXTURE_RED_SIZE, E.GL_TEXTURE_GREEN_SIZE, E.GL_TEXTURE_BLUE_SIZE,
                 E.GL_TEXTURE_ALPHA_SIZE)] == [4, 4, 4, 1]
        assert ctx.glGetCompressedTexImage(T2, 0) == block
        texels = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        drawn = _draw_sampled(ctx, 8, 4)
        expect(ctx, E.GL_NO_ERROR)
    texels = texels.reshape(4, 8, 4)
    assert all(row == CHROMA_ROW for row in texels.tolist())
    assert drawn.tolist() == texels.astype(np.int64).tolist()


def test_fxt1_partial_blocks_and_sub_image():
    """A 12 x 6 image is 2 x 2 blocks (the total size ceil(w/8) * ceil(h/4) * 16);
    glCompressedTexSubImage2D replaces the block at (8, 4)."""
    zero = bytes(16)
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, RGB_FXT1, 12, 6, 0, 64, zero * 4)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glCompressedTexImage2D(T2, 0, RGB_FXT1, 12, 6, 0, 48, zero * 3)
        expect(ctx, E.GL_INVALID_VALUE)                        # imageSize of three blocks
        ctx.glCompressedTexSubImage2D(T2, 0, 8, 4, 4, 2, RGB_FXT1, 16, _chroma_block())
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetCompressedTexImage(T2, 0) == zero * 3 + _chroma_block()
        texels = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    texels = texels.reshape(6, 12, 4)
    assert texels[4, 8:12].tolist() == CHROMA_ROW[:4]
    # an all-zero block is CC_HI with every index 0: color0 = black, opaque in an RGB image
    assert (texels[:4] == [0, 0, 0, 255]).all()


def test_fxt1_errors_the_extension_names():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_1D, t)
        ctx.glCompressedTexImage1D(E.GL_TEXTURE_1D, 0, RGB_FXT1, 8, 0, 16, bytes(16))
        expect(ctx, E.GL_INVALID_ENUM)                           # no 1D FXT1 images
        (t3,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_3D, t3)
        ctx.glCompressedTexImage3D(E.GL_TEXTURE_3D, 0, RGB_FXT1, 8, 4, 1, 0, 16, bytes(16))
        expect(ctx, E.GL_INVALID_OPERATION)                      # 3D textures take no FXT1 (as Mesa)
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, RGB_FXT1, 8, 4, 1, 16, bytes(16))
        expect(ctx, E.GL_INVALID_VALUE)                          # a border (GL 4.6 and Mesa: INVALID_VALUE)
        ctx.glCompressedTexImage2D(T2, 0, RGB_FXT1, 16, 8, 0, 64, bytes(64))
        ctx.glCompressedTexSubImage2D(T2, 0, 4, 0, 8, 4, RGB_FXT1, 16, bytes(16))
        expect(ctx, E.GL_INVALID_OPERATION)                      # not on a block boundary


def _quadrants(w: int, h: int) -> np.ndarray:
    """piglit's rgbw image: red, green / blue, white quadrants (rows bottom-up), alpha
    0, 0.25, 0.5, 1 as fbo-generatemipmap-formats uploads them."""
    img = np.zeros((h, w, 4), np.float32)
    img[: h // 2, : w // 2] = [1, 0, 0, 0]
    img[: h // 2, w // 2:] = [0, 1, 0, 0.25]
    img[h // 2:, : w // 2] = [0, 0, 1, 0.5]
    img[h // 2:, w // 2:] = [1, 1, 1, 1]
    return img


@pytest.mark.parametrize("ifmt", [RGB_FXT1, RGBA_FXT1])
def test_fxt1_compressed_by_the_gl_with_mipmaps(ifmt):
    img = _quadrants(64, 32)
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, ifmt, 64, 32, 0, E.GL_RGBA, E.GL_FLOAT, img.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE) == [8 * 8 * 16]
        got = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(32, 64, 4)
        ctx.glGenerateMipmap(T2)
        expect(ctx, E.GL_NO_ERROR)
        # level 2 (16 x 8): each quadrant one block, averaged from level 1 and encoded again
        level2 = np.frombuffer(ctx.glGetTexImage(T2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(8, 16, 4)
    want = img.copy()
    if ifmt == RGB_FXT1:
        want[..., 3] = 1.0
    # solid colours of 5-bit channels: exact; alpha 0.25 and 0.5 as the nearest 5-bit codes
    # widened (8 -> 66/255, 16 -> 132/255); alpha 0 keeps the colour (no transparent black
    # where the texel has a colour)
    np.testing.assert_allclose(got, want, atol=0.02)
    np.testing.assert_allclose(level2, want[::4, ::4], atol=0.02)


def test_s3_names_take_s3tc_blocks():
    # DXT1: c0 = red > c1 = blue, row 0 indices 0..3, the rest 1 (test_formats_compressed.py's block)
    dxt1 = bytes.fromhex("00f81f00e4555555")
    row0 = [[255, 0, 0, 255], [0, 0, 255, 255], [170, 0, 85, 255], [85, 0, 170, 255]]
    # DXT3: explicit alpha 0x8 (136) for every texel, then an all-index-0 green colour block
    dxt3 = bytes.fromhex("8888888888888888") + bytes.fromhex("e007000000000000")
    # DXT5: alphas a0 = 255 > a1 = 0, every index 1 (alpha 0): 3 bits 001 per texel
    dxt5 = bytes([255, 0]) + (int("001" * 16, 2).to_bytes(6, "little")) + bytes.fromhex("1f00000000000000")
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        for name, blk in ((E.GL_RGB_S3TC, dxt1), (E.GL_RGB4_S3TC, dxt1)):
            ctx.glCompressedTexImage2D(T2, 0, name, 4, 4, 0, 8, blk)
            expect(ctx, E.GL_NO_ERROR)
            assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [name]
            texels = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
            assert texels.reshape(4, 4, 4)[0].tolist() == row0
            assert ctx.glGetCompressedTexImage(T2, 0) == blk
        ctx.glCompressedTexImage2D(T2, 0, E.GL_RGBA_S3TC, 4, 4, 0, 16, dxt3)
        texels = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        assert (texels.reshape(16, 4) == [0, 255, 0, 136]).all()
        ctx.glCompressedTexImage2D(T2, 0, E.GL_RGBA4_S3TC, 4, 4, 0, 16, dxt5)
        texels = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        assert (texels.reshape(16, 4) == [0, 0, 255, 0]).all()
        ctx.glCompressedTexImage2D(T2, 0, E.GL_RGBA_S3TC, 4, 4, 0, 8, dxt1)
        expect(ctx, E.GL_INVALID_VALUE)                          # DXT3 blocks are 16 bytes
        # glTexImage2D: the GL compresses into the S3TC blocks of the name
        img = np.zeros((4, 8, 4), np.float32)
        img[:, :4], img[:, 4:] = [1, 0, 0, 1], [0, 0, 1, 0.5]
        ctx.glTexImage2D(T2, 0, E.GL_RGBA_S3TC, 8, 4, 0, E.GL_RGBA, E.GL_FLOAT, img.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE) == [32]
        got = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 8, 4)
    np.testing.assert_allclose(got, img, atol=1 / 30)           # DXT3's alpha: 4 bits
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, E.GL_RGB_S3TC, 4, 4, 0, 8, dxt1)
        expect(ctx, E.GL_INVALID_ENUM)
