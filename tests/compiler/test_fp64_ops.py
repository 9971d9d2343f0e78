"""The soft-fp64 library (compiler.lower.fp64) on the IR interpreter against numpy
float64, bit for bit: random bit patterns, moderate values, every exponent,
special values (zeros, subnormals, extremes, infinities, NaNs with payloads).
The fast run draws 600 lanes per operation; the slow run 10,000 pairs."""

import numpy as np
import pytest

from compiler.lower import fp64

from .fp64_harness import (NANS, SPECIAL, as_bits, bits, draws, fma_reference, run_words,
                           same_bits_or_both_nan)

FAST, SLOW = 600, 10_000


def _pairs(n, seed):
    rng = np.random.default_rng(seed)
    x, y = draws(n, rng), draws(n, rng)
    # operands of related magnitude: cancellation in add/sub, exact quotients
    k = np.arange(0, n, 3)
    with np.errstate(all="ignore"):
        y[k] = x[k] * rng.uniform(-2, 2, len(k))
    y[1::7] = x[1::7]
    y[2::7] = -x[2::7]
    return x, y


def _fsub(w, a, b):
    return fp64.fadd(w, a, b, subtract=True)


BINARY = {"fadd": (fp64.fadd, np.add), "fsub": (_fsub, np.subtract), "fmul": (fp64.fmul, np.multiply),
          "fdiv": (fp64.fdiv, np.divide)}
UNARY = {"fsqrt": (fp64.fsqrt, np.sqrt), "ffloor": (fp64.ffloor, np.floor), "fceil": (fp64.fceil, np.ceil),
         "ftrunc": (fp64.ftrunc, np.trunc), "fround_even": (fp64.fround_even, np.rint),
         "fneg": (fp64.fneg, np.negative), "fabs": (fp64.fabs, np.abs), "fsign": (fp64.fsign, np.sign),
         "fsat": (fp64.fsat, lambda a: np.where(np.isnan(a), 0.0, np.clip(a, 0.0, 1.0)))}


def _check_binary(name, n, seed):
    fn, ref = BINARY[name]
    x, y = _pairs(n, seed)
    with np.errstate(all="ignore"):
        expected = ref(x, y)
    got = as_bits(run_words(fn, x, y))
    bad = got != bits(expected)         # NaNs too: x86's propagation and default NaN
    assert not bad.any(), [(x[i], y[i], hex(got[i]), hex(bits(expected)[i])) for i in np.nonzero(bad)[0][:5]]


def _check_unary(name, n, seed):
    fn, ref = UNARY[name]
    x = draws(n, np.random.default_rng(seed))
    x[:len(SPECIAL)] = SPECIAL
    x[len(SPECIAL):len(SPECIAL) + len(NANS)] = NANS
    with np.errstate(all="ignore"):
        expected = ref(x)
    got = as_bits(run_words(fn, x))
    bad = got != bits(expected)
    assert not bad.any(), [(x[i], hex(got[i]), hex(bits(expected)[i])) for i in np.nonzero(bad)[0][:5]]


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_match_numpy_bit_for_bit(name):
    _check_binary(name, FAST, 1)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_match_numpy_bit_for_bit(name):
    _check_unary(name, FAST, 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_ten_thousand_pairs(name):
    _check_binary(name, SLOW, 11)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_ten_thousand_values(name):
    _check_unary(name, SLOW, 12)


def _check_fma(n, seed):
    rng = np.random.default_rng(seed)
    x, y, z = draws(n, rng), draws(n, rng), draws(n, rng)
    with np.errstate(all="ignore"):
        z[::2] = -(x[::2] * y[::2])              # near-total cancellation
        z[1::4] = x[1::4] * y[1::4] * 2.0 ** -60   # an addend far below the product
    got = as_bits(run_words(fp64.ffma, x, y, z))
    ok = same_bits_or_both_nan(got, fma_reference(x, y, z))
    assert ok.all(), [(x[i], y[i], z[i], hex(got[i])) for i in np.nonzero(~ok)[0][:5]]


def test_fma_rounds_once():
    _check_fma(FAST, 3)
    # a case where a*b+c rounded twice differs from fma: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104
    e = 2.0 ** -52
    got = as_bits(run_words(fp64.ffma, np.array([1 + e]), np.array([1 - e]), np.array([-1.0])))
    assert got[0] == bits(-(2.0 ** -104))


@pytest.mark.slow
def test_fma_ten_thousand_triples():
    _check_fma(SLOW, 13)


def test_division_and_square_root_are_correctly_rounded_at_hard_cases():
    # quotients and roots whose exact value lies very close to a rounding midpoint
    x = np.array([1.0, 2.0, 3.0, 7.0, 1e-320, 1.7976931348623157e308, 9007199254740991.0, 0.1])
    y = np.array([3.0, 3.0, 10.0, 49.0, 3.0, 0.5, 9007199254740993.0, 1e-308])
    got = as_bits(run_words(fp64.fdiv, x, y))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, bits(x / y))
    got = as_bits(run_words(fp64.fsqrt, x))
    np.testing.assert_array_equal(got, bits(np.sqrt(x)))


@pytest.mark.parametrize("name", ["flt", "fge", "feq", "fneu"])
def test_comparisons(name):
    x, y = _pairs(FAST, 4)
    y[3::11] = 0.0
    x[3::11] = -0.0
    ref = {"flt": np.less, "fge": np.greater_equal, "feq": np.equal, "fneu": np.not_equal}[name]
    got = run_words(getattr(fp64, name), x, y)[0]
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, ref(x, y).astype(np.uint32))


@pytest.mark.parametrize("name", ["fmin", "fmax"])
def test_min_max_ignore_nan_operands(name):
    x, y = _pairs(FAST, 5)
    got = as_bits(run_words(getattr(fp64, name), x, y))
    expected = getattr(np, name)(x, y)
    ok = same_bits_or_both_nan(got, expected)
    # numpy orders +0 and -0 by array length (either zero is a right answer)
    zeros = (x == 0) & (y == 0)
    ok |= zeros & (got.view(np.float64) == 0)
    assert ok.all(), [(x[i], y[i], hex(got[i])) for i in np.nonzero(~ok)[0][:5]]


def test_conversions_between_float_and_double():
    rng = np.random.default_rng(6)
    x = draws(FAST, rng)
    x[:len(SPECIAL)] = SPECIAL
    x[len(SPECIAL):len(SPECIAL) + len(NANS)] = NANS
    # exact halfway cases between two floats, and values around the float subnormal range
    x[40:50] = np.float32(1.5) + np.float64(2.0 ** -24) * np.arange(10)
    x[50:60] = 2.0 ** -149 * np.arange(10) * 0.75
    got = run_words(lambda w, a: fp64.f64_to_f32(w, a), x)[0]
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, x.astype(np.float32).view(np.uint32))
    f = rng.integers(0, 2 ** 32, FAST, dtype=np.uint64).astype(np.uint32)
    with np.errstate(all="ignore"):
        f[:len(SPECIAL)] = SPECIAL.astype(np.float32).view(np.uint32)
    f[-1] = 0x7F800001                                    # signalling NaN: quieted, payload kept
    carrier = np.zeros(FAST, np.uint64)
    carrier[:] = f
    got = as_bits(run_words(lambda w, a: fp64.f2f64_from32(w, a.lo), carrier.view(np.float64)))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, bits(f.view(np.float32).astype(np.float64)))


def test_conversions_between_integers_and_double():
    rng = np.random.default_rng(7)
    i32 = rng.integers(-2 ** 31, 2 ** 31, FAST).astype(np.int32)
    i32[:4] = [0, -1, -2 ** 31, 2 ** 31 - 1]
    carrier = np.zeros(FAST, np.uint64)
    carrier[:] = i32.view(np.uint32)
    c = carrier.view(np.float64)
    np.testing.assert_array_equal(as_bits(run_words(lambda w, a: fp64.int_to_f64(w, [a.lo], True), c)),
                                  bits(i32.astype(np.float64)))
    np.testing.assert_array_equal(as_bits(run_words(lambda w, a: fp64.int_to_f64(w, [a.lo], False), c)),
                                  bits(i32.view(np.uint32).astype(np.float64)))
    i64 = rng.integers(-2 ** 63, 2 ** 63, FAST, dtype=np.int64) >> rng.integers(0, 63, FAST)
    i64[:3] = [-2 ** 63, 2 ** 63 - 1, 2 ** 53 + 1]
    np.testing.assert_array_equal(as_bits(run_words(lambda w, a: fp64.int_to_f64(w, [a.lo, a.hi], True),
                                                    i64.view(np.float64))), bits(i64.astype(np.float64)))
    np.testing.assert_array_equal(as_bits(run_words(lambda w, a: fp64.int_to_f64(w, [a.lo, a.hi], False),
                                                    i64.view(np.float64))),
                                  bits(i64.view(np.uint64).astype(np.float64)))
    # double -> integer truncates toward zero (values in range; NaN gives 0)
    v = rng.uniform(-2 ** 31, 2 ** 31, FAST) * 2.0 ** -rng.integers(0, 40, FAST).astype(np.float64)
    v[:3] = [-0.0, 0.999, -2147483648.0]
    got = run_words(lambda w, a: fp64.f64_to_int(w, a, 1, True), v)[0]
    np.testing.assert_array_equal(got, np.trunc(v).astype(np.int32).view(np.uint32))
    got = run_words(lambda w, a: fp64.f64_to_int(w, a, 1, False), np.abs(v))[0]
    np.testing.assert_array_equal(got, np.trunc(np.abs(v)).astype(np.uint32))
    v = rng.uniform(-2 ** 63, 2 ** 63, FAST) * 2.0 ** -rng.integers(0, 70, FAST).astype(np.float64)
    got = as_bits(run_words(lambda w, a: fp64.f64_to_int(w, a, 2, True), v))
    np.testing.assert_array_equal(got, np.trunc(v).astype(np.int64).view(np.uint64))
    assert run_words(lambda w, a: fp64.f64_to_int(w, a, 1, True), np.array([np.nan]))[0, 0] == 0
