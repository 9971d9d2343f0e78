"""Fixed-function per-fragment and rasterisation state: enables, blend, depth,
stencil, cull, polygon offset, scissor, viewport, masks, sample coverage,
pixel store, hints (GL 4.6 chapters 13-17, GLES 3.2 chapters 13-15)."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field, fields

from driver.gl import enums as E
from driver.gl.compat import client_state_enabled
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features.gles_ext import es_has
from driver.gl.viewports import broadcast, set_viewport_value, viewport_value

__all__ = ["GLState", "StateGroup", "EnableSet", "GROUPS", "FIELD_GROUPS", "RtBlend", "StencilFace",
           "PixelStore", "StateMixin", "next_generation", "BLEND_FACTORS", "COMPARE_FUNCS", "STENCIL_OPS",
           "STENCIL_FRONT", "STENCIL_BACK", "STENCIL_TWO_SIDE_BACK", "drawn_stencil_faces"]

COMPARE_FUNCS = frozenset(range(E.GL_NEVER, E.GL_ALWAYS + 1))
STENCIL_OPS = frozenset({E.GL_KEEP, E.GL_ZERO, E.GL_REPLACE, E.GL_INCR, E.GL_DECR,
                         E.GL_INVERT, E.GL_INCR_WRAP, E.GL_DECR_WRAP})
BLEND_FACTORS = frozenset({
    E.GL_ZERO, E.GL_ONE, E.GL_SRC_COLOR, E.GL_ONE_MINUS_SRC_COLOR, E.GL_DST_COLOR,
    E.GL_ONE_MINUS_DST_COLOR, E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA, E.GL_DST_ALPHA,
    E.GL_ONE_MINUS_DST_ALPHA, E.GL_CONSTANT_COLOR, E.GL_ONE_MINUS_CONSTANT_COLOR,
    E.GL_CONSTANT_ALPHA, E.GL_ONE_MINUS_CONSTANT_ALPHA, E.GL_SRC_ALPHA_SATURATE,
})
DUAL_SOURCE_FACTORS = frozenset({E.GL_SRC1_COLOR, E.GL_ONE_MINUS_SRC1_COLOR,
                                 E.GL_SRC1_ALPHA, E.GL_ONE_MINUS_SRC1_ALPHA})
FACES = frozenset({E.GL_FRONT, E.GL_BACK, E.GL_FRONT_AND_BACK})


# Every generation number is drawn from one process-wide counter, so a number names
# one content of one group object: equal generations mean equal content (see StateGroup).
_GENERATIONS = itertools.count(1)


def next_generation() -> int:
    """A generation number never handed out before in this process."""
    return next(_GENERATIONS)


class StateGroup:
    """Base of the typed state groups (Mesa's gl_context sub-structs).

    Invariant: ``gen`` changes whenever a field of the group is assigned a
    different value, and generation numbers are never reused (one counter for
    every group of every context), so an unchanged ``gen`` means unchanged
    content: a derived pipe state keyed by generations is valid while they
    are. Fields must therefore be changed by assignment (``group.x = v``);
    the mutable values a group holds are groups themselves (``RtBlend``,
    ``StencilFace``, ``PixelStore``, with their own ``gen``) or are replaced,
    never changed in place (the viewport array, the clamp table). Assigning
    an equal value keeps the generation (the fixed-function code re-sets
    the same values before every draw)."""

    __slots__ = ("gen",)

    def __setattr__(self, name: str, value) -> None:
        try:
            old = object.__getattribute__(self, name)
        except AttributeError:
            pass
        else:
            if old is value or (type(old) is type(value) and old == value):
                object.__setattr__(self, name, value)
                return
        object.__setattr__(self, name, value)
        object.__setattr__(self, "gen", next(_GENERATIONS))


class EnableSet(set):
    """The enabled capabilities (glEnable), a set whose ``gen`` changes with
    every change of membership (same invariant as StateGroup)."""

    __slots__ = ("gen",)

    def __init__(self, caps=()):
        super().__init__(caps)
        self.gen = next(_GENERATIONS)

    def _changed(self) -> None:
        self.gen = next(_GENERATIONS)

    def add(self, cap) -> None:
        if cap not in self:
            set.add(self, cap)
            self._changed()

    def discard(self, cap) -> None:
        if cap in self:
            set.discard(self, cap)
            self._changed()

    def remove(self, cap) -> None:
        set.remove(self, cap)
        self._changed()

    def pop(self):
        cap = set.pop(self)
        self._changed()
        return cap

    def clear(self) -> None:
        set.clear(self)
        self._changed()

    def update(self, *others) -> None:
        set.update(self, *others)
        self._changed()

    def difference_update(self, *others) -> None:
        set.difference_update(self, *others)
        self._changed()

    def intersection_update(self, *others) -> None:
        set.intersection_update(self, *others)
        self._changed()

    def symmetric_difference_update(self, other) -> None:
        set.symmetric_difference_update(self, other)
        self._changed()

    def __ior__(self, other):
        self.update(other)
        return self

    def __iand__(self, other):
        self.intersection_update(other)
        return self

    def __isub__(self, other):
        self.difference_update(other)
        return self

    def __ixor__(self, other):
        self.symmetric_difference_update(other)
        return self


@dataclass(slots=True)
class StencilFace(StateGroup):
    func: int = E.GL_ALWAYS
    ref: int = 0
    value_mask: int = 0xFFFFFFFF
    write_mask: int = 0xFFFFFFFF
    fail: int = E.GL_KEEP
    zfail: int = E.GL_KEEP
    zpass: int = E.GL_KEEP


#: ARB_compressed_texture_pixel_storage's pixel-store names -> PixelStore fields
_COMPRESSED_BLOCK_PARAMS = {
    side: {getattr(E, f"GL_{side.upper()}_COMPRESSED_BLOCK_{dim.upper()}"): f"compressed_block_{dim}"
           for dim in ("width", "height", "depth", "size")}
    for side in ("unpack", "pack")}


@dataclass(slots=True)
class PixelStore(StateGroup):
    """Pack or unpack state (GL 4.6 table 8.1 / 18.1)."""
    swap_bytes: bool = False
    lsb_first: bool = False
    row_length: int = 0
    image_height: int = 0
    skip_rows: int = 0
    skip_pixels: int = 0
    skip_images: int = 0
    alignment: int = 4
    # ARB_compressed_texture_pixel_storage (GL 4.2): the block the application states
    # for compressed images (0: the pixel store does not apply to them)
    compressed_block_width: int = 0
    compressed_block_height: int = 0
    compressed_block_depth: int = 0
    compressed_block_size: int = 0
    # MESA_pack_invert (pack only): images are packed from their top row down
    invert: bool = False


@dataclass(slots=True)
class RtBlend(StateGroup):
    """Per-draw-buffer blend state (GL 4.6 section 17.3.6, indexed since GL 4.0
    / GLES 3.2)."""
    enabled: bool = False
    src_rgb: int = E.GL_ONE
    dst_rgb: int = E.GL_ZERO
    src_alpha: int = E.GL_ONE
    dst_alpha: int = E.GL_ZERO
    eq_rgb: int = E.GL_FUNC_ADD
    eq_alpha: int = E.GL_FUNC_ADD
    color_mask: tuple = (True, True, True, True)


MAX_DRAW_BUFFERS = 8


# The groups, named after GL's attribute groups (GL 4.6 compatibility table 23.x
# "attribute" column; Mesa's ctx->Color, ctx->Depth, ...). Initial values from GL 4.6
# chapter 23 / GLES 3.2 chapter 21.

@dataclass(slots=True)
class ColorBufferState(StateGroup):
    """Blending, colour masks, logic op, alpha test, colour clamping, clear colour
    (COLOR_BUFFER_BIT). ``rt``: one RtBlend per draw buffer (own generations)."""
    rt: list = field(default_factory=lambda: [RtBlend() for _ in range(MAX_DRAW_BUFFERS)])
    blend_color: tuple = (0.0, 0.0, 0.0, 0.0)
    logic_op: int = E.GL_COPY
    clear_color: tuple = (0.0, 0.0, 0.0, 0.0)
    alpha_func: int = E.GL_ALWAYS          # compatibility profile alpha test
    alpha_ref: float = 0.0
    clamp_color: dict = field(default_factory=dict)   # glClampColor target -> mode (replaced, not changed)

    def key(self) -> tuple:
        """The generations the group's content depends on (its own and each RtBlend's)."""
        return (self.gen, *(rt.gen for rt in self.rt))


@dataclass(slots=True)
class DepthBufferState(StateGroup):
    """DEPTH_BUFFER_BIT (the test's enable is in the EnableSet)."""
    depth_func: int = E.GL_LESS
    depth_mask: bool = True
    clear_depth: float = 1.0


#: ``StencilBufferState.stencil``'s indices: the front face, GL 2.0's back face
#: (glStencil*Separate), EXT_stencil_two_side's back face (glActiveStencilFaceEXT(BACK))
STENCIL_FRONT, STENCIL_BACK, STENCIL_TWO_SIDE_BACK = 0, 1, 2


@dataclass(slots=True)
class StencilBufferState(StateGroup):
    """STENCIL_BUFFER_BIT: ``stencil`` is (front, back, two-side back) StencilFace
    (own generations). As in Mesa, EXT_stencil_two_side's back face is a set of its
    own: GL 2.0's back face is used for back-facing polygons unless
    STENCIL_TEST_TWO_SIDE_EXT is enabled (``drawn_stencil_faces``).
    ``active_stencil_face``: the index glStencilFunc/Op/Mask and the front-face
    queries use (STENCIL_FRONT, or STENCIL_TWO_SIDE_BACK after
    glActiveStencilFaceEXT(BACK))."""
    stencil: tuple = field(default_factory=lambda: (StencilFace(), StencilFace(), StencilFace()))
    clear_stencil: int = 0
    active_stencil_face: int = STENCIL_FRONT

    def key(self) -> tuple:
        return (self.gen, *(face.gen for face in self.stencil))


def drawn_stencil_faces(s) -> tuple:
    """The (front, back) StencilFace a draw tests with (EXT_stencil_two_side
    section 4.1.5: its back set while STENCIL_TEST_TWO_SIDE_EXT is enabled,
    else GL 2.0's)."""
    two_side = E.GL_STENCIL_TEST_TWO_SIDE_EXT in s.enabled
    faces = s.stencil_buffer.stencil
    return faces[STENCIL_FRONT], faces[STENCIL_TWO_SIDE_BACK if two_side else STENCIL_BACK]


@dataclass(slots=True)
class ViewportsState(StateGroup):
    """VIEWPORT_BIT and SCISSOR_BIT: index 0's rectangle, depth range and scissor
    box; the other viewports in ``viewport_array`` (driver/gl/viewports.py)."""
    viewport: tuple = (0, 0, 0, 0)
    depth_range: tuple = (0.0, 1.0)
    scissor: tuple = (0, 0, 0, 0)
    viewport_array: dict = field(default_factory=dict)


@dataclass(slots=True)
class TransformState(StateGroup):
    """TRANSFORM_BIT's clip control (ARB_clip_control)."""
    clip_origin: int = E.GL_LOWER_LEFT
    clip_depth_mode: int = E.GL_NEGATIVE_ONE_TO_ONE


@dataclass(slots=True)
class RasterState(StateGroup):
    """POLYGON_BIT, LINE_BIT, POINT_BIT and the shading state that reaches the
    rasterizer (flat shading, provoking vertex; the fixed-function program's
    two-sided colour and point size, set before each compatibility draw)."""
    cull_face: int = E.GL_BACK
    front_face: int = E.GL_CCW
    polygon_mode: int = E.GL_FILL         # the front faces' (GL 2.1 section 3.5.4: each face has its own)
    polygon_mode_back: int = E.GL_FILL
    polygon_offset_factor: float = 0.0
    polygon_offset_units: float = 0.0
    polygon_offset_clamp: float = 0.0     # ARB_polygon_offset_clamp (0: no clamp)
    line_width: float = 1.0
    line_stipple: tuple = (1, 0xFFFF)     # glLineStipple's factor, pattern (compatibility)
    point_size: float = 1.0
    point_fade_threshold: float = 1.0
    point_sprite_origin: int = E.GL_UPPER_LEFT
    sprite_coord_mask: int = 0
    provoking_vertex: int = E.GL_LAST_VERTEX_CONVENTION
    flat_shading: bool = False
    ff_two_side: bool = False
    ff_point_size: bool = False


@dataclass(slots=True)
class MultisampleState(StateGroup):
    """MULTISAMPLE_BIT, the sample mask and sample shading."""
    sample_coverage_value: float = 1.0
    sample_coverage_invert: bool = False
    sample_mask_value: int = 0xFFFFFFFF
    min_sample_shading: float = 0.0


@dataclass(slots=True)
class PixelState(StateGroup):
    """The pixel store (CLIENT_PIXEL_STORE_BIT): PixelStore groups, own generations."""
    unpack: PixelStore = field(default_factory=PixelStore)
    pack: PixelStore = field(default_factory=PixelStore)


@dataclass(slots=True)
class MiscState(StateGroup):
    """What no draw's pipe state reads: hints (HINT_BIT; the dict is changed in
    place, so its generation says nothing), primitive restart's index (read per
    draw), the compiler thread count."""
    hints: dict = field(default_factory=dict)
    primitive_restart_index: int = 0
    max_shader_compiler_threads: int = 0xFFFFFFFF


@dataclass(slots=True, eq=False)
class GLState:
    """The context's fixed-function state as typed groups (``ctx.state.depth_buffer``,
    ``.color_buffer``, ...; ``ctx.state.enabled`` the EnableSet), each with a
    generation counter (StateGroup).

    Each field of a group is also reachable by its own name on the state
    (``ctx.state.depth_func`` is ``ctx.state.depth_buffer.depth_func``): a field
    name belongs to exactly one group (checked when the class is built), so the
    flat spelling is only another way to reach the same field and to bump the
    same generation."""

    # (0x9285: BLEND_ADVANCED_COHERENT_KHR, enabled by default where it exists)
    enabled: EnableSet = field(default_factory=lambda: EnableSet({E.GL_DITHER, E.GL_MULTISAMPLE, 0x9285}))
    color_buffer: ColorBufferState = field(default_factory=ColorBufferState)
    depth_buffer: DepthBufferState = field(default_factory=DepthBufferState)
    stencil_buffer: StencilBufferState = field(default_factory=StencilBufferState)
    viewports: ViewportsState = field(default_factory=ViewportsState)
    transform: TransformState = field(default_factory=TransformState)
    raster: RasterState = field(default_factory=RasterState)
    multisample: MultisampleState = field(default_factory=MultisampleState)
    pixel: PixelState = field(default_factory=PixelState)
    misc: MiscState = field(default_factory=MiscState)

    def __setattr__(self, name: str, value) -> None:
        if name == "enabled" and not isinstance(value, EnableSet):
            value = EnableSet(value)        # a plain set assigned (a saved copy): tracked again
        object.__setattr__(self, name, value)

    def copy(self) -> GLState:
        """A copy whose groups are copies (a caller may assign any field of it);
        the RtBlend, StencilFace and PixelStore objects are shared."""
        return GLState(EnableSet(self.enabled), *(copy.copy(getattr(self, name)) for name in GROUPS))


# group attribute of GLState -> its class
GROUPS = {f.name: f.default_factory for f in fields(GLState) if f.name != "enabled"}


def _flat_field(group: str, name: str) -> property:
    def get(self):
        return getattr(getattr(self, group), name)

    def put(self, value):
        setattr(getattr(self, group), name, value)
    return property(get, put, doc=f"``{group}.{name}``")


def _install_flat_fields() -> dict[str, str]:
    owner: dict[str, str] = {}
    for group, cls in GROUPS.items():
        for f in fields(cls):
            if f.name in owner or hasattr(GLState, f.name):
                raise TypeError(f"state field {f.name} is in two groups ({owner.get(f.name)}, {group})")
            owner[f.name] = group
            setattr(GLState, f.name, _flat_field(group, f.name))
    return owner


# field name -> the group holding it
FIELD_GROUPS = _install_flat_fields()


def to_gl_int(x) -> int:
    """A float argument where GL state holds an integer: rounded to the nearest
    integer and clamped to GLint's range (infinities saturate, NaN is 0), as
    GL 4.6 section 2.2.1 converts floating-point values to integers."""
    if isinstance(x, int):
        return x
    if x != x:
        return 0
    if x >= 2 ** 31 - 1:
        return 2 ** 31 - 1
    if x <= -2 ** 31:
        return -2 ** 31
    return int(round(x))


def _clamp01(x: float) -> float:
    return min(1.0, max(0.0, float(x)))


class StateMixin:
    """glEnable and the fixed-function state setters."""

    # -- enables --------------------------------------------------------------
    def _enable_caps(self) -> set[int]:
        api = self.api
        caps = {E.GL_BLEND, E.GL_CULL_FACE, E.GL_DEPTH_TEST, E.GL_DITHER,
                E.GL_POLYGON_OFFSET_FILL, E.GL_SAMPLE_ALPHA_TO_COVERAGE, E.GL_SAMPLE_COVERAGE,
                E.GL_SCISSOR_TEST, E.GL_STENCIL_TEST}
        if api.gl_or_es((3, 0), (3, 0)):
            caps |= {E.GL_RASTERIZER_DISCARD}
        if api.gl_or_es((4, 3), (3, 0)):
            caps |= {E.GL_PRIMITIVE_RESTART_FIXED_INDEX}
        if api.gl_or_es((3, 2), (3, 1)):
            caps |= {E.GL_SAMPLE_MASK}
        if not api.es:
            caps |= {E.GL_COLOR_LOGIC_OP, E.GL_DEPTH_CLAMP, E.GL_FRAMEBUFFER_SRGB,
                     E.GL_LINE_SMOOTH, E.GL_MULTISAMPLE, E.GL_POLYGON_OFFSET_LINE,
                     E.GL_POLYGON_OFFSET_POINT, E.GL_POLYGON_SMOOTH, E.GL_PRIMITIVE_RESTART,
                     E.GL_PROGRAM_POINT_SIZE, E.GL_SAMPLE_ALPHA_TO_ONE,
                     E.GL_TEXTURE_CUBE_MAP_SEAMLESS}
        # Desktop GL 3.0+, and GLES through GL_APPLE_clip_distance.
        caps |= {E.GL_CLIP_DISTANCE0 + i for i in range(self.caps.max_clip_planes)}
        if api.has_extension("GL_EXT_sRGB_write_control"):      # GLES: FRAMEBUFFER_SRGB_EXT
            caps.add(E.GL_FRAMEBUFFER_SRGB)
        if api.has_extension("GL_EXT_depth_clamp"):             # GLES: DEPTH_CLAMP_EXT, the same token
            caps.add(E.GL_DEPTH_CLAMP)
        if api.gl(4, 0) or es_has(api, "sample_shading"):       # SAMPLE_SHADING_OES: the same token
            caps.add(E.GL_SAMPLE_SHADING)
        if api.gl(4, 3) or api.has_extension("GL_KHR_debug"):
            caps |= {E.GL_DEBUG_OUTPUT, E.GL_DEBUG_OUTPUT_SYNCHRONOUS}
        if api.has_extension("GL_KHR_blend_equation_advanced_coherent"):
            from driver.gl.features.blend_advanced import GL_BLEND_ADVANCED_COHERENT_KHR
            caps.add(GL_BLEND_ADVANCED_COHERENT_KHR)
        if api.has_extension("GL_EXT_stencil_two_side"):
            caps.add(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
        if api.compat:
            caps |= {E.GL_ALPHA_TEST, E.GL_NORMALIZE, E.GL_POINT_SMOOTH, E.GL_POINT_SPRITE,
                     E.GL_VERTEX_PROGRAM_TWO_SIDE, E.GL_LIGHTING, E.GL_FOG, E.GL_COLOR_MATERIAL,
                     E.GL_TEXTURE_1D, E.GL_TEXTURE_2D, E.GL_TEXTURE_3D, E.GL_TEXTURE_CUBE_MAP,
                     E.GL_LINE_STIPPLE, E.GL_POLYGON_STIPPLE, E.GL_RESCALE_NORMAL}
            caps |= {E.GL_LIGHT0 + i for i in range(8)}
        return caps

    def _set_enable(self, cap: int, on: bool) -> None:
        if cap not in self._enable_caps():
            raise GLError(E.GL_INVALID_ENUM, f"glEnable/glDisable: bad cap {cap:#x}")
        if cap == E.GL_BLEND:
            for rt in self.state.rt:
                rt.enabled = on
            return
        if on:
            self.state.enabled.add(cap)
        else:
            self.state.enabled.discard(cap)
        if cap == E.GL_SCISSOR_TEST:
            broadcast(self.state, "scissor_test")      # every viewport's

    def glEnable(self, cap: int) -> None:
        self._set_enable(cap, True)

    def glDisable(self, cap: int) -> None:
        self._set_enable(cap, False)

    def glIsEnabled(self, cap: int) -> bool:
        if cap in self._client_state_caps():
            return client_state_enabled(self, cap)
        check_enum(cap, self._enable_caps())
        return self._is_enabled(cap)

    def _is_enabled(self, cap: int) -> bool:
        if cap == E.GL_BLEND:
            return self.state.rt[0].enabled
        return cap in self.state.enabled

    # -- indexed enables (GL 4.6 section 17.3.6 / 14.9; GLES 3.2) ------------------
    def _indexed_cap(self, target: int, index: int) -> None:
        viewport_arrays = self.api.gl(4, 1) or es_has(self.api, "viewport_array")
        check(self.api.gl(3, 0) or es_has(self.api, "draw_buffers_indexed") or viewport_arrays,
              E.GL_INVALID_OPERATION)
        caps = {E.GL_BLEND}
        if viewport_arrays:
            caps.add(E.GL_SCISSOR_TEST)
        check_enum(target, caps)
        limit = min(len(self.state.rt), self.caps.max_render_targets) if target == E.GL_BLEND \
            else self.caps.max_viewports
        check(0 <= index < limit, E.GL_INVALID_VALUE, "index out of range")

    def glEnablei(self, target: int, index: int) -> None:
        self._indexed_cap(target, index)
        if target == E.GL_BLEND:
            self.state.rt[index].enabled = True
        else:
            set_viewport_value(self.state, "scissor_test", index, True, self.caps.max_viewports)

    def glDisablei(self, target: int, index: int) -> None:
        self._indexed_cap(target, index)
        if target == E.GL_BLEND:
            self.state.rt[index].enabled = False
        else:
            set_viewport_value(self.state, "scissor_test", index, False, self.caps.max_viewports)

    def glIsEnabledi(self, target: int, index: int) -> bool:
        self._indexed_cap(target, index)
        if target == E.GL_BLEND:
            return self.state.rt[index].enabled
        return viewport_value(self.state, "scissor_test", index)

    def _client_state_caps(self) -> set[int]:
        return set()

    # -- blend ------------------------------------------------------------------
    def _check_blend_factor(self, f: int, dst: bool) -> None:
        dual_source = self.api.gl(3, 3) or es_has(self.api, "blend_func_extended")
        ok = f in BLEND_FACTORS or (f in DUAL_SOURCE_FACTORS and dual_source)
        # GLES 2.0 lacks SRC_ALPHA_SATURATE as a destination factor; EXT_blend_func_extended adds it
        if dst and f == E.GL_SRC_ALPHA_SATURATE and self.api.es and self.api.version < (3, 0) and not dual_source:
            ok = False
        check(ok, E.GL_INVALID_ENUM, f"bad blend factor {f:#x}")

    def glBlendFunc(self, sfactor: int, dfactor: int) -> None:
        self.glBlendFuncSeparate(sfactor, dfactor, sfactor, dfactor)

    def glBlendFuncSeparate(self, src_rgb: int, dst_rgb: int, src_alpha: int, dst_alpha: int) -> None:
        self._blend_func(range(len(self.state.rt)), src_rgb, dst_rgb, src_alpha, dst_alpha)

    def _blend_func(self, rts, src_rgb, dst_rgb, src_alpha, dst_alpha) -> None:
        self._check_blend_factor(src_rgb, False)
        self._check_blend_factor(dst_rgb, True)
        self._check_blend_factor(src_alpha, False)
        self._check_blend_factor(dst_alpha, True)
        for i in rts:
            rt = self.state.rt[i]
            rt.src_rgb, rt.dst_rgb, rt.src_alpha, rt.dst_alpha = src_rgb, dst_rgb, src_alpha, dst_alpha

    def _draw_buffer_index(self, buf: int) -> range:
        check(self.api.gl(4, 0) or es_has(self.api, "draw_buffers_indexed"), E.GL_INVALID_OPERATION)
        check(0 <= buf < self.caps.max_render_targets, E.GL_INVALID_VALUE, "buffer out of range")
        return range(buf, buf + 1)

    def glBlendFunci(self, buf: int, src: int, dst: int) -> None:
        self._blend_func(self._draw_buffer_index(buf), src, dst, src, dst)

    def glBlendFuncSeparatei(self, buf, src_rgb, dst_rgb, src_alpha, dst_alpha) -> None:
        self._blend_func(self._draw_buffer_index(buf), src_rgb, dst_rgb, src_alpha, dst_alpha)

    def glBlendEquationi(self, buf: int, mode: int) -> None:
        self._blend_equation(self._draw_buffer_index(buf), mode, mode, advanced=True)

    def glBlendEquationSeparatei(self, buf: int, mode_rgb: int, mode_alpha: int) -> None:
        self._blend_equation(self._draw_buffer_index(buf), mode_rgb, mode_alpha)

    def glColorMaski(self, buf: int, r, g, b, a) -> None:
        check(self.api.gl(3, 0) or es_has(self.api, "draw_buffers_indexed"), E.GL_INVALID_OPERATION)
        check(0 <= buf < self.caps.max_render_targets, E.GL_INVALID_VALUE, "buffer out of range")
        self.state.rt[buf].color_mask = (bool(r), bool(g), bool(b), bool(a))

    def _blend_equations(self):
        # MIN/MAX: GL 1.4, GLES 3.0, and GLES 2.0 with EXT_blend_minmax (advertised)
        return {E.GL_FUNC_ADD, E.GL_FUNC_SUBTRACT, E.GL_FUNC_REVERSE_SUBTRACT, E.GL_MIN, E.GL_MAX}

    def glBlendEquation(self, mode: int) -> None:
        # (the advanced equations of KHR_blend_equation_advanced: only the non-separate forms)
        self._blend_equation(range(len(self.state.rt)), mode, mode, advanced=True)

    def glBlendEquationSeparate(self, mode_rgb: int, mode_alpha: int) -> None:
        self._blend_equation(range(len(self.state.rt)), mode_rgb, mode_alpha)

    def _blend_equation(self, rts, mode_rgb: int, mode_alpha: int, advanced: bool = False) -> None:
        eqs = self._blend_equations()
        if advanced:
            from driver.gl.features.blend_advanced import advanced_equations
            eqs = eqs | advanced_equations(self)
        check_enum(mode_rgb, eqs)
        check_enum(mode_alpha, eqs)
        for i in rts:
            self.state.rt[i].eq_rgb, self.state.rt[i].eq_alpha = mode_rgb, mode_alpha

    def glBlendColor(self, r: float, g: float, b: float, a: float) -> None:
        # GL 4.6 section 17.3.6.1: not clamped when specified (GL 3.0+, ES 3.0+)
        self.state.blend_color = (float(r), float(g), float(b), float(a))

    def glLogicOp(self, opcode: int) -> None:
        check(not self.api.es or self.api.es1, E.GL_INVALID_OPERATION)     # ES 1.1 has it
        check_enum(opcode, range(E.GL_CLEAR, E.GL_SET + 1))
        self.state.logic_op = opcode

    def glColorMask(self, r, g, b, a) -> None:
        for rt in self.state.rt:
            rt.color_mask = (bool(r), bool(g), bool(b), bool(a))

    # -- depth ------------------------------------------------------------------
    def glDepthFunc(self, func: int) -> None:
        check_enum(func, COMPARE_FUNCS)
        self.state.depth_func = func

    def glDepthMask(self, flag) -> None:
        self.state.depth_mask = bool(flag)

    def glDepthRangef(self, n: float, f: float) -> None:
        self.state.depth_range = (_clamp01(n), _clamp01(f))
        broadcast(self.state, "depth_range")           # every viewport's (GL 4.6 section 13.6.1)

    def glDepthRange(self, n: float, f: float) -> None:
        check(not self.api.es, E.GL_INVALID_OPERATION)
        self.glDepthRangef(n, f)

    def glClearDepthf(self, d: float) -> None:
        self.state.clear_depth = _clamp01(d)

    def glClearDepth(self, d: float) -> None:
        self.glClearDepthf(d)

    # -- stencil -----------------------------------------------------------------
    def _faces(self, face: int):
        check_enum(face, FACES)
        front, back = self.state.stencil[:2]
        return {E.GL_FRONT: (front,), E.GL_BACK: (back,), E.GL_FRONT_AND_BACK: (front, back)}[face]

    def _active_faces(self) -> tuple:
        """The faces glStencilFunc/Op/Mask set: front and GL 2.0's back, or only
        EXT_stencil_two_side's back one after glActiveStencilFaceEXT(BACK)."""
        sb = self.state.stencil_buffer
        if sb.active_stencil_face == STENCIL_TWO_SIDE_BACK:
            return (sb.stencil[STENCIL_TWO_SIDE_BACK],)
        return sb.stencil[:2]

    def glStencilFunc(self, func: int, ref: int, mask: int) -> None:
        self._stencil_func(self._active_faces(), func, ref, mask)

    def glStencilFuncSeparate(self, face: int, func: int, ref: int, mask: int) -> None:
        self._stencil_func(self._faces(face), func, ref, mask)

    @staticmethod
    def _stencil_func(faces, func: int, ref: int, mask: int) -> None:
        check_enum(func, COMPARE_FUNCS)
        for f in faces:
            f.func, f.ref, f.value_mask = func, int(ref), int(mask) & 0xFFFFFFFF

    def glStencilOp(self, fail: int, zfail: int, zpass: int) -> None:
        self._stencil_op(self._active_faces(), fail, zfail, zpass)

    def glStencilOpSeparate(self, face: int, fail: int, zfail: int, zpass: int) -> None:
        self._stencil_op(self._faces(face), fail, zfail, zpass)

    @staticmethod
    def _stencil_op(faces, fail: int, zfail: int, zpass: int) -> None:
        for op in (fail, zfail, zpass):
            check_enum(op, STENCIL_OPS)
        for f in faces:
            f.fail, f.zfail, f.zpass = fail, zfail, zpass

    def glStencilMask(self, mask: int) -> None:
        for f in self._active_faces():
            f.write_mask = int(mask) & 0xFFFFFFFF

    def glStencilMaskSeparate(self, face: int, mask: int) -> None:
        for f in self._faces(face):
            f.write_mask = int(mask) & 0xFFFFFFFF

    def glClearStencil(self, s: int) -> None:
        self.state.clear_stencil = int(s)

    # -- rasterisation -------------------------------------------------------------
    def glCullFace(self, mode: int) -> None:
        check_enum(mode, FACES)
        self.state.cull_face = mode

    def glFrontFace(self, mode: int) -> None:
        check_enum(mode, (E.GL_CW, E.GL_CCW))
        self.state.front_face = mode

    def glPolygonOffset(self, factor: float, units: float) -> None:
        self.state.polygon_offset_factor = float(factor)
        self.state.polygon_offset_units = float(units)

    def glPolygonMode(self, face: int, mode: int) -> None:
        check(not self.api.es, E.GL_INVALID_OPERATION)
        # GL 4.6 section 14.6.4: face must be FRONT_AND_BACK in the core profile
        check_enum(face, {E.GL_FRONT_AND_BACK} if self.api.core else FACES)
        check_enum(mode, (E.GL_POINT, E.GL_LINE, E.GL_FILL))
        if face != E.GL_BACK:
            self.state.polygon_mode = mode
        if face != E.GL_FRONT:
            self.state.polygon_mode_back = mode

    def glLineWidth(self, width: float) -> None:
        check(width > 0, E.GL_INVALID_VALUE, "line width must be positive")
        self.state.line_width = float(width)

    def glPointSize(self, size: float) -> None:
        check(not self.api.es or self.api.es1, E.GL_INVALID_OPERATION)     # ES 1.1 has it
        check(size > 0, E.GL_INVALID_VALUE, "point size must be positive")
        self.state.point_size = float(size)

    def glProvokingVertex(self, mode: int) -> None:
        check(self.api.gl(3, 2), E.GL_INVALID_OPERATION)
        check_enum(mode, (E.GL_FIRST_VERTEX_CONVENTION, E.GL_LAST_VERTEX_CONVENTION))
        self.state.provoking_vertex = mode

    def glPrimitiveRestartIndex(self, index: int) -> None:
        check(self.api.gl(3, 1), E.GL_INVALID_OPERATION)
        self.state.primitive_restart_index = int(index) & 0xFFFFFFFF

    def glScissor(self, x: int, y: int, width: int, height: int) -> None:
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative scissor size")
        self.state.scissor = (int(x), int(y), int(width), int(height))
        broadcast(self.state, "scissor")

    def glViewport(self, x: int, y: int, width: int, height: int) -> None:
        # GL 4.6 section 13.8.1: negative sizes are INVALID_VALUE; sizes are
        # clamped to MAX_VIEWPORT_DIMS.
        check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative viewport size")
        m = self.caps.max_viewport_size_px
        self.state.viewport = (int(x), int(y), min(int(width), m), min(int(height), m))
        broadcast(self.state, "viewport")

    def glSampleCoverage(self, value: float, invert) -> None:
        self.state.sample_coverage_value = _clamp01(value)
        self.state.sample_coverage_invert = bool(invert)

    def glSampleMaski(self, mask_number: int, mask: int) -> None:
        check(self.api.gl_or_es((3, 2), (3, 1)), E.GL_INVALID_OPERATION)
        check(mask_number == 0, E.GL_INVALID_VALUE, "one sample mask word")
        self.state.sample_mask_value = int(mask) & 0xFFFFFFFF

    def glClearColor(self, r: float, g: float, b: float, a: float) -> None:
        self.state.clear_color = (float(r), float(g), float(b), float(a))

    # -- hints, pixel store ---------------------------------------------------------
    def _hint_targets(self):
        t = {E.GL_GENERATE_MIPMAP_HINT, E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT}
        if not self.api.es:
            t |= {E.GL_LINE_SMOOTH_HINT, E.GL_POLYGON_SMOOTH_HINT, E.GL_TEXTURE_COMPRESSION_HINT}
        if self.api.compat:
            t |= {E.GL_PERSPECTIVE_CORRECTION_HINT, E.GL_POINT_SMOOTH_HINT, E.GL_FOG_HINT}
        if (self.api.es and self.api.version < (3, 0)
                and not self.api.has_extension("GL_OES_standard_derivatives")):
            t.discard(E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT)
        return t

    def glHint(self, target: int, mode: int) -> None:
        check_enum(target, self._hint_targets())
        check_enum(mode, (E.GL_DONT_CARE, E.GL_FASTEST, E.GL_NICEST))
        self.state.hints[target] = mode

    def _pixel_store_params(self):
        es2 = self.api.es and self.api.version < (3, 0)
        unpack = {E.GL_UNPACK_ALIGNMENT: "alignment"}
        pack = {E.GL_PACK_ALIGNMENT: "alignment"}
        if not es2:
            unpack |= {E.GL_UNPACK_ROW_LENGTH: "row_length", E.GL_UNPACK_SKIP_ROWS: "skip_rows",
                       E.GL_UNPACK_SKIP_PIXELS: "skip_pixels",
                       E.GL_UNPACK_IMAGE_HEIGHT: "image_height",
                       E.GL_UNPACK_SKIP_IMAGES: "skip_images"}
            pack |= {E.GL_PACK_ROW_LENGTH: "row_length", E.GL_PACK_SKIP_ROWS: "skip_rows",
                     E.GL_PACK_SKIP_PIXELS: "skip_pixels"}
        else:
            if self.api.has_extension("GL_EXT_unpack_subimage"):
                unpack |= {E.GL_UNPACK_ROW_LENGTH: "row_length", E.GL_UNPACK_SKIP_ROWS: "skip_rows",
                           E.GL_UNPACK_SKIP_PIXELS: "skip_pixels"}
            if self.api.has_extension("GL_NV_pack_subimage"):
                pack |= {E.GL_PACK_ROW_LENGTH: "row_length", E.GL_PACK_SKIP_ROWS: "skip_rows",
                         E.GL_PACK_SKIP_PIXELS: "skip_pixels"}
        if not self.api.es:
            unpack |= {E.GL_UNPACK_SWAP_BYTES: "swap_bytes", E.GL_UNPACK_LSB_FIRST: "lsb_first"}
            pack |= {E.GL_PACK_SWAP_BYTES: "swap_bytes", E.GL_PACK_LSB_FIRST: "lsb_first",
                     E.GL_PACK_IMAGE_HEIGHT: "image_height", E.GL_PACK_SKIP_IMAGES: "skip_images"}
            if self.api.gl(4, 2) or self.api.has_extension("GL_ARB_compressed_texture_pixel_storage"):
                unpack |= _COMPRESSED_BLOCK_PARAMS["unpack"]
                pack |= _COMPRESSED_BLOCK_PARAMS["pack"]
            if self.api.has_extension("GL_MESA_pack_invert"):
                pack[E.GL_PACK_INVERT_MESA] = "invert"
        return unpack, pack

    def glPixelStorei(self, pname: int, param: int) -> None:
        unpack, pack = self._pixel_store_params()
        if pname in unpack:
            store, attr = self.state.unpack, unpack[pname]
        elif pname in pack:
            store, attr = self.state.pack, pack[pname]
        else:
            raise GLError(E.GL_INVALID_ENUM, f"glPixelStorei: bad pname {pname:#x}")
        param = int(param)
        if attr == "alignment":
            check(param in (1, 2, 4, 8), E.GL_INVALID_VALUE, "alignment must be 1, 2, 4 or 8")
        elif attr in ("swap_bytes", "lsb_first", "invert"):
            param = bool(param)
        else:
            check(param >= 0, E.GL_INVALID_VALUE, "negative pixel store value")
        setattr(store, attr, param)

    def glPixelStoref(self, pname: int, param: float) -> None:
        # GL 4.6 section 8.4.1: rounded to the nearest integer
        self.glPixelStorei(pname, to_gl_int(param))
