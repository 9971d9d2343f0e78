"""What the pipeline gives the shader core for one dispatch, and what it gets back.

The VDM (vertex), PDM (fragment) and CDM (compute) each fill an
:class:`ExecContext` and call ``ShaderCore.run(program_va, ctx)``. Everything is
per *lane* (one vertex, one fragment sample/pixel, one compute thread), as numpy
arrays of length ``lanes`` (or scalars that apply to all lanes).

Inputs
------
``uniforms``         uint32[256]: u0..u255 (halves ``uNl``/``uNh`` are its uint16 view).
``specials``         name -> per-lane array or scalar, read by ``get_sr`` (names in
                     ``uapi.isa.SPECIAL_REGS``; ``lane_id`` is always available).
                     :meth:`ExecContext.for_compute` fills the compute ones.
``threadgroup_lanes`` compute: lanes per threadgroup (groups are consecutive
                     lanes; a batch never splits a group). ``local_memory_B`` is
                     the threadgroup memory size per group.
``quads``            fragment: lanes come in 2x2 quads, lane 4q + 2*row + col,
                     helper lanes included (``helper`` marks them: they execute
                     for derivatives but have no side effects).
``coefficients``     fragment: float32[n_cf, 3, lanes], the plane (a, b, c) of every
                     coefficient register for the lane's primitive, *or*
                     ``cf_planes`` float32[n_prims, n_cf, 3] with ``primitive_index``
                     int[lanes] (the PDM's natural form: no per-lane copy).
                     ``iter`` evaluates a*x + b*y + c at the lane's position; with
                     perspective it divides by the W register's plane (the PDM puts
                     attr/w planes in cf and the 1/w plane in cf_w); ``ldcf`` returns c.
``position_px``      float32[2, lanes]: window position of the pixel centre (x+0.5,
                     y+0.5). ``sample_position_px`` / ``centroid_position_px`` are
                     the positions ``iter .sample`` / ``.centroid`` use (default: centre).
                     ``sample_offsets_px`` float32[samples, 2]: sample positions inside
                     a pixel (0..1), for ``iter .at_sample`` (interpolateAtSample).
``tile_buffer``      uint8[records, record_B] (the caller's tile buffer) and
                     ``tile_index`` int[lanes]: the record (pixel or sample) each lane
                     reads/writes with ``ld_tile``/``st_tile`` at a byte offset.
``lane_order``       True: lanes may share tile records, and their accesses must take
                     effect in lane order, as if each lane ran the whole program before
                     the next (the lanes of several rank layers of a pass in one run).
                     Only the native tier runs such a context
                     (``drmshim.gpu.native.ordered_ready``); the core raises otherwise.
``texture_heap_va``, ``sampler_heap_va``: descriptor arrays in GPU memory; an
                     instruction's texture index t reads the descriptor at
                     heap + t * ``texture_desc_stride_B`` (samplers likewise).
``preload``          {k: per-lane uint32 (or float32) array}: register rk's value at
                     start (ABIs that pass values in registers; tests).
``stack_va``, ``stack_bytes_per_lane``: spill memory; lane L's stack is at
                     stack_va + L * stack_bytes_per_lane (L is the global lane index).

Outputs (allocated by the core when None)
------------------------------------------
``varyings``         uint32[n_varyings, lanes] written by ``st_var`` (vertex; allocated
                     only for programs that use st_var).
``depth``/``stencil`` float32/uint8[lanes] written by ``zs_emit``, with
                     ``depth_written``/``stencil_written`` bool[lanes].
``sample_mask``      uint16[lanes]: starts as ``specials['coverage_mask']`` (or all
                     ones), ANDed by ``sample_mask``.
``discarded``        bool[lanes]: lanes that executed ``discard``.
                     (An output the program has no instruction to write is a
                     read-only array of its initial value.)
``registers``        uint32[n_regs32, lanes]: the final register file, kept when
                     ``keep_registers`` is set (tests, debugging, vertex epilogues).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from uapi import packets
from uapi.isa import SPECIAL_REGS

__all__ = ["ExecContext", "ComputeGrid", "COMPUTE_SPECIALS"]


def _repeated(value, dtype, n: int) -> np.ndarray:
    """A read-only array of ``n`` copies of ``value`` that holds one element (stride
    0; what ``np.broadcast_to`` gives, built without its Python-level checks, which
    cost more than a small batch's whole set-up). ``value``: a scalar or ``n`` values."""
    exact = isinstance(value, (bool, int, np.integer, np.bool_))     # (a float key would merge -0.0 and 0.0)
    if not exact and np.ndim(value):
        return np.broadcast_to(np.asarray(value, dtype), (n,))
    key = (dtype, type(value), value, n) if exact else None
    out = _REPEATED.get(key) if exact else None
    if out is None:
        one = np.array([value], dtype)
        out = np.ndarray((n,), one.dtype, one, 0, (0,))
        out.flags.writeable = False
        if exact:
            if len(_REPEATED) >= 1024:
                _REPEATED.clear()
            _REPEATED[key] = out        # read-only and one element: shared by every run
    return out


_REPEATED: dict = {}
_SPECIAL_REGS = frozenset(SPECIAL_REGS)


@dataclass
class ExecContext:
    lanes: int
    uniforms: np.ndarray = field(default_factory=lambda: np.zeros(256, np.uint32))
    specials: dict = field(default_factory=dict)
    preload: dict = field(default_factory=dict)
    # compute
    threadgroup_lanes: int = 1
    local_memory_B: int = 0
    # fragment
    quads: bool = False
    helper: np.ndarray | None = None
    coefficients: np.ndarray | None = None
    cf_planes: np.ndarray | None = None
    primitive_index: np.ndarray | None = None
    position_px: np.ndarray | None = None
    sample_position_px: np.ndarray | None = None
    centroid_position_px: np.ndarray | None = None
    sample_offsets_px: np.ndarray | None = None
    tile_buffer: np.ndarray | None = None
    tile_index: np.ndarray | None = None
    lane_order: bool = False        # lanes sharing a record take effect in lane order (native tier only)
    # textures and stack
    texture_heap_va: int = 0
    sampler_heap_va: int = 0
    texture_desc_stride_B: int = packets.TEXTURE_DESC_B
    sampler_desc_stride_B: int = packets.SAMPLER_DESC_B
    stack_va: int = 0
    stack_bytes_per_lane: int = 0
    # outputs
    varyings: np.ndarray | None = None
    n_varyings: int = 64
    depth: np.ndarray | None = None
    stencil: np.ndarray | None = None
    depth_written: np.ndarray | None = None
    stencil_written: np.ndarray | None = None
    sample_mask: np.ndarray | None = None
    discarded: np.ndarray | None = None
    keep_registers: bool = False
    registers: np.ndarray | None = None
    compute_grid: "ComputeGrid | None" = None   # compute: the lane numbering (for_compute)

    def __post_init__(self):
        self.uniforms = np.ascontiguousarray(self.uniforms, dtype=np.uint32)
        if self.uniforms.size < 256:
            self.uniforms = np.concatenate([self.uniforms, np.zeros(256 - self.uniforms.size, np.uint32)])
        unknown = self.specials.keys() - _SPECIAL_REGS
        assert not unknown, f"unknown special registers {sorted(unknown)}"
        if self.quads:
            assert self.lanes % 4 == 0, "quad lanes come in groups of 4"
        assert self.lanes % self.threadgroup_lanes == 0, "lanes must be whole threadgroups"

    def allocate_outputs(self, varyings: bool = True, writes: frozenset | set | None = None) -> None:
        """Create the output arrays the caller did not supply (``varyings``: also the
        vertex outputs, which only programs with st_var need). ``writes``: the units
        of the program's instructions, when known; an output no instruction of them
        writes (``zs_emit``: depth and stencil, ``sample_mask``, ``discard``) keeps
        its initial value everywhere and is a read-only array of it that takes no
        memory (a pass of millions of fragments zeroed ten bytes a lane)."""
        n = self.lanes

        def out(name: str, unit: str, value, dtype):
            have = getattr(self, name)
            written = writes is None or unit in writes
            if have is None:
                if written:
                    setattr(self, name, np.full(n, value, dtype))
                else:
                    setattr(self, name, _repeated(value, dtype, n))
            elif written and not have.flags.writeable:
                setattr(self, name, np.array(have))      # made read-only for a run that wrote none

        if self.varyings is None and varyings:
            self.varyings = np.zeros((self.n_varyings, n), np.uint32)
        out("depth", "zs_emit", 0, np.float32)
        out("stencil", "zs_emit", 0, np.uint8)
        out("depth_written", "zs_emit", False, bool)
        out("stencil_written", "zs_emit", False, bool)
        out("sample_mask", "sample_mask", self.specials.get("coverage_mask", 0xFFFF), np.uint16)
        out("discarded", "discard", False, bool)

    def special(self, name: str, lanes: slice) -> np.ndarray:
        """Per-lane values of special register ``name`` for a slice of lanes (uint32)."""
        if name == "lane_id":
            return np.arange(lanes.start, lanes.stop, dtype=np.uint32)
        if name == "helper_invocation" and name not in self.specials:
            h = self.helper
            return np.zeros(lanes.stop - lanes.start, np.uint32) if h is None else h[lanes].astype(np.uint32)
        if name not in self.specials and self.compute_grid is not None and name in COMPUTE_SPECIALS:
            v = self.compute_grid.special(name, lanes)
            return np.full(lanes.stop - lanes.start, v, np.uint32) if np.ndim(v) == 0 else v
        if name not in self.specials:
            raise KeyError(f"special register {name} was not provided by the pipeline")
        v = np.asarray(self.specials[name])
        if v.ndim == 0:
            return np.full(lanes.stop - lanes.start, v, np.uint32)
        return v[lanes].astype(np.uint32, copy=False)

    @classmethod
    def for_compute(cls, grid_threadgroups: tuple[int, int, int], threadgroup_size: tuple[int, int, int],
                    *, group_offset: tuple[int, int, int] = (0, 0, 0),
                    grid_total: tuple[int, int, int] | None = None, **kw) -> "ExecContext":
        """A compute dispatch of ``grid_threadgroups`` groups: lanes ordered threadgroup
        by threadgroup (x fastest), threads inside a group x fastest. Every compute
        special register is provided (computed per batch by :class:`ComputeGrid`;
        ``specials`` in ``kw`` override). ``group_offset``/``grid_total``: this run is
        the block of groups starting at ``group_offset`` of a grid of ``grid_total``."""
        grid = ComputeGrid(tuple(grid_threadgroups), tuple(threadgroup_size), tuple(group_offset),
                           tuple(grid_total or grid_threadgroups))
        sp = dict(kw.pop("specials", {}))
        return cls(lanes=grid.lanes, specials=sp, threadgroup_lanes=grid.per_group, compute_grid=grid, **kw)


#: The special registers a compute grid defines.
COMPUTE_SPECIALS = frozenset(
    [f"{what}.{a}" for what in ("threadgroup_position_in_grid", "thread_position_in_threadgroup",
                                "thread_position_in_grid", "threads_per_threadgroup", "threadgroups_per_grid")
     for a in "xyz"] + ["thread_index_in_threadgroup"])


@dataclass(frozen=True)
class ComputeGrid:
    """The lane numbering of a compute run, evaluated lazily for a slice of lanes
    (a batch), so a dispatch of millions of threads never holds per-lane arrays of
    every special register: lane L is thread L % per_group of group L // per_group,
    groups x fastest, threads inside a group x fastest."""

    groups: tuple[int, int, int]          # threadgroups in this run
    threadgroup: tuple[int, int, int]     # threads per threadgroup
    group_offset: tuple[int, int, int]    # the run's first group in the whole grid
    grid_total: tuple[int, int, int]      # threadgroups in the whole grid

    @property
    def per_group(self) -> int:
        tx, ty, tz = self.threadgroup
        return tx * ty * tz

    @property
    def lanes(self) -> int:
        gx, gy, gz = self.groups
        return gx * gy * gz * self.per_group

    def special(self, name: str, lanes: slice) -> np.ndarray | int:
        """Register ``name`` (in COMPUTE_SPECIALS) for ``lanes``: uint32 per lane, or
        an int when it is the same for every lane."""
        what, _, axis = name.partition(".")
        a = "xyz".index(axis) if axis else 0
        if what == "threads_per_threadgroup":
            return self.threadgroup[a]
        if what == "threadgroups_per_grid":
            return self.grid_total[a]
        # the lane count of one run fits uint32 (cdm bounds runs to 2^20 lanes)
        lane = np.arange(lanes.start, lanes.stop, dtype=np.uint64 if self.lanes >= 1 << 32 else np.uint32)
        if what == "thread_position_in_grid" and a == 0 and self.threadgroup[1:] == (1, 1) \
                and self.groups[1:] == (1, 1) and lane.dtype == np.uint32:
            # a row of 1D groups: lane L is thread L % tx of group L // tx, so its x is
            # (L // tx + offset) * tx + L % tx = L + offset * tx (mod 2^32, as below)
            lane += np.uint32(self.group_offset[0] * self.threadgroup[0] & 0xFFFFFFFF)
            return lane
        if what == "thread_index_in_threadgroup":
            return _mod(lane, self.per_group)
        if what == "threadgroup_position_in_grid":
            return self._group(lane, a)
        if what == "thread_position_in_threadgroup":
            return self._thread(lane, a)
        assert what == "thread_position_in_grid", name
        return self._group(lane, a) * np.uint32(self.threadgroup[a]) + self._thread(lane, a)

    def _group(self, lane: np.ndarray, a: int) -> np.ndarray:
        """Group coordinate ``a`` (plus the run's offset) of each lane."""
        g = _div(lane, self.per_group * (1, self.groups[0], self.groups[0] * self.groups[1])[a])
        if a < 2 and int(np.prod(self.groups[a + 1:])) > 1:  # else the quotient is already below groups[a]
            g = _mod(g, self.groups[a])
        g = g.astype(np.uint32, copy=False)
        return g + np.uint32(self.group_offset[a]) if self.group_offset[a] else g

    def _thread(self, lane: np.ndarray, a: int) -> np.ndarray:
        """Thread coordinate ``a`` inside its group of each lane."""
        tx, ty, tz = self.threadgroup
        t = _div(lane, (1, tx, tx * ty)[a])
        if a < 2 or self.lanes > self.per_group:
            t = _mod(t, self.threadgroup[a])
        return t.astype(np.uint32, copy=False)


def _div(v: np.ndarray, d: int) -> np.ndarray:
    """v // d for unsigned v (a shift when d is a power of two)."""
    if d == 1:
        return v
    if d & (d - 1) == 0:
        return v >> v.dtype.type(d.bit_length() - 1)
    return v // v.dtype.type(d)


def _mod(v: np.ndarray, d: int) -> np.ndarray:
    """v % d for unsigned v (a mask when d is a power of two)."""
    if d & (d - 1) == 0:
        return v & v.dtype.type(d - 1)
    return v % v.dtype.type(d)
