"""The ISA's cross-lane reads (``simd.ballot/.shuffle/.first/.lane``, ARB_shader_ballot)
within SIMD groups of 32 lanes: results against expectations computed lane by lane in
the test, inside divergent control flow (ballots and first-lane reads see the active
lanes only, only active lanes are written), with compute threadgroups that are not a
multiple of 32 (groups restart at each threadgroup), and the native tier equal to the
interpreter bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from tests.drmshim.usc.test_group_vote import _run, groups_of
from tests.drmshim.usc.test_native_tier import _resolve_labels, assert_same, run_both
from uapi.isa.semantics import simd, simd_group_starts


def expected(mode: str, a, b, active, groups):
    """Per lane, by hand from the lane lists of each group."""
    out = np.zeros(len(a), np.uint32)
    for lanes in groups:
        mask = sum(1 << k for k, i in enumerate(lanes) if active[i] and a[i] != 0)
        first = next((i for i in lanes if active[i]), None)
        for k, i in enumerate(lanes):
            if mode == "ballot":
                out[i] = mask
            elif mode == "lane":
                out[i] = k
            elif mode == "first":
                out[i] = a[first] if first is not None else 0
            else:
                j = int(b[i]) & 31
                out[i] = a[lanes[j]] if j < len(lanes) else 0
    return out


def test_semantics_by_hand():
    a = np.arange(40, dtype=np.uint32) * 3
    active = np.ones(40, bool)
    active[[0, 1, 33]] = False
    starts = simd_group_starts(40)
    assert simd("lane", a, 0, active, starts).tolist() == list(range(32)) + list(range(8))
    ballot = simd("ballot", a, 0, active, starts)
    assert ballot[0] == (0xFFFFFFFF & ~0b11) and ballot[35] == (0xFF & ~0b10)     # lane 0's a is 0 anyway
    assert simd("first", a, 0, active, starts).tolist() == [6] * 32 + [96] * 8
    b = np.full(40, 9, np.uint32)
    b[32:] = 7 + 32            # lane 7 of the partial group: inside; only the low 5 bits count
    assert simd("shuffle", a, b, active, starts).tolist() == [27] * 32 + [(32 + 7) * 3] * 8
    b[32:] = 12                # past the partial group's end
    assert simd("shuffle", a, b, active, starts).tolist()[32:] == [0] * 8


@pytest.mark.parametrize("mode", ["ballot", "shuffle", "first", "lane"])
@pytest.mark.parametrize("threadgroup", [0, 48])
def test_in_divergent_control_flow(mode, threadgroup):
    """Lanes with r3 < 5 take the branch; the others keep r4's old value."""
    rng = np.random.default_rng(hash(mode) % 1000 + threadgroup)
    lanes = 480
    r2 = (rng.integers(0, 4, lanes) * rng.integers(1, 1000, lanes)).astype(np.uint32)
    r3 = rng.integers(0, 8, lanes).astype(np.uint32)
    r5 = rng.integers(0, 64, lanes).astype(np.uint32)
    old = np.full(lanes, 0xDEAD, np.uint32)
    asm = f"if_icmp.ult r3, 5, 1\nsimd.{mode} r4, r2, r5\npop_exec 1"
    kw = {"threadgroup_lanes": threadgroup} if threadgroup else {}
    regs = _run(asm, lanes, {2: r2, 3: r3, 4: old, 5: r5}, **kw)
    active = r3 < 5
    want = np.where(active, expected(mode, r2, r5, active, groups_of(lanes, threadgroup)), 0xDEAD)
    assert regs[4].tolist() == want.tolist()


@pytest.mark.parametrize("ctx_kw", [{}, {"threadgroup_lanes": 48}, {"threadgroup_lanes": 16}])
def test_native_tier_equals_the_interpreter(ctx_kw):
    """Every mode, from registers, uniforms and immediates, inside an if/else and a loop,
    sources overwritten by the result: both tiers, bit for bit."""
    rng = np.random.default_rng(11)
    lanes = 1440
    inputs = {k: (rng.random(lanes) < 0.5).astype(np.uint32) * rng.integers(1, 1 << 20, lanes).astype(np.uint32)
              for k in range(2, 18)}
    inputs[18] = rng.integers(0, 8, lanes).astype(np.uint32)
    asm = "\n".join([
        "simd.ballot r20, u3, 0", "simd.lane r21, r5, 0", "simd.shuffle r28, r9, 3",
        "if_icmp.ult r18, 4, 1", "simd.ballot r22, r2, 0", "simd.first r23, r3, 0", "simd.shuffle r24, r4, r10",
        "else_icmp.ugt r18, 5, 1", "simd.first r25, r5, 0", "simd.shuffle r6, r6, r6",
        "pop_exec 1",
        "mov_imm r13, 0", "while_icmp.ult r13, r18, 1", "jmp_exec_none @end", "@top:",
        "simd.ballot r26, r7, 0", "iadd r13, r13, 1", "simd.first r27, r13, 0",
        "while_icmp.ult r13, r18, 1", "jmp_exec_any @top", "@end:", "pop_exec 1"])
    asm = _resolve_labels(asm.split("\n"))
    a, b = run_both(asm, lanes, rng, ctx_kw=ctx_kw, inputs=inputs, batch_lanes=480)
    assert_same(a, b, asm)
