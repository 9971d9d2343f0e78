"""The ISA's 16-bit packed unorm memory formats (rgb565, rgba4, rgb5a1): component
0 in the lowest bits, unorm rounding to nearest, clamping, a missing alpha read as
1, and 2-byte accesses. Expected words are packed here by hand."""

import numpy as np
import pytest

from uapi.isa.semantics import FORMAT_ELEMENT_B, UNORM_FORMATS, format_bytes, pack_format, unpack_format


@pytest.mark.parametrize("fmt, values, word", [
    # 1.0 -> 31 in bits 0-4; 0.5 -> round(31.5) = 32 (even) in bits 5-10; 0.2 -> round(6.2) = 6 in bits 11-15
    ("rgb565", [1.0, 0.5, 0.2], 31 | 32 << 5 | 6 << 11),
    # 4 bits each: round(15 * [0, 1/3, 0.6, 1]) = 0, 5, 9, 15
    ("rgba4", [0.0, 1 / 3, 0.6, 1.0], 0 | 5 << 4 | 9 << 8 | 15 << 12),
    # 5, 5, 5, 1 bits: 0.1 -> round(3.1) = 3, 0.9 -> 28, 1.0 -> 31, alpha 0.7 -> 1
    ("rgb5a1", [0.1, 0.9, 1.0, 0.7], 3 | 28 << 5 | 31 << 10 | 1 << 15),
    # clamping: negative -> 0, above 1 -> all ones, NaN -> 0
    ("rgb565", [-2.0, 7.0, np.nan], 0 | 63 << 5 | 0 << 11),
])
def test_pack_and_unpack_by_hand(fmt, values, word):
    n = len(values)
    packed = pack_format(fmt, np.array([values], np.float32), n)
    assert packed.dtype == np.uint16 and int(packed[0]) == word
    back = unpack_format(fmt, packed, n)
    widths = {"rgb565": (5, 6, 5), "rgba4": (4, 4, 4, 4), "rgb5a1": (5, 5, 5, 1)}[fmt]
    shift, want = 0, []
    for bits in widths:
        want.append(((word >> shift) & ((1 << bits) - 1)) / ((1 << bits) - 1))
        shift += bits
    assert np.allclose(back[0], want[:n], atol=1e-7)


def test_missing_alpha_reads_one_and_accesses_are_two_bytes():
    assert unpack_format("rgb565", np.array([0xFFFF], np.uint16), 4)[0, 3] == 1.0
    for fmt in ("rgb565", "rgba4", "rgb5a1"):
        assert FORMAT_ELEMENT_B[fmt] == 2 and format_bytes(fmt, 4) == 2 and fmt in UNORM_FORMATS
