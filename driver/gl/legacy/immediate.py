"""Immediate mode (GL 2.1 sections 2.6-2.9): glBegin/glEnd, the vertex
commands in every size and type (generated from one table), edge flags,
fog coordinates, glArrayElement, glInterleavedArrays, the legacy array
pointers not in driver.gl.compat, and glRect*.

Vertices are accumulated as tuples of the current values (one Python call
per glVertex is inherent to the API) and drawn in bulk at glEnd from
temporary client arrays, so the fixed-function program, a user program
reading gl_Color & co., and the driver's primitive conversion (quads,
quad strips, polygons) all apply unchanged."""

from __future__ import annotations

from itertools import chain

import numpy as np

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.errors import check, check_enum
from driver.gl.legacy.ffgen import MATERIAL_FIELDS, material_attribute
from driver.gl.pointers import ClientMemory
from driver.gl.buffers import read_buffer

__all__ = ["ImmediateMixin", "allowed_in_begin_end", "PRIMITIVES"]

PRIMITIVES = (E.GL_POINTS, E.GL_LINES, E.GL_LINE_LOOP, E.GL_LINE_STRIP, E.GL_TRIANGLES,
              E.GL_TRIANGLE_STRIP, E.GL_TRIANGLE_FAN, E.GL_QUADS, E.GL_QUAD_STRIP, E.GL_POLYGON)

_PREFIXES_OK = ("glVertex", "glColor", "glSecondaryColor", "glIndex", "glNormal", "glMaterial",
                "glFogCoord", "glTexCoord", "glMultiTexCoord", "glEvalCoord", "glEvalPoint",
                "glEdgeFlag", "glCallList")


def allowed_in_begin_end(name: str) -> bool:
    """GL 2.1 section 2.6.3: the commands that may appear between Begin and End
    (an ARB/EXT-suffixed alias as its core command)."""
    name = name[:-3] if name.endswith(("ARB", "EXT")) else name
    if name in ("glArrayElement", "glEnd", "glGetError", "glPrimitiveRestartNV"):
        return True
    if name.endswith(("Pointer", "Divisor")) or name in ("glColorMaterial", "glColorMask", "glColorMaski"):
        return False
    return name.startswith(_PREFIXES_OK)



# (array, unit) -> components, for the temporary arrays of a Begin/End batch
_TYPES_NP = {E.GL_BYTE: np.int8, E.GL_UNSIGNED_BYTE: np.uint8, E.GL_SHORT: np.int16,
             E.GL_UNSIGNED_SHORT: np.uint16, E.GL_INT: np.int32, E.GL_UNSIGNED_INT: np.uint32,
             E.GL_FLOAT: np.float32, E.GL_DOUBLE: np.float64, E.GL_HALF_FLOAT: np.float16}


class ImmediateMixin:
    def _init_family(self) -> None:
        self._im = None              # list of vertex tuples between Begin and End
        self._im_mode = None
        self._im_materials = None    # [(first vertex, material snapshot)] when glMaterial is called inside
        self._im_generic = None      # {index: [(first vertex, values)]}: glVertexAttrib calls inside
        self._vertex_materials = ()  # (side, what) fed per vertex to the fixed-function program

    # -- Begin / End ---------------------------------------------------------------------
    def glBegin(self, mode: int) -> None:
        check(self._im is None, E.GL_INVALID_OPERATION, "glBegin inside glBegin/glEnd")
        check_enum(mode, self._draw_modes(), f"bad primitive {mode:#x}")   # adjacency, patches: as glDrawArrays
        self._dual_source_validate()
        self._im, self._im_mode, self._im_materials, self._im_generic = [], mode, None, None
        self._select_dispatch()

    def glEnd(self) -> None:
        check(self._im is not None, E.GL_INVALID_OPERATION, "glEnd without glBegin")
        verts, mode, materials, generic = self._im, self._im_mode, self._im_materials, self._im_generic
        self._im = self._im_mode = self._im_materials = self._im_generic = None
        self._select_dispatch()
        if verts:
            self._draw_vertex_tuples(mode, verts, materials, generic)

    @extends
    def _set_current(self, core, index, values, kind) -> None:
        """GL 2.1 section 2.7: between Begin and End, setting generic attribute 0
        specifies a vertex, as glVertex does (with the other current values); the other
        generic attributes are per-vertex values, as the colour is."""
        if self._im is None:
            return core(index, values, kind)
        before = self.current_attribs[index] if 0 <= index < len(self.current_attribs) else None
        core(index, values, kind)
        if index == 0:
            self._emit_vertex(*(float(v) for v in self.current_attribs[0][0]))
            return
        if self._im_generic is None:
            self._im_generic = {}
        changes = self._im_generic.setdefault(index, [(0, before)])
        changes.append((len(self._im), self.current_attribs[index]))

    @extends
    def _set_material(self, core, face, pname, params, as_int) -> None:
        """Section 2.14.2: a material change between Begin and End applies
        from the next vertex on; the snapshots become per-vertex attributes."""
        if self._im is None:
            return core(face, pname, params, as_int)
        if self._im_materials is None:
            self._im_materials = [(0, self._material_snapshot())]
        core(face, pname, params, as_int)
        self._im_materials.append((len(self._im), self._material_snapshot()))

    def _material_snapshot(self) -> tuple:
        return tuple(getattr(m, what) for m in self.legacy.materials for what in MATERIAL_FIELDS)

    def _set_material_snapshot(self, snap: tuple) -> None:
        values = iter(snap)
        for m in self.legacy.materials:
            for what in MATERIAL_FIELDS:
                setattr(m, what, next(values))

    def _emit_vertex(self, x, y, z, w) -> None:
        """A vertex with the current values (section 2.7); outside Begin/End
        it only sets the current vertex attribute 0 (no effect in GL 2.1)."""
        if self._im is None:
            return
        self._im.append(((x, y, z, w), self.legacy.current_color, self.legacy.current_secondary_color,
                         self.legacy.current_normal, tuple(self.legacy.current_texcoords), self.legacy.fog_coord,
                         self.legacy.edge_flag))

    def _draw_vertex_tuples(self, mode: int, verts: list, materials: list | None = None,
                            generic: dict | None = None) -> None:
        """Draw a Begin/End batch from temporary client arrays of its values;
        the primitive rules (primitives.py) apply as to any array draw.
        `materials`: the material snapshots of glMaterial calls inside the
        batch, fed per vertex to the fixed-function lighting; `generic`: the
        generic attributes set inside it, {index: [(first vertex, values)]}."""
        pos, col, sec, nrm, tcs, fog, edge = zip(*verts)
        L = self.legacy
        arrays = {(E.GL_VERTEX_ARRAY, 0): _column(pos)}
        # a value every vertex shares that is also the current one (and no enabled array of
        # that kind to hide) is read as the current value without a temporary array: the
        # same values, without building and uploading an array for each (most batches set
        # only positions and one texture coordinate)
        if not self._shared_current(col, L.current_color, (E.GL_COLOR_ARRAY, 0)):
            arrays[(E.GL_COLOR_ARRAY, 0)] = _column(col)
        if not (L.current_secondary_color[3:] == (1.0,)
                and self._shared_current(sec, L.current_secondary_color, (E.GL_SECONDARY_COLOR_ARRAY, 0))):
            arrays[(E.GL_SECONDARY_COLOR_ARRAY, 0)] = _column(sec)[:, :3]
        if not self._shared_current(nrm, L.current_normal, (E.GL_NORMAL_ARRAY, 0)):
            arrays[(E.GL_NORMAL_ARRAY, 0)] = _column(nrm)
        if not self._shared_current(fog, L.fog_coord, (E.GL_FOG_COORD_ARRAY, 0)):
            arrays[(E.GL_FOG_COORD_ARRAY, 0)] = np.asarray(fog, np.float32).reshape(-1, 1)
        # edge flags only when one is false (or the current one is, which a draw
        # without the array would take): all true is what the GPU's rasterizer draws
        if not all(edge) or not self.legacy.edge_flag:
            arrays[(E.GL_EDGE_FLAG_ARRAY, 0)] = np.asarray(edge, np.float32).reshape(-1, 1)
        # generic attribute 0 aliases the vertex position (GL 4.6 compatibility section
        # 10.2): a program's attribute bound at location 0 reads glVertex's values
        arrays[("generic", 0)] = arrays[(E.GL_VERTEX_ARRAY, 0)]
        for index, changes in (generic or {}).items():
            starts = np.array([first for first, _ in changes])
            which = np.searchsorted(starts, np.arange(len(verts)), side="right") - 1
            # glVertexAttribI*'s values stay integers (an unsigned 2^32 - 1 is no float32):
            # the kind of the values the vertices take decides the array's type
            kinds = {changes[i][1][1] for i in np.unique(which)}
            dtype = {"int": np.int32, "uint": np.uint32}.get(kinds.pop(), np.float32) if len(kinds) == 1 \
                else np.float32
            wide = np.float64 if dtype is np.float32 else np.int64    # values no vertex takes may not fit
            arrays[("generic", index)] = np.array([v for _, (v, _) in changes], wide).astype(dtype)[which]
        constant = tcs.count(tcs[0]) == len(tcs)
        for u in range(8):
            column = (tcs[0][u],) * len(tcs) if constant else [t[u] for t in tcs]
            if not self._shared_current(column, L.current_texcoords[u], (E.GL_TEXTURE_COORD_ARRAY, u)):
                arrays[(E.GL_TEXTURE_COORD_ARRAY, u)] = _column(column)
        after = None
        try:
            if materials is not None:
                after = self._material_arrays(materials, len(verts), arrays)
            self._draw_temporary_arrays(mode, arrays, len(verts))
        finally:
            self._vertex_materials = ()
            if after is not None:
                self._set_material_snapshot(after)

    def _shared_current(self, values, current, key) -> bool:
        """Every vertex's value is ``current``, the current value a draw reads where no
        array of ``key`` is enabled, and none is."""
        if values.count(current) != len(values):
            return False
        entry = self.vao.legacy.get(key)
        return entry is None or not entry[0].enabled

    def _material_arrays(self, materials: list, n: int, arrays: dict) -> tuple | None:
        """Add the per-vertex arrays of the material parameters that change
        within the batch (at the locations the fixed-function program gives
        them) and key the program on them. A user program reads the
        gl_*Material uniforms: the values at glBegin, as on Mesa, where the
        changes reach the material state once the batch is drawn; then the
        material state the batch's last changes made is returned, for after
        the draw (None: already current)."""
        if self.current_program is not None:
            after = self._material_snapshot()
            self._set_material_snapshot(materials[0][1])
            return after
        starts = np.array([i for i, _ in materials])
        snaps = [snap for _, snap in materials]
        which = np.searchsorted(starts, np.arange(n), side="right") - 1
        fields = [(side, what) for side in ("Front", "Back") for what in MATERIAL_FIELDS]
        varying = {}
        for k, (side, what) in enumerate(fields):
            values = np.array([np.atleast_1d(snap[k]) for snap in snaps], np.float32)
            if (values != values[0]).any():
                varying[(side, what)] = values[which]
        if not varying:
            return None
        self._vertex_materials = tuple(varying)
        prog = self._program_for_draw()
        attributes = prog.linked_state.attributes
        for (side, what), data in varying.items():
            entry = attributes.get(material_attribute(side, what))
            if entry is not None:
                arrays[("generic", entry[0])] = data

    @extends
    def _legacy_current(self, core, name: str) -> tuple:
        """The current value of a built-in input without an enabled array;
        the fog coordinate's is kept here (glFogCoord)."""
        if name == "gl_FogCoord":
            return (self.legacy.fog_coord, 0.0, 0.0, 1.0)
        return core(name)

    # -- per-vertex state that driver.gl.compat does not keep ----------------------------
    def glEdgeFlag(self, flag) -> None:
        self.legacy.edge_flag = bool(flag)

    def glEdgeFlagv(self, v) -> None:
        self.glEdgeFlag(_first(v))

    def glFogCoordf(self, coord) -> None:
        self.legacy.fog_coord = float(coord)

    glFogCoordd = glFogCoordf

    def glFogCoordfv(self, v) -> None:
        self.glFogCoordf(_first(v))

    glFogCoorddv = glFogCoordfv

    # -- glRect (section 2.10) -----------------------------------------------------------
    def glRectf(self, x1, y1, x2, y2) -> None:
        """Begin(POLYGON); Vertex2(x1, y1) ... Vertex2(x1, y2); End."""
        verts = []
        for x, y in ((x1, y1), (x2, y1), (x2, y2), (x1, y2)):
            verts.append(((float(x), float(y), 0.0, 1.0), self.legacy.current_color,
                          self.legacy.current_secondary_color, self.legacy.current_normal,
                          tuple(self.legacy.current_texcoords), self.legacy.fog_coord, True))
        self._draw_vertex_tuples(E.GL_POLYGON, verts)

    glRectd = glRecti = glRects = glRectf

    def glRectfv(self, v1, v2) -> None:
        self.glRectf(v1[0], v1[1], v2[0], v2[1])

    glRectdv = glRectiv = glRectsv = glRectfv

    # -- more legacy arrays (section 2.8) -------------------------------------------------
    def glFogCoordPointer(self, type, stride, pointer) -> None:
        self._legacy_pointer(E.GL_FOG_COORD_ARRAY, 1, type, stride, pointer, (1,),
                             (E.GL_FLOAT, E.GL_DOUBLE, E.GL_HALF_FLOAT), False)

    def glEdgeFlagPointer(self, stride, pointer) -> None:
        self._legacy_pointer(E.GL_EDGE_FLAG_ARRAY, 1, E.GL_UNSIGNED_BYTE, stride, pointer, (1,),
                             (E.GL_UNSIGNED_BYTE,), False)

    def glIndexPointer(self, type, stride, pointer) -> None:
        self._legacy_pointer(E.GL_INDEX_ARRAY, 1, type, stride, pointer, (1,),
                             (E.GL_UNSIGNED_BYTE, E.GL_SHORT, E.GL_INT, E.GL_FLOAT, E.GL_DOUBLE), False)

    @extends
    def _client_state_caps(self, core) -> set[int]:
        caps = core()
        if self.api.es1:         # OpenGL ES 1.1 section 2.8: its four arrays and OES_point_size_array
            return {E.GL_VERTEX_ARRAY, E.GL_NORMAL_ARRAY, E.GL_COLOR_ARRAY, E.GL_TEXTURE_COORD_ARRAY}\
                | ({E.GL_POINT_SIZE_ARRAY_OES} if self.api.has_extension("GL_OES_point_size_array") else set())
        if self.api.compat:
            caps |= {E.GL_EDGE_FLAG_ARRAY, E.GL_INDEX_ARRAY}
        return caps

    def _element(self, array: int, unit: int, i: int):
        """The values of element i of an enabled legacy array, as floats
        (normalised when the array is), or None."""
        entry = self.vao.legacy.get((array, unit))
        if entry is None or not entry[0].enabled:
            return None
        a, b = entry
        size = 4 if a.size == E.GL_BGRA else a.size
        dt = np.dtype(_TYPES_NP[a.type])
        stride = a.stride or size * dt.itemsize
        if b.buffer is not None:
            raw = read_buffer(self, b.buffer, b.offset + i * stride, size * dt.itemsize)
        else:
            raw = a.pointer.read(i * stride, size * dt.itemsize)
        v = np.frombuffer(raw, dt).astype(np.float64)
        if a.normalized and dt.kind in "iu":
            bits = 8 * dt.itemsize
            v = v / (2 ** bits - 1) if dt.kind == "u" else np.maximum(v / (2 ** (bits - 1) - 1), -1.0)
        if a.size == E.GL_BGRA:
            v = v[[2, 1, 0, 3]]
        return [float(x) for x in v]

    def glArrayElement(self, i: int) -> None:
        """Section 2.8: the immediate-mode commands for element i of every
        enabled array, the vertex last."""
        check(i >= 0, E.GL_INVALID_VALUE, "negative index")
        if (self._im is not None and E.GL_PRIMITIVE_RESTART in self.state.enabled
                and i == self.state.primitive_restart_index):
            # GL 4.6 compatibility section 10.3.6 / NV_primitive_restart: the restart
            # index restarts the primitive (glEnd, then glBegin of the same mode)
            mode = self._im_mode
            self.glEnd()
            self.glBegin(mode)
            return
        v = self._element(E.GL_EDGE_FLAG_ARRAY, 0, i)
        if v is not None:
            self.legacy.edge_flag = bool(v[0])
        for u in range(8):
            v = self._element(E.GL_TEXTURE_COORD_ARRAY, u, i)
            if v is not None:
                self.legacy.current_texcoords[u] = tuple(v + [0.0, 0.0, 1.0][len(v) - 1:])
        v = self._element(E.GL_FOG_COORD_ARRAY, 0, i)
        if v is not None:
            self.legacy.fog_coord = v[0]
        v = self._element(E.GL_SECONDARY_COLOR_ARRAY, 0, i)
        if v is not None:
            self.legacy.current_secondary_color = (*v[:3], 1.0)
        v = self._element(E.GL_COLOR_ARRAY, 0, i)
        if v is not None:
            self.legacy.current_color = tuple(v + [1.0][:4 - len(v)])
        v = self._element(E.GL_NORMAL_ARRAY, 0, i)
        if v is not None:
            self.legacy.current_normal = tuple(v[:3])
        v = self._element(E.GL_VERTEX_ARRAY, 0, i)
        if v is not None:
            self._emit_vertex(*(v + [0.0, 1.0][len(v) - 2:]))

    # -- glInterleavedArrays (section 2.8, table 2.5) -------------------------------------
    # format -> (texcoord size, colour size, colour type, normal, vertex size)
    _INTERLEAVED = {
        E.GL_V2F: (0, 0, 0, False, 2), E.GL_V3F: (0, 0, 0, False, 3),
        E.GL_C4UB_V2F: (0, 4, E.GL_UNSIGNED_BYTE, False, 2),
        E.GL_C4UB_V3F: (0, 4, E.GL_UNSIGNED_BYTE, False, 3),
        E.GL_C3F_V3F: (0, 3, E.GL_FLOAT, False, 3), E.GL_N3F_V3F: (0, 0, 0, True, 3),
        E.GL_C4F_N3F_V3F: (0, 4, E.GL_FLOAT, True, 3), E.GL_T2F_V3F: (2, 0, 0, False, 3),
        E.GL_T4F_V4F: (4, 0, 0, False, 4), E.GL_T2F_C4UB_V3F: (2, 4, E.GL_UNSIGNED_BYTE, False, 3),
        E.GL_T2F_C3F_V3F: (2, 3, E.GL_FLOAT, False, 3), E.GL_T2F_N3F_V3F: (2, 0, 0, True, 3),
        E.GL_T2F_C4F_N3F_V3F: (2, 4, E.GL_FLOAT, True, 3),
        E.GL_T4F_C4F_N3F_V4F: (4, 4, E.GL_FLOAT, True, 4)}

    def glInterleavedArrays(self, format: int, stride: int, pointer) -> None:
        check_enum(format, self._INTERLEAVED)
        check(stride >= 0, E.GL_INVALID_VALUE, "negative stride")
        st, sc, tc, en, sv = self._INTERLEAVED[format]
        f = 4
        pc = st * f
        pn = pc + (4 if tc == E.GL_UNSIGNED_BYTE else sc * f)
        pv = pn + (3 * f if en else 0)
        s = stride or pv + sv * f
        buf = self.buffer_bindings.get(E.GL_ARRAY_BUFFER)
        if buf is None and not isinstance(pointer, int):
            base = ClientMemory.wrap(pointer)

            def at(off):
                return base.offset(off)
        else:
            def at(off):
                return (pointer or 0) + off
        for cap in (E.GL_EDGE_FLAG_ARRAY, E.GL_INDEX_ARRAY, E.GL_FOG_COORD_ARRAY,
                    E.GL_SECONDARY_COLOR_ARRAY):
            self.vao.legacy_array(self.legacy.array_key(cap))[0].enabled = False
        tex = self.vao.legacy_array(self.legacy.array_key(E.GL_TEXTURE_COORD_ARRAY))[0]
        tex.enabled = bool(st)
        if st:
            self.glTexCoordPointer(st, E.GL_FLOAT, s, at(0))
        col = self.vao.legacy_array(self.legacy.array_key(E.GL_COLOR_ARRAY))[0]
        col.enabled = bool(sc)
        if sc:
            self.glColorPointer(sc, tc, s, at(pc))
        nrm = self.vao.legacy_array(self.legacy.array_key(E.GL_NORMAL_ARRAY))[0]
        nrm.enabled = en
        if en:
            self.glNormalPointer(E.GL_FLOAT, s, at(pn))
        self.glVertexPointer(sv, E.GL_FLOAT, s, at(pv))
        self.vao.legacy_array(self.legacy.array_key(E.GL_VERTEX_ARRAY))[0].enabled = True


def _column(values) -> np.ndarray:
    """(n, k) float32 from n tuples of k floats; a value every vertex shares
    (the same current-value tuple) is broadcast without converting n tuples."""
    first = values[0]
    with np.errstate(over="ignore"):        # beyond float's range: an infinity, as a C cast
        if values.count(first) == len(values):
            return np.tile(np.asarray(first, np.float32), (len(values), 1))
        k = len(first)
        return np.fromiter(chain.from_iterable(values), np.float32,
                           count=k * len(values)).reshape(-1, k)


def _first(v):
    check(not isinstance(v, (int, float)) and v is not None, E.GL_INVALID_VALUE, "array expected")
    return list(v)[0]


def _define_vertex_variants():
    """glVertex{2,3,4}{s,i,f,d}[v] (section 2.7): missing z = 0, w = 1."""
    def make(n, vector):
        def fn(self, *args):
            vals = [float(v) for v in (list(args[0])[:n] if vector else args)]
            check(len(vals) == n, E.GL_INVALID_VALUE, "wrong number of coordinates")
            self._emit_vertex(*(vals + [0.0, 1.0][n - 2:]))
        fn.__name__ = f"glVertex{n}"
        return fn

    for n in (2, 3, 4):
        for letter in ("s", "i", "f", "d"):
            for vector in (False, True):
                setattr(ImmediateMixin, f"glVertex{n}{letter}{'v' if vector else ''}", make(n, vector))


def _define_index_variants():
    """glIndex{s,i,f,d,ub}[v]: the current colour index (kept for glGet;
    there is no colour-index rendering)."""
    def make(vector):
        def fn(self, c):
            self.legacy.index = float(_first(c) if vector else c)
        return fn

    for letter in ("s", "i", "f", "d", "ub"):
        setattr(ImmediateMixin, f"glIndex{letter}", make(False))
        setattr(ImmediateMixin, f"glIndex{letter}v", make(True))


_define_vertex_variants()
_define_index_variants()
