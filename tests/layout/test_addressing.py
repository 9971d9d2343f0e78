"""Addressing and tile/detile: literal offsets, and the fast vectorised code
compared with a clarity-first reference implementation written here."""

import numpy as np
import pytest

from layout import detile, make_miptree, morton_el, offset_B, tile


def reference_offset_B(lay, x, y, layer=0, level=0, sample=0):
    """One element's byte offset, the obvious way (one element at a time)."""
    bpp = lay.fmt.block_size_B
    if lay.tiling == "linear":
        return layer * lay.layer_stride_B + y * lay.linear_stride_B + x * bpp
    tile_w, tile_h = lay.tilesize_el[level]
    tiles_per_row = -(-lay.stride_el[level] // tile_w)
    tile_index = (y // tile_h) * tiles_per_row + (x // tile_w)
    # Morton order: take one bit of x, then one of y, from the lowest up, for as
    # long as each axis still has bits inside the tile.
    in_x, in_y = x % tile_w, y % tile_h
    element, out_bit = 0, 0
    for i in range(16):
        if (1 << i) < tile_w:
            element |= ((in_x >> i) & 1) << out_bit
            out_bit += 1
        if (1 << i) < tile_h:
            element |= ((in_y >> i) & 1) << out_bit
            out_bit += 1
    element += tile_index * tile_w * tile_h
    return (layer * lay.layer_stride_B + lay.level_offsets_B[level]
            + element * bpp * lay.sample_count_sa + sample * bpp)


def test_literal_twiddled_offsets_rgba8():
    lay = make_miptree(128, 128)  # one level, 64x64 tiles, 2 tiles per row
    pts = {(0, 0): 0, (1, 0): 4, (0, 1): 8, (2, 0): 16, (3, 3): 60, (64, 0): 0x4000,
           (0, 64): 0x8000, (65, 66): 0xC024, (63, 63): 0x3FFC}
    xs, ys = zip(*pts)
    assert offset_B(lay, np.array(xs), np.array(ys)).tolist() == list(pts.values())


def test_literal_offsets_rectangular_tile_puts_the_extra_x_bit_on_top():
    lay = make_miptree(256, 128, format="R8G8_UNORM")  # 128x64 tiles
    got = offset_B(lay, np.array([64, 0, 127, 128, 1]), np.array([0, 32, 63, 0, 1]))
    assert got.tolist() == [8192, 4096, 16382, 16384, 6]


def test_literal_offsets_level_layer_sample_and_linear():
    lay = make_miptree(1024, 1024, levels=2)
    assert int(offset_B(lay, 1, 1, level=5)) == 0x554000 + 3 * 4
    lay = make_miptree(64, 64, 3, levels=2)  # page-aligned layers of 0x8000
    assert int(offset_B(lay, 0, 0, layer=2, level=1)) == 2 * 0x8000 + 0x4000
    lay = make_miptree(64, 64, sample_count_sa=4)
    assert int(offset_B(lay, 1, 0, sample=2)) == 16 + 2 * 4
    lay = make_miptree(100, 10, 2, tiling="linear")
    assert int(offset_B(lay, 3, 2, layer=1)) == 0x1400 + 2 * 512 + 12
    lay = make_miptree(64, 64, format="ETC2_RGBA8")  # 16x16 blocks of 16 B, one 16x16 tile
    assert int(offset_B(lay, 1, 1)) == 3 * 16


def test_morton_el_literals():
    assert morton_el(np.arange(4), 0, 4, 4).tolist() == [0, 1, 4, 5]
    assert morton_el(0, np.arange(4), 4, 4).tolist() == [0, 2, 8, 10]
    assert morton_el(np.array([2, 3]), np.array([1, 1]), 4, 2).tolist() == [6, 7]


def test_offset_checks_bounds():
    lay = make_miptree(16, 8, levels=2)
    with pytest.raises(ValueError, match="outside the level"):
        offset_B(lay, 8, 0, level=1)
    with pytest.raises(ValueError, match="level out of range"):
        offset_B(lay, 0, 0, level=5)
    with pytest.raises(ValueError, match="layer out of range"):
        offset_B(lay, 0, 0, layer=1)
    with pytest.raises(ValueError, match="sample out of range"):
        offset_B(lay, 0, 0, sample=1)


CASES = [
    # (what, make_miptree kwargs): every tiling, every power-of-two element size
    # 1..64 B (MSAA makes 32 and 64), NPOT and POT sizes, arrays, 3D, block formats.
    dict(width_px=37, height_px=23, format="R8_UNORM", levels=2),
    dict(width_px=300, height_px=140, format="R8G8_UNORM", levels=2),
    dict(width_px=130, height_px=70, format="R8G8B8A8_UNORM", levels=2, depth_px=2),
    dict(width_px=129, height_px=65, format="R16G16B16A16_FLOAT", levels=2),
    dict(width_px=70, height_px=33, format="R32G32B32A32_FLOAT", levels=2),
    dict(width_px=40, height_px=24, format="R32G32B32A32_FLOAT", sample_count_sa=2),
    dict(width_px=40, height_px=24, format="R32G32B32A32_FLOAT", sample_count_sa=4),
    dict(width_px=33, height_px=17, format="R8G8B8A8_UNORM", sample_count_sa=4, depth_px=2),
    dict(width_px=20, height_px=12, depth_px=9, format="R32_FLOAT", levels=2, mipmapped_z=True),
    dict(width_px=100, height_px=52, format="ETC2_RGB8", levels=2),
    dict(width_px=260, height_px=132, format="ETC2_RGBA8", levels=2),
    dict(width_px=40, height_px=20, format="ASTC_5x4", levels=2),
    dict(width_px=30, height_px=7, format="R8G8B8A8_UNORM", tiling="linear", depth_px=2),
    dict(width_px=13, height_px=5, format="R8G8B8_UNORM", tiling="linear"),
    dict(width_px=9, height_px=4, format="R16_UNORM", tiling="linear", linear_stride_B=48),
    dict(width_px=70, height_px=40, format="R8G8B8A8_UNORM", tiling="twiddled_compressed", levels=2, depth_px=2),
    dict(width_px=24, height_px=20, format="R16G16B16A16_UNORM", tiling="twiddled_compressed", sample_count_sa=4),
]


def _ids(case):
    return "{width_px}x{height_px}-{format}".format(**case) + "-" + case.get("tiling", "twiddled") + \
        f"-{case.get('sample_count_sa', 1)}x"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_vectorised_offsets_match_the_reference(case):
    lay = make_miptree(**case)
    rng = np.random.default_rng(1)
    for level in range(lay.levels):
        w, h = lay.level_width_el(level), lay.level_height_el(level)
        layer = lay.depth_px - 1
        sample = lay.sample_count_sa - 1
        ys, xs = np.mgrid[0:h, 0:w]
        if xs.size > 400:  # a sample of the level keeps the reference loop quick
            pick = rng.choice(xs.size, 400, replace=False)
            xs, ys = xs.reshape(-1)[pick], ys.reshape(-1)[pick]
        fast = offset_B(lay, xs, ys, layer, level, sample)
        ref = [reference_offset_B(lay, int(x), int(y), layer, level, sample)
               for x, y in zip(xs.reshape(-1), ys.reshape(-1))]
        assert fast.reshape(-1).tolist() == ref, f"level {level}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_tile_detile_round_trip_every_level_and_layer(case):
    lay = make_miptree(**case)
    rng = np.random.default_rng(2)
    buf = np.zeros(lay.size_B, dtype=np.uint8)
    if lay.tiling == "twiddled_compressed":
        from layout import clear_metadata
        clear_metadata(lay, buf)
    images = {}
    for layer in range(lay.depth_px):
        for level in range(lay.levels):
            w_px, h_px = lay.level_width_px(level), lay.level_height_px(level)
            shape = (lay.level_height_el(level), lay.level_width_el(level), lay.blocksize_B)
            src = rng.integers(0, 256, shape, dtype=np.uint8)
            tile(lay, buf, src, level, layer, 0, 0, w_px, h_px)
            images[layer, level] = src
    # Nothing overlaps: every image reads back after all were written, and each
    # element sits where the reference address says.
    for (layer, level), src in images.items():
        w_px, h_px = lay.level_width_px(level), lay.level_height_px(level)
        assert np.array_equal(detile(lay, buf, level, layer, 0, 0, w_px, h_px), src)
        y, x = src.shape[0] - 1, src.shape[1] - 1
        at = reference_offset_B(lay, x, y, layer, level)
        assert buf[at:at + lay.blocksize_B].tolist() == src[y, x].tolist()


def test_sub_region_tile_only_touches_the_region():
    lay = make_miptree(100, 60, levels=2)
    rng = np.random.default_rng(3)
    buf = rng.integers(0, 256, lay.size_B, dtype=np.uint8)
    before = detile(lay, buf, 1, 0, 0, 0, 50, 30)
    patch = rng.integers(0, 256, (7, 11, 4), dtype=np.uint8)
    tile(lay, buf, patch, 1, 0, 13, 9, 11, 7)
    after = detile(lay, buf, 1, 0, 0, 0, 50, 30)
    expected = before.copy()
    expected[9:16, 13:24] = patch
    assert np.array_equal(after, expected)
    assert np.array_equal(detile(lay, buf, 1, 0, 13, 9, 11, 7), patch)


def test_tile_accepts_typed_host_arrays_and_bytearrays():
    lay = make_miptree(16, 16)
    buf = bytearray(lay.size_B)
    pixels = np.arange(256, dtype=np.uint32).reshape(16, 16)
    tile(lay, buf, pixels, 0, 0, 0, 0, 16, 16)
    out = detile(lay, bytes(buf), 0, 0, 0, 0, 16, 16)
    assert np.array_equal(out.view(np.uint32)[..., 0], pixels)
    assert int(np.frombuffer(buf, np.uint32)[2]) == 16  # element 2 is (0, 1)


def test_block_compressed_regions_are_in_blocks():
    lay = make_miptree(10, 10, format="ETC2_RGB8")  # 3x3 blocks
    buf = np.zeros(lay.size_B, np.uint8)
    blocks = np.arange(9 * 8, dtype=np.uint8).reshape(3, 3, 8)
    tile(lay, buf, blocks, 0, 0, 0, 0, 10, 10)  # the region may end at the edge
    assert np.array_equal(detile(lay, buf, 0, 0, 4, 4, 6, 6), blocks[1:, 1:])
    with pytest.raises(ValueError, match="aligned to 4x4 blocks"):
        detile(lay, buf, 0, 0, 2, 0, 4, 4)


def test_region_and_size_errors():
    lay = make_miptree(16, 16)
    buf = np.zeros(lay.size_B, np.uint8)
    with pytest.raises(ValueError, match="outside level"):
        detile(lay, buf, 0, 0, 10, 10, 8, 8)
    with pytest.raises(ValueError, match="the region needs"):
        tile(lay, buf, np.zeros((4, 4, 3), np.uint8), 0, 0, 0, 0, 4, 4)
    with pytest.raises(ValueError, match="too small"):
        detile(lay, buf[:100], 0, 0, 0, 0, 16, 16)
    with pytest.raises(ValueError, match="layer 1 out of range"):
        detile(lay, buf, 0, 1, 0, 0, 1, 1)


def test_offsets_with_per_element_levels_layers_and_samples():
    lay = make_miptree(37, 23, 3, levels=2, format="R16G16_UNORM")
    rng = np.random.default_rng(5)
    level = rng.integers(0, lay.levels, 500)
    xs = (rng.random(500) * np.array([lay.level_width_el(int(l)) for l in level])).astype(int)
    ys = (rng.random(500) * np.array([lay.level_height_el(int(l)) for l in level])).astype(int)
    layer = rng.integers(0, 3, 500)
    fast = offset_B(lay, xs, ys, layer, level)
    ref = [reference_offset_B(lay, int(x), int(y), int(z), int(l)) for x, y, z, l in zip(xs, ys, layer, level)]
    assert fast.tolist() == ref
    with pytest.raises(ValueError, match="outside the level"):
        offset_B(lay, np.array([0, 20]), np.array([0, 0]), 0, np.array([0, 1]))


def _check_random_layouts(count: int, max_px: int, seed: int) -> None:
    """Over random layouts: addressing never aliases two elements and never leaves
    the space make_miptree reserved for the level (padding tiles included)."""
    rng = np.random.default_rng(seed)
    formats = ["R8_UNORM", "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
               "R32G32B32A32_FLOAT", "ETC2_RGB8", "ETC2_RGBA8", "ASTC_6x6"]
    for _ in range(count):
        fmt = formats[rng.integers(len(formats))]
        w, h = (int(v) for v in rng.integers(1, max_px, 2))
        samples = 1 if fmt.startswith(("ETC", "ASTC")) else int(rng.choice([1, 1, 2, 4]))
        lay = make_miptree(w, h, 2, levels=1 if samples > 1 else 2, format=fmt, sample_count_sa=samples)
        for level in range(lay.levels):
            ys, xs = np.mgrid[0:lay.level_height_el(level), 0:lay.level_width_el(level)]
            offs = offset_B(lay, xs, ys, 1, level).reshape(-1)
            start = lay.layer_level_B(1, level)
            assert offs.min() >= start and offs.max() + lay.blocksize_B <= start + lay.level_size_B(level), \
                (fmt, w, h, samples, level)
            assert np.unique(offs).size == offs.size, (fmt, w, h, samples, level)


def test_every_element_has_its_own_bytes_inside_its_level():
    _check_random_layouts(count=25, max_px=300, seed=6)


@pytest.mark.slow
def test_every_element_has_its_own_bytes_inside_its_level_large():
    _check_random_layouts(count=120, max_px=1100, seed=7)
