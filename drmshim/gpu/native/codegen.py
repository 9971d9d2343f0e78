"""ISA program -> C source over SoA lanes, and the plan that runs it.

The plan mirrors the interpreter's block loop (``usc.core``): the same blocks,
jumps and step counts, so control flow (r0l exec masks, ``jmp_exec_any`` over the
batch) is the interpreter's. Inside a block of masked instructions, runs of
*lane-local* instructions (each lane reads and writes only its own registers)
become one C function that loops over lanes and keeps the registers it touches in
locals (``Seg``); instructions that touch memory shared between lanes are their
own loop (``Seg`` with ``shared=True``, run in lane order on one thread);
everything else calls the interpreter's step for that instruction (``Step``),
which is the numpy implementation itself, so it stays bit-exact. Control-flow
instructions become one lane loop that updates r0l and the exec mask and counts
the active lanes (``Cf``).

What each instruction computes comes from the ISA table: ``Op.native`` names the
C function of ``uapi.isa.native`` (or a form written here: moves, selects,
conversions, varyings, tile access). An instruction whose table entry has a
native form but whose operands this generator does not handle (16-bit floats,
for now) raises :class:`Unsupported`: the whole program then runs on the
interpreter (counted by the tier).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from uapi.isa import Imm, Instruction, Reg
from uapi.isa.native import C_PRELUDE, c_functions
from uapi.isa.semantics import FORMAT_ELEMENT_B, SIMD_GROUP_LANES, TYPE_BITS, minifloat_decode

__all__ = ["Unsupported", "Seg", "Cf", "Step", "Grp", "Plan", "flat", "generate", "ARGS_CDEF", "NATIVE_CDEF",
           "GENERATOR_VERSION", "WALK_STATE", "WALK_BLOCK", "WALK_COUNT", "WALK_LIMIT", "WALK_ACTIVE", "WALK_EXEC",
           "WALK_ITEM"]

#: Changes whenever the generated code for a given program changes (part of the cache key).
GENERATOR_VERSION = 28

#: Lanes an ordered run (``Plan.ordered``) takes through the whole program at most
#: at a time: their registers stay in the first-level caches between segments.
ORDERED_CHUNK_LANES = 512
#: Lanes a fused group (``Grp``) takes through all its segments at a time, and the
#: buffers of a numpy-loop segment (``_ufunc_function``): their registers stay in
#: the first-level caches between segments. A multiple of 4 (whole quads).
GROUP_CHUNK_LANES = 256

#: Units whose instructions are lane-local (registers of the lane only, no memory).
LANE_LOCAL_UNITS = ("falu", "ialu", "cmpsel", "convert", "mov", "mov_imm")
#: Native units that touch memory shared between lanes, or other lanes' registers (a
#: vote): one lane loop of their own, over the whole batch on one thread.
SHARED_UNITS = ("ld_tile", "st_tile", "vote", "simd")
#: Native units that read per-lane pipeline arrays or their quad's lanes (their own
#: loop; whole quads in parallel).
CONTEXT_UNITS = ("iter", "quad")

ARGS_CDEF = """
typedef struct {
    uint32_t *r;              /* register storage: row k of lane i at r[k * S + i] */
    long S;
    const uint8_t *exec;      /* the execution mask (bool per lane), NULL: every lane active */
    const uint8_t *dead;      /* helper/discarded lanes (bool per lane): no side effects */
    const uint32_t *u;        /* uniforms u0..u255 */
    uint8_t *exec_out;        /* control flow writes the new mask here */
    const float *coef;        /* iter: coefficients[cf][3][lane], strides in floats */
    long coef_cf, coef_i, coef_lane;
    const float *planes;      /* iter, or instead of coef: cf_planes[prim][cf][3] (contiguous) */
    long planes_prim;         /* floats per primitive */
    const int32_t *prim;      /* the primitive (planes row) of every lane */
    const float *pos;         /* iter: position_px[2][lane] */
    long pos_c, pos_lane;
    uint8_t *tile;            /* ld_tile/st_tile: the tile buffer */
    long tile_B, record_B;
    const int64_t *tile_index;
    long *bad_lane;           /* shared segments: the first lane whose access is out of range */
    long group_span;          /* vote: SIMD groups restart every group_span lanes (a threadgroup) */
    long tile_checked;        /* set only by ord<k> (on its own copy): every active lane's tile
                                 access is in range and aligned, the segments need not look */
    void *uf[4];              /* numpy's binary32 loops of log2, exp2, sin, cos (uapi/native_ufuncs.py) */
    void *ufd[4];             /* and their data pointers */
    const uint8_t *dev_win[4];  /* device_load (per slot): the bytes of the memory run holding its base, */
    uint64_t dev_va[4], dev_len[4];  /* that run's first address and length (VM.run_window) */
    void *tex_fn;             /* texture_sample: the texture unit's C sampler (texture/native.py sample_2d) */
    const void *tex_plan[4];  /* per texture segment of the program (its slot): the sampler's plan, */
    const uint32_t *tex_words[4];   /* the image words the plan indexes, */
    long tex_quads[4];        /* and whether the LOD comes from 2x2 quads */
} args_t;
"""


#: What Python declares of every generated library: the argument block, the two
#: function types and the table of the program's functions (in ``Plan.functions`` order).
NATIVE_CDEF = ARGS_CDEF + """
typedef void (*seg_fn)(const args_t *A, long lo, long hi);
typedef long (*cf_fn)(const args_t *A, long lo, long hi);
typedef void (*walk_fn)(const args_t *A, long n, long *st);
void *const *shimgl_native_functions(void);
"""


class Unsupported(Exception):
    """The generator does not handle this instruction's form: run the program on the interpreter."""


@dataclass
class Seg:
    """A lane loop over instructions ``first..first+count-1`` (C function ``name``).
    ``shared``: it touches memory other lanes see (run in lane order, one thread).
    ``needs``: what the context must provide (else the interpreter steps run)."""

    name: str
    first: int
    count: int
    shared: bool = False
    needs: tuple = ()


@dataclass
class Cf:
    """A control-flow instruction as a lane loop returning the active-lane count."""

    name: str
    index: int


@dataclass
class Step:
    """Instruction ``index`` run by the interpreter's step (its numpy implementation)."""

    index: int


@dataclass
class Grp:
    """Consecutive lane-local segments of one block fused into one C function
    (``name``) that takes lanes ``GROUP_CHUNK_LANES`` at a time through every
    member in order: one call (and one split over threads) instead of one per
    segment, the registers in cache between segments. ``needs``: every member's."""

    name: str
    members: list
    first: int
    count: int
    needs: tuple = ()


def flat(items) -> list:
    """A block's items with every ``Grp`` replaced by its members."""
    out = []
    for it in items:
        out += it.members if isinstance(it, Grp) else [it]
    return out


@dataclass
class Plan:
    """The C source and, per interpreter block, what runs it: a list of Seg/Step for a
    masked block, a Cf or Step for a control-flow block, else the interpreter's entry."""

    source: str
    functions: list = field(default_factory=list)    # C function names (cdef)
    blocks: list = field(default_factory=list)       # (kind, items, target, next, size)
    native_count: int = 0                             # instructions compiled to C
    ordered: str | None = None                        # C function of the lane-ordered run, if any
    span: str | None = None                           # C function of a pixel span (``_span_function``)
    step_count: int = 0                               # instructions run by numpy steps
    walk: str | None = None                           # C function of the block walk (``_walk_function``)
    walk_blocks: tuple = ()                           # per block: the walk runs it (else Python does)
    walk_count: int = 0                               # the most instructions one of its calls runs
    walk_needs: tuple = ()                            # what its parts need from the context (device runs)


# ---------------------------------------------------------------------------
# Operands

def _u32_literal(v: int) -> str:
    return f"0x{v & 0xFFFFFFFF:08x}u"


def _float_bits_of_imm(code: int) -> int:
    return int(np.array([minifloat_decode(code)], np.float32).view(np.uint32)[0])


class _Regs:
    """The 32-bit register rows a segment touches, as C locals ``rN``."""

    def __init__(self):
        self.read: set[int] = set()
        self.written: set[int] = set()

    def row(self, r: int, write: bool = False) -> str:
        (self.written if write else self.read).add(r)
        return f"r{r}"


def _raw(src, n: int, regs: _Regs) -> str:
    """C uint64_t expression: ``src`` read as an n-bit unsigned value (zero-extended
    when narrower, truncated when wider), as ``usc.state.raw_reader``."""
    if isinstance(src, Imm):
        return f"((uint64_t){src.code & ((1 << n) - 1)}u)"
    h, size = src.half, src.size
    if src.file == "u":
        word = lambda k: f"(uint64_t)U[{k}]"
    else:
        word = lambda k: f"(uint64_t){regs.row(k)}"
    i = h // 2
    if size == 16:
        e = f"(({word(i)} >> {16 * (h % 2)}) & 0xffffu)"
    elif size == 32:
        e = word(i)
    else:
        e = f"({word(i)} | ({word(i + 1)} << 32))"
    if size > n:
        e = f"({e} & 0x{(1 << n) - 1:x}ull)"
    return e


def _float(src, abs_: bool, neg: bool, regs: _Regs) -> str:
    """C float expression of a float operand with abs then neg (as ``float_reader``:
    a 16-bit register or uniform is widened to binary32 exactly first)."""
    if isinstance(src, Imm):
        bits = _float_bits_of_imm(src.code)
        if abs_:
            bits &= 0x7FFFFFFF
        if neg:
            bits ^= 0x80000000
        return f"fb({_u32_literal(bits)})"
    if src.size == 32:
        e = f"U[{src.half // 2}]" if src.file == "u" else regs.row(src.half // 2)
    elif src.size == 16:
        word = f"U[{src.half // 2}]" if src.file == "u" else regs.row(src.half // 2)
        e = f"bf(sem_half_to_float({word} >> {16 * (src.half % 2)}))"
    else:
        raise Unsupported(f"{src.size}-bit float operand {src}")
    if abs_:
        e = f"({e} & 0x7fffffffu)"
    if neg:
        e = f"({e} ^ 0x80000000u)"
    return f"fb({e})"


def _row_moves(regs: _Regs, lane: str = "i") -> tuple[str, str]:
    """C statements that load every register row ``regs`` reads or writes at ``lane``
    into locals ``r<j>``, and store the written ones back (around a result's writes)."""
    load = " ".join(f"uint32_t r{j} = R[{j} * S + {lane}];" for j in sorted(regs.read | regs.written))
    store = " ".join(f"R[{j} * S + {lane}] = r{j};" for j in sorted(regs.written))
    return load, store


def _write_raw(dst: Reg, value: str, regs: _Regs) -> list[str]:
    """Statements writing the low ``dst.size`` bits of uint64_t ``value`` (as ``raw_writer``)."""
    i = dst.half // 2
    if dst.size == 32:
        return [f"{regs.row(i, True)} = (uint32_t)({value});"]
    if dst.size == 16:
        sh = 16 * (dst.half % 2)
        regs.read.add(i)
        regs.written.add(i)
        return [f"r{i} = (r{i} & 0x{~(0xFFFF << sh) & 0xFFFFFFFF:08x}u) | ((uint32_t)(({value}) & 0xffffu) << {sh});"]
    regs.row(i, True)
    regs.row(i + 1, True)
    return [f"{{ uint64_t w_ = {value}; r{i} = (uint32_t)w_; r{i + 1} = (uint32_t)(w_ >> 32); }}"]


def _write_float(dst: Reg, value: str, sat: bool, regs: _Regs) -> list[str]:
    """Write a binary32 value, saturated if asked, rounded to a 16-bit register's binary16."""
    if sat:
        value = f"sem_saturate({value})"
    if dst.size == 16:
        return _write_raw(dst, f"(uint64_t)sem_float_to_half({value})", regs)
    if dst.size != 32:
        raise Unsupported(f"{dst.size}-bit float result {dst}")
    return [f"{regs.row(dst.half // 2, True)} = bf({value});"]


def _reg_size(*srcs, default: int) -> int:
    sizes = [s.size for s in srcs if isinstance(s, Reg)]
    return max(sizes) if sizes else default


# ---------------------------------------------------------------------------
# Instructions -> C statements (one lane, locals rN)

def _falu(ins: Instruction, regs: _Regs) -> list[str]:
    op, dst = ins.op, ins["dst"]
    names = [f.name for f in op.fields if f.role == "op" and f.name != "dst"]
    args = [_float(ins[n], ins.values.get(f"{n}_abs", False), ins.values.get(f"{n}_neg", False), regs) for n in names]
    return _write_float(dst, f"sem_{op.native}({', '.join(args)})", ins.values.get("sat", False), regs)


def _ialu(ins: Instruction, regs: _Regs) -> list[str]:
    op, dst = ins.op, ins["dst"]
    n = dst.size
    names = [f.name for f in op.fields if f.role == "op" and f.name not in ("dst", "tt")]
    args = []
    for name, t in zip(names, op.types[1:]):
        e = _raw(ins[name], n, regs)
        args.append(f"sx({e}, {n})" if t == "s" else e)
    if op.name == "bitop":
        args.append(str(ins["tt"]))
    return _write_raw(dst, f"sem_{op.native}({', '.join(args)}, {n})", regs)


def _compare(ins: Instruction, regs: _Regs, float_: bool, default_size: int) -> str:
    cond = ins["cond"]
    if float_:
        return f"fcmp_{cond}({_float(ins['a'], False, False, regs)}, {_float(ins['b'], False, False, regs)})"
    size = _reg_size(ins["a"], ins["b"], default=default_size)
    a, b = _raw(ins["a"], size, regs), _raw(ins["b"], size, regs)
    if cond[0] == "s":
        a, b = f"(int64_t)sx({a}, {size})", f"(int64_t)sx({b}, {size})"
    c = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[cond.lstrip("us")]
    return f"({a} {c} {b})"


def _cmpsel(ins: Instruction, regs: _Regs) -> list[str]:
    dst = ins["dst"]
    test = _compare(ins, regs, ins.op.name == "fcmpsel", dst.size)
    t, f = _raw(ins["t"], dst.size, regs), _raw(ins["f"], dst.size, regs)
    return _write_raw(dst, f"({test} ? {t} : {f})", regs)


_INT_C = {8: "int8_t", 16: "int16_t", 32: "int32_t", 64: "int64_t"}
_INT_RANGE = {("u", b): (0, (1 << b) - 1) for b in (8, 16, 32, 64)}
_INT_RANGE.update({("s", b): (-(1 << (b - 1)), (1 << (b - 1)) - 1) for b in (8, 16, 32, 64)})


def _convert(ins: Instruction, regs: _Regs) -> list[str]:
    """``semantics.convert`` then ``state.to_bits`` at the destination size."""
    dst, src, dtype, stype = ins["dst"], ins["a"], ins["dtype"], ins["stype"]
    size = dst.size
    dbits, sbits = TYPE_BITS[dtype], TYPE_BITS[stype]
    if dbits > size or (dtype[0] == "f" and dbits != size):
        raise Unsupported("convert to a narrower destination (the interpreter rejects it)")
    if dtype == "f16" and stype[0] != "f":
        raise Unsupported("integer to binary16 conversion (numpy's rounding path not reproduced)")
    src_size = src.size if isinstance(src, Reg) else 64
    raw = f"({_raw(src, src_size, regs)} & 0x{(1 << sbits) - 1:x}ull)"
    if dtype == "f16":   # from binary16 or binary32: widen exactly, round once to binary16
        wide = f"sem_half_to_float((uint32_t){raw})" if stype == "f16" else f"fb((uint32_t){raw})"
        return _write_raw(dst, f"(uint64_t)sem_float_to_half({wide})", regs)
    if stype == "f16":
        stype = "f32"
        raw = f"(uint64_t)bf(sem_half_to_float((uint32_t){raw}))"
    # integer sources in their narrowest C type (an int -> float conversion depends only on
    # the value, and 32-bit conversions vectorise where 64-bit ones do not)
    if stype == "f32":
        value = f"fb((uint32_t){raw})"
    elif stype[0] == "s":
        value = f"(int64_t)sx({raw}, {sbits})" if sbits == 64 else f"(int32_t)sx({raw}, {sbits})"
    else:
        value = raw if sbits == 64 else f"(int32_t){raw}" if sbits < 32 else f"(uint32_t){raw}"
    if dtype == "f32":
        if stype == "f32":
            return _write_raw(dst, f"(uint64_t)(uint32_t){raw}", regs)   # the same bits
        to_float = f"u32_to_float({value})" if stype == "u32" else f"(float)({value})"
        return _write_raw(dst, f"(uint64_t)bf({to_float})", regs)
    kind = dtype[0]
    if stype == "f32":
        lo, hi = _INT_RANGE[(kind, dbits)]
        ctype = "uint64_t" if kind == "u" else "int64_t"
        # trunc in binary64, NaN -> 0, saturate to the type (2^63 / 2^64 are not in range: the bound)
        conv = (f"({{ double x_ = __builtin_trunc((double)({value})); "
                f"x_ != x_ ? ({ctype})0 : x_ <= {float(lo)!r} ? ({ctype})({lo}{'ll' if kind == 's' else 'ull'}) "
                f": x_ >= {float(hi)!r} ? ({ctype})({hi}{'ll' if kind == 's' else 'ull'}) : ({ctype})x_; }})")
        if kind == "s" and lo == -(1 << 63):
            conv = conv.replace(f"({ctype})({lo}ll)", "(int64_t)INT64_MIN")
        value = conv
    if kind == "s":
        bits = f"(uint64_t)sx((uint64_t)({value}), {dbits})"
    else:
        bits = f"((uint64_t)({value}) & 0x{(1 << dbits) - 1:x}ull)"
    return _write_raw(dst, bits, regs)


def _mov(ins: Instruction, regs: _Regs) -> list[str]:
    return _write_raw(ins["dst"], _raw(ins["a"], ins["dst"].size, regs), regs)


def _mov_imm(ins: Instruction, regs: _Regs) -> list[str]:
    dst = ins["dst"]
    return _write_raw(dst, f"(uint64_t){ins['imm'] & ((1 << dst.size) - 1)}u", regs)


_LANE_LOCAL = {"falu": _falu, "ialu": _ialu, "cmpsel": _cmpsel, "convert": _convert, "mov": _mov,
               "mov_imm": _mov_imm}


def lane_local(ins: Instruction) -> bool:
    return ins.op.unit in LANE_LOCAL_UNITS and ins.op.native is not None


# ---------------------------------------------------------------------------
# Functions

#: The NaN-free forms of the binary32 functions whose only NaN handling is ``nan2``
#: (``uapi.isa.native``): ``nan2(r, a, b)`` is ``r`` whenever ``r`` is not a NaN, so
#: a lane none of whose such results is a NaN gets the same bits from the plain
#: operations. A lane loop runs these first over a piece of lanes into a buffer,
#: noting whether any result was a NaN (``bad_``, a reduction that vectorises); only
#: a piece with a NaN runs the exact loop instead. The NaN selects cost about 2.6x
#: the arithmetic (glbench fill_alu's 27 ALU instructions: 24.7 against 9.5 ms per
#: million lanes).
_FAST = {"sem_fadd(": "FAST_FADD(", "sem_fmul(": "FAST_FMUL(", "sem_fdiv(": "FAST_FDIV(",
         "sem_rcp(": "FAST_RCP(", "sem_rsqrt(": "FAST_RSQRT("}
FAST_PRELUDE = """
#define FAST_R(expr) ({ const float r__ = (expr); bad_ |= r__ != r__; r__; })
#define FAST_FADD(a, b) FAST_R((a) + (b))
#define FAST_FMUL(a, b) FAST_R((a) * (b))
#define FAST_FDIV(a, b) FAST_R((a) / (b))
#define FAST_RCP(a) FAST_R(1.0f / (a))
#define FAST_RSQRT(a) FAST_R(1.0f / __builtin_sqrtf(a))
"""
#: The same operations with no NaN rule and no test (``_span_function``, where no NaN's
#: payload can reach what the program leaves behind).
_RAW = {"sem_fadd(": "RAW_FADD(", "sem_fmul(": "RAW_FMUL(", "sem_fdiv(": "RAW_FDIV(",
        "sem_rcp(": "RAW_RCP(", "sem_rsqrt(": "RAW_RSQRT("}
RAW_PRELUDE = """
/* span functions: 256-bit vectors where gcc would prefer 128 (-march=znver1: the span
   loop runs about 10% faster, the results are the same) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX2__)
#define SPAN_TARGET __attribute__((target("prefer-vector-width=256")))
#else
#define SPAN_TARGET
#endif
#define RAW_FADD(a, b) ((a) + (b))
#define RAW_FMUL(a, b) ((a) * (b))
#define RAW_FDIV(a, b) ((a) / (b))
#define RAW_RCP(a) (1.0f / (a))
#define RAW_RSQRT(a) (1.0f / __builtin_sqrtf(a))
"""
#: Segments writing more rows than this run the exact loop only (the buffer is on the stack).
FAST_MAX_ROWS = 32


def _fast_body(lines: list[str], forms: dict = _FAST) -> list[str]:
    out = []
    for line in lines:
        for exact, fast in forms.items():
            line = line.replace(exact, fast)
        out.append(line)
    return out


def _lane_loop(name: str, body, regs: _Regs, pre: list[str] = (), special: tuple | list | None = None) -> str:
    """``void name(args, lo, hi)``: for every lane in [lo, hi) load the rows the body
    touches, run the body, store the written rows where the lane is active.
    ``special``: (C condition, body), or a list of them tried in order, used instead
    when the condition holds (e.g. unit strides, so the loop vectorises). A special
    may carry a third item (run key, per-run lines): lanes then go in runs of equal
    key (a C expression of lane ``i``), the per-run lines (of the run's first lane
    ``i0``) before each run's loop, so values constant over a run leave the loop; and
    optionally a fourth, (C condition the per-run lines set, body): runs where it
    holds use that body instead."""
    rows = sorted(regs.read | regs.written)
    loads = [f"uint32_t r{k} = R[{k} * S + i];" for k in rows]
    olds = [f"const uint32_t o{k} = r{k};" for k in sorted(regs.written)]
    stores_all = [f"R[{k} * S + i] = r{k};" for k in sorted(regs.written)]
    stores_masked = [f"R[{k} * S + i] = EX[i] ? r{k} : o{k};" for k in sorted(regs.written)]

    def loop(lines_body, stores, with_olds):
        lines = ['_Pragma("GCC ivdep")', "for (long i = lo; i < hi; i++) {"]
        lines += ["    " + x for x in loads + (olds if with_olds else []) + lines_body + stores]
        return lines + ["}"]

    def exact(lines_body):
        out = ["if (EX) {"] + ["    " + x for x in loop(lines_body, stores_masked, True)] + ["} else {"]
        return out + ["    " + x for x in loop(lines_body, stores_all, False)] + ["}"]

    written = sorted(regs.written)
    # ALU runs, and the per-run bodies of a special with runs (iter from each primitive's
    # planes, the PDM's form); not iter's other variants (each costs compile time)
    fast_ok = special is None and 0 < len(written) <= FAST_MAX_ROWS
    fast_runs = 0 < len(written) <= FAST_MAX_ROWS

    def both(lines_body, fast=fast_ok, direct_only=False):
        fast_body = _fast_body(lines_body)
        if not fast or fast_body == lines_body or (direct_only and regs.read & regs.written):
            return exact(lines_body)
        # NaN-free first (see _FAST): results into T_, kept only when no result was NaN
        ch = GROUP_CHUNK_LANES
        keep = [f"T_[{j}][i - c_] = r{k};" for j, k in enumerate(written)]
        put_masked = [f"R[{k} * S + i] = EX[i] ? T_[{j}][i - c_] : R[{k} * S + i];" for j, k in enumerate(written)]
        put_all = [f"R[{k} * S + i] = T_[{j}][i - c_];" for j, k in enumerate(written)]
        through_buffer = [f"for (long c_ = lo; c_ < hi; c_ += {ch}) {{",
                f"    const long e_ = hi - c_ > {ch} ? c_ + {ch} : hi;",
                "    int bad_ = 0;",
                '    _Pragma("GCC ivdep")',
                "    for (long i = c_; i < e_; i++) {",
                *["        " + x for x in loads + fast_body + keep],
                "    }",
                "    if (!bad_) {",
                "        if (EX) {",
                '            _Pragma("GCC ivdep")',
                "            for (long i = c_; i < e_; i++) {", *["                " + x for x in put_masked], "            }",
                "        } else {",
                '            _Pragma("GCC ivdep")',
                "            for (long i = c_; i < e_; i++) {", *["                " + x for x in put_all], "            }",
                "        }",
                "    } else {",
                "        const long lo = c_, hi = e_;",
                *["        " + x for x in exact(lines_body)],
                "    }",
                "}"]
        if regs.read & regs.written:
            return through_buffer
        # no row both read and written: with every lane active the NaN-free results go
        # straight to the rows, and a piece with a NaN runs the exact loop over them
        # again (it reads none of the rows written)
        direct = [f"for (long c_ = lo; c_ < hi; c_ += {ch}) {{",
                  f"    const long e_ = hi - c_ > {ch} ? c_ + {ch} : hi;",
                  "    int bad_ = 0;",
                  '    _Pragma("GCC ivdep")',
                  "    for (long i = c_; i < e_; i++) {",
                  *["        " + x for x in loads + fast_body + stores_all],
                  "    }",
                  "    if (bad_) {",
                  '        _Pragma("GCC ivdep")',
                  "        for (long i = c_; i < e_; i++) {",
                  *["            " + x for x in loads + lines_body + stores_all],
                  "        }",
                  "    }",
                  "}"]
        if direct_only:     # (compile time: the masked form stays exact)
            return ["if (!EX) {", *["    " + x for x in direct], "} else {",
                    *["    " + x for x in loop(lines_body, stores_masked, True)], "}"]
        return ["if (!EX) {", *["    " + x for x in direct], "} else {", *["    " + x for x in through_buffer], "}"]
    out = [f"void {name}(const args_t *A, long lo, long hi) {{",
           "    uint32_t *restrict R = A->r; const long S = A->S;",
           "    const uint8_t *restrict EX = A->exec; const uint32_t *restrict U = A->u;",
           "    (void)U; (void)EX;", *["    " + p for p in pre]]
    specials = [] if special is None else [special] if isinstance(special, tuple) else special
    if fast_ok:
        out.append(f"    uint32_t T_[{len(written)}][{GROUP_CHUNK_LANES}];")
    for cond, special_body, *runs in specials:
        lines = both(special_body, fast_runs and bool(runs), direct_only=True)
        if runs:
            key, per_run, *alternative = runs[0]
            first = key.replace("[i]", "[i0]")
            if alternative:       # (C condition set by the per-run lines, body) used instead for such runs
                alt_cond, alt_body = alternative[0]
                lines = [f"if ({alt_cond}) {{", *["    " + x for x in both(alt_body, fast_runs, direct_only=True)],
                         "} else {",
                         *["    " + x for x in lines], "}"]
            lines = ["for (long i0 = lo, i1; i0 < hi; i0 = i1) {",
                     f"    for (i1 = i0 + 1; i1 < hi && {key.replace('[i]', '[i1]')} == {first}; i1++) {{ }}",
                     *["    " + x for x in per_run],
                     "    {", "        const long lo = i0, hi = i1;",
                     *["        " + x for x in lines], "    }", "}"]
        out += [f"    if ({cond}) {{"] + ["        " + x for x in lines] + ["        return;", "    }"]
    out += ["    " + x for x in both(body)]
    return "\n".join(out + ["}"])


def _cf_function(name: str, ins: Instruction) -> str:
    """``long name(args, lo, hi)``: every lane's r0l updated (active or not), the new
    exec mask written to exec_out; returns the number of active lanes."""
    regs = _Regs()
    op = ins.op
    n = ins["n"]
    if op.name in ("pop_exec", "push_exec"):
        new = f"sem_{op.native}(v_, {n})"
        cond_lines = []
    else:
        test = _compare(ins, regs, op.name.endswith("fcmp"), 32)
        cond_lines = [f"const int c_ = {test};"]
        new = f"sem_{op.native}(v_, c_, {n})"
    rows = sorted(regs.read - {0})
    body = [f"uint32_t r{k} = R[{k} * S + i];" for k in rows]
    body += ["uint32_t r0 = R[i];", *cond_lines, "const uint16_t v_ = (uint16_t)(r0 & 0xffffu);",
             f"const uint16_t w_ = {new};", "R[i] = (r0 & 0xffff0000u) | w_;",
             "EXO[i] = w_ == 0;", "count += w_ == 0;"]
    return "\n".join([f"long {name}(const args_t *A, long lo, long hi) {{",
                      "    uint32_t *restrict R = A->r; const long S = A->S; (void)S;",
                      "    const uint32_t *restrict U = A->u; (void)U; uint8_t *restrict EXO = A->exec_out;",
                      "    long count = 0;", "    for (long i = lo; i < hi; i++) {",
                      *["        " + x for x in body], "    }", "    return count;", "}"])


def _iter_function(name: str, ins: Instruction) -> tuple[str, tuple]:
    """``iter`` at the pixel centre or centroid, from per-lane coefficients or from
    per-primitive planes and the lane's primitive (the PDM's form: no per-lane copy of
    the planes): each component p0 * x + p1 * y + p2 in binary32 in that order,
    divided by the W plane's value when perspective (as ``usc.frag.compile_iter``)."""
    dst, cf, loc = ins["dst"], ins["cf"], ins["loc"]
    if loc not in ("center", "centroid"):
        raise Unsupported(f"iter.{loc}")
    if dst.size != 32:
        raise Unsupported("16-bit iter")   # (a numpy step: rare, and written per component)
    regs = _Regs()
    persp = ins["interp"] == "persp"

    def body(unit_strides: bool, per_primitive: bool = False, divide: bool = True) -> list[str]:
        pl, cl = ("", "") if unit_strides else (" * PL", " * CL")
        plane = _primitive_plane_expr if per_primitive else _plane_expr
        return [f"const float px = P[i{pl}], py = P[PC + i{pl}];",
                *_iter_lines(ins, regs, lambda k: plane(k, cl), divide)]
    pre = ["const float *restrict CO = A->coef; const long CF = A->coef_cf, CI = A->coef_i, CL = A->coef_lane;",
           "const float *restrict P = A->pos; const long PC = A->pos_c, PL = A->pos_lane;",
           "const float *restrict PLN = A->planes; const int32_t *restrict PRIM = A->prim;",
           "const long PPS = A->planes_prim; (void)CO; (void)CF; (void)CI; (void)CL; (void)PLN; (void)PRIM;"]
    general = body(False)
    # per-primitive planes: lanes in runs of one primitive, whose planes are loop
    # constants; positions of unit stride only (the PDM's; else the numpy step runs,
    # see tier._BatchArgs): each variant costs compile time (gcc vectorises each)
    runs = ("PRIM[i]", ["const float *restrict PP = PLN + (long)PRIM[i0] * PPS;"])
    if persp:
        # a primitive whose W plane is exactly (0, 0, 1) (every w = 1: a 2D draw) and
        # whose lanes' positions are finite: w_ is then exactly 1.0f, and the quotient
        # sem_fdiv(v, 1.0f) is v bit for bit (v is a sum from nan2, so a NaN in it is
        # already quiet): the run skips W and the divisions
        w = 3 * ins["cf_w"]
        w_one = [f"int w_one_ = PP[{w}] == 0.0f && PP[{w + 1}] == 0.0f && PP[{w + 2}] == 1.0f;",
                 "if (w_one_) {", "    int finite_ = 1;",
                 "    for (long i = i0; i < i1; i++) finite_ &= __builtin_isfinite(P[i]) & __builtin_isfinite(P[PC + i]);",
                 "    w_one_ = finite_;", "}"]
        runs = (runs[0], runs[1] + w_one, ("w_one_", body(True, True, divide=False)))
    special = [("PLN", body(True, True), runs), ("CL == 1 && PL == 1", body(True))]
    read_cf = [cf + c for c in range(dst.count)] + ([ins["cf_w"]] if persp else [])
    return _lane_loop(name, general, regs, pre, special=special), \
        ("coefficients", f"cf_count:{max(read_cf) + 1}", f"position:{loc}")


def _iter_lines(ins: Instruction, regs: _Regs, plane, divide: bool, w: str = "w_") -> list[str]:
    """One lane's ``iter`` (C locals ``px``, ``py`` in scope): each component's plane
    ``plane(k)`` (a C expression of coefficient register k), divided by the W plane's
    value (local ``w``) when perspective and ``divide``."""
    dst, cf = ins["dst"], ins["cf"]
    persp = ins["interp"] == "persp" and divide
    lines = [f"const float {w} = {plane(ins['cf_w'])};"] if persp else []
    for c in range(dst.count):
        v = plane(cf + c)
        if persp:
            v = f"sem_fdiv({v}, {w})"
        lines += _write_float(Reg("r", dst.half + 2 * c, 32), v, False, regs)
    return lines


def _plane_expr(k: int, lane_stride: str) -> str:
    """p0 * x + p1 * y + p2 of coefficient register k, rounded after each operation."""
    base = f"(CO + {k} * CF)"
    p = [f"{base}[{j} * CI + i{lane_stride}]" for j in range(3)]
    return f"sem_fadd(sem_fadd(sem_fmul({p[0]}, px), sem_fmul({p[1]}, py)), {p[2]})"


def _primitive_plane_expr(k: int, lane_stride: str = "") -> str:
    """``_plane_expr`` from the lane's primitive's planes (``PP``: its row of cf_planes)."""
    p = [f"PP[{3 * k + j}]" for j in range(3)]
    return f"sem_fadd(sem_fadd(sem_fmul({p[0]}, px), sem_fmul({p[1]}, py)), {p[2]})"


class _TileWord:
    """A unorm ``ld_tile``/``st_tile`` whose vector elements fill one aligned word per
    lane (RGBA8: 4 bytes): its register, word size and C types. Raises
    :class:`Unsupported` for other forms (a numpy step runs them)."""

    def __init__(self, ins: Instruction):
        fmt = ins["fmt"]
        self.ins, self.store = ins, ins.op.name == "st_tile"
        self.reg = r = ins["data"] if self.store else ins["dst"]
        if fmt not in ("unorm8", "unorm16") or r.size != 32:
            raise Unsupported(f"{ins.op.name}.{fmt} of {r.size}-bit registers")
        esize = FORMAT_ELEMENT_B[fmt]
        self.word_B = esize * r.count
        if self.word_B not in (2, 4, 8):
            raise Unsupported(f"{ins.op.name}: {r.count} x {esize}-byte elements")
        if self.store and ins["mask"] != (1 << r.count) - 1:
            raise Unsupported("st_tile with a partial write mask")
        self.bits = 8 * esize
        self.wt = {2: "uint16_t", 4: "uint32_t", 8: "uint64_t"}[self.word_B]
        self.et = {1: "uint8_t", 2: "uint16_t"}[esize]

    def pack(self, regs: _Regs) -> str:
        """C expression: the word st_tile stores (each element to unorm, as ``semantics``)."""
        r, wt, bits = self.reg, self.wt, self.bits
        return " | ".join(f"({wt})sem_to_unorm(fb({regs.row(r.half // 2 + c)}), {bits}) << {bits * c}"
                          for c in range(r.count))

    def unpack(self, word: str, regs: _Regs) -> list[str]:
        """Statements writing ld_tile's registers from the C word ``word``."""
        out = []
        for c in range(self.reg.count):
            out += _write_float(Reg("r", self.reg.half + 2 * c, 32),
                                f"sem_from_unorm(({self.et})({word} >> {self.bits * c}), {self.bits})", False, regs)
        return out


def _tile_function(name: str, ins: Instruction) -> tuple[str, tuple]:
    """``ld_tile``/``st_tile`` of unorm8/unorm16 vectors whose elements fill one aligned
    word per lane (``_TileWord``). A first pass finds the first lane whose word is
    outside the tile buffer (then nothing is accessed and the interpreter's step runs
    and faults as it does); st_tile writes only lanes active and alive, in lane order."""
    offset = ins["offset"]
    tw = _TileWord(ins)
    word_B, bits = tw.word_B, tw.bits
    regs = _Regs()
    wt = tw.wt
    store = tw.store
    live = "(!EX || EX[i]) && !DEAD[i]" if store else "(!EX || EX[i])"
    bad_if = f"(({live}) && (a_ < 0 || a_ + {word_B} > TB || (a_ & {word_B - 1})))"
    # reductions (vectorise: bitwise operators, a loop with the exec mask and one
    # without); the first bad lane only if any. Under ord<k>, which checked every
    # active lane's access for the whole run, only the live count.
    def counts(ex: bool) -> list[str]:
        lv = ("(long)(EX[i] & (DEAD[i] ^ 1))" if ex else "(long)(DEAD[i] ^ 1)") if store else \
            ("(long)EX[i]" if ex else "1L")
        return ["        if (A->tile_checked) {",
                *([f"            for (long i = lo; i < hi; i++) nlive += {lv};"] if store else []),
                "        } else {",
                "            for (long i = lo; i < hi; i++) {",
                f"                const int64_t a_ = TI[i] * RB + {offset};",
                f"                const long l_ = {lv};",
                f"                nbad += l_ & ((a_ < 0) | (a_ + {word_B} > TB) | ((a_ & {word_B - 1}) != 0));",
                "                nlive += l_;",
                "            }",
                "        }"]
    check = ["    long nbad = 0, nlive = 0;", "    if (EX) {", *counts(True), "    } else {", *counts(False), "    }",
             "    (void)nlive;",
             "    if (nbad) {",
             "        for (long i = lo; i < hi; i++) {",
             f"            const int64_t a_ = TI[i] * RB + {offset};",
             f"            if {bad_if} {{ *A->bad_lane = i; return; }}",
             "        }",
             "    }"]
    # In pieces of GROUP_CHUNK_LANES lanes: the unorm conversions in a loop of their
    # own, which vectorises (the gather or scatter of the words does not), and the
    # words of the piece through a buffer W_.
    ch = GROUP_CHUNK_LANES
    head = [f"    {wt} W_[{ch}];",
            f"    for (long c_ = lo; c_ < hi; c_ += {ch}) {{",
            f"        const long e_ = hi - c_ > {ch} ? c_ + {ch} : hi;"]
    if store:
        word = tw.pack(regs)
        loads = [f"uint32_t r{j} = R[{j} * S + i];" for j in sorted(regs.read)]
        pack = ['        _Pragma("GCC ivdep")', "        for (long i = c_; i < e_; i++) {",
                *["            " + x for x in loads], f"            W_[i - c_] = " + word + ";", "        }"]
        put = f"{{ const int64_t a_ = TI[i] * RB + {offset}; memcpy(T + a_, &W_[i - c_], {word_B}); }}"
        # every lane live (the common case): the same loop without the test; stores in lane order
        scatter = ["        if (nlive == hi - lo) {",
                   f"            for (long i = c_; i < e_; i++) {put}",
                   "        } else {",
                   f"            for (long i = c_; i < e_; i++) if ({live}) {put}",
                   "        }"]
        loop = [*head, *pack, *scatter, "    }"]
    else:
        # every lane loads (an inactive lane the word at 0, in range since an active
        # lane's was: the block runs only with one); only active lanes keep the result
        gather = ["        for (long i = c_; i < e_; i++) {",
                  f"            const int64_t a_ = (!EX || EX[i]) ? TI[i] * RB + {offset} : 0;",
                  f"            memcpy(&W_[i - c_], T + a_, {word_B});", "        }"]
        body = [f"const {wt} w_ = W_[i - c_];", *tw.unpack("w_", regs)]
        rows = sorted(regs.read | regs.written)
        inner = [*[f"uint32_t r{j} = R[{j} * S + i];" for j in rows],
                 *[f"const uint32_t o{j} = r{j};" for j in sorted(regs.written)], *body,
                 *[f"R[{j} * S + i] = EX[i] ? r{j} : o{j};" for j in sorted(regs.written)]]
        # every lane active: a loop without the select, which vectorises (the select
        # on EX kept gcc to scalar conversions)
        every = [*[f"uint32_t r{j} = R[{j} * S + i];" for j in rows], *body,
                 *[f"R[{j} * S + i] = r{j};" for j in sorted(regs.written)]]
        loop = [*head, *gather, "        if (EX) {", '            _Pragma("GCC ivdep")',
                "            for (long i = c_; i < e_; i++) {", *["                " + x for x in inner], "            }",
                "        } else {", '            _Pragma("GCC ivdep")',
                "            for (long i = c_; i < e_; i++) {", *["                " + x for x in every], "            }",
                "        }", "    }"]
    text = "\n".join([f"void {name}(const args_t *A, long lo, long hi) {{",
                      "    uint32_t *restrict R = A->r; const long S = A->S;",
                      "    const uint8_t *restrict EX = A->exec; const uint8_t *restrict DEAD = A->dead; (void)DEAD;",
                      "    uint8_t *restrict T = A->tile; const long TB = A->tile_B, RB = A->record_B;",
                      "    const int64_t *restrict TI = A->tile_index;",
                      *check, *loop, "}"])
    return text, ("tile",)


def _quad_function(name: str, ins: Instruction) -> tuple[str, tuple]:
    """dfdx/dfdy over whole 2x2 quads (lanes 4q + 2*row + col, as
    ``semantics.quad_dfdx``/``quad_dfdy``): the four sources are read before any
    result is written, so a destination may be the source. Only in fragment
    contexts (``quads``); elsewhere the numpy step writes its zeros."""
    dst, src = ins["dst"], ins["a"]
    regs = _Regs()
    a = _float(src, ins["a_abs"], ins["a_neg"], regs)     # the source of one lane, from locals rN
    rows = sorted(regs.read)
    pairs = ((1, 0), (1, 0), (3, 2), (3, 2)) if ins.op.name == "dfdx" else ((2, 0), (3, 1), (2, 0), (3, 1))
    body = []
    for k in range(4):
        body.append("{ " + " ".join(f"uint32_t r{j} = R[{j} * S + q + {k}];" for j in rows) + f" v[{k}] = {a}; }}")
    out_regs = _Regs()
    writes = []
    for k, (x, y) in enumerate(pairs):
        stmts = _write_float(dst, f"nan2(v[{x}] - v[{y}], v[{x}], v[{y}])", ins["sat"], out_regs)
        load, store = _row_moves(out_regs, f"q + {k}")
        writes.append(f"if (!EX || EX[q + {k}]) {{ {load} {' '.join(stmts)} {store} }}")
    text = "\n".join([f"void {name}(const args_t *A, long lo, long hi) {{",
                      "    uint32_t *restrict R = A->r; const long S = A->S;",
                      "    const uint8_t *restrict EX = A->exec; const uint32_t *restrict U = A->u; (void)U;",
                      "    for (long q = lo; q < hi; q += 4) {",
                      "        float v[4];",
                      *["        " + b for b in body],
                      *["        " + w for w in writes],
                      "    }", "}"])
    return text, ("quads",)


def _vote_function(name: str, ins: Instruction) -> tuple[str, tuple]:
    """A cross-lane vote (``semantics.vote``) over each SIMD group of 32 lanes, groups
    restarting every ``group_span`` lanes (a threadgroup, or the whole batch): the
    active lanes' sources are read before any result is written. Runs on one thread
    over the whole batch (a shared unit), as chunks need not align with groups."""
    dst, n = ins["dst"], ins["dst"].size
    regs = _Regs()
    a = _raw(ins["a"], n, regs)
    rows = sorted(regs.read)
    read = " ".join(f"uint32_t r{j} = R[{j} * S + i];" for j in rows)
    result = {"any": "some", "all": "every", "eq": "(every | !some)"}[ins["mode"]]
    out_regs = _Regs()
    stmts = _write_raw(dst, "(uint64_t)res_", out_regs)
    load, store = _row_moves(out_regs)
    text = "\n".join([*_simd_group_loop(name),
                      "            int some = 0, every = 1;",
                      "            for (long i = g; i < gend; i++) {",
                      "                if (EX && !EX[i]) continue;",
                      f"                {{ {read} const int t_ = ({a}) != 0; some |= t_; every &= t_; }}",
                      "            }",
                      f"            const uint32_t res_ = (uint32_t)({result});",
                      "            for (long i = g; i < gend; i++) {",
                      f"                if (!EX || EX[i]) {{ {load} {' '.join(stmts)} {store} }}",
                      "            }",
                      "        }", "    }", "}"])
    return text, ("simd_groups",)


def _simd_group_loop(name: str) -> list[str]:
    """The opening of a function over whole SIMD groups of the batch (``vote``,
    ``simd``): ``g``..``gend`` is one group of at most ``SIMD_GROUP_LANES`` lanes,
    inside the thread's spans of ``group_span`` lanes; the body and the two closing
    braces of the loops follow."""
    return [f"void {name}(const args_t *A, long lo, long hi) {{",
            "    uint32_t *restrict R = A->r; const long S = A->S;",
            "    const uint8_t *restrict EX = A->exec; const uint32_t *restrict U = A->u; (void)U;",
            "    const long G = A->group_span;",
            "    for (long t = lo; t < hi; t += G) {",
            "        const long tend = t + G < hi ? t + G : hi;",
            f"        for (long g = t; g < tend; g += {SIMD_GROUP_LANES}) {{",
            f"            const long gend = g + {SIMD_GROUP_LANES} < tend ? g + {SIMD_GROUP_LANES} : tend;"]


def _simd_function(name: str, ins: Instruction) -> tuple[str, tuple]:
    """Cross-lane reads within each SIMD group (``semantics.simd``), groups as for
    ``vote``: every lane's sources are read into the group's arrays before any result
    is written (a destination may be a source). One thread over the batch (a shared unit)."""
    dst = ins["dst"]
    regs = _Regs()
    a, b = _raw(ins["a"], 32, regs), _raw(ins["b"], 32, regs)
    read = " ".join(f"uint32_t r{j} = R[{j} * S + i];" for j in sorted(regs.read))
    result = {"ballot": "mask", "shuffle": "(g + (long)(bv[i - g] & 31u) < gend ? av[bv[i - g] & 31u] : 0u)",
              "first": "(first >= 0 ? av[first] : 0u)", "lane": "(uint32_t)(i - g)"}[ins["mode"]]
    out_regs = _Regs()
    stmts = _write_raw(dst, "(uint64_t)res_", out_regs)
    load, store = _row_moves(out_regs)
    text = "\n".join([*_simd_group_loop(name),
                      f"            uint32_t av[{SIMD_GROUP_LANES}], bv[{SIMD_GROUP_LANES}], mask = 0u; long first = -1;",
                      "            for (long i = g; i < gend; i++) {",
                      f"                {{ {read} av[i - g] = (uint32_t)({a}); bv[i - g] = (uint32_t)({b}); }}",
                      "                if (!EX || EX[i]) {",
                      "                    if (first < 0) first = i - g;",
                      "                    if (av[i - g]) mask |= 1u << (i - g);",
                      "                }",
                      "            }",
                      "            (void)mask; (void)first; (void)av; (void)bv;",
                      "            for (long i = g; i < gend; i++) {",
                      f"                if (!EX || EX[i]) {{ const uint32_t res_ = {result}; {load} {' '.join(stmts)} {store} }}",
                      "            }",
                      "        }", "    }", "}"])
    return text, ("simd_groups",)


def _ufunc_function(name: str, ins: Instruction) -> tuple[str, tuple]:
    """``log2``/``exp2``/``sin``/``cos`` through numpy's own binary32 loop (``ufuncs``:
    the interpreter's implementation, called from C on a buffer): per piece of
    ``GROUP_CHUNK_LANES`` lanes the sources are read into a buffer (abs, neg and
    binary16 widening as ``float_reader``), the loop runs over every lane of the piece
    (as the numpy step runs over every lane of the batch), and the results are written
    where the lane is active (saturated, rounded to a 16-bit destination, as
    ``float_writer``)."""
    from uapi.native_ufuncs import UFUNC_OPS
    k = UFUNC_OPS.index(ins.op.name)
    src = _Regs()
    a = _float(ins["a"], ins.values.get("a_abs", False), ins.values.get("a_neg", False), src)
    dst = _Regs()
    stmts = _write_float(ins["dst"], "out_[i - c]", ins.values.get("sat", False), dst)
    reads = [f"uint32_t r{j} = R[{j} * S + i];" for j in sorted(src.read)]
    loads = [f"uint32_t r{j} = R[{j} * S + i];" for j in sorted(dst.read | dst.written)]
    olds = [f"const uint32_t o{j} = r{j};" for j in sorted(dst.written)]
    masked = [f"R[{j} * S + i] = EX[i] ? r{j} : o{j};" for j in sorted(dst.written)]
    every = [f"R[{j} * S + i] = r{j};" for j in sorted(dst.written)]
    ch = GROUP_CHUNK_LANES
    text = "\n".join([
        f"void {name}(const args_t *A, long lo, long hi) {{",
        "    uint32_t *restrict R = A->r; const long S = A->S;",
        "    const uint8_t *restrict EX = A->exec; const uint32_t *restrict U = A->u; (void)U;",
        f"    void (*const f_)(char **, const long *, const long *, void *) = "
        f"(void (*)(char **, const long *, const long *, void *))A->uf[{k}];",
        f"    void *const d_ = A->ufd[{k}];",
        f"    float in_[{ch}], out_[{ch}];",
        "    const long steps_[2] = {4, 4};",
        f"    for (long c = lo; c < hi; c += {ch}) {{",
        f"        const long e = hi - c > {ch} ? c + {ch} : hi, n_ = e - c;",
        '        _Pragma("GCC ivdep")',
        "        for (long i = c; i < e; i++) {",
        *["            " + x for x in reads], f"            in_[i - c] = {a};", "        }",
        "        char *args_[2] = {(char *)in_, (char *)out_};",
        "        f_(args_, &n_, steps_, d_);",
        "        if (EX) {",
        '            _Pragma("GCC ivdep")',
        "            for (long i = c; i < e; i++) {",
        *["                " + x for x in loads + olds + stmts + masked], "            }",
        "        } else {",
        '            _Pragma("GCC ivdep")',
        "            for (long i = c; i < e; i++) {",
        *["                " + x for x in loads + stmts + every], "            }",
        "        }",
        "    }",
        "}"])
    return text, ("ufuncs",)


def _ufunc_op(ins: Instruction) -> bool:
    from uapi.native_ufuncs import UFUNC_OPS
    return ins.op.unit == "falu" and ins.op.native is None and ins.op.name in UFUNC_OPS


def _group_function(name: str, members: list) -> str:
    """``void name(args, lo, hi)``: lanes lo..hi through every member, a piece of
    ``GROUP_CHUNK_LANES`` lanes at a time (each member lane-local: the order of
    pieces cannot change a result; pieces start at lo + a multiple of 4, so quads
    stay whole when lo is a quad's first lane)."""
    ch = GROUP_CHUNK_LANES
    return "\n".join([f"void {name}(const args_t *A, long lo, long hi) {{",
                      f"    for (long c = lo; c < hi; c += {ch}) {{",
                      f"        const long e = hi - c > {ch} ? c + {ch} : hi;",
                      *[f"        {m.name}(A, c, e);" for m in members],
                      "    }", "}"])


#: Device loads a program may run natively (``args_t``'s device slots).
DEV_SLOTS = 4


def _device_load_function(name: str, ins: Instruction, slot: int) -> tuple[str, tuple] | None:
    """``device_load`` of the buffer form (``usc.mem.device_word_form``: a uniform 64-bit
    base, a 32-bit register index, ``i32`` words into 32-bit registers; or the same with
    a 32-bit uniform index: a scalar the driver keeps in memory, read in a loop) as a
    loop over the active lanes that copies each lane's words from the memory run
    holding the base (``args_t`` slot ``slot``, filled per batch by the tier from
    ``run_window``: need ``device:<slot>:<base uniform>:<bytes>``). The address is base
    + (sign-extended index << shift) modulo 2^64, as the numpy step's. Every active
    lane's words are checked to lie in the run first: if one does not, the function
    stores nothing and sets ``bad_lane`` (the numpy step then runs the instruction and
    faults as it does). None for other forms (a numpy step)."""
    from ..usc.mem import device_word_form
    dst, index, base = ins["dst"], ins["index"], ins["base"]
    if isinstance(index, Reg) and index.file == "u" and index.size == 32:   # the uniform-index form
        if not (isinstance(base, Reg) and base.file == "u" and base.size == 64 and ins["fmt"] == "i32"
                and dst.file == "r" and dst.size == 32):
            return None
        idx = f"U[{index.half // 2}]"
        sh, u, first, k = int(ins["shift"]), base.half // 2, dst.half // 2, dst.count
    else:
        form = device_word_form(ins, dst)
        if form is None:
            return None
        row, sh, u, first, k = form
        idx = f"R[{row} * S + i]"
    if not 0 <= sh < 32:
        return None
    addr = f"((uint64_t)(int64_t)(int32_t){idx} << {sh}) + base_"
    return "\n".join([
        f"void {name}(const args_t *A, long lo, long hi) {{",
        "    uint32_t *restrict R = A->r; const long S = A->S;",
        "    const uint8_t *restrict EX = A->exec; const uint32_t *restrict U = A->u;",
        f"    const uint8_t *W = A->dev_win[{slot}]; const uint64_t WV = A->dev_va[{slot}];",
        f"    const uint64_t last_ = A->dev_len[{slot}] - {4 * k};     /* (the tier gives runs of >= {4 * k} bytes) */",
        f"    const uint64_t base_ = (uint64_t)U[{u}] | (uint64_t)U[{u + 1}] << 32;",
        "    for (long i = lo; i < hi; i++) {",
        "        if (EX && !EX[i]) continue;",
        f"        const uint64_t a_ = {addr};",
        "        if (a_ < WV || a_ - WV > last_) { *A->bad_lane = i; return; }",
        "    }",
        "    for (long i = lo; i < hi; i++) {",
        "        if (EX && !EX[i]) continue;",
        f"        const uint8_t *p_ = W + (({addr}) - WV);",
        *[f"        memcpy(&R[{first + c} * S + i], p_ + {4 * c}, 4);" for c in range(k)],
        "    }",
        "}"]), (f"device:{slot}:{u}:{4 * k}",)


#: Texture instructions a program may run natively (``args_t``'s texture slots).
TEX_SLOTS = 4


def _texture_function(name: str, ins: Instruction, slot: int, index: int) -> tuple[str, tuple]:
    """``texture_sample`` of the texture unit's row form (``usc.tex``: a 2D sample of
    32-bit coordinate rows into 32-bit destination rows, implicit LOD, bias or given
    LOD, no comparison, offsets or gather, one descriptor pair for the batch) as one
    call of the unit's C sampler on the batch's rows: the function and the pair's
    plan come in ``args_t``'s texture slot (``needs`` ``tex:<slot>:<index>``: the
    interpreter step's ``native_call``, per batch). Like a shared segment it runs
    over the whole batch on one thread; with lanes masked, or when the sampler
    refuses the call (it then writes nothing: a coordinate it does not take), it
    sets ``bad_lane`` and the interpreter's step runs instead."""
    from uapi.native_ufuncs import UFUNC_OPS
    dst, coords, mode = ins["dst"], ins["coords"], ins["lod_mode"]
    if slot >= TEX_SLOTS or ins["dim"] != "2d" or mode not in ("auto", "bias", "lod") or ins["compare"] \
            or ins["offset"] or ins["gather"] or coords.size != 32 or dst.size != 32 or coords.file != "r" \
            or coords.count < 2 or dst.file != "r":
        raise Unsupported("texture_sample of another form")
    for src in (ins["tex"], ins["samp"]):
        if isinstance(src, Reg) and src.file == "r":
            raise Unsupported("texture_sample with per-lane descriptors")

    def operand(src) -> tuple[str, str]:
        """(C pointer, step) of a float operand read per lane (a row) or once."""
        if isinstance(src, Imm):
            return "&imm_", "0"
        if src.size != 32:
            raise Unsupported(f"{src.size}-bit LOD operand")
        if src.file == "u":
            return f"(const float *)(U + {src.half // 2})", "0"
        return f"(const float *)(R + {src.half // 2} * S + lo)", "1"
    lod_src = ins["lod"] if mode in ("bias", "lod") else None
    imm = [f"const float imm_ = fb({_u32_literal(_float_bits_of_imm(lod_src.code))});"] \
        if isinstance(lod_src, Imm) else []
    if mode == "lod":
        lod, bias = ", ".join(operand(lod_src)), "NULL, 0"
    elif mode == "bias":
        lod, bias = "quads ? NULL : &zero_, 0", ", ".join(operand(lod_src))
    else:
        lod, bias = "quads ? NULL : &zero_, 0", "NULL, 0"
    c0 = coords.half // 2
    outs = ", ".join(f"(float *)(R + {dst.half // 2 + c} * S + lo)" if c < dst.count else "NULL" for c in range(4))
    log2 = UFUNC_OPS.index("log2")
    text = "\n".join([
        f"void {name}(const args_t *A, long lo, long hi) {{",
        "    typedef int (*tex_fn_)(const void *, const uint32_t *, int, const float *, const float *, int,",
        "                           const float *, int, const float *, int, void *, void *, float **);",
        "    uint32_t *restrict R = A->r; const long S = A->S; const uint32_t *restrict U = A->u; (void)U;",
        f"    if (A->exec || !A->tex_fn || !A->tex_plan[{slot}] || hi - lo > 0x7fffffffL) {{ *A->bad_lane = lo; return; }}",
        f"    const int quads = A->tex_quads[{slot}] != 0; (void)quads;",
        "    static const float zero_ = 0.0f; (void)zero_;",
        *["    " + x for x in imm],
        f"    float *out_[4] = {{{outs}}};",
        f"    if (((tex_fn_)A->tex_fn)(A->tex_plan[{slot}], A->tex_words[{slot}], (int)(hi - lo),",
        f"                             (const float *)(R + {c0} * S + lo), (const float *)(R + {c0 + 1} * S + lo),",
        f"                             quads, {lod}, {bias}, A->uf[{log2}], A->ufd[{log2}], out_))",
        "        *A->bad_lane = lo;",
        "}"])
    needs = (f"tex:{slot}:{index}",) + (("ufuncs",) if mode != "lod" else ())
    return text, needs


_OWN_LOOP = {"iter": _iter_function, "ld_tile": _tile_function, "st_tile": _tile_function,
             "quad": _quad_function, "vote": _vote_function, "simd": _simd_function}

#: The C forms (an ISA table entry's ``native`` name) this generator writes itself rather
#: than calling a function of uapi.isa.native's prelude.
GENERATOR_FORMS = frozenset({"select", "convert", "mov", "mov_imm", "iter", "ld_tile", "st_tile", "dfdx", "dfdy",
                             "vote", "simd", "texture_sample"})


# ---------------------------------------------------------------------------
# The plan

def generate(prog) -> Plan:
    """The C translation and run plan of a decoded ``usc.core.Program``. Raises
    :class:`Unsupported` when an instruction with a native form has operands the
    generator does not handle."""
    from ..usc.control import ALWAYS, JMP_ANY, JMP_NONE, MASKED, STOP, WAIT, _blocks

    known = c_functions()
    for _, ins in prog.instructions:
        nat = ins.op.native
        if nat is not None and ins.op.unit in ("falu", "ialu", "cf") and nat not in known:
            raise Unsupported(f"{ins.op.name}: no C function sem_{nat}")
    parts = [C_PRELUDE, FAST_PRELUDE, RAW_PRELUDE, ARGS_CDEF]
    plan = Plan("")
    tex_slots = 0                   # texture segments so far (their args_t slots)
    dev_slots = 0                   # device load segments so far (theirs)
    steps = prog.steps
    blocks = _blocks(steps)
    starts = _block_starts(steps)
    for (kind, payload, target, nxt, size), start in zip(blocks, starts):
        if kind == MASKED:
            items, run = [], []

            def flush():
                if run:
                    name = f"seg{len(plan.functions)}"
                    regs, body = _Regs(), []
                    for j in run:
                        body += _LANE_LOCAL[prog.instructions[j][1].op.unit](prog.instructions[j][1], regs)
                    parts.append(_lane_loop(name, body, regs))
                    plan.functions.append(name)
                    items.append(Seg(name, run[0], len(run)))
                    plan.native_count += len(run)
                    run.clear()
            for j in range(start, start + size):
                ins = prog.instructions[j][1]
                if lane_local(ins):
                    run.append(j)
                    continue
                flush()
                ufunc = _ufunc_op(ins)
                if ins.op.unit == "device_load" and dev_slots < DEV_SLOTS:
                    got = _device_load_function(f"seg{len(plan.functions)}", ins, dev_slots)
                    if got is None:
                        items.append(Step(j))
                        plan.step_count += 1
                        continue
                    text, needs = got
                    dev_slots += 1
                    parts.append(text)
                    plan.functions.append(f"seg{len(plan.functions)}")
                    items.append(Seg(plan.functions[-1], j, 1, shared=True, needs=needs))
                    plan.native_count += 1
                elif ins.op.unit == "texture_sample" and ins.op.native is not None:
                    name = f"seg{len(plan.functions)}"
                    try:
                        text, needs = _texture_function(name, ins, tex_slots, j)
                    except Unsupported:
                        items.append(Step(j))
                        plan.step_count += 1
                        continue
                    tex_slots += 1
                    parts.append(text)
                    plan.functions.append(name)
                    items.append(Seg(name, j, 1, shared=True, needs=needs))
                    plan.native_count += 1
                elif ufunc or (ins.op.unit in _OWN_LOOP and ins.op.native is not None):
                    name = f"seg{len(plan.functions)}"
                    try:
                        text, needs = (_ufunc_function if ufunc else _OWN_LOOP[ins.op.unit])(name, ins)
                    except Unsupported:
                        items.append(Step(j))
                        plan.step_count += 1
                        continue
                    parts.append(text)
                    plan.functions.append(name)
                    items.append(Seg(name, j, 1, shared=ins.op.unit in SHARED_UNITS, needs=needs))
                    plan.native_count += 1
                else:
                    items.append(Step(j))
                    plan.step_count += 1
            flush()
            plan.blocks.append((MASKED, _fuse(items, plan, parts), target, nxt, size))
        elif kind == ALWAYS and prog.instructions[start][1].op.unit == "cf":
            name = f"cf{len(plan.functions)}"
            parts.append(_cf_function(name, prog.instructions[start][1]))
            plan.functions.append(name)
            plan.native_count += 1
            plan.blocks.append((ALWAYS, Cf(name, start), target, nxt, size))
        elif kind == ALWAYS:
            plan.blocks.append((ALWAYS, Step(start), target, nxt, size))
        else:
            assert kind in (JMP_ANY, JMP_NONE, STOP, WAIT)
            plan.blocks.append((kind, None, target, nxt, size))
    _ordered_function(prog, plan, parts)
    _span_function(prog, plan, parts)
    _walk_function(plan, parts)

    table = ", ".join(f"(void *){name}" for name in plan.functions) or "0"
    parts.append(f"static void *const functions_[] = {{{table}}};\n"
                 "void *const *shimgl_native_functions(void) { return functions_; }")
    plan.source = f"/* generated by drmshim.gpu.native, version {GENERATOR_VERSION} */\n" + "\n\n".join(parts) + "\n"
    return plan


#: ``walk``'s state array (int64): the block, the instructions run, the limit, the
#: active lanes (n: every lane, 0: none; else any count in between), whether control
#: flow changed the exec mask (then it is ``exec_out``, or every lane when all are active).
WALK_BLOCK, WALK_COUNT, WALK_LIMIT, WALK_ACTIVE, WALK_EXEC, WALK_ITEM = range(6)
WALK_STATE = 6


def _device_seg(it) -> bool:
    return isinstance(it, Seg) and bool(it.needs) and all(n.startswith("device:") for n in it.needs)


def _walk_function(plan: Plan, parts: list) -> None:
    """``walk(args, n, st)`` (``Plan.walk``): the interpreter's block loop (``usc.control.
    walk_blocks``) in C over the blocks whose every part is native code that needs
    nothing from the context (lane-local segments and groups, control flow, jumps,
    waits), from block ``st[WALK_BLOCK]`` until it reaches a block that is not (a numpy
    step, a shared or context segment, the end; Python runs it and calls again) or
    the instruction count passes its limit. Each block's parts are the same calls
    Python's walk makes, in the same order, over the whole batch on this thread, and
    the count advances by the block's size as there: a loop of native blocks costs no
    Python per block (the order test's hailstone loop ran ~10 Python hand-offs an
    iteration). Python uses it when no call would be split over threads (``walk_count``)."""
    from ..usc.control import ALWAYS, JMP_ANY, JMP_NONE, MASKED, WAIT
    cases, ok, most, needs = [], [], 0, {}
    for k, (kind, items, target, nxt, size) in enumerate(plan.blocks):
        body = None
        if kind == MASKED and all(_device_seg(it) or isinstance(it, (Seg, Grp)) and not it.needs
                                  and not getattr(it, "shared", False) for it in items):
            calls = []
            for j, it in enumerate(items):
                if _device_seg(it):     # a load outside its run: Python goes on from this part (numpy step)
                    needs.update(dict.fromkeys(it.needs))
                    calls.append(f"*A->bad_lane = -1; {it.name}(A, 0, n); "
                                 f"if (*A->bad_lane >= 0) {{ st[{WALK_ITEM}] = {j}; goto out; }}")
                else:
                    calls.append(f"{it.name}(A, 0, n);")
            most = max([most] + [it.count for it in items])
            body = f"if (active) {{ {' '.join(calls)} }} i = {nxt};"
        elif kind == ALWAYS and isinstance(items, Cf):
            body = (f"active = {items.name}(A, 0, n); A->exec = active == n ? 0 : A->exec_out; "
                    f"st[{WALK_EXEC}] = 1; i = {nxt};")
            most = max(most, 1)
        elif kind == JMP_ANY:
            body = f"i = active ? {target} : {nxt};"
        elif kind == JMP_NONE:
            body = f"i = active ? {nxt} : {target};"
        elif kind == WAIT:
            body = f"i = {nxt};"
        ok.append(body is not None)
        if body is not None:
            cases.append(f"        case {k}: {body} count += {size}; break;")
    if not any(ok[k] and plan.blocks[k][0] in (MASKED, ALWAYS) for k in range(len(ok))):
        return
    name = f"walk{len(plan.functions)}"
    parts.append("\n".join([
        f"void {name}(const args_t *A0, long n, long *st) {{",
        "    args_t A_ = *A0; args_t *A = &A_;",
        f"    long i = st[{WALK_BLOCK}], count = st[{WALK_COUNT}], active = st[{WALK_ACTIVE}];",
        f"    const long limit = st[{WALK_LIMIT}];",
        "    for (;;) {",
        "        switch (i) {",
        *cases,
        "        default: goto out;",
        "        }",
        "        if (count > limit) break;",
        "    }",
        "out:",
        f"    st[{WALK_BLOCK}] = i; st[{WALK_COUNT}] = count; st[{WALK_ACTIVE}] = active;",
        "}"]))
    plan.functions.append(name)
    plan.walk, plan.walk_blocks, plan.walk_count, plan.walk_needs = name, tuple(ok), most, tuple(needs)


def _fuse(items: list, plan: Plan, parts: list) -> list:
    """Runs of two or more consecutive lane-local segments (not shared) -> one ``Grp``."""
    out, run = [], []

    def close():
        if len(run) >= 2:
            name = f"grp{len(plan.functions)}"
            parts.append(_group_function(name, run))
            plan.functions.append(name)
            needs = tuple(dict.fromkeys(n for m in run for n in m.needs))
            out.append(Grp(name, list(run), run[0].first, sum(m.count for m in run), needs))
        else:
            out.extend(run)
        run.clear()
    for it in items:
        if isinstance(it, Seg) and not it.shared:
            run.append(it)
            continue
        close()
        out.append(it)
    close()
    return out


def _ordered_function(prog, plan: Plan, parts: list) -> None:
    """For a program that is one straight block of native segments (no interpreter
    step, no control flow, no quad or vote unit) that touches tile memory, the C
    function ``ord<k>(args, lo, hi)`` (``Plan.ordered``): it runs lanes lo..hi so
    that their tile accesses take effect in lane order, as if each lane ran the
    whole program before the next one started (lanes of several rank layers of one
    pass in one run). Lanes go in chunks of at most ``ORDERED_CHUNK_LANES`` whose
    active lanes have distinct tile records (a chunk ends before a record repeats);
    within a chunk lanes commute, so each segment runs over the whole chunk. A chunk
    is first the active lanes whose records strictly increase (so are distinct: one
    compare a lane); when that run is short, the records seen go in a bitmap instead.
    Returns 0, or -1 without running anything when an active lane's record is
    outside the tile buffer or a word outside its record."""
    from ..usc.control import MASKED, STOP
    if len(plan.blocks) != 2 or plan.blocks[0][0] != MASKED or plan.blocks[1][0] != STOP:
        return
    items = flat(plan.blocks[0][1])
    if not items or not all(isinstance(it, Seg) for it in items):
        return
    units = [prog.instructions[it.first][1].op.unit for it in items]
    if any(u in ("quad", "vote", "simd", "texture_sample") for u in units) \
            or not any(u in ("ld_tile", "st_tile") for u in units):
        return
    words = []
    for it, unit in zip(items, units):
        if unit in ("ld_tile", "st_tile"):
            ins = prog.instructions[it.first][1]
            r = ins["dst"] if unit == "ld_tile" else ins["data"]
            words.append((ins["offset"], FORMAT_ELEMENT_B[ins["fmt"]] * r.count))
    # each word inside its record and aligned there (so lanes of distinct records
    # touch distinct bytes, and no segment finds an access to refuse)
    inside = " && ".join(f"{off} + {w} <= RB && RB % {w} == 0" for off, w in words if off % w == 0) \
        if all(off % w == 0 for off, w in words) else "0"
    name = f"ord{len(plan.functions)}"
    calls = [f"        {it.name}(&C, start, end);" for it in items]
    parts.append("\n".join([
        "#include <stdlib.h>",
        f"long {name}(const args_t *A, long lo, long hi) {{",
        "    const uint8_t *restrict EX = A->exec; const int64_t *restrict TI = A->tile_index;",
        "    const long RB = A->record_B;",
        f"    if (RB <= 0 || !({inside})) return -1;",
        "    const int64_t records = A->tile_B / RB;",
        "    long nbad = 0;",
        "    for (long i = lo; i < hi; i++) nbad += (!EX || EX[i]) && (TI[i] < 0 || TI[i] >= records);",
        "    if (nbad) return -1;",
        "    uint64_t *seen = calloc((size_t)(records / 64 + 1), sizeof(uint64_t));",
        "    if (!seen) return -1;",
        # every access of the run was checked above: the segments skip their own check
        "    args_t C = *A;",
        "    C.tile_checked = 1;",
        "    for (long start = lo; start < hi; ) {",
        f"        const long lim = hi - start > {ORDERED_CHUNK_LANES} ? start + {ORDERED_CHUNK_LANES} : hi;",
        # active lanes whose records strictly increase are distinct (the pipeline's
        # rank layers mostly come so): no bitmap; a short such run takes the bitmap
        "        long end = start;",
        "        int64_t last = -1;",
        "        for (; end < lim; end++) {",
        "            if (EX && !EX[end]) continue;",
        "            if (TI[end] <= last) break;",
        "            last = TI[end];",
        "        }",
        f"        const int by_bitmap = end < lim && end - start < {ORDERED_CHUNK_LANES // 8};",
        "        if (by_bitmap) {",
        "            for (end = start; end < lim; end++) {",
        "                if (EX && !EX[end]) continue;",
        "                const uint64_t bit = (uint64_t)1 << (TI[end] & 63);",
        "                if (seen[TI[end] >> 6] & bit) break;",
        "                seen[TI[end] >> 6] |= bit;",
        "            }",
        "        }",
        *calls,
        "        if (by_bitmap) for (long i = start; i < end; i++) if (!EX || EX[i]) seen[TI[i] >> 6] = 0;",
        "        start = end;",
        "    }",
        "    free(seen);",
        "    return 0;",
        "}"]))
    plan.functions.append(name)
    plan.ordered = name


#: The C type of ``_span_function``'s functions (``Plan.span``).
SPAN_FN = "long (*)(const args_t *, long, int64_t, long, long, int32_t, int)"


def _span_function(prog, plan: Plan, parts: list) -> None:
    """For a lane-ordered program (``Plan.ordered``) made only of lane-local
    instructions, ``iter``, transcendentals through numpy's loops and unorm tile
    accesses of whole records, the C function ``spn<k>(args, n, rec0, x0, y, prim,
    ws)`` (``Plan.span``): the whole program over ``n`` pixels of primitive ``prim``
    (its planes) in rows of ``2^ws``: pixel j is (x0 + j mod 2^ws, y + j div 2^ws)
    (centres (x + 0.5, y + 0.5)), every lane active and alive, its record ``rec0 + j``
    (a span of a bin's row, or a whole bin whose records are in rows, as
    ``pipeline.native.shade_bins`` finds them; one row: ``ws`` past the span). Each lane runs the program at once,
    its registers in locals: one loop over the lanes, or one per stage between
    transcendentals (whose numpy loop runs over a buffer of the piece's arguments; the
    registers a later stage reads go through a buffer of the piece). Tile words load
    and store at consecutive addresses; no register row is kept. Every tile access
    must take the whole record at offset 0 (``args.record_B`` is the word's size; else
    it returns 0 having done nothing); a lane's accesses then all touch one word, kept
    in a local (``cur_``) between them, so its loads see its own stores in program
    order. Lanes go in pieces of ``GROUP_CHUNK_LANES``, their stored words through a
    buffer. The arithmetic runs without the NaN rules: plainly when no NaN's payload
    can reach a stored word (``_payload_seen``), else in the NaN-free forms
    (``_FAST``), and then a piece with a NaN stores nothing and the function returns
    the lanes done before it (the caller takes the rest through the segments,
    exactly). Returns ``n`` when all are done."""
    from uapi.native_ufuncs import UFUNC_OPS
    if plan.ordered is None:
        return
    stages = [[]]                   # per stage: C lines, or ("iter", ins, k) items
    regs = [_Regs()]
    calls = []                      # the transcendental between stage s and s + 1: its loop's index
    tiles = [False]                 # the stage touches the tile word
    words, w_planes, stores, loads = set(), set(), 0, 0
    for it in flat(plan.blocks[0][1]):
        for j in range(it.first, it.first + it.count):
            ins = prog.instructions[j][1]
            unit, body, rg = ins.op.unit, stages[-1], regs[-1]
            if lane_local(ins):
                body += _LANE_LOCAL[unit](ins, rg)
            elif unit == "iter":
                if ins["loc"] not in ("center", "centroid") or ins["dst"].size != 32:
                    return
                if ins["interp"] == "persp":
                    w_planes.add(ins["cf_w"])
                body.append(("iter", ins, len(w_planes)))
            elif _ufunc_op(ins):
                a = _float(ins["a"], ins.values.get("a_abs", False), ins.values.get("a_neg", False), rg)
                body.append(f"in_[i - c] = {a};")
                calls.append(UFUNC_OPS.index(ins.op.name))
                stages.append([])
                regs.append(_Regs())
                tiles.append(False)
                stages[-1] += _write_float(ins["dst"], "out_[i - c]", ins.values.get("sat", False), regs[-1])
            elif unit in ("ld_tile", "st_tile"):
                try:
                    tw = _TileWord(ins)
                except Unsupported:
                    return
                if ins["offset"] != 0:
                    return
                words.add((tw.word_B, tw.wt))
                tiles[-1] = True
                if tw.store:
                    body.append(f"cur_ = {tw.pack(rg)};")
                    stores += 1
                else:
                    body += ["{", *["    " + x for x in tw.unpack("cur_", rg)], "}"]
                    loads += 1
            else:
                return
    if len(words) != 1:
        return
    (word_B, wt), = words
    forms = _FAST if _payload_seen(prog, plan) else _RAW

    def lines(s: int, divide: bool) -> list[str]:
        out = []
        for x in stages[s]:
            if isinstance(x, tuple):
                _, ins, k = x
                out += ["{", *["    " + y for y in _iter_lines(ins, regs[s], _primitive_plane_expr, divide,
                                                               w=f"w{k}_")], "}"]
            else:
                out.append(x)
        return _fast_body(out, forms)
    variants = [(lines(s, False), lines(s, True)) for s in range(len(stages))]
    # the rows a stage hands on: written up to it, read after it
    carried = []
    for s in range(len(stages) - 1):
        before = set().union(*(r.written for r in regs[:s + 1]))
        after = set().union(*(r.read for r in regs[s + 1:]))
        carried.append(before & after)
    held = sorted(set().union(*carried)) if carried else []
    if len(held) > FAST_MAX_ROWS:
        return                      # (their buffers are on the stack)
    touching = [s for s in range(len(stages)) if tiles[s]]
    ch = GROUP_CHUNK_LANES

    def loop(s: int, text: list[str]) -> list[str]:
        rows = sorted(regs[s].read | regs[s].written)
        takes = carried[s - 1] if s else set()
        gives = carried[s] if s < len(carried) else set()
        word = []
        if tiles[s]:
            word = [f"{wt} cur_;"]
            if s > touching[0]:
                word.append("cur_ = CUR_[i - c];")
            elif loads:
                word.append(f"memcpy(&cur_, T + i * {word_B}, {word_B});")
        out = [*[f"uint32_t r{k} = {f'H{k}_[i - c]' if k in takes else '0'};" for k in rows], *word, *text,
               *[f"H{k}_[i - c] = r{k};" for k in rows if k in gives and k in regs[s].written]]
        if tiles[s] and s < touching[-1]:
            out.append("CUR_[i - c] = cur_;")
        if tiles[s] and s == touching[-1] and stores:
            out.append("W_[i - c] = cur_;")
        return ['_Pragma("GCC ivdep")', "for (long i = c; i < e; i++) {",
                "    const float px = (float)(xb + (int32_t)(i & wm_)) + 0.5f; (void)px;",
                "    const float py = (float)(yb + (int32_t)(i >> ws_)) + 0.5f; (void)py;",
                *["    " + x for x in out], "}"]
    one = " && ".join(f"PP[{3 * w}] == 0.0f && PP[{3 * w + 1}] == 0.0f && PP[{3 * w + 2}] == 1.0f"
                      for w in sorted(w_planes))
    pieces = []
    for s, (plain, divided) in enumerate(variants):
        if plain == divided:
            pieces += loop(s, plain)
        else:
            # every W plane exactly (0, 0, 1): each w is 1.0f (positions are finite) and a
            # quotient by it its dividend, bit for bit (see _iter_function): no division
            pieces += [f"if ({one}) {{", *["    " + x for x in loop(s, plain)], "} else {",
                       *["    " + x for x in loop(s, divided)], "}"]
        if s < len(calls):
            k = calls[s]
            pieces += ["{",
                       "    char *args_[2] = {(char *)in_, (char *)out_};",
                       "    const long n_ = e - c, steps_[2] = {4, 4};",
                       f"    ((void (*)(char **, const long *, const long *, void *))A->uf[{k}])"
                       f"(args_, &n_, steps_, A->ufd[{k}]);", "}"]
    buffers = [f"{wt} W_[{ch}]; (void)W_;"]
    if calls:
        buffers.append(f"float in_[{ch}], out_[{ch}];")
    if len(touching) > 1:
        buffers.append(f"{wt} CUR_[{ch}];")
    buffers += [f"uint32_t H{k}_[{ch}];" for k in held]
    name = f"spn{len(plan.functions)}"
    parts.append("\n".join([
        f"SPAN_TARGET long {name}(const args_t *A, long n, int64_t rec0, long x0, long y, int32_t prim, "
        "int ws_) {",
        f"    if (A->record_B != {word_B}) return 0;",
        "    const uint32_t *restrict U = A->u; (void)U;",
        f"    uint8_t *restrict T = A->tile + rec0 * {word_B};",
        "    const float *restrict PP = A->planes ? A->planes + (long)prim * A->planes_prim : 0; (void)PP;",
        "    const int32_t xb = (int32_t)x0, yb = (int32_t)y, wm_ = (int32_t)((1L << ws_) - 1); (void)xb;",
        "    (void)yb; (void)wm_;",
        *["    " + x for x in buffers],
        f"    for (long c = 0; c < n; c += {ch}) {{",
        f"        const long e = n - c > {ch} ? c + {ch} : n;",
        "        int bad_ = 0;",
        *["        " + x for x in pieces],
        "        if (bad_) return c;",
        *([f"        memcpy(T + c * {word_B}, W_, (size_t)(e - c) * {word_B});"] if stores else []),
        "    }",
        "    return n;",
        "}"]))
    plan.functions.append(name)
    plan.span = name


def _payload_seen(prog, plan: Plan) -> bool:
    """Whether a NaN's payload or sign, where the NaN-free forms (``_FAST``) and the
    exact ones differ, could reach the tile words ``_span_function`` stores (its
    registers are dropped after the program). False when every value that may be
    such a NaN is read only by instructions that give a NaN, or one and the same
    value, for any NaN: 32-bit float ALU operands (nan2, fmin/fmax, fma, saturate,
    rounding), float compares, the values a select picks, whole 32-bit moves,
    conversions from binary32 to binary32 or to an integer (NaN -> 0) and unorm tile
    stores (NaN -> 0). The plain operations then give exactly the words the exact
    ones give, and the span function tests nothing. Anything else reading such a
    value (integer ALU and compares, 16-bit operands or results) keeps the tests."""
    nan_rows: set = set()               # 32-bit rows that may hold such a NaN

    def rows(v) -> set:
        return {h // 2 for h in v.halves} if isinstance(v, Reg) and v.file == "r" else set()

    def whole(*regs) -> bool:
        return all(isinstance(v, Reg) and v.size == 32 for v in regs)
    for it in flat(plan.blocks[0][1]):
        for j in range(it.first, it.first + it.count):
            ins = prog.instructions[j][1]
            unit, dst = ins.op.unit, ins.values.get("dst")
            srcs = {f.name: ins.values[f.name] for f in ins.op.fields
                    if f.role == "op" and f.name != "dst" and f.name in ins.values}
            hit = {k for k, v in srcs.items() if rows(v) & nan_rows}
            if unit in ("st_tile", "ld_tile", "iter", "mov_imm"):
                out = False                         # (tile stores: unorm, 32-bit registers only)
            elif unit == "falu":
                if hit and not whole(dst, *(srcs[k] for k in hit)):
                    return True
                out = not ins.values.get("sat", False) and (f"sem_{ins.op.native}(" in _FAST or bool(hit))
            elif unit == "cmpsel":
                picked = hit & {"t", "f"}
                if (hit - picked and ins.op.name != "fcmpsel") or (picked and not whole(dst, *(srcs[k] for k in picked))):
                    return True
                out = bool(picked)
            elif unit == "mov":
                if hit and not whole(dst, srcs["a"]):
                    return True
                out = bool(hit)
            elif unit == "convert":
                if hit and (ins["stype"] != "f32" or ins["dtype"] == "f16" or not whole(srcs["a"])):
                    return True
                out = bool(hit) and ins["dtype"] == "f32"
                if out and not whole(dst):
                    return True
            else:
                if hit:
                    return True
                out = False
            if out:
                nan_rows |= rows(dst)
            elif isinstance(dst, Reg) and dst.size >= 32:
                nan_rows -= rows(dst)
    return False


def _block_starts(steps: list) -> list[int]:
    """The first step index of each block of ``usc.control._blocks`` (same leaders)."""
    from ..usc.control import JMP_ANY, JMP_NONE, MASKED
    n = len(steps)
    leaders = {0}
    for i, (kind, _, target) in enumerate(steps):
        if kind != MASKED:
            leaders |= {i, i + 1}
        if kind in (JMP_ANY, JMP_NONE):
            leaders.add(target)
    return sorted(x for x in leaders if x < n)
