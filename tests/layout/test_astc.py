"""ASTC LDR decompression: blocks built field by field and decoded by hand from the
ASTC specification, a clarity-first partition hash against the vectorised one,
and 112 images encoded by ARM's astcenc compared with what its own decoder gives
(captured in data/astc_reference.npz by data/make_astc_reference.py)."""

from pathlib import Path

import numpy as np
import pytest

from layout import decompress, decompress_image
from layout.astc import _QUINTS, _TRITS, _UNQUANT_WEIGHTS, _endpoints, _partition_of_texels

MAGENTA = [1.0, 0.0, 1.0, 1.0]


def pack(fields: list[tuple[int, int]], weights: list[tuple[int, int]] = ()) -> np.ndarray:
    """(value, width) fields from bit 0 up, and weight fields written bit-reversed
    from bit 127 down -> one 16-byte block."""
    word, pos = 0, 0
    for value, width in fields:
        assert 0 <= value < (1 << width)
        word |= value << pos
        pos += width
    top = 127
    for value, width in weights:
        for k in range(width):
            word |= ((value >> k) & 1) << top
            top -= 1
    assert pos <= top + 1, "fields overlap the weights"
    return np.frombuffer(word.to_bytes(16, "little"), np.uint8)


def cem8_block(colour: tuple[int, ...]) -> np.ndarray:
    """Block mode 0x42: a 4x4 grid of 2-bit weights (32 bits) in a 4x4 block, one
    partition, CEM 8 (RGB direct) with six 8-bit values (the largest range that fits
    the 79 bits between bit 17 and the weights). Weights: texel 0 -> 0, 1 -> 3, 2 -> 1,
    3 -> 2, the rest 0 (unquantised 0, 64, 21, 43)."""
    return pack([(0x42, 11), (0, 2), (8, 4)] + [(v, 8) for v in colour],
                [(0, 2), (3, 2), (1, 2), (2, 2)] + [(0, 2)] * 12)


def test_rgb_direct_interpolation():
    out = decompress("ASTC_4x4", cem8_block((10, 200, 20, 100, 30, 50))[None], raw=True)[0]
    # e0 = (10, 20, 30), e1 = (200, 100, 50), widened by 257; alpha 255 -> 65535
    assert out[0, 0].tolist() == [2570, 5140, 7710, 65535]
    assert out[0, 1].tolist() == [51400, 25700, 12850, 65535]
    # w = 21: R (2570 * 43 + 51400 * 21 + 32) >> 6 = 18592, G 11886, B 9397
    assert out[0, 2].tolist() == [18592, 11886, 9397, 65535]
    # w = 43: R (2570 * 21 + 51400 * 43 + 32) >> 6 = 35378, G 18954, B 11163
    assert out[0, 3].tolist() == [35378, 18954, 11163, 65535]
    assert (out[1:] == [2570, 5140, 7710, 65535]).all()
    norm = decompress("ASTC_4x4", cem8_block((10, 200, 20, 100, 30, 50))[None])[0]
    assert norm[0, 2].tolist() == pytest.approx([18592 / 65535, 11886 / 65535, 9397 / 65535, 1.0])


def test_rgb_direct_blue_contraction():
    # the second endpoint sums lower (60 < 350): both are blue-contracted and swapped:
    # e0 = ((10 + 30) / 2, (20 + 30) / 2, 30) = (20, 25, 30), e1 = (125, 75, 50)
    out = decompress("ASTC_4x4", cem8_block((200, 10, 100, 20, 50, 30))[None], raw=True)[0]
    assert out[0, 0, :3].tolist() == [20 * 257, 25 * 257, 30 * 257]
    assert out[0, 1, :3].tolist() == [125 * 257, 75 * 257, 50 * 257]


def test_srgb_widening_and_top_byte():
    out = decompress("ASTC_4x4_SRGB", cem8_block((10, 200, 20, 100, 30, 50))[None], raw=True)[0]
    # sRGB colour widens as e << 8 | 0x80 and keeps the top byte: w = 21:
    # R ((10 << 8 | 0x80) * 43 + (200 << 8 | 0x80) * 21 + 32) >> 6 >> 8 = 72; alpha linear 255
    assert out[0, 2].tolist() == [(((10 << 8 | 0x80) * 43 + (200 << 8 | 0x80) * 21 + 32) >> 6) >> 8,
                                  (((20 << 8 | 0x80) * 43 + (100 << 8 | 0x80) * 21 + 32) >> 6) >> 8,
                                  (((30 << 8 | 0x80) * 43 + (50 << 8 | 0x80) * 21 + 32) >> 6) >> 8, 255]
    assert out[0, 2, 0] == 72


def test_void_extent_and_errors():
    # void extent: mode 0x1FC, LDR (bit 9 clear), bits 10-11 set, all-ones extent, RGBA16 colour
    constant = pack([(0xDFC, 12), ((1 << 52) - 1, 52), (0xFFFF, 16), (0x8000, 16), (0, 16), (0x4000, 16)])
    hdr = pack([(0xFFC, 12), ((1 << 52) - 1, 52), (0, 16), (0, 16), (0, 16), (0, 16)])
    reserved = pack([(0, 11)])                      # block mode 0: reserved
    too_many_weights = pack([(0x1F2, 11)])          # 10x6 grid in a 4x4 block
    out = decompress("ASTC_4x4", np.stack([constant, hdr, reserved, too_many_weights]))
    np.testing.assert_array_equal(out[0].reshape(-1, 4), np.float32([[1.0, 0x8000 / 65535, 0.0, 0x4000 / 65535]] * 16))
    for i in (1, 2, 3):
        assert out[i].reshape(-1, 4).tolist() == [MAGENTA] * 16


def test_endpoint_modes_by_hand():
    v = lambda *a: np.array([a], np.int64)  # noqa: E731
    # CEM 1: L0 = (0x84 >> 2) | (0xC5 & 0xC0) = 225, L1 = 225 + (0xC5 & 0x3F) = 230
    e0, e1 = _endpoints(1, v(0x84, 0xC5))
    assert e0.tolist() == [[225, 225, 225, 255]] and e1.tolist() == [[230, 230, 230, 255]]
    # CEM 5: bit transfer: v1 = 0x86 -> offset 3 (0x86 >> 1 & 0x3F), base 0x40 >> 1 | 0x80 = 0xA0;
    # v3 = 0x7E -> offset 0x3F -> -1, base 0x10 >> 1 = 8
    e0, e1 = _endpoints(5, v(0x40, 0x86, 0x10, 0x7E))
    assert e0.tolist() == [[160, 160, 160, 8]] and e1.tolist() == [[163, 163, 163, 7]]
    # CEM 6: base (100, 50, 200) scaled by 128/256
    e0, e1 = _endpoints(6, v(100, 50, 200, 128))
    assert e0.tolist() == [[50, 25, 100, 255]] and e1.tolist() == [[100, 50, 200, 255]]
    # CEM 9 with a negative offset sum: offsets -1, -2, -3 (0x7E, 0x7C, 0x7A), bases 20, 40, 60
    # (v even, < 0x80: base = v >> 1); swapped and blue-contracted:
    # e0 = ((19 + 57) >> 1, (38 + 57) >> 1, 57) = (38, 47, 57), e1 = ((20 + 60) >> 1, (40 + 60) >> 1, 60)
    e0, e1 = _endpoints(9, v(40, 0x7E, 80, 0x7C, 120, 0x7A))
    assert e0.tolist() == [[38, 47, 57, 255]] and e1.tolist() == [[40, 50, 60, 255]]
    # CEM 12 direct with alpha
    e0, e1 = _endpoints(12, v(1, 2, 3, 4, 5, 6, 7, 8))
    assert e0.tolist() == [[1, 3, 5, 7]] and e1.tolist() == [[2, 4, 6, 8]]


def test_integer_sequence_tables():
    # every combination of five trits / three quints has a packing
    assert len({tuple(t) for t in _TRITS.tolist()}) == 3 ** 5
    assert len({tuple(q) for q in _QUINTS.tolist()}) == 5 ** 3
    assert _TRITS[0].tolist() == [0, 0, 0, 0, 0] and _QUINTS[0].tolist() == [0, 0, 0]
    # a trit and one bit (6 levels): values (trit << 1 | bit) -> 0, 64, 12, 52, 25, 39
    assert _UNQUANT_WEIGHTS[6].tolist() == [0, 64, 12, 52, 25, 39]
    assert _UNQUANT_WEIGHTS[5].tolist() == [0, 16, 32, 48, 64]


def _partition_reference(seed: int, x: int, y: int, count: int, small: bool) -> int:
    """The specification's partition hash, one texel at a time (2D: z = 0)."""
    if small:
        x, y = x << 1, y << 1
    seed += (count - 1) * 1024
    r = seed
    r ^= r >> 15
    r = (r * 0xEEDE0891) & 0xFFFFFFFF
    r ^= r >> 5
    r = (r + (r << 16)) & 0xFFFFFFFF
    r ^= r >> 7
    r ^= r >> 3
    r = (r ^ (r << 6)) & 0xFFFFFFFF
    r ^= r >> 17
    seeds = [(r >> s) & 0xF for s in (0, 4, 8, 12, 16, 20, 24, 28)]
    seeds = [s * s for s in seeds]
    if seed & 1:
        sh1, sh2 = (4 if seed & 2 else 5), (6 if count == 3 else 5)
    else:
        sh1, sh2 = (6 if count == 3 else 5), (4 if seed & 2 else 5)
    s = [v >> (sh1 if i % 2 == 0 else sh2) for i, v in enumerate(seeds)]
    a = (s[0] * x + s[1] * y + (r >> 14)) & 0x3F
    b = (s[2] * x + s[3] * y + (r >> 10)) & 0x3F
    c = (s[4] * x + s[5] * y + (r >> 6)) & 0x3F if count >= 3 else 0
    d = (s[6] * x + s[7] * y + (r >> 2)) & 0x3F if count >= 4 else 0
    if a >= b and a >= c and a >= d:
        return 0
    if b >= c and b >= d:
        return 1
    return 2 if c >= d else 3


@pytest.mark.parametrize("bw,bh", [(4, 4), (5, 5), (6, 5), (8, 8), (12, 12)])
def test_partition_hash_against_one_texel_at_a_time(bw, bh):
    seeds = np.arange(0, 1024, 5)
    for count in (2, 3, 4):
        fast = _partition_of_texels(seeds, count, bw, bh)
        for i, seed in enumerate(seeds[::7]):
            want = [_partition_reference(int(seed), x, y, count, bw * bh < 32) for y in range(bh) for x in range(bw)]
            assert fast[i * 7].tolist() == want, (seed, count)


REFERENCE = Path(__file__).with_name("data") / "astc_reference.npz"


def _reference_cases():
    with np.load(REFERENCE) as data:
        return sorted(k[:-len("_blocks")] for k in data.files if k.endswith("_blocks"))


def _astcenc_half(unorm16: np.ndarray) -> np.ndarray:
    """astcenc's FP16 output of a 16-bit LDR result p: 1.0 for 0xFFFF, else p / 65536
    truncated to a half float (its conversion shifts the bits, it does not round)."""
    f = unorm16.astype(np.float64) / 65536
    exponent = np.floor(np.log2(np.where(f > 0, f, 1.0)))
    step = 2.0 ** (np.maximum(exponent, -14) - 10)
    return np.where(unorm16 == 0xFFFF, 1.0, np.floor(f / step) * step).astype(np.float16)


@pytest.mark.parametrize("case", _reference_cases())
def test_against_arm_astcenc(case):
    """The texels astcenc's decoder gives: LDR as its FP16 output of our 16-bit
    results (bit for bit), sRGB as 8-bit texels (exactly)."""
    with np.load(REFERENCE) as data:
        blocks, want = data[case + "_blocks"], data[case + "_texels"]
    size, _, profile = case.split("_")
    fmt = f"ASTC_{size}" + ("_SRGB" if profile == "srgb" else "")
    if profile == "srgb":
        got = decompress_image(fmt, blocks, raw=True)
        assert np.array_equal(got, want.astype(np.int32))
    else:
        got = decompress_image(fmt, blocks, raw=True)
        assert np.array_equal(_astcenc_half(got), want)
        np.testing.assert_allclose(decompress_image(fmt, blocks), got / 65535, rtol=1e-6)


def test_many_blocks_decode_as_each_alone():
    with np.load(REFERENCE) as data:
        blocks = np.concatenate([data[f"6x5_{n}_ldr_blocks"].reshape(-1, 16)
                                 for n in ("noise", "patches", "la", "gradient")])
    together = decompress("ASTC_6x5", blocks)
    alone = np.stack([decompress("ASTC_6x5", b[None])[0] for b in blocks])
    assert together.shape == (len(blocks), 5, 6, 4)
    assert np.array_equal(together, alone)


def test_srgb_left_encoded_on_request():
    block = cem8_block((10, 200, 20, 100, 30, 50))[None]
    encoded = decompress("ASTC_4x4_SRGB", block, decode_srgb=False)
    assert np.array_equal(encoded, decompress("ASTC_4x4_SRGB", block, raw=True).astype(np.float32) / np.float32(255))
    linear = decompress("ASTC_4x4_SRGB", block)
    assert linear[0, 0, 2, 0] == pytest.approx(((72 / 255 + 0.055) / 1.055) ** 2.4, rel=1e-6)
    assert linear[0, 0, 2, 3] == 1.0
