"""A vectorised interpreter of the IR: runs a function over many invocations (lanes)
at once, with execution masks for structured control flow, the way the shader core
runs the ISA. Tests use it to check that a pass keeps a program's meaning.

Values are held as raw bits, one numpy array of shape ``(components, lanes)`` per
SSA value; ALU ops are evaluated by ``opcodes.evaluate_op`` (the same code as the
constant folder). Each lane remembers the block it last left, which is how phis
choose their source.

Memory model (enough for tests, not the GPU's): ``inputs``/``outputs`` are
dictionaries from varying slot name to ``(4, lanes)`` raw 32-bit arrays;
``uniforms`` is a 32-bit word array indexed by byte offset / 4; ``ubos`` and
``ssbos`` map a block index to a ``uint8`` array; shared memory is one ``uint8``
array for all lanes (one workgroup); scratch is per lane. Variables (before
lowering) are arrays of scalar slots per lane, initialised from ``variables``.
Lanes are grouped in 2x2 quads (lane = 4*quad + 2*y + x) for derivatives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from uapi.isa.semantics import FLOAT_ATOMIC_OPS, atomic_combine, simd, simd_group_starts, vote

from .core import (
    Alu, Block, Call, Def, Deref, Function, If, Intrinsic, Jump, LoadConst, Loop, Phi,
    Shader, Tex, Undef, Variable, walk_blocks,
)
from .opcodes import evaluate_op
from .types import ArrayType, StructType, VarType, VecType, numpy_dtype, raw_dtype

__all__ = ["Interpreter", "run_function", "InterpError", "var_slots", "slot_offset"]


class InterpError(RuntimeError):
    pass


def var_slots(t: VarType) -> int:
    """Number of scalar slots a variable of type ``t`` occupies."""
    if isinstance(t, VecType):
        return t.components
    if isinstance(t, ArrayType):
        return var_slots(t.element) * t.length
    return sum(var_slots(ft) for _n, ft in t.fields)


def slot_offset(t: StructType, field: int) -> int:
    return sum(var_slots(ft) for _n, ft in t.fields[:field])


@dataclass
class Interpreter:
    lanes: int = 16
    inputs: dict = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    uniforms: np.ndarray | None = None
    ubos: dict = field(default_factory=dict)
    ssbos: dict = field(default_factory=dict)
    shared: np.ndarray = field(default_factory=lambda: np.zeros(4096, np.uint8))
    variables: dict = field(default_factory=dict)     # name -> raw array (slots, lanes) or (slots,)
    sysvals: dict = field(default_factory=dict)       # intrinsic name -> raw array (comps, lanes)
    sample: Callable | None = None                    # (Tex, {kind: raw array}) -> raw array
    max_iterations: int = 10000

    def __post_init__(self):
        self.alive = np.ones(self.lanes, bool)
        self.scratch = np.zeros((self.lanes, 0), np.uint8)
        self.var_storage: dict[Variable, np.ndarray] = {}

    # ------------------------------------------------------------ entry
    def run(self, shader: Shader, func: Function | None = None, params: list | None = None):
        """Run ``func`` (default main). Returns the ``return_value`` (raw array) if any."""
        self.shader = shader
        for var in shader.variables:
            self._init_var(var)
        return self._call(func or shader.main, params or [])

    def _init_var(self, var: Variable) -> None:
        slots = var_slots(var.type)
        store = np.zeros((slots, self.lanes), np.uint64)
        if var.name in self.variables:
            init = np.asarray(self.variables[var.name])
            if init.dtype.kind == "f":
                init = init.astype(np.float32).view(np.uint32)
            init = init.astype(np.uint64)
            store[:] = init.reshape(slots, -1) if init.ndim > 1 else init.reshape(slots, 1)
        self.var_storage[var] = store

    def var_value(self, name: str) -> np.ndarray:
        for var, store in self.var_storage.items():
            if var.name == name:
                return store
        raise KeyError(name)

    def _call(self, func: Function, params: list, active: np.ndarray | None = None):
        saved = (getattr(self, "frame", None), getattr(self, "break_mask", None), getattr(self, "cont_mask", None))
        self.frame = _Frame(func, params, self.lanes)
        for var in func.locals:
            self._init_var(var)
        self.active = (self.alive if active is None else active & self.alive).copy()
        self.break_mask = np.zeros(self.lanes, bool)
        self.cont_mask = np.zeros(self.lanes, bool)
        self._exec_list(func.body)
        result = self.frame.ret
        self.frame, self.break_mask, self.cont_mask = saved
        return result

    # ------------------------------------------------------------ control flow
    def _exec_list(self, nodes) -> None:
        for node in nodes:
            if not self.active.any():
                return          # active lanes only shrink along a list: the rest is dead here
            if isinstance(node, Block):
                self._exec_block(node)
            elif isinstance(node, If):
                cond = self.frame.values[node.cond][0].astype(bool)
                base = self.active
                self.active = base & cond
                self._exec_list(node.then_list)
                taken = self.active
                self.active = base & ~cond
                self._exec_list(node.else_list)
                self.active = taken | self.active
            elif isinstance(node, Loop):
                saved = (self.break_mask, self.cont_mask)
                self.break_mask = np.zeros(self.lanes, bool)
                running = self.active
                count = 0
                while running.any():
                    count += 1
                    if count > self.max_iterations:
                        raise InterpError("loop did not terminate")
                    self.cont_mask = np.zeros(self.lanes, bool)
                    self.active = running
                    self._exec_list(node.body)
                    running = (self.active | self.cont_mask) & self.alive
                self.active = self.break_mask & self.alive
                self.break_mask, self.cont_mask = saved

    def _exec_block(self, block: Block) -> None:
        f = self.frame
        active = self.active & self.alive
        self.active = active
        bid = f.block_id[block]
        phis = [i for i in block.instrs if isinstance(i, Phi)]
        new = []
        for phi in phis:
            val = f.values.get(phi.dest)
            val = np.zeros((phi.dest.num_components, self.lanes), raw_dtype(phi.dest.bit_size)) if val is None else val.copy()
            for b, d in phi.srcs:
                sel = active & (f.pred == f.block_id[b])
                if sel.any():
                    val = np.where(sel, f.values[d], val)
            new.append((phi.dest, val))
        for d, v in new:
            f.values[d] = v
        for instr in block.instrs:
            if isinstance(instr, Phi):
                continue
            if isinstance(instr, Jump):
                if instr.kind == "break":
                    self.break_mask = self.break_mask | self.active
                else:
                    self.cont_mask = self.cont_mask | self.active
                f.pred[self.active] = bid
                self.active = np.zeros(self.lanes, bool)
                return
            self._exec_instr(instr)
            self.active &= self.alive
        f.pred[self.active] = bid

    # ------------------------------------------------------------ instructions
    def _set(self, d: Def, value: np.ndarray) -> None:
        value = np.asarray(value)
        if value.ndim == 1:
            value = value[:, None]
        value = np.broadcast_to(value, (d.num_components, self.lanes)).astype(raw_dtype(d.bit_size))
        old = self.frame.values.get(d)
        self.frame.values[d] = value if old is None else np.where(self.active, value, old)

    def _get(self, d: Def) -> np.ndarray:
        try:
            return self.frame.values[d]
        except KeyError:
            raise InterpError("value read before it was computed") from None

    def _exec_instr(self, instr) -> None:
        if isinstance(instr, Alu):
            srcs = [self._get(s.def_)[list(s.swizzle)] for s in instr.srcs]
            if instr.op in ("fddx", "fddy"):
                self._set(instr.dest, self._derivative(instr.op, srcs[0], instr.dest.bit_size))
            else:
                out = evaluate_op(instr.info, srcs, [s.def_.bit_size for s in instr.srcs], instr.dest.bit_size)
                self._set(instr.dest, out)
        elif isinstance(instr, LoadConst):
            self._set(instr.dest, np.array(instr.values, dtype=np.uint64).astype(raw_dtype(instr.dest.bit_size)))
        elif isinstance(instr, Undef):
            self._set(instr.dest, np.zeros(instr.dest.num_components, np.uint64))
        elif isinstance(instr, Deref):
            self._deref(instr)
        elif isinstance(instr, Intrinsic):
            self._intrinsic(instr)
        elif isinstance(instr, Tex):
            if self.sample is None:
                raise InterpError("texture instruction but no sample callback")
            self._set(instr.dest, self.sample(instr, {k: self._get(d) for k, d in instr.srcs}))
        elif isinstance(instr, Call):
            args = [self._get(a) for a in instr.args]
            active = self.active
            ret = self._call(instr.callee, args, active)
            self.active = active
            if instr.dest is not None:
                self._set(instr.dest, ret)
        else:
            raise InterpError(f"cannot interpret {instr!r}")

    def _derivative(self, op, src, bit_size):
        if self.lanes % 4:
            raise InterpError("derivatives need a multiple of 4 lanes")
        v = src.view(numpy_dtype("float", bit_size)).reshape(src.shape[0], -1, 2, 2)
        if op == "fddx":
            d = v[..., 1:2] - v[..., 0:1]
            d = np.concatenate([d, d], axis=-1)
        else:
            d = v[..., 1:2, :] - v[..., 0:1, :]
            d = np.concatenate([d, d], axis=-2)
        return d.reshape(src.shape).astype(numpy_dtype("float", bit_size)).view(raw_dtype(bit_size))

    def _deref(self, instr: Deref) -> None:
        if instr.kind == "var":
            self._set(instr.dest, np.zeros(1, np.uint32))
            return
        base = self._get(instr.parent)[0].astype(np.int64)
        if instr.kind == "array":
            idx = self._get(instr.index)[0].view(np.int32).astype(np.int64)
            off = base + idx * var_slots(instr.type)
        else:
            off = base + slot_offset(instr.parent.parent.type, instr.field)
        self._set(instr.dest, off.astype(np.uint32)[None])

    def _var_access(self, deref: Def):
        var = deref.parent.var
        store = self.var_storage[var]
        base = self._get(deref)[0].astype(np.int64)
        return store, np.clip(base, 0, store.shape[0] - 1)

    def _bytes(self, buf: np.ndarray, offsets: np.ndarray, comps: int, bit_size: int) -> np.ndarray:
        nbytes = comps * bit_size // 8
        idx = offsets.astype(np.int64)[:, None] + np.arange(nbytes)
        idx = np.clip(idx, 0, len(buf) - 1)
        data = np.ascontiguousarray(buf[idx]).view(raw_dtype(bit_size))
        return data.T

    def _store_bytes(self, buf, offsets, value, bit_size, write_mask):
        size = bit_size // 8
        for lane in np.nonzero(self.active)[0]:
            for c in range(value.shape[0]):
                if write_mask >> c & 1:
                    o = int(offsets[lane]) + c * size
                    buf[o:o + size] = np.frombuffer(value[c, lane].tobytes(), np.uint8)

    def _intrinsic(self, instr: Intrinsic) -> None:
        name, d, ix = instr.name, instr.dest, instr.indices
        srcs = [self._get(s) for s in instr.srcs]
        u32 = lambda a: a[0].astype(np.int64)  # noqa: E731
        if name == "load_deref":
            store, base = self._var_access(instr.srcs[0])
            rows = base[None, :] + np.arange(d.num_components)[:, None]
            rows = np.clip(rows, 0, store.shape[0] - 1)
            self._set(d, store[rows, np.arange(self.lanes)].astype(raw_dtype(d.bit_size)))
        elif name == "store_deref":
            store, base = self._var_access(instr.srcs[0])
            mask = ix.get("write_mask", (1 << instr.srcs[1].num_components) - 1)
            for c in range(instr.srcs[1].num_components):
                if mask >> c & 1:
                    lanes = np.nonzero(self.active)[0]
                    rows = np.clip(base[lanes] + c, 0, store.shape[0] - 1)
                    store[rows, lanes] = srcs[1][c, lanes].astype(np.uint64)
        elif name == "simd":   # cross-lane reads within each SIMD group (the ISA's simd)
            starts = simd_group_starts(self.lanes)
            self._set(d, simd(ix["mode"], srcs[0][0], srcs[1][0], self.active, starts)[None].astype(raw_dtype(32)))
        elif name == "vote":   # over the active lanes of each SIMD group (the ISA's vote)
            starts = simd_group_starts(self.lanes)
            self._set(d, vote(ix["mode"], srcs[0][0], self.active, starts)[None].astype(raw_dtype(1)))
        elif name == "load_param":
            self._set(d, self.frame.params[ix["param_idx"]])
        elif name == "return_value":
            ret = self.frame.ret
            self.frame.ret = srcs[0].copy() if ret is None else np.where(self.active, srcs[0], ret)
        elif name in ("load_input", "load_interpolated_input"):
            # (the interpreter has no pixel positions: an input has one value per lane,
            # wherever it is interpolated)
            data = np.asarray(self.inputs[ix.get("slot", ix.get("base", 0))])
            if data.dtype.kind == "f":
                data = data.astype(np.float32).view(np.uint32)
            comp = ix.get("component", 0)
            self._set(d, np.broadcast_to(data.reshape(data.shape[0], -1), (data.shape[0], self.lanes))[comp:comp + d.num_components])
        elif name == "store_output":
            key = ix.get("slot", ix.get("base", 0))
            out = self.outputs.setdefault(key, np.zeros((4, self.lanes), np.uint32))
            comp, mask = ix.get("component", 0), ix.get("write_mask", 0xF)
            for c in range(srcs[0].shape[0]):
                if mask >> c & 1:
                    out[comp + c] = np.where(self.active, srcs[0][c].astype(np.uint32), out[comp + c])
        elif name == "load_uniform":
            words = np.asarray(self.uniforms, np.uint32)
            offs = (ix.get("base", 0) + u32(srcs[0])) // 4
            rows = np.clip(offs[None, :] + np.arange(d.num_components)[:, None], 0, len(words) - 1)
            self._set(d, words[rows])
        elif name == "load_ubo":
            self._set(d, self._bytes(self.ubos[int(srcs[0][0, 0])], u32(srcs[1]), d.num_components, d.bit_size))
        elif name == "load_ssbo":
            self._set(d, self._bytes(self.ssbos[int(srcs[0][0, 0])], u32(srcs[1]), d.num_components, d.bit_size))
        elif name == "store_ssbo":
            self._store_bytes(self.ssbos[int(srcs[1][0, 0])], u32(srcs[2]), srcs[0],
                              instr.srcs[0].bit_size, ix.get("write_mask", 0xF))
        elif name == "load_shared":
            self._set(d, self._bytes(self.shared, ix.get("base", 0) + u32(srcs[0]), d.num_components, d.bit_size))
        elif name == "store_shared":
            self._store_bytes(self.shared, ix.get("base", 0) + u32(srcs[1]), srcs[0],
                              instr.srcs[0].bit_size, ix.get("write_mask", 0xF))
        elif name in ("load_scratch", "store_scratch"):
            self._scratch(instr, srcs)
        elif name in ("ssbo_atomic", "ssbo_atomic_swap", "shared_atomic", "shared_atomic_swap"):
            self._atomic(instr, srcs)
        elif name == "barrier":
            pass
        elif name == "discard":
            self.alive &= ~self.active
        elif name == "discard_if":
            self.alive &= ~(self.active & srcs[0][0].astype(bool))
        elif name.startswith("load_"):
            self._set(d, self._sysval(name, d))
        else:
            raise InterpError(f"cannot interpret intrinsic {name}")

    def _sysval(self, name, d):
        if name in self.sysvals:
            v = np.asarray(self.sysvals[name])
            return v.astype(np.float32).view(np.uint32) if v.dtype.kind == "f" else v
        lane = np.arange(self.lanes, dtype=np.uint32)
        if name in ("load_vertex_id", "load_local_invocation_index"):
            return lane[None]
        if name in ("load_local_invocation_id", "load_global_invocation_id"):
            return np.stack([lane, np.zeros_like(lane), np.zeros_like(lane)])
        if name == "load_front_face":
            return np.ones((1, self.lanes), bool)
        if name == "load_frag_coord":
            quad, sub = lane // 4, lane % 4
            x = (quad * 2 + sub % 2).astype(np.float32) + 0.5
            y = (sub // 2).astype(np.float32) + 0.5
            return np.stack([x, y, np.zeros_like(x), np.ones_like(x)]).view(np.uint32)
        return np.zeros((d.num_components, self.lanes), raw_dtype(d.bit_size))

    def _scratch(self, instr, srcs):
        ix = instr.indices
        is_store = instr.name == "store_scratch"
        offs = ix.get("base", 0) + srcs[1 if is_store else 0][0].astype(np.int64)
        bits = instr.srcs[0].bit_size if is_store else instr.dest.bit_size
        comps = instr.srcs[0].num_components if is_store else instr.dest.num_components
        need = int(offs.max(initial=0)) + comps * bits // 8
        if need > self.scratch.shape[1]:
            grown = np.zeros((self.lanes, need), np.uint8)
            grown[:, :self.scratch.shape[1]] = self.scratch
            self.scratch = grown
        size = bits // 8
        if is_store:
            mask = ix.get("write_mask", (1 << comps) - 1)
            raw = np.ascontiguousarray(srcs[0].T).view(np.uint8).reshape(self.lanes, comps, size)
            for lane in np.nonzero(self.active)[0]:
                for c in range(comps):
                    if mask >> c & 1:
                        o = int(offs[lane]) + c * size
                        self.scratch[lane, o:o + size] = raw[lane, c]
        else:
            idx = np.clip(offs[:, None] + np.arange(comps * size), 0, self.scratch.shape[1] - 1)
            data = np.ascontiguousarray(np.take_along_axis(self.scratch, idx, 1)).view(raw_dtype(bits))
            self._set(instr.dest, data.T)

    def _atomic(self, instr, srcs):
        shared = instr.name.startswith("shared")
        if shared:
            buf, offs, rest = self.shared, instr.indices.get("base", 0) + srcs[0][0].astype(np.int64), srcs[1:]
        else:
            buf, offs, rest = self.ssbos[int(srcs[0][0, 0])], srcs[1][0].astype(np.int64), srcs[2:]
        op = instr.indices["atomic_op"]
        result = np.zeros(self.lanes, np.uint32)
        for lane in np.nonzero(self.active)[0]:
            o = int(offs[lane])
            old = int(np.frombuffer(buf[o:o + 4].tobytes(), np.uint32)[0])
            data = int(rest[-1][0, lane])
            so, sd = np.int32(np.uint32(old)), np.int32(np.uint32(data))
            new = {
                "add": (old + data) & 0xFFFFFFFF, "and": old & data, "or": old | data, "xor": old ^ data,
                "xchg": data, "umin": min(old, data), "umax": max(old, data),
                "imin": int(np.uint32(min(so, sd))), "imax": int(np.uint32(max(so, sd))),
                "cmpxchg": data if len(rest) > 1 and old == int(rest[0][0, lane]) else old,
            }[op] if op not in FLOAT_ATOMIC_OPS else int(atomic_combine(
                op, old, data, int(rest[0][0, lane]) if len(rest) > 1 else None))
            buf[o:o + 4] = np.frombuffer(np.uint32(new).tobytes(), np.uint8)
            result[lane] = old
        self._set(instr.dest, result[None])


class _Frame:
    def __init__(self, func: Function, params: list, lanes: int):
        self.values: dict[Def, np.ndarray] = {}
        self.params = params
        self.ret = None
        self.block_id = {b: i for i, b in enumerate(walk_blocks(func.body))}
        self.pred = np.full(lanes, -1, np.int64)


def run_function(shader: Shader, lanes: int = 16, func: Function | None = None, params=None, **kw):
    """Convenience: run and return ``(interpreter, return value)``."""
    it = Interpreter(lanes=lanes, **kw)
    ret = it.run(shader, func, params)
    return it, ret
