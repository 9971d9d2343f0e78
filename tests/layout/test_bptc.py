"""BC7 (BPTC unorm) decompression against blocks built field by field and decoded by
hand from the BPTC specification (fields LSB first; pixel index 4y + x;
interpolation ((64 - w) * e0 + w * e1 + 32) >> 6 with w from the 2/3/4-bit
weight tables; endpoints with their P-bit below, widened by repeating top bits)."""

import numpy as np
import pytest

from layout import decompress


def pack_fields(fields: list[tuple[int, int]]) -> np.ndarray:
    """(value, width) fields, first at bit 0 -> one 16-byte block."""
    word, pos = 0, 0
    for value, width in fields:
        assert 0 <= value < (1 << width), (value, width)
        word |= value << pos
        pos += width
    assert pos == 128, pos
    return np.frombuffer(word.to_bytes(16, "little"), np.uint8)


def mode6_block() -> np.ndarray:
    """Mode 6: one subset, RGBA 7 bits + one P-bit per endpoint, 4-bit indices.
    R 0 -> 127, G 127 -> 0, B 64, 64, A 127, 127, P-bits 1, 1:
    endpoints (1, 255, 129, 255) and (255, 1, 129, 255).
    Indices: pixel 0 = 0 (anchor, 3 bits), pixel 1 = 15, pixel 2 = 8, the rest 0."""
    indices = [(0, 3), (15, 4), (8, 4)] + [(0, 4)] * 13
    return pack_fields([(1 << 6, 7), (0, 7), (127, 7), (127, 7), (0, 7), (64, 7), (64, 7), (127, 7), (127, 7),
                        (1, 1), (1, 1), *indices])


def mode1_block() -> np.ndarray:
    """Mode 1: two subsets, partition 13 (rows 0-1 subset 0, rows 2-3 subset 1; anchor of
    subset 1 is pixel 15), RGB 6 bits + one shared P-bit per subset, 3-bit indices.
    Subset 0: R 63 -> 0, G 0, 0, B 32, 32, P 1: (255, 2, 131) and (2, 2, 131).
    Subset 1: R 0 -> 63, G 0, 0, B 32, 32, P 0: (0, 0, 129) and (253, 0, 129).
    Indices: pixel 4 = 7, pixel 12 = 3, pixel 15 (anchor, 2 bits) = 3, the rest 0."""
    idx = []
    for i in range(16):
        width = 2 if i in (0, 15) else 3
        idx.append(({4: 7, 12: 3, 15: 3}.get(i, 0), width))
    r, g, b = [(63, 6), (0, 6), (0, 6), (63, 6)], [(0, 6)] * 4, [(32, 6)] * 4
    return pack_fields([(1 << 1, 2), (13, 6), *r, *g, *b, (1, 1), (0, 1), *idx])


def mode4_block() -> np.ndarray:
    """Mode 4: rotation 1 (swap R and A), index selection 1 (colour takes the 3-bit
    indices, alpha the 2-bit ones). R 31 -> 0 (5 bits: 255, 0), G, B 0, A 0 -> 63 (6 bits:
    0, 255). Pixel 0: 2-bit index 1 (1 bit stored), 3-bit index 3 (2 bits stored)."""
    two = [(1, 1)] + [(0, 2)] * 15
    three = [(3, 2)] + [(0, 3)] * 15
    return pack_fields([(1 << 4, 5), (1, 2), (1, 1), (31, 5), (0, 5), (0, 5), (0, 5), (0, 5), (0, 5),
                        (0, 6), (63, 6), *two, *three])


def test_mode6_interpolation_and_p_bits():
    out = decompress("BPTC_RGBA_UNORM", mode6_block()[None], raw=True)[0]
    assert out[0, 0].tolist() == [1, 255, 129, 255]
    assert out[0, 1].tolist() == [255, 1, 129, 255]
    # w = 34: R (30 * 1 + 34 * 255 + 32) >> 6 = 136, G (30 * 255 + 34 * 1 + 32) >> 6 = 120
    assert out[0, 2].tolist() == [136, 120, 129, 255]
    assert (out[1:] == [1, 255, 129, 255]).all()


def test_mode1_partition_anchor_and_shared_p_bits():
    out = decompress("BPTC_RGBA_UNORM", mode1_block()[None], raw=True)[0]
    assert out[0, 0].tolist() == [255, 2, 131, 255]           # subset 0, index 0
    assert out[1, 0].tolist() == [2, 2, 131, 255]             # pixel 4: index 7 -> e1
    assert out[2, 0].tolist() == [0, 0, 129, 255]             # subset 1, index 0
    # pixel 12, index 3 (w = 27): R (37 * 0 + 27 * 253 + 32) >> 6 = 107
    assert out[3, 0].tolist() == [107, 0, 129, 255]
    assert out[3, 3].tolist() == [107, 0, 129, 255]           # the anchor, index 3 in 2 bits


def test_mode4_rotation_and_index_selection():
    out = decompress("BPTC_RGBA_UNORM", mode4_block()[None], raw=True)[0]
    # colour index 3 (w = 27): R (37 * 255 + 32) >> 6 = 147; alpha index 1 (w = 21):
    # (21 * 255 + 32) >> 6 = 84; rotation 1 swaps them
    assert out[0, 0].tolist() == [84, 0, 0, 147]
    assert out[0, 1].tolist() == [0, 0, 0, 255]               # R 255, A 0, swapped


def test_many_blocks_of_mixed_modes_and_the_reserved_mode():
    blocks = np.stack([mode4_block(), np.zeros(16, np.uint8), mode6_block(), mode1_block(), mode6_block()])
    out = decompress("BPTC_RGBA_UNORM", blocks, raw=True)
    assert (out[1] == 0).all()                                  # low byte 0: no mode
    assert np.array_equal(out[2], out[4])
    assert out[3, 3, 0].tolist() == [107, 0, 129, 255] and out[0, 0, 0].tolist() == [84, 0, 0, 147]
    norm = decompress("BPTC_RGBA_UNORM", blocks)
    np.testing.assert_allclose(norm, out / 255.0, atol=1e-7)
    srgb = decompress("BPTC_SRGBA", blocks)
    assert srgb[2, 0, 2, 2] == pytest.approx(((129 / 255 + 0.055) / 1.055) ** 2.4, rel=1e-6)
    assert srgb[2, 0, 2, 3] == 1.0                              # alpha stays linear


def test_bc6h_mode_3_untransformed_unsigned():
    """Mode 0x03: one subset, 10-bit endpoints, 4-bit indices. R 0 -> 1023, G 0 -> 512,
    B 0. Unquantised: 1023 -> 0xFFFF, 512 -> ((512 << 16) + 0x8000) >> 10 = 32800.
    Pixel 1 (index 15, w 64): R 65535 -> (65535 * 31) >> 6 = 0x7BFF (65504.0), G 32800 ->
    15887 = 0x3E0F (1 + 527/1024). Pixel 2 (index 8, w 34): R (34 * 65535 + 32) >> 6 =
    34815 -> 16863 = 0x41DF (2 * (1 + 479/1024)), G (34 * 32800 + 32) >> 6 = 17425 ->
    8440 = 0x20F8 (2^-7 * (1 + 248/1024))."""
    block = pack_fields([(3, 5), (0, 10), (0, 10), (0, 10), (1023, 10), (512, 10), (0, 10),
                         (0, 3), (15, 4), (8, 4)] + [(0, 4)] * 13)
    out = decompress("BPTC_RGB_UFLOAT", block[None])[0]
    assert out[0, 0].tolist() == [0.0, 0.0, 0.0, 1.0]
    assert out[0, 1].tolist() == [65504.0, 1 + 527 / 1024, 0.0, 1.0]
    assert out[0, 2].tolist() == [2 * (1 + 479 / 1024), 2 ** -7 * (1 + 248 / 1024), 0.0, 1.0]
    raw = decompress("BPTC_RGB_UFLOAT", block[None], raw=True)[0]
    assert raw[0, 1, :3].tolist() == [0x7BFF, 0x3E0F, 0]


def test_bc6h_mode_7_transformed_signed():
    """Mode 0x07: one subset, 11-bit w, 9-bit signed deltas. R: w = 0x7FF (-1), delta 2
    -> x = 1; unquantised (mag << 15 + 0x4000) >> 10: -48, 48. G: w = 0x400 (-1024, at
    least 2^10 - 1 in size: -0x7FFF), delta 0x100 (-256) -> x = 768 -> 24592. B 0.
    Finished (v * 31) >> 5 with the sign apart: -48 -> -46 (a subnormal, 46 * 2^-24),
    -0x7FFF -> -0x7BFF (-65504), 24592 -> 23823 = 0x5D0F (256 * (1 + 271/1024))."""
    block = pack_fields([(7, 5), (0x3FF, 10), (0, 10), (0, 10), (2, 9), (1, 1), (0x100, 9), (1, 1),
                         (0, 9), (0, 1), (0, 3), (15, 4)] + [(0, 4)] * 14)
    out = decompress("BPTC_RGB_FLOAT", block[None])[0]
    assert out[0, 0].tolist() == [-46 * 2.0 ** -24, -65504.0, 0.0, 1.0]
    assert out[0, 1].tolist() == [46 * 2.0 ** -24, 256 * (1 + 271 / 1024), 0.0, 1.0]
    # the same bits as unsigned: w = 2047 and x = 1 are plain 11-bit values
    unsigned = decompress("BPTC_RGB_UFLOAT", block[None])[0]
    assert (unsigned[..., :3] >= 0).all()


def test_bc6h_reserved_mode_is_zero():
    block = np.zeros((1, 16), np.uint8)
    block[0, 0] = 0x13                        # a reserved 5-bit mode
    assert (decompress("BPTC_RGB_FLOAT", block)[0, ..., :3] == 0).all()


def test_bc6h_mode_layouts_place_every_field_bit_once():
    """Each mode's layout string covers exactly its header (82 bits for two subsets,
    65 for one) and names every bit of every field once: mode bits, 5 partition bits,
    the w endpoints at full precision and x/y/z at their delta precision."""
    from layout.bptc import _BC6_MODES
    for mode, (subsets, transformed, prec, deltas, text) in _BC6_MODES.items():
        seen: dict[str, list[int]] = {}
        for token in text.split():
            name = token.rstrip("0123456789-")
            lo, _, hi = token[len(name):].partition("-")
            seen.setdefault(name, []).extend(range(int(lo), int(hi or lo) + 1))
        assert sum(len(b) for b in seen.values()) == (82 if subsets == 2 else 65), hex(mode)
        want = {"m": 2 if mode < 2 else 5}
        if subsets == 2:
            want["d"] = 5
        for c, ch in enumerate("rgb"):
            want[ch + "w"] = prec
            for e in "xyz"[:2 * subsets - 1]:
                want[ch + e] = deltas[c] if transformed else prec
        assert {k: sorted(v) for k, v in seen.items()} == {k: list(range(n)) for k, n in want.items()}, hex(mode)
