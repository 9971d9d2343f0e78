"""Memory units: device, threadgroup (local) and stack loads/stores, and atomics
with exact sequential semantics.

Device and stack accesses go through the context's ``GPUMemory`` (a bad address
is a ``GPUFault`` with unit "USC"); threadgroup memory is on-chip, a numpy byte
array per batch behind the same gather/scatter interface (:class:`LocalMemory`).

Atomics: the lanes that perform an atomic in one instruction are applied in
increasing lane order. Each lane receives the value memory held just before its
own operation (so lanes on one address see distinct old values, exactly as if
executed one after another), computed with sorting and segmented scans, never a
loop per lane (see :func:`sequential_atomic`).
"""

from __future__ import annotations

import numpy as np

from drmshim.memory import FaultInfo, GPUFault
from uapi.isa import Instruction, Reg
from uapi.isa.semantics import (CANONICAL_NAN, COMPARE_ATOMIC_OPS, FORMAT_ELEMENT_B, INTEGER_FORMATS,
                                PACKED_FORMATS, pack_format, unpack_format)

from . import device_native
from .state import raw_reader, to_bits

__all__ = ["COMPILERS", "ByteMemory", "sequential_atomic", "read_vec", "write_vec", "load_values", "store_values",
           "device_word_form"]

UNIT = "USC"
_ELEM_T = {1: np.uint8, 2: np.uint16, 4: np.uint32}


class ByteMemory:
    """On-chip memory (threadgroup memory, the tile buffer) as a numpy byte array
    with the gather/scatter interface of ``GPUMemory``, addressed by flat byte
    offset. Out-of-range accesses fault like device memory."""

    def __init__(self, array: np.ndarray):
        assert array.dtype == np.uint8 and array.flags.c_contiguous, "a contiguous uint8 array"
        self.bytes = array.reshape(-1)

    def _check(self, offs, itemsize, is_read) -> np.ndarray:
        offs = np.asarray(offs, np.int64)
        bad = (offs < 0) | (offs + itemsize > self.bytes.size)
        if bad.any():
            raise GPUFault(FaultInfo(int(offs[bad][0]), "USC(local)", is_read))
        return offs

    def word_index(self, offs, size: int) -> np.ndarray | None:
        """Indices of ``size``-byte words (2, 4 or 8) at byte offsets ``offs`` when
        every one is aligned and in range, else None (then the byte path runs and
        faults as usual). Words move ``size`` times fewer elements than bytes: the
        fast path of ld_tile/st_tile, whose pixels are 4 or 8 aligned bytes."""
        if size not in (2, 4, 8) or self.bytes.size % size:
            return None
        offs = np.asarray(offs, np.int64)
        if offs.size and (offs.view(np.uint64) > np.uint64(self.bytes.size - size)).any():
            return None                                     # negative offsets wrap above the end
        if (offs & (size - 1)).any():
            return None
        return offs >> (size.bit_length() - 1)

    def gather(self, offs, dtype, unit=UNIT):
        dtype = np.dtype(dtype)
        words = self.word_index(offs, dtype.itemsize)
        if words is not None:
            return self.bytes.view(dtype).take(words)
        idx = self._check(offs, dtype.itemsize, True)[..., None] + np.arange(dtype.itemsize)
        return self.bytes[idx].view(dtype).reshape(np.shape(offs))

    def scatter(self, offs, values, unit=UNIT):
        values = np.ascontiguousarray(values)
        size = values.dtype.itemsize
        words = self.word_index(offs, size)
        if words is not None:
            self.bytes.view(values.dtype)[words] = values.reshape(np.shape(words))
            return
        idx = self._check(offs, size, False)[..., None] + np.arange(size)
        self.bytes[idx.reshape(-1, size)] = values.view(np.uint8).reshape(-1, size)


_WORD_T = {2: np.uint16, 4: np.uint32, 8: np.uint64}


# ---------------------------------------------------------------------------
# Vector registers <-> per-lane component arrays

def read_vec(b, r: Reg, idx) -> list[np.ndarray]:
    """Raw components (uint16/uint32) of vector register ``r`` for lanes ``idx``."""
    step = r.size // 16
    out = []
    for c in range(r.count):
        h = r.half + c * step
        row = b.r32[h // 2] if r.size == 32 else b.u16[h // 2, h % 2::2]
        out.append(row if idx is None else row[idx])
    return out


def write_vec(b, r: Reg, comps, idx) -> None:
    """Write raw components (already ``r.size`` bits) for lanes ``idx`` (None: all
    lanes, honouring the execution mask)."""
    step = r.size // 16
    for c in range(min(r.count, len(comps))):
        h = r.half + c * step
        row = b.r32[h // 2] if r.size == 32 else b.u16[h // 2, h % 2::2]
        if idx is None:
            if b.all_active:
                row[...] = comps[c]
            else:
                np.copyto(row, comps[c], where=b.exec)
        else:
            row[idx] = comps[c]


def _lanes(mask: np.ndarray, all_: bool):
    return None if all_ else np.flatnonzero(mask)


def _as_float(raw: np.ndarray, size: int) -> np.ndarray:
    return raw.view(np.float32) if size == 32 else raw.view(np.float16).astype(np.float32)


def load_values(memory, addr: np.ndarray, fmt: str, k: int) -> np.ndarray:
    """(n, k) values of ``fmt`` at byte addresses ``addr`` (uint32 bits or float32)."""
    if fmt in PACKED_FORMATS:
        elems = memory.gather(addr, _WORD_T[FORMAT_ELEMENT_B[fmt]], UNIT)
    else:
        esize = FORMAT_ELEMENT_B[fmt]
        words = memory.word_index(addr, esize * k) if isinstance(memory, ByteMemory) else None
        if words is not None:   # the k elements of each lane as one word (e.g. RGBA8 in the tile buffer)
            row = memory.bytes.view(_WORD_T[esize * k]).take(words)
            elems = row.view(_ELEM_T[esize]).reshape(-1, k)
        else:
            vas = addr[:, None] + (np.arange(k, dtype=addr.dtype) * esize).astype(addr.dtype)
            elems = memory.gather(vas.reshape(-1), _ELEM_T[esize], UNIT).reshape(-1, k)
    return unpack_format(fmt, elems, k)


def store_values(memory, addr: np.ndarray, fmt: str, vals: np.ndarray, k: int) -> None:
    elems = pack_format(fmt, vals, k)
    if fmt in PACKED_FORMATS:
        memory.scatter(addr, elems, UNIT)
    else:
        esize = FORMAT_ELEMENT_B[fmt]
        words = memory.word_index(addr, esize * k) if isinstance(memory, ByteMemory) else None
        if words is not None:   # the k elements of each lane as one word
            memory.bytes.view(_WORD_T[esize * k])[words] = np.ascontiguousarray(elems).view(_WORD_T[esize * k]).reshape(-1)
        else:
            vas = addr[:, None] + (np.arange(k, dtype=addr.dtype) * esize).astype(addr.dtype)
            memory.scatter(vas.reshape(-1), np.ascontiguousarray(elems).reshape(-1), UNIT)


def values_to_comps(vals: np.ndarray, size: int) -> list[np.ndarray]:
    """(n, k) float32 or uint32 values -> raw register components of ``size`` bits."""
    if vals.dtype.kind == "f":
        return [to_bits(vals[:, c], size) for c in range(vals.shape[1])]
    return [vals[:, c].astype(np.uint16 if size == 16 else np.uint32) for c in range(vals.shape[1])]


def comps_to_values(raw: list[np.ndarray], size: int, as_float: bool) -> np.ndarray:
    if not as_float:
        return np.stack([c.astype(np.uint32) for c in raw], axis=-1)
    return np.stack([_as_float(c, size) for c in raw], axis=-1)


def load_into(b, memory, addr: np.ndarray, fmt: str, dst: Reg, idx) -> None:
    """Load ``dst.count`` components of ``fmt`` at byte addresses ``addr`` (one per
    selected lane) and write them, converted, to ``dst``."""
    if fmt == "i32" and dst.size == 32 and dst.count == 1:   # raw words straight into the register
        write_vec(b, dst, [memory.gather(addr, np.uint32, UNIT)], idx)
        return
    vals = load_values(memory, addr, fmt, dst.count)
    write_vec(b, dst, values_to_comps(vals, dst.size), idx)


def store_from(b, memory, addr: np.ndarray, fmt: str, data: Reg, idx) -> None:
    if fmt == "i32" and data.size == 32 and data.count == 1:  # the register's words as they are
        memory.scatter(addr, read_vec(b, data, idx)[0], UNIT)
        return
    vals = comps_to_values(read_vec(b, data, idx), data.size, fmt not in INTEGER_FORMATS)
    store_values(memory, addr, fmt, vals, data.count)


def _device_address(ins: Instruction):
    base = raw_reader(ins["base"], 64)
    index = raw_reader(ins["index"], 32)
    shift = np.uint64(ins["shift"])
    base_reg, index_reg = ins["base"], ins["index"]
    if isinstance(base_reg, Reg) and base_reg.file == "u" and base_reg.size == 64 \
            and isinstance(index_reg, Reg) and index_reg.file == "r" and index_reg.size == 32:
        # a uniform base and a 32-bit register index (the usual buffer access):
        # sign-extend the selected lanes' index, shift, add the scalar base
        u, row, sh = base_reg.half // 2, index_reg.half // 2, int(ins["shift"])

        def addr_uniform_base(b, idx):
            iv = b.r32[row].view(np.int32)
            a = (iv if idx is None else iv[idx]).astype(np.int64)
            if sh:
                a <<= sh
            a = a.view(np.uint64)
            a += np.uint64(int(b.uni32[u]) | int(b.uni32[u + 1]) << 32)
            return a
        return addr_uniform_base

    def addr(b, idx):
        bv = np.broadcast_to(base(b), (b.n,))
        iv = np.broadcast_to(index(b), (b.n,)).view(np.int32).astype(np.int64).view(np.uint64)
        a = bv + (iv << shift)
        return a if idx is None else a[idx]
    return addr


def _local_address(ins: Instruction):
    a = raw_reader(ins["addr"], 32)

    def addr(b, idx):
        group = np.arange(b.n, dtype=np.int64) // b.ctx.threadgroup_lanes
        v = group * b.ctx.local_memory_B + np.broadcast_to(a(b), (b.n,)).astype(np.int64)
        return v if idx is None else v[idx]
    return addr


def _stack_address(ins: Instruction):
    off = raw_reader(ins["offset"], 32)

    def addr(b, idx):
        ctx = b.ctx
        lane = np.arange(b.lane0, b.lane0 + b.n, dtype=np.uint64)
        v = np.uint64(ctx.stack_va) + lane * np.uint64(ctx.stack_bytes_per_lane) + \
            np.broadcast_to(off(b), (b.n,)).astype(np.uint64)
        return v if idx is None else v[idx]
    return addr


def _compile_load(address, memory, fmt_of=lambda ins: ins["fmt"]):
    """A load compiler: lanes active in ``exec`` read ``memory(b)`` at ``address``."""
    def compile_(ins: Instruction):
        addr, dst, fmt = address(ins), ins["dst"], fmt_of(ins)

        def step(b):
            idx = _lanes(b.exec, b.all_active)
            load_into(b, memory(b), addr(b, idx), fmt, dst, idx)
        return step
    return compile_


def _compile_store(address, memory, fmt_of=lambda ins: ins["fmt"], helpers_store=False):
    """A store compiler: lanes with effects (or every executing lane, helpers
    included, with ``helpers_store``: spills must survive) write ``memory(b)``."""
    def compile_(ins: Instruction):
        addr, data, fmt = address(ins), ins["data"], fmt_of(ins)

        def step(b):
            if helpers_store:
                m, all_active = b.exec, b.all_active
            else:
                m = b.effect_mask()
                all_active = bool(m.all())
            idx = _lanes(m, all_active)
            store_from(b, memory(b), addr(b, idx), fmt, data, idx)
        return step
    return compile_


def _stack_fmt(reg_field: str):
    return lambda ins: "i32" if ins[reg_field].size == 32 else "i16"


def _device_memory(b):
    return b.mem


def _local_memory(b):
    return b.local


def device_word_form(ins: Instruction, reg: Reg):
    """(index row, shift, base uniform, first register row, words per lane) of a
    device access that ``device_native`` takes: a uniform 64-bit base, a 32-bit
    register index, ``i32`` words in 32-bit registers; else None."""
    base, index = ins["base"], ins["index"]
    if not (isinstance(base, Reg) and base.file == "u" and base.size == 64 and isinstance(index, Reg)
            and index.file == "r" and index.size == 32 and ins["fmt"] == "i32" and reg.file == "r"
            and reg.size == 32):
        return None
    return index.half // 2, int(ins["shift"]), base.half // 2, reg.half // 2, reg.count


def _mask_array(m: np.ndarray) -> np.ndarray:
    return m if m.dtype == np.bool_ and m.flags.c_contiguous else np.ascontiguousarray(m, np.bool_)


def _device_words(numpy_compile, reg_field: str, is_read: bool):
    """A device load (``is_read``) or store compiler: the word form through
    ``device_native`` when the instruction has it and the memory gives a window,
    else (and for other forms) the numpy step of ``numpy_compile``."""
    def compile_(ins: Instruction):
        numpy_step = numpy_compile(ins)
        form = device_word_form(ins, ins[reg_field])
        if form is None:
            return numpy_step
        row, sh, u, first, k = form

        def step(b):
            if is_read:     # loads: every executing lane; stores: lanes with effects
                mask = None if b.all_active else _mask_array(b.exec)
            else:
                m = b.effect_mask()
                mask = None if m.all() else _mask_array(m)
            base = int(b.uni32[u]) | int(b.uni32[u + 1]) << 32
            index = b.r32[row].view(np.int32)
            if is_read and index.size < device_native.MIN_LANES:
                if _few_words_loaded(b.mem, index, mask, sh, base, b.r32[first:first + k]):
                    return
            elif device_native.move_words(b.mem, index, mask, sh, base, b.r32[first:first + k], is_read):
                return
            numpy_step(b)
        return step
    return compile_


def _few_words_loaded(memory, index: np.ndarray, mask, shift: int, base: int, rows: np.ndarray) -> bool:
    """``device_native.move_words``' load for a few lanes (a draw's vertices: below
    its C call's break-even), in numpy through the same window: ``rows.shape[0]``
    aligned words at base + (index << shift) + 4c into ``rows`` for the lanes of
    ``mask``. False, having touched nothing, when there is no window or an address
    is not word-aligned (the caller runs the numpy step)."""
    window_of = getattr(memory, "window", None)
    if window_of is None or not device_native.ENABLED:
        return False
    lanes = index if mask is None else index[mask]
    if lanes.size == 0:
        return False
    k = rows.shape[0]
    low = int(lanes.min())
    rel = (lanes.astype(np.int64) - low) << shift
    lo = base + (low << shift)
    hi = lo + int(rel.max()) + 4 * k
    if lo < 0 or hi > 1 << 64 or lo & 3 or int(np.bitwise_or.reduce(rel)) & 3:
        return False
    win = window_of(lo, hi - lo, True)
    if win is None:
        return False
    words = win.view(np.uint32)[(rel >> 2)[None, :] + np.arange(k, dtype=np.int64)[:, None]]
    if mask is None:
        rows[...] = words
    else:
        rows[:, mask] = words
    return True


compile_device_load = _device_words(_compile_load(_device_address, _device_memory), "dst", True)
compile_device_store = _device_words(_compile_store(_device_address, _device_memory), "data", False)
compile_local_load = _compile_load(_local_address, _local_memory)
compile_local_store = _compile_store(_local_address, _local_memory)
compile_stack_load = _compile_load(_stack_address, _device_memory, _stack_fmt("dst"))
compile_stack_store = _compile_store(_stack_address, _device_memory, _stack_fmt("data"), helpers_store=True)


# ---------------------------------------------------------------------------
# Atomics

def _segmented_scan(op: str, ext: np.ndarray, gid: np.ndarray, starts: np.ndarray, groups: int) -> np.ndarray:
    """Inclusive scan of uint32 ``ext`` restarting at every group (``gid`` sorted,
    group g starts at ``starts[g]``), with the atomic op's combining function."""
    x = ext.astype(np.uint64)
    g = gid.astype(np.uint64)
    if op in ("add", "sub"):
        cs = np.cumsum(x)
        base = (cs - x)[starts]
        return (cs - base[gid]).astype(np.uint32)
    if op == "xor":
        cs = np.bitwise_xor.accumulate(x)
        base = (cs ^ x)[starts]
        return (cs ^ base[gid]).astype(np.uint32)
    if op in ("umax", "smax"):
        bias = np.uint64(0x80000000 if op == "smax" else 0)
        acc = np.maximum.accumulate((g << np.uint64(32)) | (x ^ bias))
        return ((acc & np.uint64(0xFFFFFFFF)) ^ bias).astype(np.uint32)
    if op in ("umin", "smin"):
        bias = np.uint64(0x80000000 if op == "smin" else 0)
        acc = np.minimum.accumulate(((np.uint64(groups - 1) - g) << np.uint64(32)) | (x ^ bias))
        return ((acc & np.uint64(0xFFFFFFFF)) ^ bias).astype(np.uint32)
    if op in ("and", "or"):
        bits = ((ext[:, None] >> np.arange(32, dtype=np.uint32)) & 1).astype(np.int32)
        count = bits if op == "or" else 1 - bits                    # ones seen (or) / zeros seen (and)
        cs = np.cumsum(count, axis=0)
        seen = cs - (cs - count)[starts][gid]
        res = (seen > 0) if op == "or" else (seen == 0)
        return (res.astype(np.uint32) << np.arange(32, dtype=np.uint32)).sum(axis=1, dtype=np.uint64).astype(np.uint32)
    if op == "xchg":
        return ext.copy()
    raise ValueError(op)


def _float_order_key(op: str, bits: np.ndarray) -> np.ndarray:
    """34-bit keys of float32 patterns ordered as fmin (smallest wins) or fmax (largest
    wins) combine them: class (winning signalling NaNs, numbers, losing quiet NaNs) in
    bits 32-33, then the pattern (numbers: flipped so that integer order is float order)."""
    b = bits.astype(np.uint32)
    nan = np.isnan(b.view(np.float32))
    snan = nan & ((b & np.uint32(0x00400000)) == 0)
    order = np.where(b >> 31 == 1, ~b, b | np.uint32(0x80000000)).astype(np.uint64)
    low = np.where(nan, b.astype(np.uint64), order)
    first, last = (0, 2) if op == "fmin" else (2, 0)           # the class of sNaN, of qNaN
    cls = np.where(snan, first, np.where(nan, last, 1)).astype(np.uint64)
    return (cls << np.uint64(32)) | low


def _float_from_order_key(op: str, key: np.ndarray) -> np.ndarray:
    """The float32 patterns of `_float_order_key`'s keys."""
    low = (key & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    number = (key >> np.uint64(32)) == 1
    unflipped = np.where(low >> 31 == 1, low & np.uint32(0x7FFFFFFF), ~low)
    return np.where(number, unflipped, low).astype(np.uint32)


def sequential_atomic(op: str, keys: np.ndarray, initial: np.ndarray, inverse: np.ndarray,
                      values: np.ndarray, compares: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Apply atomics in index order. ``keys``/``inverse``: lane i targets location
    ``inverse[i]`` (0..G-1) whose value before the instruction is ``initial[g]``.
    Returns (old value seen by each lane, final value of each location)."""
    n, groups = inverse.size, initial.size
    values = values.astype(np.uint32)
    if op == "sub":
        values = (np.uint32(0) - values).astype(np.uint32)
        op = "add"
    order = np.argsort(inverse, kind="stable")
    gid = inverse[order]
    vs = values[order]
    counts = np.bincount(gid, minlength=groups)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    rank = np.arange(n) - starts[gid]
    olds_sorted = np.empty(n, np.uint32)
    if op in ("cmpxchg", "fcmpxchg"):
        cs = compares.astype(np.uint32)[order]
        cur = initial.astype(np.uint32).copy()
        ptr = np.zeros(groups, np.int64)                 # first unprocessed rank per group
        live = counts > 0
        while live.any():
            equal = (cs.view(np.float32) == cur[gid].view(np.float32)) if op == "fcmpxchg" else (cs == cur[gid])
            cand = equal & (rank >= ptr[gid]) & live[gid]
            first = np.full(groups, np.iinfo(np.int64).max)
            np.minimum.at(first, gid[cand], rank[cand])
            hit = first < np.iinfo(np.int64).max
            upto = np.where(hit, first, counts - 1)      # last rank decided this round
            sel = live[gid] & (rank >= ptr[gid]) & (rank <= upto[gid])
            olds_sorted[sel] = cur[gid[sel]]
            winners = np.flatnonzero(hit)
            cur[winners] = vs[starts[winners] + first[winners]]
            ptr = upto + 1
            live = live & hit & (ptr < counts)
        finals = cur
    elif op == "fadd":
        # each group's additions in lane order, rounded to float32 one by one: rows of
        # [initial, v1, v2, ...] (padded with zeros) accumulated along the row
        width = int(counts.max()) + 1
        rows = np.zeros((groups, width), np.float32)
        rows[:, 0] = initial.astype(np.uint32).view(np.float32)
        rows[gid, rank + 1] = vs.view(np.float32)
        with np.errstate(over="ignore", invalid="ignore"):
            acc = np.add.accumulate(rows, axis=1, dtype=np.float32).view(np.uint32)
        sums = acc[:, 1:]
        sums[np.isnan(sums.view(np.float32))] = CANONICAL_NAN.view(np.uint32)      # a NaN sum: the default NaN
        olds_sorted = acc[gid, rank]
        finals = acc[np.arange(groups), counts]
    elif op in ("fmin", "fmax"):
        # minNum / maxNum (uapi.isa.semantics.float_min_max) as an order on 34-bit keys:
        # signalling NaNs win, numbers in float order (-0 below +0), quiet NaNs lose
        ext_starts = starts + np.arange(groups)
        ext = np.empty(n + groups, np.uint32)
        ext[ext_starts] = initial
        pos = np.arange(n) + gid + 1
        ext[pos] = vs
        ext_gid = np.repeat(np.arange(groups), counts + 1).astype(np.uint64)
        key = _float_order_key(op, ext)
        if op == "fmin":
            acc = np.minimum.accumulate(((np.uint64(groups - 1) - ext_gid) << np.uint64(34)) | key)
        else:
            acc = np.maximum.accumulate((ext_gid << np.uint64(34)) | key)
        scan = _float_from_order_key(op, acc & np.uint64((1 << 34) - 1))
        olds_sorted = scan[pos - 1]
        finals = scan[ext_starts + counts]
    else:
        # Extended sequence per group: [initial, v1, v2, ...]; old of v_j = scan at the element before it.
        ext_starts = starts + np.arange(groups)
        ext = np.empty(n + groups, np.uint32)
        ext[ext_starts] = initial
        pos = np.arange(n) + gid + 1
        ext[pos] = vs
        ext_gid = np.repeat(np.arange(groups), counts + 1)
        scan = _segmented_scan(op, ext, ext_gid, ext_starts, groups)
        olds_sorted = scan[pos - 1]
        finals = scan[ext_starts + counts]
    olds = np.empty(n, np.uint32)
    olds[order] = olds_sorted
    return olds, finals


def _do_atomic(b, memory, addrs: np.ndarray, idx, op: str, value, cmp, dst: Reg) -> None:
    if addrs.size == 0:
        return
    uniq, inverse = np.unique(addrs, return_inverse=True)
    initial = memory.gather(uniq, np.uint32, UNIT)
    v = np.broadcast_to(value(b), (b.n,))
    v = v if idx is None else v[idx]
    c = None
    if cmp is not None:
        c = np.broadcast_to(cmp(b), (b.n,))
        c = c if idx is None else c[idx]
    olds, finals = sequential_atomic(op, uniq, initial, inverse.reshape(-1), v, c)
    memory.scatter(uniq, finals, UNIT)
    write_vec(b, Reg("r", dst.half, dst.size, 1), [olds.astype(np.uint16 if dst.size == 16 else np.uint32)], idx)


def compile_atomic(ins: Instruction):
    addr = _device_address(ins)
    op, dst = ins["op"], ins["dst"]
    value = raw_reader(ins["value"], 32)
    cmp = raw_reader(ins["cmp"], 32) if op in COMPARE_ATOMIC_OPS else None

    def step(b):
        m = b.effect_mask()
        idx = np.flatnonzero(m)
        _do_atomic(b, b.mem, addr(b, idx), idx, op, value, cmp, dst)
    return step


def compile_local_atomic(ins: Instruction):
    addr = _local_address(ins)
    op, dst = ins["op"], ins["dst"]
    value = raw_reader(ins["value"], 32)
    cmp = raw_reader(ins["cmp"], 32) if op in COMPARE_ATOMIC_OPS else None

    def step(b):
        m = b.effect_mask()
        idx = np.flatnonzero(m)
        _do_atomic(b, b.local, addr(b, idx), idx, op, value, cmp, dst)
    return step


COMPILERS = {"device_load": compile_device_load, "device_store": compile_device_store, "atomic": compile_atomic,
             "local_load": compile_local_load, "local_store": compile_local_store,
             "local_atomic": compile_local_atomic, "stack_load": compile_stack_load,
             "stack_store": compile_stack_store}
