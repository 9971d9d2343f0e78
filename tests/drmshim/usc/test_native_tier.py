"""The native tier (drmshim.gpu.native) against the numpy interpreter, its
specification: every instruction with a C form, and random programs with control
flow, numpy-step instructions and tile memory, run on both tiers; registers,
memory, outputs and faults must be identical bit for bit (NaN payloads
included). Each program is compiled once (many instructions per program keep
the number of compiles small)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from drmshim.gpu import native
from drmshim.gpu.native import codegen
from drmshim.gpu.usc import ExecContext, ShaderCore, ShaderError, compile_program
from drmshim.memory import FlatMemory, GPUFault
from uapi.isa import BY_NAME, OPS, Imm, Instruction, Reg, assemble
from uapi.isa.native import c_functions
from uapi.isa.semantics import TYPES

SPECIAL_F32 = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.5, 255.0, 1e-40, -1e-40, 3.4e38, -3.4e38,
                        np.inf, -np.inf, 1e10, -1e10, 2.0 ** 31, 2.0 ** 63, 0.49999997, 4194304.5], np.float32)
SPECIAL_BITS = np.concatenate([SPECIAL_F32.view(np.uint32), np.array(
    [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF812345, 0x7FC0BEEF, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF,
     0, 1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 0xFFFF, 0x8000, 0x12345678], np.uint32)])

IN_ROWS = range(2, 18)     # inputs r2..r17
MASK_ROW = 18              # a per-lane value the masked part tests
OUT_FIRST = 20             # outputs r20.. (two rows per instruction)


def interesting(rng, shape) -> np.ndarray:
    """uint32 values: a third random bits, a third special floats/ints, a third small floats."""
    pick = rng.integers(0, 3, shape)
    bits = rng.integers(0, 2 ** 32, shape, dtype=np.uint64).astype(np.uint32)
    special = SPECIAL_BITS[rng.integers(0, SPECIAL_BITS.size, shape)]
    small = rng.uniform(-4, 4, shape).astype(np.float32).view(np.uint32)
    return np.where(pick == 0, bits, np.where(pick == 1, special, small))


@pytest.fixture(autouse=True)
def _fresh_stats():
    native.STATS.clear()


def run_both(asm: str, lanes: int, rng, *, ctx_kw=None, inputs=None, uniforms=None, batch_lanes=None,
             expect_native: bool = True):
    """Run on the interpreter and the native tier; returns (interp, native) as
    (context or exception, memory). ``expect_native``: the native run really ran
    native code (not the interpreter after a fallback)."""
    code = assemble(asm if "stop" in asm.split() else asm + "\nstop\n")
    if inputs is None:
        inputs = {k: interesting(rng, lanes) for k in IN_ROWS}
        inputs[MASK_ROW] = rng.integers(0, 8, lanes).astype(np.uint32)
    if uniforms is None:
        uniforms = interesting(rng, 256)
    out = []
    for tier in ("interp", "native"):
        mem = FlatMemory(1 << 16)
        mem.write(mem.base, code, "test")
        kw = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in (ctx_kw or {}).items()}
        ctx = ExecContext(lanes=lanes, uniforms=uniforms.copy(), keep_registers=True, **kw)
        ctx.preload = {k: v.copy() for k, v in inputs.items()}
        core = ShaderCore(mem, debug=False, batch_lanes=batch_lanes, tier=tier)
        try:
            core.run(mem.base, ctx)
            out.append((ctx, mem))
        except (GPUFault, RuntimeError) as e:
            out.append((e, mem))
        if tier == "native" and expect_native:
            assert native.STATS["native"] >= 1 and not native.STATS["interpreted"], dict(native.STATS)
        native.STATS.clear()
    return out


def assert_same(a, b, text=""):
    (ca, ma), (cb, mb) = a, b
    if isinstance(ca, Exception) or isinstance(cb, Exception):
        assert type(ca) is type(cb) and str(ca) == str(cb), f"{ca!r} != {cb!r}\n{text}"
        if isinstance(ca, GPUFault):
            assert ca.info == cb.info
        return
    rows = np.flatnonzero((ca.registers != cb.registers).any(axis=1))
    assert rows.size == 0, f"registers {rows.tolist()} differ\n{text}"
    for name in ("tile_buffer", "depth", "stencil", "sample_mask", "discarded", "varyings"):
        x, y = getattr(ca, name), getattr(cb, name)
        assert (x is None) == (y is None) and (x is None or np.array_equal(x, y)), f"{name} differs\n{text}"


# ---------------------------------------------------------------------------
# Random instructions of every op with a C form

def _src(rng, sizes, float_: bool = False):
    kind = rng.choice(["r", "r", "u", "imm"])
    if kind == "imm":
        return Imm(int(rng.integers(0, 256)))
    size = int(rng.choice(sizes))
    if kind == "u":
        return Reg("u", int(rng.integers(0, 64)) * (2 if size >= 32 else 1), size)
    row = int(rng.choice(list(IN_ROWS)[:-1]))
    return Reg("r", 2 * row + (int(rng.integers(0, 2)) if size == 16 else 0), size)


def _dst(rng, k: int, size: int) -> Reg:
    row = OUT_FIRST + 2 * k
    return Reg("r", 2 * row + (int(rng.integers(0, 2)) if size == 16 else 0), size)


def random_instruction(rng, op, k: int) -> Instruction:
    v = {}
    if op.unit == "falu":
        v = {"dst": _dst(rng, k, int(rng.choice([16, 32, 32]))), "sat": bool(rng.integers(0, 2))}
        for f in op.fields:
            if f.role == "op" and f.name != "dst":
                v[f.name] = _src(rng, [16, 32, 32], True)
                v[f"{f.name}_abs"], v[f"{f.name}_neg"] = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
    elif op.unit == "ialu":
        v["dst"] = _dst(rng, k, int(rng.choice(op.sizes)))
        for f in op.fields:
            if f.name == "tt":
                v["tt"] = int(rng.integers(0, 16))
            elif f.role == "op" and f.name != "dst":
                v[f.name] = _src(rng, [16, 32, 64])
    elif op.name == "fcmpsel":
        v = {"dst": _dst(rng, k, int(rng.choice([16, 32, 64]))), "cond": str(rng.choice(op.field("cond").kind.names)),
             "a": _src(rng, [16, 32], True), "b": _src(rng, [16, 32], True),
             "t": _src(rng, [16, 32, 64]), "f": _src(rng, [16, 32, 64])}
    elif op.name == "icmpsel":
        v = {"dst": _dst(rng, k, int(rng.choice([16, 32, 64]))), "cond": str(rng.choice(op.field("cond").kind.names)),
             "a": _src(rng, [16, 32, 64]), "b": _src(rng, [16, 32, 64]),
             "t": _src(rng, [16, 32, 64]), "f": _src(rng, [16, 32, 64])}
    elif op.name == "convert":
        dtype, stype = str(rng.choice(TYPES)), str(rng.choice(TYPES))
        if dtype == "f16" and stype[0] != "f":    # integer -> binary16 is interpreted (not native)
            stype = str(rng.choice(["f16", "f32"]))
        dbits = int(dtype[1:])
        sizes = [dbits] if dtype[0] == "f" else [s for s in (16, 32, 64) if s >= dbits]
        v = {"dst": _dst(rng, k, int(rng.choice(sizes))), "dtype": dtype, "stype": stype,
             "a": _src(rng, [s for s in (16, 32, 64) if s >= int(stype[1:])])}
    elif op.name == "mov":
        v = {"dst": _dst(rng, k, int(rng.choice([16, 32, 64]))), "a": _src(rng, [16, 32, 64])}
    elif op.name == "mov_imm":
        v = {"dst": _dst(rng, k, int(rng.choice([16, 32]))), "imm": int(rng.integers(0, 2 ** 32))}
    else:
        raise AssertionError(op.name)
    return Instruction(op, v)


NATIVE_ALU = [op for op in OPS if op.native is not None and op.unit in codegen.LANE_LOCAL_UNITS]


def test_the_table_names_existing_c_functions():
    """Every table entry's C form is a function of uapi.isa.native or a form the generator writes."""
    forms = c_functions() | codegen.GENERATOR_FORMS
    for op in OPS:
        assert op.native is None or op.native in forms, op.name
    assert {op.name for op in NATIVE_ALU} >= {"fadd", "fmul", "fma", "fmin", "fmax", "iadd", "imad", "convert"}


@pytest.mark.parametrize("seed", range(4))
def test_every_native_instruction_equals_the_interpreter(seed):
    """50 random instructions (every op with a C form, random operand forms, sizes,
    modifiers) over 3000 lanes of special and random values; the first half with
    every lane active, the second under a per-lane mask."""
    rng = np.random.default_rng(100 + seed)
    ops = [NATIVE_ALU[(seed * 50 + k) % len(NATIVE_ALU)] for k in range(50)]
    lines = [str(random_instruction(rng, op, k)) for k, op in enumerate(ops)]
    asm = "\n".join(lines[:25] + [f"if_icmp.ult r{MASK_ROW}, 5, 1"] + lines[25:] + ["pop_exec 1"])
    a, b = run_both(asm, 3000, rng)
    assert_same(a, b, asm)


def test_binary16_conversions_equal_numpys():
    """Every binary16 bit pattern widened, and binary32 values (NaN payloads, signalling
    NaNs, ties, overflow, denormals) rounded to binary16, as numpy converts."""
    lanes = 1 << 16
    halves = np.arange(lanes, dtype=np.uint32)
    wide = interesting(np.random.default_rng(6), lanes)
    wide[:8] = [0x7F800001, 0xFF812345, 0x7FBFFFFF, 0x477FF000, 0x477FE000, 0x33000001, 0x33000000, 0x387FC000]
    inputs = {2: halves | (halves << 16), 3: wide, MASK_ROW: np.zeros(lanes, np.uint32)}
    asm = ("fadd r20, r2l, -0.0\nfadd r21, r2h.neg, 0.0\nfmul r22l, r3, 1.0\nfadd.sat r22h, r3, 0.0\n"
           "convert.f16.f32 r23l, r3\nconvert.f32.f16 r24, r2l\nconvert.s32.f16 r25, r2h\nconvert.f16.f16 r26l, r2l\n"
           "fcmpsel.lt r27, r2l, r3, 1, 2")
    a, b = run_both(asm, lanes, np.random.default_rng(1), inputs=inputs)
    assert_same(a, b, asm)


def test_float_nan_payloads_and_operand_order():
    """Binary float ops with NaNs in either or both operands keep the first NaN's payload, quieted."""
    nans = np.array([0x7F800001, 0xFF812345, 0x7FC0BEEF, 0xFFC00000, 0x3F800000, 0x7F800000, 0], np.uint32)
    x, y = np.meshgrid(nans, nans)
    lanes = x.size
    inputs = {2: x.ravel().copy(), 3: y.ravel().copy(), MASK_ROW: np.zeros(lanes, np.uint32)}
    asm = "\n".join([f"{op} r{20 + k}, r2, r3" for k, op in enumerate(["fadd", "fmul", "fmin", "fmax"])] +
                    ["fma r30, r2, r3, r2", "fract r31, r2", "rcp r32, r3", "rsqrt r33, r2", "sqrt r34, r3",
                     "floor r35, r2", "fadd.sat r36, r2, r3", "fmul r37, r2.neg, r3.abs", "fcmpsel.ne r38, r2, r3, 1, 2"])
    a, b = run_both(asm, lanes, np.random.default_rng(1), inputs=inputs)
    assert_same(a, b, asm)


# ---------------------------------------------------------------------------
# Random programs: control flow, numpy steps, tile memory

def random_program(rng, n_blocks: int = 6) -> str:
    """Structured random code over r2..r12: ALU chains (results feed later
    instructions), if/else, bounded while loops, numpy-step ops (transcendentals,
    get_sr, discard: later stores skip discarded lanes), tile loads/stores."""
    pool = list(range(2, 13))
    lines: list[str] = []

    def alu(count):
        for _ in range(count):
            op = NATIVE_ALU[int(rng.integers(0, len(NATIVE_ALU)))]
            ins = random_instruction(rng, op, 0)
            v = dict(ins.values)
            d = v["dst"]
            row = int(rng.choice(pool[:-1]))
            v["dst"] = Reg("r", 2 * row + (d.half % 2 if d.size == 16 else 0), d.size)
            for name, s in list(v.items()):
                if name != "dst" and isinstance(s, Reg) and s.file == "r":
                    r = int(rng.choice(pool[:-1]))
                    v[name] = Reg("r", 2 * r + (s.half % 2 if s.size == 16 else 0), s.size)
            lines.append(str(Instruction(op, v)))

    def block(depth):
        kind = rng.choice(["alu", "if", "while", "step", "tile"], p=[0.35, 0.25, 0.15, 0.15, 0.10])
        if kind == "alu" or depth > 2:
            alu(int(rng.integers(1, 6)))
        elif kind == "if":
            c = rng.choice(["if_icmp.ult r18, 4, 1", "if_fcmp.lt r3, r4, 1", "if_icmp.sgt r5, r6, 1"])
            lines.append(str(c))
            block(depth + 1)
            if rng.integers(0, 2):
                lines.append(str(rng.choice(["else_icmp.ugt r18, 1, 1", "else_fcmp.ge r7, 0.5, 1"])))
                block(depth + 1)
            lines.append("pop_exec 1")
        elif kind == "while":
            k = len(lines)
            lines.extend(["mov_imm r13, 0", f"while_icmp.ult r13, {int(rng.integers(1, 5))}, 1",
                          f"jmp_exec_none @end{k}", f"@top{k}:"])
            block(depth + 1)
            lines.extend(["iadd r13, r13, 1", "while_icmp.ult r13, r18, 1", f"jmp_exec_any @top{k}",
                          f"@end{k}:", "pop_exec 1"])
        elif kind == "step":
            r, s = int(rng.choice(pool[:-1])), int(rng.choice(pool[:-1]))
            lines.append(str(rng.choice([f"sin r{r}, r{s}", f"exp2 r{r}, r{s}", f"log2 r{r}, r{s}.abs",
                                         f"get_sr r{r}, lane_id", f"cos r{r}, r{s}", "discard",
                                         f"vote.{rng.choice(['any', 'all', 'eq'])} r{r}, r{s}"])))
        else:
            r = int(rng.integers(2, 9))
            lines.append(str(rng.choice([f"ld_tile.unorm8 r{r}_r{r + 1}_r{r + 2}_r{r + 3}, 0",
                                         f"st_tile.unorm8 r{r}_r{r + 1}_r{r + 2}_r{r + 3}, 0, 15",
                                         f"ld_tile.unorm16 r{r}_r{r + 1}, 4",
                                         f"st_tile.unorm16 r{r}_r{r + 1}, 4, 3"])))
    for _ in range(n_blocks):
        block(0)
    return _resolve_labels(lines)


def _resolve_labels(lines: list[str]) -> str:
    """Replace ``@label`` jump targets by byte offsets (the assembler takes offsets)."""
    sizes, offsets, labels, off = [], [], {}, 0
    for line in lines:
        if line.endswith(":"):
            labels[line[:-1]] = off
            continue
        ins = line if "@" not in line else line.split(" @")[0] + " 0"
        n = len(assemble(ins))
        offsets.append((line, off))
        off += n
    out = []
    for line, at in offsets:
        if " @" in line:
            name = line.split(" ")[0]
            out.append(f"{name} {labels[line.split(' ')[1]] - at}")
        else:
            out.append(line)
    return "\n".join(out)


def tile_context(rng, lanes: int, records: int | None = None):
    """A fragment-like context: 8-byte tile records (RGBA8 at 0, RG16 at 4), a few
    helper (dead) lanes, per-lane records."""
    records = records or lanes
    tile = rng.integers(0, 256, (records, 8), dtype=np.uint8)
    index = rng.permutation(records)[:lanes].astype(np.int64)
    helper = rng.random(lanes) < 0.05
    return {"tile_buffer": tile, "tile_index": index, "helper": helper}


@pytest.mark.parametrize("seed", range(6))
def test_random_programs_equal_the_interpreter(seed):
    rng = np.random.default_rng(200 + seed)
    asm = random_program(rng)
    lanes = 2048
    a, b = run_both(asm, lanes, rng, ctx_kw=tile_context(rng, lanes), batch_lanes=1024)
    assert_same(a, b, asm)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_many_random_programs_equal_the_interpreter(seed):
    rng = np.random.default_rng(1000 + seed)
    asm = random_program(rng, n_blocks=10)
    lanes = int(rng.integers(1, 5000))
    a, b = run_both(asm, lanes, rng, ctx_kw=tile_context(rng, lanes), batch_lanes=int(rng.choice([256, 4096])))
    assert_same(a, b, asm)


def test_ld_tile_reads_every_unorm8_and_unorm16_value_as_the_quotient():
    """ld_tile's unorm conversion (the native form multiplies by the reciprocal in
    binary64) gives x / (2^bits - 1) rounded to binary32 for every 8- and 16-bit
    value, on both tiers, as numpy's float32 division."""
    rng = np.random.default_rng(13)
    lanes = 32768
    tile = np.zeros((lanes, 8), np.uint8)
    tile[:, 0:4] = (np.arange(lanes * 4) % 256).reshape(lanes, 4)          # RGBA8: every byte value
    tile[:, 4:8] = np.arange(lanes * 2, dtype=np.uint32).astype(np.uint16).view(np.uint8).reshape(lanes, 4)
    kw = {"tile_buffer": tile, "tile_index": np.arange(lanes, dtype=np.int64)}
    asm = "ld_tile.unorm8 r2_r3_r4_r5, 0\nld_tile.unorm16 r6_r7, 4"
    a, b = run_both(asm, lanes, rng, ctx_kw=kw)
    assert_same(a, b, asm)
    got = b[0].registers
    want8 = (np.arange(lanes * 4) % 256).astype(np.float32) / np.float32(255)
    want16 = (np.arange(lanes * 2) % 65536).astype(np.float32) / np.float32(65535)
    assert np.array_equal(got[2:6].T.reshape(-1), want8.view(np.uint32))
    assert np.array_equal(got[6:8].T.reshape(-1), want16.view(np.uint32))


def test_tile_fault_is_the_interpreters():
    """An st_tile whose record lies outside the tile buffer faults with the same
    address on both tiers (the native loop touches nothing and defers to numpy)."""
    rng = np.random.default_rng(5)
    lanes = 256
    kw = tile_context(rng, lanes)
    kw["tile_index"][77] = 10_000
    asm = "fmul r2, r2, 0.5\nst_tile.unorm8 r2_r3_r4_r5, 0, 15\nfadd r6, r6, 1.0"
    a, b = run_both(asm, lanes, rng, ctx_kw=kw)
    assert isinstance(a[0], GPUFault)
    assert_same(a, b, asm)


def test_iter_from_per_lane_coefficients_is_native_and_exact():
    rng = np.random.default_rng(8)
    lanes = 4096
    pos = np.stack([rng.integers(0, 64, lanes) + 0.5, rng.integers(0, 64, lanes) + 0.5]).astype(np.float32)
    co = rng.uniform(-3, 3, (6, 3, lanes)).astype(np.float32)
    co[0, 2] += 4  # a 1/w plane away from 0
    asm = "iter.persp.center r2_r3_r4_r5, cf2, cf0\niter.linear.centroid r6_r7, cf1\nfmul r8, r2, r3"
    a, b = run_both(asm, lanes, rng, ctx_kw={"position_px": pos, "coefficients": co, "quads": True})
    assert_same(a, b, asm)


def test_iter_from_per_primitive_planes_is_native_exact_and_equal_to_per_lane_coefficients():
    """The PDM's form (cf_planes per primitive, each lane's primitive_index) gives the
    registers the per-lane coefficient form gives, on both tiers; a register beyond
    the planes or a primitive out of range is the numpy step's error on both."""
    rng = np.random.default_rng(9)
    lanes, prims = 4096, 37
    pos = np.stack([rng.integers(0, 64, lanes) + 0.5, rng.integers(0, 64, lanes) + 0.5]).astype(np.float32)
    planes = rng.uniform(-3, 3, (prims, 6, 3)).astype(np.float32)
    planes[:, 0, 2] += 4
    planes[3, 2] = np.array([np.nan, np.inf, -0.0], np.float32)     # special values reach the lanes
    prim = rng.integers(0, prims, lanes).astype(np.int32)
    asm = "iter.persp.center r2_r3_r4_r5, cf2, cf0\niter.linear.centroid r6_r7, cf1\nfmul r8, r2, r3"
    inputs = {k: interesting(rng, lanes) for k in IN_ROWS}
    inputs[MASK_ROW] = rng.integers(0, 8, lanes).astype(np.uint32)
    uniforms = interesting(rng, 256)
    per_prim = run_both(asm, lanes, rng, inputs=inputs, uniforms=uniforms,
                        ctx_kw={"position_px": pos, "cf_planes": planes, "primitive_index": prim})
    assert_same(*per_prim, asm)
    per_lane = run_both(asm, lanes, rng, inputs=inputs, uniforms=uniforms,
                        ctx_kw={"position_px": pos, "coefficients": np.ascontiguousarray(planes[prim].transpose(1, 2, 0))})
    assert_same(per_prim[1], per_lane[1], asm)
    bad = prim.copy()
    bad[100] = prims
    for tier in ("interp", "native"):
        for cf_planes, primitive_index in ((planes, bad), (planes[:, :2].copy(), prim)):
            mem = FlatMemory(1 << 16)
            mem.write(mem.base, assemble(asm + "\nstop\n"), "test")
            ctx = ExecContext(lanes=lanes, position_px=pos, cf_planes=cf_planes, primitive_index=primitive_index)
            with pytest.raises(IndexError):
                ShaderCore(mem, debug=False, tier=tier).run(mem.base, ctx)


def test_iter_runs_whose_w_plane_is_one_skip_the_divide_and_stay_exact():
    """Primitives whose W plane is exactly (0, 0, 1) (a 2D draw: every w = 1) take
    the loop without the divisions; it must give the interpreter's bits, also for
    NaN and infinite planes, -0.0, and lanes whose positions are not finite (such a
    run takes the dividing loop: 0 * inf makes w NaN). Primitives of w = 1 and
    perspective ones alternate in runs of varying length."""
    rng = np.random.default_rng(21)
    lanes, prims = 4096, 12
    pos = np.stack([rng.integers(0, 64, lanes) + 0.5, rng.integers(0, 64, lanes) + 0.5]).astype(np.float32)
    planes = rng.uniform(-3, 3, (prims, 6, 3)).astype(np.float32)
    planes[:, 0, 2] += 4
    planes[::2, 0] = (0.0, 0.0, 1.0)                  # even primitives: w = 1
    planes[4, 0] = (-0.0, 0.0, 1.0)
    planes[2, 2] = np.array([np.nan, np.inf, -0.0], np.float32)
    planes[6, 3] = np.array([0.0, 0.0, np.float32(np.nan)], np.float32)
    planes[8, 4] = np.array([1e38, 1e38, 3e38], np.float32)        # overflows to inf
    planes[1, 0] = (0.0, 0.0, 2.0)                    # constant, but not 1: divides
    prim = np.repeat(np.arange(prims, dtype=np.int32), rng.integers(1, 700, prims))[:lanes]
    prim = np.resize(prim, lanes).astype(np.int32)
    pos[0, 900] = np.inf                              # in some primitive's run
    pos[1, 2500] = np.nan
    asm = "iter.persp.center r2_r3_r4_r5, cf2, cf0\niter.persp.center r6_r7, cf3, cf0\nfmul r8, r2, r3"
    for i in range(2):
        a, b = run_both(asm, lanes, rng, ctx_kw={"position_px": pos, "cf_planes": planes, "primitive_index": prim})
        assert_same(a, b, asm)
        prim = rng.integers(0, prims, lanes).astype(np.int32)      # then runs of about one lane


# ---------------------------------------------------------------------------
# Threads, policy, fallback, cache

def test_results_do_not_depend_on_the_thread_count(monkeypatch):
    monkeypatch.setattr(native.tier, "PARALLEL_MIN_WORK", 1024)   # split every loop of the 40K lanes
    rng = np.random.default_rng(11)
    asm = random_program(rng, n_blocks=8)
    lanes = 40_000
    kw = tile_context(rng, lanes)
    inputs = {k: interesting(rng, lanes) for k in IN_ROWS}
    inputs[MASK_ROW] = rng.integers(0, 8, lanes).astype(np.uint32)
    uniforms = interesting(rng, 256)
    results = []
    for n in ("1", "2", "3"):
        monkeypatch.setenv("SHIMGL_THREADS", n)
        results.append(run_both(asm, lanes, rng, ctx_kw=kw, inputs=inputs, uniforms=uniforms)[1])
    for r in results[1:]:
        assert_same(results[0], r, asm)
    assert native.threads() == 3


def test_debug_interp_forces_the_interpreter(monkeypatch):
    monkeypatch.setenv("SHIMGL_DEBUG", "interp")
    assert ShaderCore(FlatMemory(1 << 12)).tier == "interp"
    monkeypatch.setenv("SHIMGL_DEBUG", "")
    assert ShaderCore(FlatMemory(1 << 12)).tier == "auto"


def test_auto_mode_compiles_hot_programs_only(monkeypatch, tmp_path):
    # An empty cache: an entry another test built for the same program would be
    # used at once (a cache hit is not compilation work, so it needs no heat).
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native.tier, "HOT_LANES", 3000)
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble("fadd r2, r2, 1.0\nfmul r3, r2, r2\nstop"), "test")
    core = ShaderCore(mem, debug=False, tier="auto")
    core.run(mem.base, ExecContext(lanes=2000))
    assert native.STATS["native"] == 0          # 2000 lanes so far: interpreted
    core.run(mem.base, ExecContext(lanes=2000))
    assert native.STATS["native"] == 0          # 4000 lanes: hot, compiling aside, interpreted meanwhile
    assert native.wait_builds(300)
    core.run(mem.base, ExecContext(lanes=2000))
    assert native.STATS["native"] == 1 and native.STATS["compiled"] == 1    # the built code runs


def test_auto_mode_compiles_programs_run_many_times(monkeypatch, tmp_path):
    """A program of four lanes (piglit's one-quad draws) is hot after HOT_RUNS runs,
    however few lanes; until its code is loaded the interpreter runs it, with the
    same results as the native code after."""
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native.tier, "HOT_RUNS", 5)
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble("fadd r2, r2, 1.5\nfmul r3, r2, r2\nstop"), "test")
    core = ShaderCore(mem, debug=False, tier="auto")
    prog = core.load(mem.base)
    inputs = np.array([1.0, -2.0, 3.25, 0.5], np.float32)

    def run():
        ctx = ExecContext(lanes=4, keep_registers=True)
        ctx.preload = {2: inputs}
        core.run(mem.base, ctx)
        return ctx.registers[3].view(np.float32).copy()

    want = (inputs + np.float32(1.5)) * (inputs + np.float32(1.5))
    for k in range(4):
        np.testing.assert_array_equal(run(), want)
        assert prog.native_state.build is None and native.STATS["native"] == 0    # 4 runs: cold
    np.testing.assert_array_equal(run(), want)        # the 5th run starts the quick build aside
    st = prog.native_state
    assert st.build is not None and st.build.quick and native.STATS["native"] == 0
    assert native.wait_builds(300)
    np.testing.assert_array_equal(run(), want)        # now from the quick build's code
    assert native.STATS["native"] == 1 and st.compiled is not None and st.quick
    quick_code = st.compiled
    monkeypatch.setattr(native.tier, "HOT_LANES", 40)
    for k in range(4):                                # 28, 32, 36, 40 lanes: hot by lanes, optimised build aside
        np.testing.assert_array_equal(run(), want)
    assert st.build is not None and not st.build.quick and st.compiled is quick_code
    assert native.wait_builds(300)
    np.testing.assert_array_equal(run(), want)
    assert native.STATS["compiled"] == 2 and st.compiled is not quick_code and not st.quick
    entries = sorted(p.name for p in (tmp_path / "native").glob("*/*.so"))
    assert entries == sorted([native.tier.cache_key(st.plan.source, native.tier.CFLAGS) + ".so",
                              native.tier.cache_key(st.plan.source, native.tier.QUICK_CFLAGS) + ".so"])
    # another process (a new core here) takes the optimised code from the cache at once
    core2 = ShaderCore(mem, debug=False, tier="auto")
    core2.run(mem.base, ExecContext(lanes=4))
    assert not core2.load(mem.base).native_state.quick and native.STATS["from cache"] == 1


def test_long_loops_make_a_program_hot_by_instructions_run(monkeypatch, tmp_path):
    """One run of few lanes whose loop runs thousands of instructions (piglit's
    transform-feedback order test: one draw, a hailstone loop per vertex) is hot by
    the instructions the interpreter ran (HOT_STEPS), not by runs or lanes: its quick
    build starts during the run."""
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native.tier, "HOT_STEPS", 3000)
    mem = FlatMemory(1 << 16)
    asm = _resolve_labels(["mov_imm r3, 0", "mov_imm r4, 0", "while_icmp.ult r4, r2, 1", "jmp_exec_none @end",
                           "@top:", "iadd r3, r3, r4", "iadd r4, r4, 1", "while_icmp.ult r4, r2, 1",
                           "jmp_exec_any @top", "@end:", "pop_exec 1", "stop"])
    mem.write(mem.base, assemble(asm), "test")
    core = ShaderCore(mem, debug=False, tier="auto")
    ctx = ExecContext(lanes=4, keep_registers=True)
    ctx.preload = {2: np.array([10, 700, 0, 3], np.uint32)}
    core.run(mem.base, ctx)                 # 700 iterations of 4 instructions: 2,800+ interpreted
    st = core.load(mem.base).native_state
    assert st.runs == 1 and st.lanes == 4 and 2800 < st.steps < 3000 and st.build is None
    np.testing.assert_array_equal(ctx.registers[3], [45, 700 * 699 // 2, 0, 3])
    core.run(mem.base, ctx)                 # a second run passes HOT_STEPS: the quick build starts
    assert st.steps >= 3000 and st.build is not None and st.build.quick
    assert native.wait_builds(300)


@pytest.mark.parametrize("poll", [1, 5, 23, 97])
def test_a_batch_goes_on_in_native_code_from_where_the_interpreter_left_it(monkeypatch, tmp_path, poll):
    """When a program's native code arrives while the interpreter runs one of its
    batches (a report every POLL_STEPS instructions), the rest of the batch runs
    native from the next block, and the next batches native from the start: the
    registers, tile memory and outputs are the interpreter's, bit for bit, wherever
    the switch falls (random programs with loops, branches, numpy steps, tiles)."""
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    build = native.tier.load_or_build
    monkeypatch.setattr(native.tier, "load_or_build",      # no code at a run's start: the interpreter begins
                        lambda *a, **k: build(*a, **k) if k.get("build", True) else None)
    monkeypatch.setattr(native.tier, "HOT_STEPS", 1)
    monkeypatch.setattr(native.tier, "POLL_STEPS", poll)
    monkeypatch.setattr(native.tier, "BUILD_ASIDE", False)  # built at the first report, in line
    rng = np.random.default_rng(7)
    asm = random_program(rng, n_blocks=10)
    lanes = 1536
    kw = tile_context(rng, lanes)
    inputs = {k: interesting(rng, lanes) for k in IN_ROWS}
    inputs[MASK_ROW] = rng.integers(0, 8, lanes).astype(np.uint32)
    uniforms = interesting(rng, 256)
    out = []
    for tier in ("interp", "auto"):
        mem = FlatMemory(1 << 16)
        mem.write(mem.base, assemble(asm + "\nstop\n"), "test")
        ctx = ExecContext(lanes=lanes, uniforms=uniforms.copy(), keep_registers=True,
                          **{k: v.copy() for k, v in kw.items()})
        ctx.preload = {k: v.copy() for k, v in inputs.items()}
        ShaderCore(mem, debug=False, batch_lanes=512, tier=tier).run(mem.base, ctx)
        out.append((ctx, mem))
    assert native.STATS["batches finished native"] == 1 and native.STATS["native"] == 1, dict(native.STATS)
    assert_same(out[0], out[1], asm)


def _device_loop_program(k: int) -> str:
    """A loop of r2 iterations, each a device load of k words from the buffer at
    u2_u3 at index r3 + iteration (shift 4) into r8.., summed into r4 (r5: the last
    word), and of the word at index u8 (shift 2: a uniform index) into r14, summed too."""
    dst = "_".join(f"r{8 + c}" for c in range(k))
    return _resolve_labels([
        "mov_imm r6, 0", "mov_imm r4, 0", "while_icmp.ult r6, r2, 1", "jmp_exec_none @end", "@top:",
        "iadd r7, r3, r6", f"device_load.i32 {dst}, u2_u3, r7, 4, 0", "device_load.i32 r14, u2_u3, u8, 2, 0",
        "wait 0", *[f"iadd r4, r4, r{8 + c}" for c in range(k)], "iadd r4, r4, r14", f"mov r5, r{7 + k}",
        "iadd r6, r6, 1", "while_icmp.ult r6, r2, 1", "jmp_exec_any @top", "@end:", "pop_exec 1", "stop"])


@pytest.mark.parametrize("c_walk", [True, False])
@pytest.mark.parametrize("case", ["inside", "masked", "outside"])
def test_device_loads_in_loops_equal_the_interpreter(monkeypatch, case, c_walk):
    """Device loads of the buffer form run in C, inside the C block walk (the
    uniform-array loop of piglit's glsl-uniform-interstage-limits: a vec4 load an
    iteration) or called by Python's walk (a batch whose calls are split over
    threads); a lane whose words leave the memory run makes the numpy step run the
    instruction, which faults as on the interpreter."""
    if not c_walk:      # every call split: Python walks the blocks
        monkeypatch.setenv("SHIMGL_THREADS", "2")
        monkeypatch.setattr(native.tier, "PARALLEL_MIN_WORK", 1)
    rng = np.random.default_rng(11)
    lanes = 200
    data = rng.integers(0, 2 ** 32, 4096, dtype=np.uint64).astype(np.uint32)
    count = rng.integers(0, 40, lanes).astype(np.uint32) if case == "masked" else np.full(lanes, 30, np.uint32)
    first = rng.integers(0, 600, lanes).astype(np.int32)
    if case == "outside":
        first[137] = 2047 - 29 + 20     # its last iterations read past the 64 KiB memory's end
    out = []
    for tier in ("interp", "native"):
        mem = FlatMemory(1 << 16)
        mem.write(mem.base, assemble(_device_loop_program(4)), "test")
        mem.write(mem.base + 0x8000, data, "test")
        uniforms = np.zeros(256, np.uint32)
        base = mem.base + 0x8000 + (16 if case != "outside" else 0)
        uniforms[2], uniforms[3] = base & 0xFFFFFFFF, base >> 32
        uniforms[8] = 5
        ctx = ExecContext(lanes=lanes, uniforms=uniforms, keep_registers=True)
        ctx.preload = {2: count.copy(), 3: first.view(np.uint32).copy()}
        core = ShaderCore(mem, debug=False, tier=tier)
        try:
            core.run(mem.base, ctx)
            out.append((ctx, mem))
        except GPUFault as e:
            out.append((e, mem))
        if tier == "native":
            assert native.STATS["native"] == 1 and not native.STATS["interpreted"]
            nprog = core.load(mem.base).native_state.compiled
            assert nprog.walk is not None and nprog.plan.step_count == 0
    assert isinstance(out[0][0], GPUFault) == (case == "outside")
    assert_same(out[0], out[1])
    if case == "inside":                # and the sums are the words', checked by numpy
        ctx = out[1][0]
        words = data[4:].reshape(-1, 4)
        want = np.array([(words[f:f + 30].sum(dtype=np.uint64) + 30 * int(data[4 + 5])) & 0xFFFFFFFF
                         for f in range(0, 600)], np.uint32)
        np.testing.assert_array_equal(ctx.registers[4], want[first])


@pytest.mark.parametrize("seed", range(3))
def test_quick_builds_equal_the_interpreter(monkeypatch, tmp_path, seed):
    """The quick flags (no vectorizer, -O1) give the interpreter's bits too: random
    instructions of every op with a C form and random programs, built quick."""
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native.tier, "CFLAGS", native.tier.QUICK_CFLAGS)
    rng = np.random.default_rng(300 + seed)
    ops = [NATIVE_ALU[(seed * 50 + k) % len(NATIVE_ALU)] for k in range(50)]
    lines = [str(random_instruction(rng, op, k)) for k, op in enumerate(ops)]
    asm = "\n".join(lines[:25] + [f"if_icmp.ult r{MASK_ROW}, 5, 1"] + lines[25:] + ["pop_exec 1"])
    a, b = run_both(asm, 1000, rng)
    assert_same(a, b, asm)
    asm = random_program(rng)
    a, b = run_both(asm, 1024, rng, ctx_kw=tile_context(rng, 1024), batch_lanes=512)
    assert_same(a, b, asm)
    assert len(list((tmp_path / "native").glob("*/*.so"))) == 2


def test_a_build_outlives_the_process_that_started_it(tmp_path, monkeypatch):
    """A process that exits while its build runs (a short test program) still leaves
    the library in the cache, and no temporary folder."""
    script = ("import os, subprocess, threading; from uapi import native_build as build\n"
              "started, popen = threading.Event(), subprocess.Popen\n"
              "class Spawned(popen):\n"
              "    def __init__(self, args, *a, **k):\n"
              "        super().__init__(args, *a, **k)\n"
              "        if args[0] == '/bin/sh':    # the build (not the compiler's --version)\n"
              "            started.set()\n"
              "subprocess.Popen = Spawned\n"
              "threading.Thread(target=build.load_or_build, daemon=True,\n"
              "    args=('long answer(void) { return 9; }\\n', 'long answer(void);')).start()\n"
              "started.wait()\n"
              "os._exit(0)     # the compiler has started: exit at once\n")
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    subprocess.run([sys.executable, "-c", script], timeout=300, check=True)
    import time
    for _ in range(3000):
        if list((tmp_path / "native").glob("*/*.so")) and not list((tmp_path / "native").glob("*/.build-*")):
            break
        time.sleep(0.1)
    from uapi import native_build as build
    got = build.load_or_build("long answer(void) { return 9; }\n", "long answer(void);", build=False)
    assert got is not None and got[1].answer() == 9
    assert not list((tmp_path / "native").glob("*/.build-*"))


def test_unsupported_forms_fall_back_to_the_interpreter_and_are_counted():
    """An integer -> binary16 conversion has a C form (convert) but the generator does
    not handle it: the whole program runs on the interpreter, with the same results."""
    rng = np.random.default_rng(3)
    asm = "fadd r2, r2, r3\nconvert.f16.s32 r4l, r2\nfadd r5, r2, 1.0"
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble(asm + "\nstop"), "test")
    ShaderCore(mem, debug=False, tier="native").run(mem.base, ExecContext(lanes=100))
    assert native.STATS["interpreted: unsupported"] == 1
    assert native.STATS["native"] == 0
    a, b = run_both(asm, 100, rng, expect_native=False)
    assert_same(a, b, asm)


def test_corrupt_cache_entries_are_ignored(tmp_path, monkeypatch):
    """An entry that does not load (a truncated or garbage file) is not used, and
    the next build replaces it."""
    from uapi import native_build as build
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    src, cdef = "long answer(void) { return 42; }\n", "long answer(void);"
    key = build.cache_key(src)
    path = tmp_path / "native" / key[:2] / f"{key}.so"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x7fELF garbage")
    assert build.load_or_build(src, cdef, build=False) is None       # ignored, not loaded
    ffi, lib = build.load_or_build(src, cdef)                        # rebuilt in place
    assert lib.answer() == 42 and path.stat().st_size > 100


def test_concurrent_processes_share_the_cache(tmp_path):
    """Two processes building the same entry at once both load a whole library."""
    script = ("import sys; from uapi import native_build as build\n"
              "ffi, lib = build.load_or_build('long answer(void) { return 7; }\\n', 'long answer(void);')\n"
              "print(lib.answer())\n")
    env = dict(os.environ, SHIMGL_SHADER_CACHE_DIR=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(3)]
    outs = [p.communicate(timeout=300)[0].strip() for p in procs]
    assert outs == ["7", "7", "7"]
    assert len(list((tmp_path / "native").glob("*/*.so"))) == 1
    assert not list((tmp_path / "native").glob("*/.build-*"))


def test_disabled_cache_writes_nothing(tmp_path, monkeypatch):
    from uapi import native_build as build
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DISABLE", "1")
    ffi, lib = build.load_or_build("long answer(void) { return 5; }\n", "long answer(void);")
    assert lib.answer() == 5
    assert not (tmp_path / "native").exists()


def test_native_code_runs_in_a_forked_child(monkeypatch):
    """The thread pool of the parent does not exist in a forked child: the child
    makes its own instead of waiting for threads that are not there."""
    monkeypatch.setenv("SHIMGL_THREADS", "2")
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble("fadd r2, r2, 1.0\nfmul r3, r2, r2\nstop"), "test")
    core = ShaderCore(mem, debug=False, tier="native")
    core.run(mem.base, ExecContext(lanes=20_000))
    pid = os.fork()
    if pid == 0:   # the child: run again, exit 0 when the result is right
        ctx = ExecContext(lanes=20_000, keep_registers=True)
        core.run(mem.base, ctx)
        os._exit(0 if np.all(ctx.registers[3].view(np.float32) == 1.0) else 1)
    for _ in range(600):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        import time
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung")
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_missing_compiler_leaves_the_program_on_the_interpreter(monkeypatch, tmp_path):
    """No C compiler (or one that fails): the program is interpreted, with the same
    results, and the reason is counted."""
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble("fadd r2, r2, 1.0\nfmul r3, r2, r2\nstop"), "test")
    ctx = ExecContext(lanes=100, keep_registers=True)
    ShaderCore(mem, debug=False, tier="native").run(mem.base, ctx)
    assert np.all(ctx.registers[3].view(np.float32) == 1.0)
    assert native.STATS["interpreted: compiler"] == 1 and native.STATS["native"] == 0


@pytest.mark.parametrize("fault", [False, True])
def test_device_memory_and_atomics_inside_native_programs(fault):
    """Device loads, stores and atomics (numpy steps) between native ALU and control
    flow: same registers, same memory bytes, and the same fault (address, unit,
    read/write) when one lane's address is outside memory."""
    rng = np.random.default_rng(21)
    lanes = 3000
    asm = """
        get_sr r2, lane_id
        imul r3, r2, 3
        ushr r3, r3, 2
        device_load.i32 r4, u0_u1, r3, 2, 0
        wait 0
        fmul r5, r4, 0.5
        if_icmp.ult r6, 5, 1
          fadd r5, r5, 1.0
          atomic.add r7, u2_u3, r8, r2, 2, 1
          wait 1
        pop_exec 1
        device_store.i32 r5, u0_u1, r2, 2, 0
        iadd r9, r7, r4
        stop
    """
    code = assemble(asm)
    inputs = {6: rng.integers(0, 8, lanes).astype(np.uint32), 8: rng.integers(0, 7, lanes).astype(np.uint32)}
    if fault:
        inputs[8][1234] = 1 << 28                    # an atomic far outside memory
    results = []
    for tier in ("interp", "native"):
        mem = FlatMemory(1 << 20)
        mem.write(mem.base, code, "test")
        data, counters = mem.base + 0x10000, mem.base + 0x80000
        mem.write(data, interesting(np.random.default_rng(4), lanes), "test")
        mem.write(counters, np.arange(8, dtype=np.uint32), "test")
        u = np.zeros(256, np.uint32)
        u[0], u[1], u[2], u[3] = data & 0xFFFFFFFF, data >> 32, counters & 0xFFFFFFFF, counters >> 32
        ctx = ExecContext(lanes=lanes, uniforms=u, keep_registers=True, preload={k: v.copy() for k, v in inputs.items()})
        try:
            ShaderCore(mem, debug=False, tier=tier).run(mem.base, ctx)
            outcome = ctx.registers.copy()
        except GPUFault as e:
            outcome = ("fault", e.info)
        results.append((outcome, bytes(mem.read(mem.base, 1 << 20, "test"))))
        if tier == "native":
            assert native.STATS["native"] == 1, dict(native.STATS)
    (ra, ma), (rb, mb) = results
    if fault:
        assert ra[0] == "fault" and ra == rb
    else:
        assert np.array_equal(ra, rb)
    assert ma == mb


def test_a_generator_error_leaves_the_program_on_the_interpreter(monkeypatch):
    def broken(prog):
        raise KeyError("a bug")
    monkeypatch.setattr(native.tier, "generate", broken)
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble("fadd r2, r2, 1.0\nstop"), "test")
    ctx = ExecContext(lanes=10, keep_registers=True)
    ShaderCore(mem, debug=False, tier="native").run(mem.base, ctx)
    assert np.all(ctx.registers[2].view(np.float32) == 1.0)
    assert native.STATS["interpreted: generator error"] == 1


@pytest.mark.parametrize("quads", [True, False])
def test_quad_derivatives_are_native_and_exact(quads):
    """dfdx/dfdy over 2x2 quads (modifiers, saturate, binary16 results, destination =
    source, masked lanes, NaNs); outside fragment contexts both tiers write zeros."""
    rng = np.random.default_rng(31)
    lanes = 4096
    asm = ("dfdx r20, r2\ndfdy r21, r3.neg\ndfdx.sat r22, r4.abs\ndfdy r23l, r5\ndfdx r6, r6\n"
           f"if_icmp.ult r{MASK_ROW}, 5, 1\ndfdy r24, r7\ndfdx r25h, r8l\npop_exec 1")
    a, b = run_both(asm, lanes, rng, ctx_kw={"quads": quads})
    assert_same(a, b, asm)
    if not quads:
        assert not a[0].registers[20].any()


# ---------------------------------------------------------------------------
# Lane-ordered runs (several rank layers of a pass in one run)

BLEND_ASM = "\n".join(["iter.persp.center r4_r5_r6_r7, cf1, cf0", "ld_tile.unorm8 r8_r9_r10_r11, 0",
                       "fmul r12, r4, 0.5", "fma r12, r8, 0.5, r12", "fmul r13, r5, 0.5", "fma r13, r9, 0.5, r13",
                       "fmul r14, r6, 0.5", "fma r14, r10, 0.5, r14", "fadd r15, r11, 0.125",
                       "st_tile.unorm8 r12_r13_r14_r15, 0, 15", "stop"])


def _layered_lanes(rng, records: int, layers: int, order: str = "shuffled"):
    """Lanes of ``layers`` rank layers over ``records`` tile records, layer after
    layer: each layer holds distinct records (a random subset, shuffled, or sorted as
    the pipeline's layers mostly come, or each layer either way: ``order``); a
    record's lanes are in increasing layers. Returns (records of the lanes, layer offsets)."""
    parts = [rng.permutation(records)[:int(rng.integers(1, records + 1))] for _ in range(layers)]
    if order != "shuffled":
        parts = [np.sort(p) if order == "sorted" or rng.random() < 0.5 else p for p in parts]
    return np.concatenate(parts).astype(np.int64), np.cumsum([0] + [len(p) for p in parts])


def _blend_context(rng, index, prims: int = 9, **kw):
    lanes = len(index)
    planes = rng.uniform(-1, 1, (prims, 5, 3)).astype(np.float32)      # cf0: 1/w, cf1..cf4: colour
    planes[:, 0] = (0.0, 0.0, 1.0)                   # 1/w = 1
    pos = rng.uniform(0, 64, (2, lanes)).astype(np.float32)
    prim = np.sort(rng.integers(0, prims, lanes)).astype(np.int32)
    return dict(lanes=lanes, position_px=pos, cf_planes=planes, primitive_index=prim, tile_index=index, **kw)


@pytest.mark.parametrize("records, layers, batch_lanes, order", [
    (300, 7, None, "shuffled"), (64, 40, 512, "shuffled"), (2000, 3, 1024, "shuffled"),
    (300, 7, None, "sorted"), (2000, 9, 1024, "sorted"), (700, 12, None, "mixed"), (64, 40, 512, "mixed")])
def test_lane_ordered_run_equals_the_layers_run_one_after_another(records, layers, batch_lanes, order):
    """A blending program over lanes of several layers in one lane-ordered run gives
    the tile memory of running the layers one after another on the interpreter (each
    record sees its lanes in lane order), and every lane's registers; layers whose
    records are sorted (chunks found by increasing records) or shuffled (by the
    bitmap of records seen)."""
    rng = np.random.default_rng(records + layers)
    index, offsets = _layered_lanes(rng, records, layers, order)
    kw = _blend_context(rng, index)
    tile0 = rng.integers(0, 256, (records, 4), dtype=np.uint8)
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble(BLEND_ASM), "test")
    interp = ShaderCore(mem, debug=False, tier="interp")
    tile_ref = tile0.copy()
    regs = []
    for k in range(layers):
        part = slice(offsets[k], offsets[k + 1])
        ctx = ExecContext(lanes=offsets[k + 1] - offsets[k], position_px=np.ascontiguousarray(kw["position_px"][:, part]),
                          cf_planes=kw["cf_planes"], primitive_index=kw["primitive_index"][part],
                          tile_buffer=tile_ref, tile_index=index[part], keep_registers=True)
        interp.run(mem.base, ctx)
        regs.append(ctx.registers)
    core = ShaderCore(mem, debug=False, batch_lanes=batch_lanes, tier="native")
    core.run(mem.base, ExecContext(lanes=len(index), tile_buffer=tile0.copy(), tile_index=index,
                                   position_px=kw["position_px"], cf_planes=kw["cf_planes"],
                                   primitive_index=kw["primitive_index"]))    # compiles it
    prog = core.load(mem.base)
    assert native.ordered_ready(core, prog) and not native.ordered_ready(interp, prog)
    tile = tile0.copy()
    ctx = ExecContext(tile_buffer=tile, keep_registers=True, lane_order=True, **kw)
    core.run(mem.base, ctx)
    np.testing.assert_array_equal(tile, tile_ref)
    np.testing.assert_array_equal(ctx.registers[:16], np.concatenate(regs, axis=1)[:16])


def test_lane_ordered_contexts_need_the_native_tier_and_records_in_range():
    """The interpreter refuses a lane-ordered context, and so does a native run with
    a record outside the tile buffer (nothing written): the pipeline only asks for
    one when ``ordered_ready`` says so, with records it made."""
    rng = np.random.default_rng(3)
    index, _ = _layered_lanes(rng, 100, 4)
    mem = FlatMemory(1 << 16)
    mem.write(mem.base, assemble(BLEND_ASM), "test")
    tile = np.zeros((100, 4), np.uint8)
    with pytest.raises(ShaderError, match="lane-ordered"):
        ShaderCore(mem, debug=False, tier="interp").run(mem.base, ExecContext(
            tile_buffer=tile, lane_order=True, **_blend_context(rng, index)))
    core = ShaderCore(mem, debug=False, tier="native")
    bad = index.copy()
    bad[50] = 100
    with pytest.raises(RuntimeError, match="out of range"):
        core.run(mem.base, ExecContext(tile_buffer=tile, lane_order=True, **_blend_context(rng, bad)))
    assert not tile.any()


def test_only_straight_tile_programs_have_an_ordered_run():
    """Control flow, an interpreter step or no tile access: no ordered function."""
    def plan(asm):
        return codegen.generate(compile_program(0x1000, assemble(asm + "\nstop\n")))
    assert plan(BLEND_ASM.replace("\nstop", "")).ordered is not None
    assert plan("fadd r2, r2, 1.0").ordered is None                                      # no tile memory
    assert plan("ld_tile.unorm8 r8_r9_r10_r11, 0\nget_sr r8, lane_id\nst_tile.unorm8 r8_r9_r10_r11, 0, 15").ordered is None
    assert plan("ld_tile.unorm8 r8_r9_r10_r11, 0\nif_fcmp.lt r8, r9, 1\nfadd r8, r8, 1.0\npop_exec 1\n"
                "st_tile.unorm8 r8_r9_r10_r11, 0, 15").ordered is None
