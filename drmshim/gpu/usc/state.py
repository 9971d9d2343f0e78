"""Register file of one batch of lanes, and operand readers/writers.

Layout: ``r32`` is uint32 ``[register, lane]`` (r0..rN, one row per 32-bit
register), so a 32-bit ALU op reads and writes whole contiguous rows. The 16-bit
halves are strided views of the same memory: ``u16[reg, 0::2]`` is ``rNl`` and
``u16[reg, 1::2]`` is ``rNh`` (little endian). 64-bit values are register pairs.

Readers and writers are closures made once per decoded instruction (at compile
time) and called with the batch state at run time: no Python per lane, and no
decision per call that could have been made at compile time.
"""

from __future__ import annotations

import threading

import numpy as np

from uapi.isa import Imm, Reg
from uapi.isa.semantics import FLOAT, SINT, UINT, minifloat_decode, saturate

__all__ = ["Batch", "raw_reader", "uniform_reader", "float_reader", "raw_writer", "float_writer", "halves_of"]


_VIEWS = threading.local()      # per thread: the views Batch derived from its last register file


class Batch:
    """Execution state of one batch of ``n`` lanes (global lanes ``lane0 ..
    lane0+n``). ``exec`` is the execution mask (r0l == 0); ``dead`` marks helper
    and discarded lanes, which execute but have no side effects."""

    def __init__(self, core, ctx, lane0: int, n: int, n_regs32: int, storage: np.ndarray | None = None,
                 consts: dict | None = None, zero_rows=None):
        """``storage``: a uint32 [>= n_regs32, >= n] array to reuse for the registers;
        ``zero_rows``: the rows of it to clear (None: all; the program analysis knows
        which registers are written before they are read); ``consts``: a
        constant-array cache shared by a run's batches."""
        self.core, self.ctx, self.mem = core, ctx, core.mem
        self.lane0, self.n = lane0, n
        self.lanes = slice(lane0, lane0 + n)
        if storage is None:
            self._views(np.zeros((max(n_regs32, 1), n), np.uint32))
        else:
            rows = max(n_regs32, 1)
            hit = getattr(_VIEWS, "last", None)
            if hit is not None and hit[0] is storage and hit[1] == rows and hit[2] == n:
                # the thread's register file in the shape of its last batch: the same views
                self.r32, self.f32, self.rows_u32, self.rows_f32, self.u16, self.h16 = hit[3:]
            else:
                self._views(storage[:rows, :n])
                _VIEWS.last = (storage, rows, n, self.r32, self.f32, self.rows_u32, self.rows_f32, self.u16, self.h16)
            if zero_rows is None:
                self.r32.fill(0)
            else:
                for r in zero_rows:
                    if r < self.r32.shape[0]:
                        self.r32[r].fill(0)
        self.uni32 = ctx.uniforms
        self.uni16 = ctx.uniforms.view(np.uint16)
        self.unif32 = ctx.uniforms.view(np.float32)
        self._consts: dict = {} if consts is None else consts
        self.exec = self.const(np.True_)  # read-only; refresh_exec replaces it
        self.all_active = True
        self.any_active = n > 0
        dead = np.zeros(n, bool)
        if ctx.helper is not None:
            dead |= np.asarray(ctx.helper[self.lanes], bool)
        self.dead = dead
        self.pending: dict[int, int] = {}  # register half -> scoreboard slot (debug mode)
        self.local = None                   # threadgroup memory of this batch (compute)
        self.memo: dict = {}                # per-batch facts the units derive once (e.g. iter's primitive)

    def _views(self, r32: np.ndarray) -> None:
        self.r32 = r32
        self.f32 = r32.view(np.float32)
        self.rows_u32 = list(r32)    # row views made once per batch: the hot path indexes lists
        self.rows_f32 = list(self.f32)
        self.u16 = r32.view(np.uint16)
        self.h16 = r32.view(np.float16)

    def const(self, v, key=None) -> np.ndarray:
        """A read-only array of ``n`` copies of scalar ``v``, cached (``key``: a
        precomputed ``const_key(v)``): numpy's min/max are several times slower
        with a scalar operand than with two arrays."""
        key = (self.n, key or const_key(v))
        arr = self._consts.get(key)
        if arr is None:
            arr = self._consts[key] = np.full(self.n, v)
            arr.flags.writeable = False
        return arr

    def refresh_exec(self) -> None:
        """Recompute the execution mask from r0l (after a control-flow instruction)."""
        self.exec = self.u16[0, 0::2] == 0
        self.all_active = bool(self.exec.all())
        self.any_active = self.all_active or bool(self.exec.any())

    def effect_mask(self) -> np.ndarray:
        """Lanes whose side effects (stores, atomics, outputs) happen."""
        return self.exec & ~self.dead


def const_key(v) -> tuple:
    """Cache key of a numpy scalar (bit-exact: NaNs and -0.0 included)."""
    return (v.dtype.char, v.tobytes())


def halves_of(r) -> range:
    """General-register halves an operand covers (empty for uniforms/immediates)."""
    if isinstance(r, Reg) and r.file == "r":
        return r.halves
    return range(0)


# ---------------------------------------------------------------------------
# Readers: f(batch) -> array (or numpy scalar, which broadcasts)

def uniform_reader(src, size: int):
    """Read an immediate or uniform-register ``src`` as one unsigned scalar of
    ``size`` bits, converted as ``raw_reader`` converts it (for a caller that needs
    the value, not an array of it per lane)."""
    ut = UINT[size]
    if isinstance(src, Imm):
        c = ut(src.code)
        return lambda b: c
    half, rsize = src.half, src.size
    i = half // 2
    if rsize == 16:
        get = lambda b: b.uni16[half]
    elif rsize == 32:
        get = lambda b: b.uni32[i]
    else:
        get = lambda b: np.uint64(b.uni32[i]) | (np.uint64(b.uni32[i + 1]) << np.uint64(32))
    return lambda b: ut(get(b))


def raw_reader(src, size: int):
    """Read ``src`` as an unsigned integer of ``size`` bits (a narrower register is
    zero-extended, a wider one truncated; an immediate is zero-extended)."""
    ut = UINT[size]
    if isinstance(src, Imm):
        c = ut(src.code)
        key = const_key(c)
        return lambda b: b.const(c, key)
    half, rsize = src.half, src.size
    i, h = half // 2, half % 2
    if src.file == "u":
        scalar = uniform_reader(src, size)
        return lambda b: b.const(scalar(b))
    if rsize == 16:
        get = lambda b: b.u16[i, h::2]
    elif rsize == 32:
        get = lambda b: b.rows_u32[i]
    else:
        get = lambda b: b.r32[i].astype(np.uint64) | (b.r32[i + 1].astype(np.uint64) << np.uint64(32))
    if rsize == size:
        return get
    return lambda b: get(b).astype(ut)


def float_reader(src, abs_: bool = False, neg: bool = False):
    """Read ``src`` as binary32 (16-bit registers are widened exactly), applying
    the abs then neg source modifiers."""
    if isinstance(src, Imm):
        v = np.float32(minifloat_decode(src.code))
        v = -abs(v) if abs_ and neg else abs(v) if abs_ else -v if neg else v
        key = const_key(v)
        return lambda b: b.const(v, key)
    half, i, h = src.half, src.half // 2, src.half % 2
    if src.size == 64:
        raise ValueError("float operands are 16 or 32 bits")
    if src.file == "u":
        get = (lambda b: b.const(b.unif32[i])) if src.size == 32 else \
            (lambda b: b.const(np.float32(b.uni16[half:half + 1].view(np.float16)[0])))
    elif src.size == 32:
        get = lambda b: b.rows_f32[i]
    else:
        get = lambda b: b.h16[i, h::2].astype(np.float32)
    if abs_ and neg:
        return lambda b: -np.abs(get(b))
    if abs_:
        return lambda b: np.abs(get(b))
    if neg:
        return lambda b: np.negative(get(b))
    return get


# ---------------------------------------------------------------------------
# Writers: f(batch, values) -> None, honouring the execution mask

def raw_writer(dst: Reg):
    """Write unsigned integer values (any integer dtype; cast to the register size)."""
    i, h, size = dst.half // 2, dst.half % 2, dst.size
    ut = UINT[size]
    if size == 32:
        def write(b, v):
            if b.all_active:
                b.rows_u32[i][...] = v
            else:
                np.copyto(b.r32[i], np.asarray(v).astype(ut, copy=False), where=b.exec)
    elif size == 16:
        def write(b, v):
            dst_view = b.u16[i, h::2]
            if b.all_active:
                dst_view[...] = np.asarray(v).astype(ut, copy=False)
            else:
                np.copyto(dst_view, np.asarray(v).astype(ut, copy=False), where=b.exec)
    else:
        def write(b, v):
            v = np.asarray(v).astype(np.uint64, copy=False)
            lo, hi = v.astype(np.uint32), (v >> np.uint64(32)).astype(np.uint32)
            if b.all_active:
                b.r32[i], b.r32[i + 1] = lo, hi
            else:
                np.copyto(b.r32[i], lo, where=b.exec)
                np.copyto(b.r32[i + 1], hi, where=b.exec)
    return write


def float_writer(dst: Reg, sat: bool = False):
    """Write binary32 values, rounded to the register's float size, saturated if asked."""
    i, h, size = dst.half // 2, dst.half % 2, dst.size
    if size == 32:
        def write(b, v):
            if sat:
                v = saturate(np.asarray(v, np.float32))
            if b.all_active:
                b.rows_f32[i][...] = v
            else:
                np.copyto(b.f32[i], v, where=b.exec, casting="unsafe")
    elif size == 16:
        def write(b, v):
            v = np.asarray(v, np.float32)
            if sat:
                v = saturate(v)
            with np.errstate(over="ignore"):
                v = v.astype(np.float16)
            if b.all_active:
                b.h16[i, h::2] = v
            else:
                np.copyto(b.h16[i, h::2], v, where=b.exec)
    else:
        raise ValueError("float results are 16 or 32 bits")
    return write


def to_bits(values: np.ndarray, size: int) -> np.ndarray:
    """Typed values (float16/32, signed or unsigned ints) -> raw unsigned bits of
    ``size``: floats are rounded to the size's float type, signed ints sign-extended."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        if size == 64:
            raise ValueError("no 64-bit floats")
        with np.errstate(over="ignore"):
            return values.astype(FLOAT[size]).view(UINT[size])
    if values.dtype.kind == "i":
        return values.astype(SINT[size]).view(UINT[size])
    return values.astype(UINT[size])
