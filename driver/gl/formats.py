"""Texture/renderbuffer internal formats: base format, pipe format, kind,
renderability, and the format/type combinations pixel transfers accept
(GL 4.6 tables 8.2-8.3, 8.11-8.13; GLES 3.2 tables 8.2-8.3, 8.10, 8.11)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import layout

from driver.gallium import PipeFormat as F
from driver.gl import enums as E

__all__ = ["InternalFormat", "INTERNAL_FORMATS", "PIXEL_TYPES", "PIXEL_FORMATS", "GENERIC", "GENERIC_STORED_AS",
           "ES_ONLY", "ATTACHABLE_UNRENDERED", "component_bits", "compressed_targets", "reported_internal_format",
           "COMPRESSED", "CompressedFormat", "compressed_formats", "DECODED_FAMILIES",
           "UNSIZED_ES2_COMBINATIONS", "bytes_per_pixel", "lookup", "pixel_type_matches", "VIEW_CLASSES",
           "view_compatible", "signed_components"]


@dataclass(frozen=True)
class InternalFormat:
    enum: int
    base: int                  # GL base internal format (GL_RGBA, GL_DEPTH_COMPONENT, ...)
    pipe: F
    kind: str                  # unorm snorm float int uint depth stencil depthstencil
    color_renderable: bool = True
    es_types: tuple = ()       # GLES 3 table 8.2: valid types with the base's format
    filterable: bool = True
    buffer_pipe: F | None = None   # the texel-buffer format, when it differs from ``pipe``

    @property
    def texel_buffer_pipe(self) -> F:
        """The format a buffer texture of this internal format reads (GL 4.6
        table 8.18: tight three-component texels, unlike images)."""
        return self.buffer_pipe or self.pipe

    @property
    def texel_buffer_B(self) -> int:
        """Bytes of one buffer-texture element (RGB32F: 12), from layout's table."""
        return layout.get_format(self.texel_buffer_pipe.name).block_size_B

    @property
    def integer(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def is_depth_or_stencil(self) -> bool:
        return self.kind in ("depth", "stencil", "depthstencil")


_UB, _B, _US, _S, _UI, _I = (E.GL_UNSIGNED_BYTE, E.GL_BYTE, E.GL_UNSIGNED_SHORT, E.GL_SHORT,
                             E.GL_UNSIGNED_INT, E.GL_INT)
_HF, _FL = E.GL_HALF_FLOAT, E.GL_FLOAT


def _f(enum, base, pipe, kind, renderable=True, types=(), filterable=True, buffer_pipe=None):
    return InternalFormat(enum, base, pipe, kind, renderable, types, filterable, buffer_pipe)


_US8, _S8 = E.GL_UNSIGNED_SHORT, E.GL_SHORT
_TABLE = [
    # GL 4.6 table 8.12 / GLES 3.2 table 8.10 (+ EXT_texture_norm16 for the 16-bit
    # normalised rows in GLES). Three-component formats are stored with a padding
    # channel (RGBX): images need power-of-two texels (texel buffers keep the
    # tight format, ``buffer_pipe``).
    _f(E.GL_R8, E.GL_RED, F.R8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_RG8, E.GL_RG, F.R8G8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_RGB8, E.GL_RGB, F.R8G8B8X8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_RGBA8, E.GL_RGBA, F.R8G8B8A8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_SRGB8, E.GL_RGB, F.R8G8B8X8_SRGB, "unorm", True, (_UB,)),
    _f(E.GL_SRGB8_ALPHA8, E.GL_RGBA, F.R8G8B8A8_SRGB, "unorm", True, (_UB,)),
    # EXT_texture_sRGB_R8 / EXT_texture_sRGB_RG8: one and two sRGB channels, textures only
    _f(E.GL_SR8_EXT, E.GL_RED, F.R8_SRGB, "unorm", False, (_UB,)),
    _f(E.GL_SRG8_EXT, E.GL_RG, F.R8G8_SRGB, "unorm", False, (_UB,)),
    # the SNORM formats render (snorm8/snorm16 tile formats; the three-channel ones
    # too in desktop GL, as in Mesa, although table 8.12 does not require it); GLES
    # only the one- two- and four-channel ones with EXT_render_snorm
    # (gles_ext.es_color_renderable)
    _f(E.GL_R8_SNORM, E.GL_RED, F.R8_SNORM, "snorm", True, (_B,)),
    _f(E.GL_RG8_SNORM, E.GL_RG, F.R8G8_SNORM, "snorm", True, (_B,)),
    _f(E.GL_RGB8_SNORM, E.GL_RGB, F.R8G8B8X8_SNORM, "snorm", True, (_B,)),
    _f(E.GL_RGBA8_SNORM, E.GL_RGBA, F.R8G8B8A8_SNORM, "snorm", True, (_B,)),
    _f(E.GL_R16, E.GL_RED, F.R16_UNORM, "unorm", True, (_US8,)),
    _f(E.GL_RG16, E.GL_RG, F.R16G16_UNORM, "unorm", True, (_US8,)),
    _f(E.GL_RGB16, E.GL_RGB, F.R16G16B16X16_UNORM, "unorm", True, (_US8,)),
    _f(E.GL_RGBA16, E.GL_RGBA, F.R16G16B16A16_UNORM, "unorm", True, (_US8,)),
    _f(E.GL_R16_SNORM, E.GL_RED, F.R16_SNORM, "snorm", True, (_S8,)),
    _f(E.GL_RG16_SNORM, E.GL_RG, F.R16G16_SNORM, "snorm", True, (_S8,)),
    _f(E.GL_RGB16_SNORM, E.GL_RGB, F.R16G16B16X16_SNORM, "snorm", True, (_S8,)),
    _f(E.GL_RGBA16_SNORM, E.GL_RGBA, F.R16G16B16A16_SNORM, "snorm", True, (_S8,)),
    _f(E.GL_R16F, E.GL_RED, F.R16_FLOAT, "float", True, (_HF, _FL)),
    _f(E.GL_RG16F, E.GL_RG, F.R16G16_FLOAT, "float", True, (_HF, _FL)),
    # RGB16F and RGB32F render in desktop GL (table 8.12; VTK's PBR renders its
    # irradiance cube maps to RGB16F faces); GLES: gles_ext.es_color_renderable
    _f(E.GL_RGB16F, E.GL_RGB, F.R16G16B16X16_FLOAT, "float", True, (_HF, _FL)),
    _f(E.GL_RGBA16F, E.GL_RGBA, F.R16G16B16A16_FLOAT, "float", True, (_HF, _FL)),
    _f(E.GL_R32F, E.GL_RED, F.R32_FLOAT, "float", True, (_FL,), False),
    _f(E.GL_RG32F, E.GL_RG, F.R32G32_FLOAT, "float", True, (_FL,), False),
    _f(E.GL_RGB32F, E.GL_RGB, F.R32G32B32X32_FLOAT, "float", True, (_FL,), False, F.R32G32B32_FLOAT),
    _f(E.GL_RGBA32F, E.GL_RGBA, F.R32G32B32A32_FLOAT, "float", True, (_FL,), False),
    _f(E.GL_R11F_G11F_B10F, E.GL_RGB, F.R11G11B10_FLOAT, "float", True,
       (E.GL_UNSIGNED_INT_10F_11F_11F_REV, _HF, _FL)),
    _f(E.GL_RGB9_E5, E.GL_RGB, F.R9G9B9E5_FLOAT, "float", False,
       (E.GL_UNSIGNED_INT_5_9_9_9_REV, _HF, _FL)),
    _f(E.GL_RGB565, E.GL_RGB, F.B5G6R5_UNORM, "unorm", True, (_UB, E.GL_UNSIGNED_SHORT_5_6_5)),
    _f(E.GL_RGB5_A1, E.GL_RGBA, F.B5G5R5A1_UNORM, "unorm", True,
       (_UB, E.GL_UNSIGNED_SHORT_5_5_5_1, E.GL_UNSIGNED_INT_2_10_10_10_REV)),
    _f(E.GL_RGBA4, E.GL_RGBA, F.A4B4G4R4_UNORM, "unorm", True, (_UB, E.GL_UNSIGNED_SHORT_4_4_4_4)),
    _f(E.GL_RGB10_A2, E.GL_RGBA, F.R10G10B10A2_UNORM, "unorm", True,
       (E.GL_UNSIGNED_INT_2_10_10_10_REV,)),
    _f(E.GL_RGB10_A2UI, E.GL_RGBA, F.R10G10B10A2_UINT, "uint", True,
       (E.GL_UNSIGNED_INT_2_10_10_10_REV,)),
    # desktop-only sized formats of table 8.12, all colour-renderable (GL may store
    # more bits than named: R3_G3_B2 as 5/6/5, the tile buffer has no 3/3/2 format,
    # as Mesa's Asahi driver picks B5G6R5 for it)
    _f(E.GL_R3_G3_B2, E.GL_RGB, F.B5G6R5_UNORM, "unorm"),
    _f(E.GL_RGB4, E.GL_RGB, F.B5G6R5_UNORM, "unorm"),
    _f(E.GL_RGB5, E.GL_RGB, F.B5G6R5_UNORM, "unorm"),
    _f(E.GL_RGB10, E.GL_RGB, F.R10G10B10X2_UNORM, "unorm"),
    _f(E.GL_RGB12, E.GL_RGB, F.R16G16B16X16_UNORM, "unorm"),
    _f(E.GL_RGBA2, E.GL_RGBA, F.A4B4G4R4_UNORM, "unorm"),
    _f(E.GL_RGBA12, E.GL_RGBA, F.R16G16B16A16_UNORM, "unorm"),
    _f(E.GL_R8UI, E.GL_RED, F.R8_UINT, "uint", True, (_UB,)),
    _f(E.GL_R8I, E.GL_RED, F.R8_SINT, "int", True, (_B,)),
    _f(E.GL_R16UI, E.GL_RED, F.R16_UINT, "uint", True, (_US,)),
    _f(E.GL_R16I, E.GL_RED, F.R16_SINT, "int", True, (_S,)),
    _f(E.GL_R32UI, E.GL_RED, F.R32_UINT, "uint", True, (_UI,)),
    _f(E.GL_R32I, E.GL_RED, F.R32_SINT, "int", True, (_I,)),
    _f(E.GL_RG8UI, E.GL_RG, F.R8G8_UINT, "uint", True, (_UB,)),
    _f(E.GL_RG8I, E.GL_RG, F.R8G8_SINT, "int", True, (_B,)),
    _f(E.GL_RG16UI, E.GL_RG, F.R16G16_UINT, "uint", True, (_US,)),
    _f(E.GL_RG16I, E.GL_RG, F.R16G16_SINT, "int", True, (_S,)),
    _f(E.GL_RG32UI, E.GL_RG, F.R32G32_UINT, "uint", True, (_UI,)),
    _f(E.GL_RG32I, E.GL_RG, F.R32G32_SINT, "int", True, (_I,)),
    # three-component integer formats render through their padded RGBX storage in desktop GL
    # (EXT_texture_integer, as Mesa); GLES never lists them (gles_ext.es_color_renderable)
    _f(E.GL_RGB8UI, E.GL_RGB, F.R8G8B8X8_UINT, "uint", True, (_UB,)),
    _f(E.GL_RGB8I, E.GL_RGB, F.R8G8B8X8_SINT, "int", True, (_B,)),
    _f(E.GL_RGB16UI, E.GL_RGB, F.R16G16B16X16_UINT, "uint", True, (_US,)),
    _f(E.GL_RGB16I, E.GL_RGB, F.R16G16B16X16_SINT, "int", True, (_S,)),
    _f(E.GL_RGB32UI, E.GL_RGB, F.R32G32B32X32_UINT, "uint", True, (_UI,), True, F.R32G32B32_UINT),
    _f(E.GL_RGB32I, E.GL_RGB, F.R32G32B32X32_SINT, "int", True, (_I,), True, F.R32G32B32_SINT),
    _f(E.GL_RGBA8UI, E.GL_RGBA, F.R8G8B8A8_UINT, "uint", True, (_UB,)),
    _f(E.GL_RGBA8I, E.GL_RGBA, F.R8G8B8A8_SINT, "int", True, (_B,)),
    _f(E.GL_RGBA16UI, E.GL_RGBA, F.R16G16B16A16_UINT, "uint", True, (_US,)),
    _f(E.GL_RGBA16I, E.GL_RGBA, F.R16G16B16A16_SINT, "int", True, (_S,)),
    _f(E.GL_RGBA32UI, E.GL_RGBA, F.R32G32B32A32_UINT, "uint", True, (_UI,)),
    _f(E.GL_RGBA32I, E.GL_RGBA, F.R32G32B32A32_SINT, "int", True, (_I,)),
    # GL 4.6 table 8.13: depth and stencil. The hardware keeps unorm depth in a
    # 32-bit float plane (as Mesa's asahi does); DEPTH_COMPONENT32 is 32-bit
    # unorm to the API (llvmpipe's Z32_UNORM).
    _f(E.GL_DEPTH_COMPONENT16, E.GL_DEPTH_COMPONENT, F.Z16_UNORM, "depth", False, (_US, _UI)),
    _f(E.GL_DEPTH_COMPONENT24, E.GL_DEPTH_COMPONENT, F.Z24X8_UNORM, "depth", False, (_UI,)),
    _f(E.GL_DEPTH_COMPONENT32F, E.GL_DEPTH_COMPONENT, F.Z32_FLOAT, "depth", False, (_FL,)),
    _f(E.GL_DEPTH_COMPONENT32, E.GL_DEPTH_COMPONENT, F.Z32_UNORM, "depth", False),
    _f(E.GL_DEPTH24_STENCIL8, E.GL_DEPTH_STENCIL, F.Z24_UNORM_S8_UINT, "depthstencil", False,
       (E.GL_UNSIGNED_INT_24_8,)),
    _f(E.GL_DEPTH32F_STENCIL8, E.GL_DEPTH_STENCIL, F.Z32_FLOAT_S8X24_UINT, "depthstencil", False,
       (E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV,)),
    _f(E.GL_STENCIL_INDEX8, E.GL_STENCIL_INDEX, F.S8_UINT, "stencil", False, (_UB,)),
    # renderbuffer stencil sizes of table 9.1 (stored in 8 bits)
    _f(E.GL_STENCIL_INDEX1, E.GL_STENCIL_INDEX, F.S8_UINT, "stencil", False),
    _f(E.GL_STENCIL_INDEX4, E.GL_STENCIL_INDEX, F.S8_UINT, "stencil", False),
    _f(E.GL_STENCIL_INDEX16, E.GL_STENCIL_INDEX, F.S8_UINT, "stencil", False),
]
INTERNAL_FORMATS: dict[int, InternalFormat] = {f.enum: f for f in _TABLE}

# Unsized formats (GL and GLES 2.0; GLES 3 accepts them with table 8.2's types),
# and GL's generic compressed formats, which we store uncompressed (GL 4.6
# section 8.7 allows it; TEXTURE_COMPRESSED then reads FALSE).
UNSIZED = {
    E.GL_RGBA: _f(E.GL_RGBA, E.GL_RGBA, F.R8G8B8A8_UNORM, "unorm"),
    E.GL_RGB: _f(E.GL_RGB, E.GL_RGB, F.R8G8B8X8_UNORM, "unorm"),
    E.GL_RED: _f(E.GL_RED, E.GL_RED, F.R8_UNORM, "unorm"),
    E.GL_RG: _f(E.GL_RG, E.GL_RG, F.R8G8_UNORM, "unorm"),
    # luminance (-alpha) render in the compatibility profile, as ALPHA (GLES refuses them:
    # gles_ext.es_color_renderable)
    E.GL_LUMINANCE_ALPHA: _f(E.GL_LUMINANCE_ALPHA, E.GL_LUMINANCE_ALPHA, F.L8A8_UNORM, "unorm"),
    E.GL_LUMINANCE: _f(E.GL_LUMINANCE, E.GL_LUMINANCE, F.L8_UNORM, "unorm"),
    # renders in the compatibility profile (GLES: gles_ext.es_color_renderable refuses it)
    E.GL_ALPHA: _f(E.GL_ALPHA, E.GL_ALPHA, F.A8_UNORM, "unorm"),
    E.GL_DEPTH_COMPONENT: _f(E.GL_DEPTH_COMPONENT, E.GL_DEPTH_COMPONENT, F.Z24X8_UNORM, "depth", False),
    E.GL_DEPTH_STENCIL: _f(E.GL_DEPTH_STENCIL, E.GL_DEPTH_STENCIL, F.Z24_UNORM_S8_UINT,
                           "depthstencil", False),
    # EXT_texture_format_BGRA8888 (GLES only): BGRA as an internal format, stored as is;
    # colour-renderable (the extension's revision 1.2; the tile buffer stores B, G, R, A)
    E.GL_BGRA: _f(E.GL_BGRA, E.GL_RGBA, F.B8G8R8A8_UNORM, "unorm", True),
}
# GL 3.1's unsized SNORM formats (desktop GL only: GLES has sized SNORM formats only)
GL_RED_SNORM, GL_RG_SNORM, GL_RGB_SNORM, GL_RGBA_SNORM = 0x8F90, 0x8F91, 0x8F92, 0x8F93
UNSIZED_SNORM = {
    GL_RED_SNORM: _f(GL_RED_SNORM, E.GL_RED, F.R8_SNORM, "snorm"),
    GL_RG_SNORM: _f(GL_RG_SNORM, E.GL_RG, F.R8G8_SNORM, "snorm"),
    GL_RGB_SNORM: _f(GL_RGB_SNORM, E.GL_RGB, F.R8G8B8X8_SNORM, "snorm", False),
    GL_RGBA_SNORM: _f(GL_RGBA_SNORM, E.GL_RGBA, F.R8G8B8A8_SNORM, "snorm"),
}
#: GL_STENCIL_INDEX as an internal format (desktop GL: a renderbuffer's, GL 4.6 table 9.1's
#: base format; a texture's with ARB_texture_stencil8), stored as STENCIL_INDEX8 (as Mesa)
UNSIZED_STENCIL = {E.GL_STENCIL_INDEX: _f(E.GL_STENCIL_INDEX, E.GL_STENCIL_INDEX, F.S8_UINT, "stencil", False)}
#: Unsized formats only GLES accepts (desktop GL: INVALID_VALUE).
ES_ONLY = frozenset({E.GL_BGRA})
#: desktop formats not colour-renderable (table 8.12) that Mesa still takes where an
#: attachment's format is asked for (it has a base framebuffer format for them:
#: EXT_texture_shared_exponent), leaving the refusal to the driver, which cannot
#: render them (Asahi's and llvmpipe alike): multisample images and renderbuffers
#: are made, and a framebuffer with one attached is FRAMEBUFFER_UNSUPPORTED
ATTACHABLE_UNRENDERED = frozenset({E.GL_RGB9_E5})
GENERIC = {
    E.GL_SRGB: _f(E.GL_SRGB, E.GL_RGB, F.R8G8B8X8_SRGB, "unorm", False),
    E.GL_SRGB_ALPHA: _f(E.GL_SRGB_ALPHA, E.GL_RGBA, F.R8G8B8A8_SRGB, "unorm", False),
    E.GL_COMPRESSED_RED: _f(E.GL_COMPRESSED_RED, E.GL_RED, F.R8_UNORM, "unorm", False),
    E.GL_COMPRESSED_RG: _f(E.GL_COMPRESSED_RG, E.GL_RG, F.R8G8_UNORM, "unorm", False),
    E.GL_COMPRESSED_RGB: _f(E.GL_COMPRESSED_RGB, E.GL_RGB, F.R8G8B8X8_UNORM, "unorm", False),
    E.GL_COMPRESSED_RGBA: _f(E.GL_COMPRESSED_RGBA, E.GL_RGBA, F.R8G8B8A8_UNORM, "unorm", False),
    E.GL_COMPRESSED_SRGB: _f(E.GL_COMPRESSED_SRGB, E.GL_RGB, F.R8G8B8X8_SRGB, "unorm", False),
    E.GL_COMPRESSED_SRGB_ALPHA: _f(E.GL_COMPRESSED_SRGB_ALPHA, E.GL_RGBA, F.R8G8B8A8_SRGB, "unorm", False),
}

#: What TEXTURE_INTERNAL_FORMAT reports for an image of a generic compressed format
#: we store uncompressed: its base format (GL 4.6 section 8.7: a generic format the GL
#: does not compress reads back as an uncompressed one; Mesa and piglit's
#: internal-format-query use the base format).
GENERIC_STORED_AS = {
    E.GL_COMPRESSED_RED: E.GL_RED, E.GL_COMPRESSED_RG: E.GL_RG, E.GL_COMPRESSED_RGB: E.GL_RGB,
    E.GL_COMPRESSED_RGBA: E.GL_RGBA, E.GL_COMPRESSED_SRGB: E.GL_RGB,
    E.GL_COMPRESSED_SRGB_ALPHA: E.GL_RGBA, E.GL_COMPRESSED_ALPHA: E.GL_ALPHA,
    E.GL_COMPRESSED_LUMINANCE: E.GL_LUMINANCE, E.GL_COMPRESSED_LUMINANCE_ALPHA: E.GL_LUMINANCE_ALPHA,
    E.GL_COMPRESSED_INTENSITY: E.GL_INTENSITY, E.GL_COMPRESSED_SLUMINANCE: E.GL_LUMINANCE,
    E.GL_COMPRESSED_SLUMINANCE_ALPHA: E.GL_LUMINANCE_ALPHA,
}


def reported_internal_format(internalformat: int) -> int:
    """TEXTURE_INTERNAL_FORMAT of an image specified with ``internalformat``."""
    return GENERIC_STORED_AS.get(internalformat, internalformat)


# GLES 2.0 table 3.4 (and GLES 3 table 8.2's unsized rows)
UNSIZED_ES2_COMBINATIONS = {
    (E.GL_RGBA, E.GL_UNSIGNED_BYTE), (E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4),
    (E.GL_RGBA, E.GL_UNSIGNED_SHORT_5_5_5_1), (E.GL_RGB, E.GL_UNSIGNED_BYTE),
    (E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5), (E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE),
    (E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE), (E.GL_ALPHA, E.GL_UNSIGNED_BYTE),
    (E.GL_BGRA, E.GL_UNSIGNED_BYTE),
}

# EXT_texture_integer's pixel formats of integer luminance data and its query (the
# generated enums module lacks them)
GL_LUMINANCE_INTEGER_EXT, GL_LUMINANCE_ALPHA_INTEGER_EXT = 0x8D9C, 0x8D9D
# EXT_abgr's pixel format (compatibility profile)
GL_ABGR_EXT = 0x8000
GL_RGBA_INTEGER_MODE_EXT = 0x8D9E

PIXEL_FORMATS = {
    E.GL_RED: 1, E.GL_RG: 2, E.GL_RGB: 3, E.GL_RGBA: 4, E.GL_BGRA: 4, E.GL_BGR: 3,
    E.GL_RED_INTEGER: 1, E.GL_RG_INTEGER: 2, E.GL_RGB_INTEGER: 3, E.GL_RGBA_INTEGER: 4,
    E.GL_BGRA_INTEGER: 4, E.GL_BGR_INTEGER: 3, E.GL_GREEN: 1, E.GL_BLUE: 1,
    E.GL_GREEN_INTEGER: 1, E.GL_BLUE_INTEGER: 1,
    E.GL_DEPTH_COMPONENT: 1, E.GL_STENCIL_INDEX: 1, E.GL_DEPTH_STENCIL: 1,
    E.GL_LUMINANCE: 1, E.GL_LUMINANCE_ALPHA: 2, E.GL_ALPHA: 1,
    # EXT_texture_integer's legacy integer pixel formats
    E.GL_ALPHA_INTEGER: 1, GL_LUMINANCE_INTEGER_EXT: 1, GL_LUMINANCE_ALPHA_INTEGER_EXT: 2,
    GL_ABGR_EXT: 4,
}
INTEGER_PIXEL_FORMATS = frozenset({E.GL_RED_INTEGER, E.GL_GREEN_INTEGER, E.GL_BLUE_INTEGER,
                                   E.GL_RG_INTEGER, E.GL_RGB_INTEGER,
                                   E.GL_RGBA_INTEGER, E.GL_BGRA_INTEGER, E.GL_BGR_INTEGER,
                                   E.GL_ALPHA_INTEGER, GL_LUMINANCE_INTEGER_EXT,
                                   GL_LUMINANCE_ALPHA_INTEGER_EXT})
# type -> (bytes per component, or None for packed) , packed types -> (bytes per pixel, components)
PIXEL_TYPES = {
    _UB: 1, _B: 1, _US: 2, _S: 2, _UI: 4, _I: 4, _HF: 2, _FL: 4,
    E.GL_UNSIGNED_SHORT_5_6_5: (2, 3), E.GL_UNSIGNED_SHORT_4_4_4_4: (2, 4),
    E.GL_UNSIGNED_SHORT_5_5_5_1: (2, 4), E.GL_UNSIGNED_INT_2_10_10_10_REV: (4, 4),
    E.GL_UNSIGNED_INT_10F_11F_11F_REV: (4, 3), E.GL_UNSIGNED_INT_5_9_9_9_REV: (4, 3),
    E.GL_UNSIGNED_INT_24_8: (4, 1), E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV: (8, 1),
    E.GL_UNSIGNED_BYTE_3_3_2: (1, 3), E.GL_UNSIGNED_BYTE_2_3_3_REV: (1, 3),
    E.GL_UNSIGNED_SHORT_5_6_5_REV: (2, 3), E.GL_UNSIGNED_SHORT_4_4_4_4_REV: (2, 4),
    E.GL_UNSIGNED_SHORT_1_5_5_5_REV: (2, 4), E.GL_UNSIGNED_INT_8_8_8_8: (4, 4),
    E.GL_UNSIGNED_INT_8_8_8_8_REV: (4, 4), E.GL_UNSIGNED_INT_10_10_10_2: (4, 4),
}


# Legacy sized formats of ARB_texture_float and EXT_texture_snorm (compatibility
# profile), whose enums the generated module (core GL and GLES) lacks.
GL_ALPHA32F_ARB, GL_INTENSITY32F_ARB, GL_LUMINANCE32F_ARB, GL_LUMINANCE_ALPHA32F_ARB = 0x8816, 0x8817, 0x8818, 0x8819
GL_ALPHA16F_ARB, GL_INTENSITY16F_ARB, GL_LUMINANCE16F_ARB, GL_LUMINANCE_ALPHA16F_ARB = 0x881C, 0x881D, 0x881E, 0x881F
GL_ALPHA8_SNORM, GL_LUMINANCE8_SNORM, GL_LUMINANCE8_ALPHA8_SNORM, GL_INTENSITY8_SNORM = 0x9014, 0x9015, 0x9016, 0x9017
GL_ALPHA16_SNORM, GL_LUMINANCE16_SNORM, GL_LUMINANCE16_ALPHA16_SNORM, GL_INTENSITY16_SNORM = (0x9018, 0x9019,
                                                                                          0x901A, 0x901B)
# EXT_texture_snorm's unsized legacy formats (stored as their 8-bit sized forms)
GL_ALPHA_SNORM, GL_LUMINANCE_SNORM, GL_LUMINANCE_ALPHA_SNORM, GL_INTENSITY_SNORM = 0x9010, 0x9011, 0x9012, 0x9013


# EXT_texture_integer (compatibility profile): integer alpha/intensity/luminance/
# luminance-alpha formats (0x8D72-0x8D93, the RGB/RGBA rows are GL 3.0's).
_EXT_INTEGER_BASES = ((E.GL_ALPHA, "A"), (E.GL_INTENSITY, "I"), (E.GL_LUMINANCE, "L"), (E.GL_LUMINANCE_ALPHA, "LA"))
#: (enum, base format, layout format name): 32UI at 0x8D72, then 16UI, 8UI, 32I,
#: 16I, 8I, six enums apart (each group's RGBA and RGB rows are GL 3.0's).
EXT_TEXTURE_INTEGER_LEGACY = tuple(
    (0x8D70 + 6 * group + 2 + k, base, "".join(f"{c}{bits}" for c in letters) + ("_UINT" if kind == "uint" else "_SINT"),
     kind)
    for group, (bits, kind) in enumerate(((32, "uint"), (16, "uint"), (8, "uint"), (32, "int"), (16, "int"),
                                          (8, "int")))
    for k, (base, letters) in enumerate(_EXT_INTEGER_BASES))


def _legacy(enum, base, pipe):
    return _f(enum, base, pipe, "unorm", False)


# Legacy formats (compatibility profile, GL 4.6 compatibility table 8.22): the
# alpha, luminance, luminance-alpha and intensity formats, sized and unsized, their
# sRGB (EXT_texture_sRGB) and generic compressed forms, and the component counts
# 1-4 of GL 1.0. Sizes above 8 bits are stored in 16; intensity is stored as I
# (one value read into all four channels).
_A, _L, _LA, _IN = E.GL_ALPHA, E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_INTENSITY
#: the base formats of the compatibility profile only (GL 4.6 compatibility table 8.11)
LEGACY_BASES = frozenset({_A, _L, _LA, _IN})
# GL_RGB2_EXT: EXT_texture's 2-bit RGB (not kept by GL 1.1), stored as RGB4 is
LEGACY = {f.enum: f for f in [
    _f(E.GL_INTENSITY, _IN, F.I8_UNORM, "unorm"), _legacy(E.GL_RGB2_EXT, E.GL_RGB, F.B5G6R5_UNORM),
    # the sized alpha formats render (GL 4.6 compatibility table 8.22: colour-renderable;
    # Mesa's _mesa_base_fbo_format), stored alpha-only (A8/A16 tile formats)
    _f(E.GL_ALPHA4, _A, F.A8_UNORM, "unorm"), _f(E.GL_ALPHA8, _A, F.A8_UNORM, "unorm"),
    _f(E.GL_ALPHA12, _A, F.A16_UNORM, "unorm"), _f(E.GL_ALPHA16, _A, F.A16_UNORM, "unorm"),
    _f(E.GL_LUMINANCE4, _L, F.L8_UNORM, "unorm"), _f(E.GL_LUMINANCE8, _L, F.L8_UNORM, "unorm"),
    _f(E.GL_LUMINANCE12, _L, F.L16_UNORM, "unorm"), _f(E.GL_LUMINANCE16, _L, F.L16_UNORM, "unorm"),
    _f(E.GL_LUMINANCE4_ALPHA4, _LA, F.L8A8_UNORM, "unorm"), _f(E.GL_LUMINANCE6_ALPHA2, _LA, F.L8A8_UNORM, "unorm"),
    _f(E.GL_LUMINANCE8_ALPHA8, _LA, F.L8A8_UNORM, "unorm"),
    _f(E.GL_LUMINANCE12_ALPHA4, _LA, F.L16A16_UNORM, "unorm"),
    _f(E.GL_LUMINANCE12_ALPHA12, _LA, F.L16A16_UNORM, "unorm"),
    _f(E.GL_LUMINANCE16_ALPHA16, _LA, F.L16A16_UNORM, "unorm"),
    _f(E.GL_INTENSITY4, _IN, F.I8_UNORM, "unorm"), _f(E.GL_INTENSITY8, _IN, F.I8_UNORM, "unorm"),
    _f(E.GL_INTENSITY12, _IN, F.I16_UNORM, "unorm"), _f(E.GL_INTENSITY16, _IN, F.I16_UNORM, "unorm"),
    _legacy(E.GL_SLUMINANCE, _L, F.L8_SRGB), _legacy(E.GL_SLUMINANCE8, _L, F.L8_SRGB),
    _legacy(E.GL_SLUMINANCE_ALPHA, _LA, F.L8A8_SRGB), _legacy(E.GL_SLUMINANCE8_ALPHA8, _LA, F.L8A8_SRGB),
    _legacy(E.GL_COMPRESSED_ALPHA, _A, F.A8_UNORM), _legacy(E.GL_COMPRESSED_LUMINANCE, _L, F.L8_UNORM),
    _legacy(E.GL_COMPRESSED_LUMINANCE_ALPHA, _LA, F.L8A8_UNORM),
    _legacy(E.GL_COMPRESSED_INTENSITY, _IN, F.I8_UNORM),
    _legacy(E.GL_COMPRESSED_SLUMINANCE, _L, F.L8_SRGB),
    _legacy(E.GL_COMPRESSED_SLUMINANCE_ALPHA, _LA, F.L8A8_SRGB),
    # ARB_texture_float's and EXT_texture_snorm's legacy rows: colour-renderable in the
    # compatibility profile, as Mesa's _mesa_base_fbo_format has them
    *[_f(enum, base, pipe, kind) for enum, base, pipe, kind in [
        (GL_ALPHA16F_ARB, _A, F.A16_FLOAT, "float"), (GL_ALPHA32F_ARB, _A, F.A32_FLOAT, "float"),
        (GL_LUMINANCE16F_ARB, _L, F.L16_FLOAT, "float"), (GL_LUMINANCE32F_ARB, _L, F.L32_FLOAT, "float"),
        (GL_LUMINANCE_ALPHA16F_ARB, _LA, F.L16A16_FLOAT, "float"),
        (GL_LUMINANCE_ALPHA32F_ARB, _LA, F.L32A32_FLOAT, "float"),
        (GL_INTENSITY16F_ARB, _IN, F.I16_FLOAT, "float"), (GL_INTENSITY32F_ARB, _IN, F.I32_FLOAT, "float"),
        (GL_ALPHA_SNORM, _A, F.A8_SNORM, "snorm"), (GL_LUMINANCE_SNORM, _L, F.L8_SNORM, "snorm"),
        (GL_LUMINANCE_ALPHA_SNORM, _LA, F.L8A8_SNORM, "snorm"), (GL_INTENSITY_SNORM, _IN, F.I8_SNORM, "snorm"),
        (GL_ALPHA8_SNORM, _A, F.A8_SNORM, "snorm"), (GL_LUMINANCE8_SNORM, _L, F.L8_SNORM, "snorm"),
        (GL_LUMINANCE8_ALPHA8_SNORM, _LA, F.L8A8_SNORM, "snorm"), (GL_INTENSITY8_SNORM, _IN, F.I8_SNORM, "snorm"),
        (GL_ALPHA16_SNORM, _A, F.A16_SNORM, "snorm"), (GL_LUMINANCE16_SNORM, _L, F.L16_SNORM, "snorm"),
        (GL_LUMINANCE16_ALPHA16_SNORM, _LA, F.L16A16_SNORM, "snorm"),
        (GL_INTENSITY16_SNORM, _IN, F.I16_SNORM, "snorm")]],
    # EXT_texture_integer's alpha, luminance, luminance-alpha and intensity rows (not
    # rendered: integer tile stores keep the channel order, alpha is not red)
    *[_f(enum, base, getattr(F, name), kind, False) for enum, base, name, kind in EXT_TEXTURE_INTEGER_LEGACY],
    _f(1, _L, F.L8_UNORM, "unorm", False),
    _f(2, _LA, F.L8A8_UNORM, "unorm", False),
    _f(3, E.GL_RGB, F.R8G8B8X8_UNORM, "unorm"),
    _f(4, E.GL_RGBA, F.R8G8B8A8_UNORM, "unorm"),
]}
#: The legacy formats the compatibility profile renders to (renderbuffers, multisample
#: textures; Mesa's _mesa_base_fbo_format): the unsized bases and LEGACY's colour-renderable rows.
COMPAT_RENDERABLE_LEGACY = LEGACY_BASES | frozenset(f for f, info in LEGACY.items() if info.color_renderable)
#: LEGACY's unsized formats (the bases and the component counts): never glTexStorage's.
LEGACY_UNSIZED = LEGACY_BASES | frozenset({1, 2, 3, 4})


#: The compatibility profile's buffer-texture formats beyond GL 4.6 table 8.18
#: (ARB_texture_buffer_object's table: alpha, luminance, luminance-alpha and intensity
#: in 8/16 bits normalized, 16/32-bit float and 8/16/32-bit signed and unsigned integer).
LEGACY_TEXTURE_BUFFER_FORMATS = frozenset(
    {E.GL_ALPHA8, E.GL_ALPHA16, GL_ALPHA16F_ARB, GL_ALPHA32F_ARB,
     E.GL_LUMINANCE8, E.GL_LUMINANCE16, GL_LUMINANCE16F_ARB, GL_LUMINANCE32F_ARB,
     E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE16_ALPHA16, GL_LUMINANCE_ALPHA16F_ARB, GL_LUMINANCE_ALPHA32F_ARB,
     E.GL_INTENSITY8, E.GL_INTENSITY16, GL_INTENSITY16F_ARB, GL_INTENSITY32F_ARB}
    | {enum for enum, _, _, _ in EXT_TEXTURE_INTEGER_LEGACY})


# -- block-compressed formats -------------------------------------------------------
# Enum values of the extension formats the generated enums module (core GL and
# GLES only) lacks, from the extension specifications.
GL_COMPRESSED_RGB_S3TC_DXT1_EXT = 0x83F0
GL_COMPRESSED_RGBA_S3TC_DXT1_EXT = 0x83F1
GL_COMPRESSED_RGBA_S3TC_DXT3_EXT = 0x83F2
GL_COMPRESSED_RGBA_S3TC_DXT5_EXT = 0x83F3
GL_COMPRESSED_SRGB_S3TC_DXT1_EXT = 0x8C4C
GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT = 0x8C4D
GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT = 0x8C4E
GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT = 0x8C4F
GL_ETC1_RGB8_OES = 0x8D64
GL_COMPRESSED_LUMINANCE_LATC1_EXT = 0x8C70
GL_COMPRESSED_SIGNED_LUMINANCE_LATC1_EXT = 0x8C71
GL_COMPRESSED_LUMINANCE_ALPHA_LATC2_EXT = 0x8C72
GL_COMPRESSED_SIGNED_LUMINANCE_ALPHA_LATC2_EXT = 0x8C73
ASTC_BLOCKS = layout.formats.ASTC_BLOCKS
#: KHR_texture_compression_astc_ldr: COMPRESSED_RGBA_ASTC_WxH_KHR = 0x93B0 + i,
#: COMPRESSED_SRGB8_ALPHA8_ASTC_WxH_KHR = 0x93D0 + i, i the block size's place above
GL_COMPRESSED_RGBA_ASTC = {wh: 0x93B0 + i for i, wh in enumerate(ASTC_BLOCKS)}
GL_COMPRESSED_SRGB8_ALPHA8_ASTC = {wh: 0x93D0 + i for i, wh in enumerate(ASTC_BLOCKS)}


@dataclass(frozen=True)
class CompressedFormat:
    """A block-compressed internal format: its format info (``pipe`` names the
    layout format, whose table gives the block size) and the family that
    decides where it exists (``compressed_formats``)."""
    info: InternalFormat
    family: str          # etc1 etc2 s3tc s3tc_srgb s3_s3tc rgtc latc bptc bptc_float astc fxt1

    @property
    def block(self) -> tuple[int, int, int]:
        """(block width px, block height px, bytes per block), from layout."""
        f = layout.get_format(self.info.pipe.value)
        return f.block_width_px, f.block_height_px, f.block_size_B


def _cf(enum, pipe, base, family, kind="unorm"):
    return enum, CompressedFormat(InternalFormat(enum, base, pipe, kind, False), family)


COMPRESSED = dict([
    _cf(E.GL_COMPRESSED_RGB8_ETC2, F.ETC2_RGB8, E.GL_RGB, "etc2"),
    _cf(E.GL_COMPRESSED_SRGB8_ETC2, F.ETC2_SRGB8, E.GL_RGB, "etc2"),
    _cf(E.GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, F.ETC2_RGB8A1, E.GL_RGBA, "etc2"),
    _cf(E.GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, F.ETC2_SRGB8A1, E.GL_RGBA, "etc2"),
    _cf(E.GL_COMPRESSED_RGBA8_ETC2_EAC, F.ETC2_RGBA8, E.GL_RGBA, "etc2"),
    _cf(E.GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, F.ETC2_SRGBA8, E.GL_RGBA, "etc2"),
    _cf(E.GL_COMPRESSED_R11_EAC, F.ETC2_R11_UNORM, E.GL_RED, "etc2"),
    _cf(E.GL_COMPRESSED_SIGNED_R11_EAC, F.ETC2_R11_SNORM, E.GL_RED, "etc2", "snorm"),
    _cf(E.GL_COMPRESSED_RG11_EAC, F.ETC2_RG11_UNORM, E.GL_RG, "etc2"),
    _cf(E.GL_COMPRESSED_SIGNED_RG11_EAC, F.ETC2_RG11_SNORM, E.GL_RG, "etc2", "snorm"),
    _cf(GL_ETC1_RGB8_OES, F.ETC1_RGB8, E.GL_RGB, "etc1"),
    _cf(GL_COMPRESSED_RGB_S3TC_DXT1_EXT, F.DXT1_RGB, E.GL_RGB, "s3tc"),
    _cf(GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, F.DXT1_RGBA, E.GL_RGBA, "s3tc"),
    _cf(GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, F.DXT3_RGBA, E.GL_RGBA, "s3tc"),
    _cf(GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, F.DXT5_RGBA, E.GL_RGBA, "s3tc"),
    _cf(GL_COMPRESSED_SRGB_S3TC_DXT1_EXT, F.DXT1_SRGB, E.GL_RGB, "s3tc_srgb"),
    _cf(GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT, F.DXT1_SRGBA, E.GL_RGBA, "s3tc_srgb"),
    _cf(GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT, F.DXT3_SRGBA, E.GL_RGBA, "s3tc_srgb"),
    _cf(GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT, F.DXT5_SRGBA, E.GL_RGBA, "s3tc_srgb"),
    _cf(E.GL_COMPRESSED_RED_RGTC1, F.RGTC1_UNORM, E.GL_RED, "rgtc"),
    _cf(E.GL_COMPRESSED_SIGNED_RED_RGTC1, F.RGTC1_SNORM, E.GL_RED, "rgtc", "snorm"),
    _cf(E.GL_COMPRESSED_RG_RGTC2, F.RGTC2_UNORM, E.GL_RG, "rgtc"),
    _cf(E.GL_COMPRESSED_SIGNED_RG_RGTC2, F.RGTC2_SNORM, E.GL_RG, "rgtc", "snorm"),
    _cf(GL_COMPRESSED_LUMINANCE_LATC1_EXT, F.LATC1_UNORM, E.GL_LUMINANCE, "latc"),
    _cf(GL_COMPRESSED_SIGNED_LUMINANCE_LATC1_EXT, F.LATC1_SNORM, E.GL_LUMINANCE, "latc", "snorm"),
    _cf(GL_COMPRESSED_LUMINANCE_ALPHA_LATC2_EXT, F.LATC2_UNORM, E.GL_LUMINANCE_ALPHA, "latc"),
    _cf(GL_COMPRESSED_SIGNED_LUMINANCE_ALPHA_LATC2_EXT, F.LATC2_SNORM, E.GL_LUMINANCE_ALPHA, "latc", "snorm"),
    # GL_ATI_texture_compression_3dc: ATI's two-channel block format, LATC2's layout (Mesa's mapping)
    _cf(E.GL_COMPRESSED_LUMINANCE_ALPHA_3DC_ATI, F.LATC2_UNORM, E.GL_LUMINANCE_ALPHA, "latc"),
    _cf(E.GL_COMPRESSED_RGBA_BPTC_UNORM, F.BPTC_RGBA_UNORM, E.GL_RGBA, "bptc"),
    _cf(E.GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, F.BPTC_SRGBA, E.GL_RGBA, "bptc"),
    _cf(E.GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, F.BPTC_RGB_FLOAT, E.GL_RGB, "bptc_float", "float"),
    _cf(E.GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, F.BPTC_RGB_UFLOAT, E.GL_RGB, "bptc_float", "float"),
    # GL_3DFX_texture_compression_FXT1: 8 x 4 blocks (layout/fxt1.py)
    _cf(E.GL_COMPRESSED_RGB_FXT1_3DFX, F.FXT1_RGB, E.GL_RGB, "fxt1"),
    _cf(E.GL_COMPRESSED_RGBA_FXT1_3DFX, F.FXT1_RGBA, E.GL_RGBA, "fxt1"),
    # GL_S3_s3tc: S3's own names for S3TC blocks, as Mesa maps them (RGB4_S3TC is Mesa's
    # RGBA DXT1 of base format RGB, which reads as DXT1 RGB does: transparent black as
    # opaque black)
    _cf(E.GL_RGB_S3TC, F.DXT1_RGB, E.GL_RGB, "s3_s3tc"),
    _cf(E.GL_RGB4_S3TC, F.DXT1_RGB, E.GL_RGB, "s3_s3tc"),
    _cf(E.GL_RGBA_S3TC, F.DXT3_RGBA, E.GL_RGBA, "s3_s3tc"),
    _cf(E.GL_RGBA4_S3TC, F.DXT5_RGBA, E.GL_RGBA, "s3_s3tc"),
    *[_cf(GL_COMPRESSED_RGBA_ASTC[wh], F[f"ASTC_{wh[0]}x{wh[1]}"], E.GL_RGBA, "astc") for wh in ASTC_BLOCKS],
    *[_cf(GL_COMPRESSED_SRGB8_ALPHA8_ASTC[wh], F[f"ASTC_{wh[0]}x{wh[1]}_SRGB"], E.GL_RGBA, "astc")
      for wh in ASTC_BLOCKS],
])

#: The families ``layout`` decodes (so textures of them can be sampled and read).
DECODED_FAMILIES = frozenset({"etc1", "etc2", "s3tc", "s3tc_srgb", "s3_s3tc", "rgtc", "latc", "bptc",
                              "bptc_float", "astc", "fxt1"})


#: The GLES extension line (driver/gl/extensions.py) that brings a family to GLES
#: contexts: the family exists in the GLES versions where that line is exposed
#: (BPTC and RGTC need GLES 3.0, S3TC and ASTC GLES 2.0).
ES_FAMILY_EXTENSIONS = {
    "s3tc": "GL_EXT_texture_compression_s3tc", "s3tc_srgb": "GL_EXT_texture_compression_s3tc_srgb",
    "rgtc": "GL_EXT_texture_compression_rgtc", "bptc": "GL_EXT_texture_compression_bptc",
    "bptc_float": "GL_EXT_texture_compression_bptc", "astc": "GL_KHR_texture_compression_astc_ldr",
}


def compressed_formats(es: bool, version: tuple[int, int], compat: bool = False) -> dict[int, CompressedFormat]:
    """The block-compressed internal formats a context accepts: the decoded
    families, in the APIs where their extension or core version exists (ETC2/EAC:
    GL 4.3 and GLES 3.0 core; ETC1: GLES only; LATC (luminance): the compatibility
    profile only; FXT1 and S3_s3tc's names: desktop GL only; S3TC, RGTC, BPTC, ASTC:
    the EXT/ARB/KHR extensions of either API, in GLES from the version of
    ``ES_FAMILY_EXTENSIONS``' line)."""
    def exists(family: str) -> bool:
        if family not in DECODED_FAMILIES:
            return False
        if family == "etc1":
            return es
        if es and version < (2, 0):     # ES 1.1 lists ETC1 only (and the paletted formats, gles1.py)
            return False
        if es and family in ES_FAMILY_EXTENSIONS:
            from driver.gl.extensions import by_name
            return by_name()[ES_FAMILY_EXTENSIONS[family]].exposed_in(True, False, version)
        if family == "latc":
            return compat and not es
        if family in ("fxt1", "s3_s3tc"):
            return not es
        if family == "etc2":
            return version >= (3, 0) if es else True
        return True
    return {enum: cf for enum, cf in COMPRESSED.items() if exists(cf.family)}


def general_purpose_compressed(es: bool, version: tuple[int, int]) -> tuple[int, ...]:
    """COMPRESSED_TEXTURE_FORMATS: of the compressed formats a context accepts, the
    ones "suitable for general-purpose usage" (GL 4.6 section 8.7): linear RGB and
    RGBA - S3TC without DXT1's one-bit alpha, ETC2/EAC, BPTC, FXT1 and, in GLES, ETC1
    and ASTC. RGTC (one or two channels), sRGB S3TC, DXT1 RGBA and S3_s3tc's names
    are accepted but not listed, as every compression extension reads the rule (and
    as Mesa lists them)."""
    def listed(enum: int, cf: CompressedFormat) -> bool:
        if cf.family in ("rgtc", "latc", "s3tc_srgb", "s3_s3tc") or enum == GL_COMPRESSED_RGBA_S3TC_DXT1_EXT:
            return False
        return cf.family != "astc" or es
    paletted = ()
    if es and version < (2, 0):         # OES_compressed_paletted_texture lists its ten formats
        from driver.gl.features.gles1 import PALETTED
        paletted = tuple(PALETTED)
    return tuple(enum for enum, cf in compressed_formats(es, version).items() if listed(enum, cf)) + paletted


def lookup(internalformat: int) -> InternalFormat | None:
    return (INTERNAL_FORMATS.get(internalformat) or UNSIZED.get(internalformat) or GENERIC.get(internalformat)
            or LEGACY.get(internalformat) or UNSIZED_SNORM.get(internalformat) or UNSIZED_STENCIL.get(internalformat))


def _components(pipe_name: str) -> dict:
    """R, G, B, A, Z and S -> the layout channel of format ``pipe_name`` that
    holds it (L stands for R, G and B; I for all four; padding and the shared
    exponent for none); absent components are left out."""
    out = {}
    spread = {"L": "RGB", "I": "RGBA"}
    for channel in layout.get_format(pipe_name).channels:
        for name in spread.get(channel.name, channel.name):
            if name in "RGBAZS":
                out[name] = channel
    return out


def component_bits(info: InternalFormat) -> tuple[int, int, int, int, int, int]:
    """(R, G, B, A, depth, stencil) bits the image of an internal format stores,
    read from its layout format's channels (``_components``)."""
    channels = _components(info.pipe.value)
    return tuple(channels[n].bits if n in channels else 0 for n in "RGBAZS")


def signed_components(pipe_name: str) -> tuple[bool, bool, bool, bool]:
    """Which of R, G, B, A an image of format ``pipe_name`` stores as signed values
    (EXT_packed_float's RGBA_SIGNED_COMPONENTS_EXT): snorm, signed integer and
    16/32-bit float channels; a component the image lacks is not signed (the
    extension's issue 17), nor are the unsigned packed floats."""
    channels = _components(pipe_name)
    return tuple(n in channels and channels[n].signed for n in "RGBA")


def luminance_intensity_bits(info: InternalFormat) -> tuple[int, int]:
    """(luminance, intensity) bits of an internal format's image: its layout
    format's L and I channels, 0 where absent (the compatibility profile's
    TEXTURE_LUMINANCE_SIZE and TEXTURE_INTENSITY_SIZE)."""
    bits = {"L": 0, "I": 0}
    for channel in layout.get_format(info.pipe.value).channels:
        if channel.name in bits:
            bits[channel.name] = channel.bits
    return bits["L"], bits["I"]


# GL 4.6 table 8.5: the formats a packed type of 3 or 4 components takes (RGB and
# RGBA/BGRA, their integer forms; ABGR_EXT as Mesa), BGR none
_PACKED_FORMATS = {3: frozenset({E.GL_RGB, E.GL_RGB_INTEGER}),
                   4: frozenset({E.GL_RGBA, E.GL_BGRA, E.GL_RGBA_INTEGER, E.GL_BGRA_INTEGER, GL_ABGR_EXT})}


def pixel_type_matches(fmt: int, type: int) -> bool:
    """GL 4.6 section 8.4.4.1: packed types need a format of table 8.5 (one of
    their component count, BGR never); DEPTH_STENCIL needs a depth-stencil type
    (and vice versa)."""
    t = PIXEL_TYPES[type]
    ds_types = (E.GL_UNSIGNED_INT_24_8, E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV)
    if (fmt == E.GL_DEPTH_STENCIL) != (type in ds_types):
        return False
    if isinstance(t, tuple) and type not in ds_types:
        return fmt in _PACKED_FORMATS.get(t[1], ())
    return True


_FLOAT_TYPES = frozenset({E.GL_FLOAT, E.GL_HALF_FLOAT, 0x140B, E.GL_UNSIGNED_INT_10F_11F_11F_REV,
                          E.GL_UNSIGNED_INT_5_9_9_9_REV})     # 0x140B: HALF_FLOAT_ARB


def integer_with_float_type(fmt: int, type: int) -> bool:
    """An integer pixel format with a floating-point type: INVALID_ENUM in every
    pixel transfer (GL 3.0 / EXT_texture_integer; Mesa's format-and-type check)."""
    return fmt in INTEGER_PIXEL_FORMATS and type in _FLOAT_TYPES


def depth_stencil_with_other_type(fmt: int, type: int) -> bool:
    """DEPTH_STENCIL with a type other than its packed ones: INVALID_ENUM in desktop
    GL's ReadPixels and DrawPixels (EXT_packed_depth_stencil's errors; Mesa's
    format-and-type check), not the INVALID_OPERATION of other mismatches."""
    return fmt == E.GL_DEPTH_STENCIL and type not in (E.GL_UNSIGNED_INT_24_8, E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV)


@lru_cache(maxsize=1024)        # a function of its enums (an error is raised again every time)
def bytes_per_pixel(fmt: int, type: int) -> int:
    """Client bytes per pixel; GLError(GL_INVALID_ENUM) for a format or type
    that is not a pixel format/type (callers that did not validate first)."""
    from driver.gl.errors import check_enum
    check_enum(type, PIXEL_TYPES, f"bad pixel type {type:#x}")
    check_enum(fmt, PIXEL_FORMATS, f"bad pixel format {fmt:#x}")
    t = PIXEL_TYPES[type]
    return t[0] if isinstance(t, tuple) else t * PIXEL_FORMATS[fmt]


def _view_classes() -> dict[int, str]:
    """internal format -> texture-view compatibility class, named by its GL enum
    without the prefix (GL 4.6 table 8.22, the S3TC rows of
    EXT_texture_compression_s3tc, and OES_texture_view's EAC/ETC2/ASTC rows;
    VIEW_COMPATIBILITY_CLASS answers it). Two formats are view-compatible when
    they are in one class, or equal."""
    rows = {
        "VIEW_CLASS_128_BITS": (E.GL_RGBA32F, E.GL_RGBA32UI, E.GL_RGBA32I),
        "VIEW_CLASS_96_BITS": (E.GL_RGB32F, E.GL_RGB32UI, E.GL_RGB32I),
        "VIEW_CLASS_64_BITS": (E.GL_RGBA16F, E.GL_RG32F, E.GL_RGBA16UI, E.GL_RG32UI, E.GL_RGBA16I, E.GL_RG32I, E.GL_RGBA16,
               E.GL_RGBA16_SNORM),
        "VIEW_CLASS_48_BITS": (E.GL_RGB16, E.GL_RGB16_SNORM, E.GL_RGB16F, E.GL_RGB16UI, E.GL_RGB16I),
        "VIEW_CLASS_32_BITS": (E.GL_RG16F, E.GL_R11F_G11F_B10F, E.GL_R32F, E.GL_RGB10_A2UI, E.GL_RGBA8UI, E.GL_RG16UI, E.GL_R32UI,
               E.GL_RGBA8I, E.GL_RG16I, E.GL_R32I, E.GL_RGB10_A2, E.GL_RGBA8, E.GL_RG16, E.GL_RGBA8_SNORM,
               E.GL_RG16_SNORM, E.GL_SRGB8_ALPHA8, E.GL_RGB9_E5),
        "VIEW_CLASS_24_BITS": (E.GL_RGB8, E.GL_RGB8_SNORM, E.GL_SRGB8, E.GL_RGB8UI, E.GL_RGB8I),
        "VIEW_CLASS_16_BITS": (E.GL_R16F, E.GL_RG8UI, E.GL_R16UI, E.GL_RG8I, E.GL_R16I, E.GL_RG8, E.GL_R16, E.GL_RG8_SNORM,
               E.GL_R16_SNORM),
        "VIEW_CLASS_8_BITS": (E.GL_R8UI, E.GL_R8I, E.GL_R8, E.GL_R8_SNORM),
        "VIEW_CLASS_RGTC1_RED": (E.GL_COMPRESSED_RED_RGTC1, E.GL_COMPRESSED_SIGNED_RED_RGTC1),
        "VIEW_CLASS_RGTC2_RG": (E.GL_COMPRESSED_RG_RGTC2, E.GL_COMPRESSED_SIGNED_RG_RGTC2),
        "VIEW_CLASS_BPTC_UNORM": (E.GL_COMPRESSED_RGBA_BPTC_UNORM, E.GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM),
        "VIEW_CLASS_BPTC_FLOAT": (E.GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, E.GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT),
        "VIEW_CLASS_S3TC_DXT1_RGB": (GL_COMPRESSED_RGB_S3TC_DXT1_EXT, GL_COMPRESSED_SRGB_S3TC_DXT1_EXT),
        "VIEW_CLASS_S3TC_DXT1_RGBA": (GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT),
        "VIEW_CLASS_S3TC_DXT3_RGBA": (GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT),
        "VIEW_CLASS_S3TC_DXT5_RGBA": (GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT),
        "VIEW_CLASS_EAC_R11": (E.GL_COMPRESSED_R11_EAC, E.GL_COMPRESSED_SIGNED_R11_EAC),
        "VIEW_CLASS_EAC_RG11": (E.GL_COMPRESSED_RG11_EAC, E.GL_COMPRESSED_SIGNED_RG11_EAC),
        "VIEW_CLASS_ETC2_RGB": (E.GL_COMPRESSED_RGB8_ETC2, E.GL_COMPRESSED_SRGB8_ETC2),
        "VIEW_CLASS_ETC2_EAC_RGBA": (E.GL_COMPRESSED_RGBA8_ETC2_EAC, E.GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC),
        "VIEW_CLASS_ETC2_RGBA": (E.GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
                          E.GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2),
    }
    for wh in ASTC_BLOCKS:
        rows[f"VIEW_CLASS_ASTC_{wh[0]}x{wh[1]}_RGBA"] = (GL_COMPRESSED_RGBA_ASTC[wh], GL_COMPRESSED_SRGB8_ALPHA8_ASTC[wh])
    return {fmt: name for name, formats in rows.items() for fmt in formats}


#: internal format -> its texture-view class (``view_compatible``)
VIEW_CLASSES: dict[int, str] = _view_classes()


def view_compatible(a: int, b: int) -> bool:
    """GL 4.6 section 8.18: a view of internal format ``b`` on storage of ``a`` is
    allowed when both are in one class of table 8.22, or the formats are equal."""
    return a == b or (a in VIEW_CLASSES and VIEW_CLASSES.get(a) == VIEW_CLASSES.get(b))


#: GL 4.6 table 8.27: the formats of image units (glBindImageTexture), with the
#: texel size in bytes, the compatibility class, and the pixel format and type
#: of a texel (IMAGE_TEXEL_SIZE, IMAGE_COMPATIBILITY_CLASS, IMAGE_PIXEL_FORMAT/TYPE).
@dataclass(frozen=True)
class ImageFormat:
    size_B: int
    image_class: int
    pixel_format: int
    pixel_type: int


def _image_formats() -> dict[int, ImageFormat]:
    rows = []
    for kind, fmts, types in (("float", ("RGBA32F", "RGBA16F", "RG32F", "RG16F", "R32F", "R16F"), None),
                              ("uint", ("RGBA32UI", "RGBA16UI", "RGBA8UI", "RG32UI", "RG16UI", "RG8UI",
                                        "R32UI", "R16UI", "R8UI"), (_UI, _US, _UB)),
                              ("int", ("RGBA32I", "RGBA16I", "RGBA8I", "RG32I", "RG16I", "RG8I", "R32I",
                                       "R16I", "R8I"), (_I, _S, _B)),
                              ("unorm", ("RGBA16", "RGBA8", "RG16", "RG8", "R16", "R8"), (None, _US, _UB)),
                              ("snorm", ("RGBA16_SNORM", "RGBA8_SNORM", "RG16_SNORM", "RG8_SNORM",
                                         "R16_SNORM", "R8_SNORM"), (None, _S, _B))):
        for name in fmts:
            comps = 4 if name.startswith("RGBA") else 2 if name.startswith("RG") else 1
            bits = int("".join(c for c in name.split("_")[0] if c.isdigit()))
            if kind == "float":
                ptype = _FL if bits == 32 else _HF
            else:
                ptype = types[{32: 0, 16: 1, 8: 2}[bits]]
            base = {4: E.GL_RGBA, 2: E.GL_RG, 1: E.GL_RED}[comps]
            if kind in ("int", "uint"):
                base = {E.GL_RGBA: E.GL_RGBA_INTEGER, E.GL_RG: E.GL_RG_INTEGER, E.GL_RED: E.GL_RED_INTEGER}[base]
            cls = getattr(E, f"GL_IMAGE_CLASS_{comps}_X_{bits}")
            rows.append((getattr(E, f"GL_{name}"), ImageFormat(comps * bits // 8, cls, base, ptype)))
    rows += [(E.GL_R11F_G11F_B10F, ImageFormat(4, E.GL_IMAGE_CLASS_11_11_10, E.GL_RGB,
                                               E.GL_UNSIGNED_INT_10F_11F_11F_REV)),
             (E.GL_RGB10_A2UI, ImageFormat(4, E.GL_IMAGE_CLASS_10_10_10_2, E.GL_RGBA_INTEGER,
                                           E.GL_UNSIGNED_INT_2_10_10_10_REV)),
             (E.GL_RGB10_A2, ImageFormat(4, E.GL_IMAGE_CLASS_10_10_10_2, E.GL_RGBA,
                                         E.GL_UNSIGNED_INT_2_10_10_10_REV))]
    return dict(rows)


IMAGE_FORMATS: dict[int, ImageFormat] = _image_formats()

#: GL 4.6 table 8.18: the internal formats of buffer textures (glTexBuffer) and of
#: glClearBufferData: one, two or four components of 8, 16 or 32 bits (no 8/16-bit
#: floats, no snorm) and the three-component 32-bit formats.
TEXTURE_BUFFER_FORMATS = frozenset(
    getattr(E, f"GL_{comps}{bits}{suffix}")
    for comps in ("R", "RG", "RGBA") for bits in (8, 16, 32) for suffix in ("", "F", "I", "UI")
    if not (suffix == "F" and bits == 8) and not (suffix == "" and bits == 32)
) | {E.GL_RGB32F, E.GL_RGB32I, E.GL_RGB32UI}


#: Resolution (bits) TEXTURE_*_SIZE reports for a channel of a compressed image, by
#: family (GL 4.6 section 8.11.3 reports the GL's internal resolution; these are
#: Mesa's approximations): S3TC colours 4 bits, its alpha 4 (DXT1's punch-through
#: alpha 1), FXT1 colours 4 bits and alpha 1, RGTC, BPTC, ETC1/ETC2 and ASTC 8, EAC 11,
#: BPTC float 16.
COMPRESSED_CHANNEL_BITS = {"s3tc": 4, "s3tc_srgb": 4, "s3_s3tc": 4, "fxt1": 4, "rgtc": 8, "latc": 8, "bptc": 8,
                           "etc1": 8, "etc2": 8, "astc": 8, "bptc_float": 16}


def compressed_component_bits(cf: CompressedFormat) -> tuple[int, int, int, int, int, int]:
    """(R, G, B, A, depth, stencil) bits reported for an image of compressed format
    ``cf``: ``COMPRESSED_CHANNEL_BITS`` for each channel its layout format has."""
    fmt = layout.get_format(cf.info.pipe.value)
    bits = COMPRESSED_CHANNEL_BITS[cf.family]
    if fmt.name.startswith("ETC2_R"):           # EAC R11 / RG11
        bits = 11
    out = dict.fromkeys("RGBAZS", 0)
    for channel in fmt.channels:
        out[channel.name] = bits
    if out["A"] and (fmt.name.startswith(("DXT1", "FXT1")) or "A1" in fmt.name):     # one-bit alpha (Mesa's)
        out["A"] = 1
    return out["R"], out["G"], out["B"], out["A"], 0, 0


def compressed_luminance_bits(cf: CompressedFormat) -> tuple[int, int]:
    """(luminance, intensity) bits reported for an image of compressed format
    ``cf`` (LATC: its L channel), as ``compressed_component_bits`` counts RGBA."""
    letters = {c.name for c in layout.get_format(cf.info.pipe.value).channels}
    return (COMPRESSED_CHANNEL_BITS[cf.family] if "L" in letters else 0), 0


def component_types(info: InternalFormat) -> tuple[int, int, int, int, int]:
    """(R, G, B, A, depth) component types of an internal format's image (GL 4.6
    table 23.17's TEXTURE_*_TYPE): NONE where the component is absent."""
    kind = {"unorm": E.GL_UNSIGNED_NORMALIZED, "snorm": E.GL_SIGNED_NORMALIZED,
            "float": E.GL_FLOAT, "int": E.GL_INT, "uint": E.GL_UNSIGNED_INT,
            "depth": E.GL_UNSIGNED_NORMALIZED, "depthstencil": E.GL_UNSIGNED_NORMALIZED}.get(info.kind, E.GL_NONE)
    if info.pipe.name.startswith("Z32_FLOAT"):
        kind = E.GL_FLOAT
    return tuple(kind if b else E.GL_NONE for b in component_bits(info)[:5])


#: The texture targets depth and stencil images exist in (GL 4.6 sections 8.5, 8.8
#: and 8.19: TexImage*, TexStorage*, the multisample forms; not 3D, not buffers).
DEPTH_TARGETS = frozenset({E.GL_TEXTURE_1D, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY,
                           E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_RECTANGLE,
                           E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY})
#: The texture targets block-compressed images exist in here (CompressedTexImage2D/3D,
#: TexStorage2D/3D): shimgl decodes no 1D or 3D blocks and rectangles take none.
COMPRESSED_TARGETS = frozenset({E.GL_TEXTURE_2D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_CUBE_MAP,
                                E.GL_TEXTURE_CUBE_MAP_ARRAY})


def compressed_targets(internalformat: int, sliced_3d: bool) -> frozenset[int]:
    """The targets a compressed format's images exist in: COMPRESSED_TARGETS, and
    TEXTURE_3D for the (2D-block) ASTC formats where the context has
    KHR_texture_compression_astc_sliced_3d (`sliced_3d`): a 3D image of them is a
    stack of 2D-block slices, each decoded as a 2D image."""
    cf = COMPRESSED.get(internalformat)
    if sliced_3d and cf is not None and cf.family == "astc":
        return COMPRESSED_TARGETS | {E.GL_TEXTURE_3D}
    return COMPRESSED_TARGETS
