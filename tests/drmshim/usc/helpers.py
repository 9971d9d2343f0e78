"""Run assembly on the shader core in tests: assemble, place in a FlatMemory,
preload registers, return the context (outputs and final registers)."""

from __future__ import annotations

import numpy as np

from drmshim.gpu.usc import ExecContext, ShaderCore
from drmshim.memory import FlatMemory
from uapi.isa import assemble

CODE_VA_OFFSET = 0x0
#: Debug (scoreboard-checking, step-by-step) loop by default; a test module can flip
#: it to exercise the fast block loop too.
DEBUG_DEFAULT = True
DATA_VA_OFFSET = 0x10000


def new_memory(size: int = 1 << 20) -> FlatMemory:
    return FlatMemory(size)


def run(asm: str, lanes: int = 8, *, mem: FlatMemory | None = None, inputs: dict | None = None,
        ctx: ExecContext | None = None, debug: bool | None = None, batch_lanes: int = 16384, **ctx_kw) -> ExecContext:
    """Run ``asm`` (``stop`` appended when missing) with r-registers preloaded from
    ``inputs`` {k: array}; returns the context with ``registers`` kept."""
    if "stop" not in asm.split():
        asm = asm + "\nstop\n"
    mem = mem or new_memory()
    code = assemble(asm)
    mem.write(mem.base + CODE_VA_OFFSET, code, "test")
    if ctx is None:
        ctx = ExecContext(lanes=lanes, **ctx_kw)
    ctx.keep_registers = True
    for k, v in (inputs or {}).items():
        v = np.asarray(v)
        if v.dtype == np.float64:
            v = v.astype(np.float32)
        ctx.preload[k] = v.view(np.uint32) if v.dtype.itemsize == 4 else v.astype(np.uint32)
    debug = DEBUG_DEFAULT if debug is None else debug
    ShaderCore(mem, debug=debug, batch_lanes=batch_lanes).run(mem.base + CODE_VA_OFFSET, ctx)
    return ctx


def f32(ctx: ExecContext, k: int) -> np.ndarray:
    return ctx.registers[k].view(np.float32)


def u32(ctx: ExecContext, k: int) -> np.ndarray:
    return ctx.registers[k]


def half(ctx: ExecContext, k: int, high: bool = False) -> np.ndarray:
    """uint16 rkl / rkh."""
    return ctx.registers[k].view(np.uint16)[int(high)::2]


def f16(ctx: ExecContext, k: int, high: bool = False) -> np.ndarray:
    return half(ctx, k, high).view(np.float16)


def bits_equal(a, b) -> bool:
    """Equal as floats, NaN matching NaN, and -0.0 distinct from 0.0."""
    a, b = np.asarray(a), np.asarray(b)
    both_nan = np.isnan(a) & np.isnan(b)
    same = (a == b) & (np.signbit(a) == np.signbit(b))
    return bool(np.all(both_nan | same))
