"""Miptree layouts: ``make_miptree`` fills every derived field of a ``Layout``.

This is the equivalent of Mesa's ``ail_make_miptree``; the hardware's own layouts
(as Metal produces them, recorded with Mesa ail) are the ground truth.

Units: px = pixels, sa = samples, el = elements (format blocks; 1 x 1 pixels for
plain formats), tl = tiles, B = bytes.

Tilings:
- ``"linear"``: raster order with a row stride (``linear_stride_B``), no mipmaps, no
  MSAA, no block-compressed formats, no 3D images.
- ``"twiddled"``: power-of-two tiles in raster order, Morton order inside a tile.
  Large levels use one 16 KiB page per tile; small levels (the "POT" tail) use the
  smallest square tile holding the level's minor axis.
- ``"twiddled_compressed"``: the twiddled body, followed (after all layers) by the
  compression metadata: 8 bytes per 16 x 16-sample tile per compressed level.
"""

from __future__ import annotations

from dataclasses import dataclass

from .formats import Format, get_format

__all__ = ["Layout", "make_miptree", "TILINGS", "CACHELINE_B", "PAGE_B", "MAX_LEVELS",
           "max_tile_size_el", "effective_width_sa", "effective_height_sa", "can_compress"]

CACHELINE_B = 0x80
PAGE_B = 0x4000
MAX_LEVELS = 16
TILINGS = ("linear", "twiddled", "twiddled_compressed")

# Largest tile for a block size: width_el * height_el * blocksize_B == one page.
_MAX_TILE_EL = {1: (128, 128), 2: (128, 64), 4: (64, 64), 8: (64, 32),
                16: (32, 32), 32: (32, 16), 64: (16, 16)}


def max_tile_size_el(blocksize_B: int) -> tuple[int, int]:
    """The (width_el, height_el) of a tile filling one 16 KiB page."""
    try:
        return _MAX_TILE_EL[blocksize_B]
    except KeyError:
        raise ValueError(f"twiddled layouts need a power-of-two block size of 1-64 B "
                         f"(bytes per block x samples), not {blocksize_B} B") from None


def _minify(x: int, level: int) -> int:
    return max(1, x >> level)


def _npot(x: int) -> int:
    """The next power of two >= x (1 for x <= 1)."""
    return 1 if x <= 1 else 1 << (x - 1).bit_length()


def _align(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def _div_up(x: int, d: int) -> int:
    return (x + d - 1) // d


def effective_width_sa(width_px: int, sample_count_sa: int) -> int:
    """Width in samples as compression sees it: 4x MSAA stores 2 x 2 samples per pixel."""
    return width_px * (2 if sample_count_sa == 4 else 1)


def effective_height_sa(height_px: int, sample_count_sa: int) -> int:
    """Height in samples as compression sees it: 2x and 4x MSAA double the height."""
    return height_px * (2 if sample_count_sa >= 2 else 1)


def can_compress(format: str | Format, width_px: int, height_px: int, sample_count_sa: int = 1) -> bool:
    """Whether ``twiddled_compressed`` is possible: a plain (not block-compressed)
    format and at least 16 x 16 samples."""
    fmt = get_format(format)
    return (not fmt.is_compressed
            and effective_width_sa(width_px, sample_count_sa) >= 16
            and effective_height_sa(height_px, sample_count_sa) >= 16)


@dataclass(frozen=True)
class Layout:
    """An image layout. Per-level tuples have ``levels`` entries.

    ``level_offsets_B[l]`` is the offset of level ``l`` inside a layer and
    ``miptree_end_B`` the end of the last level, so a level's size is
    ``level_size_B(l)``. Layer ``z`` starts at ``z * layer_stride_B``. For
    ``twiddled_compressed`` the metadata of layer ``z``, level ``l`` starts at
    ``metadata_offset_B + z * compression_layer_stride_B + level_offsets_compressed_B[l]``
    for the first ``compressed_levels`` levels; later levels are plain twiddled.
    """

    width_px: int
    height_px: int
    depth_px: int
    levels: int
    format: str
    sample_count_sa: int
    tiling: str
    mipmapped_z: bool
    writeable_image: bool
    renderable: bool
    linear_stride_B: int
    layer_stride_B: int
    page_aligned_layers: bool
    level_offsets_B: tuple[int, ...]
    miptree_end_B: int
    tilesize_el: tuple[tuple[int, int], ...]
    stride_el: tuple[int, ...]
    metadata_offset_B: int
    level_offsets_compressed_B: tuple[int, ...]
    compression_layer_stride_B: int
    compressed_levels: int
    size_B: int

    @property
    def fmt(self) -> Format:
        return get_format(self.format)

    @property
    def bytes_per_block_B(self) -> int:
        """Bytes of one element of one sample."""
        return self.fmt.block_size_B

    @property
    def blocksize_B(self) -> int:
        """Bytes of one element with all its samples (samples are stored together)."""
        return self.fmt.block_size_B * self.sample_count_sa

    def layer_level_B(self, layer: int, level: int) -> int:
        """Offset of a level of a layer from the start of the image."""
        return layer * self.layer_stride_B + self.level_offsets_B[level]

    def level_size_B(self, level: int) -> int:
        end = self.level_offsets_B[level + 1] if level + 1 < self.levels else self.miptree_end_B
        return end - self.level_offsets_B[level]

    def level_width_px(self, level: int) -> int:
        return _minify(self.width_px, level)

    def level_height_px(self, level: int) -> int:
        return _minify(self.height_px, level)

    def level_width_el(self, level: int) -> int:
        return _div_up(_minify(self.width_px, level), self.fmt.block_width_px)

    def level_height_el(self, level: int) -> int:
        return _div_up(_minify(self.height_px, level), self.fmt.block_height_px)

    def is_level_compressed(self, level: int) -> bool:
        """True when the level has compression metadata (the first ``compressed_levels``)."""
        return level < self.compressed_levels

    def metadata_width_tl(self, level: int) -> int:
        """16 x 16-sample metadata tiles across the level (its true size)."""
        return _div_up(effective_width_sa(self.level_width_px(level), self.sample_count_sa), 16)

    def metadata_height_tl(self, level: int) -> int:
        return _div_up(effective_height_sa(self.level_height_px(level), self.sample_count_sa), 16)


def _check(cond: bool, rule: str) -> None:
    if not cond:
        raise ValueError(rule)


def make_miptree(width_px: int, height_px: int, depth_px: int = 1, levels: int = 1,
                 format: str | Format = "R8G8B8A8_UNORM", sample_count_sa: int = 1,
                 tiling: str = "twiddled", mipmapped_z: bool = False,
                 writeable_image: bool = False, renderable: bool = False,
                 linear_stride_B: int = 0) -> Layout:
    """Lay out an image: a pure function of its arguments, filling every derived field.

    ``depth_px`` is the number of layers: array layers, 6 per cube (times the
    number of cubes), or the slices of a 3D image (with ``mipmapped_z=True``, which
    only lengthens the mip chain: every layer holds a full 2D miptree). Any
    ``levels > 1`` allocates the full chain (the hardware's strides assume it), so
    the effective ``levels`` of the result may exceed the request.
    ``linear_stride_B=0`` means "the smallest stride, rounded up to a cache line".
    Impossible requests raise ValueError naming the rule.
    """
    fmt = get_format(format)
    _check(tiling in TILINGS, f"tiling must be one of {TILINGS}, not {tiling!r}")
    _check(min(width_px, height_px, depth_px) >= 1,
           f"dimensions must be at least 1 (got {width_px}x{height_px}x{depth_px})")
    _check(1 <= levels <= MAX_LEVELS, f"levels must be between 1 and {MAX_LEVELS}, not {levels}")
    _check(sample_count_sa in (1, 2, 4), f"sample count must be 1, 2 or 4, not {sample_count_sa}")
    _check(not (sample_count_sa > 1 and fmt.is_compressed),
           "multisampling and block-compressed formats are mutually exclusive")
    _check(not (sample_count_sa > 1 and levels > 1), "multisampled images cannot be mipmapped")
    _check(not (sample_count_sa > 1 and mipmapped_z), "3D images cannot be multisampled")
    _check(not (writeable_image and tiling == "twiddled_compressed"),
           "writeable images must not be compressed")
    if tiling == "linear":
        _check(levels == 1, "linear images cannot be mipmapped")
        _check(sample_count_sa == 1, "linear images cannot be multisampled")
        _check(not fmt.is_compressed, "linear images cannot use block-compressed formats")
        _check(not mipmapped_z, "3D images cannot be linear")
        _check(linear_stride_B >= 0, f"linear stride must not be negative ({linear_stride_B})")
        _check(linear_stride_B % 16 == 0,
               f"linear stride must be a multiple of 16 bytes (got {linear_stride_B})")
        min_stride_B = width_px * fmt.block_size_B
        _check(linear_stride_B == 0 or linear_stride_B >= min_stride_B,
               f"linear stride {linear_stride_B} B is smaller than a row ({min_stride_B} B)")
    else:
        _check(linear_stride_B == 0, "a linear stride is only allowed for linear images")
    if tiling == "twiddled_compressed":
        _check(not fmt.is_compressed, "block-compressed formats cannot use twiddled_compressed")
        _check(effective_width_sa(width_px, sample_count_sa) >= 16
               and effective_height_sa(height_px, sample_count_sa) >= 16,
               "compressed images need at least 16 x 16 samples (small images are never compressed)")

    # The hardware's strides assume the full chain, so always allocate all of it.
    if levels > 1:
        major_px = max(width_px, height_px, depth_px if mipmapped_z else 1)
        levels = major_px.bit_length()

    args = dict(width_px=width_px, height_px=height_px, depth_px=depth_px, levels=levels,
                format=fmt.name, sample_count_sa=sample_count_sa, tiling=tiling,
                mipmapped_z=mipmapped_z, writeable_image=writeable_image, renderable=renderable)
    if tiling == "linear":
        stride_B = linear_stride_B or _align(width_px * fmt.block_size_B, CACHELINE_B)
        layer_stride_B = _align(stride_B * height_px, CACHELINE_B)
        size_B = _align(layer_stride_B * depth_px, CACHELINE_B)
        return Layout(**args, linear_stride_B=stride_B, layer_stride_B=layer_stride_B,
                      page_aligned_layers=False, level_offsets_B=(0,),
                      miptree_end_B=layer_stride_B, tilesize_el=((1, 1),),
                      stride_el=(width_px,),  # elements per row; the byte stride is linear_stride_B
                      metadata_offset_B=0, level_offsets_compressed_B=(),
                      compression_layer_stride_B=0, compressed_levels=0, size_B=size_B)

    tw = _twiddled(fmt, width_px, height_px, depth_px, levels, sample_count_sa,
                   writeable_image, renderable)
    size_B = tw["layer_stride_B"] * depth_px
    metadata_offset_B, comp_offsets, comp_stride_B = 0, (), 0
    if tiling == "twiddled_compressed":
        metadata_offset_B = size_B
        comp_offsets, comp_stride_B = _compression(width_px, height_px, levels, sample_count_sa)
        size_B += comp_stride_B * depth_px
    return Layout(**args, linear_stride_B=0, metadata_offset_B=metadata_offset_B,
                  level_offsets_compressed_B=comp_offsets,
                  compression_layer_stride_B=comp_stride_B, compressed_levels=len(comp_offsets),
                  size_B=_align(size_B, CACHELINE_B), **tw)


def _twiddled(fmt: Format, width_px, height_px, depth_px, levels, sample_count_sa,
              writeable_image, renderable) -> dict:
    """The twiddled body: level offsets, tile sizes, strides, layer stride."""
    blocksize_B = fmt.block_size_B * sample_count_sa
    bw, bh = fmt.block_width_px, fmt.block_height_px
    w_el, h_el = _div_up(width_px, bw), _div_up(height_px, bh)
    tile_w, tile_h = max_tile_size_el(blocksize_B)
    stx_tl, sty_tl = _div_up(w_el, tile_w), _div_up(h_el, tile_h)
    sarea_tl = stx_tl * sty_tl

    # The first "small" level: where either axis is narrower than one large tile.
    # (Walked in pixels rounded to whole blocks, as the hardware does.)
    pot_level, pw_px, ph_px = 0, bw * w_el, bh * h_el
    while _div_up(pw_px, bw) >= tile_w and _div_up(ph_px, bh) >= tile_h:
        pw_px, ph_px, pot_level = _minify(pw_px, 1), _minify(ph_px, 1), pot_level + 1

    offsets, tilesizes, strides = [], [], []
    offset_B = 0
    # Large levels: level 0's tile count shifted right by 2l, plus a padding column,
    # row and corner wherever one of the first l halvings rounded down.
    for level in range(min(pot_level, levels)):
        tiles = sarea_tl >> (2 * level)
        pad_left = (stx_tl & ((1 << level) - 1)) != 0
        pad_bottom = (sty_tl & ((1 << level) - 1)) != 0
        tiles += (sty_tl >> level) * pad_left + (stx_tl >> level) * pad_bottom
        tiles += pad_left and pad_bottom
        offsets.append(offset_B)
        offset_B = _align(offset_B + blocksize_B * tiles * tile_w * tile_h, CACHELINE_B)
        stride = _div_up(_minify(width_px, level), bw)
        strides.append(stride + (1 if fmt.is_compressed and pad_left else 0))
        tilesizes.append((tile_w, tile_h))

    # The power-of-two tail. Block-compressed formats round up then minify.
    if fmt.is_compressed:
        potw_el, poth_el = _minify(_npot(w_el), pot_level), _minify(_npot(h_el), pot_level)
    else:
        potw_el, poth_el = _npot(_minify(w_el, pot_level)), _npot(_minify(h_el, pot_level))
    for level in range(pot_level, levels):
        offsets.append(offset_B)
        offset_B = _align(offset_B + blocksize_B * potw_el * poth_el, CACHELINE_B)
        # Square tiles sized by the true level size (POT-rounded for compressed formats).
        if fmt.is_compressed:
            t = _npot(min(potw_el, poth_el))
        else:
            t = _npot(_minify(min(w_el, h_el), level))
        tilesizes.append((t, t))
        strides.append(_div_up(_minify(width_px, level), bw))
        potw_el, poth_el = _minify(potw_el, 1), _minify(poth_el, 1)

    # Layers: page-aligned when mipmapped and bigger than a page (only for arrays,
    # except depth/stencil), always for writeable images and renderable arrays.
    pal = levels != 1 and offset_B > PAGE_B
    if depth_px == 1 and not fmt.is_depth_or_stencil:
        pal = False
    pal = pal or writeable_image or (renderable and depth_px > 1)
    layer_stride_B = _align(offset_B, PAGE_B) if pal else offset_B
    return dict(level_offsets_B=tuple(offsets), miptree_end_B=offset_B,
                tilesize_el=tuple(tilesizes), stride_el=tuple(strides),
                page_aligned_layers=pal, layer_stride_B=layer_stride_B)


def _compression(width_px, height_px, levels, sample_count_sa) -> tuple[tuple[int, ...], int]:
    """Metadata offsets per compressed level and the metadata layer stride.

    8 bytes per 16 x 16-sample tile; the metadata grid is fully twiddled, so each
    level reserves its power-of-two-rounded grid. A level is compressed while
    max(aligned width, aligned height) >> level is still at least 16 samples.
    """
    ws = _align(effective_width_sa(width_px, sample_count_sa), 16)
    hs = _align(effective_height_sa(height_px, sample_count_sa), 16)
    major_sa = max(ws, hs)
    offsets, comp_B = [], 0
    for level in range(levels):
        if _minify(major_sa, level) < 16:
            break
        offsets.append(comp_B)
        comp_B += _align(_div_up(_npot(ws), 16) * _div_up(_npot(hs), 16) * 8, CACHELINE_B)
        ws, hs = _div_up(ws, 2), _div_up(hs, 2)
    return tuple(offsets), comp_B
