"""The ISA's lane-wise meaning as C, for code generators that translate ISA
programs to native code (``drmshim.gpu.native``).

``semantics.py`` is the specification; every C function here computes, for one
lane, bit for bit what the numpy function of the same name computes for every
lane (the tests of the native tier run both and compare registers, memory and
faults). A table entry (``table.Op.native``) names its C function here, so the
meaning of an instruction stays in one place: its table entry, with the numpy
function and the C function side by side in these two files.

Conventions of the C functions:

- ``sem_<name>`` for float ops takes and returns ``float`` (binary32);
  abs/neg/saturate and register access are the generator's.
- Integer ops take ``uint64_t`` operands holding the raw value of the operand
  size ``n`` (zero-extended, or sign-extended when the table's operand type is
  ``s``) and return a value whose low ``n`` bits are the result.
- Control-flow ops take the lane's r0l counter and return the new one (uint16).
- NaN results: the x86 rules the numpy loops follow are written out (``nan2``:
  the first NaN operand, quieted; else the fresh NaN the FPU makes), so the result
  does not depend on how the C compiler orders commutative operands.

Compile with IEEE semantics: no fast-math, ``-ffp-contract=off`` (the ISA's only
fused op is ``fma``, written out here in binary64), ``-fno-math-errno``.
"""

from __future__ import annotations

__all__ = ["C_PRELUDE", "c_functions"]

C_PRELUDE = r"""
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <immintrin.h>

static inline float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t bf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t mask_n(int n) { return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1); }
static inline uint64_t sx(uint64_t v, int n) {   /* sign-extend the low n bits */
    if (n >= 64) return v;
    uint64_t m = (uint64_t)1 << (n - 1);
    v &= mask_n(n);
    return (v ^ m) - m;
}

/* ---- binary16 <-> binary32, as numpy converts: round to nearest even; a NaN keeps
   its payload's top bits and is not quieted (the F16C instructions quiet it) ---- */
static inline float sem_half_to_float(uint32_t h) {
    h &= 0xffffu;
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x03ffu))
        return fb(((h & 0x8000u) << 16) | 0x7f800000u | ((h & 0x03ffu) << 13));
    return _cvtsh_ss((unsigned short)h);
}
static inline uint32_t sem_float_to_half(float f) {
    const uint32_t u = bf(f);
    if (f != f) {
        const uint32_t sig = (u & 0x007fffffu) >> 13;
        return ((u >> 16) & 0x8000u) | 0x7c00u | (sig ? sig : 1u);
    }
    return (uint32_t)_cvtss_sh(f, 0);
}

/* uint32 -> binary32, rounded to nearest even: both 16-bit halves convert exactly and
   their sum rounds once (the direct conversion does not vectorise without AVX-512) */
static inline float u32_to_float(uint32_t x) {
    return (float)(int32_t)(x >> 16) * 65536.0f + (float)(int32_t)(x & 0xffffu);
}

/* ---- float ALU (binary32) ---- */
static inline float quiet(float x) { return fb(bf(x) | 0x00400000u); }
/* r = a op b computed by the FPU; a NaN result takes x86's NaN: a's, else b's, quieted
   (written as selects, not branches, so lane loops vectorise) */
static inline float nan2(float r, float a, float b) {
    const float q = a != a ? quiet(a) : b != b ? quiet(b) : r;
    return r != r ? q : r;
}
static inline float sem_saturate(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
static inline float sem_fadd(float a, float b) { return nan2(a + b, a, b); }
static inline float sem_fmul(float a, float b) { return nan2(a * b, a, b); }
static inline float sem_fdiv(float a, float b) { return nan2(a / b, a, b); }
static inline float sem_fma(float a, float b, float c) {
    /* the NaN test on the bits: gcc vectorises this select, not a float compare here */
    const uint32_t u = bf((float)((double)a * (double)b + (double)c));
    return fb((u & 0x7fffffffu) > 0x7f800000u ? 0x7fc00000u : u);
}
static inline float sem_fmin(float a, float b) {
    const float zeros = ((bf(a) | bf(b)) >> 31) ? -0.0f : 0.0f;
    const float num = (a == 0.0f && b == 0.0f) ? zeros : b < a ? b : a;
    return a != a ? (b != b ? a : b) : b != b ? a : num;
}
static inline float sem_fmax(float a, float b) {
    const float zeros = ((bf(a) & bf(b)) >> 31) ? -0.0f : 0.0f;
    const float num = (a == 0.0f && b == 0.0f) ? zeros : b > a ? b : a;
    return a != a ? (b != b ? a : b) : b != b ? a : num;
}
static inline float sem_floor(float a) { return __builtin_floorf(a); }
static inline float sem_ceil(float a) { return __builtin_ceilf(a); }
static inline float sem_trunc(float a) { return __builtin_truncf(a); }
static inline float sem_roundeven(float a) { return __builtin_rintf(a); }
static inline float sem_fract(float a) {
    float f = __builtin_floorf(a);
    float r = nan2(a - f, a, f);
    return r >= 1.0f ? fb(0x3f7fffffu) : r;
}
static inline float sem_rcp(float a) { return nan2(1.0f / a, 1.0f, a); }
static inline float sem_sqrt(float a) { return __builtin_sqrtf(a); }
static inline float sem_rsqrt(float a) { float s = __builtin_sqrtf(a); return nan2(1.0f / s, 1.0f, s); }

/* ---- float compares (ne is unordered, the others ordered) ---- */
static inline int fcmp_eq(float a, float b) { return a == b; }
static inline int fcmp_ne(float a, float b) { return a != b; }
static inline int fcmp_lt(float a, float b) { return a < b; }
static inline int fcmp_le(float a, float b) { return a <= b; }
static inline int fcmp_gt(float a, float b) { return a > b; }
static inline int fcmp_ge(float a, float b) { return a >= b; }

/* ---- integer ALU: operands are the n-bit values in uint64_t ---- */
static inline uint64_t sem_iadd(uint64_t a, uint64_t b, int n) { return (a + b) & mask_n(n); }
static inline uint64_t sem_isub(uint64_t a, uint64_t b, int n) { return (a - b) & mask_n(n); }
static inline uint64_t sem_imul(uint64_t a, uint64_t b, int n) { return (a * b) & mask_n(n); }
static inline uint64_t sem_imad(uint64_t a, uint64_t b, uint64_t c, int n) { return (a * b + c) & mask_n(n); }
static inline uint64_t sem_ishl(uint64_t a, uint64_t b, int n) { return (a << (b & (uint64_t)(n - 1))) & mask_n(n); }
static inline uint64_t sem_ushr(uint64_t a, uint64_t b, int n) { return (a & mask_n(n)) >> (b & (uint64_t)(n - 1)); }
static inline uint64_t sem_ishr(uint64_t a, uint64_t b, int n) {   /* a sign-extended */
    return (uint64_t)((int64_t)a >> (b & (uint64_t)(n - 1))) & mask_n(n);
}
static inline uint64_t sem_umin(uint64_t a, uint64_t b, int n) { return b < a ? b : a; }
static inline uint64_t sem_umax(uint64_t a, uint64_t b, int n) { return b > a ? b : a; }
static inline uint64_t sem_smin(uint64_t a, uint64_t b, int n) { return ((int64_t)b < (int64_t)a ? b : a) & mask_n(n); }
static inline uint64_t sem_smax(uint64_t a, uint64_t b, int n) { return ((int64_t)b > (int64_t)a ? b : a) & mask_n(n); }
static inline uint64_t sem_umulhi(uint64_t a, uint64_t b, int n) {
    if (n == 64) return (uint64_t)(((unsigned __int128)a * b) >> 64);
    return (a * b) >> n;
}
static inline uint64_t sem_imulhi(uint64_t a, uint64_t b, int n) {   /* a, b sign-extended */
    if (n == 64) return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
    return (uint64_t)(((int64_t)a * (int64_t)b) >> n) & mask_n(n);
}
static inline uint64_t sem_bitop(uint64_t a, uint64_t b, int tt, int n) {
    uint64_t r = 0;
    if (tt & 1) r |= ~a & ~b;
    if (tt & 2) r |= a & ~b;
    if (tt & 4) r |= ~a & b;
    if (tt & 8) r |= a & b;
    return r & mask_n(n);
}
static inline uint64_t bf_mask(uint64_t cnt, int n) { return cnt >= (uint64_t)n ? mask_n(n) : (((uint64_t)1 << cnt) - 1); }
static inline uint64_t sem_bfi(uint64_t base, uint64_t ins, uint64_t off, uint64_t cnt, int n) {
    off &= (uint64_t)(n - 1);
    if (cnt > (uint64_t)n - off) cnt = (uint64_t)n - off;
    uint64_t m = (bf_mask(cnt, n) << off) & mask_n(n);
    return ((base & ~m) | ((ins << off) & m)) & mask_n(n);
}
static inline uint64_t sem_ubfe(uint64_t v, uint64_t off, uint64_t cnt, int n) {
    off &= (uint64_t)(n - 1);
    if (cnt > (uint64_t)n - off) cnt = (uint64_t)n - off;
    return ((v & mask_n(n)) >> off) & bf_mask(cnt, n);
}
static inline uint64_t sem_ibfe(uint64_t v, uint64_t off, uint64_t cnt, int n) {
    off &= (uint64_t)(n - 1);
    if (cnt > (uint64_t)n - off) cnt = (uint64_t)n - off;
    uint64_t field = ((v & mask_n(n)) >> off) & bf_mask(cnt, n);
    uint64_t sign = cnt > 0 ? (field >> (cnt - 1)) & 1 : 0;
    return (field | (sign ? ~bf_mask(cnt, n) : 0)) & mask_n(n);
}
static inline uint64_t sem_popcount(uint64_t a, int n) { return (uint64_t)__builtin_popcountll(a & mask_n(n)); }
static inline uint64_t sem_bitrev(uint64_t a, int n) {
    uint64_t r = 0;
    for (int i = 0; i < n; i++) r |= ((a >> i) & 1) << (n - 1 - i);
    return r;
}
static inline uint64_t sem_ffs(uint64_t a, int n) {
    a &= mask_n(n);
    return a ? (uint64_t)__builtin_ctzll(a) : mask_n(n);
}
static inline uint64_t sem_clz(uint64_t a, int n) {
    a &= mask_n(n);
    return a ? (uint64_t)(__builtin_clzll(a) - (64 - n)) : (uint64_t)n;
}

/* ---- r0l control flow: v is the lane's counter, the result its new value ---- */
static inline uint16_t sem_cf_if(uint16_t v, int cond, int n) { return v ? (uint16_t)(v + n) : (uint16_t)(cond ? 0 : 1); }
static inline uint16_t sem_cf_else(uint16_t v, int cond, int n) {
    return v == 0 ? (uint16_t)n : v == 1 ? (uint16_t)(cond ? 0 : 1) : v;
}
static inline uint16_t sem_cf_while(uint16_t v, int cond, int n) { return v < n ? (uint16_t)(cond ? 0 : n) : v; }
static inline uint16_t sem_cf_pop(uint16_t v, int n) { return v > n ? (uint16_t)(v - n) : 0; }
static inline uint16_t sem_cf_push(uint16_t v, int n) { return sem_cf_if(v, 1, n); }

/* ---- memory formats ---- */
static inline uint32_t sem_to_unorm(float v, int bits) {   /* clamp to [0, 1] (NaN -> 0), scale, round to even */
    float t = v > 0.0f ? v : 0.0f;
    t = t < 1.0f ? t : 1.0f;
    /* bits <= 16: the value fits int32, whose conversion vectorises (uint32's does not on AVX2) */
    return (uint32_t)(int32_t)__builtin_rintf(t * (float)((1u << bits) - 1));
}
static inline float sem_from_unorm(uint32_t x, int bits) {   /* x / (2^bits - 1), rounded once */
#ifdef __FMA__
    /* without a division: q = x * RN(1/m), corrected once by its exact remainder x - q m;
       the quotient's bits for every x of 8 and 16 bits (an exhaustive test checks it) */
    const float m = (float)((1u << bits) - 1), k = 1.0f / m, xf = (float)x;
    const float q = xf * k;
    return __builtin_fmaf(__builtin_fmaf(-q, m, xf), k, q);
#else
    return (float)x / (float)((1u << bits) - 1);
#endif
}
"""


def c_functions() -> set[str]:
    """Names of the ``sem_*`` functions the prelude defines (without the prefix)."""
    import re
    return set(re.findall(r"\bsem_(\w+)\(", C_PRELUDE))
