"""glGetPolygonStipple packs the pattern as a GL_BITMAP image: PACK_LSB_FIRST puts
each byte's first pixel in its least significant bit (GL 2.1 section 6.1.5, as
glPolygonStipple reads UNPACK_LSB_FIRST), also into a PIXEL_PACK buffer. Values by
hand: 0x12 = 00010010 is 01001000 = 0x48 with the bit order reversed."""

import numpy as np

from driver.gl import enums as E


def make():
    import driver
    return driver.Context(api="compat", width=4, height=4)


PATTERN = bytes([0x12, 0x01, 0x80, 0xF0] * 32)
REVERSED = bytes([0x48, 0x80, 0x01, 0x0F] * 32)


def test_pack_lsb_first_reverses_each_bytes_bits():
    c = make()
    c.glPolygonStipple(PATTERN)
    assert bytes(c.glGetPolygonStipple()) == PATTERN
    c.glPixelStorei(E.GL_PACK_LSB_FIRST, 1)
    assert bytes(c.glGetPolygonStipple()) == REVERSED
    # set LSB first, read LSB first: the same bytes; read MSB first: reversed
    c.glPixelStorei(E.GL_UNPACK_LSB_FIRST, 1)
    c.glPolygonStipple(PATTERN)
    assert bytes(c.glGetPolygonStipple()) == PATTERN
    c.glPixelStorei(E.GL_PACK_LSB_FIRST, 0)
    assert bytes(c.glGetPolygonStipple()) == REVERSED
    assert c.glGetError() == E.GL_NO_ERROR


def test_into_a_pixel_pack_buffer():
    c = make()
    c.glPolygonStipple(PATTERN)
    c.glPixelStorei(E.GL_PACK_LSB_FIRST, 1)
    buf = c.glGenBuffers(1)[0]
    c.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, buf)
    c.glBufferData(E.GL_PIXEL_PACK_BUFFER, 136, None, E.GL_STREAM_READ)
    assert c.glGetPolygonStipple(8) is None
    got = np.frombuffer(bytes(c.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 8, 128)), np.uint8)
    assert got.tobytes() == REVERSED
    assert c.glGetError() == E.GL_NO_ERROR
