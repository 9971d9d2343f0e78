"""Attribute stacks (GL 2.1 section 6.1.14, table 6.3 and the "attribute"
column of the state tables): glPushAttrib/glPopAttrib by group mask and
glPushClientAttrib/glPopClientAttrib.

Each group is described once -- the server-state fields, the legacy-state
fields, the context fields and the enables it holds -- and the push/pop
code is the same for every group."""

from __future__ import annotations

import copy

from driver.gl import enums as E
from driver.gl.errors import check

__all__ = ["AttribMixin", "ATTRIB_GROUPS", "MAX_ATTRIB_STACK_DEPTH"]

MAX_ATTRIB_STACK_DEPTH = 16

_LIGHTS = frozenset(E.GL_LIGHT0 + i for i in range(8))
_CLIPS = frozenset(E.GL_CLIP_DISTANCE0 + i for i in range(8))

# bit -> (FixedState fields, LegacyState fields, context fields, enables)
ATTRIB_GROUPS = {
    E.GL_CURRENT_BIT: ((), ("raster", "edge_flag", "fog_coord", "index", "current_color",
                            "current_secondary_color", "current_normal", "current_texcoords"), (), ()),
    E.GL_POINT_BIT: (("point_size",), ("point",), (), (E.GL_POINT_SMOOTH, E.GL_POINT_SPRITE)),
    E.GL_LINE_BIT: (("line_width", "line_stipple"), (), (), (E.GL_LINE_SMOOTH, E.GL_LINE_STIPPLE)),
    E.GL_POLYGON_BIT: (("cull_face", "front_face", "polygon_mode", "polygon_mode_back", "polygon_offset_factor",
                        "polygon_offset_units", "polygon_offset_clamp"), (), (),
                       (E.GL_CULL_FACE, E.GL_POLYGON_SMOOTH, E.GL_POLYGON_STIPPLE,
                        E.GL_POLYGON_OFFSET_FILL, E.GL_POLYGON_OFFSET_LINE, E.GL_POLYGON_OFFSET_POINT)),
    E.GL_POLYGON_STIPPLE_BIT: ((), ("polygon_stipple",), (), ()),
    E.GL_PIXEL_MODE_BIT: ((), ("pixel_zoom", "pixel_transfer"), (), ()),
    E.GL_LIGHTING_BIT: (("flat_shading",), ("lights", "materials", "light_model_ambient", "local_viewer",
                                            "two_side", "color_control", "color_material_face",
                                            "color_material_mode", "shade_model"),
                        (), (E.GL_LIGHTING, E.GL_COLOR_MATERIAL, *_LIGHTS)),
    E.GL_FOG_BIT: ((), ("fog",), (), (E.GL_FOG,)),
    E.GL_DEPTH_BUFFER_BIT: (("depth_func", "depth_mask", "clear_depth"), (), (), (E.GL_DEPTH_TEST,)),
    E.GL_ACCUM_BUFFER_BIT: ((), ("accum_clear",), (), ()),
    E.GL_STENCIL_BUFFER_BIT: (("stencil", "clear_stencil", "active_stencil_face"), (), (),
                              (E.GL_STENCIL_TEST, E.GL_STENCIL_TEST_TWO_SIDE_EXT)),
    E.GL_VIEWPORT_BIT: (("viewport", "depth_range"), (), (), ()),
    E.GL_TRANSFORM_BIT: (("clip_origin", "clip_depth_mode"), ("matrix_mode",), ("clip_planes",),
                         (E.GL_NORMALIZE, E.GL_RESCALE_NORMAL, E.GL_RASTER_POSITION_UNCLIPPED_IBM, *_CLIPS)),
    E.GL_ENABLE_BIT: (("enabled",), ("tex_enabled", "texgen_enabled"), (), ()),
    E.GL_COLOR_BUFFER_BIT: (("rt", "blend_color", "logic_op", "clear_color", "alpha_func", "alpha_ref"),
                            ("index_clear",), (),
                            (E.GL_ALPHA_TEST, E.GL_DITHER, E.GL_COLOR_LOGIC_OP, E.GL_INDEX_LOGIC_OP,
                             E.GL_FRAMEBUFFER_SRGB)),
    E.GL_HINT_BIT: (("hints",), ("perspective_hint",), (), ()),
    E.GL_EVAL_BIT: ((), (), (), ()),
    E.GL_LIST_BIT: ((), ("list_base",), (), ()),
    E.GL_TEXTURE_BIT: ((), ("texenv", "texgen", "tex_enabled", "texgen_enabled"),
                       ("active_texture", "texture_units"), ()),
    E.GL_SCISSOR_BIT: (("scissor",), (), (), (E.GL_SCISSOR_TEST,)),
    E.GL_MULTISAMPLE_BIT: (("sample_coverage_value", "sample_coverage_invert"), (), (),
                           (E.GL_MULTISAMPLE, E.GL_SAMPLE_ALPHA_TO_COVERAGE, E.GL_SAMPLE_ALPHA_TO_ONE,
                            E.GL_SAMPLE_COVERAGE)),
}


def _copy(name: str, value):
    if name == "texture_units":              # bindings, not the texture objects
        return [dict(u) for u in value]
    return copy.deepcopy(value)


class AttribMixin:
    def _init_family(self) -> None:
        self._attrib_stack: list = []
        self._client_attrib_stack: list = []

    def glPushAttrib(self, mask: int) -> None:
        check(len(self._attrib_stack) < MAX_ATTRIB_STACK_DEPTH, E.GL_STACK_OVERFLOW,
              "attribute stack overflow")
        saved = []
        for bit, (sfields, lfields, cfields, caps) in ATTRIB_GROUPS.items():
            if not mask & bit:
                continue
            saved.append((bit,
                          {f: _copy(f, getattr(self.state, f, None)) for f in sfields},
                          {f: _copy(f, getattr(self.legacy, f)) for f in lfields},
                          {f: _copy(f, getattr(self, f)) for f in cfields},
                          {c: c in self.state.enabled for c in caps}))
        self._attrib_stack.append(saved)

    def glPopAttrib(self) -> None:
        check(self._attrib_stack, E.GL_STACK_UNDERFLOW, "attribute stack underflow")
        for _bit, sv, lv, cv, caps in reversed(self._attrib_stack.pop()):
            for f, v in sv.items():
                setattr(self.state, f, v)
            for f, v in lv.items():
                setattr(self.legacy, f, v)
            for f, v in cv.items():
                setattr(self, f, v)
            for c, on in caps.items():
                (self.state.enabled.add if on else self.state.enabled.discard)(c)

    # -- client attributes (table 6.3: CLIENT_PIXEL_STORE_BIT, CLIENT_VERTEX_ARRAY_BIT) --------
    def glPushClientAttrib(self, mask: int) -> None:
        check(len(self._client_attrib_stack) < MAX_ATTRIB_STACK_DEPTH, E.GL_STACK_OVERFLOW,
              "client attribute stack overflow")
        saved = {}
        if mask & E.GL_CLIENT_PIXEL_STORE_BIT:
            saved["pixel"] = (copy.deepcopy(self.state.pack), copy.deepcopy(self.state.unpack))
        if mask & E.GL_CLIENT_VERTEX_ARRAY_BIT:
            vao = self.vao
            saved["array"] = (vao, {k: (copy.copy(a), copy.copy(b)) for k, (a, b) in vao.legacy.items()},
                              [copy.copy(a) for a in vao.attribs], [copy.copy(b) for b in vao.bindings],
                              self.legacy.client_active_texture, self.buffer_bindings.get(E.GL_ARRAY_BUFFER))
        self._client_attrib_stack.append(saved)

    def glPopClientAttrib(self) -> None:
        check(self._client_attrib_stack, E.GL_STACK_UNDERFLOW, "client attribute stack underflow")
        saved = self._client_attrib_stack.pop()
        if "pixel" in saved:
            self.state.pack, self.state.unpack = saved["pixel"]
        if "array" in saved:
            vao, legacy, attribs, bindings, active, buf = saved["array"]
            vao.legacy.clear()
            vao.legacy.update(legacy)
            vao.attribs[:] = attribs
            vao.bindings[:] = bindings
            self.legacy.client_active_texture = active
            self.buffer_bindings[E.GL_ARRAY_BUFFER] = buf
