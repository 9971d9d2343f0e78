"""Texture/renderbuffer internal formats: base format, pipe format, kind,
renderability, and the format/type combinations pixel transfers accept
(GL 4.6 tables 8.2-8.3, 8.11-8.13; GLES 3.2 tables 8.2-8.3, 8.10, 8.11)."""

from __future__ import annotations

from dataclasses import dataclass

from driver.gallium import PipeFormat as F
from driver.gl import enums as E

__all__ = ["InternalFormat", "INTERNAL_FORMATS", "PIXEL_TYPES", "PIXEL_FORMATS",
           "UNSIZED_ES2_COMBINATIONS", "bytes_per_pixel", "lookup", "pixel_type_matches"]


@dataclass(frozen=True)
class InternalFormat:
    enum: int
    base: int                  # GL base internal format (GL_RGBA, GL_DEPTH_COMPONENT, ...)
    pipe: F
    kind: str                  # unorm snorm float int uint depth stencil depthstencil
    color_renderable: bool = True
    es_types: tuple = ()       # GLES 3 table 8.2: valid types with the base's format
    filterable: bool = True

    @property
    def integer(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def is_depth_or_stencil(self) -> bool:
        return self.kind in ("depth", "stencil", "depthstencil")


_UB, _B, _US, _S, _UI, _I = (E.GL_UNSIGNED_BYTE, E.GL_BYTE, E.GL_UNSIGNED_SHORT, E.GL_SHORT,
                             E.GL_UNSIGNED_INT, E.GL_INT)
_HF, _FL = E.GL_HALF_FLOAT, E.GL_FLOAT


def _f(enum, base, pipe, kind, renderable=True, types=(), filterable=True):
    return InternalFormat(enum, base, pipe, kind, renderable, types, filterable)


_TABLE = [
    _f(E.GL_R8, E.GL_RED, F.R8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_RG8, E.GL_RG, F.R8G8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_RGB8, E.GL_RGB, F.R8G8B8X8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_RGBA8, E.GL_RGBA, F.R8G8B8A8_UNORM, "unorm", True, (_UB,)),
    _f(E.GL_SRGB8, E.GL_RGB, F.R8G8B8_SRGB, "unorm", False, (_UB,)),
    _f(E.GL_SRGB8_ALPHA8, E.GL_RGBA, F.R8G8B8A8_SRGB, "unorm", True, (_UB,)),
    _f(E.GL_R8_SNORM, E.GL_RED, F.R8_SNORM, "snorm", False, (_B,)),
    _f(E.GL_RG8_SNORM, E.GL_RG, F.R8G8_SNORM, "snorm", False, (_B,)),
    _f(E.GL_RGB8_SNORM, E.GL_RGB, F.R8G8B8_SNORM, "snorm", False, (_B,)),
    _f(E.GL_RGBA8_SNORM, E.GL_RGBA, F.R8G8B8A8_SNORM, "snorm", False, (_B,)),
    _f(E.GL_R16, E.GL_RED, F.R16_UNORM, "unorm", True, ()),
    _f(E.GL_RG16, E.GL_RG, F.R16G16_UNORM, "unorm", True, ()),
    _f(E.GL_RGBA16, E.GL_RGBA, F.R16G16B16A16_UNORM, "unorm", True, ()),
    _f(E.GL_R16F, E.GL_RED, F.R16_FLOAT, "float", True, (_HF, _FL)),
    _f(E.GL_RG16F, E.GL_RG, F.R16G16_FLOAT, "float", True, (_HF, _FL)),
    _f(E.GL_RGB16F, E.GL_RGB, F.R16G16B16_FLOAT, "float", False, (_HF, _FL)),
    _f(E.GL_RGBA16F, E.GL_RGBA, F.R16G16B16A16_FLOAT, "float", True, (_HF, _FL)),
    _f(E.GL_R32F, E.GL_RED, F.R32_FLOAT, "float", True, (_FL,), False),
    _f(E.GL_RG32F, E.GL_RG, F.R32G32_FLOAT, "float", True, (_FL,), False),
    _f(E.GL_RGB32F, E.GL_RGB, F.R32G32B32_FLOAT, "float", False, (_FL,), False),
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
    _f(E.GL_RGB8UI, E.GL_RGB, F.R8G8B8_UINT, "uint", False, (_UB,)),
    _f(E.GL_RGB8I, E.GL_RGB, F.R8G8B8_SINT, "int", False, (_B,)),
    _f(E.GL_RGB16UI, E.GL_RGB, F.R16G16B16_UINT, "uint", False, (_US,)),
    _f(E.GL_RGB16I, E.GL_RGB, F.R16G16B16_SINT, "int", False, (_S,)),
    _f(E.GL_RGB32UI, E.GL_RGB, F.R32G32B32_UINT, "uint", False, (_UI,)),
    _f(E.GL_RGB32I, E.GL_RGB, F.R32G32B32_SINT, "int", False, (_I,)),
    _f(E.GL_RGBA8UI, E.GL_RGBA, F.R8G8B8A8_UINT, "uint", True, (_UB,)),
    _f(E.GL_RGBA8I, E.GL_RGBA, F.R8G8B8A8_SINT, "int", True, (_B,)),
    _f(E.GL_RGBA16UI, E.GL_RGBA, F.R16G16B16A16_UINT, "uint", True, (_US,)),
    _f(E.GL_RGBA16I, E.GL_RGBA, F.R16G16B16A16_SINT, "int", True, (_S,)),
    _f(E.GL_RGBA32UI, E.GL_RGBA, F.R32G32B32A32_UINT, "uint", True, (_UI,)),
    _f(E.GL_RGBA32I, E.GL_RGBA, F.R32G32B32A32_SINT, "int", True, (_I,)),
    _f(E.GL_DEPTH_COMPONENT16, E.GL_DEPTH_COMPONENT, F.Z16_UNORM, "depth", False, (_US, _UI)),
    _f(E.GL_DEPTH_COMPONENT24, E.GL_DEPTH_COMPONENT, F.Z24X8_UNORM, "depth", False, (_UI,)),
    _f(E.GL_DEPTH_COMPONENT32F, E.GL_DEPTH_COMPONENT, F.Z32_FLOAT, "depth", False, (_FL,)),
    _f(E.GL_DEPTH24_STENCIL8, E.GL_DEPTH_STENCIL, F.Z24_UNORM_S8_UINT, "depthstencil", False,
       (E.GL_UNSIGNED_INT_24_8,)),
    _f(E.GL_DEPTH32F_STENCIL8, E.GL_DEPTH_STENCIL, F.Z32_FLOAT_S8X24_UINT, "depthstencil", False,
       (E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV,)),
    _f(E.GL_STENCIL_INDEX8, E.GL_STENCIL_INDEX, F.S8_UINT, "stencil", False, (_UB,)),
]
INTERNAL_FORMATS: dict[int, InternalFormat] = {f.enum: f for f in _TABLE}

# Unsized formats (GL and GLES 2.0; GLES 3 accepts them with table 8.2's types).
UNSIZED = {
    E.GL_RGBA: _f(E.GL_RGBA, E.GL_RGBA, F.R8G8B8A8_UNORM, "unorm"),
    E.GL_RGB: _f(E.GL_RGB, E.GL_RGB, F.R8G8B8X8_UNORM, "unorm"),
    E.GL_RED: _f(E.GL_RED, E.GL_RED, F.R8_UNORM, "unorm"),
    E.GL_RG: _f(E.GL_RG, E.GL_RG, F.R8G8_UNORM, "unorm"),
    E.GL_LUMINANCE_ALPHA: _f(E.GL_LUMINANCE_ALPHA, E.GL_LUMINANCE_ALPHA, F.L8A8_UNORM, "unorm", False),
    E.GL_LUMINANCE: _f(E.GL_LUMINANCE, E.GL_LUMINANCE, F.L8_UNORM, "unorm", False),
    E.GL_ALPHA: _f(E.GL_ALPHA, E.GL_ALPHA, F.A8_UNORM, "unorm", False),
    E.GL_DEPTH_COMPONENT: _f(E.GL_DEPTH_COMPONENT, E.GL_DEPTH_COMPONENT, F.Z24X8_UNORM, "depth", False),
    E.GL_DEPTH_STENCIL: _f(E.GL_DEPTH_STENCIL, E.GL_DEPTH_STENCIL, F.Z24_UNORM_S8_UINT,
                           "depthstencil", False),
}

# GLES 2.0 table 3.4 (and GLES 3 table 8.2's unsized rows)
UNSIZED_ES2_COMBINATIONS = {
    (E.GL_RGBA, E.GL_UNSIGNED_BYTE), (E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4),
    (E.GL_RGBA, E.GL_UNSIGNED_SHORT_5_5_5_1), (E.GL_RGB, E.GL_UNSIGNED_BYTE),
    (E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5), (E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE),
    (E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE), (E.GL_ALPHA, E.GL_UNSIGNED_BYTE),
}

PIXEL_FORMATS = {
    E.GL_RED: 1, E.GL_RG: 2, E.GL_RGB: 3, E.GL_RGBA: 4, E.GL_BGRA: 4, E.GL_BGR: 3,
    E.GL_RED_INTEGER: 1, E.GL_RG_INTEGER: 2, E.GL_RGB_INTEGER: 3, E.GL_RGBA_INTEGER: 4,
    E.GL_BGRA_INTEGER: 4, E.GL_BGR_INTEGER: 3, E.GL_GREEN: 1, E.GL_BLUE: 1,
    E.GL_DEPTH_COMPONENT: 1, E.GL_STENCIL_INDEX: 1, E.GL_DEPTH_STENCIL: 1,
    E.GL_LUMINANCE: 1, E.GL_LUMINANCE_ALPHA: 2, E.GL_ALPHA: 1,
}
INTEGER_PIXEL_FORMATS = frozenset({E.GL_RED_INTEGER, E.GL_RG_INTEGER, E.GL_RGB_INTEGER,
                                   E.GL_RGBA_INTEGER, E.GL_BGRA_INTEGER, E.GL_BGR_INTEGER})
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


# Legacy formats (GL 2.1 table 3.16, compatibility profile): the sized luminance,
# alpha and intensity formats and the component counts 1-4 of GL 1.0. Intensity
# is stored as luminance; pipestate.sampler_view routes its alpha from red.
LEGACY = {
    E.GL_INTENSITY: _f(E.GL_INTENSITY, E.GL_INTENSITY, F.L8_UNORM, "unorm", False),
    E.GL_INTENSITY8: _f(E.GL_INTENSITY8, E.GL_INTENSITY, F.L8_UNORM, "unorm", False),
    E.GL_LUMINANCE8: _f(E.GL_LUMINANCE8, E.GL_LUMINANCE, F.L8_UNORM, "unorm", False),
    E.GL_ALPHA8: _f(E.GL_ALPHA8, E.GL_ALPHA, F.A8_UNORM, "unorm", False),
    E.GL_LUMINANCE8_ALPHA8: _f(E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE_ALPHA, F.L8A8_UNORM, "unorm", False),
    1: _f(1, E.GL_LUMINANCE, F.L8_UNORM, "unorm", False),
    2: _f(2, E.GL_LUMINANCE_ALPHA, F.L8A8_UNORM, "unorm", False),
    3: _f(3, E.GL_RGB, F.R8G8B8X8_UNORM, "unorm"),
    4: _f(4, E.GL_RGBA, F.R8G8B8A8_UNORM, "unorm"),
}


def lookup(internalformat: int) -> InternalFormat | None:
    return INTERNAL_FORMATS.get(internalformat) or UNSIZED.get(internalformat) or LEGACY.get(internalformat)


def pixel_type_matches(fmt: int, type: int) -> bool:
    """GL 4.6 section 8.4.4.1: packed types need a matching component count;
    DEPTH_STENCIL needs a depth-stencil type (and vice versa)."""
    t = PIXEL_TYPES[type]
    ds_types = (E.GL_UNSIGNED_INT_24_8, E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV)
    if (fmt == E.GL_DEPTH_STENCIL) != (type in ds_types):
        return False
    if isinstance(t, tuple) and type not in ds_types:
        return PIXEL_FORMATS[fmt] == t[1] and fmt not in (E.GL_DEPTH_COMPONENT, E.GL_STENCIL_INDEX)
    return True


def bytes_per_pixel(fmt: int, type: int) -> int:
    t = PIXEL_TYPES[type]
    return t[0] if isinstance(t, tuple) else t * PIXEL_FORMATS[fmt]
