"""C kernels of the rasteriser (``uapi.native_kernels``: built once per machine
through the disk cache; ``SHIMGL_DEBUG=interp``, no C compiler or
``KERNELS.enabled = False`` run the numpy specification instead).

``span_fragments``: ``rasterize._span_fragments``, the covered pixels of partial
(triangle, block) pairs found row by row as exact spans, in one pass: per pair
and pixel row, three integer floor divisions a sample instead of a dozen numpy
operations over every row of every pair. Same arrays (values, dtypes, order) as
the numpy code, which stays the specification.
"""

from __future__ import annotations

import numpy as np

from uapi.native_kernels import Kernels

from .constants import SUBPIXEL_BITS

__all__ = ["KERNELS", "block_pairs", "span_fragments"]

_CDEF = """
long span_fragments(long P, const int64_t *a, const int64_t *b, const int64_t *cb, const int64_t *px0,
                    const int64_t *py0, const int64_t *pw, const int64_t *ph, int S, const int64_t *pos,
                    int32_t *pair, int32_t *dx, int32_t *dy, uint8_t *cov);
long block_pairs(long T, const int64_t *rows, const int64_t *bx0, const int64_t *by0, const int64_t *bx1,
                 const int64_t *by1, long rx0, long ry0, long B, const int64_t *ea, const int64_t *eb,
                 const int64_t *ec, const int64_t *bias, int64_t sxmin, int64_t sxmax, int64_t symin,
                 int64_t symax, int64_t *ptri, int64_t *gx, int64_t *gy, int64_t *px0, int64_t *py0, int64_t *pw,
                 int64_t *ph, uint8_t *full, int64_t *a, int64_t *b, int64_t *cb);
"""

_SOURCE = r"""
#include <stdint.h>

/* shimgl rasteriser: covered spans of partial (triangle, block) pairs (raster/native.py) */

#define SUBPIXEL_BITS %(bits)d
#define MAX_SAMPLES 16

static inline int64_t floor_div(int64_t n, int64_t d) {       /* numpy's // on int64 */
    int64_t q = n / d;
    if ((n %% d != 0) && ((n < 0) != (d < 0))) q--;
    return q;
}

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
        for (int64_t row = 0; row < ph[p]; row++) {
            int64_t los[MAX_SAMPLES], his[MAX_SAMPLES], lo = 0, hi = 0;
            for (int s = 0; s < S; s++) {
                int64_t l = 0, h = w - 1;
                for (int i = 0; i < 3; i++) {
                    int64_t thr = -(e0[s][i] + Bs[i] * row);          /* need A * dx >= thr */
                    if (A[i] == 0) {
                        if (thr > 0) h = -1;                          /* all or nothing */
                        continue;
                    }
                    int64_t q = floor_div(thr, A[i]);
                    if (A[i] > 0) {
                        int64_t c = q + (q * A[i] != thr);            /* ceil */
                        l = c > l ? c : l;
                    } else {
                        h = q < h ? q : h;
                    }
                }
                los[s] = l;
                his[s] = h;
                lo = s == 0 || l < lo ? l : lo;
                hi = s == 0 || h > hi ? h : hi;
            }
            for (int64_t x = lo; x <= hi; x++) {
                uint8_t bits = 1;
                if (S > 1) {
                    bits = 0;
                    for (int s = 0; s < S; s++)
                        bits |= (uint8_t)((x >= los[s] && x <= his[s]) << s);
                    if (!bits) continue;
                }
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
        const int64_t gx0 = floor_div(bx0[t] - rx0, B), gy0 = floor_div(by0[t] - ry0, B);
        const int64_t gx1 = floor_div(bx1[t] - 1 - rx0, B), gy1 = floor_div(by1[t] - 1 - ry0, B);
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
                int reject = 0, inside = 1;
                for (int i = 0; i < 3; i++) {
                    const int64_t xa = ta[i] > 0 ? sx_hi : sx_lo, xb = ta[i] > 0 ? sx_lo : sx_hi;
                    const int64_t ya = tb[i] > 0 ? sy_hi : sy_lo, yb = tb[i] > 0 ? sy_lo : sy_hi;
                    reject |= tc[i] + ta[i] * xa + tb[i] * ya < 0;
                    inside &= tc[i] + ta[i] * xb + tb[i] * yb >= 0;
                }
                if (reject) continue;
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
""" % {"bits": SUBPIXEL_BITS}

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
