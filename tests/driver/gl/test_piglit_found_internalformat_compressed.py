"""glGetInternalformativ's INTERNALFORMAT_{RED..DEPTH}_SIZE and _TYPE of a compressed
format answer what glGetTexLevelParameteriv's TEXTURE_*_SIZE/_TYPE report for an image of
it (ARB_internalformat_query2: the same resolution; it answered 0 and NONE): piglit
arb_internalformat_query2-internalformat-size-checks and -type-checks. Values by hand
from the formats' channels (8 bits per channel of BPTC and RGTC, as Mesa reports)."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E

T2 = E.GL_TEXTURE_2D
SIZES = (E.GL_INTERNALFORMAT_RED_SIZE, E.GL_INTERNALFORMAT_GREEN_SIZE, E.GL_INTERNALFORMAT_BLUE_SIZE,
         E.GL_INTERNALFORMAT_ALPHA_SIZE, E.GL_INTERNALFORMAT_DEPTH_SIZE)
TYPES = (E.GL_INTERNALFORMAT_RED_TYPE, E.GL_INTERNALFORMAT_GREEN_TYPE, E.GL_INTERNALFORMAT_BLUE_TYPE,
         E.GL_INTERNALFORMAT_ALPHA_TYPE, E.GL_INTERNALFORMAT_DEPTH_TYPE)
LEVEL_SIZES = (E.GL_TEXTURE_RED_SIZE, E.GL_TEXTURE_GREEN_SIZE, E.GL_TEXTURE_BLUE_SIZE,
               E.GL_TEXTURE_ALPHA_SIZE, E.GL_TEXTURE_DEPTH_SIZE)
LEVEL_TYPES = (E.GL_TEXTURE_RED_TYPE, E.GL_TEXTURE_GREEN_TYPE, E.GL_TEXTURE_BLUE_TYPE,
               E.GL_TEXTURE_ALPHA_TYPE, E.GL_TEXTURE_DEPTH_TYPE)
UN, SN, NONE = E.GL_UNSIGNED_NORMALIZED, E.GL_SIGNED_NORMALIZED, E.GL_NONE


@pytest.mark.parametrize("fmt, bits, kinds, block_B", [
    (E.GL_COMPRESSED_RGBA_BPTC_UNORM, (8, 8, 8, 8, 0), (UN, UN, UN, UN, NONE), 16),
    (E.GL_COMPRESSED_RED_RGTC1, (8, 0, 0, 0, 0), (UN, NONE, NONE, NONE, NONE), 8),
    (E.GL_COMPRESSED_SIGNED_RG_RGTC2, (8, 8, 0, 0, 0), (SN, SN, NONE, NONE, NONE), 16),
])
def test_sizes_and_types_match_an_image_of_the_format(fmt, bits, kinds, block_B):
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        got_bits = [ctx.glGetInternalformativ(T2, fmt, p, 1)[0] for p in SIZES]
        got_kinds = [ctx.glGetInternalformativ(T2, fmt, p, 1)[0] for p in TYPES]
        assert tuple(got_bits) == bits and tuple(got_kinds) == kinds
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(T2, tex)
        ctx.glCompressedTexImage2D(T2, 0, fmt, 4, 4, 0, block_B, bytes(block_B))
        assert [ctx.glGetTexLevelParameteriv(T2, 0, p)[0] for p in LEVEL_SIZES] == got_bits
        assert [ctx.glGetTexLevelParameteriv(T2, 0, p)[0] for p in LEVEL_TYPES] == got_kinds
        assert ctx.glGetError() == E.GL_NO_ERROR
