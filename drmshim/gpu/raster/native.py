"""C kernels of the rasteriser (``uapi.native_kernels``: built once per machine
through the disk cache; ``SHIMGL_DEBUG=interp``, no C compiler or
``KERNELS.enabled = False`` run the numpy specification instead).

``span_fragments``: ``rasterize._span_fragments``, the covered pixels of partial
(triangle, block) pairs in one pass: each pixel of a pair (at most a block wide)
tested with its three edge values stepped by additions (single-sampled: without a
branch, every pixel written and the covered ones kept), instead of a dozen numpy
operations over every row of every pair. Same arrays (values, dtypes, order) as
the numpy code (exact spans per row), which stays the specification.

``emit_fragments``: ``rasterize``'s last step, the fragments of every layer (its
whole full blocks broadcast, then its partial pairs' span fragments) written
into the output arrays in one pass instead of a few numpy passes and copies per
layer.

``visible_rows``: ``isp.visible_pixels``, hidden surface removal of a single-sampled
depth-tested pass without fragment arrays: the region in 64-pixel bins, each setup
row copied (edges, box, depth plane) into every bin it touches, so that a bin
reads its rows one after another and its depth and owners stay in cache (small
triangles all over a 1024 x 1024 target otherwise miss the cache at every row of
every array); per bin each row's pixels (the pairs, whole blocks, spans and depth
bits of ``rasterize``) depth tested in primitive order straight against the depth
buffer, each pixel's last passing row kept, then the bin's visible pixels listed.

``depth_test``: ``isp.depth_stencil`` with a depth test and no stencil test, over
all rank layers in one pass: the fragments go one by one in layer order, which
gives every sample its fragments in primitive order, as the layer loop does
(inside a layer the samples are distinct, so the loop's vectorised layer equals
the fragments one after another). Same depth buffer, owners and sample masks.
"""

from __future__ import annotations

import threading

import numpy as np

from uapi.native_kernels import Kernels

from .constants import SUBPIXEL_BITS

__all__ = ["KERNELS", "VISIBLE_BIN_PX", "block_pairs", "depth_test", "emit_fragments", "row_intervals",
           "span_fragments", "visible_rows"]

#: ``visible_rows`` works bin by bin, VISIBLE_BIN_PX square on the region (a multiple
#: of both block sizes, at most 64: a bin row's owned columns are one 64-bit mask)
#: and lists each bin's visible pixels in turn.
VISIBLE_BIN_PX = 64

_CDEF = """
long span_fragments(long P, const int64_t *a, const int64_t *b, const int64_t *cb, const int64_t *px0,
                    const int64_t *py0, const int64_t *pw, const int64_t *ph, int S, const int64_t *pos,
                    int32_t *pair, int32_t *dx, int32_t *dy, uint8_t *cov);
long block_pairs(long T, const int64_t *rows, const int64_t *bx0, const int64_t *by0, const int64_t *bx1,
                 const int64_t *by1, long rx0, long ry0, long B, const int64_t *ea, const int64_t *eb,
                 const int64_t *ec, const int64_t *bias, int64_t sxmin, int64_t sxmax, int64_t symin,
                 int64_t symax, int64_t *ptri, int64_t *gx, int64_t *gy, int64_t *px0, int64_t *py0, int64_t *pw,
                 int64_t *ph, uint8_t *full, int64_t *a, int64_t *b, int64_t *cb);
void emit_fragments(long L, const int64_t *w_pairs, const int64_t *r_off, const int64_t *offsets, long B,
                    int S, int all_bits, const int32_t *w_tri, const int32_t *w_x, const int32_t *w_y,
                    const int32_t *r_pair, const int32_t *r_dx, const int32_t *r_dy, const uint8_t *r_cov,
                    long n_whole, const int32_t *p_tri, const int32_t *p_x, const int32_t *p_y, const float *zp,
                    const float *dzdx, const float *dzdy, int32_t *tri, int32_t *x, int32_t *y, uint8_t *cov,
                    float *z);
long depth_test(long lo, long hi, const int64_t *order, long F, int S, const int64_t *base, const uint8_t *cov,
                const float *z, int func, int write, float *depth, long depth_n, int64_t *owner, long owner_n,
                const int64_t *obase, uint8_t *passed);
long row_intervals(long T, const int64_t *rows, const int64_t *xf, const int64_t *yf, const int64_t *ea,
                   const int64_t *eb, const int64_t *ec, const int64_t *bias, long rx0, long ry0, long rx1,
                   long ry1, int64_t pos_x, int64_t pos_y, int64_t *lo, int64_t *hi);
long visible_rows(long T, const int64_t *rows, const int64_t *xf, const int64_t *yf, const int64_t *ea,
                  const int64_t *eb, const int64_t *ec, const int64_t *bias, const double *z, const double *zoff,
                  const double *dzdx, const double *dzdy, long rx0, long ry0, long rx1, long ry1, long cx0,
                  long cy0, long cx1, long cy1, float zlo, float zhi, int func, int write, float *depth, long W,
                  long H, int32_t *o_tri, int32_t *o_x, int32_t *o_y, int64_t *counts);
"""

_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* shimgl rasteriser: covered spans of partial (triangle, block) pairs (raster/native.py) */

#define SUBPIXEL_BITS %(bits)d
#define MAX_SAMPLES 16
#define PREFETCH 16

static inline int64_t floor_div(int64_t n, int64_t d) {       /* numpy's // on int64 */
    int64_t q = n / d;
    if ((n %% d != 0) && ((n < 0) != (d < 0))) q--;
    return q;
}

/* The covered pixels of P partial pairs, pair-major and row-major: a pixel is
   kept when one of its samples has all three edge values >= 0 (the numpy code finds
   the same set as exact spans per row; here each pixel of a row is tested, its edge
   values stepped by additions, as the pairs are at most a block wide). */
long span_fragments(long P, const int64_t *a, const int64_t *b, const int64_t *cb, const int64_t *px0,
                    const int64_t *py0, const int64_t *pw, const int64_t *ph, int S, const int64_t *pos,
                    int32_t *pair, int32_t *dx, int32_t *dy, uint8_t *cov) {
    long n = 0;
    for (long p = 0; p < P; p++) {
        int64_t e0[MAX_SAMPLES][3], A[3], Bs[3];
        for (int i = 0; i < 3; i++) {
            A[i] = a[3 * p + i] << SUBPIXEL_BITS;
            Bs[i] = b[3 * p + i] << SUBPIXEL_BITS;
            for (int s = 0; s < S; s++)
                e0[s][i] = cb[3 * p + i] + a[3 * p + i] * ((px0[p] << SUBPIXEL_BITS) + pos[2 * s])
                           + b[3 * p + i] * ((py0[p] << SUBPIXEL_BITS) + pos[2 * s + 1]);
        }
        const int64_t w = pw[p];
        if (S == 1) {           /* branch-free: every pixel written, the covered ones kept */
            for (int64_t row = 0; row < ph[p]; row++) {
                int64_t e_0 = e0[0][0] + Bs[0] * row, e_1 = e0[0][1] + Bs[1] * row, e_2 = e0[0][2] + Bs[2] * row;
                for (int64_t x = 0; x < w; x++) {
                    const int in = (e_0 >= 0) & (e_1 >= 0) & (e_2 >= 0);
                    pair[n] = (int32_t)p;
                    dx[n] = (int32_t)x;
                    dy[n] = (int32_t)row;
                    cov[n] = 1;
                    n += in;
                    e_0 += A[0];
                    e_1 += A[1];
                    e_2 += A[2];
                }
            }
            continue;
        }
        for (int64_t row = 0; row < ph[p]; row++) {
            int64_t er[MAX_SAMPLES][3];
            for (int s = 0; s < S; s++)
                for (int i = 0; i < 3; i++) er[s][i] = e0[s][i] + Bs[i] * row;
            for (int64_t x = 0; x < w; x++) {
                uint8_t bits = 0;
                for (int s = 0; s < S; s++) {
                    const int64_t *e = er[s];
                    bits |= (uint8_t)((e[0] + A[0] * x >= 0) & (e[1] + A[1] * x >= 0) & (e[2] + A[2] * x >= 0)) << s;
                }
                if (!bits) continue;
                pair[n] = (int32_t)p;
                dx[n] = (int32_t)x;
                dy[n] = (int32_t)row;
                cov[n] = bits;
                n++;
            }
        }
    }
    return n;
}

/* rasterize.covered_rows: per pixel row of the rectangle rx0..rx1 x ry0..ry1, the
   union of the covered spans of T setup rows rows[t] (at most ROW_TRIS) as one
   inclusive interval of columns from rx0 (lo > hi: nothing covered); each row's
   span is rasterize's (_row_spans: the pixel box of the fx bounding box, then the
   three edges' exact ceil/floor divisions), single-sampled at (pos_x, pos_y).
   Returns the fragments (the spans' pixels), -1 when a pixel row's spans leave
   a gap (its covered pixels are not one interval), -2 for too many rows. */
#define ROW_TRIS 64
#define FAR ((int64_t)1 << 40)
long row_intervals(long T, const int64_t *rows, const int64_t *xf, const int64_t *yf, const int64_t *ea,
                   const int64_t *eb, const int64_t *ec, const int64_t *bias, long rx0, long ry0, long rx1,
                   long ry1, int64_t pos_x, int64_t pos_y, int64_t *lo, int64_t *hi) {
    int64_t bx0[ROW_TRIS], by0[ROW_TRIS], bx1[ROW_TRIS], by1[ROW_TRIS], e0[ROW_TRIS][3], A[ROW_TRIS][3],
            Bs[ROW_TRIS][3];
    if (T > ROW_TRIS) return -2;
    for (long t = 0; t < T; t++) {
        const int64_t r = rows[t], *x = xf + 3 * r, *y = yf + 3 * r;
        const int64_t xl = x[0] < x[1] ? (x[0] < x[2] ? x[0] : x[2]) : (x[1] < x[2] ? x[1] : x[2]);
        const int64_t xh = x[0] > x[1] ? (x[0] > x[2] ? x[0] : x[2]) : (x[1] > x[2] ? x[1] : x[2]);
        const int64_t yl = y[0] < y[1] ? (y[0] < y[2] ? y[0] : y[2]) : (y[1] < y[2] ? y[1] : y[2]);
        const int64_t yh = y[0] > y[1] ? (y[0] > y[2] ? y[0] : y[2]) : (y[1] > y[2] ? y[1] : y[2]);
        int64_t v;
        v = -((pos_x - xl) >> SUBPIXEL_BITS); bx0[t] = v > rx0 ? v : rx0;
        v = -((pos_y - yl) >> SUBPIXEL_BITS); by0[t] = v > ry0 ? v : ry0;
        v = ((xh - pos_x) >> SUBPIXEL_BITS) + 1; bx1[t] = v < rx1 ? v : rx1;
        v = ((yh - pos_y) >> SUBPIXEL_BITS) + 1; by1[t] = v < ry1 ? v : ry1;
        for (int i = 0; i < 3; i++) {
            const int64_t a = ea[3 * r + i], b = eb[3 * r + i], c = ec[3 * r + i] - bias[3 * r + i];
            e0[t][i] = c + a * ((bx0[t] << SUBPIXEL_BITS) + pos_x) + b * ((by0[t] << SUBPIXEL_BITS) + pos_y);
            A[t][i] = a << SUBPIXEL_BITS;
            Bs[t][i] = b << SUBPIXEL_BITS;
        }
    }
    long fragments = 0;
    for (int64_t y = ry0; y < ry1; y++) {
        int64_t sl[ROW_TRIS], sh[ROW_TRIS];
        int n = 0;
        for (long t = 0; t < T; t++) {
            if (y < by0[t] || y >= by1[t] || bx1[t] <= bx0[t]) continue;
            const int64_t dy = y - by0[t];
            int64_t l = 0, h = bx1[t] - bx0[t] - 1;
            for (int i = 0; i < 3; i++) {
                const int64_t thr = -(e0[t][i] + Bs[t][i] * dy), a = A[t][i];      /* need a * dx >= thr */
                if (a == 0) {
                    if (thr > 0) h = -1;
                    continue;
                }
                const int64_t q = floor_div(thr, a);
                if (a > 0) {
                    const int64_t c = q + (q * a != thr);                            /* ceil */
                    if (c > l) l = c;
                } else if (q < h) {
                    h = q;
                }
            }
            if (h < l) continue;
            fragments += h - l + 1;
            int k = n++;                                 /* insertion by the span's start */
            for (; k > 0 && sl[k - 1] > l + bx0[t]; k--) {
                sl[k] = sl[k - 1];
                sh[k] = sh[k - 1];
            }
            sl[k] = l + bx0[t];
            sh[k] = h + bx0[t];
        }
        if (n == 0) {
            lo[y - ry0] = FAR;
            hi[y - ry0] = -FAR;
            continue;
        }
        int64_t reach = sh[0];
        for (int k = 1; k < n; k++) {
            if (sl[k] > reach + 1) return -1;
            if (sh[k] > reach) reach = sh[k];
        }
        lo[y - ry0] = sl[0] - rx0;
        hi[y - ry0] = reach - rx0;
    }
    return fragments;
}

static inline int64_t block_div(int64_t v, long B) {    /* floor(v / B); a shift for powers of two */
    if ((B & (B - 1)) == 0) return v >> __builtin_ctzl((unsigned long)B);
    return floor_div(v, B);
}

/* a block (its sample extent sx_lo..sx_hi x sy_lo..sy_hi in fx) against a triangle's
   three edge functions a*x + b*y + c: 1 when some edge is negative at the block's most
   inside corner (no sample can be covered); else 0, *inside set when every edge is
   non-negative at the block's least inside corner (every sample covered) */
static inline int block_reject(const int64_t *ta, const int64_t *tb, const int64_t *tc, int64_t sx_lo,
                               int64_t sx_hi, int64_t sy_lo, int64_t sy_hi, int *inside) {
    int reject = 0, in = 1;
    for (int i = 0; i < 3; i++) {
        const int64_t xa = ta[i] > 0 ? sx_hi : sx_lo, xb = ta[i] > 0 ? sx_lo : sx_hi;
        const int64_t ya = tb[i] > 0 ? sy_hi : sy_lo, yb = tb[i] > 0 ? sy_lo : sy_hi;
        reject |= tc[i] + ta[i] * xa + tb[i] * ya < 0;
        in &= tc[i] + ta[i] * xb + tb[i] * yb >= 0;
    }
    *inside = in;
    return reject;
}

/* (triangle, block) pairs of setup rows rows[t] whose pixel bounding boxes are
   bx0..bx1 x by0..by1 (exclusive ends), on the B-pixel grid from (rx0, ry0), in
   triangle order then row-major blocks; rejected pairs left out. ea/eb/ec/bias:
   the setup's (rows, 3) edge arrays (full strides: row stride 3); sxmin..symax the
   sample offsets' extent in fx. */
long block_pairs(long T, const int64_t *rows, const int64_t *bx0, const int64_t *by0, const int64_t *bx1,
                 const int64_t *by1, long rx0, long ry0, long B, const int64_t *ea, const int64_t *eb,
                 const int64_t *ec, const int64_t *bias, int64_t sxmin, int64_t sxmax, int64_t symin,
                 int64_t symax, int64_t *ptri, int64_t *gx, int64_t *gy, int64_t *px0, int64_t *py0, int64_t *pw,
                 int64_t *ph, uint8_t *full, int64_t *a, int64_t *b, int64_t *cb) {
    long n = 0;
    for (long t = 0; t < T; t++) {
        const int64_t r = rows[t];
        int64_t ta[3], tb[3], tc[3];
        for (int i = 0; i < 3; i++) {
            ta[i] = ea[3 * r + i];
            tb[i] = eb[3 * r + i];
            tc[i] = ec[3 * r + i] - bias[3 * r + i];
        }
        const int64_t gx0 = block_div(bx0[t] - rx0, B), gy0 = block_div(by0[t] - ry0, B);
        const int64_t gx1 = block_div(bx1[t] - 1 - rx0, B), gy1 = block_div(by1[t] - 1 - ry0, B);
        for (int64_t j = gy0; j <= gy1; j++) {
            int64_t y0 = ry0 + j * B, y1 = y0 + B;
            y0 = y0 > by0[t] ? y0 : by0[t];
            y1 = y1 < by1[t] ? y1 : by1[t];
            const int64_t sy_lo = (y0 << SUBPIXEL_BITS) + symin, sy_hi = ((y1 - 1) << SUBPIXEL_BITS) + symax;
            for (int64_t k = gx0; k <= gx1; k++) {
                int64_t x0 = rx0 + k * B, x1 = x0 + B;
                x0 = x0 > bx0[t] ? x0 : bx0[t];
                x1 = x1 < bx1[t] ? x1 : bx1[t];
                const int64_t sx_lo = (x0 << SUBPIXEL_BITS) + sxmin, sx_hi = ((x1 - 1) << SUBPIXEL_BITS) + sxmax;
                int inside;
                if (block_reject(ta, tb, tc, sx_lo, sx_hi, sy_lo, sy_hi, &inside)) continue;
                ptri[n] = r;
                gx[n] = k;
                gy[n] = j;
                px0[n] = x0;
                py0[n] = y0;
                pw[n] = x1 - x0;
                ph[n] = y1 - y0;
                full[n] = (uint8_t)inside;
                for (int i = 0; i < 3; i++) {
                    a[3 * n + i] = ta[i];
                    b[3 * n + i] = tb[i];
                    cb[3 * n + i] = tc[i];
                }
                n++;
            }
        }
    }
    return n;
}

/* rasterize's step 3: the fragments of layer k at offsets[k]: first its whole full
   blocks (pairs w_pairs[k] .. w_pairs[k+1], B*B pixels each in row order), then its
   partial pairs' span fragments r_off[k] .. r_off[k+1] (pair r_pair of the pairs
   after the n_whole whole ones). Pair arrays p_tri/p_x/p_y and zp (pairs, S),
   dzdx, dzdy cover every pair (whole ones first); zp NULL: no depth. Depth as
   numpy computes it: float32 for whole blocks (dz = dzdx lx + dzdy ly, then z0 +
   dz), binary64 rounded once to float32 for span fragments (int32 x float32). */
void emit_fragments(long L, const int64_t *w_pairs, const int64_t *r_off, const int64_t *offsets, long B,
                    int S, int all_bits, const int32_t *w_tri, const int32_t *w_x, const int32_t *w_y,
                    const int32_t *r_pair, const int32_t *r_dx, const int32_t *r_dy, const uint8_t *r_cov,
                    long n_whole, const int32_t *p_tri, const int32_t *p_x, const int32_t *p_y, const float *zp,
                    const float *dzdx, const float *dzdy, int32_t *tri, int32_t *x, int32_t *y, uint8_t *cov,
                    float *z) {
    const long nb = B * B;
    for (long k = 0; k < L; k++) {
        long dst = offsets[k];
        for (long p = w_pairs[k]; p < w_pairs[k + 1]; p++) {
            const int32_t t = w_tri[p], x0 = w_x[p], y0 = w_y[p];
            for (long j = 0; j < nb; j++) tri[dst + j] = t;
            memset(cov + dst, all_bits, (size_t)nb);
            for (long ly = 0; ly < B; ly++) {
                int32_t *restrict xr = x + dst + ly * B, *restrict yr = y + dst + ly * B;
                for (long lx = 0; lx < B; lx++) {
                    xr[lx] = x0 + (int32_t)lx;
                    yr[lx] = y0 + (int32_t)ly;
                }
            }
            if (zp) {
                const float gx = dzdx[p], gy = dzdy[p];
                for (long ly = 0; ly < B; ly++)
                    for (long lx = 0; lx < B; lx++) {
                        const float dz = gx * (float)lx + gy * (float)ly;
                        float *zz = z + (dst + ly * B + lx) * S;
                        for (int s = 0; s < S; s++) zz[s] = zp[p * S + s] + dz;
                    }
            }
            dst += nb;
        }
        for (long i = r_off[k]; i < r_off[k + 1]; i++, dst++) {
            const long q = n_whole + r_pair[i];
            tri[dst] = p_tri[q];
            x[dst] = p_x[q] + r_dx[i];
            y[dst] = p_y[q] + r_dy[i];
            cov[dst] = r_cov[i];
            if (zp) {
                const double dz = (double)dzdx[q] * (double)r_dx[i] + (double)dzdy[q] * (double)r_dy[i];
                for (int s = 0; s < S; s++) z[dst * S + s] = (float)((double)zp[q * S + s] + dz);
            }
        }
    }
}

/* GL's compare functions in CompareFunc's order (GL_NEVER + n): a FUNC b, as numpy's
   float32 comparisons (a NaN compares unequal, and false otherwise) */
static inline int compare_f(int func, float a, float b) {
    switch (func) {
    case 0: return 0;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a != b;
    case 6: return a >= b;
    default: return 1;
    }
}

/* The depth test of fragments order[lo..hi) (order NULL: lo..hi), one after another:
   fragment f's sample s (covered: bit s of cov[f]) compares z[f * S + s] with
   depth[base[f] + s], writes it there when it passes and write is set, and sets
   owner[obase[f] + s] = f when it passes (owner NULL: none); passed[f] gets the bits
   of the samples that passed. Returns -1, touching nothing, when a fragment index,
   depth element or owner element would lie outside its array (F fragments,
   depth_n, owner_n elements): numpy then runs and raises. */
long depth_test(long lo, long hi, const int64_t *order, long F, int S, const int64_t *base, const uint8_t *cov,
                const float *z, int func, int write, float *depth, long depth_n, int64_t *owner, long owner_n,
                const int64_t *obase, uint8_t *passed) {
    long bad = 0;
    for (long j = lo; j < hi; j++) {
        const int64_t f = order ? order[j] : j;
        if (f < 0 || f >= F) return -1;
        bad |= (base[f] < 0) | (base[f] + S > depth_n);
        if (owner) bad |= (obase[f] < 0) | (obase[f] + S > owner_n);
    }
    if (bad) return -1;
    for (long j = lo; j < hi; j++) {
        const long f = order ? (long)order[j] : j;
        if (j + PREFETCH < hi) {        /* the samples a later fragment touches: scattered over the buffers */
            const long g = order ? (long)order[j + PREFETCH] : j + PREFETCH;
            __builtin_prefetch(depth + base[g], 1);
            if (owner) __builtin_prefetch(owner + obase[g], 1);
        }
        const uint8_t c = cov[f];
        uint8_t p = 0;
        for (int s = 0; s < S; s++) {
            if (!((c >> s) & 1)) continue;
            const float zf = z[(long)f * S + s];
            float *d = depth + base[f] + s;
            if (!compare_f(func, zf, *d)) continue;
            if (write) *d = zf;
            if (owner) owner[obase[f] + s] = f;
            p |= (uint8_t)(1u << s);
        }
        passed[f] = p;
    }
    return 0;
}

/* Hidden surface removal of a single-sampled pass of one draw with a depth test and
   no stencil test, without fragments: rasterize + depth_stencil(owner=) in one pass
   (isp.visible_pixels, whose numpy code is the specification). Setup rows rows[t];
   each row's pixels are those rasterize gives on the region rx0..rx1 x ry0..ry1 (its
   block grid: the same (row, block) pairs, whole full blocks and exact spans, so the
   same depth bits: float32 steps in whole blocks, binary64 rounded once elsewhere,
   then the clamp zlo..zhi), kept inside the clip rectangle cx0..cy1. The region goes
   in VIS_BIN x VIS_BIN bins (whole blocks of the grid) so that a bin's depth, owners
   and rows stay in cache: each live row is copied, with its edges and depth plane,
   into every bin it touches, in row order. Per bin its rows in order, each pixel
   depth tested against depth[y * W + x] (written when it passes and write is set)
   and the passing row noted as the pixel's owner; then the bin's owned pixels are
   listed row-major (tri, x, y). counts: fragments, passed, listed. Returns the
   block size (8 or 16, as rasterize picks it), 0 when no row is live, -1 (nothing
   touched) when the region lies outside the buffers, -2 when memory runs out. */
#define VIS_BIN %(bin)d
/* a fragment of depth ZF at column DX of drow/orow: clamped (numpy's maximum and
   minimum: a NaN stays), counted, tested, written, owned */
#define VIS_TEST(ZF, DX) do {                                             \
        float z_ = (ZF);                                                  \
        z_ = z_ < zlo ? zlo : z_;                                         \
        z_ = z_ > zhi ? zhi : z_;                                         \
        fragments++;                                                      \
        if (compare_f(func, z_, drow[DX])) {                              \
            if (write) drow[DX] = z_;                                     \
            orow[DX] = r;                                                 \
            passed++;                                                     \
        }                                                                 \
    } while (0)

typedef struct {
    int64_t a[3], b[3], c[3], box[4];
    double zt, gx, gy;
    int64_t row;
} vis_row;

static inline void vis_box(const int64_t *X, const int64_t *Y, long rx0, long ry0, long rx1, long ry1,
                           int64_t box[4]) {
    const int64_t half = (int64_t)1 << (SUBPIXEL_BITS - 1);       /* the single sample: the pixel centre */
    int64_t xl = X[0], xh = X[0], yl = Y[0], yh = Y[0];
    for (int c = 1; c < 3; c++) {
        xl = X[c] < xl ? X[c] : xl; xh = X[c] > xh ? X[c] : xh;
        yl = Y[c] < yl ? Y[c] : yl; yh = Y[c] > yh ? Y[c] : yh;
    }
    int64_t bx0 = -((half - xl) >> SUBPIXEL_BITS), by0 = -((half - yl) >> SUBPIXEL_BITS);
    int64_t bx1 = ((xh - half) >> SUBPIXEL_BITS) + 1, by1 = ((yh - half) >> SUBPIXEL_BITS) + 1;
    box[0] = bx0 > rx0 ? bx0 : rx0; box[1] = by0 > ry0 ? by0 : ry0;
    box[2] = bx1 < rx1 ? bx1 : rx1; box[3] = by1 < ry1 ? by1 : ry1;
}

long visible_rows(long T, const int64_t *rows, const int64_t *xf, const int64_t *yf, const int64_t *ea,
                  const int64_t *eb, const int64_t *ec, const int64_t *bias, const double *z, const double *zoff,
                  const double *dzdx, const double *dzdy, long rx0, long ry0, long rx1, long ry1, long cx0,
                  long cy0, long cx1, long cy1, float zlo, float zhi, int func, int write, float *depth, long W,
                  long H, int32_t *o_tri, int32_t *o_x, int32_t *o_y, int64_t *counts) {
    const int64_t half = (int64_t)1 << (SUBPIXEL_BITS - 1);
    counts[0] = counts[1] = counts[2] = 0;
    if (rx0 < 0 || ry0 < 0 || rx1 > W || ry1 > H || rx1 <= rx0 || ry1 <= ry0) return -1;
    /* pass 1: the rows' pixel boxes on the region, rasterize's block size, the bins' row counts */
    const long ow = rx1 - rx0, nbx = (ow + VIS_BIN - 1) / VIS_BIN, nby = (ry1 - ry0 + VIS_BIN - 1) / VIS_BIN;
    int64_t *start = calloc((size_t)(nbx * nby + 1), sizeof(int64_t));
    if (!start) return -2;
    int64_t area = 0, live = 0;
    for (long t = 0; t < T; t++) {
        int64_t bb[4];
        vis_box(xf + 3 * rows[t], yf + 3 * rows[t], rx0, ry0, rx1, ry1, bb);
        if (!(bb[2] > bb[0] && bb[3] > bb[1])) continue;
        area += (bb[2] - bb[0]) * (bb[3] - bb[1]);
        live++;
        for (long j = (bb[1] - ry0) / VIS_BIN; j <= (bb[3] - 1 - ry0) / VIS_BIN; j++)
            for (long i = (bb[0] - rx0) / VIS_BIN; i <= (bb[2] - 1 - rx0) / VIS_BIN; i++) start[j * nbx + i + 1]++;
    }
    if (!live) { free(start); return 0; }
    const long B = (double)area / (double)live > 1024.0 ? 16 : 8;
    for (long k = 0; k < nbx * nby; k++) start[k + 1] += start[k];
    vis_row *list = malloc(sizeof(vis_row) * (size_t)(start[nbx * nby] ? start[nbx * nby] : 1));
    int64_t *fill = malloc(sizeof(int64_t) * (size_t)(nbx * nby));
    if (!list || !fill) { free(start); free(list); free(fill); return -2; }
    memcpy(fill, start, sizeof(int64_t) * (size_t)(nbx * nby));
    /* pass 2: each live row, in row order, into every bin it touches */
    for (long t = 0; t < T; t++) {
        const int64_t r = rows[t];
        const int64_t *X = xf + 3 * r, *Y = yf + 3 * r;
        vis_row v;
        vis_box(X, Y, rx0, ry0, rx1, ry1, v.box);
        if (!(v.box[2] > v.box[0] && v.box[3] > v.box[1])) continue;
        for (int i = 0; i < 3; i++) {
            v.a[i] = ea[3 * r + i];
            v.b[i] = eb[3 * r + i];
            v.c[i] = ec[3 * r + i] - bias[3 * r + i];
        }
        /* rasterize's depth plane, in its order of operations */
        v.gx = dzdx[r];
        v.gy = dzdy[r];
        v.zt = z[3 * r] + zoff[r] - v.gx * ((double)X[0] / (double)(1 << SUBPIXEL_BITS))
               - v.gy * ((double)Y[0] / (double)(1 << SUBPIXEL_BITS));
        v.row = r;
        for (long j = (v.box[1] - ry0) / VIS_BIN; j <= (v.box[3] - 1 - ry0) / VIS_BIN; j++)
            for (long i = (v.box[0] - rx0) / VIS_BIN; i <= (v.box[2] - 1 - rx0) / VIS_BIN; i++)
                list[fill[j * nbx + i]++] = v;
    }
    free(fill);
    const double pc = (double)half / (double)(1 << SUBPIXEL_BITS);
    int32_t owner[VIS_BIN * VIS_BIN];
    int64_t fragments = 0, passed = 0, n = 0;
    for (long bj = 0; bj < nby; bj++)
        for (long bi = 0; bi < nbx; bi++) {
            const long X0 = rx0 + bi * VIS_BIN, Y0 = ry0 + bj * VIS_BIN;
            const long X1 = X0 + VIS_BIN < rx1 ? X0 + VIS_BIN : rx1, Y1 = Y0 + VIS_BIN < ry1 ? Y0 + VIS_BIN : ry1;
            const vis_row *first = list + start[bj * nbx + bi], *last = list + start[bj * nbx + bi + 1];
            if (first == last) continue;
            for (long k = 0; k < VIS_BIN * VIS_BIN; k++) owner[k] = -1;
            for (const vis_row *v = first; v < last; v++) {
                const int64_t *ta = v->a, *tb = v->b, *tc = v->c, *bb = v->box;
                const double zt = v->zt, gx = v->gx, gy = v->gy;
                const float gx32 = (float)gx, gy32 = (float)gy;
                const int32_t r = (int32_t)v->row;
                /* the row's blocks inside this bin */
                int64_t gx0 = block_div(bb[0] - rx0, B), gy0 = block_div(bb[1] - ry0, B);
                int64_t gx1 = block_div(bb[2] - 1 - rx0, B), gy1 = block_div(bb[3] - 1 - ry0, B);
                const int64_t kb0 = (X0 - rx0) / B, kb1 = (X1 - 1 - rx0) / B;
                const int64_t jb0 = (Y0 - ry0) / B, jb1 = (Y1 - 1 - ry0) / B;
                gx0 = gx0 > kb0 ? gx0 : kb0; gx1 = gx1 < kb1 ? gx1 : kb1;
                gy0 = gy0 > jb0 ? gy0 : jb0; gy1 = gy1 < jb1 ? gy1 : jb1;
                for (int64_t j = gy0; j <= gy1; j++) {
                    int64_t y0 = ry0 + j * B, y1 = y0 + B;
                    y0 = y0 > bb[1] ? y0 : bb[1];
                    y1 = y1 < bb[3] ? y1 : bb[3];
                    const int64_t sy_lo = (y0 << SUBPIXEL_BITS) + half, sy_hi = ((y1 - 1) << SUBPIXEL_BITS) + half;
                    for (int64_t k = gx0; k <= gx1; k++) {
                        int64_t x0 = rx0 + k * B, x1 = x0 + B;
                        x0 = x0 > bb[0] ? x0 : bb[0];
                        x1 = x1 < bb[2] ? x1 : bb[2];
                        const int64_t sx_lo = (x0 << SUBPIXEL_BITS) + half, sx_hi = ((x1 - 1) << SUBPIXEL_BITS) + half;
                        int inside;
                        if (block_reject(ta, tb, tc, sx_lo, sx_hi, sy_lo, sy_hi, &inside)) continue;
                        const float zp = (float)(zt + gx * (double)x0 + gy * (double)y0 + gx * pc + gy * pc);
                        const int whole = inside && x1 - x0 == B && y1 - y0 == B;
                        int64_t e0[3], A[3], Bs[3];
                        for (int i = 0; i < 3; i++) {
                            A[i] = ta[i] << SUBPIXEL_BITS;
                            Bs[i] = tb[i] << SUBPIXEL_BITS;
                            e0[i] = tc[i] + ta[i] * ((x0 << SUBPIXEL_BITS) + half)
                                    + tb[i] * ((y0 << SUBPIXEL_BITS) + half);
                        }
                        /* the pair's columns inside the clip rectangle */
                        const int64_t dxa = cx0 - x0 > 0 ? cx0 - x0 : 0, dxb = cx1 - x0 < x1 - x0 ? cx1 - x0 : x1 - x0;
                        for (int64_t dy = 0; dy < y1 - y0; dy++) {
                            const int64_t py = y0 + dy;
                            if (py < cy0 || py >= cy1) continue;
                            float *drow = depth + py * W + x0;
                            int32_t *orow = owner + (py - Y0) * VIS_BIN + (x0 - X0);
                            if (whole) {
                                for (int64_t dx = dxa; dx < dxb; dx++) {
                                    float zf = zp + (gx32 * (float)dx + gy32 * (float)dy);
                                    VIS_TEST(zf, dx);
                                }
                                continue;
                            }
                            int64_t e_0 = e0[0] + Bs[0] * dy + A[0] * dxa, e_1 = e0[1] + Bs[1] * dy + A[1] * dxa;
                            int64_t e_2 = e0[2] + Bs[2] * dy + A[2] * dxa;
                            for (int64_t dx = dxa; dx < dxb; dx++, e_0 += A[0], e_1 += A[1], e_2 += A[2]) {
                                if (!((e_0 >= 0) & (e_1 >= 0) & (e_2 >= 0))) continue;
                                float zf = (float)((double)zp + ((double)gx32 * (double)(int32_t)dx
                                                                 + (double)gy32 * (double)(int32_t)dy));
                                VIS_TEST(zf, dx);
                            }
                        }
                    }
                }
            }
            for (long y = Y0; y < Y1; y++) {        /* the bin's owned pixels, row-major */
                const int32_t *orow = owner + (y - Y0) * VIS_BIN;
                uint64_t m = 0;                     /* (VIS_BIN <= 64: one bit a column) */
                for (long i = 0; i < X1 - X0; i++) m |= (uint64_t)(orow[i] >= 0) << i;
                for (; m; m &= m - 1) {
                    const int i = __builtin_ctzll(m);
                    o_tri[n] = orow[i];
                    o_x[n] = (int32_t)(X0 + i);
                    o_y[n] = (int32_t)y;
                    n++;
                }
            }
        }
    free(start);
    free(list);
    counts[0] = fragments;
    counts[1] = passed;
    counts[2] = n;
    return B;
}
""" % {"bits": SUBPIXEL_BITS, "bin": VISIBLE_BIN_PX}

KERNELS = Kernels(_SOURCE, _CDEF)


def _empty(name: str, shape: tuple, dtype) -> np.ndarray:
    """A fresh output array. (A per-thread scratch kept between calls measured no
    faster and raised the vertex segments' peak memory, which the segments bound.)"""
    return np.empty(shape, dtype)


def span_fragments(a, b, cb, px0, py0, pw, ph, pos):
    """``rasterize._span_fragments`` in C: (pair, dx, dy, coverage), or None when the
    kernel does not take the call (then numpy runs)."""
    P = len(px0)
    samples = len(pos)
    if samples > 8 or not KERNELS.usable():
        return None
    bound = int((np.asarray(pw, np.int64) * np.asarray(ph, np.int64)).sum()) if P else 0
    if bound >= 2 ** 31 or int(np.asarray(ph).sum() if P else 0) >= 2 ** 31:
        return None                     # numpy's int64 outputs
    a, b, cb, px0, py0, pw, ph, pos = (np.ascontiguousarray(v, np.int64) for v in (a, b, cb, px0, py0, pw, ph, pos))
    pair, dx, dy = (_empty(name, (bound,), np.int32) for name in ("pair", "dx", "dy"))
    cov = _empty("cov", (bound,), np.uint8)
    p, i64, i32 = KERNELS.ptr, "int64_t *", "int32_t *"
    n = KERNELS.lib.span_fragments(P, p(a, i64), p(b, i64), p(cb, i64), p(px0, i64), p(py0, i64), p(pw, i64),
                                   p(ph, i64), samples, p(pos, i64), p(pair, i32), p(dx, i32), p(dy, i32),
                                   p(cov, "uint8_t *"))
    return pair[:n], dx[:n], dy[:n], cov[:n].copy()        # (rasterize may return it: no view of the bound)


def block_pairs(setup, rows, bx0, by0, bx1, by1, rx0: int, ry0: int, B: int, pos):
    """The pairs of ``rasterize._block_pairs`` after its bounding boxes (rows with a
    live box; ``bx0 .. by1`` int64): (ptri, gx, gy, px0, py0, pw, ph, full, a, b,
    cb) as numpy builds them, or None when the kernel does not take the call."""
    if not KERNELS.usable():
        return None
    ngx = (bx1 - 1 - rx0) // B - (bx0 - rx0) // B + 1
    ngy = (by1 - 1 - ry0) // B - (by0 - ry0) // B + 1
    bound = int((ngx * ngy).sum()) if len(rows) else 0
    if bound >= 2 ** 31:
        return None
    edges = [np.ascontiguousarray(v, np.int64) for v in (setup.edge_a, setup.edge_b, setup.edge_c, setup.edge_bias)]
    rows, bx0, by0, bx1, by1 = (np.ascontiguousarray(v, np.int64) for v in (rows, bx0, by0, bx1, by1))
    ints = [_empty(name, (bound,), np.int64) for name in ("ptri", "gx", "gy", "px0", "py0", "pw", "ph")]
    full = _empty("full", (bound,), np.bool_)
    abc = [_empty(name, (bound, 3), np.int64) for name in ("a", "b", "cb")]
    p, i64 = KERNELS.ptr, "int64_t *"
    n = KERNELS.lib.block_pairs(len(rows), p(rows, i64), p(bx0, i64), p(by0, i64), p(bx1, i64), p(by1, i64),
                                rx0, ry0, B, *(p(e, i64) for e in edges), int(pos[:, 0].min()),
                                int(pos[:, 0].max()), int(pos[:, 1].min()), int(pos[:, 1].max()),
                                *(p(v, i64) for v in ints), p(full, "uint8_t *"), *(p(v, i64) for v in abc))
    ptri, gx, gy, px0, py0, pw, ph = (v[:n] for v in ints)
    return (ptri, gx, gy, px0, py0, pw, ph, full[:n], *(v[:n] for v in abc))


#: The most setup rows ``row_intervals`` takes (its C arrays' size).
ROW_TRIS = 64


def row_intervals(setup, rows: np.ndarray, rect, pos) -> tuple[np.ndarray, np.ndarray, int] | bool | None:
    """``rasterize.covered_rows``' intervals in C for the setup ``rows`` (int64, at
    most ``ROW_TRIS``): (lo, hi, fragments); False when a pixel row's spans leave a
    gap; None when the kernel does not take the call (then numpy runs)."""
    if not KERNELS.usable() or len(rows) > ROW_TRIS or len(pos) != 1:
        return None
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    h = max(ry1 - ry0, 0)
    rows = np.ascontiguousarray(rows, np.int64)
    fields = (setup.x_fx, setup.y_fx, setup.edge_a, setup.edge_b, setup.edge_c, setup.edge_bias)
    # the answer depends on the rows' corners and edges only: a frame's full-screen
    # quad asks again with the same ones (the key holds their bytes: compared, not trusted)
    key = (rx0, ry0, rx1, ry1, int(pos[0, 0]), int(pos[0, 1]), len(setup), rows.tobytes()) + tuple(
        np.ascontiguousarray(v, np.int64).take(rows, axis=0).tobytes() for v in fields)
    known = _ROW_INTERVALS.get(key)
    if known is not None:
        return known
    ints = [np.ascontiguousarray(v, np.int64) for v in fields]
    lo, hi = np.empty(h, np.int64), np.empty(h, np.int64)
    p, i64 = KERNELS.ptr, "int64_t *"
    got = KERNELS.lib.row_intervals(len(rows), p(rows, i64), *(p(v, i64) for v in ints), rx0, ry0, rx1, ry1,
                                    int(pos[0, 0]), int(pos[0, 1]), p(lo, i64), p(hi, i64))
    if got < -1:
        return None
    lo.flags.writeable = hi.flags.writeable = False
    answer = False if got == -1 else (lo, hi, int(got))
    if len(_ROW_INTERVALS) >= 16:
        _ROW_INTERVALS.clear()
    _ROW_INTERVALS[key] = answer
    return answer


#: ``row_intervals``' answers (read-only) by the rectangle, sample position and the
#: rows' corner and edge bytes.
_ROW_INTERVALS: dict = {}


def depth_test(layers, samples: int, base: np.ndarray, cov: np.ndarray, z: np.ndarray, func: int, write: bool,
               depth: np.ndarray, passed: np.ndarray, owner: np.ndarray | None = None,
               obase: np.ndarray | None = None) -> bool:
    """The depth test of ``isp.depth_stencil`` (no stencil test) over every layer of
    ``layers`` in C, in place: ``depth`` (flat float32), ``passed`` (F,) uint8,
    ``owner`` (flat int64; fragment f's sample s is ``owner[obase[f] + s]``).
    ``base``: each fragment's sample 0 in ``depth``. False (nothing done) when the
    kernel does not take the call; then numpy runs."""
    if not KERNELS.usable() or samples > 8 or depth is None:
        return False
    arrays = [depth, passed] + ([owner] if owner is not None else [])
    if any(not a.flags.c_contiguous or not a.flags.writeable for a in arrays) or depth.dtype != np.float32 \
            or passed.dtype != np.uint8 or (owner is not None and owner.dtype != np.int64):
        return False
    base = np.ascontiguousarray(base, np.int64)
    cov = np.ascontiguousarray(cov, np.uint8)
    z = np.ascontiguousarray(z, np.float32)
    order = None if layers.identity or layers.order is None else np.ascontiguousarray(layers.order, np.int64)
    if owner is not None:
        obase = np.ascontiguousarray(obase, np.int64)
    p, ffi = KERNELS.ptr, KERNELS.ffi
    i64 = "int64_t *"
    F = len(passed)
    if len(base) != F or len(cov) != F or z.shape != (F, samples) or (owner is not None and len(obase) != F):
        return False
    got = KERNELS.lib.depth_test(int(layers.offsets[0]), int(layers.offsets[-1]),
                                 ffi.NULL if order is None else p(order, i64), F, samples, p(base, i64),
                                 p(cov, "uint8_t *"), p(z, "float *"), int(func), int(bool(write)),
                                 p(depth, "float *"), depth.size, ffi.NULL if owner is None else p(owner, i64),
                                 0 if owner is None else owner.size, ffi.NULL if owner is None else p(obase, i64),
                                 p(passed, "uint8_t *"))
    return got == 0


def emit_fragments(w_pairs, r_off, offsets, B: int, samples: int, all_bits: int, w_tri, w_x, w_y,
                   pair, dx, dy, r_cov, n_whole: int, ptri, px0, py0, zp, dzdx, dzdy, tri, x, y, coverage, z) -> bool:
    """``rasterize``'s layer loop of step 3 in C, writing ``tri``, ``x``, ``y``,
    ``coverage`` and ``z`` (None: no depth) in place. False (nothing written) when
    the kernel does not take the call; then numpy runs."""
    if not KERNELS.usable():
        return False
    outs = [tri, x, y, coverage] + ([z] if z is not None else [])
    if any(not a.flags.c_contiguous for a in outs):
        return False
    i32, i64 = "int32_t *", "int64_t *"
    ints = [np.ascontiguousarray(v, np.int32) for v in (w_tri, w_x, w_y, pair, dx, dy, ptri, px0, py0)]
    if any(len(v) and (int(v.min()) < -(1 << 30) or int(v.max()) >= 1 << 30) for v in ints[6:]):
        return False                    # (numpy's int32 sums could wrap; the kernel's would be undefined)
    offs = [np.ascontiguousarray(v, np.int64) for v in (w_pairs, r_off, offsets)]
    r_cov = np.ascontiguousarray(r_cov, np.uint8)
    p, ffi = KERNELS.ptr, KERNELS.ffi
    planes = None if z is None else [np.ascontiguousarray(v, np.float32) for v in (zp, dzdx, dzdy)]
    fl = [ffi.NULL] * 3 if planes is None else [p(v, "float *") for v in planes]
    KERNELS.lib.emit_fragments(len(offsets) - 1, *(p(v, i64) for v in offs), B, samples, all_bits,
                               *(p(v, i32) for v in ints[:6]), p(r_cov, "uint8_t *"), n_whole,
                               *(p(v, i32) for v in ints[6:]), *fl, p(tri, i32), p(x, i32), p(y, i32),
                               p(coverage, "uint8_t *"), ffi.NULL if z is None else p(z, "float *"))
    return True


_OUT = threading.local()


def _outputs(n: int):
    """This thread's (tri, x, y) output arrays of ``visible_rows``, at least ``n``
    long (reused from pass to pass: fresh pages would cost more than the work)."""
    held = getattr(_OUT, "arrays", None)
    if held is None or len(held[0]) < n:
        held = _OUT.arrays = tuple(np.empty(n, np.int32) for _ in range(3))
    return held


def visible_rows(setup, rows, rect, clip, depth_clamp, func: int, write: bool, depth: np.ndarray):
    """``isp.visible_pixels`` in C: (tri, x, y, fragments, passed), the arrays views
    of this thread's outputs (valid until its next call), or None when the kernel
    does not take the call (then numpy runs). ``depth``: the (H, W, 1) float32
    buffer of the whole framebuffer (origin (0, 0)), updated in place."""
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    w, h = rx1 - rx0, ry1 - ry0
    if not KERNELS.usable() or depth.ndim != 3 or depth.shape[2] != 1 or depth.dtype != np.float32 \
            or not depth.flags.c_contiguous or not depth.flags.writeable or len(setup) >= 2 ** 31:
        return None
    H, W = depth.shape[:2]
    if rx0 < 0 or ry0 < 0 or rx1 > W or ry1 > H or w <= 0 or h <= 0:
        return None
    rows = np.ascontiguousarray(np.arange(len(setup)) if rows is None else rows, np.int64)
    ints = [np.ascontiguousarray(v, np.int64) for v in (setup.x_fx, setup.y_fx, setup.edge_a, setup.edge_b,
                                                          setup.edge_c, setup.edge_bias)]
    dbl = [np.ascontiguousarray(v, np.float64) for v in (setup.z, setup.z_offset, setup.dzdx, setup.dzdy)]
    out = _outputs(w * h)
    counts = np.zeros(3, np.int64)
    p, i64, i32 = KERNELS.ptr, "int64_t *", "int32_t *"
    cx0, cy0, cx1, cy1 = (int(v) for v in clip)
    got = KERNELS.lib.visible_rows(len(rows), p(rows, i64), *(p(v, i64) for v in ints),
                                   *(p(v, "double *") for v in dbl), rx0, ry0, rx1, ry1, cx0, cy0, cx1, cy1,
                                   float(depth_clamp[0]), float(depth_clamp[1]), int(func), int(bool(write)),
                                   p(depth, "float *"), W, H, *(p(v, i32) for v in out), p(counts, i64))
    if got < 0:
        return None
    fragments, passed, n = (int(v) for v in counts)
    return out[0][:n], out[1][:n], out[2][:n], fragments, passed
