"""ETC1/ETC2/EAC decompression against blocks decoded by hand from the
specification (Khronos Data Format spec, ETC2 chapter). Each block is written
field by field at the spec's bit positions; every expected value below was
worked out on paper from those fields, never produced by the decoder."""

import numpy as np
import pytest

from layout import decompress, srgb_to_linear


def block(fields: dict[tuple[int, int], int]) -> list[int]:
    """A 64-bit block from {(high bit, low bit): value}, as 8 big-endian bytes."""
    word = 0
    for (hi, lo), value in fields.items():
        assert 0 <= value < (1 << (hi - lo + 1)), (hi, lo, value)
        word |= value << lo
    return list(word.to_bytes(8, "big"))


def indices(pixels: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """ETC colour pixel indices {(x, y): 0..3} as the two 16-bit planes."""
    msb = lsb = 0
    for (x, y), v in pixels.items():
        i = 4 * x + y
        msb |= (v >> 1) << i
        lsb |= (v & 1) << i
    return {(31, 16): msb, (15, 0): lsb}


def eac_indices(pixels: dict[tuple[int, int], int], default: int = 0) -> dict[tuple[int, int], int]:
    out = {}
    for x in range(4):
        for y in range(4):
            i = 4 * x + y
            out[(47 - 3 * i, 45 - 3 * i)] = pixels.get((x, y), default)
    return out


def expect_rgb(decoded_block, pixels: dict[tuple[int, int], tuple], default=None):
    """Compare [y, x] RGB(A) of one decoded block with {(x, y): value}."""
    for y in range(4):
        for x in range(4):
            want = pixels.get((x, y), default)
            if want is None:
                continue
            got = tuple(int(v) for v in decoded_block[y, x, :len(want)])
            assert got == tuple(want), f"pixel ({x}, {y}): {got} != {want}"


# Individual mode, flip 0: C1 = (0x11, 0x33, 0x55), C2 = (0x22, 0x44, 0x66), tables 0 and 1.
INDIVIDUAL = block({(63, 60): 1, (59, 56): 2, (55, 52): 3, (51, 48): 4, (47, 44): 5, (43, 40): 6,
                    (39, 37): 0, (36, 34): 1, (33, 33): 0, (32, 32): 0,
                    **indices({(0, 0): 0, (1, 1): 1, (2, 0): 3, (3, 3): 2})})
INDIVIDUAL_PIXELS = {(0, 0): (19, 53, 87), (1, 1): (25, 59, 93), (2, 0): (17, 51, 85), (3, 3): (29, 63, 97),
                     # the rest use index 0: +2 on the left half, +5 on the right half
                     **{(x, y): (19, 53, 87) for x in (0, 1) for y in range(4) if (x, y) not in [(0, 0), (1, 1)]},
                     **{(x, y): (39, 73, 107) for x in (2, 3) for y in range(4) if (x, y) not in [(2, 0), (3, 3)]}}

# Differential mode, flip 1: base (10, 20, 31) + delta (+1, -1, -4); tables 3 (top) and 2 (bottom).
# C1 = (82, 165, 255), C2 = (90, 156, 222); every pixel index 1 (+b): +42 top, +29 bottom.
DIFFERENTIAL = block({(63, 59): 10, (58, 56): 0b001, (55, 51): 20, (50, 48): 0b111, (47, 43): 31,
                      (42, 40): 0b100, (39, 37): 3, (36, 34): 2, (33, 33): 1, (32, 32): 1,
                      (31, 16): 0, (15, 0): 0xFFFF})

# T mode: R = 30, dR = +3 overflows. C1 = (0xbb, 0x22, 0x33), C2 = (0x44, 0x55, 0x66), distance 16.
T_FIELDS = {(63, 61): 0b111, (60, 59): 0b10, (58, 58): 0, (57, 56): 0b11, (55, 52): 2, (51, 48): 3,
            (47, 44): 4, (43, 40): 5, (39, 36): 6, (35, 34): 0b01, (33, 33): 1, (32, 32): 1,
            **indices({(0, 0): 0, (1, 0): 1, (2, 0): 2, (3, 0): 3})}
T_MODE = block(T_FIELDS)
T_PIXELS = {(0, 0): (187, 34, 51), (1, 0): (84, 101, 118), (2, 0): (68, 85, 102), (3, 0): (52, 69, 86)}

# H mode: R = 8 (+1), G = 30 with dG = +3 overflows. C1 = (0x88, 0x33, 0x66),
# C2 = (0x22, 0xaa, 0x55); C1 >= C2 so the distance index is 0b101 -> 32.
H_FIELDS = {(63, 63): 0, (62, 59): 0b1000, (58, 56): 0b001, (55, 53): 0b111, (52, 52): 1, (51, 51): 0,
            (50, 50): 0, (49, 47): 0b110, (46, 43): 2, (42, 39): 10, (38, 35): 5, (34, 34): 1,
            (33, 33): 1, (32, 32): 0, **indices({(0, 0): 0, (1, 0): 1, (2, 0): 2, (3, 0): 3})}
H_MODE = block(H_FIELDS)
H_PIXELS = {(0, 0): (168, 83, 134), (1, 0): (104, 19, 70), (2, 0): (66, 202, 117), (3, 0): (2, 138, 53)}

# Planar mode: B = 31 with dB = +1 overflows. O = (32, 64, 26) -> (130, 129, 105),
# H = (48, 0, 63) -> (195, 0, 255), V = (0, 127, 26) -> (0, 255, 105).
PLANAR_FIELDS = {(63, 63): 0, (62, 57): 32, (56, 56): 1, (55, 55): 0, (54, 49): 0, (48, 48): 0,
                 (47, 45): 0b111, (44, 43): 0b11, (42, 42): 0, (41, 39): 0b010, (38, 34): 0b11000,
                 (33, 33): 1, (32, 32): 0, (31, 25): 0, (24, 19): 63, (18, 13): 0, (12, 6): 127, (5, 0): 26}
PLANAR = block(PLANAR_FIELDS)
PLANAR_PIXELS = {(0, 0): (130, 129, 105), (3, 0): (179, 32, 218), (0, 3): (33, 224, 105),
                 (3, 3): (81, 127, 218), (1, 2): (81, 160, 143)}


def test_etc1_individual_and_differential_modes():
    out = decompress("ETC1_RGB8", np.array([INDIVIDUAL, DIFFERENTIAL], np.uint8), raw=True)
    assert out.shape == (2, 4, 4, 4) and out.dtype == np.int32
    expect_rgb(out[0], INDIVIDUAL_PIXELS)
    expect_rgb(out[1], {(x, y): (124, 207, 255) if y < 2 else (119, 185, 251) for x in range(4) for y in range(4)})
    assert (out[..., 3] == 255).all()


def test_etc2_t_h_and_planar_modes():
    out = decompress("ETC2_RGB8", np.array([T_MODE, H_MODE, PLANAR, INDIVIDUAL], np.uint8), raw=True)
    expect_rgb(out[0], T_PIXELS, default=(187, 34, 51))
    expect_rgb(out[1], H_PIXELS, default=(168, 83, 134))
    expect_rgb(out[2], PLANAR_PIXELS)
    expect_rgb(out[3], INDIVIDUAL_PIXELS)


def test_normalised_and_srgb_output():
    out = decompress("ETC2_RGB8", np.array([T_MODE], np.uint8))
    assert out.dtype == np.float32
    assert out[0, 0, 0].tolist() == pytest.approx([187 / 255, 34 / 255, 51 / 255, 1.0])
    srgb = decompress("ETC2_SRGB8", np.array([T_MODE], np.uint8))
    assert srgb[0, 0, 0, 0] == pytest.approx(0.4969329, abs=1e-6)  # sRGB 187 -> linear
    assert srgb[0, 0, 0, 0] == pytest.approx(float(srgb_to_linear(187 / 255)), abs=1e-6)
    assert srgb[0, 0, 0, 3] == 1.0


def test_punchthrough_non_opaque_differential():
    # DIFFERENTIAL's colours with the opaque bit (33) clear: index 0 has no modifier,
    # index 2 is transparent black, 1 and 3 are +-b.
    fields = {(63, 59): 10, (58, 56): 0b001, (55, 51): 20, (50, 48): 0b111, (47, 43): 31,
              (42, 40): 0b100, (39, 37): 3, (36, 34): 2, (32, 32): 1,
              **indices({(0, 0): 0, (1, 0): 2, (0, 1): 1, (0, 2): 3})}
    non_opaque = block({**fields, (33, 33): 0})
    opaque = block({**fields, (33, 33): 1})
    out = decompress("ETC2_RGB8A1", np.array([non_opaque, opaque], np.uint8), raw=True)
    expect_rgb(out[0], {(0, 0): (82, 165, 255, 255), (1, 0): (0, 0, 0, 0), (0, 1): (124, 207, 255, 255),
                        (0, 2): (61, 127, 193, 255), (3, 3): (90, 156, 222, 255)})
    # Opaque: an ordinary differential block (index 0 is +a = +13 / +9, index 2 is -a).
    expect_rgb(out[1], {(0, 0): (95, 178, 255, 255), (1, 0): (69, 152, 242, 255),
                        (0, 2): (61, 127, 193, 255), (3, 3): (99, 165, 231, 255)})


def test_punchthrough_t_h_and_planar():
    t = block({**T_FIELDS, (33, 33): 0})
    h = block({**H_FIELDS, (33, 33): 0})
    p = block({**PLANAR_FIELDS, (33, 33): 0})
    out = decompress("ETC2_RGB8A1", np.array([t, h, p], np.uint8), raw=True)
    expect_rgb(out[0], {(0, 0): (187, 34, 51, 255), (1, 0): (84, 101, 118, 255), (2, 0): (0, 0, 0, 0),
                        (3, 0): (52, 69, 86, 255)})
    expect_rgb(out[1], {(0, 0): (168, 83, 134, 255), (2, 0): (0, 0, 0, 0), (3, 0): (2, 138, 53, 255)})
    # Planar blocks ignore the opaque bit (bit 32 still belongs to RH).
    expect_rgb(out[2], {k: v + (255,) for k, v in PLANAR_PIXELS.items()})


def test_etc2_rgba8_eac_alpha():
    # base 100, multiplier 3, table 13 = [-1, -2, -3, -10, 0, 1, 2, 9].
    alpha = block({(63, 56): 100, (55, 52): 3, (51, 48): 13,
                   **eac_indices({(0, 0): 7, (0, 1): 3, (1, 0): 4}, default=0)})
    # base 250, multiplier 15, table 0, index 7 (+14): 250 + 210 clamps to 255;
    # index 3 (-15): 250 - 225 = 25.
    clamped = block({(63, 56): 250, (55, 52): 15, (51, 48): 0,
                     **eac_indices({(0, 0): 7}, default=3)})
    blocks = np.array([alpha + T_MODE, clamped + INDIVIDUAL], np.uint8)
    out = decompress("ETC2_RGBA8", blocks, raw=True)
    expect_rgb(out[0], {(0, 0): (187, 34, 51, 127), (1, 0): (84, 101, 118, 100)})
    assert out[0, 1, 0, 3] == 70 and out[0, 3, 3, 3] == 97
    assert out[1, 0, 0, 3] == 255 and out[1, 2, 2, 3] == 25
    expect_rgb(out[1], INDIVIDUAL_PIXELS)
    srgba = decompress("ETC2_SRGBA8", blocks)
    assert srgba[0, 0, 0, 3] == pytest.approx(127 / 255)  # alpha stays linear


def test_r11_unsigned_and_signed():
    # Unsigned: base 128, multiplier 2, table 0: 1028 + 14*16 = 1252, 1028 - 15*16 = 788, 1028 - 3*16 = 980.
    u = block({(63, 56): 128, (55, 52): 2, (51, 48): 0, **eac_indices({(0, 0): 7, (0, 1): 3})})
    # Multiplier 0: the modifier is used unscaled: 10*8 + 4 - 15 = 69; clamping at 0..2047.
    u0 = block({(63, 56): 10, (55, 52): 0, (51, 48): 0, **eac_indices({(0, 0): 3, (1, 0): 7})})
    hi = block({(63, 56): 255, (55, 52): 15, (51, 48): 0, **eac_indices({}, default=7)})
    out = decompress("ETC2_R11_UNORM", np.array([u, u0, hi], np.uint8), raw=True)
    assert out[0, 0, 0, 0] == 1252 and out[0, 1, 0, 0] == 788 and out[0, 3, 3, 0] == 980
    assert out[1, 0, 0, 0] == 69 and out[1, 0, 1, 0] == 10 * 8 + 4 + 14 and out[1, 2, 2, 0] == 81
    assert (out[2, ..., 0] == 2047).all()
    norm = decompress("ETC2_R11_UNORM", np.array([u], np.uint8))
    assert norm[0, 0, 0].tolist() == pytest.approx([1252 / 2047, 0.0, 0.0, 1.0])

    # Signed: base -128 acts as -127: -1016 - 15*8 = -1136 clamps to -1023;
    # base 100, multiplier 2: 800 + 14*16 = 1024 clamps to 1023, 800 - 3*16 = 752.
    s1 = block({(63, 56): 0x80, (55, 52): 1, (51, 48): 0, **eac_indices({}, default=3)})
    s2 = block({(63, 56): 100, (55, 52): 2, (51, 48): 0, **eac_indices({(0, 0): 7})})
    s3 = block({(63, 56): 0xFF, (55, 52): 0, (51, 48): 0, **eac_indices({}, default=4)})  # -8 + 2
    out = decompress("ETC2_R11_SNORM", np.array([s1, s2, s3], np.uint8), raw=True)
    assert (out[0, ..., 0] == -1023).all()
    assert out[1, 0, 0, 0] == 1023 and out[1, 1, 1, 0] == 752
    assert (out[2, ..., 0] == -6).all()
    norm = decompress("ETC2_R11_SNORM", np.array([s2], np.uint8))
    assert norm[0, 1, 1, 0] == pytest.approx(752 / 1023)


def test_rg11_is_two_r11_blocks():
    r = block({(63, 56): 128, (55, 52): 2, (51, 48): 0, **eac_indices({(0, 0): 7})})
    g = block({(63, 56): 10, (55, 52): 0, (51, 48): 0, **eac_indices({(0, 0): 3})})
    out = decompress("ETC2_RG11_UNORM", np.array([r + g], np.uint8), raw=True)
    assert out[0, 0, 0, :2].tolist() == [1252, 69]
    snorm = decompress("ETC2_RG11_SNORM", np.array([r + g], np.uint8), raw=True)
    assert snorm[0, 0, 0, :2].tolist() == [-127 * 8 + 14 * 16, 10 * 8 - 15]  # base -128 acts as -127


def test_many_blocks_at_once():
    blocks = np.array([INDIVIDUAL, T_MODE, H_MODE, PLANAR] * 1000, np.uint8)
    out = decompress("ETC2_RGB8", blocks, raw=True)
    assert out.shape == (4000, 4, 4, 4)
    expect_rgb(out[3997], T_PIXELS, default=(187, 34, 51))
    expect_rgb(out[3999], PLANAR_PIXELS)


def test_bad_requests():
    with pytest.raises(ValueError, match="not R8G8B8A8_UNORM"):
        decompress("R8G8B8A8_UNORM", np.zeros((1, 4), np.uint8))
    with pytest.raises(ValueError, match=r"shape \(n, 16\)"):
        decompress("ETC2_RGBA8", np.zeros((1, 8), np.uint8))


def test_decompress_image_places_blocks_and_crops():
    # A 6x5 image is 2x2 blocks: T-mode block at (0, 0), planar at (1, 0), H at (0, 1).
    from layout import decompress_image, detile, make_miptree, tile
    grid = np.array([[T_MODE, PLANAR], [H_MODE, INDIVIDUAL]], np.uint8)
    lay = make_miptree(6, 5, format="ETC2_RGB8")
    buf = np.zeros(lay.size_B, np.uint8)
    tile(lay, buf, grid, 0, 0, 0, 0, 6, 5)
    image = decompress_image("ETC2_RGB8", detile(lay, buf, 0, 0, 0, 0, 6, 5), 6, 5, raw=True)
    assert image.shape == (5, 6, 4)
    assert image[0, 3, :3].tolist() == [52, 69, 86]      # T block, pixel (3, 0)
    assert image[0, 4, :3].tolist() == [130, 129, 105]   # planar block, pixel (0, 0)
    assert image[2, 5, :3].tolist() == [81, 160, 143]    # planar block, pixel (1, 2)
    assert image[3, 5, :3].tolist() == [49, 191, 143]    # planar block, pixel (1, 3): (65-390+522)>>2 = 49
    assert image[4, 1, :3].tolist() == [104, 19, 70]     # H block, pixel (1, 0)
