"""FXT1 (GL_3DFX_texture_compression_FXT1): blocks of each of the four modes built
field by field from the extension's bit layouts and decoded by hand (the
expected values below are the appendix's formulas worked out on paper), the
encoder's round trip, and random blocks of every mode against Mesa's llvmpipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from layout import compress, decompress, decompress_image, get_format
from layout.fxt1 import compress_fxt1, decompress_fxt1

RNG = np.random.default_rng(14)
OPAQUE = 255


def _block(*fields: tuple[int, int, int], index_bits: int = 2, indices=()) -> np.ndarray:
    """A 128-bit block from (first bit, width, value) fields and the texels' indices
    (texel t at bits index_bits * t ...), little-endian bytes."""
    word = 0
    for start, width, value in fields:
        assert 0 <= value < (1 << width)
        word |= value << start
    for t, i in enumerate(indices):
        word |= i << (index_bits * t)
    return np.frombuffer(word.to_bytes(16, "little"), np.uint8)[None]


def _colour(k: int, r: int, g: int, b: int) -> list[tuple[int, int, int]]:
    """Colour field k (bits 64 + 15k: blue, green, red; 5 bits each)."""
    base = 64 + 15 * k
    return [(base, 5, b), (base + 5, 5, g), (base + 10, 5, r)]


def _rows(left: list, right: list, left_idx, right_idx) -> np.ndarray:
    """The 4 x 8 block whose left half reads palette ``left`` at indices ``left_idx``
    (per column, every row alike) and the right half ``right`` at ``right_idx``."""
    row = [left[i] for i in left_idx] + [right[i] for i in right_idx]
    return np.array([row] * 4)


def _texels(fn):
    """Indices of the 32 texels from fn(t) (t = the extension's texel number)."""
    return [fn(t) for t in range(32)]


def test_cc_hi_seven_levels_and_transparent_black():
    # color1 = RGB555 (31, 16, 3), color0 = (0, 8, 31): 8 bits by repeating the top
    # three bits: 31 -> 255, 16 -> 132, 8 -> 66, 3 -> 24 (Mesa's decoder rounds 3 * 255 / 31
    # to 25 instead; the extension says bit replication)
    blk = _block((126, 2, 0b00), (121, 5, 31), (116, 5, 16), (111, 5, 3), (106, 5, 0), (101, 5, 8), (96, 5, 31),
                 index_bits=3, indices=_texels(lambda t: t % 8))
    # level i = ((6 - i) * color0 + i * color1 + 3) / 6 per channel
    pal = [(0, 66, 255, OPAQUE), (43, 77, 217, OPAQUE), (85, 88, 178, OPAQUE), (128, 99, 140, OPAQUE),
           (170, 110, 101, OPAQUE), (213, 121, 63, OPAQUE), (255, 132, 24, OPAQUE), (0, 0, 0, 0)]
    # texel t of row y, column x: t % 8 is 4y + x (mod 8) in both halves
    want = np.array([[pal[(4 * y + x % 4) % 8] for x in range(8)] for y in range(4)])
    got = decompress_fxt1("FXT1_RGBA", blk, raw=True)[0]
    assert got.tolist() == want.tolist()
    rgb = decompress_fxt1("FXT1_RGB", blk, raw=True)[0]
    want[..., 3] = OPAQUE                       # an RGB image reads alpha 1, transparent black too
    assert rgb.tolist() == want.tolist()


def test_cc_chroma_four_colours_as_they_are():
    blk = _block((125, 3, 0b010), *_colour(0, 31, 0, 0), *_colour(1, 0, 31, 0), *_colour(2, 0, 0, 31),
                 *_colour(3, 5, 10, 20), indices=_texels(lambda t: (t // 16 + t) % 4))
    pal = [(255, 0, 0, OPAQUE), (0, 255, 0, OPAQUE), (0, 0, 255, OPAQUE), (41, 82, 165, OPAQUE)]
    want = _rows(pal, pal, [0, 1, 2, 3], [1, 2, 3, 0])
    assert decompress_fxt1("FXT1_RGBA", blk, raw=True)[0].tolist() == want.tolist()


def test_cc_mixed_opaque_green_lsbs_from_the_indices():
    # bit 125 = 1 is color1's green LSB; color0's is bit 1 (texel 0's index 0: 0) ^ bit 125 = 1;
    # bit 126 = 0 is color3's; color2's is bit 33 (texel 16's index 2: 1) ^ bit 126 = 1
    blk = _block((127, 1, 1), (126, 1, 0), (125, 1, 1), (124, 1, 0),
                 *_colour(0, 31, 0, 0), *_colour(1, 0, 31, 0), *_colour(2, 0, 0, 31), *_colour(3, 16, 16, 16),
                 indices=_texels(lambda t: t % 4 if t < 16 else (t + 2) % 4))
    c0, c1 = (255, 4, 0), (0, 255, 0)                      # green 000001b -> 4, 111111b -> 255
    c2, c3 = (0, 4, 255), (132, 130, 132)                  # green 100000b -> 130
    left = [(*c0, OPAQUE), (170, 88, 0, OPAQUE), (85, 171, 0, OPAQUE), (*c1, OPAQUE)]     # (2 c0 + c1 + 1) / 3 ...
    right = [(*c2, OPAQUE), (44, 46, 214, OPAQUE), (88, 88, 173, OPAQUE), (*c3, OPAQUE)]
    want = _rows(left, right, [0, 1, 2, 3], [2, 3, 0, 1])
    assert decompress_fxt1("FXT1_RGBA", blk, raw=True)[0].tolist() == want.tolist()


def test_cc_mixed_punch_through():
    # bit 124 = 1: colours 0 and 2 are RGB555, 1 and 3 RGB565 with green LSBs bits 125 (0), 126 (1)
    blk = _block((127, 1, 1), (126, 1, 1), (125, 1, 0), (124, 1, 1),
                 *_colour(0, 31, 0, 0), *_colour(1, 0, 31, 0), *_colour(2, 0, 0, 31), *_colour(3, 2, 4, 8),
                 indices=_texels(lambda t: t % 4 if t < 16 else (t + 1) % 4))
    left = [(255, 0, 0, OPAQUE), (127, 125, 0, OPAQUE), (0, 251, 0, OPAQUE), (0, 0, 0, 0)]      # (c0 + c1) / 2
    right = [(0, 0, 255, OPAQUE), (8, 18, 160, OPAQUE), (16, 36, 66, OPAQUE), (0, 0, 0, 0)]
    want = _rows(left, right, [0, 1, 2, 3], [1, 2, 3, 0])
    assert decompress_fxt1("FXT1_RGBA", blk, raw=True)[0].tolist() == want.tolist()


def test_cc_alpha_direct_and_interpolated():
    alphas = [(109, 5, 31), (114, 5, 16), (119, 5, 0)]                  # alpha0, alpha1, alpha2
    direct = _block((125, 3, 0b011), (124, 1, 0), *alphas, *_colour(0, 31, 0, 0), *_colour(1, 0, 31, 0),
                    *_colour(2, 0, 0, 31), indices=_texels(lambda t: t % 4 if t < 16 else (t + 3) % 4))
    pal = [(255, 0, 0, 255), (0, 255, 0, 132), (0, 0, 255, 0), (0, 0, 0, 0)]
    assert decompress_fxt1("FXT1_RGBA", direct, raw=True)[0].tolist() == \
        _rows(pal, pal, [0, 1, 2, 3], [3, 0, 1, 2]).tolist()

    # lerp: the left half from color0 to color1, the right from color2 to color1, alpha too
    lerp = _block((125, 3, 0b011), (124, 1, 1), (109, 5, 31), (114, 5, 0), (119, 5, 16),
                  *_colour(0, 31, 0, 0), *_colour(1, 0, 0, 0), *_colour(2, 0, 0, 31),
                  indices=_texels(lambda t: t % 4))
    left = [(255, 0, 0, 255), (170, 0, 0, 170), (85, 0, 0, 85), (0, 0, 0, 0)]
    right = [(0, 0, 255, 132), (0, 0, 170, 88), (0, 0, 85, 44), (0, 0, 0, 0)]
    assert decompress_fxt1("FXT1_RGBA", lerp, raw=True)[0].tolist() == \
        _rows(left, right, [0, 1, 2, 3], [0, 1, 2, 3]).tolist()


def test_the_format_table_and_the_generic_entry_points():
    fmt = get_format("FXT1_RGBA")
    assert (fmt.block_width_px, fmt.block_height_px, fmt.block_size_B, fmt.family) == (8, 4, 16, "fxt1")
    blocks = RNG.integers(0, 256, (6, 16), dtype=np.uint8)
    assert decompress("FXT1_RGB", blocks).shape == (6, 4, 8, 4)
    image = decompress_image("FXT1_RGBA", blocks.reshape(2, 3, 16), 20, 7)
    assert image.shape == (7, 20, 4)
    np.testing.assert_array_equal(image[:4, 8:16], decompress("FXT1_RGBA", blocks)[1])
    with pytest.raises(ValueError, match="shape"):
        compress("FXT1_RGB", np.zeros((1, 4, 4, 4)))


def _q5(v):
    return ((v << 3) | (v >> 2)) / 255.0


def test_encoder_opaque_halves_of_two_rgb565_colours_are_exact():
    n = 200
    r, b = (_q5(RNG.integers(0, 32, (n, 2, 2))) for _ in range(2))
    g6 = RNG.integers(0, 64, (n, 2, 2))
    g = ((g6 << 2) | (g6 >> 4)) / 255.0
    colours = np.stack([r, g, b, np.ones_like(r)], -1)                   # (n, half, 2, 4)
    pick = RNG.integers(0, 2, (n, 4, 8))
    half = (np.arange(8) >= 4)[None, None, :].repeat(4, 1).repeat(n, 0).astype(int)
    tex = colours[np.arange(n)[:, None, None], half, pick]
    for name in ("FXT1_RGB", "FXT1_RGBA"):
        back = decompress_fxt1(name, compress_fxt1(name, tex), raw=False)
        np.testing.assert_allclose(back, tex, atol=1e-6)


def test_encoder_alpha_and_transparent_black():
    # a colour of ARGB5555 per half (piglit's quadrants: alpha 0.25 and 0.5, and alpha 0
    # with a colour, which must keep the colour) and halves with transparent black texels
    a = np.array([_q5(31), _q5(8), _q5(16), 0.0])
    left = np.array([0.0, 1.0, 0.0, 1.0])
    tex = np.zeros((4, 4, 8, 4))
    for k in range(4):
        tex[k, :, :4] = left
        tex[k, :, 4:] = [_q5(31), 0.0, _q5(3), a[k]]
    back = decompress_fxt1("FXT1_RGBA", compress_fxt1("FXT1_RGBA", tex), raw=False)
    np.testing.assert_allclose(back, tex, atol=1e-6)
    clear = np.zeros((1, 4, 8, 4))
    clear[0, :, :, :] = [_q5(9), _q5(20), _q5(30), 1.0]
    clear[0, ::2, ::3] = 0.0
    back = decompress_fxt1("FXT1_RGBA", compress_fxt1("FXT1_RGBA", clear), raw=False)
    np.testing.assert_allclose(back, clear, atol=3 / 255)


def test_encoder_gradients_stay_close():
    tex = RNG.random((100, 4, 8, 4))
    x = np.linspace(0.0, 1.0, 8)
    tex[:50] = np.stack([x[None].repeat(4, 0), 1 - x[None].repeat(4, 0), np.full((4, 8), 0.5),
                         np.ones((4, 8))], -1)[None]
    back = decompress_fxt1("FXT1_RGBA", compress_fxt1("FXT1_RGBA", tex), raw=False)
    # a gradient across a half is four entries apart: within a sixth of its range
    assert np.abs(back[:50] - tex[:50]).max() < 0.17
    assert np.abs(back - tex).mean() < 0.25


@pytest.mark.mesa
def test_random_blocks_of_every_mode_match_llvmpipe_within_one():
    """llvmpipe widens 5-bit channels as round(v * 255 / 31) and 6-bit ones as
    round(v * 255 / 63) where the extension repeats the top bits: the two differ by at
    most one step (e.g. 3 -> 25 against 24); modes, bit fields and the interpolations
    are the same, so every texel agrees within one."""
    blocks = RNG.integers(0, 256, (512, 16), dtype=np.uint8)
    blocks[0:128, 15] &= 0x3F                                  # CC_HI
    blocks[128:256, 15] = (blocks[128:256, 15] & 0x1F) | 0x40  # CC_CHROMA
    blocks[256:384, 15] = (blocks[256:384, 15] & 0x1F) | 0x60  # CC_ALPHA
    blocks[384:, 15] |= 0x80                                   # CC_MIXED
    ref = subprocess.run([sys.executable, str(Path(__file__).with_name("mesa_fxt1_ref.py"))],
                         input=blocks.tobytes(), capture_output=True, timeout=300)
    assert ref.returncode == 0, ref.stderr.decode()[-2000:]
    images = np.frombuffer(ref.stdout, np.uint8).reshape(2, 4, 512, 8, 4).astype(int)
    for k, name in enumerate(("FXT1_RGB", "FXT1_RGBA")):
        ours = decompress_fxt1(name, blocks, raw=True).transpose(1, 0, 2, 3)      # (4, 512, 8, 4)
        diff = np.abs(ours - images[k])
        assert diff.max() <= 1, name
        assert (diff == 0).mean() > 0.5, name


def test_encoder_three_argb5555_colours_with_alpha_are_exact():
    """Blocks of three colours with alpha anywhere in the block: the direct CC_ALPHA
    palette holds them exactly (the lerp candidates cannot)."""
    n = 100
    colours = _q5(RNG.integers(0, 32, (n, 3, 4)))
    colours[:, :, 3] = _q5(RNG.integers(1, 31, (n, 3)))          # translucent: no CC_MIXED
    pick = RNG.integers(0, 3, (n, 4, 8))
    pick[:, 0, :3] = [0, 1, 2]                                    # all three present
    tex = colours[np.arange(n)[:, None, None], pick]
    back = decompress_fxt1("FXT1_RGBA", compress_fxt1("FXT1_RGBA", tex), raw=False)
    np.testing.assert_allclose(back, tex, atol=1e-6)


def test_fxt1_formats_are_appended_and_keep_earlier_ids():
    from layout import FORMAT_NAMES
    assert FORMAT_NAMES[-2:] == ("FXT1_RGB", "FXT1_RGBA")
