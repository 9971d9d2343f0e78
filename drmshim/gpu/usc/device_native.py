"""Device loads and stores of 32-bit words in C, through a memory window.

The numpy step of ``device_load``/``device_store`` (``mem.py``: addresses, then the
memory's ``gather``/``scatter``) is the specification. For the usual buffer access
(a uniform 64-bit base, a 32-bit register index shifted, ``i32`` words into or from
32-bit registers), this module computes the active lanes' addresses in C, asks the
memory for one window covering all of them (``GPUMemory.window``: a view of the
bytes when every byte may be accessed so, one contiguous mapping), and copies the
words between the window and the register rows in lane order, so duplicate store
addresses end with the last lane's value, as ``scatter`` does. When the memory has
no window for the range (unmapped, read-only, split mappings) or the kernel is not
built, the numpy step runs and faults exactly as before: the window exists only
when no access of the lanes can fault.

Used unless ``SHIMGL_DEBUG=interp`` (the specification only) or ``ENABLED`` is off
(tests compare both); calls under ``MIN_LANES`` stay in numpy.
"""

from __future__ import annotations

import numpy as np

from uapi.native_kernels import Kernels

__all__ = ["move_words", "ENABLED", "MIN_LANES"]

#: Tests switch the kernels off to compare with the numpy step.
ENABLED = True
#: Fewer active lanes stay in numpy (no compile for small test programs).
MIN_LANES = 1 << 12

_CDEF = """
long device_range(long n, const int32_t *index, const uint8_t *mask, int32_t *lohi);
void device_load(long n, const int32_t *index, const uint8_t *mask, int shift, uint64_t base, const uint8_t *win,
                 uint64_t win_va, int k, uint32_t *dst, long stride);
void device_store(long n, const int32_t *index, const uint8_t *mask, int shift, uint64_t base, uint8_t *win,
                  uint64_t win_va, int k, const uint32_t *src, long stride);
"""

_SOURCE = r"""
#include <stdint.h>
#include <string.h>

/* shimgl shader core: device loads/stores of words through a window
   (see drmshim/gpu/usc/device_native.py). A lane's address is
   base + (sign-extended index << shift), modulo 2^64, as the numpy step computes it. */

#define ADDR(i) (((uint64_t)(int64_t)index[i] << shift) + base)

/* The lowest and highest index of the lanes in mask (NULL: every lane); returns how
   many lanes there are. */
long device_range(long n, const int32_t *index, const uint8_t *mask, int32_t *lohi) {
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    long count = 0;
    if (!mask) {
        for (long i = 0; i < n; i++) {
            lo = index[i] < lo ? index[i] : lo;
            hi = index[i] > hi ? index[i] : hi;
        }
        count = n;
    } else {
        for (long i = 0; i < n; i++) {
            int32_t on = -(int32_t)(mask[i] != 0);
            int32_t l = (index[i] & on) | (INT32_MAX & ~on), h = (index[i] & on) | (INT32_MIN & ~on);
            lo = l < lo ? l : lo;
            hi = h > hi ? h : hi;
            count += mask[i] != 0;
        }
    }
    lohi[0] = lo;
    lohi[1] = hi;
    return count;
}

/* k words at each lane's address (every one inside the window) into register rows
   dst[c * stride + lane] */
void device_load(long n, const int32_t *index, const uint8_t *mask, int shift, uint64_t base, const uint8_t *win,
                 uint64_t win_va, int k, uint32_t *dst, long stride) {
    if (k == 1 && !mask) {
        for (long i = 0; i < n; i++) memcpy(&dst[i], win + (ADDR(i) - win_va), 4);
        return;
    }
    for (long i = 0; i < n; i++) {
        if (mask && !mask[i]) continue;
        const uint8_t *p = win + (ADDR(i) - win_va);
        for (int c = 0; c < k; c++) memcpy(&dst[c * stride + i], p + 4 * c, 4);
    }
}

/* the words of register rows src[c * stride + lane] to each lane's address, lane by
   lane (a later lane's word replaces an earlier one's) */
void device_store(long n, const int32_t *index, const uint8_t *mask, int shift, uint64_t base, uint8_t *win,
                  uint64_t win_va, int k, const uint32_t *src, long stride) {
    for (long i = 0; i < n; i++) {
        if (mask && !mask[i]) continue;
        uint8_t *p = win + (ADDR(i) - win_va);
        for (int c = 0; c < k; c++) memcpy(p + 4 * c, &src[c * stride + i], 4);
    }
}
"""

_KERNELS = Kernels(_SOURCE, _CDEF)


def _window(memory, index: np.ndarray, mask, shift: int, base: int, k: int, is_read: bool):
    """(mask pointer, window, its first address) covering every active lane's k
    words, or None (no window: the numpy step)."""
    window_of = getattr(memory, "window", None)
    if window_of is None or not ENABLED or index.size < MIN_LANES or not _KERNELS.usable():
        return None
    ffi, p = _KERNELS.ffi, _KERNELS.ptr
    mask_p = ffi.NULL if mask is None else ffi.cast("uint8_t *", mask.ctypes.data)
    lohi = np.empty(2, np.int32)
    count = _KERNELS.lib.device_range(index.size, p(index, "int32_t *"), mask_p, p(lohi, "int32_t *"))
    if count < MIN_LANES:
        return None
    # an address grows with the index; a range that would wrap around 2^64 takes numpy
    lo, hi = base + (int(lohi[0]) << shift), base + (int(lohi[1]) << shift) + 4 * k
    if lo < 0 or hi > 1 << 64:
        return None
    win = window_of(lo, hi - lo, is_read)
    if win is None:
        return None
    return mask_p, win, lo


def move_words(memory, index: np.ndarray, mask, shift: int, base: int, rows: np.ndarray, is_read: bool) -> bool:
    """Load (``is_read``) or store ``rows.shape[0]`` words at base + (index << shift)
    + 4c to or from ``rows`` (uint32 register rows [c, lane], rows of one stride) for
    the lanes of ``mask`` (bool per lane, or None: every lane), stores lane by lane.
    False, having touched nothing, when there is no window (the caller runs the
    numpy step)."""
    k = rows.shape[0]
    got = _window(memory, index, mask, shift, base, k, is_read)
    if got is None:
        return False
    mask_p, win, lo = got
    p = _KERNELS.ptr
    move = _KERNELS.lib.device_load if is_read else _KERNELS.lib.device_store
    move(index.size, p(index, "int32_t *"), mask_p, shift, base, p(win, "uint8_t *"), lo, k, p(rows, "uint32_t *"),
         rows.strides[0] // 4)
    return True
