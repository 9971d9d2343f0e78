"""make_miptree: every rule with literal expected values.

The values were worked out by hand from the layout rules of the hardware (as
recorded from Mesa ail); the 1024^2, 496^2-compressed and 32x16x64 cases are
figures recorded from ail itself.
"""

import pytest

from layout import PAGE_B, can_compress, make_miptree, max_tile_size_el


def test_max_tile_is_one_page_per_block_size():
    expected = {1: (128, 128), 2: (128, 64), 4: (64, 64), 8: (64, 32), 16: (32, 32), 32: (32, 16), 64: (16, 16)}
    for size_B, tile in expected.items():
        assert max_tile_size_el(size_B) == tile
        assert tile[0] * tile[1] * size_B == PAGE_B
    with pytest.raises(ValueError, match="power-of-two block size"):
        max_tile_size_el(3)


def test_pot_image_full_chain_1024_rgba8():
    lay = make_miptree(1024, 1024, levels=2)  # any levels > 1 means the full chain
    assert lay.levels == 11
    assert lay.level_offsets_B == (0x0, 0x400000, 0x500000, 0x540000, 0x550000, 0x554000,
                                   0x555000, 0x555400, 0x555500, 0x555580, 0x555600)
    assert lay.miptree_end_B == 0x555680
    assert lay.tilesize_el == ((64, 64),) * 5 + ((32, 32), (16, 16), (8, 8), (4, 4), (2, 2), (1, 1))
    assert lay.stride_el == (1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1)
    # A single-layer colour image is not rounded up to a page.
    assert lay.page_aligned_layers is False
    assert lay.layer_stride_B == 0x555680
    assert lay.size_B == 0x555680
    assert lay.level_size_B(0) == 0x400000 and lay.level_size_B(10) == 0x80


def test_levels_one_stays_one_and_any_more_is_the_full_chain():
    assert make_miptree(1024, 1024, levels=1).levels == 1
    assert make_miptree(1024, 1024, levels=4).levels == 11
    assert make_miptree(100, 70, levels=3).levels == 7
    assert make_miptree(1, 1, levels=2).levels == 1


def test_npot_large_levels_get_padding_column_row_and_corner():
    lay = make_miptree(300, 300, levels=2)  # 5x5 tiles of 64x64 at level 0
    assert lay.levels == 9
    # level 0: 25 tiles; level 1: 25>>2 = 6 + column 2 + row 2 + corner = 11 tiles;
    # level 2: 25>>4 = 1 + 1 + 1 + 1 = 4 tiles; then the POT tail from level 3 (64x64).
    assert lay.level_offsets_B == (0x0, 0x64000, 0x90000, 0xa0000, 0xa4000, 0xa5000,
                                   0xa5400, 0xa5500, 0xa5580)
    assert lay.miptree_end_B == 0xa5600
    assert lay.tilesize_el == ((64, 64),) * 4 + ((32, 32), (16, 16), (4, 4), (2, 2), (1, 1))
    assert lay.stride_el == (300, 150, 75, 37, 18, 9, 4, 2, 1)


def test_small_levels_use_the_true_level_size_for_tiles():
    lay = make_miptree(100, 70, levels=2)
    assert lay.level_offsets_B == (0x0, 0x10000, 0x14000, 0x15000, 0x15400, 0x15500, 0x15580)
    assert lay.size_B == 0x15600
    # level 3 is 12x8: the tile is npot(min(100, 70) >> 3) = 8, not the POT-rounded 16.
    assert lay.tilesize_el == ((64, 64), (64, 64), (32, 32), (8, 8), (4, 4), (2, 2), (1, 1))
    assert lay.stride_el == (100, 50, 25, 12, 6, 3, 1)


def test_reference_1846x760_level8_uses_2x2_tiles():
    lay = make_miptree(1846, 760, levels=2)
    assert lay.tilesize_el[8] == (2, 2)
    assert lay.tilesize_el[4] == (64, 64)
    assert lay.size_B == 0x776B80


def test_rectangular_tiles_for_2_byte_formats():
    lay = make_miptree(256, 128, format="R8G8_UNORM")
    assert lay.tilesize_el == ((128, 64),)
    assert lay.size_B == 4 * PAGE_B


def test_block_compressed_pot_and_npot():
    lay = make_miptree(64, 64, levels=2, format="ETC2_RGB8")  # 16x16 blocks of 8 B
    assert lay.level_offsets_B == (0x0, 0x800, 0xA00, 0xA80, 0xB00, 0xB80, 0xC00)
    assert lay.tilesize_el == ((16, 16), (8, 8), (4, 4), (2, 2), (1, 1), (1, 1), (1, 1))
    assert lay.stride_el == (16, 8, 4, 2, 1, 1, 1)
    assert lay.size_B == 0xC80
    lay = make_miptree(100, 100, levels=2, format="ETC2_RGB8")  # 25x25 blocks
    assert lay.level_offsets_B == (0x0, 0x2000, 0x2800, 0x2A00, 0x2A80, 0x2B00, 0x2B80)
    assert lay.tilesize_el == ((32, 32), (16, 16), (8, 8), (4, 4), (2, 2), (1, 1), (1, 1))
    assert lay.stride_el == (25, 13, 7, 3, 2, 1, 1)
    assert lay.size_B == 0x2C00


def test_block_compressed_rounds_then_minifies_and_pads_the_stride():
    lay = make_miptree(1028, 1028, levels=2, format="ETC2_RGB8")  # 257x257 blocks, 64x32 tiles
    assert lay.levels == 11
    # 5x9 tiles; level 1: 11 + 4 + 2 + 1 = 18 tiles; level 2: 2 + 2 + 1 + 1 = 6 tiles.
    assert lay.level_offsets_B[:5] == (0x0, 0xB4000, 0xFC000, 0x114000, 0x11C000)
    # POT tail from level 3: minify(npot(257), 3) = 64 (a plain format would get 32).
    assert lay.level_size_B(3) == 64 * 64 * 8
    assert lay.tilesize_el[:5] == ((64, 32), (64, 32), (64, 32), (64, 64), (32, 32))
    # Stride pads by one block where the level has a padding column.
    assert lay.stride_el[:5] == (257, 130, 66, 32, 16)


def test_msaa_stores_samples_together():
    lay = make_miptree(64, 64, sample_count_sa=4)
    assert lay.blocksize_B == 16 and lay.tilesize_el == ((32, 32),)
    assert lay.size_B == 0x10000
    lay = make_miptree(64, 64, sample_count_sa=2)
    assert lay.tilesize_el == ((64, 32),) and lay.size_B == 0x8000
    lay = make_miptree(64, 64, format="R32G32B32A32_FLOAT", sample_count_sa=4)
    assert lay.blocksize_B == 64 and lay.tilesize_el == ((16, 16),)


def test_3d_reserves_full_levels_per_layer():
    lay = make_miptree(32, 16, 64, levels=2, format="R32_FLOAT", mipmapped_z=True)
    assert lay.levels == 7 and lay.layer_stride_B == 0xC80 and lay.size_B == 64 * 0xC80
    lay = make_miptree(32, 16, 64, levels=2, format="R32_FLOAT")
    assert lay.levels == 6 and lay.layer_stride_B == 0xC00


def test_layer_page_alignment_rules():
    # Mipmapped arrays bigger than a page: page-aligned layers.
    lay = make_miptree(256, 256, 2, levels=2, format="R32_FLOAT")
    assert lay.page_aligned_layers and lay.layer_stride_B == 0x58000
    # The same single-layer colour image: not aligned.
    lay = make_miptree(256, 256, 1, levels=2, format="R32_FLOAT")
    assert not lay.page_aligned_layers and lay.layer_stride_B == 0x55680
    # Depth/stencil: aligned even with one layer.
    lay = make_miptree(256, 256, 1, levels=2, format="Z32_FLOAT")
    assert lay.page_aligned_layers and lay.layer_stride_B == 0x58000 and lay.size_B == 0x58000
    # Single-level arrays are only cache-line aligned.
    lay = make_miptree(10, 10, 3, format="R8_UNORM")
    assert lay.tilesize_el == ((16, 16),)
    assert not lay.page_aligned_layers and lay.layer_stride_B == 0x100 and lay.size_B == 0x300
    # Writeable images always; renderable only arrays.
    assert make_miptree(16, 16, writeable_image=True).layer_stride_B == PAGE_B
    assert make_miptree(16, 16, 2, renderable=True).size_B == 2 * PAGE_B
    assert make_miptree(16, 16, 1, renderable=True).size_B == 0x400
    assert make_miptree(16, 16, 2).size_B == 0x800
    assert make_miptree(1, 1, format="R8_UNORM").size_B == 0x80


def test_cube_map_is_six_layers():
    lay = make_miptree(64, 64, 6, levels=2)
    assert lay.levels == 7 and lay.page_aligned_layers
    assert lay.layer_stride_B == 0x8000 and lay.size_B == 6 * 0x8000


def test_linear_layouts():
    lay = make_miptree(100, 10, tiling="linear")
    assert lay.linear_stride_B == 512 and lay.layer_stride_B == 0x1400 and lay.size_B == 0x1400
    lay = make_miptree(100, 10, 3, tiling="linear", linear_stride_B=416)
    assert lay.linear_stride_B == 416 and lay.layer_stride_B == 0x1080 and lay.size_B == 0x3180
    lay = make_miptree(5, 1, format="R8G8B8_UNORM", tiling="linear")
    assert lay.linear_stride_B == 128


def test_compressed_layout_metadata_after_all_layers():
    lay = make_miptree(496, 496, levels=2, tiling="twiddled_compressed")
    assert lay.miptree_end_B == 0x155600 and lay.metadata_offset_B == 0x155600
    assert lay.compressed_levels == 5
    assert lay.level_offsets_compressed_B == (0x0, 0x2000, 0x2800, 0x2A00, 0x2A80)
    assert lay.compression_layer_stride_B == 0x2B00
    assert lay.size_B == 0x158100
    assert [lay.is_level_compressed(lv) for lv in range(lay.levels)] == [True] * 5 + [False] * 4
    lay = make_miptree(64, 64, 6, levels=2, tiling="twiddled_compressed")
    assert lay.metadata_offset_B == 6 * 0x8000
    assert lay.level_offsets_compressed_B == (0x0, 0x80, 0x100) and lay.compression_layer_stride_B == 0x180
    assert lay.size_B == 0x30000 + 6 * 0x180


def test_compressed_msaa_metadata_uses_sample_dimensions():
    lay = make_miptree(64, 64, sample_count_sa=4, tiling="twiddled_compressed")  # 128x128 samples
    assert lay.compression_layer_stride_B == 0x200 and lay.size_B == 0x10200
    lay = make_miptree(64, 64, sample_count_sa=2, tiling="twiddled_compressed")  # 64x128 samples
    assert lay.compression_layer_stride_B == 0x100 and lay.size_B == 0x8100
    lay = make_miptree(8, 8, sample_count_sa=4, tiling="twiddled_compressed")  # 16x16 samples
    assert lay.compressed_levels == 1


def test_can_compress():
    assert can_compress("R8G8B8A8_UNORM", 16, 16)
    assert not can_compress("R8G8B8A8_UNORM", 15, 64)
    assert can_compress("R8G8B8A8_UNORM", 8, 8, 4)
    assert not can_compress("R8G8B8A8_UNORM", 8, 8, 2)
    assert not can_compress("ETC2_RGB8", 64, 64)


@pytest.mark.parametrize("kwargs, rule", [
    (dict(width_px=0, height_px=4), "at least 1"),
    (dict(width_px=4, height_px=4, depth_px=0), "at least 1"),
    (dict(width_px=4, height_px=4, levels=0), "levels must be"),
    (dict(width_px=4, height_px=4, levels=17), "levels must be"),
    (dict(width_px=4, height_px=4, sample_count_sa=3), "sample count"),
    (dict(width_px=4, height_px=4, tiling="tiled"), "tiling must be"),
    (dict(width_px=4, height_px=4, levels=2, tiling="linear"), "linear images cannot be mipmapped"),
    (dict(width_px=4, height_px=4, sample_count_sa=2, tiling="linear"), "linear images cannot be multisampled"),
    (dict(width_px=4, height_px=4, format="ETC2_RGB8", tiling="linear"), "block-compressed"),
    (dict(width_px=4, height_px=4, depth_px=4, mipmapped_z=True, tiling="linear"), "3D images cannot be linear"),
    (dict(width_px=4, height_px=4, tiling="linear", linear_stride_B=24), "multiple of 16"),
    (dict(width_px=4, height_px=4, tiling="linear", linear_stride_B=-16), "negative"),
    (dict(width_px=100, height_px=4, tiling="linear", linear_stride_B=384), "smaller than a row"),
    (dict(width_px=4, height_px=4, linear_stride_B=64), "only allowed for linear"),
    (dict(width_px=64, height_px=64, writeable_image=True, tiling="twiddled_compressed"),
     "writeable images must not be compressed"),
    (dict(width_px=64, height_px=64, format="ETC2_RGB8", sample_count_sa=4), "mutually exclusive"),
    (dict(width_px=64, height_px=64, format="ETC2_RGB8", tiling="twiddled_compressed"), "block-compressed"),
    (dict(width_px=15, height_px=64, tiling="twiddled_compressed"), "16 x 16 samples"),
    (dict(width_px=64, height_px=64, format="R8G8B8_UNORM"), "power-of-two block size"),
    (dict(width_px=64, height_px=64, format="R32G32B32A32_FLOAT", sample_count_sa=4, levels=2), "mipmapped"),
    (dict(width_px=64, height_px=64, format="NOPE"), "unknown pixel format"),
])
def test_impossible_requests_raise_naming_the_rule(kwargs, rule):
    with pytest.raises(ValueError, match=rule):
        make_miptree(**kwargs)


def test_layout_is_frozen():
    lay = make_miptree(4, 4)
    with pytest.raises(AttributeError):
        lay.size_B = 0
