"""The shader core (USC): fetch a program from GPU memory, decode it once, and
execute it over many lanes in batches.

Execution model. A batch of lanes (8K-64K) runs in lockstep, like one very wide
SIMD group: every instruction is one numpy operation over the batch's registers
(``state.Batch``). Divergence is handled with the execution mask, derived from
r0l after each control-flow instruction exactly as AGX does (a lane is active
when its r0l is 0); instructions with no active lane are skipped, control-flow
instructions always run; ``jmp_exec_any`` loops until no lane is active. A
whole threadgroup always lies in one batch, so ``threadgroup_barrier`` holds by
construction (every lane finishes an instruction before any lane starts the
next), and threadgroup memory is a byte array per batch.

Debug mode (``ShaderCore(mem, debug=True)``, or ``SHIMGL_DEBUG=scoreboard``) models
the scoreboard: the
registers written by an asynchronous instruction (``is_async`` in the table)
are pending on its slot until a ``wait`` of that slot; reading or overwriting a
pending register raises :class:`ScoreboardHazard` naming the instruction, the
register and the offset. This is how compiler scheduling bugs surface.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

import numpy as np

from uapi.debug import debug_enabled
from uapi.isa import Instruction, Reg, decode_one
from uapi.isa.semantics import SIMD_GROUP_LANES, cf_if, fcompare, icompare
from uapi.isa.table import BY_OPCODE

from . import alu, frag, mem, tex
from .context import ExecContext
from .control import ALWAYS, JMP_ANY, JMP_NONE, MASKED, STOP, WAIT, ShaderError, StepLimit, _blocks, walk_blocks
from .state import Batch, float_reader, halves_of, raw_reader

__all__ = ["ShaderCore", "Program", "ShaderError", "ScoreboardHazard"]

UNIT = "USC"
MAX_PROGRAM_B = 1 << 20


class ScoreboardHazard(ShaderError):
    """A register written by an in-flight asynchronous op was used before its wait."""


#: Take the special cases the data allows (the same results as the general code;
#: tests switch them off to compare).
FAST_PATHS = True

@dataclass
class Program:
    """A decoded, compiled program: instructions, steps and per-step register use."""

    va: int
    code: bytes
    instructions: list[tuple[int, Instruction]]
    steps: list = field(default_factory=list)          # (kind, fn, target index)
    reads: list = field(default_factory=list)          # halves read per instruction
    writes: list = field(default_factory=list)         # halves written per instruction
    n_regs32: int = 1
    zero_rows: tuple = (0,)                            # registers that must start at 0
    blocks: list = field(default_factory=list)         # (kind, fns or fn, target block, next block, size)
    units: frozenset | None = None                     # the units of its instructions (made on first run)


#: Instruction fetch reads ahead to the next multiple of this many bytes (never
#: across it, so it reads no page the program does not reach: pages are at least this size).
FETCH_CHUNK_B = 4096


def _fetch(memory, va: int) -> bytes:
    """Read instructions from ``va`` until a ``stop`` past every branch target
    (a fault is raised where the program's own bytes are unreadable)."""
    ahead = bytearray()

    def need(end: int) -> None:
        while len(ahead) < end:
            at = va + len(ahead)
            ahead.extend(bytes(memory.read(at, FETCH_CHUNK_B - at % FETCH_CHUNK_B, UNIT)))

    here = 0
    furthest = 0
    while True:
        if here > MAX_PROGRAM_B:
            raise ShaderError(f"program at 0x{va:x}: no terminating stop within {MAX_PROGRAM_B} bytes")
        need(here + 1)
        opcode = ahead[here]
        op = BY_OPCODE.get(opcode)
        if op is None:
            raise ShaderError(f"program at 0x{va:x}: unknown opcode 0x{opcode:02x} at offset {here}")
        need(here + op.length_B)
        if op.unit == "jmp":
            ins = decode_one(bytes(ahead[here:here + op.length_B]), 0)
            furthest = max(furthest, here + ins["target"])
        here += op.length_B
        if op.name == "stop" and here > furthest:
            return bytes(ahead[:here])


def _register_use(ins: Instruction) -> tuple[set, set]:
    reads, writes = set(), set()
    for f in ins.op.fields:
        v = ins.values.get(f.name)
        if isinstance(v, Reg):
            (writes if f.name == "dst" else reads).update(halves_of(v))
    if ins.op.unit == "cf":
        reads.add(0)
        writes.add(0)
    return reads, writes


COMPILERS = {**alu.COMPILERS, **mem.COMPILERS, **frag.COMPILERS, **tex.COMPILERS}


def _compile_cf(ins: Instruction):
    impl, name = ins.op.impl, ins.op.name
    n = ins["n"]
    if name in ("pop_exec", "push_exec"):
        def step(b):
            r0l = b.u16[0, 0::2]
            if name == "pop_exec" and FAST_PATHS and b.n and int(r0l.max()) <= n:
                r0l.fill(0)   # every counter drops to 0: every lane active again
                b.exec, b.all_active, b.any_active = b.const(np.True_), True, True
                return
            r0l[...] = impl(r0l, n)
            b.refresh_exec()
        return step
    cond = ins["cond"]
    if ins.op.name.endswith("fcmp"):
        a, c = float_reader(ins["a"]), float_reader(ins["b"])
        test = lambda b: fcompare(cond, a(b), c(b))
    else:
        size = max([r.size for r in (ins["a"], ins["b"]) if isinstance(r, Reg)] or [32])
        a, c = raw_reader(ins["a"], size), raw_reader(ins["b"], size)
        test = lambda b: icompare(cond, a(b), c(b))

    def step(b):
        r0l = b.u16[0, 0::2]
        cond = test(b)
        if impl is cf_if and b.all_active and FAST_PATHS:
            # every r0l is 0 (that is what all-active means): an if leaves r0l = !cond
            # and exactly the lanes where cond holds active
            cond = np.asarray(cond, bool)
            if cond.shape != r0l.shape:   # a uniform condition
                cond = np.full(r0l.shape, cond)
            np.logical_not(cond, out=r0l, casting="unsafe")
            b.exec = cond
            b.all_active = bool(cond.all())
            b.any_active = b.all_active or bool(cond.any())
            return
        r0l[...] = impl(r0l, cond, n)
        b.refresh_exec()
    return step


def compile_program(va: int, code: bytes) -> Program:
    prog = Program(va, code, [])
    off = 0
    while off < len(code):
        try:
            ins = decode_one(code, off)
        except ValueError as e:
            raise ShaderError(f"program at 0x{va:x}: {e}") from None
        prog.instructions.append((off, ins))
        off += ins.op.length_B
    index_of = {o: i for i, (o, _) in enumerate(prog.instructions)}
    top = 0
    for off, ins in prog.instructions:
        unit = ins.op.unit
        reads, writes = _register_use(ins)
        prog.reads.append(frozenset(reads))
        prog.writes.append(frozenset(writes))
        top = max([top] + [h // 2 for h in reads | writes])
        try:
            if unit == "jmp":
                target = off + ins["target"]
                if target not in index_of:
                    raise ShaderError(f"{ins} at offset {off}: target {target} is not an instruction")
                kind = JMP_ANY if ins.op.name == "jmp_exec_any" else JMP_NONE
                prog.steps.append((kind, None, index_of[target]))
            elif unit == "stop":
                prog.steps.append((STOP, None, 0))
            elif unit == "wait":
                prog.steps.append((WAIT, ins["slot"], 0))
            elif unit == "barrier":
                prog.steps.append((ALWAYS, lambda b: None, 0))
            elif unit == "cf":
                prog.steps.append((ALWAYS, _compile_cf(ins), 0))
            else:
                prog.steps.append((MASKED, COMPILERS[unit](ins), 0))
        except (ValueError, KeyError) as e:
            raise ShaderError(f"program at 0x{va:x}, offset {off}: {ins}: {e}") from None
    prog.n_regs32 = top + 1
    prog.zero_rows = _rows_to_zero(prog)
    prog.blocks = _blocks(prog.steps)
    return prog


# Units whose write covers every lane when every lane is active (no per-lane subset).
_FULL_WRITERS = {"falu", "ialu", "cmpsel", "convert", "mov", "mov_imm", "get_sr", "quad", "iter", "ldcf",
                 "ld_tile",          # (every lane's record; an access out of range faults the run)
                 "texture_sample", "texture_load"}   # (these two write every component of dst, up to 4)


def _rows_to_zero(prog: Program) -> tuple:
    """Registers start at 0. A 32-bit register need not be cleared when both its
    halves are written by a full-lane ALU write before any read, in the straight-line
    start of the program (before the first control-flow instruction every lane is
    active, so such a write defines every lane)."""
    defined: set = set()
    undefined_read: set = {0, 1}  # r0l (the nesting counter) is always cleared
    for i, (_, ins) in enumerate(prog.instructions):
        if ins.op.unit in ("cf", "jmp", "stop"):
            break
        undefined_read |= set(prog.reads[i]) - defined
        if ins.op.unit in _FULL_WRITERS and (not ins.op.unit.startswith("texture") or ins["dst"].count <= 4):
            defined |= set(prog.writes[i])
    rows = {h // 2 for h in undefined_read} | {r for r in range(prog.n_regs32)
                                               if not {2 * r, 2 * r + 1} <= defined}
    return tuple(sorted(r for r in rows if r < prog.n_regs32))


#: Automatic batches: at most this many lanes, and a register file of at most
#: REGISTER_BUDGET_B bytes (but never under MIN_BATCH_LANES lanes).
MAX_BATCH_LANES = 1 << 16
MIN_BATCH_LANES = 1 << 13
REGISTER_BUDGET_B = 4 << 20


#: Automatic batches of a program whose native code has no numpy step: its loops
#: take 256 lanes at a time through every segment (``native.codegen``), so big
#: batches cost no cache misses and fewer Python hand-offs (glbench fill_alu at
#: 1024: 57.5-58.4 ms a run at 64K lanes, 52.1-52.3 at 256K, two threads).
NATIVE_MAX_BATCH_LANES = 1 << 18
NATIVE_REGISTER_BUDGET_B = 12 << 20


#: An automatic run's last batch of fewer than 1/TAIL_FOLD of the batch size joins the
#: batch before it: each batch pays a fixed cost in Python (its state, the native
#: code's arguments, a texture sample's plan), about 0.5 ms for glbench tex's fragment
#: program, whose 263,168 lanes at 512 x 512 (the quads of two triangles) had made
#: batches of 262,144 and 1,024 lanes.
TAIL_FOLD = 8


def batch_bounds(lanes: int, size: int, fold: bool) -> list[tuple[int, int]]:
    """(first lane, lanes) of each batch of a run: ``size`` lanes each, the last the
    rest; with ``fold`` a rest under ``size // TAIL_FOLD`` lanes joins the batch before
    it (which keeps its start, so its alignment)."""
    bounds = [(lane0, min(size, lanes - lane0)) for lane0 in range(0, lanes, size)]
    if fold and len(bounds) > 1 and bounds[-1][1] < size // TAIL_FOLD:
        (lane0, n), (_, rest) = bounds[-2], bounds.pop()
        bounds[-1] = (lane0, n + rest)
    return bounds


def auto_batch_lanes(n_regs32: int, all_native: bool = False) -> int:
    """Lanes per batch for a program with ``n_regs32`` 32-bit registers. Every
    instruction pays a fixed Python cost per batch, so big batches win for programs
    with few registers (blended triangles, bench_gpu: 859 ms at 16K lanes, 621 ms
    at 64K); past a few MB of registers cache misses win (the 33-register ALU
    program of bench_usc: 35 ms at 32K lanes, 45 ms at 64K)."""
    if all_native:
        return min(NATIVE_MAX_BATCH_LANES, max(MIN_BATCH_LANES, NATIVE_REGISTER_BUDGET_B // (4 * max(n_regs32, 1))))
    return min(MAX_BATCH_LANES, max(MIN_BATCH_LANES, REGISTER_BUDGET_B // (4 * max(n_regs32, 1))))


#: The largest register file (bytes) a thread keeps between runs.
KEPT_REGISTERS_B = 16 << 20
_HELD = threading.local()


def _register_file(rows: int, lanes: int) -> np.ndarray:
    """An uninitialised uint32 [rows, lanes] register file (``Batch`` clears the
    rows a program needs cleared). Up to ``KEPT_REGISTERS_B`` it is this thread's
    one buffer, reused by its next run: fresh pages cost more than the work of a
    batch of a small program (a 4 MiB register file per layer of a blended pass).
    A run ends before the thread's next one starts (nothing runs a program from
    inside one), and nothing keeps the registers after it (``keep_registers``
    copies them)."""
    need = rows * lanes
    if need * 4 > KEPT_REGISTERS_B:
        return np.empty((rows, lanes), np.uint32)
    held = getattr(_HELD, "registers", None)
    if held is None or held.size < need:
        held = _HELD.registers = np.empty(max(need, 1 << 16), np.uint32)
        _HELD.views = {}
    views = _HELD.views         # the same view object for the same shape (Batch keeps what it derives from it)
    view = views.get((rows, lanes))
    if view is None:
        if len(views) >= 64:
            views.clear()
        view = views[(rows, lanes)] = held[:need].reshape(rows, lanes)
    return view


_NATIVE: list = []


def _native_tier():
    """``drmshim.gpu.native`` (imported on first use: it imports this package)."""
    if not _NATIVE:
        from .. import native
        _NATIVE.append(native)
    return _NATIVE[0]


#: Runs whose batches have at most this many lanes share the thread's constant arrays.
SHARED_CONST_LANES = 1024


def _thread_consts() -> dict:
    """This thread's cache of ``Batch.const`` arrays (read-only, keyed by length and
    value) for small batches (at most ``SHARED_CONST_LANES`` lanes, so at most 4 MB),
    shared by its runs: a small draw's run reads the same uniforms and immediates as
    the last one's."""
    consts = getattr(_HELD, "consts", None)
    if consts is None or len(consts) >= 1024:
        consts = _HELD.consts = {}
    return consts


class ShaderCore:
    """One shader core bound to a GPU address space.

    ``run(program_va, ctx)`` executes the program at ``program_va`` over
    ``ctx.lanes`` lanes. Decoded programs are cached by address and content (the
    bytes are re-read and compared on every run, so rewriting a shader in place
    is seen)."""

    def __init__(self, memory, debug: bool | None = None, batch_lanes: int | None = None,
                 max_steps: int = 1_000_000, tier: str | None = None):
        """``debug``: check the scoreboard (default: on when ``SHIMGL_DEBUG`` names
        ``scoreboard``). ``batch_lanes``: lanes per batch; None picks them per
        program (``auto_batch_lanes``). ``max_steps``: instructions per batch before the program is
        declared hung (a GPU timeout). ``tier``: ``"auto"`` (native code for hot or
        cached programs, ``drmshim.gpu.native``), ``"native"`` (every program that
        compiles), ``"interp"`` (numpy only); default ``"interp"`` when ``SHIMGL_DEBUG``
        names ``interp``, else ``"auto"``. Debug mode always interprets."""
        self.mem = memory
        if debug is None:
            debug = debug_enabled("scoreboard")
        self.debug = debug
        if tier is None:
            tier = "interp" if debug_enabled("interp") else "auto"
        assert tier in ("auto", "native", "interp"), tier
        self.tier = tier
        self.batch_lanes = batch_lanes
        self.max_steps = max_steps
        self._cache: dict[int, Program] = {}

    def load(self, program_va: int) -> Program:
        prog = self._cache.get(program_va)
        if prog is not None:
            window = getattr(self.mem, "window", None)     # (a look without a copy where the memory gives one)
            seen = window(program_va, len(prog.code), True) if window is not None else None
            current = seen.tobytes() if seen is not None else bytes(self.mem.read(program_va, len(prog.code), UNIT))
            if current == prog.code:
                return prog
        prog = compile_program(program_va, _fetch(self.mem, program_va))
        self._cache[program_va] = prog
        return prog

    def _batch_size(self, ctx: ExecContext, n_regs32: int, all_native: bool = False) -> int:
        # whole quads, whole threadgroups, and (outside compute) whole SIMD groups
        unit = math.lcm(4 if ctx.quads else 1, ctx.threadgroup_lanes)
        if ctx.threadgroup_lanes <= 1:
            unit = math.lcm(unit, SIMD_GROUP_LANES)
        lanes = self.batch_lanes if self.batch_lanes is not None else auto_batch_lanes(n_regs32, all_native)
        return int(max(unit, lanes // unit * unit))

    def run(self, program_va: int, ctx: ExecContext) -> ExecContext:
        prog = self.load(program_va)
        native = None
        if not self.debug and self.tier != "interp":
            native = _native_tier().native_for(prog, ctx.lanes, self.tier)
        if ctx.lane_order and native is None:
            raise ShaderError(f"program at 0x{program_va:x}: a lane-ordered context needs its native code")
        if prog.units is None:
            prog.units = frozenset(ins.op.unit for _, ins in prog.instructions)
        ctx.allocate_outputs(varyings="st_var" in prog.units, writes=prog.units)
        # (value, per lane): a scalar preload (one element) fills its register
        preload = {}
        for k, v in ctx.preload.items():
            v = np.asarray(v)
            preload[k] = (v.reshape(1), False) if v.ndim == 0 else (np.broadcast_to(v, (ctx.lanes,)), True)
        n_regs32 = max([prog.n_regs32] + [k + 1 for k in preload])
        if ctx.keep_registers:
            ctx.registers = np.zeros((n_regs32, ctx.lanes), np.uint32)
        size = self._batch_size(ctx, n_regs32, native is not None and native.plan.step_count == 0)
        bounds = batch_bounds(ctx.lanes, size, self.batch_lanes is None)
        widest = max((n for _, n in bounds), default=0)
        storage = _register_file(max(n_regs32, 1), widest)
        consts = _thread_consts() if widest <= SHARED_CONST_LANES else {}
        # an interpreted program the native tier may take over (it reports the work done)
        watched = native is None and not self.debug and self.tier != "interp" and not ctx.lane_order \
            and getattr(prog, "native_state", None) is not None and not prog.native_state.failed
        with np.errstate(all="ignore"):
            for lane0, n in bounds:
                b = Batch(self, ctx, lane0, n, n_regs32, storage, consts, prog.zero_rows)
                for k, (v, per_lane) in preload.items():
                    if per_lane:
                        v = v[lane0:lane0 + n]
                    b.r32[k] = v.view(np.uint32) if v.dtype.itemsize == 4 else v
                if ctx.local_memory_B:
                    b.local = mem.ByteMemory(np.zeros(n // ctx.threadgroup_lanes * ctx.local_memory_B, np.uint8))
                if native is not None:
                    _native_tier().run_batch(native, b, self.max_steps)
                elif watched:
                    native = self._run_watched(prog, b)
                else:
                    self._run_batch(prog, b)
                if ctx.keep_registers:
                    ctx.registers[:, lane0:lane0 + n] = b.r32
        return ctx

    def _run_batch(self, prog: Program, b: Batch) -> None:
        if not self.debug:
            return self._run_blocks(prog, b)
        steps, debug = prog.steps, self.debug
        pc, count, limit = 0, 0, self.max_steps
        while True:
            kind, fn, target = steps[pc]
            if debug:
                self._scoreboard(prog, pc, b)
            if kind == MASKED:
                if b.any_active:
                    fn(b)
                pc += 1
            elif kind == ALWAYS:
                fn(b)
                pc += 1
            elif kind == JMP_ANY:
                pc = target if b.any_active else pc + 1
            elif kind == JMP_NONE:
                pc = target if not b.any_active else pc + 1
            elif kind == WAIT:
                b.pending = {h: s for h, s in b.pending.items() if s != fn}
                pc += 1
            else:  # STOP
                return
            count += 1
            if count > limit:
                raise StepLimit(prog.va, limit, f" (last at offset {prog.instructions[pc][0]})")

    def _run_watched(self, prog: Program, b: Batch):
        """An interpreted batch of a program the native tier may take (auto mode): the
        instructions it runs are reported to the tier (``native.interpreted``) every
        ``POLL_STEPS`` and at the end, which makes a program with long loops hot
        whatever its runs and lanes; when the program's native code is ready at a
        report, it runs the rest of the batch from the next block (both tiers have the
        same blocks and registers, and give the same bits). Returns the native code
        when it is ready (for the next batches), else None."""
        tier = _native_tier()
        state = [0, None]       # instructions reported, native code

        def poll(i: int, count: int) -> bool:
            code = tier.interpreted(prog, count - state[0], b.n, self.tier)
            state[0] = count
            if code is None:
                return False
            state[1] = code
            tier.STATS["batches finished native"] += 1
            tier.run_batch(code, b, self.max_steps, i, count)
            return True
        count = walk_blocks(prog.blocks, b, self.max_steps, prog.va, _run_masked_block, _run_always_step,
                            poll=poll, poll_every=tier.tier.POLL_STEPS)
        if state[1] is None:
            state[1] = tier.interpreted(prog, count - state[0], b.n, self.tier)
        return state[1]

    def _run_blocks(self, prog: Program, b: Batch) -> None:
        """The fast loop: straight runs of masked steps execute as one block (same
        semantics as the step loop, which debug mode uses for the scoreboard)."""
        walk_blocks(prog.blocks, b, self.max_steps, prog.va, _run_masked_block, _run_always_step)

    def _scoreboard(self, prog: Program, pc: int, b: Batch) -> None:
        if b.pending:
            hit = (prog.reads[pc] | prog.writes[pc]) & b.pending.keys()
            if hit:
                h = min(hit)
                off, ins = prog.instructions[pc]
                raise ScoreboardHazard(
                    f"offset {off}: `{ins}` uses r{h // 2}{'lh'[h % 2]}, still pending on scoreboard slot "
                    f"{b.pending[h]} (missing `wait {b.pending[h]}`)")
        off, ins = prog.instructions[pc]
        if ins.op.is_async and "slot" in ins.values:
            for h in prog.writes[pc]:
                b.pending[h] = ins["slot"]


def _run_masked_block(payload, b) -> None:
    for fn in payload:
        fn(b)


def _run_always_step(fn, b) -> None:
    fn(b)
