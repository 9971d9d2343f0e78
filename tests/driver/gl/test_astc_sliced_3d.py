"""KHR_texture_compression_astc_sliced_3d: the 2D-block ASTC formats make 3D
textures too, each slice a 2D image of blocks (CompressedTexImage3D,
TexStorage3D + CompressedTexSubImage3D, glGetCompressedTexImage). Blocks are
built field by field and decoded by hand (tests/layout/test_astc.py's
encodings): a void-extent block is one RGBA16 colour, the CEM 8 block's first
row (10, 20, 30), (200, 100, 50) and the weights 21 and 43 between them. Other
compressed families stay refused in 3D."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl import formats as F
from tests.layout.test_astc import cem8_block, pack

from .helpers import expect

T3 = E.GL_TEXTURE_3D
ASTC_4x4 = F.GL_COMPRESSED_RGBA_ASTC[(4, 4)]


def void_extent(r: int, g: int, b: int, a: int) -> bytes:
    """An LDR void-extent block (mode 0x1FC, bits 10-11 set, no extent): one RGBA16 colour."""
    return pack([(0xDFC, 12), ((1 << 52) - 1, 52), (r, 16), (g, 16), (b, 16), (a, 16)]).tobytes()


def _texture_3d(ctx, max_level: int = 0) -> int:
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T3, t)
    ctx.glTexParameteri(T3, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glTexParameteri(T3, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(T3, E.GL_TEXTURE_MAX_LEVEL, max_level)
    return t


def _fetch(ctx, w: int, h: int, z: int, lod: int, es: bool = True) -> np.ndarray:
    """texelFetch of slice ``z`` of level ``lod`` over a w x h window (RGBA8, rows bottom-up)."""
    from tests.driver.agx import glhelp
    head = "#version 300 es\nprecision highp float;\n" if es else "#version 330\n"
    vs = head + "in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
    fs = (head + "uniform highp sampler3D tex; out vec4 c;\n"
          f"void main() {{ c = texelFetch(tex, ivec3(ivec2(gl_FragCoord.xy), {z}), {lod}); }}")
    prog = glhelp.program(ctx, vs, fs)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [-1, 1], [1, -1], [1, 1]], np.float32)
    glhelp.vertices(ctx, prog, quad, {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    raw = ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(h, w, 4).astype(np.int64)


def _unorm8(v16: int) -> int:
    return round(v16 / 65535 * 255)


@pytest.mark.parametrize("api", ["gles3", "gl43"])
def test_slices_decode_as_2d_images(api):
    slice0 = cem8_block((10, 200, 20, 100, 30, 50)).tobytes()
    slice1 = void_extent(0xFFFF, 0x8000, 0, 0x4000)
    es = api.startswith("gles")
    with driver.Context(api=api, width=4, height=4) as ctx:
        assert "GL_KHR_texture_compression_astc_sliced_3d" in [
            ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
        _texture_3d(ctx)
        ctx.glCompressedTexImage3D(T3, 0, ASTC_4x4, 4, 4, 2, 0, 32, slice0 + slice1)
        expect(ctx, E.GL_NO_ERROR)
        s0, s1 = _fetch(ctx, 4, 4, 0, 0, es), _fetch(ctx, 4, 4, 1, 0, es)
        if not es:
            assert ctx.glGetCompressedTexImage(T3, 0) == slice0 + slice1
    # slice 0, the CEM 8 block: row 0 of the block is texel row 0 (the image's first row)
    assert s0[0, 0].tolist() == [10, 20, 30, 255]
    assert s0[0, 1].tolist() == [200, 100, 50, 255]
    assert s0[0, 2].tolist() == [_unorm8(18592), _unorm8(11886), _unorm8(9397), 255]
    assert s0[0, 3].tolist() == [_unorm8(35378), _unorm8(18954), _unorm8(11163), 255]
    assert (s0[1:] == [10, 20, 30, 255]).all()
    # slice 1, the void extent
    assert (s1 == [255, _unorm8(0x8000), 0, _unorm8(0x4000)]).all()


def test_storage_levels_and_sub_images():
    """TexStorage3D of two levels (8x8x4, 4x4x2) filled by CompressedTexSubImage3D:
    each slice and block lands where its coordinates say."""
    with driver.Context(api="gles3", width=8, height=8) as ctx:
        _texture_3d(ctx, max_level=1)
        ctx.glTexStorage3D(T3, 2, ASTC_4x4, 8, 8, 4)
        expect(ctx, E.GL_NO_ERROR)
        # level 0: slice z, block (bx, by) has red z * 16000, green by * 60000, blue bx * 60000
        blocks = b"".join(void_extent(z * 16000, by * 60000, bx * 60000, 0xFFFF)
                          for z in range(4) for by in range(2) for bx in range(2))
        ctx.glCompressedTexSubImage3D(T3, 0, 0, 0, 0, 8, 8, 4, ASTC_4x4, len(blocks), blocks)
        # level 1: only slice 1 written (red), then slice 0 (blue)
        ctx.glCompressedTexSubImage3D(T3, 1, 0, 0, 1, 4, 4, 1, ASTC_4x4, 16, void_extent(0xFFFF, 0, 0, 0xFFFF))
        ctx.glCompressedTexSubImage3D(T3, 1, 0, 0, 0, 4, 4, 1, ASTC_4x4, 16, void_extent(0, 0, 0xFFFF, 0xFFFF))
        expect(ctx, E.GL_NO_ERROR)
        level0 = [_fetch(ctx, 8, 8, z, 0) for z in range(4)]
        level1 = [_fetch(ctx, 4, 4, z, 1) for z in range(2)]
    for z in range(4):
        for by in range(2):
            for bx in range(2):
                block = level0[z][4 * by:4 * by + 4, 4 * bx:4 * bx + 4]
                assert (block == [_unorm8(z * 16000), _unorm8(by * 60000), _unorm8(bx * 60000), 255]).all()
    assert (level1[0] == [0, 0, 255, 255]).all() and (level1[1] == [255, 0, 0, 255]).all()


def test_other_families_and_targets_stay_refused_in_3d():
    etc2_block = bytes.fromhex("f8000002ffff0000")
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        _texture_3d(ctx)
        ctx.glCompressedTexImage3D(T3, 0, E.GL_COMPRESSED_RGB8_ETC2, 4, 4, 1, 0, 8, etc2_block)
        expect(ctx, E.GL_INVALID_OPERATION)                  # ETC2 has no 3D images
        ctx.glTexStorage3D(T3, 1, E.GL_COMPRESSED_RGB8_ETC2, 4, 4, 1)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glCompressedTexImage3D(T3, 0, ASTC_4x4, 4, 4, 1, 0, 16, void_extent(0, 0, 0, 0xFFFF))
        expect(ctx, E.GL_NO_ERROR)
        ctx.glCompressedTexImage3D(T3, 0, ASTC_4x4, 4, 4, 2, 0, 16, void_extent(0, 0, 0, 0xFFFF))
        expect(ctx, E.GL_INVALID_VALUE)                      # imageSize counts every slice's blocks
