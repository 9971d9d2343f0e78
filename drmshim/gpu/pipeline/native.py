"""C kernels of the fragment pipeline's per-fragment bookkeeping.

``records_at``: ``fragment.records_at`` (each fragment's tile record) in one pass,
with the lanes' pixel centres (``iter``'s positions) in the same pass when asked.
``quads_single_sample``: ``fragment._quads`` for single-sampled fragments picked
from the rasteriser's arrays, fused with the pick and the lanes' record lookup
(``_shade_lanes``): one pass to key each fragment's quad (int32, relative to the
first fragment's key), a presence table ranking the keys (``fragment._dense_ranks``'s
table, used under the same condition), one pass in fragment order gathering each
quad's facts into a cache line of its own (the last fragment's wins, as numpy's),
and one pass writing the lanes quad by quad, sequentially (scattering the lanes
from the fragments had cost a third more), with the tile index of each lane (its
record, 0 outside) and, when asked, its pixel centre. The early-test path of a
program that reads no special register needs only the lanes' primitives, helper
flags, tile indices and centres: ``minimal`` makes just those (``quad_lanes``: each
fragment writes its own lane, then the helper lanes of partial quads are filled from
a real lane of theirs; records of whole tiles in tile order over a region at the
frame's origin take a loop of their own), a fifth to a quarter less CPU (glbench tex's
fragments: 27.6 -> 21 ms a call at 1024 x 1024, 7.6 -> 5.3 at 512). The numpy code is the specification and the results are
the same arrays (values and dtypes); the quads' arrays are views of a per-thread
scratch, valid until the thread's next call. ``SHIMGL_DEBUG=interp`` or no C compiler runs
numpy (``uapi.native_kernels``).

``gather_blocks``: the PBE's gather of a whole level from the records (``take``
with the level's permutation), 16 words at a time when every block of 16 words
reads the records at its own first record plus one shared set of 16 offsets
(``block_plan`` checks it against the permutation once): ~0.29 instead of ~0.64 ms
at 512 x 512 RGBA8, ~2.3 instead of ~3.8 ms at 1024 (thread CPU, load ~20).
"""

from __future__ import annotations

import threading

import numpy as np

from uapi.native_kernels import Kernels
from ..native.codegen import ARGS_CDEF, Seg, flat
from ..raster import Scratch
from ..raster.constants import SUBPIXEL_BITS

__all__ = ["quads_single_sample", "hsr_quads", "records_at", "lane_array", "shade_bins", "block_plan", "gather_blocks",
           "KERNELS", "BIN_KERNELS", "MIN_FRAGMENTS", "BIN_PX"]

#: Fewer fragments than this stay in numpy (small test draws compile nothing).
MIN_FRAGMENTS = 1 << 12

_CDEF = """
int quad_keys(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
              long qw, long qh, int32_t *key, int64_t *range);
long quad_ranks(long n, const int32_t *key, int64_t lo, long span, int32_t *rank);
void quad_pick(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
               const int32_t *key, int64_t lo, const int32_t *rank, long nq, void *quad_info,
               int32_t *X, int32_t *Y, int32_t *TRI, int32_t *SS, int64_t *FF, uint8_t *helper, int64_t *real,
               const int64_t *record_of, long x0, long y0, long w, long h, int64_t *rec, int shift, float *pos,
               int64_t *clamped);
int quad_lanes(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
               const int32_t *key, int64_t lo, const int32_t *rank, long nq, int32_t *TRI, uint8_t *helper,
               const int64_t *record_of, long x0, long y0, long w, long h, int shift, float *pos, int64_t *clamped);
int hsr_owners(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, long x0, long y0, long w,
               long h, int32_t *own);
long hsr_quad_count(const int32_t *own, long w, long h);
int hsr_quad_lanes(const int32_t *own, const int64_t *record_of, long x0, long y0, long w, long h, long block,
                   int shift, long cap, int32_t *TRI, uint8_t *helper, int64_t *clamped, float *pos,
                   int64_t *counts);
void records_at(long n, const int32_t *x, const int32_t *y, const int64_t *record_of, long size, long x0,
                long y0, long w, int64_t *out, float *pos);
void tile_major_records(long n, const int32_t *x, const int32_t *y, int shift, long tiles_x, int64_t *out,
                        float *pos);
void gather_blocks(long nb, const int32_t *first, const int32_t *d, const uint8_t *column, long stride_B,
                   int word_B, uint8_t *out);
"""

_SOURCE = r"""
#include <stdint.h>
#include <string.h>

/* shimgl fragment pipeline: 2x2 quads of single-sampled fragments (pipeline/native.py) */

/* Each fragment's quad key ((tri * qh + y / 2) * qw + x / 2, as fragment._quads) minus
   the first fragment's, as int32 in key[]; range[0], range[1]: the smallest and largest.
   Returns 0, or 1 when they span 2^31 values or more (key[] is then not usable). */
int quad_keys(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
              long qw, long qh, int32_t *key, int64_t *range) {
    const int64_t k0 = ((int64_t)ftri[f[0]] * qh + (fy[f[0]] >> 1)) * qw + (fx[f[0]] >> 1);
    int64_t lo = 0, hi = 0;
    for (long i = 0; i < n; i++) {
        int64_t j = f[i];
        int64_t k = ((int64_t)ftri[j] * qh + (fy[j] >> 1)) * qw + (fx[j] >> 1) - k0;
        key[i] = (int32_t)k;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    range[0] = lo;
    range[1] = hi;
    return hi - lo >= ((int64_t)1 << 31) - 1 || lo < -((int64_t)1 << 31) || hi >= ((int64_t)1 << 31);
}

/* the keys' ranks among the distinct keys in increasing order, through the presence
   table rank[span] (fragment._dense_ranks'; it arrives uninitialised): returns their count */
long quad_ranks(long n, const int32_t *key, int64_t lo, long span, int32_t *rank) {
    memset(rank, 0, span * sizeof(int32_t));
    const int32_t lo32 = (int32_t)lo;
    for (long i = 0; i < n; i++) rank[key[i] - lo32] = 1;
    long c = 0;
    for (long j = 0; j < span; j++)
        if (rank[j]) rank[j] = (int32_t)c++;
    return c;
}

/* one quad's facts, written in fragment order and read in quad order (32 bytes, two to a
   cache line): its base pixel and primitive (the same for every fragment of the quad: they
   make its key), the slots of its fragments and each slot's fragment (a later fragment of a
   slot replaces an earlier one), and the slot the last of them (in fragment order) wrote:
   the quad's last fragment, as numpy's first[quad] = arange. Fragment indices as int32
   (the caller checks they fit). */
typedef struct { int32_t bx, by, t; uint8_t real_slots, last_slot, pad0, pad1; int32_t own[4]; } quad_info_t;

/* fragment._quads' lanes (with the lanes' records, -1 outside the region): each quad
   gathers its facts from its fragments (in fragment order), then the lanes are written
   quad by quad, sequentially: a real lane's own fragment, a helper lane the quad's last. */
void quad_pick(long n, const int32_t *fx, const int32_t *fy, const int32_t *ftri, const int64_t *f,
               const int32_t *key, int64_t lo, const int32_t *rank, long nq, void *quad_info,
               int32_t *X, int32_t *Y, int32_t *TRI, int32_t *SS, int64_t *FF, uint8_t *helper, int64_t *real,
               const int64_t *record_of, long x0, long y0, long w, long h, int64_t *rec, int shift, float *pos,
               int64_t *clamped) {
    quad_info_t *qi = (quad_info_t *)quad_info;
    const int32_t lo32 = (int32_t)lo;
    for (long q = 0; q < nq; q++) qi[q].real_slots = 0;
    for (long i = 0; i < n; i++) {
        int64_t q = rank[key[i] - lo32];
        int64_t j = f[i];
        int32_t x = fx[j], y = fy[j];
        int slot = 2 * (y & 1) + (x & 1);
        real[i] = 4 * q + slot;
        quad_info_t *v = qi + q;
        v->bx = x & ~1;
        v->by = y & ~1;
        v->t = ftri[j];
        v->own[slot] = (int32_t)j;
        v->last_slot = (uint8_t)slot;
        v->real_slots |= (uint8_t)(1 << slot);
    }
    const int64_t mask = ((int64_t)1 << shift) - 1, tiles_x = shift ? w >> shift : 0;
    const long m = 4 * nq;
    for (long q = 0; q < nq; q++) {
        const quad_info_t v = qi[q];
        const int64_t last = v.own[v.last_slot];
        const long lane = 4 * q;
        const int32_t x = v.bx, y = v.by;
        X[lane] = x; X[lane + 1] = x + 1; X[lane + 2] = x; X[lane + 3] = x + 1;
        Y[lane] = y; Y[lane + 1] = y; Y[lane + 2] = y + 1; Y[lane + 3] = y + 1;
        TRI[lane] = TRI[lane + 1] = TRI[lane + 2] = TRI[lane + 3] = v.t;
        SS[lane] = SS[lane + 1] = SS[lane + 2] = SS[lane + 3] = 0;
        const unsigned own = v.real_slots;
        for (int slot = 0; slot < 4; slot++) {
            const int mine = (own >> slot) & 1;
            helper[lane + slot] = (uint8_t)(mine ^ 1);
            FF[lane + slot] = mine ? (int64_t)v.own[slot] : last;
        }
        const long rx = x - x0, ry = y - y0;
        if (rx >= 0 && rx + 1 < w && ry >= 0 && ry + 1 < h && shift) {
            /* the whole quad inside, whole tiles in tile order (see _tile_major; a tile's side
               is even and the quad aligned: its four pixels lie in one tile): arithmetic */
            const int64_t r = (((ry >> shift) * tiles_x + (rx >> shift)) << (2 * shift)) + ((ry & mask) << shift)
                              + (rx & mask);
            rec[lane] = r; rec[lane + 1] = r + 1; rec[lane + 2] = r + mask + 1; rec[lane + 3] = r + mask + 2;
        } else {
            for (int slot = 0; slot < 4; slot++) {
                const long px = rx + (slot & 1), py = ry + (slot >> 1);
                if (!(px >= 0 && px < w && py >= 0 && py < h)) rec[lane + slot] = -1;
                else if (shift)
                    rec[lane + slot] = (((py >> shift) * tiles_x + (px >> shift)) << (2 * shift))
                                       + ((py & mask) << shift) + (px & mask);
                else rec[lane + slot] = record_of[py * w + px];
            }
        }
        if (clamped)        /* the records with -1 (outside) as 0: numpy's maximum(rec, 0) */
            for (int slot = 0; slot < 4; slot++) clamped[lane + slot] = rec[lane + slot] < 0 ? 0 : rec[lane + slot];
        if (pos) {          /* the pixel centres, rows m apart: x converts to float32, then + 0.5 */
            const float fx0 = (float)x + 0.5f, fx1 = (float)(x + 1) + 0.5f;
            const float fy0 = (float)y + 0.5f, fy1 = (float)(y + 1) + 0.5f;
            pos[lane] = fx0; pos[lane + 1] = fx1; pos[lane + 2] = fx0; pos[lane + 3] = fx1;
            pos[m + lane] = fy0; pos[m + lane + 1] = fy0; pos[m + lane + 2] = fy1; pos[m + lane + 3] = fy1;
        }
    }
}

/* the tile index of pixel (px, py) (region-relative): its record, 0 outside the region (quad_pick's
   clamped record) */
static inline int64_t clamped_record(long px, long py, const int64_t *record_of, long w, long h, int shift,
                                     int64_t mask, int64_t tiles_x) {
    if (!(px >= 0 && px < w && py >= 0 && py < h)) return 0;
    if (shift)
        return (((py >> shift) * tiles_x + (px >> shift)) << (2 * shift)) + ((py & mask) << shift) + (px & mask);
    const int64_t r = record_of[py * w + px];
    return r < 0 ? 0 : r;
}

/* quad_pick's lanes for the early-test shading path, which reads only the lanes'
   primitives, helper flags, tile indices (clamped records) and pixel centres (pos):
   each fragment writes its own lane (its quad's rank, its slot) directly, and a second
   pass over the quads fills the helper lanes from a real lane of their quad (the same
   values quad_pick writes: a quad's lanes share its primitive and base pixel). No quad
   facts, no other lane arrays. Returns 1, having written lanes that are then not
   usable, when a coordinate is 2^22 or more from 0 (a helper's base pixel is read back
   from a real lane's centre, exact below that); else 0. */
int quad_lanes(long n, const int32_t *restrict fx, const int32_t *restrict fy, const int32_t *restrict ftri,
               const int64_t *restrict f, const int32_t *restrict key, int64_t lo, const int32_t *restrict rank,
               long nq, int32_t *restrict TRI, uint8_t *restrict helper, const int64_t *restrict record_of, long x0,
               long y0, long w, long h, int shift, float *restrict pos, int64_t *restrict clamped) {
    const int32_t lo32 = (int32_t)lo;
    const int64_t mask = ((int64_t)1 << shift) - 1, tiles_x = shift ? w >> shift : 0;
    const long m = 4 * nq;
    const int32_t far = 1 << 22;
    int32_t big = 0;
    memset(helper, 1, (size_t)m);
    /* each fragment's own lane; RECORD: its tile index, from x and y */
#define FRAGMENT_LANES(RECORD)                                                       \
    for (long i = 0; i < n; i++) {                                                   \
        const int64_t j = f[i];                                                      \
        const int32_t x = fx[j], y = fy[j];                                          \
        big |= (x >= far) | (x <= -far) | (y >= far) | (y <= -far);                  \
        const long lane = 4 * (long)rank[key[i] - lo32] + 2 * (y & 1) + (x & 1);     \
        TRI[lane] = ftri[j];                                                         \
        helper[lane] = 0;                                                            \
        clamped[lane] = (RECORD);                                                    \
        pos[lane] = (float)x + 0.5f;                                                 \
        pos[m + lane] = (float)y + 0.5f;                                             \
    }
    if (shift && x0 == 0 && y0 == 0) {     /* records arithmetic in (x, y), checked against the region */
        const int s2 = 2 * shift;
        FRAGMENT_LANES((unsigned long)x < (unsigned long)w && (unsigned long)y < (unsigned long)h
                       ? ((((int64_t)(y >> shift)) * tiles_x + (x >> shift)) << s2) + (((int64_t)y & mask) << shift)
                         + ((int64_t)x & mask)
                       : 0)
    } else {
        FRAGMENT_LANES(clamped_record((long)x - x0, (long)y - y0, record_of, w, h, shift, mask, tiles_x))
    }
#undef FRAGMENT_LANES
    if (big) return 1;
    for (long q = 0; q < nq; q++) {
        const long lane = 4 * q;
        uint32_t hs;
        memcpy(&hs, helper + lane, 4);
        if (!hs) continue;                      /* a whole quad */
        int r = 0;
        while (helper[lane + r]) r++;           /* a real lane (every quad has one) */
        const int32_t bx = (int32_t)(pos[lane + r] - 0.5f) & ~1, by = (int32_t)(pos[m + lane + r] - 0.5f) & ~1;
        for (int slot = 0; slot < 4; slot++) {
            if (!helper[lane + slot]) continue;
            const int32_t x = bx + (slot & 1), y = by + (slot >> 1);
            TRI[lane + slot] = TRI[lane + r];
            pos[lane + slot] = (float)x + 0.5f;
            pos[m + lane + slot] = (float)y + 0.5f;
            clamped[lane + slot] = clamped_record((long)x - x0, (long)y - y0, record_of, w, h, shift, mask, tiles_x);
        }
    }
    return 0;
}

/* Hidden surface removal's owners and quad_lanes' lanes in two passes over the pixels, for
   a pass of one draw whose every fragment passes (single-sampled, no depth/stencil work)
   and whose rank layers are runs of fragments in order: the last fragment of a pixel is
   then its highest index. own[] (region pixels, row order) gets the primitive of each
   pixel's last fragment (-1: none; primitives are setup rows, >= 0); the quads are the
   2x2 pixel blocks' groups of pixels of one primitive (the region's origin is even: its
   blocks are the frame's quads), walked in squares of `block` pixels (the tiles when
   records are in tile order). */

/* the quads of the block at region pixel (bx, by): their primitives t[] and real slots' masks */
static inline __attribute__((always_inline)) int block_quads(const int32_t *restrict own, long w, long h, long bx,
                                                             long by, int32_t *t, unsigned *real) {
    if (bx + 1 < w && by + 1 < h) {         /* inside: one quad when its four owners share a primitive */
        const int32_t *row = own + by * w + bx;
        const int32_t o0 = row[0], o1 = row[1], o2 = row[w], o3 = row[w + 1];
        if (o0 >= 0 && o1 == o0 && o2 == o0 && o3 == o0) {
            t[0] = o0;
            real[0] = 15;
            return 1;
        }
    }
    int32_t tr[4];
    unsigned left = 0;
    for (int s = 0; s < 4; s++) {
        const long px = bx + (s & 1), py = by + (s >> 1);
        const int32_t o = px < w && py < h ? own[py * w + px] : -1;
        if (o >= 0) {
            left |= 1u << s;
            tr[s] = o;
        }
    }
    int nq = 0;
    while (left) {
        const int32_t tt = tr[__builtin_ctz(left)];
        unsigned mine = 0;
        for (int s = 0; s < 4; s++)
            if (((left >> s) & 1) && tr[s] == tt) mine |= 1u << s;
        left &= ~mine;
        t[nq] = tt;
        real[nq++] = mine;
    }
    return nq;
}

/* the blocks of the region in squares of `block` pixels (even), each square in row order */
#define FOR_BLOCKS(...)                                                                      \
    for (long sy = 0; sy < h; sy += block)                                                   \
        for (long sx = 0; sx < w; sx += block)                                               \
            for (long by = sy; by < sy + block && by < h; by += 2)                           \
                for (long bx = sx; bx < sx + block && bx < w; bx += 2) { __VA_ARGS__ }

/* own[] from the fragments (their pixels region-relative): returns 0, or -1 when a fragment
   lies outside the region (own[] is then not usable) */
int hsr_owners(long n, const int32_t *restrict fx, const int32_t *restrict fy, const int32_t *restrict ftri,
               long x0, long y0, long w, long h, int32_t *restrict own) {
    memset(own, 0xff, (size_t)(w * h) * sizeof(int32_t));
    for (long i = 0; i < n; i++) {
        const long px = (long)fx[i] - x0, py = (long)fy[i] - y0;
        if ((unsigned long)px >= (unsigned long)w || (unsigned long)py >= (unsigned long)h) return -1;
        own[py * w + px] = ftri[i];
    }
    return 0;
}

/* the count of own[]'s quads */
long hsr_quad_count(const int32_t *restrict own, long w, long h) {
    long nq = 0;
    int32_t t[4];
    unsigned real[4];
    for (long by = 0; by < h; by += 2)
        for (long bx = 0; bx < w; bx += 2) nq += block_quads(own, w, h, bx, by, t, real);
    return nq;
}

/* the lanes of own[]'s quads, as quad_lanes writes them (TRI, helper, clamped records, pixel
   centres in pos[], rows m apart for m lanes) into arrays of cap lanes (pos: 2 * cap floats):
   counts[0] = m, counts[1] = the real lanes (the pixels that have an owner). Returns 1,
   having written lanes that are then not usable, when there are more than cap, else 0. */
int hsr_quad_lanes(const int32_t *restrict own, const int64_t *restrict record_of,
                   long x0, long y0, long w, long h, long block, int shift, long cap, int32_t *restrict TRI,
                   uint8_t *restrict helper, int64_t *restrict clamped, float *restrict pos,
                   int64_t *restrict counts) {
    const int64_t mask = ((int64_t)1 << shift) - 1, tiles_x = shift ? w >> shift : 0;
    long lane = 0, reals = 0;
    int32_t t[4];
    unsigned real[4];
    FOR_BLOCKS(
        const int nq = block_quads(own, w, h, bx, by, t, real);
        if (!nq) continue;
        if (lane + 4 * nq > cap) return 1;
        int64_t r[4];
        if (shift) {        /* whole tiles (w and h are multiples of their even side): arithmetic */
            r[0] = (((by >> shift) * tiles_x + (bx >> shift)) << (2 * shift)) + ((by & mask) << shift) + (bx & mask);
            r[1] = r[0] + 1;
            r[2] = r[0] + mask + 1;
            r[3] = r[0] + mask + 2;
        } else {
            for (int s = 0; s < 4; s++)
                r[s] = clamped_record(bx + (s & 1), by + (s >> 1), record_of, w, h, shift, mask, tiles_x);
        }
        const float fx0 = (float)(int32_t)(x0 + bx) + 0.5f, fx1 = (float)(int32_t)(x0 + bx + 1) + 0.5f;
        const float fy0 = (float)(int32_t)(y0 + by) + 0.5f, fy1 = (float)(int32_t)(y0 + by + 1) + 0.5f;
        for (int q = 0; q < nq; q++, lane += 4) {
            reals += __builtin_popcount(real[q]);
            for (int s = 0; s < 4; s++) {
                TRI[lane + s] = t[q];
                helper[lane + s] = (uint8_t)(((real[q] >> s) & 1) ^ 1);
                clamped[lane + s] = r[s];
            }
            pos[lane] = fx0; pos[lane + 1] = fx1; pos[lane + 2] = fx0; pos[lane + 3] = fx1;
            pos[cap + lane] = fy0; pos[cap + lane + 1] = fy0; pos[cap + lane + 2] = fy1; pos[cap + lane + 3] = fy1;
        }
    )
    memmove(pos + lane, pos + cap, (size_t)lane * sizeof(float));     /* the y row next to the x row */
    counts[0] = lane;
    counts[1] = reals;
    return 0;
}
#undef FOR_BLOCKS

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

/* pbe: a level gathered from the records, 16 words at a time: word k of block b is
   the column's word first[b] + d[k] (the column: one word_B-byte word every
   stride_B bytes). W is a constant in each instance. */
#define GATHER_BLOCKS(W)                                                                  \
    for (long b = 0; b < nb; b++) {                                                       \
        const uint8_t *src = column + (int64_t)first[b] * stride_B;                       \
        uint8_t *dst = out + b * 16 * (W);                                                \
        for (int k = 0; k < 16; k++) memcpy(dst + k * (W), src + (int64_t)d[k] * stride_B, (W)); \
    }
void gather_blocks(long nb, const int32_t *first, const int32_t *d, const uint8_t *column, long stride_B,
                   int word_B, uint8_t *out) {
    switch (word_B) {
    case 1: GATHER_BLOCKS(1); break;
    case 2: GATHER_BLOCKS(2); break;
    case 4: GATHER_BLOCKS(4); break;
    case 8: GATHER_BLOCKS(8); break;
    default: GATHER_BLOCKS(word_B); break;
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
                        record_of: np.ndarray, origin: tuple[int, int], centres: bool = False,
                        minimal: bool = False):
    """``_quads(fx[f], fy[f], ftri[f], zeros, f, 1, W, H)`` and the lanes' records
    (``record_of`` of region origin ``origin``; -1 outside it): (X, Y, TRI, SS, FF,
    helper, real, rec, clamped, pos), or None when the kernel does not take the call
    (the caller runs numpy). From the same pass: ``clamped``, the records with -1 as
    0 (``np.maximum(rec, 0)``: a helper lane's tile index), and with ``centres`` the
    lanes' pixel centres ``pos`` (float32 (2, lanes): ``iter``'s positions, as
    ``records_at`` makes them; else None). ``minimal`` (with ``centres``): only TRI,
    helper, clamped and pos are made (the others are None), by ``quad_lanes``: what
    the early-test path of a program without special registers reads, in about half
    the memory traffic."""
    n = len(f)
    if n < max(MIN_FRAGMENTS, 1) or not (fx.dtype == fy.dtype == ftri.dtype == np.int32) or f.dtype != np.int64 \
            or record_of.dtype != np.int64 or not record_of.flags.c_contiguous or len(fx) >= 1 << 31 \
            or not KERNELS.usable():
        return None         # (fragment indices are kept as int32 in the quads' facts)
    fx, fy, ftri, f = (np.ascontiguousarray(a) for a in (fx, fy, ftri, f))
    k, lib, p = KERNELS, KERNELS.lib, KERNELS.ptr
    qw, qh = (W + 1) // 2 + 1, (H + 1) // 2 + 1
    scratch = _scratch()
    key = scratch.empty("key", (n,), np.int32)
    rng = np.empty(2, np.int64)
    i32, i64 = "int32_t *", "int64_t *"
    if lib.quad_keys(n, p(fx, i32), p(fy, i32), p(ftri, i32), p(f, i64), qw, qh, p(key, i32), p(rng, i64)):
        return None
    lo, hi = int(rng[0]), int(rng[1])
    span = hi - lo + 1
    if span > DENSE_RANK_SPAN * n:
        return None
    rank = scratch.empty("rank", (span,), np.int32)
    nq = lib.quad_ranks(n, p(key, i32), lo, span, p(rank, i32))
    m = 4 * nq
    h, w = record_of.shape
    if minimal and centres:
        TRI, helper = scratch.empty("TRI", (m,), np.int32), scratch.empty("helper", (m,), np.bool_)
        clamped, pos = scratch.empty("clamped", (m,), np.int64), scratch.empty("pos", (2, m), np.float32)
        if not lib.quad_lanes(n, p(fx, i32), p(fy, i32), p(ftri, i32), p(f, i64), p(key, i32), lo, p(rank, i32), nq,
                              p(TRI, i32), k.ffi.cast("uint8_t *", helper.ctypes.data), p(record_of, i64),
                              origin[0], origin[1], w, h, _tile_major(record_of, origin), p(pos, "float *"),
                              p(clamped, i64)):
            return None, None, TRI, None, None, helper, None, None, clamped, pos
    info = scratch.empty("quad_info", (nq, _QUAD_INFO_B), np.uint8)
    X, Y, TRI, SS = (scratch.empty(name, (m,), np.int32) for name in ("X", "Y", "TRI", "SS"))
    FF, rec = scratch.empty("FF", (m,), np.int64), scratch.empty("rec", (m,), np.int64)
    real = scratch.empty("real", (n,), np.int64)
    helper = scratch.empty("helper", (m,), np.bool_)
    clamped = scratch.empty("clamped", (m,), np.int64)
    pos = scratch.empty("pos", (2, m), np.float32) if centres else None
    lib.quad_pick(n, p(fx, i32), p(fy, i32), p(ftri, i32), p(f, i64), p(key, i32), lo, p(rank, i32), nq,
                  p(info, "void *"), p(X, i32), p(Y, i32), p(TRI, i32), p(SS, i32), p(FF, i64),
                  k.ffi.cast("uint8_t *", helper.ctypes.data), p(real, i64), p(record_of, i64), origin[0], origin[1],
                  w, h, p(rec, i64), _tile_major(record_of, origin), k.ffi.NULL if pos is None else p(pos, "float *"),
                  p(clamped, i64))
    return X, Y, TRI, SS, FF, helper, real, rec, clamped, pos


def hsr_quads(fx: np.ndarray, fy: np.ndarray, ftri: np.ndarray, record_of: np.ndarray, origin: tuple[int, int]):
    """Hidden surface removal and the quads of its visible fragments in two C passes,
    for a single-sampled pass of one draw whose fragments all pass (no depth/stencil
    work) and whose rank layers are runs of fragments in order (a pixel's last
    fragment is its highest index): ``quads_single_sample``'s minimal form (TRI,
    helper, clamped, pos; the others None) of the pixels' last fragments, and the
    count of real lanes (pixels with a fragment), or None when the kernel does not
    take the call (the caller resolves the owners and quads itself). The same quads,
    lanes and records as ``hidden_surface_removal``'s owner table then the minimal
    form give, in another order: quads in 2 x 2 pixel blocks walked tile by tile
    (when records are in tile order), a block's quads by primitive; no owner table
    by record, no fragment list of owners, no keys or ranks. The lanes go into arrays
    sized for every block and a quarter more; a pass with more quads (many small
    primitives) counts them in a third pass and writes them again."""
    n = len(fx)
    h, w = record_of.shape
    if n < max(MIN_FRAGMENTS, 1) or not (fx.dtype == fy.dtype == ftri.dtype == np.int32) or n >= 1 << 31 \
            or record_of.dtype != np.int64 or not record_of.flags.c_contiguous or origin[0] % 2 or origin[1] % 2 \
            or not KERNELS.usable():
        return None
    fx, fy, ftri = (np.ascontiguousarray(a) for a in (fx, fy, ftri))
    k, lib, p = KERNELS, KERNELS.lib, KERNELS.ptr
    scratch = _scratch()
    own = scratch.empty("own", (h * w,), np.int32)
    shift = _tile_major(record_of, origin)
    block = 1 << shift if shift else BIN_PX
    i32 = "int32_t *"
    if lib.hsr_owners(n, p(fx, i32), p(fy, i32), p(ftri, i32), origin[0], origin[1], w, h, p(own, i32)):
        return None
    # lanes for every 2x2 block and a quarter more (a block with two primitives makes two
    # quads): a pass with more (many small primitives) counts its quads first
    counts = np.empty(2, np.int64)

    def lanes(cap: int):
        TRI, helper = scratch.empty("TRI", (cap,), np.int32), scratch.empty("helper", (cap,), np.bool_)
        clamped, pos = scratch.empty("clamped", (cap,), np.int64), scratch.empty("pos", (2 * cap,), np.float32)
        over = lib.hsr_quad_lanes(p(own, i32), p(record_of, "int64_t *"), origin[0], origin[1], w, h, block, shift,
                                  cap, p(TRI, i32), k.ffi.cast("uint8_t *", helper.ctypes.data),
                                  p(clamped, "int64_t *"), p(pos, "float *"), p(counts, "int64_t *"))
        return None if over else (TRI, helper, clamped, pos)
    blocks = ((w + 1) // 2) * ((h + 1) // 2)
    made = lanes(4 * (blocks + blocks // 4 + 16)) or lanes(4 * lib.hsr_quad_count(p(own, i32), w, h))
    TRI, helper, clamped, pos = made
    m, real = int(counts[0]), int(counts[1])
    return (None, None, TRI[:m], None, None, helper[:m], None, None, clamped[:m], pos[:2 * m].reshape(2, m)), real


#: bytes of quad_pick's per-quad facts (quad_info_t: two to a cache line)
_QUAD_INFO_B = 32


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


def block_plan(index: np.ndarray):
    """For a gather ``column.take(index)`` (``index``: intp, a permutation such as
    the PBE's pixel of each word of a level): (first, d), int32, when its words go
    in blocks of 16 each reading the column at one block's first index + the same
    16 offsets ``d`` (a level of 4 x 4 twiddled blocks from records in rows), for
    ``gather_blocks``; else None. Checked against every index."""
    n = len(index)
    if n == 0 or n % 16 or not KERNELS.usable():
        return None
    blocks = index.reshape(-1, 16)
    first = blocks.min(axis=1)
    d = blocks[0] - first[0]
    if int(index.max()) >= 2 ** 31 or not np.array_equal(blocks - first[:, None], np.broadcast_to(d, blocks.shape)):
        return None
    return first.astype(np.int32), d.astype(np.int32)


def gather_blocks(column: np.ndarray, plan, out: np.ndarray) -> np.ndarray:
    """``column.take(index, out=out)`` for the ``index`` of ``plan``
    (``block_plan``): ``column`` a 1-D view of words (any stride), ``out`` a
    C-contiguous array of as many words of its dtype."""
    first, d = plan
    assert out.flags.c_contiguous and out.dtype == column.dtype and out.size == 16 * len(first)
    p, ffi = KERNELS.ptr, KERNELS.ffi
    KERNELS.lib.gather_blocks(len(first), p(first, "int32_t *"), p(d, "int32_t *"),
                              ffi.cast("uint8_t *", column.ctypes.data), column.strides[0], column.itemsize,
                              p(out, "uint8_t *"))
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


# ----------------------------------------------------------------------------- a pass, bin by bin

#: Pixels on a side of the square bins ``shade_bins`` goes through (the work of a bin
#: stays in the first- and second-level caches: its records, registers and lanes).
BIN_PX = 32
#: The most lanes ``shade_bins`` takes through the program at once (their registers
#: stay in the first-level cache between its segments).
BIN_CHUNK_LANES = 256

_BIN_CDEF = ARGS_CDEF + """
long shade_bins(const args_t *proto, const uint64_t *segs, long nsegs, long nregs, const int64_t *zero_rows,
                long nzero, long chunk, long nrows, const int32_t *row_id, const int64_t *ea, const int64_t *eb,
                const int64_t *ec, const int64_t *box, const int64_t *record_of, long ox, long oy, long w, long h,
                long bin_px, long bins_x, long bin_lo, long bin_hi, int visible_only, uint64_t span,
                int64_t *counts);
"""

_BIN_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
""" + ARGS_CDEF + r"""
/* shimgl fragment pipeline: a pass's primitives rasterised, shaded and blended bin by bin
   (pipeline/native.py shade_bins; the specification is rasterize + the layer loop) */

typedef void (*seg_fn)(const args_t *A, long lo, long hi);
typedef long (*span_fn)(const args_t *A, long n, int64_t rec0, long x0, long y, int32_t prim, int ws);

/* a span of one row: its pixel j is (x0 + j, y) */
#define ONE_ROW 30

typedef struct {
    args_t A;                       /* the program's view of the chunk's lanes */
    int32_t *prim; int64_t *ti; float *pos;
    long n, chunk;
    const uint64_t *segs; long nsegs;
    const int64_t *zero_rows; long nzero;
} lanes_t;

/* the chunk's lanes through every segment of the program, in order */
static void flush(lanes_t *L) {
    if (!L->n) return;
    uint32_t *R = L->A.r;
    for (long k = 0; k < L->nzero; k++) memset(R + L->zero_rows[k] * L->chunk, 0, (size_t)L->n * 4);
    for (long s = 0; s < L->nsegs; s++) ((seg_fn)(uintptr_t)L->segs[s])(&L->A, 0, L->n);
    L->n = 0;
}

/* floor(n / d), d != 0 */
static inline int64_t floor_div(int64_t n, int64_t d) {
    int64_t q = n / d;
    return (n % d != 0 && ((n < 0) != (d < 0))) ? q - 1 : q;
}

/* The pixels x0..x1-1 of row y where every edge function e_i = ec + ea X + eb Y at the pixel
   centre (X = 256 x + 128) is >= 0 (the fill-rule bias is folded into ec): e_i(x) = E0 + A x
   with A = 256 ea, so the span's ends are exact integer divisions, as rasterize's spans. */
static inline void row_span(const int64_t *a, const int64_t *b, const int64_t *c, long y, long *x0, long *x1) {
    long lo = *x0, hi = *x1 - 1;
    const int64_t Y = ((int64_t)y << 8) + 128;
    for (int i = 0; i < 3; i++) {
        const int64_t A = a[i] << 8;
        const int64_t thr = -(c[i] + a[i] * 128 + b[i] * Y);      /* need A x >= thr */
        if (A > 0) {
            const int64_t q = -floor_div(-thr, A);                  /* ceil */
            if (q > lo) lo = q > hi + 1 ? hi + 1 : q;
        } else if (A < 0) {
            const int64_t q = floor_div(thr, A);
            if (q < hi) hi = q < lo - 1 ? lo - 1 : q;
        } else if (thr > 0) {
            hi = lo - 1;
        }
    }
    *x0 = lo;
    *x1 = hi + 1 > lo ? hi + 1 : lo;
}

/* lanes for pixels x0..x1-1 of row y that have a record (rec[x] >= 0), at most the room
   left in the chunk; returns how many (each slot is written, and kept when it counts) */
static long add_lanes(lanes_t *L, const int64_t *restrict rec, long x0, long x1, long y, int32_t prim) {
    long n = L->n;
    int64_t *restrict ti = L->ti;
    int32_t *restrict pr = L->prim;
    float *restrict px = L->pos, *restrict py = L->pos + L->chunk;
    const float fy = (float)y + 0.5f;
    for (long x = x0; x < x1; x++) {
        const int64_t r = rec[x];
        ti[n] = r;
        pr[n] = prim;
        px[n] = (float)x + 0.5f;
        py[n] = fy;
        n += r >= 0;
    }
    const long added = n - L->n;
    L->n = n;
    return added;
}

/* the same for the pixels of x0..x1-1 with an owner (own[x] >= 0: its row's lane) */
static long add_owned(lanes_t *L, const int64_t *restrict rec, const int32_t *restrict own,
                      const int32_t *restrict row_id, long x0, long x1, long y) {
    long n = L->n;
    int64_t *restrict ti = L->ti;
    int32_t *restrict pr = L->prim;
    float *restrict px = L->pos, *restrict py = L->pos + L->chunk;
    const float fy = (float)y + 0.5f;
    for (long x = x0; x < x1; x++) {
        const int32_t o = own[x];
        ti[n] = rec[x];
        pr[n] = row_id[o < 0 ? 0 : o];
        px[n] = (float)x + 0.5f;
        py[n] = fy;
        n += o >= 0;
    }
    const long added = n - L->n;
    L->n = n;
    return added;
}

/* The program's span function (codegen's Plan.span) over the pixels xs..xe-1 of row y, in
   runs whose records are consecutive (each the previous + 1): returns the pixels it shaded
   from xs on. It stops at a pixel without a record, or after a piece the span function left
   to the segments (a NaN it could not rule out): the caller's lanes take the rest. */
static long shade_span(span_fn fn, const args_t *A, const int64_t *restrict rec, long xs, long xe, long y,
                       int32_t prim) {
    long x = xs;
    while (x < xe && rec[x] >= 0) {
        long e = x + 1;
        while (e < xe && rec[e] == rec[x] + (e - x)) e++;
        const long done = fn(A, e - x, rec[x], x, y, prim, ONE_ROW);
        x += done;
        if (x < e) break;
    }
    return x - xs;
}

/* Whether the records of the rows y0..y0+nrows-1 of columns x0..x0+bw-1 (the region's
   pixel map from (ox, oy), w wide) are consecutive, row after row: rec0 + j * bw + i. */
static int rows_consecutive(const int64_t *record_of, long w, long ox, long oy, long x0, long y0, long bw,
                            long nrows) {
    const int64_t r0 = record_of[(y0 - oy) * w + (x0 - ox)];
    if (r0 < 0) return 0;
    for (long j = 0; j < nrows; j++) {
        const int64_t *rec = record_of + (y0 + j - oy) * w + (x0 - ox), first = r0 + j * bw;
        for (long i = 0; i < bw; i++)
            if (rec[i] != first + i) return 0;
    }
    return 1;
}

/* The span function over nrows whole rows of a bin (bw columns from (x0, y0)) when their
   records are consecutive: the pixels it shaded (0 when they are not), and where the row walk
   resumes (*y_from, *x_skip) after a piece it left to the lanes. */
static long bin_rows_span(span_fn fn, const args_t *A, const int64_t *record_of, long w, long ox, long oy,
                          long x0, long y0, long bw, long nrows, int32_t prim, int ws, long *y_from,
                          long *x_skip) {
    if (!rows_consecutive(record_of, w, ox, oy, x0, y0, bw, nrows)) return 0;
    const long done = fn(A, nrows * bw, record_of[(y0 - oy) * w + x0 - ox], x0, y0, prim, ws);
    *y_from = y0 + done / bw;
    *x_skip = done % bw;
    return done;
}

long shade_bins(const args_t *proto, const uint64_t *segs, long nsegs, long nregs, const int64_t *zero_rows,
                long nzero, long chunk, long nrows, const int32_t *row_id, const int64_t *ea, const int64_t *eb,
                const int64_t *ec, const int64_t *box, const int64_t *record_of, long ox, long oy, long w, long h,
                long bin_px, long bins_x, long bin_lo, long bin_hi, int visible_only, uint64_t span,
                int64_t *counts) {
    const span_fn span_of = (span_fn)(uintptr_t)span;
    /* a span over whole rows of a bin (records in rows of bin_px: tile memory's tiles) */
    const int bin_shift = (bin_px & (bin_px - 1)) == 0 ? __builtin_ctzl((unsigned long)bin_px) : -1;
    lanes_t L;
    L.A = *proto;
    L.n = 0;
    L.chunk = chunk;
    L.segs = segs;
    L.nsegs = nsegs;
    L.zero_rows = zero_rows;
    L.nzero = nzero;
    uint32_t *R = aligned_alloc(64, (size_t)((nregs * chunk * 4 + 63) / 64 * 64));
    L.prim = malloc((size_t)chunk * sizeof(int32_t));
    L.ti = malloc((size_t)chunk * sizeof(int64_t));
    L.pos = malloc((size_t)chunk * 2 * sizeof(float));
    uint8_t *dead = calloc((size_t)chunk, 1);
    int32_t *owner = visible_only ? malloc((size_t)(bin_px * bin_px) * sizeof(int32_t)) : NULL;
    long bad = -1;
    if (!R || !L.prim || !L.ti || !L.pos || !dead || (visible_only && !owner)) {
        free(R); free(L.prim); free(L.ti); free(L.pos); free(dead); free(owner);
        return -1;
    }
    L.A.r = R;
    L.A.S = chunk;
    L.A.exec = NULL;
    L.A.dead = dead;
    L.A.coef = NULL;
    L.A.prim = L.prim;
    L.A.pos = L.pos;
    L.A.pos_c = chunk;
    L.A.pos_lane = 1;
    L.A.tile_index = L.ti;
    L.A.bad_lane = &bad;
    L.A.tile_checked = 1;           /* the caller checked every record and word (see shade_bins) */
    int64_t fragments = 0, shaded = 0, spanned = 0, binned = 0;
    for (long bin = bin_lo; bin < bin_hi; bin++) {
        const long bx0 = ox + (bin % bins_x) * bin_px, by0 = oy + (bin / bins_x) * bin_px;
        const long bx1 = bx0 + bin_px < ox + w ? bx0 + bin_px : ox + w;
        const long by1 = by0 + bin_px < oy + h ? by0 + bin_px : oy + h;
        if (visible_only)
            for (long k = 0; k < bin_px * bin_px; k++) owner[k] = -1;
        for (long r = 0; r < nrows; r++) {
            const int64_t *bx = box + 4 * r;
            const long x0 = bx[0] > bx0 ? bx[0] : bx0, y0 = bx[1] > by0 ? bx[1] : by0;
            const long x1 = bx[2] < bx1 ? bx[2] : bx1, y1 = bx[3] < by1 ? bx[3] : by1;
            if (x0 >= x1 || y0 >= y1) continue;
            const int64_t *a = ea + 3 * r, *b = eb + 3 * r, *c = ec + 3 * r;
            /* the edge functions at the corners' centres: outside one edge, or inside all */
            const int64_t Xl = ((int64_t)x0 << 8) + 128, Xh = ((int64_t)(x1 - 1) << 8) + 128;
            const int64_t Yl = ((int64_t)y0 << 8) + 128, Yh = ((int64_t)(y1 - 1) << 8) + 128;
            int full = 1, reject = 0;
            for (int i = 0; i < 3; i++) {
                const int64_t emax = c[i] + a[i] * (a[i] > 0 ? Xh : Xl) + b[i] * (b[i] > 0 ? Yh : Yl);
                const int64_t emin = c[i] + a[i] * (a[i] > 0 ? Xl : Xh) + b[i] * (b[i] > 0 ? Yl : Yh);
                reject |= emax < 0;
                full &= emin >= 0;
            }
            if (reject) continue;
            const int32_t prim = row_id[r];
            long y_from = y0, x_skip = 0;           /* (pixels a whole-rows span did) */
            if (span_of && !visible_only && full && bin_shift >= 0 && x0 == bx0 && x1 - x0 == bin_px
                    && y1 - y0 > 1) {
                const long done = bin_rows_span(span_of, &L.A, record_of, w, ox, oy, x0, y0, bin_px, y1 - y0,
                                                prim, bin_shift, &y_from, &x_skip);
                fragments += done;
                spanned += done;
                binned += done;
            }
            for (long y = y_from; y < y1; y++) {
                long xs = x0, xe = x1;
                if (!full) row_span(a, b, c, y, &xs, &xe);
                if (y == y_from) xs += x_skip;      /* (full: the row starts at x0) */
                const int64_t *rec = record_of + (y - oy) * w - ox;
                if (visible_only) {
                    int32_t *own = owner + (y - by0) * bin_px - bx0;
                    for (long x = xs; x < xe; x++) {
                        const int in = rec[x] >= 0;
                        fragments += in;
                        if (in) own[x] = (int32_t)r;
                    }
                    continue;
                }
                if (span_of && xe > xs) {        /* (the chunk's lanes are other pixels: they commute) */
                    const long done = shade_span(span_of, &L.A, rec, xs, xe, y, prim);
                    fragments += done;
                    spanned += done;
                    xs += done;
                }
                for (long x = xs; x < xe; ) {
                    const long n0 = L.n, end = xe - x < chunk - n0 ? xe : x + chunk - n0;
                    fragments += add_lanes(&L, rec, x, end, y, prim);
                    x = end;
                    if (L.n == chunk) flush(&L);
                }
            }
            if (!visible_only) flush(&L);          /* records repeat across primitives */
        }
        if (visible_only) {
            long y_from = by0, x_skip = 0;          /* (pixels a whole-bin span did) */
            if (span_of && bin_shift >= 0 && bx1 - bx0 == bin_px && by1 - by0 == bin_px && owner[0] >= 0) {
                long k = 1;
                while (k < bin_px * bin_px && owner[k] == owner[0]) k++;
                if (k == bin_px * bin_px) {
                    const long done = bin_rows_span(span_of, &L.A, record_of, w, ox, oy, bx0, by0, bin_px, bin_px,
                                                    row_id[owner[0]], bin_shift, &y_from, &x_skip);
                    shaded += done;
                    spanned += done;
                    binned += done;
                }
            }
            for (long y = y_from; y < by1; y++) {
                const int32_t *own = owner + (y - by0) * bin_px - bx0;
                const int64_t *rec = record_of + (y - oy) * w - ox;
                for (long x = y == y_from ? bx0 + x_skip : bx0; x < bx1; ) {
                    long end;
                    if (span_of) {                  /* runs of one owner: its span function */
                        const int32_t o = own[x];
                        end = x + 1;
                        while (end < bx1 && own[end] == o) end++;
                        if (o >= 0) {
                            const long done = shade_span(span_of, &L.A, rec, x, end, y, row_id[o]);
                            shaded += done;
                            spanned += done;
                            x += done;
                        } else {
                            x = end;
                        }
                        if (x == end) continue;
                    } else {
                        end = bx1;
                    }
                    while (x < end) {               /* lanes through the segments */
                        const long n0 = L.n, stop = end - x < chunk - n0 ? end : x + chunk - n0;
                        shaded += add_owned(&L, rec, own, row_id, x, stop, y);
                        x = stop;
                        if (L.n == chunk) flush(&L);
                    }
                }
            }
            flush(&L);                              /* (one lane per record: any order) */
        }
    }
    counts[0] = fragments;
    counts[1] = visible_only ? shaded : fragments;
    counts[2] = spanned;
    counts[3] = binned;
    free(R); free(L.prim); free(L.ti); free(L.pos); free(dead); free(owner);
    return 0;
}
"""

BIN_KERNELS = Kernels(_BIN_SOURCE, _BIN_CDEF)

#: Run a program's span function (``codegen._span_function``) over each span of a
#: bin's row whose records are consecutive; tests switch it off to compare.
SPANS = True
#: Lanes shaded by span functions so far, and of them by spans over whole rows of a bin
#: (tests and debugging).
STATS = {"span_lanes": 0, "rows_span_lanes": 0}

#: Passes with fewer estimated fragments than this (bounding boxes) stay on one thread.
BIN_PARALLEL_MIN = 1 << 19


def _tile_words_fit(prog, items, record_B: int) -> bool:
    """Every ld_tile/st_tile word of the program lies inside its record and is aligned
    there (so lanes of distinct records touch distinct bytes, and no access can fault):
    the condition ``codegen._ordered_function`` checks before an ordered run."""
    from uapi.isa.semantics import FORMAT_ELEMENT_B
    for it in items:
        ins = prog.instructions[it.first][1]
        if ins.op.unit not in ("ld_tile", "st_tile"):
            continue
        r = ins["dst"] if ins.op.unit == "ld_tile" else ins["data"]
        word, off = FORMAT_ELEMENT_B[ins["fmt"]] * r.count, ins["offset"]
        if off % word or off + word > record_B or record_B % word:
            return False
    return True


def shade_bins(nprog, uniforms: np.ndarray, planes: np.ndarray, setup, rows: np.ndarray,
               rect: tuple[int, int, int, int], record_of: np.ndarray, origin: tuple[int, int],
               tile_buffer: np.ndarray, visible_only: bool, threads: int = 1,
               start=None) -> tuple[int, int] | None:
    """A single-sampled pass of one draw whose program ``nprog`` (native, with a
    lane-ordered plan: one straight block of segments) needs no depth/stencil work,
    rasterised and shaded bin by bin (``BIN_PX`` square bins of the region
    ``record_of`` maps, top-left pixel ``origin``), each bin's work in the caches:
    per bin, the setup ``rows`` in order, each row's covered pixels inside ``rect``
    (x0, y0, x1, y1) that have a record (the pixel centre inside all three edge
    functions, as ``rasterize``: whole bins from their corners, else exact spans per
    pixel row) as lanes through the program's segments, in chunks of at most
    ``BIN_CHUNK_LANES`` lanes of one row (distinct records: the program's tile
    accesses of a pixel take effect in primitive order, as the layer loop gives).
    ``visible_only``: hidden surface removal instead: per pixel only the last row
    covering it is shaded. Bins are independent (their records are distinct), so
    ``threads`` ranges of bins run at once with the same result. Where a bin row's
    pixels of one primitive (or owner) have consecutive records, the program's span
    function (``codegen._span_function``, when it has one and ``SPANS``) shades
    them instead of lanes through the segments, the same bits; a bin whose pixels all
    belong to one primitive (or owner) and whose records are its rows in order (tile
    memory's 32-pixel tiles) is one span over all its rows (``ws``: pixel j at (x0 +
    j mod 32, y0 + j div 32)), which saves the span function's set-up per row (about
    120 ns a call in fill_alu's program).

    ``start``: called once the pass is taken, before anything runs.

    Returns (fragments rasterised, lanes shaded), or None when the kernel does not
    take the pass (then the caller rasterises and runs the layer loop)."""
    plan = nprog.plan
    if plan.ordered is None or not BIN_KERNELS.usable():
        return None
    items = flat(plan.blocks[0][1])
    if not all(isinstance(it, Seg) for it in items):
        return None
    if planes.dtype != np.float32 or planes.ndim != 3 or not planes.flags.c_contiguous \
            or tile_buffer.dtype != np.uint8 or tile_buffer.ndim != 2 or not tile_buffer.flags.c_contiguous \
            or record_of.dtype != np.int64 or not record_of.flags.c_contiguous or record_of.size == 0 \
            or not _tile_words_fit(nprog.prog, items, tile_buffer.shape[1]):
        return None
    k = BIN_KERNELS
    ffi, p = k.ffi, k.ptr
    a = ffi.new("args_t *")
    uni = np.ascontiguousarray(uniforms, np.uint32)
    a.u = p(uni, "uint32_t *")
    keep = [uni]
    for need in dict.fromkeys(n for it in items for n in it.needs):
        if need == "coefficients":
            a.planes = p(planes, "float *") if planes.size else ffi.NULL
            a.planes_prim = planes.shape[1] * planes.shape[2]
        elif need.startswith("cf_count:"):
            if int(need.split(":")[1]) > planes.shape[1] or planes.size == 0:
                return None
        elif need.startswith("position:"):
            pass                            # single-sampled: the centroid is the centre
        elif need == "ufuncs":
            from uapi.native_ufuncs import loops
            found = loops()
            if any(lp is None for lp in found):
                return None
            for j, (fn, data) in enumerate(found):
                a.uf[j] = ffi.cast("void *", fn)
                a.ufd[j] = ffi.cast("void *", data)
        elif need == "tile":
            a.tile = p(tile_buffer, "uint8_t *")
            a.tile_B, a.record_B = tile_buffer.size, tile_buffer.shape[1]
        else:
            return None
    rows = np.asarray(rows, np.int64)
    # the pixels whose centre lies in each row's fx bounding box, inside rect (as _block_pairs)
    xf, yf = setup.x_fx[rows], setup.y_fx[rows]
    half = 1 << (SUBPIXEL_BITS - 1)
    box = np.empty((len(rows), 4), np.int64)
    box[:, 0] = np.maximum(-((half - xf.min(axis=1)) >> SUBPIXEL_BITS), rect[0])
    box[:, 1] = np.maximum(-((half - yf.min(axis=1)) >> SUBPIXEL_BITS), rect[1])
    box[:, 2] = np.minimum(((xf.max(axis=1) - half) >> SUBPIXEL_BITS) + 1, rect[2])
    box[:, 3] = np.minimum(((yf.max(axis=1) - half) >> SUBPIXEL_BITS) + 1, rect[3])
    live = (box[:, 2] > box[:, 0]) & (box[:, 3] > box[:, 1])
    if not live.all():
        rows, box = rows[live], np.ascontiguousarray(box[live])
    if len(rows) and int(rows.max()) >= planes.shape[0]:
        return None                         # (the numpy step raises IndexError)
    if len(rows) == 0:
        return 0, 0                         # (nothing rasterised: the background waits, as in shade_pass)
    ea = np.ascontiguousarray(setup.edge_a[rows], np.int64)
    eb = np.ascontiguousarray(setup.edge_b[rows], np.int64)
    ec = np.ascontiguousarray(setup.edge_c[rows] - setup.edge_bias[rows], np.int64)
    row_id = rows.astype(np.int32)
    segs = np.array([int(nprog.ffi.cast("uintptr_t", nprog.fns[it.name])) for it in items], np.uint64)
    # the whole program per span of consecutive records (of one primitive)
    span = int(nprog.ffi.cast("uintptr_t", nprog.fns[plan.span])) if plan.span and SPANS else 0
    zero = np.array([r for r in nprog.prog.zero_rows if r < max(nprog.prog.n_regs32, 1)], np.int64)
    nregs = max(nprog.prog.n_regs32, 1)
    h, w = record_of.shape
    bins_x, bins_y = -(-w // BIN_PX), -(-h // BIN_PX)
    n_bins = bins_x * bins_y
    keep += [ea, eb, ec, box, row_id, segs, zero, planes, tile_buffer, record_of]
    i64 = "int64_t *"
    area = int(((box[:, 2] - box[:, 0]) * (box[:, 3] - box[:, 1])).sum())
    parts = max(1, min(threads, n_bins)) if area >= BIN_PARALLEL_MIN else 1
    step = -(-n_bins // parts)
    ranges = [(lo, min(n_bins, lo + step)) for lo in range(0, n_bins, step)]
    counts = np.zeros((len(ranges), 4), np.int64)

    def run(j: int) -> int:
        lo, hi = ranges[j]
        return k.lib.shade_bins(a, ffi.cast("uint64_t *", segs.ctypes.data), len(segs), nregs, p(zero, i64),
                                len(zero), BIN_CHUNK_LANES, len(rows), p(row_id, "int32_t *"), p(ea, i64),
                                p(eb, i64), p(ec, i64), p(box, i64), p(record_of, i64), origin[0], origin[1], w, h,
                                BIN_PX, bins_x, lo, hi, int(visible_only), span, p(counts[j], i64))
    if start is not None:
        start()
    if len(ranges) == 1:
        results = [run(0)]
    else:
        from ..native.tier import parallel
        results = parallel(run, len(ranges))
    if any(r < 0 for r in results):
        raise MemoryError("shade_bins: out of memory for a bin's lanes")
    total = counts.sum(axis=0)
    STATS["span_lanes"] += int(total[2])
    STATS["rows_span_lanes"] += int(total[3])
    return int(total[0]), int(total[1])
