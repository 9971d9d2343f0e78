"""The ISA's cross-lane vote (``vote.any/.all/.eq``) over SIMD groups of 32 lanes:
results against expectations computed group by group in the test, inside divergent
control flow (only active lanes vote, only active lanes are written), with compute
threadgroups that are not a multiple of 32 (groups restart at each threadgroup), and
the native tier equal to the interpreter bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu.usc import ExecContext, ShaderCore
from drmshim.memory import FlatMemory
from tests.drmshim.usc.test_native_tier import _resolve_labels, assert_same, run_both
from uapi.isa import assemble
from uapi.isa.semantics import SIMD_GROUP_LANES, simd_group_starts, vote


def expected_vote(mode: str, values, active, groups):
    """Per lane, the vote of its group (``groups``: lists of lane indices), by hand."""
    out = np.zeros(len(values), np.uint32)
    for lanes in groups:
        voters = [bool(values[i]) for i in lanes if active[i]]
        r = {"any": any(voters), "all": all(voters), "eq": len(set(voters)) <= 1}[mode]
        for i in lanes:
            out[i] = r
    return out


def groups_of(n: int, threadgroup: int = 0):
    span = threadgroup if threadgroup > 1 else n
    return [list(range(s, min(s + 32, (s // span + 1) * span, n))) for t in range(0, n, span)
            for s in range(t, t + span, 32) if s < n]


def test_simd_groups_are_32_lanes_and_restart_at_threadgroups():
    assert SIMD_GROUP_LANES == 32
    assert simd_group_starts(100).tolist() == [0, 32, 64, 96]
    assert simd_group_starts(96, 48).tolist() == [0, 32, 48, 80]
    assert simd_group_starts(8, 4).tolist() == [0, 4]


def test_vote_semantics_by_hand():
    v = np.zeros(64, np.uint32)
    v[3] = 7                     # group 0: one true lane
    v[32:] = 1                   # group 1: all true
    active = np.ones(64, bool)
    starts = simd_group_starts(64)
    assert vote("any", v, active, starts).tolist() == [1] * 32 + [1] * 32
    assert vote("all", v, active, starts).tolist() == [0] * 32 + [1] * 32
    assert vote("eq", v, active, starts).tolist() == [0] * 32 + [1] * 32
    active[3] = False            # the true lane of group 0 does not vote
    assert vote("any", v, active, starts).tolist()[:32] == [0] * 32
    assert vote("eq", v, active, starts).tolist()[:32] == [1] * 32
    active[32:40] = False        # inactive lanes do not change group 1
    assert vote("all", v, active, starts).tolist()[32:] == [1] * 32


def _run(asm: str, lanes: int, preload: dict, **kw):
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble(asm + "\nstop\n"), "test")
    batch = kw.pop("batch_lanes", None)
    ctx = ExecContext(lanes=lanes, keep_registers=True, **kw)
    ctx.preload = preload
    ShaderCore(mem, debug=False, batch_lanes=batch, tier="interp").run(mem.base, ctx)
    return ctx.registers


@pytest.mark.parametrize("mode", ["any", "all", "eq"])
@pytest.mark.parametrize("threadgroup", [0, 48])
def test_vote_in_divergent_control_flow(mode, threadgroup):
    """Lanes with r3 < 5 take the branch and vote on r2; the others keep r4's old value."""
    rng = np.random.default_rng({"any": 1, "all": 2, "eq": 3}[mode] + threadgroup)
    lanes = 480
    r2 = (rng.random(lanes) < {"any": 0.02, "all": 0.97, "eq": 0.5}[mode]).astype(np.uint32)
    r2[:32] = 1                  # a group where every voter agrees
    r3 = rng.integers(0, 8, lanes).astype(np.uint32)
    old = np.full(lanes, 0xDEAD, np.uint32)
    asm = f"if_icmp.ult r3, 5, 1\nvote.{mode} r4, r2\npop_exec 1"
    kw = {"threadgroup_lanes": threadgroup} if threadgroup else {}
    regs = _run(asm, lanes, {2: r2, 3: r3, 4: old}, **kw)
    active = r3 < 5
    want = np.where(active, expected_vote(mode, r2, active, groups_of(lanes, threadgroup)), 0xDEAD)
    assert regs[4].tolist() == want.tolist()


def test_batches_never_split_a_group():
    """A batch size that is not a multiple of 32 is rounded to whole groups: the same
    result as one batch."""
    rng = np.random.default_rng(4)
    lanes = 200
    r2 = (rng.random(lanes) < 0.05).astype(np.uint32)
    one = _run("vote.any r4, r2", lanes, {2: r2})
    small = _run("vote.any r4, r2", lanes, {2: r2}, batch_lanes=40)
    assert one[4].tolist() == small[4].tolist() == expected_vote(
        "any", r2, np.ones(lanes, bool), groups_of(lanes)).tolist()


@pytest.mark.parametrize("ctx_kw", [{}, {"threadgroup_lanes": 48}, {"threadgroup_lanes": 16}])
def test_native_tier_equals_the_interpreter(ctx_kw):
    """Votes of each mode and size, from registers and uniforms, inside an if/else and a
    loop, sources overwritten by the result: both tiers, bit for bit."""
    rng = np.random.default_rng(9)
    lanes = 1440
    inputs = {k: (rng.random(lanes) < 0.5).astype(np.uint32) * rng.integers(1, 9, lanes).astype(np.uint32)
              for k in range(2, 18)}
    inputs[18] = rng.integers(0, 8, lanes).astype(np.uint32)
    asm = "\n".join([
        "vote.eq r20, u3", "vote.any r21l, r5h",
        "if_icmp.ult r18, 4, 1", "vote.any r22, r2", "vote.all r23, r3", "vote.eq r24l, r4l",
        "else_icmp.ugt r18, 5, 1", "vote.all r25, r5", "vote.eq r6, r6",
        "pop_exec 1",
        "mov_imm r13, 0", "while_icmp.ult r13, r18, 1", "jmp_exec_none @end", "@top:",
        "vote.any r26, r7", "iadd r13, r13, 1", "vote.all r27h, r8l",
        "while_icmp.ult r13, r18, 1", "jmp_exec_any @top", "@end:", "pop_exec 1"])
    asm = _resolve_labels(asm.split("\n"))
    a, b = run_both(asm, lanes, rng, ctx_kw=ctx_kw, inputs=inputs, batch_lanes=480)
    assert_same(a, b, asm)
