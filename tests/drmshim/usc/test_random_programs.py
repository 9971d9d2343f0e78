"""Random straight-line ALU programs on the vectorised core against a
clarity-first reference interpreter: one lane at a time, registers as a dict of
16-bit halves (applegpu's CoreState), operands read and written by size. Both
call the table's semantics for the arithmetic itself; what is checked is the
core's plumbing: 16/32/64-bit views, halves, uniforms, immediates, modifiers,
saturate, rounding to the destination size, execution masks."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import uapi.isa as isa
from uapi.isa import Imm, Reg
from uapi.isa.semantics import SINT, UINT, minifloat_decode, saturate

from .helpers import run

N_REGS = 6  # r1..r6 hold data (r0l is the nesting counter, r7 the lane id)
FIRST = 1
UNIFORMS = np.random.default_rng(9).integers(0, 2 ** 32, 256, dtype=np.uint64).astype(np.uint32)
UNIFORMS[:8] = np.array([1.5, -2.0, 0.25, 3.0, np.nan, np.inf, 1e-40, -0.0], np.float32).view(np.uint32)

FALU = [op for op in isa.OPS if op.unit == "falu"]
IALU = [op for op in isa.OPS if op.unit == "ialu"]
OTHER = [isa.BY_NAME[n] for n in ("icmpsel", "fcmpsel", "convert", "mov", "mov_imm")]


# ---------------------------------------------------------------------------
# The reference: one lane, a dict of halves

def ref_read_raw(regs, src, size):
    if isinstance(src, Imm):
        return src.code
    halves = [UNIFORMS.view(np.uint16)[h] if src.file == "u" else regs.get(h, 0)
              for h in range(src.half, src.half + src.size // 16)]
    value = sum(int(x) << (16 * i) for i, x in enumerate(halves))
    return value & ((1 << size) - 1)


def ref_read_float(regs, src, abs_, neg):
    """A one-element float32 array (array conversions keep NaN payloads; numpy
    scalar conversions may not)."""
    if isinstance(src, Imm):
        v = np.array([minifloat_decode(src.code)], np.float32)
    else:
        raw = ref_read_raw(regs, src, src.size)
        v = np.array([raw], np.uint32).view(np.float32) if src.size == 32 else \
            np.array([raw], np.uint16).view(np.float16).astype(np.float32)
    if abs_:
        v = np.abs(v)
    if neg:
        v = -v
    return v


def ref_write(regs, dst, raw):
    for i in range(dst.size // 16):
        regs[dst.half + i] = (int(raw) >> (16 * i)) & 0xFFFF


def ref_execute(ins, regs):
    op, v = ins.op, ins.values
    dst = v["dst"]
    mask = (1 << dst.size) - 1
    if op.name == "mov_imm":
        return ref_write(regs, dst, v["imm"] & mask)
    if op.name == "mov":
        return ref_write(regs, dst, ref_read_raw(regs, v["a"], dst.size))
    if op.name == "convert":
        src = v["a"]
        raw = np.array([ref_read_raw(regs, src, src.size if isinstance(src, Reg) else 64)], np.uint64)
        out = np.asarray(op.impl(v["dtype"], v["stype"], raw))
        if out.dtype.kind == "f":
            with np.errstate(over="ignore"):
                bits = int(out.astype({16: np.float16, 32: np.float32}[dst.size]).view(UINT[dst.size])[0])
        else:
            bits = int(out.astype(np.int64)[0]) if out.dtype.kind == "i" else int(out[0])
        return ref_write(regs, dst, bits & mask)
    if op.unit == "cmpsel":
        if op.name == "fcmpsel":
            x, y = ref_read_float(regs, v["a"], False, False), ref_read_float(regs, v["b"], False, False)
            cond = op.impl(v["cond"], x, y)[0]
        else:
            size = max([r.size for r in (v["a"], v["b"]) if isinstance(r, Reg)] or [dst.size])
            x = np.array([ref_read_raw(regs, v["a"], size)], UINT[size])
            y = np.array([ref_read_raw(regs, v["b"], size)], UINT[size])
            cond = op.impl(v["cond"], x, y)[0]
        return ref_write(regs, dst, ref_read_raw(regs, v["t" if cond else "f"], dst.size))
    names = [f.name for f in op.fields if f.role == "op" and f.name not in ("dst", "tt")]
    if op.unit == "falu":
        args = [ref_read_float(regs, v[n], v[f"{n}_abs"], v[f"{n}_neg"]) for n in names]
        with np.errstate(all="ignore"):
            r = np.asarray(op.impl(*args), np.float32)
            if v["sat"]:
                r = saturate(r)
            bits = r.astype(np.float16).view(np.uint16) if dst.size == 16 else r.view(np.uint32)
        ref_write(regs, dst, int(bits[0]))
        return
    size = dst.size
    args = []
    for n, t in zip(names, op.types[1:]):
        x = np.array([ref_read_raw(regs, v[n], size)], UINT[size])
        args.append(x.view(SINT[size]) if t == "s" else x)
    if op.name == "bitop":
        args.append(v["tt"])
    r = np.asarray(op.impl(*args))
    ref_write(regs, dst, int(r.astype(np.int64).astype(np.uint64)[0] if r.dtype.kind == "i" else r[0]) & ((1 << size) - 1))


# ---------------------------------------------------------------------------
# Random programs

def dst_reg(draw, sizes):
    size = draw(st.sampled_from(sizes))
    if size == 16:
        return Reg("r", 2 * FIRST + draw(st.integers(0, 2 * N_REGS - 1)), 16)
    if size == 32:
        return Reg("r", 2 * (FIRST + draw(st.integers(0, N_REGS - 1))), 32)
    return Reg("r", 2 * (FIRST + draw(st.integers(0, N_REGS - 2))), 64)


def src_operand(draw, sizes):
    kind = draw(st.sampled_from(["r", "r", "u", "imm"]))
    if kind == "imm":
        return Imm(draw(st.integers(0, 255)))
    size = draw(st.sampled_from(sizes))
    if kind == "u":
        return Reg("u", draw(st.integers(0, 15)) * (1 if size == 16 else 2), size)
    return dst_reg(draw, [size])


@st.composite
def programs(draw):
    out = []
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(FALU + IALU + OTHER))
        values = {}
        if op.name == "mov_imm":
            values = {"dst": dst_reg(draw, [16, 32]), "imm": draw(st.integers(0, 2 ** 32 - 1))}
        elif op.name == "convert":
            dtype, stype = draw(st.sampled_from(isa.semantics.TYPES)), draw(st.sampled_from(isa.semantics.TYPES))
            dbits = int(dtype[1:])
            sizes = [dbits] if dtype[0] == "f" else [s for s in (16, 32, 64) if s >= dbits]
            values = {"dst": dst_reg(draw, sizes), "dtype": dtype, "stype": stype,
                      "a": src_operand(draw, [s for s in (16, 32, 64) if s >= int(stype[1:])])}
        elif op.unit == "cmpsel":
            fl = op.name == "fcmpsel"
            values = {"dst": dst_reg(draw, [16, 32, 64]),
                      "cond": draw(st.sampled_from(isa.semantics.FCMP if fl else isa.semantics.ICMP)),
                      "a": src_operand(draw, [16, 32] if fl else [16, 32, 64]),
                      "b": src_operand(draw, [16, 32] if fl else [16, 32, 64]),
                      "t": src_operand(draw, [16, 32, 64]), "f": src_operand(draw, [16, 32, 64])}
        elif op.name == "mov":
            values = {"dst": dst_reg(draw, [16, 32, 64]), "a": src_operand(draw, [16, 32, 64])}
        elif op.unit == "falu":
            values["dst"] = dst_reg(draw, [16, 32])
            values["sat"] = draw(st.booleans())
            for f in op.fields:
                if f.role == "op" and f.name != "dst":
                    values[f.name] = src_operand(draw, [16, 32])
                    values[f"{f.name}_abs"], values[f"{f.name}_neg"] = draw(st.booleans()), draw(st.booleans())
        else:
            values["dst"] = dst_reg(draw, list(op.sizes))
            for f in op.fields:
                if f.name == "tt":
                    values["tt"] = draw(st.integers(0, 15))
                elif f.role == "op" and f.name != "dst":
                    values[f.name] = src_operand(draw, [16, 32, 64])
        out.append(isa.Instruction(op, values))
    return out


LANES = 8
INIT = np.random.default_rng(2).integers(0, 2 ** 32, (N_REGS, LANES), dtype=np.uint64).astype(np.uint32)
INIT[1, :4] = np.array([1.0, -0.0, np.nan, 65504.0], np.float32).view(np.uint32)
INIT[2] = np.array([0x3C00BC00, 0x7C00FC00, 0x00010400, 0x7E00FBFF, 0, 1, 0xFFFFFFFF, 0x80000000], np.uint32)


@settings(max_examples=60, deadline=None)
@given(programs(), programs(), st.integers(0, LANES))
def test_random_alu_programs_match_the_reference(prog, masked, active_lanes):
    """``prog`` runs on every lane, then ``masked`` only on lanes below ``active_lanes``."""
    text = "\n".join(str(i) for i in prog) + f"\nmov_imm r0l, 0\nif_icmp.ult r7, {active_lanes}, 1\n" + \
        "\n".join(str(i) for i in masked) + "\npop_exec 1"
    inputs = {FIRST + k: INIT[k] for k in range(N_REGS)}
    inputs[7] = np.arange(LANES, dtype=np.uint32)
    ctx = run(text, lanes=LANES, inputs=inputs, uniforms=UNIFORMS, debug=False)  # the fast block loop
    for lane in range(LANES):
        regs = {}
        for k in range(N_REGS):
            ref_write(regs, Reg("r", 2 * (FIRST + k), 32), int(INIT[k, lane]))
        for ins in prog + (masked if lane < active_lanes else []):
            ref_execute(ins, regs)
        got = [int(ctx.registers[FIRST + k, lane]) for k in range(N_REGS)]
        want = [regs.get(2 * (FIRST + k), 0) | (regs.get(2 * (FIRST + k) + 1, 0) << 16) for k in range(N_REGS)]
        assert got == want, f"lane {lane}:\n{text}"
