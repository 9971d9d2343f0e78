"""The tile copies of ``regions`` in C, as text: layout compiles nothing and
imports nothing of ours, so a caller that builds C (the driver, through
``uapi.native_kernels``) compiles ``SOURCE`` with ``CDEF`` and passes the built
kernels to ``detile(..., native=...)``. The numpy copies of ``addressing`` are
the specification: the C moves exactly the bytes they move (tests compare both).

What the C knows is no tiling: it copies whole tiles stored back to back in
row-major tile order whose elements all follow one order made of 4 x 4 element
blocks, each block's rows two horizontal pairs of adjacent elements. The order
itself comes from ``addressing`` (the Morton order of the layout), as two small
tables: each block's first element in the tile and, within a block, each pair's
first element. A twiddled tile of 4 x 4 elements or more is of that form (x's
bit 0 is the Morton order's bit 0, and the low four bits are x0 y0 x1 y1).
"""

from __future__ import annotations

import numpy as np

__all__ = ["SOURCE", "CDEF", "block_tables", "copy_tiles"]

CDEF = """
void shimgl_layout_copy_tiles(int to_linear, int64_t el_B, uint8_t *tiled, uint8_t *linear,
                              int64_t tiles_down, int64_t tiles_across, int64_t tile_h_el, int64_t tile_w_el,
                              int64_t tiles_a_row, const int32_t *block_el, const int32_t *pair_el,
                              int64_t linear_row_B);
"""

SOURCE = r"""
#include <stdint.h>
#include <string.h>

/* Copy between whole tiles in row-major tile order, tiles_a_row (rs) tiles from one
   row of tiles to the next, and a linear image of linear_row_B bytes a row. Within a
   tile, the 4x4 block (bx, by) has its lowest element at block_el[by * (tile_w / 4) +
   bx]; row r of a block is the pair of elements pair_el[2r] elements after it
   (columns 0, 1) and the pair pair_el[2r + 1] after it (columns 2, 3). E (element
   bytes) is a constant in each instance. */
/* MOVE(linear place, tiled place): one pair of elements, in the instance's direction */
#define TO_LINEAR_MOVE(l, t) memcpy((l), (t), 2 * E)
#define TO_TILED_MOVE(l, t) memcpy((t), (l), 2 * E)
#define COPY_TILES(NAME, E_EXPR, MOVE, PAIRS)                                      \
static void NAME(int64_t el_B, uint8_t *tiled, uint8_t *linear,                           \
                 int64_t ny, int64_t nx, int64_t th, int64_t tw, int64_t rs,             \
                 const int32_t *block_el, const int32_t *pair_el, int64_t row_B) {        \
    const int64_t E = (E_EXPR), tile_B = th * tw * E, bw = tw / 4, bh = th / 4;           \
    PAIRS                                                                                 \
    for (int64_t ty = 0; ty < ny; ty++)                                                   \
        for (int64_t by = 0; by < bh; by++) {                                             \
            uint8_t *lrow = linear + (ty * th + by * 4) * row_B;                          \
            const int32_t *blocks = block_el + by * bw;                                   \
            for (int64_t tx = 0; tx < nx; tx++) {                                         \
                uint8_t *tile = tiled + (ty * rs + tx) * tile_B;                          \
                uint8_t *l = lrow + tx * tw * E;                                          \
                for (int64_t bx = 0; bx < bw; bx++, l += 4 * E) {                         \
                    uint8_t *b = tile + (int64_t)blocks[bx] * E;                          \
                    MOVE(l, b + p0); MOVE(l + 2 * E, b + p1);                             \
                    MOVE(l + row_B, b + p2); MOVE(l + row_B + 2 * E, b + p3);             \
                    MOVE(l + 2 * row_B, b + p4); MOVE(l + 2 * row_B + 2 * E, b + p5);     \
                    MOVE(l + 3 * row_B, b + p6); MOVE(l + 3 * row_B + 2 * E, b + p7);     \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
}

/* the pairs' offsets from pair_el (in locals: stores through uint8_t * may alias any
   memory), or the constants of the twiddled order's 4x4 block (x0 y0 x1 y1: rows
   {0,1,4,5}, {2,3,6,7}, {8,9,12,13}, {10,11,14,15}), used only when pair_el holds
   exactly them (constant offsets copy a third faster) */
#define PAIRS_GIVEN                                                                       \
    const int64_t p0 = pair_el[0] * E, p1 = pair_el[1] * E, p2 = pair_el[2] * E,          \
                  p3 = pair_el[3] * E, p4 = pair_el[4] * E, p5 = pair_el[5] * E,          \
                  p6 = pair_el[6] * E, p7 = pair_el[7] * E;
#define PAIRS_MORTON                                                                      \
    const int64_t p0 = 0, p1 = 4 * E, p2 = 2 * E, p3 = 6 * E, p4 = 8 * E, p5 = 12 * E,   \
                  p6 = 10 * E, p7 = 14 * E;
static const int32_t MORTON_PAIRS[8] = {0, 4, 2, 6, 8, 12, 10, 14};

#define BOTH(E_NAME, E_EXPR)                                                              \
    COPY_TILES(detile_##E_NAME, E_EXPR, TO_LINEAR_MOVE, PAIRS_GIVEN)                      \
    COPY_TILES(tile_##E_NAME, E_EXPR, TO_TILED_MOVE, PAIRS_GIVEN)                         \
    COPY_TILES(detile_morton_##E_NAME, E_EXPR, TO_LINEAR_MOVE, PAIRS_MORTON)              \
    COPY_TILES(tile_morton_##E_NAME, E_EXPR, TO_TILED_MOVE, PAIRS_MORTON)
BOTH(1, 1)
BOTH(2, 2)
BOTH(4, 4)
BOTH(8, 8)
BOTH(16, 16)
BOTH(any, el_B)

#if defined(__SSE2__)
#include <emmintrin.h>
/* 4-byte elements in the twiddled order, 16 bytes at a time: a 4x4 block is four
   2x2 quads of 16 bytes (PAIRS_MORTON), so rows 0 and 1 of the block are the low and
   the high halves of quads 0 and 1, rows 2 and 3 those of quads 2 and 3. The same
   bytes as detile_morton_4 / tile_morton_4 in half the moves. */
static void copy_morton_4_sse2(int to_linear, uint8_t *tiled, uint8_t *linear, int64_t ny, int64_t nx,
                               int64_t th, int64_t tw, int64_t rs, const int32_t *block_el, int64_t row_B) {
    const int64_t tile_B = th * tw * 4, bw = tw / 4, bh = th / 4;
    for (int64_t ty = 0; ty < ny; ty++)
        for (int64_t by = 0; by < bh; by++) {
            uint8_t *lrow = linear + (ty * th + by * 4) * row_B;
            const int32_t *blocks = block_el + by * bw;
            for (int64_t tx = 0; tx < nx; tx++) {
                uint8_t *tile = tiled + (ty * rs + tx) * tile_B;
                uint8_t *l = lrow + tx * tw * 4;
                for (int64_t bx = 0; bx < bw; bx++, l += 16) {
                    uint8_t *b = tile + (int64_t)blocks[bx] * 4;
                    if (to_linear) {
                        __m128i q0 = _mm_loadu_si128((const __m128i *)b);
                        __m128i q1 = _mm_loadu_si128((const __m128i *)(b + 16));
                        __m128i q2 = _mm_loadu_si128((const __m128i *)(b + 32));
                        __m128i q3 = _mm_loadu_si128((const __m128i *)(b + 48));
                        _mm_storeu_si128((__m128i *)l, _mm_unpacklo_epi64(q0, q1));
                        _mm_storeu_si128((__m128i *)(l + row_B), _mm_unpackhi_epi64(q0, q1));
                        _mm_storeu_si128((__m128i *)(l + 2 * row_B), _mm_unpacklo_epi64(q2, q3));
                        _mm_storeu_si128((__m128i *)(l + 3 * row_B), _mm_unpackhi_epi64(q2, q3));
                    } else {
                        __m128i r0 = _mm_loadu_si128((const __m128i *)l);
                        __m128i r1 = _mm_loadu_si128((const __m128i *)(l + row_B));
                        __m128i r2 = _mm_loadu_si128((const __m128i *)(l + 2 * row_B));
                        __m128i r3 = _mm_loadu_si128((const __m128i *)(l + 3 * row_B));
                        _mm_storeu_si128((__m128i *)b, _mm_unpacklo_epi64(r0, r1));
                        _mm_storeu_si128((__m128i *)(b + 16), _mm_unpackhi_epi64(r0, r1));
                        _mm_storeu_si128((__m128i *)(b + 32), _mm_unpacklo_epi64(r2, r3));
                        _mm_storeu_si128((__m128i *)(b + 48), _mm_unpackhi_epi64(r2, r3));
                    }
                }
            }
        }
}
#endif

void shimgl_layout_copy_tiles(int to_linear, int64_t el_B, uint8_t *tiled, uint8_t *linear,
                              int64_t ny, int64_t nx, int64_t th, int64_t tw, int64_t rs,
                              const int32_t *block_el, const int32_t *pair_el, int64_t row_B) {
    const int morton = !memcmp(pair_el, MORTON_PAIRS, sizeof MORTON_PAIRS);
#if defined(__SSE2__)
    if (morton && el_B == 4) {
        copy_morton_4_sse2(to_linear, tiled, linear, ny, nx, th, tw, rs, block_el, row_B);
        return;
    }
#endif
#define CASE(E_NAME)                                                                                          \
    if (morton) {                                                                                             \
        if (to_linear) detile_morton_##E_NAME(el_B, tiled, linear, ny, nx, th, tw, rs, block_el, pair_el, row_B); \
        else tile_morton_##E_NAME(el_B, tiled, linear, ny, nx, th, tw, rs, block_el, pair_el, row_B);             \
    } else if (to_linear) detile_##E_NAME(el_B, tiled, linear, ny, nx, th, tw, rs, block_el, pair_el, row_B);     \
    else tile_##E_NAME(el_B, tiled, linear, ny, nx, th, tw, rs, block_el, pair_el, row_B)
    switch (el_B) {
    case 1: CASE(1); break;
    case 2: CASE(2); break;
    case 4: CASE(4); break;
    case 8: CASE(8); break;
    case 16: CASE(16); break;
    default: CASE(any); break;
    }
}
"""


def block_tables(order: np.ndarray, tile_h_el: int, tile_w_el: int):
    """For a tile order (element index within the tile of each element, row-major
    (h, w)): (block_el, pair_el) as ``SOURCE`` reads them (int32: each block's
    lowest element; each pair's first element after it), when the order is made of
    4 x 4 blocks of one inner order whose rows are two horizontal pairs; else None."""
    if tile_h_el % 4 or tile_w_el % 4:
        return None
    blocks = np.asarray(order).reshape(tile_h_el // 4, 4, tile_w_el // 4, 4)
    first = blocks.min(axis=(1, 3))                 # each block's lowest element
    inner = blocks - first[:, None, :, None]
    shape = inner[0, :, 0, :]
    if not (inner == shape[None, :, None, :]).all():
        return None
    if not ((shape[:, 1] == shape[:, 0] + 1).all() and (shape[:, 3] == shape[:, 2] + 1).all()):
        return None
    block_el = np.ascontiguousarray(first.reshape(-1), dtype=np.int32)
    pair_el = np.ascontiguousarray(shape[:, 0::2].reshape(-1), dtype=np.int32)
    block_el.flags.writeable = False
    pair_el.flags.writeable = False
    return block_el, pair_el


def copy_tiles(native, to_linear: bool, el_B: int, tiled: np.ndarray, linear: np.ndarray,
               tiles: tuple[int, int, int, int], tables) -> None:
    """Run the C copy through ``native`` (an object with ``ffi`` and ``lib`` of
    ``SOURCE``): ``tiled`` starts at the first tile, ``linear`` is C-contiguous
    (tiles down * tile h, tiles across * tile w, el_B) uint8; ``tiles`` is
    (tiles down, tiles across, tile h, tile w, tiles from one row of tiles to the
    next). The caller checked both fit."""
    ny, nx, th, tw, row_tiles = tiles
    block_el, pair_el = tables
    ffi = native.ffi
    native.lib.shimgl_layout_copy_tiles(
        1 if to_linear else 0, el_B, ffi.from_buffer("uint8_t[]", tiled), ffi.from_buffer("uint8_t[]", linear),
        ny, nx, th, tw, row_tiles, ffi.from_buffer("int32_t[]", block_el), ffi.from_buffer("int32_t[]", pair_el),
        nx * tw * el_B)
