"""The native tier's faster forms against the interpreter, bit for bit:
transcendentals through numpy's own loops (``uapi.native_ufuncs``), segments fused
into groups, the NaN-free first pass of float segments (exact pass for pieces
with a NaN), and tile stores through a packed buffer."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu import native
from drmshim.gpu.native import codegen
from uapi import native_ufuncs as ufuncs
from drmshim.gpu.usc import compile_program
from uapi.isa import BY_NAME, assemble

from .test_native_tier import MASK_ROW, interesting, run_both, assert_same, tile_context

TRANSCENDENTAL_ASM = "\n".join([
    "sin r20, r2", "cos r21, r3.neg", "log2 r22, r4.abs", "exp2 r23, r5",
    "sin.sat r24, r6", "cos r25l, r7", "log2 r25h, r8l", "exp2 r26, r9h.neg",
    "sin r27, u4", "cos r28, 0.5",
    f"if_icmp.ult r{MASK_ROW}, 5, 1",
    "log2.sat r29, r10", "exp2 r30l, r11", "sin r31, r12.abs.neg", "cos r32, r13",
    "pop_exec 1"])


def _plan(asm: str):
    return codegen.generate(compile_program(0x1000, assemble(asm + "\nstop\n")))


def test_transcendentals_are_native_through_numpys_loops_and_exact():
    """log2/exp2/sin/cos in every operand form (16-bit halves, abs/neg, saturate, a
    uniform, an immediate), all lanes and masked, over special values (NaN payloads,
    infinities, denormals, huge arguments past numpy's range reductions) and random
    bits: the same registers as numpy's steps, and no numpy step in the plan."""
    assert all(lp is not None for lp in ufuncs.loops())
    plan = _plan(TRANSCENDENTAL_ASM)
    assert plan.step_count == 0
    rng = np.random.default_rng(31)
    a, b = run_both(TRANSCENDENTAL_ASM, 3001, rng)
    assert_same(a, b, TRANSCENDENTAL_ASM)


def test_without_numpys_loops_the_transcendentals_are_numpy_steps(monkeypatch):
    """When a loop cannot be used (another numpy layout, a loop that differs) the
    segment's need is refused and the interpreter's step runs: same results."""
    monkeypatch.setattr(ufuncs, "_loops", [None, None, None, None])
    rng = np.random.default_rng(32)
    a, b = run_both(TRANSCENDENTAL_ASM, 700, rng)
    assert_same(a, b, TRANSCENDENTAL_ASM)


def test_a_loop_is_accepted_only_when_it_gives_the_tables_bits():
    sin_loop, cos_loop = ufuncs.loops()[2], ufuncs.loops()[3]
    assert ufuncs._check(BY_NAME["sin"].impl, *sin_loop)
    assert not ufuncs._check(BY_NAME["sin"].impl, *cos_loop)
    assert ufuncs._loop_of(np.add) is None          # two inputs: not a transcendental's loop


def _sparse_nan_inputs(rng, lanes: int, nan_lanes) -> dict:
    """Small finite floats everywhere, and NaNs (payloads), infinities and zeros in a
    few lanes: most pieces take the NaN-free pass, a few the exact one."""
    inputs = {k: rng.uniform(-3, 3, lanes).astype(np.float32).view(np.uint32) for k in range(2, 18)}
    specials = np.array([0x7F800001, 0xFFC0BEEF, 0x7F800000, 0xFF800000, 0, 0x80000000], np.uint32)
    for j, lane in enumerate(nan_lanes):
        inputs[2 + j % 6][lane] = specials[j % specials.size]
    inputs[MASK_ROW] = rng.integers(0, 8, lanes).astype(np.uint32)
    return inputs


@pytest.mark.parametrize("masked", [False, True])
def test_nan_free_pass_and_exact_pass_per_piece(masked):
    """A chain of adds, multiplies, divisions, rcp and rsqrt (NaN-free forms) where a
    few lanes make NaNs (NaN inputs, inf - inf, 0 * inf, rsqrt of a negative): every
    lane's bits, NaN payloads included, are the interpreter's."""
    body = ["fadd r20, r2, r3", "fmul r21, r20, r4", "fadd r22, r21, r5.neg", "rcp r23, r6",
            "fmul r24, r23, r7", "rsqrt r25, r8", "fmul r26, r4, r5", "fadd r27, r26, r26.neg",
            "fmul r28, r27, r6", "fma r29, r2, r3, r28", "fadd.sat r30, r29, r22", "fmul r20, r20, r30",
            "fadd r31l, r2, r3", "fmul r31h, r4l, r5"]
    asm = "\n".join(([f"if_icmp.ult r{MASK_ROW}, 5, 1"] if masked else []) + body + (["pop_exec 1"] if masked else []))
    assert "FAST_FADD(" in _plan(asm).source
    rng = np.random.default_rng(33)
    lanes = 3000
    inputs = _sparse_nan_inputs(rng, lanes, [3, 700, 701, 1500, 2999])
    a, b = run_both(asm, lanes, rng, inputs=inputs)
    assert_same(a, b, asm)
    got = b[0].registers
    assert np.isnan(got[21].view(np.float32)).any() and not np.isnan(got[21].view(np.float32)[:256]).all()


def test_groups_of_segments_in_threads_and_odd_batches(monkeypatch):
    """Iter, ALU, transcendentals and derivatives fused into one group, split over
    three threads, in batches that are not multiples of the group's pieces."""
    monkeypatch.setattr(native.tier, "PARALLEL_MIN_WORK", 256)
    monkeypatch.setenv("SHIMGL_THREADS", "3")
    asm = "\n".join(["fmul r20, r2, r3", "sin r21, r20", "dfdx r22, r21", "fadd r23, r22, r4",
                     "exp2 r24, r23", "dfdy r25, r24", "fmul r26, r25, r25"])
    plan = _plan(asm)
    items = plan.blocks[0][1]
    assert any(isinstance(it, codegen.Grp) and len(it.members) >= 5 for it in items), items
    rng = np.random.default_rng(34)
    lanes = 4 * 1501
    inputs = _sparse_nan_inputs(rng, lanes, [9, 4000])
    for batch in (1204, 4096):
        a, b = run_both(asm, lanes, rng, inputs=inputs, ctx_kw={"quads": True}, batch_lanes=batch)
        assert_same(a, b, asm)


def test_tile_stores_in_lane_order_across_pieces():
    """st_tile of lanes whose records repeat (within a piece of the packed buffer and
    across pieces): the last lane's word stays, as the interpreter's store; with
    helper lanes, which store nothing."""
    rng = np.random.default_rng(35)
    lanes = 1300
    kw = tile_context(rng, lanes, records=1400)
    kw["tile_index"] = rng.integers(0, 300, lanes).astype(np.int64)
    asm = "fmul r2, r2, 0.5\nst_tile.unorm8 r2_r3_r4_r5, 0, 15\nst_tile.unorm16 r6_r7, 4, 3\nld_tile.unorm8 r8_r9_r10_r11, 0"
    inputs = {k: rng.uniform(-0.2, 1.2, lanes).astype(np.float32).view(np.uint32) for k in range(2, 18)}
    inputs[MASK_ROW] = np.zeros(lanes, np.uint32)
    a, b = run_both(asm, lanes, rng, ctx_kw=kw, inputs=inputs)
    assert_same(a, b, asm)
    # the word of record r is the last lane's (of the lanes storing to it)
    last = {}
    for lane, r in enumerate(kw["tile_index"]):
        if not kw["helper"][lane]:
            last[int(r)] = lane
    r, lane = next(iter(last.items()))
    want = np.rint(np.clip(inputs[3][lane:lane + 1].view(np.float32), 0, 1) * 255).astype(np.uint8)[0]
    assert b[0].tile_buffer[r, 1] == want


def test_unorm_loads_of_every_value_are_the_divisions():
    """ld_tile's unorm conversion (``sem_from_unorm``: a product corrected by its
    remainder, no division) gives x / (2^bits - 1) rounded once for every 8- and
    16-bit x: numpy's float32 division and the interpreter, bit for bit."""
    lanes = 1 << 15
    tile = np.zeros((lanes, 8), np.uint8)
    tile[:, :4] = (np.arange(4 * lanes) % 256).astype(np.uint8).reshape(lanes, 4)
    tile[:, 4:] = np.arange(2 * lanes, dtype=np.uint16).view(np.uint8).reshape(lanes, 4)
    kw = {"tile_buffer": tile, "tile_index": np.arange(lanes, dtype=np.int64), "helper": np.zeros(lanes, bool)}
    asm = "ld_tile.unorm8 r2_r3_r4_r5, 0\nld_tile.unorm16 r6_r7, 4"
    inputs = {MASK_ROW: np.zeros(lanes, np.uint32)}
    a, b = run_both(asm, lanes, np.random.default_rng(36), ctx_kw=kw, inputs=inputs)
    assert_same(a, b, asm)
    regs = b[0].registers
    want8 = tile[:, :4].astype(np.float32) / np.float32(255)
    want16 = tile[:, 4:].copy().view(np.uint16).astype(np.float32) / np.float32(65535)
    np.testing.assert_array_equal(regs[2:6, :lanes].T.view(np.float32), want8)
    np.testing.assert_array_equal(regs[6:8, :lanes].T.view(np.float32), want16)


def _span_checks(asm: str) -> bool | None:
    """Whether the program's span function keeps its NaN tests (None: no span function)."""
    plan = _plan(asm + "\nst_tile.unorm8 r12_r13_r14_r15, 0, 15")
    if plan.span is None:
        return None
    text = plan.source[plan.source.index(f"long {plan.span}("):]
    return "FAST_" in text


def test_span_functions_test_nans_only_where_a_payload_could_be_stored():
    """``codegen._payload_seen``: float arithmetic, saturation, float compares and
    selects, whole moves and unorm stores cannot tell two NaNs apart (no tests);
    integer operations, integer compares or 16-bit halves of a possible NaN can."""
    head = "iter.persp.center r2_r3_r4_r5, cf1, cf0\nld_tile.unorm8 r8_r9_r10_r11, 0\n"
    tail = "\nmov r13, r5\nmov r14, r6\nmov_imm r15, 0x3f800000"
    clean = ["fmul r12, r2, r8\nfadd r12, r12, r3\nfma r12, r12, r4, r9",
             "fadd r7, r2, r3\nfmax r12, r7, r8\nfmin r12, r12, 0.5",
             "fmul r7, r2, r3\nfcmpsel.lt r12, r7, r8, r7, r9",
             "fmul r7, r2, r3\nmov r12, r7\nfloor r12, r12",
             "fmul r7, r2, r3\nconvert.u32.f32 r12, r7",           # (NaN -> 0)
             "fadd.sat r7, r2, r3\nbitop r12, r7, r8, 8",           # (saturated: no NaN left)
             "fmul r7, r2, r3\nmov_imm r7, 0x3f000000\nbitop r12, r7, r8, 8"]   # (r7 rewritten first)
    seen = ["fmul r7, r2, r3\nbitop r12, r7, r8, 8",
            "fadd r7, r2, r3\nicmpsel.ult r12, r7, r8, r9, r10",
            "fmul r7, r2, r3\nmov r12l, r7l",
            "fmul r7, r2, r3\nconvert.f16.f32 r12l, r7",
            "rcp r7, r2\nfadd r12, r7, 1.0\niadd r12, r12, 1"]
    for body in clean:
        assert _span_checks(head + body + tail) is False, body
    for body in seen:
        assert _span_checks(head + body + tail) is True, body
    # a transcendental splits the loop (numpy's loop gives a NaN for a NaN): no tests
    assert _span_checks(head + "fmul r7, r2, r3\nsin r12, r7" + tail) is False
    assert _span_checks(head + "fmul r7, r2, r3\nsin r7, r7\nbitop r12, r7, r8, 8" + tail) is True
    # no span function: a numpy step, a tile word at an offset
    assert _span_checks(head + "get_sr r12, pixel_x" + tail) is None
    assert _plan(head + "st_tile.unorm8 r2_r3_r4_r5, 4, 15").span is None
