"""Block-compressed textures through driver.Context: glCompressedTexImage2D/3D and
SubImage, glGetCompressedTexImage (the stored blocks), glGetTexImage (decoded
texels), the COMPRESSED_TEXTURE_FORMATS query, and a draw sampling the texture.
Blocks and their texels are worked out by hand from the S3TC/RGTC/ETC specs."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl import formats as F

from .helpers import expect
from .test_formats_internal import _draw_sampled, _texture

T2 = E.GL_TEXTURE_2D

# BC1, c0 = 0xF800 (red) > c1 = 0x001F (blue): four colours red, blue, 2/3 red + 1/3 blue
# (170, 0, 85) and 1/3 red + 2/3 blue (85, 0, 170). Row 0 indices 0, 1, 2, 3; rows 1-3 index 1.
DXT1_BLOCK = bytes.fromhex("00f81f00e4555555")
DXT1_ROW0 = [[255, 0, 0, 255], [0, 0, 255, 255], [170, 0, 85, 255], [85, 0, 170, 255]]
# BC4: e0 = 200 > e1 = 100, eight values; row 0 indices 0, 1, 2, 7: 200, 100, (6*200+100)/7, (200+6*100)/7
RGTC1_BLOCK = bytes.fromhex("c864880e00000000")
RGTC1_ROW0 = [200, 100, 1300 / 7, 800 / 7]


def test_dxt1_upload_query_read_and_draw():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        assert F.GL_COMPRESSED_RGB_S3TC_DXT1_EXT in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        assert ctx.glGetIntegerv(E.GL_NUM_COMPRESSED_TEXTURE_FORMATS)[0] == \
            len(ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS))
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, F.GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 4, 4, 0, 8, DXT1_BLOCK)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_COMPRESSED) == [1]
        assert ctx.glGetCompressedTexImage(T2, 0) == DXT1_BLOCK
        texels = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)
        drawn = _draw_sampled(ctx, 4, 4)
    assert texels[0].tolist() == DXT1_ROW0
    assert (texels[1:] == [0, 0, 255, 255]).all()
    assert drawn.tolist() == texels.astype(np.int64).tolist()


def test_rgtc_signed_and_unsigned_sampled_gles():
    snorm = bytes.fromhex("807faa0f00000000")   # e0 = -128 (reads -127) < e1 = 127: six values
    with driver.Context(api="gles3", width=4, height=1) as ctx:
        # accepted, but not a general-purpose format: not in COMPRESSED_TEXTURE_FORMATS
        assert E.GL_COMPRESSED_RED_RGTC1 not in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, E.GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, RGTC1_BLOCK)
        got = _draw_sampled(ctx, 4, 1, es=True)
        ctx.glCompressedTexImage2D(T2, 0, E.GL_COMPRESSED_SIGNED_RED_RGTC1, 4, 4, 0, 8, snorm)
        got_s = _draw_sampled(ctx, 4, 1, "vec4(t.r * 0.5 + 0.5, 0.0, 0.0, 1.0)", es=True)
        expect(ctx, E.GL_NO_ERROR)
    assert got[0, :, 0].tolist() == [round(v) for v in RGTC1_ROW0]
    assert got[0, :, 3].tolist() == [255] * 4
    # row 0 indices 2, 5, 6, 7 in six-value mode: (4*-127 + 127)/5/127 = -0.6, 0.6, then the
    # range's ends -1 and 1; drawn as t * 0.5 + 0.5
    assert got_s[0, :, 0].tolist() == [round(0.2 * 255), round(0.8 * 255), 0, 255]


def test_compressed_sub_image_array_and_errors():
    """A 2D array of two 8x4 layers: SubImage3D replaces one block of layer 1; the
    stored blocks read back in order; unaligned regions and wrong sizes are errors."""
    red = bytes.fromhex("00f8000000000000")        # c0 = red, c1 = black, every index 0
    blue = bytes.fromhex("1f00000000000000")
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, t)
        fmt = E.GL_COMPRESSED_RG_RGTC2
        ctx.glCompressedTexImage3D(E.GL_TEXTURE_2D_ARRAY, 0, F.GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, 4, 2, 0,
                                   32, red * 4)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glCompressedTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 4, 0, 1, 4, 4, 1,
                                      F.GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, blue)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetCompressedTexImage(E.GL_TEXTURE_2D_ARRAY, 0) == red * 3 + blue
        ctx.glCompressedTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 2, 0, 0, 4, 4, 1,
                                      F.GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, blue)
        expect(ctx, E.GL_INVALID_OPERATION)                 # not block aligned
        ctx.glCompressedTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 1,
                                      F.GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 7, blue)
        expect(ctx, E.GL_INVALID_VALUE)                     # imageSize
        ctx.glCompressedTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 1, fmt, 16, bytes(16))
        expect(ctx, E.GL_INVALID_OPERATION)                 # format differs from the image
        assert ctx.glGetCompressedTexImage(E.GL_TEXTURE_2D_ARRAY, 0) == red * 3 + blue


@pytest.mark.parametrize("api", ["gles2", "gles3"])
def test_etc1_in_gles(api):
    # ETC1 individual mode, base colours (8,8,8)<<4|... : R1 = R2 = 0x8, table 0, all indices 0
    # -> 0x88 + 2 = 138 in every channel (ETC1: 4-bit base 8 -> 0x88 = 136; modifier +2)
    block = bytes.fromhex("8888880000000000")
    with driver.Context(api=api, width=4, height=4) as ctx:
        assert F.GL_ETC1_RGB8_OES in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, F.GL_ETC1_RGB8_OES, 4, 4, 0, 8, block)
        expect(ctx, E.GL_NO_ERROR)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        assert F.GL_ETC1_RGB8_OES not in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, F.GL_ETC1_RGB8_OES, 4, 4, 0, 8, block)
        expect(ctx, E.GL_INVALID_ENUM)


def test_bc7_sampled_in_a_draw_and_read_back():
    from tests.layout.test_bptc import mode1_block, mode6_block
    blocks = np.concatenate([mode6_block(), mode1_block()]).tobytes()    # an 8x4 image, two blocks
    with driver.Context(api="gl43", width=8, height=4) as ctx:
        assert E.GL_COMPRESSED_RGBA_BPTC_UNORM in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, E.GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 4, 0, 32, blocks)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetCompressedTexImage(T2, 0) == blocks
        texels = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 8, 4)
        drawn = _draw_sampled(ctx, 8, 4)
    assert texels[0, :3].tolist() == [[1, 255, 129, 255], [255, 1, 129, 255], [136, 120, 129, 255]]
    assert texels[3, 4].tolist() == [107, 0, 129, 255] and texels[1, 4].tolist() == [2, 2, 131, 255]
    assert drawn.tolist() == texels.astype(np.int64).tolist()


def test_bc6h_read_back_and_sampled():
    from tests.layout.test_bptc import pack_fields
    block = pack_fields([(3, 5), (0, 10), (0, 10), (0, 10), (1023, 10), (512, 10), (0, 10),
                         (0, 3), (15, 4), (8, 4)] + [(0, 4)] * 13).tobytes()     # see tests/layout/test_bptc.py
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        assert E.GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, E.GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, 4, 4, 0, 16, block)
        expect(ctx, E.GL_NO_ERROR)
        rgb = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGB, E.GL_FLOAT), np.float32).reshape(4, 4, 3)
        drawn = _draw_sampled(ctx, 4, 4, "vec4(t.r / 65504.0, t.g / 4.0, t.b, 1.0)")
    assert rgb[0, :3].tolist() == [[0, 0, 0], [65504.0, 1 + 527 / 1024, 0], [2 * (1 + 479 / 1024),
                                                                            2 ** -7 * (1 + 248 / 1024), 0]]
    assert drawn[0, :2].tolist() == [[0, 0, 0, 255], [255, round((1 + 527 / 1024) / 4 * 255), 0, 255]]


@pytest.mark.parametrize("api,case,srgb", [("gles3", "6x5_patches_ldr", False), ("gl43", "12x12_noise_srgb", True),
                                           ("gles3", "8x5_la_ldr", False)])
def test_astc_read_back_and_sampled(api, case, srgb):
    """Blocks encoded by ARM's astcenc (tests/layout/data): the texture reads back as
    astcenc decodes it and a draw samples the same texels."""
    from pathlib import Path
    import layout
    data = np.load(Path(__file__).parents[2] / "layout" / "data" / "astc_reference.npz")
    blocks, texels = data[case + "_blocks"], data[case + "_texels"]
    bw, bh = (int(v) for v in case.split("_")[0].split("x"))
    h, w = texels.shape[:2]
    enum = (F.GL_COMPRESSED_SRGB8_ALPHA8_ASTC if srgb else F.GL_COMPRESSED_RGBA_ASTC)[(bw, bh)]
    with driver.Context(api=api, width=w, height=h) as ctx:
        # listed among the general-purpose formats in GLES (as Mesa), accepted in both APIs
        assert (enum in ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)) == api.startswith("gles")
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, enum, w, h, 0, blocks.size, blocks.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        drawn = _draw_sampled(ctx, w, h, es=api.startswith("gles"))
        if not api.startswith("gles"):
            assert ctx.glGetCompressedTexImage(T2, 0) == blocks.tobytes()
            got = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(h, w, 4)
            assert np.array_equal(got, texels)         # sRGB read back encoded, as astcenc gives it
    # the draw samples linear values and writes them to an RGBA8 window
    fmt = f"ASTC_{bw}x{bh}" + ("_SRGB" if srgb else "")
    linear = layout.decompress_image(fmt, blocks)
    assert np.abs(drawn - np.rint(linear * 255)).max() <= 1
    if not srgb:
        assert np.abs(drawn - texels.astype(np.float64) * 255).max() <= 1


def test_compressed_image_size_query():
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, E.GL_COMPRESSED_RGBA_BPTC_UNORM, 9, 5, 0, 3 * 2 * 16, bytes(96))
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE) == [96]   # 3 x 2 blocks
        ctx.glTexImage2D(T2, 1, E.GL_RGBA8, 4, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        ctx.glGetTexLevelParameteriv(T2, 1, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_tex_storage_of_a_compressed_format_then_sub_images():
    """GLES 3's usual path: immutable ETC2 storage, levels filled by CompressedTexSubImage2D."""
    red = bytes.fromhex("f8000002ffff0000")        # ETC2 individual mode, base (31, 0, 0) table 0 idx 0
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glTexStorage2D(T2, 2, E.GL_COMPRESSED_RGB8_ETC2, 8, 4)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glCompressedTexSubImage2D(T2, 0, 0, 0, 8, 4, E.GL_COMPRESSED_RGB8_ETC2, 16, red * 2)
        ctx.glCompressedTexSubImage2D(T2, 1, 0, 0, 4, 2, E.GL_COMPRESSED_RGB8_ETC2, 8, red)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_IMMUTABLE_FORMAT) == [1]
        drawn = _draw_sampled(ctx, 4, 4, es=True)
        ctx.glTexSubImage2D(T2, 0, 0, 0, 4, 4, E.GL_RGB, E.GL_UNSIGNED_BYTE, bytes(48))
        expect(ctx, E.GL_INVALID_OPERATION)                 # no uncompressed upload into it
    import layout
    want = np.rint(layout.decompress("ETC2_RGB8", np.frombuffer(red, np.uint8)[None])[0] * 255)
    assert drawn.tolist() == want.astype(np.int64).tolist()


def test_what_compressed_images_refuse():
    """Mipmap generation of a format the GL does not encode (ETC2: S3TC, RGTC and
    BPTC levels are generated, test_compressed_mipmaps.py) and copies from the
    framebuffer into a compressed image are INVALID_OPERATION, and change nothing."""
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        _texture(ctx)
        etc2 = bytes.fromhex("f8000002ffff0000")
        ctx.glCompressedTexImage2D(T2, 0, E.GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 32, etc2 * 4)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glGenerateMipmap(T2)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glGetTexLevelParameteriv(T2, 1, E.GL_TEXTURE_WIDTH) == [0]
        ctx.glCompressedTexImage2D(T2, 0, F.GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 8, 8, 0, 32, DXT1_BLOCK * 4)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glCopyTexSubImage2D(T2, 0, 0, 0, 0, 0, 4, 4)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glGetCompressedTexImage(T2, 0) == DXT1_BLOCK * 4
        assert ctx.glGetTexLevelParameteriv(T2, 1, E.GL_TEXTURE_WIDTH) == [0]


def test_astc_and_etc2_take_compressed_data_only_on_desktop():
    """KHR_texture_compression_astc_ldr (and Mesa for ETC2/EAC): glTexImage2D of an ASTC
    or ETC2 internal format is INVALID_OPERATION (the GL does not compress into them), not
    the INVALID_VALUE of an unknown format; no image is made."""
    astc = F.GL_COMPRESSED_RGBA_ASTC[(4, 4)]
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        _texture(ctx)
        for enum in (astc, E.GL_COMPRESSED_RGBA8_ETC2_EAC):
            ctx.glTexImage2D(T2, 0, enum, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
            expect(ctx, E.GL_INVALID_OPERATION)
            assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_WIDTH) == [0]
        ctx.glTexImage2D(T2, 0, 0x1234, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        expect(ctx, E.GL_INVALID_VALUE)


@pytest.mark.parametrize("api", ["gles2", "gles3", "gles32"])
def test_gles_teximage_of_astc_and_etc2_is_invalid_value(api):
    """GLES (2.0, 3.0, 3.2 section 8.5): glTexImage2D takes only the internal formats of
    its unsized/sized tables; a specific compressed format (ASTC, ETC2/EAC) is an
    unknown internal format there: INVALID_VALUE (desktop GL's INVALID_OPERATION,
    above, is not GLES'), no image made."""
    astc = F.GL_COMPRESSED_RGBA_ASTC[(4, 4)]
    with driver.Context(api=api, width=4, height=4) as ctx:
        _texture(ctx)
        for enum in (astc, E.GL_COMPRESSED_RGB8_ETC2, E.GL_COMPRESSED_R11_EAC):
            ctx.glTexImage2D(T2, 0, enum, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
            expect(ctx, E.GL_INVALID_VALUE)
        if api == "gles32":                        # (the level query is GLES 3.1's)
            assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_WIDTH) == [0]


def test_compressed_cube_map_array_needs_square_faces_and_whole_cubes():
    """glCompressedTexImage3D(TEXTURE_CUBE_MAP_ARRAY): width != height and a depth that
    is not a multiple of 6 are INVALID_VALUE (KHR_texture_compression_astc_ldr; GL 4.6
    section 8.5 for the cube map array's layer-faces), as for uncompressed images."""
    astc = F.GL_COMPRESSED_RGBA_ASTC[(4, 4)]
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP_ARRAY, t)
        for w, h, d in ((4, 3, 6), (4, 4, 5)):
            blocks = -(-w // 4) * -(-h // 4) * d
            ctx.glCompressedTexImage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, astc, w, h, d, 0, 16 * blocks,
                                       bytes(16 * blocks))
            expect(ctx, E.GL_INVALID_VALUE)
        ctx.glCompressedTexImage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, astc, 4, 4, 6, 0, 96, bytes(96))
        expect(ctx, E.GL_NO_ERROR)
