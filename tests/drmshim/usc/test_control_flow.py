"""Structured control flow with the r0l nesting counter: if/else, loops with
break and continue as Mesa lowers them, while, push_exec, jmp_exec_none/any."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drmshim.gpu.usc import ShaderError
from uapi.isa import semantics as S

from . import helpers
from .helpers import run

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True, params=["step loop (debug)", "block loop"])
def loop_kind(request, monkeypatch):
    """Every control-flow test runs on both run loops of the core."""
    monkeypatch.setattr(helpers, "DEBUG_DEFAULT", request.param.startswith("step"))


def test_if_else():
    x = np.arange(20, dtype=np.uint32)
    ctx = run("""
        mov_imm r0l, 0
        if_icmp.ult r1, 10, 1
          mov_imm r2, 1
        else_icmp.eq 0, 0, 1
          mov_imm r2, 2
        pop_exec 1
        iadd r3, r2, 100
    """, lanes=20, inputs={1: x})
    assert np.array_equal(ctx.registers[2], np.where(x < 10, 1, 2))
    assert np.array_equal(ctx.registers[3], np.where(x < 10, 101, 102))
    assert not ctx.registers[0].any()  # r0l back to 0: everyone active


def test_nested_if_else():
    x = RNG.integers(0, 100, 500).astype(np.uint32)
    ctx = run("""
        mov_imm r0l, 0
        if_icmp.ult r1, 50, 1
          if_icmp.ult r1, 25, 1
            mov_imm r2, 1
          else_icmp.eq 0, 0, 1
            mov_imm r2, 2
          pop_exec 1
        else_icmp.eq 0, 0, 1
          if_icmp.uge r1, 75, 1
            mov_imm r2, 4
          else_icmp.eq 0, 0, 1
            mov_imm r2, 3
          pop_exec 1
        pop_exec 1
    """, lanes=x.size, inputs={1: x})
    assert np.array_equal(ctx.registers[2], np.digitize(x, [25, 50, 75]) + 1)


def test_loop_with_break():
    count = RNG.integers(0, 20, 300).astype(np.uint32)
    ctx = run("""
        mov_imm r0l, 0
        mov_imm r2, 0
        mov_imm r3, 0
    loop:
        if_icmp.uge r2, r1, 1
          mov_imm r0l, 2      ; break: the if and the loop
          pop_exec 0
        pop_exec 1
        iadd r3, r3, r2
        iadd r2, r2, 1
        jmp_exec_any loop
        pop_exec 1
    """, lanes=count.size, inputs={1: count})
    assert np.array_equal(ctx.registers[3], count * (count - 1) // 2 * (count > 0))
    assert np.array_equal(ctx.registers[2], count)


def test_loop_with_break_and_continue():
    """do { do { body } while (0) } while (c): sum the odd i below count."""
    count = RNG.integers(0, 25, 300).astype(np.uint32)
    ctx = run("""
        mov_imm r0l, 0
        mov_imm r2, 0
        mov_imm r3, 0
    loop:
        if_icmp.uge r2, r1, 1
          mov_imm r0l, 3      ; break with continue in use: nesting 1 + 2
          pop_exec 0
        pop_exec 1
        mov r4, r2
        iadd r2, r2, 1
        bitop r5, r4, 1, 8
        if_icmp.eq r5, 0, 1
          mov_imm r0l, 2      ; continue: nesting 1 + 1
          pop_exec 0
        pop_exec 1
        iadd r3, r3, r4
        while_icmp.eq 0, 0, 2 ; re-activate continued lanes
        jmp_exec_any loop
        pop_exec 2
    """, lanes=count.size, inputs={1: count})
    expected = np.array([sum(i for i in range(c) if i % 2) for c in count])
    assert np.array_equal(ctx.registers[3], expected)


def test_break_if_lowerings():
    count = RNG.integers(0, 15, 200).astype(np.uint32)
    via_cmpsel = run("""
        mov_imm r0l, 0
    loop:
        icmpsel.uge r0l, r2, r1, 1, 0   ; break_if: r0l = cond ? nest : 0
        push_exec 0
        iadd r3, r3, r2
        iadd r2, r2, 1
        jmp_exec_any loop
        pop_exec 1
    """, lanes=count.size, inputs={1: count})
    via_while = run("""
        mov_imm r0l, 0
    loop:
        while_icmp.ult r2, r1, 1        ; break_if with nest 1: inverted condition
        iadd r3, r3, r2
        iadd r2, r2, 1
        jmp_exec_any loop
        pop_exec 1
    """, lanes=count.size, inputs={1: count})
    expected = count * (count - 1) // 2 * (count > 0)
    assert np.array_equal(via_cmpsel.registers[3], expected)
    assert np.array_equal(via_while.registers[3], expected)


def test_loop_nested_in_if_uses_push_exec():
    x = RNG.integers(0, 10, 100).astype(np.uint32)
    ctx = run("""
        mov_imm r0l, 0
        if_icmp.uge r1, 3, 1
          push_exec 1
        loop:
          if_icmp.uge r2, r1, 1
            mov_imm r0l, 2
            pop_exec 0
          pop_exec 1
          iadd r2, r2, 1
          jmp_exec_any loop
          pop_exec 1          ; loop exit: lanes outside the if stay inactive thanks to push_exec
          iadd r4, r4, 1
        pop_exec 1
        iadd r3, r2, 100
    """, lanes=x.size, inputs={1: x})
    assert np.array_equal(ctx.registers[2], np.where(x >= 3, x, 0))
    assert np.array_equal(ctx.registers[4], (x >= 3).astype(np.uint32))
    assert np.array_equal(ctx.registers[3], np.where(x >= 3, x, 0) + 100)


def test_jmp_exec_none_skips_only_when_no_lane_is_active():
    prog = """
        mov_imm r0l, 0
        if_fcmp.lt r1, 0.0, 1
          jmp_exec_none skip
          mov_imm r2, 7
        skip:
        pop_exec 1
        mov_imm r3, 9
    """
    all_positive = run(prog, lanes=4, inputs={1: np.ones(4, np.float32)})
    assert not all_positive.registers[2].any() and set(all_positive.registers[3]) == {9}
    mixed = run(prog, lanes=4, inputs={1: np.array([1, -1, 1, -1], np.float32)})
    assert list(mixed.registers[2]) == [0, 7, 0, 7]


def test_while_fcmp_loop_and_memory_barrier():
    """x = 1; while (x < limit) x *= 2 — with the loop condition as while_fcmp (break_if nest 1)."""
    limit = np.array([0.5, 1.0, 3.0, 100.0, np.nan], np.float32)
    ctx = run("""
        mov_imm r0l, 0
        mov_imm r2, 0x3f800000      ; 1.0
    loop:
        while_fcmp.lt r2, r1, 1
        fmul r2, r2, 2.0
        memory_barrier.device
        jmp_exec_any loop
        pop_exec 1
    """, lanes=limit.size, inputs={1: limit})
    assert list(ctx.registers[2].view(np.float32)) == [1.0, 1.0, 4.0, 128.0, 1.0]


def test_fcmp_with_nan_takes_the_else_branch():
    x = np.array([np.nan, 1.0, -1.0], np.float32)
    ctx = run("""
        mov_imm r0l, 0
        if_fcmp.ge r1, 0.0, 1
          mov_imm r2, 1
        else_fcmp.eq 0.0, 0.0, 1
          mov_imm r2, 2
        pop_exec 1
    """, lanes=3, inputs={1: x})
    assert list(ctx.registers[2]) == [2, 1, 2]


def test_non_terminating_program_is_reported():
    from drmshim.gpu.usc import ShaderCore
    from uapi.isa import assemble
    from .helpers import new_memory
    from drmshim.gpu.usc import ExecContext
    mem = new_memory()
    mem.write(mem.base, assemble("top:\nmov_imm r0l, 0\njmp_exec_any top\nstop"), "t")
    with pytest.raises(ShaderError, match="did not finish"):
        ShaderCore(mem, max_steps=1000).run(mem.base, ExecContext(lanes=4))


@pytest.mark.parametrize("tier", ["interp", "native"])
def test_the_pipeline_takes_a_program_past_the_step_limit_as_hung(tier):
    """The pipeline's core (GuardedCore) reports a program that does not stop within
    the step limit as the watchdog's stop (JobTimeout: the firmware then reports a GPU
    timeout and the queue is guilty), on either tier, not as a USC fault; an
    undecodable program is still the USC's fault."""
    from drmshim.firmware.watchdog import JobTimeout
    from drmshim.gpu.pipeline.executor import GuardedCore
    from drmshim.gpu.usc import ExecContext
    from drmshim.memory import GPUFault
    from uapi.isa import assemble
    from .helpers import new_memory
    mem = new_memory()
    mem.write(mem.base, assemble("top:\nmov_imm r0l, 0\njmp_exec_any top\nstop"), "t")
    with pytest.raises(JobTimeout):
        GuardedCore(mem, max_steps=1000, tier=tier).run(mem.base, ExecContext(lanes=4))
    mem.write(mem.base + 256, b"\xff" * 16, "t")
    with pytest.raises(GPUFault):
        GuardedCore(mem, max_steps=1000, tier=tier).run(mem.base + 256, ExecContext(lanes=4))


def _ref_if(v, c, n): return v + n if v else (0 if c else 1)
def _ref_else(v, c, n): return n if v == 0 else ((0 if c else 1) if v == 1 else v)
def _ref_while(v, c, n): return (0 if c else n) if v < n else v
def _ref_pop(v, n): return max(v - n, 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=64), st.integers(0, 4))
def test_r0l_semantics_match_applegpu_pseudocode(lanes, n):
    v = np.array([x for x, _ in lanes], np.uint16)
    c = np.array([y for _, y in lanes])
    assert list(S.cf_if(v, c, n)) == [_ref_if(x, y, n) for x, y in lanes]
    assert list(S.cf_else(v, c, n)) == [_ref_else(x, y, n) for x, y in lanes]
    assert list(S.cf_while(v, c, n)) == [_ref_while(x, y, n) for x, y in lanes]
    assert list(S.cf_pop(v, n)) == [_ref_pop(x, n) for x, _ in lanes]


@pytest.mark.parametrize("program", [
    """
        mov_imm r0l, 0
        if_icmp.ult r1, 10, 1
          iadd r2, r1, 5
          if_icmp.ne r1, 3, 1
            iadd r2, r2, 100
          pop_exec 1
        else_icmp.eq 0, 0, 1
          mov_imm r2, 2
        pop_exec 1
        if_icmp.eq 0, 0, 1
          iadd r3, r2, 1
        pop_exec 1
        if_icmp.eq 0, 1, 1
          mov_imm r3, 7
        pop_exec 1
    """,
    """
        mov_imm r0l, 0
        mov r2, r1
    loop:
        while_icmp.ult r2, 16, 1
        iadd r2, r2, 3
        jmp_exec_any loop
        pop_exec 1
        if_fcmp.lt r4, r5, 1
          mov_imm r6, 9
        pop_exec 1
    """])
def test_all_active_if_shortcut_equals_the_general_nesting_counter(program, monkeypatch):
    """An if executed with every lane active sets r0l and the mask directly, and a
    pop_exec that brings every counter to 0 clears r0l: the same registers (r0l
    included) as the general nesting-counter updates."""
    from drmshim.gpu.usc import core
    x = RNG.integers(0, 20, 64).astype(np.uint32)
    f = RNG.uniform(-1, 1, (2, 64)).astype(np.float32)
    inputs = {1: x, 4: f[0], 5: f[1]}
    fast = run(program, lanes=64, inputs=inputs).registers
    monkeypatch.setattr(core, "FAST_PATHS", False)
    general = run(program, lanes=64, inputs=inputs).registers
    np.testing.assert_array_equal(fast, general)
