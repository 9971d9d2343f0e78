"""Legacy (compatibility-profile) state beyond driver.gl.compat: lights,
materials, fog, texture environments and coordinate generation, per-unit
texture enables, point parameters, stipples, the raster position and the
display-list name space. Initial values from the GL 2.1 state tables
(section 6.2, tables 6.5-6.37)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from driver.gl import enums as E

__all__ = ["Light", "Material", "Fog", "TexEnv", "TexGenCoord", "PointParams", "RasterPos",
           "LegacyState"]


@dataclass
class Light:
    ambient: tuple = (0.0, 0.0, 0.0, 1.0)
    diffuse: tuple = (0.0, 0.0, 0.0, 1.0)
    specular: tuple = (0.0, 0.0, 0.0, 1.0)
    position: tuple = (0.0, 0.0, 1.0, 0.0)          # eye coordinates
    spot_direction: tuple = (0.0, 0.0, -1.0)        # eye coordinates
    spot_exponent: float = 0.0
    spot_cutoff: float = 180.0
    attenuation: tuple = (1.0, 0.0, 0.0)            # constant, linear, quadratic

    def half_vector(self) -> tuple:
        """GLSL 1.20 section 7.5: the infinite-viewer half vector of a
        directional light, normalize(VP + (0, 0, 1))."""
        p = np.asarray(self.position[:3], np.float64)
        n = np.linalg.norm(p)
        h = (p / n if n else p) + (0.0, 0.0, 1.0)
        hn = np.linalg.norm(h)
        return (*(h / hn if hn else h), 1.0)


@dataclass
class Material:
    ambient: tuple = (0.2, 0.2, 0.2, 1.0)
    diffuse: tuple = (0.8, 0.8, 0.8, 1.0)
    specular: tuple = (0.0, 0.0, 0.0, 1.0)
    emission: tuple = (0.0, 0.0, 0.0, 1.0)
    shininess: float = 0.0


@dataclass
class Fog:
    mode: int = E.GL_EXP
    density: float = 1.0
    start: float = 0.0
    end: float = 1.0
    index: float = 0.0
    color: tuple = (0.0, 0.0, 0.0, 0.0)
    coord_src: int = E.GL_FRAGMENT_DEPTH
    distance_mode: int = E.GL_EYE_PLANE_ABSOLUTE_NV     # NV_fog_distance (its initial value: Mesa's)


@dataclass
class TexEnv:
    mode: int = E.GL_MODULATE
    color: tuple = (0.0, 0.0, 0.0, 0.0)
    combine_rgb: int = E.GL_MODULATE
    combine_alpha: int = E.GL_MODULATE
    # arguments 0-2 of COMBINE, and NV_texture_env_combine4's fourth (SOURCE3_*_NV ZERO,
    # OPERAND3_*_NV the complement: 1, as the extension's state table gives)
    src_rgb: list = field(default_factory=lambda: [E.GL_TEXTURE, E.GL_PREVIOUS, E.GL_CONSTANT, E.GL_ZERO])
    src_alpha: list = field(default_factory=lambda: [E.GL_TEXTURE, E.GL_PREVIOUS, E.GL_CONSTANT, E.GL_ZERO])
    op_rgb: list = field(default_factory=lambda: [E.GL_SRC_COLOR, E.GL_SRC_COLOR, E.GL_SRC_ALPHA,
                                                  E.GL_ONE_MINUS_SRC_COLOR])
    op_alpha: list = field(default_factory=lambda: [E.GL_SRC_ALPHA] * 3 + [E.GL_ONE_MINUS_SRC_ALPHA])
    rgb_scale: float = 1.0
    alpha_scale: float = 1.0
    lod_bias: float = 0.0
    coord_replace: bool = False


@dataclass
class TexGenCoord:
    mode: int = E.GL_EYE_LINEAR
    object_plane: tuple = (0.0, 0.0, 0.0, 0.0)
    eye_plane: tuple = (0.0, 0.0, 0.0, 0.0)


def _texgen_unit() -> list:
    """S, T, R, Q with the initial planes of table 6.23 (S = x, T = y)."""
    s, t = TexGenCoord(), TexGenCoord()
    s.object_plane = s.eye_plane = (1.0, 0.0, 0.0, 0.0)
    t.object_plane = t.eye_plane = (0.0, 1.0, 0.0, 0.0)
    return [s, t, TexGenCoord(), TexGenCoord()]


@dataclass
class PointParams:
    size_min: float = 0.0
    size_max: float = 64.0                  # set to the implementation's largest size (FixedFunctionMixin)
    fade_threshold: float = 1.0
    attenuation: tuple = (1.0, 0.0, 0.0)
    sprite_coord_origin: int = E.GL_UPPER_LEFT


@dataclass
class RasterPos:
    """GL 2.1 section 2.13: window coordinates and the associated data."""
    window: tuple = (0.0, 0.0, 0.0, 1.0)
    valid: bool = True
    color: tuple = (1.0, 1.0, 1.0, 1.0)
    secondary_color: tuple = (0.0, 0.0, 0.0, 1.0)
    texcoords: tuple = ((0.0, 0.0, 0.0, 1.0),) * 8
    distance: float = 0.0


@dataclass
class LegacyState:
    # GL 4.6 compatibility section 12.1.1 / GL 2.1 tables 6.5, 6.9: the matrix mode and the
    # stacks (modelview, projection, one texture stack per unit, ARB programs' 8 matrices)
    matrix_mode: int = E.GL_MODELVIEW
    stacks: list = field(default_factory=lambda: [[np.identity(4)], [np.identity(4)],
                                                  [[np.identity(4)] for _ in range(8)]]
                         + [[np.identity(4)] for _ in range(8)])
    # current values (table 6.5) and the client active texture unit (table 6.8)
    current_color: tuple = (1.0, 1.0, 1.0, 1.0)
    current_secondary_color: tuple = (0.0, 0.0, 0.0, 1.0)
    current_normal: tuple = (0.0, 0.0, 1.0)
    current_texcoords: list = field(default_factory=lambda: [(0.0, 0.0, 0.0, 1.0) for _ in range(8)])
    client_active_texture: int = 0
    shade_model: int = E.GL_SMOOTH
    # table 6.11: light 0 is white, the others black
    lights: list = field(default_factory=lambda: [Light(diffuse=(1.0, 1.0, 1.0, 1.0), specular=(1.0, 1.0, 1.0, 1.0))]
                         + [Light() for _ in range(7)])
    materials: list = field(default_factory=lambda: [Material(), Material()])   # front, back
    light_model_ambient: tuple = (0.2, 0.2, 0.2, 1.0)
    local_viewer: bool = False
    two_side: bool = False
    color_control: int = E.GL_SINGLE_COLOR
    color_material_face: int = E.GL_FRONT_AND_BACK
    color_material_mode: int = E.GL_AMBIENT_AND_DIFFUSE
    fog: Fog = field(default_factory=Fog)
    texenv: list = field(default_factory=lambda: [TexEnv() for _ in range(8)])
    texgen: list = field(default_factory=lambda: [_texgen_unit() for _ in range(8)])
    # per texture unit: the enabled targets (GL_TEXTURE_1D/2D/3D/CUBE_MAP) and texgen coords
    tex_enabled: list = field(default_factory=lambda: [set() for _ in range(8)])
    texgen_enabled: list = field(default_factory=lambda: [set() for _ in range(8)])
    point: PointParams = field(default_factory=PointParams)
    polygon_stipple: bytes = b"\xff" * 128
    raster: RasterPos = field(default_factory=RasterPos)
    # EXT_compiled_vertex_array: (first, count) of glLockArraysEXT, None when unlocked
    array_lock: tuple | None = None
    fog_coord: float = 0.0
    edge_flag: bool = True
    index: float = 1.0
    pixel_zoom: tuple = (1.0, 1.0)
    pixel_transfer: dict = field(default_factory=dict)
    list_base: int = 0
    clamp_vertex_color: int = E.GL_TRUE
    clamp_fragment_color: int = E.GL_FIXED_ONLY
    accum_clear: tuple = (0.0, 0.0, 0.0, 0.0)
    index_clear: float = 0.0
    render_mode: int = E.GL_RENDER
    perspective_hint: int = E.GL_DONT_CARE

    @property
    def records_instead_of_drawing(self) -> bool:
        """Selection or feedback mode (GL 2.1 sections 5.2, 5.3): draws record hits or
        feedback tokens instead of drawing. Only a compatibility context's
        glRenderMode leaves GL_RENDER."""
        return self.render_mode != E.GL_RENDER

    def array_key(self, array: int) -> tuple[int, int]:
        """The key of a legacy client array in a vertex array object's ``legacy``
        table: (array, unit) for texture coordinates (the client-active unit,
        table 6.8), (array, 0) for the others."""
        return (array, self.client_active_texture) if array == E.GL_TEXTURE_COORD_ARRAY else (array, 0)
