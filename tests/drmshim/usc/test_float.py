"""Float ALU instructions against numpy-computed expectations, edge cases included.

The ISA keeps denormals (never flushes), rounds to nearest even, fma is fused,
fmin/fmax prefer numbers over NaN, saturate maps NaN to 0.
"""

import numpy as np
import pytest

from .helpers import bits_equal, f16, f32, run

EDGE = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.5, 1e-45, -1e-40, 1e-38, 3.4e38, -3.4e38, np.inf, -np.inf,
                 np.nan, 1e30, 1e-30, 12345.678, -0.75, 2.5, 3.5, -0.5], dtype=np.float32)
A, B = (x.reshape(-1) for x in np.meshgrid(EDGE, EDGE))
N = A.size


def run2(op: str, a=A, b=B, mods: str = ""):
    ctx = run(f"{op} r2, r0{mods}, r1", lanes=a.size, inputs={0: a, 1: b})
    return f32(ctx, 2)


def ref_min(a, b):
    """minimumNumber: NaN loses, -0 < +0."""
    r = np.fmin(a, b)
    both_zero = (a == 0) & (b == 0)
    return np.where(both_zero, np.where(np.signbit(a) | np.signbit(b), np.float32(-0.0), np.float32(0.0)), r)


def ref_max(a, b):
    r = np.fmax(a, b)
    both_zero = (a == 0) & (b == 0)
    return np.where(both_zero, np.where(np.signbit(a) & np.signbit(b), np.float32(-0.0), np.float32(0.0)), r)


@pytest.mark.parametrize("op, ref", [
    ("fadd", lambda a, b: a + b),
    ("fmul", lambda a, b: a * b),
    ("fmin", ref_min),
    ("fmax", ref_max),
])
def test_binary_ops_every_edge_pair(op, ref):
    with np.errstate(all="ignore"):
        expected = ref(A, B).astype(np.float32)
    assert bits_equal(run2(op), expected)


def test_fmin_fmax_prefer_numbers_over_nan():
    a = np.array([np.nan, 1.0, np.nan], np.float32)
    b = np.array([2.0, np.nan, np.nan], np.float32)
    assert bits_equal(run2("fmin", a, b), [2.0, 1.0, np.nan])
    assert bits_equal(run2("fmax", a, b), [2.0, 1.0, np.nan])


def test_denormals_are_kept_not_flushed():
    a = np.array([1e-20, 1e-45, 1.5e-38], np.float32)
    b = np.array([1e-20, 0.0, 0.5], np.float32)
    out = run2("fmul", a, b)
    assert out[0] != 0 and out[0] == np.float32(1e-20) * np.float32(1e-20)  # 1e-40 is denormal
    assert out[2] == np.float32(1.5e-38) * np.float32(0.5)
    assert run2("fadd", a, b)[1] == np.float32(1e-45)


def test_fma_is_fused():
    e = np.float32(2.0 ** -13)
    a = np.array([1 + e, 2.0, np.inf, 3.4e38], np.float32)
    b = np.array([1 - e, 3.0, 0.0, 2.0], np.float32)
    c = np.array([-1.0, 1.0, 1.0, -3.4e38], np.float32)
    ctx = run("fma r3, r0, r1, r2", lanes=4, inputs={0: a, 1: b, 2: c})
    out = f32(ctx, 3)
    assert out[0] == np.float32(-(2.0 ** -26))      # unfused would give 0
    assert out[1] == 7.0
    assert np.isnan(out[2])                           # inf * 0
    assert out[3] == np.float32(3.4e38)               # no overflow in the intermediate product


def test_source_modifiers_and_saturate():
    a = np.array([-2.0, 0.25, np.nan, -np.inf, np.inf, -0.0], np.float32)
    b = np.zeros_like(a)
    assert bits_equal(run2("fadd", a, b, ".abs"), np.abs(a) + b)
    assert bits_equal(run2("fadd", a, b, ".neg"), -a + b)
    assert bits_equal(run2("fadd", a, b, ".abs.neg"), -np.abs(a) + b)
    ctx = run("fadd.sat r2, r0, r1", lanes=a.size, inputs={0: a, 1: b})
    assert bits_equal(f32(ctx, 2), [0.0, 0.25, 0.0, 0.0, 1.0, 0.0])


@pytest.mark.parametrize("op, ref", [
    ("floor", np.floor), ("ceil", np.ceil), ("trunc", np.trunc), ("roundeven", np.rint),
    ("sqrt", np.sqrt), ("rcp", lambda x: np.float32(1) / x), ("rsqrt", lambda x: np.float32(1) / np.sqrt(x)),
])
def test_unary_exact_ops(op, ref):
    with np.errstate(all="ignore"):
        expected = ref(EDGE).astype(np.float32)
    ctx = run(f"{op} r1, r0", lanes=EDGE.size, inputs={0: EDGE})
    assert bits_equal(f32(ctx, 1), expected)


def test_unary_edge_values():
    x = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan], np.float32)
    prog = "rcp r1, r0\nrsqrt r2, r0\nsqrt r3, r0\nlog2 r4, r0\nexp2 r5, r0"
    ctx = run(prog, lanes=x.size, inputs={0: x})
    assert bits_equal(f32(ctx, 1), [np.inf, -np.inf, -1.0, 0.0, -0.0, np.nan])
    assert bits_equal(f32(ctx, 2), [np.inf, -np.inf, np.nan, 0.0, np.nan, np.nan])
    assert bits_equal(f32(ctx, 3), [0.0, -0.0, np.nan, np.inf, np.nan, np.nan])
    assert bits_equal(f32(ctx, 4), [-np.inf, -np.inf, np.nan, np.inf, np.nan, np.nan])
    assert bits_equal(f32(ctx, 5), [1.0, 1.0, 0.5, np.inf, 0.0, np.nan])


def test_transcendentals_match_float64_within_an_ulp_or_two():
    x = np.linspace(-20, 20, 997, dtype=np.float32)
    ctx = run("sin r1, r0\ncos r2, r0\nexp2 r3, r0\nlog2 r4, r5", lanes=x.size,
              inputs={0: x, 5: np.abs(x) + np.float32(1e-3)})
    xd = x.astype(np.float64)
    np.testing.assert_allclose(f32(ctx, 1), np.sin(xd), atol=2e-7)
    np.testing.assert_allclose(f32(ctx, 2), np.cos(xd), atol=2e-7)
    np.testing.assert_allclose(f32(ctx, 3), np.exp2(xd), rtol=3e-7)
    np.testing.assert_allclose(f32(ctx, 4), np.log2(np.abs(xd) + np.float32(1e-3)), rtol=3e-7, atol=1e-7)


def test_fract():
    x = np.array([1.25, -1.25, -1e-10, 0.0, 7.0, np.inf, np.nan, 1e20], np.float32)
    ctx = run("fract r1, r0", lanes=x.size, inputs={0: x})
    below_one = np.nextafter(np.float32(1), np.float32(0))
    assert bits_equal(f32(ctx, 1), [0.25, 0.75, below_one, 0.0, 0.0, np.nan, np.nan, 0.0])


def test_16bit_ops_round_once_to_half():
    a16 = np.array([1.0, 0.1, 65504.0, 6e-8, -3.0, np.nan], np.float16)
    b16 = np.array([2.0 ** -11, 0.2, 65504.0, 6e-8, 0.5, 1.0], np.float16)
    packed = a16.view(np.uint16).astype(np.uint32) | (b16.view(np.uint16).astype(np.uint32) << 16)
    ctx = run("fadd r1l, r0l, r0h\nfmul r1h, r0l, r0h\nfma r2l, r0l, r0h, r0l", lanes=a16.size,
              inputs={0: packed})
    with np.errstate(all="ignore"):
        a, b = a16.astype(np.float32), b16.astype(np.float32)
        assert bits_equal(f16(ctx, 1), (a + b).astype(np.float16))
        assert bits_equal(f16(ctx, 1, high=True), (a * b).astype(np.float16))
        assert bits_equal(f16(ctx, 2), (a.astype(np.float64) * b + a).astype(np.float32).astype(np.float16))
    assert f16(ctx, 1)[2] == np.inf                   # 65504 + 65504 overflows binary16
    assert f16(ctx, 1)[3] != 0                        # binary16 denormals are kept too


def test_16bit_source_in_32bit_op_is_widened_exactly():
    h = np.array([0.1, -2.5, 6e-8], np.float16)
    ctx = run("fadd r1, r0l, 0.0", lanes=3, inputs={0: h.view(np.uint16).astype(np.uint32)})
    assert bits_equal(f32(ctx, 1), h.astype(np.float32))


def test_float_immediates_and_uniforms():
    u = np.zeros(256, np.uint32)
    u[3] = np.float32(0.3).view(np.uint32)
    x = np.array([1.0, 2.0], np.float32)
    ctx = run("fmul r1, r0, 1.5\nfadd r2, r0, u3\nfadd r3, r0, -15.5\nfmul r4, u3, u3", lanes=2, inputs={0: x},
              uniforms=u)
    assert bits_equal(f32(ctx, 1), x * np.float32(1.5))
    assert bits_equal(f32(ctx, 2), x + np.float32(0.3))
    assert bits_equal(f32(ctx, 3), x - np.float32(15.5))
    assert bits_equal(f32(ctx, 4), [np.float32(0.3) * np.float32(0.3)] * 2)


def test_derivatives_are_exact_on_quads():
    # 2 quads; lane 4q + 2*row + col; value = 3x + 5y^2 (x = col, y = row) per quad, plus a per-quad offset
    col = np.tile([0, 1, 0, 1], 2).astype(np.float32)
    row = np.tile([0, 0, 1, 1], 2).astype(np.float32)
    v = 3 * col + 5 * row * row + np.repeat([0.0, 100.0], 4).astype(np.float32)
    ctx = run("dfdx r1, r0\ndfdy r2, r0", lanes=8, inputs={0: v}, quads=True)
    assert np.array_equal(f32(ctx, 1), np.full(8, 3.0, np.float32))
    assert np.array_equal(f32(ctx, 2), np.full(8, 5.0, np.float32))
    ctx = run("dfdx r1, r0", lanes=8, inputs={0: v}, quads=False)
    assert np.array_equal(f32(ctx, 1), np.zeros(8, np.float32))


def test_fmin_fmax_order_signed_zeros_the_same_on_every_lane():
    n = 37  # not a multiple of any SIMD width: tail lanes take numpy's scalar loop
    a = np.tile(np.array([0.0, -0.0], np.float32), n)[:n]
    b = -a
    lo, hi = run2("fmin", a, b), run2("fmax", a, b)
    assert np.all(np.signbit(lo)) and not np.any(np.signbit(hi))


def test_signalling_nan_loses_to_a_number_in_fmin_fmax():
    snan = np.array([0x7FA00000], np.uint32).view(np.float32)[0]
    for n in (1, 37):
        a = np.full(n, 0.0, np.float32)
        b = np.full(n, snan, np.float32)
        assert np.array_equal(run2("fmin", a, b), a) and np.array_equal(run2("fmax", b, a), a)


def test_fmin_fmax_in_place_on_a_source_register():
    a = np.array([0.0, -0.0, np.nan, 2.0], np.float32)
    b = np.array([-0.0, 0.0, 1.0, np.nan], np.float32)
    ctx = run("fmin r0, r0, r1\nfmax r2, r3, r2", lanes=4, inputs={0: a, 1: b, 2: a, 3: b})
    assert bits_equal(f32(ctx, 0), [-0.0, -0.0, 1.0, 2.0])
    assert bits_equal(f32(ctx, 2), [0.0, 0.0, 1.0, 2.0])


@pytest.mark.parametrize("asm", ["fma r6, r4, r5, r6", "fma.sat r4, r4, r5, r6", "fadd.sat r5, r4, r5",
                                 "fmul.sat r6, r4, r5", "fma r7, r4.neg, r5, r6.abs"])
def test_row_writes_with_every_lane_active_equal_the_masked_path(asm):
    """With every lane active, 1-3 operand ops write the destination row in place
    (saturating there): the bits of the masked path (half the lanes active, run
    twice with complementary masks), destination aliasing a source included."""
    c = np.roll(A, 7)
    inputs = {4: A, 5: B, 6: c, 7: np.zeros(N, np.float32), 9: np.arange(N, dtype=np.uint32) % 2}
    whole = run(asm, lanes=N, inputs=inputs)
    masked = [run(f"mov_imm r0l, 0\nif_icmp.eq r9, {k}, 1\n{asm}\npop_exec 1", lanes=N, inputs=inputs)
              for k in (0, 1)]
    dst = int(asm.split()[1].rstrip(",")[1:])
    half = inputs[9] == 1
    want = np.where(half, f32(masked[1], dst).view(np.uint32), f32(masked[0], dst).view(np.uint32))
    assert np.array_equal(f32(whole, dst).view(np.uint32), want)
