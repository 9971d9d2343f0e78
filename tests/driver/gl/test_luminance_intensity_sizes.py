"""Component sizes of luminance and intensity textures (GL 4.6 compatibility table
23.17, as Mesa answers them and piglit's ext_texture_integer getteximage-clamping
reads them): luminance and intensity are components of their own, so
TEXTURE_RED/GREEN/BLUE_SIZE are 0 for them and TEXTURE_ALPHA_SIZE is 0 for
intensity; glGetTexImage returns (L or I, 0, 0, A or 1)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

T2 = E.GL_TEXTURE_2D
# EXT_texture_integer tokens
GL_INTENSITY32I_EXT, GL_LUMINANCE_ALPHA32UI_EXT, GL_LUMINANCE_ALPHA_INTEGER_EXT = 0x8D85, 0x8D75, 0x8D9D
SIZES = (E.GL_TEXTURE_LUMINANCE_SIZE, E.GL_TEXTURE_INTENSITY_SIZE, E.GL_TEXTURE_RED_SIZE,
         E.GL_TEXTURE_GREEN_SIZE, E.GL_TEXTURE_BLUE_SIZE, E.GL_TEXTURE_ALPHA_SIZE)


@pytest.mark.parametrize("ifmt, fmt, type, want", [
    # (L, I, R, G, B, A) sizes
    (E.GL_LUMINANCE8, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE, (8, 0, 0, 0, 0, 0)),
    (E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE, (8, 0, 0, 0, 0, 8)),
    (E.GL_INTENSITY16, E.GL_LUMINANCE, E.GL_UNSIGNED_SHORT, (0, 16, 0, 0, 0, 0)),
    (GL_INTENSITY32I_EXT, E.GL_RED_INTEGER, E.GL_INT, (0, 32, 0, 0, 0, 0)),
    (GL_LUMINANCE_ALPHA32UI_EXT, GL_LUMINANCE_ALPHA_INTEGER_EXT, E.GL_UNSIGNED_INT, (32, 0, 0, 0, 0, 32)),
    (E.GL_RGBA8, E.GL_RGBA, E.GL_UNSIGNED_BYTE, (0, 0, 8, 8, 8, 8)),     # unchanged
])
def test_sizes(ifmt, fmt, type, want):
    ctx = driver.Context(api="compat", width=1, height=1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, ifmt, 1, 1, 0, fmt, type, None)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = tuple(ctx.glGetTexLevelParameteriv(T2, 0, p)[0] for p in SIZES)
    assert got == want
    red_type = ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_RED_TYPE)[0]
    assert (red_type == E.GL_NONE) == (ifmt != E.GL_RGBA8)


def test_intensity_integer_texture_reads_back_i_0_0_1():
    """An INTENSITY32I texture given RGBA texels keeps R as I: GetTexImage as
    RGBA_INTEGER gives (I, 0, 0, 1) (piglit getteximage-clamping's expectation)."""
    ctx = driver.Context(api="compat", width=1, height=1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    texels = np.array([[0x7FFFFFFF, -5, 6, 7], [-0x80000000, 1, 2, 0x7FFFFFFF]], np.int32)
    ctx.glTexImage2D(T2, 0, GL_INTENSITY32I_EXT, 2, 1, 0, E.GL_RGBA_INTEGER, E.GL_INT, texels)
    back = np.frombuffer(ctx.glGetTexImage(T2, 0, E.GL_RGBA_INTEGER, E.GL_INT), np.int32).reshape(2, 4)
    assert back.tolist() == [[0x7FFFFFFF, 0, 0, 1], [-0x80000000, 0, 0, 1]]
