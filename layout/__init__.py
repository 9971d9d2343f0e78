"""layout: pixel formats and image layouts (the equivalent of Mesa's ail).

Owns the pixel-format table (bytes per block, channels, pack/unpack with numpy),
block-compressed formats and their decompression, miptree layouts (linear,
twiddled, twiddled+compressed), vectorised addressing and tile/detile copies.

Must never import anything of ours: it is a leaf used by both the driver and the
GPU model. See README.md.

- formats: ``FORMATS``, ``get_format(name) -> Format``
- pack: ``pack(format, rgba) -> bytes``, ``unpack(format, bytes) -> rgba``
- etc, bc, bptc, astc, fxt1: ``decompress(format, blocks) -> (nblocks, bh, bw, 4)`` for ETC1/ETC2/EAC,
  BC1-BC7, ASTC LDR and FXT1; ``compress(format, texels)`` for the formats the GL encodes (``ENCODABLE``)
- miptree: ``make_miptree(...) -> Layout``
- addressing: ``offset_B(lay, x, y, layer, level, sample)``
- regions: ``tile``, ``detile`` (region copies, honouring compression)
- compression: the metadata of ``twiddled_compressed`` layouts
"""

from .addressing import morton_el, offset_B
from .compression import (
    SUBTILE_SOLID,
    apply_fills,
    clear_metadata,
    fast_clear,
    fast_clear_fills,
    metadata_index,
    resolve,
    set_tiles_uncompressed,
    subtile_uncompressed_mode,
    tile_mode_uncompressed,
    tile_modes,
)
from .etc import ENCODABLE, compress, decompress, decompress_image
from .formats import FORMAT_NAMES, FORMATS, Channel, Format, format_by_id, format_id, get_format
from .miptree import (
    CACHELINE_B,
    MAX_LEVELS,
    PAGE_B,
    TILINGS,
    Layout,
    can_compress,
    make_miptree,
    max_tile_size_el,
)
from .pack import linear_to_srgb, pack, srgb_to_linear, unpack, unpack_dtype
from .regions import detile, tile

__all__ = [
    "FORMATS", "Channel", "Format", "get_format", "FORMAT_NAMES", "format_id", "format_by_id",
    "pack", "unpack", "unpack_dtype", "srgb_to_linear", "linear_to_srgb",
    "decompress", "decompress_image", "compress", "ENCODABLE",
    "Layout", "make_miptree", "can_compress", "max_tile_size_el",
    "TILINGS", "CACHELINE_B", "PAGE_B", "MAX_LEVELS",
    "offset_B", "tile", "detile", "morton_el",
    "SUBTILE_SOLID", "subtile_uncompressed_mode", "tile_mode_uncompressed",
    "metadata_index", "clear_metadata", "tile_modes", "set_tiles_uncompressed",
    "resolve", "fast_clear", "fast_clear_fills", "apply_fills",
]
