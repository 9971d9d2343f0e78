"""C kernels of the per-triangle steps (``uapi.native_kernels``, built once per
machine through the disk cache; ``SHIMGL_DEBUG=interp``, no C compiler or
``KERNELS.enabled = False`` run the numpy specification instead).

Each replaces a run of a dozen or more numpy passes over every vertex, triangle
or (triangle, tile) pair by one loop, with the same arithmetic in the same order
(binary64, no contraction: ``native_build``'s flags), so the results are the
numpy code's bit for bit:

``clip_codes``: ``clip.vertex_distances`` + ``clip.outcodes`` (the clip code of
every vertex; the distances themselves are computed only when a triangle needs
clipping).

``setup_triangles``: ``setup.setup_triangles``' snapping, face and culling, edge
functions with the fill rule, depth plane and bounding box, for the kept rows.

``planes``: ``ppp._plane`` for many components of the same triangles at once
(the corners' determinant once per triangle), stored as float32 into the
coefficient array.

``bin_count`` / ``bin_fill``: ``tiler.bin_triangles``: the (tile, row) entries of
each row (bounding-box tiles less those wholly outside an edge), counted, then
written per tile in row order (a counting sort instead of numpy's argsort).

``block_layers``: ``rasterize``'s step 2: each (triangle, block) pair's rank in
its block (a counter per block instead of a sort), and the stable order by
(whole-block pairs first, then layer) as a counting sort.
"""

from __future__ import annotations

import numpy as np

from uapi.native_kernels import Kernels

from .constants import MAX_WINDOW_COORD_PX, SUBPIXEL_BITS

__all__ = ["KERNELS", "bin_triangles_c", "block_layers", "clip_codes", "planes", "setup_triangles_c",
           "window_triangles"]

_CDEF = """
long clip_codes(long V, const double *pos, double g, int clip_z, int zero_to_one, long D, const double *cd,
                int64_t *code);
long setup_tris(long T, const double *win, double maxc, int front_ccw, int cull, int always_front,
                int64_t *sel, int64_t *xfx, int64_t *yfx, int64_t *ea, int64_t *eb, int64_t *ec, int64_t *bias,
                int64_t *area2, uint8_t *front, double *z, double *invw, double *dzdx, double *dzdy, int64_t *bbox,
                double *xy);
void planes(long T, const double *xw, const double *yw, long C, const int32_t *kind, const uint32_t **words,
            const int64_t *verts, const double *invw, const double *vals, const int64_t *cf, long ncf, float *out);
long bin_count(long first, long n, const int64_t *bbox, const int64_t *ea, const int64_t *eb, const int64_t *ec,
               long W, long H, long s, int exact, int64_t *per_row);
void bin_fill(long first, long end, const int64_t *bbox, const int64_t *ea, const int64_t *eb, const int64_t *ec,
              long W, long H, long s, int exact, long tiles_x, long ntiles, int64_t *offsets, int64_t *rows);
long block_layers(long P, const int64_t *gx, const int64_t *gy, long grid_w, long nblk, const uint8_t *whole,
                  int64_t *count, int64_t *layer, int64_t *order);
long window_triangles(long T, const uint32_t *words, long stride, long V, const int64_t *tris, double g, int clip_z,
                      int zero_to_one, int has_vp, double tx, double ty, double tz, double sx, double sy, double sz,
                      double maxc, double *win, int64_t *kept);
"""

_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* shimgl rasteriser: per-triangle set-up steps (raster/native_geometry.py) */

#define SUBPIXEL_BITS %(bits)d

static inline int64_t floor_div(int64_t n, int64_t d) {       /* numpy's // on int64 */
    int64_t q = n / d;
    if ((n %% d != 0) && ((n < 0) != (d < 0))) q--;
    return q;
}

static inline int64_t clip64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* clip.vertex_distances + clip.outcodes: bit p of code[v] set where vertex v's
   distance to plane p (guard band x+, x-, y+, y-, then z near/far when clip_z,
   then the D user distances) is negative or NaN. */
long clip_codes(long V, const double *pos, double g, int clip_z, int zero_to_one, long D, const double *cd,
                int64_t *code) {
    for (long v = 0; v < V; v++) {
        const double x = pos[4 * v], y = pos[4 * v + 1], z = pos[4 * v + 2], w = pos[4 * v + 3];
        const double gw = g * w;
        double d[6];
        int n = 4;
        d[0] = gw + x;
        d[1] = gw - x;
        d[2] = gw + y;
        d[3] = gw - y;
        if (clip_z) {
            d[4] = zero_to_one ? z : z + w;
            d[5] = w - z;
            n = 6;
        }
        int64_t c = 0;
        for (int p = 0; p < n; p++)
            c |= (int64_t)(d[p] < 0 || d[p] != d[p]) << p;
        for (long k = 0; k < D; k++) {
            const double e = cd[D * v + k];
            c |= (int64_t)(e < 0 || e != e) << (n + k);
        }
        code[v] = c;
    }
    return 0;
}

/* setup.setup_triangles for (T, 3, 4) window triangles: the kept rows (their
   indices in sel) in input order; returns how many, or -1 (nothing written) when
   a corner's x or y is not within +-maxc (or NaN): numpy then raises.
   cull: 0 none, 1 front, 2 back, 3 front and back. */
long setup_tris(long T, const double *win, double maxc, int front_ccw, int cull, int always_front,
                int64_t *sel, int64_t *xfx, int64_t *yfx, int64_t *ea, int64_t *eb, int64_t *ec, int64_t *bias,
                int64_t *area2, uint8_t *front, double *z, double *invw, double *dzdx, double *dzdy, int64_t *bbox,
                double *xy) {
    for (long i = 0; i < 12 * T; i += 4)
        if (!(fabs(win[i]) < maxc) || !(fabs(win[i + 1]) < maxc)) return -1;
    static const int J[3] = {1, 2, 0}, K[3] = {2, 0, 1};
    long n = 0;
    for (long t = 0; t < T; t++) {
        const double *w = win + 12 * t;
        int64_t X[3], Y[3];
        for (int c = 0; c < 3; c++) {
            X[c] = (int64_t)nearbyint(w[4 * c] * (double)(1 << SUBPIXEL_BITS));
            Y[c] = (int64_t)nearbyint(w[4 * c + 1] * (double)(1 << SUBPIXEL_BITS));
        }
        const int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
        const int ccw = area > 0;
        int fr = front_ccw ? ccw : !ccw;
        int keep = area != 0;
        if (cull == 1) keep &= !fr;
        else if (cull == 2) keep &= fr;
        else if (cull == 3) keep = 0;
        if (always_front) fr = 1;
        if (!keep) continue;
        const int64_t sign = area > 0 ? 1 : -1;
        sel[n] = t;
        for (int c = 0; c < 3; c++) {
            xfx[3 * n + c] = X[c];
            yfx[3 * n + c] = Y[c];
            const int j = J[c], k = K[c];
            const int64_t a = -(Y[k] - Y[j]) * sign, b = (X[k] - X[j]) * sign;
            ea[3 * n + c] = a;
            eb[3 * n + c] = b;
            ec[3 * n + c] = -(a * X[j] + b * Y[j]);
            bias[3 * n + c] = (a > 0 || (a == 0 && b > 0)) ? 0 : 1;
            z[3 * n + c] = w[4 * c + 2];
            invw[3 * n + c] = w[4 * c + 3];
            xy[6 * n + 2 * c] = w[4 * c];
            xy[6 * n + 2 * c + 1] = w[4 * c + 1];
        }
        area2[n] = area < 0 ? -area : area;
        front[n] = (uint8_t)fr;
        const double one = (double)(1 << SUBPIXEL_BITS);
        const double dx1 = (double)(X[1] - X[0]) / one, dx2 = (double)(X[2] - X[0]) / one;
        const double dy1 = (double)(Y[1] - Y[0]) / one, dy2 = (double)(Y[2] - Y[0]) / one;
        const double det = dx1 * dy2 - dx2 * dy1;
        const double dz1 = w[6] - w[2], dz2 = w[10] - w[2];
        dzdx[n] = det != 0 ? (dz1 * dy2 - dz2 * dy1) / det : 0.0;
        dzdy[n] = det != 0 ? (dx1 * dz2 - dx2 * dz1) / det : 0.0;
        int64_t x0 = X[0], x1 = X[0], y0 = Y[0], y1 = Y[0];
        for (int c = 1; c < 3; c++) {
            x0 = X[c] < x0 ? X[c] : x0;
            x1 = X[c] > x1 ? X[c] : x1;
            y0 = Y[c] < y0 ? Y[c] : y0;
            y1 = Y[c] > y1 ? Y[c] : y1;
        }
        bbox[4 * n] = x0 >> SUBPIXEL_BITS;
        bbox[4 * n + 1] = y0 >> SUBPIXEL_BITS;
        bbox[4 * n + 2] = (x1 >> SUBPIXEL_BITS) + 1;
        bbox[4 * n + 3] = (y1 >> SUBPIXEL_BITS) + 1;
        n++;
    }
    return n;
}

/* ppp._plane for C components: out[t, cf[i], :] = (a, b, c) of the plane through
   (xw[t, k], yw[t, k], v[k]), k = 0..2, rounded to float32, where v is component
   i's corner values: kind 2 (or any other): vals[(j * T + t) * 3 + k], j its rank
   among those; kind 0: the float32 words[i][verts[t, k]] times invw[t, k]; kind 1:
   the words alone (ppp: a perspective or linear varying's corners). */
void planes(long T, const double *xw, const double *yw, long C, const int32_t *kind, const uint32_t **words,
            const int64_t *verts, const double *invw, const double *vals, const int64_t *cf, long ncf, float *out) {
    for (long t = 0; t < T; t++) {
        const double x0 = xw[3 * t], y0 = yw[3 * t];
        const double dx1 = xw[3 * t + 1] - x0, dx2 = xw[3 * t + 2] - x0;
        const double dy1 = yw[3 * t + 1] - y0, dy2 = yw[3 * t + 2] - y0;
        const double det = dx1 * dy2 - dx2 * dy1;
        long j = 0;
        for (long i = 0; i < C; i++) {
            double v[3];
            if (kind[i] == 0 || kind[i] == 1) {
                for (int k = 0; k < 3; k++) {
                    float f;
                    memcpy(&f, &words[i][verts[3 * t + k]], 4);
                    v[k] = kind[i] == 0 ? (double)f * invw[3 * t + k] : (double)f;
                }
            } else {
                const double *src = vals + (j++ * T + t) * 3;
                v[0] = src[0]; v[1] = src[1]; v[2] = src[2];
            }
            const double dv1 = v[1] - v[0], dv2 = v[2] - v[0];
            const double a = det != 0 ? (dv1 * dy2 - dv2 * dy1) / det : 0.0;
            const double b = det != 0 ? (dx1 * dv2 - dx2 * dv1) / det : 0.0;
            const double c = v[0] - a * x0 - b * y0;
            float *o = out + (t * ncf + cf[i]) * 3;
            o[0] = (float)a;
            o[1] = (float)b;
            o[2] = (float)c;
        }
    }
}

/* The tile range of row r's bounding box and, with exact, whether tile (tx, ty)
   is not wholly outside one of its edges (tiler.bin_triangles). */
static inline int64_t tile_div(int64_t v, long s) {     /* floor(v / s); a shift for powers of two */
    if ((s & (s - 1)) == 0) return v >> __builtin_ctzl((unsigned long)s);
    return floor_div(v, s);
}

static inline void tile_range(const int64_t *bb, long W, long H, long s, int64_t *tx0, int64_t *ty0, int64_t *ntx,
                              int64_t *nty) {
    *tx0 = tile_div(clip64(bb[0], 0, W), s);
    *ty0 = tile_div(clip64(bb[1], 0, H), s);
    const int64_t tx1 = tile_div(clip64(bb[2], 0, W) + s - 1, s), ty1 = tile_div(clip64(bb[3], 0, H) + s - 1, s);
    *ntx = tx1 - *tx0 > 0 ? tx1 - *tx0 : 0;
    *nty = ty1 - *ty0 > 0 ? ty1 - *ty0 : 0;
}

static inline int tile_hit(const int64_t *a, const int64_t *b, const int64_t *c, int64_t tx, int64_t ty, long W,
                           long H, long s) {
    const int64_t sx_lo = (tx * s) << SUBPIXEL_BITS;
    const int64_t sx_hi = ((((tx + 1) * s < W ? (tx + 1) * s : W) - 1) << SUBPIXEL_BITS) + ((1 << SUBPIXEL_BITS) - 1);
    const int64_t sy_lo = (ty * s) << SUBPIXEL_BITS;
    const int64_t sy_hi = ((((ty + 1) * s < H ? (ty + 1) * s : H) - 1) << SUBPIXEL_BITS) + ((1 << SUBPIXEL_BITS) - 1);
    for (int i = 0; i < 3; i++) {
        const int64_t e = c[i] + a[i] * (a[i] > 0 ? sx_hi : sx_lo) + b[i] * (b[i] > 0 ? sy_hi : sy_lo);
        if (e < 0) return 0;
    }
    return 1;
}

/* Entries of rows first..n-1 (per_row[r - first]); returns their total. */
long bin_count(long first, long n, const int64_t *bbox, const int64_t *ea, const int64_t *eb, const int64_t *ec,
               long W, long H, long s, int exact, int64_t *per_row) {
    long total = 0;
    for (long r = first; r < n; r++) {
        int64_t tx0, ty0, ntx, nty, k = 0;
        tile_range(bbox + 4 * r, W, H, s, &tx0, &ty0, &ntx, &nty);
        if (!exact) k = ntx * nty;
        else
            for (int64_t ty = ty0; ty < ty0 + nty; ty++)
                for (int64_t tx = tx0; tx < tx0 + ntx; tx++)
                    k += tile_hit(ea + 3 * r, eb + 3 * r, ec + 3 * r, tx, ty, W, H, s);
        per_row[r - first] = k;
        total += k;
    }
    return total;
}

/* The tile lists of rows first..end-1: offsets (ntiles + 1) and rows, each tile's
   rows in increasing order. */
void bin_fill(long first, long end, const int64_t *bbox, const int64_t *ea, const int64_t *eb, const int64_t *ec,
              long W, long H, long s, int exact, long tiles_x, long ntiles, int64_t *offsets, int64_t *rows) {
    memset(offsets, 0, sizeof(int64_t) * (size_t)(ntiles + 1));
    for (int pass = 0; pass < 2; pass++) {
        for (long r = first; r < end; r++) {
            int64_t tx0, ty0, ntx, nty;
            tile_range(bbox + 4 * r, W, H, s, &tx0, &ty0, &ntx, &nty);
            for (int64_t ty = ty0; ty < ty0 + nty; ty++)
                for (int64_t tx = tx0; tx < tx0 + ntx; tx++) {
                    if (exact && !tile_hit(ea + 3 * r, eb + 3 * r, ec + 3 * r, tx, ty, W, H, s)) continue;
                    const int64_t tile = ty * tiles_x + tx;
                    if (pass == 0) offsets[tile + 1]++;
                    else rows[offsets[tile]++] = r;
                }
        }
        if (pass == 0)
            for (long t = 0; t < ntiles; t++) offsets[t + 1] += offsets[t];
    }
    /* pass 1 moved every offsets[t] to the end of tile t: shift back */
    for (long t = ntiles; t > 0; t--) offsets[t] = offsets[t - 1];
    offsets[0] = 0;
}

/* rasterize's step 2 for P pairs in triangle order: layer[p] = the pair's rank in
   its block (gy * grid_w + gx, 0 <= id < nblk; count: nblk zeroed int64), order =
   the stable order of (whole[p] ? 0 : nlayers) + layer[p]. Returns nlayers, or -1
   when a block id is out of range (nothing useful written). */
long block_layers(long P, const int64_t *gx, const int64_t *gy, long grid_w, long nblk, const uint8_t *whole,
                  int64_t *count, int64_t *layer, int64_t *order) {
    long nlayers = 0;
    for (long p = 0; p < P; p++) {
        const int64_t id = gy[p] * grid_w + gx[p];
        if (id < 0 || id >= nblk) return -1;
        const int64_t k = count[id]++;
        layer[p] = k;
        if (k + 1 > nlayers) nlayers = k + 1;
    }
    int64_t *start = calloc((size_t)(2 * nlayers + 1), sizeof(int64_t));
    if (!start) return -2;
    for (long p = 0; p < P; p++) start[(whole[p] ? 0 : nlayers) + layer[p] + 1]++;
    for (long k = 0; k < 2 * nlayers; k++) start[k + 1] += start[k];
    for (long p = 0; p < P; p++) order[start[(whole[p] ? 0 : nlayers) + layer[p]]++] = p;
    free(start);
    return nlayers;
}

static inline double f32_of(uint32_t bits) { float f; memcpy(&f, &bits, 4); return (double)f; }

/* The PPP's triangles when none needs cutting: vertex v's clip position is the
   float32 words words[v], words[stride + v], words[2 stride + v], words[3 stride + v];
   triangle t's corners are tris[3t..3t+2]. A triangle whose three corners are all
   outside one clip plane (clip_codes' planes, no user distances; a NaN distance is
   outside) is dropped, as clip_triangles drops it; every other triangle must have
   all its corners inside every plane. For each kept triangle, in order, writes
   kept[n] = t and win[n] (3, 4): x_px, y_px, z, 1/w as ppp._window computes them
   (viewport or not). Returns the number kept, or -1 when some kept triangle needs
   clipping or has a window x, y beyond +-maxc (the caller runs the general path). */
static inline int corner_code(const uint32_t *words, long stride, int64_t v, double g, int np, int zero_to_one,
                              double *xyzw) {
    const double x = f32_of(words[v]), y = f32_of(words[stride + v]);
    const double z = f32_of(words[2 * stride + v]), w = f32_of(words[3 * stride + v]);
    const double gw = g * w;
    const double d[6] = {gw + x, gw - x, gw + y, gw - y, zero_to_one ? z : z + w, w - z};
    int code = 0;
    for (int p = 0; p < np; p++)
        if (d[p] < 0 || d[p] != d[p]) code |= 1 << p;
    xyzw[0] = x; xyzw[1] = y; xyzw[2] = z; xyzw[3] = w;
    return code;
}

long window_triangles(long T, const uint32_t *words, long stride, long V, const int64_t *tris, double g, int clip_z,
                      int zero_to_one, int has_vp, double tx, double ty, double tz, double sx, double sy, double sz,
                      double maxc, double *win, int64_t *kept) {
    const int np = clip_z ? 6 : 4;
    long n = 0;
    for (long t = 0; t < T; t++) {
        double c[3][4];
        int all = ~0, any = 0;
        for (int k = 0; k < 3; k++) {
            const int64_t v = tris[3 * t + k];
            if (v < 0 || v >= V) return -1;
            const int code = corner_code(words, stride, v, g, np, zero_to_one, c[k]);
            all &= code;
            any |= code;
        }
        if (all) continue;                       /* wholly outside one plane: dropped */
        if (any) return -1;                      /* cut by some plane: the general path */
        double *o = win + 12 * n;
        for (int k = 0; k < 3; k++, o += 4) {
            const double inv_w = 1.0 / c[k][3];
            if (has_vp) {
                o[0] = tx + sx * c[k][0] * inv_w;
                o[1] = ty + sy * c[k][1] * inv_w;
                o[2] = tz + sz * c[k][2] * inv_w;
            } else {
                o[0] = c[k][0] * inv_w;
                o[1] = c[k][1] * inv_w;
                o[2] = c[k][2] * inv_w;
            }
            o[3] = inv_w;
            if (!(fabs(o[0]) < maxc) || !(fabs(o[1]) < maxc)) return -1;
        }
        kept[n++] = t;
    }
    return n;
}
""" % {"bits": SUBPIXEL_BITS}

KERNELS = Kernels(_SOURCE, _CDEF)

_I64, _F64 = "int64_t *", "double *"


def _c(a, dtype):
    return np.ascontiguousarray(a, dtype)


def clip_codes(pos: np.ndarray, clip_distance, guard_band_ndc: float, clip_z: bool,
               zero_to_one_depth: bool) -> np.ndarray | None:
    """``outcodes(vertex_distances(...))`` in C: (V,) int64, or None (numpy runs)."""
    if not KERNELS.usable():
        return None
    pos = _c(pos, np.float64).reshape(-1, 4)
    V = len(pos)
    cd = None if clip_distance is None else _c(clip_distance, np.float64).reshape(V, -1)
    D = 0 if cd is None else cd.shape[1]
    if D + (6 if clip_z else 4) > 62:
        return None
    code = np.empty(V, np.int64)
    p, ffi = KERNELS.ptr, KERNELS.ffi
    KERNELS.lib.clip_codes(V, p(pos, _F64), float(guard_band_ndc), int(bool(clip_z)), int(bool(zero_to_one_depth)),
                           D, ffi.NULL if cd is None else p(cd, _F64), p(code, _I64))
    return code


def setup_triangles_c(win: np.ndarray, front_ccw: bool, cull: int, always_front: bool):
    """The kept rows of ``setup_triangles`` in C: a dict of its arrays plus ``sel``
    (the kept input rows), or None when the kernel does not take the call (numpy
    runs, and raises on coordinates out of range)."""
    if not KERNELS.usable():
        return None
    win = _c(win, np.float64)
    T = len(win)
    out = {name: np.empty((T, 3), np.int64) for name in ("x_fx", "y_fx", "edge_a", "edge_b", "edge_c", "edge_bias")}
    out.update(sel=np.empty(T, np.int64), area2_fx=np.empty(T, np.int64), front_facing=np.empty(T, np.bool_),
               z=np.empty((T, 3)), inv_w=np.empty((T, 3)), dzdx=np.empty(T), dzdy=np.empty(T),
               bbox_px=np.empty((T, 4), np.int64), xy_px=np.empty((T, 3, 2)))
    p = KERNELS.ptr
    n = KERNELS.lib.setup_tris(T, p(win, _F64), float(MAX_WINDOW_COORD_PX), int(bool(front_ccw)), int(cull),
                               int(bool(always_front)), p(out["sel"], _I64),
                               *(p(out[k], _I64) for k in ("x_fx", "y_fx", "edge_a", "edge_b", "edge_c", "edge_bias",
                                                           "area2_fx")),
                               p(out["front_facing"], "uint8_t *"),
                               *(p(out[k], _F64) for k in ("z", "inv_w", "dzdx", "dzdy")),
                               p(out["bbox_px"], _I64), p(out["xy_px"], _F64))
    if n < 0:
        return None
    return {k: v[:n] for k, v in out.items()}


def planes(xw: np.ndarray, yw: np.ndarray, values: list, cfs: list, out: np.ndarray, *, verts=None,
           inv_w=None) -> bool:
    """``out[:, cf] = _plane(xw, yw, v)`` for every (v, cf) of ``values``/``cfs`` in
    one C pass (``out`` (T, n_cf, 3) float32, C-contiguous). A value is a (T, 3)
    array of corner values, or an object with ``values()`` giving them and
    ``word``, ``inv_w``: when ``word`` (the (V,) uint32 float32 bits of every vertex)
    is not None the pass reads the corners ``word[verts]`` itself, times ``inv_w``
    ((T, 3), the object's) unless that is None. False: nothing done."""
    if not KERNELS.usable() or not out.flags.c_contiguous or out.dtype != np.float32 or not values:
        return False
    T = out.shape[0]
    xw, yw = _c(xw, np.float64), _c(yw, np.float64)
    kinds, words, arrays = [], [], []
    keep = []
    for v in values:
        word = getattr(v, "word", None)
        if word is not None and verts is not None and word.dtype == np.uint32 and word.ndim == 1 \
                and (v.inv_w is None or v.inv_w is inv_w):
            word = _c(word, np.uint32)
            keep.append(word)
            kinds.append(1 if v.inv_w is None else 0)
            words.append(word)
        else:
            kinds.append(2)
            words.append(None)
            arrays.append(v.values() if hasattr(v, "values") else v)
    ffi, p = KERNELS.ffi, KERNELS.ptr
    vi = None
    if any(k != 2 for k in kinds):
        vi = _c(verts, np.int64)
        if vi.shape != (T, 3) or (T and (int(vi.min()) < 0 or int(vi.max()) >= min(len(w) for w in keep))):
            return False
        if any(k == 0 for k in kinds):
            inv_w = _c(inv_w, np.float64)
            if inv_w.shape != (T, 3):
                return False
    vals = np.empty((len(arrays), T, 3))
    for i, v in enumerate(arrays):
        vals[i] = v
    cf = np.asarray(cfs, np.int64)
    kind = np.asarray(kinds, np.int32)
    wptrs = ffi.new("const uint32_t *[]", [ffi.NULL if w is None else p(w, "uint32_t *") for w in words])
    KERNELS.lib.planes(T, p(xw, _F64), p(yw, _F64), len(values), p(kind, "int32_t *"), wptrs,
                       ffi.NULL if vi is None else p(vi, _I64),
                       ffi.NULL if not any(k == 0 for k in kinds) else p(inv_w, _F64), p(vals, _F64), p(cf, _I64),
                       out.shape[1], p(out, "float *"))
    del keep
    return True


def bin_triangles_c(setup, width_px: int, height_px: int, s: int, capacity_entries, first_row: int, exact: bool):
    """``bin_triangles``' (offsets, rows, rows_end, overflow) in C, or None."""
    if not KERNELS.usable():
        return None
    n = len(setup)
    bbox = _c(setup.bbox_px, np.int64)
    edges = [_c(e, np.int64) for e in (setup.edge_a, setup.edge_b, setup.edge_c)]
    tiles_x = (int(width_px) + s - 1) // s
    tiles_y = (int(height_px) + s - 1) // s
    p = KERNELS.ptr
    per_row = np.empty(max(n - first_row, 0), np.int64)
    args = (p(bbox, _I64), *(p(e, _I64) for e in edges), int(width_px), int(height_px), s, int(bool(exact)))
    total = KERNELS.lib.bin_count(first_row, n, *args, p(per_row, _I64))
    rows_end, overflow = n, False
    if capacity_entries is not None and total > capacity_entries:
        fits = max(int(np.searchsorted(np.cumsum(per_row), capacity_entries, side="right")), 1)
        rows_end = first_row + fits
        overflow = rows_end < n
        total = int(per_row[:fits].sum())
    offsets = np.empty(tiles_x * tiles_y + 1, np.int64)
    rows = np.empty(total, np.int64)
    KERNELS.lib.bin_fill(first_row, rows_end, *args, tiles_x, tiles_x * tiles_y, p(offsets, _I64), p(rows, _I64))
    return offsets, rows, rows_end, overflow


def block_layers(gx: np.ndarray, gy: np.ndarray, grid_w: int, nblk: int, whole: np.ndarray):
    """(layer, nlayers, order) of ``rasterize``'s step 2 in C, or None."""
    if not KERNELS.usable():
        return None
    P = len(gx)
    gx, gy = _c(gx, np.int64), _c(gy, np.int64)
    whole = _c(whole, np.bool_)
    count = np.zeros(max(nblk, 1), np.int64)
    layer = np.empty(P, np.int64)
    order = np.empty(P, np.int64)
    p = KERNELS.ptr
    nl = KERNELS.lib.block_layers(P, p(gx, _I64), p(gy, _I64), grid_w, nblk, p(whole, "uint8_t *"), p(count, _I64),
                                  p(layer, _I64), p(order, _I64))
    if nl < 0:
        return None
    return layer, int(nl), order


def window_triangles(words: np.ndarray, tris: np.ndarray, vp, guard_band_ndc: float, clip_z: bool,
                     zero_to_one_depth: bool, max_coord: float) -> tuple[np.ndarray, np.ndarray] | None:
    """(kept (N,) int64, window corners (N, 3, 4) float64) of triangles ``tris`` (T, 3)
    whose vertex positions are the float32 bits ``words`` (4, V) uint32, when no
    triangle needs cutting: each is either wholly outside one clip plane (guard band
    and z planes; dropped, not in ``kept``) or has every corner inside every plane and
    within +-``max_coord`` px. None otherwise (or when the kernel does not take the
    call): the general path runs. ``vp``: the viewport record (translate_*, scale_*)
    or None."""
    if not KERNELS.usable() or words.dtype != np.uint32 or words.ndim != 2 or words.shape[0] < 4 \
            or words.strides[1] != 4 or words.strides[0] % 4:
        return None
    tris = _c(tris, np.int64)
    T, V = len(tris), words.shape[1]
    win = np.empty((T, 3, 4))
    kept = np.empty(T, np.int64)
    t = (0.0,) * 6 if vp is None else (vp.translate_x, vp.translate_y, vp.translate_z, vp.scale_x, vp.scale_y,
                                       vp.scale_z)
    p = KERNELS.ptr
    n = KERNELS.lib.window_triangles(T, p(words, "uint32_t *"), words.strides[0] // 4, V, p(tris, _I64),
                                     float(guard_band_ndc), int(bool(clip_z)), int(bool(zero_to_one_depth)),
                                     int(vp is not None), *(float(v) for v in t), float(max_coord), p(win, _F64),
                                     p(kept, _I64))
    if n < 0:
        return None
    return (kept, win) if n == T else (kept[:n], win[:n])
