"""The ISA's lane-wise meaning: pure numpy functions, the executable spec.

Every function here takes and returns numpy arrays with one element per lane (or
scalars that broadcast). None of them knows about registers, execution masks or
memory: the shader core (``drmshim.gpu.usc``) reads operands, calls these and
writes results. The instruction table (``table.py``) names one of these per
instruction, so the table is the single place that says what an instruction does.

Numeric conventions of the ISA (tests hold the core to them):

- Floats are IEEE binary32 / binary16, round to nearest even. Denormals are KEPT
  (never flushed), at both sizes. 16-bit float ops compute in binary32 and round
  once to binary16 (exact for add/mul/sqrt: binary32 has more than 2p+2 bits).
- ``fma`` is fused: computed in binary64 and rounded to binary32 (exact product).
- ``fmin``/``fmax`` are IEEE 754-2019 minimumNumber/maximumNumber: a NaN operand
  loses to a number, -0 < +0, and of two NaNs the first is returned.
- ``fma`` returns the canonical NaN 0x7fc00000; other ops return the quiet NaN the
  host FPU gives (x86: the first NaN operand, quieted; a fresh NaN is negative).
- Saturate clamps to [0, 1] and maps NaN and -0 to +0.
- Integer arithmetic wraps modulo 2^size. Shift counts are taken modulo the size.
- Float -> integer conversion rounds toward zero, saturates, and maps NaN to 0.
"""

from __future__ import annotations

import numpy as np

UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}
SINT = {16: np.int16, 32: np.int32, 64: np.int64}
FLOAT = {16: np.float16, 32: np.float32}

# ---------------------------------------------------------------------------
# 8-bit float immediates (the AGX minifloat: s.eee.mmmm)


def minifloat_decode(code: int) -> float:
    """Value of an 8-bit float immediate: exponent 0 is denormal (m / 128), else
    (16 + m) * 2^e / 256; bit 7 is the sign. Range +-15.5, exact in binary16."""
    sign = -1.0 if code & 0x80 else 1.0
    exp, mant = (code >> 4) & 7, code & 0xF
    mag = mant / 128.0 if exp == 0 else (16 + mant) * (2.0 ** exp) / 256.0
    return sign * mag


MINIFLOAT_VALUES = {minifloat_decode(c): c for c in range(256) if c != 0x80}
MINIFLOAT_VALUES[-0.0] = 0x80  # note: -0.0 == 0.0 as a dict key; 0.0 keeps code 0


def minifloat_encode(value: float) -> int:
    """The code of ``value``; raises ValueError when it is not exactly representable."""
    if value == 0.0:
        return 0x80 if np.signbit(value) else 0
    code = MINIFLOAT_VALUES.get(float(value))
    if code is None:
        raise ValueError(f"{value!r} is not representable as an 8-bit float immediate")
    return code


# ---------------------------------------------------------------------------
# Float ALU (operands already converted to binary32 by the core)


def saturate(x, out=None):
    """Clamp to [0, 1]; NaN and -0 become +0. ``out`` (an array): the result's
    place, which may be ``x`` itself."""
    r = np.clip(x, np.float32(0), np.float32(1), out=out)
    if np.ndim(r):
        np.add(r, np.float32(0), out=r)  # -0 + 0 = +0 (clip may keep either zero)
        np.copyto(r, np.float32(0), where=r != r)
        return r
    return np.float32(0) if r != r else np.float32(r + np.float32(0))


# Binary32 ops. ``out`` lets the core write straight into a register row; the
# functions stay pure (they never read ``out``). Floating-point exceptions are
# not errors in the ISA: callers run under np.errstate(all="ignore").

def fadd(a, b, out=None):
    """a + b."""
    return np.add(a, b, out=out)
def fmul(a, b, out=None):
    """a * b."""
    return np.multiply(a, b, out=out)
def _min_max_ties(r, a, b, negative_if):
    """Make fmin/fmax deterministic where numpy's SIMD and scalar loops differ: two
    zeros give -0 when ``negative_if(sign a, sign b)`` else +0; a NaN (even a
    signalling one) loses to a number; two NaNs give a."""
    if not np.ndim(r):
        if a == 0 and b == 0:
            return np.float32(-0.0 if negative_if(np.signbit(a), np.signbit(b)) else 0.0)
        if np.isnan(a) or np.isnan(b):
            return np.float32(b if np.isnan(a) and not np.isnan(b) else a)
        return r
    magnitude = np.abs(r)
    if r.size == 0 or magnitude.min() > 0:
        return r  # no zero and no NaN (min of a NaN is NaN): the common case, two cheap passes
    special = np.flatnonzero(~(magnitude > 0))  # zero or NaN results only
    if special.size:
        a, b = np.broadcast_to(a, r.shape)[special], np.broadcast_to(b, r.shape)[special]
        rs = np.where((a == 0) & (b == 0),
                      np.where(negative_if(np.signbit(a), np.signbit(b)), np.float32(-0.0), np.float32(0.0)),
                      r[special])
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        rs = np.where(nan_a & ~nan_b, b, np.where(nan_b & ~nan_a, a, rs))  # signalling NaNs lose too
        r[special] = np.where(nan_a & nan_b, a, rs)
    return r


def _min_max(ufunc, a, b, out, negative_if):
    if out is None or np.may_share_memory(out, a) or np.may_share_memory(out, b):
        r = _min_max_ties(ufunc(a, b), a, b, negative_if)  # the fix-up needs the operands intact
        if out is None:
            return r
        np.copyto(out, r)
        return out
    return _min_max_ties(ufunc(a, b, out=out), a, b, negative_if)


def fmin(a, b, out=None):
    """IEEE 754-2019 minimumNumber: the smaller, -0 below +0; a NaN operand loses to a number."""
    return _min_max(np.fmin, a, b, out, np.logical_or)


def fmax(a, b, out=None):
    """IEEE 754-2019 maximumNumber: the larger, +0 above -0; a NaN operand loses to a number."""
    return _min_max(np.fmax, a, b, out, np.logical_and)


CANONICAL_NAN = np.uint32(0x7FC00000).view(np.float32)


def fma(a, b, c, out=None):
    """Fused multiply-add: the binary32 product is exact in binary64, so one
    rounding of the binary64 sum (then to binary32) differs from a true fma only
    in double-rounding ties, which the ISA accepts. A NaN result is the canonical
    quiet NaN 0x7fc00000. ``out``: a float32 array for the result (pure: never read)."""
    t = np.multiply(a, b, dtype=np.float64)  # a fresh array: safe to update in place
    if t.ndim:
        t += c
    else:
        t = t + c
    if out is None:
        r = np.asarray(t).astype(np.float32)
    else:
        r = out
        np.copyto(r, t, casting="same_kind")
    nan = r != r  # which input NaN survives differs between numpy's loops: a NaN result is canonical
    if nan.any():
        r[nan] = CANONICAL_NAN
    return r if r.ndim else r[()]


def floor(a, out=None):
    """Round toward -inf."""
    return np.floor(a, out=out)
def ceil(a, out=None):
    """Round toward +inf."""
    return np.ceil(a, out=out)
def trunc(a, out=None):
    """Round toward zero."""
    return np.trunc(a, out=out)
def roundeven(a, out=None):
    """Round to nearest integer, ties to even."""
    return np.rint(a, out=out)


_BELOW_ONE = np.float32(np.nextafter(np.float32(1), np.float32(0)))


def fract(a):
    """a - floor(a), kept below 1.0 (fract of a tiny negative number is the largest
    float below 1, not 1); fract(+-inf) is NaN."""
    r = np.floor(a)
    if not np.ndim(r):
        return min(np.float32(a - r), _BELOW_ONE) if a == a else np.float32(np.nan)
    np.subtract(a, r, out=r)
    np.copyto(r, _BELOW_ONE, where=r >= 1)
    return r


def rcp(a):
    """1 / a (correctly rounded); rcp(+-0) = +-inf, rcp(+-inf) = +-0."""
    return np.divide(np.float32(1), a)


def rsqrt(a):
    """1 / sqrt(a); rsqrt(+-0) = +-inf, rsqrt(<0) = NaN."""
    r = np.sqrt(a)
    return np.divide(np.float32(1), r, out=r) if np.ndim(r) else np.float32(1) / r


def sqrt(a, out=None):
    """Square root (correctly rounded); sqrt(-0) = -0, sqrt(<0) = NaN."""
    return np.sqrt(a, out=out)
def log2(a, out=None):
    """Base-2 logarithm; log2(+-0) = -inf, log2(<0) = NaN."""
    return np.log2(a, out=out)
def exp2(a, out=None):
    """2 ** a; exp2(-inf) = 0."""
    return np.exp2(a, out=out)
def sin(a, out=None):
    """Sine of a (radians)."""
    return np.sin(a, out=out)
def cos(a, out=None):
    """Cosine of a (radians)."""
    return np.cos(a, out=out)


def quad_dfdx(v):
    """Fine derivative along x inside 2x2 quads. Lanes are quad-ordered: lane
    4q + 2*row + col (any trailing axes are components). Both lanes of a row get
    right minus left."""
    v = np.asarray(v, np.float32)
    q = v.reshape((-1, 4) + v.shape[1:])
    out = np.empty_like(q)
    np.subtract(q[:, 1], q[:, 0], out=out[:, 0])
    np.subtract(q[:, 3], q[:, 2], out=out[:, 2])
    out[:, 1], out[:, 3] = out[:, 0], out[:, 2]
    return out.reshape(v.shape)


def quad_dfdy(v):
    """Fine derivative along y inside 2x2 quads: bottom row minus top row, per column."""
    v = np.asarray(v, np.float32)
    q = v.reshape((-1, 4) + v.shape[1:])
    out = np.empty_like(q)
    np.subtract(q[:, 2], q[:, 0], out=out[:, 0])
    np.subtract(q[:, 3], q[:, 1], out=out[:, 1])
    out[:, 2], out[:, 3] = out[:, 0], out[:, 1]
    return out.reshape(v.shape)


# ---------------------------------------------------------------------------
# SIMD groups: cross-lane votes

#: Lanes of a SIMD group (as AGX: 32 threads run in lockstep). A group is 32
#: consecutive lanes of a dispatch; in compute dispatches a group never crosses a
#: threadgroup: each threadgroup starts a new group (its last one may be partial,
#: as on hardware, where the missing lanes are inactive).
SIMD_GROUP_LANES = 32
VOTE_MODES = ("any", "all", "eq")


def simd_group_starts(n_lanes: int, threadgroup_lanes: int = 0) -> np.ndarray:
    """First lane of every SIMD group of a run of ``n_lanes`` lanes starting at a
    group boundary; ``threadgroup_lanes`` > 1: the lanes form threadgroups of that
    size (``n_lanes`` a multiple of it) and groups restart at each threadgroup."""
    span = threadgroup_lanes if threadgroup_lanes > 1 else max(n_lanes, 1)
    within = np.arange(0, span, SIMD_GROUP_LANES, dtype=np.int64)
    return (np.arange(0, n_lanes, span, dtype=np.int64)[:, None] + within[None, :]).ravel()


def vote(mode: str, a, active, starts) -> np.ndarray:
    """Cross-lane vote over the *active* lanes of each SIMD group (``starts``: the
    groups' first lanes, from ``simd_group_starts``): every lane of a group gets
    1 when ``any``: some active lane has ``a`` != 0; ``all``: every active lane
    has ``a`` != 0; ``eq``: the active lanes' ``a`` != 0 are all equal (all true
    or all false). A group without active lanes gives ``all``/``eq`` 1, ``any`` 0
    (no lane reads it). uint32 per lane."""
    a = np.asarray(a)
    active = np.broadcast_to(np.asarray(active, bool), a.shape)
    true = a != 0
    some = np.logical_or.reduceat(true & active, starts) if a.size else np.zeros(0, bool)
    every = np.logical_and.reduceat(true | ~active, starts) if a.size else np.zeros(0, bool)
    result = {"any": some, "all": every, "eq": every | ~some}[mode]
    lengths = np.diff(np.append(starts, a.size))
    return np.repeat(result.astype(np.uint32), lengths)


SIMD_MODES = ("ballot", "shuffle", "first", "lane")


def simd(mode: str, a, b, active, starts) -> np.ndarray:
    """Cross-lane reads within each SIMD group (``starts`` as for ``vote``), uint32 per
    lane: ``ballot``: the mask of the group's *active* lanes whose ``a`` != 0 (bit i =
    the group's lane i), in every lane; ``shuffle``: ``a`` of the group's lane
    ``b & 31`` (active or not; 0 past a partial group's end); ``first``: ``a`` of the
    group's first active lane (0 in a group without one); ``lane``: the lane's index in
    its group (``a``, ``b`` unused)."""
    a = np.asarray(a).astype(np.uint32)
    n = a.size
    active = np.broadcast_to(np.asarray(active, bool), (n,))
    starts = np.asarray(starts, np.int64)
    lengths = np.diff(np.append(starts, n))
    group_start = np.repeat(starts, lengths)
    lane = (np.arange(n, dtype=np.int64) - group_start)
    if mode == "lane":
        return lane.astype(np.uint32)
    if mode == "ballot":
        bits = np.where(active & (a != 0), np.left_shift(np.uint64(1), lane.astype(np.uint64)), np.uint64(0))
        mask = np.bitwise_or.reduceat(bits, starts) if n else np.zeros(0, np.uint64)
        return np.repeat(mask.astype(np.uint32), lengths)
    group_end = np.repeat(starts + lengths, lengths)
    if mode == "shuffle":
        src = group_start + (np.broadcast_to(np.asarray(b), (n,)).astype(np.int64) & (SIMD_GROUP_LANES - 1))
        inside = src < group_end
        return np.where(inside, a[np.minimum(src, max(n - 1, 0))], np.uint32(0)).astype(np.uint32)
    # first: the lowest active lane of each group
    idx = np.where(active, np.arange(n, dtype=np.int64), n)
    first = np.minimum.reduceat(idx, starts) if n else np.zeros(0, np.int64)
    src = np.repeat(first, lengths)
    return np.where(src < n, a[np.minimum(src, max(n - 1, 0))], np.uint32(0)).astype(np.uint32)


# ---------------------------------------------------------------------------
# Integer ALU (unsigned arrays of the op size, signed views where the op is signed)


def iadd(a, b):
    """a + b, wrapping."""
    return a + b
def isub(a, b):
    """a - b, wrapping."""
    return a - b
def imul(a, b):
    """Low half of a * b."""
    return a * b
def imad(a, b, c):
    """a * b + c, wrapping."""
    return a * b + c
def imin(a, b):
    """The smaller (signed or unsigned by the table's operand types)."""
    return np.minimum(a, b)
def imax(a, b):
    """The larger (signed or unsigned by the table's operand types)."""
    return np.maximum(a, b)


def _bits(x) -> int:
    return np.dtype(x.dtype).itemsize * 8


def ishl(a, b):
    """a << (b mod size)."""
    return a << (b & (_bits(a) - 1)).astype(a.dtype)
def ushr(a, b):
    """Logical a >> (b mod size)."""
    return a >> (b & (_bits(a) - 1)).astype(a.dtype)
def ishr(a, b):
    """Arithmetic a >> (b mod size) (a is signed)."""
    return a >> (b.astype(a.dtype) & (_bits(a) - 1))


def umulhi(a, b):
    """High half of the unsigned double-width product."""
    n = _bits(a)
    if n == 64:
        return _mulhi64(a, b, signed=False)
    wide = np.uint64 if n == 32 else np.uint32
    return (a.astype(wide) * b.astype(wide)) >> wide(n)


def imulhi(a, b):
    """High half of the signed double-width product."""
    n = _bits(a)
    if n == 64:
        return _mulhi64(a, b, signed=True)
    wide = np.int64 if n == 32 else np.int32
    return (a.astype(wide) * b.astype(wide)) >> wide(n)


def _mulhi64(a, b, signed: bool):
    ua, ub = a.view(np.uint64) if signed else a, b.view(np.uint64) if signed else b
    m32 = np.uint64(0xFFFFFFFF)
    al, ah, bl, bh = ua & m32, ua >> np.uint64(32), ub & m32, ub >> np.uint64(32)
    ll, lh, hl, hh = al * bl, al * bh, ah * bl, ah * bh
    mid = (ll >> np.uint64(32)) + (lh & m32) + (hl & m32)
    hi = hh + (lh >> np.uint64(32)) + (hl >> np.uint64(32)) + (mid >> np.uint64(32))
    if signed:  # two's complement correction of the unsigned high word
        hi = hi - np.where(a < 0, ub, 0).astype(np.uint64) - np.where(b < 0, ua, 0).astype(np.uint64)
    return hi


def bitop(a, b, tt: int):
    """4-bit truth table: bit (b<<1 | a) of ``tt`` gives the result bit. and=0x8,
    or=0xE, xor=0x6, copy a=0xA, not a=0x5."""
    r = np.zeros_like(a)
    if tt & 1: r |= ~a & ~b
    if tt & 2: r |= a & ~b
    if tt & 4: r |= ~a & b
    if tt & 8: r |= a & b
    return r


def _mask(count, n, dtype):
    """(1 << count) - 1 for count in [0, n], as ``dtype`` (count = n gives all ones)."""
    c = np.asarray(count).astype(np.uint64)
    full = np.uint64((1 << n) - 1)
    m = np.where(c >= n, full, (np.uint64(1) << np.minimum(c, 63)) - np.uint64(1))
    return m.astype(dtype)


def bfi(base, insert, offset, count):
    """GLSL bitfieldInsert; offset and count are taken modulo (size + 1) bits' range:
    offset modulo size, count clamped to size - offset."""
    n = _bits(base)
    off = (offset & (n - 1)).astype(base.dtype)
    cnt = np.minimum(count.astype(np.uint64), np.uint64(n) - off.astype(np.uint64))
    m = _mask(cnt, n, base.dtype) << off
    return (base & ~m) | ((insert << off) & m)


def ubfe(value, offset, count):
    """GLSL bitfieldExtract (unsigned): zero-extended field; count 0 gives 0."""
    n = _bits(value)
    off = (offset & (n - 1)).astype(value.dtype)
    cnt = np.minimum(count.astype(np.uint64), np.uint64(n) - off.astype(np.uint64))
    return (value >> off) & _mask(cnt, n, value.dtype)


def ibfe(value, offset, count):
    """GLSL bitfieldExtract (signed): the field's top bit is sign-extended."""
    n = _bits(value)
    u = value.view(UINT[n])
    off = (offset & (n - 1)).astype(u.dtype)
    cnt = np.minimum(count.astype(np.uint64), np.uint64(n) - off.astype(np.uint64)).astype(u.dtype)
    field = (u >> off) & _mask(cnt, n, u.dtype)
    sign = np.where(cnt > 0, (field >> np.maximum(cnt, 1).astype(u.dtype) - u.dtype.type(1)) & u.dtype.type(1), 0)
    ext = np.where(sign.astype(bool), ~_mask(cnt, n, u.dtype), u.dtype.type(0)).astype(u.dtype)
    return (field | ext).view(SINT[n])


def popcount(a):
    """Number of set bits."""
    return np.bitwise_count(a).astype(a.dtype)


def bitrev(a):
    """Bits in reverse order."""
    n = _bits(a)
    x = a.astype(np.uint64)
    for shift, m in ((1, 0x5555555555555555), (2, 0x3333333333333333), (4, 0x0F0F0F0F0F0F0F0F),
                     (8, 0x00FF00FF00FF00FF), (16, 0x0000FFFF0000FFFF), (32, 0x00000000FFFFFFFF)):
        m = np.uint64(m)
        x = ((x >> np.uint64(shift)) & m) | ((x & m) << np.uint64(shift))
    return (x >> np.uint64(64 - n)).astype(a.dtype)


def ffs(a):
    """Index of the lowest set bit; all ones (-1) for 0 (GLSL findLSB)."""
    low = a & (~a + a.dtype.type(1))
    idx = np.bitwise_count(low - a.dtype.type(1)).astype(a.dtype)
    return np.where(a == 0, ~a.dtype.type(0), idx).astype(a.dtype)


def clz(a):
    """Count of leading zero bits; the size (e.g. 32) for 0."""
    x = a.copy()
    n = _bits(a)
    s = 1
    while s < n:
        x |= x >> a.dtype.type(s)
        s *= 2
    return (n - np.bitwise_count(x).astype(np.int64)).astype(a.dtype)


# ---------------------------------------------------------------------------
# Compare-and-select and control-flow conditions

ICMP = ("eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge")
FCMP = ("eq", "ne", "lt", "le", "gt", "ge")  # ne is unordered (true with NaN); others ordered


def icompare(cond: str, a_u, b_u):
    """Integer compare of two unsigned arrays of the same size; s* conditions view
    them as two's complement."""
    if cond[0] == "s":
        n = _bits(np.asarray(a_u))
        a_u, b_u = np.asarray(a_u).view(SINT[n]), np.asarray(b_u).view(SINT[n])
        cond = cond[1:]
    elif cond[0] == "u":
        cond = cond[1:]
    return {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}[cond](a_u, b_u)


def fcompare(cond: str, a, b):
    return {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}[cond](a, b)


def select(c, t, f): return np.where(c, t, f)


# r0l nesting-counter semantics (applegpu's exec()): ``v`` is every lane's r0l
# (active or not); afterwards a lane is active exactly when its r0l is 0.

def cf_if(v, cond, n: int):
    """if: r0l != 0 -> r0l + n; else r0l = 0 if cond else 1."""
    v = v.astype(np.int32)
    return np.where(v != 0, v + n, np.where(cond, 0, 1)).astype(np.uint16)


def cf_else(v, cond, n: int):
    """else: r0l == 0 -> n; r0l == 1 -> 0 if cond else 1; otherwise unchanged."""
    v = v.astype(np.int32)
    return np.where(v == 0, n, np.where(v == 1, np.where(cond, 0, 1), v)).astype(np.uint16)


def cf_while(v, cond, n: int):
    """while: r0l < n -> 0 if cond else n; otherwise unchanged."""
    v = v.astype(np.int32)
    return np.where(v < n, np.where(cond, 0, n), v).astype(np.uint16)


def cf_pop(v, n: int):
    """pop_exec: r0l = max(r0l - n, 0)."""
    return np.maximum(v.astype(np.int32) - n, 0).astype(np.uint16)


def cf_push(v, n: int):
    """push_exec n: an if whose condition is always true (re-derives exec from r0l)."""
    return cf_if(v, True, n)


# ---------------------------------------------------------------------------
# Conversions

TYPES = ("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f16", "f32")
TYPE_BITS = {t: int(t[1:]) for t in TYPES}
_NP_TYPE = {"u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32,
            "s32": np.int32, "u64": np.uint64, "s64": np.int64, "f16": np.float16, "f32": np.float32}


def convert(dtype: str, stype: str, raw):
    """Convert the low bits of ``raw`` (an unsigned register value) from ``stype``
    to ``dtype``. Returns an array of dtype's numpy type: integer -> integer wraps
    or extends by the source's sign; int -> float rounds to nearest even; float ->
    int rounds toward zero, saturates, NaN -> 0."""
    sbits = TYPE_BITS[stype]
    raw = np.asarray(raw)
    if raw.dtype.itemsize * 8 == sbits:
        src = raw.view(_NP_TYPE[stype])
    else:
        raw = raw.astype(np.uint64) & np.uint64((1 << sbits) - 1)
        src = raw.astype(UINT[sbits] if sbits > 8 else np.uint8).view(_NP_TYPE[stype])
    out_t = _NP_TYPE[dtype]
    if dtype[0] == "f":
        with np.errstate(over="ignore"):
            return (src.astype(np.float32, copy=False) if stype[0] == "f" else src).astype(out_t, copy=False)
    if stype[0] != "f":
        return src.astype(out_t)
    info = np.iinfo(out_t)
    x = np.trunc(src.astype(np.float64))
    with np.errstate(invalid="ignore"):
        out = np.where(np.isnan(x), 0, np.clip(x, float(info.min), float(info.max))).astype(out_t)
    if TYPE_BITS[dtype] == 64:  # the bound 2^63 or 2^64 is not an integer of the type: saturate exactly
        out = np.where(x >= float(info.max), out_t(info.max), out)
    return out


# ---------------------------------------------------------------------------
# Memory formats (device_load/store, local_load/store, ld_tile/st_tile)

MEM_FORMATS = ("i8", "i16", "i32", "f16", "unorm8", "snorm8", "unorm16", "snorm16",
               "rgb10a2", "srgba8", "rg11b10f", "rgb9e5", "rgb565", "rgba4", "rgb5a1", "rgb10a2ui")
#: 16-bit packed unorm formats: the bit widths of components 0, 1, ... from bit 0 up
#: (component 0 in the lowest bits, as rgb10a2); a missing alpha reads 1.
PACKED16_UNORM_BITS = {"rgb565": (5, 6, 5), "rgba4": (4, 4, 4, 4), "rgb5a1": (5, 5, 5, 1)}
PACKED_FORMATS = ("rgb10a2", "rg11b10f", "rgb9e5", "rgb10a2ui") + tuple(PACKED16_UNORM_BITS)  # one word holds the vector
FORMAT_ELEMENT_B = {"i8": 1, "i16": 2, "i32": 4, "f16": 2, "unorm8": 1, "snorm8": 1,
                    "unorm16": 2, "snorm16": 2, "srgba8": 1, "rgb10a2": 4, "rg11b10f": 4, "rgb9e5": 4,
                    "rgb565": 2, "rgba4": 2, "rgb5a1": 2, "rgb10a2ui": 4}   # packed formats: the word's size
# integer registers: raw bits, zero-extended into the register; rgb10a2ui: the unsigned
# 10/10/10/2-bit fields of one word (component 0 in the low bits, as rgb10a2), stores keep
# each value's low bits
INTEGER_FORMATS = ("i8", "i16", "i32", "rgb10a2ui")
#: rgb10a2ui's field widths, component 0 first
RGB10A2_BITS = (10, 10, 10, 2)
# stores clamp to [0, 1], NaN -> 0 (_to_unorm)
UNORM_FORMATS = ("unorm8", "unorm16", "srgba8", "rgb10a2") + tuple(PACKED16_UNORM_BITS)


def format_bytes(fmt: str, count: int) -> int:
    """Bytes a ``count``-component access of ``fmt`` touches."""
    return FORMAT_ELEMENT_B[fmt] if fmt in PACKED_FORMATS else FORMAT_ELEMENT_B[fmt] * count


def srgb_to_linear(c):
    c = np.asarray(c, np.float32)
    curve = ((c + np.float32(0.055)) / np.float32(1.055)) ** np.float32(2.4)
    return np.where(c <= 0.04045, c / np.float32(12.92), curve).astype(np.float32)


def linear_to_srgb(c):
    c = np.clip(np.nan_to_num(np.asarray(c, np.float32)), 0, 1)
    return np.where(c <= 0.0031308, c * np.float32(12.92),
                    np.float32(1.055) * c ** np.float32(1 / 2.4) - np.float32(0.055)).astype(np.float32)


def _unorm(x, bits, out=None):
    """Integers x in [0, 2^bits) -> x / (2^bits - 1) in binary32 (x converts exactly)."""
    return np.divide(x, np.float32((1 << bits) - 1), out=out, dtype=np.float32)
def _snorm(x, bits): return np.maximum(x.astype(np.float32) / np.float32((1 << (bits - 1)) - 1), np.float32(-1))


def _to_unorm(v, bits, out=None):
    """Clamp to [0, 1] (NaN -> 0: fmax drops a NaN operand) and round to ``bits``:
    uint32, or the integers written into ``out`` (any unsigned type of >= ``bits``
    bits: the values are integers in [0, 2^bits), so the cast is exact). One
    temporary, updated in place."""
    t = np.fmax(np.asarray(v, np.float32), np.float32(0))
    np.minimum(t, np.float32(1), out=t)
    np.multiply(t, np.float32((1 << bits) - 1), out=t)
    np.rint(t, out=t)
    if out is None:
        return t.astype(np.uint32)
    np.copyto(out, t, casting="unsafe")
    return out


def _to_snorm(v, bits):
    v = np.clip(np.nan_to_num(np.asarray(v, np.float32)), -1, 1)
    return np.rint(v * np.float32((1 << (bits - 1)) - 1)).astype(np.int32)


def _small_float_decode(x, mbits):
    """Unsigned float with 5-bit exponent (bias 15) and ``mbits`` mantissa bits."""
    e = ((x >> mbits) & 0x1F).astype(np.int32)
    m = (x & ((1 << mbits) - 1)).astype(np.float32)
    scale = np.float32(1 << mbits)
    normal = np.ldexp(np.float32(1) + m / scale, e - 15)
    denorm = np.ldexp(m / scale, -14)
    special = np.where(m == 0, np.float32(np.inf), np.float32(np.nan))
    return np.where(e == 0, denorm, np.where(e == 31, special, normal)).astype(np.float32)


def _small_float_encode(v, mbits):
    """Round binary32 to the unsigned small float (RTE through binary16); negatives and NaN -> 0."""
    v = np.asarray(v, np.float32)
    h = np.where(np.isnan(v) | (v <= 0), np.float32(0), v).astype(np.float16).view(np.uint16).astype(np.uint32)
    drop = 10 - mbits  # binary16 has 10 mantissa bits; round to nearest even on the dropped bits
    half = 1 << (drop - 1)
    rounded = (h + (half - 1) + ((h >> drop) & 1)) >> drop
    is_inf = (h & 0x7C00) == 0x7C00
    return np.where(is_inf, np.uint32(0x1F << mbits), rounded).astype(np.uint32)


def _rgb9e5_decode(w):
    e = ((w >> 27) & 0x1F).astype(np.int32) - 15 - 9
    return np.stack([np.ldexp(((w >> s) & 0x1FF).astype(np.float32), e) for s in (0, 9, 18)], axis=-1)


def _rgb9e5_encode(v):
    v = np.clip(np.nan_to_num(np.asarray(v, np.float32)[..., :3], posinf=65408.0), 0, 65408.0)
    maxc = v.max(axis=-1)
    e = np.maximum(-16, np.floor(np.log2(np.maximum(maxc, 2.0 ** -30)))).astype(np.int32) + 1 + 15
    denom = np.ldexp(np.float64(1), e - 15 - 9)
    mx = np.rint(maxc / denom)
    e = np.where(mx == 512, e + 1, e)
    denom = np.ldexp(np.float64(1), e - 15 - 9)
    m = np.rint(v / denom[..., None]).astype(np.uint32)
    return (m[..., 0] | (m[..., 1] << 9) | (m[..., 2] << 18) | (e.astype(np.uint32) << 27)).astype(np.uint32)


def unpack_format(fmt: str, elements, count: int, out=None):
    """Memory -> register values. ``elements``: for per-component formats an
    (n, count) array of raw unsigned elements (uint8/uint16/uint32); for packed
    formats an (n,) uint32 word. Returns (n, count): uint32 raw bits for integer
    formats, float32 for the others. ``out``: an (n, count) float32 array (any
    strides) to receive the values, honoured by unorm8/unorm16 (the others return
    a new array: check ``result is out``)."""
    if fmt == "rgb10a2ui":
        w = elements.astype(np.uint32)
        fields = [(w >> s) & ((1 << n) - 1) for s, n in zip((0, 10, 20, 30), RGB10A2_BITS)]
        return np.stack(fields, axis=-1)[:, :count].astype(np.uint32)
    if fmt in INTEGER_FORMATS:
        return elements.astype(np.uint32)
    if fmt == "f16":
        return elements.astype(np.uint16).view(np.float16).astype(np.float32)
    if fmt == "unorm8": return _unorm(elements, 8, out)
    if fmt == "unorm16": return _unorm(elements, 16, out)
    if fmt == "snorm8": return _snorm(elements.astype(np.uint8).view(np.int8), 8)
    if fmt == "snorm16": return _snorm(elements.astype(np.uint16).view(np.int16), 16)
    if fmt == "srgba8":
        v = _unorm(elements, 8)
        rgb = min(count, 3)
        v[:, :rgb] = srgb_to_linear(v[:, :rgb])
        return v
    w = elements.astype(np.uint32)
    if fmt in PACKED16_UNORM_BITS:
        v = np.ones(w.shape + (4,), np.float32)
        shift = 0
        for c, bits in enumerate(PACKED16_UNORM_BITS[fmt]):
            v[..., c] = _unorm((w >> shift) & ((1 << bits) - 1), bits)
            shift += bits
    elif fmt == "rgb10a2":
        v = np.stack([_unorm((w >> s) & 0x3FF, 10) for s in (0, 10, 20)] + [_unorm(w >> 30, 2)], axis=-1)
    elif fmt == "rg11b10f":
        v = np.stack([_small_float_decode(w & 0x7FF, 6), _small_float_decode((w >> 11) & 0x7FF, 6),
                      _small_float_decode(w >> 22, 5), np.ones(w.shape, np.float32)], axis=-1)
    elif fmt == "rgb9e5":
        v = np.concatenate([_rgb9e5_decode(w), np.ones(w.shape + (1,), np.float32)], axis=-1)
    else:
        raise ValueError(f"unknown memory format {fmt!r}")
    return v[:, :count].astype(np.float32)


def pack_format(fmt: str, values, count: int, out=None):
    """Register values -> memory elements, the inverse of :func:`unpack_format`.
    ``values``: (n, count) uint32 raw bits (integer formats) or float32. Returns
    (n, count) elements of the format's element type, or an (n,) word for packed
    formats (uint32; uint16 for the 16-bit ones; components beyond ``count`` are 0). ``out``: an (n, count)
    array of the element type (any strides) to receive the elements, honoured by
    unorm8/unorm16 (the others return a new array: check ``result is out``)."""
    if fmt == "rgb10a2ui":
        raw = np.asarray(values).astype(np.uint32)
        word = np.zeros(raw.shape[0], np.uint32)
        for c, (s, n) in enumerate(zip((0, 10, 20, 30), RGB10A2_BITS)):
            if c < count:
                word |= (raw[:, c] & np.uint32((1 << n) - 1)) << np.uint32(s)
        return word
    if fmt == "i8": return values.astype(np.uint8)
    if fmt == "i16": return values.astype(np.uint16)
    if fmt == "i32": return values.astype(np.uint32)
    if fmt == "f16":
        with np.errstate(over="ignore"):
            return values.astype(np.float16).view(np.uint16)
    if fmt == "unorm8": return _to_unorm(values, 8, np.empty(np.shape(values), np.uint8) if out is None else out)
    if fmt == "unorm16": return _to_unorm(values, 16, np.empty(np.shape(values), np.uint16) if out is None else out)
    if fmt == "snorm8": return _to_snorm(values, 8).astype(np.int8).view(np.uint8)
    if fmt == "snorm16": return _to_snorm(values, 16).astype(np.int16).view(np.uint16)
    if fmt == "srgba8":
        v = np.array(values, np.float32)
        rgb = min(count, 3)
        v[:, :rgb] = linear_to_srgb(v[:, :rgb])
        return _to_unorm(v, 8).astype(np.uint8)
    v = np.zeros((values.shape[0], 4), np.float32)
    v[:, :count] = values
    if fmt in PACKED16_UNORM_BITS:
        word, shift = np.zeros(values.shape[0], np.uint32), 0
        for c, bits in enumerate(PACKED16_UNORM_BITS[fmt]):
            word |= _to_unorm(v[:, c], bits) << np.uint32(shift)
            shift += bits
        return word.astype(np.uint16)
    if fmt == "rgb10a2":
        c = [_to_unorm(v[:, i], 10) for i in range(3)] + [_to_unorm(v[:, 3], 2)]
        return (c[0] | (c[1] << 10) | (c[2] << 20) | (c[3] << 30)).astype(np.uint32)
    if fmt == "rg11b10f":
        return (_small_float_encode(v[:, 0], 6) | (_small_float_encode(v[:, 1], 6) << 11)
                | (_small_float_encode(v[:, 2], 5) << 22)).astype(np.uint32)
    if fmt == "rgb9e5":
        return _rgb9e5_encode(v)
    raise ValueError(f"unknown memory format {fmt!r}")


# ---------------------------------------------------------------------------
# Atomics: the combining function (the core applies it in lane order)

# The f-prefixed ops read memory and operands as float32 (NV_shader_atomic_float,
# INTEL_shader_atomic_float_minmax): fadd rounds each addition in lane order (a NaN sum
# is the default quiet NaN, CANONICAL_NAN); fmin/fmax
# are IEEE 754-2008 minNum/maxNum (a quiet NaN loses to a number, a signalling NaN
# wins and is stored as it is; -0 < +0; of two NaNs of one kind, fmin keeps the lower
# bit pattern as an unsigned word, fmax the higher); fcmpxchg compares as floats
# (-0 == +0, a NaN equals nothing) and stores the new value's bits.
ATOMIC_OPS = ("add", "sub", "xchg", "cmpxchg", "umin", "umax", "smin", "smax", "and", "or", "xor",
              "fadd", "fmin", "fmax", "fcmpxchg")
FLOAT_ATOMIC_OPS = ("fadd", "fmin", "fmax", "fcmpxchg")
COMPARE_ATOMIC_OPS = ("cmpxchg", "fcmpxchg")      # the ops with a compare operand


def float_min_max(op: str, a, b):
    """fmin / fmax of float32 bit patterns (uint32 arrays) ``a`` and ``b``: minNum/maxNum,
    signalling NaNs winning, -0 below +0, ties of NaNs of one kind by the bit pattern."""
    a, b = np.asarray(a, np.uint32), np.asarray(b, np.uint32)
    nan_a, nan_b = np.isnan(a.view(np.float32)), np.isnan(b.view(np.float32))
    snan_a = nan_a & ((a & np.uint32(0x00400000)) == 0)
    snan_b = nan_b & ((b & np.uint32(0x00400000)) == 0)
    # numbers ordered as integers: negative patterns flipped, so -0 < +0 and float order holds
    ka = np.where(a >> 31 == 1, ~a, a | np.uint32(0x80000000))
    kb = np.where(b >> 31 == 1, ~b, b | np.uint32(0x80000000))
    ka, kb = np.where(nan_a, a, ka), np.where(nan_b, b, kb)
    smaller = op == "fmin"
    out = np.where((kb < ka) if smaller else (kb > ka), b, a)      # both numbers, or one kind of NaN
    out = np.where(nan_a & ~nan_b, b, out)                         # a quiet NaN loses to a number
    out = np.where(nan_b & ~nan_a, a, out)
    out = np.where(nan_a & nan_b & (snan_a != snan_b), np.where(snan_a, a, b), out)   # sNaN over qNaN
    out = np.where(snan_a & ~nan_b, a, out)                        # a signalling NaN wins
    return np.where(snan_b & ~nan_a, b, out).astype(np.uint32)


def atomic_combine(op: str, old, value, compare=None):
    """New memory value after one atomic ``op`` on uint32 ``old`` with ``value``."""
    old, value = np.asarray(old, np.uint32), np.asarray(value, np.uint32)
    if op == "fadd":
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.asarray(old.view(np.float32) + value.view(np.float32), np.float32)
        return np.where(np.isnan(total), CANONICAL_NAN.view(np.uint32), total.view(np.uint32)).astype(np.uint32)
    if op in ("fmin", "fmax"):
        return float_min_max(op, old, value)
    if op == "fcmpxchg":
        return np.where(old.view(np.float32) == np.asarray(compare, np.uint32).view(np.float32), value, old)
    if op == "add": return old + value
    if op == "sub": return old - value
    if op == "xchg": return value + 0 * old
    if op == "cmpxchg": return np.where(old == np.asarray(compare, np.uint32), value, old)
    if op == "umin": return np.minimum(old, value)
    if op == "umax": return np.maximum(old, value)
    if op == "smin": return np.minimum(old.view(np.int32), value.view(np.int32)).view(np.uint32)
    if op == "smax": return np.maximum(old.view(np.int32), value.view(np.int32)).view(np.uint32)
    if op == "and": return old & value
    if op == "or": return old | value
    if op == "xor": return old ^ value
    raise ValueError(f"unknown atomic op {op!r}")
