"""Device, threadgroup and stack memory; atomics with exact sequential semantics;
faults."""

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drmshim.gpu.usc import ExecContext, sequential_atomic
from drmshim.memory import GPUFault
from uapi.isa.semantics import ATOMIC_OPS

from .helpers import DATA_VA_OFFSET, f32, new_memory, run

RNG = np.random.default_rng(11)


def uniforms_with(*addresses: int) -> np.ndarray:
    """u0_u1, u2_u3, ...: 64-bit addresses."""
    u = np.zeros(256, np.uint32)
    for i, a in enumerate(addresses):
        u[2 * i], u[2 * i + 1] = a & 0xFFFFFFFF, a >> 32
    return u


def lane_ids(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.uint32)


# Independent reference decoders (from the format definitions, not from uapi.isa.semantics)
def srgb_decode(c):
    c = c / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def small_float(bits, mbits):
    e, m = bits >> mbits, bits & ((1 << mbits) - 1)
    if e == 0:
        return m / (1 << mbits) * 2.0 ** -14
    if e == 31:
        return np.inf if m == 0 else np.nan
    return (1 + m / (1 << mbits)) * 2.0 ** (e - 15)


def test_device_load_every_format():
    mem = new_memory()
    data_va = mem.base + DATA_VA_OFFSET
    raw = RNG.integers(0, 256, 4096, dtype=np.uint8)
    mem.write(data_va, raw, "test")
    n = 64
    idx = lane_ids(n)
    words = raw.view(np.uint32)
    prog = "\n".join([
        "device_load.i8 r0_r1_r2, u0_u1, r40, 2, 0",       # 3 bytes at data + 4*lane
        "device_load.i16 r3_r4, u0_u1, r40, 2, 0",
        "device_load.i32 r5_r6, u0_u1, r40, 3, 0",
        "device_load.unorm8 r7_r8_r9_r10, u0_u1, r40, 2, 0",
        "device_load.snorm8 r11_r12, u0_u1, r40, 2, 0",
        "device_load.unorm16 r13, u0_u1, r40, 2, 0",
        "device_load.snorm16 r14, u0_u1, r40, 2, 0",
        "device_load.srgba8 r15_r16_r17_r18, u0_u1, r40, 2, 0",
        "device_load.rgb10a2 r19_r20_r21_r22, u0_u1, r40, 2, 0",
        "device_load.rg11b10f r23_r24_r25, u0_u1, r40, 2, 0",
        "device_load.rgb9e5 r26_r27_r28, u0_u1, r40, 2, 0",
        "device_load.f16 r29_r30, u0_u1, r40, 2, 0",
        "device_load.unorm8 r31l_r31h, u0_u1, r40, 2, 0",
        "wait 0",
    ])
    ctx = run(prog, lanes=n, mem=mem, inputs={40: idx}, uniforms=uniforms_with(data_va))
    r = ctx.registers
    b = raw[(4 * idx)[:, None] + np.arange(4)]
    h = raw.view(np.uint16)[(2 * idx)[:, None] + np.arange(2)]
    for c in range(3):
        assert np.array_equal(r[c], b[:, c])
    assert np.array_equal(r[3], h[:, 0]) and np.array_equal(r[4], h[:, 1])
    assert np.array_equal(r[5], words[2 * idx]) and np.array_equal(r[6], words[2 * idx + 1])
    for c in range(4):
        np.testing.assert_allclose(f32(ctx, 7 + c), b[:, c] / 255.0, rtol=1e-6)
    np.testing.assert_allclose(f32(ctx, 11), np.maximum(b[:, 0].view(np.int8) / 127.0, -1), rtol=1e-6)
    np.testing.assert_allclose(f32(ctx, 13), h[:, 0] / 65535.0, rtol=1e-6)
    np.testing.assert_allclose(f32(ctx, 14), np.maximum(h[:, 0].view(np.int16) / 32767.0, -1), rtol=1e-6)
    for c in range(3):
        np.testing.assert_allclose(f32(ctx, 15 + c), srgb_decode(b[:, c].astype(np.float64)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(f32(ctx, 18), b[:, 3] / 255.0, rtol=1e-6)
    w = words[idx].astype(np.int64)
    for c, shift in enumerate((0, 10, 20)):
        np.testing.assert_allclose(f32(ctx, 19 + c), ((w >> shift) & 1023) / 1023.0, rtol=1e-6)
    np.testing.assert_allclose(f32(ctx, 22), (w >> 30) / 3.0, rtol=1e-6)
    exp_r = [small_float(int(x) & 0x7FF, 6) for x in w]
    exp_b = [small_float(int(x) >> 22, 5) for x in w]
    np.testing.assert_allclose(f32(ctx, 23), exp_r, rtol=1e-6)
    np.testing.assert_allclose(f32(ctx, 25), exp_b, rtol=1e-6)
    e = (w >> 27) - 15 - 9
    np.testing.assert_allclose(f32(ctx, 26), (w & 511) * 2.0 ** e, rtol=1e-6)
    np.testing.assert_allclose(f32(ctx, 28), ((w >> 18) & 511) * 2.0 ** e, rtol=1e-6)
    assert np.array_equal(f32(ctx, 29), h[:, 0].view(np.float16).astype(np.float32), equal_nan=True)
    assert np.array_equal((r[31] & 0xFFFF).astype(np.uint16).view(np.float16),
                          (b[:, 0] / 255.0).astype(np.float16))


def test_device_store_formats_round_clamp_and_nan():
    mem = new_memory()
    out_va = mem.base + DATA_VA_OFFSET
    v = np.array([0.0, 1.0, 0.5, -0.5, 2.0, np.nan, 1 / 255 * 0.5, 0.25], np.float32)
    n = v.size
    prog = ("device_store.unorm8 r1, u0_u1, r40, 0, 0\n"       # byte per lane at out + lane
            "device_store.snorm8 r1, u2_u3, r40, 0, 0\n"
            "device_store.unorm16 r1, u4_u5, r40, 1, 0\n"
            "device_store.f16 r1, u6_u7, r40, 1, 0\n"
            "device_store.i32 r41, u8_u9, r40, 2, 0\n")
    addrs = [out_va + 0x1000 * i for i in range(5)]
    run(prog, lanes=n, mem=mem, inputs={1: v, 40: lane_ids(n), 41: lane_ids(n) * 3},
        uniforms=uniforms_with(*addrs))
    got = lambda i, dt: mem.read(addrs[i], n * np.dtype(dt).itemsize, "t").view(dt)
    clean = np.nan_to_num(v)
    assert np.array_equal(got(0, np.uint8), np.rint(np.clip(clean, 0, 1) * 255).astype(np.uint8))
    assert np.array_equal(got(1, np.int8), np.rint(np.clip(clean, -1, 1) * 127).astype(np.int8))
    assert np.array_equal(got(2, np.uint16), np.rint(np.clip(clean, 0, 1) * 65535).astype(np.uint16))
    assert np.array_equal(got(3, np.float16), v.astype(np.float16), equal_nan=True)
    assert np.array_equal(got(4, np.uint32), lane_ids(n) * 3)


@pytest.mark.parametrize("fmt, k", [("rgb10a2", 4), ("rg11b10f", 3), ("rgb9e5", 3), ("srgba8", 4), ("unorm8", 4)])
def test_store_then_load_roundtrips_within_format_precision(fmt, k):
    mem = new_memory()
    n = 200
    vals = RNG.uniform(0, 1, (n, k)).astype(np.float32)
    regs = " ".join(f"r{i}" for i in range(k)).replace(" ", "_")
    out = "_".join(f"r{10 + i}" for i in range(k))
    ctx = run(f"device_store.{fmt} {regs}, u0_u1, r40, 2, 0\nwait 0\ndevice_load.{fmt} {out}, u0_u1, r40, 2, 1\nwait 1",
              lanes=n, mem=mem, inputs={**{i: vals[:, i] for i in range(k)}, 40: lane_ids(n)},
              uniforms=uniforms_with(mem.base + DATA_VA_OFFSET))
    tol = {"rgb10a2": 1 / 1023 / 2 + 1e-6, "rg11b10f": 1 / 32, "rgb9e5": 1 / 256, "srgba8": 0.005,
           "unorm8": 1 / 255 / 2 + 1e-6}[fmt]
    for c in range(k):
        a_tol = 1 / 3 / 2 + 1e-6 if fmt == "rgb10a2" and c == 3 else tol
        np.testing.assert_allclose(f32(ctx, 10 + c), vals[:, c], atol=a_tol)


def test_address_is_base_plus_sign_extended_index_shifted():
    mem = new_memory()
    base = mem.base + DATA_VA_OFFSET + 0x100
    mem.write(base - 8, np.array([111, 222, 333, 444], np.uint32), "t")
    ctx = run("device_load.i32 r1, u0_u1, r40, 2, 0\nwait 0", lanes=4, mem=mem,
              inputs={40: np.array([-2, -1, 0, 1], np.int32).view(np.uint32)}, uniforms=uniforms_with(base))
    assert list(ctx.registers[1]) == [111, 222, 333, 444]


def test_masked_and_helper_lanes_do_not_store():
    mem = new_memory()
    va = mem.base + DATA_VA_OFFSET
    helper = np.array([False, True, False, False] * 2)
    run("""
        mov_imm r0l, 0
        if_icmp.ult r40, 6, 1
          device_store.i32 r41, u0_u1, r40, 2, 0
        pop_exec 1
    """, lanes=8, mem=mem, inputs={40: lane_ids(8), 41: lane_ids(8) + 100}, uniforms=uniforms_with(va),
        helper=helper, quads=True)
    assert list(mem.read(va, 32, "t").view(np.uint32)) == [100, 0, 102, 103, 104, 0, 0, 0]


def _as_float(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _reference_float_atomic(op: str, old: int, v: int, compare) -> int:
    """NV_shader_atomic_float / INTEL_shader_atomic_float_minmax on one word, from the
    rules (IEEE minNum/maxNum with signalling NaNs winning; ties of two NaNs of one kind:
    the lower word for fmin, the higher for fmax), in Python floats."""
    a, b = _as_float(old), _as_float(v)
    if op == "fadd":
        pair = np.array([old, v], np.uint32).view(np.float32)       # (NaN payloads kept)
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.float32(pair[0] + pair[1])
        return 0x7FC00000 if math.isnan(total) else int(np.array([total], np.float32).view(np.uint32)[0])
    if op == "fcmpxchg":
        return v if a == _as_float(compare) else old          # Python: nan != nan, -0.0 == 0.0
    nan_a, nan_b = math.isnan(a), math.isnan(b)
    s_a, s_b = nan_a and not old & 0x00400000, nan_b and not v & 0x00400000
    if nan_a and nan_b:
        if s_a != s_b:
            return old if s_a else v
        return min(old, v) if op == "fmin" else max(old, v)
    if s_a or s_b:
        return old if s_a else v
    if nan_a or nan_b:
        return v if nan_a else old
    if a == b:                               # equal numbers: only the zeros' signs differ
        neg_first = math.copysign(1.0, a) < 0
        pick_a = neg_first if op == "fmin" else not neg_first
        return old if pick_a else v
    return old if (a < b) == (op == "fmin") else v


def reference_atomics(op, initial: dict, addrs, values, compares=None):
    """One lane after another, in lane order."""
    mem = dict(initial)
    olds = []
    for i, (a, v) in enumerate(zip(addrs, values)):
        old = mem[a]
        olds.append(old)
        v = int(v)
        s = lambda x: x - (1 << 32) if x >> 31 else x
        if op in ("fadd", "fmin", "fmax", "fcmpxchg"):
            new = _reference_float_atomic(op, old, v, None if compares is None else int(compares[i]))
        else:
            new = {"add": old + v, "sub": old - v, "xchg": v, "umin": min(old, v), "umax": max(old, v),
                   "smin": min(s(old), s(v)), "smax": max(s(old), s(v)), "and": old & v, "or": old | v,
                   "xor": old ^ v, "cmpxchg": v if compares is not None and old == int(compares[i]) else old}[op]
        mem[a] = new & 0xFFFFFFFF
    return olds, mem


@pytest.mark.parametrize("op", ATOMIC_OPS)
def test_device_atomics_are_sequential_in_lane_order(op):
    mem = new_memory()
    va = mem.base + DATA_VA_OFFSET
    n = 500
    slots = RNG.integers(0, 5, n).astype(np.uint32)              # heavy contention on 5 words
    values = RNG.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    if op in ("and", "or", "xor"):
        values = values | np.uint32(1) << RNG.integers(0, 32, n).astype(np.uint32)
    compares = RNG.integers(0, 3, n).astype(np.uint32)
    if op in ("cmpxchg", "fcmpxchg"):
        values = RNG.integers(0, 3, n).astype(np.uint32)          # small values so swaps chain
    init = np.array([0, 1, 2, 0xFFFFFFFF, 0x80000000], np.uint32)
    mem.write(va, init, "t")
    cmp_operand = ", r42" if op in ("cmpxchg", "fcmpxchg") else ""
    ctx = run(f"atomic.{op} r1, u0_u1, r40, r41{cmp_operand}, 2, 0\nwait 0", lanes=n, mem=mem,
              inputs={40: slots, 41: values, 42: compares}, uniforms=uniforms_with(va))
    olds, final = reference_atomics(op, {i: int(x) for i, x in enumerate(init)}, [int(s) for s in slots], values,
                                    compares)
    assert [int(x) for x in ctx.registers[1]] == olds
    assert [int(x) for x in mem.read(va, 20, "t").view(np.uint32)] == [final[i] for i in range(5)]


def test_atomic_add_gives_every_lane_a_distinct_ticket():
    mem = new_memory()
    va = mem.base + DATA_VA_OFFSET
    ctx = run("atomic.add r1, u0_u1, 0, 1, 0, 0\nwait 0", lanes=1000, mem=mem, uniforms=uniforms_with(va),
              batch_lanes=256)
    assert np.array_equal(np.sort(ctx.registers[1]), np.arange(1000))
    assert mem.read(va, 4, "t").view(np.uint32)[0] == 1000


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ATOMIC_OPS), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 4)),
                                             min_size=1, max_size=40))
def test_sequential_atomic_matches_a_loop(op, lanes):
    addrs = np.array([a for a, _, _ in lanes])
    values = np.array([v for _, v, _ in lanes], np.uint32)
    compares = np.array([c for _, _, c in lanes], np.uint32)
    uniq, inverse = np.unique(addrs, return_inverse=True)
    initial = (uniq * 2 + 1).astype(np.uint32)
    olds, finals = sequential_atomic(op, uniq, initial, inverse, values, compares)
    ref_olds, ref_mem = reference_atomics(op, {int(a): int(i) for a, i in zip(uniq, initial)}, list(addrs), values,
                                          compares)
    assert [int(x) for x in olds] == ref_olds
    assert [int(x) for x in finals] == [ref_mem[int(a)] for a in uniq]


@pytest.mark.parametrize("batch_lanes", [16, 128, 16384])  # a batch never splits a threadgroup
def test_threadgroup_memory_with_barrier_reverses_each_group(batch_lanes):
    ctx = ExecContext.for_compute((3, 1, 1), (64, 1, 1), local_memory_B=256)
    out = run("""
        get_sr r1, thread_index_in_threadgroup
        get_sr r2, thread_position_in_grid.x
        ishl r3, r1, 2
        local_store.i32 r2, r3, 0
        wait 0
        threadgroup_barrier
        isub r4, 63, r1
        ishl r4, r4, 2
        local_load.i32 r5, r4, 0
        wait 0
    """, ctx=ctx, batch_lanes=batch_lanes)
    lane = np.arange(192)
    assert np.array_equal(out.registers[5], lane // 64 * 64 + 63 - lane % 64)


def test_local_atomics_per_group():
    ctx = ExecContext.for_compute((4, 1, 1), (32, 1, 1), local_memory_B=16)
    out = run("""
        local_atomic.add r1, 0, 1, 0
        wait 0
        threadgroup_barrier
        local_load.i32 r2, 0, 0
        wait 0
    """, ctx=ctx)
    assert np.array_equal(out.registers[1], np.tile(np.arange(32), 4))
    assert set(out.registers[2]) == {32}


def test_threadgroup_memory_out_of_range_faults():
    ctx = ExecContext.for_compute((1, 1, 1), (4, 1, 1), local_memory_B=16)
    with pytest.raises(GPUFault):
        run("local_load.i32 r2, 16, 0\nwait 0", ctx=ctx)


def test_stack_spill_and_fill_per_lane():
    mem = new_memory()
    n = 100
    ctx = run("""
        stack_store r1_r2, 8, 0
        mov_imm r1, 0
        mov_imm r2, 0
        stack_load r3_r4, 8, 1
        wait 1
    """, lanes=n, mem=mem, inputs={1: lane_ids(n) * 7, 2: lane_ids(n) + 5},
        stack_va=mem.base + DATA_VA_OFFSET, stack_bytes_per_lane=16)
    assert np.array_equal(ctx.registers[3], lane_ids(n) * 7)
    assert np.array_equal(ctx.registers[4], lane_ids(n) + 5)
    assert mem.read(mem.base + DATA_VA_OFFSET + 16 * 3 + 8, 4, "t").view(np.uint32)[0] == 21


def test_bad_address_is_a_gpu_fault_from_the_usc():
    mem = new_memory()
    with pytest.raises(GPUFault) as info:
        run("device_load.i32 r1, u0_u1, 0, 0, 0\nwait 0", lanes=4, mem=mem, uniforms=uniforms_with(0xDEAD0000))
    assert info.value.info.unit == "USC" and info.value.info.is_read
    assert info.value.info.address == 0xDEAD0000
    with pytest.raises(GPUFault) as info:
        run("device_store.i32 r1, u0_u1, 0, 0, 0", lanes=4, mem=mem, uniforms=uniforms_with(0x10))
    assert not info.value.info.is_read


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32, np.uint32, np.uint64])
@pytest.mark.parametrize("aligned", [True, False])
def test_byte_memory_word_path_matches_the_byte_path(dtype, aligned):
    """ByteMemory reads and writes aligned elements as typed words (the fast path
    of ld_tile/st_tile): same values, same bytes, last lane wins on duplicates."""
    from drmshim.gpu.usc.mem import ByteMemory
    rng = np.random.default_rng(3)
    size = np.dtype(dtype).itemsize
    raw = rng.integers(0, 256, 4096, dtype=np.uint8)
    offs = rng.integers(0, 4096 // size - 1, 300) * size + (0 if aligned else 1)
    offs[-1] = offs[0]                                    # a duplicate: the last lane's value is kept
    expect_read = np.array([raw[o:o + size].view(dtype)[0] for o in offs])
    mem = ByteMemory(raw.copy())
    np.testing.assert_array_equal(mem.gather(offs, dtype), expect_read)
    values = rng.integers(0, 256, 300 * size, dtype=np.uint8).view(dtype)
    expect = raw.copy()
    for o, v in zip(offs, values):
        expect[o:o + size] = np.array([v], dtype).view(np.uint8)
    mem.scatter(offs, values)
    np.testing.assert_array_equal(mem.bytes, expect)
    with pytest.raises(GPUFault):
        mem.gather(np.array([4096 - size + 1]), dtype)


@pytest.mark.parametrize("fmt, k", [("unorm8", 4), ("unorm8", 2), ("unorm8", 3), ("i16", 4), ("i32", 2), ("f16", 1)])
def test_tile_loads_and_stores_as_words_match_per_element_access(fmt, k):
    """load_values/store_values on on-chip memory read a lane's k elements as one
    word when aligned: same values and bytes as element-by-element access."""
    from drmshim.gpu.usc.mem import ByteMemory, load_values, store_values

    class PerElement:                       # the same memory without the word path
        def __init__(self, array):
            self.inner = ByteMemory(array)

        def gather(self, offs, dtype, unit="USC"):
            return self.inner.gather(offs, dtype, unit)

        def scatter(self, offs, values, unit="USC"):
            self.inner.scatter(offs, values, unit)

    rng = np.random.default_rng(5)
    raw = rng.integers(0, 256, 1 << 12, dtype=np.uint8)
    addr = rng.permutation(256)[:100].astype(np.int64) * 16 + 8
    fast, plain = ByteMemory(raw.copy()), PerElement(raw.copy())
    np.testing.assert_array_equal(load_values(fast, addr, fmt, k), load_values(plain, addr, fmt, k))
    vals = load_values(plain, addr[::-1], fmt, k)
    store_values(fast, addr, fmt, vals, k)
    store_values(plain, addr, fmt, vals, k)
    np.testing.assert_array_equal(fast.bytes, plain.inner.bytes)
