"""Test helpers: build IR, compile it, run it on the shader core (debug mode:
scoreboard hazards raise) and on the IR interpreter with the same inputs."""

from __future__ import annotations

import numpy as np

from compiler.backend import compile_ir
from compiler.ir import Builder, Function, Shader
from compiler.ir.interp import Interpreter
from drmshim.gpu.usc import ExecContext, ShaderCore
from drmshim.memory import FlatMemory

CODE_VA = 0x1_0000_0000
DATA_VA = 0x1_0010_0000
MEM_B = 1 << 22


def new_shader(stage: str = "vertex"):
    sh = Shader(stage, "test")
    f = Function("main")
    sh.functions.append(f)
    return sh, Builder(f, sh)


def fill_uniforms(compiled, values: dict, default=None) -> np.ndarray:
    """u registers: the default block (``default`` uint32 words) then the
    backend's slots from ``values`` {(kind, binding): int}."""
    u = np.zeros(256, np.uint32)
    if default is not None:
        d = np.asarray(default).view(np.uint32).reshape(-1)
        u[:d.size] = d
    for s in compiled.uniforms:
        v = s.binding if s.kind == "constant" else values[(s.kind, s.binding)]
        if isinstance(v, (tuple, list, np.ndarray)):       # several words (float32 values as their bits)
            w = np.asarray(v, np.float32).view(np.uint32) if np.asarray(v).dtype.kind == "f" else np.asarray(v)
            u[s.index:s.index + s.words] = w[:s.words]
            continue
        u[s.index] = v & 0xFFFFFFFF
        if s.words == 2:
            u[s.index + 1] = v >> 32
    return u


class Run:
    """Compile once, run on the core. ``ssbos``: {binding: uint8 array} placed
    in GPU memory (written back after the run)."""

    def __init__(self, shader, max_regs: int = 128, **kw):
        self.shader = shader
        self.compiled = compile_ir(shader, max_regs=max_regs, **kw)

    def core(self, lanes: int, ssbos: dict | None = None, default_uniforms=None, ctx=None, specials=None,
             extra=None, core_kw=None, setup=None):
        mem = FlatMemory(MEM_B, base=CODE_VA)
        mem.write(CODE_VA, self.compiled.binary, "test")
        values, va = dict(extra or {}), DATA_VA
        placed = {}
        for b, data in (ssbos or {}).items():
            mem.write(va, data, "test")
            values[("ssbo_address", b)] = va
            values[("ssbo_size", b)] = len(data)
            placed[b] = (va, len(data))
            va += (len(data) + 255) // 256 * 256 + 256
        stack_va = va
        if ctx is None:
            sp = {"vertex_id": np.arange(lanes, dtype=np.uint32), "instance_id": 0}
            sp.update(specials or {})
            ctx = ExecContext(lanes=lanes, specials=sp)
        ctx.uniforms = fill_uniforms(self.compiled, values, default_uniforms)
        ctx.stack_va, ctx.stack_bytes_per_lane = stack_va, max(4, self.compiled.scratch_B)
        if setup is not None:
            setup(mem)
        core = ShaderCore(mem, debug=True, **(core_kw or {}))
        core.run(CODE_VA, ctx)
        out = {b: mem.read(v, n, "test") for b, (v, n) in placed.items()}
        self.mem = mem
        return ctx, out


def interp(shader, lanes: int, ssbos=None, **kw):
    it = Interpreter(lanes=lanes, ssbos={b: np.array(d, np.uint8) for b, d in (ssbos or {}).items()}, **kw)
    it.run(shader)
    return it


def vs_outputs(ctx, n_words: int) -> np.ndarray:
    return ctx.varyings[:n_words]


def interp_outputs(it, slots: list[str], comps: int = 4) -> np.ndarray:
    rows = []
    for s in slots:
        rows.extend(it.outputs[s][:comps])
    return np.array(rows, np.uint32)


def frag_context(lanes: int, inputs: dict, cf_of: dict, record_B: int = 64) -> ExecContext:
    """A fragment context whose coefficient registers hold per-lane constants:
    ``inputs`` {slot: (4, lanes) raw uint32}, ``cf_of`` {slot: first cf}; cf0 (W)
    is the constant 1 so perspective iteration returns the values exactly."""
    n_cf = max([c + 4 for c in cf_of.values()] + [2])
    coef = np.zeros((n_cf, 3, lanes), np.float32)
    coef[0, 2] = 1.0
    for slot, cf in cf_of.items():
        coef[cf:cf + 4, 2] = np.asarray(inputs[slot]).view(np.float32)
    ctx = ExecContext(lanes=lanes, quads=True, coefficients=coef,
                      position_px=np.zeros((2, lanes), np.float32),
                      tile_buffer=np.zeros((lanes, record_B), np.uint8), tile_index=np.arange(lanes),
                      specials={"pixel_x": np.arange(lanes, dtype=np.uint32) % 7,
                                "pixel_y": np.arange(lanes, dtype=np.uint32) // 7})
    return ctx


def retarget_inputs(shader, cf_of: dict) -> None:
    """Point every fragment load_input of slot s at coefficient register cf_of[s]."""
    from compiler.ir.core import Intrinsic, walk_instrs
    for i in walk_instrs(shader.main.body):
        if isinstance(i, Intrinsic) and i.name == "load_input":
            i.indices["base"] = cf_of[i.indices["slot"]]


def tile_words(ctx, rt: int = 0) -> np.ndarray:
    """(4, lanes) raw words a shader stored with st_tile.i32 at render target ``rt``."""
    return ctx.tile_buffer[:, 16 * rt:16 * rt + 16].copy().view(np.uint32).T
