"""Texture and image instructions: the core's side of the texture unit.

The core computes what the unit needs per lane (coordinates, explicit LOD or
bias, derivatives from 2x2 quads for implicit LOD, comparison reference,
offsets, descriptor addresses) and calls the texture unit
(``drmshim.gpu.texture``) with the agreed contract::

    sample(mem, tex_desc_va, samp_desc_va, coords float32 (n, k), *, lod=None,
           bias=None, ddx=None, ddy=None, compare=None, offset=None,
           gather_component=None) -> (n, 4)
    sample_rows(mem, tex_desc_va int, samp_desc_va int, s float32 (n,), t float32 (n,),
                outs [4 float32 (n,) or None], *, quads, lod=None, bias=None) -> bool
        # optional: a 2D sample of every lane straight into the destination rows,
        # the same values as ``sample``; False when the unit does not take the call
    load(mem, tex_desc_va, coords int32 (n, k), lod int32 (n,), sample=None) -> (n, 4)
    size(mem, tex_desc_va, lod int32 (n,)) -> int32 (n, 3)
    levels(mem, tex_desc_va, n) / samples(mem, tex_desc_va, n) -> int32 (n,)
    image_load(mem, tex_desc_va, coords int32 (n, k)) -> (n, 4)
    image_store(mem, tex_desc_va, coords int32 (n, k), values uint32 (n, 4))   # raw register bits
    image_atomic(mem, tex_desc_va, coords int32 (n, k), op, value uint32 (n,),
                 compare=None) -> uint32 (n,)        # applied in lane order

Descriptor addresses are ints when uniform across the batch, else uint64 (n,).
The unit is imported lazily (through :func:`texture_unit`) so the core works
before and after it exists; tests substitute a fake there.
"""

from __future__ import annotations

import numpy as np

from uapi.isa import Instruction, Reg
from uapi.isa.semantics import quad_dfdx, quad_dfdy

from .mem import read_vec, values_to_comps, write_vec
from .state import float_reader, raw_reader, uniform_reader

__all__ = ["COMPILERS", "texture_unit", "SPATIAL_COORDS"]

SPATIAL_COORDS = {"1d": 1, "2d": 2, "3d": 3, "cube": 3, "1d_array": 1, "2d_array": 2, "cube_array": 3, "2d_ms": 2}


def texture_unit():
    """The texture unit module (imported on first use)."""
    from drmshim.gpu import texture
    return texture


def _descriptor(src, heap_attr: str, stride_attr: str):
    """Descriptor address(es) for a texture/sampler index operand: an int when the
    index is uniform (immediate or uniform register), else per lane."""
    uniform = not (isinstance(src, Reg) and src.file == "r")
    # (a uniform index read as one scalar: no array of it per lane)
    reader = uniform_reader(src, 32) if uniform else raw_reader(src, 32)

    def va(b, idx):
        ctx = b.ctx
        heap, stride = getattr(ctx, heap_attr), getattr(ctx, stride_attr)
        t = reader(b)
        if uniform:
            return int(heap) + int(t) * stride
        t = np.asarray(t, np.uint64)
        t = t if idx is None else t[idx]
        return np.uint64(heap) + t * np.uint64(stride)
    return va


def _floats(b, r: Reg, idx) -> np.ndarray:
    """(n, count) float32 of a vector register (lanes ``idx``; None: all), as the
    transpose of a component-major array: each component's column is contiguous,
    as the texture unit reads them."""
    out = np.empty((r.count, b.n), np.float32)
    for c, comp in enumerate(read_vec(b, r, None)):
        out[c] = comp.view(np.float32) if r.size == 32 else comp.view(np.float16)
    return out.T if idx is None else out.T[idx]


def _ints(b, r: Reg, idx) -> np.ndarray:
    comps = read_vec(b, r, idx)
    return np.stack([c.view(np.int32) if r.size == 32 else c.view(np.int16).astype(np.int32) for c in comps], -1)


def _scalar(reader, b, idx, dtype):
    v = np.broadcast_to(np.asarray(reader(b)), (b.n,))
    v = v if idx is None else v[idx]
    if np.dtype(dtype).kind == "f":
        return v.astype(dtype)
    return v.view(dtype) if v.dtype.itemsize == np.dtype(dtype).itemsize else v.astype(dtype)


def _write_result(b, dst: Reg, res, idx) -> None:
    """Write the unit's (n, 4) result (float32, int32 or uint32) to ``dst``."""
    res = np.asarray(res)
    if dst.size == 32 and idx is None:  # every lane of the batch: column -> register row, no temporaries
        for c in range(min(dst.count, res.shape[1])):
            row = b.rows_u32[dst.half // 2 + c]
            if res.dtype.kind == "f":
                row = row.view(np.float32)
            if b.all_active:
                row[...] = res[:, c]
            else:
                np.copyto(row, res[:, c], where=b.exec, casting="unsafe")
        return
    if res.dtype.kind in "iu":
        res = res.astype(np.int64).astype(np.uint32)
    else:
        res = res.astype(np.float32)
    write_vec(b, dst, values_to_comps(res[:, :dst.count], dst.size), idx)


def _active(b):
    return None if b.all_active else np.flatnonzero(b.exec)


def compile_texture_sample(ins: Instruction):
    dst, coords, dim, mode = ins["dst"], ins["coords"], ins["dim"], ins["lod_mode"]
    tex = _descriptor(ins["tex"], "texture_heap_va", "texture_desc_stride_B")
    samp = _descriptor(ins["samp"], "sampler_heap_va", "sampler_desc_stride_B")
    lod = float_reader(ins["lod"]) if mode in ("bias", "lod") else None
    grad = ins["grad"] if mode == "grad" else None
    ref = float_reader(ins["ref"]) if ins["compare"] else None
    offs = raw_reader(ins["offs"], 32) if ins["offset"] else None
    comp = ins["component"] if ins["gather"] else None
    ns = SPATIAL_COORDS[dim]
    rows_form = (dim == "2d" and coords.size == 32 and dst.size == 32 and mode in ("auto", "bias", "lod")
                 and ref is None and offs is None and comp is None)

    def sample_rows(b) -> bool:
        """Every lane active, one descriptor pair: the unit's row form, if it takes the call."""
        fn = getattr(texture_unit(), "sample_rows", None)
        tva, sva = tex(b, None), samp(b, None)
        if fn is None or not isinstance(tva, int) or not isinstance(sva, int):
            return False
        s_row, t_row = (c.view(np.float32) for c in read_vec(b, coords, None)[:2])
        quads = mode != "lod" and bool(b.ctx.quads)
        lod_v = _scalar(lod, b, None, np.float32) if mode == "lod" else (None if quads else np.float32(0))
        bias_v = _scalar(lod, b, None, np.float32) if mode == "bias" else None
        outs = [b.rows_f32[dst.half // 2 + c] if c < dst.count else None for c in range(4)]
        return fn(b.mem, tva, sva, s_row, t_row, outs, quads=quads, lod=lod_v, bias=bias_v)

    def native_call(b):
        """The unit's C call for this batch's rows, made by native code itself (the
        native tier's texture segment, ``codegen._texture_function``): ((function,
        plan, words) addresses, what to keep alive) and whether the LOD comes from
        quads, or None when ``sample_rows`` would not take the batch."""
        fn = getattr(texture_unit(), "sample_rows_call", None)
        tva, sva = tex(b, None), samp(b, None)
        if not rows_form or fn is None or not isinstance(tva, int) or not isinstance(sva, int):
            return None
        quads = mode != "lod" and bool(b.ctx.quads)
        got = fn(b.mem, tva, sva, b.n, quads=quads)
        return None if got is None else (got, quads)

    def step(b):
        if rows_form and b.all_active and sample_rows(b):
            return
        idx = _active(b)
        xyz = _floats(b, coords, None)
        kw = {}
        if mode in ("auto", "bias"):
            if b.ctx.quads and idx is None:
                pass  # whole quads: the unit takes the derivatives from the quads itself (same values)
            elif b.ctx.quads:  # per component on the contiguous register rows
                rows = [c.view(np.float32) if coords.size == 32 else c.view(np.float16).astype(np.float32)
                        for c in read_vec(b, coords, None)[:ns]]
                ddx, ddy = np.empty((b.n, ns), np.float32), np.empty((b.n, ns), np.float32)
                for c, row in enumerate(rows):
                    ddx[:, c], ddy[:, c] = quad_dfdx(row), quad_dfdy(row)
                kw["ddx"], kw["ddy"] = (ddx, ddy) if idx is None else (ddx[idx], ddy[idx])
            else:  # no quads (vertex, compute): implicit LOD is level 0
                kw["lod"] = np.zeros(b.n if idx is None else idx.size, np.float32)
        if mode == "bias":
            kw["bias"] = _scalar(lod, b, idx, np.float32)
        elif mode == "lod":
            kw["lod"] = _scalar(lod, b, idx, np.float32)
        elif mode == "grad":
            g = _floats(b, grad, idx)
            kw["ddx"], kw["ddy"] = g[:, :ns], g[:, ns:2 * ns]
        if ref is not None:
            kw["compare"] = _scalar(ref, b, idx, np.float32)
        if offs is not None:
            packed = _scalar(offs, b, idx, np.uint32)
            o = np.stack([(packed >> np.uint32(4 * i)) & np.uint32(0xF) for i in range(3)], -1).astype(np.int32)
            kw["offset"] = np.where(o >= 8, o - 16, o)[:, :ns]
        if comp is not None:
            kw["gather_component"] = comp
        c = xyz if idx is None else xyz[idx]
        res = texture_unit().sample(b.mem, tex(b, idx), samp(b, idx), c, **kw)
        _write_result(b, dst, res, idx)
    step.native_call = native_call
    return step


def compile_texture_load(ins: Instruction):
    dst, coords = ins["dst"], ins["coords"]
    tex = _descriptor(ins["tex"], "texture_heap_va", "texture_desc_stride_B")
    lod = raw_reader(ins["lod"], 32)
    smp = raw_reader(ins["sample"], 32) if ins["ms"] else None

    def step(b):
        idx = _active(b)
        kw = {"sample": _scalar(smp, b, idx, np.int32)} if smp is not None else {}
        res = texture_unit().load(b.mem, tex(b, idx), _ints(b, coords, idx), _scalar(lod, b, idx, np.int32), **kw)
        _write_result(b, dst, res, idx)
    return step


def compile_texture_size(ins: Instruction):
    dst = ins["dst"]
    tex = _descriptor(ins["tex"], "texture_heap_va", "texture_desc_stride_B")
    lod = raw_reader(ins["lod"], 32)

    def step(b):
        idx = _active(b)
        res = texture_unit().size(b.mem, tex(b, idx), _scalar(lod, b, idx, np.int32))
        _write_result(b, dst, np.asarray(res, np.int32), idx)
    return step


def compile_texture_query(ins: Instruction):
    dst, query = ins["dst"], ins["query"]
    tex = _descriptor(ins["tex"], "texture_heap_va", "texture_desc_stride_B")

    def step(b):
        idx = _active(b)
        m = b.n if idx is None else idx.size
        fn = texture_unit().levels if query == "levels" else texture_unit().samples
        res = np.asarray(fn(b.mem, tex(b, idx), m), np.int32).reshape(-1, 1)
        write_vec(b, Reg("r", dst.half, dst.size), values_to_comps(res.astype(np.uint32), dst.size), idx)
    return step


def compile_image_load(ins: Instruction):
    dst, coords = ins["dst"], ins["coords"]
    tex = _descriptor(ins["tex"], "texture_heap_va", "texture_desc_stride_B")

    def step(b):
        idx = _active(b)
        _write_result(b, dst, texture_unit().image_load(b.mem, tex(b, idx), _ints(b, coords, idx)), idx)
    return step


def compile_image_write(ins: Instruction):
    data, coords = ins["data"], ins["coords"]
    tex = _descriptor(ins["tex"], "texture_heap_va", "texture_desc_stride_B")

    def step(b):
        idx = np.flatnonzero(b.effect_mask())
        raw = read_vec(b, data, idx)
        vals = np.zeros((idx.size, 4), np.uint32)
        for c, comp in enumerate(raw[:4]):
            vals[:, c] = comp.view(np.float16).astype(np.float32).view(np.uint32) if data.size == 16 else comp
        texture_unit().image_store(b.mem, tex(b, idx), _ints(b, coords, idx), vals)
    return step


def compile_image_atomic(ins: Instruction):
    dst, coords, op = ins["dst"], ins["coords"], ins["op"]
    tex = _descriptor(ins["tex"], "texture_heap_va", "texture_desc_stride_B")
    value = raw_reader(ins["value"], 32)
    cmp = raw_reader(ins["cmp"], 32) if op == "cmpxchg" else None

    def step(b):
        idx = np.flatnonzero(b.effect_mask())
        kw = {"compare": _scalar(cmp, b, idx, np.uint32)} if cmp is not None else {}
        old = texture_unit().image_atomic(b.mem, tex(b, idx), _ints(b, coords, idx), op,
                                          _scalar(value, b, idx, np.uint32), **kw)
        write_vec(b, Reg("r", dst.half, dst.size), [np.asarray(old).astype(np.uint32).astype(
            np.uint16 if dst.size == 16 else np.uint32)], idx)
    return step


COMPILERS = {"texture_sample": compile_texture_sample, "texture_load": compile_texture_load,
             "texture_size": compile_texture_size, "texture_query": compile_texture_query,
             "image_load": compile_image_load,
             "image_write": compile_image_write, "image_atomic": compile_image_atomic}
