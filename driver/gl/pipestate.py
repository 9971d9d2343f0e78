"""Translation of GL state into pipe state (Mesa's st_atom_* kind): blend,
depth-stencil-alpha and rasterizer CSOs, viewport, scissor, vertex elements,
samplers and sampler views. Pure functions of the context's state;
``DerivedStates`` calls them only when the generations of the state groups
they read changed."""

from __future__ import annotations

import dataclasses
import functools

from driver.gallium import (
    PIPE_MAX_COLOR_BUFS, BlendState, DepthStencilAlphaState, PipeBlendFactor as BF,
    PipeBlendFunc, PipeCompareFunc, PipeFace, PipeFormat, PipeLogicOp, PipePolygonMode,
    PipeStencilOp, PipeSwizzle, PipeTexFilter, PipeTexMipFilter, PipeTexReductionMode, PipeTexWrap,
    RasterizerState, RtBlendState, SamplerState, SamplerView, ScissorState, StencilState, ViewportState,
)
from driver.gl import enums as E
from driver.gl.features.blend_advanced import advanced_equation_name
from driver.gl.state import drawn_stencil_faces

__all__ = ["blend_state", "dsa_state", "rasterizer_state", "viewport_state", "scissor_state",
           "vertex_format", "sampler_state", "sampler_view", "compare_func", "DerivedStates"]

_FACTORS = {
    E.GL_ZERO: BF.ZERO, E.GL_ONE: BF.ONE, E.GL_SRC_COLOR: BF.SRC_COLOR,
    E.GL_ONE_MINUS_SRC_COLOR: BF.INV_SRC_COLOR, E.GL_DST_COLOR: BF.DST_COLOR,
    E.GL_ONE_MINUS_DST_COLOR: BF.INV_DST_COLOR, E.GL_SRC_ALPHA: BF.SRC_ALPHA,
    E.GL_ONE_MINUS_SRC_ALPHA: BF.INV_SRC_ALPHA, E.GL_DST_ALPHA: BF.DST_ALPHA,
    E.GL_ONE_MINUS_DST_ALPHA: BF.INV_DST_ALPHA, E.GL_CONSTANT_COLOR: BF.CONST_COLOR,
    E.GL_ONE_MINUS_CONSTANT_COLOR: BF.INV_CONST_COLOR, E.GL_CONSTANT_ALPHA: BF.CONST_ALPHA,
    E.GL_ONE_MINUS_CONSTANT_ALPHA: BF.INV_CONST_ALPHA,
    E.GL_SRC_ALPHA_SATURATE: BF.SRC_ALPHA_SATURATE, E.GL_SRC1_COLOR: BF.SRC1_COLOR,
    E.GL_ONE_MINUS_SRC1_COLOR: BF.INV_SRC1_COLOR, E.GL_SRC1_ALPHA: BF.SRC1_ALPHA,
    E.GL_ONE_MINUS_SRC1_ALPHA: BF.INV_SRC1_ALPHA,
}
_EQUATIONS = {E.GL_FUNC_ADD: PipeBlendFunc.ADD, E.GL_FUNC_SUBTRACT: PipeBlendFunc.SUBTRACT,
              E.GL_FUNC_REVERSE_SUBTRACT: PipeBlendFunc.REVERSE_SUBTRACT,
              E.GL_MIN: PipeBlendFunc.MIN, E.GL_MAX: PipeBlendFunc.MAX}
_STENCIL_OPS = {E.GL_KEEP: PipeStencilOp.KEEP, E.GL_ZERO: PipeStencilOp.ZERO,
                E.GL_REPLACE: PipeStencilOp.REPLACE, E.GL_INCR: PipeStencilOp.INCR,
                E.GL_DECR: PipeStencilOp.DECR, E.GL_INCR_WRAP: PipeStencilOp.INCR_WRAP,
                E.GL_DECR_WRAP: PipeStencilOp.DECR_WRAP, E.GL_INVERT: PipeStencilOp.INVERT}
_FACES = {E.GL_FRONT: PipeFace.FRONT, E.GL_BACK: PipeFace.BACK,
          E.GL_FRONT_AND_BACK: PipeFace.FRONT_AND_BACK}
_FILL = {E.GL_FILL: PipePolygonMode.FILL, E.GL_LINE: PipePolygonMode.LINE,
         E.GL_POINT: PipePolygonMode.POINT}
_WRAPS = {E.GL_REPEAT: PipeTexWrap.REPEAT, E.GL_CLAMP_TO_EDGE: PipeTexWrap.CLAMP_TO_EDGE,
          E.GL_CLAMP_TO_BORDER: PipeTexWrap.CLAMP_TO_BORDER, E.GL_CLAMP: PipeTexWrap.CLAMP,
          E.GL_MIRRORED_REPEAT: PipeTexWrap.MIRROR_REPEAT,
          E.GL_MIRROR_CLAMP_TO_EDGE: PipeTexWrap.MIRROR_CLAMP_TO_EDGE,
          E.GL_MIRROR_CLAMP_EXT: PipeTexWrap.MIRROR_CLAMP, E.GL_MIRROR_CLAMP_TO_BORDER_EXT: PipeTexWrap.MIRROR_CLAMP_TO_BORDER}
_SWIZZLES = {E.GL_RED: PipeSwizzle.X, E.GL_GREEN: PipeSwizzle.Y, E.GL_BLUE: PipeSwizzle.Z,
             E.GL_ALPHA: PipeSwizzle.W, E.GL_ZERO: PipeSwizzle.ZERO, E.GL_ONE: PipeSwizzle.ONE}


class DerivedStates:
    """The pipe states a context last derived from its GL state, each with the key
    it was derived for (Mesa's st_atom dirty bits, as generations): the
    generations of the state groups the derivation reads (driver/gl/state.py:
    an unchanged generation means unchanged content) and the other inputs
    (framebuffer facts, the program's clip distances). A draw derives a state
    again only when its key changed; otherwise it gets the very object it got
    before (which the CSO cache then finds bound).

    Invariant: ``derive`` reads nothing its key does not cover. ``hits`` and
    ``misses`` count, per state name, for tests and benchmarks."""

    __slots__ = ("_last", "hits", "misses")

    def __init__(self):
        self._last: dict[str, tuple] = {}
        self.hits: dict[str, int] = {}
        self.misses: dict[str, int] = {}

    def get(self, name: str, key: tuple, derive, *args):
        """The state ``name`` for ``key``: the last one when the key is the same,
        else ``derive(*args)``."""
        last = self._last.get(name)
        if last is not None and last[0] == key:
            self.hits[name] = self.hits.get(name, 0) + 1
            return last[1]
        value = derive(*args)
        self._last[name] = (key, value)
        self.misses[name] = self.misses.get(name, 0) + 1
        return value

    # The colour-buffer group also holds what no CSO reads (clear colour, blend colour): its
    # fields the CSOs read are keyed by value, so glClearColor derives nothing again.

    def blend(self, s, n_cbufs: int, multisample: bool = False) -> BlendState:
        key = (s.logic_op, *(rt.gen for rt in s.rt), s.enabled.gen, multisample)
        return self.get("blend", key, blend_state, s, n_cbufs, multisample)

    def dsa(self, s, has_depth: bool, stencil_bits: int, integer_colour: bool) -> DepthStencilAlphaState:
        key = (s.depth_buffer.gen, s.stencil_buffer.key(), s.alpha_func, s.alpha_ref, s.enabled.gen,
               has_depth, stencil_bits, integer_colour)
        return self.get("dsa", key, dsa_state, s, has_depth, stencil_bits, integer_colour)

    def rasterizer(self, s, api, fb_samples: int, clip_planes: int, point_range,
                   line_range, colour_clamps: tuple[bool, bool] = (False, False)) -> RasterizerState:
        key = (s.raster.gen, s.transform.gen, colour_clamps, s.enabled.gen,
               api, fb_samples, clip_planes, point_range, line_range)
        return self.get("rasterizer", key, rasterizer_state, s, api, fb_samples, clip_planes,
                        point_range, line_range, colour_clamps)

    def viewport(self, s) -> ViewportState:
        return self.get("viewport", (s.viewports.gen, s.transform.gen), viewport_state, s)

    def scissor(self, s, fb_width: int, fb_height: int) -> ScissorState:
        return self.get("scissor", (s.viewports.gen, fb_width, fb_height), scissor_state, s,
                        fb_width, fb_height)


_COMPARE_FUNCS = {E.GL_NEVER + f.value: f for f in PipeCompareFunc}


def compare_func(gl: int) -> PipeCompareFunc:
    return _COMPARE_FUNCS[gl]


def _rt_blend(rt) -> RtBlendState:
    mask = sum(1 << i for i, m in enumerate(rt.color_mask) if m)
    advanced = advanced_equation_name(rt.eq_rgb)
    if advanced is not None:            # one equation for colour and alpha, no factors
        return RtBlendState(rt.enabled, colormask=mask, advanced=advanced)
    minmax = (E.GL_MIN, E.GL_MAX)
    # GL 4.6 section 17.3.6.1: MIN/MAX ignore the factors; canonicalise them
    # so that equivalent states share one CSO.
    rgb_min = rt.eq_rgb in minmax
    a_min = rt.eq_alpha in minmax
    return RtBlendState(
        rt.enabled, _EQUATIONS[rt.eq_rgb],
        BF.ONE if rgb_min else _FACTORS[rt.src_rgb], BF.ONE if rgb_min else _FACTORS[rt.dst_rgb],
        _EQUATIONS[rt.eq_alpha],
        BF.ONE if a_min else _FACTORS[rt.src_alpha], BF.ONE if a_min else _FACTORS[rt.dst_alpha],
        mask)


def multisample_on(s, api, fb_samples: int) -> bool:
    """GL 4.6 section 14.3.1: multisample rasterization and the fragment operations
    of section 17.3.1 (alpha to coverage/one, sample coverage, sample mask) and
    sample shading act when the draw framebuffer has sample buffers and
    GL_MULTISAMPLE is enabled (always in GLES, which has no such enable)."""
    return fb_samples > 1 and (api.es or E.GL_MULTISAMPLE in s.enabled)


def sample_mask(s, fb_samples: int, multisample: bool) -> int:
    """The coverage mask of GL 4.6 section 17.3.1 every fragment is ANDed with:
    SAMPLE_COVERAGE's mask of round-down(value * samples) samples, inverted with
    its invert flag (the first samples, as Mesa's state tracker picks them), and
    SAMPLE_MASK's word; all samples when multisampling is off."""
    mask = 0xFFFFFFFF
    if not multisample:
        return mask
    if E.GL_SAMPLE_COVERAGE in s.enabled:
        mask = (1 << int(s.sample_coverage_value * fb_samples)) - 1
        if s.sample_coverage_invert:
            mask = ~mask & 0xFFFFFFFF
    if E.GL_SAMPLE_MASK in s.enabled:
        mask &= s.sample_mask_value
    return mask


def blend_state(s, n_cbufs: int, multisample: bool = False) -> BlendState:
    """GL 4.6 section 17.3.6: per-draw-buffer blend state; alpha to coverage and
    alpha to one only with ``multisample`` on (``multisample_on``)."""
    rts = tuple(_rt_blend(rt) for rt in s.rt[:PIPE_MAX_COLOR_BUFS])
    rts = rts + (RtBlendState(),) * (PIPE_MAX_COLOR_BUFS - len(rts))
    independent = any(r != rts[0] for r in rts[1:])
    if not independent:
        rts = (rts[0],) * PIPE_MAX_COLOR_BUFS
    logic = E.GL_COLOR_LOGIC_OP in s.enabled
    return BlendState(rt=rts, independent_blend_enable=independent, logicop_enable=logic,
                      logicop_func=PipeLogicOp(s.logic_op - E.GL_CLEAR),
                      dither=E.GL_DITHER in s.enabled,
                      alpha_to_coverage=multisample and E.GL_SAMPLE_ALPHA_TO_COVERAGE in s.enabled,
                      alpha_to_one=multisample and E.GL_SAMPLE_ALPHA_TO_ONE in s.enabled)


def _stencil(f, enabled: bool, bits: int) -> StencilState:
    full = (1 << bits) - 1
    return StencilState(enabled, compare_func(f.func), _STENCIL_OPS[f.fail], _STENCIL_OPS[f.zfail],
                        _STENCIL_OPS[f.zpass], f.value_mask & full, f.write_mask & full)


def dsa_state(s, has_depth: bool, stencil_bits: int, integer_colour: bool = False) -> DepthStencilAlphaState:
    """GL 4.6 sections 17.3.3-17.3.4: the tests are off when the framebuffer
    has no depth / stencil buffer; the alpha test has no effect when draw buffer
    0 holds integers (`integer_colour`; EXT_texture_integer, GL 3.0 compatibility)."""
    depth = E.GL_DEPTH_TEST in s.enabled and has_depth
    stencil = E.GL_STENCIL_TEST in s.enabled and stencil_bits > 0
    front, back = drawn_stencil_faces(s)
    alpha = E.GL_ALPHA_TEST in s.enabled and not integer_colour
    return DepthStencilAlphaState(
        depth_enabled=depth, depth_writemask=depth and s.depth_mask,
        depth_func=compare_func(s.depth_func) if depth else PipeCompareFunc.ALWAYS,
        stencil=(_stencil(front, stencil, stencil_bits), _stencil(back, stencil, stencil_bits)),
        alpha_enabled=alpha,
        alpha_func=compare_func(s.alpha_func) if alpha else PipeCompareFunc.ALWAYS,
        alpha_ref_value=min(1.0, max(0.0, s.alpha_ref)) if alpha else 0.0)


def _in_range(x: float, bounds) -> float:
    """A size clamped to the implementation's range when rasterised (GL 4.6
    sections 14.4 and 14.5: point size and line width); NaN is the minimum."""
    lo, hi = bounds
    return lo if x != x else max(lo, min(hi, x))


def rasterizer_state(s, api, fb_samples: int, clip_planes: int = 0,
                     point_range=(0.0, 1e30), line_range=(0.0, 1e30),
                     colour_clamps: tuple[bool, bool] = (False, False)) -> RasterizerState:
    """`point_range`, `line_range`: the screen's supported sizes (ScreenCaps);
    `colour_clamps`: glClampColor's (vertex, fragment) clamps for the framebuffer
    (driver.gl.color_clamp)."""
    cull = E.GL_CULL_FACE in s.enabled
    return RasterizerState(
        flatshade=getattr(s, "flat_shading", False),
        flatshade_first=s.provoking_vertex == E.GL_FIRST_VERTEX_CONVENTION,
        light_twoside=E.GL_VERTEX_PROGRAM_TWO_SIDE in s.enabled or getattr(s, "ff_two_side", False),
        # GL_UPPER_LEFT flips y in the viewport transform, so the window-space winding
        # of front faces flips with it (as Mesa's state tracker does)
        front_ccw=(s.front_face == E.GL_CCW) != (s.clip_origin == E.GL_UPPER_LEFT),
        clip_halfz=s.clip_depth_mode == E.GL_ZERO_TO_ONE,
        cull_face=_FACES[s.cull_face] if cull else PipeFace.NONE,
        fill_front=_FILL[s.polygon_mode], fill_back=_FILL[s.polygon_mode_back],
        offset_tri=E.GL_POLYGON_OFFSET_FILL in s.enabled,
        offset_line=E.GL_POLYGON_OFFSET_LINE in s.enabled,
        offset_point=E.GL_POLYGON_OFFSET_POINT in s.enabled,
        offset_units=s.polygon_offset_units, offset_scale=s.polygon_offset_factor,
        offset_clamp=s.polygon_offset_clamp,
        scissor=E.GL_SCISSOR_TEST in s.enabled,
        point_size=_in_range(s.point_size, point_range),
        point_size_per_vertex=api.es or E.GL_PROGRAM_POINT_SIZE in s.enabled or getattr(s, "ff_point_size", False),
        point_quad_rasterization=api.es or api.core or E.GL_POINT_SPRITE in s.enabled,
        sprite_coord_upper_left=getattr(s, "point_sprite_origin", E.GL_UPPER_LEFT) == E.GL_UPPER_LEFT,
        sprite_coord_enable=getattr(s, "sprite_coord_mask", 0) if E.GL_POINT_SPRITE in s.enabled else 0,
        line_width=_in_range(s.line_width, line_range), line_smooth=E.GL_LINE_SMOOTH in s.enabled,
        line_stipple_enable=E.GL_LINE_STIPPLE in s.enabled, line_stipple_factor=s.line_stipple[0] - 1,
        line_stipple_pattern=s.line_stipple[1],
        poly_stipple_enable=E.GL_POLYGON_STIPPLE in s.enabled,
        multisample=multisample_on(s, api, fb_samples),
        rasterizer_discard=E.GL_RASTERIZER_DISCARD in s.enabled,
        depth_clamp=E.GL_DEPTH_CLAMP in s.enabled,
        depth_clip_near=E.GL_DEPTH_CLAMP not in s.enabled,
        depth_clip_far=E.GL_DEPTH_CLAMP not in s.enabled,
        clip_plane_enable=clip_planes,
        # glClampColor: vertex colours and fragment colours clamp to [0, 1] (TRUE, or
        # FIXED_ONLY with fixed-point buffers only: an RGBA8_SNORM buffer loses its negatives)
        clamp_vertex_color=colour_clamps[0], clamp_fragment_color=colour_clamps[1],
    )


def viewport_state(s) -> ViewportState:
    """GL 4.6 section 13.8.1, with glClipControl: ZERO_TO_ONE maps clip z in
    [0, 1] to [n, f]; UPPER_LEFT negates y (the window's y scale)."""
    x, y, w, h = s.viewport
    n, f = s.depth_range
    vp = ViewportState.from_gl(x, y, w, h, n, f, clip_halfz=s.clip_depth_mode == E.GL_ZERO_TO_ONE)
    if s.clip_origin == E.GL_UPPER_LEFT:
        sx, sy, sz = vp.scale
        vp = ViewportState((sx, -sy, sz), vp.translate)
    return vp


def scissor_state(s, fb_width: int, fb_height: int) -> ScissorState:
    x, y, w, h = s.scissor
    return ScissorState(max(0, x), max(0, y), max(0, min(fb_width, x + w)),
                        max(0, min(fb_height, y + h)))


_VTYPES = {E.GL_BYTE: ("8", "SNORM", "SSCALED", "SINT"),
           E.GL_UNSIGNED_BYTE: ("8", "UNORM", "USCALED", "UINT"),
           E.GL_SHORT: ("16", "SNORM", "SSCALED", "SINT"),
           E.GL_UNSIGNED_SHORT: ("16", "UNORM", "USCALED", "UINT"),
           E.GL_INT: ("32", "SNORM", "SSCALED", "SINT"),
           E.GL_UNSIGNED_INT: ("32", "UNORM", "USCALED", "UINT"),
           E.GL_HALF_FLOAT: ("16", "FLOAT", "FLOAT", None),
           E.GL_FLOAT: ("32", "FLOAT", "FLOAT", None),
           E.GL_FIXED: ("32", "FIXED", "FIXED", None),
           E.GL_DOUBLE: ("64", "FLOAT", "FLOAT", None)}


@functools.lru_cache(maxsize=None)
def vertex_format(size: int, type: int, normalized: bool, integer: bool) -> PipeFormat:
    """The pipe format fetching one attribute (GL 4.6 section 10.3, table 10.3);
    a pure function of a few hundred possible arguments, so remembered."""
    if size == E.GL_BGRA:
        if type == E.GL_UNSIGNED_BYTE:
            return PipeFormat.B8G8R8A8_UNORM
        return PipeFormat.B10G10R10A2_UNORM
    if type in (E.GL_INT_2_10_10_10_REV, E.GL_UNSIGNED_INT_2_10_10_10_REV):
        sign = "S" if type == E.GL_INT_2_10_10_10_REV else "U"
        return PipeFormat[f"R10G10B10A2_{sign}NORM" if normalized else f"R10G10B10A2_{sign}SCALED"]
    if type == E.GL_UNSIGNED_INT_10F_11F_11F_REV:
        return PipeFormat.R11G11B10_FLOAT
    bits, norm, scaled, intkind = _VTYPES[type]
    kind = intkind if integer else (norm if normalized else scaled)
    return PipeFormat["".join(f"{c}{bits}" for c in "RGBA"[:size]) + "_" + kind]


_MIP_FILTERS = {E.GL_NEAREST: PipeTexMipFilter.NONE, E.GL_LINEAR: PipeTexMipFilter.NONE,
                E.GL_NEAREST_MIPMAP_NEAREST: PipeTexMipFilter.NEAREST,
                E.GL_LINEAR_MIPMAP_NEAREST: PipeTexMipFilter.NEAREST,
                E.GL_NEAREST_MIPMAP_LINEAR: PipeTexMipFilter.LINEAR,
                E.GL_LINEAR_MIPMAP_LINEAR: PipeTexMipFilter.LINEAR}


def sampler_state(params, target: int, seamless: bool) -> SamplerState:
    """GL 4.6 section 8.14: MIN_FILTER names both the image and mip filter."""
    mf = params.min_filter
    min_img = PipeTexFilter.LINEAR if mf in (E.GL_LINEAR, E.GL_LINEAR_MIPMAP_NEAREST,
                                             E.GL_LINEAR_MIPMAP_LINEAR) else PipeTexFilter.NEAREST
    mip = _MIP_FILTERS[mf]
    return SamplerState(
        wrap_s=_WRAPS[params.wrap_s], wrap_t=_WRAPS[params.wrap_t], wrap_r=_WRAPS[params.wrap_r],
        min_img_filter=min_img, min_mip_filter=mip,
        mag_img_filter=PipeTexFilter.LINEAR if params.mag_filter == E.GL_LINEAR else PipeTexFilter.NEAREST,
        compare_mode=params.compare_mode == E.GL_COMPARE_REF_TO_TEXTURE,
        compare_func=compare_func(params.compare_func),
        unnormalized_coords=target == E.GL_TEXTURE_RECTANGLE,
        max_anisotropy=params.max_anisotropy,
        seamless_cube_map=seamless,
        lod_bias=params.lod_bias, min_lod=params.min_lod, max_lod=params.max_lod,
        border_color=tuple(params.border_color), reduction_mode=_REDUCTIONS[params.reduction_mode])


#: TEXTURE_REDUCTION_MODE_ARB -> the pipe's reduction mode.
_REDUCTIONS = {E.GL_WEIGHTED_AVERAGE_ARB: PipeTexReductionMode.WEIGHTED_AVERAGE, E.GL_MIN: PipeTexReductionMode.MIN,
               E.GL_MAX: PipeTexReductionMode.MAX}


def integer_border(samp: SamplerState, view_format) -> SamplerState:
    """The sampler of a view whose format is pure integer (``*_UINT``/``*_SINT``) takes its
    border colour as four 32-bit integers (GL 4.6 section 8.14.2): the values
    glTexParameterIiv/Iuiv stored, and a colour given as floats as its float bits (the
    colour is one 32-bit word per channel, read by the view's type, as in Mesa). Any
    other view's sampler is returned unchanged."""
    if not view_format.name.endswith(("_UINT", "_SINT")):
        return samp
    import struct
    words = tuple(int(c) & 0xFFFFFFFF if isinstance(c, int) else struct.unpack("<I", struct.pack("<f", c))[0]
                  for c in samp.border_color)
    return dataclasses.replace(samp, border_color=words, border_color_is_integer=True)


# GL 3.2 compatibility section 3.8.15: where a depth value D lands, per DEPTH_TEXTURE_MODE
_DEPTH_MODES = {E.GL_LUMINANCE: (E.GL_RED, E.GL_RED, E.GL_RED, E.GL_ONE),
                E.GL_INTENSITY: (E.GL_RED, E.GL_RED, E.GL_RED, E.GL_RED),
                E.GL_ALPHA: (E.GL_ZERO, E.GL_ZERO, E.GL_ZERO, E.GL_RED),
                E.GL_RED: (E.GL_RED, E.GL_ZERO, E.GL_ZERO, E.GL_ONE)}


def sampler_view(tex, resource, pipe_target, depth_mode: int = E.GL_RED) -> SamplerView:
    """A view of the texture's levels base..max; texture views (GL 4.6
    section 8.18) add their level/layer offsets into the parent's resource
    and their own format. ``depth_mode``: the texture's DEPTH_TEXTURE_MODE
    (compatibility profile; RED elsewhere), applied to depth sampling before the
    texture's swizzle."""
    last = resource.template.last_level
    layers = resource.template.array_size
    level0 = getattr(tex, "view_min_level", 0)
    layer0 = getattr(tex, "view_min_layer", 0)
    nlayers = getattr(tex, "view_num_layers", 0) or layers - layer0
    view_levels = getattr(tex, "view_num_levels", 0) or (last + 1 - level0)
    first = min(level0 + tex.base_level, last)
    final = min(level0 + min(max(tex.max_level, tex.base_level), view_levels - 1), last)
    fmt = getattr(tex, "view_format", None) or resource.format
    if tex.depth_stencil_mode == E.GL_STENCIL_INDEX and fmt.name == "Z24_UNORM_S8_UINT":
        fmt = PipeFormat.X24S8_UINT          # GL 4.6 section 8.10: sample the stencil
    swizzle = list(tex.swizzle)
    base = tex.images[0][tex.base_level] if tex.images and len(tex.images[0]) > tex.base_level else None
    if base is not None and base.internal_format in (E.GL_INTENSITY, E.GL_INTENSITY8):
        swizzle = [E.GL_RED if s == E.GL_ALPHA else s for s in swizzle]   # stored as luminance
    if fmt.name.startswith("Z") and depth_mode != E.GL_RED:
        mode = _DEPTH_MODES[depth_mode]
        pick = {E.GL_RED: mode[0], E.GL_GREEN: mode[1], E.GL_BLUE: mode[2], E.GL_ALPHA: mode[3]}
        swizzle = [pick.get(s, s) for s in swizzle]
    return SamplerView(resource, fmt, pipe_target, first_level=first, last_level=final,
                       first_layer=layer0, last_layer=layer0 + nlayers - 1,
                       swizzle=tuple(_SWIZZLES[s] for s in swizzle))
