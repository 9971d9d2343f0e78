"""layout.bc.compress_bc: blocks the decoder reads back. A block of at most two
colours representable in RGB565 (and alphas in 4 bits for DXT3, any two bytes for
DXT5 and RGTC) must come back exactly; every block within the palette's reach."""

import numpy as np
import pytest

from layout.bc import ENCODABLE, compress_bc, decompress_bc

RNG = np.random.default_rng(7)


def _two_colour_blocks(n, alpha):
    def e5(x):
        return ((x << 3) | (x >> 2)) / 255.0

    def e6(x):
        return ((x << 2) | (x >> 4)) / 255.0

    def colour():
        return np.concatenate([e5(RNG.integers(0, 32, (n, 1, 1))), e6(RNG.integers(0, 64, (n, 1, 1))),
                               e5(RNG.integers(0, 32, (n, 1, 1)))], -1)
    a, b = colour(), colour()
    pick = RNG.integers(0, 2, (n, 16, 1))
    rgb = np.where(pick == 0, a, b)
    return np.concatenate([rgb, np.where(pick == 0, alpha[0], alpha[1])], -1).reshape(n, 4, 4, 4)


@pytest.mark.parametrize("name,alpha", [("DXT1_RGB", (1.0, 1.0)), ("DXT3_RGBA", (1.0, 4 / 15)),
                                        ("DXT5_RGBA", (1.0, 51 / 255)), ("DXT1_SRGB", (1.0, 1.0))])
def test_two_colour_blocks_round_trip_exactly(name, alpha):
    tex = _two_colour_blocks(300, alpha)
    blocks = compress_bc(name, tex)
    assert blocks.shape == (300, 8 if name.startswith("DXT1") else 16) and blocks.dtype == np.uint8
    back = decompress_bc(name, blocks, False, False, None)
    np.testing.assert_allclose(back, tex, atol=1e-6)


def test_dxt1_rgba_transparent_texels_read_back_as_transparent_black():
    tex = _two_colour_blocks(300, (1.0, 1.0))
    clear = RNG.random((300, 4, 4)) < 0.3
    tex[clear] = 0.0
    back = decompress_bc("DXT1_RGBA", compress_bc("DXT1_RGBA", tex), False, False, None)
    np.testing.assert_allclose(back, tex, atol=1e-6)


@pytest.mark.parametrize("name", ["RGTC1_UNORM", "RGTC2_UNORM", "RGTC1_SNORM", "RGTC2_SNORM"])
def test_rgtc_endpoints_are_exact_and_the_rest_within_a_step(name):
    signed = name.endswith("SNORM")
    scale = 127 if signed else 255
    codes = RNG.integers(-127 if signed else 0, 128 if signed else 256, (200, 4, 4, 2))
    tex = np.zeros((200, 4, 4, 4))
    tex[..., :2] = codes / scale
    back = decompress_bc(name, compress_bc(name, tex), False, False, None)
    ch = 2 if name.startswith("RGTC2") else 1
    err = np.abs(back[..., :ch] - tex[..., :ch])
    # eight values between the extremes: no texel is more than half a step (range / 14) away
    span = np.ptp(tex[..., :ch].reshape(200, 16, ch), axis=1)[:, None, None, :]
    assert (err <= span / 14 + 1e-6).all()
    for c in range(ch):          # the extremes themselves are endpoints
        flat, got = tex[..., c].reshape(200, 16), back[..., c].reshape(200, 16)
        rows = np.arange(200)
        np.testing.assert_allclose(got[rows, flat.argmax(1)], flat.max(1), atol=1e-6)
        np.testing.assert_allclose(got[rows, flat.argmin(1)], flat.min(1), atol=1e-6)


def test_smooth_images_compress_closely():
    y, x = np.mgrid[0:64, 0:64] / 63.0
    img = np.stack([x, y, 1 - x, np.ones_like(x)], -1)
    blocks = img.reshape(16, 4, 16, 4, 4).transpose(0, 2, 1, 3, 4).reshape(-1, 4, 4, 4)
    for name in ("DXT1_RGB", "DXT5_RGBA"):
        back = decompress_bc(name, compress_bc(name, blocks), False, False, None)
        assert np.abs(back - blocks).max() < 0.04      # a 565 step plus a third of a gradient block


def test_unknown_formats_are_refused():
    assert "ETC2_RGB8" not in ENCODABLE
    with pytest.raises(ValueError):
        compress_bc("ETC2_RGB8", np.zeros((1, 4, 4, 4)))
