"""GL_UNPACK_SWAP_BYTES / GL_PACK_SWAP_BYTES (GL 4.6 section 8.4.4.1, desktop GL): the
bytes of each element are reversed - a component of the plain types, the whole pixel of
a packed type - when client images are read (glDrawPixels, glTexImage*) and written
(glReadPixels, glGetTexImage). The state was kept but never applied (piglit's
draw-pixels failed every multi-byte type with swapping on). And table 8.5's packed
types take RGB / RGBA / BGRA only: BGR with UNSIGNED_BYTE_3_3_2 or UNSIGNED_SHORT_5_6_5
is INVALID_OPERATION (it was INVALID_ENUM). Expected values computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E


def _ctx():
    return driver.Context(api="compat", width=4, height=4)


@pytest.mark.parametrize("swap, want", [(0, 0x12), (1, 0x34)])
def test_draw_pixels_swaps_each_component(swap, want):
    """Unsigned short 0x1234 (bytes 34 12): red 0x1234/65535 -> 0x12 (18); swapped
    0x3412 -> 0x34 (52) in an 8-bit buffer."""
    with _ctx() as c:
        c.glPixelStorei(E.GL_UNPACK_SWAP_BYTES, swap)
        c.glWindowPos2i(0, 0)
        c.glDrawPixels(1, 1, E.GL_RED, E.GL_UNSIGNED_SHORT, np.array([0x1234], np.uint16).tobytes())
        px = np.frombuffer(bytes(c.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert c.glGetError() == E.GL_NO_ERROR
    assert list(px) == [want, 0, 0, 255]


def test_tex_image_swaps_a_packed_pixel_whole():
    """UNSIGNED_INT_8_8_8_8 0x11223344 is R 0x11 G 0x22 B 0x33 A 0x44; with swapping the
    4-byte pixel reads 0x44332211: R 0x44 G 0x33 B 0x22 A 0x11."""
    with _ctx() as c:
        t = c.glGenTextures(1)[0]
        c.glBindTexture(E.GL_TEXTURE_2D, t)
        c.glPixelStorei(E.GL_UNPACK_SWAP_BYTES, 1)
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_INT_8_8_8_8,
                       np.array([0x11223344], np.uint32).tobytes())
        c.glPixelStorei(E.GL_UNPACK_SWAP_BYTES, 0)
        got = bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE))
        assert c.glGetError() == E.GL_NO_ERROR
    assert list(got) == [0x44, 0x33, 0x22, 0x11]


def test_read_pixels_and_get_tex_image_swap_when_packing():
    """A clear to red 1.0, green 0: read as UNSIGNED_SHORT the red is 0xFFFF either way,
    so the texture holds RG16 (0x0102, 0x0304), packed as bytes 02 01 04 03, swapped 01 02
    03 04; glReadPixels of a colour of 0.5 as GL_FLOAT 0x3F000000: bytes 00 00 00 3F,
    swapped 3F 00 00 00."""
    with _ctx() as c:
        t = c.glGenTextures(1)[0]
        c.glBindTexture(E.GL_TEXTURE_2D, t)
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RG16, 1, 1, 0, E.GL_RG, E.GL_UNSIGNED_SHORT,
                       np.array([0x0102, 0x0304], np.uint16).tobytes())
        c.glPixelStorei(E.GL_PACK_SWAP_BYTES, 1)
        got = bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RG, E.GL_UNSIGNED_SHORT))
        c.glClearColor(0.5, 0.0, 0.0, 1.0)
        c.glClear(E.GL_COLOR_BUFFER_BIT)
        red = bytes(c.glReadPixels(0, 0, 1, 1, E.GL_RED, E.GL_FLOAT))
        c.glPixelStorei(E.GL_PACK_SWAP_BYTES, 0)
        plain = bytes(c.glReadPixels(0, 0, 1, 1, E.GL_RED, E.GL_FLOAT))
        assert c.glGetError() == E.GL_NO_ERROR
    assert list(got) == [0x01, 0x02, 0x03, 0x04]
    value = np.frombuffer(plain, np.float32)[0]            # 128/255, the 8-bit buffer's 0.5
    assert abs(value - 128 / 255) < 1e-6
    assert red == plain[::-1]


@pytest.mark.parametrize("type", [E.GL_UNSIGNED_BYTE_3_3_2, E.GL_UNSIGNED_BYTE_2_3_3_REV,
                                  E.GL_UNSIGNED_SHORT_5_6_5, E.GL_UNSIGNED_SHORT_5_6_5_REV])
def test_bgr_with_a_packed_type_is_invalid_operation(type):
    with _ctx() as c:
        c.glDrawPixels(1, 1, E.GL_BGR, type, bytes(8))
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGB8, 1, 1, 0, E.GL_BGR, type, bytes(8))
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glDrawPixels(1, 1, E.GL_RGB, type, bytes(8))
        assert c.glGetError() == E.GL_NO_ERROR
