"""The render pipeline of one ``drm_asahi_cmd_render``: vertex half and fragment half.

Vertex half (``run_vertex_half``): the VDM walks ``vdm_ctrl_stream_base``; every
draw is vertex-shaded in bulk (``vdm``) and goes through the PPP (``ppp``); the
tiler bins the setup rows, in draw order, into tiles of ``utile_width_px`` into a
tiled vertex buffer (TVB) of ``tvb_entries`` (tile, primitive) entries. When it
fills, the rows binned so far form a pass of their own: a *partial render*
(counted in the feedback). The TVB is kept per command for the fragment half.

The TVB also holds at most ``VERTEX_KEPT_B`` bytes of setup rows and coefficient
planes (a real tiler heap is finite too): once the draws processed so far keep
more, the vertex work stops after that draw (a *segment*), and its rows are
binned into passes of their own. The fragment half renders them, then resumes
the vertex work at the next draw for the next segment, and so on (as the
hardware does a partial render when its heap is full and then lets the vertex
pass continue): host memory follows the segment, not the render command. Every
draw is vertex-shaded once; a segment boundary is a partial render, so the
image is the one drawn in one segment.

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
   discard, nor write depth/sample mask, nor store to memory, and all write the
   same whole tile-record fields): resolve visibility first, shade only the
   last visible fragment of each sample. Else
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

Bounded host memory: a pass over more than ``GROUP_PIXELS`` pixels runs steps
1-5 band by band (whole tile rows; tiles are independent), and a band's
primitives are shaded in draw-order steps of at most ``STEP_FRAGMENTS``
fragments (tile and ISP memory carry over): the same image, with memory that
follows the piece, not the framebuffer or the pass's primitives.

Occlusion: ``PPP_OCCLUSION`` (mode, index) adds each draw's passed samples to
the uint64 at ``isp_oclqry_base + 8 * index`` (BOOLEAN: writes 1 if any).
Statistics: draws after a ``VDM_STATE_STATISTICS`` add vertices and primitives
submitted, vertex shader invocations, clipper input/output primitives (vertex
half) and fragment shader invocations (fragment half) to its 6 uint64.
``SHIMGL_DEBUG=sysmem``: one pass over the whole framebuffer in pixel order
(direct rendering, no tiles, no TVB limit); ``nohsr``: never HSR.

Not modelled: layered rendering (layer 0 only), edge flags of clipped
polygons in LINE mode, alpha-to-coverage, shader stencil export.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field, replace

import numpy as np

import uapi
from uapi import packets as P

from ...firmware.watchdog import check_budget
from ...memory import GPUFault
from .. import raster as R
from ..usc import ExecContext
from .fragment import (Background, broadcast_record, centre_runs, draw_state, overwrites_every_record, region_coverage,
                       shade_pass, uniform_cover, uniform_record)
from .fragment import _cached as cached_fact     # facts about a decoded program, one cache for the pass
from .fragment import _analysis as program_analysis, _writes_whole_record as writes_whole_record
from . import fragment as fragment_unit, pbe as pbe_unit, repeat
from .pbe import fill_possible, store_render_target, target as pbe_target
from .ppp import GROUP_LANES, DrawGeometry, draw_cf_bindings, group_key, process_draws
from .scratch import run_program
from .usc_words import read_pipeline, read_words
from .zls import IspMemory, depth_format as zls_depth_format
from .vdm import Draw, shade_vertices, walk_draws

__all__ = ["TiledVertexBuffer", "run_vertex_half", "run_fragment_half"]

PROCESS_EMPTY_TILES = uapi.DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES

_NO_ROWS = np.zeros(0, np.int64)          # (read only: a TVB without rows shares them)
_NO_PLANES = np.zeros((0, 1, 3), np.float32)
_NO_ROWS.flags.writeable = _NO_PLANES.flags.writeable = False


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
    row_draw: np.ndarray = field(default_factory=lambda: _NO_ROWS)
    planes: np.ndarray = field(default_factory=lambda: _NO_PLANES)
    passes: list[Pass] = field(default_factory=list)
    # the vertex work not done yet (draws of later segments) and what it needs
    pending: list = field(default_factory=list)
    # draws of the next segment already vertex-shaded (a group cut by the segment's end)
    shaded: list = field(default_factory=list)
    core: object = None
    depth_format: object = None
    # what the rows were made from, for a fragment half taken again (``run_fragment_half``):
    # an object standing for every input of the rows (None: unknown, a vertex half that ran)
    origin: object = None

    @property
    def final(self) -> bool:
        """The passes are the command's last (no vertex work left)."""
        return not self.pending and not self.shaded

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


def _cf_count(memory, draw: Draw) -> int:
    fs = draw.ppp.get("fragment_shader")
    if fs is None or not fs.cf_binding_count:
        return 1
    header, bindings = draw_cf_bindings(memory, draw)
    n = header.cf_count
    for b in bindings:
        n = max(n, b.base_cf + b.components)
    return max(n, 1)


def _concat_setups(setups: list[R.TriangleSetup]) -> R.TriangleSetup:
    """The rows of ``setups`` one after another, without their corner weights and
    point-sprite corners (the fragment half does not read them). One setup is
    taken as it is, with no copy (its draw drops it)."""
    if len(setups) == 1:
        return replace(setups[0], corner_weights=None, corner_uv=None)
    names = [f for f in R.TriangleSetup.__dataclass_fields__ if f not in ("corner_weights", "corner_uv")]
    return R.TriangleSetup(**{f: np.concatenate([getattr(s, f) for s in setups]) for f in names})


def run_vertex_half(executor, command) -> TiledVertexBuffer:
    """The vertex work of the command's first segment (all of it unless it keeps
    more than VERTEX_KEPT_B bytes of rows): the TVB the fragment half starts with."""
    cmd = command.cmd
    W, H, S, T = _geometry_of(cmd)
    sysmem, hsr = executor.options()
    tvb = TiledVertexBuffer(W, H, S, T, sysmem, hsr)
    fb = command.feedback
    fb.tvb_size_B = executor.tvb_entries * TVB_ENTRY_B
    fb.tvb_usage_B = fb.tvb_overflows = fb.partial_renders = 0
    if not cmd.vdm_ctrl_stream_base:
        tvb.passes, tvb.origin = [_EMPTY_PASS], _EMPTY_ORIGIN
        return tvb
    tvb.depth_format = zls_depth_format(cmd)[1]
    # what the half depends on besides the bytes it reads (repeat.py)
    key = (cmd.vdm_ctrl_stream_base, W, H, S, T, sysmem, hsr, executor.tvb_entries, cmd.sampler_heap,
           tvb.depth_format)
    memory = command.memory
    remembering = repeat.active()
    known = repeat.recall(memory, key) if remembering else None
    if known is not None:
        return _again(executor, command, tvb, known)
    recorder = repeat.Recorder(memory) if remembering and repeat.record_now() else None
    faults = len(command.faults), len(getattr(memory, "faults", ()))
    tvb.core = core = executor.core(command)
    if recorder is not None:
        command.memory = core.mem = recorder        # the units and the shader core read through it
    try:
        tvb.pending = walk_draws(command.memory, cmd.vdm_ctrl_stream_base)[::-1]     # next draw last
        if recorder is not None and (len(tvb.pending) > repeat.DRAWS or not recorder.ok):
            command.memory = core.mem = memory       # (not remembered: no recording)
            recorder = None
        amounts = next_segment(executor, command, tvb)
    finally:
        command.memory = core.mem = memory
    if recorder is not None and recorder.ok and tvb.final and isinstance(amounts, dict) \
            and faults == (len(command.faults), len(getattr(memory, "faults", ()))):
        repeat.remember(key, memory, recorder, _kept(tvb, fb, amounts))
    return tvb


def _kept(tvb: TiledVertexBuffer, fb, amounts: dict) -> tuple:
    """What a later command with the same vertex inputs takes again (``_again``): the
    TVB's rows, planes and passes, made read-only, the feedback and the counters."""
    arrays = [tvb.row_draw, tvb.planes] + [a for p in tvb.passes for a in (p.rows, p.tiles)]
    if tvb.setup is not None:
        arrays += [a for a in vars(tvb.setup).values() if isinstance(a, np.ndarray)]
    for a in arrays:
        a.flags.writeable = False
    return (tuple(tvb.draws), tvb.setup, tvb.row_draw, tvb.planes, tuple(tvb.passes),
            (fb.tvb_usage_B, fb.tvb_overflows, fb.partial_renders), amounts)


def _again(executor, command, tvb: TiledVertexBuffer, known: tuple) -> TiledVertexBuffer:
    """``tvb`` as the remembered half left its own (``_kept``), for ``command``."""
    draws, tvb.setup, tvb.row_draw, tvb.planes, passes, feedback, amounts = known
    tvb.origin = known              # (the same object while the remembered half is kept)
    tvb.draws = list(draws)
    tvb.passes = [Pass(p.rows, p.tiles, p.entries) for p in passes]
    tvb.core = executor.core(command)
    fb = command.feedback
    fb.tvb_usage_B, fb.tvb_overflows, fb.partial_renders = feedback
    command.counters.add(**amounts)
    return tvb


def next_segment(executor, command, tvb: TiledVertexBuffer) -> dict:
    """Vertex-shade and set up the pending draws, in order, until the rows kept
    exceed VERTEX_KEPT_B bytes (at least one draw) or none is left; bin the rows
    into ``tvb.passes``, replacing the previous segment's rows and draws. Returns
    the counters it added."""
    cmd, memory, core = command.cmd, command.memory, tvb.core
    W, H = tvb.width_px, tvb.height_px
    vertices = primitives = kept_B = 0
    geoms = []
    tvb.setup, tvb.passes = None, []            # the previous segment's rows are rendered: free them
    tvb.row_draw, tvb.planes = _NO_ROWS, _NO_PLANES
    shaded = tvb.shaded                 # draws shaded ahead, in order

    def shade_next():
        """The next draw, shaded: (draw, batch, n_cf, later instances or None)."""
        nonlocal vertices
        if shaded:
            return shaded.pop(0)
        d = tvb.pending.pop()
        check_budget("VDM", d.va)
        part = max(VERTEX_PART_LANES // max(d.count, 1), 1)       # instances shaded at once
        rest = None
        if d.instances > part:
            d, rest = replace(d, instances=part), (d, part)
        batch = shade_vertices(core, memory, d, cmd.sampler_heap)
        vertices += batch.lanes
        return d, batch, _cf_count(memory, d), rest

    while (shaded or tvb.pending) and kept_B <= VERTEX_KEPT_B:
        group = [shade_next()]
        key = group_key(memory, group[0][0], group[0][1]) if group[0][3] is None and (shaded or tvb.pending) \
            else None
        # small draws of one state go on together (process_draws): the next pending
        # draw joins when it may (its stream is small), shaded here, ahead of its turn
        while key is not None and len(group) < GROUP_DRAWS and (shaded or tvb.pending) \
                and (shaded or _may_join(tvb.pending[-1], group[0][0])):
            nxt = shade_next()
            if nxt[3] is not None or nxt[2] != group[0][2] or group_key(memory, nxt[0], nxt[1]) != key:
                shaded.insert(0, nxt)
                break
            group.append(nxt)
        geoms_of = process_draws(memory, [(d, batch) for d, batch, _, _ in group], W, H, tvb.depth_format,
                                 group[0][2])
        for j, ((d, batch, _, rest), g) in enumerate(zip(group, geoms_of)):
            if rest is not None:        # the later instances: a part of their own, next
                whole, part = rest
                per_instance = g.primitives // part
                tvb.pending.append(replace(whole, instances=whole.instances - part,
                                           first_instance=whole.first_instance + part,
                                           first_primitive=whole.first_primitive + part * per_instance))
            primitives += g.primitives
            if g.setup is not None:
                kept_B += _setup_bytes(g.setup) + g.planes.nbytes
            geoms.append(g)
            if d.statistics_va:
                rows = 0 if g.setup is None else len(np.unique(g.setup.prim))
                add_statistics(memory, d.statistics_va, [d.count * d.instances, g.primitives, batch.lanes,
                                                         g.primitives, rows, 0])
            if kept_B > VERTEX_KEPT_B and j + 1 < len(group):
                # the segment ends here: the group's later draws, already shaded, start the next
                shaded[:0] = [(d2, b2, n2, None) for d2, b2, n2, _ in group[j + 1:]]
                break
        del group, geoms_of
    tvb.draws = geoms
    live = [g for g in geoms if g.setup is not None and len(g.setup)]
    if live:
        tvb.setup = _concat_setups([g.setup for g in live])
        tvb.row_draw = np.concatenate([np.full(len(g.setup), g.draw.index, np.int64) for g in live])
        n_cf = max(g.planes.shape[1] for g in live)
        tvb.planes = live[0].planes if len(live) == 1 else np.concatenate(
            [g.planes if g.planes.shape[1] == n_cf else np.pad(g.planes, ((0, 0), (0, n_cf - g.planes.shape[1]), (0, 0)))
             for g in live])
        # the rows live in tvb.setup and tvb.planes now: the draws keep only their state
        tvb.draws = [replace(g, setup=None, planes=g.planes[:0]) for g in geoms]
    del geoms, live
    tvb.passes = _bin(tvb, executor.tvb_entries)
    fb = command.feedback
    fb.tvb_usage_B = max(fb.tvb_usage_B, max(p.entries for p in tvb.passes) * TVB_ENTRY_B)
    # every pass but the command's last ends in a partial render
    fb.tvb_overflows += len(tvb.passes) - (1 if tvb.final else 0)
    fb.partial_renders = fb.tvb_overflows
    amounts = dict(vertices=vertices, primitives=primitives)
    command.counters.add(**amounts)
    return amounts


def _may_join(d: Draw, first: Draw) -> bool:
    """Whether pending draw ``d`` may be shaded ahead to join ``first``'s group: a
    small stream (lanes known before shading: count x instances bounds them) of
    the same topology and PPP state words (``group_key`` decides after shading)."""
    return d.count * max(d.instances, 1) <= GROUP_LANES and d.record.primitive == first.record.primitive \
        and d.ppp.keys() == first.ppp.keys()


#: The most draws set up together (``process_draws``).
GROUP_DRAWS = 64


def _setup_bytes(setup: R.TriangleSetup) -> int:
    return sum(a.nbytes for a in vars(setup).values() if isinstance(a, np.ndarray))


#: Bytes of one (tile, primitive) entry of the tiled vertex buffer (for the feedback).
TVB_ENTRY_B = 8
#: The most bytes of setup rows and coefficient planes (about 100 to 150 per vertex)
#: the vertex half keeps before the fragment half renders them (plus one draw's:
#: the segment ends after the draw that crosses it).
VERTEX_KEPT_B = 64 << 20
#: A draw of more instances than fit this many vertex lanes (count x instances) is
#: vertex-shaded and set up in parts of whole instances, each at most this many lanes
#: (or one instance): a part's instance ids and primitive ids go on from the previous
#: part's, so the parts give the draw's primitives.
VERTEX_PART_LANES = 1 << 16
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
    # rows that cannot change (one draw's remembered geometry, ppp.process_draw) bin as
    # they did last time: the passes of the last such binning are taken again
    edges = (tvb.setup.bbox_px, tvb.setup.edge_a, tvb.setup.edge_b, tvb.setup.edge_c)
    fixed = not any(a.flags.writeable for a in edges)
    key = (*map(id, edges), tvb.width_px, tvb.height_px, tvb.tile_px, capacity) if fixed else None
    last = _LAST_BINNING[0]
    if key is not None and last is not None and last[0] == key:
        return [replace(p) for p in last[2]]
    passes = _bin_rows(tvb, n, capacity)
    if key is not None:
        for p in passes:
            p.rows.flags.writeable = p.tiles.flags.writeable = False
        _LAST_BINNING[0] = (key, edges, passes)
    return passes


_LAST_BINNING: list = [None]        # (key, the arrays it names, passes) of the last fixed rows binned


def _bin_rows(tvb: TiledVertexBuffer, n: int, capacity: int) -> list[Pass]:
    passes, first = [], 0
    while first < n:
        tl = R.bin_triangles(tvb.setup, tvb.width_px, tvb.height_px, tile_size_px=tvb.tile_px,
                             capacity_entries=capacity, first_row=first)
        passes.append(Pass(np.arange(first, tl.rows_end, dtype=np.int64), tl.nonempty_tiles(), tl.entries))
        first = tl.rows_end
    return passes


# ----------------------------------------------------------------------------- fragment half

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


def _pixel_map(tvb: TiledVertexBuffer, tiles: np.ndarray | None, region: tuple[int, int, int, int] | None = None):
    """(px, py, record_of, key) of a pass (or of one group of its tiles, inside
    ``region`` = (x0, y0, x1, y1), None: the framebuffer): its pixels in record
    order, the record of every pixel of the region (``record_of[y - y0, x - x0]``,
    -1: not in the pass) and a key naming this mapping. Remembered for the last few
    (frame size, tile set) of whole-frame passes: frames repeat them; a group's
    mapping is not kept (its key is None), so a huge framebuffer costs one group's
    memory."""
    whole = region is None
    x0, y0, x1, y1 = (0, 0, tvb.width_px, tvb.height_px) if whole else region
    key = (tvb.width_px, tvb.height_px, tvb.tile_px, None if tiles is None else tiles.tobytes()) if whole else None
    hit = _PIXEL_MAPS.get(key) if whole else None
    if hit is None:
        px, py = _tile_pixels(tvb, tiles)
        record_of = np.full((y1 - y0, x1 - x0), -1, np.int64)
        record_of[py - y0, px - x0] = np.arange(len(px), dtype=np.int64)
        for a in (px, py, record_of):
            a.flags.writeable = False
        hit = (px, py, record_of, key)
        if whole:
            if len(_PIXEL_MAPS) > 8:
                _PIXEL_MAPS.clear()
            _PIXEL_MAPS[key] = hit
    return hit


#: The most pixels the fragment half works on at once. A pass over more pixels
#: (a huge render target) is done in groups of whole tile rows of at most this many
#: pixels (at least one row of tiles), each with its own tile memory, pixel map and
#: PBE stores, as tiles are independent: host memory follows the group, not the
#: framebuffer.
GROUP_PIXELS = 1 << 22
#: The most fragments (counted from the primitives' bounding boxes, times the
#: samples) one shading step of a group rasterises: a group's primitives are shaded
#: in steps in draw order (at least one primitive each). Tile memory and ISP memory
#: carry over from step to step, so the image is the one a single step gives: host
#: memory follows the step, not the primitives of the pass.
STEP_FRAGMENTS = 1 << 22


def _tile_groups(tvb: TiledVertexBuffer, tiles: np.ndarray):
    """(group tiles, region, every tile of the region in the group) for the sorted
    ``tiles`` of a pass: bands of whole tile rows of at most GROUP_PIXELS pixels
    (one band, the framebuffer, for frames no larger)."""
    W, H, T = tvb.width_px, tvb.height_px, tvb.tile_px
    all_tiles = len(tiles) == tvb.tiles_x * tvb.tiles_y
    if W * H <= GROUP_PIXELS:
        yield tiles, None, all_tiles
        return
    band_rows = max(GROUP_PIXELS // (tvb.tiles_x * T * T), 1)
    band = tiles // (tvb.tiles_x * band_rows)
    cuts = np.flatnonzero(np.diff(band)) + 1
    for part in np.split(tiles, cuts):
        b = int(part[0]) // (tvb.tiles_x * band_rows)
        y0, y1 = b * band_rows * T, min((b + 1) * band_rows, tvb.tiles_y) * T
        region = (0, y0, W, min(y1, H))
        yield part, region, len(part) == (min((b + 1) * band_rows, tvb.tiles_y) - b * band_rows) * tvb.tiles_x


def _steps(tvb: TiledVertexBuffer, rows: np.ndarray, region: tuple[int, int, int, int] | None, samples: int):
    """The pass's ``rows`` that may cover ``region`` (None: the framebuffer), in
    consecutive draw-order chunks of at most STEP_FRAGMENTS estimated fragments."""
    if len(rows) == 0:
        return
    if region is None and len(rows) * tvb.width_px * tvb.height_px * samples <= STEP_FRAGMENTS:
        yield rows          # (a few rows: even covering the framebuffer each, they are one step)
        return
    x0, y0, x1, y1 = (0, 0, tvb.width_px, tvb.height_px) if region is None else region
    bb = tvb.setup.bbox_px[rows]
    w = np.clip(np.minimum(bb[:, 2], x1) - np.maximum(bb[:, 0], x0), 0, None)
    h = np.clip(np.minimum(bb[:, 3], y1) - np.maximum(bb[:, 1], y0), 0, None)
    area = w * h
    if region is not None:
        rows, area = rows[area > 0], area[area > 0]
    total = np.cumsum(area * samples)
    if len(rows) == 0 or total[-1] <= STEP_FRAGMENTS:
        if len(rows):
            yield rows
        return
    start = 0
    while start < len(rows):
        before = total[start - 1] if start else 0
        end = max(int(np.searchsorted(total, before + STEP_FRAGMENTS, side="right")), start + 1)
        yield rows[start:end]
        start = end


_LANE_INPUTS: dict = {}


def _lane_inputs(px, py, S: int, key):
    """The per-lane inputs of a tile program over pixels (px, py), S samples each:
    (specials, position_px, tile_index), read-only; remembered for the last few
    named pixel sets (``key`` from ``_pixel_map``)."""
    hit = _LANE_INPUTS.get((key, S)) if key is not None else None
    if hit is None:
        x, y = (np.repeat(px, S), np.repeat(py, S)) if S > 1 else (px, py)
        specials = {"pixel_x": x.astype(np.uint32), "pixel_y": y.astype(np.uint32),
                    "sample_id": np.tile(np.arange(S, dtype=np.uint32), len(px))}
        position_px = np.stack((x + 0.5, y + 0.5)).astype(np.float32)
        tile_index = np.arange(len(x), dtype=np.int64)
        hit = (specials, position_px, tile_index)
        for a in (*specials.values(), position_px, tile_index):
            a.flags.writeable = False
        if key is not None:
            if len(_LANE_INPUTS) >= 2:            # ~28 B per lane each
                _LANE_INPUTS.clear()
            _LANE_INPUTS[(key, S)] = hit
    return hit


def _run_tile_program(core, command, va: int, px, py, S, tile_buffer, unit_label: str | None = None,
                      key=None, caches=None) -> None:
    if not va:
        return
    pipe = read_pipeline(command.memory, va, "PDM", command.cmd.sampler_heap)
    caches = {} if caches is None else caches
    n = len(px) * S
    if n == 0:
        return
    try:
        uniform = uniform_record(core, pipe, tile_buffer.shape[1], caches) if pipe.code_va else None
        if uniform is not None:
            broadcast_record(tile_buffer, None, *uniform)
        elif pipe.code_va:
            specials, position_px, tile_index = _lane_inputs(px, py, S, key)
            ctx = ExecContext(lanes=n, specials=dict(specials), position_px=position_px,
                              tile_buffer=tile_buffer, tile_index=tile_index, **pipe.context_fields())
            run_program(core, pipe, ctx)
        for offset_B, desc in pipe.pbe:
            store_render_target(command.memory, desc, offset_B, tile_buffer, px, py, S, pixels_key=key)
    except GPUFault as fault:
        if unit_label is None:
            raise
        info = fault.info
        raise GPUFault(type(info)(info.address, unit_label, info.is_read)) from None


#: Units whose only effects are on registers and the tile buffer.
_TILE_ONLY_UNITS = frozenset({"falu", "ialu", "cmpsel", "convert", "mov", "mov_imm", "get_sr", "quad", "iter",
                              "ldcf", "texture_sample", "texture_load", "texture_query", "texture_size",
                              "image_load", "device_load", "ld_tile", "st_tile", "wait", "stop", "cf", "jmp",
                              "barrier"})


def _tile_only(core, command, va: int, caches: dict | None = None) -> bool:
    """True when the program at ``va`` (0: none) writes nothing but registers and
    tile memory (no device stores, atomics, depth or sample-mask outputs, no
    render-target stores of its own). The look at the instructions is remembered
    in ``caches`` per decoded program."""
    if not va:
        return True
    pipe = read_pipeline(command.memory, va, "PDM", command.cmd.sampler_heap)
    if pipe.pbe:
        return False
    if not pipe.code_va:
        return True
    prog = core.load(pipe.code_va)
    return cached_fact({} if caches is None else caches, prog, ("tile only",),
                       lambda: all(ins.op.unit in _TILE_ONLY_UNITS for _, ins in prog.instructions))


def run_fragment_half(executor, command, tvb: TiledVertexBuffer | None) -> None:
    """The command's fragment half over ``tvb`` (None: an empty one, a blit's). A
    half like a recent one's (``repeat.recall_half``: the same command fields, the
    same TVB object or an empty one, every byte it read the same) writes that
    half's fills again and adds its counters, without deriving anything again."""
    if tvb is None:
        W, H, S, T = _geometry_of(command.cmd)
        sysmem, hsr = executor.options()
        tvb = TiledVertexBuffer(W, H, S, T, sysmem, hsr, passes=[_EMPTY_PASS], origin=_EMPTY_ORIGIN)
    key = _half_key(executor, command, tvb)
    if key is None:
        command.counters.add(**_fragment_half(executor, command, tvb))
        return
    anchors = (tvb.origin, executor.caches)
    memory = command.memory
    amounts = repeat.recall_half(memory, key, anchors)
    if amounts is not None:
        command.counters.add(**amounts)
        return
    if not repeat.record_half_now(key):
        command.counters.add(**_fragment_half(executor, command, tvb))
        return
    recorder = repeat.FillRecorder(memory)
    faults = len(command.faults), len(getattr(memory, "faults", ()))
    command.memory = recorder           # the units and the shader core (executor.core) read through it
    try:
        amounts = _fragment_half(executor, command, tvb)
    except BaseException:
        recorder = None
        raise
    finally:
        command.memory = memory
        executor.core(command)          # (its memory again)
        if recorder is None or faults != (len(command.faults), len(getattr(memory, "faults", ()))):
            recorder = None
        repeat.remember_half(key, anchors, memory, recorder, amounts if recorder is not None else None)
    command.counters.add(**amounts)


#: The ``origin`` of a TVB with nothing in it (no VDM stream, or a blit's).
_EMPTY_ORIGIN = ("empty",)
#: The one pass of an empty TVB (read only).
_EMPTY_PASS = Pass(np.zeros(0, np.int64), np.zeros(0, np.int64))
for _a in (_EMPTY_PASS.rows, _EMPTY_PASS.tiles):
    _a.flags.writeable = False


def _half_key(executor, command, tvb: TiledVertexBuffer):
    """What the fragment half over ``tvb`` depends on besides the bytes it reads
    (``repeat.recall_half``), or None when it is not to be remembered: a TVB of no
    known origin (a vertex half that ran), one with vertex work left, the debug
    words that step aside, a command whose fields cannot be read as bytes."""
    if tvb.origin is None or not repeat.HALVES or not repeat.active() or not tvb.final:
        return None
    cmd = command.cmd
    try:
        raw = uapi.ffi.buffer(cmd)[:]
    except TypeError:
        try:
            raw = uapi.ffi.buffer(uapi.ffi.addressof(cmd))[:]
        except TypeError:
            return None
    return (command.kind, command.usc_exec_base, raw, id(tvb.origin), tvb.sysmem, tvb.hsr, id(executor.caches),
            UNIFORM_PASSES, pbe_unit.FAST_CLEARS, fragment_unit.STRAIGHT_RECORDS)


def _fragment_half(executor, command, tvb: TiledVertexBuffer) -> dict:
    """The fragment half's work; returns the counters it adds (tiles, fragments)."""
    cmd = command.cmd
    core = executor.core(command)
    frame = IspMemory(command, tvb.width_px, tvb.height_px, tvb.samples)
    states: dict = {}
    everything = bool(cmd.flags & PROCESS_EMPTY_TILES) or command.kind == "blit"
    tiles_done = fragments = 0
    first = True
    while True:                 # segment by segment (one unless the vertex work was too big)
        for g in tvb.draws:         # (the parts of a draw share the state of its first)
            if g.draw.index not in states:
                states[g.draw.index] = draw_state(executor, command, g)
        for i, ps in enumerate(tvb.passes):
            check_budget("ISP", cmd.vdm_ctrl_stream_base)
            last = tvb.final and i == len(tvb.passes) - 1
            bg = _program(command, cmd.bg if first else cmd.partial_bg)
            eot = _program(command, cmd.eot if last else cmd.partial_eot)
            first = False
            if tvb.sysmem:
                groups = [(None, None, True)]
            else:
                tiles = _all_tiles(tvb.tiles_x * tvb.tiles_y) if everything else ps.tiles
                if len(tiles) == 0:
                    continue
                tiles_done += len(tiles)
                groups = _tile_groups(tvb, tiles)
            for tiles, region, all_tiles in groups:
                fragments += _fragment_group(executor, core, command, tvb, ps.rows, tiles, region, all_tiles,
                                             frame, states, bg, eot)
        if tvb.final:
            break
        next_segment(executor, command, tvb)      # the vertex work resumes after the partial render
    frame.store()
    _write_occlusion(command, states)
    for st in states.values():
        if st.geom.draw.statistics_va and st.shaded:
            add_statistics(command.memory, st.geom.draw.statistics_va, [0, 0, 0, 0, 0, st.shaded])
    return dict(tiles=tiles_done if not tvb.sysmem else tvb.tiles_x * tvb.tiles_y, fragments=fragments)


_ALL_TILES: dict = {}


def _all_tiles(n: int) -> np.ndarray:
    """``np.arange(n)`` (int64, read-only), remembered for the last few sizes: every
    tile of a clear's pass."""
    tiles = _ALL_TILES.get(n)
    if tiles is None:
        if len(_ALL_TILES) >= 8:
            _ALL_TILES.clear()
        tiles = _ALL_TILES[n] = np.arange(n, dtype=np.int64)
        tiles.flags.writeable = False
    return tiles


def _fragment_group(executor, core, command, tvb, rows, tiles, region, all_tiles: bool, frame, states,
                    bg: int, eot: int) -> int:
    """Background, shading (in steps) and end of tile of one group of a pass's
    tiles (``tiles`` None: the whole framebuffer in pixel order, for sysmem).
    Returns the fragments shaded."""
    check_budget("ISP", command.cmd.vdm_ctrl_stream_base)
    S = tvb.samples
    px, py, record_of, key = _pixel_map(tvb, tiles, region)
    if next(_steps(tvb, rows, region, S), None) is None and \
            _uniform_pass(core, command, bg, eot, px, py, S, frame.record_B, key, executor.caches):
        return 0
    filled = _uniform_draw_pass(core, command, tvb, rows, region, all_tiles, frame, states, bg, eot, px, py, key,
                                executor.caches)
    if filled is not None:
        return filled
    tile_buffer = _tile_memory(len(px) * S, frame.record_B, zeroed=False)

    def run_background() -> None:
        # tile memory starts zeroed, unless the background program writes every byte of every record
        if not _writes_every_record(core, command, bg, frame.record_B, executor.caches):
            tile_buffer.fill(0)
        _run_tile_program(core, command, bg, px, py, S, tile_buffer, key=key, caches=executor.caches)
    # (a background found hidden never runs: shading writes every byte of every record)
    background = Background(run_background, lambda: _tile_only(core, command, bg, executor.caches))
    fragments = 0
    for step in _steps(tvb, rows, region, S):
        for run, centre in centre_runs(tvb, step, states, S):
            fragments += shade_pass(core, command, tvb, run, frame, states, record_of, tile_buffer,
                                    all_tiles, background, region=region, centre=centre)
    background.run()     # (nothing when it ran or was found hidden)
    _run_tile_program(core, command, eot, px, py, S, tile_buffer, unit_label="PBE", key=key,
                      caches=executor.caches)
    return fragments


_THREAD = threading.local()
#: The most bytes of tile memory a firmware thread keeps for its next group.
TILE_MEMORY_KEPT_B = 64 << 20


def _tile_memory(records: int, record_B: int, zeroed: bool = True) -> np.ndarray:
    """Zeroed tile memory for a group (``zeroed`` False: left as it was, for a
    caller that zeroes it when something could read a byte it did not write): this
    thread's buffer from the previous group when it is big enough (the group's memory
    is dead once its end of tile ran; clearing reused pages costs less than fresh
    ones here), else a new one."""
    n_B = records * record_B
    held = getattr(_THREAD, "tile", None)
    if held is None or held.nbytes < n_B:
        if n_B > TILE_MEMORY_KEPT_B:
            return np.zeros((records, record_B), np.uint8)
        held = _THREAD.tile = np.empty(n_B, np.uint8)
    buf = held[:n_B].reshape(records, record_B)
    if zeroed:
        buf.fill(0)
    return buf


def _writes_every_record(core, command, va: int, record_B: int, caches) -> bool:
    """True when the tile program at ``va`` (a background) writes every byte of
    every record on every lane before anything reads tile memory: a uniform
    record written whole, or a program without tile loads or control flow whose
    stores cover the record (``fragment._analysis``). What tile memory held before
    it ran is then never seen."""
    if not va:
        return False
    pipe = read_pipeline(command.memory, va, "PDM", command.cmd.sampler_heap)
    if not pipe.code_va:
        return False
    uniform = uniform_record(core, pipe, record_B, caches)
    if uniform is not None:
        return bool(uniform[0].all())
    names, _, _, writes = program_analysis(core.load(pipe.code_va), caches)
    return "ld_tile" not in names and writes_whole_record(writes, record_B)


#: Store a clear's tile memory as fills without materialising it (``_uniform_pass``);
#: tests switch it off to compare with the general path.
UNIFORM_PASSES = True


def _uniform_pass(core, command, bg: int, eot: int, px, py, S: int, record_B: int, key, caches) -> bool:
    """A group with nothing to shade whose background program writes the same whole
    record on every lane (a clear) and whose end-of-tile pipeline only stores
    render targets: the tile memory is that one record everywhere, so it is never
    materialised; the PBE stores each render target as a fill (``uniform``). False
    (nothing done) when the group is not of this kind or a store cannot be a fill:
    the caller then runs the general path, which gives the same bytes."""
    if not (UNIFORM_PASSES and bg and eot and len(px)):
        return False
    memory = command.memory
    bg_pipe = read_pipeline(memory, bg, "PDM", command.cmd.sampler_heap)
    eot_pipe = read_pipeline(memory, eot, "PDM", command.cmd.sampler_heap)
    if eot_pipe.code_va or not eot_pipe.pbe or not bg_pipe.code_va or bg_pipe.pbe:
        return False
    try:
        # a clear like an earlier one (the same decoded pipelines, program and
        # targets: objects that change when their bytes do) stores the same value
        prog = core.load(bg_pipe.code_va)
        targets = [pbe_target(memory, desc) for _, desc in eot_pipe.pbe]
        plan_key = (id(bg_pipe), id(eot_pipe), id(prog), record_B, S, key, id(caches))
        known = _CLEARS.get(plan_key) if key is not None else None
        if known is not None and all(a is b for a, b in zip(known[0], (bg_pipe, eot_pipe, prog, caches))) \
                and all(a is b for a, b in zip(known[1], targets)):
            value = known[2]
        else:
            record = uniform_record(core, bg_pipe, record_B, caches)
            if record is None or not record[0].all():
                return False
            value = record[1]
            if not all(fill_possible(memory, desc, offset_B, value, px, py, S, key)
                       for offset_B, desc in eot_pipe.pbe):
                return False
            if key is not None:
                if len(_CLEARS) >= 16:
                    _CLEARS.clear()
                _CLEARS[plan_key] = ((bg_pipe, eot_pipe, prog, caches), targets, value)
        for (offset_B, desc), target in zip(eot_pipe.pbe, targets):
            store_render_target(memory, desc, offset_B, None, px, py, S, pixels_key=key, uniform=value,
                                target=target)
    except GPUFault as fault:
        info = fault.info
        raise GPUFault(type(info)(info.address, "PBE", info.is_read)) from None
    return True


#: ``_uniform_pass``' clears: by (the background and end-of-tile pipelines, the
#: background's program, record size, samples, pixel set), the objects they were
#: made of (compared by identity: a pipeline or program is a new object when its
#: bytes change), the decoded PBE targets and the record value stored.
_CLEARS: dict = {}


def _uniform_draw_pass(core, command, tvb, rows, region, all_tiles: bool, frame, states, bg: int, eot: int,
                       px, py, key, caches) -> int | None:
    """A group whose one shading step is one draw writing the same whole record on
    every pixel (``fragment.uniform_cover``: a full-screen fill, no depth/stencil
    work, single-sampled), over a background program that is hidden and tile-only,
    and whose end of tile only stores render targets that can take a fill: the
    tile memory is that record everywhere, so it is never materialised and each
    target is stored as a uniform store (``store_render_target(uniform=)``). The
    counters are those ``shade_pass`` gives. Returns the lanes shaded, or None
    (nothing done) when the group is not of this kind.

    A group like an earlier one (``_DRAW_FILLS``: the same draw-state facts, the
    same background and end-of-tile pipelines and background program, the same
    decoded PBE targets, a whole coverage of the region) takes that group's
    decision; its coverage is found again (``region_coverage``). Not under the debug
    words that observe the GPU's work (``repeat.OBSERVING``)."""
    S = tvb.samples
    if not (UNIFORM_PASSES and eot and len(px)) or S != 1:
        return None
    steps = list(itertools.islice(_steps(tvb, rows, region, S), 2))
    if len(steps) != 1:
        return None
    runs = list(itertools.islice(centre_runs(tvb, steps[0], states, S), 2))
    if len(runs) != 1 or runs[0][1]:
        return None
    memory = command.memory
    plan_key = (key, region, all_tiles, tvb.hsr, bg, eot, command.cmd.sampler_heap, id(caches))
    remembering = key is not None and not repeat.observed()
    known = _DRAW_FILLS.get(plan_key) if remembering and len(states) == 1 else None
    plan = _known_fill(core, command, tvb, runs[0][0], region, states, bg, eot, caches, known) \
        if known is not None else None
    if plan is None:
        cover = uniform_cover(tvb, runs[0][0], frame, states, all_tiles, region)
        if not overwrites_every_record(cover, len(px)) or not _tile_only(core, command, bg, caches):
            return None
        eot_pipe = read_pipeline(memory, eot, "PDM", command.cmd.sampler_heap)
        if eot_pipe.code_va or not eot_pipe.pbe:
            return None
        st, fragments = cover.state, cover.fragments
        value = st.uniform[1]
        try:
            if not all(fill_possible(memory, desc, offset_B, value, px, py, S, key)
                       for offset_B, desc in eot_pipe.pbe):
                return None
            stores = [(offset_B, desc, pbe_target(memory, desc)) for offset_B, desc in eot_pipe.pbe]
        except GPUFault as fault:
            info = fault.info
            raise GPUFault(type(info)(info.address, "PBE", info.is_read)) from None
        if remembering and st.template is not None:
            bg_pipe = read_pipeline(memory, bg, "PDM", command.cmd.sampler_heap) if bg else None
            bg_prog = core.load(bg_pipe.code_va) if bg_pipe is not None and bg_pipe.code_va else None
            if len(_DRAW_FILLS) >= 16:
                _DRAW_FILLS.clear()
            _DRAW_FILLS[plan_key] = ((st.template, caches, bg_pipe, bg_prog, eot_pipe), tuple(st.geom.rect),
                                     value, tuple(stores))
    else:
        st, fragments, value, stores = plan
    try:
        st.passed += fragments
        st.shaded += len(px)
        for offset_B, desc, target in stores:
            store_render_target(memory, desc, offset_B, None, px, py, S, pixels_key=key, uniform=value,
                                target=target)
    except GPUFault as fault:
        info = fault.info
        raise GPUFault(type(info)(info.address, "PBE", info.is_read)) from None
    return len(px)


def _known_fill(core, command, tvb, rows, region, states, bg: int, eot: int, caches, known):
    """(state, fragments, value, stores) of ``_uniform_draw_pass`` for a group like
    the one ``known`` was decided for: the pass's one draw has the same state facts
    (``DrawState.template``) and rectangle, its rows cover every pixel of the region
    (found now: ``region_coverage``), the background and end-of-tile pipelines and
    the background's program are the objects they were (read again: each is a new
    object when its bytes change) and so are the decoded PBE targets. Else None (the
    caller decides afresh). Reads the memory in the order the full decision does."""
    (template, was_caches, bg_pipe, bg_prog, eot_pipe), rect, value, stores = known
    st = next(iter(states.values()))
    if st.template is not template or was_caches is not caches or tuple(st.geom.rect) != rect:
        return None
    region_rect = (0, 0, tvb.width_px, tvb.height_px) if region is None else tuple(int(v) for v in region)
    covered, fragments = region_coverage(tvb.setup, region_rect, rows)
    if covered is not None:
        return None
    memory = command.memory
    heap = command.cmd.sampler_heap
    pipe = read_pipeline(memory, bg, "PDM", heap) if bg else None
    if pipe is not bg_pipe or (pipe is not None and pipe.code_va and core.load(pipe.code_va) is not bg_prog):
        return None
    if read_pipeline(memory, eot, "PDM", heap) is not eot_pipe:
        return None
    try:
        if any(pbe_target(memory, desc) is not target for _, desc, target in stores):
            return None
    except GPUFault as fault:
        info = fault.info
        raise GPUFault(type(info)(info.address, "PBE", info.is_read)) from None
    return st, fragments, value, stores


#: ``_uniform_draw_pass``' decisions: by (pixel set, region, whether it is every
#: tile, HSR, the background and end-of-tile addresses, the sampler heap, the
#: caches), the objects they were made of (compared by identity), the draw's
#: rectangle, the record value and the stores (tile offset, descriptor address,
#: decoded target).
_DRAW_FILLS: dict = {}


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
