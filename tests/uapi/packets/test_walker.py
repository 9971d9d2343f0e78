"""The forgiving VDM/CDM walker: control flow (links, calls, returns), pointers it
follows, and garbage (unknown blocks, faults, loops, random bytes)."""

from __future__ import annotations

import struct

from hypothesis import given, settings, strategies as st

from uapi import packets as P

BASE = 0x10_0000


class Mem:
    """A little GPU memory: byte array at BASE; reads outside it raise like a fault."""

    def __init__(self, size: int = 0x4000):
        self.data = bytearray(size)
        self.reads = 0

    def put(self, va: int, *chunks: bytes) -> int:
        blob = b"".join(chunks)
        self.data[va - BASE: va - BASE + len(blob)] = blob
        return va + len(blob)

    def read_words(self, va: int, n: int):
        self.reads += 1
        off = va - BASE
        if off < 0 or off + 4 * n > len(self.data):
            raise RuntimeError(f"fault at 0x{va:x}")
        return struct.unpack_from(f"<{n}I", self.data, off)


def names(items):
    return [i.name or f"?{i.error}" for i in items]


def test_vdm_walk_follows_calls_returns_and_pointers():
    m = Mem()
    usc, cf, ppp, sub, main = BASE + 0x100, BASE + 0x200, BASE + 0x300, BASE + 0x400, BASE + 0x800
    m.put(usc, P.pack("USC_SHADER", register_count=8, code=0x5000), P.pack("USC_TEXTURE", count=2, table=0x6000),
          P.pack("USC_END"))
    m.put(cf, P.pack("CF_BINDING_HEADER", slots_32=2, cf_count=4),
          P.pack("CF_BINDING", components=1, base_slot=0, base_cf=0),
          P.pack("CF_BINDING", components=3, base_slot=1, base_cf=1, shade_model="PERSPECTIVE"))
    state = P.PPP_STATE.pack(viewport=dict(scale_x=512.0), fragment_shader=dict(
        cf_binding_count=2, pipeline=usc, cf_bindings=cf))
    m.put(ppp, state)
    m.put(sub, P.pack("VDM_INDEX_LIST", primitive="LINES", count=2), P.pack("VDM_BARRIER", returns=True))
    m.put(main,
          P.pack("VDM_STATE", vertex_shader=dict(pipeline=usc)),
          P.pack("VDM_PPP_STATE_UPDATE", size_words=len(state) // 4, state=ppp),
          P.pack("VDM_STREAM_LINK", with_return=True, target=sub),
          P.pack("VDM_INDEX_LIST", primitive="TRIANGLES", count=3),
          P.pack("VDM_TERMINATE"),
          P.pack("VDM_INDEX_LIST", count=99))  # after the end: never reached
    items = list(P.walk_vdm(m.read_words, main))
    assert names(items) == ["VDM_STATE", "VDM_PPP_STATE_UPDATE", "VDM_STREAM_LINK", "VDM_INDEX_LIST",
                            "VDM_BARRIER", "VDM_INDEX_LIST", "VDM_TERMINATE"]
    assert [i.depth for i in items] == [0, 0, 0, 1, 1, 0, 0]
    assert items[3].record.primitive is P.Primitive.LINES and items[5].record.count == 3
    assert names(items[0].children) == ["USC_SHADER", "USC_TEXTURE", "USC_END"]
    ppp_item = items[1].children[0]
    assert ppp_item.error is None and ppp_item.record.members["viewport"].scale_x == 512.0
    assert names(ppp_item.children) == ["USC_SHADER", "USC_TEXTURE", "USC_END",
                                        "CF_BINDING_HEADER", "CF_BINDING", "CF_BINDING"]
    assert ppp_item.children[-1].record.components == 3
    text = P.format_stream(items)
    assert "VDM_STREAM_LINK" in text and "[PPP state] PPP_HEADER" in text and "scale_x: 512.0" in text
    assert "[CF bindings] CF_BINDING" in text and "shade_model: PERSPECTIVE" in text


def test_cdm_walk_with_call_and_return():
    m = Mem()
    usc, sub, main = BASE + 0x100, BASE + 0x200, BASE + 0x400
    m.put(usc, P.pack("USC_SHADER", code=0x7000), P.pack("USC_SHARED", local_memory_size_B=1024,
                                                          threadgroup_size_threads=64), P.pack("USC_END"))
    m.put(sub, P.pack("CDM_BARRIER"), P.pack("CDM_RETURN"))
    m.put(main, P.pack("CDM_LAUNCH", pipeline=usc, grid_x_tg=4, threadgroup_x_threads=64),
          P.pack("CDM_STREAM_LINK", with_return=True, target=sub),
          P.pack("CDM_LAUNCH", mode="INDIRECT", pipeline=usc, indirect_buffer=BASE),
          P.pack("CDM_TERMINATE"))
    items = list(P.walk_cdm(m.read_words, main))
    assert names(items) == ["CDM_LAUNCH", "CDM_STREAM_LINK", "CDM_BARRIER", "CDM_RETURN", "CDM_LAUNCH",
                            "CDM_TERMINATE"]
    assert names(items[0].children) == ["USC_SHADER", "USC_SHARED", "USC_END"]
    assert items[0].children[1].record.local_memory_size_B == 1024


def test_unknown_blocks_are_hexdumped_and_skipped():
    m = Mem()
    m.put(BASE, struct.pack("<I", 7 << 29 | 0x1234), P.pack("VDM_BARRIER"), P.pack("VDM_TERMINATE"))
    items = list(P.walk_vdm(m.read_words, BASE))
    assert names(items)[1:] == ["VDM_BARRIER", "VDM_TERMINATE"]
    assert items[0].words == (7 << 29 | 0x1234,) and "unknown VDM block type 7" in items[0].error
    assert "e0001234  (unknown VDM block type 7)" in P.format_stream(items)


def test_fault_ends_the_walk_with_an_error():
    m = Mem()
    m.put(BASE, P.pack("VDM_STREAM_LINK", target=0x9000_0000))
    items = list(P.walk_vdm(m.read_words, BASE))
    assert names(items)[0] == "VDM_STREAM_LINK" and "fault at 0x90000000" in items[1].error
    assert len(items) == 2


def test_loops_and_runaway_calls_are_bounded():
    m = Mem()
    m.put(BASE, P.pack("VDM_BARRIER"), P.pack("VDM_STREAM_LINK", target=BASE))
    items = list(P.walk_vdm(m.read_words, BASE))
    assert "loop" in items[-1].error and len(items) == 5
    m.put(BASE + 0x100, P.pack("CDM_STREAM_LINK", with_return=True, target=BASE + 0x100))
    items = list(P.walk_cdm(m.read_words, BASE + 0x100, max_depth=5))
    assert "deeper than 5" in items[-1].error and len(items) == 7
    m.put(BASE + 0x200, b"\x00" * 64)  # zero words are PPP state updates of size 0 at address 0
    items = list(P.walk_vdm(m.read_words, BASE + 0x200, max_blocks=10, follow=False))
    assert "more than 10 blocks" in items[-1].error


def test_a_ppp_size_mismatch_is_reported():
    m = Mem()
    state = P.PPP_STATE.pack(zs=dict())
    m.put(BASE + 0x100, state)
    m.put(BASE, P.pack("VDM_PPP_STATE_UPDATE", size_words=5, state=BASE + 0x100), P.pack("VDM_TERMINATE"))
    item = list(P.walk_vdm(m.read_words, BASE))[0].children[0]
    assert "2 words but the update says 5" in item.error


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=4, max_size=512), st.integers(0, 60))
def test_random_bytes_never_crash_or_hang(blob, start_word):
    for walk in (P.walk_vdm, P.walk_cdm):
        m = Mem(0x400)
        m.put(BASE, blob)
        items = list(walk(m.read_words, BASE + 4 * start_word, max_blocks=2000))
        assert len(items) <= 2001
        assert m.reads < 20000
        P.format_stream(items)


def test_memory_reader_walks_a_gpu_memory_and_reports_its_faults():
    from drmshim.memory import FlatMemory
    mem = FlatMemory(0x1000, BASE)
    mem.write(BASE, P.pack("VDM_BARRIER") + P.pack("VDM_STREAM_LINK", target=BASE + 0x2000), "TEST")
    items = list(P.walk_vdm(P.memory_reader(mem), BASE))
    assert names(items)[:2] == ["VDM_BARRIER", "VDM_STREAM_LINK"]
    assert "GPU fault" in items[2].error and mem.faults[0].unit == "VDM"
