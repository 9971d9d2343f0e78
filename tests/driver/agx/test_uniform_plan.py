"""build_uniforms runs a plan made once per variant (encode._uniform_plan): the register
bytes it writes are the ones worked out here by hand from the push list, the constant
buffer and the attributes, and a plan never outlives what it was made from: a new push
tuple, or a changed default-block fact of the variant's info (window start, state
ranges, a driver value written into the block), makes a new one."""

from __future__ import annotations

import struct
from types import SimpleNamespace

import pytest

from driver.agx import encode
from driver.agx.shader import AgxShader, Push
from driver.gallium import PipeShaderType

STAGE = PipeShaderType.VERTEX
BLOCK = bytes(range(1, 65))                 # the program's default block: 64 bytes 1..64


def _ctx(block: bytes = BLOCK, state: bytes = b""):
    """What build_uniforms reads of a pipe context: constant buffers 0 (the program's
    storage) and 2 (a state block), the blend colour and alpha reference."""
    cbs = {0: SimpleNamespace(user_buffer=block, offset_B=0, size_B=len(block))}
    if state:
        cbs[2] = SimpleNamespace(user_buffer=state, offset_B=0, size_B=len(state))
    return SimpleNamespace(constant_buffers={STAGE: cbs}, blend_color=(0.5, 0.25, 1.0, 2.0),
                           dsa=SimpleNamespace(alpha_ref_value=0.75))


def _shader(push, **info) -> AgxShader:
    base = dict(default_size_B=64, program_block=True, registers_base_B=16, registers_B=16)
    base.update(info)
    return AgxShader(stage="vertex", binary=b"", push=tuple(push), info=base)


def _push():
    return [Push(0, 8, "default"),                      # register bytes 0..15: the window
            Push(8, 4, "attribute_address", index=1),   # bytes 16..23: a 64-bit address
            Push(12, 2, "attribute_stride", index=1),   # bytes 24..27
            Push(14, 2, "const", data=b"\xaa\xbb\xcc\xdd")]


def test_registers_are_the_window_the_attribute_and_the_literal():
    sh = _shader(_push())
    attributes = {1: (0x1_2345_6780, 12, 40)}
    got = encode.build_uniforms(_ctx(), None, sh, STAGE, attributes)
    assert got == BLOCK[16:32] + struct.pack("<QI", 0x1_2345_6780, 12) + b"\xaa\xbb\xcc\xdd"
    # an attribute the draw does not bind: the zero page (1 << 32), stride 0
    got = encode.build_uniforms(_ctx(), None, sh, STAGE, {})
    assert got[16:28] == struct.pack("<QI", 1 << 32, 0)


def test_a_short_constant_buffer_reads_zeros_past_its_end():
    sh = _shader(_push())
    got = encode.build_uniforms(_ctx(BLOCK[:20]), None, sh, STAGE, {})
    assert got[:16] == BLOCK[16:20] + bytes(12)


def test_a_new_push_tuple_makes_a_new_plan():
    sh = _shader(_push())
    encode.build_uniforms(_ctx(), None, sh, STAGE, {})
    push = _push()
    push[3] = Push(14, 2, "const", data=b"\x01\x02\x03\x04")
    sh.push = tuple(push)
    assert encode.build_uniforms(_ctx(), None, sh, STAGE, {})[28:32] == b"\x01\x02\x03\x04"


def test_a_changed_info_fact_makes_a_new_plan():
    sh = _shader(_push())
    assert encode.build_uniforms(_ctx(), None, sh, STAGE, {})[:16] == BLOCK[16:32]
    sh.info["registers_base_B"] = 32                    # the window moves
    assert encode.build_uniforms(_ctx(), None, sh, STAGE, {})[:16] == BLOCK[32:48]
    # a state range copied into the window (changed in place: the list is the same object)
    ranges = [[0, 0, 4]]
    sh.info.update(state_ranges=ranges, state_cb=2)
    state = b"\xee" * 8
    assert encode.build_uniforms(_ctx(state=state), None, sh, STAGE, {})[:16] == b"\xee" * 4 + BLOCK[36:48]
    ranges[0][2] = 8
    assert encode.build_uniforms(_ctx(state=state), None, sh, STAGE, {})[:16] == b"\xee" * 8 + BLOCK[40:48]
    del sh.info["state_ranges"]
    # a driver value (the blend colour) written into the window's 16 bytes
    sh.info["blend_color"] = SimpleNamespace(offset_B=0)
    got = encode.build_uniforms(_ctx(), None, sh, STAGE, {})[:16]
    assert got == struct.pack("<4f", 0.5, 0.25, 1.0, 2.0)
    del sh.info["blend_color"]
    assert encode.build_uniforms(_ctx(), None, sh, STAGE, {})[:16] == BLOCK[32:48]


def test_a_range_past_the_registers_is_refused():
    sh = _shader([Push(0, 2, "default"), Push(0, 2, "const", data=bytes(8))])
    with pytest.raises(ValueError, match="past the"):
        encode.build_uniforms(_ctx(), None, sh, STAGE, {})
