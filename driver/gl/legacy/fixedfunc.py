"""Fixed-function state entry points (lighting, materials, fog, texture
environments, texture coordinate generation, point parameters, stipples,
per-unit texture enables) and the generated program for a draw without a
current program, cached by its state key (GL 2.1 sections 2.11-2.14,
3.4-3.10)."""

from __future__ import annotations

import dataclasses

import numpy as np

from driver.gl import enums as E
from driver.gl.color_clamp import clamp_query
from driver.gl.buffers import pack_buffer_write, unpack_buffer_read
from driver.gl.compose import extends
from driver.gl.errors import check, check_enum
from driver.gl.legacy.ffgen import (COMBINE3_ATI, SHADOW_TARGETS, FragmentKey, LightKey, UnitKey, VertexKey,
                                    fragment_source, pixel_vertex_source, vertex_source, POINT_SIZE_ATTRIBUTE)
from driver.gl.features.gles1 import crop_rect
from driver.gl.legacy.state import LegacyState
from driver.gl.legacy.stateblock import state_block_bytes
from driver.gl.textures import bound_texture, texture_targets

__all__ = ["FixedFunctionMixin", "TEXTURE_TARGETS", "TEXGEN_CAPS", "PIXEL_UNIT", "MAX_SHININESS", "MAX_SPOT_EXPONENT"]

# the texture unit holding a pixel rectangle's image (above the 8 fixed-function units)
PIXEL_UNIT = 8
# the largest material shininess and spot exponent (GL 2.1 section 2.14.2: 128; Mesa's too),
# answered by GL_NV_light_max_exponent's MAX_SHININESS_NV / MAX_SPOT_EXPONENT_NV
MAX_SHININESS = MAX_SPOT_EXPONENT = 128


def _sampler_unit(name: str) -> int | None:
    """Initial value of a fixed-function program's int uniform: the unit of
    its samplers (shimgl_Texture<u> reads unit u, shimgl_Pixels PIXEL_UNIT)."""
    if name.startswith("shimgl_Texture"):
        return int(name[len("shimgl_Texture"):])
    return PIXEL_UNIT if name == "shimgl_Pixels" else None


# fixed-function texture targets by priority (GL 2.1 section 3.8.15; rectangle per
# ARB_texture_rectangle)
TEXTURE_TARGETS = (E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_3D, E.GL_TEXTURE_RECTANGLE,
                   E.GL_TEXTURE_2D, E.GL_TEXTURE_1D)
TEXGEN_CAPS = (E.GL_TEXTURE_GEN_S, E.GL_TEXTURE_GEN_T, E.GL_TEXTURE_GEN_R, E.GL_TEXTURE_GEN_Q)
_IDENTITY = np.identity(4)
_COORDS = {E.GL_S: 0, E.GL_T: 1, E.GL_R: 2, E.GL_Q: 3}
_EXTRA_CAPS = {E.GL_TEXTURE_GEN_S, E.GL_TEXTURE_GEN_T, E.GL_TEXTURE_GEN_R, E.GL_TEXTURE_GEN_Q,
               E.GL_COLOR_SUM, E.GL_TEXTURE_RECTANGLE, E.GL_AUTO_NORMAL, E.GL_INDEX_LOGIC_OP,
               E.GL_MAP1_VERTEX_3, E.GL_MAP1_VERTEX_4, E.GL_MAP2_VERTEX_3, E.GL_MAP2_VERTEX_4,
               E.GL_MAP1_COLOR_4, E.GL_MAP2_COLOR_4, E.GL_MAP1_NORMAL, E.GL_MAP2_NORMAL,
               E.GL_MAP1_INDEX, E.GL_MAP2_INDEX, E.GL_VERTEX_PROGRAM_POINT_SIZE,
               *[getattr(E, f"GL_MAP{d}_TEXTURE_COORD_{n}") for d in (1, 2) for n in (1, 2, 3, 4)]}


def _floats(params, n: int) -> tuple:
    check(params is not None, E.GL_INVALID_VALUE, "NULL parameters")
    vals = [float(v) for v in (list(params) if not isinstance(params, (int, float)) else [params])]
    check(len(vals) >= n, E.GL_INVALID_VALUE, "too few parameter values")
    return tuple(vals[:n])


def _int_color(v) -> float:
    """GL 2.1 table 2.9: integer colour parameters map [-2^31, 2^31 - 1] to [-1, 1]."""
    return (2 * int(v) + 1) / (2 ** 32 - 1)


class FixedFunctionMixin:
    def _init_family(self) -> None:
        self.legacy = LegacyState()
        # GL 2.1 table 6.12 (ARB_point_parameters): POINT_SIZE_MAX starts at the largest
        # point size the implementation has (it was 64, which clamped larger points)
        self.legacy.point.size_max = float(self.caps.point_size_range[1])
        self._ff_programs: dict = {}

    @extends
    def _unit_sampler_state(self, core, unit: int, params, target: int, seamless: bool):
        """GL 2.1 section 3.8.8 (EXT_texture_lod_bias): the unit's
        TEXTURE_FILTER_CONTROL bias adds to the texture's TEXTURE_LOD_BIAS,
        the sum clamped to +-MAX_TEXTURE_LOD_BIAS."""
        sampler = core(unit, params, target, seamless)
        env_bias = self.legacy.texenv[unit].lod_bias if self.api.compat and unit < 8 else 0.0
        if not env_bias:
            return sampler
        limit = self.caps.max_texture_lod_bias
        return dataclasses.replace(sampler, lod_bias=min(limit, max(-limit, sampler.lod_bias + env_bias)))

    # -- OES_draw_texture's texture parameter (OpenGL ES 1.1) -------------------------------
    def _crop_rect_pname(self, target: int, pname: int) -> bool:
        if pname != E.GL_TEXTURE_CROP_RECT_OES or not self.api.has_extension("GL_OES_draw_texture"):
            return False
        check_enum(target, (E.GL_TEXTURE_2D,))
        return True

    @extends
    def _tex_parameter(self, core, target: int, pname: int, value) -> None:
        if pname == E.GL_TEXTURE_PRIORITY and self.api.compat:
            # GL 2.1 section 3.8.12: a priority in [0, 1] (clamped); an integer maps as a
            # colour does (table 2.9), as Mesa's glTexParameteri
            check_enum(target, texture_targets(self.api) - {E.GL_TEXTURE_BUFFER})
            v0 = value[0] if isinstance(value, (list, tuple)) else value
            p = _int_color(v0) if isinstance(v0, int) else float(v0)
            bound_texture(self, target).priority = min(1.0, max(0.0, p))
            return None
        if not self._crop_rect_pname(target, pname):
            return core(target, pname, value)
        check(isinstance(value, list) and len(value) >= 4, E.GL_INVALID_ENUM,
              "TEXTURE_CROP_RECT_OES takes four values")
        bound_texture(self, target).crop_rect_oes = tuple(int(v) for v in value[:4])

    def _priority_query(self, target: int, pname: int) -> float | None:
        """TEXTURE_PRIORITY (default 1) and TEXTURE_RESIDENT (always true: every
        texture is in GPU-visible memory) of a compatibility context, else None."""
        if pname not in (E.GL_TEXTURE_PRIORITY, E.GL_TEXTURE_RESIDENT) or not self.api.compat:
            return None
        check_enum(target, texture_targets(self.api) - {E.GL_TEXTURE_BUFFER})
        tex = bound_texture(self, target)
        return getattr(tex, "priority", 1.0) if pname == E.GL_TEXTURE_PRIORITY else 1.0

    @extends
    def glGetTexParameteriv(self, core, target: int, pname: int) -> list:
        if self._crop_rect_pname(target, pname):
            return list(crop_rect(bound_texture(self, target)))
        v = self._priority_query(target, pname)
        if v is not None:       # as a colour (GL 2.1 section 6.1.2), truncated as Mesa's
            return [int(v * 2147483647.0) if pname == E.GL_TEXTURE_PRIORITY else int(v)]
        return core(target, pname)

    @extends
    def glGetTexParameterfv(self, core, target: int, pname: int) -> list:
        if self._crop_rect_pname(target, pname):
            return [float(v) for v in crop_rect(bound_texture(self, target))]
        v = self._priority_query(target, pname)
        if v is not None:
            return [v]
        return core(target, pname)

    # -- enables -------------------------------------------------------------------------
    @extends
    def _enable_caps(self, core) -> set[int]:
        caps = core()
        if self.api.compat:
            caps |= _EXTRA_CAPS
            if self.api.has_extension("GL_IBM_rasterpos_clip"):
                caps.add(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
        if self.api.es1:        # ES 1.1 table 6.x: the desktop capabilities ES 2.0 dropped
            caps |= {E.GL_COLOR_LOGIC_OP, E.GL_LINE_SMOOTH, E.GL_MULTISAMPLE, E.GL_SAMPLE_ALPHA_TO_ONE}
        return caps

    @extends
    def _set_enable(self, core, cap: int, on: bool) -> None:
        if self.api.compat and (cap in TEXTURE_TARGETS or cap in TEXGEN_CAPS):
            check_enum(cap, self._enable_caps())
            unit = self.active_texture
            check(unit < 8, E.GL_INVALID_OPERATION, "no fixed-function texture unit")
            s = (self.legacy.tex_enabled if cap in TEXTURE_TARGETS else self.legacy.texgen_enabled)[unit]
            if on:
                s.add(cap)
            else:
                s.discard(cap)
            return
        core(cap, on)

    @extends
    def _is_enabled(self, core, cap: int) -> bool:
        if self.api.compat and (cap in TEXTURE_TARGETS or cap in TEXGEN_CAPS):
            unit = self.active_texture % 8
            s = (self.legacy.tex_enabled if cap in TEXTURE_TARGETS else self.legacy.texgen_enabled)[unit]
            return cap in s
        return core(cap)

    # -- lights (GL 2.1 section 2.14.2) --------------------------------------------------------
    def _light(self, light: int):
        i = light - E.GL_LIGHT0
        check(0 <= i < 8, E.GL_INVALID_ENUM, "bad light")
        return self.legacy.lights[i]

    def _set_light(self, light: int, pname: int, params, as_int: bool) -> None:
        li = self._light(light)
        conv = _int_color if as_int else float
        if pname in (E.GL_AMBIENT, E.GL_DIFFUSE, E.GL_SPECULAR):
            v = tuple(conv(x) for x in list(params)[:4]) if as_int else _floats(params, 4)
            setattr(li, {E.GL_AMBIENT: "ambient", E.GL_DIFFUSE: "diffuse", E.GL_SPECULAR: "specular"}[pname], v)
        elif pname == E.GL_POSITION:
            p = np.asarray(_floats(params, 4))
            li.position = tuple(float(x) for x in self.legacy.stacks[0][-1] @ p)
        elif pname == E.GL_SPOT_DIRECTION:
            d = np.asarray(_floats(params, 3))
            li.spot_direction = tuple(float(x) for x in self.legacy.stacks[0][-1][:3, :3] @ d)
        elif pname == E.GL_SPOT_EXPONENT:
            (v,) = _floats(params, 1)
            check(0 <= v <= MAX_SPOT_EXPONENT, E.GL_INVALID_VALUE, "spot exponent out of [0, 128]")
            li.spot_exponent = v
        elif pname == E.GL_SPOT_CUTOFF:
            (v,) = _floats(params, 1)
            check(0 <= v <= 90 or v == 180, E.GL_INVALID_VALUE, "spot cutoff not in [0, 90] or 180")
            li.spot_cutoff = v
        elif pname in (E.GL_CONSTANT_ATTENUATION, E.GL_LINEAR_ATTENUATION, E.GL_QUADRATIC_ATTENUATION):
            (v,) = _floats(params, 1)
            check(v >= 0, E.GL_INVALID_VALUE, "negative attenuation")
            k = [E.GL_CONSTANT_ATTENUATION, E.GL_LINEAR_ATTENUATION, E.GL_QUADRATIC_ATTENUATION].index(pname)
            att = list(li.attenuation)
            att[k] = v
            li.attenuation = tuple(att)
        else:
            check_enum(pname, ())

    def glLightf(self, light, pname, param) -> None:
        check(pname in (E.GL_SPOT_EXPONENT, E.GL_SPOT_CUTOFF, E.GL_CONSTANT_ATTENUATION,
                        E.GL_LINEAR_ATTENUATION, E.GL_QUADRATIC_ATTENUATION), E.GL_INVALID_ENUM)
        self._set_light(light, pname, [param], False)

    glLighti = glLightf

    def glLightfv(self, light, pname, params) -> None:
        self._set_light(light, pname, params, False)

    def glLightiv(self, light, pname, params) -> None:
        self._set_light(light, pname, params, pname in (E.GL_AMBIENT, E.GL_DIFFUSE, E.GL_SPECULAR))

    def glGetLightfv(self, light, pname) -> list[float]:
        li = self._light(light)
        table = {E.GL_AMBIENT: li.ambient, E.GL_DIFFUSE: li.diffuse, E.GL_SPECULAR: li.specular,
                 E.GL_POSITION: li.position, E.GL_SPOT_DIRECTION: li.spot_direction,
                 E.GL_SPOT_EXPONENT: (li.spot_exponent,), E.GL_SPOT_CUTOFF: (li.spot_cutoff,),
                 E.GL_CONSTANT_ATTENUATION: li.attenuation[:1],
                 E.GL_LINEAR_ATTENUATION: li.attenuation[1:2],
                 E.GL_QUADRATIC_ATTENUATION: li.attenuation[2:]}
        check_enum(pname, table)
        return [float(v) for v in table[pname]]

    def glGetLightiv(self, light, pname) -> list[int]:
        vals = self.glGetLightfv(light, pname)
        if vals is None:
            return None
        if pname in (E.GL_AMBIENT, E.GL_DIFFUSE, E.GL_SPECULAR):
            return [int(round(((2 ** 32 - 1) * v - 1) / 2)) for v in vals]
        return [int(round(v)) for v in vals]

    # -- materials (section 2.14.2) ------------------------------------------------------------
    def _material_faces(self, face: int) -> list:
        check_enum(face, (E.GL_FRONT, E.GL_BACK, E.GL_FRONT_AND_BACK))
        m = self.legacy.materials
        return {E.GL_FRONT: [m[0]], E.GL_BACK: [m[1]], E.GL_FRONT_AND_BACK: m}[face]

    def _set_material(self, face, pname, params, as_int) -> None:
        mats = self._material_faces(face)
        if pname == E.GL_SHININESS:
            (v,) = _floats(params, 1)
            check(0 <= v <= MAX_SHININESS, E.GL_INVALID_VALUE, "shininess out of [0, 128]")
            for m in mats:
                m.shininess = v
            return
        names = {E.GL_AMBIENT: ("ambient",), E.GL_DIFFUSE: ("diffuse",), E.GL_SPECULAR: ("specular",),
                 E.GL_EMISSION: ("emission",), E.GL_AMBIENT_AND_DIFFUSE: ("ambient", "diffuse")}
        if pname == E.GL_COLOR_INDEXES:
            _floats(params, 3)
            return
        check_enum(pname, names)
        v = tuple(_int_color(x) for x in list(params)[:4]) if as_int else _floats(params, 4)
        for m in mats:
            for n in names[pname]:
                setattr(m, n, v)

    def glMaterialf(self, face, pname, param) -> None:
        check(pname == E.GL_SHININESS, E.GL_INVALID_ENUM, "glMaterialf takes GL_SHININESS")
        self._set_material(face, pname, [param], False)

    glMateriali = glMaterialf

    def glMaterialfv(self, face, pname, params) -> None:
        self._set_material(face, pname, params, False)

    def glMaterialiv(self, face, pname, params) -> None:
        self._set_material(face, pname, params, pname != E.GL_SHININESS)

    def glGetMaterialfv(self, face, pname) -> list[float]:
        check_enum(face, (E.GL_FRONT, E.GL_BACK))
        self._track_color_material()
        m = self._material_faces(face)[0]
        table = {E.GL_AMBIENT: m.ambient, E.GL_DIFFUSE: m.diffuse, E.GL_SPECULAR: m.specular,
                 E.GL_EMISSION: m.emission, E.GL_SHININESS: (m.shininess,)}
        check_enum(pname, table)
        return [float(v) for v in table[pname]]

    def glGetMaterialiv(self, face, pname) -> list[int]:
        vals = self.glGetMaterialfv(face, pname)
        if vals is None:
            return None
        if pname == E.GL_SHININESS:
            return [int(round(vals[0]))]
        return [int(round(((2 ** 32 - 1) * v - 1) / 2)) for v in vals]

    def glColorMaterial(self, face, mode) -> None:
        check_enum(face, (E.GL_FRONT, E.GL_BACK, E.GL_FRONT_AND_BACK))
        check_enum(mode, (E.GL_EMISSION, E.GL_AMBIENT, E.GL_DIFFUSE, E.GL_SPECULAR,
                          E.GL_AMBIENT_AND_DIFFUSE))
        self.legacy.color_material_face, self.legacy.color_material_mode = face, mode

    def _track_color_material(self) -> None:
        """Section 2.14.3: while COLOR_MATERIAL is enabled the tracked
        material parameters follow the current colour."""
        if E.GL_COLOR_MATERIAL in self.state.enabled:
            mode = self.legacy.color_material_mode
            if mode == E.GL_AMBIENT_AND_DIFFUSE:
                self._set_material(self.legacy.color_material_face, E.GL_AMBIENT_AND_DIFFUSE,
                                   self.legacy.current_color, False)
            else:
                self._set_material(self.legacy.color_material_face, mode, self.legacy.current_color, False)

    # -- light model ---------------------------------------------------------------------------
    def _set_light_model(self, pname, params, as_int) -> None:
        L = self.legacy
        if pname == E.GL_LIGHT_MODEL_AMBIENT:
            L.light_model_ambient = tuple(_int_color(x) for x in list(params)[:4]) if as_int \
                else _floats(params, 4)
        elif pname == E.GL_LIGHT_MODEL_LOCAL_VIEWER:
            L.local_viewer = bool(_floats(params, 1)[0])
        elif pname == E.GL_LIGHT_MODEL_TWO_SIDE:
            L.two_side = bool(_floats(params, 1)[0])
        elif pname == E.GL_LIGHT_MODEL_COLOR_CONTROL:
            (v,) = _floats(params, 1)
            check_enum(int(v), (E.GL_SINGLE_COLOR, E.GL_SEPARATE_SPECULAR_COLOR))
            L.color_control = int(v)
        else:
            check_enum(pname, ())

    def glLightModelf(self, pname, param) -> None:
        check(pname != E.GL_LIGHT_MODEL_AMBIENT, E.GL_INVALID_ENUM)
        self._set_light_model(pname, [param], False)

    glLightModeli = glLightModelf

    def glLightModelfv(self, pname, params) -> None:
        self._set_light_model(pname, params, False)

    def glLightModeliv(self, pname, params) -> None:
        self._set_light_model(pname, params, True)

    # -- fog (section 3.10) --------------------------------------------------------------------
    def _set_fog(self, pname, params, as_int) -> None:
        fog = self.legacy.fog
        if pname == E.GL_FOG_COLOR:
            fog.color = tuple(_int_color(x) for x in list(params)[:4]) if as_int else _floats(params, 4)
            return
        (v,) = _floats(params, 1)
        if pname == E.GL_FOG_MODE:
            check_enum(int(v), (E.GL_LINEAR, E.GL_EXP, E.GL_EXP2))
            fog.mode = int(v)
        elif pname == E.GL_FOG_DENSITY:
            check(v >= 0, E.GL_INVALID_VALUE, "negative fog density")
            fog.density = v
        elif pname == E.GL_FOG_START:
            fog.start = v
        elif pname == E.GL_FOG_END:
            fog.end = v
        elif pname == E.GL_FOG_INDEX:
            fog.index = v
        elif pname == E.GL_FOG_COORD_SRC:
            check_enum(int(v), (E.GL_FOG_COORD, E.GL_FRAGMENT_DEPTH))
            fog.coord_src = int(v)
        elif pname == E.GL_FOG_DISTANCE_MODE_NV and self.api.has_extension("GL_NV_fog_distance"):
            check_enum(int(v), (E.GL_EYE_PLANE_ABSOLUTE_NV, E.GL_EYE_PLANE, E.GL_EYE_RADIAL_NV))
            fog.distance_mode = int(v)
        else:
            check_enum(pname, ())

    def glFogf(self, pname, param) -> None:
        check(pname != E.GL_FOG_COLOR, E.GL_INVALID_ENUM)
        self._set_fog(pname, [param], False)

    glFogi = glFogf

    def glFogfv(self, pname, params) -> None:
        self._set_fog(pname, params, False)

    def glFogiv(self, pname, params) -> None:
        self._set_fog(pname, params, True)

    # -- texture environments (section 3.8.13) -------------------------------------------------
    _ENV_ENUMS = {
        E.GL_TEXTURE_ENV_MODE: ("mode", (E.GL_MODULATE, E.GL_DECAL, E.GL_BLEND, E.GL_REPLACE, E.GL_ADD,
                                         E.GL_COMBINE)),
        E.GL_COMBINE_RGB: ("combine_rgb", (E.GL_REPLACE, E.GL_MODULATE, E.GL_ADD, E.GL_ADD_SIGNED,
                                           E.GL_INTERPOLATE, E.GL_SUBTRACT, E.GL_DOT3_RGB, E.GL_DOT3_RGBA)),
        E.GL_COMBINE_ALPHA: ("combine_alpha", (E.GL_REPLACE, E.GL_MODULATE, E.GL_ADD, E.GL_ADD_SIGNED,
                                               E.GL_INTERPOLATE, E.GL_SUBTRACT)),
    }
    # what the old texture-environment extensions add to those lists, where they are listed
    _ENV_ENUMS_EXT = {
        "GL_EXT_texture": {E.GL_TEXTURE_ENV_MODE: (E.GL_REPLACE_EXT,)},
        "GL_NV_texture_env_combine4": {E.GL_TEXTURE_ENV_MODE: (E.GL_COMBINE4_NV,)},
        "GL_EXT_texture_env_dot3": {E.GL_COMBINE_RGB: (E.GL_DOT3_RGB_EXT, E.GL_DOT3_RGBA_EXT)},
        "GL_ATI_texture_env_combine3": {E.GL_COMBINE_RGB: COMBINE3_ATI, E.GL_COMBINE_ALPHA: COMBINE3_ATI},
    }
    _ENV_SOURCES = {E.GL_SRC0_RGB: ("src_rgb", 0), E.GL_SRC1_RGB: ("src_rgb", 1), E.GL_SRC2_RGB: ("src_rgb", 2),
                    E.GL_SRC0_ALPHA: ("src_alpha", 0), E.GL_SRC1_ALPHA: ("src_alpha", 1),
                    E.GL_SRC2_ALPHA: ("src_alpha", 2), E.GL_OPERAND0_RGB: ("op_rgb", 0),
                    E.GL_OPERAND1_RGB: ("op_rgb", 1), E.GL_OPERAND2_RGB: ("op_rgb", 2),
                    E.GL_OPERAND0_ALPHA: ("op_alpha", 0), E.GL_OPERAND1_ALPHA: ("op_alpha", 1),
                    E.GL_OPERAND2_ALPHA: ("op_alpha", 2)}
    # NV_texture_env_combine4's fourth argument
    _ENV_SOURCES_NV = {E.GL_SOURCE3_RGB_NV: ("src_rgb", 3), E.GL_SOURCE3_ALPHA_NV: ("src_alpha", 3),
                       E.GL_OPERAND3_RGB_NV: ("op_rgb", 3), E.GL_OPERAND3_ALPHA_NV: ("op_alpha", 3)}

    def _env_enums(self, pname: int):
        attr, allowed = self._ENV_ENUMS[pname]
        for ext, more in self._ENV_ENUMS_EXT.items():
            if pname in more and self.api.has_extension(ext):
                allowed = allowed + tuple(more[pname])
        return attr, allowed

    def _env_sources(self) -> dict:
        if self.api.has_extension("GL_NV_texture_env_combine4"):
            return {**self._ENV_SOURCES, **self._ENV_SOURCES_NV}
        return self._ENV_SOURCES

    def _env_unit(self):
        check(self.active_texture < 8, E.GL_INVALID_OPERATION, "no fixed-function texture unit")
        return self.legacy.texenv[self.active_texture]

    def _set_texenv(self, target, pname, params, as_int) -> None:
        check_enum(target, (E.GL_TEXTURE_ENV, E.GL_TEXTURE_FILTER_CONTROL, E.GL_POINT_SPRITE))
        env = self._env_unit()
        if target == E.GL_POINT_SPRITE:
            check_enum(pname, (E.GL_COORD_REPLACE,))
            env.coord_replace = bool(_floats(params, 1)[0])
            return
        if target == E.GL_TEXTURE_FILTER_CONTROL:
            check_enum(pname, (E.GL_TEXTURE_LOD_BIAS,))
            env.lod_bias = _floats(params, 1)[0]
            return
        if pname == E.GL_TEXTURE_ENV_COLOR:        # kept as given (ARB_color_buffer_float)
            env.color = tuple(_int_color(x) for x in list(params)[:4]) if as_int else _floats(params, 4)
            return
        (v,) = _floats(params, 1)
        sources = self._env_sources()
        if pname in self._ENV_ENUMS:
            attr, allowed = self._env_enums(pname)
            check_enum(int(v), allowed)
            # EXT_texture's REPLACE_EXT is REPLACE (Mesa keeps GL_REPLACE too)
            setattr(env, attr, E.GL_REPLACE if int(v) == E.GL_REPLACE_EXT else int(v))
        elif pname in sources:
            attr, k = sources[pname]
            if attr.startswith("src"):
                # ZERO: ATI_texture_env_combine3 and NV_texture_env_combine4; ONE: ATI's
                extra = {E.GL_ZERO} if self.api.has_extension("GL_NV_texture_env_combine4") else set()
                if self.api.has_extension("GL_ATI_texture_env_combine3"):
                    extra |= {E.GL_ZERO, E.GL_ONE}
                ok = int(v) in (E.GL_TEXTURE, E.GL_CONSTANT, E.GL_PRIMARY_COLOR, E.GL_PREVIOUS) or \
                    0 <= int(v) - E.GL_TEXTURE0 < 8 or int(v) in extra
            elif attr == "op_rgb":
                ok = int(v) in (E.GL_SRC_COLOR, E.GL_ONE_MINUS_SRC_COLOR, E.GL_SRC_ALPHA,
                                E.GL_ONE_MINUS_SRC_ALPHA)
            else:
                ok = int(v) in (E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
            check(ok, E.GL_INVALID_ENUM, "bad combiner source/operand")
            getattr(env, attr)[k] = int(v)
        elif pname in (E.GL_RGB_SCALE, E.GL_ALPHA_SCALE):
            check(v in (1.0, 2.0, 4.0), E.GL_INVALID_VALUE, "scale must be 1, 2 or 4")
            setattr(env, "rgb_scale" if pname == E.GL_RGB_SCALE else "alpha_scale", v)
        else:
            check_enum(pname, ())

    def glTexEnvf(self, target, pname, param) -> None:
        self._set_texenv(target, pname, [param], False)

    glTexEnvi = glTexEnvf

    def glTexEnvfv(self, target, pname, params) -> None:
        self._set_texenv(target, pname, params, False)

    def glTexEnviv(self, target, pname, params) -> None:
        self._set_texenv(target, pname, params, True)

    def glGetTexEnvfv(self, target, pname) -> list[float]:
        check_enum(target, (E.GL_TEXTURE_ENV, E.GL_TEXTURE_FILTER_CONTROL, E.GL_POINT_SPRITE))
        env = self._env_unit()
        if target == E.GL_POINT_SPRITE:
            check_enum(pname, (E.GL_COORD_REPLACE,))
            return [float(env.coord_replace)]
        if target == E.GL_TEXTURE_FILTER_CONTROL:
            check_enum(pname, (E.GL_TEXTURE_LOD_BIAS,))
            return [env.lod_bias]
        if pname == E.GL_TEXTURE_ENV_COLOR:        # clamped when fragment colours clamp
            return list(clamp_query(self, tuple(env.color)))
        if pname in self._ENV_ENUMS:
            return [float(getattr(env, self._ENV_ENUMS[pname][0]))]
        sources = self._env_sources()
        if pname in sources:
            attr, k = sources[pname]
            return [float(getattr(env, attr)[k])]
        check_enum(pname, (E.GL_RGB_SCALE, E.GL_ALPHA_SCALE))
        return [env.rgb_scale if pname == E.GL_RGB_SCALE else env.alpha_scale]

    def glGetTexEnviv(self, target, pname) -> list[int]:
        vals = self.glGetTexEnvfv(target, pname)
        if vals is None:
            return None
        if pname == E.GL_TEXTURE_ENV_COLOR:
            return [int(round(((2 ** 32 - 1) * v - 1) / 2)) for v in vals]
        return [int(round(v)) for v in vals]

    # -- texture coordinate generation (section 2.12.4) ----------------------------------------
    def _set_texgen(self, coord, pname, params) -> None:
        check_enum(coord, _COORDS)
        check(self.active_texture < 8, E.GL_INVALID_OPERATION)
        g = self.legacy.texgen[self.active_texture][_COORDS[coord]]
        if pname == E.GL_TEXTURE_GEN_MODE:
            (v,) = _floats(params, 1)
            allowed = {E.GL_OBJECT_LINEAR, E.GL_EYE_LINEAR}
            if coord in (E.GL_S, E.GL_T):
                allowed.add(E.GL_SPHERE_MAP)
            if coord != E.GL_Q:
                allowed |= {E.GL_REFLECTION_MAP, E.GL_NORMAL_MAP}
            check_enum(int(v), allowed)
            g.mode = int(v)
        elif pname == E.GL_OBJECT_PLANE:
            g.object_plane = _floats(params, 4)
        elif pname == E.GL_EYE_PLANE:
            p = np.asarray(_floats(params, 4))
            g.eye_plane = tuple(float(x) for x in p @ np.linalg.inv(self.legacy.stacks[0][-1]))
        else:
            check_enum(pname, ())

    def glTexGenf(self, coord, pname, param) -> None:
        check(pname == E.GL_TEXTURE_GEN_MODE, E.GL_INVALID_ENUM)
        self._set_texgen(coord, pname, [param])

    glTexGeni = glTexGenf
    glTexGend = glTexGenf

    def glTexGenfv(self, coord, pname, params) -> None:
        self._set_texgen(coord, pname, params)

    glTexGeniv = glTexGenfv
    glTexGendv = glTexGenfv

    def glGetTexGenfv(self, coord, pname) -> list[float]:
        check_enum(coord, _COORDS)
        g = self.legacy.texgen[self.active_texture % 8][_COORDS[coord]]
        table = {E.GL_TEXTURE_GEN_MODE: (g.mode,), E.GL_OBJECT_PLANE: g.object_plane,
                 E.GL_EYE_PLANE: g.eye_plane}
        check_enum(pname, table)
        return [float(v) for v in table[pname]]

    glGetTexGendv = glGetTexGenfv

    def glGetTexGeniv(self, coord, pname) -> list[int]:
        vals = self.glGetTexGenfv(coord, pname)
        return None if vals is None else [int(round(v)) for v in vals]

    # -- points, stipples (sections 3.3-3.5) ----------------------------------------------------
    def _set_point(self, pname, params) -> None:
        pt = self.legacy.point
        if pname == E.GL_POINT_DISTANCE_ATTENUATION:
            pt.attenuation = _floats(params, 3)
            return
        (v,) = _floats(params, 1)
        if pname in (E.GL_POINT_SIZE_MIN, E.GL_POINT_SIZE_MAX, E.GL_POINT_FADE_THRESHOLD_SIZE):
            check(v >= 0, E.GL_INVALID_VALUE, "negative point parameter")
            setattr(pt, {E.GL_POINT_SIZE_MIN: "size_min", E.GL_POINT_SIZE_MAX: "size_max",
                         E.GL_POINT_FADE_THRESHOLD_SIZE: "fade_threshold"}[pname], v)
        elif pname == E.GL_POINT_SPRITE_COORD_ORIGIN:
            check_enum(int(v), (E.GL_LOWER_LEFT, E.GL_UPPER_LEFT))
            pt.sprite_coord_origin = int(v)
        else:
            check_enum(pname, ())

    def glPointParameterf(self, pname, param) -> None:
        check(pname != E.GL_POINT_DISTANCE_ATTENUATION, E.GL_INVALID_ENUM)
        self.glPointParameterfv(pname, [param])

    glPointParameteri = glPointParameterf

    @extends
    def glPointParameterfv(self, core, pname, params) -> None:
        """GL 2.1 section 3.4 (the core-profile parameters through driver.gl.desktop)."""
        if pname in (E.GL_POINT_FADE_THRESHOLD_SIZE, E.GL_POINT_SPRITE_COORD_ORIGIN) \
                or not self.api.compat:
            core(pname, params)
        self._set_point(pname, params)

    def glPointParameteriv(self, pname, params) -> None:
        self.glPointParameterfv(pname, params)

    def glLineStipple(self, factor, pattern) -> None:
        self.state.line_stipple = (max(1, min(256, int(factor))), int(pattern) & 0xFFFF)

    def glPolygonStipple(self, pixels) -> None:
        """32 x 32 bits, unpacked as a GL_COLOR_INDEX/GL_BITMAP image (rows of
        4 bytes, most significant bit first unless UNPACK_LSB_FIRST), from the
        PIXEL_UNPACK buffer at offset ``pixels`` when one is bound."""
        raw = unpack_buffer_read(self, pixels, 128)
        if raw is None:
            check(not isinstance(pixels, (int, float)) and pixels is not None, E.GL_INVALID_VALUE,
                  "array expected")
            raw = (pixels.tobytes() if isinstance(pixels, np.ndarray) else bytes(pixels))[:128]
        check(len(raw) == 128, E.GL_INVALID_VALUE, "stipple needs 128 bytes")
        if self.state.unpack.lsb_first:
            raw = bytes(np.packbits(np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")))
        self.legacy.polygon_stipple = raw

    def glGetPolygonStipple(self, pixels=None) -> bytes | None:
        """The pattern's 128 bytes, packed as a GL_COLOR_INDEX/GL_BITMAP image (most
        significant bit first unless PACK_LSB_FIRST: GL 2.1 section 6.1.5), or None once
        written into the PIXEL_PACK buffer at offset ``pixels`` (when one is bound)."""
        raw = self.legacy.polygon_stipple
        if self.state.pack.lsb_first:
            raw = bytes(np.packbits(np.unpackbits(np.frombuffer(raw, np.uint8)), bitorder="little"))
        if pack_buffer_write(self, pixels, raw):
            return None
        return raw

    # -- the program of a draw without a current program ------------------------------------------
    def _ff_texture_units(self) -> tuple:
        """UnitKey of each fixed-function unit with an enabled, complete texture."""
        units = []
        for u in range(8):
            enabled = self.legacy.tex_enabled[u]
            target = next((t for t in TEXTURE_TARGETS if t in enabled), None)
            if target is None:
                continue
            tex = self.texture_units[u].get(target) or self.default_textures.get(target)
            if tex is None or not self._texture_complete(tex):
                continue
            base = tex.image(0, tex.base_level)
            fmt = self._format_info(base.internal_format).base
            env = self.legacy.texenv[u]
            combine = ()
            if env.mode in (E.GL_COMBINE, E.GL_COMBINE4_NV):
                n = 4 if env.mode == E.GL_COMBINE4_NV else 3          # the arguments the mode reads
                combine = (env.combine_rgb, env.combine_alpha, tuple(env.src_rgb[:n]), tuple(env.op_rgb[:n]),
                           tuple(env.src_alpha[:n]), tuple(env.op_alpha[:n]), (env.rgb_scale, env.alpha_scale))
            sobj = self.sampler_units[u]
            params = sobj.params if sobj is not None else tex.params
            shadow = (fmt in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL) and target in SHADOW_TARGETS
                      and params.compare_mode == E.GL_COMPARE_REF_TO_TEXTURE)
            if fmt in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL):
                # GL 3.2 compatibility section 3.8.15: a depth texture (its depth or the
                # comparison's result) is a luminance, intensity, alpha or red texture to
                # the texture environment, as DEPTH_TEXTURE_MODE says
                fmt = getattr(tex, "depth_texture_mode", E.GL_LUMINANCE)
            units.append(UnitKey(u, target, fmt, env.mode, combine, shadow))
        return tuple(units)

    def _ff_keys(self, units: tuple) -> tuple[VertexKey, FragmentKey]:
        L, en = self.legacy, self.state.enabled
        lighting = E.GL_LIGHTING in en
        lights = tuple(LightKey(i, li.position[3] == 0, li.spot_cutoff != 180.0,
                                li.attenuation != (1.0, 0.0, 0.0))
                       for i, li in enumerate(L.lights) if E.GL_LIGHT0 + i in en) if lighting else ()
        texcoords = []
        for u in sorted({x.unit for x in units}):
            gens = L.texgen_enabled[u]
            texcoords.append((u, tuple(L.texgen[u][k].mode if cap in gens else 0
                                       for k, cap in enumerate(TEXGEN_CAPS)),
                              not np.array_equal(self.legacy.stacks[2][u][-1], _IDENTITY)))
        fog = E.GL_FOG in en
        separate = lighting and L.color_control == E.GL_SEPARATE_SPECULAR_COLOR
        vkey = VertexKey(
            lighting=lighting, lights=lights, two_side=lighting and L.two_side,
            local_viewer=lighting and L.local_viewer, separate_specular=separate,
            color_material=(L.color_material_face, L.color_material_mode)
            if lighting and E.GL_COLOR_MATERIAL in en else None,
            normalize=E.GL_NORMALIZE in en, rescale=E.GL_RESCALE_NORMAL in en,
            texcoords=tuple(texcoords), fog_coord=L.fog.coord_src if fog else None,
            fog_distance=L.fog.distance_mode,
            # GL 2.1 section 3.4: the derived size is clamped to [POINT_SIZE_MIN, POINT_SIZE_MAX]
            # whatever the attenuation (the key's stage computes both)
            point_attenuation=L.point.attenuation != (1.0, 0.0, 0.0)
            or not L.point.size_min <= self.state.point_size <= L.point.size_max,
            point_size_array=self._point_size_array() is not None,
            vertex_materials=self._vertex_materials if lighting else ())
        fkey = FragmentKey(units=units, color_sum=separate or (E.GL_COLOR_SUM in en and not lighting),
                           fog_mode=L.fog.mode if fog else None,
                           sprite_units=tuple(u.unit for u in units if L.texenv[u.unit].coord_replace)
                           if E.GL_POINT_SPRITE in en and self._draw_mode == E.GL_POINTS else ())
        return vkey, fkey

    _draw_mode = None

    @extends
    def validate_draw(self, core, mode: int, count: int, instances: int = 1) -> None:
        self._draw_mode = mode           # point sprites apply to points only
        core(mode, count, instances)

    def _ff_program_for(self, vkey: VertexKey | None, fkey: FragmentKey):
        """The program of a key; vkey None: the pixel-rectangle vertex stage."""
        key = (vkey, fkey)
        prog = self._ff_programs.get(key)
        if prog is None:
            vsrc = vertex_source(vkey) if vkey is not None else pixel_vertex_source(fkey)
            prog = self._ff_programs[key] = self._internal_program(vsrc, fragment_source(fkey), _sampler_unit)
        return prog

    @extends
    def _program_for_draw(self, core):
        if self.api.compat:
            # GL_COORD_REPLACE per unit for the pipe (user programs' gl_TexCoord[u] on point sprites)
            self.state.sprite_coord_mask = sum(1 << u for u in range(8) if self.legacy.texenv[u].coord_replace)
        prog = self.current_program
        # a program linked without shaders (compat): both stages are fixed function, drawn
        # as with no program (its generic stages do no lighting, texturing or fog)
        ls = getattr(prog, "linked_state", None)
        empty = ls is not None and set(ls.units) <= ls.fixed_function
        if (prog is not None and not empty) or not self.api.compat or self.bound_pipeline is not None:
            raster = self.state.raster          # (read first: a draw after a draw sets nothing)
            if raster.ff_two_side or raster.ff_point_size:
                raster.ff_two_side = raster.ff_point_size = False
            return core()
        self._track_color_material()
        vkey, fkey = self._ff_keys(self._ff_texture_units())
        self.state.ff_two_side = vkey.two_side
        self.state.ff_point_size = vkey.point_attenuation or vkey.point_size_array
        prog = self._ff_program_for(vkey, fkey)
        if vkey.point_size_array:
            self._feed_point_size_array(prog)
        return prog

    def _point_size_array(self):
        """(VertexAttrib, VertexBinding) of the enabled OES_point_size_array
        of a point draw in an ES 1.1 context, else None."""
        if not self.api.es1 or self._draw_mode != E.GL_POINTS:
            return None
        entry = self.vao.legacy.get((E.GL_POINT_SIZE_ARRAY_OES, 0))
        return entry if entry is not None and entry[0].enabled else None

    def _feed_point_size_array(self, prog) -> None:
        """The program reads the point size array as a generic attribute
        (POINT_SIZE_ATTRIBUTE): the array takes that attribute's slot of the
        vertex array object. An ES 1.1 context has no generic attributes of
        its own (no glVertexAttribPointer), so the slot is free."""
        attrib, binding = self._point_size_array()
        slot = prog.linked_state.attributes[POINT_SIZE_ATTRIBUTE][0]
        attrib.binding = slot
        self.vao.attribs[slot] = attrib
        self.vao.bindings[slot] = binding

    _state_block_cache = None

    def state_uniform_bytes(self) -> bytes:
        """The state block, built once per draw (both stages read it)."""
        block = self._state_block_cache
        if block is None:
            block = state_block_bytes(self)
            if getattr(self, "_in_draw", False):
                self._state_block_cache = block
        return block

    @extends
    def _emit_draw(self, core, *args) -> None:
        self._in_draw, self._state_block_cache = True, None
        try:
            core(*args)
        finally:
            self._in_draw, self._state_block_cache = False, None
