"""ISP, PDM and fragment shading of one pass, in bulk.

Sole responsibility: given a pass's rasterised fragments (in the rasteriser's
per-pixel rank layers) and the draw states, run depth/stencil and the fragment
programs so that every sample sees its primitives in order: hidden surface
removal when the pass allows it (resolve visibility, then shade the visible
samples once), else layer by layer with early or late depth/stencil. One lane
per fragment (pixel) on a multisampled target, its result written to every
covered sample, unless the program or the draw asks for one lane per covered
sample (``USC_FRAGMENT.per_sample``, ``PPP_MSAA.sample_shading``); coverage and
depth/stencil stay per sample. Coefficient registers per lane from the PPP planes;
``ld_tile``/``st_tile`` on tile memory (in place when tests are early, on a copy
written back for passing samples when late). Programs whose lanes all compute
the same thing write one record, broadcast (``uniform_record``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from uapi import packets as P
from uapi.isa import Reg
from uapi.isa.semantics import FORMAT_ELEMENT_B, INTEGER_FORMATS, PACKED_FORMATS, format_bytes

from .. import raster as R
from ..usc import ExecContext
from ..usc.mem import ByteMemory, comps_to_values, load_values, store_values
from .native import hsr_quads, lane_array, quads_single_sample, records_at as native_records_at, shade_bins
from .ppp import DrawGeometry
from .repeat import observed
from .scratch import run_program
from .usc_words import read_pipeline

__all__ = ["DrawState", "draw_state", "shade_pass", "centre_runs", "uniform_record", "broadcast_record", "Background"]

SIDE_EFFECTS = {"device_store", "atomic", "image_write", "image_atomic"}


@dataclass
class DrawState:
    """What the fragment half knows of one draw: its geometry, fragment pipeline,
    depth/stencil state, how its program must run (late tests, HSR allowed, quads,
    uniform) and what it has counted (occlusion, invocations)."""

    geom: DrawGeometry
    pipe: object = None
    code_va: int = 0
    ds: R.DepthStencilState = field(default_factory=R.DepthStencilState)
    late: bool = False
    hsr_ok: bool = False
    tile_writes: frozenset | None = None   # (offset, format, count) its program always writes whole
    quads: bool = False
    names: frozenset = frozenset()      # instructions of the fragment program
    specials: frozenset = frozenset()   # special registers it reads
    uses_iter: bool = False
    uniform: tuple | None = None        # uniform_record of the fragment program
    sample_mask: int = 0xFFFF
    per_sample: bool = False            # one lane per covered sample (else one per pixel)
    multisample: bool = True            # PPP_RASTER.multisample: samples at their positions (off: the centre)
    occlusion: object = None
    passed: int = 0                     # samples that passed depth/stencil (occlusion)
    shaded: int = 0                     # fragment shader invocations (lanes, helpers excluded)
    # the facts this state was made of, shared by every draw made of the same inputs
    # (``draw_state``): one object while they are, so facts derived from them are
    # kept by its identity; None for a state not made by ``draw_state``
    template: "DrawState | None" = field(default=None, compare=False, repr=False)

    def for_draw(self, geom: DrawGeometry) -> "DrawState":
        """A copy of this state for draw ``geom`` (a shallow copy, as ``replace``
        makes, without running the constructor: a frame takes one per draw)."""
        st = object.__new__(DrawState)
        st.__dict__.update(self.__dict__)
        st.geom = geom
        return st


CONTROL_FLOW = {"if_icmp", "if_fcmp", "else_icmp", "else_fcmp", "while_icmp", "while_fcmp", "pop_exec",
                "push_exec", "jmp_exec_any", "jmp_exec_none"}


def _tile_writes(prog) -> frozenset | None:
    """The tile-record fields a program writes whole on every lane, or None when a
    write is partial (component mask) or may be skipped (control flow)."""
    if any(ins.op.name in CONTROL_FLOW for _, ins in prog.instructions):
        return None
    fields = set()
    for _, ins in prog.instructions:
        if ins.op.name == "st_tile":
            count = ins["data"].count
            if ins["mask"] & ((1 << count) - 1) != (1 << count) - 1:
                return None
            fields.add((ins["offset"], ins["fmt"], count))
    return frozenset(fields)


def _stencil_face(rec) -> R.StencilFace:
    if rec is None:
        return R.StencilFace()
    return R.StencilFace(func=int(rec.compare), ref=rec.reference, value_mask=rec.read_mask,
                         write_mask=rec.write_mask, fail_op=int(rec.stencil_fail), zfail_op=int(rec.depth_fail),
                         zpass_op=int(rec.depth_pass))


#: The PPP records a draw's state is made of (``draw_state``).
_STATE_RECORDS = ("zs", "stencil_front", "stencil_back", "raster", "msaa", "occlusion", "fragment_shader")
_STATES: dict = {}
_STATES_MAX = 256


def draw_state(executor, command, geom: DrawGeometry) -> DrawState:
    """The fragment half's state of draw ``geom``, with its counters at zero. Made
    from the draw's PPP records, its fragment pipeline (``read_pipeline``), the
    decoded program and the record size; a draw whose inputs are the objects an
    earlier draw's were (records are shared by their bytes, a pipeline is the same
    object while its words and uniforms are, a program while its code is) takes
    that draw's facts (``_STATES``), with its own geometry and counters."""
    ppp = geom.draw.ppp
    records = tuple(ppp.get(name) for name in _STATE_RECORDS)
    fs = records[-1]
    pipe = prog = None
    if fs is not None and fs.pipeline:
        pipe = read_pipeline(command.memory, fs.pipeline, "PDM", command.cmd.sampler_heap)
        prog = executor.core(command).load(pipe.code_va)
    record_B = max(int(command.cmd.sample_size_B), 4)
    key = (id(executor.caches), record_B) + tuple(map(id, records)) + (id(pipe), id(prog))
    known = _STATES.get(key)
    if known is not None:
        caches, was, was_pipe, was_prog = known[0]
        if caches is executor.caches and was_pipe is pipe and was_prog is prog \
                and all(a is b for a, b in zip(was, records)):
            return known[1].for_draw(geom)
    st = _draw_state(executor, command, geom, pipe, prog, record_B)
    st.template = template = st.for_draw(None)
    template.template = template
    if len(_STATES) >= _STATES_MAX:
        _STATES.clear()
    _STATES[key] = ((executor.caches, records, pipe, prog), template)
    return st


def _draw_state(executor, command, geom: DrawGeometry, pipe, prog, record_B: int) -> DrawState:
    ppp = geom.draw.ppp
    st = DrawState(geom)
    zs = ppp.get("zs")
    if zs is not None:
        depth_test = zs.depth_func != P.CompareFunc.ALWAYS or zs.depth_write
        front = _stencil_face(ppp.get("stencil_front"))
        back = _stencil_face(ppp.get("stencil_back")) if zs.two_sided_stencil else front
        st.ds = R.DepthStencilState(depth_test=bool(depth_test), depth_func=int(zs.depth_func),
                                    depth_write=bool(zs.depth_write), stencil_test=bool(zs.stencil_test),
                                    front=front, back=back)
    raster = ppp.get("raster")
    st.multisample = raster is None or bool(raster.multisample)
    msaa = ppp.get("msaa")
    if msaa is not None:
        st.sample_mask = msaa.sample_mask
        st.per_sample = bool(msaa.sample_shading)
    st.occlusion = ppp.get("occlusion")
    if pipe is not None:
        st.pipe = pipe
        st.code_va = st.pipe.code_va
        core = executor.core(command)
        names, st.specials, st.quads, st.tile_writes = _analysis(prog, executor.caches)
        st.names = names
        st.uses_iter = "iter" in names
        st.uniform = uniform_record(core, st.pipe, record_B, executor.caches)
        p = st.pipe
        # late tests when the program may change the outcome (discard, depth, sample
        # mask) or when its USC_FRAGMENT forbids early ones (a program whose memory
        # writes every fragment must make, those of fragments that then fail too)
        st.per_sample = st.per_sample or bool(p.per_sample)
        st.late = p.discards or p.writes_depth or p.writes_sample_mask or not p.early_z or "discard" in names \
            or "zs_emit" in names or "sample_mask" in names
        st.hsr_ok = (not st.late and "ld_tile" not in names and not (names & SIDE_EFFECTS)
                     and st.tile_writes is not None)
    else:
        st.hsr_ok = True
        st.tile_writes = frozenset()
    return st


#: Instructions whose results may differ between lanes (or that touch memory).
LANE_VARYING = {"get_sr", "iter", "ldcf", "ld_tile", "texture_sample", "texture_load", "texture_size", "image_load",
                "image_write", "image_atomic", "device_load", "device_store", "atomic", "local_load", "local_store",
                "local_atomic", "stack_load", "stack_store", "zs_emit", "sample_mask", "discard", "dfdx", "dfdy"}


def _cached(cache: dict, prog, key, make):
    """``make()`` remembered in ``cache`` for this decoded program (programs are
    re-decoded when their bytes change, so the Program object names the code)."""
    full = (id(prog),) + key
    hit = cache.get(full)
    if hit is not None and hit[0] is prog:
        return hit[1]
    if len(cache) > 4096:
        cache.clear()
    value = make()
    cache[full] = (prog, value)
    return value


def _analysis(prog, cache: dict):
    """(instruction names, special registers read, needs quads, tile writes) of a program."""
    def make():
        names = frozenset(ins.op.name for _, ins in prog.instructions)
        specials = frozenset(ins["sr"] for _, ins in prog.instructions if ins.op.name == "get_sr")
        quads = bool(names & {"dfdx", "dfdy"}) or any(
            ins.op.name == "texture_sample" and ins["lod_mode"] in ("auto", "bias") for _, ins in prog.instructions)
        return names, specials, quads, _tile_writes(prog)
    return _cached(cache, prog, ("analysis",), make)


def uniform_record(core, pipe, record_B: int, cache: dict):
    """For a program whose every lane computes the same thing (no lane-varying input,
    no memory access), the tile-record bytes it writes: (written bool[record_B],
    value uint8[record_B]) found by running two lanes once (records of 0x00 and
    0xFF). None for any other program. Running it per lane would write the same
    bytes into every record, so the caller broadcasts them. A program of register
    moves and tile stores only (``_straight_plan``: the driver's clear background, a
    colour moved from uniforms or immediates) is followed without the core (``_straight_record``: a new
    uniform value costs its stores' conversions, not a run), unless a debug word
    observes the work (``repeat.OBSERVING``: the core runs it as before)."""
    prog = core.load(pipe.code_va)

    def make():
        if any(ins.op.name in LANE_VARYING for _, ins in prog.instructions):
            return None
        plan = _cached(cache, prog, ("straight",), lambda: _straight_plan(prog)) \
            if STRAIGHT_RECORDS and record_B > 0 and not observed() else None
        straight = _straight_record(plan, pipe.uniforms, record_B) if plan is not None else None
        if straight is not None:
            return straight
        # one run of two lanes (every lane computes the same thing), each on its own
        # record: one of 0x00 bytes, one of 0xFF
        recs = np.empty((2, record_B), np.uint8)
        recs[0], recs[1] = 0x00, 0xFF
        core.run(pipe.code_va, ExecContext(lanes=2, tile_buffer=recs, tile_index=np.arange(2, dtype=np.int64),
                                           **pipe.context_fields()))
        return recs[0] == recs[1], recs[0].copy()
    return _cached(cache, prog, ("uniform", pipe.uniforms.tobytes(), record_B), make)


#: Find the record of a straight program of moves and tile stores without the
#: shader core (``_straight_record``); tests switch it off to compare with the run.
STRAIGHT_RECORDS = True
_STRAIGHT_OPS = frozenset({"mov", "mov_imm", "st_tile", "wait", "stop"})


def _straight_plan(prog):
    """The tile stores of a program made only of register moves (``mov``/``mov_imm``
    of 16- or 32-bit registers) and tile stores, ended by ``stop`` (the driver's clear
    background, a colour moved from uniforms or immediates): (format, offset,
    component count, register size, components the mask keeps, and per component
    its 16-bit halves, each a constant or a uniform half), found by following the
    moves once, as the core's registers hold them (a narrower source zero-extended,
    a wider one truncated). None for any other program, or one that reads a register
    before writing it."""
    regs: dict[int, tuple] = {}         # register half -> ("c", value) or ("u", uniform half)

    def halves(r):
        return (r.half,) if r.size == 16 else (r.half // 2 * 2, r.half // 2 * 2 + 1)

    def source(r):
        """The halves of 16- or 32-bit operand ``r``, low first (None: not followed)."""
        if not isinstance(r, Reg) or r.count != 1 or r.size not in (16, 32):
            return None
        if r.file == "u":
            return tuple(("u", h) for h in halves(r))
        got = tuple(regs.get(h) for h in halves(r))
        return None if None in got else got

    stores = []
    for _, ins in prog.instructions:
        name = ins.op.name
        if name not in _STRAIGHT_OPS:
            return None
        if name == "stop":
            return tuple(stores)
        if name == "wait":
            continue
        if name == "st_tile":
            data = ins["data"]
            if data.file != "r" or data.size not in (16, 32):
                return None
            step = data.size // 16
            comps = tuple(source(Reg("r", data.half + c * step, data.size)) for c in range(data.count))
            if None in comps:
                return None
            mask = ins["mask"]
            stores.append((ins["fmt"], ins["offset"], data.count, data.size,
                           [c for c in range(data.count) if not mask >> c & 1], comps))
            continue
        dst = ins["dst"]
        if dst.file != "r" or dst.count != 1 or dst.size not in (16, 32):
            return None
        if name == "mov_imm":
            value = ins["imm"] & ((1 << dst.size) - 1)
            src = (("c", value & 0xFFFF), ("c", value >> 16))
        else:
            src = source(ins["a"])
            if src is None:
                return None
            src = src + (("c", 0),)                      # (zero-extended)
        for h, part in zip(halves(dst), src):
            regs[h] = part
    return None


def _straight_record(plan, uniforms: np.ndarray, record_B: int):
    """``uniform_record``'s answer for a program of ``_straight_plan``, for one set of
    uniform values, without the shader core: each store's components (16-bit halves
    from the uniforms or constants) through the tile unit's own conversions
    (``comps_to_values``, ``load_values`` for the components its mask keeps,
    ``store_values``) into the two records of 0x00 and 0xFF bytes. None when a store
    reaches past the record or a uniform half past the file (the core then runs and
    reports it): a new clear colour or uniform value costs this, not a run."""
    with np.errstate(all="ignore"):         # (as the core runs: NaN, infinities, overflowing casts)
        return _straight_stores(plan, np.ascontiguousarray(uniforms).view(np.uint16), record_B)


def _straight_stores(plan, uni: np.ndarray, record_B: int):
    recs = np.empty((2, record_B), np.uint8)
    recs[0], recs[1] = 0x00, 0xFF
    mem = ByteMemory(recs)
    for fmt, offset, k, size, keep_old, comps in plan:
        size_B = FORMAT_ELEMENT_B[fmt] * (1 if fmt in PACKED_FORMATS else k)
        if offset < 0 or offset + size_B > record_B:
            return None
        raw = []
        for parts in comps:
            value = 0
            for j, (kind, v) in enumerate(parts):
                if kind == "u":
                    if v >= uni.size:
                        return None
                    v = int(uni[v])
                value |= v << (16 * j)
            raw.append(value)
        column = np.array([raw, raw], np.uint16 if size == 16 else np.uint32)
        vals = comps_to_values(list(column.T), size, fmt not in INTEGER_FORMATS)
        addr = np.array([offset, record_B + offset], np.int64)
        if keep_old:
            old = load_values(mem, addr, fmt, k)
            vals[:, keep_old] = old[:, keep_old]
        store_values(mem, addr, fmt, vals, k)
    return recs[0] == recs[1], recs[0].copy()


def broadcast_record(tile_buffer: np.ndarray, rows: np.ndarray | None, written: np.ndarray,
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


def records_at(record_of: np.ndarray, x: np.ndarray, y: np.ndarray, origin: tuple[int, int] = (0, 0),
               out: np.ndarray | None = None) -> np.ndarray:
    """``record_of[y - y0, x - x0]`` for pixel arrays inside the region ``record_of``
    maps (its top-left pixel ``origin`` = (x0, y0)), as one flat ``take``: about
    twice as fast as 2-D fancy indexing over a frame's million fragments. ``out``:
    an int64 array the C pass may write them into (the numpy path returns a new one)."""
    done = native_records_at(record_of, x, y, origin, out)    # the same in one C pass (pipeline/native.py)
    if done is not None:
        return done
    return _records_numpy(record_of, x, y, origin)


def _records_numpy(record_of: np.ndarray, x: np.ndarray, y: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    x0, y0 = origin
    flat = y.astype(np.intp)
    if y0:
        flat -= y0
    flat *= record_of.shape[1]
    flat += x
    if x0:
        flat -= x0
    # in range, so clip changes nothing; the indices' array receives the records
    return record_of.reshape(-1).take(flat, out=flat, mode="clip") if record_of.dtype == np.intp \
        else record_of.reshape(-1).take(flat, mode="clip")


def _filter(frags: R.Fragments, keep: np.ndarray) -> R.Fragments:
    """Fragments where ``keep``, keeping the rasteriser's layers."""
    if keep.all():
        return frags
    sub = frags.take(keep)
    if frags.layer_offsets is None:
        return sub
    cum = np.concatenate(([0], np.cumsum(keep)))
    return replace(sub, layer_offsets=np.unique(cum[frags.layer_offsets]))


class Background:
    """The pass's background program (it fills the tile records first), run at most
    once, before shading touches the tile buffer. A pass that writes every byte of
    every record hides its output: like a hidden fragment under HSR, it is then not
    run at all, when it has no effect beyond registers and tile memory."""

    def __init__(self, run, tile_only):
        self._run, self._tile_only = run, tile_only
        self.settled = False

    def run(self) -> None:
        if not self.settled:
            self.settled = True
            self._run()

    def hidden(self, every_byte_written: bool) -> None:
        """Shading is about to start; ``every_byte_written``: it writes every byte
        of every record."""
        if not self.settled and every_byte_written and self._tile_only():
            self.settled = True
        self.run()


def _writes_whole_record(writes: frozenset | None, record_B: int) -> bool:
    """True when the tile fields ``writes`` (``_tile_writes``) cover every byte of a record."""
    if not writes:
        return False
    covered = np.zeros(record_B, bool)
    for offset, fmt, count in writes:
        covered[offset:offset + format_bytes(fmt, count)] = True
    return bool(covered.all())


def _primitives_per_instance(tvb) -> np.ndarray:
    """Primitives each instance of a draw of the segment assembles, by draw index (a row's
    ``setup.prim`` counts the primitives of all the draw's instances)."""
    draws = tvb.draws or []
    per = np.ones(max((g.draw.index for g in draws), default=0) + 1, np.int64)
    for g in draws:
        per[g.draw.index] = max(g.primitives // max(g.draw.instances, 1), 1)
    return per


def shade_pass(core, command, tvb, rows: np.ndarray, frame, states, record_of, tile_buffer,
                all_tiles: bool, background: Background | None = None,
                region: tuple[int, int, int, int] | None = None, centre: bool = False) -> int:
    """Shade the pass of setup ``rows``. ``background``: run before the first use
    of the tile buffer (None: it has been run). ``region`` (x0, y0, x1, y1): the
    pixels of this group of the pass's tiles, which ``record_of`` maps (None: the
    framebuffer); ``all_tiles``: every pixel of it has a record. ``centre``: the
    rows' draws have multisample rasterization off (``centre_runs``)."""
    setup = tvb.setup
    S, W, H = frame.S, frame.W, frame.H
    region = (0, 0, W, H) if region is None else tuple(region)
    origin = region[:2]
    draw_ids = np.array(sorted(states), np.int64)
    background = background or Background(lambda: None, lambda: True)
    cover = uniform_cover(tvb, rows, frame, states, all_tiles, region)
    if cover is not None:
        background.hidden(overwrites_every_record(cover, tile_buffer.shape[0]))
    lanes = _uniform_coverage_pass(tvb, rows, frame, states, draw_ids, record_of, tile_buffer, all_tiles, cover)
    if lanes is not None:
        return lanes
    lanes = _bin_pass(core, tvb, rows, frame, states, draw_ids, record_of, tile_buffer, all_tiles, background,
                      region)
    if lanes is not None:
        return lanes
    lanes = _visible_pass(core, command, tvb, rows, frame, states, draw_ids, record_of, tile_buffer, all_tiles,
                          background, region, centre)
    if lanes is not None:
        return lanes
    vps = [states[d].geom.draw.ppp.get("viewport") for d in draw_ids]
    lo = min(v.min_depth if v is not None else 0.0 for v in vps)
    hi = max(v.max_depth if v is not None else 1.0 for v in vps)
    # fragment depth is read by depth/stencil tests only (a shader reads its z plane)
    depth = any(not states[d].ds.trivial for d in draw_ids)
    frags = R.rasterize(setup, region, S, rows=rows, depth_clamp=(min(lo, hi), max(lo, hi)), depth=depth,
                        scratch=_raster_scratch(), centre=centre and S > 1)
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
        inside = records_at(record_of, frags.x, frags.y, origin) >= 0
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
    # one draw: a read-only broadcast, not a million-entry array
    draw = np.broadcast_to(np.int64(draw_ids[0]), (len(frags),)) if one_draw else tvb.row_draw[frags.tri]
    los = np.array([v.min_depth if v is not None else 0.0 for v in vps], np.float32)
    his = np.array([v.max_depth if v is not None else 1.0 for v in vps], np.float32)
    if depth and not one_draw and ((los != los[0]).any() or (his != his[0]).any()):   # per-draw depth range
        slot = np.searchsorted(draw_ids, draw)
        lo_f, hi_f = np.minimum(los, his)[slot], np.maximum(los, his)[slot]
        frags = replace(frags, z=np.clip(frags.z, lo_f[:, None], hi_f[:, None]).astype(np.float32))
    layers = R.layers_of(frags)
    ctx = _PassContext(core, command, tvb, frame, states, record_of, tile_buffer, frags, draw, one_draw, origin)
    present = draw_ids if one_draw else np.unique(draw)
    # HSR keeps only the last fragment of a sample: right when each shader overwrites
    # what the others write (the same whole tile-record fields, unconditionally)
    writes = {states[d].tile_writes for d in present}
    if tvb.hsr and all(states[d].hsr_ok for d in present) and len(writes) == 1:
        whole = all_tiles and _writes_whole_record(next(iter(writes)), tile_buffer.shape[1]) \
            and all(states[d].pipe is not None for d in present)
        return ctx.hidden_surface_removal(layers, background, whole)
    background.run()
    return ctx.in_order(layers)


def centre_runs(tvb, rows: np.ndarray, states, samples: int):
    """(rows, centre) runs of consecutive ``rows`` whose draws agree on
    ``PPP_RASTER.multisample`` (``centre``: off, every sample at the pixel centre),
    in draw order; one run when the target has one sample or every draw agrees."""
    flags = {d: not st.multisample for d, st in states.items()}
    if samples == 1 or not any(flags.values()):
        yield rows, False
        return
    if all(flags.values()):
        yield rows, True
        return
    ids = np.array(sorted(flags), np.int64)
    centre = np.array([flags[int(d)] for d in ids], bool)[np.searchsorted(ids, tvb.row_draw[rows])]
    cuts = np.flatnonzero(centre[1:] != centre[:-1]) + 1
    for part, start in zip(np.split(rows, cuts), np.concatenate(([0], cuts))):
        yield part, bool(centre[start])


#: Shade passes bin by bin in C when they qualify (``_bin_pass``); tests switch it
#: off to compare with the rasteriser and the layer loop, the specification.
BIN_PASSES = True


def _bin_pass(core, tvb, rows, frame, states, draw_ids, record_of, tile_buffer, all_tiles: bool,
              background: Background, region) -> int | None:
    """A single-sampled pass of one draw with no depth/stencil work, early, without
    quads, whose program runs natively with a lane-ordered plan (one straight block
    of segments touching tile memory: ``codegen._ordered_function``): rasterised and
    shaded bin by bin in one C call per thread (``native.shade_bins``), with no
    fragment arrays. In primitive order per pixel (as ``_ordered_pass`` and the layer
    loop) when the pass cannot take hidden surface removal; else only each pixel's
    last fragment is shaded (as ``hidden_surface_removal``). The counters are the
    ones those paths give. Returns the lanes shaded, or None when the pass is not of
    this kind (the caller rasterises)."""
    if not BIN_PASSES or len(draw_ids) != 1 or frame.S != 1:
        return None
    st = states[int(draw_ids[0])]
    if st.pipe is None or st.late or not st.ds.trivial or st.quads or not st.sample_mask & 1 \
            or {"image_load", "image_write"} <= st.names:
        return None
    hsr = tvb.hsr and st.hsr_ok
    if hsr and st.uniform is not None:
        return None         # the same bytes everywhere: hidden_surface_removal broadcasts them
    if not hsr and (not ({"ld_tile", "st_tile"} & st.names) or (st.uniform is not None and "ld_tile" not in st.names)):
        return None
    from ..native import native_for, ordered_ready
    prog = core.load(st.code_va)
    if not ordered_ready(core, prog):
        if core.debug or core.tier == "interp":
            return None
        native_for(prog, 0, core.tier)      # a program new to this core: its code from the disk cache
        if not ordered_ready(core, prog):
            return None
    W, H = frame.W, frame.H
    region = (0, 0, W, H) if region is None else tuple(region)
    rect = R.intersect_rects(region, tuple(int(v) for v in st.geom.rect))

    def start() -> None:            # the background first (unless shading hides it)
        if not hsr:
            background.run()
            return
        whole = all_tiles and _writes_whole_record(st.tile_writes, tile_buffer.shape[1])
        if whole and not background.settled:
            # every record shaded (then the background is hidden): every pixel covered
            whole = rect == region and region_coverage(tvb.setup, rect, rows)[0] is None
        background.hidden(whole)
    from ..native import threads
    done = shade_bins(prog.native_state.compiled, st.pipe.uniforms, tvb.planes, tvb.setup, rows, rect, record_of,
                      region[:2], tile_buffer, visible_only=hsr, threads=threads(), start=start)
    if done is None:
        return None
    fragments, lanes = done
    st.passed += fragments
    st.shaded += lanes
    return lanes


#: Resolve the visibility of depth-tested passes without fragment arrays when they
#: qualify (``_visible_pass``); tests switch it off to compare with the rasteriser,
#: the ISP's layer loop and ``hidden_surface_removal``, the specification.
VISIBLE_PASSES = True


def _visible_pass(core, command, tvb, rows, frame, states, draw_ids, record_of, tile_buffer, all_tiles: bool,
                  background: Background, region, centre: bool) -> int | None:
    """A single-sampled pass of one draw that takes hidden surface removal, with a
    depth test and no stencil test, early, without quads: ``R.visible_pixels``
    rasterises and depth tests it in primitive order with no fragment arrays, and
    only each pixel's last passing fragment is shaded, as ``hidden_surface_removal``
    does after ``rasterize``. Same depth buffer, records and counters. Returns the
    lanes shaded, or None when the pass is not of this kind (the caller rasterises)."""
    if not VISIBLE_PASSES or len(draw_ids) != 1 or frame.S != 1 or centre or not all_tiles or not tvb.hsr:
        return None
    d = int(draw_ids[0])
    st = states[d]
    if not st.hsr_ok or st.late or st.quads or not st.ds.depth_test or st.ds.stencil_test \
            or not st.sample_mask & 1:
        return None
    W, H = frame.W, frame.H
    region = (0, 0, W, H) if region is None else tuple(int(v) for v in region)
    vp = st.geom.draw.ppp.get("viewport")
    lo, hi = (vp.min_depth, vp.max_depth) if vp is not None else (0.0, 1.0)
    clip = None if np.array_equal(st.geom.rect, (0, 0, W, H)) else tuple(int(v) for v in st.geom.rect)
    tri, x, y, fragments, passed = R.visible_pixels(tvb.setup, region, st.ds, frame.depth, rows=rows, clip=clip,
                                                    depth_clamp=(min(lo, hi), max(lo, hi)))
    if fragments == 0:
        return 0
    st.passed += passed
    whole = _writes_whole_record(st.tile_writes, tile_buffer.shape[1]) and st.pipe is not None
    background.hidden(whole and len(tri) == tile_buffer.shape[0])
    n = len(tri)
    ones = np.ones(n, np.uint8)
    frags = R.Fragments(tri, x, y, ones, np.broadcast_to(np.float32(0), (n, 1)), 1)
    ctx = _PassContext(core, command, tvb, frame, states, record_of, tile_buffer, frags,
                       np.broadcast_to(np.int64(d), (n,)), True, region[:2])
    idx = _iota(n)
    ctx._run = (idx, 0)                 # (the lanes' x, y, tri: views)
    return ctx._shade(st, idx, ones, late=False)     # (records: found with the lanes' positions)


_THREAD = threading.local()
#: The most bytes of rasteriser output a firmware thread keeps between passes (a
#: shading step of a few million fragments fits; a bigger pass allocates its own).
RASTER_SCRATCH_MAX_B = 160 << 20


def _raster_scratch() -> R.Scratch:
    """This thread's rasteriser scratch: a pass's fragments are dead once it is shaded."""
    held = getattr(_THREAD, "raster", None)
    if held is None:
        held = _THREAD.raster = R.Scratch(RASTER_SCRATCH_MAX_B)
    return held


class Cover(NamedTuple):
    """``uniform_cover``'s answer: the pass's draw state, its coverage of the region
    (``covered``: bool (h, w), None when every pixel is covered, the common
    full-screen case, for which no image is made) and its fragments."""
    state: "DrawState"
    covered: np.ndarray | None
    shape: tuple[int, int]
    fragments: int

    @property
    def pixels(self) -> int:
        """The covered pixels."""
        return self.shape[0] * self.shape[1] if self.covered is None else int(np.count_nonzero(self.covered))


def uniform_cover(tvb, rows, frame, states, all_tiles: bool, region=None) -> Cover | None:
    """For a pass of one draw whose program writes the same bytes on every lane, with
    no depth/stencil work, single-sampled, HSR on (a full-screen clear or fill): its
    ``Cover`` of ``region`` (None: the framebuffer), from ``region_coverage``. None
    when the pass is not of this kind."""
    draw_ids = sorted(states)
    if len(draw_ids) != 1 or frame.S != 1 or not all_tiles or not tvb.hsr:
        return None
    st = states[int(draw_ids[0])]
    if not (st.hsr_ok and st.ds.trivial and st.uniform is not None and not st.quads and st.sample_mask & 1):
        return None
    if tuple(st.geom.rect) != (0, 0, frame.W, frame.H):
        return None
    rect = (0, 0, frame.W, frame.H) if region is None else tuple(int(v) for v in region)
    covered, fragments = region_coverage(tvb.setup, rect, rows)
    return Cover(st, covered, (rect[3] - rect[1], rect[2] - rect[0]), fragments)


#: The setup fields single-sampled coverage is made of (``region_coverage``).
_COVERAGE_FIELDS = ("x_fx", "y_fx", "edge_a", "edge_b", "edge_c", "edge_bias")
_COVERAGE: dict = {}


def region_coverage(setup, rect, rows) -> tuple[np.ndarray | None, int]:
    """(covered bool image of ``rect``, or None when every pixel of it is covered;
    fragments) of single-sampled setup ``rows``: a few big triangles (a full-screen
    quad) from ``R.covered_rows``' intervals without a per-pixel image, others
    from ``R.covered_pixels``.

    Rows that are read-only arrays (a vertex half taken again, ``repeat.py``: the
    TVB's rows are never written after the vertex half made them) give the answer
    they gave before while they are the same objects; other rows are looked at
    afresh (``covered_rows`` remembers a few rows by their bytes)."""
    rect = tuple(int(v) for v in rect)
    fixed = rows is not None and not rows.flags.writeable and \
        not any(getattr(setup, f).flags.writeable for f in _COVERAGE_FIELDS)
    if fixed:
        known = _COVERAGE.get((id(setup), id(rows), rect))
        if known is not None and known[0] is setup and known[1] is rows:
            return known[2]
    answer = _region_coverage(setup, rect, rows)
    if fixed and answer[0] is None:         # (an image is not kept: memory)
        if len(_COVERAGE) >= 8:
            _COVERAGE.clear()
        _COVERAGE[(id(setup), id(rows), rect)] = (setup, rows, answer)
    return answer


def _region_coverage(setup, rect, rows) -> tuple[np.ndarray | None, int]:
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    got = R.covered_rows(setup, rect, rows=rows)
    if got is not None:
        lo, hi, fragments = got
        if not (lo > 0).any() and not (hi < w - 1).any():
            return None, fragments
    covered, fragments = R.covered_pixels(setup, rect, rows=rows)
    return (None if covered.size == w * h and covered.all() else covered), fragments


def overwrites_every_record(cover: Cover | None, n_records: int) -> bool:
    """True when the pass of ``cover`` (``uniform_cover``) writes every byte of
    every one of the ``n_records`` tile records: what the tile held before (the
    background program's output) is never seen."""
    if cover is None:
        return False
    return bool(cover.state.uniform[0].all()) and cover.covered is None and \
        cover.shape[0] * cover.shape[1] == n_records


def _uniform_coverage_pass(tvb, rows, frame, states, draw_ids, record_of, tile_buffer, all_tiles,
                           cover=None) -> int | None:
    """The pass of one draw whose program writes the same bytes on every lane (see
    ``uniform_cover``): which fragment of a pixel comes last does not matter, so
    only the covered pixels are needed. ``R.covered_pixels`` finds them block by
    block, without a fragment per pixel; the result (records, counters) is the one
    ``hidden_surface_removal`` gives. Returns the lanes shaded, or None when the
    pass is not of this kind."""
    if cover is None:
        cover = uniform_cover(tvb, rows, frame, states, all_tiles)
    if cover is None:
        return None
    st = cover.state
    if cover.fragments == 0:
        return 0
    st.passed += cover.fragments
    n = cover.pixels                            # one invocation per visible sample
    st.shaded += n
    broadcast_record(tile_buffer, None if n == tile_buffer.shape[0] else
                     record_of[np.ones(cover.shape, bool) if cover.covered is None else cover.covered], *st.uniform)
    return n


def _single_layer(n: int) -> R.RankLayers:
    return R.RankLayers(np.arange(n, dtype=np.int64), np.array([0, n], np.int64), np.zeros(n, np.int32))


_IOTA = [np.zeros(0, np.int64)]


def _iota(n: int) -> np.ndarray:
    """``np.arange(n)`` (int64) as a read-only view of one remembered array, grown
    as needed: layers and lanes index with it every pass."""
    held = _IOTA[0]
    if len(held) < n:
        held = np.arange(max(n, 2 * len(held)), dtype=np.int64)
        held.flags.writeable = False
        _IOTA[0] = held
    return held[:n]


class _PassContext:
    def __init__(self, core, command, tvb, frame, states, record_of, tile_buffer, frags, draw, one_draw,
                 origin=(0, 0)):
        self.core, self.command, self.tvb, self.frame = core, command, tvb, frame
        self.states, self.record_of, self.tile_buffer = states, record_of, tile_buffer
        self.origin = origin                                     # record_of's top-left pixel
        self.frags, self.draw, self.one_draw = frags, draw, one_draw
        self._run = None                                         # (indices, first) of a run layer
        self.S = frame.S
        self.spos = R.sample_positions_px(self.S).astype(np.float32)
        # per coverage mask: the mean position of its samples from the pixel's corner
        masks = np.arange(1 << self.S)
        bits = ((masks[:, None] >> np.arange(self.S)) & 1).astype(np.float64)
        counts = np.maximum(bits.sum(axis=1, keepdims=True), 1)
        self.centroid_table = ((bits @ self.spos.astype(np.float64)) / counts).astype(np.float32)
        self.centroid_table[0] = 0.5

    @cached_property
    def rec_f(self) -> np.ndarray:
        """The tile-memory record (pixel) of every fragment, made on first use
        (shading layer by layer finds its lanes' records itself)."""
        return records_at(self.record_of, self.frags.x, self.frags.y, self.origin)

    @cached_property
    def front(self) -> np.ndarray:
        """Front-facing flag of every fragment, gathered on first use (passes that
        test no depth/stencil and read no gl_FrontFacing never need it)."""
        return self.tvb.setup.front_facing[self.frags.tri]

    # -- depth/stencil of a set of fragments with distinct pixels
    def _test(self, st: DrawState, idx: np.ndarray, coverage=None, z=None, ref=None) -> np.ndarray:
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
                               layers=_single_layer(n), coverage=coverage, z=z, ref=ref)

    def _layer(self, layers: R.RankLayers, k: int) -> np.ndarray:
        """Fragment indices of layer k; when layers are runs of fragments, the run is
        remembered so that ``_pick`` reads it through views."""
        if layers.order is not None:
            return layers.layer(k)
        lo, hi = int(layers.offsets[k]), int(layers.offsets[k + 1])
        idx = _iota(hi)[lo:hi]
        self._run = (idx, lo)
        return idx

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

    def _owners(self, layers: R.RankLayers, owner: np.ndarray) -> None:
        """HSR's layer loop: each sample's last passing fragment into ``owner`` (per
        record times S), the draws' passed counts updated."""
        frags, S, rec = self.frags, self.S, self.rec_f
        contiguous = frags.layer_offsets is not None            # layers are runs of fragments
        for k in range(layers.count):
            for d, idx in self._groups(self._layer(layers, k)):
                st = self.states[d]
                if S == 1 and st.ds.trivial:                # every fragment passes (coverage is nonzero)
                    st.passed += len(idx)
                    if self.one_draw and contiguous:        # layer k is fragments a..b
                        a, b = layers.offsets[k], layers.offsets[k + 1]
                        owner[rec[a:b]] = idx
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

    def hidden_surface_removal(self, layers: R.RankLayers, background: Background, whole: bool) -> int:
        """Resolve visibility of the whole pass first, then shade only the last
        passing fragment of every sample (one lane per visible sample). The
        background runs before shading unless every sample is shaded and the
        programs write whole records (``whole``)."""
        frags, S = self.frags, self.S
        if self.one_draw and S == 1:
            st = self.states[int(self.draw[0])]
            if st.ds.trivial and st.uniform is not None and not st.quads:
                # every fragment passes and writes the same bytes: which one is last does not matter
                st.passed += len(frags)
                rec = self.rec_f
                covered = np.zeros(self.tile_buffer.shape[0], bool)
                covered[rec] = True
                background.hidden(whole and bool(st.uniform[0].all()) and bool(covered.all()))
                n = int(np.count_nonzero(covered))          # one invocation per visible sample
                st.shaded += n
                # every record covered (a full-screen draw): one contiguous fill, no scatter
                broadcast_record(self.tile_buffer, None if n == len(covered) else rec, *st.uniform)
                return n
            if st.ds.trivial and st.quads and st.pipe is not None and st.uses_iter and not st.specials \
                    and frags.layer_offsets is not None:
                # every fragment passes and a pixel's last is its highest: the owners and
                # the quads (their minimal form, as _sample_lanes asks) from one C pass
                made = hsr_quads(frags.x, frags.y, frags.tri, self.record_of, self.origin)
                if made is not None:
                    fused, real = made
                    st.passed += len(frags)
                    background.hidden(whole and real == self.tile_buffer.shape[0])
                    lanes = self._sample_lanes(st, _iota(real), None, False, None, fused=fused)
                    st.shaded += lanes
                    return lanes
        owner = lane_array("owner", (self.tile_buffer.shape[0],), np.int64)   # per record: last passing fragment
        owner.fill(-1)          # (the thread's lane scratch: a fresh array costs its page faults)
        one = self.states[int(self.draw[0])] if self.one_draw else None
        if one is not None and not one.ds.trivial:
            # one draw: the ISP tests every layer in one call (the C kernel when it takes
            # it), noting each sample's last passing fragment, as the layer loop does
            rec = self.rec_f
            passed = R.depth_stencil(frags, one.ds, self.frame.depth, self.frame.stencil,
                                     front_facing=self.front if one.ds.stencil_test else None, layers=layers,
                                     owner=owner, owner_index=rec * S if S > 1 else rec)
            one.passed += R.samples_passed(passed)
        else:
            self._owners(layers, owner)
        held = np.flatnonzero(owner >= 0)
        background.hidden(whole and len(held) == len(owner))
        o = owner[held]
        if S == 1 and self.one_draw:        # records are distinct: shade in record order
            return self._shade(self.states[int(self.draw[0])], o, np.ones(len(o), np.uint8), late=False,
                               records=held)
        visible = np.zeros(len(frags), np.uint8)
        if S == 1:
            visible[o] = 1
        else:           # (fragment, sample) pairs are distinct: set the bits, then sum them
            bits = np.zeros((len(frags), S), np.uint8)
            bits[o, held % S] = 1
            visible = (bits << np.arange(S, dtype=np.uint8)).sum(axis=1, dtype=np.uint8)
        shown = np.flatnonzero(visible)
        lanes = 0
        for d, idx in self._groups(shown):
            lanes += self._shade(self.states[d], idx, visible[idx], late=False)
        return lanes

    def in_order(self, layers: R.RankLayers) -> int:
        ordered = self._ordered_pass(layers)
        if ordered is not None:
            return ordered
        lanes = 0
        for k in range(layers.count):
            for d, idx in self._groups(self._layer(layers, k)):
                st = self.states[d]
                if st.late:
                    lanes += self._shade(st, idx, self.frags.coverage[idx], late=True)
                elif st.ds.trivial and self.S == 1 and (cov := self._pick(self.frags.coverage, idx)).all():
                    st.passed += len(idx)               # no test: every fragment passes, as it is
                    lanes += self._shade(st, idx, cov, late=False)
                else:
                    passed = self._test(st, idx)
                    st.passed += R.samples_passed(passed)
                    on = passed != 0
                    lanes += self._shade(st, idx[on], passed[on], late=False)
        return lanes

    def _ordered_pass(self, layers: R.RankLayers) -> int | None:
        """Every layer in one run, when each would be shaded whole with no test (one
        draw, no depth/stencil, single-sampled, no quads, early) by a program that
        reads or writes tile memory and that the native tier runs lane-ordered
        (``ExecContext.lane_order``): the layers' fragments are consecutive, in layer
        order, so lane order gives every sample its fragments in primitive order, as
        the layer loop does. Returns the lanes shaded, or None (then the layer loop runs)."""
        if not self.one_draw or self.S != 1 or layers.order is not None or layers.count < 2:
            return None
        st = self.states[int(self.draw[0])]
        # (a program that reads and writes an image, as a spilled render target's blend
        # does, needs the layers one after another: its reads see the earlier layers' writes)
        if st.pipe is None or st.late or not st.ds.trivial or st.quads \
                or not ({"ld_tile", "st_tile"} & st.names) or {"image_load", "image_write"} <= st.names \
                or (st.uniform is not None and "ld_tile" not in st.names):
            return None
        from ..native import ordered_ready
        if not ordered_ready(self.core, self.core.load(st.code_va)) or not self.frags.coverage.all():
            return None
        n = int(layers.offsets[-1] - layers.offsets[0])
        if n != len(self.frags):
            return None
        idx = _iota(n)
        self._run = (idx, 0)
        st.passed += n
        return self._shade(st, idx, self.frags.coverage, late=False, ordered=True)

    def _pick(self, a: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``a[idx]``; a view when ``idx`` is the current layer's run (``_layer``)."""
        run = self._run
        if run is not None and idx is run[0]:
            return a[run[1]:run[1] + len(idx)]
        return a[idx]

    # -- fragment shading: one lane per covered sample
    def _shade(self, st: DrawState, idx: np.ndarray, cover: np.ndarray, late: bool, records=None,
               ordered: bool = False) -> int:
        """Shade fragments ``idx`` on the samples of ``cover``; ``records``: their tile
        records when known (single-sampled); ``ordered``: fragments of several layers,
        shaded lane-ordered (``_ordered_pass``). Returns the lanes shaded."""
        n = self._shade_lanes(st, idx, cover, late, records, ordered)
        st.shaded += n
        return n

    def _shade_lanes(self, st: DrawState, idx: np.ndarray, cover: np.ndarray, late: bool, known,
                     ordered: bool = False) -> int:
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
                broadcast_record(self.tile_buffer, self.rec_f[idx] if known is None else known, *st.uniform)
                return len(idx)
            bits = ((cover[:, None] >> np.arange(S, dtype=np.uint8)) & 1).astype(bool)
            f_local, s = np.nonzero(bits)
            broadcast_record(self.tile_buffer, self.rec_f[idx[f_local]] * S + s, *st.uniform)
            return len(f_local) if st.per_sample else len(idx)      # invocations: samples or pixels
        if S > 1 and not st.per_sample:
            return self._shade_pixels(st, idx, cover, late)
        return self._sample_lanes(st, idx, cover, late, known, ordered)

    def _sample_lanes(self, st: DrawState, idx: np.ndarray, cover: np.ndarray, late: bool, known,
                      ordered: bool = False, pixel_inputs: bool = False, fused=None) -> int:
        """One lane per covered sample of fragments ``idx`` (single-sampled: per
        fragment). ``pixel_inputs``: the lanes are a per-pixel invocation's, run per
        sample because the samples' tile records differ (``_shade_pixels``): each lane
        sees its fragment's whole coverage and centroid. ``fused``: the quads'
        minimal form made already (``native.hsr_quads``; early, single-sampled, no
        special registers; ``idx`` then only counts the real lanes). Returns the lanes
        shaded (helpers excluded): the invocations."""
        S, frags = self.S, self.frags
        direct = not late
        if S == 1:
            f_local = _iota(len(idx))
            f = idx
            if st.quads and fused is None:    # quads, the pick and the records in one C pass (pipeline/native.py)
                # (early tests, no special registers: only what that path reads below)
                fused = quads_single_sample(frags.x, frags.y, frags.tri, f, self.frame.W, self.frame.H,
                                            self.record_of, self.origin, centres=st.uses_iter,
                                            minimal=direct and st.uses_iter and not st.specials)
            if fused is None:
                s = np.zeros(len(idx), np.int32)
                x, y, tri = self._pick(frags.x, f), self._pick(frags.y, f), self._pick(frags.tri, f)
        else:
            bits = ((cover[:, None] >> np.arange(S, dtype=np.uint8)) & 1).astype(bool)
            f_local, s = np.nonzero(bits)
            s = s.astype(np.int32)
            f = idx[f_local]
            x, y, tri = frags.x[f], frags.y[f], frags.tri[f]
        helper = None
        lane_of = None                                  # lane of each (f_local, s) pair
        centres = None                                  # iter's positions, when made with the records
        clamped = None                                  # the records with 0 for -1, when made with them
        if fused is not None:       # (with iter's positions when it reads them, and the clamped records)
            x, y, tri, s, f, helper, lane_of, rec, clamped, centres = fused
        elif st.quads:
            x, y, tri, s, f, helper, lane_of = _quads(x, y, tri, s, f, S, self.frame.W, self.frame.H)
        n = len(tri)
        if fused is not None:
            pass                                        # (the records came with the quads)
        elif helper is None:        # = rec_f[f], into this thread's lane scratch (dead after the call)
            # single-sampled: iter's positions (the pixel centres) come from the same C pass
            centres = lane_array("pos", (2, len(x)), np.float32) if S == 1 and st.uses_iter else None
            rec = native_records_at(self.record_of, x, y, self.origin, lane_array("rec", (len(x),), np.int64),
                                    centres=centres)
            if rec is None:
                rec, centres = _records_numpy(self.record_of, x, y, self.origin), None
        else:       # helper lanes may lie outside the region (or the frame): no record
            (x0, y0), (h, w) = self.origin, self.record_of.shape
            rec = self.record_of[np.clip(y - y0, 0, h - 1), np.clip(x - x0, 0, w - 1)]
            rec = np.where((x >= x0) & (x < x0 + w) & (y >= y0) & (y < y0 + h), rec, -1)
        records = rec * S + s if S > 1 else rec
        if S == 1:
            mask_in = 1
        elif pixel_inputs:
            # (USC_FRAGMENT.post_depth_coverage: the samples that passed the early tests)
            mask_in = (cover[f_local] if st.pipe.post_depth_coverage and not late else frags.coverage[f]).astype(np.uint32)
        else:
            mask_in = (1 << s).astype(np.uint32)
        specials = self._specials(st, x, y, tri, f, s if S > 1 else None, mask_in)
        kw = self._positions(st, x, y, s if S > 1 else None,
                             self._centroids(frags.coverage[f]) if pixel_inputs else None, centres)
        if direct:
            # only helper lanes lack a record (-1): the others' records are in range
            # (helpers' index into the thread's lane scratch: a fresh array costs its page faults)
            tile, tile_index = self.tile_buffer, records if helper is None else clamped if clamped is not None else \
                np.maximum(records, 0, out=lane_array("tile_index", records.shape, records.dtype))
        else:
            tile, tile_index = self.tile_buffer[np.maximum(records, 0)], np.arange(n, dtype=np.int64)
        if st.uses_iter or "ldcf" in st.names:
            # the PDM's coefficient registers: every setup row's planes and each lane's
            # row (no per-lane copy of the planes)
            kw["cf_planes"] = self.tvb.planes
            kw["primitive_index"] = np.asarray(tri).astype(np.int32, copy=False)
        ctx = ExecContext(lanes=n, quads=st.quads, helper=helper, specials=specials,
                          tile_buffer=tile, tile_index=tile_index, lane_order=ordered,
                          **kw, **st.pipe.context_fields())
        run_program(self.core, st.pipe, ctx)
        if direct:
            return len(f_local)
        alive = ~ctx.discarded
        if st.late and S > 1 and st.multisample:
            # the program's sample mask acts on multisampled targets with multisample
            # rasterization on only (GL 4.6 section 17.3.1, as the ISP's other masks)
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
            passed = self._test(st, idx, coverage=cov2, z=z, ref=_exported_refs(ctx, pair, f_local, len(idx)))
            st.passed += R.samples_passed(passed)
            alive_pairs = ((passed[f_local] >> s_pair) & 1).astype(bool)
            alive = np.zeros(n, bool)
            alive[pair[alive_pairs]] = True
        w = np.flatnonzero(alive & (records >= 0))
        self.tile_buffer[records[w]] = tile[w]
        return len(f_local)

    # -- inputs of a set of lanes
    def _specials(self, st: DrawState, x, y, tri, f, s, mask_in) -> dict:
        """The special registers the program reads, per lane: ``f`` the lanes'
        fragments, ``s`` their samples (None: single-sampled), ``mask_in`` the
        coverage a lane reports (``coverage_mask``, gl_SampleMaskIn)."""
        specials = {}
        for name in st.specials:
            if name == "pixel_x":
                specials[name] = x.view(np.uint32)
            elif name == "pixel_y":
                specials[name] = y.view(np.uint32)
            elif name == "sample_id":
                specials[name] = s.view(np.uint32) if s is not None else 0
            elif name == "coverage_mask":
                # PPP_RASTER.multisample off: single-sample rasterization reports its one
                # sample (gl_SampleMaskIn 1, as Mesa's drivers give), whatever it covers
                specials[name] = mask_in if st.multisample else 1
            elif name in ("sample_position_x", "sample_position_y"):
                axis = 0 if name == "sample_position_x" else 1
                pos = self.spos[s, axis].astype(np.float32) if s is not None else np.float32(0.5)
                specials[name] = np.asarray(pos, np.float32).view(np.uint32)
            elif name == "front_facing":
                specials[name] = self.front[f].astype(np.uint32)
            elif name in ("zs_depth", "zs_stencil"):
                # the ISP's buffer at the lane's sample before its fragment's (late) tests: the
                # earlier layers' results (a program reading it never gets early tests)
                buf = self.frame.depth if name == "zs_depth" else self.frame.stencil
                if buf is None:
                    specials[name] = 0          # no such attachment: undefined, as the extension says
                else:
                    v = buf[y.astype(np.intp), x.astype(np.intp), 0 if s is None else s.astype(np.intp)]
                    specials[name] = v.view(np.uint32) if name == "zs_depth" else v.astype(np.uint32)
            elif name == "primitive_id":
                # the primitive's index in its instance: GL's counter restarts with each instance
                per_instance = _primitives_per_instance(self.tvb)[self.tvb.row_draw[tri]]
                specials[name] = (self.tvb.setup.prim[tri] % per_instance).astype(np.uint32)
        return specials

    def _positions(self, st: DrawState, x, y, s, centroid_offsets, centres=None) -> dict:
        """``iter``'s positions: the pixel centre; at ``.sample`` the lane's sample
        ``s`` (None: single-sampled, the centre); at ``.centroid`` the pixel's
        ``centroid_offsets`` float32[2, lanes] from its corner (None: the lane's
        sample when shading per sample, as GL's sample shading ignores
        ``centroid``, else the centre). ``centres``: the pixel centres when the
        records' C pass made them (the same values)."""
        kw = {}
        if not st.uses_iter:
            return kw
        if centres is not None:         # (the records' C pass computed them, as below)
            kw["position_px"] = centres
        else:
            pos = kw["position_px"] = lane_array("pos", (2, len(x)), np.float32)     # (dead after the call)
            np.add(x, np.float32(0.5), out=pos[0], dtype=np.float32)   # x converts exactly, then + 0.5
            np.add(y, np.float32(0.5), out=pos[1], dtype=np.float32)
        kw["centroid_position_px"] = kw["position_px"]
        if centroid_offsets is not None:
            kw["centroid_position_px"] = np.stack((x.astype(np.float32) + centroid_offsets[0],
                                                   y.astype(np.float32) + centroid_offsets[1]))
        if self.S > 1:
            if s is not None:
                kw["sample_position_px"] = np.stack((x.astype(np.float32) + self.spos[s, 0],
                                                     y.astype(np.float32) + self.spos[s, 1]))
                if centroid_offsets is None:
                    kw["centroid_position_px"] = kw["sample_position_px"]
            kw["sample_offsets_px"] = self.spos     # iter .at_sample (interpolateAtSample)
        return kw

    def _centroids(self, coverage: np.ndarray) -> np.ndarray:
        """float32[2, n]: where a pixel of rasteriser ``coverage`` evaluates
        ``.centroid`` inputs, from its corner: the mean of its covered samples'
        positions (inside the primitive, which is convex, and inside the pixel;
        the centre when every sample is covered)."""
        return self.centroid_table[coverage].T

    # -- per-pixel shading on a multisampled target
    def _shade_pixels(self, st: DrawState, idx: np.ndarray, cover: np.ndarray, late: bool) -> int:
        """Shade fragments ``idx`` once per pixel on the samples of ``cover``: one
        lane per fragment reads and writes a copy of its lowest covered sample's
        tile record, written back to every covered sample (that passes, with late
        tests). Exact when every covered sample's record is the same (what a
        per-sample lane would read), or when the program reads no tile memory and
        writes fixed fields whole (only those bytes are written back); pixels whose
        covered records differ in a program that reads them (blending at an edge
        drawn before) run one lane per sample with the pixel's inputs, as the
        per-sample blending of a per-pixel shader does (their side effects then
        happen per sample, and so they count). Returns the invocations."""
        S = self.S
        first = _LOWEST_BIT[cover].astype(np.int64)
        pixel = self.rec_f[idx]
        columns = None
        if "ld_tile" not in st.names and st.tile_writes is not None:
            same = None                                 # reads nothing: any sample's record will do
            columns = _record_columns(st.tile_writes, self.tile_buffer.shape[1])
        else:
            recs = self.tile_buffer[pixel[:, None] * S + np.arange(S)]            # (n, S, record_B)
            ref = recs[np.arange(len(idx)), first]
            equal = (recs == ref[:, None, :]).all(axis=2)
            covered = ((cover[:, None] >> np.arange(S, dtype=np.uint8)) & 1).astype(bool)
            same = (equal | ~covered).all(axis=1)
        invocations = 0
        if same is not None and not same.all():
            mixed = ~same
            invocations += self._sample_lanes(st, idx[mixed], cover[mixed], late, None, pixel_inputs=True)
            idx, cover, first, pixel = idx[same], cover[same], first[same], pixel[same]
        if len(idx):
            invocations += self._pixel_lanes(st, idx, cover, first, pixel, late, columns)
        return invocations

    def _pixel_lanes(self, st: DrawState, idx, cover, first, pixel, late: bool, columns) -> int:
        """One lane per fragment ``idx``: see ``_shade_pixels``. ``first``: the
        sample whose record the lane reads; ``pixel``: the fragments' pixel
        records; ``columns``: the record bytes to write back (None: all)."""
        S, frags = self.S, self.frags
        n_f = len(idx)
        x, y, tri = frags.x[idx], frags.y[idx], frags.tri[idx]
        local = _iota(n_f)
        helper = None
        lane_of = local                                 # the lane of each fragment
        if st.quads:
            x, y, tri, _s, local, helper, lane_of = _quads(x, y, tri, np.zeros(n_f, np.int32), local, 1,
                                                           self.frame.W, self.frame.H)
        n = len(x)
        if helper is None:
            rec = pixel
        else:       # helper lanes may lie outside the region (or the frame): no record
            (x0, y0), (h, w) = self.origin, self.record_of.shape
            rec = self.record_of[np.clip(y - y0, 0, h - 1), np.clip(x - x0, 0, w - 1)]
            rec = np.where((x >= x0) & (x < x0 + w) & (y >= y0) & (y < y0 + h), rec, -1)
        s = first[local].astype(np.int32)
        records = np.where(rec >= 0, rec * S + s, -1)
        f = idx[local]
        coverage = frags.coverage[f]
        mask_in = cover[local] if st.pipe.post_depth_coverage and not late else coverage
        specials = self._specials(st, x, y, tri, f, s, mask_in.astype(np.uint32))
        kw = self._positions(st, x, y, s, self._centroids(coverage))
        tile = self.tile_buffer[np.maximum(records, 0)]
        if st.uses_iter or "ldcf" in st.names:
            kw["cf_planes"] = self.tvb.planes
            kw["primitive_index"] = np.asarray(tri).astype(np.int32, copy=False)
        ctx = ExecContext(lanes=n, quads=st.quads, helper=helper, specials=specials,
                          tile_buffer=tile, tile_index=np.arange(n, dtype=np.int64),
                          **kw, **st.pipe.context_fields())
        run_program(self.core, st.pipe, ctx)
        keep = cover.copy()                             # the samples each fragment's lane writes
        keep[ctx.discarded[lane_of]] = 0
        if st.late and st.multisample:
            keep &= ctx.sample_mask[lane_of].astype(np.uint8)
        if late:
            z = frags.z[idx].copy()
            written = ctx.depth_written[lane_of]
            if written.any():                           # gl_FragDepth: every sample of the pixel
                z[written] = ctx.depth[lane_of][written][:, None]
            keep = self._test(st, idx, coverage=keep, z=z, ref=_exported_refs(ctx, lane_of, np.arange(n_f), n_f))
            st.passed += R.samples_passed(keep)
        bits = ((keep[:, None] >> np.arange(S, dtype=np.uint8)) & 1).astype(bool)
        f_local, sample = np.nonzero(bits)
        _copy_records(self.tile_buffer, pixel[f_local] * S + sample, tile, lane_of[f_local], columns)
        return n_f


def _exported_refs(ctx, lanes: np.ndarray, frag: np.ndarray, n: int) -> np.ndarray | None:
    """The stencil reference each of ``n`` fragments exported (``zs_emit`` with ``s``;
    lane ``lanes[i]`` shades fragment ``frag[i]``), -1 where none did; None when no lane
    wrote one."""
    written = ctx.stencil_written[lanes]
    if not written.any():
        return None
    ref = np.full(n, -1, np.int64)
    ref[frag[written]] = ctx.stencil[lanes][written]
    return ref


#: The index of the lowest set bit of every 8-bit coverage mask (0 for none).
_LOWEST_BIT = np.array([(m & -m).bit_length() - 1 if m else 0 for m in range(256)], np.uint8)


def _copy_records(dst: np.ndarray, dst_rows: np.ndarray, src: np.ndarray, src_rows: np.ndarray,
                  columns: np.ndarray | None) -> None:
    """``dst[dst_rows] = src[src_rows]``, only the byte ``columns`` when given, as
    32-bit words when the records (and columns) are whole words: a row of uint8
    moves element by element, a word at once."""
    record_B = dst.shape[1]
    if record_B % 4 == 0 and dst.flags.c_contiguous and src.flags.c_contiguous:
        words = None
        if columns is not None:
            mask = np.zeros(record_B, bool)
            mask[columns] = True
            per_word = mask.reshape(-1, 4)
            if (per_word.all(axis=1) | ~per_word.any(axis=1)).all():
                words = np.flatnonzero(per_word.all(axis=1))
        if columns is None or words is not None:
            d, s_ = dst.view(np.uint32), src.view(np.uint32)
            if columns is not None and len(words) < d.shape[1]:
                d[dst_rows[:, None], words] = s_[src_rows[:, None], words]
            elif d.shape[1] == 1:
                d.reshape(-1)[dst_rows] = s_.reshape(-1)[src_rows]
            else:
                d[dst_rows] = s_[src_rows]
            return
    if columns is None:
        dst[dst_rows] = src[src_rows]
    else:
        dst[dst_rows[:, None], columns] = src[src_rows[:, None], columns]


def _record_columns(writes: frozenset, record_B: int) -> np.ndarray | None:
    """The record bytes of the tile fields ``writes`` (``_tile_writes``); None
    when they are the whole record."""
    covered = np.zeros(record_B, bool)
    for offset, fmt, count in writes:
        covered[offset:offset + format_bytes(fmt, count)] = True
    return None if covered.all() else np.flatnonzero(covered)


#: Keys spanning at most this many times their count are ranked with a table, not a sort.
DENSE_RANK_SPAN = 4


def _dense_ranks(key: np.ndarray) -> tuple[np.ndarray, int]:
    """(rank of each key among the distinct keys in increasing order, how many
    distinct keys): ``np.unique(key, return_inverse=True)``'s inverse and count.
    Keys in a range at most ``DENSE_RANK_SPAN`` times their count (a few big
    primitives' quads) are ranked through a presence table in linear time."""
    if len(key) == 0:
        return np.zeros(0, np.intp), 0
    lo, hi = int(key.min()), int(key.max())
    if hi - lo + 1 > DENSE_RANK_SPAN * len(key):
        distinct, inverse = np.unique(key, return_inverse=True)
        return inverse.reshape(-1), len(distinct)
    offset = key - lo
    present = np.zeros(hi - lo + 1, bool)
    present[offset] = True
    rank = np.cumsum(present, dtype=np.intp)
    return rank[offset] - 1, int(rank[-1])


def _quads(x, y, tri, s, f, S, W, H):
    """Complete 2x2 quads of one primitive (and sample) with helper lanes.
    Returns the lane arrays, the helper mask and the lane of every input pair."""
    qw = (W + 1) // 2 + 1
    qh = (H + 1) // 2 + 1
    key = ((tri.astype(np.int64) * S + s) * qh + (y >> 1)) * qw + (x >> 1)
    quad, nq = _dense_ranks(key)
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
    FF[real] = f            # a real lane's own fragment (helpers: one of their quad's)
    helper = np.ones(n, bool)
    helper[real] = False
    return X, Y, TRI, SS, FF, helper, real
