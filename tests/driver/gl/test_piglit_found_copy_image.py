"""glCopyImageSubData's errors found in the wrong order or kind by piglit's
arb_copy_image-api_errors (GL 4.6 section 18.3.3; the order is Mesa's, which the
test follows): a name never generated is INVALID_VALUE, a generated texture or
renderbuffer without an image is INVALID_OPERATION (it was INVALID_VALUE); offsets
and sizes off a compressed image's 4 x 4 block grid are INVALID_VALUE, checked
before the formats' compatibility (INVALID_OPERATION), so a misaligned copy between
incompatible images reports the misalignment."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

T2 = E.GL_TEXTURE_2D
DXT3 = 0x83F2                   # GL_COMPRESSED_RGBA_S3TC_DXT3_EXT: 16-byte 4 x 4 blocks


def _storage(g, internal, w, h):
    t = g.glGenTextures(1)[0]
    g.glBindTexture(T2, t)
    g.glTexStorage2D(T2, 1, internal, w, h)
    return t


def _copy(g, src, dst, sx=0, sy=0, w=4, h=4, src_target=T2, dst_target=T2):
    g.glCopyImageSubData(src, src_target, 0, sx, sy, 0, dst, dst_target, 0, 0, 0, 0, w, h, 1)
    return g.glGetError()


def test_names_without_images_and_names_never_generated():
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        full = _storage(g, E.GL_RGBA8, 8, 8)
        (reserved,) = g.glGenTextures(1)
        assert _copy(g, reserved, full) == E.GL_INVALID_OPERATION          # no image yet
        assert _copy(g, full, reserved) == E.GL_INVALID_OPERATION
        assert _copy(g, 4523, full) == E.GL_INVALID_VALUE                  # never generated
        (rb,) = g.glGenRenderbuffers(1)
        assert _copy(g, rb, full, src_target=E.GL_RENDERBUFFER) == E.GL_INVALID_OPERATION
        g.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)                        # an object, no storage
        assert _copy(g, rb, full, src_target=E.GL_RENDERBUFFER) == E.GL_INVALID_OPERATION
        assert _copy(g, 4523, full, src_target=E.GL_RENDERBUFFER) == E.GL_INVALID_VALUE
        g.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 8, 8)
        assert _copy(g, rb, full, src_target=E.GL_RENDERBUFFER) == E.GL_NO_ERROR
        assert _copy(g, full, full, src_target=E.GL_TEXTURE_3D) == E.GL_INVALID_ENUM


def test_the_compressed_block_grid_before_format_compatibility():
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        if "GL_EXT_texture_compression_s3tc" not in g.glGetString(E.GL_EXTENSIONS).split():
            pytest.skip("S3TC not listed")
        dxt3 = _storage(g, DXT3, 16, 16)
        rgba16ui = _storage(g, E.GL_RGBA16UI, 8, 8)       # 8-byte texels: not a DXT3 block's 16
        rgba32ui = _storage(g, E.GL_RGBA32UI, 8, 8)       # 16-byte texels: one per block
        for sx, sy, w, h in ((0, 0, 5, 4), (0, 0, 4, 6), (2, 0, 4, 4), (0, 1, 4, 4)):
            assert _copy(g, dxt3, rgba16ui, sx, sy, w, h) == E.GL_INVALID_VALUE, (sx, sy, w, h)
            assert _copy(g, dxt3, rgba32ui, sx, sy, w, h) == E.GL_INVALID_VALUE, (sx, sy, w, h)
        assert _copy(g, dxt3, rgba16ui, 4, 4, 8, 8) == E.GL_INVALID_OPERATION      # aligned, incompatible
        other = _storage(g, DXT3, 16, 16)
        assert _copy(g, dxt3, other, 4, 4, 8, 8) == E.GL_NO_ERROR                  # on the grid
        assert _copy(g, dxt3, other, 0, 0, 20, 4) == E.GL_INVALID_VALUE            # past the edge


DXT1 = 0x83F1                   # GL_COMPRESSED_RGBA_S3TC_DXT1_EXT: 8-byte 4 x 4 blocks
DXT1_SRGB = 0x8C4D              # GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT


@pytest.mark.parametrize("compressed", [DXT1, DXT1_SRGB])
def test_copies_between_compressed_blocks_and_uncompressed_texels(compressed):
    """A texel of an 8-byte format is one DXT1 block: 2 x 2 texels copy into the 8 x 8
    pixels of 2 x 2 blocks and back, bytes unchanged (piglit arb_copy_image-formats;
    the copy failed with an internal error, sRGB blocks already looking up their format)."""
    rng = np.random.default_rng(7)
    blocks = rng.integers(0, 256, (4, 4, 8), np.uint8)          # a 16 x 16 image: 4 x 4 blocks
    texels = rng.integers(0, 256, (4, 4, 8), np.uint8)          # RGBA16UI 4 x 4
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        if "GL_EXT_texture_compression_s3tc" not in g.glGetString(E.GL_EXTENSIONS).split():
            pytest.skip("S3TC not listed")
        comp = _storage(g, compressed, 16, 16)
        g.glCompressedTexSubImage2D(T2, 0, 0, 0, 16, 16, compressed, blocks.nbytes, blocks.tobytes())
        unc = _storage(g, E.GL_RGBA16UI, 4, 4)
        g.glTexSubImage2D(T2, 0, 0, 0, 4, 4, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_SHORT, texels.tobytes())
        # texels (1, 1)-(2, 2) -> the blocks at pixels (8, 4)-(15, 11), i.e. blocks (2, 1)-(3, 2)
        g.glCopyImageSubData(unc, T2, 0, 1, 1, 0, comp, T2, 0, 8, 4, 0, 2, 2, 1)
        assert g.glGetError() == E.GL_NO_ERROR
        g.glBindTexture(T2, comp)
        got = np.frombuffer(g.glGetCompressedTexImage(T2, 0), np.uint8).reshape(4, 4, 8)
        want = blocks.copy()
        want[1:3, 2:4] = texels[1:3, 1:3]
        np.testing.assert_array_equal(got, want)
        # and back: blocks at pixels (0, 12)-(7, 15) -> texels (2, 0)-(3, 0)
        g.glCopyImageSubData(comp, T2, 0, 0, 12, 0, unc, T2, 0, 2, 0, 0, 8, 4, 1)
        assert g.glGetError() == E.GL_NO_ERROR
        g.glBindTexture(T2, unc)
        back = np.frombuffer(g.glGetTexImage(T2, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_SHORT), np.uint8).reshape(4, 4, 8)
        want_t = texels.copy()
        want_t[0, 2:4] = want[3, 0:2]
        np.testing.assert_array_equal(back, want_t)


def test_nv_copy_image_copies_one_internal_format_only():
    """GL_NV_copy_image (listed from GL 4.3, where glCopyImageSubData is): its command copies
    between images of the same internal format; two formats of one texel size, which
    glCopyImageSubData reinterprets, are INVALID_OPERATION and change nothing (piglit
    nv_copy_image-formats, which llvmpipe passes)."""
    from driver.gl.api import API_NAMES
    from driver.gl.limits import extensions_for
    assert "GL_NV_copy_image" in extensions_for(API_NAMES["compat"])
    assert "GL_NV_copy_image" in extensions_for(API_NAMES["gl43"])
    assert "GL_NV_copy_image" not in extensions_for(API_NAMES["gl33"])
    a = np.arange(16, dtype=np.uint8).reshape(4, 4)
    b = np.full((4, 4), 200, np.uint8)
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        src = _storage(g, E.GL_R8UI, 4, 4)
        g.glTexSubImage2D(T2, 0, 0, 0, 4, 4, E.GL_RED_INTEGER, E.GL_UNSIGNED_BYTE, a.tobytes())
        same = _storage(g, E.GL_R8UI, 4, 4)
        g.glTexSubImage2D(T2, 0, 0, 0, 4, 4, E.GL_RED_INTEGER, E.GL_UNSIGNED_BYTE, b.tobytes())
        other = _storage(g, E.GL_R8I, 4, 4)
        g.glTexSubImage2D(T2, 0, 0, 0, 4, 4, E.GL_RED_INTEGER, E.GL_BYTE, (b // 2).tobytes())
        g.glCopyImageSubDataNV(src, T2, 0, 1, 1, 0, same, T2, 0, 0, 2, 0, 2, 2, 1)
        assert g.glGetError() == E.GL_NO_ERROR
        g.glCopyImageSubDataNV(src, T2, 0, 1, 1, 0, other, T2, 0, 0, 2, 0, 2, 2, 1)
        assert g.glGetError() == E.GL_INVALID_OPERATION
        g.glBindTexture(T2, same)
        got = np.frombuffer(g.glGetTexImage(T2, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4)
        want = b.copy()
        want[2:4, 0:2] = a[1:3, 1:3]
        np.testing.assert_array_equal(got, want)
        g.glBindTexture(T2, other)
        untouched = np.frombuffer(g.glGetTexImage(T2, 0, E.GL_RED_INTEGER, E.GL_BYTE), np.uint8).reshape(4, 4)
        np.testing.assert_array_equal(untouched, b // 2)
    with driver.Context("gl33", 4, 4) as c:
        c.gl.glCopyImageSubDataNV(1, T2, 0, 0, 0, 0, 1, T2, 0, 0, 0, 0, 1, 1, 1)
        assert c.gl.glGetError() == E.GL_INVALID_OPERATION
