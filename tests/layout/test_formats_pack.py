"""The format table and pack/unpack, with literal expected bytes and values
worked out from the GL conversion rules."""

import numpy as np
import pytest

from layout import FORMATS, Format, get_format, pack, unpack, unpack_dtype


def packed(fmt, *rgba):
    return pack(fmt, np.array(rgba, dtype=np.float64)).tobytes().hex()


def le(value: int, size_B: int) -> str:
    return value.to_bytes(size_B, "little").hex()


# ---------------------------------------------------------------------------
# The table

def test_table_records():
    f = get_format("R8G8B8A8_UNORM")
    assert isinstance(f, Format)
    assert (f.block_size_B, f.bytes_per_block, f.block_width_px, f.block_height_px) == (4, 4, 1, 1)
    assert [(c.name, c.bits, c.type, c.shift_bits) for c in f.channels] == [
        ("R", 8, "UNORM", 0), ("G", 8, "UNORM", 8), ("B", 8, "UNORM", 16), ("A", 8, "UNORM", 24)]
    assert not (f.is_srgb or f.is_depth or f.is_stencil or f.is_compressed)
    f = get_format("B5G6R5_UNORM")
    assert [(c.name, c.bits, c.shift_bits) for c in f.channels] == [("B", 5, 0), ("G", 6, 5), ("R", 5, 11)]
    f = get_format("Z24_UNORM_S8_UINT")
    assert f.block_size_B == 4 and f.is_depth and f.is_stencil
    assert [(c.name, c.type, c.shift_bits) for c in f.channels] == [("Z", "UNORM", 0), ("S", "UINT", 24)]
    f = get_format("Z32_FLOAT_S8X24_UINT")
    assert f.block_size_B == 8 and [(c.name, c.bits, c.type) for c in f.channels] == [
        ("Z", 32, "FLOAT"), ("S", 8, "UINT"), ("X", 24, "X")]
    assert get_format("S8_UINT").is_stencil and not get_format("S8_UINT").is_depth
    assert get_format("R8G8B8A8_SRGB").is_srgb and get_format("R11G11B10_FLOAT").block_size_B == 4
    assert get_format("R32G32B32_FLOAT").block_size_B == 12
    assert get_format(f) is f


@pytest.mark.parametrize("name, size_B, bw, bh", [
    ("ETC1_RGB8", 8, 4, 4), ("ETC2_RGB8", 8, 4, 4), ("ETC2_SRGB8A1", 8, 4, 4), ("ETC2_RGBA8", 16, 4, 4),
    ("ETC2_R11_UNORM", 8, 4, 4), ("ETC2_RG11_SNORM", 16, 4, 4), ("DXT1_RGB", 8, 4, 4),
    ("DXT5_RGBA", 16, 4, 4), ("RGTC1_UNORM", 8, 4, 4), ("RGTC2_SNORM", 16, 4, 4),
    ("BPTC_RGBA_UNORM", 16, 4, 4), ("BPTC_RGB_FLOAT", 16, 4, 4), ("ASTC_4x4", 16, 4, 4),
    ("ASTC_5x4", 16, 5, 4), ("ASTC_12x12_SRGB", 16, 12, 12),
])
def test_block_compressed_families(name, size_B, bw, bh):
    f = get_format(name)
    assert f.is_compressed and (f.block_size_B, f.block_width_px, f.block_height_px) == (size_B, bw, bh)


def test_required_formats_are_present():
    # GLES 3.1 / GL 4.3 texturable and renderable sized formats (their Gallium names).
    required = """R8_UNORM R8_SNORM R8_UINT R8_SINT R8G8_UNORM R8G8_SNORM R8G8_UINT R8G8_SINT
    R8G8B8_UNORM R8G8B8_SRGB R8G8B8A8_UNORM R8G8B8A8_SRGB R8G8B8A8_SNORM R8G8B8A8_UINT R8G8B8A8_SINT
    R16_UNORM R16_SNORM R16_UINT R16_SINT R16_FLOAT R16G16_FLOAT R16G16B16_FLOAT R16G16B16A16_FLOAT
    R16G16B16A16_UNORM R16G16B16A16_SNORM R16G16B16A16_UINT R16G16B16A16_SINT
    R32_UINT R32_SINT R32_FLOAT R32G32_FLOAT R32G32B32_FLOAT R32G32B32A32_FLOAT R32G32B32A32_UINT
    R32G32B32A32_SINT B5G6R5_UNORM B5G5R5A1_UNORM A1B5G5R5_UNORM B4G4R4A4_UNORM A4B4G4R4_UNORM
    R10G10B10A2_UNORM R10G10B10A2_UINT R11G11B10_FLOAT R9G9B9E5_FLOAT B2G3R3_UNORM
    Z16_UNORM Z24X8_UNORM Z32_FLOAT Z24_UNORM_S8_UINT Z32_FLOAT_S8X24_UINT S8_UINT
    ETC2_RGB8 ETC2_SRGB8 ETC2_RGB8A1 ETC2_SRGB8A1 ETC2_RGBA8 ETC2_SRGBA8 ETC2_R11_UNORM ETC2_R11_SNORM
    ETC2_RG11_UNORM ETC2_RG11_SNORM RGTC1_UNORM RGTC1_SNORM RGTC2_UNORM RGTC2_SNORM
    BPTC_RGBA_UNORM BPTC_SRGBA BPTC_RGB_FLOAT BPTC_RGB_UFLOAT""".split()
    assert [n for n in required if n not in FORMATS] == []
    assert len(FORMATS) > 150


def test_unknown_format_names_the_rule():
    with pytest.raises(ValueError, match="unknown pixel format 'R7_UNORM'"):
        get_format("R7_UNORM")


# ---------------------------------------------------------------------------
# Pack: literal bytes

def test_unorm_rounds_to_nearest_and_clamps():
    assert packed("R8G8B8A8_UNORM", 0.5, 1.2, -1.0, 0.25) == "80ff0040"  # 128, 255, 0, 64
    assert packed("B8G8R8A8_UNORM", 1, 0, 0, 1) == "0000ffff"
    assert packed("R16_UNORM", 0.5, 0, 0, 0) == le(32768, 2)
    assert packed("R8_UNORM", float("nan"), 0, 0, 0) == "00"


def test_packed_16_bit_formats():
    assert packed("B5G6R5_UNORM", 1, 0, 0, 1) == le(0xF800, 2)
    assert packed("B5G6R5_UNORM", 0, 1, 0, 1) == le(0x07E0, 2)
    assert packed("B5G6R5_UNORM", 0, 0, 1, 1) == le(0x001F, 2)
    assert packed("B5G5R5A1_UNORM", 1, 0, 0, 1) == le(0xFC00, 2)
    assert packed("A1B5G5R5_UNORM", 1, 0, 0, 1) == le(0xF801, 2)  # GL's 5_5_5_1: R on top
    assert packed("A4B4G4R4_UNORM", 1, 0, 0.4, 1) == le(0xF06F, 2)  # GL's 4_4_4_4
    assert packed("B2G3R3_UNORM", 1, 0, 1, 0) == le(0b11100011 & 0xE3, 1)


def test_10_10_10_2():
    assert packed("R10G10B10A2_UNORM", 1, 0, 0.5, 1 / 3) == le(0x3FF | 512 << 20 | 1 << 30, 4)
    assert packed("R10G10B10A2_UINT", 5, 1023, 2000, 3) == le(5 | 1023 << 10 | 1023 << 20 | 3 << 30, 4)
    assert packed("R10G10B10A2_SNORM", -1, 1, 0, -1) == le(0x201 | 0x1FF << 10 | 0 << 20 | 3 << 30, 4)


def test_snorm_and_integer_clamping():
    assert packed("R8G8B8A8_SNORM", -1, 1, -0.5, 0.5) == "817fc140"  # -127, 127, -63, 64
    assert packed("R8G8B8A8_SINT", -200, 200, -5, 7) == "807ffb07"
    assert packed("R8G8B8A8_UINT", -3, 300, 42, 255) == "00ff2aff"
    assert packed("R32_UINT", 4294967295, 0, 0, 0) == "ffffffff"


def test_srgb_encodes_colour_not_alpha():
    assert packed("R8G8B8A8_SRGB", 0.5, 0.002, 1.0, 0.5) == "bc07ff80"  # 188, 7, 255, 128


def test_half_and_small_floats():
    assert packed("R16_FLOAT", 1.0, 0, 0, 0) == le(0x3C00, 2)
    assert packed("R16G16_FLOAT", -2.0, 65520.0, 0, 0) == le(0xC000, 2) + le(0x7C00, 2)
    # R11G11B10: 1.0 -> 0x3c0; 65536 -> max finite 0x7bf; 0.5 (10-bit) -> 0x1c0.
    assert packed("R11G11B10_FLOAT", 1.0, 65536.0, 0.5, 0) == le(0x3C0 | 0x7BF << 11 | 0x1C0 << 22, 4)
    # Negative -> 0, +inf -> inf, NaN -> NaN, smallest denormal 2^-20 -> 1.
    assert packed("R11G11B10_FLOAT", -5.0, np.inf, np.nan, 0) == le(0 | 0x7C0 << 11 | 0x3F0 << 22, 4)
    assert packed("R11G11B10_FLOAT", 2.0 ** -20, 0, 0, 0) == le(1, 4)


def test_shared_exponent():
    assert packed("R9G9B9E5_FLOAT", 1.0, 0.5, 0.25, 0) == le(0x81010100, 4)
    assert packed("R9G9B9E5_FLOAT", 1e9, 0, -1, 0) == le(511 | 31 << 27, 4)  # clamped to 65408
    # 511.9 rounds the mantissa up to 512, so the exponent grows by one.
    assert packed("R9G9B9E5_FLOAT", 511.9, 0, 0, 0) == le(256 | 25 << 27, 4)
    assert unpack("R9G9B9E5_FLOAT", raw(le(256 | 25 << 27, 4))).tolist() == [512, 0, 0, 1]


def test_depth_and_stencil():
    assert packed("Z24_UNORM_S8_UINT", 1.0, 7, 0, 0) == "ffffff07"
    assert packed("Z24_UNORM_S8_UINT", 0.5, 200, 0, 0) == "000080c8"
    assert packed("Z32_FLOAT_S8X24_UINT", 0.25, 255, 0, 0) == "0000803eff000000"
    assert packed("Z16_UNORM", 0.5, 0, 0, 0) == "0080"
    assert packed("S8_UINT", 300, 0, 0, 0) == "ff"
    assert packed("Z32_FLOAT", 0.75, 0, 0, 0) == "0000403f"


# ---------------------------------------------------------------------------
# Unpack: literal values, dtypes, defaults

def raw(hexstr):
    return np.frombuffer(bytes.fromhex(hexstr), np.uint8)


def test_unpack_defaults_and_dtypes():
    assert unpack("R8_UNORM", raw("33")).tolist() == pytest.approx([0.2, 0, 0, 1])
    out = unpack("R8G8_UINT", raw("07ff"))
    assert out.dtype == np.uint32 and out.tolist() == [7, 255, 0, 1]
    out = unpack("R16_SINT", raw("fbff"))
    assert out.dtype == np.int32 and out.tolist() == [-5, 0, 0, 1]
    assert unpack_dtype("Z24_UNORM_S8_UINT") == np.float32
    assert unpack_dtype("S8_UINT") == np.uint32


def test_unpack_snorm_and_srgb():
    assert unpack("R8_SNORM", np.array([[0x80], [0x81], [0x7F], [0xC1]], np.uint8))[:, 0].tolist() == \
        pytest.approx([-1.0, -1.0, 1.0, -63 / 127])
    assert unpack("R8G8B8A8_SRGB", raw("bc00ff80")).tolist() == pytest.approx([0.5028865, 0.0, 1.0, 128 / 255], abs=1e-6)


def test_unpack_luminance_alpha_intensity():
    assert unpack("L8A8_UNORM", raw("33ff")).tolist() == pytest.approx([0.2, 0.2, 0.2, 1.0])
    assert unpack("A8_UNORM", raw("33")).tolist() == pytest.approx([0, 0, 0, 0.2])
    assert unpack("I8_UNORM", raw("33")).tolist() == pytest.approx([0.2, 0.2, 0.2, 0.2])


def test_unpack_packed_floats():
    word = 0x3C0 | 0x7BF << 11 | 0x1C0 << 22
    assert unpack("R11G11B10_FLOAT", raw(le(word, 4))).tolist() == [1.0, 65024.0, 0.5, 1.0]
    assert unpack("R11G11B10_FLOAT", raw(le(1, 4)))[0] == pytest.approx(2.0 ** -20)
    out = unpack("R11G11B10_FLOAT", raw(le(0x7C0 | 0x7E0 << 11, 4)))
    assert np.isinf(out[0]) and np.isnan(out[1])
    assert unpack("R9G9B9E5_FLOAT", raw(le(511 | 31 << 27, 4))).tolist() == [65408, 0, 0, 1]


def test_unpack_depth_stencil():
    assert unpack("Z24_UNORM_S8_UINT", raw("ffffff07")).tolist() == [1.0, 7.0, 0.0, 1.0]
    assert unpack("Z32_FLOAT_S8X24_UINT", raw("0000803eff000000")).tolist() == [0.25, 255.0, 0.0, 1.0]
    assert unpack("S8_UINT", raw("2a")).tolist() == [42, 0, 0, 1]
    assert unpack("Z16_UNORM", raw("ffff")).tolist() == [1.0, 0, 0, 1]


def test_every_8_bit_unorm_code_round_trips():
    codes = np.arange(256, dtype=np.uint8)[:, None]
    for name in ("R8_UNORM", "R8_SRGB", "R8_SNORM", "R8_UINT", "R8_SINT"):
        back = pack(name, unpack(name, codes))
        if name == "R8_SNORM":  # -128 and -127 both mean -1.0
            assert back[:, 0].tolist() == [c if c != 0x80 else 0x81 for c in range(256)]
        else:
            assert back[:, 0].tolist() == list(range(256)), name


@pytest.mark.parametrize("name", sorted(n for n, f in FORMATS.items() if not f.is_compressed))
def test_pack_unpack_pack_is_stable(name):
    fmt = get_format(name)
    rng = np.random.default_rng(4)
    values = rng.uniform(-2, 2, (64, 4))
    if fmt.is_integer or fmt.is_stencil:
        values = rng.integers(-300, 300, (64, 4))
    once = pack(name, values)
    assert once.shape == (64, fmt.block_size_B) and once.dtype == np.uint8
    if any(c.type in ("UNORM", "SNORM") and c.bits > 24 for c in fmt.channels):
        # 32-bit normalised channels do not fit float32's 24-bit significand.
        assert np.allclose(unpack(name, pack(name, unpack(name, once))), unpack(name, once))
    else:
        assert np.array_equal(pack(name, unpack(name, once)), once)


def test_vectorised_over_any_leading_shape():
    values = np.zeros((3, 5, 7, 4))
    values[..., 0] = 1.0
    out = pack("R16G16B16A16_FLOAT", values)
    assert out.shape == (3, 5, 7, 8)
    assert unpack("R16G16B16A16_FLOAT", out).shape == (3, 5, 7, 4)


def test_bad_requests():
    with pytest.raises(ValueError, match="block-compressed"):
        unpack("ETC2_RGB8", np.zeros(8, np.uint8))
    with pytest.raises(ValueError, match="axis of 4 bytes"):
        unpack("R8G8B8A8_UNORM", np.zeros(3, np.uint8))
    with pytest.raises(ValueError, match="axis of 4"):
        pack("R8G8B8A8_UNORM", np.zeros(3))


def test_small_floats_round_to_the_nearest_code():
    """Against a brute-force reference: the nearest of all 11-bit / 10-bit values
    (ties to the even code), for float32 inputs across the whole range."""
    rng = np.random.default_rng(9)
    x = np.concatenate([rng.random(3000) * 2.0 ** rng.integers(-24, 17, 3000),
                        [0.0, 2.0 ** -20, 1.5 * 2.0 ** -20, 65024.0, 65023.0, 64512.0, 1.0, 1.03125]])
    x = x.astype(np.float32).astype(np.float64)
    for name, bits, col, shift in (("R11G11B10_FLOAT", 11, 0, 0), ("R11G11B10_FLOAT", 10, 2, 22)):
        mant = bits - 5
        codes = np.arange((31 << mant))  # every finite code
        e, m = codes >> mant, codes & ((1 << mant) - 1)
        values = np.where(e == 0, m * 2.0 ** (-14 - mant), (1 + m / 2.0 ** mant) * 2.0 ** (e - 15))
        dist = np.abs(values[None, :] - np.minimum(x, values[-1])[:, None])
        best = dist.min(axis=1, keepdims=True)
        candidates = dist == best
        nearest = np.where(candidates.sum(1) > 1, np.argmax(candidates & (codes % 2 == 0), 1), dist.argmin(1))
        rgba = np.zeros((x.size, 4))
        rgba[:, col] = x
        word = pack(name, rgba).view(np.uint32)[:, 0]
        got = (word >> shift) & ((1 << bits) - 1)
        assert got.tolist() == nearest.tolist()
