"""What GLES extension names specify beyond the GL feature behind them.

Most GLES extensions of the extension table (driver/gl/extensions.py, es2
column) name a feature desktop GL has in its core: their entry points are the
registry's aliases of the core commands (features/aliases.py) and the core
command admits the context when it has the extension. What an ES name adds on
top lives here:

- pixel types and unsized format/type combinations GLES 2.0/3.x accept only
  with an extension (OES_texture_float, OES_texture_half_float,
  EXT_texture_rg), and the sized format such an image is stored in (the
  "effective internal format" of GLES 3.2 table 8.2's unsized rows);
- the ES-only token ``HALF_FLOAT_OES`` (0x8D61, not GL's HALF_FLOAT 0x140B) of
  OES_texture_half_float, OES_vertex_half_float and EXT_color_buffer_half_float;
- KHR_parallel_shader_compile (and ARB_parallel_shader_compile, its desktop name):
  compiles and links finish inside the call, so ``COMPLETION_STATUS_KHR`` is always
  TRUE and the thread count is only stored.

Invariant: a function here changes nothing unless the context has the
extension (``ctx.api.has_extension``), so contexts without it keep the core
behaviour and errors.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import call, entry_point, forward
from driver.gl.formats import (GL_ALPHA16F_ARB, GL_ALPHA32F_ARB, GL_LUMINANCE16F_ARB,
                               GL_LUMINANCE32F_ARB, GL_LUMINANCE_ALPHA16F_ARB,
                               GL_LUMINANCE_ALPHA32F_ARB)

__all__ = ["view_offsets", "es_color_renderable", "RENDER_SNORM_8", "RENDER_SNORM_16",
           "read_depth_24_8", "srgb_decode_view", "GL_TEXTURE_SRGB_DECODE_EXT", "GL_DECODE_EXT", "GL_SKIP_DECODE_EXT",
           "texture_buffer_state", "es_depth_stencil_read_ok", "GL_GPU_DISJOINT_EXT", "ES_FEATURES", "es_has", "texture_view_state", "GL_HALF_FLOAT_OES", "GL_COMPLETION_STATUS_KHR", "GL_MAX_SHADER_COMPILER_THREADS_KHR", "parallel_compile",
           "es_pixel_type", "es_unsized_combinations", "es_effective_format",
           "es2_renderbuffer_formats", "required_internalformat_ok"]

#: OES_texture_half_float / OES_vertex_half_float: GLES 2.0's half-float type token,
#: another value than GL's HALF_FLOAT (which GLES 3.0 adopted).
GL_HALF_FLOAT_OES = 0x8D61
#: KHR_parallel_shader_compile
GL_MAX_SHADER_COMPILER_THREADS_KHR = 0x91B0
GL_COMPLETION_STATUS_KHR = 0x91B1

_UNSIZED_FLOAT_BASES = (E.GL_RGBA, E.GL_RGB, E.GL_LUMINANCE_ALPHA, E.GL_LUMINANCE, E.GL_ALPHA)
_RG_BASES = (E.GL_RED, E.GL_RG)

# The sized format an unsized image of a float type is stored in (GLES 3.2 table
# 8.2's unsized rows with FLOAT/HALF_FLOAT, extended to the luminance/alpha bases and
# RED/RG as OES_texture_float and EXT_texture_rg specify them).
_EFFECTIVE = {
    (E.GL_RGBA, E.GL_FLOAT): E.GL_RGBA32F, (E.GL_RGBA, E.GL_HALF_FLOAT): E.GL_RGBA16F,
    (E.GL_RGB, E.GL_FLOAT): E.GL_RGB32F, (E.GL_RGB, E.GL_HALF_FLOAT): E.GL_RGB16F,
    (E.GL_RED, E.GL_FLOAT): E.GL_R32F, (E.GL_RED, E.GL_HALF_FLOAT): E.GL_R16F,
    (E.GL_RG, E.GL_FLOAT): E.GL_RG32F, (E.GL_RG, E.GL_HALF_FLOAT): E.GL_RG16F,
    (E.GL_LUMINANCE, E.GL_FLOAT): GL_LUMINANCE32F_ARB,
    (E.GL_LUMINANCE, E.GL_HALF_FLOAT): GL_LUMINANCE16F_ARB,
    (E.GL_LUMINANCE_ALPHA, E.GL_FLOAT): GL_LUMINANCE_ALPHA32F_ARB,
    (E.GL_LUMINANCE_ALPHA, E.GL_HALF_FLOAT): GL_LUMINANCE_ALPHA16F_ARB,
    (E.GL_ALPHA, E.GL_FLOAT): GL_ALPHA32F_ARB, (E.GL_ALPHA, E.GL_HALF_FLOAT): GL_ALPHA16F_ARB,
}


#: GL features a GLES context gets through an extension before (or instead of)
#: the ES version that made them core: feature -> (the ES version where it is
#: core, or None; the ES extension names that give it). The core GL command
#: admits an ES context when `es_has` says so; its aliases (glCopyImageSubDataEXT,
#: ...) come from the registry (features/aliases.py).
ES_FEATURES: dict[str, tuple[tuple[int, int] | None, tuple[str, ...]]] = {
    "instanced_draws": ((3, 0), ("GL_EXT_draw_instanced",)),
    "base_vertex": ((3, 2), ("GL_OES_draw_elements_base_vertex", "GL_EXT_draw_elements_base_vertex")),
    "base_instance": (None, ("GL_EXT_base_instance",)),
    "multi_draw_arrays": (None, ("GL_EXT_multi_draw_arrays",)),
    "draw_buffers": ((3, 0), ("GL_EXT_draw_buffers",)),
    "polygon_offset_clamp": (None, ("GL_EXT_polygon_offset_clamp",)),
    "clear_texture": (None, ("GL_EXT_clear_texture",)),
    "copy_image": ((3, 2), ("GL_EXT_copy_image", "GL_OES_copy_image")),
    "draw_buffers_indexed": ((3, 2), ("GL_EXT_draw_buffers_indexed", "GL_OES_draw_buffers_indexed")),
    "texture_view": (None, ("GL_OES_texture_view", "GL_EXT_texture_view")),
    "sample_shading": (None, ("GL_OES_sample_shading",)),
    "texture_cube_map_array": ((3, 2), ("GL_OES_texture_cube_map_array", "GL_EXT_texture_cube_map_array")),
    "texture_buffer": ((3, 2), ("GL_OES_texture_buffer", "GL_EXT_texture_buffer")),
    "texture_border_clamp": ((3, 2), ("GL_EXT_texture_border_clamp", "GL_OES_texture_border_clamp")),
    "occlusion_query_boolean": ((3, 0), ("GL_EXT_occlusion_query_boolean",)),
    "timer_query": (None, ("GL_EXT_disjoint_timer_query",)),
    "read_depth": (None, ("GL_NV_read_depth", "GL_NV_read_depth_stencil")),
    "read_stencil": (None, ("GL_NV_read_stencil", "GL_NV_read_depth_stencil")),
    "read_depth_stencil": (None, ("GL_NV_read_depth_stencil",)),
    "primitive_bounding_box": ((3, 2), ("GL_OES_primitive_bounding_box", "GL_EXT_primitive_bounding_box")),
    "viewport_array": (None, ("GL_OES_viewport_array",)),
    "blend_func_extended": (None, ("GL_EXT_blend_func_extended",)),
    # GLES 3.2's stages in GLES 3.1 contexts (the entry points, limits and queries they bring)
    "geometry_shader": ((3, 2), ("GL_OES_geometry_shader", "GL_EXT_geometry_shader")),
    "tessellation_shader": ((3, 2), ("GL_OES_tessellation_shader", "GL_EXT_tessellation_shader")),
}


def es_has(api, feature: str) -> bool:
    """Whether a GLES context has `feature` of ES_FEATURES: its ES version is
    at least the one where the feature is core, or it has one of the
    extensions. Always False for desktop GL (which gates on its own versions)."""
    if not api.es:
        return False
    core, names = ES_FEATURES[feature]
    return (core is not None and api.version >= core) or any(api.has_extension(n) for n in names)


def view_offsets(tex) -> tuple[int, int, object]:
    """(first level, first layer, format) of a texture view in the storage it shares
    with its parent (GL 4.6 section 8.18: a view's level and layer 0 are its
    TEXTURE_VIEW_MIN_LEVEL/_MIN_LAYER in the parent's storage; its images are read
    and written in its own format, of the parent's texel size); (0, 0, None) for
    a texture that is not a view."""
    if getattr(tex, "view_parent", None) is None:
        return 0, 0, None
    return tex.view_min_level, tex.view_min_layer, tex.view_format


def texture_view_state(tex) -> dict[int, int]:
    """TEXTURE_VIEW_MIN_LEVEL, _NUM_LEVELS, _MIN_LAYER and _NUM_LAYERS of a
    texture (GL 4.6 sections 8.18-8.19, GLES 3.2 section 8.18): a view's own
    range within the storage it shares; for an immutable texture its whole
    storage (levels; 6 layers for a cube map, the array size for arrays, else
    1); all 0 for a mutable texture."""
    if getattr(tex, "view_parent", None) is not None:
        first_level, levels = tex.view_min_level, tex.view_num_levels
        first_layer, layers = tex.view_min_layer, tex.view_num_layers
    elif tex.immutable and tex.images:
        base = tex.images[0][0]
        first_level = first_layer = 0
        levels = tex.immutable_levels
        layers = {E.GL_TEXTURE_CUBE_MAP: 6, E.GL_TEXTURE_1D_ARRAY: base.height,
                  E.GL_TEXTURE_2D_ARRAY: base.depth, E.GL_TEXTURE_CUBE_MAP_ARRAY: base.depth,
                  E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY: base.depth}.get(tex.target, 1)
    else:
        first_level = levels = first_layer = layers = 0
    return {E.GL_TEXTURE_VIEW_MIN_LEVEL: first_level, E.GL_TEXTURE_VIEW_NUM_LEVELS: levels,
            E.GL_TEXTURE_VIEW_MIN_LAYER: first_layer, E.GL_TEXTURE_VIEW_NUM_LAYERS: layers}


def texture_buffer_state(ctx, tex) -> dict[int, int]:
    """GetTexLevelParameter's TEXTURE_BUFFER_DATA_STORE_BINDING, _OFFSET and
    _SIZE of a buffer texture (GL 4.6 table 23.18, GLES 3.2 table 21.11): the
    buffer attached, the range's offset, and its size (the whole buffer past
    the offset for glTexBuffer)."""
    buf = getattr(tex, "buffer", None)
    if buf is None:
        return {E.GL_TEXTURE_BUFFER_DATA_STORE_BINDING: 0, E.GL_TEXTURE_BUFFER_OFFSET: 0,
                E.GL_TEXTURE_BUFFER_SIZE: 0}
    offset = tex.buffer_offset
    size = tex.buffer_size or max(buf.size - offset, 0)
    # the image a buffer texture is: one row of the range's texels in the buffer's
    # format (as Mesa answers; the elements of table 8.18, RGB32F's 12 bytes included)
    from driver.gl.formats import INTERNAL_FORMATS
    info = INTERNAL_FORMATS.get(tex.buffer_internal_format)
    texel_B = info.texel_buffer_B if info is not None else 0
    width = min(size // texel_B, ctx.caps.max_texel_buffer_elements) if texel_B else 0
    return {E.GL_TEXTURE_BUFFER_DATA_STORE_BINDING: buf.name, E.GL_TEXTURE_BUFFER_OFFSET: offset,
            E.GL_TEXTURE_BUFFER_SIZE: size, E.GL_TEXTURE_WIDTH: width, E.GL_TEXTURE_HEIGHT: 1,
            E.GL_TEXTURE_DEPTH: 1, E.GL_TEXTURE_INTERNAL_FORMAT: tex.buffer_internal_format}


def _half_float(ctx, type: int, extension: str) -> int:
    api = ctx.api
    if not api.es:
        return type
    if type == GL_HALF_FLOAT_OES and api.has_extension(extension):
        return E.GL_HALF_FLOAT
    # GLES 2.0 has no HALF_FLOAT token (GLES 3.0 added 0x140B); only the OES one
    check(not (type == E.GL_HALF_FLOAT and api.version < (3, 0)), E.GL_INVALID_ENUM,
          "HALF_FLOAT is a GLES 3.0 type; GLES 2.0 has HALF_FLOAT_OES (0x8D61)")
    return type


def es_pixel_type(ctx, type: int) -> int:
    """The pixel type a GLES command means: ``HALF_FLOAT_OES`` is GL's
    HALF_FLOAT in a context with OES_texture_half_float; GL's HALF_FLOAT in
    GLES 2.0 is INVALID_ENUM (raised); any other value is returned unchanged
    (and checked by the caller)."""
    return _half_float(ctx, type, "GL_OES_texture_half_float")


def es_vertex_type(ctx, type: int) -> int:
    """The vertex attribute type a GLES command means: ``HALF_FLOAT_OES`` is
    HALF_FLOAT with OES_vertex_half_float (as `es_pixel_type`)."""
    return _half_float(ctx, type, "GL_OES_vertex_half_float")


def es_unsized_combinations(api) -> frozenset[tuple[int, int]]:
    """The (format, type) pairs with an unsized internal format (equal to
    the format) that a GLES context accepts beyond GLES 2.0 table 3.4 because
    of its extensions (types already translated by `es_pixel_type`)."""
    if not api.es:
        return frozenset()
    return _unsized_for(api.version)


_UNSIZED_CACHE: dict[tuple[int, int], frozenset] = {}


def _unsized_for(version) -> frozenset[tuple[int, int]]:
    if version in _UNSIZED_CACHE:
        return _UNSIZED_CACHE[version]
    from driver.gl.extensions import available
    have = available(True, False, version)
    rg = "GL_EXT_texture_rg" in have
    out = set()
    if rg:
        out |= {(b, E.GL_UNSIGNED_BYTE) for b in _RG_BASES}
    for ext, type in (("GL_OES_texture_float", E.GL_FLOAT),
                      ("GL_OES_texture_half_float", E.GL_HALF_FLOAT)):
        if ext in have:
            out |= {(b, type) for b in _UNSIZED_FLOAT_BASES + (_RG_BASES if rg else ())}
    _UNSIZED_CACHE[version] = frozenset(out)
    return _UNSIZED_CACHE[version]


def es_effective_format(internalformat: int, fmt: int, type: int) -> int:
    """The internal format a GLES image specified with an unsized
    `internalformat` is stored in: the sized float format of table 8.2 for
    FLOAT/HALF_FLOAT data, otherwise `internalformat` itself."""
    if internalformat != fmt:
        return internalformat
    return _EFFECTIVE.get((fmt, type), internalformat)


#: SNORM formats EXT_render_snorm makes colour-renderable in GLES (16-bit ones with
#: EXT_texture_norm16)
RENDER_SNORM_8 = frozenset({E.GL_R8_SNORM, E.GL_RG8_SNORM, E.GL_RGBA8_SNORM})
RENDER_SNORM_16 = frozenset({E.GL_R16_SNORM, E.GL_RG16_SNORM, E.GL_RGBA16_SNORM})


#: formats desktop GL renders (table 8.12, or as Mesa) and GLES never does (GLES 3.2
#: table 8.10, EXT_texture_norm16, EXT_render_snorm: no three-component ones but RGB8,
#: RGB565, R11F_G11F_B10F and, with an extension, RGB16F)
_DESKTOP_ONLY_RENDERABLE = frozenset({
    E.GL_RGB8UI, E.GL_RGB8I, E.GL_RGB16UI, E.GL_RGB16I, E.GL_RGB32UI, E.GL_RGB32I, E.GL_RGB32F,
    E.GL_RGB16, E.GL_SRGB8, E.GL_RGB8_SNORM, E.GL_RGB16_SNORM, E.GL_RGB9_E5, E.GL_ALPHA,
    E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_LUMINANCE8, E.GL_LUMINANCE8_ALPHA8})


def es_color_renderable(api, internalformat: int) -> bool:
    """Whether a GLES context may render to a format the format table marks
    colour-renderable: the SNORM formats only with EXT_render_snorm (16-bit ones
    also need EXT_texture_norm16), RGB16F only with EXT_color_buffer_half_float, never
    the formats desktop GL renders besides: the three-component ones (RGB32F, RGB16,
    SRGB8, the SNORM and integer ones, RGB9_E5) and the compatibility profile's ALPHA
    and LUMINANCE (-ALPHA) formats.
    Always True for desktop GL."""
    if not api.es:
        return True
    if internalformat in _DESKTOP_ONLY_RENDERABLE:
        return False
    if internalformat == E.GL_RGB16F:          # not with EXT_color_buffer_float alone
        return api.has_extension("GL_EXT_color_buffer_half_float")
    if internalformat in RENDER_SNORM_8:
        return api.has_extension("GL_EXT_render_snorm")
    if internalformat in RENDER_SNORM_16:
        return api.has_extension("GL_EXT_render_snorm") and api.has_extension("GL_EXT_texture_norm16")
    return True


#: OES_required_internalformat (GLES 1.0 / 2.0): the sized internal formats TexImage takes
#: with each (format, type) of the unsized table, beside the unsized one (the extension's
#: table 3.3; its 2_10_10_10_REV rows need EXT_texture_type_2_10_10_10_REV, not listed).
#: The depth rows need OES_depth_texture as well.
REQUIRED_INTERNALFORMATS: dict[tuple[int, int], frozenset[int]] = {
    (E.GL_RGBA, E.GL_UNSIGNED_BYTE): frozenset({E.GL_RGBA8, E.GL_RGB5_A1, E.GL_RGBA4}),
    (E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4): frozenset({E.GL_RGBA4}),
    (E.GL_RGBA, E.GL_UNSIGNED_SHORT_5_5_5_1): frozenset({E.GL_RGB5_A1}),
    (E.GL_RGB, E.GL_UNSIGNED_BYTE): frozenset({E.GL_RGB8, E.GL_RGB565}),
    (E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5): frozenset({E.GL_RGB565}),
    (E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE): frozenset({E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE4_ALPHA4}),
    (E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE): frozenset({E.GL_LUMINANCE8}),
    (E.GL_ALPHA, E.GL_UNSIGNED_BYTE): frozenset({E.GL_ALPHA8}),
    (E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_SHORT): frozenset({E.GL_DEPTH_COMPONENT16}),
    (E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT): frozenset({E.GL_DEPTH_COMPONENT16, E.GL_DEPTH_COMPONENT24,
                                                          E.GL_DEPTH_COMPONENT32}),
}


_REQUIRED_SIZED = frozenset().union(*REQUIRED_INTERNALFORMATS.values())


def required_internalformat_ok(api, internalformat: int, fmt: int, type: int) -> bool | None:
    """Whether a GLES context with OES_required_internalformat takes the sized
    ``internalformat`` for client data of ``fmt``/``type`` (REQUIRED_INTERNALFORMATS):
    None when ``internalformat`` is none of the extension's (or the context lacks it),
    False for one of them given with another format or type."""
    if not api.has_extension("GL_OES_required_internalformat") or internalformat not in _REQUIRED_SIZED:
        return None
    if fmt == E.GL_DEPTH_COMPONENT and not (api.version >= (3, 0) or api.has_extension("GL_OES_depth_texture")):
        return False
    return internalformat in REQUIRED_INTERNALFORMATS.get((fmt, type), ())


def es2_renderbuffer_formats(api) -> frozenset[int]:
    """Renderbuffer formats a GLES 2.0 context accepts because of its
    extensions: R8/RG8 (EXT_texture_rg), the 16F formats
    (EXT_color_buffer_half_float)."""
    out = set()
    if api.has_extension("GL_EXT_texture_rg"):
        out |= {E.GL_R8, E.GL_RG8}
    if api.has_extension("GL_EXT_color_buffer_half_float"):
        out |= {E.GL_RGBA16F, E.GL_RGB16F}
        if api.has_extension("GL_EXT_texture_rg"):
            out |= {E.GL_R16F, E.GL_RG16F}
    if api.has_extension("GL_OES_depth32"):
        out.add(E.GL_DEPTH_COMPONENT32)             # DEPTH_COMPONENT32_OES, the same token
    return frozenset(out)


# -- KHR_parallel_shader_compile -----------------------------------------------------------


def parallel_compile(api) -> bool:
    """KHR_parallel_shader_compile or its desktop twin ARB_parallel_shader_compile (the same
    command, tokens and values under another name)."""
    return (api.has_extension("GL_KHR_parallel_shader_compile")
            or api.has_extension("GL_ARB_parallel_shader_compile"))


@entry_point
def glMaxShaderCompilerThreadsKHR(ctx, count):
    """KHR_parallel_shader_compile: the number of threads the implementation
    may use for compiling and linking (0xFFFFFFFF: its own choice). shimgl
    compiles inside glCompileShader/glLinkProgram, so the value is only kept
    for MAX_SHADER_COMPILER_THREADS_KHR."""
    check(ctx.api.has_extension("GL_KHR_parallel_shader_compile"), E.GL_INVALID_OPERATION,
          "needs KHR_parallel_shader_compile")
    ctx.state.max_shader_compiler_threads = int(count) & 0xFFFFFFFF


@entry_point
def glMaxShaderCompilerThreadsARB(ctx, count):
    """ARB_parallel_shader_compile's name of glMaxShaderCompilerThreadsKHR."""
    check(ctx.api.has_extension("GL_ARB_parallel_shader_compile"), E.GL_INVALID_OPERATION,
          "needs ARB_parallel_shader_compile")
    ctx.state.max_shader_compiler_threads = int(count) & 0xFFFFFFFF


def compiler_threads(ctx) -> int:
    """MAX_SHADER_COMPILER_THREADS_KHR: 0xFFFFFFFF until the application sets it."""
    return getattr(ctx.state, "max_shader_compiler_threads", 0xFFFFFFFF)


# -- EXT_occlusion_query_boolean / EXT_disjoint_timer_query --------------------------------------
# GLES 2.0's query commands: the core ones under EXT names (the registry does not mark
# them as aliases, so they are written out here with the core parameters).
#: EXT_disjoint_timer_query: whether a GPU event (a frequency change, a reset) made the
#: timer queries since the last read meaningless; shimgl's GPU clock never jumps.
GL_GPU_DISJOINT_EXT = 0x8FBB


def _query_ext(ctx, name: str) -> None:
    check(es_has(ctx.api, "occlusion_query_boolean") or es_has(ctx.api, "timer_query"),
          E.GL_INVALID_OPERATION, f"{name} needs EXT_occlusion_query_boolean or EXT_disjoint_timer_query")


for _name in ("GenQueries", "DeleteQueries", "IsQuery", "BeginQuery", "EndQuery", "GetQueryiv",
              "GetQueryObjectuiv"):
    forward(f"gl{_name}EXT", f"gl{_name}", guard=_query_ext)
del _name


# -- OES_viewport_array -----------------------------------------------------------------------------
# The indexed viewport commands are the registry's aliases of GL 4.1's (features/aliases.py) but
# for the depth ranges, which GLES gives as floats where GL has doubles: the same commands here.

def _viewport_array_ext(ctx, name: str) -> None:
    check(es_has(ctx.api, "viewport_array"), E.GL_INVALID_OPERATION, f"{name} needs OES_viewport_array")


forward("glDepthRangeArrayfvOES", "glDepthRangeArrayv", guard=_viewport_array_ext)
forward("glDepthRangeIndexedfOES", "glDepthRangeIndexed", guard=_viewport_array_ext)


# -- EXT_blend_func_extended -----------------------------------------------------------------------
# glBindFragDataLocation[Indexed]EXT and glGetFragDataIndexEXT are the registry's aliases
# (features/aliases.py); the resource query (GLES 3.1) is not marked as one there.

def _blend_func_extended_ext(ctx, name: str) -> None:
    check(es_has(ctx.api, "blend_func_extended"), E.GL_INVALID_OPERATION, f"{name} needs EXT_blend_func_extended")


forward("glGetProgramResourceLocationIndexEXT", "glGetProgramResourceLocationIndex", guard=_blend_func_extended_ext)


# -- NV_read_depth / NV_read_stencil / NV_read_depth_stencil --------------------------------------
#: The pixel types GLES ReadPixels takes for each depth/stencil format, and the
#: ES_FEATURES entry that admits it (the NV specifications' "Additions to Chapter 4").
_DS_READS = {
    E.GL_DEPTH_COMPONENT: ("read_depth", (E.GL_UNSIGNED_SHORT, E.GL_UNSIGNED_INT, E.GL_FLOAT,
                                          E.GL_UNSIGNED_INT_24_8)),
    E.GL_STENCIL_INDEX: ("read_stencil", (E.GL_UNSIGNED_BYTE,)),
    E.GL_DEPTH_STENCIL: ("read_depth_stencil", (E.GL_UNSIGNED_INT_24_8, E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV)),
}


def read_depth_24_8(ctx, x, y, width, height, pixels):
    """GLES ReadPixels of DEPTH_COMPONENT as UNSIGNED_INT_24_8 (as Mesa's GLES
    takes it with NV_read_depth: the depth's 24 bits in the upper bits of each
    word, the low byte 0): the UNSIGNED_INT read with its low byte cleared.
    Into client memory only (a pack buffer is GL_INVALID_OPERATION)."""
    check(ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is None, E.GL_INVALID_OPERATION,
          "DEPTH_COMPONENT/UNSIGNED_INT_24_8 reads go to client memory only")
    raw = call(ctx, "glReadPixels", x, y, width, height, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT, pixels)
    words = np.frombuffer(raw, np.uint32) & np.uint32(0xFFFFFF00)
    return words.tobytes()


def es_depth_stencil_read_ok(api, format: int, type: int) -> bool:
    """Whether a GLES context may read `format` (DEPTH_COMPONENT,
    STENCIL_INDEX, DEPTH_STENCIL) with glReadPixels: its NV_read_* extension
    and one of the types that extension names."""
    feature, types = _DS_READS[format]
    return es_has(api, feature) and type in types


# -- EXT_texture_sRGB_decode ------------------------------------------------------------------
GL_TEXTURE_SRGB_DECODE_EXT = 0x8A48
GL_DECODE_EXT = 0x8A49
GL_SKIP_DECODE_EXT = 0x8A4A


def srgb_decode_view(view, params):
    """EXT_texture_sRGB_decode: a view of an sRGB texture sampled with
    TEXTURE_SRGB_DECODE_EXT = SKIP_DECODE_EXT (texture or sampler object
    state, `params`) returns the stored values undecoded: the same view with
    the format's linear twin. Any other view is returned as it is."""
    if view is None or getattr(params, "srgb_decode", GL_DECODE_EXT) != GL_SKIP_DECODE_EXT:
        return view
    linear = _linear_twin(view.format)
    return view if linear is view.format else dataclasses.replace(view, format=linear)


@functools.lru_cache(maxsize=None)
def _linear_twin(fmt):
    """The pipe format storing the same bits as sRGB `fmt` without the sRGB
    transfer (R8G8B8A8_SRGB -> R8G8B8A8_UNORM, DXT1_SRGB -> DXT1_RGB,
    ASTC_4x4_SRGB -> ASTC_4x4, BPTC_SRGBA -> BPTC_RGBA_UNORM); `fmt` itself when
    it is not sRGB."""
    from driver.gallium import PipeFormat
    name = fmt.name
    if "SRGB" not in name:
        return fmt
    candidates = (name.replace("_SRGB", "_UNORM"), name.replace("_SRGB", ""),
                  name.replace("_SRGBA8", "_RGBA8").replace("_SRGB8", "_RGB8").replace("_SRGBA", "_RGBA")
                  .replace("_SRGB", "_RGB"), name.replace("_SRGBA", "_RGBA_UNORM"))
    for c in candidates:
        if c in PipeFormat.__members__:
            return PipeFormat[c]
    return fmt


# -- EXT_discard_framebuffer --------------------------------------------------------------------


@entry_point
def glDiscardFramebufferEXT(ctx, target, numAttachments, attachments):
    """EXT_discard_framebuffer (GLES 2.0): the named attachments' contents may
    be dropped - GLES 3.0's glInvalidateFramebuffer for target FRAMEBUFFER
    (COLOR_EXT/DEPTH_EXT/STENCIL_EXT are its COLOR/DEPTH/STENCIL tokens)."""
    check(ctx.api.has_extension("GL_EXT_discard_framebuffer"), E.GL_INVALID_OPERATION,
          "needs EXT_discard_framebuffer")
    check(target == E.GL_FRAMEBUFFER, E.GL_INVALID_ENUM, f"bad target {target:#x}")
    return call(ctx, "glInvalidateFramebuffer", target, numAttachments, attachments)


# -- NV_read_buffer ----------------------------------------------------------------------------------
# glReadBufferNV is glReadBuffer (GLES 3.0 made it core; the registry marks no alias)

def _read_buffer_nv(ctx, name: str) -> None:
    check(ctx.api.has_extension("GL_NV_read_buffer"), E.GL_INVALID_OPERATION, f"{name} needs NV_read_buffer")


forward("glReadBufferNV", "glReadBuffer", guard=_read_buffer_nv)
