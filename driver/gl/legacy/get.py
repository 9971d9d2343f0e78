"""glGet of the legacy state (GL 2.1 section 6.2, tables 6.5-6.37): the
entries added to the context's Get table for a compatibility context.
Per-light, per-material, texture environment and texgen state is read
with glGetLight/glGetMaterial/glGetTexEnv/glGetTexGen (fixedfunc.py)."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from driver.gl.color_clamp import mode as clamp_mode
from driver.gl.compat import client_state_enabled, coord_unit
from driver.gl.buffers import pack_buffer_write
from driver.gl.compose import extends
from driver.gl.errors import check, check_enum
from driver.gl.objects import VertexAttrib, VertexBinding
from driver.gl.legacy.attrib import MAX_ATTRIB_STACK_DEPTH
from driver.gl.legacy.dlist import MAX_LIST_NESTING
from driver.gl.legacy.fixedfunc import MAX_SHININESS, MAX_SPOT_EXPONENT
from driver.gl.legacy.raster import MAX_PIXEL_MAP_TABLE
from driver.gl.legacy.select import MAX_NAME_STACK_DEPTH

__all__ = ["GetLegacyMixin"]


def _unit_enabled(target):
    return lambda c: target in c.legacy.tex_enabled[c.active_texture % 8]


def _float_bits(stack):
    """A glGet entry: the top of a matrix stack, column-major, as the int32
    bit patterns of its float32 values."""
    def get(c):
        m = np.ascontiguousarray(stack(c)[-1].T, np.float32)
        return tuple(int(v) for v in m.view(np.int32).ravel())
    return get


def _client_array_state(array, read):
    """A glGet entry reading (VertexAttrib, VertexBinding) of a legacy array
    (of the client-active texture unit for texture coordinates)."""
    initial = (VertexAttrib(size=3 if array == E.GL_SECONDARY_COLOR_ARRAY else 4), VertexBinding())

    def get(c):
        a, b = c.vao.legacy.get(c.legacy.array_key(array)) or initial
        return read(a, b)
    return get


def _texgen_enabled(cap):
    return lambda c: cap in c.legacy.texgen_enabled[c.active_texture % 8]


# the compatibility arrays whose pointers the core glGetPointerv does not answer
_LEGACY_POINTERS = {E.GL_EDGE_FLAG_ARRAY_POINTER: E.GL_EDGE_FLAG_ARRAY, E.GL_INDEX_ARRAY_POINTER: E.GL_INDEX_ARRAY,
                    E.GL_FOG_COORD_ARRAY_POINTER: E.GL_FOG_COORD_ARRAY}



class GetLegacyMixin:
    @extends
    def _legacy_get_entries(self, core) -> dict:
        t = core()
        if not self.api.compat:
            return t
        L = lambda c: c.legacy    # noqa: E731
        t.update({
            # lighting (table 6.11-6.13)
            E.GL_LIGHT_MODEL_AMBIENT: lambda c: L(c).light_model_ambient,
            E.GL_LIGHT_MODEL_LOCAL_VIEWER: lambda c: L(c).local_viewer,
            E.GL_LIGHT_MODEL_TWO_SIDE: lambda c: L(c).two_side,
            E.GL_LIGHT_MODEL_COLOR_CONTROL: lambda c: L(c).color_control,
            E.GL_COLOR_MATERIAL_FACE: lambda c: L(c).color_material_face,
            E.GL_COLOR_MATERIAL_PARAMETER: lambda c: L(c).color_material_mode,
            # fog (table 6.10)
            E.GL_FOG_MODE: lambda c: L(c).fog.mode, E.GL_FOG_DENSITY: lambda c: L(c).fog.density,
            E.GL_FOG_START: lambda c: L(c).fog.start, E.GL_FOG_END: lambda c: L(c).fog.end,
            E.GL_FOG_INDEX: lambda c: L(c).fog.index, E.GL_FOG_COLOR: lambda c: L(c).fog.color,
            E.GL_FOG_COORD_SRC: lambda c: L(c).fog.coord_src,
            E.GL_FOG_DISTANCE_MODE_NV: lambda c: L(c).fog.distance_mode,
            # current values (table 6.5)
            E.GL_CURRENT_FOG_COORD: lambda c: L(c).fog_coord,
            E.GL_CURRENT_INDEX: lambda c: L(c).index,
            E.GL_EDGE_FLAG: lambda c: L(c).edge_flag,
            E.GL_CURRENT_RASTER_POSITION: lambda c: L(c).raster.window,
            E.GL_CURRENT_RASTER_POSITION_VALID: lambda c: L(c).raster.valid,
            E.GL_CURRENT_RASTER_COLOR: lambda c: L(c).raster.color,
            E.GL_CURRENT_RASTER_SECONDARY_COLOR: lambda c: L(c).raster.secondary_color,
            E.GL_CURRENT_RASTER_TEXTURE_COORDS: lambda c: L(c).raster.texcoords[coord_unit(c)],
            E.GL_CURRENT_RASTER_DISTANCE: lambda c: L(c).raster.distance,
            E.GL_CURRENT_RASTER_INDEX: lambda c: 1,
            # points, lines, polygons (tables 6.12-6.14)
            E.GL_POINT_SIZE_MIN: lambda c: L(c).point.size_min,
            E.GL_POINT_SIZE_MAX: lambda c: L(c).point.size_max,
            E.GL_POINT_FADE_THRESHOLD_SIZE: lambda c: L(c).point.fade_threshold,
            E.GL_POINT_DISTANCE_ATTENUATION: lambda c: L(c).point.attenuation,
            E.GL_POINT_SPRITE_COORD_ORIGIN: lambda c: L(c).point.sprite_coord_origin,
            E.GL_LINE_STIPPLE_PATTERN: lambda c: c.state.line_stipple[1],
            E.GL_LINE_STIPPLE_REPEAT: lambda c: c.state.line_stipple[0],
            # texturing (per active unit)
            E.GL_TEXTURE_1D: _unit_enabled(E.GL_TEXTURE_1D), E.GL_TEXTURE_2D: _unit_enabled(E.GL_TEXTURE_2D),
            E.GL_TEXTURE_3D: _unit_enabled(E.GL_TEXTURE_3D),
            E.GL_TEXTURE_CUBE_MAP: _unit_enabled(E.GL_TEXTURE_CUBE_MAP),
            E.GL_TEXTURE_RECTANGLE: _unit_enabled(E.GL_TEXTURE_RECTANGLE),
            E.GL_TEXTURE_GEN_S: _texgen_enabled(E.GL_TEXTURE_GEN_S),
            E.GL_TEXTURE_GEN_T: _texgen_enabled(E.GL_TEXTURE_GEN_T),
            E.GL_TEXTURE_GEN_R: _texgen_enabled(E.GL_TEXTURE_GEN_R),
            E.GL_TEXTURE_GEN_Q: _texgen_enabled(E.GL_TEXTURE_GEN_Q),
            # pixels (tables 6.20-6.21)
            E.GL_ZOOM_X: lambda c: L(c).pixel_zoom[0], E.GL_ZOOM_Y: lambda c: L(c).pixel_zoom[1],
            **{k: (lambda k: lambda c: L(c).pixel_transfer.get(k, 1.0 if "SCALE" in name else 0.0))(k)
               for name, k in (("RED_SCALE", E.GL_RED_SCALE), ("GREEN_SCALE", E.GL_GREEN_SCALE),
                               ("BLUE_SCALE", E.GL_BLUE_SCALE), ("ALPHA_SCALE", E.GL_ALPHA_SCALE),
                               ("DEPTH_SCALE", E.GL_DEPTH_SCALE), ("RED_BIAS", E.GL_RED_BIAS),
                               ("GREEN_BIAS", E.GL_GREEN_BIAS), ("BLUE_BIAS", E.GL_BLUE_BIAS),
                               ("ALPHA_BIAS", E.GL_ALPHA_BIAS), ("DEPTH_BIAS", E.GL_DEPTH_BIAS))},
            # display lists, attribute stacks, modes (tables 6.35-6.37)
            E.GL_LIST_BASE: lambda c: L(c).list_base,
            E.GL_LIST_INDEX: lambda c: c._list_compiling[0] if c._list_compiling else 0,
            E.GL_LIST_MODE: lambda c: c._list_compiling[1] if c._list_compiling else 0,
            E.GL_MAX_LIST_NESTING: lambda c: MAX_LIST_NESTING,
            E.GL_ATTRIB_STACK_DEPTH: lambda c: len(c._attrib_stack),
            E.GL_CLIENT_ATTRIB_STACK_DEPTH: lambda c: len(c._client_attrib_stack),
            E.GL_MAX_ATTRIB_STACK_DEPTH: lambda c: MAX_ATTRIB_STACK_DEPTH,
            E.GL_MAX_CLIENT_ATTRIB_STACK_DEPTH: lambda c: MAX_ATTRIB_STACK_DEPTH,
            E.GL_RENDER_MODE: lambda c: L(c).render_mode,
            E.GL_PERSPECTIVE_CORRECTION_HINT: lambda c: L(c).perspective_hint,
            E.GL_ACCUM_CLEAR_VALUE: lambda c: L(c).accum_clear,
            E.GL_INDEX_CLEAR_VALUE: lambda c: L(c).index_clear,
            E.GL_RGBA_MODE: lambda c: True, E.GL_INDEX_MODE: lambda c: False,
            E.GL_AUX_BUFFERS: lambda c: 0,
            # (GL_RED_BITS .. GL_STENCIL_BITS: the core table's, from the draw framebuffer)
            E.GL_ACCUM_RED_BITS: lambda c: 0, E.GL_ACCUM_GREEN_BITS: lambda c: 0,
            E.GL_ACCUM_BLUE_BITS: lambda c: 0, E.GL_ACCUM_ALPHA_BITS: lambda c: 0,
            E.GL_INDEX_BITS: lambda c: 0,
            # the pixel maps' sizes (table 6.22; a table starts with one entry)
            **{getattr(E, f"GL_PIXEL_MAP_{m}_SIZE"):
               (lambda m: lambda c: len(L(c).pixel_transfer.get(("map", getattr(E, f"GL_PIXEL_MAP_{m}")), [0])))(m)
               for m in ("I_TO_I", "S_TO_S", "I_TO_R", "I_TO_G", "I_TO_B", "I_TO_A",
                         "R_TO_R", "G_TO_G", "B_TO_B", "A_TO_A")},
            E.GL_MAX_EVAL_ORDER: lambda c: 30, E.GL_MAX_PIXEL_MAP_TABLE: lambda c: MAX_PIXEL_MAP_TABLE,
            E.GL_MAX_NAME_STACK_DEPTH: lambda c: MAX_NAME_STACK_DEPTH,
            E.GL_NAME_STACK_DEPTH: lambda c: len(c._names()),
            E.GL_MAP1_GRID_DOMAIN: lambda c: c._grid1[1:], E.GL_MAP1_GRID_SEGMENTS: lambda c: c._grid1[0],
            E.GL_MAP2_GRID_DOMAIN: lambda c: (*c._grid2[1:3], *c._grid2[4:6]),
            E.GL_MAP2_GRID_SEGMENTS: lambda c: (c._grid2[0], c._grid2[3]),
            E.GL_COLOR_SUM: lambda c: E.GL_COLOR_SUM in c.state.enabled,
            E.GL_CLAMP_VERTEX_COLOR: lambda c: clamp_mode(c.state, E.GL_CLAMP_VERTEX_COLOR),
            E.GL_CLAMP_FRAGMENT_COLOR: lambda c: clamp_mode(c.state, E.GL_CLAMP_FRAGMENT_COLOR),
            E.GL_SECONDARY_COLOR_ARRAY: lambda c: client_state_enabled(c, E.GL_SECONDARY_COLOR_ARRAY),
            E.GL_FOG_COORD_ARRAY: lambda c: client_state_enabled(c, E.GL_FOG_COORD_ARRAY),
            E.GL_EDGE_FLAG_ARRAY: lambda c: client_state_enabled(c, E.GL_EDGE_FLAG_ARRAY),
            E.GL_INDEX_ARRAY: lambda c: client_state_enabled(c, E.GL_INDEX_ARRAY),
        })
        if self.api.has_extension("GL_NV_light_max_exponent"):
            t.update({E.GL_MAX_SHININESS_NV: lambda c: MAX_SHININESS,
                      E.GL_MAX_SPOT_EXPONENT_NV: lambda c: MAX_SPOT_EXPONENT})
        if self.api.has_extension("GL_EXT_compiled_vertex_array"):
            t.update({E.GL_ARRAY_ELEMENT_LOCK_FIRST_EXT: lambda c: (c.legacy.array_lock or (0, 0))[0],
                      E.GL_ARRAY_ELEMENT_LOCK_COUNT_EXT: lambda c: (c.legacy.array_lock or (0, 0))[1]})
        # client array state (GL 2.1 table 6.6-6.8, ES 1.1 table 6.6-6.7)
        arrays = [(E.GL_VERTEX_ARRAY, "VERTEX"), (E.GL_NORMAL_ARRAY, "NORMAL"),
                  (E.GL_COLOR_ARRAY, "COLOR"), (E.GL_TEXTURE_COORD_ARRAY, "TEXTURE_COORD")]
        if not self.api.es1:
            arrays += [(E.GL_SECONDARY_COLOR_ARRAY, "SECONDARY_COLOR"), (E.GL_FOG_COORD_ARRAY, "FOG_COORD"),
                       (E.GL_INDEX_ARRAY, "INDEX"), (E.GL_EDGE_FLAG_ARRAY, "EDGE_FLAG")]
        elif self.api.has_extension("GL_OES_point_size_array"):
            arrays += [(E.GL_POINT_SIZE_ARRAY_OES, "POINT_SIZE")]
        for array, prefix in arrays:
            suffix = "_OES" if array == E.GL_POINT_SIZE_ARRAY_OES else ""
            fields = {"SIZE": lambda a, b: a.size, "TYPE": lambda a, b: a.type,
                      "STRIDE": lambda a, b: a.stride,
                      "BUFFER_BINDING": lambda a, b: b.buffer.name if b.buffer is not None else 0}
            for field, read in fields.items():
                pname = getattr(E, f"GL_{prefix}_ARRAY_{field}{suffix}", None)
                if pname is not None:
                    t[pname] = _client_array_state(array, read)
        if self.api.es1:
            t[E.GL_POINT_SIZE_ARRAY_OES] = lambda c: client_state_enabled(c, E.GL_POINT_SIZE_ARRAY_OES)
            if self.api.has_extension("GL_OES_matrix_get"):
                # OES_matrix_get: the current matrices' float32 bit patterns, read as integers
                t.update({E.GL_MODELVIEW_MATRIX_FLOAT_AS_INT_BITS_OES: _float_bits(lambda c: c.legacy.stacks[0]),
                          E.GL_PROJECTION_MATRIX_FLOAT_AS_INT_BITS_OES: _float_bits(lambda c: c.legacy.stacks[1]),
                          E.GL_TEXTURE_MATRIX_FLOAT_AS_INT_BITS_OES:
                              _float_bits(lambda c: c.legacy.stacks[2][c.active_texture % 8])})
            # ES 1.1 state that desktop GL has outside the compatibility entries
            s = self.state
            t.update({
                E.GL_POINT_SIZE: lambda c: s.point_size,
                E.GL_LOGIC_OP_MODE: lambda c: s.logic_op,
                E.GL_LINE_SMOOTH_HINT: lambda c: s.hints.get(E.GL_LINE_SMOOTH_HINT, E.GL_DONT_CARE),
            })
        return t

    @extends
    def glGetPointerv(self, core, pname: int):
        if pname == E.GL_POINT_SIZE_ARRAY_POINTER_OES and self.api.es1:
            entry = self.vao.legacy.get((E.GL_POINT_SIZE_ARRAY_OES, 0))
            return entry[0].pointer if entry else 0
        if pname in _LEGACY_POINTERS and self.api.compat:      # GL 2.1 table 6.11
            entry = self.vao.legacy.get(self.legacy.array_key(_LEGACY_POINTERS[pname]))
            return entry[0].pointer if entry else 0
        return core(pname)

    @extends
    def _hint_targets(self, core):
        targets = core()
        if self.api.compat:
            targets = set(targets) | {E.GL_PERSPECTIVE_CORRECTION_HINT, E.GL_POINT_SMOOTH_HINT,
                                      E.GL_FOG_HINT, E.GL_GENERATE_MIPMAP_HINT}
        if self.api.es1:
            targets = set(targets) | {E.GL_LINE_SMOOTH_HINT}
        return targets

    # -- buffers and modes this implementation does not have (GL 2.1 sections 4.2.3, 4.2.4, 5.2)
    def glClearAccum(self, r, g, b, a) -> None:
        self.legacy.accum_clear = tuple(min(1.0, max(-1.0, float(v))) for v in (r, g, b, a))

    def glClearIndex(self, c) -> None:
        self.legacy.index_clear = float(c)

    def glIndexMask(self, mask) -> None:
        """RGBA mode only (no colour-index buffer): nothing to mask."""

    def glAccum(self, op, value) -> None:
        """Section 4.2.4: INVALID_OPERATION without an accumulation buffer (there is none)."""
        check_enum(op, (E.GL_ACCUM, E.GL_LOAD, E.GL_RETURN, E.GL_MULT, E.GL_ADD))
        check(False, E.GL_INVALID_OPERATION, "no accumulation buffer")

    # -- texture residency (GL 2.1 section 3.8.12: every texture is resident) -------------------
    def glAreTexturesResident(self, n, textures):
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        names = list(textures)[:n] if not isinstance(textures, int) else []
        check(all(t != 0 and self.textures.get(t) is not None for t in names), E.GL_INVALID_VALUE,
              "not a texture")
        return [True] * n

    def glPrioritizeTextures(self, n, textures, priorities) -> None:
        """GL 2.1 section 3.8.12: each named texture's TEXTURE_PRIORITY, clamped to [0, 1];
        zero and names that are not textures are ignored."""
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        for name, p in zip(list(textures)[:n], list(priorities)[:n]):
            tex = self.textures.get(name) if name else None
            if tex is not None:
                tex.priority = min(1.0, max(0.0, float(p)))

    # -- pixel maps (section 6.1.3) -------------------------------------------------------------
    def _get_pixel_map(self, map, values, dtype: str):
        """Section 6.1.3: a table's entries (initially one, 0), colour maps as unsigned
        normalised values for the integer queries (table 2.9's inverse), the index maps as
        they are; written into the PIXEL_PACK buffer at offset ``values`` when one is
        bound (then None is returned)."""
        check(E.GL_PIXEL_MAP_I_TO_I <= map <= E.GL_PIXEL_MAP_A_TO_A, E.GL_INVALID_ENUM, "bad map")
        vals = np.asarray(self.legacy.pixel_transfer.get(("map", map), [0.0]), np.float64)
        dt = np.dtype(dtype)
        if dt.kind == "u":
            if map not in (E.GL_PIXEL_MAP_I_TO_I, E.GL_PIXEL_MAP_S_TO_S):
                vals = np.rint(np.clip(vals, 0.0, 1.0) * np.iinfo(dt).max)
            vals = np.clip(vals, 0, np.iinfo(dt).max)
        out = vals.astype(dt)
        if pack_buffer_write(self, values, out.tobytes()):
            return None
        return out.tolist()

    def glGetPixelMapfv(self, map, values=None) -> list[float] | None:
        return self._get_pixel_map(map, values, "<f4")

    def glGetPixelMapuiv(self, map, values=None) -> list[int] | None:
        return self._get_pixel_map(map, values, "<u4")

    def glGetPixelMapusv(self, map, values=None) -> list[int] | None:
        return self._get_pixel_map(map, values, "<u2")
