"""Internal format queries (GL 4.6 section 22.3, GL_ARB_internalformat_query and
GL_ARB_internalformat_query2): ``glGetInternalformativ`` / ``glGetInternalformati64v``.

A query names a *resource*: an object of ``target`` (a texture target or
RENDERBUFFER) made with ``internalformat``. Whether such a resource can exist is
decided by the same facts the commands that make them check (``driver.gl.formats``:
the internal-format tables, the compressed families of the context, the buffer
texture and image unit tables; the context's texture targets and renderbuffer
formats), so the answer agrees with what ``glTexImage*``, ``glTexStorage*``,
``glTexBuffer`` and ``glRenderbufferStorage`` accept. Every other answer of an
unsupported resource is the "unsupported" one the extension names (0, FALSE or
NONE), never an error; only a bad target or pname (INVALID_ENUM) and a negative
``bufSize`` (INVALID_VALUE) are errors.

An answer that depends on a feature (tessellation textures, gathers, images,
views, ...) is "unsupported" when the context does not have the feature's
extension among those it exposes or supports as core (``api.has_extension``):
a stage shimgl lowers but does not advertise yet (tessellation) answers NONE.

GL_ARB_internalformat_query alone (GL 4.2, GLES 3.x) knows only SAMPLES and
NUM_SAMPLE_COUNTS of the multisample targets, and refuses a format that is not
renderable with INVALID_ENUM.
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features import entry_point
from driver.gl.features.memory_object import tiling_query
from driver.gl.textures import texture_targets
from driver.gl.formats import (ASTC_BLOCKS, COMPRESSED, COMPRESSED_TARGETS, DEPTH_TARGETS, ES_ONLY,
                               IMAGE_FORMATS, INTERNAL_FORMATS, LEGACY, TEXTURE_BUFFER_FORMATS, VIEW_CLASSES,
                               CompressedFormat, InternalFormat, component_bits, component_types,
                               compressed_component_bits, lookup)

__all__ = ["PNAMES", "TARGETS"]

#: The targets of GL 4.6 table 22.4 (query2).
TARGETS = (E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY,
           E.GL_TEXTURE_3D, E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_RECTANGLE,
           E.GL_TEXTURE_BUFFER, E.GL_RENDERBUFFER, E.GL_TEXTURE_2D_MULTISAMPLE,
           E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
_MULTISAMPLE = (E.GL_RENDERBUFFER, E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
_MIPMAPPED = (E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY,
              E.GL_TEXTURE_3D, E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY)
_LAYERED = (E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_3D, E.GL_TEXTURE_CUBE_MAP,
            E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
_SHADOW = (E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY,
           E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_RECTANGLE)
_GATHER = (E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY,
           E.GL_TEXTURE_RECTANGLE)
_SRGB_DECODE_ARB = 0x8299
_FULL, _NONE = E.GL_FULL_SUPPORT, E.GL_NONE
_COLOR_BASES = (E.GL_RED, E.GL_RG, E.GL_RGB, E.GL_RGBA, E.GL_ALPHA, E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA,
                E.GL_INTENSITY)

#: view classes the generated enums module lacks (ARB_internalformat_query2's
#: interactions with ES3 compatibility and ASTC: 0x9383-0x9395 in this order)
_EXTRA_VIEW_CLASSES = {name: 0x9383 + i for i, name in enumerate(
    ["EAC_R11", "EAC_RG11", "ETC2_RGB", "ETC2_RGBA", "ETC2_EAC_RGBA"] +
    [f"ASTC_{w}x{h}_RGBA" for w, h in ASTC_BLOCKS])}


def _view_class_enum(name: str) -> int:
    short = name.removeprefix("VIEW_CLASS_")
    return _EXTRA_VIEW_CLASSES.get(short) or getattr(E, f"GL_{name}")


class _Resource:
    """What the queries need to know of (target, internalformat) in a context."""

    def __init__(self, ctx, target: int, internalformat: int):
        self.ctx, self.target, self.ifmt = ctx, target, internalformat
        compressed = ctx._compressed_formats()
        self.compressed: CompressedFormat | None = None
        if internalformat in compressed:
            self.compressed = COMPRESSED[internalformat]
        self.info: InternalFormat | None = (self.compressed.info if self.compressed is not None
                                            else self._uncompressed_info())
        self.supported = self.info is not None and self._target_takes_format()

    def _uncompressed_info(self):
        api, ifmt = self.ctx.api, self.ifmt
        info = lookup(ifmt)
        if info is None or ifmt in ES_ONLY or (ifmt in LEGACY and not api.compat):
            return None
        return info

    def _target_takes_format(self) -> bool:
        ctx, t, info = self.ctx, self.target, self.info
        if t == E.GL_RENDERBUFFER:
            return self.ifmt in ctx._renderbuffer_formats()
        if t not in texture_targets(ctx.api):
            return False
        if t == E.GL_TEXTURE_BUFFER:
            return self.ifmt in TEXTURE_BUFFER_FORMATS
        if self.compressed is not None:
            return t in COMPRESSED_TARGETS
        if info.is_depth_or_stencil and t not in DEPTH_TARGETS:
            return False
        if t in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
            return ctx._multisample_format(self.ifmt) is not None       # what glTexImage*Multisample takes
        return True

    # -- properties of the format -------------------------------------------------------------
    @property
    def color(self) -> bool:
        return self.info.base in _COLOR_BASES

    @property
    def depth(self) -> bool:
        return self.info.base in (E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL)

    @property
    def stencil(self) -> bool:
        return self.info.base in (E.GL_STENCIL_INDEX, E.GL_DEPTH_STENCIL)

    @property
    def color_renderable(self) -> bool:
        return (self.compressed is None and self.color and self.info.color_renderable
                and self.ifmt not in LEGACY)

    @property
    def renderable(self) -> bool:
        """Attachable to a framebuffer (colour-, depth- or stencil-renderable)."""
        return self.target != E.GL_TEXTURE_BUFFER and (self.color_renderable or (
            self.compressed is None and (self.depth or self.stencil)))

    @property
    def srgb(self) -> bool:
        return "SRGB" in self.info.pipe.name

    @property
    def sampled(self) -> bool:
        """A texture a shader can sample (any texture target; not a renderbuffer)."""
        return self.target != E.GL_RENDERBUFFER


def _transfer_format_type(res: _Resource) -> tuple[int, int]:
    """The format and type that move texels of the resource to and from client
    memory without conversion (READ_PIXELS_*, TEXTURE_IMAGE_*, GET_TEXTURE_IMAGE_*)."""
    info = res.info
    if res.compressed is not None:
        return (E.GL_RGB, E.GL_FLOAT) if info.kind == "float" else (info.base, E.GL_UNSIGNED_BYTE)
    if info.base == E.GL_DEPTH_STENCIL:
        return E.GL_DEPTH_STENCIL, (E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV if "FLOAT" in info.pipe.name
                                    else E.GL_UNSIGNED_INT_24_8)
    if info.base == E.GL_DEPTH_COMPONENT:
        return E.GL_DEPTH_COMPONENT, (E.GL_FLOAT if "FLOAT" in info.pipe.name else
                                      E.GL_UNSIGNED_SHORT if "Z16" in info.pipe.name else E.GL_UNSIGNED_INT)
    if info.base == E.GL_STENCIL_INDEX:
        return E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE
    fmt = info.base if info.base in (E.GL_RED, E.GL_RG, E.GL_RGB, E.GL_RGBA, E.GL_ALPHA, E.GL_LUMINANCE,
                                     E.GL_LUMINANCE_ALPHA) else E.GL_RGBA
    if info.integer:
        fmt = {E.GL_RED: E.GL_RED_INTEGER, E.GL_RG: E.GL_RG_INTEGER, E.GL_RGB: E.GL_RGB_INTEGER}.get(
            fmt, E.GL_RGBA_INTEGER)
    if info.es_types:
        return fmt, info.es_types[0]
    bits = max(component_bits(info)[:4])
    signed = info.kind in ("snorm", "int")
    if info.kind == "float":
        return fmt, E.GL_FLOAT if bits > 16 else E.GL_HALF_FLOAT
    if bits > 16:
        return fmt, E.GL_INT if signed else E.GL_UNSIGNED_INT
    if bits > 8:
        return fmt, E.GL_SHORT if signed else E.GL_UNSIGNED_SHORT
    return fmt, E.GL_BYTE if signed else E.GL_UNSIGNED_BYTE


def _max_dimensions(ctx, target: int, samples: int) -> tuple[int, int, int, int, int]:
    """(MAX_WIDTH, MAX_HEIGHT, MAX_DEPTH, MAX_LAYERS, MAX_COMBINED_DIMENSIONS) of a target;
    ``samples``: the resource's highest sample count (a factor of a multisample target's
    combined dimensions)."""
    lim = ctx.limits
    size, layers = lim["GL_MAX_TEXTURE_SIZE"], lim["GL_MAX_ARRAY_TEXTURE_LAYERS"]
    if target == E.GL_TEXTURE_1D:
        return size, 0, 0, 0, size
    if target == E.GL_TEXTURE_1D_ARRAY:
        return size, layers, 0, layers, size * layers
    if target == E.GL_TEXTURE_BUFFER:
        n = lim["GL_MAX_TEXTURE_BUFFER_SIZE"]
        return n, 0, 0, 0, n
    if target == E.GL_TEXTURE_3D:
        n = lim["GL_MAX_3D_TEXTURE_SIZE"]
        return n, n, n, 0, n ** 3
    if target == E.GL_TEXTURE_CUBE_MAP:
        n = lim["GL_MAX_CUBE_MAP_TEXTURE_SIZE"]
        return n, n, 0, 0, n * n * 6
    if target == E.GL_TEXTURE_CUBE_MAP_ARRAY:
        n = lim["GL_MAX_CUBE_MAP_TEXTURE_SIZE"]
        # MAX_ARRAY_TEXTURE_LAYERS counts cubes here: combined = width x height x layers x 6
        return n, n, layers, layers, n * n * layers * 6
    if target == E.GL_TEXTURE_RECTANGLE:
        n = lim["GL_MAX_RECTANGLE_TEXTURE_SIZE"]
        return n, n, 0, 0, n * n
    if target == E.GL_RENDERBUFFER:
        n = lim["GL_MAX_RENDERBUFFER_SIZE"]
        return n, n, 0, 0, n * n
    if target == E.GL_TEXTURE_2D_MULTISAMPLE:
        return size, size, 0, 0, size * size * samples
    if target == E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
        return size, size, layers, layers, size * size * layers * samples
    if target == E.GL_TEXTURE_2D_ARRAY:
        return size, size, layers, layers, size * size * layers
    return size, size, 0, 0, size * size          # TEXTURE_2D


def _sample_counts(ctx, res: _Resource) -> list[int]:
    """SAMPLES: the counts a multisample resource of the format can have, highest first
    (a resource the multisample target takes: what glRenderbufferStorageMultisample and
    glTex*Multisample accept, also for a format attachable but not rendered, RGB9_E5)."""
    if not (res.supported and res.target in _MULTISAMPLE):
        return []
    counts = sorted((s for s in ctx.caps.sample_counts if s > 1), reverse=True)
    if res.info is not None and res.info.integer:
        counts = [s for s in counts if s <= ctx.limits["GL_MAX_INTEGER_SAMPLES"]]
        if ctx.api.es and ctx.api.version < (3, 1):
            counts = []
    return counts


def _feature(ctx, name: str) -> bool:
    return ctx.api.has_extension(name)


def _support(flag: bool) -> int:
    return _FULL if flag else _NONE


def _answer(ctx, res: _Resource, pname: int) -> list[int]:
    """The values of a query2 pname (GL 4.6 section 22.3.1)."""
    t, ok = res.target, res.supported
    if pname == E.GL_INTERNALFORMAT_SUPPORTED:
        return [int(ok)]
    if pname in (E.GL_SAMPLES, E.GL_NUM_SAMPLE_COUNTS):
        counts = _sample_counts(ctx, res)
        return counts if pname == E.GL_SAMPLES else [len(counts)]
    if pname == E.GL_INTERNALFORMAT_PREFERRED:
        return [res.ifmt if ok else E.GL_NONE]
    sizes = (E.GL_INTERNALFORMAT_RED_SIZE, E.GL_INTERNALFORMAT_GREEN_SIZE, E.GL_INTERNALFORMAT_BLUE_SIZE,
             E.GL_INTERNALFORMAT_ALPHA_SIZE, E.GL_INTERNALFORMAT_DEPTH_SIZE, E.GL_INTERNALFORMAT_STENCIL_SIZE)
    if pname in sizes:
        if not ok:
            return [0]
        # a compressed format: the resolution glGetTexLevelParameter reports for its images
        bits = compressed_component_bits(res.compressed) if res.compressed is not None else component_bits(res.info)
        return [bits[sizes.index(pname)]]
    if pname == E.GL_INTERNALFORMAT_SHARED_SIZE:
        return [5 if ok and res.info.pipe.name == "R9G9B9E5_FLOAT" else 0]
    types = (E.GL_INTERNALFORMAT_RED_TYPE, E.GL_INTERNALFORMAT_GREEN_TYPE, E.GL_INTERNALFORMAT_BLUE_TYPE,
             E.GL_INTERNALFORMAT_ALPHA_TYPE, E.GL_INTERNALFORMAT_DEPTH_TYPE)
    if pname in types:
        if not ok:
            return [E.GL_NONE]
        if res.compressed is not None:          # as glGetTexLevelParameter's TEXTURE_*_TYPE
            kind = {"unorm": E.GL_UNSIGNED_NORMALIZED, "snorm": E.GL_SIGNED_NORMALIZED,
                    "float": E.GL_FLOAT}[res.compressed.info.kind]
            return [kind if compressed_component_bits(res.compressed)[types.index(pname)] else E.GL_NONE]
        return [component_types(res.info)[types.index(pname)]]
    if pname == E.GL_INTERNALFORMAT_STENCIL_TYPE:
        return [E.GL_UNSIGNED_INT if ok and res.compressed is None and component_bits(res.info)[5] else E.GL_NONE]
    dims = (E.GL_MAX_WIDTH, E.GL_MAX_HEIGHT, E.GL_MAX_DEPTH, E.GL_MAX_LAYERS, E.GL_MAX_COMBINED_DIMENSIONS)
    if pname in dims:
        if not ok or (pname == E.GL_MAX_LAYERS and not _feature(ctx, "GL_EXT_texture_array")):
            return [0]
        return [_max_dimensions(ctx, t, max(_sample_counts(ctx, res), default=1))[dims.index(pname)]]
    if pname == E.GL_COLOR_COMPONENTS:
        return [int(ok and res.color)]
    if pname == E.GL_DEPTH_COMPONENTS:
        return [int(ok and res.depth)]
    if pname == E.GL_STENCIL_COMPONENTS:
        return [int(ok and res.stencil)]
    if pname == E.GL_COLOR_RENDERABLE:
        return [int(ok and res.renderable and res.color_renderable)]
    if pname == E.GL_DEPTH_RENDERABLE:
        return [int(ok and res.renderable and res.depth)]
    if pname == E.GL_STENCIL_RENDERABLE:
        return [int(ok and res.renderable and res.stencil)]
    if pname == E.GL_FRAMEBUFFER_RENDERABLE:
        return [_support(ok and res.renderable)]
    if pname == E.GL_FRAMEBUFFER_RENDERABLE_LAYERED:
        return [_support(ok and res.renderable and t in _LAYERED and _feature(ctx, "GL_EXT_texture_array"))]
    if pname == E.GL_FRAMEBUFFER_BLEND:
        return [_support(ok and res.renderable and res.color_renderable and not res.info.integer)]
    if pname == E.GL_READ_PIXELS:
        return [_support(ok and res.renderable)]
    if pname in (E.GL_READ_PIXELS_FORMAT, E.GL_READ_PIXELS_TYPE):
        if not (ok and res.renderable):
            return [E.GL_NONE]
        return [_transfer_format_type(res)[pname == E.GL_READ_PIXELS_TYPE]]
    if pname in (E.GL_TEXTURE_IMAGE_FORMAT, E.GL_TEXTURE_IMAGE_TYPE):
        if not ok or not res.sampled or t in (E.GL_TEXTURE_BUFFER, E.GL_TEXTURE_2D_MULTISAMPLE,
                                              E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
            return [E.GL_NONE]
        return [_transfer_format_type(res)[pname == E.GL_TEXTURE_IMAGE_TYPE]]
    if pname in (E.GL_GET_TEXTURE_IMAGE_FORMAT, E.GL_GET_TEXTURE_IMAGE_TYPE):
        if not ok or not res.sampled or t in (E.GL_TEXTURE_BUFFER, E.GL_TEXTURE_2D_MULTISAMPLE,
                                              E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
            return [E.GL_NONE]
        return [_transfer_format_type(res)[pname == E.GL_GET_TEXTURE_IMAGE_TYPE]]
    mipmappable = ok and t in _MIPMAPPED
    if pname == E.GL_MIPMAP:
        return [int(mipmappable)]
    # glGenerateMipmap: uncompressed colour formats that are not integer (textures.py)
    generates = (mipmappable and res.compressed is None and res.color and not res.info.integer)
    if pname == E.GL_MANUAL_GENERATE_MIPMAP:
        return [_support(generates)]
    if pname == E.GL_AUTO_GENERATE_MIPMAP:
        return [_support(generates and ctx.api.compat)]
    if pname == E.GL_COLOR_ENCODING:
        if not (ok and res.color):
            return [E.GL_NONE]
        return [E.GL_SRGB if res.srgb else E.GL_LINEAR]
    if pname == E.GL_SRGB_READ:
        return [_support(ok and res.sampled and res.srgb and _feature(ctx, "GL_EXT_texture_sRGB"))]
    if pname == E.GL_SRGB_WRITE:
        return [_support(ok and res.color_renderable and res.srgb and _feature(ctx, "GL_ARB_framebuffer_sRGB"))]
    if pname == _SRGB_DECODE_ARB:
        return [_support(ok and res.sampled and res.srgb)]
    plain_texture = ok and res.sampled
    if pname == E.GL_FILTER:
        return [_support(plain_texture and t not in (E.GL_TEXTURE_BUFFER, E.GL_TEXTURE_2D_MULTISAMPLE,
                                                     E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
                         and not res.info.integer and res.info.filterable)]
    stage_features = {E.GL_VERTEX_TEXTURE: None, E.GL_FRAGMENT_TEXTURE: None,
                      E.GL_GEOMETRY_TEXTURE: "GL_ARB_geometry_shader4",
                      E.GL_TESS_CONTROL_TEXTURE: "GL_ARB_tessellation_shader",
                      E.GL_TESS_EVALUATION_TEXTURE: "GL_ARB_tessellation_shader",
                      E.GL_COMPUTE_TEXTURE: "GL_ARB_compute_shader"}
    if pname in stage_features:
        need = stage_features[pname]
        has = need is None or (ctx.api.version >= (3, 2) if need == "GL_ARB_geometry_shader4"
                               else _feature(ctx, need))
        return [_support(plain_texture and has)]
    if pname == E.GL_TEXTURE_REDUCTION_MODE_ARB:
        # ARB_texture_filter_minmax: MIN/MAX filter every sampled format (GL_TRUE/GL_FALSE, as Mesa)
        return [int(plain_texture and t not in (E.GL_TEXTURE_BUFFER, E.GL_TEXTURE_2D_MULTISAMPLE,
                                                E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY))]
    if pname == E.GL_TEXTURE_SHADOW:
        return [_support(plain_texture and res.depth and t in _SHADOW)]
    if pname == E.GL_TEXTURE_GATHER:
        return [_support(plain_texture and t in _GATHER and _feature(ctx, "GL_ARB_texture_gather"))]
    if pname == E.GL_TEXTURE_GATHER_SHADOW:
        return [_support(plain_texture and res.depth and t in _GATHER
                         and _feature(ctx, "GL_ARB_texture_gather"))]
    images = plain_texture and _feature(ctx, "GL_ARB_shader_image_load_store")
    image = IMAGE_FORMATS.get(res.ifmt) if images else None
    if pname in (E.GL_SHADER_IMAGE_LOAD, E.GL_SHADER_IMAGE_STORE):
        return [_support(image is not None)]
    if pname == E.GL_SHADER_IMAGE_ATOMIC:
        return [_support(image is not None and res.ifmt in (E.GL_R32I, E.GL_R32UI))]
    if pname == E.GL_IMAGE_TEXEL_SIZE:          # in bits (Mesa and piglit read table 8.27 so)
        return [image.size_B * 8 if image else 0]
    if pname == E.GL_IMAGE_COMPATIBILITY_CLASS:
        return [image.image_class if image else E.GL_NONE]
    if pname == E.GL_IMAGE_PIXEL_FORMAT:
        return [image.pixel_format if image else E.GL_NONE]
    if pname == E.GL_IMAGE_PIXEL_TYPE:
        return [image.pixel_type if image else E.GL_NONE]
    if pname == E.GL_IMAGE_FORMAT_COMPATIBILITY_TYPE:
        # what glGetTexParameter answers for a texture of the resource: by size
        return [E.GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE if images and t != E.GL_TEXTURE_BUFFER else E.GL_NONE]
    if pname in (E.GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST, E.GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_TEST,
                 E.GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE, E.GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_WRITE):
        return [E.GL_NONE]        # sampling an attachment while rendering to it is a feedback loop here
    if pname == E.GL_TEXTURE_COMPRESSED:
        return [int(ok and res.compressed is not None)]
    blocks = (E.GL_TEXTURE_COMPRESSED_BLOCK_WIDTH, E.GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT,
              E.GL_TEXTURE_COMPRESSED_BLOCK_SIZE)
    if pname in blocks:
        return [res.compressed.block[blocks.index(pname)] if ok and res.compressed is not None else 0]
    if pname == E.GL_CLEAR_BUFFER:
        return [_support(ok and t == E.GL_TEXTURE_BUFFER and res.ifmt in TEXTURE_BUFFER_FORMATS
                         and _feature(ctx, "GL_ARB_clear_buffer_object"))]
    viewable = (plain_texture and t != E.GL_TEXTURE_BUFFER and res.ifmt in VIEW_CLASSES
                and _feature(ctx, "GL_ARB_texture_view"))
    if pname == E.GL_TEXTURE_VIEW:
        return [_support(viewable)]
    if pname == E.GL_VIEW_COMPATIBILITY_CLASS:
        return [_view_class_enum(VIEW_CLASSES[res.ifmt]) if viewable else E.GL_NONE]
    raise AssertionError(pname)        # PNAMES and this function name the same set


#: Every pname of query2 (GL 4.6 table 22.5), SRGB_DECODE_ARB only with sRGB decode,
#: TEXTURE_REDUCTION_MODE_ARB only with ARB_texture_filter_minmax.
PNAMES = frozenset({
    E.GL_SAMPLES, E.GL_NUM_SAMPLE_COUNTS, E.GL_INTERNALFORMAT_SUPPORTED, E.GL_INTERNALFORMAT_PREFERRED,
    E.GL_INTERNALFORMAT_RED_SIZE, E.GL_INTERNALFORMAT_GREEN_SIZE, E.GL_INTERNALFORMAT_BLUE_SIZE,
    E.GL_INTERNALFORMAT_ALPHA_SIZE, E.GL_INTERNALFORMAT_DEPTH_SIZE, E.GL_INTERNALFORMAT_STENCIL_SIZE,
    E.GL_INTERNALFORMAT_SHARED_SIZE, E.GL_INTERNALFORMAT_RED_TYPE, E.GL_INTERNALFORMAT_GREEN_TYPE,
    E.GL_INTERNALFORMAT_BLUE_TYPE, E.GL_INTERNALFORMAT_ALPHA_TYPE, E.GL_INTERNALFORMAT_DEPTH_TYPE,
    E.GL_INTERNALFORMAT_STENCIL_TYPE, E.GL_MAX_WIDTH, E.GL_MAX_HEIGHT, E.GL_MAX_DEPTH, E.GL_MAX_LAYERS,
    E.GL_MAX_COMBINED_DIMENSIONS, E.GL_COLOR_COMPONENTS, E.GL_DEPTH_COMPONENTS, E.GL_STENCIL_COMPONENTS,
    E.GL_COLOR_RENDERABLE, E.GL_DEPTH_RENDERABLE, E.GL_STENCIL_RENDERABLE, E.GL_FRAMEBUFFER_RENDERABLE,
    E.GL_FRAMEBUFFER_RENDERABLE_LAYERED, E.GL_FRAMEBUFFER_BLEND, E.GL_READ_PIXELS, E.GL_READ_PIXELS_FORMAT,
    E.GL_READ_PIXELS_TYPE, E.GL_TEXTURE_IMAGE_FORMAT, E.GL_TEXTURE_IMAGE_TYPE, E.GL_GET_TEXTURE_IMAGE_FORMAT,
    E.GL_GET_TEXTURE_IMAGE_TYPE, E.GL_MIPMAP, E.GL_MANUAL_GENERATE_MIPMAP, E.GL_AUTO_GENERATE_MIPMAP,
    E.GL_COLOR_ENCODING, E.GL_SRGB_READ, E.GL_SRGB_WRITE, _SRGB_DECODE_ARB, E.GL_FILTER,
    E.GL_VERTEX_TEXTURE, E.GL_TESS_CONTROL_TEXTURE, E.GL_TESS_EVALUATION_TEXTURE, E.GL_GEOMETRY_TEXTURE,
    E.GL_FRAGMENT_TEXTURE, E.GL_COMPUTE_TEXTURE, E.GL_TEXTURE_SHADOW, E.GL_TEXTURE_GATHER,
    E.GL_TEXTURE_GATHER_SHADOW, E.GL_SHADER_IMAGE_LOAD, E.GL_SHADER_IMAGE_STORE, E.GL_SHADER_IMAGE_ATOMIC,
    E.GL_IMAGE_TEXEL_SIZE, E.GL_IMAGE_COMPATIBILITY_CLASS, E.GL_IMAGE_PIXEL_FORMAT, E.GL_IMAGE_PIXEL_TYPE,
    E.GL_IMAGE_FORMAT_COMPATIBILITY_TYPE, E.GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST,
    E.GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_TEST, E.GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE,
    E.GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_WRITE, E.GL_TEXTURE_COMPRESSED,
    E.GL_TEXTURE_COMPRESSED_BLOCK_WIDTH, E.GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT,
    E.GL_TEXTURE_COMPRESSED_BLOCK_SIZE, E.GL_CLEAR_BUFFER, E.GL_TEXTURE_VIEW, E.GL_VIEW_COMPATIBILITY_CLASS,
    E.GL_TEXTURE_REDUCTION_MODE_ARB,
})


def _query(ctx, target: int, internalformat: int, pname: int, bufSize: int, wide: bool) -> list[int]:
    api = ctx.api
    tiling = tiling_query(ctx, pname)        # EXT_memory_object's tiling types, of any texture format
    if tiling is not None:
        check_enum(target, TARGETS if not api.es else texture_targets(api) | {E.GL_RENDERBUFFER})
        check(bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
        return tiling[:bufSize]
    if not api.es and ctx.api.has_extension("GL_ARB_internalformat_query2"):
        check_enum(target, TARGETS, f"bad target {target:#x}")
        names = PNAMES if (_feature(ctx, "GL_ARB_texture_sRGB_decode")
                           or _feature(ctx, "GL_EXT_texture_sRGB_decode")) else PNAMES - {_SRGB_DECODE_ARB}
        if not _feature(ctx, "GL_ARB_texture_filter_minmax"):
            names = names - {E.GL_TEXTURE_REDUCTION_MODE_ARB}
        check_enum(pname, names, f"bad pname {pname:#x}")
        check(bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")
        out = _answer(ctx, _Resource(ctx, target, internalformat), pname)
        if not wide:
            out = [min(v, 0x7FFFFFFF) for v in out]      # GL 4.6 section 2.2.2: clamped to GLint
        return out[:bufSize]
    # GL_ARB_internalformat_query (GL 4.2, GLES 3.0): SAMPLES and NUM_SAMPLE_COUNTS of
    # the multisample targets of renderable formats
    check(api.gl_or_es((4, 2), (3, 0)) or api.has_extension("GL_ARB_internalformat_query"),
          E.GL_INVALID_OPERATION)
    targets = {E.GL_RENDERBUFFER}
    if not api.es:
        targets |= {E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY}
    elif api.version >= (3, 1):
        targets.add(E.GL_TEXTURE_2D_MULTISAMPLE)
        if api.has_extension("GL_OES_texture_storage_multisample_2d_array"):
            targets.add(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
    check_enum(target, targets)
    info = INTERNAL_FORMATS.get(internalformat)
    check(info is not None and (info.color_renderable or info.is_depth_or_stencil),
          E.GL_INVALID_ENUM, "not a renderable internal format")
    check_enum(pname, (E.GL_SAMPLES, E.GL_NUM_SAMPLE_COUNTS))
    check(bufSize >= 0, E.GL_INVALID_VALUE)
    counts = sorted((s for s in ctx.caps.sample_counts if s > 1), reverse=True)
    if info.integer and api.es and api.version < (3, 1):
        counts = []
    out = counts if pname == E.GL_SAMPLES else [len(counts)]
    return out[:bufSize]


@entry_point
def glGetInternalformativ(ctx, target: int, internalformat: int, pname: int, bufSize: int) -> list[int]:
    """GL 4.6 section 22.3: what the implementation supports of a resource."""
    return _query(ctx, target, internalformat, pname, bufSize, wide=False)


@entry_point
def glGetInternalformati64v(ctx, target: int, internalformat: int, pname: int, bufSize: int) -> list[int]:
    """GL 4.6 section 22.3: as glGetInternalformativ, with 64-bit values."""
    check(not ctx.api.es, E.GL_INVALID_OPERATION, "GLES has no glGetInternalformati64v")
    return _query(ctx, target, internalformat, pname, bufSize, wide=True)
