"""layout.bptc.compress_bptc: BPTC blocks the decoder reads back, and their
fields placed where the BPTC specification (the Khronos Data Format chapter)
puts them. BC7 mode 6 endpoints are 7 bits plus one P-bit shared by the four
channels: a two-colour block whose colours each have one parity in all channels
comes back exactly; others within 1/255. BC6H mode 0x03 keeps 10-bit codes of
the unquantised value, so two colours come back within the half-float steps
that code spacing allows (the spacing is ~1/1024 of the range, hand-bounded
below)."""

import numpy as np
import pytest

from layout.bc import ENCODABLE, compress_bc
from layout.bptc import compress_bptc, decompress_bptc

RNG = np.random.default_rng(11)


def _two_colours(a, b, n=64):
    pick = RNG.integers(0, 2, (n, 4, 4, 1))
    return np.where(pick == 0, np.asarray(a, float), np.asarray(b, float))


def _decode(name, blocks, raw=False):
    return decompress_bptc(name, blocks, raw, False, None)


def test_bc7_two_colours_of_one_parity_each_are_exact():
    # (254, 0, 128, 200) is all even, (1, 255, 77, 3) all odd
    a, b = np.array([254, 0, 128, 200]), np.array([1, 255, 77, 3])
    tex = _two_colours(a / 255.0, b / 255.0)
    blocks = compress_bptc("BPTC_RGBA_UNORM", tex)
    assert blocks.shape == (64, 16) and blocks.dtype == np.uint8
    assert ((blocks[:, 0] & 0x7F) == 0x40).all()           # mode 6: bits 0-5 clear, bit 6 set
    back = _decode("BPTC_RGBA_UNORM", blocks, raw=True)
    assert (back == np.rint(tex * 255)).all()


def test_bc7_mixed_parities_are_within_one_step():
    tex = _two_colours(np.array([255, 0, 0, 204]) / 255.0, np.array([0, 255, 255, 153]) / 255.0)
    back = _decode("BPTC_RGBA_UNORM", compress_bptc("BPTC_RGBA_UNORM", tex), raw=True)
    assert np.abs(back - np.rint(tex * 255)).max() <= 1


def test_bc7_solid_block_fields_by_hand():
    # colour (2, 4, 6, 8): codes 1, 2, 3, 4 with P-bit 0 at both ends, every index 0
    tex = np.broadcast_to(np.array([2, 4, 6, 8]) / 255.0, (1, 4, 4, 4))
    bits = np.unpackbits(compress_bptc("BPTC_RGBA_UNORM", tex), bitorder="little")
    value = lambda lo, width: int(sum(int(bits[lo + i]) << i for i in range(width)))   # noqa: E731
    assert value(0, 7) == 0x40
    assert [value(7 + 14 * c, 7) for c in range(4)] == [1, 2, 3, 4]          # endpoint 0
    assert [value(14 + 14 * c, 7) for c in range(4)] == [1, 2, 3, 4]         # endpoint 1
    assert value(63, 2) == 0 and value(65, 63) == 0


@pytest.mark.parametrize("name,low", [("BPTC_RGB_UFLOAT", 0.0), ("BPTC_RGB_FLOAT", -3.0)])
def test_bc6_two_colours_round_trip_within_the_code_spacing(name, low):
    a, b = np.array([2.5, 0.0, 0.25, 1.0]), np.array([low, 10.0, 1.0, 1.0])
    tex = _two_colours(a, b)
    blocks = compress_bptc(name, tex)
    assert ((blocks[:, 0] & 0x1F) == 0x03).all()            # mode 0x03: one region, 10-bit endpoints
    back = _decode(name, blocks)
    # a 10-bit code spans 1/1024 of the 16-bit unquantised range: one code step is
    # at most 64 half-float steps, i.e. 64 * 2^-10 = 1/16 relative (here far less)
    assert np.abs(back - tex)[..., :3].max() <= 0.01 * np.abs(tex).max()
    assert (back[..., 3] == 1.0).all()


def test_bc6_unsigned_clamps_negative_values_to_zero():
    tex = _two_colours([-2.0, 0.5, 0.0, 1.0], [0.0, 0.5, 4.0, 1.0])
    back = _decode("BPTC_RGB_UFLOAT", compress_bptc("BPTC_RGB_UFLOAT", tex))
    assert back[..., 0].min() == 0.0 and np.abs(back[..., 2] - tex[..., 2]).max() <= 0.04


def test_compress_bc_dispatches_bptc_names():
    assert {"BPTC_RGBA_UNORM", "BPTC_SRGBA", "BPTC_RGB_UFLOAT", "BPTC_RGB_FLOAT"} <= set(ENCODABLE)
    tex = _two_colours([0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0], n=4)
    assert (compress_bc("BPTC_SRGBA", tex) == compress_bptc("BPTC_SRGBA", tex)).all()
