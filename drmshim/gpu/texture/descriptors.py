"""Texture and sampler descriptors as the texture unit sees them.

Sole responsibility: read a packed ``TEXTURE`` / ``SAMPLER`` descriptor (the
``uapi.packets`` table) from GPU memory and turn it into a :class:`TextureView` /
:class:`SamplerState`: the image's ``layout.Layout`` (from ``layout.make_miptree``),
its format, and separable per-level address tables. Decoding is cached by the
descriptor's bytes, so a descriptor read costs one 32-byte memory read.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import layout
from uapi import packets as P

from ...memory import GPUFault, malformed

__all__ = ["TextureView", "SamplerState", "InvalidDescriptor", "read_texture", "read_sampler",
           "texture_view", "sampler_state", "format_id", "format_by_id", "FORMAT_NAMES", "UNIT"]

UNIT = "TEX"

FORMAT_NAMES = layout.FORMAT_NAMES   # descriptor format ids: layout's numbering
format_id = layout.format_id

_TILING = {P.Tiling.LINEAR: "linear", P.Tiling.TWIDDLED: "twiddled",
           P.Tiling.TWIDDLED_COMPRESSED: "twiddled_compressed"}

T = P.TextureTarget
_SPATIAL_DIMS = {T.TEXTURE_1D: 1, T.TEXTURE_1D_ARRAY: 1, T.TEXTURE_2D: 2, T.TEXTURE_2D_ARRAY: 2,
                 T.TEXTURE_2D_MS: 2, T.TEXTURE_2D_MS_ARRAY: 2, T.TEXTURE_3D: 3, T.TEXTURE_CUBE: 2,
                 T.TEXTURE_CUBE_ARRAY: 2, T.TEXTURE_BUFFER: 1}
_ARRAYS = {T.TEXTURE_1D_ARRAY, T.TEXTURE_2D_ARRAY, T.TEXTURE_CUBE_ARRAY, T.TEXTURE_2D_MS_ARRAY}


class InvalidDescriptor(GPUFault):
    """A descriptor that describes no possible image: the texture unit refuses it
    with a fault of its own at the descriptor's address (0 until the reader that
    knows the address attaches it)."""

    def __init__(self, why: str, address: int = 0):
        super().__init__(malformed(UNIT, address, why).info)
        self.why = why


def format_by_id(fid: int) -> layout.Format:
    """layout.format_by_id, refused as an InvalidDescriptor."""
    try:
        return layout.format_by_id(fid)
    except ValueError as e:
        raise InvalidDescriptor(str(e)) from None


@dataclass(frozen=True, eq=False)
class TextureView:
    """A texture descriptor, decoded. Coordinates of the address tables are in
    elements (blocks for block-compressed formats)."""

    record: P.Record
    target: P.TextureTarget
    lay: layout.Layout
    fmt: layout.Format
    address: int
    srgb: bool                      # decode sRGB to linear when sampling
    swizzle: tuple[int, int, int, int]
    first_level: int
    last_level: int                 # clamped to the miptree's levels
    spatial_dims: int               # 1, 2 or 3 coordinates before the array layer
    is_array: bool
    is_cube: bool
    # Separable addressing in *columns*: the texel (x, y) of a level, layer z, sample s
    # is column x_col[x_base[l] + x] + y_col[y_base[l] + y] + z * layer_col + s * sample_col.
    # A column is (element offset / unit_B) * ppb + the pixel's index inside its block,
    # so every pixel of a block-compressed image has its own column too.
    unit_B: int                     # bytes per column unit: one block of one sample (1 if unaligned)
    ppb: int                        # pixels per block
    x_col: np.ndarray
    y_col: np.ndarray
    x_base: np.ndarray
    y_base: np.ndarray
    layer_col: int
    sample_col: int
    level_first_col: np.ndarray     # per level: first and one-past-last column (layer 0)
    level_end_col: np.ndarray
    width_px_l: np.ndarray          # per level sizes
    height_px_l: np.ndarray
    depth_px: np.ndarray            # per level: 3D slices minify, layers do not

    @property
    def levels(self) -> int:
        return self.lay.levels

    @property
    def layers(self) -> int:
        return self.lay.depth_px

    @property
    def aligned(self) -> bool:
        """Columns are whole blocks (false for 3/6/12-byte texels, addressed by byte)."""
        return self.unit_B == self.fmt.block_size_B

    def level_width_px(self, level):
        return self.width_px_l[level]

    def level_height_px(self, level):
        return self.height_px_l[level]


@dataclass(frozen=True)
class SamplerState:
    record: P.Record
    min_filter: P.Filter
    mag_filter: P.Filter
    mip_filter: P.MipFilter
    wraps: tuple[P.Wrap, P.Wrap, P.Wrap]
    compare_enable: bool
    compare_func: P.CompareFunc
    border_colour: P.BorderColour
    border_bits: tuple[int, int, int, int]
    seamless_cube: bool
    unnormalized: bool
    lod_min: float
    lod_max: float
    lod_bias: float
    max_anisotropy: int = 1     # samples along the footprint's major axis, at most (a power of two)
    reduction: P.Reduction = P.Reduction.WEIGHTED_AVERAGE    # or the texels' MIN / MAX


def _address_tables(lay: layout.Layout, fmt: layout.Format) -> dict:
    """Per-level column tables (see TextureView). The layout is separable: the offset
    of (x, y) is offset(x, 0) + offset(0, y) - offset(0, 0) (layout.addressing)."""
    bpb, bw, bh = fmt.block_size_B, fmt.block_width_px, fmt.block_height_px
    ppb = bw * bh
    offsets = list(lay.level_offsets_B) + [lay.miptree_end_B, lay.layer_stride_B, lay.linear_stride_B]
    aligned = all(o % bpb == 0 for o in offsets)
    unit_B = bpb if aligned else 1
    xs, ys, xb, yb = [], [], [], []
    nx = ny = 0
    for level in range(lay.levels):
        w, h = lay.level_width_px(level), lay.level_height_px(level)
        px, py = np.arange(w), np.arange(h)
        origin = int(layout.offset_B(lay, 0, 0, 0, level, check=False))
        x_B = layout.offset_B(lay, px // bw, 0, 0, level, check=False) - origin
        y_B = layout.offset_B(lay, 0, py // bh, 0, level, check=False)
        xs.append(x_B // unit_B * ppb + px % bw)
        ys.append(y_B // unit_B * ppb + (py % bh) * bw)
        xb.append(nx)
        yb.append(ny)
        nx, ny = nx + w, ny + h
    first = np.array([o // unit_B * ppb for o in lay.level_offsets_B], np.int64)
    ends = np.array([o // unit_B * ppb for o in list(lay.level_offsets_B[1:]) + [lay.miptree_end_B]], np.int64)
    return dict(unit_B=unit_B, ppb=ppb, x_col=np.concatenate(xs).astype(np.int64),
                y_col=np.concatenate(ys).astype(np.int64), x_base=np.array(xb, np.int64),
                y_base=np.array(yb, np.int64), layer_col=lay.layer_stride_B // unit_B * ppb,
                sample_col=bpb // unit_B * ppb, level_first_col=first, level_end_col=ends,
                width_px_l=np.array([lay.level_width_px(l) for l in range(lay.levels)], np.int64),
                height_px_l=np.array([lay.level_height_px(l) for l in range(lay.levels)], np.int64))


@lru_cache(maxsize=512)
def texture_view(raw: bytes) -> TextureView:
    """Decode a packed TEXTURE descriptor (bytes). Raises InvalidDescriptor."""
    rec = P.TEXTURE.unpack(raw)
    if not isinstance(rec.target, P.TextureTarget) or not isinstance(rec.tiling, P.Tiling):
        raise InvalidDescriptor(f"texture descriptor: {'; '.join(rec.problems)}")
    fmt = format_by_id(rec.format_id)
    target = rec.target
    linear = rec.tiling == P.Tiling.LINEAR
    try:
        lay = layout.make_miptree(
            rec.width_px, rec.height_px, rec.depth_px, rec.levels, fmt.name, rec.sample_count,
            _TILING[rec.tiling], mipmapped_z=target == T.TEXTURE_3D,
            linear_stride_B=rec.linear_stride_B if linear else 0)
    except ValueError as e:
        raise InvalidDescriptor(f"texture descriptor describes no image: {e}") from None
    if rec.layer_stride_B:
        lay = dataclasses.replace(lay, layer_stride_B=rec.layer_stride_B)
    swz = tuple(int(s) if isinstance(s, P.Swizzle) else int(P.Swizzle.ZERO)
                for s in (rec.swizzle_r, rec.swizzle_g, rec.swizzle_b, rec.swizzle_a))
    last = min(rec.last_level, lay.levels - 1)
    first = min(rec.first_level, last)
    depth = np.array([max(1, lay.depth_px >> l) if target == T.TEXTURE_3D else lay.depth_px
                      for l in range(lay.levels)], np.int64)
    return TextureView(rec, target, lay, fmt, rec.address,
                       bool(rec.srgb), swz, first, last, _SPATIAL_DIMS[target], target in _ARRAYS,
                       target in (T.TEXTURE_CUBE, T.TEXTURE_CUBE_ARRAY), **_address_tables(lay, fmt),
                       depth_px=depth)


@lru_cache(maxsize=512)
def sampler_state(raw: bytes) -> SamplerState:
    """Decode a packed SAMPLER, followed by its SAMPLER_BORDER when the border
    colour is CUSTOM (``raw`` then holds both)."""
    rec = P.SAMPLER.unpack(raw[:P.SAMPLER_DESC_B])
    border = P.SAMPLER_BORDER.unpack(raw[P.SAMPLER_DESC_B:]) if len(raw) >= P.SAMPLER_EXTENDED_DESC_B else None
    border_bits = (0, 0, 0, 0) if border is None else (border.border_0, border.border_1, border.border_2,
                                                      border.border_3)

    def enum_or(v, default):
        return v if not isinstance(v, int) or hasattr(v, "name") else default

    return SamplerState(
        rec, enum_or(rec.min_filter, P.Filter.NEAREST), enum_or(rec.mag_filter, P.Filter.NEAREST),
        enum_or(rec.mip_filter, P.MipFilter.NONE),
        tuple(enum_or(w, P.Wrap.CLAMP_TO_EDGE) for w in (rec.wrap_s, rec.wrap_t, rec.wrap_r)),
        rec.compare_enable, enum_or(rec.compare_func, P.CompareFunc.NEVER),
        enum_or(rec.border_colour, P.BorderColour.TRANSPARENT_BLACK),
        border_bits, rec.seamless_cube,
        rec.unnormalized_coords, float(rec.lod_min), float(rec.lod_max), float(rec.lod_bias),
        1 << int(rec.max_anisotropy_log2), enum_or(rec.reduction, P.Reduction.WEIGHTED_AVERAGE))


def read_texture(mem, va: int) -> TextureView:
    raw = bytes(np.asarray(mem.read(int(va), P.TEXTURE_DESC_B, UNIT), dtype=np.uint8))
    try:
        return texture_view(raw)
    except InvalidDescriptor as error:
        raise InvalidDescriptor(error.why, int(va)) from None


@lru_cache(maxsize=512)
def _custom_border(raw: bytes) -> bool:
    """Whether a packed SAMPLER's border colour is CUSTOM (its SAMPLER_BORDER follows)."""
    return P.SAMPLER.unpack(raw).border_colour == P.BorderColour.CUSTOM


def read_sampler(mem, va: int) -> SamplerState:
    raw = bytes(np.asarray(mem.read(int(va), P.SAMPLER_DESC_B, UNIT), dtype=np.uint8))
    if _custom_border(raw):
        raw += bytes(np.asarray(mem.read(int(va) + P.SAMPLER_DESC_B, P.SAMPLER_BORDER.size_B, UNIT), np.uint8))
    try:
        return sampler_state(raw)
    except InvalidDescriptor as error:
        raise InvalidDescriptor(error.why, int(va)) from None
