"""IEEE 754 binary64 arithmetic on 32-bit integer IR (the soft-fp64 library).

The GPU has no 64-bit float unit (as Apple's AGX, whose Mesa driver lowers fp64
with ``nir_lower_doubles`` and the soft-fp64 library): a double is a pair of
32-bit words ``(lo, hi)`` and every operation is built from 32-bit integer ops
(``compiler.lower.words``). Results are the IEEE ones, bit for bit those of
numpy float64 on x86-64: round to nearest even, gradual underflow (subnormal
inputs and results), infinities, signed zeros. Division and square root are
correctly rounded (long division and the digit-by-digit root with a sticky
bit); fma rounds once.

NaNs follow the x86 SSE rules numpy shows: an operation with a NaN operand
returns the first NaN operand, quieted; an invalid operation (inf - inf,
0 * inf, 0 / 0, inf / inf, sqrt of a negative number) returns the default NaN
0xFFF8000000000000.

Every function takes a :class:`Words` emitter and :class:`F64` values and
returns F64 values (or 1-bit ``Def``s); the emitted code is straight-line
(selects), except the counted loops of division and square root. The most
frequent operations (add, subtract, multiply, compare, negate, absolute value)
compute on the double as one 64-bit integer (the ISA's 64-bit integer add, shifts,
logic, compares, selects and multiplies): about half the instructions of the same
operation on 32-bit words. The others work on lists of 32-bit words.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.ir.core import Def

from .words import Words

__all__ = [
    "F64", "fadd", "fmul", "ffma", "fdiv", "fsqrt", "flt", "fge", "feq", "fneu", "fneg", "fabs",
    "ftrunc", "ffloor", "fceil", "fround_even", "f2f64_from32", "f64_to_f32", "int_to_f64", "int_to_f32",
    "f64_to_int",
    "fmin", "fmax", "fsign", "fsat", "is_nan",
]

EXP_BIAS = 1023
MANT_BITS = 52
DEFAULT_NAN_HI = 0xFFF80000     # x86's default NaN (sign set, quiet)
QUIET_HI = 0x00080000


@dataclass
class F64:
    """A binary64 value as two 32-bit words, and as one 64-bit integer ``v`` when
    it has been built as one (``_v`` makes it on demand)."""
    lo: Def
    hi: Def
    v: Def | None = None


SIGN64 = 1 << 63
INF64 = 0x7FF << 52
QUIET64 = 1 << 51
DEFAULT_NAN64 = DEFAULT_NAN_HI << 32


def _v(w: Words, x: F64) -> Def:
    """The double as one 64-bit integer."""
    if x.v is None:
        x.v = w.pack64(x.lo, x.hi)
    return x.v


def _of(w: Words, v: Def) -> F64:
    """A 64-bit integer as a double (its words are views of the register pair)."""
    return F64(w.lo32(v), w.hi32(v), v)


@dataclass
class _Parts:
    sign: Def          # 0 or 1
    exp: Def           # signed: value = sig * 2^exp
    sig: list          # 2 words, implicit bit included for normal numbers
    field: Def         # the biased exponent field
    is_nan: Def
    is_inf: Def
    is_zero: Def


def _unpack(w: Words, x: F64) -> _Parts:
    sign = w.shr(x.hi, 31)
    field = w.and_(w.shr(x.hi, 20), 0x7FF)
    mhi = w.and_(x.hi, 0xFFFFF)
    mant_zero = w.eq(w.or_(mhi, x.lo), 0)
    special = w.eq(field, 0x7FF)
    is_nan = w.band(special, w.bnot(mant_zero))
    is_inf = w.band(special, mant_zero)
    is_zero = w.band(w.eq(field, 0), mant_zero)
    normal = w.ne(field, 0)
    sig = [x.lo, w.or_(mhi, w.sel(normal, 0x100000, 0))]
    exp = w.sub(w.smax(field, 1), EXP_BIAS + MANT_BITS)
    return _Parts(sign, exp, sig, field, is_nan, is_inf, is_zero)


def is_nan(w: Words, x: F64) -> Def:
    field = w.and_(w.shr(x.hi, 20), 0x7FF)
    return w.band(w.eq(field, 0x7FF), w.ne(w.shl(_v(w, x), 12), 0))


@dataclass
class _Parts64:
    mag: Def           # the value without its sign (64-bit)
    sig: Def           # significand (64-bit), implicit bit included for normal numbers
    exp: Def           # signed 32-bit: |value| = sig * 2^exp
    is_nan: Def
    is_inf: Def
    is_zero: Def


def _unpack64(w: Words, x: F64) -> _Parts64:
    v = _v(w, x)
    field = w.and_(w.shr(x.hi, 20), 0x7FF)
    mag = w.shr(w.shl(v, 1), 1)                     # (shifts: no 64-bit mask constants)
    mant = w.shr(w.shl(v, 12), 12)
    sig = w.or_(mant, w.shl(w.b2u64(w.ne(field, 0)), MANT_BITS))
    exp = w.sub(w.smax(field, 1), EXP_BIAS + MANT_BITS)
    special = w.eq(field, 0x7FF)
    mant_zero = w.eq(mant, 0)
    return _Parts64(mag, sig, exp, w.band(special, w.bnot(mant_zero)), w.band(special, mant_zero),
                    w.eq(mag, 0))


def _shr_sticky64(w: Words, x: Def, s: Def) -> Def:
    """x >> s (s any unsigned 32-bit amount) with the bits shifted out ORed into
    bit 0. Amounts past 63 act as 63, which gives the same result for every x
    whose top bit is clear or that has another bit set."""
    s = w.umin(s, 63)
    lost = w.and_(x, w.sub(w.shl(w.q(1), s), 1))
    return w.or_(w.shr(x, s), w.b2u64(w.ne(lost, 0)))


def _round_pack64(w: Words, sign64: Def, exp: Def, sig: Def) -> Def:
    """Round ``sign * sig * 2^exp`` (sig a nonzero 64-bit integer, any sticky bit
    already in bit 0; sign64 the sign bit in place) to nearest even and pack it as
    binary64. Overflow gives infinity, underflow a subnormal or zero."""
    lz = w.clz(sig)
    norm = w.shl(sig, lz)                                        # MSB at bit 63
    biased = w.add(w.sub(exp, lz), 63 + EXP_BIAS)                # biased exponent of the MSB
    shifted = _shr_sticky64(w, norm, w.smax(w.sub(1, biased), 0))   # subnormals: shifted right
    m = w.shr(shifted, 11)                                       # 53 bits, implicit bit at 52
    # round to nearest even: up when the 11 bits below are above half, or half and m odd
    low = w.lo32(shifted)
    round_up = w.ult(0x400, w.add(w.and_(low, 0x7FF), w.and_(w.shr(low, 11), 1)))
    # (field - 1) << 52 plus the mantissa with its implicit bit: a carry out of the
    # mantissa (rounding up, or a subnormal becoming normal) bumps the exponent
    packed = w.add(m, w.shl(w.u64(w.sub(w.smax(biased, 1), 1)), MANT_BITS))
    packed = w.sel(round_up, w.add(packed, 1), packed)
    packed = w.sel(w.sge(biased, 0x7FF), w.q(INF64), packed)
    return w.or_(packed, sign64)


def _normalise64(w: Words, p: _Parts64) -> tuple[Def, Def]:
    """(significand with its MSB at bit 52, exponent) of a finite nonzero value."""
    lz = w.sub(w.clz(p.sig), 11)
    return w.shl(p.sig, lz), w.sub(p.exp, lz)


def _nan64(w: Words, *operands: tuple) -> tuple[Def, Def]:
    """(any NaN, the first NaN operand quieted) over (64-bit value, is_nan) pairs."""
    result = w.or_(operands[-1][0], QUIET64)
    any_nan = operands[-1][1]
    for value, nan in reversed(operands[:-1]):
        result = w.sel(nan, w.or_(value, QUIET64), result)
        any_nan = w.bor(any_nan, nan)
    return any_nan, result


def _quiet(w: Words, x: F64) -> F64:
    return F64(x.lo, w.or_(x.hi, QUIET_HI))


def _pick(w: Words, cond: Def, x: F64, y: F64) -> F64:
    return F64(w.sel(cond, x.lo, y.lo), w.sel(cond, x.hi, y.hi))


def _const(w: Words, bits: int) -> F64:
    return F64(w.c(bits), w.c(bits >> 32))


def _signed(w: Words, sign: Def, hi_magnitude: int, lo: int = 0) -> F64:
    return F64(w.c(lo), w.or_(w.shl(sign, 31), hi_magnitude))


def _default_nan(w: Words) -> F64:
    return _const(w, DEFAULT_NAN_HI << 32)


def _nan_of(w: Words, *operands: tuple) -> tuple[Def, F64]:
    """(any NaN, the first NaN operand quieted) over (value, is_nan) pairs."""
    result = _quiet(w, operands[-1][0])
    any_nan = operands[-1][1]
    for value, nan in reversed(operands[:-1]):
        result = _pick(w, nan, _quiet(w, value), result)
        any_nan = w.bor(any_nan, nan)
    return any_nan, result


# ---------------------------------------------------------------- rounding

def round_pack(w: Words, sign: Def, exp: Def, sig: list, *, mant_bits: int = MANT_BITS,
               bias: int = EXP_BIAS, max_field: int = 0x7FF) -> list:
    """Round ``(-1)^sign * sig * 2^exp`` (sig a nonzero multi-word integer of at
    least two words) to nearest even in the format with ``mant_bits`` stored
    mantissa bits, and pack it: two words (binary64) or one (binary32, when
    ``mant_bits`` is 23). Overflow gives infinity, underflow a subnormal or zero."""
    n = len(sig)
    lz = w.clz_words(sig)
    norm = w.shl_words(sig, lz)                                  # MSB at bit 32n - 1
    biased = w.add(w.sub(exp, lz), 32 * n - 1 + bias)            # biased exponent of the MSB
    r = w.smax(w.sub(1, biased), 0)                              # extra right shift of subnormals
    shifted = w.shr_sticky(norm, r)
    e_field = w.smax(biased, 1)
    overflow = w.sge(biased, max_field)
    if mant_bits == MANT_BITS:
        top_lo, top_hi = shifted[n - 2], shifted[n - 1]
        m_hi = w.shr(top_hi, 11)
        m_lo = w.or_(w.shr(top_lo, 11), w.shl(top_hi, 21))
        guard = w.and_(w.shr(top_lo, 10), 1)
        rest = w.and_(top_lo, 0x3FF)
        for x in shifted[:n - 2]:
            rest = w.or_(rest, x)
        round_up = w.and_(guard, w.b2u(w.bor(w.ne(rest, 0), w.eq(w.and_(m_lo, 1), 1))))
        # (e_field - 1) << 52 plus the mantissa with its implicit bit: a carry out of
        # the mantissa (rounding up, or a subnormal becoming normal) bumps the exponent.
        hi = w.add(m_hi, w.shl(w.sub(e_field, 1), 20))
        lo = w.add(m_lo, round_up)
        hi = w.add(hi, w.b2u(w.ult(lo, m_lo)))
        hi = w.sel(overflow, 0x7FF00000, hi)
        lo = w.sel(overflow, 0, lo)
        return [lo, w.or_(hi, w.shl(sign, 31))]
    assert mant_bits == 23
    top = shifted[n - 1]
    m = w.shr(top, 8)
    guard = w.and_(w.shr(top, 7), 1)
    rest = w.and_(top, 0x7F)
    for x in shifted[:n - 1]:
        rest = w.or_(rest, x)
    round_up = w.and_(guard, w.b2u(w.bor(w.ne(rest, 0), w.eq(w.and_(m, 1), 1))))
    v = w.add(w.add(m, w.shl(w.sub(e_field, 1), 23)), round_up)
    v = w.sel(overflow, 0x7F800000, v)
    return [w.or_(v, w.shl(sign, 31))]


def _finish(w: Words, packed: list) -> F64:
    return F64(packed[0], packed[1])


# ---------------------------------------------------------------- sign and comparisons

def fneg(w: Words, x: F64) -> F64:
    if x.v is not None:
        return _of(w, w.xor(x.v, SIGN64))
    return F64(x.lo, w.xor(x.hi, 0x80000000))


def fabs(w: Words, x: F64) -> F64:
    if x.v is not None:
        return _of(w, w.shr(w.shl(x.v, 1), 1))
    return F64(x.lo, w.and_(x.hi, 0x7FFFFFFF))


def _order_key(w: Words, x: F64) -> Def:
    """A 64-bit integer whose unsigned order is the numeric order of non-NaN
    doubles (except that -0 sorts below +0)."""
    v = _v(w, x)
    return w.sel(w.slt(v, 0), w.not_(v), w.or_(v, SIGN64))


def _both_zero(w: Words, x: F64, y: F64) -> Def:
    return w.eq(w.shl(w.or_(_v(w, x), _v(w, y)), 1), 0)


def flt(w: Words, x: F64, y: F64) -> Def:
    ordered = w.bnot(w.bor(is_nan(w, x), is_nan(w, y)))
    return w.band(ordered, w.bnot(_both_zero(w, x, y)), w.ult(_order_key(w, x), _order_key(w, y)))


def fge(w: Words, x: F64, y: F64) -> Def:
    ordered = w.bnot(w.bor(is_nan(w, x), is_nan(w, y)))
    return w.band(ordered, w.bor(_both_zero(w, x, y), w.uge(_order_key(w, x), _order_key(w, y))))


def feq(w: Words, x: F64, y: F64) -> Def:
    ordered = w.bnot(w.bor(is_nan(w, x), is_nan(w, y)))
    return w.band(ordered, w.bor(_both_zero(w, x, y), w.eq(_v(w, x), _v(w, y))))


def fneu(w: Words, x: F64, y: F64) -> Def:
    return w.bnot(feq(w, x, y))


def fmin(w: Words, x: F64, y: F64) -> F64:
    """numpy's fmin: a NaN operand is ignored (two NaNs give the second, quieted);
    of +0 and -0, the first (numpy itself gives either, by array length)."""
    r = _pick(w, flt(w, y, x), y, x)
    r = _pick(w, is_nan(w, x), _pick(w, is_nan(w, y), _quiet(w, y), y), r)
    return _pick(w, w.band(is_nan(w, y), w.bnot(is_nan(w, x))), x, r)


def fmax(w: Words, x: F64, y: F64) -> F64:
    """numpy's fmax: as fmin with the order reversed."""
    r = _pick(w, flt(w, x, y), y, x)
    r = _pick(w, is_nan(w, x), _pick(w, is_nan(w, y), _quiet(w, y), y), r)
    return _pick(w, w.band(is_nan(w, y), w.bnot(is_nan(w, x))), x, r)


def fsign(w: Words, x: F64) -> F64:
    """1.0 or -1.0; +0 for either zero; a NaN unchanged (numpy's sign)."""
    zero = w.eq(w.or_(w.and_(x.hi, 0x7FFFFFFF), x.lo), 0)
    one = F64(w.c(0), w.or_(w.and_(x.hi, 0x80000000), 0x3FF00000))
    r = _pick(w, zero, _const(w, 0), one)
    return _pick(w, is_nan(w, x), x, r)


def fsat(w: Words, x: F64) -> F64:
    """clamp(x, 0, 1), NaN -> 0."""
    zero = _const(w, 0)
    one = _const(w, 0x3FF0000000000000)
    r = _pick(w, flt(w, one, x), one, x)
    r = _pick(w, flt(w, x, zero), zero, r)
    return _pick(w, is_nan(w, x), zero, r)


# ---------------------------------------------------------------- add, multiply, fma

def fadd(w: Words, x: F64, y: F64, *, subtract: bool = False) -> F64:
    """x + y (x - y with ``subtract``), on 64-bit integers."""
    vx = _v(w, x)
    vy = w.xor(_v(w, y), SIGN64) if subtract else _v(w, y)
    a, b = _unpack64(w, x), _unpack64(w, _of(w, vy))
    swap = w.ult(a.mag, b.mag)
    big_sign = w.and_(w.sel(swap, vy, vx), SIGN64)
    big_exp, small_exp = w.sel(swap, b.exp, a.exp), w.sel(swap, a.exp, b.exp)
    # 10 guard bits below the significands (53 + 10 bits: no carry out of 64);
    # the smaller one aligned with a sticky bit
    big = w.shl(w.sel(swap, b.sig, a.sig), 10)
    small = _shr_sticky64(w, w.shl(w.sel(swap, a.sig, b.sig), 10), w.sub(big_exp, small_exp))
    differ = w.slt(w.xor(vx, vy), 0)                       # the signs differ
    total = w.sel(differ, w.sub(big, small), w.add(big, small))
    result = _round_pack64(w, big_sign, w.sub(big_exp, 10), total)
    # exact zero: +0 in round-to-nearest, -0 only for (-0) + (-0)
    result = w.sel(w.eq(total, 0), w.and_(w.and_(vx, vy), SIGN64), result)
    # infinities
    result = w.sel(b.is_inf, vy, result)
    result = w.sel(a.is_inf, vx, result)
    invalid = w.band(a.is_inf, b.is_inf, differ)
    result = w.sel(invalid, w.q(DEFAULT_NAN64), result)
    any_nan, nan = _nan64(w, (vx, a.is_nan), (_v(w, y), b.is_nan))
    return _of(w, w.sel(any_nan, nan, result))


def fmul(w: Words, x: F64, y: F64) -> F64:
    """x * y, on 64-bit integers: the 106-bit product of the normalised
    significands from 32 x 32 and 32 x 21-bit partial products."""
    vx, vy = _v(w, x), _v(w, y)
    a, b = _unpack64(w, x), _unpack64(w, y)
    sign = w.and_(w.xor(vx, vy), SIGN64)
    sa, ea = _normalise64(w, a)
    sb, eb = _normalise64(w, b)
    al, ah, bl, bh = w.lo32(sa), w.hi32(sa), w.lo32(sb), w.hi32(sb)      # ah, bh < 2^21
    al64, ah64, bl64, bh64 = w.u64(al), w.u64(ah), w.u64(bl), w.u64(bh)
    low = w.pack64(w.mul(al, bl), w.b.umul_high(al, bl))
    mid = w.add(w.mul(al64, bh64), w.mul(ah64, bl64))                  # < 2^54
    high = w.mul(ah64, bh64)                                           # < 2^42
    low2 = w.add(low, w.shl(mid, 32))
    high = w.add(w.add(high, w.shr(mid, 32)), w.b2u64(w.ult(low2, low)))
    # the product is in [2^104, 2^106): its bits 105..42, the rest as a sticky bit
    top = w.or_(w.shl(high, 22), w.shr(low2, 42))
    top = w.or_(top, w.b2u64(w.ne(w.shl(low2, 22), 0)))
    result = _round_pack64(w, sign, w.add(w.add(ea, eb), 42), top)
    result = w.sel(w.bor(a.is_zero, b.is_zero), sign, result)
    result = w.sel(w.bor(a.is_inf, b.is_inf), w.or_(sign, INF64), result)
    invalid = w.bor(w.band(a.is_inf, b.is_zero), w.band(a.is_zero, b.is_inf))
    result = w.sel(invalid, w.q(DEFAULT_NAN64), result)
    any_nan, nan = _nan64(w, (vx, a.is_nan), (vy, b.is_nan))
    return _of(w, w.sel(any_nan, nan, result))


def ffma(w: Words, x: F64, y: F64, z: F64) -> F64:
    """x * y + z rounded once."""
    a, b, c = _unpack(w, x), _unpack(w, y), _unpack(w, z)
    psign = w.xor(a.sign, b.sign)
    prod = w.mul_words(a.sig, b.sig)                            # exact, 4 words
    pexp = w.add(a.exp, b.exp)
    addend = [w.c(0), w.c(0), c.sig[0], c.sig[1]]
    cexp = w.sub(c.exp, 64)
    # both normalised to bit 126 (bit 127 left for the carry): exact, the low bits are zeros
    lzp, lzc = w.sub(w.clz_words(prod), 1), w.sub(w.clz_words(addend), 1)
    pn, cn = w.shl_words(prod, lzp), w.shl_words(addend, lzc)
    pexp, cexp = w.sub(pexp, lzp), w.sub(cexp, lzc)
    # a zero addend never leads: the sum is then the product itself, rounded once
    # (its sign even when it underflows to zero)
    swap = w.band(w.bnot(c.is_zero), w.bor(w.slt(pexp, cexp), w.band(w.eq(pexp, cexp), w.less(pn, cn))))
    big = w.select(swap, cn, pn)
    small = w.select(swap, pn, cn)
    big_exp, small_exp = w.sel(swap, cexp, pexp), w.sel(swap, pexp, cexp)
    big_sign, small_sign = w.sel(swap, c.sign, psign), w.sel(swap, psign, c.sign)
    small = w.shr_sticky(small, w.sub(big_exp, small_exp))
    same = w.eq(big_sign, small_sign)
    total = w.select(same, w.add_words(big, small), w.sub_words(big, small))
    result = _finish(w, round_pack(w, big_sign, big_exp, total))
    result = _pick(w, w.is_zero(total), _const(w, 0), result)
    prod_zero = w.bor(a.is_zero, b.is_zero)
    # a zero product: the result is z, except that a zero z gives the zero-sum sign rule
    zero_sum = _signed(w, w.and_(psign, c.sign), 0)
    result = _pick(w, prod_zero, _pick(w, c.is_zero, zero_sum, z), result)
    prod_inf = w.bor(a.is_inf, b.is_inf)
    result = _pick(w, c.is_inf, z, result)
    result = _pick(w, prod_inf, _signed(w, psign, 0x7FF00000), result)
    invalid = w.bor(w.band(a.is_inf, b.is_zero), w.band(a.is_zero, b.is_inf),
                    w.band(prod_inf, c.is_inf, w.ne(psign, c.sign)))
    result = _pick(w, invalid, _default_nan(w), result)
    any_nan, nan = _nan_of(w, (x, a.is_nan), (y, b.is_nan), (z, c.is_nan))
    return _pick(w, any_nan, nan, result)


# ---------------------------------------------------------------- divide and square root

def _normalise53(w: Words, p: _Parts) -> tuple[list, Def]:
    """(significand with its MSB at bit 52, exponent) of a finite nonzero value."""
    lz = w.sub(w.clz_words(p.sig), 11)
    return w.shl_words(p.sig, lz), w.sub(p.exp, lz)


def fdiv(w: Words, x: F64, y: F64) -> F64:
    a, b = _unpack(w, x), _unpack(w, y)
    sign = w.xor(a.sign, b.sign)
    ma, ea = _normalise53(w, a)
    mb, eb = _normalise53(w, b)
    # long division: q = floor(ma * 2^55 / mb), 55 or 56 bits; r < 2 * mb stays in two words
    def step(w, st, _i):
        r, q, d = st[0:2], st[2:4], st[4:6]
        ge = w.bnot(w.less(r, d))
        r = w.select(ge, w.sub_words(r, d), r)
        q = [w.or_(w.shl(q[0], 1), w.b2u(ge)), w.or_(w.shl(q[1], 1), w.shr(q[0], 31))]
        r = [w.shl(r[0], 1), w.or_(w.shl(r[1], 1), w.shr(r[0], 31))]
        return r + q + d
    st = w.loop(56, list(ma) + w.const(0, 2) + list(mb), step)
    r, q = st[0:2], st[2:4]
    sticky = w.b2u(w.bnot(w.is_zero(r)))
    q = w.shl_words(q, w.c(1))
    q[0] = w.or_(q[0], sticky)
    result = _finish(w, round_pack(w, sign, w.sub(w.sub(ea, eb), 56), q))
    result = _pick(w, w.bor(a.is_zero, b.is_inf), _signed(w, sign, 0), result)
    result = _pick(w, w.bor(a.is_inf, b.is_zero), _signed(w, sign, 0x7FF00000), result)
    invalid = w.bor(w.band(a.is_zero, b.is_zero), w.band(a.is_inf, b.is_inf))
    result = _pick(w, invalid, _default_nan(w), result)
    any_nan, nan = _nan_of(w, (x, a.is_nan), (y, b.is_nan))
    return _pick(w, any_nan, nan, result)


def fsqrt(w: Words, x: F64) -> F64:
    a = _unpack(w, x)
    m, e = _normalise53(w, a)
    # make the exponent even: m * 2^e with e even, m in [2^52, 2^54)
    odd = w.ne(w.and_(e, 1), 0)
    m = w.select(odd, w.shl_words(m, w.c(1)), m)
    e = w.sel(odd, w.sub(e, 1), e)
    # digit-by-digit root of m * 2^56 (110 bits -> a 55-bit root), two radicand bits a
    # step: step s reads m's bits (pos + 1, pos), pos = 52 - 2s (zeros once pos < 0)
    def step(w, st, i):
        rem, root, m = st[0:2], st[2:4], st[4:6]
        pos = w.sub(52, w.shl(i, 1))
        inside = w.sge(pos, 0)
        pc = w.and_(pos, 63)
        in_hi = w.sge(pc, 32)
        word = w.sel(in_hi, m[1], m[0])
        pair = w.and_(w.shr(word, w.and_(pc, 31)), 3)
        pair = w.sel(inside, pair, 0)
        rem = [w.or_(w.shl(rem[0], 2), pair), w.or_(w.shl(rem[1], 2), w.shr(rem[0], 30))]
        trial = [w.or_(w.shl(root[0], 2), 1), w.or_(w.shl(root[1], 2), w.shr(root[0], 30))]
        ge = w.bnot(w.less(rem, trial))
        rem = w.select(ge, w.sub_words(rem, trial), rem)
        root = [w.or_(w.shl(root[0], 1), w.b2u(ge)), w.or_(w.shl(root[1], 1), w.shr(root[0], 31))]
        return rem + root + m
    st = w.loop(55, w.const(0, 4) + list(m), step)
    rem, root = st[0:2], st[2:4]
    sticky = w.b2u(w.bnot(w.is_zero(rem)))
    root = w.shl_words(root, w.c(1))
    root[0] = w.or_(root[0], sticky)
    half_e = w.sar(e, 1)
    result = _finish(w, round_pack(w, w.c(0), w.sub(half_e, 29), root))
    result = _pick(w, a.is_zero, x, result)
    result = _pick(w, w.band(a.is_inf, w.eq(a.sign, 0)), x, result)
    invalid = w.band(w.eq(a.sign, 1), w.bnot(a.is_zero))
    result = _pick(w, invalid, _default_nan(w), result)
    return _pick(w, a.is_nan, _quiet(w, x), result)


# ---------------------------------------------------------------- rounding to integers

def _frac_mask(w: Words, x: F64) -> tuple[list, Def, Def]:
    """(mask of the fraction bits, unbiased exponent E, 0 <= E < 52)."""
    field = w.and_(w.shr(x.hi, 20), 0x7FF)
    E = w.sub(field, EXP_BIAS)
    k = w.sub(MANT_BITS, E)                                  # fraction bits, 1..52 when 0 <= E < 52
    in_range = w.band(w.sge(E, 0), w.slt(E, MANT_BITS))
    kc = w.sel(in_range, k, 0)
    lo_mask = w.sel(w.sge(kc, 32), 0xFFFFFFFF, w.sub(w.shl(1, w.and_(kc, 31)), 1))
    hi_mask = w.sel(w.sge(kc, 33), w.sub(w.shl(1, w.and_(w.sub(kc, 32), 31)), 1), 0)
    return [lo_mask, hi_mask], E, in_range


def _add_unit(w: Words, x: F64, mask: list) -> F64:
    """x's bits plus mask + 1 (one unit at the integer position; carries ripple
    into the exponent, which is the next integer's encoding)."""
    lo = w.add(x.lo, w.add(mask[0], 1))
    carry = w.b2u(w.ult(lo, x.lo))
    carry = w.sel(w.eq(mask[0], 0xFFFFFFFF), 1, carry)
    lo = w.sel(w.eq(mask[0], 0xFFFFFFFF), x.lo, lo)
    return F64(lo, w.add(w.add(x.hi, mask[1]), carry))


def ftrunc(w: Words, x: F64) -> F64:
    mask, E, in_range = _frac_mask(w, x)
    t = F64(w.and_(x.lo, w.not_(mask[0])), w.and_(x.hi, w.not_(mask[1])))
    small = w.slt(E, 0)
    t = _pick(w, small, F64(w.c(0), w.and_(x.hi, 0x80000000)), t)
    return _pick(w, is_nan(w, x), _quiet(w, x), t)


def _floor_ceil(w: Words, x: F64, ceil: bool) -> F64:
    mask, E, in_range = _frac_mask(w, x)
    t = F64(w.and_(x.lo, w.not_(mask[0])), w.and_(x.hi, w.not_(mask[1])))
    has_frac = w.ne(w.or_(w.and_(x.lo, mask[0]), w.and_(x.hi, mask[1])), 0)
    neg = w.ne(w.shr(x.hi, 31), 0)
    away = w.bnot(neg) if ceil else neg          # rounding away from zero in magnitude
    bump = w.band(in_range, has_frac, away)
    r = _pick(w, bump, _add_unit(w, t, mask), t)
    small = w.slt(E, 0)
    nonzero = w.ne(w.or_(w.and_(x.hi, 0x7FFFFFFF), x.lo), 0)
    signed_zero = F64(w.c(0), w.and_(x.hi, 0x80000000))
    signed_one = F64(w.c(0), w.or_(w.and_(x.hi, 0x80000000), 0x3FF00000))
    r = _pick(w, small, _pick(w, w.band(nonzero, away), signed_one, signed_zero), r)
    return _pick(w, is_nan(w, x), _quiet(w, x), r)


def ffloor(w: Words, x: F64) -> F64:
    return _floor_ceil(w, x, ceil=False)


def fceil(w: Words, x: F64) -> F64:
    return _floor_ceil(w, x, ceil=True)


def fround_even(w: Words, x: F64) -> F64:
    mask, E, in_range = _frac_mask(w, x)
    t = F64(w.and_(x.lo, w.not_(mask[0])), w.and_(x.hi, w.not_(mask[1])))
    frac = [w.and_(x.lo, mask[0]), w.and_(x.hi, mask[1])]
    # half = (mask + 1) >> 1
    half = [w.or_(w.shr(mask[0], 1), w.shl(mask[1], 31)), w.shr(mask[1], 1)]
    half = w.add_words(half, w.const(1, 2))
    unit = w.add_words(mask, w.const(1, 2))
    odd = w.ne(w.or_(w.and_(t.lo, unit[0]), w.and_(t.hi, unit[1])), 0)
    above = w.less(half, frac)
    tie = w.equal(frac, half)
    bump = w.band(in_range, w.bor(above, w.band(tie, odd)))
    r = _pick(w, bump, _add_unit(w, t, mask), t)
    # |x| < 1: 0.5 < |x| < 1 rounds to 1, everything else to 0 (0.5 ties to even 0)
    sign_hi = w.and_(x.hi, 0x80000000)
    mag_hi = w.and_(x.hi, 0x7FFFFFFF)
    gt_half = w.less([w.c(0), w.c(0x3FE00000)], [x.lo, mag_hi])
    small_r = _pick(w, gt_half, F64(w.c(0), w.or_(sign_hi, 0x3FF00000)), F64(w.c(0), sign_hi))
    r = _pick(w, w.slt(E, 0), small_r, r)
    return _pick(w, is_nan(w, x), _quiet(w, x), r)


# ---------------------------------------------------------------- conversions

def f2f64_from32(w: Words, f: Def) -> F64:
    """A binary32 word widened (exact)."""
    sign = w.shr(f, 31)
    field = w.and_(w.shr(f, 23), 0xFF)
    m = w.and_(f, 0x7FFFFF)
    sig = w.or_(m, w.sel(w.ne(field, 0), 0x800000, 0))
    exp = w.sub(w.smax(field, 1), 127 + 23)
    r = _finish(w, round_pack(w, sign, w.sub(exp, 32), [w.c(0), sig]))
    zero = w.eq(w.and_(f, 0x7FFFFFFF), 0)
    r = _pick(w, zero, _signed(w, sign, 0), r)
    special = w.eq(field, 0xFF)
    # infinity, or NaN with its payload moved up (quieted, as cvtss2sd does)
    spec = F64(w.shl(m, 29), w.or_(w.or_(w.shl(sign, 31), 0x7FF00000), w.shr(m, 3)))
    spec = _pick(w, w.ne(m, 0), _quiet(w, spec), spec)
    return _pick(w, special, spec, r)


def f64_to_f32(w: Words, x: F64) -> Def:
    """Round a double to binary32 (nearest even); NaN payloads keep their top bits."""
    a = _unpack(w, x)
    r = round_pack(w, a.sign, a.exp, a.sig, mant_bits=23, bias=127, max_field=0xFF)[0]
    r = w.sel(a.is_zero, w.shl(a.sign, 31), r)
    r = w.sel(a.is_inf, w.or_(w.shl(a.sign, 31), 0x7F800000), r)
    payload = w.or_(w.shl(w.and_(x.hi, 0xFFFFF), 3), w.shr(x.lo, 29))
    nan = w.or_(w.or_(w.shl(a.sign, 31), 0x7FC00000), payload)
    return w.sel(a.is_nan, nan, r)


def int_to_f64(w: Words, words: list, signed: bool) -> F64:
    """An integer of one or two words (two's complement when ``signed``), rounded."""
    words = list(words)
    if signed:
        sign = w.shr(words[-1], 31)
        neg = w.ne(sign, 0)
        words = w.select(neg, w.neg_words(words), words)
    else:
        sign = w.c(0)
    sig = w.zext(words, 2)
    r = _finish(w, round_pack(w, sign, w.c(0), sig))
    return _pick(w, w.is_zero(sig), _const(w, 0), r)


def int_to_f32(w: Words, words: list, signed: bool) -> Def:
    """A two-word integer rounded once to binary32."""
    words = list(words)
    if signed:
        sign = w.shr(words[-1], 31)
        words = w.select(w.ne(sign, 0), w.neg_words(words), words)
    else:
        sign = w.c(0)
    r = round_pack(w, sign, w.c(0), words, mant_bits=23, bias=127, max_field=0xFF)[0]
    return w.sel(w.is_zero(words), 0, r)


def f64_to_int(w: Words, x: F64, n_words: int, signed: bool) -> list:
    """Truncate toward zero to an integer of ``n_words`` words. Out-of-range values
    are undefined in GLSL; NaN gives 0 (as the IR's reference conversion)."""
    a = _unpack(w, x)
    sig = w.zext(a.sig, 3)
    left = w.umin(w.smax(a.exp, 0), 96)
    right = w.umin(w.smax(w.sub(0, a.exp), 0), 96)
    mag = w.shr_words(w.shl_words(sig, left), right)[:n_words]
    if signed:
        mag = w.select(w.ne(a.sign, 0), w.neg_words(mag), mag)
    return w.select(a.is_nan, w.const(0, n_words), mag)
