"""The packet table: literal words worked out by hand, pack's checks, unpack's
reports, a round-trip sweep over every field of every packet, groups, the README."""

from __future__ import annotations

import struct

import pytest

from uapi import packets as P
from uapi.packets import docs
from uapi.packets.table import Field, Packet, boolean, uint


def words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


# -- literal encodings, worked out by hand from README.md's tables -------------------

def test_vdm_terminate_is_block_type_6_in_bits_29_to_31():
    assert words(P.pack("VDM_TERMINATE")) == [6 << 29]


def test_index_list_literal_words():
    data = P.pack(P.VDM_INDEX_LIST, primitive="TRIANGLES", index_size=P.IndexSize.U16, indexed=True,
                  restart_enable=True, index_buffer=0x12_3456_7890, index_buffer_size_B=72,
                  count=36, instances=2, base_vertex=-3, base_instance=5, indirect_buffer=0x1000)
    # word 0: block type 3 << 29 | restart 1 << 6 | indexed 1 << 7 | U16 1 << 4 | TRIANGLES 6
    assert words(data) == [0x6000_00D6, 0x3456_7890, 0x12, 72, 0xFFFF_FFFF, 36, 2,
                           0xFFFF_FFFD, 5, 0x1000 >> 2, 0]


def test_texture_literal_words_minus_one_and_shr():
    data = P.pack(P.TEXTURE, target="TEXTURE_2D_ARRAY", tiling="TWIDDLED", srgb=True, format_id=17,
                  swizzle_a="ONE", width_px=256, height_px=128, sample_count=4, depth_px=6, levels=9,
                  first_level=1, last_level=8, address=0x1_0000_4000, linear_stride_B=0,
                  layer_stride_B=0x8_0000)
    w0 = 3 | 1 << 4 | 1 << 6 | 17 << 8 | 0 << 18 | 1 << 21 | 2 << 24 | 5 << 27
    w1 = 255 | 127 << 14 | 2 << 28
    w2 = 5 | 8 << 14 | 1 << 18 | 8 << 22
    addr = 0x1_0000_4000 >> 4  # 36 bits from bit 96: word 3 low 32 bits, word 4 the rest
    assert words(data) == [w0, w1, w2, addr & 0xFFFF_FFFF, addr >> 32, 0x8_0000 >> 7]
    assert words(P.pack(P.TEXTURE, tiling="LINEAR", linear_stride_B=0x1230))[4] == 0x123 << 4


def test_sampler_literal_words():
    data = P.pack(P.SAMPLER, min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR",
                  wrap_s="CLAMP_TO_EDGE", wrap_t="MIRRORED_REPEAT", wrap_r="CLAMP_TO_BORDER",
                  compare_enable=True, compare_func="GREATER", border_colour="CUSTOM",
                  seamless_cube=True, lod_min=0.0, lod_max=4.0, lod_bias=-0.5)
    w0 = 1 | 1 << 1 | 2 << 2 | 0 << 4 | 2 << 7 | 3 << 10 | 1 << 13 | 4 << 14 | 3 << 17 | 1 << 19
    assert words(data) == [w0, 0, 0x4080_0000, 0xBF00_0000]
    assert words(P.pack(P.SAMPLER_BORDER, border_3=0x3F80_0000)) == [0, 0, 0, 0x3F80_0000]


def test_cf_binding_and_stream_link_literals():
    assert words(P.pack("CF_BINDING", components=4, shade_model="PERSPECTIVE", base_slot=2, base_cf=5)) \
        == [3 | 2 << 2 | 2 << 8 | 5 << 16]
    assert words(P.pack("VDM_STREAM_LINK", with_return=True, target=0xAB_CDEF_0000)) \
        == [4 << 29 | 1 << 28, (0xAB_CDEF_0000 >> 2) & 0xFFFF_FFFF, 0xAB_CDEF_0000 >> 34]
    assert words(P.pack("CDM_LAUNCH", mode="INDIRECT", pipeline=0x4000, grid_x_tg=3,
                        threadgroup_x_threads=64, threadgroup_y_threads=2, indirect_buffer=0x8000)) \
        == [1, 0x1000, 0, 3, 1, 1, 64 | 2 << 16, 1, 0x2000, 0]


def test_ppp_group_literal_words():
    data = P.PPP_STATE.pack(scissor=dict(min_x_px=1, max_x_px=2, min_y_px=3, max_y_px=4),
                            zs=dict(depth_func="LESS", depth_write=True))
    assert words(data) == [1 << 1 | 1 << 7, 1 | 2 << 16, 3 | 4 << 16, 1 | 1 << 3]


# -- pack's checks ---------------------------------------------------------------------

@pytest.mark.parametrize("packet, fields, needle", [
    ("TEXTURE", dict(width_px=0), "width_px"),                   # minus(1) below 1
    ("TEXTURE", dict(width_px=16385), "width_px"),               # does not fit 14 bits
    ("TEXTURE", dict(address=0x1008), "address"),                # shr(4) would lose bits
    ("TEXTURE", dict(sample_count=3), "sample_count"),           # log2 of a non power of two
    ("TEXTURE", dict(target="TEXTURE_4D"), "target"),            # not an enum member
    ("TEXTURE", dict(swizzle_r=7), "swizzle_r"),                 # value naming no member
    ("TEXTURE", dict(colour=1), "colour"),                       # no such field
    ("VDM_INDEX_LIST", dict(base_vertex=1 << 31), "base_vertex"),  # signed range
    ("VDM_INDEX_LIST", dict(count=-1), "count"),
    ("VDM_INDEX_LIST", dict(count=1.5), "count"),
    ("VDM_INDEX_LIST", dict(block_type="BARRIER"), "block_type"),  # exact field
    ("PPP_RASTER", dict(cull_back=2), "cull_back"),
])
def test_pack_rejects_with_the_field_named(packet, fields, needle):
    with pytest.raises(ValueError, match=needle):
        P.pack(packet, **fields)


def test_field_overlap_is_rejected_when_the_table_is_built():
    with pytest.raises(AssertionError, match="overlaps"):
        Packet("TEST_OVERLAP", 1, [uint("a", 0, 4), boolean("b", 3)])
    with pytest.raises(AssertionError, match="runs past"):
        Packet("TEST_PAST_END", 1, [uint("a", 30, 4)])
    assert "TEST_OVERLAP" not in P.PACKETS and "TEST_PAST_END" not in P.PACKETS


# -- unpack's reports ------------------------------------------------------------------

def test_unpack_reports_undefined_bits_and_bad_enums():
    raw = list(words(P.pack("PPP_ZS", depth_func="GEQUAL")))
    raw[0] |= 1 << 20
    rec = P.unpack("PPP_ZS", raw)
    assert rec.depth_func is P.CompareFunc.GEQUAL
    assert rec.undefined == [(0, 1 << 20)]
    assert any("undefined" in p for p in rec.problems)
    bad = P.unpack("SAMPLER", [3 << 2, 0, 0, 0])  # mip_filter = 3 names nothing
    assert bad.mip_filter == 3 and any("mip_filter" in p for p in bad.problems)
    assert P.unpack("SAMPLER", P.pack("SAMPLER")).problems == []


def test_format_names_fields_and_problems():
    raw = words(P.pack("VDM_BARRIER", usc_cache_invalidate=True))
    text = P.format(P.unpack("VDM_BARRIER", [raw[0] | 1 << 12]))
    assert "VDM_BARRIER" in text and "usc_cache_invalidate: True" in text
    assert "(!) nonzero undefined bits in word 0: 0x00001000" in text
    import io
    out = io.StringIO()
    P.print_record(P.unpack("VDM_BARRIER", raw), file=out)
    assert out.getvalue() == P.format(P.unpack("VDM_BARRIER", raw)) + "\n"


# -- every field of every packet round-trips at its extremes ----------------------------

def extremes(f: Field) -> list:
    if f.type == "bool":
        return [False, True]
    if f.type == "float":
        return [0.0, -2.5, 2.0 ** 100, float("inf")]
    if f.type == "enum":
        return list(f.enum)
    mod = f.modifier
    enc = [0, (1 << f.size) - 1, 1 << (f.size // 2)]
    if f.type == "int":
        return [-(1 << (f.size - 1)), -1, 0, (1 << (f.size - 1)) - 1]
    if mod is None:
        return enc
    if mod.kind == "minus":
        return [e + mod.amount for e in enc]
    if mod.kind == "shr":
        return [e << mod.amount for e in enc]
    return [1 << e for e in enc]


@pytest.mark.parametrize("name", sorted(P.PACKETS))
def test_every_field_round_trips(name):
    packet = P.PACKETS[name]
    for f in packet.fields:
        if f.exact is not None:
            continue
        for v in extremes(f):
            rec = packet.unpack(packet.pack(**{f.name: v}))
            assert rec[f.name] == v, (name, f.name, v)
            assert rec.problems == [], (name, f.name, v, rec.problems)
            others = {g.name: rec[g.name] for g in packet.fields if g is not f and g.exact is None}
            assert all(others[g] == packet.by_name[g].decode(packet.by_name[g].encode(packet.by_name[g].default))
                       for g in others), (name, f.name, "disturbed a neighbour")


def test_group_round_trip_and_sizes():
    data = P.pack("VDM_STATE", vertex_shader=dict(pipeline=0x4_0000), vertex_outputs=dict(output_count_words=9))
    rec = P.unpack("VDM_STATE", data)
    assert rec.size_words == 4 and len(data) == 16
    assert rec.members["vertex_shader"].pipeline == 0x4_0000
    assert rec.members["vertex_outputs"].output_count_words == 9
    assert rec.header.block_type is P.VDMBlock.VDM_STATE_UPDATE
    with pytest.raises(ValueError, match="no member"):
        P.pack("PPP_STATE", blend=dict())


def test_enums_have_the_documented_values():
    assert [int(P.CompareFunc[n]) for n in ("NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL",
                                             "GEQUAL", "ALWAYS")] == list(range(8))
    assert [int(b) for b in (P.VDMBlock.PPP_STATE_UPDATE, P.VDMBlock.BARRIER, P.VDMBlock.VDM_STATE_UPDATE,
                             P.VDMBlock.INDEX_LIST, P.VDMBlock.STREAM_LINK, P.VDMBlock.TERMINATE)] == [0, 1, 2, 3, 4, 6]
    assert P.IndexSize.U32.size_B == 4
    assert (P.TEXTURE_DESC_B, P.SAMPLER_DESC_B, P.SAMPLER_EXTENDED_DESC_B, P.PBE_DESC_B) == (24, 16, 32, 32)


def test_readme_tables_are_generated_from_the_table():
    text = docs.README.read_text()
    assert docs.BEGIN in text
    assert text.split(docs.BEGIN)[1] == docs.generated_section().split(docs.BEGIN)[1] + "\n", \
        "README.md is stale: run python -m uapi.packets.docs"


from hypothesis import given, settings, strategies as st  # noqa: E402


def field_values(f: Field):
    """A strategy of every valid logical value of a field."""
    if f.type == "bool":
        return st.booleans()
    if f.type == "float":
        return st.floats(width=32, allow_nan=False)
    if f.type == "enum":
        return st.sampled_from(list(f.enum))
    if f.type == "int":
        return st.integers(-(1 << (f.size - 1)), (1 << (f.size - 1)) - 1)
    enc = st.integers(0, (1 << f.size) - 1)
    m = f.modifier
    if m is None:
        return enc
    if m.kind == "minus":
        return enc.map(lambda e: e + m.amount)
    if m.kind == "shr":
        return enc.map(lambda e: e << m.amount)
    return st.integers(0, min((1 << f.size) - 1, 62)).map(lambda e: 1 << e)


@st.composite
def packet_and_values(draw):
    packet = draw(st.sampled_from(sorted(P.PACKETS.values(), key=lambda p: p.name)))
    values = {f.name: draw(field_values(f)) for f in packet.fields if f.exact is None}
    return packet, values


@settings(max_examples=400, deadline=None)
@given(packet_and_values())
def test_random_packets_round_trip_all_fields_at_once(pv):
    packet, values = pv
    data = packet.pack(**values)
    assert len(data) == packet.size_B
    rec = packet.unpack(data)
    assert rec.problems == []
    assert {k: rec[k] for k in values} == values
    assert packet.pack(**{k: rec[k] for k in values}) == data
