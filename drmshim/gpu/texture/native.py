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

__all__ = ["unorm8_bilinear_2d", "available", "ENABLED", "MIN_LANES"]

#: Tests switch the kernel off to compare with the numpy path.
ENABLED = True
#: Calls over fewer lanes stay in numpy (no compile for small test draws).
MIN_LANES = 1 << 12

#: wrap mode -> the kernel's code (CLAMP_TO_BORDER never reaches the kernel)
_WRAP_CODE = {P.Wrap.REPEAT: 0, P.Wrap.MIRRORED_REPEAT: 1, P.Wrap.CLAMP_TO_EDGE: 2, P.Wrap.MIRROR_CLAMP_TO_EDGE: 3}

_CDEF = """
int unorm8_bilinear_2d(int n, const float *s, const float *t, int levels,
                       const uint32_t *words0, int width0, int height0, const float *level_w0,
                       const uint32_t *words1, int width1, int height1, const float *level_w1,
                       int wrap_s, int wrap_t, const int *shifts, float *out, long out_stride);
"""

_SOURCE = r"""
#include <stdint.h>
#include <math.h>

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

/* the four taps of one level, added to r[] in order (x fastest, then y) */
AI void level_taps(float s, float t, const uint32_t *w, int width, int height, float lw, int has_lw,
                   int ws, int wt, int sh0, int sh1, int sh2, int sh3, float *r, int first) {
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
    int x0 = wrap_coord(iu, width, ws), x1 = wrap_coord(iu + 1, width, ws);
    int y0 = wrap_coord(iv, height, wt) * width, y1 = wrap_coord(iv + 1, height, wt) * width;
    uint32_t t00 = w[y0 + x0], t01 = w[y0 + x1], t10 = w[y1 + x0], t11 = w[y1 + x1];
    float w00 = ax * ay, w01 = bx * ay, w10 = ax * by, w11 = bx * by;
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
"""

_KERNELS = Kernels(_SOURCE, _CDEF)


def available() -> bool:
    """The kernel may run in this process: ``ENABLED``, not ``SHIMGL_DEBUG=interp``,
    and built (building it on first use)."""
    _KERNELS.enabled = ENABLED
    return _KERNELS.usable()


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
