"""C kernels of the fragment pipeline's per-fragment bookkeeping.

``records_at``: ``fragment.records_at`` (each fragment's tile record) in one pass,
with the lanes' pixel centres (``iter``'s positions) in the same pass when asked.
``quads_single_sample``: ``fragment._quads`` for single-sampled fragments picked
from the rasteriser's arrays, fused with the pick and the lanes' record lookup
(``_shade_lanes``): one pass to key each fragment's quad, a presence table ranking
the keys (``fragment._dense_ranks``'s table, used under the same condition), one
pass writing the lanes. The numpy code is the specification and the results are
the same arrays (values and dtypes); the quads' arrays are views of a per-thread
scratch, valid until the thread's next call. ``SHIMGL_DEBUG=interp`` or no C compiler runs
numpy (``uapi.native_kernels``).
"""

from __future__ import annotations

import threading

import numpy as np

from uapi.native_kernels import Kernels
from ..raster import Scratch

__all__ = ["quads_single_sample", "records_at", "lane_array", "KERNELS", "MIN_FRAGMENTS"]

#: Fewer fragments than this stay in numpy (small test draws compile nothing).
MIN_FRAGMENTS = 1 << 12

_CDEF = """
void quad_keys(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
               long qw, long qh, int64_t *key, int64_t *range);
long quad_ranks(long n, const int64_t *key, int64_t lo, long span, int64_t *rank);
void quad_lanes(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
                const int64_t *key, int64_t lo, const int64_t *rank, long nq, int64_t *first,
                int32_t *X, int32_t *Y, int32_t *TRI, int64_t *FF, uint8_t *helper, int64_t *real,
                const int64_t *record_of, long x0, long y0, long w, long h, int64_t *rec, int shift);
void records_at(long n, const int32_t *x, const int32_t *y, const int64_t *record_of, long size, long x0,
                long y0, long w, int64_t *out, float *pos);
void tile_major_records(long n, const int32_t *x, const int32_t *y, int shift, long tiles_x, int64_t *out,
                        float *pos);
"""

_SOURCE = r"""
#include <stdint.h>

/* shimgl fragment pipeline: 2x2 quads of single-sampled fragments (pipeline/native.py) */

void quad_keys(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
               long qw, long qh, int64_t *key, int64_t *range) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (long i = 0; i < n; i++) {
        int64_t j = f[i];
        int64_t k = ((int64_t)ftri[j] * qh + (fy[j] >> 1)) * qw + (fx[j] >> 1);
        key[i] = k;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    range[0] = lo;
    range[1] = hi;
}

long quad_ranks(long n, const int64_t *key, int64_t lo, long span, int64_t *rank) {
    for (long i = 0; i < n; i++) rank[key[i] - lo] = 1;          /* rank[] arrives zeroed */
    long c = 0;
    for (long j = 0; j < span; j++)
        if (rank[j]) rank[j] = c++;
    return c;
}

void quad_lanes(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
                const int64_t *key, int64_t lo, const int64_t *rank, long nq, int64_t *first,
                int32_t *X, int32_t *Y, int32_t *TRI, int64_t *FF, uint8_t *helper, int64_t *real,
                const int64_t *record_of, long x0, long y0, long w, long h, int64_t *rec, int shift) {
    const int64_t mask = ((int64_t)1 << shift) - 1, tiles_x = shift ? w >> shift : 0;
    for (long i = 0; i < n; i++) {
        int64_t q = rank[key[i] - lo];
        int64_t j = f[i];
        real[i] = 4 * q + 2 * (fy[j] & 1) + (fx[j] & 1);
        first[q] = i;                                            /* the last one wins, as numpy's */
    }
    for (long q = 0; q < nq; q++) {
        int64_t i = first[q], j = f[i];
        int32_t bx = fx[j] & ~1, by = fy[j] & ~1, t = ftri[j];
        for (int slot = 0; slot < 4; slot++) {
            long lane = 4 * q + slot;
            int32_t x = bx + (slot & 1), y = by + (slot >> 1);
            X[lane] = x;
            Y[lane] = y;
            TRI[lane] = t;
            FF[lane] = j;
            helper[lane] = 1;
            long rx = x - x0, ry = y - y0;
            int inside = rx >= 0 && rx < w && ry >= 0 && ry < h;
            if (!inside) rec[lane] = -1;
            else if (shift)    /* whole tiles in tile order (see _tile_major): arithmetic */
                rec[lane] = (((ry >> shift) * tiles_x + (rx >> shift)) << (2 * shift)) + ((ry & mask) << shift)
                            + (rx & mask);
            else rec[lane] = record_of[ry * w + rx];
        }
    }
    for (long i = 0; i < n; i++) helper[real[i]] = 0;
}

/* the pixel centres (x + 0.5, y + 0.5) as float32 into pos[0][i], pos[1][i] (rows n apart):
   x converts to float32 (rounding to nearest), then 0.5 is added, as numpy's float32 add */
#define CENTRE(i) do { if (pos) { pos[i] = (float)x[i] + 0.5f; pos[n + (i)] = (float)y[i] + 0.5f; } } while (0)

/* record_of[(y - y0) * w + x - x0], the flat index clipped to the table (numpy's take, mode="clip");
   pos (NULL: none): the pixel centres too */
void records_at(long n, const int32_t *restrict x, const int32_t *restrict y, const int64_t *restrict record_of,
                long size, long x0, long y0, long w, int64_t *restrict out, float *restrict pos) {
    for (long i = 0; i < n; i++) {
        long k = ((long)y[i] - y0) * w + (long)x[i] - x0;
        k = k < 0 ? 0 : (k >= size ? size - 1 : k);
        out[i] = record_of[k];
        CENTRE(i);
    }
}

/* the record of pixel (x, y) when records are whole 2^shift-pixel tiles in tile order, each in row order */
void tile_major_records(long n, const int32_t *restrict x, const int32_t *restrict y, int shift, long tiles_x,
                        int64_t *restrict out, float *restrict pos) {
    const int64_t mask = ((int64_t)1 << shift) - 1;
#define TILE_RECORD(i) (((((int64_t)(y[i] >> shift)) * tiles_x + (x[i] >> shift)) << (2 * shift)) \
                        + (((int64_t)y[i] & mask) << shift) + ((int64_t)x[i] & mask))
    if (!pos) {
        for (long i = 0; i < n; i++) out[i] = TILE_RECORD(i);
        return;
    }
    for (long i = 0; i < n; i++) {      /* (restrict pointers: the loop vectorises) */
        out[i] = TILE_RECORD(i);
        pos[i] = (float)x[i] + 0.5f;
        pos[n + i] = (float)y[i] + 0.5f;
    }
}
"""

KERNELS = Kernels(_SOURCE, _CDEF)
#: The most bytes of lane arrays a firmware thread keeps for the next shading call:
#: fresh pages cost more than the arrays' arithmetic (the kernel zeroes each one on
#: first touch); a bigger call allocates its own.
SCRATCH_MAX_B = 96 << 20
_THREAD = threading.local()


def _scratch() -> Scratch:
    """This thread's lane arrays: a call's outputs are dead once its lanes are shaded
    (the next call on the thread overwrites them)."""
    held = getattr(_THREAD, "scratch", None)
    if held is None:
        held = _THREAD.scratch = Scratch(SCRATCH_MAX_B)
    return held
#: keys spanning more than this many times their count take numpy's sort (as _dense_ranks)
DENSE_RANK_SPAN = 4


def quads_single_sample(fx: np.ndarray, fy: np.ndarray, ftri: np.ndarray, f: np.ndarray, W: int, H: int,
                        record_of: np.ndarray, origin: tuple[int, int]):
    """``_quads(fx[f], fy[f], ftri[f], zeros, f, 1, W, H)`` and the lanes' records
    (``record_of`` of region origin ``origin``; -1 outside it): (X, Y, TRI, SS, FF,
    helper, real, rec), or None when the kernel does not take the call (the caller
    runs numpy)."""
    n = len(f)
    if n < MIN_FRAGMENTS or not (fx.dtype == fy.dtype == ftri.dtype == np.int32) or f.dtype != np.int64 \
            or record_of.dtype != np.int64 or not record_of.flags.c_contiguous or not KERNELS.usable():
        return None
    fx, fy, ftri, f = (np.ascontiguousarray(a) for a in (fx, fy, ftri, f))
    k, lib, p = KERNELS, KERNELS.lib, KERNELS.ptr
    qw, qh = (W + 1) // 2 + 1, (H + 1) // 2 + 1
    scratch = _scratch()
    key = scratch.empty("key", (n,), np.int64)
    rng = np.empty(2, np.int64)
    i32, i64 = "int32_t *", "int64_t *"
    lib.quad_keys(n, p(fx, i32), p(fy, i32), p(ftri, i32), p(f, i64), qw, qh, p(key, i64), p(rng, i64))
    lo, hi = int(rng[0]), int(rng[1])
    span = hi - lo + 1
    if span > DENSE_RANK_SPAN * n:
        return None
    rank = scratch.empty("rank", (span,), np.int64)
    rank.fill(0)
    nq = lib.quad_ranks(n, p(key, i64), lo, span, p(rank, i64))
    m = 4 * nq
    first = scratch.empty("first", (nq,), np.int64)
    X, Y, TRI = (scratch.empty(name, (m,), np.int32) for name in ("X", "Y", "TRI"))
    FF, rec = scratch.empty("FF", (m,), np.int64), scratch.empty("rec", (m,), np.int64)
    real = scratch.empty("real", (n,), np.int64)
    helper = scratch.empty("helper", (m,), np.bool_)
    h, w = record_of.shape
    lib.quad_lanes(n, p(fx, i32), p(fy, i32), p(ftri, i32), p(f, i64), p(key, i64), lo, p(rank, i64), nq,
                   p(first, i64), p(X, i32), p(Y, i32), p(TRI, i32), p(FF, i64), k.ffi.cast("uint8_t *",
                   helper.ctypes.data), p(real, i64), p(record_of, i64), origin[0], origin[1], w, h, p(rec, i64),
                   _tile_major(record_of, origin))
    FF[real] = f            # a real lane's own fragment (helpers: one of their quad's), as _quads
    SS = scratch.empty("SS", (m,), np.int32)
    SS.fill(0)
    return X, Y, TRI, SS, FF, helper, real, rec


def lane_array(name: str, shape: tuple, dtype) -> np.ndarray:
    """An uninitialised array from this thread's scratch (see ``_scratch``: valid
    until the thread's next request of ``name``)."""
    return _scratch().empty("lane_" + name, shape, dtype)


def records_at(record_of: np.ndarray, x: np.ndarray, y: np.ndarray, origin: tuple[int, int], out=None,
               centres=None):
    """``fragment.records_at`` in one pass (int64 records, into ``out`` when given),
    or None when the kernel does not take the call. ``centres``: a C-contiguous
    float32 (2, n) array the same pass fills with the pixel centres (``iter``'s
    positions, as ``fragment._PassContext._positions`` computes them)."""
    n = len(x)
    if n < MIN_FRAGMENTS or x.dtype != np.int32 or y.dtype != np.int32 or record_of.dtype != np.int64 \
            or not record_of.flags.c_contiguous or record_of.size == 0 or not KERNELS.usable():
        return None
    if centres is not None and (centres.dtype != np.float32 or centres.shape != (2, n)
                                or not centres.flags.c_contiguous):
        return None
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    out = np.empty(n, np.int64) if out is None else out
    p = KERNELS.ptr
    pos = KERNELS.ffi.NULL if centres is None else p(centres, "float *")
    shift = _tile_major(record_of, origin)
    if shift:       # the records are arithmetic in (x, y): no table lookups
        KERNELS.lib.tile_major_records(n, p(x, "int32_t *"), p(y, "int32_t *"), shift,
                                       record_of.shape[1] >> shift, p(out, "int64_t *"), pos)
        return out
    KERNELS.lib.records_at(n, p(x, "int32_t *"), p(y, "int32_t *"), p(record_of, "int64_t *"), record_of.size,
                           origin[0], origin[1], record_of.shape[1], p(out, "int64_t *"), pos)
    return out


_TILE_MAJOR: dict = {}


def _tile_major(record_of: np.ndarray, origin) -> int:
    """log2 of the tile size T when ``record_of`` (a remembered, read-only pixel map
    of the whole frame) numbers the pixels of whole T x T tiles in tile order, each
    tile in row order, else 0. Checked once against the table itself."""
    if record_of.flags.writeable or tuple(origin) != (0, 0):
        return 0
    key = id(record_of)
    hit = _TILE_MAJOR.get(key)
    if hit is not None and hit[0] is record_of:
        return hit[1]
    h, w = record_of.shape
    row = record_of[0]
    steps = np.flatnonzero(row != np.arange(w))     # the first row counts 0, 1, ... to the tile's edge
    t = int(steps[0]) if len(steps) else w
    s = t.bit_length() - 1
    shift = 0
    if t >= 2 and t == 1 << s and h % t == 0 and w % t == 0:
        y, x = np.divmod(np.arange(h * w, dtype=np.int64), w)
        want = (((y >> s) * (w >> s) + (x >> s)) << (2 * s)) + ((y & (t - 1)) << s) + (x & (t - 1))
        if np.array_equal(want.reshape(h, w), record_of):
            shift = s
    if len(_TILE_MAJOR) > 8:
        _TILE_MAJOR.clear()
    _TILE_MAJOR[key] = (record_of, shift)
    return shift
