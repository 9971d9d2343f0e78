"""ALU units: float and integer ops, compare-and-select, conversions, moves,
special registers, quad derivatives. Each ``compile_*`` turns one decoded
instruction into a step ``f(batch)`` that does one numpy operation (or a few)
over all lanes of the batch, through the table entry's ``impl``.
"""

from __future__ import annotations

import inspect
import time

import numpy as np

from uapi.isa import Instruction, Reg
from uapi.isa.semantics import SINT, UINT, convert, saturate, simd_group_starts

from .state import float_reader, float_writer, raw_reader, raw_writer, to_bits

__all__ = ["COMPILERS"]


def _check_size(ins: Instruction, size: int) -> None:
    if size not in ins.op.sizes:
        raise ValueError(f"{ins}: {ins.op.name} is not defined for {size}-bit destinations")


def compile_falu(ins: Instruction):
    dst: Reg = ins["dst"]
    _check_size(ins, dst.size)
    names = [f.name for f in ins.op.fields if f.role == "op" and f.name != "dst"]
    rd = [float_reader(ins[n], ins.values.get(f"{n}_abs", False), ins.values.get(f"{n}_neg", False)) for n in names]
    sat = ins.values.get("sat", False)
    write, impl = float_writer(dst, sat), ins.op.impl
    if dst.size == 32 and "out" in inspect.signature(impl).parameters and len(rd) <= 3:
        # Fast path: with every lane active, the ufunc writes the register row itself
        # (and saturate then clamps the row in place).
        row = dst.half // 2
        if len(rd) == 1:
            (a,) = rd

            def step1(b):
                if b.all_active:
                    r = impl(a(b), out=b.rows_f32[row])
                    if sat:
                        saturate(r, out=r)
                else:
                    write(b, impl(a(b)))
            return step1
        if len(rd) == 3:
            a, c, d = rd

            def step3(b):
                if b.all_active:
                    r = impl(a(b), c(b), d(b), out=b.rows_f32[row])
                    if sat:
                        saturate(r, out=r)
                else:
                    write(b, impl(a(b), c(b), d(b)))
            return step3
        a, c = rd

        def step2(b):
            if b.all_active:
                r = impl(a(b), c(b), out=b.rows_f32[row])
                if sat:
                    saturate(r, out=r)
            else:
                write(b, impl(a(b), c(b)))
        return step2
    if len(rd) == 1:
        (a,) = rd
        return lambda b: write(b, impl(a(b)))
    if len(rd) == 2:
        a, c = rd
        return lambda b: write(b, impl(a(b), c(b)))
    a, c, d = rd
    return lambda b: write(b, impl(a(b), c(b), d(b)))


def compile_quad(ins: Instruction):
    dst: Reg = ins["dst"]
    _check_size(ins, dst.size)
    a = float_reader(ins["a"], ins["a_abs"], ins["a_neg"])
    write, impl = float_writer(dst, ins["sat"]), ins.op.impl

    def step(b):
        if not b.ctx.quads:
            return write(b, np.zeros(b.n, np.float32))
        v = np.broadcast_to(a(b), (b.n,))
        write(b, impl(v))
    return step


def _int_reader(src, size: int, typ: str):
    raw = raw_reader(src, size)
    if typ == "s":
        st = SINT[size]
        return lambda b: raw(b).view(st)
    return raw


def compile_ialu(ins: Instruction):
    dst: Reg = ins["dst"]
    size = dst.size
    _check_size(ins, size)
    names = [f.name for f in ins.op.fields if f.role == "op" and f.name not in ("dst", "tt")]
    types = ins.op.types[1:]
    rd = [_int_reader(ins[n], size, t) for n, t in zip(names, types)]
    write, impl, ut = raw_writer(dst), ins.op.impl, UINT[size]

    def fix(v):
        v = np.asarray(v)
        return v.view(ut) if v.dtype.itemsize == size // 8 else v.astype(ut)

    if ins.op.name == "bitop":
        tt = ins["tt"]
        a, c = rd
        return lambda b: write(b, impl(a(b), c(b), tt))
    with_ = {1: lambda b: write(b, fix(impl(rd[0](b)))),
             2: lambda b: write(b, fix(impl(rd[0](b), rd[1](b)))),
             3: lambda b: write(b, fix(impl(rd[0](b), rd[1](b), rd[2](b)))),
             4: lambda b: write(b, fix(impl(rd[0](b), rd[1](b), rd[2](b), rd[3](b))))}
    return with_[len(rd)]


def _operand_size(*srcs, default: int) -> int:
    sizes = [s.size for s in srcs if isinstance(s, Reg)]
    return max(sizes) if sizes else default


def compile_cmpsel(ins: Instruction):
    dst: Reg = ins["dst"]
    size = dst.size
    cond = ins["cond"]
    t, f = raw_reader(ins["t"], size), raw_reader(ins["f"], size)
    write = raw_writer(dst)
    if ins.op.name == "fcmpsel":
        a, c = float_reader(ins["a"]), float_reader(ins["b"])
    else:
        csize = _operand_size(ins["a"], ins["b"], default=size)
        a, c = raw_reader(ins["a"], csize), raw_reader(ins["b"], csize)
    impl = ins.op.impl
    return lambda b: write(b, np.where(impl(cond, a(b), c(b)), t(b), f(b)))


def compile_convert(ins: Instruction):
    dst: Reg = ins["dst"]
    src = ins["a"]
    dtype, stype = ins["dtype"], ins["stype"]
    src_size = src.size if isinstance(src, Reg) else 64
    a = raw_reader(src, src_size)
    write, size, impl = raw_writer(dst), dst.size, ins.op.impl
    if int(dtype[1:]) > size or (dtype[0] == "f" and int(dtype[1:]) != size):
        raise ValueError(f"{ins}: a {dtype} needs a {max(16, int(dtype[1:]))}-bit destination"
                         f"{'' if dtype[0] == 'f' else ' or wider'}")
    return lambda b: write(b, to_bits(impl(dtype, stype, a(b)), size))


def compile_mov(ins: Instruction):
    dst: Reg = ins["dst"]
    a, write = raw_reader(ins["a"], dst.size), raw_writer(dst)
    return lambda b: write(b, a(b))


def compile_mov_imm(ins: Instruction):
    dst: Reg = ins["dst"]
    value = UINT[dst.size](ins["imm"] & ((1 << dst.size) - 1))
    write = raw_writer(dst)
    return lambda b: write(b, value)


def compile_get_sr(ins: Instruction):
    dst: Reg = ins["dst"]
    write, name, ut = raw_writer(dst), ins["sr"], UINT[dst.size]
    return lambda b: write(b, b.ctx.special(name, b.lanes).astype(ut))


def compile_clock(ins: Instruction):
    """The cycle counter: the host's monotonic nanoseconds (a 1 GHz counter) read once per
    batch step, so every lane of the batch sees the same value and a later read a later one;
    the low read latches the high word for the high read (``b.memo``)."""
    dst: Reg = ins["dst"]
    _check_size(ins, dst.size)
    write, hi = raw_writer(dst), ins["hi"]

    def step(b):
        if hi:
            write(b, np.uint32(b.memo.get("clock_hi", 0)))
            return
        now = time.monotonic_ns()
        b.memo["clock_hi"] = (now >> 32) & 0xFFFFFFFF
        write(b, np.uint32(now & 0xFFFFFFFF))
    return step


def _group_starts(b):
    """The first lane of each SIMD group of batch ``b``, once per batch size (``vote``
    and ``simd`` share it)."""
    key = ("simd_groups", b.n)
    starts = b.memo.get(key)
    if starts is None:
        starts = b.memo[key] = simd_group_starts(b.n, b.ctx.threadgroup_lanes)
    return starts


def compile_vote(ins: Instruction):
    """A cross-lane vote (``semantics.vote``) over the SIMD groups of the batch: a batch
    starts at a group boundary (``ShaderCore._batch_size``), and in compute groups
    restart at each threadgroup."""
    dst: Reg = ins["dst"]
    _check_size(ins, dst.size)
    a, write, mode, impl = raw_reader(ins["a"], dst.size), raw_writer(dst), ins["mode"], ins.op.impl
    ut = UINT[dst.size]

    def step(b):
        starts = _group_starts(b)
        v = np.broadcast_to(a(b), (b.n,))
        write(b, impl(mode, v, b.exec, starts).astype(ut))
    return step


def compile_simd(ins: Instruction):
    """Cross-lane reads within the SIMD groups of the batch (``semantics.simd``), the
    groups as for ``vote``."""
    dst: Reg = ins["dst"]
    _check_size(ins, dst.size)
    a, b_, write, mode, impl = (raw_reader(ins["a"], 32), raw_reader(ins["b"], 32), raw_writer(dst), ins["mode"],
                                ins.op.impl)

    def step(b):
        starts = _group_starts(b)
        av = np.broadcast_to(a(b), (b.n,))
        bv = np.broadcast_to(b_(b), (b.n,))
        write(b, impl(mode, av, bv, b.exec, starts).astype(np.uint32))
    return step


COMPILERS = {"falu": compile_falu, "vote": compile_vote, "simd": compile_simd, "quad": compile_quad, "ialu": compile_ialu, "cmpsel": compile_cmpsel,
             "convert": compile_convert, "mov": compile_mov, "mov_imm": compile_mov_imm, "get_sr": compile_get_sr,
             "clock": compile_clock}
