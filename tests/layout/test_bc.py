"""BC1-BC5 (DXT1/3/5, RGTC1/2) decompression against blocks worked out by hand
from the S3TC and RGTC extension specifications (little-endian blocks, pixel
index 4y + x)."""

import numpy as np
import pytest

from layout import decompress


def blk(hexstr: str) -> np.ndarray:
    return np.frombuffer(bytes.fromhex(hexstr.replace(" ", "")), np.uint8)


RED, BLUE = (255, 0, 0), (0, 0, 255)


def test_bc1_four_colour_mode():
    # c0 = 0xF800 (red) > c1 = 0x001F (blue); row 0 indices 0,1,2,3; row 1 all 1.
    out = decompress("DXT1_RGB", blk("00f8 1f00 e4 55 00 00")[None], raw=True)[0]
    assert out[0].tolist() == [[255, 0, 0, 255], [0, 0, 255, 255], [170, 0, 85, 255], [85, 0, 170, 255]]
    assert (out[1, :, :3] == BLUE).all() and (out[2:, :, :3] == RED).all()


def test_bc1_three_colour_mode_and_transparency():
    # c0 = blue < c1 = red: index 2 is the midpoint, index 3 black (transparent in DXT1_RGBA).
    block = blk("1f00 00f8 e4 55 00 00")[None]
    rgb = decompress("DXT1_RGB", block)[0]
    assert rgb[0].tolist() == [[0, 0, 1, 1], [1, 0, 0, 1], [0.5, 0, 0.5, 1], [0, 0, 0, 1]]
    rgba = decompress("DXT1_RGBA", block)[0]
    assert rgba[0, 3].tolist() == [0, 0, 0, 0] and rgba[0, 2].tolist() == [0.5, 0, 0.5, 1]


def test_bc2_explicit_alpha_and_forced_four_colour_mode():
    # Alpha nibbles 0xF, 0x0, 0x8, then 0x1; colours c0 = 0 < c1 = 0x8410 (132, 130, 132),
    # still four-colour: index 2 = (44, 43.33, 44), index 3 = (88, 86.67, 88).
    out = decompress("DXT3_RGBA", blk("0f18111111111111 0000 1084 aa ff ff ff")[None], raw=True)[0]
    assert out[0].tolist() == [[44, 43, 44, 255], [44, 43, 44, 0], [44, 43, 44, 136], [44, 43, 44, 17]]
    assert out[1, 0].tolist() == [88, 87, 88, 17]
    norm = decompress("DXT3_RGBA", blk("0f18111111111111 0000 1084 aa ff ff ff")[None])[0]
    assert norm[0, 0, 1] == pytest.approx(130 / 3 / 255)


def test_bc3_and_bc4_eight_and_six_value_modes():
    # a0 = 200 > a1 = 100: index 2 = (6*200 + 100)/7, index 7 = (200 + 6*100)/7.
    eight = "c864 880e00000000"
    # a0 = 50 < a1 = 150: index 2 = (4*50 + 150)/5 = 70, 5 = 130, 6 = 0, 7 = 255.
    six = "3296 aa0f00000000"
    out = decompress("DXT5_RGBA", np.stack([blk(eight + "0000 0000 00000000"),
                                            blk(six + "0000 0000 00000000")]), raw=True)
    assert out[0, 0, :, 3].tolist() == [200, 100, 186, 114] and out[0, 3, 3, 3] == 200
    assert out[1, 0, :, 3].tolist() == [70, 130, 0, 255]
    r = decompress("RGTC1_UNORM", np.stack([blk(eight), blk(six)]))
    assert r[0, 0, :, 0].tolist() == pytest.approx([200 / 255, 100 / 255, 1300 / 7 / 255, 800 / 7 / 255])
    assert r[1, 0, :, 0].tolist() == pytest.approx([70 / 255, 130 / 255, 0.0, 1.0])
    assert r[0, 0, 0].tolist() == pytest.approx([200 / 255, 0, 0, 1])


def test_bc4_bc5_signed():
    # e0 = 0x80 reads as -127 < e1 = 127: six-value mode, extremes -127 and 127.
    s = decompress("RGTC1_SNORM", blk("807f aa0f00000000")[None])[0]
    assert s[0, :, 0].tolist() == pytest.approx([-0.6, 0.6, -1.0, 1.0])
    assert s[3, 3, 0] == pytest.approx(-1.0)
    rg = decompress("RGTC2_UNORM", blk("c864 880e00000000 3296 aa0f00000000")[None], raw=True)[0]
    assert rg[0, :, :2].tolist() == [[200, 70], [100, 130], [186, 0], [114, 255]]


def test_srgb_variants_decode_colour_to_linear():
    out = decompress("DXT1_SRGB", blk("00f8 1f00 e4 55 00 00")[None])[0]
    assert out[0, 2, 0] == pytest.approx(0.4019778, abs=1e-6)  # sRGB 170 -> linear
    assert out[0, 2, 3] == 1.0
