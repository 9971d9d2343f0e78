"""The render pipeline of one ``drm_asahi_cmd_render``: vertex half and fragment half.

Vertex half (``run_vertex_half``): the VDM walks ``vdm_ctrl_stream_base``; every
draw is vertex-shaded in bulk (``vdm``) and goes through the PPP (``ppp``); the
tiler bins all setup rows of the command, in draw order, into tiles of
``utile_width_px`` into a tiled vertex buffer (TVB) of ``tvb_entries`` (tile,
primitive) entries. When it fills, the rows binned so far form a pass of their
own: a *partial render* (counted in the feedback). The TVB is kept per command
for the fragment half.

Fragment half (``run_fragment_half``), per pass:

1. Tiles: those with primitives in the pass, or all of them with
   ``DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES`` (and for blits). Their tile memory is
   fresh: ``sample_size_B`` bytes per sample (the *record*).
2. Background program: USC words at ``usc_exec_base + bg.usc`` (``partial_bg``
   for passes after the first), one lane per record (special registers
   ``pixel_x``, ``pixel_y``, ``sample_id``; ``ld_tile``/``st_tile`` reach the lane's
   own record). It initialises tile memory: clear values (``st_tile`` of
   uniforms) or loads (``texture_load`` + ``st_tile``). ``usc == 0``: no program.
3. ISP: rasterisation of the pass's rows (``raster``), scissor and viewport
   rectangles, the PPP_MSAA sample mask, depth and stencil tests in primitive
   order by per-pixel rank layers. Depth/stencil live in ISP memory for the
   whole command: cleared from ``isp_bgobjdepth`` (float32 bits) and
   ``isp_bgobjvals`` (stencil in bits 0-7) or loaded from the ``depth`` /
   ``stencil`` ZLS buffers (``zls_ctrl`` is a ZLS_CONTROL word), stored back at
   the end when asked.
4. PDM + USC: fragment shading in bulk, one lane per covered sample (sample
   shading), coefficient registers from the PPP planes (``cf_planes`` +
   ``primitive_index``), ``st_tile``/``ld_tile`` on the lane's record. Hidden
   surface removal (for passes whose shaders neither read tile memory, nor
   discard, nor write depth/sample mask, nor store to memory): resolve
   visibility first, shade only the last visible fragment of each sample. Else
   layer by layer: early depth/stencil, or late (after shading, with the
   shader's discard, sample mask and depth) when the shader discards or writes
   depth or its USC_FRAGMENT has no ``early_z``; tile-memory writes of lanes that
   fail are dropped.
5. End-of-tile pipeline (``eot``, ``partial_eot`` for passes before the last):
   its program (optional) runs one lane per record like the background
   program, then the PBE stores each ``USC_PBE`` render target of tile memory
   into its image (``pbe``: linear, twiddled, twiddled_compressed). A program
   may also store with ``image_write``/``device_store`` itself. Faults in this
   step are reported as PBE faults.

Occlusion: ``PPP_OCCLUSION`` (mode, index) adds each draw's passed samples to
the uint64 at ``isp_oclqry_base + 8 * index`` (BOOLEAN: writes 1 if any).
Statistics: draws after a ``VDM_STATE_STATISTICS`` add vertices and primitives
submitted, vertex shader invocations, clipper input/output primitives (vertex
half) and fragment shader invocations (fragment half) to its 6 uint64.
``SHIMGL_DEBUG=sysmem``: one pass over the whole framebuffer in pixel order
(direct rendering, no tiles, no TVB limit); ``nohsr``: never HSR.

Not modelled: layered rendering (layer 0 only), edge flags of clipped
polygons in LINE mode, alpha-to-coverage, shader stencil export, per-lane
scratch memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

import layout
import uapi
from uapi import packets as P

from ...memory import GPUFault
from .. import raster as R
from ..usc import ExecContext
from .pbe import store_render_target
from .ppp import DrawGeometry, process_draw
from .usc_words import read_pipeline, read_words
from .vdm import shade_vertices, walk_draws

__all__ = ["TiledVertexBuffer", "run_vertex_half", "run_fragment_half"]

PROCESS_EMPTY_TILES = uapi.DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES
SIDE_EFFECTS = {"device_store", "atomic", "image_write", "image_atomic"}
DEPTH_FORMATS = {P.ZFormat.Z32_FLOAT: ("Z32_FLOAT", "float32"), P.ZFormat.Z16_UNORM: ("Z16_UNORM", "unorm16")}
TILINGS = {P.Tiling.LINEAR: "linear", P.Tiling.TWIDDLED: "twiddled",
           P.Tiling.TWIDDLED_COMPRESSED: "twiddled_compressed"}


@dataclass
class Pass:
    rows: np.ndarray              # setup rows rasterised in this pass (increasing)
    tiles: np.ndarray             # tiles with primitives in this pass
    entries: int = 0


@dataclass
class TiledVertexBuffer:
    """The vertex half's output, consumed by the fragment half of the same command."""

    width_px: int
    height_px: int
    samples: int
    tile_px: int
    sysmem: bool
    hsr: bool
    draws: list[DrawGeometry] = field(default_factory=list)
    setup: R.TriangleSetup | None = None
    row_draw: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    planes: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 3), np.float32))
    passes: list[Pass] = field(default_factory=list)

    @property
    def tiles_x(self) -> int:
        return -(-self.width_px // self.tile_px)

    @property
    def tiles_y(self) -> int:
        return -(-self.height_px // self.tile_px)


def _geometry_of(cmd) -> tuple[int, int, int, int]:
    samples = cmd.samples or 1
    tile = cmd.utile_width_px or 32
    return max(cmd.width_px, 1), max(cmd.height_px, 1), samples, tile


def _zls(cmd):
    return P.ZLS_CONTROL.unpack(P.words_to_bytes([cmd.zls_ctrl & 0xFFFFFFFF]))


def _cf_count(memory, ppp: dict) -> int:
    fs = ppp.get("fragment_shader")
    if fs is None or not fs.cf_binding_count:
        return 1
    words = read_words(memory, fs.cf_bindings, 1 + fs.cf_binding_count, "PPP").tolist()
    n = P.CF_BINDING_HEADER.unpack(words[:1]).cf_count
    for w in words[1:]:
        b = P.CF_BINDING.unpack([w])
        n = max(n, b.base_cf + b.components)
    return max(n, 1)


def _concat_setups(setups: list[R.TriangleSetup]) -> R.TriangleSetup:
    names = [f for f in R.TriangleSetup.__dataclass_fields__ if f not in ("corner_weights", "corner_uv")]
    return R.TriangleSetup(**{f: np.concatenate([getattr(s, f) for s in setups]) for f in names})


def run_vertex_half(executor, command) -> TiledVertexBuffer:
    cmd = command.cmd
    memory = command.memory
    W, H, S, T = _geometry_of(cmd)
    sysmem, hsr = executor.options()
    tvb = TiledVertexBuffer(W, H, S, T, sysmem, hsr)
    if not cmd.vdm_ctrl_stream_base:
        tvb.passes = [Pass(np.zeros(0, np.int64), np.zeros(0, np.int64))]
        return tvb
    core = executor.core(command)
    depth_format = DEPTH_FORMATS[_zls(cmd).depth_format][1]
    draws = walk_draws(memory, cmd.vdm_ctrl_stream_base)
    vertices = primitives = 0
    geoms = []
    for d in draws:
        batch = shade_vertices(core, memory, d, cmd.sampler_heap)
        vertices += batch.lanes
        g = process_draw(memory, d, batch, W, H, depth_format, _cf_count(memory, d.ppp))
        primitives += g.primitives
        geoms.append(g)
        if d.statistics_va:
            rows = 0 if g.setup is None else len(np.unique(g.setup.prim))
            add_statistics(memory, d.statistics_va, [d.count * d.instances, g.primitives, batch.lanes,
                                                     g.primitives, rows, 0])
    tvb.draws = geoms
    live = [g for g in geoms if g.setup is not None and len(g.setup)]
    if live:
        tvb.setup = _concat_setups([g.setup for g in live])
        tvb.row_draw = np.concatenate([np.full(len(g.setup), g.draw.index, np.int64) for g in live])
        n_cf = max(g.planes.shape[1] for g in live)
        tvb.planes = np.concatenate([np.pad(g.planes, ((0, 0), (0, n_cf - g.planes.shape[1]), (0, 0)))
                                     for g in live])
    tvb.passes = _bin(tvb, executor.tvb_entries)
    fb = command.feedback
    fb.tvb_size_B = executor.tvb_entries * TVB_ENTRY_B
    fb.tvb_usage_B = max(p.entries for p in tvb.passes) * TVB_ENTRY_B
    fb.tvb_overflows = fb.partial_renders = len(tvb.passes) - 1
    command.counters.add(vertices=vertices, primitives=primitives)
    return tvb


#: Bytes of one (tile, primitive) entry of the tiled vertex buffer (for the feedback).
TVB_ENTRY_B = 8
STATISTICS = ("vertices_submitted", "primitives_submitted", "vs_invocations", "clipper_invocations",
              "clipper_primitives", "fs_invocations")


def add_statistics(memory, va: int, amounts) -> None:
    """Add to the 6 uint64 pipeline-statistics counters at ``va`` (VDM_STATE_STATISTICS)."""
    old = memory.read(va, 48, "VDM").view("<u8")
    memory.write(va, (old + np.asarray(amounts, np.uint64)).astype("<u8"), "VDM")


def _bin(tvb: TiledVertexBuffer, capacity: int) -> list[Pass]:
    n = 0 if tvb.setup is None else len(tvb.setup)
    if n == 0:
        return [Pass(np.zeros(0, np.int64), np.zeros(0, np.int64))]
    if tvb.sysmem:
        return [Pass(np.arange(n, dtype=np.int64), np.zeros(0, np.int64), n)]
    passes, first = [], 0
    while first < n:
        tl = R.bin_triangles(tvb.setup, tvb.width_px, tvb.height_px, tile_size_px=tvb.tile_px,
                             capacity_entries=capacity, first_row=first)
        passes.append(Pass(np.arange(first, tl.rows_end, dtype=np.int64), tl.nonempty_tiles(), tl.entries))
        first = tl.rows_end
    return passes


# ----------------------------------------------------------------------------- fragment half

@dataclass
class _DrawState:
    geom: DrawGeometry
    pipe: object = None
    code_va: int = 0
    ds: R.DepthStencilState = field(default_factory=R.DepthStencilState)
    late: bool = False
    hsr_ok: bool = False
    quads: bool = False
    names: frozenset = frozenset()      # instructions of the fragment program
    specials: frozenset = frozenset()   # special registers it reads
    uses_iter: bool = False
    uniform: tuple | None = None        # uniform_record of the fragment program
    sample_mask: int = 0xFFFF
    occlusion: object = None
    passed: int = 0                     # samples that passed depth/stencil (occlusion)
    shaded: int = 0                     # fragment shader invocations (lanes, helpers excluded)


def _stencil_face(rec) -> R.StencilFace:
    if rec is None:
        return R.StencilFace()
    return R.StencilFace(func=int(rec.compare), ref=rec.reference, value_mask=rec.read_mask,
                         write_mask=rec.write_mask, fail_op=int(rec.stencil_fail), zfail_op=int(rec.depth_fail),
                         zpass_op=int(rec.depth_pass))


def _draw_state(executor, command, geom: DrawGeometry) -> _DrawState:
    ppp = geom.draw.ppp
    st = _DrawState(geom)
    zs = ppp.get("zs")
    if zs is not None:
        depth_test = zs.depth_func != P.CompareFunc.ALWAYS or zs.depth_write
        front = _stencil_face(ppp.get("stencil_front"))
        back = _stencil_face(ppp.get("stencil_back")) if zs.two_sided_stencil else front
        st.ds = R.DepthStencilState(depth_test=bool(depth_test), depth_func=int(zs.depth_func),
                                    depth_write=bool(zs.depth_write), stencil_test=bool(zs.stencil_test),
                                    front=front, back=back)
    msaa = ppp.get("msaa")
    if msaa is not None:
        st.sample_mask = msaa.sample_mask
    st.occlusion = ppp.get("occlusion")
    fs = ppp.get("fragment_shader")
    if fs is not None and fs.pipeline:
        st.pipe = read_pipeline(command.memory, fs.pipeline, "PDM", command.cmd.sampler_heap)
        st.code_va = st.pipe.code_va
        prog = executor.core(command).load(st.code_va)
        names = {ins.op.name for _, ins in prog.instructions}
        st.names = frozenset(names)
        st.specials = frozenset(ins["sr"] for _, ins in prog.instructions if ins.op.name == "get_sr")
        st.uses_iter = "iter" in names
        st.uniform = uniform_record(executor.core(command), st.pipe, max(int(command.cmd.sample_size_B), 4), {})
        st.quads = bool(names & {"dfdx", "dfdy"}) or any(
            ins.op.name == "texture_sample" and ins["lod_mode"] in ("auto", "bias") for _, ins in prog.instructions)
        p = st.pipe
        st.late = p.discards or p.writes_depth or p.writes_sample_mask or "discard" in names \
            or "zs_emit" in names or "sample_mask" in names
        st.hsr_ok = not st.late and "ld_tile" not in names and not (names & SIDE_EFFECTS)
    else:
        st.hsr_ok = True
    return st


class _Frame:
    """ISP memory (depth/stencil for the whole command) and the current pass's tile memory."""

    def __init__(self, command, W, H, S):
        cmd = command.cmd
        self.command, self.memory, self.cmd = command, command.memory, cmd
        self.W, self.H, self.S = W, H, S
        self.zls = _zls(cmd)
        self.record_B = max(int(cmd.sample_size_B), 4)
        clear_z = np.uint32(cmd.isp_bgobjdepth).view(np.float32)
        self.depth = np.full((H, W, S), clear_z, np.float32)
        self.stencil = np.full((H, W, S), cmd.isp_bgobjvals & 0xFF, np.uint8)
        if self.zls.depth_load and cmd.depth.base:
            self.depth[...] = self._load_depth()
        if self.zls.stencil_load and cmd.stencil.base:
            self.stencil[...] = self._load("stencil", "S8_UINT").reshape(H, W, S)

    def _layout(self, which: str, fmt: str):
        buf = getattr(self.cmd, which)
        tiling = TILINGS[self.zls.depth_tiling if which == "depth" else self.zls.stencil_tiling]
        stride = buf.stride if tiling == "linear" else 0
        return layout.make_miptree(self.W, self.H, format=fmt, sample_count_sa=self.S, tiling=tiling,
                                   linear_stride_B=stride)

    def _load(self, which: str, fmt: str) -> np.ndarray:
        lay = self._layout(which, fmt)
        raw = self.memory.read(getattr(self.cmd, which).base, lay.size_B, "ZLS")
        return layout.detile(lay, raw, 0, 0, 0, 0, self.W, self.H)

    def _load_depth(self) -> np.ndarray:
        fmt = DEPTH_FORMATS[self.zls.depth_format][0]
        raw = self._load("depth", fmt)
        if fmt == "Z16_UNORM":
            return (raw.view(np.uint16).astype(np.float32) / 65535.0).reshape(self.H, self.W, self.S)
        return raw.view(np.float32).reshape(self.H, self.W, self.S)

    def store(self) -> None:
        if self.zls.depth_store and self.cmd.depth.base:
            fmt = DEPTH_FORMATS[self.zls.depth_format][0]
            data = self.depth if fmt == "Z32_FLOAT" else np.rint(np.clip(self.depth, 0, 1) * 65535).astype(np.uint16)
            self._store("depth", fmt, data)
        if self.zls.stencil_store and self.cmd.stencil.base:
            self._store("stencil", "S8_UINT", self.stencil)

    def _store(self, which: str, fmt: str, data: np.ndarray) -> None:
        lay = self._layout(which, fmt)
        base = getattr(self.cmd, which).base
        raw = self.memory.read(base, lay.size_B, "ZLS").copy()
        layout.tile(lay, raw, np.ascontiguousarray(data), 0, 0, 0, 0, self.W, self.H)
        self.memory.write(base, raw, "ZLS")


#: Instructions whose results may differ between lanes (or that touch memory).
LANE_VARYING = {"get_sr", "iter", "ldcf", "ld_tile", "texture_sample", "texture_load", "texture_size", "image_load",
                "image_write", "image_atomic", "device_load", "device_store", "atomic", "local_load", "local_store",
                "local_atomic", "stack_load", "stack_store", "zs_emit", "sample_mask", "discard", "dfdx", "dfdy"}


def uniform_record(core, pipe, record_B: int, cache: dict):
    """For a program whose every lane computes the same thing (no lane-varying input,
    no memory access), the tile-record bytes it writes: (written bool[record_B],
    value uint8[record_B]) found by running one lane twice (records of 0x00 and
    0xFF). None for any other program. Running it per lane would write the same
    bytes into every record, so the caller broadcasts them."""
    key = (pipe.code_va, pipe.uniforms.tobytes(), record_B)
    if key in cache:
        return cache[key]
    prog = core.load(pipe.code_va)
    result = None
    if not any(ins.op.name in LANE_VARYING - {"ld_tile"} for _, ins in prog.instructions) and \
            "ld_tile" not in {ins.op.name for _, ins in prog.instructions}:
        runs = []
        for fill in (0x00, 0xFF):
            rec = np.full((1, record_B), fill, np.uint8)
            core.run(pipe.code_va, ExecContext(lanes=1, tile_buffer=rec, tile_index=np.zeros(1, np.int64),
                                               **pipe.context_fields()))
            runs.append(rec[0])
        result = (runs[0] == runs[1], runs[0])
    cache[key] = result
    return result


def _broadcast_record(tile_buffer: np.ndarray, rows: np.ndarray | None, written: np.ndarray,
                      value: np.ndarray) -> None:
    """Write the ``written`` bytes of ``value`` into records ``rows`` (None: all)."""
    n_B = tile_buffer.shape[1]
    if written.all() and n_B % 4 == 0:
        words = tile_buffer.view(np.uint32)
        v = value.view(np.uint32)
        if rows is None:
            words[:] = v
        else:
            words[rows] = v
        return
    cols = np.flatnonzero(written)
    if rows is None:
        tile_buffer[:, cols] = value[cols]
    else:
        tile_buffer[rows[:, None], cols] = value[cols]


def _program(command, bg_eot) -> int:
    return command.usc_exec_base + bg_eot.usc if bg_eot.usc else 0


def _tile_pixels(tvb: TiledVertexBuffer, tiles: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Pixels (x, y) of ``tiles`` in tile-major order (None: the whole framebuffer in
    pixel order, for sysmem)."""
    W, H, T = tvb.width_px, tvb.height_px, tvb.tile_px
    if tiles is None:
        y, x = np.divmod(np.arange(W * H, dtype=np.int64), W)
        return x, y
    ly, lx = np.divmod(np.arange(T * T, dtype=np.int64), T)
    ty, tx = np.divmod(tiles.astype(np.int64), tvb.tiles_x)
    x = (tx[:, None] * T + lx).ravel()
    y = (ty[:, None] * T + ly).ravel()
    keep = (x < W) & (y < H)
    return x[keep], y[keep]


_PIXEL_MAPS: dict = {}


def _pixel_map(tvb: TiledVertexBuffer, tiles: np.ndarray | None):
    """(px, py, record_of, key) of a pass: its pixels in record order, the record of
    every framebuffer pixel (-1: not in the pass) and a key naming this mapping.
    Remembered for the last few (frame size, tile set): frames repeat them."""
    key = (tvb.width_px, tvb.height_px, tvb.tile_px, None if tiles is None else tiles.tobytes())
    hit = _PIXEL_MAPS.get(key)
    if hit is None:
        px, py = _tile_pixels(tvb, tiles)
        record_of = np.full((tvb.height_px, tvb.width_px), -1, np.int64)
        record_of[py, px] = np.arange(len(px), dtype=np.int64)
        for a in (px, py, record_of):
            a.flags.writeable = False
        if len(_PIXEL_MAPS) > 8:
            _PIXEL_MAPS.clear()
        hit = _PIXEL_MAPS[key] = (px, py, record_of, key)
    return hit


def _run_tile_program(core, command, va: int, px, py, S, tile_buffer, unit_label: str | None = None,
                      key=None) -> None:
    if not va:
        return
    pipe = read_pipeline(command.memory, va, "PDM", command.cmd.sampler_heap)
    n = len(px) * S
    if n == 0:
        return
    try:
        uniform = uniform_record(core, pipe, tile_buffer.shape[1], {}) if pipe.code_va else None
        if uniform is not None:
            _broadcast_record(tile_buffer, None, *uniform)
        elif pipe.code_va:
            x, y = (np.repeat(px, S), np.repeat(py, S)) if S > 1 else (px, py)
            ctx = ExecContext(lanes=n, specials={"pixel_x": x.astype(np.uint32), "pixel_y": y.astype(np.uint32),
                                                 "sample_id": np.tile(np.arange(S, dtype=np.uint32), len(px))},
                              position_px=np.stack((x + 0.5, y + 0.5)).astype(np.float32),
                              tile_buffer=tile_buffer, tile_index=np.arange(n, dtype=np.int64),
                              **pipe.context_fields())
            core.run(pipe.code_va, ctx)
        for offset_B, desc in pipe.pbe:
            store_render_target(command.memory, desc, offset_B, tile_buffer, px, py, S, pixels_key=key)
    except GPUFault as fault:
        if unit_label is None:
            raise
        info = fault.info
        raise GPUFault(type(info)(info.address, unit_label, info.is_read)) from None


def run_fragment_half(executor, command, tvb: TiledVertexBuffer | None) -> None:
    cmd = command.cmd
    W, H, S, T = _geometry_of(cmd)
    if tvb is None:
        sysmem, hsr = executor.options()
        tvb = TiledVertexBuffer(W, H, S, T, sysmem, hsr, passes=[Pass(np.zeros(0, np.int64), np.zeros(0, np.int64))])
    core = executor.core(command)
    frame = _Frame(command, W, H, S)
    states = {g.draw.index: _draw_state(executor, command, g) for g in tvb.draws}
    everything = bool(cmd.flags & PROCESS_EMPTY_TILES) or command.kind == "blit"
    tiles_done = fragments = 0
    for i, ps in enumerate(tvb.passes):
        last = i == len(tvb.passes) - 1
        bg = _program(command, cmd.bg if i == 0 else cmd.partial_bg)
        eot = _program(command, cmd.eot if last else cmd.partial_eot)
        if tvb.sysmem:
            tiles = None
        else:
            tiles = np.arange(tvb.tiles_x * tvb.tiles_y, dtype=np.int64) if everything else ps.tiles
            if len(tiles) == 0:
                continue
            tiles_done += len(tiles)
        px, py, record_of, key = _pixel_map(tvb, tiles)
        tile_buffer = np.zeros((len(px) * S, frame.record_B), np.uint8)
        _run_tile_program(core, command, bg, px, py, S, tile_buffer, key=key)
        if len(ps.rows):
            fragments += _shade_pass(core, command, tvb, ps, frame, states, record_of, tile_buffer,
                                    tiles is None or len(tiles) == tvb.tiles_x * tvb.tiles_y)
        _run_tile_program(core, command, eot, px, py, S, tile_buffer, unit_label="PBE", key=key)
    frame.store()
    _write_occlusion(command, states)
    for st in states.values():
        if st.geom.draw.statistics_va and st.shaded:
            add_statistics(command.memory, st.geom.draw.statistics_va, [0, 0, 0, 0, 0, st.shaded])
    command.counters.add(tiles=tiles_done if not tvb.sysmem else tvb.tiles_x * tvb.tiles_y, fragments=fragments)


def _write_occlusion(command, states: dict) -> None:
    base = command.cmd.isp_oclqry_base
    sums: dict[int, list] = {}
    for st in states.values():
        occ = st.occlusion
        if occ is None or occ.mode == P.VisibilityMode.NONE:
            continue
        entry = sums.setdefault(occ.index, [occ.mode, 0])
        entry[1] += st.passed
    if not base:
        return
    for index, (mode, count) in sums.items():
        va = base + 8 * index
        old = int(command.memory.read(va, 8, "ISP").view("<u8")[0])
        new = old + count if mode == P.VisibilityMode.COUNTING else (1 if (count or old) else 0)
        command.memory.write(va, np.array([new], "<u8"), "ISP")


# ----------------------------------------------------------------------------- ISP + PDM

def _filter(frags: R.Fragments, keep: np.ndarray) -> R.Fragments:
    """Fragments where ``keep``, keeping the rasteriser's layers."""
    if keep.all():
        return frags
    sub = frags.take(keep)
    if frags.layer_offsets is None:
        return sub
    cum = np.concatenate(([0], np.cumsum(keep)))
    return replace(sub, layer_offsets=np.unique(cum[frags.layer_offsets]))


def _shade_pass(core, command, tvb, ps: Pass, frame: _Frame, states, record_of, tile_buffer,
                all_tiles: bool) -> int:
    setup = tvb.setup
    S, W, H = frame.S, frame.W, frame.H
    draw_ids = np.array(sorted(states), np.int64)
    vps = [states[d].geom.draw.ppp.get("viewport") for d in draw_ids]
    lo = min(v.min_depth if v is not None else 0.0 for v in vps)
    hi = max(v.max_depth if v is not None else 1.0 for v in vps)
    frags = R.rasterize(setup, (0, 0, W, H), S, rows=ps.rows, depth_clamp=(min(lo, hi), max(lo, hi)))
    if len(frags) == 0:
        return 0
    one_draw = len(draw_ids) == 1
    draw = None if one_draw else tvb.row_draw[frags.tri]
    slot = 0 if one_draw else np.searchsorted(draw_ids, draw)
    keep = None
    rects = np.array([states[d].geom.rect for d in draw_ids], np.int64).reshape(-1, 4)
    if (rects != (0, 0, W, H)).any():
        rect = rects[slot] if not one_draw else rects[0]
        keep = (frags.x >= rect[..., 0]) & (frags.x < rect[..., 2]) & (frags.y >= rect[..., 1]) & (frags.y < rect[..., 3])
    if not all_tiles:
        inside = record_of[frags.y, frags.x] >= 0
        keep = inside if keep is None else keep & inside
    full = (1 << S) - 1
    masks = np.array([states[d].sample_mask & full for d in draw_ids], np.uint8)
    if (masks != full).any():
        cov = frags.coverage & (masks[slot] if not one_draw else masks[0])
        frags = replace(frags, coverage=cov)
        keep = cov != 0 if keep is None else keep & (cov != 0)
    if keep is not None:
        frags = _filter(frags, keep)
    if len(frags) == 0:
        return 0
    draw = np.full(len(frags), draw_ids[0], np.int64) if one_draw else tvb.row_draw[frags.tri]
    los = np.array([v.min_depth if v is not None else 0.0 for v in vps], np.float32)
    his = np.array([v.max_depth if v is not None else 1.0 for v in vps], np.float32)
    if not one_draw and ((los != los[0]).any() or (his != his[0]).any()):   # per-draw depth range
        slot = np.searchsorted(draw_ids, draw)
        lo_f, hi_f = np.minimum(los, his)[slot], np.maximum(los, his)[slot]
        frags = replace(frags, z=np.clip(frags.z, lo_f[:, None], hi_f[:, None]).astype(np.float32))
    front = setup.front_facing[frags.tri]
    layers = R.layers_of(frags)
    ctx = _PassContext(core, command, tvb, frame, states, record_of, tile_buffer, frags, draw, front, one_draw)
    present = draw_ids if one_draw else np.unique(draw)
    if tvb.hsr and all(states[d].hsr_ok for d in present):
        return ctx.hidden_surface_removal(layers)
    return ctx.in_order(layers)


def _single_layer(n: int) -> R.RankLayers:
    return R.RankLayers(np.arange(n, dtype=np.int64), np.array([0, n], np.int64), np.zeros(n, np.int32))


class _PassContext:
    def __init__(self, core, command, tvb, frame, states, record_of, tile_buffer, frags, draw, front, one_draw):
        self.core, self.command, self.tvb, self.frame = core, command, tvb, frame
        self.states, self.record_of, self.tile_buffer = states, record_of, tile_buffer
        self.frags, self.draw, self.front, self.one_draw = frags, draw, front, one_draw
        self.rec_f = record_of[frags.y, frags.x]       # tile-memory pixel of every fragment
        self.planes_t = np.ascontiguousarray(tvb.planes.transpose(1, 2, 0))   # (cf, 3, rows)
        self.S = frame.S
        self.spos = R.sample_positions_px(self.S).astype(np.float32)

    # -- depth/stencil of a set of fragments with distinct pixels
    def _test(self, st: _DrawState, idx: np.ndarray, coverage=None, z=None) -> np.ndarray:
        if st.ds.trivial:
            return (self.frags.coverage[idx] if coverage is None else np.asarray(coverage, np.uint8)).copy()
        n = len(idx)
        if n and idx[-1] - idx[0] == n - 1 and (np.diff(idx) == 1).all():   # a run: views, no copies
            sel = slice(int(idx[0]), int(idx[0]) + n)
            f = self.frags
            sub = R.Fragments(f.tri[sel], f.x[sel], f.y[sel], f.coverage[sel], f.z[sel], f.samples)
        else:
            sel = idx
            sub = self.frags.take(idx)
        return R.depth_stencil(sub, st.ds, self.frame.depth, self.frame.stencil, front_facing=self.front[sel],
                               layers=_single_layer(n), coverage=coverage, z=z)

    def _groups(self, idx: np.ndarray):
        if len(idx) == 0:
            return
        if self.one_draw:
            yield int(self.draw[0]), idx
            return
        d = self.draw[idx]
        if (d == d[0]).all():
            yield int(d[0]), idx
            return
        order = np.argsort(d, kind="stable")
        ds = d[order]
        cuts = np.flatnonzero(np.diff(ds)) + 1
        for part in np.split(order, cuts):
            yield int(d[part[0]]), idx[part]

    def hidden_surface_removal(self, layers: R.RankLayers) -> int:
        """Resolve visibility of the whole pass first, then shade only the last
        passing fragment of every sample (one lane per visible sample)."""
        frags, S = self.frags, self.S
        rec = self.rec_f
        owner = np.full(self.tile_buffer.shape[0], -1, np.int64)      # per record: last passing fragment
        contiguous = frags.layer_offsets is not None            # layers are runs of fragments
        for k in range(layers.count):
            for d, idx in self._groups(layers.layer(k)):
                st = self.states[d]
                if S == 1 and st.ds.trivial:                # every fragment passes (coverage is nonzero)
                    st.passed += len(idx)
                    if self.one_draw and contiguous:        # layer k is fragments a..b
                        a, b = layers.offsets[k], layers.offsets[k + 1]
                        owner[rec[a:b]] = np.arange(a, b)
                    else:
                        owner[rec[idx]] = idx
                    continue
                passed = self._test(st, idx)
                if S == 1:
                    on = idx[passed != 0]
                    st.passed += len(on)
                    owner[rec[on]] = on
                    continue
                st.passed += R.samples_passed(passed)
                for s in range(S):
                    on = idx[((passed >> s) & 1) != 0]
                    owner[rec[on] * S + s] = on
        held = np.flatnonzero(owner >= 0)
        o = owner[held]
        if S == 1 and self.one_draw:        # records are distinct: shade in record order
            return self._shade(self.states[int(self.draw[0])], o, np.ones(len(o), np.uint8), late=False,
                               records=held)
        visible = np.zeros(len(frags), np.uint8)
        if S == 1:
            visible[o] = 1
        else:
            np.bitwise_or.at(visible, o, (1 << (held % S)).astype(np.uint8))
        shown = np.flatnonzero(visible)
        lanes = 0
        for d, idx in self._groups(shown):
            lanes += self._shade(self.states[d], idx, visible[idx], late=False)
        return lanes

    def in_order(self, layers: R.RankLayers) -> int:
        lanes = 0
        for k in range(layers.count):
            for d, idx in self._groups(layers.layer(k)):
                st = self.states[d]
                if st.late:
                    lanes += self._shade(st, idx, self.frags.coverage[idx], late=True)
                else:
                    passed = self._test(st, idx)
                    st.passed += R.samples_passed(passed)
                    on = passed != 0
                    lanes += self._shade(st, idx[on], passed[on], late=False)
        return lanes

    # -- fragment shading: one lane per covered sample
    def _shade(self, st: _DrawState, idx: np.ndarray, cover: np.ndarray, late: bool, records=None) -> int:
        """Shade fragments ``idx`` on the samples of ``cover``; ``records``: their tile
        records when known (single-sampled). Returns the lanes shaded."""
        n = self._shade_lanes(st, idx, cover, late, records)
        st.shaded += n
        return n

    def _shade_lanes(self, st: _DrawState, idx: np.ndarray, cover: np.ndarray, late: bool, known) -> int:
        S, frags = self.S, self.frags
        if len(idx) == 0:
            return 0
        if st.pipe is None:      # no fragment shader: depth/stencil only
            if late:
                passed = self._test(st, idx, coverage=cover)
                st.passed += R.samples_passed(passed)
            return 0
        # Early tests: lanes have distinct records (one layer), so the program reads and
        # writes tile memory in place. Late tests: it works on a copy of the records,
        # written back for the samples that pass.
        direct = not late
        if direct and not st.quads and st.uniform is not None and "ld_tile" not in st.names:  # same bytes everywhere
            if S == 1:
                _broadcast_record(self.tile_buffer, self.rec_f[idx] if known is None else known, *st.uniform)
                return len(idx)
            bits = ((cover[:, None] >> np.arange(S, dtype=np.uint8)) & 1).astype(bool)
            f_local, s = np.nonzero(bits)
            _broadcast_record(self.tile_buffer, self.rec_f[idx[f_local]] * S + s, *st.uniform)
            return len(f_local)
        if S == 1:
            f_local = np.arange(len(idx))
            s = np.zeros(len(idx), np.int32)
            f = idx
        else:
            bits = ((cover[:, None] >> np.arange(S, dtype=np.uint8)) & 1).astype(bool)
            f_local, s = np.nonzero(bits)
            s = s.astype(np.int32)
            f = idx[f_local]
        x, y, tri = frags.x[f], frags.y[f], frags.tri[f]
        helper = None
        lane_of = None                                  # lane of each (f_local, s) pair
        if st.quads:
            x, y, tri, s, f, helper, lane_of = _quads(x, y, tri, s, f, S, self.frame.W, self.frame.H)
        n = len(x)
        if helper is None:
            rec = self.rec_f[f]
        else:
            rec = self.record_of[np.clip(y, 0, self.frame.H - 1), np.clip(x, 0, self.frame.W - 1)]
            rec = np.where((x >= 0) & (x < self.frame.W) & (y >= 0) & (y < self.frame.H), rec, -1)
        records = rec * S + s if S > 1 else rec
        specials = {}
        for name in st.specials:
            if name == "pixel_x":
                specials[name] = x.view(np.uint32)
            elif name == "pixel_y":
                specials[name] = y.view(np.uint32)
            elif name == "sample_id":
                specials[name] = s.view(np.uint32) if S > 1 else 0
            elif name == "coverage_mask":
                specials[name] = (1 << s).astype(np.uint32) if S > 1 else 1
            elif name == "front_facing":
                specials[name] = self.front[f].astype(np.uint32)
            elif name == "primitive_id":
                specials[name] = self.tvb.setup.prim[tri].astype(np.uint32)
        kw = {}
        if st.uses_iter:
            xf = x.astype(np.float32)
            yf = y.astype(np.float32)
            kw["position_px"] = np.stack((xf + np.float32(0.5), yf + np.float32(0.5)))
            kw["centroid_position_px"] = kw["position_px"]
            if S > 1:
                kw["sample_position_px"] = np.stack((xf + self.spos[s, 0], yf + self.spos[s, 1]))
        if direct:
            tile, tile_index = self.tile_buffer, np.maximum(records, 0)
        else:
            tile, tile_index = self.tile_buffer[np.maximum(records, 0)], np.arange(n, dtype=np.int64)
        if st.uses_iter or "ldcf" in st.names:   # the PDM's coefficient registers, per lane
            kw["coefficients"] = np.take(self.planes_t, tri, axis=2)
        ctx = ExecContext(lanes=n, quads=st.quads, helper=helper, specials=specials,
                          tile_buffer=tile, tile_index=tile_index,
                          **kw, **st.pipe.context_fields())
        self.core.run(st.code_va, ctx)
        if direct:
            return len(f_local)
        alive = ~ctx.discarded
        if st.late:
            alive &= ((ctx.sample_mask >> s) & 1).astype(bool)
        if helper is not None:
            alive &= ~helper
        if late:
            pair = np.arange(len(f_local)) if lane_of is None else lane_of
            ok = alive[pair]
            s_pair = s[pair]
            cov2 = np.zeros(len(idx), np.uint8)
            np.bitwise_or.at(cov2, f_local[ok], (1 << s_pair[ok]).astype(np.uint8))
            z = frags.z[idx].copy()
            dw = ctx.depth_written[pair]
            z[f_local[dw], s_pair[dw]] = ctx.depth[pair][dw]
            passed = self._test(st, idx, coverage=cov2, z=z)
            st.passed += R.samples_passed(passed)
            alive_pairs = ((passed[f_local] >> s_pair) & 1).astype(bool)
            alive = np.zeros(n, bool)
            alive[pair[alive_pairs]] = True
        w = np.flatnonzero(alive & (records >= 0))
        self.tile_buffer[records[w]] = tile[w]
        return len(f_local)


def _quads(x, y, tri, s, f, S, W, H):
    """Complete 2x2 quads of one primitive (and sample) with helper lanes.
    Returns the lane arrays, the helper mask and the lane of every input pair."""
    qw = (W + 1) // 2 + 1
    qh = (H + 1) // 2 + 1
    key = ((tri.astype(np.int64) * S + s) * qh + (y >> 1)) * qw + (x >> 1)
    quad_keys, quad = np.unique(key, return_inverse=True)
    nq = len(quad_keys)
    real = 4 * quad + 2 * (y & 1) + (x & 1)
    n = 4 * nq
    first = np.zeros(nq, np.int64)
    first[quad] = np.arange(len(x))
    slot = np.arange(n) & 3
    X = (np.repeat(x[first] & ~1, 4) + (slot & 1)).astype(np.int32)
    Y = (np.repeat(y[first] & ~1, 4) + (slot >> 1)).astype(np.int32)
    TRI = np.repeat(tri[first], 4)
    SS = np.repeat(s[first], 4)
    FF = np.repeat(f[first], 4)
    helper = np.ones(n, bool)
    helper[real] = False
    return X, Y, TRI, SS, FF, helper, real
