"""Varying and fragment-output units: st_var, iter, ldcf, ld_tile, st_tile,
zs_emit, sample_mask, discard. They exchange data with the pipeline through
the :class:`~drmshim.gpu.usc.context.ExecContext` (see its docstring)."""

from __future__ import annotations

import numpy as np

from uapi.isa import Instruction, Reg
from uapi.isa.semantics import FORMAT_ELEMENT_B, INTEGER_FORMATS, pack_format, unpack_format

from .mem import ByteMemory, comps_to_values, load_values, read_vec, store_values, values_to_comps, write_vec
from .state import float_reader, raw_reader, to_bits

__all__ = ["COMPILERS"]


def compile_st_var(ins: Instruction):
    index, a = ins["index"], raw_reader(ins["a"], 32)

    def step(b):
        out = b.ctx.varyings[index, b.lanes]
        if b.all_active:
            out[...] = a(b)
        else:
            np.copyto(out, a(b), where=b.exec)
    return step


def _planes(b, cf: int) -> np.ndarray:
    """(3, n) plane coefficients of coefficient register ``cf`` for the batch, or
    (3,) when every lane of the batch belongs to one primitive."""
    ctx = b.ctx
    if ctx.coefficients is not None:
        return ctx.coefficients[cf, :, b.lanes]
    if ctx.cf_planes is None:
        raise ValueError("iter/ldcf need coefficients (or cf_planes + primitive_index) in the context")
    prim = b.memo.get("primitive")
    if prim is None:   # once per batch: the one primitive of every lane, or its lanes' primitives
        lanes_prim = ctx.primitive_index[b.lanes]
        lo = lanes_prim.min() if lanes_prim.size else 0
        prim = b.memo["primitive"] = int(lo) if lanes_prim.size == 0 or lo == lanes_prim.max() else lanes_prim
    if isinstance(prim, int):
        return ctx.cf_planes[prim, cf]
    return ctx.cf_planes[prim, cf].T


def _position(b, loc: str, where) -> np.ndarray:
    """(2, n) window positions where ``iter`` evaluates its planes."""
    ctx = b.ctx
    centre = ctx.position_px
    if centre is None:
        raise ValueError("iter needs position_px in the context")
    centre = centre[:, b.lanes].astype(np.float32, copy=False)
    if loc == "center":
        return centre
    if loc in ("centroid", "sample"):
        pos = ctx.centroid_position_px if loc == "centroid" else ctx.sample_position_px
        return centre if pos is None else pos[:, b.lanes].astype(np.float32)
    value = np.broadcast_to(where(b), (b.n,))
    if loc == "at_offset":
        halves = np.ascontiguousarray(value, np.uint32).view(np.uint16).reshape(-1, 2)
        return centre + halves.view(np.float16).astype(np.float32).T
    offsets = ctx.sample_offsets_px  # at_sample: the pixel's corner plus the sample's offset
    if offsets is None:
        return centre
    return np.floor(centre) + np.asarray(offsets, np.float32)[value.astype(np.int64) % len(offsets)].T


def compile_iter(ins: Instruction):
    dst, cf, loc = ins["dst"], ins["cf"], ins["loc"]
    cf_w = ins["cf_w"] if ins["interp"] == "persp" else None
    where = raw_reader(ins["where"], 32) if loc in ("at_sample", "at_offset") else None
    in_rows = dst.size == 32   # 32-bit components are register rows: evaluate straight into them

    def ev(b, k, x, y, out=None):
        """p0 * x + p1 * y + p2 in binary32, in this order (into ``out`` if given)."""
        p = _planes(b, k).astype(np.float32, copy=False)
        if out is None:
            return p[0] * x + p[1] * y + p[2]
        np.multiply(p[0], x, out=out)
        np.add(out, np.multiply(p[1], y), out=out)
        np.add(out, p[2], out=out)
        return out

    def step(b):
        xy = _position(b, loc, where)
        x, y = xy[0], xy[1]
        w = ev(b, cf_w, x, y) if cf_w is not None else None
        if in_rows and b.all_active and ROW_PATHS and np.shape(x) == (b.n,):
            row = dst.half // 2
            for i in range(dst.count):
                v = ev(b, cf + i, x, y, out=b.rows_f32[row + i])
                if w is not None:
                    np.divide(v, w, out=v)
            return
        comps = []
        for i in range(dst.count):
            v = ev(b, cf + i, x, y)
            if w is not None:
                v = v / w
            comps.append(to_bits(np.broadcast_to(v, (b.n,)), dst.size))
        write_vec(b, dst, comps, None)
    return step


def compile_ldcf(ins: Instruction):
    dst, cf = ins["dst"], ins["cf"]

    def step(b):
        vals = np.stack([np.broadcast_to(_planes(b, cf + i)[2].astype(np.float32), (b.n,))
                         for i in range(dst.count)], axis=-1)
        write_vec(b, dst, values_to_comps(vals, dst.size), None)
    return step


def _tile_addresses(b, offset: int, idx) -> np.ndarray:
    ctx = b.ctx
    if ctx.tile_buffer is None or ctx.tile_index is None:
        raise ValueError("ld_tile/st_tile need tile_buffer and tile_index in the context")
    rec = np.asarray(ctx.tile_index[b.lanes], np.int64)
    if idx is not None:
        rec = rec[idx]
    return rec * ctx.tile_buffer.shape[1] + offset


#: Take the paths that work on whole register rows when every lane is active
#: (iter, ld_tile, st_tile): the same results as the general code; tests switch
#: them off to compare.
ROW_PATHS = True


def _tile_words(b, offset: int, size: int):
    """Word indices (``ByteMemory.word_index``) of every lane's ``size``-byte access
    at ``offset`` in its tile record, or None; once per batch (ld_tile and st_tile
    of one pixel share them)."""
    key = ("tile_words", offset, size)
    if key not in b.memo:
        tile = b.ctx.tile_buffer
        record_B, rec = tile.shape[1], b.ctx.tile_index[b.lanes]
        words = None
        if record_B % size == 0 and offset % size == 0 and rec.dtype == np.int64 and rec.size:
            # aligned by construction: in range when the extreme records are (two
            # reductions instead of the byte addresses' checks); words of a record
            # of one word are the record indices themselves
            if rec.min() >= 0 and int(rec.max()) * record_B + offset + size <= tile.size:
                per = record_B // size
                words = rec if per == 1 and offset == 0 else rec * per + offset // size
        if words is None:   # the byte addresses' checks (None: the general path, and its faults)
            words = ByteMemory(tile).word_index(_tile_addresses(b, offset, None), size)
        b.memo[key] = words
    return b.memo[key]


def _row_block(b, r: Reg):
    """The (count, n) float32 register rows of 32-bit vector ``r`` (consecutive rows)."""
    row = r.half // 2
    return b.f32[row:row + r.count]


def compile_ld_tile(ins: Instruction):
    dst, offset, fmt = ins["dst"], ins["offset"], ins["fmt"]
    k = dst.count
    # every lane active, 32-bit components, unorm elements as one aligned word: the
    # lanes' words are gathered once and converted straight into the register rows
    rows_path = fmt in ("unorm8", "unorm16") and dst.size == 32 and FORMAT_ELEMENT_B[fmt] * k in (2, 4, 8)
    elem_t = np.dtype(f"u{FORMAT_ELEMENT_B[fmt]}")
    word_t = np.dtype(f"u{FORMAT_ELEMENT_B[fmt] * k}") if rows_path else None

    def step(b):
        if rows_path and b.all_active and ROW_PATHS:
            words = _tile_words(b, offset, word_t.itemsize)
            if words is not None:
                elems = b.ctx.tile_buffer.reshape(-1).view(word_t).take(words).view(elem_t).reshape(-1, k)
                rows = _row_block(b, dst)
                for c in range(k):   # column by column: contiguous rows (a transposed out is 2x slower)
                    unpack_format(fmt, elems[:, c:c + 1], 1, out=rows[c][:, None])
                return
        idx = None if b.all_active else np.flatnonzero(b.exec)
        vals = load_values(ByteMemory(b.ctx.tile_buffer), _tile_addresses(b, offset, idx), fmt, dst.count)
        write_vec(b, dst, values_to_comps(vals, dst.size), idx)
    return step


#: Formats whose packing acts on each component alone (the fast st_tile path packs
#: one register row at a time into the lanes' elements).
_PER_COMPONENT_FLOAT_FORMATS = ("unorm8", "snorm8", "unorm16", "snorm16", "f16")


def compile_st_tile(ins: Instruction):
    data, offset, fmt, mask = ins["data"], ins["offset"], ins["fmt"], ins["mask"]
    k = data.count
    keep_old = [c for c in range(k) if not mask >> c & 1]
    if fmt in _PER_COMPONENT_FLOAT_FORMATS and not keep_old and FORMAT_ELEMENT_B[fmt] * k in (2, 4, 8):
        elem_t = np.dtype(f"u{FORMAT_ELEMENT_B[fmt]}")
        word_t = np.dtype(f"u{FORMAT_ELEMENT_B[fmt] * k}")
        rows_path = fmt in ("unorm8", "unorm16") and data.size == 32

        def step_words(b):
            """Every lane's k elements as one aligned word: each register row is
            packed straight into its column of the lanes' elements."""
            m = b.effect_mask()
            every = m.all()
            if every and rows_path and ROW_PATHS:
                # unorm from 32-bit rows: the (n, k) transposed view of the rows packs
                # in one call, no per-component copies
                words = _tile_words(b, offset, word_t.itemsize)
                if words is not None:
                    # packed in the rows' (k, n) layout, then each lane's word composed
                    # from its k elements (element c at byte c * elem_t.itemsize)
                    elems = pack_format(fmt, _row_block(b, data).T, k, out=np.empty((k, b.n), elem_t).T).T
                    word = elems[0].astype(word_t)
                    for c in range(1, k):
                        word |= elems[c].astype(word_t) << word_t.type(8 * elem_t.itemsize * c)
                    b.ctx.tile_buffer.reshape(-1).view(word_t)[words] = word
                    return
            idx = None if every else np.flatnonzero(m)
            mem = ByteMemory(b.ctx.tile_buffer)
            words = mem.word_index(_tile_addresses(b, offset, idx), word_t.itemsize)
            if words is None:   # unaligned or out of range: the general path (and its faults)
                return step(b)
            comps = read_vec(b, data, idx)
            elems = np.empty((comps[0].shape[0], k), elem_t)
            for c, comp in enumerate(comps):
                vals = comp.view(np.float32) if data.size == 32 else comp.view(np.float16).astype(np.float32)
                elems[:, c] = pack_format(fmt, vals[:, None], 1)[:, 0]
            mem.bytes.view(word_t)[words] = elems.view(word_t).reshape(-1)
    else:
        step_words = None

    def step(b):
        idx = np.flatnonzero(b.effect_mask())
        mem = ByteMemory(b.ctx.tile_buffer)
        addr = _tile_addresses(b, offset, idx)
        vals = comps_to_values(read_vec(b, data, idx), data.size, fmt not in INTEGER_FORMATS)
        if keep_old:
            old = load_values(mem, addr, fmt, k)
            vals[:, keep_old] = old[:, keep_old]  # same kind: both float32 or both uint32
        store_values(mem, addr, fmt, vals, k)
    return step_words or step


def compile_zs_emit(ins: Instruction):
    mode = ins["mode"]
    z = float_reader(ins["z"]) if "z" in mode else None
    s = raw_reader(ins["s"], 16) if "s" in mode else None

    def step(b):
        m = b.effect_mask()
        ctx = b.ctx
        if z is not None:
            np.copyto(ctx.depth[b.lanes], z(b), where=m, casting="unsafe")
            ctx.depth_written[b.lanes] |= m
        if s is not None:
            np.copyto(ctx.stencil[b.lanes], np.asarray(s(b)).astype(np.uint8), where=m)
            ctx.stencil_written[b.lanes] |= m
    return step


def compile_sample_mask(ins: Instruction):
    a = raw_reader(ins["a"], 16)

    def step(b):
        out = b.ctx.sample_mask[b.lanes]
        np.copyto(out, out & a(b), where=b.effect_mask())
    return step


def compile_discard(ins: Instruction):
    def step(b):
        m = b.effect_mask()
        b.ctx.discarded[b.lanes] |= m
        b.dead |= m
    return step


COMPILERS = {"st_var": compile_st_var, "iter": compile_iter, "ldcf": compile_ldcf, "ld_tile": compile_ld_tile,
             "st_tile": compile_st_tile, "zs_emit": compile_zs_emit, "sample_mask": compile_sample_mask,
             "discard": compile_discard}
