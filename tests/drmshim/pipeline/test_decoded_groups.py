"""usc_words.decoded of a group (the PPP state, a VDM state block) decodes its header
and member records each by their own bytes: the same record as Group.unpack, the
members shared with an earlier group of the same member bytes (a draw's PPP state
differs from the last one's in the fragment shader's pipeline address only), and a
group shorter than its header announces raises as unpack does."""

from __future__ import annotations

import pytest

from drmshim.gpu.pipeline import usc_words
from drmshim.gpu.pipeline.usc_words import decoded
from uapi import packets as P


@pytest.fixture(autouse=True)
def _empty():
    usc_words._DECODED.clear()
    yield
    usc_words._DECODED.clear()


def _ppp(pipeline: int) -> bytes:
    return P.pack("PPP_STATE", viewport=dict(scale_x=8.0, translate_x=8.0),
                  scissor=dict(max_x_px=16, max_y_px=16),
                  fragment_shader=dict(pipeline=pipeline, cf_bindings=0x4000, cf_binding_count=2),
                  zs=dict(depth_write=True), msaa=dict(sample_count=1, sample_mask=0xFFFF))


def test_a_group_decodes_as_unpack_with_shared_members():
    group = P.lookup("PPP_STATE")
    first, second = decoded(group, _ppp(0x1000)), decoded(group, _ppp(0x2040))
    assert first == group.unpack(_ppp(0x1000)) and second == group.unpack(_ppp(0x2040))
    assert first.members["fragment_shader"].pipeline == 0x1000
    assert second.members["fragment_shader"].pipeline == 0x2040
    for m in ("viewport", "scissor", "zs", "msaa"):
        assert second.members[m] is first.members[m]       # the same bytes: one record
    vdm = P.pack("VDM_STATE", vertex_shader=dict(pipeline=0x3000), vertex_outputs=dict(output_count_words=8))
    assert decoded(P.lookup("VDM_STATE"), vdm) == P.unpack("VDM_STATE", vdm)


def test_a_short_group_raises_as_unpack():
    raw = _ppp(0x1000)[:-4]
    with pytest.raises(ValueError) as expected:
        P.lookup("PPP_STATE").unpack(raw)
    with pytest.raises(ValueError) as got:
        decoded(P.lookup("PPP_STATE"), raw)
    assert str(got.value) == str(expected.value)
