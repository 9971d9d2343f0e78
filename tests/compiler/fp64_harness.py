"""Helpers for the fp64/int64 tests: run a soft-fp64 sequence on the IR
interpreter, draw random and special binary64 values, and an exact fma reference."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from compiler.ir import Builder, Function, Shader
from compiler.ir.interp import run_function
from compiler.ir.validate import validate_shader
from compiler.lower import fp64
from compiler.lower.words import Words

SPECIAL = np.array([
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.1, 1 / 3, np.inf, -np.inf, np.nan,
    5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 2.225073858507201e-308,
    1.7976931348623157e308, -1.7976931348623157e308, 4503599627370496.0, 4503599627370497.5,
    9007199254740993.0, 0.49999999999999994, -0.49999999999999994, 2.0 ** 52 + 0.5, 2.0 ** 31, -(2.0 ** 31),
])
# NaNs with payloads: signalling and quiet, both signs
NANS = np.array([0x7FF0000000000001, 0xFFF0000000000ABC, 0x7FF8000000000123, 0xFFF8000000000000],
                np.uint64).view(np.float64)


def draws(n: int, rng: np.random.Generator) -> np.ndarray:
    """Every kind of double: raw bit patterns, moderate values, any exponent, special values."""
    kind = rng.integers(0, 4, n)
    raw = rng.integers(0, 2 ** 64, n, dtype=np.uint64).view(np.float64)
    moderate = rng.uniform(-4, 4, n)
    wide = rng.uniform(-1, 1, n) * 2.0 ** rng.integers(-1074, 1024, n).astype(np.float64)
    special = rng.choice(np.concatenate([SPECIAL, NANS]), n)
    with np.errstate(all="ignore"):
        return np.where(kind == 0, raw, np.where(kind == 1, moderate, np.where(kind == 2, wide, special)))


def run_words(fn, *xs, n_params_words=2):
    """Build ``fn(words, *F64 args)`` on the IR builder, run it on the interpreter
    with one lane per element of ``xs`` (float64 arrays), and return the result
    words as a (k, lanes) uint32 array (booleans as 0/1)."""
    lanes = len(xs[0])
    sh = Shader("compute", "fp64")
    f = Function("main", params=[(2, 32)] * len(xs))
    sh.functions.append(f)
    b = Builder(f, sh)
    w = Words(b)
    args = []
    for k in range(len(xs)):
        p = b.load_param(num_components=2, bit_size=32, param_idx=k)
        args.append(fp64.F64(b.channel(p, 0), b.channel(p, 1)))
    r = fn(w, *args)
    if isinstance(r, fp64.F64):
        r = [r.lo, r.hi]
    if not isinstance(r, list):
        r = [r]
    r = [b.b2i32(x) if x.bit_size == 1 else x for x in r]
    b.return_value(b.vec(*r) if len(r) > 1 else r[0])
    validate_shader(sh)                   # the emitted code (and its loops) is well-formed IR
    params = [np.ascontiguousarray(np.asarray(x, np.float64)).view(np.uint32).reshape(lanes, 2).T.copy()
              for x in xs]
    _it, ret = run_function(sh, lanes=lanes, params=params)
    return np.asarray(ret).astype(np.uint32).reshape(len(r), lanes)


def as_bits(words: np.ndarray) -> np.ndarray:
    """(2, lanes) words -> uint64 bit patterns."""
    return words[0].astype(np.uint64) | (words[1].astype(np.uint64) << np.uint64(32))


def bits(x) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(x, np.float64)).view(np.uint64)


def fma_reference(a, b, c) -> np.ndarray:
    """x * y + z rounded once, from exact rationals (Python's int division rounds
    correctly); non-finite operands by the IEEE rules."""
    out = np.empty(len(a))
    for i, (x, y, z) in enumerate(zip(np.asarray(a).tolist(), np.asarray(b).tolist(), np.asarray(c).tolist())):
        if math.isnan(x) or math.isnan(y) or math.isnan(z):
            out[i] = math.nan
        elif math.isinf(x) or math.isinf(y):
            if x == 0 or y == 0:
                out[i] = math.nan
            else:
                p = math.copysign(math.inf, x) * math.copysign(1.0, y)
                out[i] = math.nan if (math.isinf(z) and z != p) else p
        elif math.isinf(z):
            out[i] = z
        else:
            exact = Fraction(x) * Fraction(y) + Fraction(z)
            if exact == 0:
                # exact zero: -0 only when the product and z are both negative zeros
                neg_p = (math.copysign(1, x) * math.copysign(1, y)) < 0
                out[i] = -0.0 if (neg_p and math.copysign(1, z) < 0 and x * y == 0 and z == 0) else 0.0
            else:
                try:
                    out[i] = exact.numerator / exact.denominator
                except OverflowError:
                    out[i] = math.inf if exact > 0 else -math.inf
    return out


def same_bits_or_both_nan(got_bits: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Per lane: identical bits, or both NaN (for results whose NaN payload numpy
    itself does not fix)."""
    exp_nan = np.isnan(expected)
    got_nan = np.isnan(got_bits.view(np.float64))
    return np.where(exp_nan, got_nan, got_bits == bits(expected))
