"""Program fetch and cache, scoreboard hazards, batching."""

import numpy as np
import pytest

from drmshim.gpu.usc import ExecContext, ScoreboardHazard, ShaderCore, ShaderError
from drmshim.memory import GPUFault
from uapi.isa import assemble

from .helpers import DATA_VA_OFFSET, new_memory, run


def uniforms_with(a):
    u = np.zeros(256, np.uint32)
    u[0], u[1] = a & 0xFFFFFFFF, a >> 32
    return u


def test_reading_an_async_result_before_wait_is_a_hazard():
    mem = new_memory()
    prog = "device_load.i32 r1, u0_u1, 0, 0, 1\niadd r2, r1, 1"
    with pytest.raises(ScoreboardHazard, match=r"r1l.*slot 1.*wait 1"):
        run(prog, lanes=4, mem=mem, uniforms=uniforms_with(mem.base + DATA_VA_OFFSET))
    # with the wait: fine; a wait on the other slot does not help
    run(prog.replace("\n", "\nwait 1\n"), lanes=4, mem=mem, uniforms=uniforms_with(mem.base + DATA_VA_OFFSET))
    with pytest.raises(ScoreboardHazard):
        run(prog.replace("\n", "\nwait 0\n"), lanes=4, mem=mem, uniforms=uniforms_with(mem.base + DATA_VA_OFFSET))
    # outside debug mode the same program runs (the result is already there in the model)
    run(prog, lanes=4, mem=mem, uniforms=uniforms_with(mem.base + DATA_VA_OFFSET), debug=False)


def test_overwriting_a_pending_register_is_a_hazard():
    mem = new_memory()
    with pytest.raises(ScoreboardHazard, match="mov_imm"):
        run("stack_load r1, 0, 0\nmov_imm r1, 3\nwait 0", lanes=4, mem=mem, stack_va=mem.base + DATA_VA_OFFSET,
            stack_bytes_per_lane=4)


def test_program_cache_sees_rewritten_code_and_fetch_faults():
    mem = new_memory()
    core = ShaderCore(mem)
    mem.write(mem.base, assemble("mov_imm r1, 5\nstop"), "t")
    ctx = ExecContext(lanes=2, keep_registers=True)
    assert list(core.run(mem.base, ctx).registers[1]) == [5, 5]
    assert core.load(mem.base) is core.load(mem.base)               # cached
    mem.write(mem.base, assemble("mov_imm r1, 6\nstop"), "t")       # same length, new content
    assert list(core.run(mem.base, ExecContext(lanes=2, keep_registers=True)).registers[1]) == [6, 6]
    with pytest.raises(GPUFault) as info:
        core.run(0x10, ExecContext(lanes=1))
    assert info.value.info.unit == "USC"


def test_fetch_reads_past_a_stop_that_a_branch_jumps_over():
    mem = new_memory()
    mem.write(mem.base, assemble("""
        mov_imm r0l, 0
        jmp_exec_any past
        stop
    past:
        mov_imm r1, 9
        stop
    """), "t")
    ctx = ShaderCore(mem).run(mem.base, ExecContext(lanes=1, keep_registers=True))
    assert ctx.registers[1][0] == 9


def test_garbage_program_is_reported():
    mem = new_memory()
    mem.write(mem.base, bytes([0xFF, 0xFF]), "t")
    with pytest.raises(ShaderError, match="unknown opcode"):
        ShaderCore(mem).run(mem.base, ExecContext(lanes=1))


def test_undefined_size_is_reported_at_load():
    mem = new_memory()
    mem.write(mem.base, assemble("fadd r0_r1, r2, r3\nstop"), "t")
    with pytest.raises(ShaderError, match="not defined for 64-bit"):
        ShaderCore(mem).run(mem.base, ExecContext(lanes=1))
    mem.write(mem.base, assemble("convert.f16.f32 r0, r2\nstop"), "t")
    with pytest.raises(ShaderError, match="needs a 16-bit destination"):
        ShaderCore(mem).run(mem.base, ExecContext(lanes=1))


@pytest.mark.parametrize("batch", [4, 12, 1024])
def test_results_do_not_depend_on_batch_size(batch):
    prog = """
        get_sr r1, lane_id
        mov_imm r0l, 0
        if_icmp.ult r1, 37, 1
          imul r2, r1, r1
        pop_exec 1
    """
    ctx = run(prog, lanes=100, batch_lanes=batch, quads=True)
    lane = np.arange(100)
    assert np.array_equal(ctx.registers[2], np.where(lane < 37, lane * lane, 0))


def test_a_small_last_batch_joins_the_one_before_it(monkeypatch):
    """Automatic batches: a rest under 1/TAIL_FOLD of the batch size runs with the batch
    before it (one batch's fixed cost less), a bigger rest is a batch of its own; sizes
    a caller asks for are kept. Results do not depend on it."""
    from drmshim.gpu.usc import core
    size = 262144
    assert core.batch_bounds(size + 1024, size, True) == [(0, size + 1024)]
    assert core.batch_bounds(size + 1024, size, False) == [(0, size), (size, 1024)]
    big = size // core.TAIL_FOLD
    assert core.batch_bounds(2 * size + big, size, True) == [(0, size), (size, size), (2 * size, big)]
    assert core.batch_bounds(2 * size + big - 4, size, True) == [(0, size), (size, 2 * size + big - 4 - size)]
    assert core.batch_bounds(100, size, True) == [(0, 100)]
    assert core.batch_bounds(0, size, True) == []
    prog = """
        get_sr r1, lane_id
        mov_imm r3, 65600
        mov_imm r0l, 0
        if_icmp.ult r1, r3, 1
          imul r2, r1, r1
        pop_exec 1
    """
    auto = core.auto_batch_lanes(4)
    lanes = auto + 64
    seen = []
    real = core.Batch

    class Counted(real):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            seen.append(self.n)
    with monkeypatch.context() as m:
        m.setattr(core, "Batch", Counted)
        got = run(prog, lanes=lanes, batch_lanes=None, debug=False)
    assert seen == [lanes]
    want = run(prog, lanes=lanes, batch_lanes=auto, debug=False)
    lane = np.arange(lanes, dtype=np.uint64)
    np.testing.assert_array_equal(got.registers[2], np.where(lane < 65600, lane * lane, 0).astype(np.uint32))
    np.testing.assert_array_equal(got.registers, want.registers)


def test_registers_start_at_zero_even_when_partly_written():
    ctx = run("""
        mov_imm r5l, 7          ; only the low half: r5h must read 0
        iadd r6, r5, 0
        mov_imm r0l, 0
        if_icmp.eq r7, 1, 1     ; masked write: other lanes keep 0
          mov_imm r8, 9
        pop_exec 1
        iadd r9, r8, r10        ; r10 never written
    """, lanes=4, inputs={7: np.array([1, 0, 1, 0], np.uint32)}, batch_lanes=2)
    assert list(ctx.registers[6]) == [7] * 4
    assert list(ctx.registers[9]) == [9, 0, 9, 0]


def test_debug_mode_from_the_environment(monkeypatch):
    monkeypatch.setenv("SHIMGL_DEBUG", "trace,scoreboard")
    assert ShaderCore(new_memory()).debug
    monkeypatch.setenv("SHIMGL_DEBUG", "trace")
    assert not ShaderCore(new_memory()).debug


def test_clock_reads_the_cycle_counter_in_two_latched_words():
    """``clock`` (ARB_shader_clock): the low read latches the high word; the 64-bit value
    lies between the host's monotonic nanoseconds before and after the run (the model's
    1 GHz counter), every lane of a batch reads the same value and a later read is later."""
    import time
    before = time.monotonic_ns()
    ctx = run("""
        clock r1, 0
        clock r2, 1
        imul r5, r1, r1
        clock r3, 0
        clock r4, 1
    """, lanes=64)
    after = time.monotonic_ns()
    regs = ctx.registers
    first = regs[1].astype(np.uint64) | (regs[2].astype(np.uint64) << np.uint64(32))
    second = regs[3].astype(np.uint64) | (regs[4].astype(np.uint64) << np.uint64(32))
    assert (first == first[0]).all() and (second == second[0]).all()
    assert before <= int(first[0]) < int(second[0]) <= after
