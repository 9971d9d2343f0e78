"""driver.agx.packed: packed words remembered by their values give exactly what
uapi.packets.pack gives, for values that compare equal but pack differently too."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from driver.agx import packed as packed_module
from driver.agx.packed import packed
from uapi import packets as P


@pytest.fixture(autouse=True)
def _empty_memo():
    packed_module._PACKED.clear()
    packed_module._TEMPLATES.clear()
    yield
    packed_module._PACKED.clear()
    packed_module._TEMPLATES.clear()


def _word(raw: bytes, i: int) -> int:
    return struct.unpack_from("<I", raw, 4 * i)[0]


def test_equal_floats_of_different_bits_pack_apart():
    plus = packed("PPP_VIEWPORT", translate_x=0.0)
    minus = packed("PPP_VIEWPORT", translate_x=-0.0)
    assert _word(plus, 0) == 0x00000000
    assert _word(minus, 0) == 0x80000000          # IEEE 754 negative zero
    assert packed("PPP_VIEWPORT", translate_x=0.0) == plus
    assert packed("PPP_VIEWPORT", translate_x=np.float32(-0.0)) == minus


def test_ints_bools_and_floats_of_equal_value_are_separate_entries():
    one_int = packed("PPP_VIEWPORT", scale_x=1)
    one_float = packed("PPP_VIEWPORT", scale_x=1.0)
    assert one_int == one_float == P.pack("PPP_VIEWPORT", scale_x=1.0)
    assert _word(one_float, 1) == 0x3F800000
    assert len(packed_module._PACKED) == 2        # 1 and 1.0 hash alike: the key holds the type


def test_matches_pack_for_enums_ints_and_groups():
    fields = dict(primitive=P.Primitive.TRIANGLES, instances=3, base_vertex=-2, base_instance=1, count=6)
    assert packed("VDM_INDEX_LIST", **fields) == P.pack("VDM_INDEX_LIST", **fields)
    assert packed("VDM_INDEX_LIST", **fields) == P.pack("VDM_INDEX_LIST", **fields)   # from the memo
    state = dict(vertex_shader=dict(pipeline=0x1000), vertex_outputs=dict(output_count_words=8))
    assert packed("VDM_STATE", **state) == P.pack("VDM_STATE", **state)
    other = dict(vertex_shader=dict(pipeline=0x2000), vertex_outputs=dict(output_count_words=8))
    assert packed("VDM_STATE", **other) == P.pack("VDM_STATE", **other) != P.pack("VDM_STATE", **state)


def test_nan_payloads_are_kept():
    quiet = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0]
    other = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000002))[0]
    for value in (quiet, other):
        assert packed("PPP_VIEWPORT", translate_x=value) == P.pack("PPP_VIEWPORT", translate_x=value)


def test_unhashable_values_are_packed_every_time():
    value = np.array(5, np.uint32)                # a 0-d array: not a key
    assert packed("VDM_INDEX_LIST", count=value) == P.pack("VDM_INDEX_LIST", count=5)
    assert not packed_module._PACKED


def test_bad_values_raise_and_are_not_kept():
    with pytest.raises(ValueError):
        packed("VDM_INDEX_LIST", no_such_field=1)
    with pytest.raises(ValueError):
        packed("VDM_INDEX_LIST", no_such_field=1)
    assert not packed_module._PACKED


def _int_fields(packet):
    return [f for f in packet.fields if f.exact is None and f.type in ("uint", "int", "address")]


@pytest.mark.parametrize("name", ["VDM_INDEX_LIST", "USC_UNIFORM", "USC_SHADER", "USC_TEXTURE", "USC_SAMPLER",
                                  "PPP_SCISSOR", "CF_BINDING", "VDM_PPP_STATE_UPDATE"])
def test_changing_integer_fields_pack_as_pack_does(name):
    """A packet packed again with other integer values (addresses, counts) comes from its
    template: bit for bit what pack gives, modifiers (shr, minus, log2) and signed
    fields included, over random values of every integer field's range."""
    packet = P.lookup(name)
    rng = np.random.default_rng(7)
    fixed = {f.name: f.default for f in packet.fields if f.exact is None and f.name not in
             {g.name for g in _int_fields(packet)}}
    seen = 0
    for _ in range(40):
        values = dict(fixed)
        for f in _int_fields(packet):
            for _ in range(20):                # a logical value its modifier and width accept
                v = int(rng.integers(-(1 << min(f.size, 40)), 1 << min(f.size + 4, 44)))
                try:
                    f.encode(v)
                except ValueError:
                    continue
                values[f.name] = v
                break
        try:
            expected = P.pack(name, **values)
        except ValueError:
            continue
        assert packed(name, **values) == expected, values
        seen += 1
    assert seen >= 20 and packed_module._TEMPLATES


def test_a_bad_integer_raises_from_the_template_too():
    assert packed("USC_UNIFORM", start_halves=0, size_halves=4, buffer=0x1000) == \
        P.pack("USC_UNIFORM", start_halves=0, size_halves=4, buffer=0x1000)
    assert packed_module._TEMPLATES                # the next values come from the template
    with pytest.raises(ValueError):
        packed("USC_UNIFORM", start_halves=0, size_halves=4, buffer=1 << 60)
    with pytest.raises(ValueError):
        packed("USC_UNIFORM", start_halves=-1, size_halves=4, buffer=0x2000)


def test_template_integers_encode_and_refuse_as_field_encode_does():
    """Every packet with integer fields (the minus, shr and log2 modifiers and signed
    fields included): from its template, a value Field.encode takes packs as pack
    does, and one it refuses (negative, too wide, low bits set under shr, below a
    minus) raises ValueError with pack's message, the template unchanged after."""
    from uapi.packets.table import PACKETS
    rng = np.random.default_rng(11)
    packets = [p for p in PACKETS.values() if _int_fields(p)]
    assert any(f.modifier is not None and f.modifier.kind == k for p in packets for f in _int_fields(p)
               for k in ("minus", "shr"))
    checked = refused = 0
    for packet in packets:
        fields = _int_fields(packet)
        base = {f.name: f.default for f in packet.fields if f.exact is None}
        try:
            base_bytes = packed(packet.name, **base)       # makes the template (when ints are in it)
        except ValueError:
            continue
        assert base_bytes == P.pack(packet.name, **base)
        for f in fields:
            m = f.modifier
            special = [0, 1, -1, (1 << f.size) - 1, 1 << f.size, -(1 << (f.size - 1)), (1 << (f.size - 1)) - 1]
            if m is not None:
                special += [m.amount, m.amount - 1, m.amount + (1 << f.size), (1 << f.size) << m.amount,
                            ((1 << f.size) - 1) << m.amount, 3 << m.amount, (3 << m.amount) + 1]
            for v in special + [int(x) for x in rng.integers(-(1 << 40), 1 << 44, 8)]:
                values = dict(base, **{f.name: v})
                try:
                    want = P.pack(packet.name, **values)
                except ValueError as e:
                    with pytest.raises(ValueError) as got:
                        packed(packet.name, **values)
                    assert str(got.value) == str(e)
                    refused += 1
                    continue
                assert packed(packet.name, **values) == want, (packet.name, f.name, v)
                checked += 1
        assert packed(packet.name, **base) == base_bytes
    assert checked > 200 and refused > 100


def test_packer_gives_pack_bytes_and_refuses_as_field_encode_does():
    """packer(what, *names, **fixed): for every packet with integer fields, a call site's
    function of those fields gives pack's bytes for every value Field.encode takes (the
    first call included, which makes its template), and for one it refuses raises
    ValueError with pack's message, later calls unaffected."""
    from driver.agx.packed import packer
    from uapi.packets.table import PACKETS
    rng = np.random.default_rng(13)
    checked = refused = 0
    for packet in [p for p in PACKETS.values() if _int_fields(p)]:
        names = [f.name for f in _int_fields(packet)]
        fixed = {f.name: f.default for f in packet.fields if f.exact is None and f.name not in names}
        base = [packet.by_name[n].default for n in names]
        try:
            base_bytes = P.pack(packet.name, **fixed, **dict(zip(names, base)))
        except ValueError:
            continue
        pack_fn = packer(packet.name, *names, **fixed)
        assert pack_fn(*base) == base_bytes
        for i, f in enumerate(_int_fields(packet)):
            m = f.modifier
            special = [0, 1, -1, (1 << f.size) - 1, 1 << f.size, -(1 << (f.size - 1))]
            if m is not None:
                special += [m.amount, m.amount - 1, (1 << f.size) << m.amount, (3 << m.amount) + 1]
            for v in special + [int(x) for x in rng.integers(-(1 << 40), 1 << 44, 6)]:
                values = base[:i] + [v] + base[i + 1:]
                try:
                    want = P.pack(packet.name, **fixed, **dict(zip(names, values)))
                except ValueError as e:
                    with pytest.raises(ValueError) as got:
                        pack_fn(*values)
                    assert str(got.value) == str(e)
                    refused += 1
                    continue
                assert pack_fn(*values) == want, (packet.name, f.name, v)
                checked += 1
        assert pack_fn(*base) == base_bytes
    assert checked > 200 and refused > 100


def test_packer_keeps_its_fixed_fields_and_takes_other_values():
    """Two call sites of one packet with different fixed fields pack their own; a value
    that is not an int (a numpy integer) and a template-less packet go through packed;
    the wrong number of values is a TypeError."""
    from driver.agx.packed import packer
    member = P.PPP_STATE.members["fragment_shader"]
    fixed = dict(cf_binding_count=3, cf_bindings=0x8000)          # as _ppp_members sets them
    other = dict(cf_binding_count=3, cf_bindings=0x8040)          # another batch's bindings
    a, b = packer(member, "pipeline", **fixed), packer(member, "pipeline", **other)
    for va in (0x1000, 0x2040, 0x4000_0000):
        assert a(va) == P.pack(member, pipeline=va, **fixed)
        assert b(va) == P.pack(member, pipeline=va, **other)
        assert a(va) != b(va)
    assert a(np.uint64(0x3000)) == P.pack(member, pipeline=0x3000, **fixed)
    with pytest.raises(TypeError):
        a(0x1000, 2)
    usc_end = packer("USC_END")                    # no integer field: no template, packed each time
    assert usc_end() == P.pack("USC_END") and usc_end() == P.pack("USC_END")


def test_group_packer_gives_pack_bytes():
    """A group's packer (one member's integer fields change, the other members fixed):
    the group's bytes as pack gives them, for each output count and address; a bad
    address raises as pack does; names of two members or none are refused."""
    from driver.agx.packed import packer
    for outputs in (0, 4, 255):
        fn = packer("VDM_STATE", "vertex_shader.pipeline", vertex_outputs=dict(output_count_words=outputs))
        for va in (0x40, 0x1_0000_0040, 0x4000_0000_00):
            assert fn(va) == P.pack("VDM_STATE", vertex_shader=dict(pipeline=va),
                                    vertex_outputs=dict(output_count_words=outputs)), (outputs, va)
        with pytest.raises(ValueError):
            fn(1 << 60)
    alone = packer("VDM_STATE", "vertex_shader.pipeline")
    assert alone(0x80) == P.pack("VDM_STATE", vertex_shader=dict(pipeline=0x80))
    with pytest.raises(ValueError):
        packer("VDM_STATE", "vertex_shader.pipeline", "statistics.counters")
    with pytest.raises(ValueError):
        packer("VDM_STATE", "pipeline")
