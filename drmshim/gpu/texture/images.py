"""Image load, store and atomics (GL image units) through texture descriptors.

Sole responsibility: unfiltered, unswizzled access to one level of an image
described by a ``TEXTURE`` descriptor (the view's ``first_level``), with exact
sequential semantics for duplicate texels: lanes act in lane order, so a store to
a texel written by several lanes keeps the highest lane's value, and an atomic
returns to each lane the value left by the lanes before it. Vectorised: lanes are
sorted by texel and each run of duplicates is resolved with segmented scans (or,
for compare-exchange and float add, one numpy step per duplicate rank).

Out-of-range coordinates: loads read 0, stores and atomics are dropped (and
atomics return 0), as robust buffer access would.
"""

from __future__ import annotations

import numpy as np

import layout

from .descriptors import UNIT, TextureView
from .texels import columns
from .sampling import load_view

__all__ = ["image_load_view", "image_store_view", "image_atomic_view", "ATOMIC_OPS"]

#: The ISA's atomic ops (uapi.isa) plus long names; min/max compare as the format's type.
ATOMIC_OPS = ("add", "sub", "xchg", "cmpxchg", "umin", "umax", "smin", "smax", "min", "max", "and", "or", "xor",
              "exchange", "compare_exchange")
_ALIASES = {"xchg": "exchange", "cmpxchg": "compare_exchange"}


def _bits(values, n: int) -> np.ndarray:
    """Per-lane 32-bit patterns (int64 holding uint32) of atomic operands: uint32 input
    is raw register bits; float32 and int32 input are viewed as their bits; other
    integers are taken modulo 2^32."""
    v = np.broadcast_to(np.asarray(values), (n,))
    if v.dtype in (np.float32, np.int32, np.uint32):
        return v.view(np.uint32).astype(np.int64)
    if v.dtype.kind == "f":
        return v.astype(np.float32).view(np.uint32).astype(np.int64)
    return v.astype(np.int64) & 0xFFFFFFFF


def image_load_view(mem, view: TextureView, coords, sample=None) -> np.ndarray:
    return load_view(mem, view, coords, 0, sample, swizzle=False)


def _texel_addresses(mem, view: TextureView, coords, sample=None):
    """Byte addresses of each lane's texel, and the in-range mask."""
    coords = np.asarray(coords, np.int64)
    if coords.ndim == 1:
        coords = coords[:, None]
    n = coords.shape[0]
    nd = view.spatial_dims
    level = np.full(n, view.first_level, np.int64)
    w, h = view.level_width_px(level), view.level_height_px(level)
    x = coords[:, 0]
    y = coords[:, 1] if nd >= 2 and coords.shape[1] > 1 else np.zeros(n, np.int64)
    ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    layer = np.zeros(n, np.int64)
    if nd == 3 or view.is_array or view.is_cube:
        li = 2 if nd == 3 else nd
        layer = coords[:, li] if coords.shape[1] > li else layer
        ok &= (layer >= 0) & (layer < (view.depth_px[level] if nd == 3 else view.layers))
    s = np.zeros(n, np.int64) if sample is None else np.broadcast_to(np.asarray(sample, np.int64), (n,))
    ok &= (s >= 0) & (s < view.lay.sample_count_sa)
    if view.fmt.is_compressed or view.lay.tiling == "twiddled_compressed":
        raise ValueError("images cannot be block-compressed or use compressed layouts")
    col = columns(view, np.where(ok, x, 0), np.where(ok, y, 0), np.where(ok, layer, 0), level, np.where(ok, s, 0))
    return (view.address + col * view.unit_B).astype(np.uint64), ok


def _scatter_raw(mem, vas: np.ndarray, raw: np.ndarray) -> None:
    """Store uint8 (m, B) elements; the memory's scatter keeps the last duplicate."""
    bpb = raw.shape[1]
    for word_B, dt in ((8, np.uint64), (4, np.uint32), (2, np.uint16), (1, np.uint8)):
        if bpb % word_B == 0 and np.all(vas % np.uint64(word_B) == 0):
            k = bpb // word_B
            addrs = (vas[:, None] + np.arange(k, dtype=np.uint64) * np.uint64(word_B)).reshape(-1)
            mem.scatter(addrs, np.ascontiguousarray(raw).view(dt).reshape(-1), UNIT)
            return


def image_store_view(mem, view: TextureView, coords, values, sample=None) -> None:
    """``values`` (n, 4): uint32 arrays are raw register bits (floats for float and
    normalised formats, two's complement for SINT); other dtypes are taken as values."""
    if view.fmt.is_compressed:
        raise ValueError(f"{view.fmt.name}: images cannot be block-compressed")
    vas, ok = _texel_addresses(mem, view, coords, sample)
    if not np.any(ok):
        return
    values = np.asarray(values)
    if values.dtype == np.uint32:
        values = values.view(layout.unpack_dtype(view.fmt))
    raw = layout.pack(view.fmt, values[ok])
    _scatter_raw(mem, vas[ok], raw)


def _segments(keys: np.ndarray):
    """Stable sort by key; returns order, sorted keys, segment start flags, rank in segment."""
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    start = np.ones(sk.size, bool)
    start[1:] = sk[1:] != sk[:-1]
    seg_first = np.maximum.accumulate(np.where(start, np.arange(sk.size), 0))
    rank = np.arange(sk.size) - seg_first
    return order, sk, start, seg_first, rank


def _exclusive_scan(op: str, init: np.ndarray, v: np.ndarray, start, seg_first, bits: int, signed: bool):
    """Old value each element sees: init of its segment combined with the earlier
    elements of the segment (all int64 holding ``bits``-bit values)."""
    n = v.size
    mask = (1 << bits) - 1
    if op == "exchange":
        prev = np.empty(n, np.int64)
        prev[1:] = v[:-1]
        return np.where(start, init, prev)
    if op in ("add", "xor"):
        if op == "add":
            incl = np.cumsum(v)
            before = incl - v - (incl - v)[seg_first]
            return (init + before) & mask
        incl = np.bitwise_xor.accumulate(v)
        excl = incl ^ v
        return init ^ excl ^ excl[seg_first]
    if op in ("min", "max"):
        # Segment-local running extreme: shift each segment above all earlier ones.
        key = v if op == "max" else -v
        seg = np.cumsum(start) - 1
        big = np.int64(1) << 40
        shifted = seg * big + (key + (1 << 33))
        run = np.maximum.accumulate(shifted)
        excl = np.empty(n, np.int64)
        excl[1:] = run[:-1]
        has_prev = ~start
        prev_ext = np.where(has_prev, excl - seg * big - (1 << 33), 0)
        prev_ext = prev_ext if op == "max" else -prev_ext
        best = np.where(has_prev, (np.maximum if op == "max" else np.minimum)(init, prev_ext), init)
        return best
    if op in ("and", "or"):
        out = np.zeros(n, np.int64)
        idx = np.arange(n)
        for b in range(bits):
            bit = (v >> b) & 1
            want = 1 if op == "or" else 0
            hit = np.where(bit == want, idx, -1)
            last = np.empty(n, np.int64)
            last[0] = -1
            last[1:] = np.maximum.accumulate(hit)[:-1]
            seen = last >= seg_first
            ib = (init >> b) & 1
            ob = np.where(seen, want, ib)
            out |= ob << b
        return out
    raise ValueError(f"unknown atomic op {op!r}")


def image_atomic_view(mem, view: TextureView, coords, op: str, values, compare=None, sample=None) -> np.ndarray:
    """Apply ``op`` lane by lane (in lane order) to 32-bit texels; returns each lane's
    old value as uint32 bits (0 for out-of-range lanes)."""
    if op not in ATOMIC_OPS:
        raise ValueError(f"unknown atomic op {op!r} (one of {ATOMIC_OPS})")
    fmt = view.fmt
    if fmt.block_size_B != 4 or len([c for c in fmt.channels if c.type != "X"]) != 1:
        raise ValueError(f"{fmt.name}: image atomics need a single 32-bit channel format (R32_UINT/SINT/FLOAT)")
    ctype = fmt.channels[0].type
    is_float = ctype == "FLOAT"
    op = _ALIASES.get(op, op)
    signed = op in ("smin", "smax") or (op in ("min", "max") and ctype == "SINT")
    op = {"umin": "min", "smin": "min", "umax": "max", "smax": "max"}.get(op, op)
    if is_float and op not in ("exchange", "compare_exchange", "add", "sub"):
        raise ValueError(f"{op} is not defined on float images")
    vas, ok = _texel_addresses(mem, view, coords, sample)
    n = vas.size
    old_out = np.zeros(n, np.uint32)
    lanes = np.nonzero(ok)[0]
    if lanes.size == 0:
        return old_out
    vals = np.asarray(values)
    vals = vals.reshape(n, -1)[:, 0] if vals.ndim > 1 else vals
    bits_all = _bits(vals, n)
    if op == "sub":  # subtracting is adding the negation (two's complement, or -x for floats)
        bits_all = bits_all ^ 0x80000000 if is_float else (-bits_all) & 0xFFFFFFFF
        op = "add"
    bits_in = bits_all[lanes]
    order, sk, start, seg_first, rank = _segments(vas[lanes].astype(np.int64))
    v = bits_in[order]
    seg_vas = sk[start].astype(np.uint64)
    init_u = np.asarray(mem.gather(seg_vas, np.uint32, UNIT), np.uint32).astype(np.int64)
    seg_id = np.cumsum(start) - 1
    init = init_u[seg_id]
    if op == "compare_exchange" or (is_float and op == "add"):
        cmp_bits = None
        if op == "compare_exchange":
            cmp_bits = _bits(np.asarray(compare).reshape(-1) if np.ndim(compare) else compare, n)
            cmp_bits = cmp_bits[lanes][order]
        old, final = _by_rank(op, init_u, v, seg_id, rank, cmp_bits)
    else:
        if signed and op in ("min", "max"):  # compare as signed, store the bit patterns
            v = np.where(v >= 1 << 31, v - (1 << 32), v)
            init = np.where(init >= 1 << 31, init - (1 << 32), init)
        old = _exclusive_scan(op, init, v, start, seg_first, 32, signed)
        last = np.append(np.nonzero(start)[0][1:], sk.size) - 1
        final = _apply(op, old[last], v[last]) & 0xFFFFFFFF
        old = old & 0xFFFFFFFF
    mem.scatter(seg_vas, final.astype(np.uint32), UNIT)
    res = np.empty(lanes.size, np.uint32)
    res[order] = old.astype(np.uint32)
    old_out[lanes] = res
    return old_out


def _apply(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One step of op on 32-bit patterns held in int64 (unsigned view)."""
    m = 0xFFFFFFFF
    if op == "add":
        return (a + b) & m
    if op == "xor":
        return a ^ b
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "exchange":
        return b
    if op == "min":
        return np.minimum(a, b)
    if op == "max":
        return np.maximum(a, b)
    raise AssertionError(op)


def _by_rank(op, init_u, v, seg_id, rank, cmp_bits):
    """Sequential ops resolved one duplicate rank at a time (vectorised over texels)."""
    cur = init_u.copy()
    old = np.zeros(v.size, np.int64)
    for r in range(int(rank.max()) + 1):
        sel = rank == r
        s = seg_id[sel]
        old[sel] = cur[s]
        if op == "compare_exchange":
            cur[s] = np.where(cur[s] == cmp_bits[sel], v[sel], cur[s])
        else:  # float add
            a = cur[s].astype(np.uint32).view(np.float32)
            b = v[sel].astype(np.uint32).view(np.float32)
            cur[s] = (a + b).astype(np.float32).view(np.uint32).astype(np.int64)
    return old, cur
