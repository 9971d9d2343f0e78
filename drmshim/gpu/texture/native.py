"""Native kernels of the texture unit: the unorm8 2D linear filter in C.

The numpy path of ``sampling._bilinear_2d_unorm8`` is the specification; the C
kernel here computes the same float32 operations in the same order (module doc of
``sampling``: taps x fastest, then y, then level; each weight ``wx * wy``, the
level weight folded into the y weights; ``sum(weight * byte)`` added in order; one
division by 255), compiled without contraction into FMA and without fast-math
(the native tier's flags, ``uapi.native_build.CFLAGS``), so every result is the same
bits. Texel coordinates are computed in int32, as the numpy path does when
``_index_type`` chooses int32: the caller only calls the kernel then (every
coordinate finite and far from the int32 range), and the kernel refuses (returns
nonzero, having written nothing) when a level weight is NaN.

Used when ``SHIMGL_DEBUG`` does not name ``interp`` (which keeps the numpy path,
the specification) and a C compiler is available (else numpy, silently: the
results are the same). Code is built once through the native tier's disk cache.
"""

from __future__ import annotations

import numpy as np

from uapi import packets as P

from uapi.native_kernels import Kernels

__all__ = ["unorm8_bilinear_2d", "Plan2D", "sample_2d", "addresses", "available", "ENABLED", "MIN_LANES"]

#: Tests switch the kernel off to compare with the numpy path.
ENABLED = True
#: Calls over fewer lanes stay in numpy (no compile for small test draws) unless the
#: kernels are already built in this process.
MIN_LANES = 1 << 12
#: ``sample_2d`` takes views of at most this many levels (a 32768-texel side)
MAX_LEVELS = 16

#: wrap mode -> the kernel's code (CLAMP_TO_BORDER never reaches the kernel)
_WRAP_CODE = {P.Wrap.REPEAT: 0, P.Wrap.MIRRORED_REPEAT: 1, P.Wrap.CLAMP_TO_EDGE: 2, P.Wrap.MIRROR_CLAMP_TO_EDGE: 3}

_CDEF = """
int unorm8_bilinear_2d(int n, const float *s, const float *t, int levels,
                       const uint32_t *words0, int width0, int height0, const float *level_w0,
                       const uint32_t *words1, int width1, int height1, const float *level_w1,
                       int wrap_s, int wrap_t, const int *shifts, float *out, long out_stride);
typedef struct {
    int levels;
    const int32_t *xcol[16], *ycol[16];
    int32_t width[16], height[16];
    int32_t ws[16], wt[16];
    float sw, sh;
    int has_lod_bias;
    float lod_bias, lo, hi;
    int mip;
    double reach;
    int32_t byte[4], sel[4];
} tex2d_plan_t;
int sample_2d(const tex2d_plan_t *P, const uint32_t *w, int n, const float *s, const float *t, int quads,
              const float *lod, int lod_step, const float *bias, int bias_step, void *log2_fn, void *log2_data,
              float **out);
"""

_SOURCE = r"""
#include <stdint.h>
#include <math.h>
#include <string.h>
#ifdef __SSE4_1__
#include <immintrin.h>
#endif

/* shimgl texture unit: unorm8 2D linear filter (see drmshim/gpu/texture/native.py).
   Wrap codes: 0 REPEAT, 1 MIRRORED_REPEAT, 2 CLAMP_TO_EDGE, 3 MIRROR_CLAMP_TO_EDGE,
   4 REPEAT of a power-of-two size (a mask). Loops are instantiated for constant
   wrap codes of the common cases, so they vectorise (gathers). */

#define AI static inline __attribute__((always_inline))

AI int wrap_coord(int i, int size, int mode) {
    if (mode == 4) return i & (size - 1);
    if (mode == 0) { int m = i % size; return m < 0 ? m + size : m; }
    if (mode == 1) { int two = 2 * size; int m = i % two; if (m < 0) m += two; return m < size ? m : two - 1 - m; }
    if (mode == 3) { int a = i >= 0 ? i : -1 - i; return a < size - 1 ? a : size - 1; }
    return i < 0 ? 0 : (i > size - 1 ? size - 1 : i);
}

/* one level's bilinear footprint of (s, t): the wrapped texel columns xs[2] and rows
   ys[2] and the four taps' weights (x fastest, then y), the level weight folded into the
   y weights when has_lw; bilinear_taps and table_taps turn it into word indices */
AI void footprint(float s, float t, int width, int height, float lw, int has_lw, int ws, int wt,
                  int *xs, int *ys, float *w4) {
    float u = s * (float)width;
    u = u - 0.5f;
    float fu = floorf(u);
    int iu = (int)fu;
    float bx = u - fu;
    float ax = 1.0f - bx;
    float v = t * (float)height;
    v = v - 0.5f;
    float fv = floorf(v);
    int iv = (int)fv;
    float by = v - fv;
    float ay = 1.0f - by;
    if (has_lw) { ay = ay * lw; by = by * lw; }
    xs[0] = wrap_coord(iu, width, ws); xs[1] = wrap_coord(iu + 1, width, ws);
    ys[0] = wrap_coord(iv, height, wt); ys[1] = wrap_coord(iv + 1, height, wt);
    w4[0] = ax * ay; w4[1] = bx * ay; w4[2] = ax * by; w4[3] = bx * by;
}

/* the four taps' raster indices and weights at idx[j * step], wts[j * step] */
AI void bilinear_taps(float s, float t, int width, int height, float lw, int has_lw, int ws, int wt,
                      int32_t *idx, float *wts, long step) {
    int xs[2], ys[2];
    float w4[4];
    footprint(s, t, width, height, lw, has_lw, ws, wt, xs, ys, w4);
    int y0 = ys[0] * width, y1 = ys[1] * width;
    idx[0] = y0 + xs[0]; idx[step] = y0 + xs[1]; idx[2 * step] = y1 + xs[0]; idx[3 * step] = y1 + xs[1];
    wts[0] = w4[0]; wts[step] = w4[1]; wts[2 * step] = w4[2]; wts[3 * step] = w4[3];
}

AI void level_taps(float s, float t, const uint32_t *w, int width, int height, float lw, int has_lw,
                   int ws, int wt, int sh0, int sh1, int sh2, int sh3, float *r, int first) {
    int32_t idx[4];
    float wts[4];
    bilinear_taps(s, t, width, height, lw, has_lw, ws, wt, idx, wts, 1);
    uint32_t t00 = w[idx[0]], t01 = w[idx[1]], t10 = w[idx[2]], t11 = w[idx[3]];
    float w00 = wts[0], w01 = wts[1], w10 = wts[2], w11 = wts[3];
#define TAP(T, WT, FIRST) \
    { float c0 = (float)((int32_t)((T) >> sh0) & 255) * (WT); \
      float c1 = (float)((int32_t)((T) >> sh1) & 255) * (WT); \
      float c2 = (float)((int32_t)((T) >> sh2) & 255) * (WT); \
      float c3 = (float)((int32_t)((T) >> sh3) & 255) * (WT); \
      if (FIRST) { r[0] = c0; r[1] = c1; r[2] = c2; r[3] = c3; } \
      else { r[0] = r[0] + c0; r[1] = r[1] + c1; r[2] = r[2] + c2; r[3] = r[3] + c3; } }
    TAP(t00, w00, first)
    TAP(t01, w01, 0)
    TAP(t10, w10, 0)
    TAP(t11, w11, 0)
#undef TAP
}

AI void filter_loop(int n, const float *restrict s, const float *restrict t, int levels,
                    const uint32_t *restrict w0, int width0, int height0, const float *restrict lw0,
                    const uint32_t *restrict w1, int width1, int height1, const float *restrict lw1,
                    int ws, int wt, int sh0, int sh1, int sh2, int sh3, float *restrict out, long stride) {
    for (int k = 0; k < n; k++) {
        float r[4];
        if (levels == 2) {
            level_taps(s[k], t[k], w0, width0, height0, lw0[k], 1, ws, wt, sh0, sh1, sh2, sh3, r, 1);
            level_taps(s[k], t[k], w1, width1, height1, lw1[k], 1, ws, wt, sh0, sh1, sh2, sh3, r, 0);
        } else {
            level_taps(s[k], t[k], w0, width0, height0, 1.0f, 0, ws, wt, sh0, sh1, sh2, sh3, r, 1);
        }
        out[k] = r[0] / 255.0f;
        out[stride + k] = r[1] / 255.0f;
        out[2 * stride + k] = r[2] / 255.0f;
        out[3 * stride + k] = r[3] / 255.0f;
    }
}

#define INSTANCE(NAME, LEVELS, WS, WT) \
static void NAME(int n, const float *s, const float *t, const uint32_t *w0, int width0, int height0, \
                 const float *lw0, const uint32_t *w1, int width1, int height1, const float *lw1, \
                 int ws, int wt, int sh0, int sh1, int sh2, int sh3, float *out, long stride) { \
    filter_loop(n, s, t, LEVELS, w0, width0, height0, lw0, w1, width1, height1, lw1, WS, WT, \
                sh0, sh1, sh2, sh3, out, stride); }

INSTANCE(l1_rr, 1, 4, 4)
INSTANCE(l2_rr, 2, 4, 4)
INSTANCE(l1_cc, 1, 2, 2)
INSTANCE(l2_cc, 2, 2, 2)
INSTANCE(l1_any, 1, ws, wt)
INSTANCE(l2_any, 2, ws, wt)

int unorm8_bilinear_2d(int n, const float *s, const float *t, int levels,
                       const uint32_t *words0, int width0, int height0, const float *level_w0,
                       const uint32_t *words1, int width1, int height1, const float *level_w1,
                       int wrap_s, int wrap_t, const int *shifts, float *out, long out_stride) {
    if (levels == 2) {
        if (!level_w0 || !level_w1) return 2;
        for (int k = 0; k < n; k++)
            if (level_w0[k] != level_w0[k] || level_w1[k] != level_w1[k]) return 1;   /* NaN: numpy */
    }
    int pow2 = ((width0 & (width0 - 1)) | (height0 & (height0 - 1))) == 0 &&
               (levels == 1 || ((width1 & (width1 - 1)) | (height1 & (height1 - 1))) == 0);
    int ws = wrap_s, wt = wrap_t;
    if (pow2 && ws == 0) ws = 4;
    if (pow2 && wt == 0) wt = 4;
    void (*fn)(int, const float *, const float *, const uint32_t *, int, int, const float *,
               const uint32_t *, int, int, const float *, int, int, int, int, int, int, float *, long);
    if (ws == 4 && wt == 4) fn = levels == 2 ? l2_rr : l1_rr;
    else if (ws == 2 && wt == 2) fn = levels == 2 ? l2_cc : l1_cc;
    else fn = levels == 2 ? l2_any : l1_any;
    fn(n, s, t, words0, width0, height0, level_w0, words1, width1, height1, level_w1, ws, wt,
       shifts[0], shifts[1], shifts[2], shifts[3], out, out_stride);
    return 0;
}

/* ---- a whole 2D unorm8 linear sample: LOD, level choice and filter (sampling.sample_rows_2d) ---- */

typedef void (*uf_loop)(char **, const long *, const long *, void *);
typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));
#define CH 256
#define MAX_LEVELS 16

/* What a (texture view, sampler) pair fixes, decoded once (sampling._Plan2D). Level k is
   view level base + k; texel (x, y) of level k is the 32-bit word xcol[k][x] + ycol[k][y]
   of the image's span (the view's separable column tables, the span's first column
   subtracted from ycol). */
typedef struct {
    int levels;                         /* base..top */
    const int32_t *xcol[MAX_LEVELS], *ycol[MAX_LEVELS];
    int32_t width[MAX_LEVELS], height[MAX_LEVELS];
    int32_t ws[MAX_LEVELS], wt[MAX_LEVELS];      /* wrap codes per level (4: power-of-two REPEAT) */
    float sw, sh;                       /* the base level's size (LOD scale) */
    int has_lod_bias;
    float lod_bias, lo, hi;             /* the sampler's bias and clamps */
    int mip;                            /* 0 NONE, 1 NEAREST, 2 LINEAR */
    double reach;
    int32_t byte[4], sel[4];            /* per output channel: its byte of the texel; sel < 0: 0 (-1) or 1 (-2) */
} tex2d_plan_t;

/* The LOD state carried from piece to piece: numpy's log2 runs once per run of equal
   values (sampling._log2_runs), and a run may cross pieces. */
typedef struct { uint32_t prev_bits; float prev_lg; int have_prev; } lod_run_t;

/* The level of detail of lanes k0..k0+m and their level(s), as sampling._lod and the
   level choice of sampling._sample_view compute them (float32, the same operations in
   the same order; log2 through numpy's own float32 loop, once per run of equal values
   as _log2_runs). Writes lv[] (the first level, base-relative) and frac[] (the second
   level's weight; 0: one level). */
AI void lod_piece(const tex2d_plan_t *P, int k0, int m, const float *s, const float *t, int quads,
                  const float *lod, int lod_step, const float *bias, int bias_step, void *log2_fn,
                  void *log2_data, lod_run_t *run_state, int32_t *lv_out, float *f_out) {
    float rho2[CH], uniq[CH], lg[CH], lam[CH];
    int run[CH];
    const int mip = P->mip;
    const float sw = P->sw, sh = P->sh;
    if (mip == 0) {
        for (int k = 0; k < m; k++) lam[k] = 0.0f;            /* unused: one level */
    } else if (quads) {
        for (int q = 0; q < m; q += 4) {
            const float *qs = s + k0 + q, *qt = t + k0 + q;
            float a, b;
            a = (qs[1] - qs[0]) * sw; b = (qt[1] - qt[0]) * sh; float x_top = a * a + b * b;
            a = (qs[3] - qs[2]) * sw; b = (qt[3] - qt[2]) * sh; float x_bot = a * a + b * b;
            a = (qs[2] - qs[0]) * sw; b = (qt[2] - qt[0]) * sh; float y_left = a * a + b * b;
            a = (qs[3] - qs[1]) * sw; b = (qt[3] - qt[1]) * sh; float y_right = a * a + b * b;
            rho2[q] = x_top >= y_left ? x_top : y_left;       /* no NaN here: finite coordinates */
            rho2[q + 1] = x_top >= y_right ? x_top : y_right;
            rho2[q + 2] = x_bot >= y_left ? x_bot : y_left;
            rho2[q + 3] = x_bot >= y_right ? x_bot : y_right;
        }
        int same = run_state->have_prev;
        for (int k = 0; k < m; k++) {
            uint32_t bits; memcpy(&bits, &rho2[k], 4);
            same &= bits == run_state->prev_bits;
        }
        if (same) {     /* the whole piece is the run of the previous value */
            for (int k = 0; k < m; k++) lam[k] = run_state->prev_lg * 0.5f;
        } else {
            int u = 0;      /* a run of equal values goes through numpy's loop once */
            for (int k = 0; k < m; k++) {
                uint32_t bits; memcpy(&bits, &rho2[k], 4);
                if (run_state->have_prev && bits == run_state->prev_bits) { run[k] = -1; continue; }
                run_state->have_prev = 1; run_state->prev_bits = bits; uniq[u] = rho2[k]; run[k] = u++;
            }
            if (u) {
                char *args[2] = {(char *)uniq, (char *)lg};
                long dims[1] = {u}, steps[2] = {4, 4};
                ((uf_loop)log2_fn)(args, dims, steps, log2_data);
            }
            float prev_lg = run_state->prev_lg;
            for (int k = 0; k < m; k++) {
                if (run[k] >= 0) prev_lg = lg[run[k]];
                lam[k] = prev_lg * 0.5f;
            }
            run_state->prev_lg = prev_lg;
        }
    } else {
        for (int k = 0; k < m; k++) lam[k] = lod ? lod[(long)(k0 + k) * lod_step] : 0.0f;
    }
    if (mip != 0) {
        if (P->has_lod_bias)
            for (int k = 0; k < m; k++) lam[k] = lam[k] + P->lod_bias;
        if (bias && bias_step)
            for (int k = 0; k < m; k++) lam[k] = lam[k] + bias[k0 + k];
        else if (bias)
            for (int k = 0; k < m; k++) lam[k] = lam[k] + bias[0];
        const float lo = P->lo, hi = P->hi;
        for (int k = 0; k < m; k++) {
            float l = lam[k];
            l = l >= lo ? l : lo;           /* np.fmax(lam, lo): NaN -> lo */
            lam[k] = l <= hi ? l : hi;      /* |lo|, |hi| < 2^24: int casts below are defined */
        }
    }
    const float span = (float)(P->levels - 1);
    if (mip == 2) {     /* magnified (lam <= 0): base; else floor(lam) levels on, the fraction */
        for (int k = 0; k < m; k++) {
            float l = lam[k];
            float fl = floorf(l);
            float c = fl < span ? fl : span;
            int lv = l > 0.0f ? (int)c : 0;
            lv_out[k] = lv;
            f_out[k] = (l > 0.0f && lv < P->levels - 1) ? l - fl : 0.0f;
        }
    } else if (mip == 1) {      /* magnified or lam <= 0.5: base; else ceil(lam + 0.5) - 1 levels on */
        for (int k = 0; k < m; k++) {
            float l = lam[k];
            float d = ceilf(l + 0.5f) - 1.0f;
            float c = d < span ? d : span;
            lv_out[k] = l > 0.5f ? (int)c : 0;
            f_out[k] = 0.0f;
        }
    } else {
        for (int k = 0; k < m; k++) { lv_out[k] = 0; f_out[k] = 0.0f; }
    }
}

/* the footprint's taps through the column tables: words at idx[j * step], weights at
   wts[j * step] */
AI void table_taps(float s, float t, const int32_t *xcol, const int32_t *ycol, int width, int height, float lw,
                   int has_lw, int ws, int wt, int32_t *idx, float *wts, long step) {
    int xs[2], ys[2];
    float w4[4];
    footprint(s, t, width, height, lw, has_lw, ws, wt, xs, ys, w4);
    int x0 = xcol[xs[0]], x1 = xcol[xs[1]], y0 = ycol[ys[0]], y1 = ycol[ys[1]];
    idx[0] = y0 + x0; idx[step] = y0 + x1; idx[2 * step] = y1 + x0; idx[3 * step] = y1 + x1;
    wts[0] = w4[0]; wts[step] = w4[1]; wts[2 * step] = w4[2]; wts[3 * step] = w4[3];
}

/* the taps of a level for lanes of a piece, tap-major; the level weight (1 - frac:
   lw 1; frac: lw 2; none: 0) folded into the y weights as in level_taps */
AI void table_prep(int m, const float *restrict s, const float *restrict t, const int32_t *restrict xcol,
                   const int32_t *restrict ycol, int width, int height, const float *restrict frac, int lw,
                   int ws, int wt, int32_t *restrict idx, float *restrict wts) {
    for (int k = 0; k < m; k++) {
        float w = lw == 1 ? 1.0f - frac[k] : (lw == 2 ? frac[k] : 1.0f);
        table_taps(s[k], t[k], xcol, ycol, width, height, w, lw != 0, ws, wt, idx + k, wts + k, CH);
    }
}

/* the four channels of a packed texel (bytes in memory order) times a weight */
AI v4f texel_times(uint32_t x, float w) {
#ifdef __SSE4_1__
    v4f f = (v4f)_mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)x)));
#else
    v4i b = {(int32_t)(x & 255), (int32_t)((x >> 8) & 255), (int32_t)((x >> 16) & 255), (int32_t)(x >> 24)};
    v4f f = __builtin_convertvector(b, v4f);
#endif
    return f * w;
}

/* the taps of table_prep added to acc in tap order (each channel its own float32 sum) */
AI void level_sum(int m, const uint32_t *restrict w, const int32_t *restrict idx, const float *restrict wts,
                  v4f *restrict acc, int first) {
    for (int k = 0; k < m; k++) {
        v4f r = texel_times(w[idx[k]], wts[k]);
        if (!first) r = acc[k] + r;
        r = r + texel_times(w[idx[CH + k]], wts[CH + k]);
        r = r + texel_times(w[idx[2 * CH + k]], wts[2 * CH + k]);
        acc[k] = r + texel_times(w[idx[3 * CH + k]], wts[3 * CH + k]);
    }
}

/* a piece whose lanes share their first level l (and take l + 1 too when two): wrap
   codes constant in each instance (power-of-two REPEAT: 4, a mask) */
AI void uniform_piece(int m, const float *s, const float *t, const float *frac, int two, const uint32_t *w,
                      const tex2d_plan_t *P, int l, int ws0, int wt0, int ws1, int wt1, v4f *acc) {
    int32_t idx[4 * CH];
    float wts[4 * CH];
    table_prep(m, s, t, P->xcol[l], P->ycol[l], P->width[l], P->height[l], frac, two ? 1 : 0, ws0, wt0, idx, wts);
    level_sum(m, w, idx, wts, acc, 1);
    if (two) {
        table_prep(m, s, t, P->xcol[l + 1], P->ycol[l + 1], P->width[l + 1], P->height[l + 1], frac, 2, ws1, wt1,
                   idx, wts);
        level_sum(m, w, idx, wts, acc, 0);
    }
}

#define UNIFORM(NAME, WS0, WT0, WS1, WT1) \
static void NAME(int m, const float *s, const float *t, const float *frac, int two, const uint32_t *w, \
                 const tex2d_plan_t *P, int l, int ws0, int wt0, int ws1, int wt1, v4f *acc) { \
    uniform_piece(m, s, t, frac, two, w, P, l, WS0, WT0, WS1, WT1, acc); }

UNIFORM(uni_rr, 4, 4, 4, 4)
UNIFORM(uni_cc, 2, 2, 2, 2)
UNIFORM(uni_any, ws0, wt0, ws1, wt1)

/* one level's four taps, lane by lane (levels differing per lane) */
AI void taps_at(float s, float t, const uint32_t *w, const tex2d_plan_t *P, int l, float lw, int has_lw,
                v4f *r, int first) {
    int32_t idx[4];
    float wts[4];
    table_taps(s, t, P->xcol[l], P->ycol[l], P->width[l], P->height[l], lw, has_lw, P->ws[l], P->wt[l], idx, wts, 1);
    v4f a = texel_times(w[idx[0]], wts[0]);
    if (!first) a = *r + a;
    a = a + texel_times(w[idx[1]], wts[1]);
    a = a + texel_times(w[idx[2]], wts[2]);
    *r = a + texel_times(w[idx[3]], wts[3]);
}

/* A whole sample of n lanes (sampling.sample_rows_2d), piece by piece of CH lanes: each
   lane's LOD and level(s) (lod_piece), then the filter at them in the order of
   sampling._bilinear_2d_unorm8 (taps x fastest, then y, then level; the level weight
   folded into the y weights; one division by 255). A piece whose lanes share their
   first level runs as uniform_piece, where a lane with frac 0 beside two-level lanes
   takes both levels, the second weighted 0: the same bits (bytes times finite weights
   added to a non-negative sum). ``w``: the image's words (the plan's tables index
   them). out[c] NULL: channel c not written. Returns 1, having written nothing, when a
   coordinate is not finite or its texel coordinate could leave the int32-safe range
   (|x| * size + reach < 2^30 at the base level), else 0. */
int sample_2d(const tex2d_plan_t *P, const uint32_t *w, int n, const float *s, const float *t, int quads,
              const float *lod, int lod_step, const float *bias, int bias_step, void *log2_fn, void *log2_data,
              float **out) {
    const double limit = (double)(1 << 30);
    double scale = P->sw > P->sh ? P->sw : P->sh;
    uint32_t big = 0;     /* the largest |coordinate| as bits: a NaN's are above infinity's */
    for (int k = 0; k < n; k++) {
        uint32_t a, b;
        memcpy(&a, &s[k], 4); memcpy(&b, &t[k], 4);
        a &= 0x7fffffffu; b &= 0x7fffffffu;
        big = a > big ? a : big;
        big = b > big ? b : big;
    }
    float mag; memcpy(&mag, &big, 4);
    if (big > 0x7f800000u || !((double)mag * scale + P->reach < limit))
        return 1;                 /* NaN, infinite, or beyond: |x| * size + reach < limit is both sides' test */
    lod_run_t run_state = {0, 0.0f, 0};
    int32_t lv[CH];
    float frac[CH];
    v4f acc[CH];
    for (int k0 = 0; k0 < n; k0 += CH) {
        int m = n - k0 < CH ? n - k0 : CH;
        lod_piece(P, k0, m, s, t, quads, lod, lod_step, bias, bias_step, log2_fn, log2_data, &run_state, lv, frac);
        int32_t mn = lv[0], mx = lv[0], two = 0;
        for (int k = 0; k < m; k++) {
            mn = lv[k] < mn ? lv[k] : mn;
            mx = lv[k] > mx ? lv[k] : mx;
            two |= frac[k] > 0.0f;
        }
        const float *ps = s + k0, *pt = t + k0;
        if (mn == mx) {     /* (two: some lane blends mn and mn + 1 < levels) */
            int l0 = mn, l1 = two ? mn + 1 : mn;
            int ws0 = P->ws[l0], wt0 = P->wt[l0], ws1 = P->ws[l1], wt1 = P->wt[l1];
            if (ws0 == 4 && wt0 == 4 && ws1 == 4 && wt1 == 4)
                uni_rr(m, ps, pt, frac, two, w, P, l0, ws0, wt0, ws1, wt1, acc);
            else if (ws0 == 2 && wt0 == 2 && ws1 == 2 && wt1 == 2)
                uni_cc(m, ps, pt, frac, two, w, P, l0, ws0, wt0, ws1, wt1, acc);
            else
                uni_any(m, ps, pt, frac, two, w, P, l0, ws0, wt0, ws1, wt1, acc);
        } else {
            for (int k = 0; k < m; k++) {
                float f = frac[k];
                if (f > 0.0f) {
                    taps_at(ps[k], pt[k], w, P, lv[k], 1.0f - f, 1, &acc[k], 1);
                    taps_at(ps[k], pt[k], w, P, lv[k] + 1, f, 1, &acc[k], 0);
                } else {
                    taps_at(ps[k], pt[k], w, P, lv[k], 1.0f, 0, &acc[k], 1);
                }
            }
        }
        for (int c = 0; c < 4; c++) {
            float *o = out[c];
            if (!o) continue;
            o += k0;
            if (P->sel[c] < 0) {
                float v = P->sel[c] == -1 ? 0.0f : 1.0f;
                for (int k = 0; k < m; k++) o[k] = v;
                continue;
            }
            int b = P->byte[c];
            for (int k = 0; k < m; k++) o[k] = acc[k][b] / 255.0f;
        }
    }
    return 0;
}
"""

_KERNELS = Kernels(_SOURCE, _CDEF)


def available() -> bool:
    """The kernel may run in this process: ``ENABLED``, not ``SHIMGL_DEBUG=interp``,
    and built (building it on first use)."""
    _KERNELS.enabled = ENABLED
    return _KERNELS.usable()


def built() -> bool:
    """The kernels are loaded in this process (a call costs no compile)."""
    return ENABLED and _KERNELS.loaded()


def unorm8_bilinear_2d(s: np.ndarray, t: np.ndarray, plan, wrap_s, wrap_t, byte_of, out: np.ndarray) -> bool:
    """The linear filter of ``sampling._bilinear_2d_unorm8`` over lanes (s, t)
    (contiguous float32) into ``out`` ((4, n) float32, rows contiguous). ``plan``:
    one or two (words uint32 raster order, width, height, level weight: None or
    float32 (n,)). Returns False (``out`` untouched) when the kernel cannot take
    the call: the caller then runs the numpy path."""
    n = s.shape[0]
    if n < MIN_LANES or len(plan) > 2 or wrap_s not in _WRAP_CODE or wrap_t not in _WRAP_CODE:
        return False
    if out.dtype != np.float32 or out.strides[1] != 4 or (len(plan) == 1 and plan[0][3] is not None) \
            or (len(plan) == 2 and (plan[0][3] is None or plan[1][3] is None)) or not available():
        return False
    ffi, lib = _KERNELS.ffi, _KERNELS.lib
    keep = []
    args = []
    for words, width, height, level_w in plan:
        words = np.ascontiguousarray(words, np.uint32)
        if level_w is not None:
            level_w = np.ascontiguousarray(np.broadcast_to(np.asarray(level_w, np.float32), (n,)))
        keep += [words, level_w]
        args += [_KERNELS.ptr(words, "uint32_t *"), int(width), int(height),
                 ffi.NULL if level_w is None else _KERNELS.ptr(level_w, "float *")]
    if len(plan) == 1:
        args += [ffi.NULL, 1, 1, ffi.NULL]
    s = np.ascontiguousarray(s, np.float32)
    t = np.ascontiguousarray(t, np.float32)
    shifts = np.array([8 * b for b in byte_of], np.int32)
    rc = lib.unorm8_bilinear_2d(n, _KERNELS.ptr(s, "float *"), _KERNELS.ptr(t, "float *"), len(plan), *args,
                                _WRAP_CODE[wrap_s], _WRAP_CODE[wrap_t], _KERNELS.ptr(shifts, "int *"),
                                _KERNELS.ptr(out, "float *"), out.strides[0] // 4)
    del keep
    return rc == 0


_MIP_CODE = {P.MipFilter.NONE: 0, P.MipFilter.NEAREST: 1, P.MipFilter.LINEAR: 2}
_LOG2 = None


def _log2_loop():
    """numpy's float32 log2 loop (``uapi.native_ufuncs``): (function, data) or None."""
    global _LOG2
    if _LOG2 is None:
        from uapi.native_ufuncs import UFUNC_OPS, loops
        _LOG2 = loops()[UFUNC_OPS.index("log2")] or False
    return _LOG2 or None


def _lane_ptr(x, n: int):
    """(pointer, step) of a per-lane float32 argument (None, a scalar or (n,))."""
    if x is None:
        return _KERNELS.ffi.NULL, 0, None
    a = np.asarray(x, np.float32)
    if a.ndim == 0 or a.strides == (0,):
        a = np.array([a.reshape(-1)[0] if a.size else 0], np.float32)
        return _KERNELS.ptr(a, "float *"), 0, a
    a = np.ascontiguousarray(a)
    return _KERNELS.ptr(a, "float *"), 1, a


class Plan2D:
    """What a (texture view, sampler) pair fixes for ``sample_2d``, decoded once
    (``sampling._plan_2d``): per level base..top its column tables as int32 (the
    span's first column subtracted), size and wrap codes, the LOD's scale, bias and
    clamps, the mip filter and the output channels. ``address``, ``nbytes``: the
    span of the image every level lies in."""

    def __init__(self, address: int, nbytes: int, levels: list, wraps, scale, lod_bias: float, lod_min: float,
                 lod_max: float, mip, sel):
        self.address, self.nbytes = address, nbytes
        self.quads_log2 = mip != P.MipFilter.NONE
        ffi, p = _KERNELS.ffi, _KERNELS.ptr
        c = self.c = ffi.new("tex2d_plan_t *")
        self._keep = []
        c.levels = len(levels)
        for k, (xcol, ycol, width, height) in enumerate(levels):
            xcol, ycol = np.ascontiguousarray(xcol, np.int32), np.ascontiguousarray(ycol, np.int32)
            self._keep += [xcol, ycol]
            c.xcol[k], c.ycol[k] = p(xcol, "int32_t *"), p(ycol, "int32_t *")
            c.width[k], c.height[k] = width, height
            pow2 = (width & (width - 1)) == 0 and (height & (height - 1)) == 0
            ws, wt = (_WRAP_CODE[w] for w in wraps)
            c.ws[k], c.wt[k] = (4 if pow2 and ws == 0 else ws), (4 if pow2 and wt == 0 else wt)
        c.sw, c.sh = float(scale[0]), float(scale[1])
        c.has_lod_bias, c.lod_bias = int(lod_bias != 0), float(lod_bias)
        c.lo, c.hi = float(lod_min), float(lod_max)
        c.mip = _MIP_CODE[mip]
        c.reach = 2.0
        for k, v in enumerate(sel):
            c.byte[k], c.sel[k] = max(v, 0), v


def addresses(plan: Plan2D, words: np.ndarray) -> tuple[int, int, int]:
    """(``sample_2d``'s C function, the plan's ``tex2d_plan_t``, the words) as addresses,
    for C code that calls the function itself (the native tier's texture segments,
    with the arguments ``sample_2d`` below passes). The plan and words must outlive the call."""
    ffi = _KERNELS.ffi
    return (int(ffi.cast("uintptr_t", _KERNELS.lib.sample_2d)), int(ffi.cast("uintptr_t", plan.c)),
            words.ctypes.data)


def sample_2d(plan: Plan2D, words: np.ndarray, s, t, quads: bool, lod, bias, outs) -> bool:
    """A whole 2D unorm8 linear sample of lanes (s, t) (contiguous float32) into
    ``outs`` (four float32 rows or None: not written), ``words`` the bytes of the
    plan's span: the LOD from quads or ``lod`` (None, a scalar or per lane), plus
    ``bias``; each lane's level(s); the filter. False, having written nothing,
    when the kernel does not take the call (a coordinate not finite or too large,
    numpy's log2 loop not usable)."""
    log2 = _log2_loop() if quads and plan.quads_log2 else (0, 0)
    if log2 is None:
        return False
    ffi, p = _KERNELS.ffi, _KERNELS.ptr
    lod_p, lod_step, keep_lod = _lane_ptr(lod, 0)
    bias_p, bias_step, keep_bias = _lane_ptr(bias, 0)
    optrs = ffi.new("float *[4]", [ffi.NULL if o is None else p(o, "float *") for o in outs])
    rc = _KERNELS.lib.sample_2d(plan.c, p(words, "uint32_t *"), s.shape[0], p(s, "float *"), p(t, "float *"),
                                int(quads), lod_p, lod_step, bias_p, bias_step, ffi.cast("void *", log2[0]),
                                ffi.cast("void *", log2[1]), optrs)
    del keep_lod, keep_bias
    return rc == 0
