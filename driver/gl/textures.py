"""Texture objects, texture image specification, parameters and sampler
objects (GL 4.6 chapter 8, GLES 3.2 chapter 8)."""

from __future__ import annotations

import copy
import inspect
import math

import layout

from driver.gallium import (
    Box, PipeBind, PipeMap, PipeTextureTarget as T, ResourceTemplate,
)
from driver.gl import enums as E
from driver.gl.color_clamp import clamp_query
from driver.gl.errors import GLError, allocating, check, check_enum
from driver.gl.formats import (
    ES_ONLY, INTEGER_PIXEL_FORMATS, INTERNAL_FORMATS, LEGACY, PIXEL_FORMATS, PIXEL_TYPES, UNSIZED, component_bits,
    COMPRESSED, COMPRESSED_TARGETS, DEPTH_TARGETS, compressed_targets, component_types, compressed_component_bits, compressed_luminance_bits, luminance_intensity_bits,
    UNSIZED_ES2_COMBINATIONS, integer_with_float_type, lookup, pixel_type_matches, reported_internal_format,
)
from driver.gl.features.gles_ext import (es_effective_format, es_has, es_pixel_type, es_unsized_combinations,
                                         required_internalformat_ok,
                                         texture_buffer_state, texture_view_state)
from driver.gl.features.gles_ext import GL_DECODE_EXT, GL_SKIP_DECODE_EXT, GL_TEXTURE_SRGB_DECODE_EXT, view_offsets
from driver.gl.objects import Namespace, Sampler, TexImage, Texture
from driver.gl.pixels import image_size_B, read_client_image, to_resource_bytes
from driver.gl.pointers import as_bytes
from driver.gl.state import PixelStore
from driver.gl.buffers import read_buffer

__all__ = ["TextureMixin", "CUBE_FACES", "PIPE_TARGETS", "first_bound", "texture_targets"]

CUBE_FACES = tuple(range(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X, E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Z + 1))
PIPE_TARGETS = {E.GL_TEXTURE_1D: T.TEXTURE_1D, E.GL_TEXTURE_2D: T.TEXTURE_2D,
                E.GL_TEXTURE_3D: T.TEXTURE_3D, E.GL_TEXTURE_CUBE_MAP: T.TEXTURE_CUBE,
                E.GL_TEXTURE_RECTANGLE: T.TEXTURE_RECT, E.GL_TEXTURE_1D_ARRAY: T.TEXTURE_1D_ARRAY,
                E.GL_TEXTURE_2D_ARRAY: T.TEXTURE_2D_ARRAY, E.GL_TEXTURE_BUFFER: T.BUFFER,
                E.GL_TEXTURE_2D_MULTISAMPLE: T.TEXTURE_2D,
                E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY: T.TEXTURE_2D_ARRAY,
                E.GL_TEXTURE_CUBE_MAP_ARRAY: T.TEXTURE_CUBE_ARRAY,
                # OES_EGL_image_external: one 2D level, always an EGLImage's (egl_image.py)
                E.GL_TEXTURE_EXTERNAL_OES: T.TEXTURE_2D}

MIN_FILTERS = frozenset({E.GL_NEAREST, E.GL_LINEAR, E.GL_NEAREST_MIPMAP_NEAREST,
                         E.GL_LINEAR_MIPMAP_NEAREST, E.GL_NEAREST_MIPMAP_LINEAR,
                         E.GL_LINEAR_MIPMAP_LINEAR})
MAG_FILTERS = frozenset({E.GL_NEAREST, E.GL_LINEAR})
SWIZZLES = frozenset({E.GL_RED, E.GL_GREEN, E.GL_BLUE, E.GL_ALPHA, E.GL_ZERO, E.GL_ONE})



_INT_MAX = (1 << 31) - 1
_ARRAY_TARGETS = (E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY,
                  E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
#: the targets whose levels have layers or faces an image unit may bind one of (GL 4.6
#: section 8.26); a level of any other texture is bound whole, whatever layered and layer say
LAYERED_TARGETS = frozenset(_ARRAY_TARGETS + (E.GL_TEXTURE_3D, E.GL_TEXTURE_CUBE_MAP))


def first_bound(tex, target: int) -> None:
    """A texture object takes its target: rectangle and external textures start
    with MIN_FILTER LINEAR and CLAMP_TO_EDGE wrapping (GL 4.6 section 8.10,
    OES_EGL_image_external: they have no mipmaps and no repeat); multisample textures, whose sampler state cannot be
    set and is not used, report NEAREST filters and CLAMP_TO_EDGE wrapping (as
    Mesa); every other target starts with table 23.18's defaults."""
    tex.target = target
    if target in (E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_EXTERNAL_OES):
        tex.params.min_filter = E.GL_LINEAR
        tex.params.wrap_s = tex.params.wrap_t = tex.params.wrap_r = E.GL_CLAMP_TO_EDGE
    elif target in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
        tex.params.min_filter = tex.params.mag_filter = E.GL_NEAREST
        tex.params.wrap_s = tex.params.wrap_t = tex.params.wrap_r = E.GL_CLAMP_TO_EDGE


def _border_from_ints(pname: int, values: list) -> list:
    """GL 4.6 section 8.10: a border colour given to the integer setters is
    signed-normalised (2^31 - 1 is 1.0); other parameters pass unchanged."""
    if pname != E.GL_TEXTURE_BORDER_COLOR:
        return values
    return [max(-1.0, int(v) / _INT_MAX) for v in values]


def _border_to_ints(colour) -> list[int]:
    """The border colour as the integer getters return it (GL 4.6 section 2.2.2)."""
    return [int(round(max(-1.0, min(1.0, float(c))) * _INT_MAX)) for c in colour]

#: What glTexParameter may set on a multisample texture: everything but the sampler
#: states (GL 4.6 section 8.10: those are INVALID_ENUM, and INVALID_OPERATION
#: through glTextureParameter*, which names no target)
MULTISAMPLE_TEXTURE_PNAMES = frozenset({
    E.GL_TEXTURE_BASE_LEVEL, E.GL_TEXTURE_MAX_LEVEL, E.GL_DEPTH_STENCIL_TEXTURE_MODE, E.GL_TEXTURE_SWIZZLE_R,
    E.GL_TEXTURE_SWIZZLE_G, E.GL_TEXTURE_SWIZZLE_B, E.GL_TEXTURE_SWIZZLE_A, E.GL_TEXTURE_SWIZZLE_RGBA})


def bound_texture(ctx, target: int) -> Texture:
    """The texture bound to ``target`` on the active texture unit, or the target's
    default texture (object 0) when none is."""
    unit = ctx.texture_units[ctx.active_texture]
    return unit.get(target) or ctx.default_textures[target]


def texture_binding_name(ctx, target: int) -> int:
    """The name of the texture bound to ``target`` on the active unit (0: none)."""
    tex = ctx.texture_units[ctx.active_texture].get(target)
    return tex.name if tex is not None else 0


def texture_resource(ctx, tex: Texture):
    """Create (or return) the pipe resource holding the texture's levels
    base..last defined, and upload pending images. Level-0 properties
    define the template; mismatched levels are the completeness check's
    business (GL 4.6 section 8.17)."""
    parent = getattr(tex, "view_parent", None)
    if parent is not None:
        res = texture_resource(ctx, parent)     # a view shares its parent's storage
        if res is not None:
            ctx._write_pending(tex, res)
        return res
    base = tex.image(0, tex.base_level) if tex.images else None
    if base is None:
        return None
    info = ctx._format_info(base.internal_format)
    b = tex.base_level
    # level 0 of the resource is what the base level implies (as Mesa's
    # st_finalize_texture guesses): base extents << base_level
    is3d = tex.target == E.GL_TEXTURE_3D
    one_row = tex.target in (E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY)
    width0 = base.width << b
    height0 = 1 if one_row else base.height << b
    depth0 = base.depth << b if is3d else 1
    last = b
    # an immutable texture's storage has all its levels whatever MAX_LEVEL says (as
    # Mesa allocates it): a level above MAX_LEVEL may still be cleared, attached, read.
    # A mutable texture's levels above MAX_LEVEL are stored too while they continue
    # the chain (the size level 0 implies, the base's format), so that moving
    # BASE_LEVEL/MAX_LEVEL within a mipmap chain only changes the sampler view's
    # levels, never the storage (tex-miplevel-selection sets both before each draw)
    while (img := tex.image(0, last + 1)) is not None and (
            last + 1 <= tex.max_level or tex.immutable or ctx._continues_chain(
                tex, img, base, last + 1, (width0, height0, depth0))):
        last += 1
    key = (width0, height0, depth0, base.internal_format, last, base.samples,
           base.height if tex.target == E.GL_TEXTURE_1D_ARRAY else 0,
           base.depth if tex.target in _ARRAY_TARGETS else 0)
    if tex.resource is None or tex.resource_key != key:
        target = PIPE_TARGETS[tex.target]
        arrays = tex.target in _ARRAY_TARGETS
        layers = 6 if tex.target == E.GL_TEXTURE_CUBE_MAP else (base.depth if arrays else 1)
        if tex.target == E.GL_TEXTURE_1D_ARRAY:
            layers = base.height
        bind = PipeBind.SAMPLER_VIEW
        if info.is_depth_or_stencil:
            bind |= PipeBind.DEPTH_STENCIL
        elif info.color_renderable:
            bind |= PipeBind.RENDER_TARGET
        # Any texture may later be bound as an image where the API has images, so
        # ask for SHADER_IMAGE up front (as Mesa's state tracker does): the driver
        # then gives it a layout image stores can write (not a compressed one).
        if (ctx.api.gl_or_es((4, 2), (3, 1)) and ctx.screen.is_format_supported(
                info.pipe, target, base.samples, PipeBind.SHADER_IMAGE)):
            bind |= PipeBind.SHADER_IMAGE
        if tex.memory is not None:          # EXT_memory_object: placed in imported memory
            new = _place_in_memory(ctx, tex, ResourceTemplate(
                target, info.pipe, width0, height0, depth0, layers, last, base.samples,
                bind | (PipeBind.LINEAR if tex.tiling == E.GL_LINEAR_TILING_EXT else 0)))
        else:
            with allocating(f"a {base.width}x{base.height} texture"):
                new = ctx.screen.resource_create(ResourceTemplate(
                    target, info.pipe, width0, height0, depth0, layers, last, base.samples, bind))
        if tex.resource is not None:
            ctx._copy_common_levels(tex.resource, new)
            ctx.screen.resource_destroy(tex.resource)
        tex.resource, tex.resource_key = new, key
    ctx._write_pending(tex, tex.resource)
    ctx._upload_compressed(tex)
    return tex.resource


def _place_in_memory(ctx, tex: Texture, template: ResourceTemplate):
    """The resource of a texture whose storage glTexStorageMem*EXT put in a memory object
    (features/memory_object.py): INVALID_VALUE when it does not fit there."""
    obj, offset = tex.memory
    res = ctx.screen.resource_from_memobj(template, obj.memobj, offset)
    check(res is not None, E.GL_INVALID_VALUE,
          f"{ctx.screen.resource_size(template)} bytes from offset {offset} do not fit in the memory object's "
          f"{obj.size} (offsets are multiples of {ctx.screen.memobj_alignment})")
    return res


def texture_targets(api) -> set[int]:
    """The texture targets a context of ``api`` has (its versions' and listed
    extensions'): what glBindTexture and the texture commands accept."""
    t = {E.GL_TEXTURE_2D, E.GL_TEXTURE_CUBE_MAP}
    if api.gl_or_es((3, 0), (3, 0)):
        t |= {E.GL_TEXTURE_3D, E.GL_TEXTURE_2D_ARRAY}
    if not api.es:
        t |= {E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_RECTANGLE,
              E.GL_TEXTURE_BUFFER, E.GL_TEXTURE_2D_MULTISAMPLE,
              E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY}
    if api.es_(3, 1):
        t.add(E.GL_TEXTURE_2D_MULTISAMPLE)
        if api.has_extension("GL_OES_texture_storage_multisample_2d_array"):
            t.add(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
    if es_has(api, "texture_buffer"):
        t.add(E.GL_TEXTURE_BUFFER)
    if api.has_extension("GL_ARB_texture_cube_map_array") or es_has(api, "texture_cube_map_array"):
        t.add(E.GL_TEXTURE_CUBE_MAP_ARRAY)
    if api.has_extension("GL_OES_EGL_image_external"):
        t.add(E.GL_TEXTURE_EXTERNAL_OES)
    return t


class TextureMixin:
    def _init_family(self) -> None:
        self.textures = Namespace(Texture)
        self.samplers = Namespace(Sampler)
        self.active_texture = 0
        n = self.caps.max_combined_texture_units
        self.texture_units = [dict() for _ in range(n)]     # target -> Texture
        self.sampler_units = [None] * n
        self.default_textures = {t: Texture(0) for t in texture_targets(self.api)}
        for t, tex in self.default_textures.items():
            first_bound(tex, t)

    # -- targets: texture_targets(api), a function of the module ---------------

    # -- objects ---------------------------------------------------------------
    def glGenTextures(self, n: int) -> list[int]:
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        return self.textures.gen(n)

    def glBindTexture(self, target: int, texture: int) -> None:
        check_enum(target, texture_targets(self.api), f"bad texture target {target:#x}")
        unit = self.texture_units[self.active_texture]
        if texture == 0:
            unit.pop(target, None)
            return
        check(self.textures.is_generated(texture) or not self.api.core, E.GL_INVALID_OPERATION,
              "texture name was not generated")
        tex = self.textures.get_or_create(texture)
        # GL 4.6 section 8.1: binding to a different target than first bound
        check(tex.target in (0, target), E.GL_INVALID_OPERATION, "texture target mismatch")
        if tex.target == 0:
            first_bound(tex, target)
        unit[target] = tex

    def glIsTexture(self, texture: int) -> bool:
        tex = self.textures.get(texture)
        return tex is not None and tex.target != 0

    def glDeleteTextures(self, n: int, textures) -> None:
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        for name in list(textures)[:n]:
            tex = self.textures.get(name)
            if name == 0 or not self.textures.is_generated(name):
                continue
            if tex is not None:
                for unit in self.texture_units:
                    for tgt, t in list(unit.items()):
                        if t is tex:
                            del unit[tgt]
                # GL 4.6 section 8.26: as glBindImageTexture(unit, 0) for each image unit
                # of this context that has it
                images = getattr(self, "image_units", {})
                for unit_index in [u for u, entry in images.items() if entry[0] is tex]:
                    del images[unit_index]
                self._detach_from_framebuffers(tex)
                self.share_group.release(tex, self.screen.resource_destroy)
            self.textures.delete(name)

    def glActiveTexture(self, texture: int) -> None:
        unit = texture - E.GL_TEXTURE0
        check(0 <= unit < self.caps.max_combined_texture_units, E.GL_INVALID_ENUM,
              "texture unit out of range")
        self.active_texture = unit

    # -- parameters (GL 4.6 section 8.10, table 8.26) -----------------------------
    def _set_sampler_param(self, params, pname: int, value, for_sampler: bool) -> bool:
        """Validate and set a sampler parameter; False if pname is not one."""
        v0 = value[0] if isinstance(value, (list, tuple)) else value
        if pname in (E.GL_TEXTURE_WRAP_S, E.GL_TEXTURE_WRAP_T, E.GL_TEXTURE_WRAP_R):
            wraps = {E.GL_CLAMP_TO_EDGE, E.GL_REPEAT, E.GL_MIRRORED_REPEAT}
            if not self.api.es or es_has(self.api, "texture_border_clamp"):
                wraps.add(E.GL_CLAMP_TO_BORDER)
            if self.api.compat:
                wraps.add(E.GL_CLAMP)
            if self.api.has_extension("GL_ARB_texture_mirror_clamp_to_edge") or \
                    self.api.has_extension("GL_EXT_texture_mirror_clamp_to_edge"):
                wraps.add(E.GL_MIRROR_CLAMP_TO_EDGE)
            if self.api.has_extension("GL_ATI_texture_mirror_once"):     # MIRROR_CLAMP_ATI, .._TO_EDGE_ATI
                wraps |= {E.GL_MIRROR_CLAMP_EXT, E.GL_MIRROR_CLAMP_TO_EDGE}
            if self.api.has_extension("GL_EXT_texture_mirror_clamp"):
                wraps |= {E.GL_MIRROR_CLAMP_EXT, E.GL_MIRROR_CLAMP_TO_EDGE, E.GL_MIRROR_CLAMP_TO_BORDER_EXT}
            check_enum(int(v0), wraps)
            attr = {E.GL_TEXTURE_WRAP_S: "wrap_s", E.GL_TEXTURE_WRAP_T: "wrap_t",
                    E.GL_TEXTURE_WRAP_R: "wrap_r"}[pname]
            setattr(params, attr, int(v0))
        elif pname == E.GL_TEXTURE_MIN_FILTER:
            check_enum(int(v0), MIN_FILTERS)
            params.min_filter = int(v0)
        elif pname == E.GL_TEXTURE_MAG_FILTER:
            check_enum(int(v0), MAG_FILTERS)
            params.mag_filter = int(v0)
        elif pname == E.GL_TEXTURE_MIN_LOD and self.api.gl_or_es((1, 2), (3, 0)):
            params.min_lod = float(v0)
        elif pname == E.GL_TEXTURE_MAX_LOD and self.api.gl_or_es((1, 2), (3, 0)):
            params.max_lod = float(v0)
        elif pname == E.GL_TEXTURE_LOD_BIAS and not self.api.es:
            params.lod_bias = float(v0)
        elif pname == E.GL_TEXTURE_COMPARE_MODE and self.api.gl_or_es((1, 4), (3, 0)):
            check_enum(int(v0), (E.GL_NONE, E.GL_COMPARE_REF_TO_TEXTURE))
            params.compare_mode = int(v0)
        elif pname == E.GL_TEXTURE_COMPARE_FUNC and self.api.gl_or_es((1, 4), (3, 0)):
            check_enum(int(v0), range(E.GL_NEVER, E.GL_ALWAYS + 1))
            params.compare_func = int(v0)
        elif pname == E.GL_TEXTURE_BORDER_COLOR and (not self.api.es or es_has(self.api, "texture_border_clamp")):
            check(isinstance(value, (list, tuple)) and len(value) >= 4, E.GL_INVALID_ENUM,
                  "border colour needs the vector form")
            params.border_color = tuple(float(x) for x in value[:4])
        elif pname == E.GL_TEXTURE_MAX_ANISOTROPY_EXT:
            check(float(v0) >= 1.0, E.GL_INVALID_VALUE)
            params.max_anisotropy = min(float(v0), self.caps.max_texture_anisotropy)
        elif pname == GL_TEXTURE_SRGB_DECODE_EXT and self.api.has_extension("GL_EXT_texture_sRGB_decode"):
            check_enum(int(v0), (GL_DECODE_EXT, GL_SKIP_DECODE_EXT))
            params.srgb_decode = int(v0)
        elif pname == E.GL_TEXTURE_CUBE_MAP_SEAMLESS and self._seamless_per_texture(for_sampler):
            check_enum(int(v0), (E.GL_FALSE, E.GL_TRUE))
            params.cube_map_seamless = bool(v0)
        elif pname == E.GL_TEXTURE_REDUCTION_MODE_ARB and self._filter_minmax():
            check_enum(int(v0), (E.GL_WEIGHTED_AVERAGE_ARB, E.GL_MIN, E.GL_MAX))
            params.reduction_mode = int(v0)
        else:
            return False
        return True

    def _filter_minmax(self) -> bool:
        """TEXTURE_REDUCTION_MODE_ARB/_EXT (one token) is a texture and sampler parameter."""
        return self.api.has_extension("GL_ARB_texture_filter_minmax") or \
            self.api.has_extension("GL_EXT_texture_filter_minmax")

    def _seamless_per_texture(self, for_sampler: bool) -> bool:
        """TEXTURE_CUBE_MAP_SEAMLESS as a texture parameter (ARB_ and AMD_seamless_cubemap_per_texture)
        or a sampler parameter (the ARB extension only)."""
        return self.api.has_extension("GL_ARB_seamless_cubemap_per_texture") or (
            not for_sampler and self.api.has_extension("GL_AMD_seamless_cubemap_per_texture"))

    def _tex_parameter(self, target: int, pname: int, value) -> None:
        check_enum(target, texture_targets(self.api) - {E.GL_TEXTURE_BUFFER})
        tex = bound_texture(self, target)
        v0 = value[0] if isinstance(value, (list, tuple)) else value
        if target in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY) and \
                pname not in MULTISAMPLE_TEXTURE_PNAMES:
            raise GLError(E.GL_INVALID_ENUM, "sampler state of a multisample texture")
        if target == E.GL_TEXTURE_RECTANGLE:
            # GL 4.6 section 8.10: rectangle textures take no mipmaps or repeat
            if pname == E.GL_TEXTURE_MIN_FILTER:
                check_enum(int(v0), MAG_FILTERS)
            if pname in (E.GL_TEXTURE_WRAP_S, E.GL_TEXTURE_WRAP_T, E.GL_TEXTURE_WRAP_R):
                check_enum(int(v0), (E.GL_CLAMP_TO_EDGE, E.GL_CLAMP_TO_BORDER, E.GL_CLAMP))
        if target == E.GL_TEXTURE_EXTERNAL_OES:
            # OES_EGL_image_external: no mipmap filter, CLAMP_TO_EDGE only (INVALID_ENUM)
            if pname == E.GL_TEXTURE_MIN_FILTER:
                check_enum(int(v0), MAG_FILTERS)
            if pname in (E.GL_TEXTURE_WRAP_S, E.GL_TEXTURE_WRAP_T, E.GL_TEXTURE_WRAP_R):
                check_enum(int(v0), (E.GL_CLAMP_TO_EDGE,))
        es3 = self.api.gl_or_es((1, 2), (3, 0))
        if pname == E.GL_TEXTURE_BASE_LEVEL and es3:
            check(int(v0) >= 0, E.GL_INVALID_VALUE, "negative base level")
            # GL 4.6 section 8.10: rectangle and multisample textures have level 0 only
            check(target not in (E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_2D_MULTISAMPLE,
                                 E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, E.GL_TEXTURE_EXTERNAL_OES)
                  or int(v0) == 0, E.GL_INVALID_OPERATION,
                  "this target's base level must be 0")
            # an immutable texture's levels are clamped to the ones it has (GL 4.6
            # section 8.17); kept clamped, as Mesa does, so the queries read them so
            levels = tex.immutable_levels if tex.immutable else None
            tex.base_level = min(int(v0), levels - 1) if levels else int(v0)
        elif pname == E.GL_TEXTURE_MAX_LEVEL and (es3 or self.api.has_extension("GL_APPLE_texture_max_level")):
            check(int(v0) >= 0, E.GL_INVALID_VALUE, "negative max level")
            levels = tex.immutable_levels if tex.immutable else None
            tex.max_level = min(max(int(v0), tex.base_level), levels - 1) if levels else int(v0)
        elif pname in (E.GL_TEXTURE_SWIZZLE_R, E.GL_TEXTURE_SWIZZLE_G, E.GL_TEXTURE_SWIZZLE_B,
                       E.GL_TEXTURE_SWIZZLE_A) and self.api.gl_or_es((3, 3), (3, 0)):
            check_enum(int(v0), SWIZZLES)
            tex.swizzle[pname - E.GL_TEXTURE_SWIZZLE_R] = int(v0)
        elif pname == E.GL_TEXTURE_SWIZZLE_RGBA and not self.api.es:
            check(isinstance(value, (list, tuple)) and len(value) >= 4, E.GL_INVALID_ENUM)
            for v in value[:4]:
                check_enum(int(v), SWIZZLES)
            tex.swizzle = [int(v) for v in value[:4]]
        elif pname == E.GL_DEPTH_STENCIL_TEXTURE_MODE and self.api.gl_or_es((4, 3), (3, 1)):
            check_enum(int(v0), (E.GL_DEPTH_COMPONENT, E.GL_STENCIL_INDEX))
            tex.depth_stencil_mode = int(v0)
        elif pname == E.GL_GENERATE_MIPMAP and self.api.compat:
            # GL 3.2 compatibility section 3.8.9 (SGIS_generate_mipmap): a change to the
            # base level regenerates the levels below it (_auto_mipmap)
            tex.generate_mipmap = bool(v0)
        elif pname == E.GL_TEXTURE_TILING_EXT and self.api.has_extension("GL_EXT_memory_object"):
            # read when glTexStorageMem* places the storage (features/memory_object.py)
            check_enum(int(v0), (E.GL_OPTIMAL_TILING_EXT, E.GL_LINEAR_TILING_EXT))
            tex.tiling = int(v0)
        elif pname == E.GL_DEPTH_TEXTURE_MODE and self.api.compat:
            # GL 3.2 compatibility section 3.8.15 (a texture, not a sampler, parameter)
            check_enum(int(v0), (E.GL_LUMINANCE, E.GL_INTENSITY, E.GL_ALPHA, E.GL_RED))
            tex.depth_texture_mode = int(v0)
        elif not self._set_sampler_param(tex.params, pname, value, False):
            raise GLError(E.GL_INVALID_ENUM, f"glTexParameter: bad pname {pname:#x}")

    def glTexParameteri(self, target: int, pname: int, param: int) -> None:
        check(pname not in (E.GL_TEXTURE_BORDER_COLOR, E.GL_TEXTURE_SWIZZLE_RGBA), E.GL_INVALID_ENUM)
        self._tex_parameter(target, pname, int(param))

    def glTexParameterf(self, target: int, pname: int, param: float) -> None:
        check(pname not in (E.GL_TEXTURE_BORDER_COLOR, E.GL_TEXTURE_SWIZZLE_RGBA), E.GL_INVALID_ENUM)
        self._tex_parameter(target, pname, float(param))

    def glTexParameteriv(self, target: int, pname: int, params) -> None:
        self._tex_parameter(target, pname, _border_from_ints(pname, list(params)))

    def glTexParameterfv(self, target: int, pname: int, params) -> None:
        self._tex_parameter(target, pname, [float(x) for x in params])

    def glGetTexParameteriv(self, target: int, pname: int) -> list:
        check_enum(target, texture_targets(self.api) - {E.GL_TEXTURE_BUFFER})
        tex = bound_texture(self, target)
        p = tex.params
        values = {E.GL_TEXTURE_MIN_FILTER: p.min_filter, E.GL_TEXTURE_MAG_FILTER: p.mag_filter,
                  E.GL_TEXTURE_WRAP_S: p.wrap_s, E.GL_TEXTURE_WRAP_T: p.wrap_t}
        if self.api.gl_or_es((1, 2), (3, 0)):
            values |= {E.GL_TEXTURE_WRAP_R: p.wrap_r, E.GL_TEXTURE_MIN_LOD: p.min_lod,
                       E.GL_TEXTURE_MAX_LOD: p.max_lod, E.GL_TEXTURE_BASE_LEVEL: tex.base_level,
                       E.GL_TEXTURE_MAX_LEVEL: tex.max_level,
                       E.GL_TEXTURE_COMPARE_MODE: p.compare_mode,
                       E.GL_TEXTURE_COMPARE_FUNC: p.compare_func,
                       E.GL_TEXTURE_SWIZZLE_R: tex.swizzle[0], E.GL_TEXTURE_SWIZZLE_G: tex.swizzle[1],
                       E.GL_TEXTURE_SWIZZLE_B: tex.swizzle[2], E.GL_TEXTURE_SWIZZLE_A: tex.swizzle[3],
                       E.GL_TEXTURE_IMMUTABLE_FORMAT: int(tex.immutable),
                       E.GL_TEXTURE_IMMUTABLE_LEVELS: getattr(tex, "view_immutable_levels", tex.immutable_levels)}
        if es_has(self.api, "texture_border_clamp"):
            values[E.GL_TEXTURE_BORDER_COLOR] = p.border_color
        if not self.api.es:
            values |= {E.GL_TEXTURE_LOD_BIAS: p.lod_bias, E.GL_TEXTURE_BORDER_COLOR: p.border_color,
                       E.GL_TEXTURE_SWIZZLE_RGBA: tuple(tex.swizzle)}
        values[E.GL_TEXTURE_MAX_ANISOTROPY_EXT] = p.max_anisotropy
        if self._seamless_per_texture(False):
            values[E.GL_TEXTURE_CUBE_MAP_SEAMLESS] = int(p.cube_map_seamless)
        if self._filter_minmax():
            values[E.GL_TEXTURE_REDUCTION_MODE_ARB] = p.reduction_mode
        if self.api.has_extension("GL_APPLE_texture_max_level"):      # GLES 2.0: TEXTURE_MAX_LEVEL_APPLE
            values[E.GL_TEXTURE_MAX_LEVEL] = tex.max_level
        if self.api.has_extension("GL_EXT_texture_sRGB_decode"):
            values[GL_TEXTURE_SRGB_DECODE_EXT] = p.srgb_decode
        if self.api.has_extension("GL_EXT_memory_object"):
            values[E.GL_TEXTURE_TILING_EXT] = tex.tiling
        if self.api.compat:
            values[E.GL_DEPTH_TEXTURE_MODE] = getattr(tex, "depth_texture_mode", E.GL_LUMINANCE)
            values[E.GL_GENERATE_MIPMAP] = int(getattr(tex, "generate_mipmap", False))
        if self.api.es_(3, 1) or self.api.has_extension("GL_ARB_stencil_texturing"):
            values[E.GL_DEPTH_STENCIL_TEXTURE_MODE] = tex.depth_stencil_mode
        if self.api.gl(4, 2):     # ARB_shader_image_load_store: images match by size
            values[E.GL_IMAGE_FORMAT_COMPATIBILITY_TYPE] = E.GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE
        if self.api.gl(4, 3) or es_has(self.api, "texture_view"):
            values |= texture_view_state(tex)
        if target == E.GL_TEXTURE_EXTERNAL_OES:     # OES_EGL_image_external: one unit suffices
            values[E.GL_REQUIRED_TEXTURE_IMAGE_UNITS_OES] = 1
        check_enum(pname, values)
        v = values[pname]
        if pname == E.GL_TEXTURE_BORDER_COLOR:
            return _border_to_ints(v)
        return [int(x) for x in v] if isinstance(v, tuple) else [int(v)]

    def glGetTexParameterfv(self, target: int, pname: int) -> list:
        if pname == E.GL_TEXTURE_BORDER_COLOR:     # clamped when fragment colours clamp
            check_enum(target, texture_targets(self.api))
            return list(clamp_query(self, tuple(bound_texture(self, target).params.border_color)))
        if pname in (E.GL_TEXTURE_MIN_LOD, E.GL_TEXTURE_MAX_LOD, E.GL_TEXTURE_LOD_BIAS,
                     E.GL_TEXTURE_MAX_ANISOTROPY_EXT):
            check_enum(target, texture_targets(self.api))
            p = bound_texture(self, target).params
            return [float({E.GL_TEXTURE_MIN_LOD: p.min_lod, E.GL_TEXTURE_MAX_LOD: p.max_lod,
                           E.GL_TEXTURE_LOD_BIAS: p.lod_bias,
                           E.GL_TEXTURE_MAX_ANISOTROPY_EXT: p.max_anisotropy}[pname])]
        return [float(v) for v in (self.glGetTexParameteriv(target, pname) or [])]

    # -- image specification (GL 4.6 section 8.5) -----------------------------------
    def _max_size(self, target: int) -> int:
        lim = self.limits
        if target == E.GL_TEXTURE_3D:
            return lim["GL_MAX_3D_TEXTURE_SIZE"]
        if target in CUBE_FACES or target == E.GL_TEXTURE_CUBE_MAP:
            return lim["GL_MAX_CUBE_MAP_TEXTURE_SIZE"]
        return lim["GL_MAX_TEXTURE_SIZE"]

    @staticmethod
    def _fits_level(tex_target: int, level: int, width: int, height: int, depth: int, max_size: int) -> bool:
        """GL 4.6 section 8.5: an image of level ``level`` is at most ``max_size`` >> level
        texels (border excluded) in each of its dimensions but the layers of array textures
        (the height of a 1D array, the depth of 2D and cube map arrays)."""
        sizes = {E.GL_TEXTURE_1D_ARRAY: (width,),
                 E.GL_TEXTURE_2D_ARRAY: (width, height),
                 E.GL_TEXTURE_CUBE_MAP_ARRAY: (width, height)}.get(tex_target, (width, height, depth))
        return all(n <= max_size >> level for n in sizes)

    def _image_target(self, target: int, dims: int) -> tuple[int, int]:
        """(texture object target, face index) for a TexImage target."""
        valid = texture_targets(self.api)
        if dims == 1:
            ok = {E.GL_TEXTURE_1D} & valid
        elif dims == 2:
            ok = {E.GL_TEXTURE_2D, E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_1D_ARRAY, *CUBE_FACES} & (
                valid | set(CUBE_FACES))
        else:
            ok = {E.GL_TEXTURE_3D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY} & valid
        check_enum(target, ok, f"bad TexImage{dims}D target {target:#x}")
        if target in CUBE_FACES:
            return E.GL_TEXTURE_CUBE_MAP, target - E.GL_TEXTURE_CUBE_MAP_POSITIVE_X
        return target, 0

    def _check_format_type(self, internalformat: int, fmt: int, type: int):
        if self.api.es and self.api.version < (3, 0):
            # GLES 1.1/2.0 section 3.7.1: an internalformat outside the table is INVALID_VALUE,
            # whatever the format and type (a compressed one among them, as Mesa answers)
            check(lookup(internalformat) is not None, E.GL_INVALID_VALUE, f"bad internal format {internalformat:#x}")
        check_enum(fmt, PIXEL_FORMATS, f"bad pixel format {fmt:#x}")
        check_enum(type, PIXEL_TYPES, f"bad pixel type {type:#x}")
        info = lookup(internalformat)
        if self.api.es:
            # GLES 3.2 section 8.4.2, tables 8.2/8.3
            if internalformat in UNSIZED:
                check(info is not None and internalformat == fmt and
                      ((fmt, type) in UNSIZED_ES2_COMBINATIONS or
                       (fmt, type) in es_unsized_combinations(self.api) or
                       (self.api.version >= (3, 0) and self._es3_unsized_ok(fmt, type)) or
                       self._es_depth_texture_ok(fmt, type)),
                      E.GL_INVALID_OPERATION, "format/type/internalformat combination")
                return info
            required = required_internalformat_ok(self.api, internalformat, fmt, type)
            if required:
                return info             # OES_required_internalformat's sized formats (GLES 1/2, and LA in 3)
            check(required is None or self.api.version >= (3, 0), E.GL_INVALID_OPERATION,
                  "format/type/internalformat combination (OES_required_internalformat table 3.3)")
            check(self.api.version >= (3, 0) and internalformat in INTERNAL_FORMATS,
                  E.GL_INVALID_VALUE, f"bad internal format {internalformat:#x}")
            fmt_ok = fmt == _es_format_for(info)
            check(fmt_ok and type in info.es_types, E.GL_INVALID_OPERATION,
                  "format/type/internalformat combination (GLES 3 table 8.2)")
            return info
        desktop_ok = internalformat not in ES_ONLY and (self.api.compat or internalformat not in LEGACY)
        if info is None:
            # ASTC and ETC2/EAC take compressed data only (KHR_texture_compression_astc_ldr;
            # Mesa's compressedteximage_only_format): INVALID_OPERATION, not an unknown format
            cf = COMPRESSED.get(internalformat)
            check(cf is None or cf.family not in ("astc", "etc2") or internalformat not in self._compressed_formats(),
                  E.GL_INVALID_OPERATION, f"no compression into {internalformat:#x}: compressed data only")
        check(info is not None and desktop_ok, E.GL_INVALID_VALUE, f"bad internal format {internalformat:#x}")
        check(not integer_with_float_type(fmt, type), E.GL_INVALID_ENUM, "integer pixel format with a float type")
        check(pixel_type_matches(fmt, type), E.GL_INVALID_OPERATION, "format/type mismatch")
        # GL 4.6 section 8.5: integer-ness and depth-ness must agree
        check(info.integer == (fmt in INTEGER_PIXEL_FORMATS), E.GL_INVALID_OPERATION,
              "integer internal format needs an integer pixel format (and vice versa)")
        _check_depth_formats_agree(info, fmt)
        return info

    def _es_depth_texture_ok(self, fmt, type):
        """OES_depth_texture (DEPTH_COMPONENT with UNSIGNED_SHORT or UNSIGNED_INT) and
        OES_packed_depth_stencil (DEPTH_STENCIL with UNSIGNED_INT_24_8) in GLES 2.0."""
        if fmt == E.GL_DEPTH_COMPONENT:
            return (type in (E.GL_UNSIGNED_SHORT, E.GL_UNSIGNED_INT)
                    and self.api.has_extension("GL_OES_depth_texture"))
        return ((fmt, type) == (E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8)
                and self.api.has_extension("GL_OES_packed_depth_stencil"))

    @staticmethod
    def _es3_unsized_ok(fmt, type):
        return (fmt, type) in {(E.GL_RGBA, E.GL_FLOAT), (E.GL_RGBA, E.GL_HALF_FLOAT),
                               (E.GL_RGB, E.GL_FLOAT), (E.GL_RGB, E.GL_HALF_FLOAT),
                               (E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_SHORT),
                               (E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT),
                               (E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8)}

    def _tex_image(self, dims, target, level, internalformat, width, height, depth, border,
                   fmt, type, pixels) -> None:
        if self._encodes(internalformat):       # a specific compressed format: the GL compresses
            return self._tex_image_encoded(dims, target, level, internalformat, width, height, depth,
                                           border, fmt, type, pixels)
        tex_target, face = self._image_target(target, dims)
        check(level >= 0, E.GL_INVALID_VALUE, "negative level")
        type = es_pixel_type(self, type)
        info = self._check_format_type(internalformat, fmt, type)
        if self.api.es:
            internalformat = es_effective_format(internalformat, fmt, type)
            info = lookup(internalformat)
        unpack = None
        if border:
            width, height, depth, unpack = self._strip_border(tex_target, dims, border, width, height, depth)
        maxsz = self._max_size(target)
        check(level <= int(math.log2(maxsz)), E.GL_INVALID_VALUE, "level too large")
        check(0 <= width <= maxsz and 0 <= height <= maxsz and 0 <= depth <= maxsz,
              E.GL_INVALID_VALUE, "bad size")
        check(self._fits_level(tex_target, level, width, height, depth, maxsz), E.GL_INVALID_VALUE,
              f"image too large for level {level} (at most {maxsz >> level} texels a side)")
        if tex_target in (E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY):
            check(width == height, E.GL_INVALID_VALUE, "cube map faces must be square")
        if tex_target == E.GL_TEXTURE_CUBE_MAP_ARRAY:
            check(depth % 6 == 0 and depth <= self.caps.max_texture_array_layers, E.GL_INVALID_VALUE,
                  "a cube map array's depth counts layer-faces: a multiple of 6")
        if tex_target == E.GL_TEXTURE_RECTANGLE:
            check(level == 0, E.GL_INVALID_VALUE, "rectangle textures have one level")
        if tex_target in (E.GL_TEXTURE_2D_ARRAY,):
            check(depth <= self.caps.max_texture_array_layers, E.GL_INVALID_VALUE)
        if tex_target == E.GL_TEXTURE_1D_ARRAY:     # its height counts layers
            check(height <= self.caps.max_texture_array_layers, E.GL_INVALID_VALUE,
                  "more layers than MAX_ARRAY_TEXTURE_LAYERS")
        if info.is_depth_or_stencil:
            check(tex_target in DEPTH_TARGETS, E.GL_INVALID_OPERATION, "depth formats need a 1D/2D/cube/array target")
        tex = bound_texture(self, tex_target)
        check(not tex.immutable, E.GL_INVALID_OPERATION, "immutable texture")
        unpack = unpack or self._unpack_for(dims)
        data = self._unpack_source(pixels, fmt, type, width, height, depth, unpack)
        fmt, type, unpack, data = self._color_transfer(fmt, type, unpack, data, width, height, depth)
        tex.set_image(face, level, TexImage(width, height, depth, internalformat))
        # the new image replaces the old one whole: uploads to the old one not yet written
        # are dropped (they may not fit the new size: a 2x2 image then 1x1 before a draw)
        tex.pending = [p for p in self._pending_uploads(tex) if (p[0], p[1]) != (face, level)]
        if data is not None:
            self._pending_uploads(tex).append((face, level, (0, 0, 0, width, height, depth),
                                               fmt, type, copy.copy(unpack), data))
        self._auto_mipmap(tex, tex_target, level)

    def _strip_border(self, target, dims, border, width, height, depth):
        """A texture border (GL 4.6 compatibility section 8.5: 0 or 1 in the
        compatibility profile, 0 in core, GLES and for rectangle textures, else
        INVALID_VALUE; ES 1.x: 0) is not stored: the image is its inner part, as on Mesa's
        drivers (no hardware samples border texels; GL_CLAMP then samples the
        border colour). Returns the inner (width, height, depth) and the unpack
        state that skips the border texels of the client image. The border
        wraps the image's `dims` dimensions but the layers of array textures."""
        legacy = self.api.compat and not self.api.es
        check(border == 1 and legacy and target != E.GL_TEXTURE_RECTANGLE,
              E.GL_INVALID_VALUE, "border must be 0 or 1" if legacy else "border must be 0")
        bordered = {E.GL_TEXTURE_1D_ARRAY: 1, E.GL_TEXTURE_2D_ARRAY: 2,
                    E.GL_TEXTURE_CUBE_MAP_ARRAY: 2}.get(target, dims)
        sizes = [width, height, depth]
        check(all(n >= 2 for n in sizes[:bordered]), E.GL_INVALID_VALUE,
              "an image with a border is at least 2 texels wide in each bordered dimension")
        unpack = copy.copy(self._unpack_for(dims))
        unpack.row_length = unpack.row_length or width
        unpack.image_height = unpack.image_height or height
        unpack.skip_pixels += 1
        unpack.skip_rows += bordered >= 2
        unpack.skip_images += bordered >= 3
        inner = [n - 2 if i < bordered else n for i, n in enumerate(sizes)]
        return (*inner, unpack)

    def _unpack_for(self, dims: int) -> PixelStore:
        """The unpack state a ``dims``-dimensional image is read with: GL 4.6 section
        8.5 (and GLES 3.2 section 8.5) - UNPACK_SKIP_IMAGES and UNPACK_IMAGE_HEIGHT
        apply to three-dimensional images only; TexImage1D/2D and TexSubImage1D/2D
        ignore them."""
        store = self.state.unpack
        if dims >= 3 or not (store.skip_images or store.image_height):
            return store
        flat = copy.copy(store)
        flat.skip_images = flat.image_height = 0
        return flat

    def _unpack_source(self, pixels, fmt, type, width, height, depth, unpack=None):
        """The client (or PIXEL_UNPACK buffer) bytes of an image, or None
        (`unpack`: the pixel store to read it with, the context's by default)."""
        pbo = self.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER)
        n = image_size_B(unpack or self.state.unpack, fmt, type, width, height, depth)
        if pbo is not None:
            check(isinstance(pixels, int), E.GL_INVALID_OPERATION, "offset expected with a PBO")
            check(not pbo.mapped, E.GL_INVALID_OPERATION, "unpack buffer mapped")
            check(pixels + n <= pbo.size, E.GL_INVALID_OPERATION, "read beyond the unpack buffer")
            return read_buffer(self, pbo, pixels, n)
        if pixels is None:
            return None
        raw = as_bytes(pixels)
        check(len(raw) >= n, E.GL_INVALID_VALUE, "pixel data shorter than the image")
        return raw

    def _color_transfer(self, fmt, type, unpack, data, width, height, depth):
        """GL 4.6 compatibility section 8.5: a colour image given to glTexImage* or
        glTexSubImage* goes through the pixel transfer operations of section 8.4.4.1
        (glPixelTransfer's scale and bias, the colour maps with MAP_COLOR) as glDrawPixels'
        does, before it is stored. With any of them set, the client image becomes the
        transferred RGBA floats (returned as format, type, pixel store and bytes to upload);
        otherwise, and for integer, depth, stencil and index images, it is unchanged."""
        if data is None or not self.api.compat or self.api.es or fmt in INTEGER_PIXEL_FORMATS or \
                fmt in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL, E.GL_STENCIL_INDEX, E.GL_COLOR_INDEX):
            return fmt, type, unpack, data
        if not self._color_transfer_set():
            return fmt, type, unpack, data
        rgba = self._transfer(read_client_image(data, unpack, fmt, type, width, height, depth), fragments=False)
        return E.GL_RGBA, E.GL_FLOAT, PixelStore(alignment=1), rgba.astype("<f4").tobytes()

    def _pending_uploads(self, tex: Texture) -> list:
        if not hasattr(tex, "pending"):
            tex.pending = []
        return tex.pending

    def glTexImage1D(self, target, level, internalformat, width, border, format, type, pixels):
        check(not self.api.es, E.GL_INVALID_OPERATION)
        self._tex_image(1, target, level, internalformat, width, 1, 1, border, format, type, pixels)

    def glTexImage2D(self, target, level, internalformat, width, height, border, format, type,
                     pixels):
        if self.api.es1:        # ES 1.1 section 3.7.1: an internal format outside table 3.8
            from driver.gl.features.gles1 import PALETTED
            check(internalformat not in PALETTED, E.GL_INVALID_VALUE, "paletted formats are compressed only")
        self._tex_image(2, target, level, internalformat, width, height, 1, border, format,
                        type, pixels)

    def glTexImage3D(self, target, level, internalformat, width, height, depth, border, format,
                     type, pixels):
        check(self.api.gl_or_es((1, 2), (3, 0)), E.GL_INVALID_OPERATION)
        self._tex_image(3, target, level, internalformat, width, height, depth, border, format,
                        type, pixels)

    def _tex_sub_image(self, dims, target, level, x, y, z, width, height, depth, fmt, type, pixels):
        tex_target, face = self._image_target(target, dims)
        check(level >= 0, E.GL_INVALID_VALUE, "negative level")
        type = es_pixel_type(self, type)
        check_enum(fmt, PIXEL_FORMATS)
        check_enum(type, PIXEL_TYPES)
        tex = bound_texture(self, tex_target)
        img = tex.image(face, level)
        check(img is not None, E.GL_INVALID_OPERATION, "level not defined")
        check(width >= 0 and height >= 0 and depth >= 0, E.GL_INVALID_VALUE, "negative size")
        check(x >= 0 and y >= 0 and z >= 0 and x + width <= img.width and
              y + height <= img.height and z + depth <= img.depth,
              E.GL_INVALID_VALUE, "region outside the image")
        if img.compressed and self._encodes(img.internal_format):
            return self._tex_sub_image_encoded(dims, target, level, x, y, z, width, height, depth, fmt,
                                               type, pixels, img.internal_format)
        self._check_format_type_sub(img.internal_format, fmt, type)
        unpack = self._unpack_for(dims)
        data = self._unpack_source(pixels, fmt, type, width, height, depth, unpack)
        fmt, type, unpack, data = self._color_transfer(fmt, type, unpack, data, width, height, depth)
        if data is not None:
            self._pending_uploads(tex).append((face, level, (x, y, z, width, height, depth),
                                               fmt, type, copy.copy(unpack), data))
            if getattr(tex, "view_parent", None) is not None or tex.memory is not None:
                # into the shared storage now: the parent, or the memory object's other users, read it
                texture_resource(self, tex)
        self._auto_mipmap(tex, tex_target, level)

    def _auto_mipmap(self, tex: Texture, tex_target: int, level: int) -> None:
        """GL_GENERATE_MIPMAP (compatibility profile): after the base level of a
        texture with the flag changes, regenerate its mipmaps as glGenerateMipmap
        would; a texture that cannot be mipmapped (integer formats, a cube map
        not yet cube complete) is left as it is, without an error."""
        if not (self.api.compat and getattr(tex, "generate_mipmap", False) and level == tex.base_level):
            return
        try:
            inspect.unwrap(type(self).glGenerateMipmap)(self, tex_target)
        except GLError:
            pass

    def _check_format_type_sub(self, internalformat, fmt, type) -> None:
        info = lookup(internalformat)
        # GL 4.6 section 8.7: no uncompressed TexSubImage into a compressed image
        check(info is not None, E.GL_INVALID_OPERATION, "TexSubImage of a compressed image")
        if self.api.es and internalformat in INTERNAL_FORMATS:
            check(fmt == _es_format_for(info) and type in info.es_types, E.GL_INVALID_OPERATION)
        elif self.api.es and internalformat in UNSIZED:
            # an unsized image takes the pairs TexImage takes with its internal format (GLES
            # 3.2 section 8.7, tables 8.2/3.4): BGRA_EXT/FLOAT into a BGRA_EXT image is refused
            self._check_format_type(internalformat, fmt, type)
        elif not self.api.es:
            check(not integer_with_float_type(fmt, type), E.GL_INVALID_ENUM, "integer pixel format with a float type")
            check(pixel_type_matches(fmt, type), E.GL_INVALID_OPERATION)
            check(info.integer == (fmt in INTEGER_PIXEL_FORMATS), E.GL_INVALID_OPERATION)
            _check_depth_formats_agree(info, fmt)        # section 8.7: "as for TexImage"

    def glTexSubImage1D(self, target, level, xoffset, width, format, type, pixels):
        check(not self.api.es, E.GL_INVALID_OPERATION)
        self._tex_sub_image(1, target, level, xoffset, 0, 0, width, 1, 1, format, type, pixels)

    def glTexSubImage2D(self, target, level, xoffset, yoffset, width, height, format, type, pixels):
        self._tex_sub_image(2, target, level, xoffset, yoffset, 0, width, height, 1, format, type,
                            pixels)

    def glTexSubImage3D(self, target, level, xoffset, yoffset, zoffset, width, height, depth,
                        format, type, pixels):
        check(self.api.gl_or_es((1, 2), (3, 0)), E.GL_INVALID_OPERATION)
        self._tex_sub_image(3, target, level, xoffset, yoffset, zoffset, width, height, depth,
                            format, type, pixels)

    # -- immutable storage (GL 4.6 section 8.19) -----------------------------------------
    def _tex_storage(self, dims, target, levels, internalformat, width, height, depth) -> None:
        check(self.api.gl_or_es((4, 2), (3, 0)) or self.api.has_extension("GL_ARB_texture_storage"),
              E.GL_INVALID_OPERATION)
        ok = {1: {E.GL_TEXTURE_1D}, 2: {E.GL_TEXTURE_2D, E.GL_TEXTURE_CUBE_MAP,
                                        E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_1D_ARRAY},
              3: {E.GL_TEXTURE_3D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY}}[dims]
        check_enum(target, ok & texture_targets(self.api))
        compressed = internalformat in self._compressed_formats()
        check(internalformat in INTERNAL_FORMATS or compressed, E.GL_INVALID_ENUM, "unsized internal format")
        # GL 4.6 section 8.19: TexImage's format/target errors apply
        check(not compressed or target in compressed_targets(
                  internalformat, self.api.has_extension("GL_KHR_texture_compression_astc_sliced_3d")),
              E.GL_INVALID_OPERATION,
              "no compressed images of this target")
        check(compressed or not INTERNAL_FORMATS[internalformat].is_depth_or_stencil or target in DEPTH_TARGETS,
              E.GL_INVALID_OPERATION, "depth/stencil formats need a 1D/2D/cube/array/rectangle target")
        check(width >= 1 and height >= 1 and depth >= 1 and levels >= 1, E.GL_INVALID_VALUE)
        if target in (E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY):
            check(width == height, E.GL_INVALID_VALUE, "cube map faces must be square")
        if target == E.GL_TEXTURE_CUBE_MAP_ARRAY:
            check(depth % 6 == 0, E.GL_INVALID_VALUE, "a cube map array's depth counts layer-faces: a multiple of 6")
        biggest = max(width, height if dims >= 2 and target != E.GL_TEXTURE_1D_ARRAY else 1,
                      depth if target == E.GL_TEXTURE_3D else 1)
        check(levels <= int(math.log2(biggest)) + 1, E.GL_INVALID_OPERATION, "too many levels")
        if target == E.GL_TEXTURE_CUBE_MAP:
            check(width == height, E.GL_INVALID_VALUE)
        if target == E.GL_TEXTURE_RECTANGLE:
            check(levels == 1, E.GL_INVALID_VALUE)
        maxsz = self._max_size(target)
        check(width <= maxsz and height <= maxsz, E.GL_INVALID_VALUE)
        layers = {E.GL_TEXTURE_1D_ARRAY: height, E.GL_TEXTURE_2D_ARRAY: depth,
                  E.GL_TEXTURE_CUBE_MAP_ARRAY: depth}.get(target, 1)
        check(layers <= self.caps.max_texture_array_layers, E.GL_INVALID_VALUE,
              "more layers than MAX_ARRAY_TEXTURE_LAYERS")
        tex = bound_texture(self, target)
        check(tex.name != 0, E.GL_INVALID_OPERATION, "default texture object")
        check(not tex.immutable, E.GL_INVALID_OPERATION, "already immutable")
        tex.images = []
        faces = 6 if target == E.GL_TEXTURE_CUBE_MAP else 1
        for face in range(faces):
            for lv in range(levels):
                w = max(1, width >> lv)
                h = height if target == E.GL_TEXTURE_1D_ARRAY else max(1, height >> lv)
                d = max(1, depth >> lv) if target == E.GL_TEXTURE_3D else depth
                tex.set_image(face, lv, TexImage(w, h, d, internalformat, compressed=compressed))
        tex.immutable, tex.immutable_levels = True, levels
        texture_resource(self, tex)

    def glTexStorage1D(self, target, levels, internalformat, width):
        check(not self.api.es, E.GL_INVALID_OPERATION)
        self._tex_storage(1, target, levels, internalformat, width, 1, 1)

    def glTexStorage2D(self, target, levels, internalformat, width, height):
        self._tex_storage(2, target, levels, internalformat, width, height, 1)

    def glTexStorage3D(self, target, levels, internalformat, width, height, depth):
        self._tex_storage(3, target, levels, internalformat, width, height, depth)

    # -- resources ----------------------------------------------------------------
    def _continues_chain(self, tex: Texture, img, base, level: int, dims0) -> bool:
        """Whether image ``img`` of ``level`` has the size level 0's extents ``dims0``
        imply and the base level's format (every face of a cube map alike)."""
        want = tuple(max(1, d >> level) for d in dims0)
        faces = range(6) if tex.target == E.GL_TEXTURE_CUBE_MAP else (0,)
        for face in faces:
            im = tex.image(face, level) if face else img
            if im is None or im.internal_format != base.internal_format or im.samples != base.samples:
                return False
            if tex.target == E.GL_TEXTURE_3D:
                size = (im.width, im.height, im.depth)
            elif tex.target in (E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY):
                size = (im.width, 1, 1)
                if tex.target == E.GL_TEXTURE_1D_ARRAY and im.height != base.height:
                    return False
            else:
                size = (im.width, im.height, 1)
                if tex.target in _ARRAY_TARGETS and im.depth != base.depth:
                    return False
            if size != want:
                return False
        return True

    def _write_pending(self, tex: Texture, res) -> None:
        """Write the texture's pending TexSubImage data into ``res``; a texture
        view's at its first level and layer in the shared storage, in its format."""
        level0, layer0, view_format = view_offsets(tex)
        name = (view_format or res.format).name
        bpp = layout.get_format(name).block_size_B
        rows_are_layers = tex.target in (E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY)
        later = []          # images of levels the resource does not have yet (above MAX_LEVEL)
        for item in self._pending_uploads(tex):
            face, level, (x, y, z, w, h, d), fmt, type, store, data = item
            if not (w and h and d):
                continue        # an empty region is valid GL (apitrace probes sizes with them) and writes nothing
            if level0 + level > res.template.last_level:
                later.append(item)
                continue
            rgba = read_client_image(data, store, fmt, type, w, h, d)
            if rows_are_layers:
                # a 1D (array) image's rows are layers: the resource has one row and its
                # layers (array_size), so row y goes to layer y, one row apart in the data
                self.pipe.texture_subdata(res, level0 + level, PipeMap.WRITE, Box(x, 0, y + layer0, w, 1, h),
                                          to_resource_bytes(rgba, name), w * bpp, w * bpp)
                continue
            box = Box(x, y, z + face + layer0, w, h, d)
            self.pipe.texture_subdata(res, level0 + level, PipeMap.WRITE, box,
                                      to_resource_bytes(rgba, name), w * bpp, w * h * bpp)
        tex.pending = later

    def _copy_common_levels(self, old, new) -> None:
        """Carry the images that keep their size and format into a new
        resource (uploaded or rendered content alike)."""
        a, b = old.template, new.template
        if a.format != b.format or a.target != b.target or a.array_size != b.array_size or \
                a.nr_samples != b.nr_samples:
            return
        for level in range(min(a.last_level, b.last_level) + 1):
            dims_a = [max(1, x >> level) for x in (a.width_px, a.height_px, a.depth_px)]
            dims_b = [max(1, x >> level) for x in (b.width_px, b.height_px, b.depth_px)]
            if dims_a == dims_b:
                w, h, d = dims_a
                self.pipe.resource_copy_region(new, level, 0, 0, 0, old, level,
                                               Box(0, 0, 0, w, h, d * a.array_size))

    def _format_info(self, internalformat: int):
        info = lookup(internalformat)
        if info is None:
            info = self._compressed_formats().get(internalformat, (None,))[0]
        return info

    def glGenerateMipmap(self, target: int) -> None:
        check_enum(target, {E.GL_TEXTURE_1D, E.GL_TEXTURE_2D, E.GL_TEXTURE_3D,
                            E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP,
                            E.GL_TEXTURE_CUBE_MAP_ARRAY} & texture_targets(self.api))
        tex = bound_texture(self, target)
        base = tex.image(0, tex.base_level) if tex.images else None
        check(base is not None, E.GL_INVALID_OPERATION, "base level undefined")
        if target == E.GL_TEXTURE_CUBE_MAP:
            faces = [tex.image(f, tex.base_level) for f in range(6)]
            check(all(f is not None and (f.width, f.internal_format) ==
                      (base.width, base.internal_format) for f in faces),
                  E.GL_INVALID_OPERATION, "cube map not cube complete")
        info = lookup(base.internal_format)
        encoded = base.compressed and not self.api.es and self._encodes(base.internal_format)
        # desktop GL mipmaps depth-only images too (GL 4.6 section 8.14.4 names no
        # format; Mesa refuses integer, depth-stencil and stencil ones); GLES only
        # colour-renderable, filterable ones
        depth_only = info is not None and info.kind == "depth" and not self.api.es
        check(encoded or (info is not None and not base.compressed and not info.integer
                          and (not info.is_depth_or_stencil or depth_only)), E.GL_INVALID_OPERATION,
              "format cannot be mipmapped")
        # a 1D array's height counts its layers: they keep their number down the chain
        rows_are_layers = target == E.GL_TEXTURE_1D_ARRAY
        top = int(math.log2(max(base.width, 1 if rows_are_layers else base.height,
                                base.depth if target == E.GL_TEXTURE_3D else 1)))
        last = min(tex.base_level + top, tex.max_level)
        if tex.immutable:
            last = min(last, tex.immutable_levels - 1)      # a view: its own levels
        faces = 6 if target == E.GL_TEXTURE_CUBE_MAP else 1
        for face in range(faces):
            for lv in range(tex.base_level + 1, last + 1):
                s = lv - tex.base_level
                d = max(1, base.depth >> s) if target == E.GL_TEXTURE_3D else base.depth
                tex.set_image(face, lv, TexImage(max(1, base.width >> s),
                                                 base.height if rows_are_layers else max(1, base.height >> s),
                                                 d, base.internal_format, compressed=base.compressed))
        res = texture_resource(self, tex)
        layers = (6 if target == E.GL_TEXTURE_CUBE_MAP else base.height if rows_are_layers else
                  (1 if target == E.GL_TEXTURE_3D else base.depth))
        level0, layer0, view_format = view_offsets(tex)     # a texture view: its part of the storage
        first, final, top_layer = level0 + tex.base_level, level0 + last, layer0 + layers - 1
        if encoded:         # decoded, filtered and encoded again on the CPU (GL 4.6 section 8.14.4)
            if final > first:
                self._generate_compressed_mipmaps(tex, first, final, layer0, layers)
            return
        if depth_only:
            if final > first:
                self._generate_depth_mipmaps(res, first, final, layer0, layers)
            return
        if not self.pipe.generate_mipmap(res, view_format or res.format, first, final, layer0, top_layer):
            from driver.gallium import gen_mipmap_by_blit
            gen_mipmap_by_blit(self.pipe, res, first, final, layer0, top_layer, view_format)

    def _generate_depth_mipmaps(self, res, first: int, last: int, layer0: int, layers: int) -> None:
        """Levels ``first + 1 .. last`` of a depth texture by the box filter of
        driver.gl.box_filter (a depth blit can only take the nearest value)."""
        from driver.gl.box_filter import box_filtered_levels
        from driver.gl.pixels import to_resource_bytes
        fmt = res.format
        bpp = layout.get_format(fmt.name).block_size_B
        for level, w, h, depth in box_filtered_levels(self.pipe, res, first, last, layer0, layers):
            self.pipe.texture_subdata(res, level, PipeMap.WRITE, Box(0, 0, layer0, w, h, layers),
                                      to_resource_bytes(depth, fmt.name), w * bpp, w * h * bpp)

    def glGetTexLevelParameteriv(self, target: int, level: int, pname: int) -> list:
        check(self.api.gl_or_es((1, 0), (3, 1)), E.GL_INVALID_OPERATION)
        if target in CUBE_FACES:
            tex, face = bound_texture(self, E.GL_TEXTURE_CUBE_MAP), target - CUBE_FACES[0]
        else:
            check_enum(target, texture_targets(self.api))
            tex, face = bound_texture(self, target), 0
        check(0 <= level <= int(math.log2(self._max_size(target))), E.GL_INVALID_VALUE)
        img = tex.image(face, level) or TexImage()
        defined = tex.image(face, level) is not None
        values = {E.GL_TEXTURE_WIDTH: img.width, E.GL_TEXTURE_HEIGHT: img.height,
                  E.GL_TEXTURE_DEPTH: img.depth,
                  E.GL_TEXTURE_INTERNAL_FORMAT: reported_internal_format(img.internal_format) if defined else E.GL_RGBA,
                  E.GL_TEXTURE_SAMPLES: img.samples,
                  E.GL_TEXTURE_FIXED_SAMPLE_LOCATIONS: int(img.fixed_sample_locations),
                  E.GL_TEXTURE_COMPRESSED: int(img.compressed)}
        # GL 4.6 table 23.17: component sizes and types of the image's format (of a
        # buffer texture: of its buffer's format, section 8.9)
        info = self._format_info(img.internal_format) if defined else None
        if tex.target == E.GL_TEXTURE_BUFFER and getattr(tex, "buffer", None) is not None:
            info = lookup(tex.buffer_internal_format)
        bits = component_bits(info) if info is not None and not img.compressed else (0,) * 6
        types = component_types(info) if info is not None and not img.compressed else (E.GL_NONE,) * 5
        compressed = COMPRESSED.get(img.internal_format) if defined and img.compressed else None
        if compressed is not None:      # the GL's internal resolution of a compressed image (as Mesa)
            bits = compressed_component_bits(compressed)
            kind = {"unorm": E.GL_UNSIGNED_NORMALIZED, "snorm": E.GL_SIGNED_NORMALIZED,
                    "float": E.GL_FLOAT}[compressed.info.kind]
            types = tuple(kind if b else E.GL_NONE for b in bits[:5])
        for i, (size_e, type_e) in enumerate(((E.GL_TEXTURE_RED_SIZE, E.GL_TEXTURE_RED_TYPE),
                                              (E.GL_TEXTURE_GREEN_SIZE, E.GL_TEXTURE_GREEN_TYPE),
                                              (E.GL_TEXTURE_BLUE_SIZE, E.GL_TEXTURE_BLUE_TYPE),
                                              (E.GL_TEXTURE_ALPHA_SIZE, E.GL_TEXTURE_ALPHA_TYPE),
                                              (E.GL_TEXTURE_DEPTH_SIZE, E.GL_TEXTURE_DEPTH_TYPE))):
            values[size_e] = bits[i]
            values[type_e] = types[i]
        values[E.GL_TEXTURE_STENCIL_SIZE] = bits[5]
        values[E.GL_TEXTURE_SHARED_SIZE] = 5 if info is not None and info.pipe.name == "R9G9B9E5_FLOAT" else 0
        lum_intensity = (luminance_intensity_bits(info) if info is not None and not img.compressed else
                         compressed_luminance_bits(compressed) if compressed is not None else (0, 0))
        if any(lum_intensity):
            # luminance and intensity are components of their own (GL 4.6 compatibility table
            # 23.17, as Mesa): R, G and B read 0, and A too for intensity
            for size_e, type_e in ((E.GL_TEXTURE_RED_SIZE, E.GL_TEXTURE_RED_TYPE),
                                   (E.GL_TEXTURE_GREEN_SIZE, E.GL_TEXTURE_GREEN_TYPE),
                                   (E.GL_TEXTURE_BLUE_SIZE, E.GL_TEXTURE_BLUE_TYPE)) + \
                    (((E.GL_TEXTURE_ALPHA_SIZE, E.GL_TEXTURE_ALPHA_TYPE),) if lum_intensity[1] else ()):
                values[size_e], values[type_e] = 0, E.GL_NONE
        if self.api.compat:     # the compatibility profile's luminance and intensity components
            for size_e, type_e, n in ((E.GL_TEXTURE_LUMINANCE_SIZE, E.GL_TEXTURE_LUMINANCE_TYPE, lum_intensity[0]),
                                      (E.GL_TEXTURE_INTENSITY_SIZE, E.GL_TEXTURE_INTENSITY_TYPE, lum_intensity[1])):
                values[size_e] = n
                values[type_e] = types[0] if n else E.GL_NONE    # L and I count as red (component_types)
        if pname == E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE:     # GL 4.6 section 8.11.3
            check(defined and img.compressed, E.GL_INVALID_OPERATION, "not a compressed image")
            values[pname] = self._compressed_size(img.internal_format, img.width, img.height, img.depth)
        if tex.target == E.GL_TEXTURE_BUFFER:
            values |= texture_buffer_state(self, tex)
        check_enum(pname, values)
        return [int(values[pname])]

    # -- sampler objects (GL 4.6 section 8.2) ------------------------------------------
    def glGenSamplers(self, count: int) -> list[int]:
        check(self.api.gl_or_es((3, 3), (3, 0)), E.GL_INVALID_OPERATION)
        check(count >= 0, E.GL_INVALID_VALUE)
        names = self.samplers.gen(count)
        for n in names:
            self.samplers.get_or_create(n)
        return names

    def glIsSampler(self, sampler: int) -> bool:
        return self.samplers.get(sampler) is not None

    def glBindSampler(self, unit: int, sampler: int) -> None:
        check(0 <= unit < self.caps.max_combined_texture_units, E.GL_INVALID_VALUE)
        obj = None
        if sampler:
            obj = self.samplers.get(sampler)
            check(obj is not None, E.GL_INVALID_OPERATION, "not a sampler name")
        self.sampler_units[unit] = obj

    def glDeleteSamplers(self, count: int, samplers) -> None:
        check(count >= 0, E.GL_INVALID_VALUE)
        for name in list(samplers)[:count]:
            obj = self.samplers.get(name)
            if obj is None:
                continue
            self.sampler_units = [None if s is obj else s for s in self.sampler_units]
            self.samplers.delete(name)

    def _sampler(self, sampler: int) -> Sampler:
        obj = self.samplers.get(sampler)
        check(obj is not None, E.GL_INVALID_OPERATION, "not a sampler name")
        return obj

    def _sampler_parameter(self, sampler, pname, value):
        obj = self._sampler(sampler)
        if not self._set_sampler_param(obj.params, pname, value, True):
            raise GLError(E.GL_INVALID_ENUM, f"glSamplerParameter: bad pname {pname:#x}")

    def glSamplerParameteri(self, sampler, pname, param):
        check(pname != E.GL_TEXTURE_BORDER_COLOR, E.GL_INVALID_ENUM)
        self._sampler_parameter(sampler, pname, int(param))

    def glSamplerParameterf(self, sampler, pname, param):
        check(pname != E.GL_TEXTURE_BORDER_COLOR, E.GL_INVALID_ENUM)
        self._sampler_parameter(sampler, pname, float(param))

    def glSamplerParameteriv(self, sampler, pname, params):
        self._sampler_parameter(sampler, pname, _border_from_ints(pname, list(params)))

    def glSamplerParameterfv(self, sampler, pname, params):
        self._sampler_parameter(sampler, pname, [float(x) for x in params])

    def glGetSamplerParameteriv(self, sampler, pname) -> list:
        p = self._sampler(sampler).params
        values = {E.GL_TEXTURE_MIN_FILTER: p.min_filter, E.GL_TEXTURE_MAG_FILTER: p.mag_filter,
                  E.GL_TEXTURE_WRAP_S: p.wrap_s, E.GL_TEXTURE_WRAP_T: p.wrap_t,
                  E.GL_TEXTURE_WRAP_R: p.wrap_r, E.GL_TEXTURE_MIN_LOD: p.min_lod,
                  E.GL_TEXTURE_MAX_LOD: p.max_lod, E.GL_TEXTURE_COMPARE_MODE: p.compare_mode,
                  E.GL_TEXTURE_COMPARE_FUNC: p.compare_func}
        if self.api.has_extension("GL_EXT_texture_sRGB_decode"):
            values[GL_TEXTURE_SRGB_DECODE_EXT] = p.srgb_decode
        if self._seamless_per_texture(True):
            values[E.GL_TEXTURE_CUBE_MAP_SEAMLESS] = int(p.cube_map_seamless)
        if self._filter_minmax():
            values[E.GL_TEXTURE_REDUCTION_MODE_ARB] = p.reduction_mode
        if self.api.has_extension("GL_ARB_texture_filter_anisotropic") or \
                self.api.has_extension("GL_EXT_texture_filter_anisotropic"):
            values[E.GL_TEXTURE_MAX_ANISOTROPY] = p.max_anisotropy
        if pname == E.GL_TEXTURE_BORDER_COLOR and (not self.api.es or es_has(self.api, "texture_border_clamp")):
            return _border_to_ints(p.border_color)
        check_enum(pname, values)
        return [int(values[pname])]

    def glGetSamplerParameterfv(self, sampler, pname) -> list:
        if pname == E.GL_TEXTURE_BORDER_COLOR:
            return list(self._sampler(sampler).params.border_color)
        if pname == E.GL_TEXTURE_MAX_ANISOTROPY and (self.api.has_extension("GL_ARB_texture_filter_anisotropic")
                                                    or self.api.has_extension("GL_EXT_texture_filter_anisotropic")):
            return [float(self._sampler(sampler).params.max_anisotropy)]
        return [float(v) for v in (self.glGetSamplerParameteriv(sampler, pname) or [])]


def _check_depth_formats_agree(info, fmt: int) -> None:
    """GL 4.6 sections 8.5 and 8.7 (TexImage and TexSubImage): a depth or depth/stencil
    image takes DEPTH_COMPONENT or DEPTH_STENCIL data and no other image does
    (INVALID_OPERATION); STENCIL_INDEX data goes to stencil images only (a depth,
    depth/stencil or colour image refuses it, as Mesa's texture_formats_agree)."""
    is_ds = info.base in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL)
    check(is_ds == (fmt in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL)), E.GL_INVALID_OPERATION,
          "depth internal format needs a depth pixel format (and vice versa)")
    check(fmt != E.GL_STENCIL_INDEX or info.base == E.GL_STENCIL_INDEX, E.GL_INVALID_OPERATION,
          "STENCIL_INDEX data needs a stencil internal format")


def _es_format_for(info) -> int:
    """The pixel format GLES 3 table 8.2 pairs with a sized internal format."""
    if info.kind == "depth":
        return E.GL_DEPTH_COMPONENT
    if info.kind == "depthstencil":
        return E.GL_DEPTH_STENCIL
    if info.kind == "stencil":
        return E.GL_STENCIL_INDEX
    if info.integer:
        return {E.GL_RED: E.GL_RED_INTEGER, E.GL_RG: E.GL_RG_INTEGER, E.GL_RGB: E.GL_RGB_INTEGER,
                E.GL_RGBA: E.GL_RGBA_INTEGER}[info.base]
    return info.base
