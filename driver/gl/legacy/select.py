"""Selection and feedback (GL 2.1 sections 5.2-5.3): glRenderMode,
glSelectBuffer, the name stack, glFeedbackBuffer and glPassThrough.

In GL_SELECT and GL_FEEDBACK modes nothing is rasterised: every draw
(glBegin/glEnd, arrays, display lists, glRect, evaluators) is transformed on
the CPU in bulk with numpy -- the fixed-function vertex transform (projection
x modelview), lighting of the front colour when lighting is on, texture
matrix 0 on texture coordinate 0; with a GLSL program current, the program's
own vertex stage instead, run on the GPU over the draw's vertices with
transform feedback capturing gl_Position (and, for feedback, gl_FrontColor
and gl_TexCoord[0] when it writes them) -- then assembled into primitives by
the topology table (polygon modes, culling and edge flags as in primitives.py,
a polygon's side taken from those vertices), clipped against the view volume
and the enabled user clip planes (Sutherland-Hodgman over all polygons at
once, parametric for lines) and mapped to window coordinates. What follows
vertex processing is the CPU's, as in Mesa's feedback stage of its software
draw module: the GPU's transform feedback captures vertices before clipping,
culling and polygon modes, and feedback returns the clipped primitives in
window coordinates, in order, with their tokens. Selection keeps the minimum and maximum
window z of the surviving primitives for the pending hit record; feedback
writes the tokens of table 5.2. Hit records and feedback values are
delivered into the caller's buffer when glRenderMode leaves the mode (the C
ABI passes a writer over the client array)."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.errors import check, check_enum
from driver.gl.legacy.primitives import _line_pairs, polygon_modes, polygons, provoking_column
from driver.gl.buffers import read_buffer

__all__ = ["SelectFeedbackMixin", "MAX_NAME_STACK_DEPTH"]
# feedback type -> (window coordinates per vertex, with colour, with texture coordinate)
_FEEDBACK_TYPES = {E.GL_2D: (2, False, False), E.GL_3D: (3, False, False), E.GL_3D_COLOR: (3, True, False),
                   E.GL_3D_COLOR_TEXTURE: (3, True, True), E.GL_4D_COLOR_TEXTURE: (4, True, True)}
MAX_NAME_STACK_DEPTH = 64
# per-vertex columns carried through clipping: clip (4), eye (4), colour (4), texture coordinate (4),
# the back colour (4) when two-sided lighting is on, and the distance to each enabled user clip plane
# (8; inside >= 0), which clipping interpolates as the other columns
_CLIP, _EYE, _COL, _TEX, _BACK = slice(0, 4), slice(4, 8), slice(8, 12), slice(12, 16), slice(16, 20)
_DIST = 20
_COLUMNS = _DIST + 8
_UNWRITTEN = 0xFFFFFFFF          # a NaN no capture writes: the prefill of a capture buffer


class SelectFeedbackMixin:
    def _init_family(self) -> None:
        self._select_dest = None         # (size, destination) of glSelectBuffer
        self._feedback_dest = None       # (size, type, destination) of glFeedbackBuffer
        self._name_stack = []
        self._records = []               # hit records (ints) or feedback chunks (float arrays)
        self._hit = None                 # (zmin, zmax) of the pending hit, or None

    # -- render mode ------------------------------------------------------------------------
    def glRenderMode(self, mode) -> int:
        """Section 5.1: returns the hit records (leaving SELECT) or values
        (leaving FEEDBACK) written, -1 when the buffer overflowed, else 0."""
        check_enum(mode, (E.GL_RENDER, E.GL_SELECT, E.GL_FEEDBACK))
        check(mode != E.GL_SELECT or self._select_dest is not None, E.GL_INVALID_OPERATION,
              "glRenderMode(GL_SELECT) without glSelectBuffer")
        check(mode != E.GL_FEEDBACK or self._feedback_dest is not None, E.GL_INVALID_OPERATION,
              "glRenderMode(GL_FEEDBACK) without glFeedbackBuffer")
        old = self.legacy.render_mode
        result = 0
        if old == E.GL_SELECT:
            self._write_hit()
            size, dest = self._select_dest
            values = np.asarray([v for rec in self._records for v in rec], np.uint32)
            hits = len(self._records)
            if len(values) > size:
                hits = -1
            _deliver(dest, values[:size])
            result = hits
        elif old == E.GL_FEEDBACK:
            size, _, dest = self._feedback_dest
            values = np.concatenate(self._records) if self._records else np.zeros(0, np.float32)
            _deliver(dest, values[:size].astype(np.float32))
            result = -1 if len(values) > size else len(values)
        self._records, self._hit = [], None
        if mode == E.GL_SELECT:
            self._name_stack.clear()
        self.legacy.render_mode = mode
        return result

    def glSelectBuffer(self, size, buffer=None) -> None:
        """`buffer`: a writable array (numpy, bytearray) or a callable taking the
        values, filled when glRenderMode leaves GL_SELECT."""
        check(size >= 0, E.GL_INVALID_VALUE, "negative size")
        check(self.legacy.render_mode != E.GL_SELECT, E.GL_INVALID_OPERATION, "in selection mode")
        self._select_dest = (int(size), buffer)

    def glFeedbackBuffer(self, size, type, buffer=None) -> None:
        """`buffer` as for glSelectBuffer, filled with floats when
        glRenderMode leaves GL_FEEDBACK."""
        check_enum(type, _FEEDBACK_TYPES)
        check(size >= 0, E.GL_INVALID_VALUE, "negative size")
        check(self.legacy.render_mode != E.GL_FEEDBACK, E.GL_INVALID_OPERATION, "in feedback mode")
        self._feedback_dest = (int(size), type, buffer)

    def glPassThrough(self, token) -> None:
        if self.legacy.render_mode == E.GL_FEEDBACK:
            self._records.append(np.array([E.GL_PASS_THROUGH_TOKEN, token], np.float32))

    @extends
    def glClear(self, core, mask) -> None:
        """Selection and feedback write no pixels: the checks of glClear only."""
        if not self.legacy.records_instead_of_drawing:
            return core(mask)
        enabled = self.state.enabled
        added = E.GL_RASTERIZER_DISCARD not in enabled
        enabled.add(E.GL_RASTERIZER_DISCARD)
        try:
            core(mask)
        finally:
            if added:
                enabled.discard(E.GL_RASTERIZER_DISCARD)

    # -- the name stack (section 5.2) -----------------------------------------------------------
    def _names(self) -> list:
        return self._name_stack

    def glInitNames(self) -> None:
        if self.legacy.render_mode == E.GL_SELECT:
            self._write_hit()
            self._name_stack.clear()

    def glPushName(self, name) -> None:
        if self.legacy.render_mode == E.GL_SELECT:
            check(len(self._name_stack) < MAX_NAME_STACK_DEPTH, E.GL_STACK_OVERFLOW, "name stack overflow")
            self._write_hit()
            self._name_stack.append(int(name) & 0xFFFFFFFF)

    def glPopName(self) -> None:
        if self.legacy.render_mode == E.GL_SELECT:
            check(self._name_stack, E.GL_STACK_UNDERFLOW, "name stack underflow")
            self._write_hit()
            self._name_stack.pop()

    def glLoadName(self, name) -> None:
        if self.legacy.render_mode == E.GL_SELECT:
            check(self._name_stack, E.GL_INVALID_OPERATION, "empty name stack")
            self._write_hit()
            self._name_stack[-1] = int(name) & 0xFFFFFFFF

    def _write_hit(self) -> None:
        """The pending hit record: name count, min and max window z scaled to
        [0, 2^32 - 1], the names from the bottom of the stack."""
        if self._hit is None:
            return
        zmin, zmax = (int(round(min(max(z, 0.0), 1.0) * 0xFFFFFFFF)) for z in self._hit)
        self._records.append([len(self._name_stack), zmin, zmax, *self._name_stack])
        self._hit = None

    def _add_hit(self, z: np.ndarray) -> None:
        if not z.size:
            return
        lo, hi = float(z.min()), float(z.max())
        if self._hit is not None:
            lo, hi = min(lo, self._hit[0]), max(hi, self._hit[1])
        self._hit = (lo, hi)

    # -- draws in selection / feedback mode ------------------------------------------------------
    def _record_primitives(self, mode: int, ids: np.ndarray) -> None:
        """Selection hits or feedback tokens of vertices ids drawn as `mode`."""
        prog = self.current_program
        units = prog.linked_state.units if prog is not None and prog.linked_state is not None else {}
        if "vertex" in units and units.keys() & {"geometry", "tess_evaluation"}:
            self._record_later_stages(prog, mode, ids)
            return
        if polygon_modes(self) != (E.GL_FILL, E.GL_FILL) and E.GL_TRIANGLES <= mode <= E.GL_POLYGON:
            # each face in its mode (filled faces as triangles), facing decided by the
            # vertices vertex processing produced (the program's stage, or the fixed
            # function's transform), as for filled polygons
            columns = self._vertex_columns(ids)
            front = self._front_facing(columns[polygons(mode, len(ids))])
            for pmode, local, provoking in self._polygon_outlines(mode, ids, front):
                self._record_local(pmode, ids, local, provoking, columns=columns)
            return
        self._record_local(mode, ids, np.arange(len(ids)))

    def _record_local(self, mode: int, ids: np.ndarray, local: np.ndarray,
                      provoking: np.ndarray | None = None, columns: np.ndarray | None = None) -> None:
        """``columns``: the vertices' columns when they are known (a later stage's
        output), else those of vertices ids."""
        s = self.state
        if not len(local):
            return
        if columns is None:
            columns = self._vertex_columns(ids)
        verts = columns[local]
        if provoking is not None and getattr(s, "flat_shading", False):
            verts[:, _COL] = columns[provoking, _COL]
        n = len(verts)
        flat = getattr(s, "flat_shading", False)
        if mode == E.GL_POINTS:
            self._emit(verts[:, None, :], np.ones(n, np.int64), "point")
            return
        if mode in (E.GL_LINES, E.GL_LINE_STRIP, E.GL_LINE_LOOP):
            pairs = _line_pairs(mode, n)
            if not len(pairs):
                return
            lines = verts[pairs]                                    # (L, 2, D)
            if flat:
                lines[:, 0, _COL] = lines[:, 1, _COL]
            reset = np.zeros(len(pairs), bool)
            reset[0] = True
            if mode == E.GL_LINES:
                reset[:] = True
            self._emit_lines(lines, reset)
            return
        polys = polygons(mode, n)
        if not len(polys):
            return
        poly = verts[polys]                                         # (P, k, D)
        front = self._front_facing(poly)
        keep = self._kept(front)
        back = ~front & self._two_sided()
        poly[back, :, _COL] = poly[back, :, _BACK]                  # two-sided lighting: the back colour
        if flat:
            provoking = provoking_column(mode)
            poly[:, :, _COL] = poly[:, provoking:provoking + 1, _COL]
        poly = poly[keep]
        self._emit(poly, np.full(len(poly), poly.shape[1]), "polygon")

    def _front_facing(self, poly: np.ndarray) -> np.ndarray:
        w = np.where(np.abs(poly[..., 3]) > 1e-30, poly[..., 3], 1e-30)
        x, y = poly[..., 0] / w, poly[..., 1] / w
        area = np.sum(x * np.roll(y, -1, 1) - np.roll(x, -1, 1) * y, 1)
        return (area > 0) == (self.state.front_face == E.GL_CCW)

    def _kept(self, front: np.ndarray) -> np.ndarray:
        s = self.state
        if E.GL_CULL_FACE not in s.enabled:
            return np.ones(len(front), bool)
        if s.cull_face == E.GL_FRONT_AND_BACK:
            return np.zeros(len(front), bool)
        return ~front if s.cull_face == E.GL_FRONT else front

    def _two_sided(self) -> bool:
        return E.GL_LIGHTING in self.state.enabled and self.legacy.two_side

    def _emit_lines(self, lines: np.ndarray, reset: np.ndarray) -> None:
        lines, counts = self._clip(lines, np.full(len(lines), 2), closed=False)
        alive = counts > 0
        if self.legacy.render_mode == E.GL_SELECT:
            self._add_hit(self._window(lines[alive].reshape(-1, lines.shape[-1]))[:, 2])
            return
        # LINE_RESET_TOKEN where the stipple counter restarts: every independent line, a strip's first
        self._feedback(lines[alive], counts[alive], np.where(reset[alive], E.GL_LINE_RESET_TOKEN,
                                                             E.GL_LINE_TOKEN), with_count=False)

    def _emit(self, prims: np.ndarray, counts: np.ndarray, kind: str) -> None:
        prims, counts = self._clip(prims, counts, closed=kind == "polygon")
        alive = counts > 0
        prims, counts = prims[alive], counts[alive]
        if self.legacy.render_mode == E.GL_SELECT:
            mask = np.arange(prims.shape[1])[None, :] < counts[:, None]
            self._add_hit(self._window(prims[mask])[:, 2])
            return
        token = E.GL_POINT_TOKEN if kind == "point" else E.GL_POLYGON_TOKEN
        self._feedback(prims, counts, np.full(len(prims), token), with_count=kind == "polygon")

    def _feedback(self, prims: np.ndarray, counts: np.ndarray, tokens: np.ndarray, with_count: bool) -> None:
        """Tokens [token, (count,) vertex values...] of every primitive, in order."""
        if not len(prims):
            return
        vals = self._feedback_values(prims.reshape(-1, prims.shape[-1])).reshape(len(prims), prims.shape[1], -1)
        per_vertex = vals.shape[-1]
        head = 2 if with_count else 1
        lengths = head + counts * per_vertex
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        out = np.zeros(int(lengths.sum()), np.float32)
        out[starts] = tokens
        if with_count:
            out[starts + 1] = counts
        mask = np.arange(prims.shape[1])[None, :] < counts[:, None]
        slot = starts[:, None] + head + np.arange(prims.shape[1])[None, :] * per_vertex      # (P, M)
        dest = slot[mask][:, None] + np.arange(per_vertex)[None, :]
        out[dest] = vals[mask]
        self._records.append(out)

    def _feedback_values(self, verts: np.ndarray) -> np.ndarray:
        """(N, values) of the feedback type: window x, y[, z[, w]][, colour][, texture coordinate]."""
        coords, colour, texture = _FEEDBACK_TYPES[self._feedback_dest[1]]
        win = self._window(verts)
        parts = [win[:, :coords]]
        if colour:
            parts.append(verts[:, _COL])
        if texture:
            parts.append(verts[:, _TEX])
        return np.concatenate(parts, 1)

    def _window(self, verts: np.ndarray) -> np.ndarray:
        """(N, 4) window x, y, z and clip w."""
        clip = verts[:, _CLIP]
        w = np.where(np.abs(clip[:, 3]) > 1e-30, clip[:, 3], 1e-30)
        ndc = clip[:, :3] / w[:, None]
        vx, vy, vw, vh = self.state.viewport
        n, f = self.state.depth_range
        return np.stack([vx + (ndc[:, 0] + 1) * vw / 2, vy + (ndc[:, 1] + 1) * vh / 2,
                         (f - n) / 2 * ndc[:, 2] + (n + f) / 2, clip[:, 3]], 1)

    # -- clipping ---------------------------------------------------------------------------------
    def _clip_planes_of(self, verts: np.ndarray) -> list:
        """Signed distances (inside >= 0) of vertices (..., D) to every plane: the
        view volume's six, then each enabled user clip plane's (the _DIST columns)."""
        c = verts[..., _CLIP]
        d = [c[..., 3] + c[..., i] for i in range(3)] + [c[..., 3] - c[..., i] for i in range(3)]
        d += [verts[..., _DIST + i] for i in self._user_planes()]
        return d

    def _user_planes(self) -> list[int]:
        """The enabled user clip planes (GL 4.6 compatibility section 13.7)."""
        return [i for i in range(len(self.clip_planes)) if E.GL_CLIP_DISTANCE0 + i in self.state.enabled]

    def _plane_distances(self, out: np.ndarray, clip_vertex: np.ndarray) -> None:
        """The _DIST columns of ``out``: each enabled plane (eye coordinates) dotted
        with ``clip_vertex`` (N, 4)."""
        for i in self._user_planes():
            out[:, _DIST + i] = clip_vertex @ np.asarray(self.clip_planes[i], np.float64)

    def _clip(self, prims: np.ndarray, counts: np.ndarray, closed: bool) -> tuple[np.ndarray, np.ndarray]:
        """Clip primitives (P, M, D) of counts vertices: points are kept or
        dropped, lines (closed=False, M=2) cut parametrically, polygons cut
        plane by plane (Sutherland-Hodgman, every polygon at once)."""
        if prims.shape[1] == 1:
            inside = np.all([d[:, 0] >= 0 for d in self._clip_planes_of(prims)], 0)
            return prims, np.where(inside, counts, 0)
        if not closed:
            t0, t1 = np.zeros(len(prims)), np.ones(len(prims))
            for d in self._clip_planes_of(prims):
                d0, d1 = d[:, 0], d[:, 1]
                out = (d0 < 0) & (d1 < 0)
                t = np.divide(d0, d0 - d1, out=np.zeros_like(d0), where=d0 != d1)
                t0 = np.where(d0 < 0, np.maximum(t0, t), t0)
                t1 = np.where(d1 < 0, np.minimum(t1, t), t1)
                t1 = np.where(out, -1.0, t1)
            a, b = prims[:, 0], prims[:, 1]
            clipped = np.stack([a + (b - a) * t0[:, None], a + (b - a) * t1[:, None]], 1)
            return clipped, np.where(t0 <= t1, 2, 0)
        for k in range(len(self._clip_planes_of(prims[:1]))):
            if not len(prims):
                break
            prims, counts = _clip_polygons(prims, counts, self._clip_planes_of(prims)[k])
        return prims, counts

    # -- the vertex transform ----------------------------------------------------------------------
    def _vertex_columns(self, ids: np.ndarray) -> np.ndarray:
        """(N, _COLUMNS) clip position, eye position, colour, texture coordinate 0,
        back colour and user clip distances of vertices ids (fixed-function
        transform, lighting; a GLSL program's vertex stage when one is current)."""
        prog = self.current_program
        units = prog.linked_state.units if prog is not None and prog.linked_state is not None else {}
        if "vertex" in units and not units.keys() & {"geometry", "tess_control", "tess_evaluation"}:
            return self._program_vertex_columns(prog, ids)
        obj = self._positions(ids)
        eye = obj @ self.legacy.stacks[0][-1].T
        clip = eye @ self.legacy.stacks[1][-1].T
        out = np.zeros((len(ids), _COLUMNS))
        out[:, _CLIP], out[:, _EYE] = clip, eye
        self._plane_distances(out, eye)
        if self.legacy.render_mode == E.GL_SELECT:
            return out
        colour = self._array_or_current((E.GL_COLOR_ARRAY, 0), ids, self.legacy.current_color, (0.0, 0.0, 0.0, 1.0))
        if E.GL_LIGHTING in self.state.enabled:
            normal = self._array_or_current((E.GL_NORMAL_ARRAY, 0), ids, self.legacy.current_normal, (0.0, 0.0, 1.0))
            if self._two_sided():
                out[:, _BACK] = self._lit_colors(eye, normal[:, :3], colour, back=True)[0]
            colour = self._lit_colors(eye, normal[:, :3], colour)[0]
        out[:, _COL] = np.clip(colour, 0.0, 1.0)
        tex = self._array_or_current((E.GL_TEXTURE_COORD_ARRAY, 0), ids, self.legacy.current_texcoords[0],
                                     (0.0, 0.0, 0.0, 1.0))
        out[:, _TEX] = tex @ self.legacy.stacks[2][0][-1].T
        return out

    def program_front_facing(self, mode: int, ids: np.ndarray) -> np.ndarray | None:
        """Whether each of ``polygons(mode, len(ids))`` faces the front, from the
        clip positions the current program's vertex stage produces for vertices ids
        (GL 2.1 section 3.5.1: the sign of the polygon's area in window coordinates),
        or None when no program's vertex stage alone is current (the fixed-function
        transform is then the vertex stage; a geometry or tessellation stage never
        outputs polygons of more than three vertices)."""
        prog = self.current_program
        units = prog.linked_state.units if prog is not None and prog.linked_state is not None else {}
        if "vertex" not in units or units.keys() & {"geometry", "tess_control", "tess_evaluation"}:
            return None
        return self._front_facing(self._program_vertex_columns(prog, ids)[polygons(mode, len(ids))])

    def _program_vertex_columns(self, prog, ids: np.ndarray) -> np.ndarray:
        """The columns of vertices ids from the program's vertex stage (GL 2.1
        sections 5.2 and 5.3 select and feed back the vertices the vertex shader
        produced): the stage runs on the GPU over the vertices as points, with
        rasterisation discarded, into a transform feedback buffer of its own
        (_captured_columns)."""
        return self._captured_columns(prog, "vertex", E.GL_POINTS, E.GL_POINTS, ids, len(ids))[0]

    def _record_later_stages(self, prog, mode: int, ids: np.ndarray) -> None:
        """Selection hits or feedback tokens of a draw through a program with a
        geometry or tessellation stage: the draw runs through all its stages on the
        GPU, the last one's primitives captured by transform feedback (as independent
        points, lines or triangles, GL 4.6 section 13.3), which are then clipped,
        culled and recorded as the fixed-function path's are."""
        units = prog.linked_state.units
        if "geometry" in units:
            from driver.gl.geometry import feedback_primitive
            last, primitive = "geometry", feedback_primitive(prog)
            lay = prog.linked_state.geometry
            # each input vertex may start a primitive; a strip of V vertices records at most 3V
            capacity = 3 * len(ids) * lay.max_vertices * max(1, getattr(lay, "invocations", 1) or 1)
        else:
            last = "tess_evaluation"
            primitive = {"points": E.GL_POINTS, "line_strip": E.GL_LINES,
                         "triangle_strip": E.GL_TRIANGLES}[prog.linked_state.tessellation.output]
            # every level at the maximum: a patch gives at most 2 * level^2 triangles (3 vertices each)
            level = self.glGetIntegerv(E.GL_MAX_TESS_GEN_LEVEL)[0]
            patches = len(ids) // max(1, self.glGetIntegerv(E.GL_PATCH_VERTICES)[0])
            capacity = 6 * level * level * patches
        columns, n = self._captured_columns(prog, last, mode, primitive, ids, capacity)
        columns = columns[:n]
        per = {E.GL_POINTS: 1, E.GL_LINES: 2, E.GL_TRIANGLES: 3}[primitive]
        n -= n % per
        if n:
            self._record_local(primitive, np.arange(n), np.arange(n), columns=columns[:n])

    def _captured_columns(self, prog, last: str, mode: int, primitive: int, ids: np.ndarray,
                          capacity: int) -> tuple[np.ndarray, int]:
        """(columns, rows written) of the vertices stage ``last`` of ``prog`` outputs
        when vertices ids are drawn as ``mode``, captured by transform feedback as
        ``primitive`` into a buffer of ``capacity`` vertices of its own, with
        rasterisation discarded: gl_Position; for feedback also gl_FrontColor and
        gl_TexCoord[0] when the stage writes them, else colour (0, 0, 0, 0) and
        texture coordinate (0, 0, 0, 1). The enabled user clip planes clip them as
        a draw's would (GL 4.6 compatibility section 13.7, as the compiler lowers
        it): by the gl_ClipDistance[i] the stage writes, else by the plane dotted
        with gl_ClipVertex (gl_Position when the stage writes neither)."""
        from driver.gl.objects import Buffer, TransformFeedback
        names = ["gl_Position"]
        written = {v.name for u in _units(prog.linked_state.units[last])
                   for v in u.builtin_variables if getattr(v, "assigned", False)}
        if self.legacy.render_mode == E.GL_FEEDBACK:
            names += [n for n, base in (("gl_FrontColor", "gl_FrontColor"), ("gl_TexCoord[0]", "gl_TexCoord"))
                      if base in written]
        planes = self._user_planes()
        if planes and "gl_ClipDistance" in written:
            names += [f"gl_ClipDistance[{i}]" for i in planes]
        elif planes and "gl_ClipVertex" in written:
            names.append("gl_ClipVertex")
        cap = self._capture_program(prog, tuple(names))
        data = prog.linked_state.uniform_data
        cap.linked_state.uniform_storage.write(0, data)            # the same default block
        stride_dw = cap.linked_state.tf_layout.stride_dw[0]
        out = np.zeros((capacity, _COLUMNS))
        out[:, _TEX.start + 3] = 1.0
        if not len(ids) or not capacity:
            return out, 0
        size_B = 4 * stride_dw * capacity
        buf = Buffer(0)
        # every word starts as one NaN pattern: the rows the stage wrote are the ones before
        # the first row still holding it (records are written from the start, in order)
        self._allocate(buf, size_B, np.full(size_B // 4, _UNWRITTEN, np.uint32).tobytes())
        x = TransformFeedback(0, active=True, primitive_mode=primitive, program=cap)
        x.buffers = [(buf, 0, size_B)] + [(None, 0, 0)] * 3
        x.first_emit = True
        saved = (self.xfb, self.current_program, self.legacy.render_mode, self.vao.element_buffer)
        discard = E.GL_RASTERIZER_DISCARD in self.state.enabled
        try:
            self.xfb, self.current_program, self.legacy.render_mode = x, cap, E.GL_RENDER
            self.vao.element_buffer = None
            if not discard:
                self.glEnable(E.GL_RASTERIZER_DISCARD)
            self.glDrawElements(mode, len(ids), E.GL_UNSIGNED_INT, np.ascontiguousarray(ids, np.uint32).tobytes())
            self.pipe.set_stream_output_targets([], [])
            raw = np.frombuffer(read_buffer(self, buf, 0, size_B), np.uint32).reshape(capacity, stride_dw)
        finally:
            if not discard:
                self.glDisable(E.GL_RASTERIZER_DISCARD)
            self.xfb, self.current_program, self.legacy.render_mode, self.vao.element_buffer = saved
            self.screen.resource_destroy(buf.resource)
        unwritten = np.flatnonzero((raw == _UNWRITTEN).all(1))
        n = int(unwritten[0]) if len(unwritten) else capacity
        records = raw.view(np.float32)
        out[:, _CLIP] = records[:, 0:4]
        at = 4
        clip_vertex = out[:, _CLIP]
        for name in names[1:]:
            if name.startswith("gl_ClipDistance["):
                out[:, _DIST + int(name[len("gl_ClipDistance["):-1])] = records[:, at]
                at += 1
                continue
            if name == "gl_ClipVertex":
                clip_vertex = records[:, at:at + 4]
            else:
                out[:, _COL if name == "gl_FrontColor" else _TEX] = records[:, at:at + 4]
            at += 4
        if not any(name.startswith("gl_ClipDistance[") for name in names):
            self._plane_distances(out, clip_vertex)
        out[:, _BACK] = out[:, _COL]
        return out, n

    def _capture_program(self, prog, names: tuple):
        """A program of ``prog``'s shaders and bindings capturing ``names`` (linked once
        per link of ``prog``; not in the program namespace)."""
        from driver.gl.objects import Program
        cache = self.__dict__.setdefault("_select_capture", {})
        hit = cache.get((id(prog.linked_state), names))
        if hit is not None and hit[0] is prog.linked_state:
            return hit[1]
        from compiler.glsl import types as GT
        from driver.gl.feedback import feedback_layout
        cap = Program(0, shaders=list(prog.shaders), attrib_bindings=dict(prog.attrib_bindings),
                      frag_data_bindings=dict(prog.frag_data_bindings))
        ls = cap.linked_state = self._link(cap)
        cap.linked = True
        # the captured built-ins, compatibility colour and texture coordinates included
        # (what glTransformFeedbackVaryings does not offer yet), one buffer, interleaved
        vec4 = GT.vector("float", 4)
        outputs = {"gl_Position": vec4, "gl_FrontColor": vec4, "gl_TexCoord": GT.array_of(vec4, 8),
                   "gl_ClipVertex": vec4, "gl_ClipDistance": GT.array_of(GT.FLOAT, 8)}
        ls.tf_varyings = list(names)
        ls.tf_layout = feedback_layout(names, True, outputs, advanced=False, max_buffers=1, max_separate=4,
                                       max_interleaved=64)
        self._create_pipe_shaders(cap)
        if len(cache) > 16:
            cache.clear()
        cache[(id(prog.linked_state), names)] = (prog.linked_state, cap)
        return cap

    def _array_or_current(self, key, ids, current, default) -> np.ndarray:
        entry = self.vao.legacy.get(key)
        if entry is not None and entry[0].enabled:
            v = self._read_rows(*entry, ids)
        else:
            v = np.tile(np.asarray(current, np.float64), (len(ids), 1))
        out = np.tile(np.asarray(default, np.float64), (len(ids), 1))
        out[:, :min(v.shape[1], out.shape[1])] = v[:, :out.shape[1]]
        return out

    def _lit_colors(self, eye: np.ndarray, normal: np.ndarray, colour: np.ndarray, back: bool = False) -> tuple:
        """Equation 2.1 for the front (or back: back material, reversed
        normal) face of N vertices: (primary (N, 4), secondary (N, 4)) from eye
        positions, object normals and the vertex colours (which colour
        material tracks)."""
        L = self.legacy
        m = L.materials[1 if back else 0]
        if back:
            normal = -normal
        n_vtx = len(eye)

        def param(what):
            cm = E.GL_COLOR_MATERIAL in self.state.enabled and \
                L.color_material_face in (E.GL_BACK if back else E.GL_FRONT, E.GL_FRONT_AND_BACK)
            mode = L.color_material_mode
            if cm and (mode == what or (mode == E.GL_AMBIENT_AND_DIFFUSE and what in (E.GL_AMBIENT, E.GL_DIFFUSE))):
                return colour
            value = {E.GL_AMBIENT: m.ambient, E.GL_DIFFUSE: m.diffuse, E.GL_SPECULAR: m.specular,
                     E.GL_EMISSION: m.emission}[what]
            return np.tile(np.asarray(value, np.float64), (n_vtx, 1))

        amb, dif, spe, emi = (param(w) for w in (E.GL_AMBIENT, E.GL_DIFFUSE, E.GL_SPECULAR, E.GL_EMISSION))
        nm = np.linalg.inv(self.legacy.stacks[0][-1][:3, :3]).T
        nrm = normal @ nm.T
        if E.GL_NORMALIZE in self.state.enabled or E.GL_RESCALE_NORMAL in self.state.enabled:
            length = np.linalg.norm(nrm, axis=1, keepdims=True)
            nrm = nrm / np.where(length > 0, length, 1.0)
        w = np.where(eye[:, 3:] != 0, eye[:, 3:], 1.0)
        p = eye[:, :3] / w
        rgb = emi[:, :3] + amb[:, :3] * np.asarray(L.light_model_ambient[:3])
        spec = np.zeros((n_vtx, 3))
        for i, li in enumerate(L.lights):
            if E.GL_LIGHT0 + i not in self.state.enabled:
                continue
            pos = np.asarray(li.position, np.float64)
            att = np.ones(n_vtx)
            if pos[3] == 0:
                vp = np.tile(pos[:3] / (np.linalg.norm(pos[:3]) or 1.0), (n_vtx, 1))
            else:
                d_vec = pos[:3] / pos[3] - p
                d = np.linalg.norm(d_vec, axis=1)
                d = np.where(d > 0, d, 1.0)
                vp = d_vec / d[:, None]
                k0, k1, k2 = li.attenuation
                att = 1.0 / (k0 + k1 * d + k2 * d * d)
            if li.spot_cutoff != 180.0:
                sd = np.asarray(li.spot_direction, np.float64)
                cos_a = -vp @ (sd / (np.linalg.norm(sd) or 1.0))
                inside = cos_a >= np.cos(np.radians(li.spot_cutoff))
                att = att * np.where(inside, np.maximum(cos_a, 1e-20) ** li.spot_exponent, 0.0)
            nl = np.sum(nrm * vp, 1)
            if L.local_viewer:
                plen = np.linalg.norm(p, axis=1, keepdims=True)
                eye_dir = -p / np.where(plen > 0, plen, 1.0)
            else:
                eye_dir = np.array([0.0, 0.0, 1.0])
            h = vp + eye_dir
            h = h / np.where(np.linalg.norm(h, axis=1, keepdims=True) > 0, np.linalg.norm(h, axis=1, keepdims=True),
                             1.0)
            rgb = rgb + att[:, None] * (amb[:, :3] * li.ambient[:3]
                                        + np.maximum(nl, 0.0)[:, None] * dif[:, :3] * li.diffuse[:3])
            nh = np.maximum(np.sum(nrm * h, 1), 1e-20)
            spec = spec + np.where(nl > 0, att * nh ** m.shininess, 0.0)[:, None] * spe[:, :3] * li.specular[:3]
        alpha = dif[:, 3:4]
        if L.color_control == E.GL_SEPARATE_SPECULAR_COLOR:
            return (np.concatenate([np.clip(rgb, 0, 1), alpha], 1),
                    np.concatenate([np.clip(spec, 0, 1), np.zeros((n_vtx, 1))], 1))
        return np.concatenate([np.clip(rgb + spec, 0, 1), alpha], 1), np.zeros((n_vtx, 4))

    # -- pixel rectangles and the raster position --------------------------------------------------
    def _record_raster(self, token: int | None) -> None:
        """A pixel rectangle (or glRasterPos, token None) in selection or
        feedback mode: a hit at the raster z, or the token and the raster
        position as a vertex."""
        r = self.legacy.raster
        if not r.valid:
            return
        if self.legacy.render_mode == E.GL_SELECT:
            self._add_hit(np.array([r.window[2]]))
            return
        if token is None:
            return
        coords, colour, texture = _FEEDBACK_TYPES[self._feedback_dest[1]]
        vals = [*r.window[:coords]]
        if colour:
            vals += list(r.color)
        if texture:
            vals += list(r.texcoords[0])
        self._records.append(np.array([token, *vals], np.float32))


def _clip_polygons(prims: np.ndarray, counts: np.ndarray, dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One Sutherland-Hodgman step for every polygon: each edge i -> i+1
    emits vertex i when it is inside and the crossing point when the edge
    crosses the plane; the emitted vertices are compacted to the front."""
    P, M, D = prims.shape
    idx = np.arange(M)[None, :]
    valid = idx < counts[:, None]
    nxt = np.where(idx + 1 < counts[:, None], idx + 1, 0)
    v_next = np.take_along_axis(prims, nxt[:, :, None], 1)
    d_next = np.take_along_axis(dist, nxt, 1)
    inside, inside_next = dist >= 0, d_next >= 0
    t = np.divide(dist, dist - d_next, out=np.zeros_like(dist), where=dist != d_next)
    cross = prims + (v_next - prims) * t[:, :, None]
    out = np.stack([prims, cross], 2).reshape(P, 2 * M, D)
    keep = np.stack([valid & inside, valid & (inside != inside_next)], 2).reshape(P, 2 * M)
    order = np.argsort(~keep, axis=1, kind="stable")
    new_counts = keep.sum(1)
    width = max(int(new_counts.max()) if P else 0, 1)
    out = np.take_along_axis(out, order[:, :width, None], 1)
    return out, new_counts


def _units(unit) -> list:
    """The translation units of a linked stage (one, or a stage's objects)."""
    return unit if isinstance(unit, list) else [unit]


def _deliver(dest, values: np.ndarray) -> None:
    """Write the values into the caller's buffer (array, bytearray or writer)."""
    if dest is None:
        return
    if callable(dest):
        dest(values)
        return
    if isinstance(dest, np.ndarray):
        flat = dest.reshape(-1)
        flat[:len(values)] = values.astype(flat.dtype)
        return
    view = np.frombuffer(dest, values.dtype)
    view[:len(values)] = values
