"""Compare-and-select, conversions, moves and special registers."""

import numpy as np
import pytest

from drmshim.gpu.usc import ExecContext

from .helpers import bits_equal, f32, run
from .test_float import A, B


@pytest.mark.parametrize("cond, ref", [("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
                                       ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)])
def test_fcmpsel_ordered_and_unordered(cond, ref):
    ctx = run(f"fcmpsel.{cond} r2, r0, r1, 1, 2", lanes=A.size, inputs={0: A, 1: B})
    with np.errstate(invalid="ignore"):
        expected = np.where(ref(A, B), 1, 2)
    assert np.array_equal(ctx.registers[2], expected)
    nan_lanes = np.isnan(A) | np.isnan(B)
    assert set(ctx.registers[2][nan_lanes]) == ({1} if cond == "ne" else {2})


@pytest.mark.parametrize("cond", ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"])
def test_icmpsel_signed_and_unsigned(cond):
    v = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 5], np.uint32)
    a, b = (x.reshape(-1) for x in np.meshgrid(v, v))
    ctx = run(f"icmpsel.{cond} r2, r0, r1, r3, r4", lanes=a.size,
              inputs={0: a, 1: b, 3: np.full(a.size, 0xAAAA, np.uint32), 4: np.full(a.size, 0xBBBB, np.uint32)})
    x, y = (a, b) if cond[0] != "s" else (a.view(np.int32), b.view(np.int32))
    op = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
          "ge": np.greater_equal}[cond.lstrip("us") if cond not in ("eq", "ne") else cond]
    assert np.array_equal(ctx.registers[2], np.where(op(x, y), 0xAAAA, 0xBBBB))


def test_icmpsel_16bit_compare():
    v = np.array([0x8000, 0x0001], np.uint32)
    ctx = run("icmpsel.slt r2l, r0l, r1l, 1, 0\nicmpsel.ult r2h, r0l, r1l, 1, 0", lanes=2,
              inputs={0: v, 1: v[::-1].copy()})
    assert list(ctx.registers[2] & 0xFFFF) == [1, 0]        # -32768 < 1
    assert list(ctx.registers[2] >> 16) == [0, 1]


F = np.array([0.0, -0.0, 1.5, -1.5, 2.5, -2.7, 1e10, -1e10, 3e9, np.inf, -np.inf, np.nan, 65504.0, 1e5, 255.9,
              -129.0], np.float32)


@pytest.mark.parametrize("dtype", ["u8", "s8", "u16", "s16", "u32", "s32"])
def test_float_to_int_truncates_saturates_and_maps_nan_to_zero(dtype):
    info = np.iinfo({"u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32,
                     "s32": np.int32}[dtype])
    ctx = run(f"convert.{dtype}.f32 r1, r0", lanes=F.size, inputs={0: F})
    with np.errstate(invalid="ignore"):
        t = np.trunc(F.astype(np.float64))
        expected = np.where(np.isnan(t), 0, np.clip(t, info.min, info.max)).astype(np.int64)
    got = ctx.registers[1].astype(np.int64)
    if dtype[0] == "s":  # sign-extended into the 32-bit register
        got = ctx.registers[1].view(np.int32).astype(np.int64)
    assert np.array_equal(got, expected)


def test_64bit_conversions():
    ctx = run("convert.s64.f32 r2_r3, r0\nconvert.u64.f32 r4_r5, r0\nconvert.f32.s64 r6, r2_r3", lanes=4,
              inputs={0: np.array([-1e19, 1e19, -3.5, 2.0 ** 40], np.float32)})
    s64 = (ctx.registers[2].astype(np.uint64) | (ctx.registers[3].astype(np.uint64) << 32)).view(np.int64)
    u64 = ctx.registers[4].astype(np.uint64) | (ctx.registers[5].astype(np.uint64) << 32)
    assert list(s64) == [-(2 ** 63), 2 ** 63 - 1, -3, 2 ** 40]
    assert list(u64) == [0, int(np.float32(1e19)), 0, 2 ** 40]
    assert list(f32(ctx, 6)) == [np.float32(-(2.0 ** 63)), np.float32(2.0 ** 63), -3.0, 2.0 ** 40]


def test_int_to_float_and_float_sizes():
    v = np.array([0, 1, 0xFFFFFFFF, 0x80000000, 16777217, 0x7FFFFFFF], np.uint32)
    ctx = run("convert.f32.u32 r1, r0\nconvert.f32.s32 r2, r0\nconvert.f16.s32 r3l, r0\nconvert.f32.f16 r4, r3l\n"
              "convert.s32.s8 r5, r0\nconvert.u32.u8 r6, r0\nconvert.s16.s32 r7l, r0",
              lanes=v.size, inputs={0: v})
    assert bits_equal(f32(ctx, 1), v.astype(np.float32))
    assert bits_equal(f32(ctx, 2), v.view(np.int32).astype(np.float32))
    with np.errstate(over="ignore"):
        h = v.view(np.int32).astype(np.float16)
    assert bits_equal((ctx.registers[3] & 0xFFFF).astype(np.uint16).view(np.float16), h)
    assert bits_equal(f32(ctx, 4), h.astype(np.float32))
    assert list(ctx.registers[5].view(np.int32)) == [0, 1, -1, 0, 1, -1]
    assert list(ctx.registers[6]) == [0, 1, 255, 0, 1, 255]
    assert list((ctx.registers[7] & 0xFFFF).astype(np.uint16).view(np.int16)) == [0, 1, -1, 0, 1, -1]


def test_f32_to_f16_rounds_to_nearest_even_and_overflows_to_inf():
    x = np.array([1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 70000.0, -70000.0, 1e-8, np.nan], np.float32)
    ctx = run("convert.f16.f32 r1l, r0", lanes=x.size, inputs={0: x})
    got = (ctx.registers[1] & 0xFFFF).astype(np.uint16).view(np.float16)
    assert bits_equal(got, [1.0, 1.0 + 2.0 ** -9, np.inf, -np.inf, np.float16(1e-8), np.nan])


def test_get_sr_compute_specials():
    ctx = ExecContext.for_compute((2, 3, 1), (4, 2, 1))
    prog = ("get_sr r1, thread_position_in_grid.x\nget_sr r2, thread_position_in_grid.y\n"
            "get_sr r3, threadgroup_position_in_grid.y\nget_sr r4, thread_index_in_threadgroup\n"
            "get_sr r5, threads_per_threadgroup.x\nget_sr r6l, lane_id")
    out = run(prog, ctx=ctx)
    r = out.registers
    lane = np.arange(ctx.lanes)
    group, local = lane // 8, lane % 8
    assert np.array_equal(r[1], (group % 2) * 4 + local % 4)
    assert np.array_equal(r[2], (group // 2) * 2 + local // 4)
    assert np.array_equal(r[3], group // 2)
    assert np.array_equal(r[4], local)
    assert set(r[5]) == {4}
    assert np.array_equal(r[6] & 0xFFFF, lane)


def test_missing_special_register_is_a_clear_error():
    with pytest.raises(KeyError, match="vertex_id"):
        run("get_sr r1, vertex_id", lanes=4)
