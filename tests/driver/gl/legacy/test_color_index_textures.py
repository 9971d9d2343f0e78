"""glTexImage* / glTexSubImage* of GL_COLOR_INDEX images in the compatibility profile
(GL 2.1 section 3.8.1): the indices become RGBA through the index transfer of section
3.6.5 as glDrawPixels' do (INDEX_SHIFT / INDEX_OFFSET, then the PIXEL_MAP_I_TO_x
tables, whether MAP_COLOR is on or not); a GL_BITMAP image is one index bit a texel.
They were INVALID_ENUM (piglit's gl-1.1-read-pixels-after-display-list). Expected texels
worked out by hand from the maps."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

MAPS = {E.GL_PIXEL_MAP_I_TO_R: [0.0, 1.0, 0.0, 1.0], E.GL_PIXEL_MAP_I_TO_G: [0.0, 0.0, 1.0, 1.0],
        E.GL_PIXEL_MAP_I_TO_B: [1.0, 0.0, 0.0, 0.0], E.GL_PIXEL_MAP_I_TO_A: [1.0, 1.0, 1.0, 0.0]}


def _ctx():
    c = driver.Context(api="compat", width=4, height=4)
    for m, v in MAPS.items():
        c.glPixelMapfv(m, 4, v)
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    c.glBindTexture(E.GL_TEXTURE_2D, c.glGenTextures(1)[0])
    return c


def _texels(c, w):
    return list(bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)))[:4 * w]


@pytest.mark.parametrize("bits, want", [(0x8F, [255, 0, 0, 255]), (0x70, [0, 0, 255, 255])])
def test_a_bitmap_texel_is_index_0_or_1(bits, want):
    """The first (most significant) bit is the 1x1 image's index: 1 -> map entry 1 (red),
    0 -> entry 0 (blue)."""
    with _ctx() as c:
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 1, 1, 0, E.GL_COLOR_INDEX, E.GL_BITMAP, bytes([bits]))
        assert c.glGetError() == E.GL_NO_ERROR
        assert _texels(c, 1) == want


def test_byte_indices_with_offset_and_sub_image():
    """Indices 0, 1, 2, 3 with INDEX_OFFSET 1 look up entries 1, 2, 3, 0 (masked to the
    4-entry maps); glTexSubImage2D of index 3 (offset 1 -> 0) at texel 2."""
    with _ctx() as c:
        c.glPixelTransferi(E.GL_INDEX_OFFSET, 1)
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 1, 0, E.GL_COLOR_INDEX, E.GL_UNSIGNED_BYTE,
                       bytes([0, 1, 2, 3]))
        c.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 2, 0, 1, 1, E.GL_COLOR_INDEX, E.GL_UNSIGNED_BYTE, bytes([3]))
        assert c.glGetError() == E.GL_NO_ERROR
        got = _texels(c, 4)
    entry = lambda i: [round(255 * MAPS[m][i]) for m in MAPS]      # noqa: E731
    assert got == entry(1) + entry(2) + entry(0) + entry(0)


def test_color_index_is_refused_in_the_core_profile():
    with driver.Context(api="gl46", width=4, height=4) as c:
        c.glBindTexture(E.GL_TEXTURE_2D, c.glGenTextures(1)[0])
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_COLOR_INDEX, E.GL_UNSIGNED_BYTE, bytes(4))
        assert c.glGetError() == E.GL_INVALID_ENUM
