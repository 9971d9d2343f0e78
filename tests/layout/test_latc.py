"""layout's LATC formats (EXT_texture_compression_latc): BC4 blocks of luminance
(LATC1) and luminance then alpha (LATC2), decoded to (L, L, L, 1) / (L, L, L, A),
and encoded back by compress_bc. Expectations from the BC4 rules by hand."""

import numpy as np

import layout
from layout.bc import compress_bc


def test_latc_formats_are_appended_and_keep_earlier_ids():
    names = layout.FORMAT_NAMES
    latc = names.index("LATC1_UNORM")
    assert names[latc:latc + 4] == ("LATC1_UNORM", "LATC1_SNORM", "LATC2_UNORM", "LATC2_SNORM")
    assert names[latc - 1] == "I16_SNORM"                       # after every earlier format
    assert set(names[latc + 4:]) == {"FXT1_RGB", "FXT1_RGBA"}   # only later additions follow
    assert layout.get_format("LATC2_UNORM").block_size_B == 16
    assert [c.name for c in layout.get_format("LATC2_SNORM").channels] == ["L", "A"]


def test_latc_blocks_decode_by_hand():
    # e0 = 240 > e1 = 16: eight values; index 2 is (6 * 240 + 1 * 16) / 7 = 208
    lum = bytes([240, 16]) + (2).to_bytes(6, "little")          # pixel 0 index 2, the others 0
    alpha = bytes([90, 90]) + bytes(6)                            # equal endpoints: all 90
    out = layout.decompress("LATC2_UNORM", np.frombuffer(lum + alpha, np.uint8)[None], raw=True)[0]
    assert out[0, 0].tolist() == [208, 208, 208, 90]
    assert out[3, 3].tolist() == [240, 240, 240, 90]
    one = layout.decompress("LATC1_UNORM", np.frombuffer(lum, np.uint8)[None])[0]
    np.testing.assert_allclose(one[0, 0], [208 / 255] * 3 + [1.0], atol=1e-6)


def test_latc_encoding_round_trips_two_values_per_channel():
    rng = np.random.default_rng(3)
    t = np.zeros((20, 4, 4, 4))
    t[..., 0] = np.where(rng.integers(0, 2, (20, 4, 4)), 0.6, 0.2)
    t[..., 3] = np.where(rng.integers(0, 2, (20, 4, 4)), 1.0, 0.4)
    back = layout.decompress("LATC2_UNORM", compress_bc("LATC2_UNORM", t))
    np.testing.assert_allclose(back[..., 0], np.rint(t[..., 0] * 255) / 255, atol=1e-6)
    np.testing.assert_allclose(back[..., 1], back[..., 0])
    np.testing.assert_allclose(back[..., 3], np.rint(t[..., 3] * 255) / 255, atol=1e-6)
