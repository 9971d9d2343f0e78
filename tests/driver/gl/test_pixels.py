"""Pixel transfers through layout's format table (GL 4.6 section 8.4.4)."""

import numpy as np

from driver.gl import enums as E
from driver.gl.pixels import client_format, image_size_B, read_client_image, write_client_image
from driver.gl.state import PixelStore
from tests.driver.gl.test_textures import tex


def test_client_formats():
    assert client_format(E.GL_RGBA, E.GL_UNSIGNED_BYTE) == "R8G8B8A8_UNORM"
    assert client_format(E.GL_BGRA, E.GL_UNSIGNED_BYTE) == "B8G8R8A8_UNORM"
    assert client_format(E.GL_RGBA_INTEGER, E.GL_SHORT) == "R16G16B16A16_SINT"
    assert client_format(E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5) == "B5G6R5_UNORM"
    assert client_format(E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4) == "A4B4G4R4_UNORM"


def test_image_size_with_unpack_state():
    # GL 4.6 section 8.4.4.1: rows padded to ALIGNMENT, skips in front
    st = PixelStore(alignment=4, row_length=5, skip_rows=1, skip_pixels=2)
    # row = ceil(5*3/4)*4 = 16 B; first = 1*16 + 2*3 = 22; + 1 row + 3 px * 3 B
    assert image_size_B(st, E.GL_RGB, E.GL_UNSIGNED_BYTE, 3, 2, 1) == 22 + 16 + 9


def test_read_and_write_roundtrip_with_padding():
    st = PixelStore(alignment=4)
    raw = bytes([10, 20, 30, 40, 50, 60, 0, 0, 70, 80, 90, 100, 110, 120])   # 2x2 RGB8
    rgba = read_client_image(raw, st, E.GL_RGB, E.GL_UNSIGNED_BYTE, 2, 2, 1)
    assert rgba.shape == (1, 2, 2, 4)
    assert np.allclose(rgba[0, 1, 0], [70 / 255, 80 / 255, 90 / 255, 1.0])
    out = write_client_image(rgba, st, E.GL_RGB, E.GL_UNSIGNED_BYTE)
    assert out == raw


def test_packed_565_decodes_msb_red():
    st = PixelStore(alignment=1)
    raw = np.array([0xF800], np.uint16).tobytes()            # GL: red in bits 11-15
    rgba = read_client_image(raw, st, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5, 1, 1, 1)
    assert np.allclose(rgba[0, 0, 0], [1, 0, 0, 1])


def test_tex_image_converts_to_the_resource_format(es3):
    t = tex(es3)
    es3.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    es3.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA16F, 1, 1, 0, E.GL_RGBA, E.GL_FLOAT,
                     np.array([0.5, -2.0, 1.0, 0.25], np.float32))
    es3.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    res = es3._texture_resource(es3.textures.get(t))
    half = np.frombuffer(bytes(res.levels[0][3]), np.float16)
    assert list(half) == [0.5, -2.0, 1.0, 0.25]
