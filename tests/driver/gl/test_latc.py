"""GL_EXT_texture_compression_latc (compatibility profile): the four LATC formats
are RGTC's BC4/BC5 blocks read as luminance (LATC1: L) and luminance-alpha
(LATC2: L then A). Sampling gives (L, L, L, 1) / (L, L, L, A) (the luminance base
formats' rule, GL 4.6 compatibility table 15.1); reading the image back gives
(L, 0, 0, A) (section 8.11.4 places L in red). Blocks are written by hand from
the BC4 rules: e0 > e1 gives eight values, index 0 is e0 and index 1 e1."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_formats_internal import _draw_sampled, _texture

T2 = E.GL_TEXTURE_2D
LATC1, SLATC1, LATC2, SLATC2 = 0x8C70, 0x8C71, 0x8C72, 0x8C73


def _bc4(e0: int, e1: int, index_of_pixel) -> bytes:
    """A BC4 block: endpoints e0, e1 (bytes) and 3-bit indices per pixel (row-major)."""
    bits = 0
    for p in range(16):
        bits |= index_of_pixel(p) << (3 * p)
    return bytes([e0 & 0xFF, e1 & 0xFF]) + bits.to_bytes(6, "little")


# luminance: left half 200 (index 0), right half 100 (index 1); alpha 255 at the top rows, 51 below
LUM = _bc4(200, 100, lambda p: 0 if p % 4 < 2 else 1)
ALPHA = _bc4(255, 51, lambda p: 0 if p // 4 < 2 else 1)


def test_latc_is_listed_in_compatibility_contexts_only():
    for api, listed in (("compat", True), ("gl46", False)):
        with driver.Context(api=api, width=4, height=4) as ctx:
            names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
            assert ("GL_EXT_texture_compression_latc" in names) == listed
            _texture(ctx)
            ctx.glCompressedTexImage2D(T2, 0, LATC1, 4, 4, 0, 8, LUM)
            expect(ctx, E.GL_NO_ERROR if listed else E.GL_INVALID_ENUM)


@pytest.mark.parametrize("fmt,blocks,alpha", [(LATC1, LUM, None), (LATC2, LUM + ALPHA, True)])
def test_latc_samples_as_luminance_and_reads_back_in_red(fmt, blocks, alpha):
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        ctx.glCompressedTexImage2D(T2, 0, fmt, 4, 4, 0, len(blocks), blocks)
        expect(ctx, E.GL_NO_ERROR)
        lum = np.where(np.arange(4) < 2, 200, 100)[None, :].repeat(4, 0)            # [y, x]
        a = np.where(np.arange(4) < 2, 255, 51)[:, None].repeat(4, 1) if alpha else np.full((4, 4), 255)
        drawn = _draw_sampled(ctx, 4, 4)                    # rows bottom-up = texel rows
        assert (drawn[..., 0] == lum).all() and (drawn[..., 1] == lum).all() and (drawn[..., 2] == lum).all()
        assert (drawn[..., 3] == a).all()
        back = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)
        assert (back[..., 0] == lum).all() and (back[..., 1:3] == 0).all() and (back[..., 3] == a).all()
        q = lambda p: ctx.glGetTexLevelParameteriv(T2, 0, p)[0]     # noqa: E731
        assert (q(E.GL_TEXTURE_LUMINANCE_SIZE), q(E.GL_TEXTURE_RED_SIZE), q(E.GL_TEXTURE_ALPHA_SIZE)) == \
            (8, 0, 8 if alpha else 0)


def test_signed_latc_and_the_gl_compressing_into_latc():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _texture(ctx)
        # signed: e0 = 127 (1.0) > e1 = -64 (-64/127); left half 1.0, right half -64/127
        block = _bc4(127, -64, lambda p: 0 if p % 4 < 2 else 1)
        ctx.glCompressedTexImage2D(T2, 0, SLATC1, 4, 4, 0, 8, block)
        back = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RED, E.GL_FLOAT), np.float32).reshape(4, 4)
        np.testing.assert_allclose(back, np.where(np.arange(4) < 2, 1.0, -64 / 127)[None].repeat(4, 0), atol=1e-6)
        # glTexImage2D of RGBA data into LATC2: luminance from red, alpha from alpha (two values each: exact)
        img = np.zeros((4, 4, 4), np.float32)
        img[..., 0] = np.where(np.arange(4) < 2, 0.8, 0.2)[None]
        img[..., 3] = np.where(np.arange(4) < 2, 1.0, 0.4)[:, None]
        ctx.glTexImage2D(T2, 0, SLATC2, 4, 4, 0, E.GL_RGBA, E.GL_FLOAT, img.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        back = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4, 4)
        np.testing.assert_allclose(back[..., 0], np.rint(img[..., 0] * 127) / 127, atol=1e-6)
        np.testing.assert_allclose(back[..., 3], np.rint(img[..., 3] * 127) / 127, atol=1e-6)
