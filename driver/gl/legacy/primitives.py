"""The primitive rules of GL 2.1 that the pipe does not carry, applied to
every draw of a compatibility context -- glBegin/glEnd batches, glRect,
glDrawArrays, glDrawElements and display lists alike:

- flat shading of quads, quad strips and polygons (table 2.12: the provoking
  vertex is the 4th of a quad, vertex 2i+4 of a strip quad, the 1st of a
  polygon): the primitive is re-split into triangles that each end on it;
- polygon modes GL_LINE / GL_POINT (section 3.5.4) where a triangle does not
  carry what GL asks (``_outlines_here``): after culling, each polygon becomes
  its boundary edges / vertices, an edge flag of false dropping the edge (or
  vertex) it starts (independent triangles, quads and polygons only). With
  transform feedback on, the polygons are first drawn filled with nothing
  rasterised, so the capture (and GL_PRIMITIVES_GENERATED) sees their
  triangles once; the edges and corners drawn after are neither.

What the GPU does itself, from the positions the program's own stages
produce: the polygon modes of triangles, strips and fans (the PPP decides
each triangle's face after vertex processing and draws the face's mode) and
line stipple (the PPP gives each fragment of a line its stipple counter and
a fragment-stage variant discards what the pattern leaves out; the edges
drawn here are independent lines, so the counter restarts at each).

Everything here is index arithmetic in numpy over whole draws. The culling
and the face of the polygons rewritten here need window positions: with a
GLSL program's vertex stage current they are the positions that stage
produces, run on the GPU over the draw's vertices and captured by transform
feedback (as selection and feedback do; the draw waits for that capture, a
cost only these draws pay); without one, they are computed on the CPU from
the position array with the fixed-function transform (projection x
modelview), which is the fixed-function vertex stage."""

from __future__ import annotations

import numpy as np

from driver.gallium import PipePrim
from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.draws import DrawMixin, INDEX_TYPES
from driver.gl.errors import check, check_enum
from driver.gl.geometry import primitives_not_generated
from driver.gl.objects import VertexAttrib, VertexBinding
from driver.gl.pointers import ClientMemory
from driver.gl.buffers import read_buffer
from uapi import topology as T

__all__ = ["PrimitiveMixin", "polygon_modes", "polygons", "flat_triangles", "provoking_column", "topology_name"]

_TYPES_NP = {E.GL_BYTE: np.int8, E.GL_UNSIGNED_BYTE: np.uint8, E.GL_SHORT: np.int16,
             E.GL_UNSIGNED_SHORT: np.uint16, E.GL_INT: np.int32, E.GL_UNSIGNED_INT: np.uint32,
             E.GL_FLOAT: np.float32, E.GL_DOUBLE: np.float64, E.GL_HALF_FLOAT: np.float16}
_POLYGONAL = (E.GL_QUADS, E.GL_QUAD_STRIP, E.GL_POLYGON)
_FLAT_ARRAYS = (E.GL_COLOR_ARRAY, E.GL_SECONDARY_COLOR_ARRAY)


def topology_name(mode: int) -> str:
    """The ``uapi.topology`` name of a GL primitive mode (GL_POINTS..GL_POLYGON,
    numbered as the pipe's primitives)."""
    return PipePrim(mode).name.lower()


def polygon_modes(ctx) -> tuple[int, int]:
    """(front, back) polygon modes of a compatibility context (GL 2.1 section 3.5.4:
    each face has its own; the front one is the rasterizer state's)."""
    return ctx.state.polygon_mode, ctx.state.polygon_mode_back


def provoking_column(mode: int) -> int:
    """The column of ``polygons``' rows (or of line pairs) holding the provoking
    vertex under the last-vertex convention, compatibility's (GL 2.1 table 2.12)."""
    return T.TOPOLOGIES[topology_name(mode)].provoking[1]


def polygons(mode: int, n: int) -> np.ndarray:
    """(P, k) vertex positions of the polygons of a primitive of n vertices,
    each in the order that keeps its winding (``uapi.topology``)."""
    return T.decompose(topology_name(mode), [0], [n])[0]


def flat_triangles(mode: int, n: int) -> np.ndarray:
    """Vertex positions of triangles covering quads, quad strips or a polygon
    with each triangle's last vertex the primitive's provoking vertex (so the
    last-vertex convention of triangles gives each primitive one colour).
    Winding is kept."""
    return T.fan_to(polygons(mode, n), provoking_column(mode)).reshape(-1)


def _line_pairs(mode: int, n: int) -> np.ndarray:
    return T.decompose(topology_name(mode), [0], [n])[0]


class PrimitiveMixin:
    def _init_family(self) -> None:
        self._rewriting = False

    # -- when the pipe's own conversion is not enough ------------------------------------
    def _needs_rewrite(self, mode: int) -> bool:
        if not self.api.compat or self._rewriting:
            return False
        s = self.state
        if E.GL_TRIANGLES <= mode <= E.GL_POLYGON and self._outlines_here(mode):
            return True
        return getattr(s, "flat_shading", False) and mode in _POLYGONAL

    def _outlines_here(self, mode: int) -> bool:
        """Whether polygon modes must be applied here rather than by the GPU's
        rasterizer, which decides each triangle's face from the positions the
        program's stages produced and draws the face's mode (its three edges or
        corners): here for what a triangle does not carry -- the outline of a
        quad or polygon without its diagonals, edge flags, stippled edges, a
        polygon stipple that must skip the lines of the other face, and
        corners drawn as point sprites or with a size per vertex (the
        rasterizer gives a polygon's corners the point size of its state)."""
        modes = polygon_modes(self)
        if modes == (E.GL_FILL, E.GL_FILL):
            return False
        if mode in _POLYGONAL or (mode == E.GL_TRIANGLES and self._edge_flags_set()):
            return True
        enabled = self.state.enabled
        return (E.GL_LINE_STIPPLE in enabled and E.GL_LINE in modes) or \
            (E.GL_POLYGON_STIPPLE in enabled and E.GL_FILL in modes) or \
            (E.GL_POINT in modes and self._points_sized_per_vertex())

    def _points_sized_per_vertex(self) -> bool:
        """Point sprites, a program's point size or the fixed-function point
        attenuation."""
        p, enabled = self.legacy.point, self.state.enabled
        return E.GL_POINT_SPRITE in enabled or E.GL_PROGRAM_POINT_SIZE in enabled or \
            p.attenuation != (1.0, 0.0, 0.0) or not p.size_min <= self.state.point_size <= p.size_max

    def _edge_flags_set(self) -> bool:
        """Whether an edge flag may be false: the edge flag array enabled, or
        the current edge flag false."""
        entry = self.vao.legacy.get((E.GL_EDGE_FLAG_ARRAY, 0))
        return (entry is not None and entry[0].enabled) or not self.legacy.edge_flag

    @extends
    def _draw_arrays(self, core, mode, first, count, instances, base_instance) -> None:
        if self.legacy.records_instead_of_drawing:
            check(first >= 0, E.GL_INVALID_VALUE, "negative first")
            self.validate_draw(mode, count, instances)
            if count and instances:
                self._record_primitives(mode, np.arange(first, first + count, dtype=np.int64))
            return
        if not self._needs_rewrite(mode):
            return core(mode, first, count, instances, base_instance)
        check(first >= 0, E.GL_INVALID_VALUE, "negative first")
        self.validate_draw(mode, count, instances)
        if count and instances:
            self._draw_rewritten(mode, np.arange(first, first + count, dtype=np.int64), instances)

    @extends
    def _draw_elements(self, core, mode, count, type, indices, instances, basevertex, base_instance, range_):
        if not self._needs_rewrite(mode) and not self.legacy.records_instead_of_drawing:
            return core(mode, count, type, indices, instances, basevertex,
                                          base_instance, range_)
        check_enum(type, INDEX_TYPES, "bad index type")
        self.validate_draw(mode, count, instances)
        if not (count and instances):
            return
        ebo, offset, data = self._index_data(count, type, indices)
        size = INDEX_TYPES[type]
        raw = data if ebo is None else read_buffer(self, ebo, offset, count * size)
        idx = np.frombuffer(raw, {1: np.uint8, 2: np.uint16, 4: np.uint32}[size]).astype(np.int64)
        restart = self._restart_index(size)
        recording = self.legacy.records_instead_of_drawing

        def draw(ids):
            if recording:
                self._record_primitives(mode, ids)
            else:
                self._draw_rewritten(mode, ids, instances)

        if restart is None:
            draw(idx + basevertex)
            return
        # primitive restart: each run between restart indices is drawn as a primitive of its own
        # (one rewrite per run; the runs of a draw are few in legacy programs)
        cuts = np.flatnonzero(idx == restart)
        for run in np.split(idx, cuts):
            run = run[run != restart]
            if run.size:
                draw(run + basevertex)

    # -- the rewrite ------------------------------------------------------------------------
    def _draw_rewritten(self, mode: int, ids: np.ndarray, instances: int) -> None:
        """Draw vertices `ids` as primitive `mode` with the rules above."""
        s = self.state
        if E.GL_TRIANGLES <= mode <= E.GL_POLYGON and self._outlines_here(mode):
            xfb = self.xfb
            capturing = xfb.active and not xfb.paused
            if capturing:
                self._capture_polygons(mode, ids, instances)
                xfb.paused = True
            try:
                with primitives_not_generated(self, measure=capturing):
                    for pmode, local, provoking in self._polygon_outlines(mode, ids):
                        self._draw_local(pmode, ids, local, instances, culled=True, provoking=provoking)
            finally:
                if capturing:
                    xfb.paused = False
            return
        local = np.arange(len(ids))                        # positions into ids
        if getattr(s, "flat_shading", False) and mode in _POLYGONAL:
            local, mode = self._provoking_last(flat_triangles(mode, len(ids))), E.GL_TRIANGLES
        self._draw_local(mode, ids, local, instances)

    def _capture_polygons(self, mode: int, ids: np.ndarray, instances: int) -> None:
        """Transform feedback of polygons drawn in a polygon mode here: capture comes
        before culling and polygon modes (GL 4.6 sections 13.3 and 14.6), so the
        polygons are drawn once by the pipe, filled and with nothing rasterised, and
        captured as its triangles (counted as generated once); the edges and corners
        drawn after them are neither captured nor counted."""
        s = self.state
        saved = s.polygon_mode, s.polygon_mode_back, set(s.enabled)
        s.polygon_mode = s.polygon_mode_back = E.GL_FILL
        s.enabled.add(E.GL_RASTERIZER_DISCARD)
        try:
            self._draw_indexed(mode, ids, instances)
        finally:
            s.polygon_mode, s.polygon_mode_back = saved[:2]
            s.enabled.clear()
            s.enabled.update(saved[2])

    def _provoking_last(self, tri: np.ndarray) -> np.ndarray:
        """Triangles (flat) ending on their provoking vertex, rotated for the
        first-vertex convention."""
        if self.state.provoking_vertex == E.GL_FIRST_VERTEX_CONVENTION:
            return tri.reshape(-1, 3)[:, [2, 0, 1]].reshape(-1)
        return tri

    def _draw_local(self, mode: int, ids: np.ndarray, local: np.ndarray, instances: int,
                    culled: bool = False, provoking: np.ndarray | None = None) -> None:
        """Draw vertices ids[local] as `mode`; `culled`: triangles of polygons already culled here, filled by the
        pipe; `provoking`: for each of them the vertex whose colours flat
        shading gives the polygon's edges and points."""
        if not len(local):
            return
        if provoking is not None and mode != E.GL_TRIANGLES and getattr(self.state, "flat_shading", False):
            arrays = self._gather_arrays(ids[local])
            colours = self._gather_arrays(ids[provoking])
            arrays.update({k: v for k, v in colours.items() if k[0] in _FLAT_ARRAYS})
            self._draw_temporary_arrays(mode, arrays, len(local), instances, rules=False)
            return
        if culled and mode == E.GL_TRIANGLES:
            s = self.state
            saved = s.polygon_mode, s.polygon_mode_back, set(s.enabled)
            s.polygon_mode = s.polygon_mode_back = E.GL_FILL
            s.enabled.discard(E.GL_CULL_FACE)
            try:
                self._draw_indexed(mode, ids[local], instances)
            finally:
                s.polygon_mode, s.polygon_mode_back = saved[:2]
                s.enabled.clear()
                s.enabled.update(saved[2])
            return
        self._draw_indexed(mode, ids[local], instances)


    def _draw_indexed(self, mode: int, ids: np.ndarray, instances: int) -> None:
        """The pipe's indexed draw of `ids` (client uint32 indices; the element
        buffer and primitive restart are set aside meanwhile)."""
        vao, s = self.vao, self.state
        saved_ebo, saved_enabled = vao.element_buffer, set(s.enabled)
        vao.element_buffer = None
        s.enabled -= {E.GL_PRIMITIVE_RESTART, E.GL_PRIMITIVE_RESTART_FIXED_INDEX}
        self._rewriting = True
        try:
            DrawMixin._draw_elements(self, mode, len(ids), E.GL_UNSIGNED_INT,
                                     ids.astype(np.uint32).tobytes(), instances, 0, 0, None)
        finally:
            self._rewriting = False
            vao.element_buffer = saved_ebo
            s.enabled.clear()
            s.enabled.update(saved_enabled)

    def _polygon_outlines(self, mode: int, ids: np.ndarray,
                          front: np.ndarray | None = None) -> list[tuple[int, np.ndarray]]:
        """Section 3.5.4: the polygons that survive culling in the mode of
        their face -- boundary edges (GL_LINE), vertices (GL_POINT), an edge
        flag of false dropping the edge or vertex it starts, or triangles
        ending on the provoking vertex (GL_FILL) -- as [(mode, positions into
        ids, each one's provoking vertex for edges and points)]. ``front``:
        whether each of ``polygons(mode, len(ids))`` faces the front, when the
        caller has the vertices vertex processing produced (selection and
        feedback capture them); else from the positions the current program's
        vertex stage produces (captured on the GPU), or with no program from the
        fixed-function transform."""
        s = self.state
        polys = polygons(mode, len(ids))
        if not len(polys):
            return []
        front_mode, back_mode = polygon_modes(self)
        cull = E.GL_CULL_FACE in s.enabled
        if front is None and (cull or front_mode != back_mode):
            front = self.program_front_facing(mode, ids)
        if front is None and (cull or front_mode != back_mode):
            win = self._window_xy(self._positions(ids))
            p = win[polys]
            x, y = p[..., 0], p[..., 1]
            area = np.sum(x * np.roll(y, -1, 1) - np.roll(x, -1, 1) * y, 1)
            front = (area > 0) == (s.front_face == E.GL_CCW)
        elif front is None:
            front = np.ones(len(polys), bool)
        keep = np.ones(len(polys), bool)
        if cull:
            keep = {E.GL_FRONT_AND_BACK: ~keep, E.GL_FRONT: ~front, E.GL_BACK: front}[s.cull_face]
        edge = np.ones(polys.shape, bool)
        if mode in (E.GL_TRIANGLES, E.GL_QUADS, E.GL_POLYGON):
            flags = self._edge_flags(ids)
            if flags is not None:
                edge = flags[polys]
        provoking = provoking_column(mode)
        out = []
        groups = [(front_mode, keep)] if front_mode == back_mode else \
            [(front_mode, keep & front), (back_mode, keep & ~front)]
        for pmode, faces in groups:
            sel, sel_edge = polys[faces], edge[faces]
            if not len(sel):
                continue
            prov = np.broadcast_to(sel[:, provoking:provoking + 1], sel.shape)
            if pmode == E.GL_LINE:
                pairs = np.stack([sel, np.roll(sel, -1, 1)], -1)                 # (P, k, 2)
                out.append((E.GL_LINES, pairs[sel_edge].reshape(-1), np.repeat(prov[sel_edge], 2)))
            elif pmode == E.GL_POINT:
                out.append((E.GL_POINTS, sel[sel_edge].reshape(-1), prov[sel_edge].reshape(-1)))
            else:
                tri = T.fan_to(sel, provoking)                                   # ending on the provoking vertex
                out.append((E.GL_TRIANGLES, self._provoking_last(tri.reshape(-1)), None))
        return out

    # -- positions and arrays -----------------------------------------------------------------
    def _window_xy(self, pos: np.ndarray) -> np.ndarray:
        """Window x, y (viewport origin dropped) of object positions (N, 4)."""
        clip = pos.astype(np.float64) @ (self.legacy.stacks[1][-1] @ self.legacy.stacks[0][-1]).T
        w = np.where(np.abs(clip[:, 3]) > 1e-12, clip[:, 3], 1e-12)
        _, _, vw, vh = self.state.viewport
        return clip[:, :2] / w[:, None] * (vw / 2, vh / 2)

    def _position_key(self):
        a = self.vao.legacy.get((E.GL_VERTEX_ARRAY, 0))
        if a is not None and a[0].enabled:
            return (E.GL_VERTEX_ARRAY, 0)
        return ("generic", 0)

    def _positions(self, ids: np.ndarray) -> np.ndarray:
        """(N, 4) object positions of vertices ids (missing z = 0, w = 1)."""
        key = self._position_key()
        if key[0] == "generic":
            a, b = self.vao.attribs[0], self.vao.bindings[self.vao.attribs[0].binding]
            if not a.enabled:
                return np.tile(np.asarray([0.0, 0.0, 0.0, 1.0]), (len(ids), 1))
        else:
            a, b = self.vao.legacy[key]
        return _complete(self._read_rows(a, b, ids), (0.0, 0.0, 0.0, 1.0))

    def _edge_flags(self, ids: np.ndarray) -> np.ndarray | None:
        entry = self.vao.legacy.get((E.GL_EDGE_FLAG_ARRAY, 0))
        if entry is not None and entry[0].enabled:
            return self._read_rows(*entry, ids)[:, 0] != 0
        return None if self.legacy.edge_flag else np.zeros(len(ids), bool)

    def _gather_arrays(self, ids: np.ndarray) -> dict:
        """{(array, unit) or ("generic", i): (N, comps) float64} of every enabled
        array at vertices ids (positions completed to 4 components)."""
        out = {}
        for key, (a, b) in self.vao.legacy.items():
            if a.enabled:
                out[key] = self._read_rows(a, b, ids)
        for i, a in enumerate(self.vao.attribs):
            if a.enabled:
                out[("generic", i)] = self._read_rows(a, self.vao.bindings[a.binding], ids)
        key = self._position_key()
        if key in out:
            out[key] = _complete(out[key], (0.0, 0.0, 0.0, 1.0))
        return out

    def _read_rows(self, a, b, ids: np.ndarray) -> np.ndarray:
        """Rows ids of one array as float64 (normalised when the array is), read
        once as the span of bytes they cover."""
        size = 4 if a.size == E.GL_BGRA else a.size
        dt = np.dtype(_TYPES_NP[a.type])
        elem_B, stride_B = size * dt.itemsize, b.stride or size * dt.itemsize
        lo, hi = int(ids.min()), int(ids.max())
        span_B = (hi - lo) * stride_B + elem_B
        base_B = a.relative_offset + lo * stride_B
        if b.buffer is not None:
            raw = read_buffer(self, b.buffer, b.offset + base_B, max(0, min(span_B, b.buffer.size - b.offset
                                                                             - base_B)))
        else:
            check(a.pointer is not None and not isinstance(a.pointer, int), E.GL_INVALID_OPERATION,
                  "NULL client array")
            raw = ClientMemory.wrap(a.pointer).read(base_B, span_B)
        raw = np.frombuffer(bytes(raw).ljust(span_B, b"\0"), np.uint8)     # reads past the end give 0
        rows = np.lib.stride_tricks.as_strided(raw, (hi - lo + 1, elem_B), (stride_B, 1))
        v = np.ascontiguousarray(rows[ids - lo]).view(dt).reshape(len(ids), size).astype(np.float64)
        if a.normalized and dt.kind in "iu":
            bits = 8 * dt.itemsize
            v = v / (2 ** bits - 1) if dt.kind == "u" else np.maximum(v / (2 ** (bits - 1) - 1), -1.0)
        if a.size == E.GL_BGRA:
            v = v[:, [2, 1, 0, 3]]
        return v

    def _draw_temporary_arrays(self, mode: int, arrays: dict, count: int, instances: int = 1,
                              rules: bool = True) -> None:
        """Draw `count` vertices from float32 client arrays (int32/uint32 ones are
        integer attributes) {(array, unit) or ("generic", i): (count, components)}
        in place of those arrays, which are restored afterwards (as is every other binding). Arrays not
        given keep their state. `rules`=False: the primitive rules above are
        already applied."""
        vao = self.vao
        outer = self._rewriting
        saved = dict(vao.legacy)
        saved_attribs, saved_bindings = list(vao.attribs), list(vao.bindings)
        saved_generic0 = vao.attribs[0].enabled
        try:
            for key, data in arrays.items():
                # int32/uint32 arrays are integer attributes (as glVertexAttribIPointer's)
                integer = {np.dtype(np.int32): E.GL_INT, np.dtype(np.uint32): E.GL_UNSIGNED_INT}.get(
                    np.asarray(data).dtype)
                data = np.ascontiguousarray(data, np.float32 if integer is None else data.dtype)
                comps = data.shape[1]
                a = VertexAttrib(enabled=True, size=comps, type=integer or E.GL_FLOAT, stride=0,
                                 integer=integer is not None, pointer=ClientMemory.wrap(data.tobytes()))
                if key[0] == "generic":
                    a.binding = key[1]
                    vao.attribs[key[1]] = a
                    vao.bindings[key[1]] = VertexBinding(None, 0, 4 * comps)
                else:
                    vao.legacy[key] = (a, VertexBinding(None, 0, 4 * comps))
            if ("generic", 0) not in arrays:
                vao.attribs[0].enabled = False
            self._rewriting = outer or not rules
            self._draw_arrays(mode, 0, count, instances, 0)
        finally:
            self._rewriting = outer
            vao.legacy.clear()
            vao.legacy.update(saved)
            vao.attribs[:] = saved_attribs
            vao.bindings[:] = saved_bindings
            vao.attribs[0].enabled = saved_generic0


def _complete(v: np.ndarray, default) -> np.ndarray:
    """(N, k) -> (N, 4) with the missing components from `default`."""
    if v.shape[1] == 4:
        return v
    out = np.tile(np.asarray(default, np.float64), (len(v), 1))
    out[:, :v.shape[1]] = v
    return out
