"""PPP: primitive assembly, clipping, culling, viewport, setup, and the
coefficient planes of every primitive (the PDM's inputs), for one draw.

Vertex outputs (the notes' order): position (4 words), 32-bit smooth, flat and
linear varyings, 16-bit smooth, flat and linear pairs (``PPP_VARYING_COUNTS``
words each), then the point size (``PPP_OUTPUT_SELECT.point_size``), the clip
distances (``clip_distances`` mask, one word per set bit) and the cull distances
(``cull_distances``: primitives with one of them negative at all their vertices are
culled before clipping). Remapped slots: slot
0 is W (1/w, screen-linear), slot 1 is window Z if ``frag_coord_z``, then one
slot per user varying word in output order; slots below the binding header's
``slots_32`` are 32-bit, the others packed pairs of 16-bit values.

Coefficient registers: each ``CF_BINDING`` fills ``components`` registers from
``base_cf``: a plane (a, b, c) per primitive with value ``a*x + b*y + c`` at
window position (x, y). Flat: (0, 0, provoking vertex value). Linear: the
screen-linear plane of the value. Perspective: the plane of value/w; the
fragment shader divides by the W slot's plane (``iter.persp cfN, cfW``). On
16-bit slots component i is half (i % 2) of slot base_slot + i // 2. Sources
FRAGCOORD_Z (the depth plane, polygon offset included), POINT_COORD (s, t of
point sprites), PRIMITIVE_ID (flat, the draw's primitive number) and
LINE_STIPPLE ignore the slots.

LINE_STIPPLE is GL's line stipple counter (GL 2.1 section 3.5.2) as a plane, for
a fragment stage that discards the fragments the pattern leaves out: on a line,
``start + d``, d the distance in pixels along the line's major axis from its
first vertex (the unclipped one: clipping does not move the pattern) and start
the sum of the rounded major-axis lengths of the segments before it in its
strip or loop (0 for independent lines and at each restart); -1 on triangles
and points (polygon-mode edges included: they have no counter here).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from uapi import packets as P

from .. import raster as R
from .vdm import Draw, VertexBatch

__all__ = ["DrawGeometry", "group_key", "process_draw", "process_draws", "TOPOLOGY", "viewport_rect"]

TOPOLOGY = {P.Primitive.POINTS: "points", P.Primitive.LINES: "lines", P.Primitive.LINE_STRIP: "line_strip",
            P.Primitive.LINE_LOOP: "line_loop", P.Primitive.TRIANGLES: "triangles",
            P.Primitive.TRIANGLE_STRIP: "triangle_strip", P.Primitive.TRIANGLE_FAN: "triangle_fan"}
VERTS = {"points": 1, "lines": 2, "line_strip": 2, "line_loop": 2, "triangles": 3, "triangle_strip": 3,
         "triangle_fan": 3}


@dataclass
class DrawGeometry:
    """What the tiler keeps of one draw: setup rows, their planes and the state."""

    draw: Draw
    setup: R.TriangleSetup | None     # None: nothing to rasterise
    planes: np.ndarray                # float32 (rows, n_cf, 3)
    primitives: int                   # primitives assembled (primitives generated)
    rect: tuple[int, int, int, int]   # viewport ∩ scissor ∩ framebuffer, pixels


def _f32(words: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(words, np.uint32).view(np.float32).astype(np.float64)


def viewport_rect(ppp: dict, width_px: int, height_px: int) -> tuple[int, int, int, int]:
    vp, raster, sc = ppp.get("viewport"), ppp.get("raster"), ppp.get("scissor")
    return _memo("viewport_rect", (vp, raster, sc), (width_px, height_px),
                 lambda: _viewport_rect(vp, raster, sc, width_px, height_px))


def _viewport_rect(vp, raster, sc, width_px: int, height_px: int) -> tuple[int, int, int, int]:
    rect = [(0, 0, width_px, height_px)]
    if vp is not None:
        sx, sy = abs(vp.scale_x), abs(vp.scale_y)
        rect.append((int(np.floor(vp.translate_x - sx)), int(np.floor(vp.translate_y - sy)),
                     int(np.ceil(vp.translate_x + sx)), int(np.ceil(vp.translate_y + sy))))
    if raster is not None and raster.scissor_enable and sc is not None:
        rect.append((sc.min_x_px, sc.min_y_px, sc.max_x_px, sc.max_y_px))
    return R.intersect_rects(*rect)


_MEMO: dict = {}
_MEMO_MAX = 4096


def _memo(kind: str, records: tuple, extra, make):
    """``make()`` remembered for these decoded records (by identity: ``decoded``
    shares the records of equal bytes, so a draw after draw finds them; the entry
    holds them, so an identity is never reused while it is there) and ``extra``."""
    key = (kind, *map(id, records), extra)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit[1]
    value = make()
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    _MEMO[key] = (records, value)
    return value


def _window(position: np.ndarray, vp) -> np.ndarray:
    """(..., 4) clip -> x_px, y_px, z, 1/w (window = translate + scale * ndc). A vertex
    at w = 0 the clip test kept (x = y = z = 0) has no window position: inf/NaN here,
    without a warning, which ``_representable`` drops."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return _window_of(position, vp)


def _window_of(position: np.ndarray, vp) -> np.ndarray:
    inv_w = 1.0 / position[..., 3]
    out = np.empty(position.shape, np.float64)
    if vp is None:
        out[..., 0], out[..., 1], out[..., 2] = position[..., 0] * inv_w, position[..., 1] * inv_w, position[..., 2] * inv_w
    else:
        out[..., 0] = vp.translate_x + vp.scale_x * position[..., 0] * inv_w
        out[..., 1] = vp.translate_y + vp.scale_y * position[..., 1] * inv_w
        out[..., 2] = vp.translate_z + vp.scale_z * position[..., 2] * inv_w
    out[..., 3] = inv_w
    return out


def _clip_window(out: np.ndarray, position, prims: np.ndarray, clip, vp, opts: dict):
    """(window corners, ClippedPrims) of triangles: clipping, the viewport transform and
    ``_representable``, in one C pass when no triangle is clipped or dropped (no user
    clip distances). ``position``: the (V, 4) float64 positions, or a function giving
    them (the general path needs them)."""
    if clip is None:
        fast = R.unclipped_window(out[0:4], prims, vp, R.MAX_WINDOW_COORD_PX, **opts)
        if fast is not None:
            clipped, window = fast
            return window, clipped
    position = position() if callable(position) else position
    clipped = R.clip_triangles(position, prims, clip, **opts)
    return _representable(_window(clipped.position, vp), clipped)


def _representable(window: np.ndarray, clipped=None):
    """Drop the primitives a corner of which lands outside the rasteriser's
    fixed-point range (or on NaN): a viewport so large, or so broken, that the
    guard band no longer bounds window coordinates. ``window`` (N, k, 4) or (N, 4)
    for points; returns (window, clipped or the kept indices)."""
    ok = (np.abs(window[..., :2]) < R.MAX_WINDOW_COORD_PX).reshape(len(window), -1).all(axis=1) \
        if len(window) else np.ones(0, bool)           # (NaN compares False: dropped)
    if ok.all():
        return window, clipped if clipped is not None else None
    keep = np.flatnonzero(ok)
    if clipped is None:
        return window[keep], keep
    return window[keep], R.ClippedPrims(clipped.prim[keep], clipped.weights[keep], clipped.position[keep])


def _cull_words(ppp: dict) -> list[int]:
    """The cull-distance words: right after the clip distances."""
    sel, vc = ppp.get("output_select"), ppp.get("varying_counts")
    return _memo("cull_words", (sel, vc), None, lambda: _cull_words_of(ppp))


def _cull_words_of(ppp: dict) -> list[int]:
    sel = ppp.get("output_select")
    ncull = bin(sel.cull_distances).count("1") if sel is not None else 0
    first_user, n_user, psize, clip_words = _layout(ppp)
    at = first_user + n_user + (psize is not None) + len(clip_words)
    return list(range(at, at + ncull))


def _cull(prims: np.ndarray, distances: np.ndarray) -> np.ndarray:
    """Indices of the primitives kept by the cull distances (ARB_cull_distance; GL 4.6
    section 13.7.1): a primitive is culled when some cull distance is negative at every
    one of its vertices. ``distances``: (V, C) float32."""
    negative = distances[prims] < 0                           # (P, k, C)
    return np.flatnonzero(~negative.all(axis=1).any(axis=1))


def _layout(ppp: dict):
    """(first user output word, user words, point size word or None, clip words)."""
    sel, vc = ppp.get("output_select"), ppp.get("varying_counts")
    return _memo("layout", (sel, vc), None, lambda: _layout_of(sel, vc))


def _layout_of(sel, vc):
    n_user = 0
    if vc is not None and (sel is None or sel.varyings):
        n_user = vc.smooth_32 + vc.flat_32 + vc.linear_32 + vc.smooth_16 + vc.flat_16 + vc.linear_16
    at = 4 + n_user
    psize = None
    if sel is not None and sel.point_size:
        psize, at = at, at + 1
    nclip = bin(sel.clip_distances).count("1") if sel is not None else 0
    return 4, n_user, psize, list(range(at, at + nclip))


def _plane(xw: np.ndarray, yw: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Planes (T, 3) through (x_c, y_c, v_c) of the three corners (float64)."""
    dx1, dx2 = xw[:, 1] - xw[:, 0], xw[:, 2] - xw[:, 0]
    dy1, dy2 = yw[:, 1] - yw[:, 0], yw[:, 2] - yw[:, 0]
    dv1, dv2 = v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]
    det = dx1 * dy2 - dx2 * dy1
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(det != 0, (dv1 * dy2 - dv2 * dy1) / det, 0.0)
        b = np.where(det != 0, (dx1 * dv2 - dx2 * dv1) / det, 0.0)
    c = v[:, 0] - a * xw[:, 0] - b * yw[:, 0]
    return np.stack((a, b, c), axis=1)


def cf_bindings(memory, ppp: dict):
    """(CF_BINDING_HEADER, [CF_BINDING...]) of the draw's fragment shader, or (None, [])."""
    fs = ppp.get("fragment_shader")
    if fs is None or not fs.cf_binding_count and not fs.cf_bindings:
        return None, []
    from .usc_words import decoded
    raw = memory.read(fs.cf_bindings, 4 * (1 + fs.cf_binding_count), "PPP").tobytes()
    header = decoded(P.CF_BINDING_HEADER, raw[:4])
    return header, [decoded(P.CF_BINDING, raw[i:i + 4]) for i in range(4, len(raw), 4)]


def draw_cf_bindings(memory, draw: Draw):
    """``cf_bindings`` of the draw's state, read once per draw (the vertex half asks
    for them several times: the coefficient count, grouping, the planes)."""
    if draw.cf_bindings is None:
        draw.cf_bindings = cf_bindings(memory, draw.ppp)
    return draw.cf_bindings


def process_draw(memory, draw: Draw, batch: VertexBatch, width_px: int, height_px: int,
                 depth_format: str, n_cf: int) -> DrawGeometry:
    """The draw's primitives through the PPP (module docstring). A small draw whose
    inputs are a recent draw's (the same vertex outputs and stream, PPP state and
    coefficient bindings as decoded records, target size, depth format: a frame
    drawn again, a quad drawn again with other uniforms) takes that draw's rows and
    planes, read-only (``SAME_GEOMETRY``)."""
    key = _geometry_key(memory, draw, batch, width_px, height_px, depth_format, n_cf)
    if key is not None:
        hit = _GEOMETRY.get(key[0])
        if hit is not None:
            setup, planes, primitives, rect = hit[1]
            return DrawGeometry(draw, setup, planes, primitives, rect)
    g = _process_draw(memory, draw, batch, width_px, height_px, depth_format, n_cf)
    if key is not None:
        if g.setup is not None:
            for a in vars(g.setup).values():
                if isinstance(a, np.ndarray):
                    a.flags.writeable = False
        g.planes.flags.writeable = False
        if len(_GEOMETRY) >= SAME_GEOMETRY_DRAWS:
            try:                        # the oldest goes (another vertex thread may take it first)
                _GEOMETRY.pop(next(iter(_GEOMETRY)), None)
            except (RuntimeError, StopIteration):
                pass
        _GEOMETRY[key[0]] = (key[1], (g.setup, g.planes, g.primitives, g.rect))
    return g


#: How many small draws' geometry ``process_draw`` remembers (0: none).
SAME_GEOMETRY_DRAWS = 32
#: The most vertex lanes and output bytes of a draw whose geometry is remembered.
SAME_GEOMETRY_LANES = 64
_GEOMETRY: dict = {}


def _geometry_key(memory, draw: Draw, batch: VertexBatch, width_px: int, height_px: int, depth_format: str,
                  n_cf: int):
    """(key, records it names by identity) of what ``process_draw`` computes from
    (the fragment shader's words only through its coefficient bindings), or None
    for a draw too big to remember. The records are ``decoded``'s shared
    ones (equal bytes, same record); the entry holds them, so no identity is reused
    while it is there."""
    if not SAME_GEOMETRY_DRAWS or batch.lanes > SAME_GEOMETRY_LANES or batch.lanes == 0:
        return None
    header, bindings = draw_cf_bindings(memory, draw)
    # (the fragment shader's words matter through its bindings only: not its pipeline)
    names = tuple(k for k in draw.ppp if k != "fragment_shader")
    records = (draw.record, header, *bindings, *(draw.ppp[k] for k in names))
    out = batch.outputs
    key = (width_px, height_px, depth_format, n_cf, draw.first_primitive, names, tuple(map(id, records)),
           out.shape, out.dtype.char, out.tobytes(), batch.stream.tobytes())
    return key, records


def _process_draw(memory, draw: Draw, batch: VertexBatch, width_px: int, height_px: int,
                  depth_format: str, n_cf: int) -> DrawGeometry:
    ppp = draw.ppp
    raster = _raster(ppp)
    vp = ppp.get("viewport")
    topo = TOPOLOGY.get(draw.record.primitive)
    if topo is None:
        raise ValueError(f"VDM_INDEX_LIST at 0x{draw.va:x}: unknown primitive {draw.record.primitive}")
    provoking_last = raster.provoking_vertex == P.ProvokingVertex.LAST
    empty = DrawGeometry(draw, None, np.zeros((0, n_cf, 3), np.float32), 0, (0, 0, 0, 0))
    if batch.lanes == 0:
        return empty
    prims = _assemble(topo, batch.stream, provoking_last)
    empty.primitives = len(prims)
    if raster.rasterizer_discard or len(prims) == 0:
        return empty
    out = batch.outputs
    cull_words = _cull_words(ppp)
    kept = None                                   # draw primitive number of each kept primitive
    if cull_words:
        kept = _cull(prims, _f32(out[cull_words].T))
        prims = prims[kept]
        if len(prims) == 0:
            return empty
    k = VERTS[topo]
    filled = k == 3 and raster.polygon_mode_front == P.PolygonMode.FILL \
        and raster.polygon_mode_back == P.PolygonMode.FILL
    # (filled triangles read the positions only when some triangle is clipped)
    position = (lambda: _f32(out[0:4].T)) if filled else _f32(out[0:4].T)
    first_user, n_user, psize_word, clip_words = _layout(ppp)
    clip = _f32(out[clip_words].T) if clip_words else None
    opts = dict(clip_z=bool(raster.depth_clip) and not raster.depth_clamp,
                zero_to_one_depth=bool(raster.clip_zero_to_one))
    offset = None
    if raster.depth_bias_enable and ppp.get("depth_bias") is not None:
        db = ppp["depth_bias"]
        offset = (db.slope_scale, db.constant, db.clamp)
        if raster.depth_bias_fixed24:       # r of the 24-bit buffer the float storage stands for:
            depth_format = "unorm24"        # two of its 2^-24 steps (PPP_RASTER's documentation)
            offset = (db.slope_scale, 2.0 * db.constant, db.clamp)
    if k == 3 and (raster.polygon_mode_front != P.PolygonMode.FILL or
                   raster.polygon_mode_back != P.PolygonMode.FILL):
        clipped = R.clip_triangles(position, prims, clip, **opts)
        window, clipped = _representable(_window(clipped.position, vp), clipped)
        setup, sub_tri, weights = _polygon_modes(window, clipped.weights, raster, offset, depth_format)
        src_prim = clipped.prim[sub_tri]
    elif k == 3:
        window, clipped = _clip_window(out, position, prims, clip, vp, opts)
        setup = R.setup_triangles(window, prim=np.arange(len(clipped.prim)),
                                  front_face="ccw" if raster.front_ccw else "cw",
                                  cull=("front_and_back" if raster.cull_front and raster.cull_back else
                                        "front" if raster.cull_front else "back" if raster.cull_back else "none"),
                                  offset=offset, depth_format=depth_format)
        src_prim = clipped.prim[setup.prim]
        # nothing clipped: the weights are the identity (a broadcast view), corners are vertices
        weights = None if clipped.weights.strides[0] == 0 else clipped.weights[setup.prim]   # (T, 3, 3)
    elif k == 2:
        clipped = R.clip_lines(position, prims, clip, **opts)
        window, clipped = _representable(_window(clipped.position, vp), clipped)
        setup = R.setup_lines(window, raster.line_width_px, prim=np.arange(len(clipped.prim)), offset=offset,
                              depth_format=depth_format, smooth=bool(raster.line_smooth))
        src_prim = clipped.prim[setup.prim]
        weights = np.einsum("tcl,tlj->tcj", setup.corner_weights, clipped.weights[setup.prim])
        def stipple(prims=prims):
            with np.errstate(divide="ignore", invalid="ignore"):
                return _stipple_counters(_window(position, vp), prims, independent=topo == "lines")
    else:
        keep = np.flatnonzero(R.cull_points(position[prims[:, 0]], None if clip is None else clip[prims[:, 0]],
                                            **opts))
        window, representable = _representable(_window(position[prims[keep, 0]], vp))
        if representable is not None:         # (not `kept`: that maps culled primitives back)
            keep = keep[representable]
        size = raster.point_size_px
        if raster.program_point_size and psize_word is not None:
            size = np.maximum(_f32(out[psize_word])[prims[keep, 0]], 1.0)
        setup = R.setup_points(window, size, prim=np.arange(len(keep)), offset=offset, depth_format=depth_format,
                               sprite_origin_lower_left=bool(raster.point_sprite_lower_left))
        src_prim = keep[setup.prim]
        weights = setup.corner_weights                                # (T, 3, 1)
    rect = viewport_rect(ppp, width_px, height_px)
    prim_id = (src_prim if kept is None else kept[src_prim]) + draw.first_primitive    # (parts of a draw)
    planes = _planes(memory, draw, out, prims, src_prim, weights, setup, first_user, n_cf,
                     provoking=(k - 1) if provoking_last else 0, prim_id=prim_id,
                     stipple=stipple if k == 2 else None)
    setup = _strip(setup, prim_id)
    return DrawGeometry(draw, setup, planes, empty.primitives, rect)


def _assemble(topo: str, stream: np.ndarray, provoking_last: bool) -> np.ndarray:
    """``R.assemble`` of a VDM lane stream (-1: restart), read-only; remembered for
    short streams (a small draw's stream, e.g. a quad's 0 1 2 3, comes back draw
    after draw)."""
    if len(stream) > _ASSEMBLED_MAX_STREAM:
        return R.assemble(topo, indices=stream, restart_index=-1, provoking_last=provoking_last)
    key = (topo, provoking_last, stream.dtype.char, stream.tobytes())
    prims = _ASSEMBLED.get(key)
    if prims is None:
        prims = R.assemble(topo, indices=stream, restart_index=-1, provoking_last=provoking_last)
        prims.flags.writeable = False
        if len(_ASSEMBLED) >= _MEMO_MAX:
            _ASSEMBLED.clear()
        _ASSEMBLED[key] = prims
    return prims


_ASSEMBLED: dict = {}
_ASSEMBLED_MAX_STREAM = 64


#: Draws with at most this many vertex lanes each may be set up together (``process_draws``).
GROUP_LANES = 256
_DEFAULT_RASTER: list = []


def _raster(ppp: dict):
    """The draw's PPP_RASTER, or the packet's defaults (decoded once)."""
    raster = ppp.get("raster")
    if raster is None:
        if not _DEFAULT_RASTER:
            _DEFAULT_RASTER.append(P.PPP_RASTER.unpack(P.pack("PPP_RASTER")))
        raster = _DEFAULT_RASTER[0]
    return raster


def group_key(memory, draw: Draw, batch: VertexBatch):
    """What ``process_draws`` needs equal across a group of draws: their PPP state
    but the fragment shader's words (its coefficient bindings count, by their
    contents), the topology and the vertex outputs' rows; None for a draw that is set up alone: a
    big one, or one whose set-up depends on more than its triangles (polygon modes,
    cull distances, rasterizer discard, lines and points)."""
    if batch.lanes == 0 or batch.lanes > GROUP_LANES:
        return None
    topo = TOPOLOGY.get(draw.record.primitive)
    if topo is None or VERTS[topo] != 3:
        return None
    ppp = draw.ppp
    raster = _raster(ppp)
    if raster.rasterizer_discard or raster.polygon_mode_front != P.PolygonMode.FILL \
            or raster.polygon_mode_back != P.PolygonMode.FILL or _cull_words(ppp):
        return None
    state = tuple(sorted(((k, v) for k, v in ppp.items() if k != "fragment_shader"), key=lambda kv: kv[0]))
    header, bindings = draw_cf_bindings(memory, draw)
    return _Key((topo, (header, *bindings), batch.outputs.shape[0], state))


class _Key:
    """A group key compared by value (the PPP records compare by their fields)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other) -> bool:
        return isinstance(other, _Key) and _same_state(self.value, other.value)


def _same_state(a, b) -> bool:
    (ta, ca, na, sa), (tb, cb, nb, sb) = a, b
    return ta == tb and len(ca) == len(cb) and all(x is y or x == y for x, y in zip(ca, cb)) and na == nb \
        and len(sa) == len(sb) and all(
        ka == kb and (va is vb or va == vb) for (ka, va), (kb, vb) in zip(sa, sb))


def process_draws(memory, items: list, width_px: int, height_px: int, depth_format: str,
                  n_cf: int) -> list[DrawGeometry]:
    """``[process_draw(memory, d, batch, ...) for d, batch in items]`` for draws of one
    ``group_key``, with the same results: the draws' streams are assembled as one
    (a restart marker ends each draw's runs, so each run is its own, as alone), and
    clipping, the viewport, set-up and the coefficient planes, all per primitive, run
    once over every draw's triangles, which are then split by draw in order. A group
    in which some triangle is clipped or dropped as unrepresentable is set up draw by
    draw (there the weights and corner values take the general path)."""
    if len(items) == 1:
        d, batch = items[0]
        return [process_draw(memory, d, batch, width_px, height_px, depth_format, n_cf)]
    d0 = items[0][0]
    ppp = d0.ppp
    raster = _raster(ppp)
    vp = ppp.get("viewport")
    topo = TOPOLOGY[d0.record.primitive]
    provoking_last = raster.provoking_vertex == P.ProvokingVertex.LAST
    lanes = np.array([b.lanes for _, b in items], np.int64)
    lane0 = np.concatenate(([0], np.cumsum(lanes)[:-1]))
    streams = [np.where(b.stream >= 0, b.stream + off, -1) for (_, b), off in zip(items, lane0)]
    prims = _assemble(topo, np.concatenate(streams), provoking_last)
    owner = np.searchsorted(lane0, prims[:, 0], side="right") - 1          # each primitive's draw
    counts = np.bincount(owner, minlength=len(items))
    out = np.concatenate([b.outputs for _, b in items], axis=1)
    position = lambda: _f32(out[0:4].T)                 # (read only when some triangle is clipped)
    first_user, n_user, psize_word, clip_words = _layout(ppp)
    clip = _f32(out[clip_words].T) if clip_words else None
    opts = dict(clip_z=bool(raster.depth_clip) and not raster.depth_clamp,
                zero_to_one_depth=bool(raster.clip_zero_to_one))
    offset, fmt = None, depth_format
    if raster.depth_bias_enable and ppp.get("depth_bias") is not None:
        db = ppp["depth_bias"]
        offset = (db.slope_scale, db.constant, db.clamp)
        if raster.depth_bias_fixed24:       # (as process_draw)
            fmt = "unorm24"
            offset = (db.slope_scale, 2.0 * db.constant, db.clamp)
    window, clipped = _clip_window(out, position, prims, clip, vp, opts)
    if clipped.weights.strides[0] != 0:          # something clipped or dropped: draw by draw
        return [process_draw(memory, d, b, width_px, height_px, depth_format, n_cf) for d, b in items]
    setup = R.setup_triangles(window, prim=np.arange(len(clipped.prim)),
                              front_face="ccw" if raster.front_ccw else "cw",
                              cull=("front_and_back" if raster.cull_front and raster.cull_back else
                                    "front" if raster.cull_front else "back" if raster.cull_back else "none"),
                              offset=offset, depth_format=fmt)
    src_prim = clipped.prim[setup.prim]                    # the group's primitive of each row
    first_prim = np.concatenate(([0], np.cumsum(counts)[:-1]))
    row_owner = owner[src_prim]
    first_primitive = np.array([d.first_primitive for d, _ in items], np.int64)
    prim_id = src_prim - first_prim[row_owner] + first_primitive[row_owner]
    planes = _planes(memory, d0, out, prims, src_prim, None, setup, first_user, n_cf,
                     provoking=2 if provoking_last else 0, prim_id=prim_id)
    setup = _strip(setup, prim_id)
    rect = viewport_rect(ppp, width_px, height_px)
    cuts = np.searchsorted(row_owner, np.arange(len(items) + 1), side="left")
    arrays = {f: getattr(setup, f) for f in R.TriangleSetup.__dataclass_fields__}
    result = []
    for i, (d, _) in enumerate(items):
        if counts[i] == 0:
            result.append(DrawGeometry(d, None, np.zeros((0, n_cf, 3), np.float32), 0, (0, 0, 0, 0)))
            continue
        r0, r1 = int(cuts[i]), int(cuts[i + 1])
        part = R.TriangleSetup(**{f: (v[r0:r1] if isinstance(v, np.ndarray) else v) for f, v in arrays.items()})
        result.append(DrawGeometry(d, part, planes[r0:r1], int(counts[i]), rect))
    return result


def _polygon_modes(window: np.ndarray, tri_weights: np.ndarray, raster, offset, depth_format: str):
    """glPolygonMode: after face determination and culling, triangles drawn as
    their three edges (LINE) or corners (POINT) or filled. Returns the setup
    (rows in primitive order), the clipped triangle of each row and the row's
    corner weights over the primitive's vertices (T, 3, 3). Every edge of a
    clipped polygon is drawn (no edge flags). The edges and corners keep their
    triangle's facing (GL 4.6 section 14.6.4), which selects the stencil face and
    is gl_FrontFacing."""
    x, y = window[..., 0], window[..., 1]
    area = (x[:, 1] - x[:, 0]) * (y[:, 2] - y[:, 0]) - (x[:, 2] - x[:, 0]) * (y[:, 1] - y[:, 0])
    front = (area > 0) == bool(raster.front_ccw)
    keep = ~((front & bool(raster.cull_front)) | (~front & bool(raster.cull_back)))
    mode = np.where(front, int(raster.polygon_mode_front), int(raster.polygon_mode_back))
    parts = []
    fill = np.flatnonzero(keep & (mode == P.PolygonMode.FILL))
    if len(fill):
        st = R.setup_triangles(window[fill], prim=fill, front_face="ccw" if raster.front_ccw else "cw",
                               offset=offset, depth_format=depth_format)
        parts.append((st, st.prim, tri_weights[st.prim]))
    line = np.flatnonzero(keep & (mode == P.PolygonMode.LINE))
    if len(line):
        a = np.array([0, 1, 2])
        b = np.array([1, 2, 0])
        ends = np.stack((window[line][:, a], window[line][:, b]), axis=2).reshape(-1, 2, 4)
        owner = np.repeat(line, 3)
        st = R.setup_lines(ends, raster.line_width_px, prim=np.arange(len(owner)), offset=offset,
                           depth_format=depth_format, smooth=bool(raster.line_smooth))
        end_w = np.stack((tri_weights[line][:, a], tri_weights[line][:, b]), axis=2).reshape(-1, 2, 3)
        w = np.einsum("tcl,tlj->tcj", st.corner_weights, end_w[st.prim])
        st = replace(st, front_facing=front[owner[st.prim]])
        parts.append((st, owner[st.prim], w))
    point = np.flatnonzero(keep & (mode == P.PolygonMode.POINT))
    if len(point):
        owner = np.repeat(point, 3)
        st = R.setup_points(window[point].reshape(-1, 4), raster.point_size_px, prim=np.arange(len(owner)),
                            offset=offset, depth_format=depth_format)
        w = np.einsum("tcl,tlj->tcj", st.corner_weights, tri_weights[point].reshape(-1, 1, 3)[st.prim])
        st = replace(st, front_facing=front[owner[st.prim]])
        parts.append((st, owner[st.prim], w))
    if not parts:
        st = R.setup_triangles(window[:0], prim=np.zeros(0, np.int64))
        return st, np.zeros(0, np.int64), np.zeros((0, 3, 3))
    names = [f for f in R.TriangleSetup.__dataclass_fields__ if f not in ("corner_weights", "corner_uv")]
    order = np.argsort(np.concatenate([p[1] for p in parts]), kind="stable")
    setup = R.TriangleSetup(**{f: np.concatenate([getattr(p[0], f) for p in parts])[order] for f in names})
    sub = np.concatenate([p[1] for p in parts])[order]
    weights = np.concatenate([p[2] for p in parts])[order]
    return setup, sub, weights


def _strip(setup: R.TriangleSetup, src_prim: np.ndarray) -> R.TriangleSetup:
    """The setup with the draw's primitive numbers and no per-corner extras."""
    return replace(setup, prim=np.asarray(src_prim, np.int64), corner_weights=None, corner_uv=None)


def _stipple_counters(window: np.ndarray, prims: np.ndarray, independent: bool) -> tuple:
    """Per line primitive (rows of ``prims``): its first vertex's window x, y, the
    major axis (0: x, 1: y), the direction along it (+-1) and the counter at the
    first vertex (LINE_STIPPLE above). A strip or loop goes on while a segment
    starts where the last one ended (a restart breaks that)."""
    a, b = window[prims[:, 0], :2].astype(np.float64), window[prims[:, 1], :2].astype(np.float64)
    d = b - a
    axis = (np.abs(d[:, 1]) > np.abs(d[:, 0])).astype(np.int64)
    rows = np.arange(len(prims))
    along = d[rows, axis]
    length = np.rint(np.abs(along))
    start = np.zeros(len(prims))
    if not independent and len(prims) > 1:
        goes_on = np.concatenate(([False], prims[1:, 0] == prims[:-1, 1]))
        total = np.cumsum(length) - length                     # lengths before each segment
        run0 = np.maximum.accumulate(np.where(goes_on, 0, rows))  # first segment of each one's run
        start = total - total[run0]
    return a, axis, np.where(along < 0, -1.0, 1.0), start


def _planes(memory, draw, out, prims, src_prim, weights, setup, first_user, n_cf, provoking,
            prim_id=None, stipple=None) -> np.ndarray:
    t = len(setup)
    planes = np.zeros((t, n_cf, 3), np.float32)
    ppp = draw.ppp
    header, bindings = draw_cf_bindings(memory, draw)
    if not bindings or t == 0:
        return planes
    # attributes through the unsnapped corners; depth through the snapped ones, as
    # the rasteriser's depth test computes it
    xw, yw = setup.xy_px[..., 0], setup.xy_px[..., 1]
    snapped = []            # (the snapped corners in pixels, made when a depth plane asks)

    def snapped_xy():
        if not snapped:
            snapped.extend((setup.x_fx / 256.0, setup.y_fx / 256.0))
        return snapped
    inv_w = setup.inv_w
    verts = prims[src_prim]                                           # (T, k) lanes
    sel = ppp.get("output_select")
    z_slot = sel is not None and sel.frag_coord_z
    user0 = 2 if z_slot else 1
    slots_32 = header.slots_32

    def corners(vertex_values) -> np.ndarray:                        # (lanes,) -> (T, 3)
        if isinstance(vertex_values, _Lazy):
            vertex_values = vertex_values.get()
        if weights is None:
            return vertex_values[verts]
        return np.einsum("tcj,tj->tc", weights, vertex_values[verts])

    # planes through the unsnapped corners, gathered to be set up in one pass (C),
    # unless some register is written twice (then in binding order, as written)
    pending_v: list = []
    pending_cf: list = []
    written = [b.base_cf + i for b in bindings for i in range(b.components) if b.base_cf + i < n_cf]
    defer = len(set(written)) == len(written)

    def plane_of(cf: int, v: np.ndarray) -> None:
        if not defer:
            planes[:, cf] = _plane(xw, yw, v.values() if isinstance(v, _Corners) else v)
            return
        pending_v.append(v)
        pending_cf.append(cf)

    z_plane = None
    for b in bindings:
        for i in range(b.components):
            cf = b.base_cf + i
            if cf >= n_cf:
                continue
            if b.source == P.CoefficientSource.FRAGCOORD_Z:
                if z_plane is None:
                    z_plane = _z_plane(*snapped_xy(), setup.z + setup.z_offset[:, None])
                planes[:, cf] = z_plane
                continue
            if b.source == P.CoefficientSource.POINT_COORD:
                if setup.corner_uv is not None and i < 2:   # 0 for other primitives
                    planes[:, cf] = _plane(xw, yw, setup.corner_uv[..., i])
                continue
            if b.source == P.CoefficientSource.PRIMITIVE_ID:
                planes[:, cf, 2] = src_prim if prim_id is None else prim_id
                continue
            if b.source == P.CoefficientSource.LINE_STIPPLE:
                if stipple is None or i:
                    planes[:, cf, 2] = -1.0
                    continue
                a, axis, sign, start = (v[src_prim] for v in stipple())
                corner = np.where(axis[:, None] == 0, xw, yw) - a[np.arange(len(a)), axis][:, None]
                planes[:, cf] = _plane(xw, yw, start[:, None] + sign[:, None] * corner)
                continue
            if b.base_slot < slots_32:
                slot, half = b.base_slot + i, None
            else:
                slot, half = b.base_slot + i // 2, i % 2
            if slot == 0:
                plane_of(cf, inv_w)
                continue
            if z_slot and slot == 1:
                planes[:, cf] = _plane(*snapped_xy(), setup.z)
                continue
            word = out[first_user + slot - user0] if first_user + slot - user0 < len(out) else np.zeros(out.shape[1], np.uint32)
            if half is None:
                values = _Lazy(word) if b.shade_model != P.ShadeModel.FLAT else word.view(np.float32).astype(np.float64)
            else:
                values = ((word >> (16 * half)) & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float64)
            if b.shade_model == P.ShadeModel.FLAT:
                planes[:, cf, 2] = values[verts[:, provoking]]
            elif b.shade_model == P.ShadeModel.LINEAR:
                plane_of(cf, _Corners(corners, values, None, word if half is None and weights is None else None))
            else:
                plane_of(cf, _Corners(corners, values, inv_w, word if half is None and weights is None else None))
    if pending_v and not R.planes_c(xw, yw, pending_v, pending_cf, planes, verts=verts, inv_w=inv_w):
        for cf, v in zip(pending_cf, pending_v):         # (the specification of the C pass)
            planes[:, cf] = _plane(xw, yw, v.values() if isinstance(v, _Corners) else v)
    return planes


def _z_plane(xs: np.ndarray, ys: np.ndarray, z: np.ndarray) -> np.ndarray:
    """``_plane(xs, ys, z)`` as float32 (T, 3), in C when the kernel is there (the
    same bits)."""
    out = np.empty((len(z), 1, 3), np.float32)
    if not R.planes_c(xs, ys, [z], [0], out):
        out[:, 0] = _plane(xs, ys, z)
    return out[:, 0]


class _Lazy:
    """A row of float32 vertex output words as float64 values, converted when asked."""

    __slots__ = ("word",)

    def __init__(self, word):
        self.word = word

    def get(self) -> np.ndarray:
        return self.word.view(np.float32).astype(np.float64)


class _Corners:
    """A component's corner values, ``corners(values)`` (times ``inv_w`` when
    perspective), made when asked (``values()``); ``word``: the vertex outputs' row of
    its float32 bits, when the corners are the vertices' own (the C pass reads it)."""

    __slots__ = ("corners", "vertex_values", "inv_w", "word")

    def __init__(self, corners, vertex_values, inv_w, word):
        self.corners, self.vertex_values, self.inv_w, self.word = corners, vertex_values, inv_w, word

    def values(self) -> np.ndarray:
        v = self.corners(self.vertex_values)
        return v if self.inv_w is None else v * self.inv_w
