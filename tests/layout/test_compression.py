"""Compression metadata of twiddled_compressed layouts: literal indices and modes,
and CPU reads/writes that honour plain and solid subtiles."""

import numpy as np
import pytest

from layout import (
    SUBTILE_SOLID,
    clear_metadata,
    detile,
    fast_clear,
    make_miptree,
    metadata_index,
    offset_B,
    resolve,
    set_tiles_uncompressed,
    subtile_uncompressed_mode,
    tile,
    tile_mode_uncompressed,
    tile_modes,
)


def test_uncompressed_modes_by_block_size():
    assert subtile_uncompressed_mode("R8_UNORM") == 0x1F
    assert subtile_uncompressed_mode("R8G8_UNORM") == 0x3F
    assert subtile_uncompressed_mode("R8G8B8A8_UNORM") == 0x7F
    assert subtile_uncompressed_mode("Z32_FLOAT") == 0x7F
    assert subtile_uncompressed_mode("R16G16B16A16_FLOAT") == 0xFF
    assert subtile_uncompressed_mode("R32G32B32A32_FLOAT") == 0xFF
    assert tile_mode_uncompressed("R8G8B8A8_UNORM") == 0x7F7F7F7F7F7F7F7F
    assert SUBTILE_SOLID == 0x03


def test_metadata_is_fully_twiddled():
    lay = make_miptree(64, 64, 6, levels=2, tiling="twiddled_compressed")  # 4x4 tiles at level 0
    base = lay.metadata_offset_B
    assert base == 0x30000
    got = metadata_index(lay, 0, np.array([0, 1, 0, 3, 2]), np.array([0, 0, 1, 3, 1]))
    assert got.tolist() == [base, base + 8, base + 16, base + 120, base + 8 * 6]
    assert int(metadata_index(lay, 1, 1, 1, layer=2)) == base + 2 * 0x180 + 0x80 + 3 * 8
    # A wide grid: the low bits interleave up to the minor dimension, the rest are linear.
    lay = make_miptree(128, 32, tiling="twiddled_compressed")  # 8x2 tiles
    base = lay.metadata_offset_B
    got = metadata_index(lay, 0, np.array([3, 4, 7]), np.array([1, 0, 1]))
    assert got.tolist() == [base + 7 * 8, base + 8 * 8, base + 15 * 8]
    lay = make_miptree(64, 16, tiling="twiddled_compressed")  # 4x1 tiles: plain row
    assert metadata_index(lay, 0, np.arange(4), 0).tolist() == [lay.metadata_offset_B + 8 * i for i in range(4)]


def test_metadata_fits_every_level_and_layer():
    rng = np.random.default_rng(8)
    random_cases = [(int(rng.integers(16, 900)), int(rng.integers(16, 900)), 1) for _ in range(30)]
    random_cases += [(int(rng.integers(16, 300)), int(rng.integers(8, 300)), int(rng.choice([2, 4])))
                     for _ in range(15)]
    for w, h, s in [(496, 496, 1), (100, 37, 1), (40, 24, 4), (300, 20, 2), (17, 600, 1)] + random_cases:
        lay = make_miptree(w, h, 3, levels=1 if s > 1 else 2, sample_count_sa=s, tiling="twiddled_compressed")
        for level in range(lay.compressed_levels):
            ty, tx = np.mgrid[0:lay.metadata_height_tl(level), 0:lay.metadata_width_tl(level)]
            offs = metadata_index(lay, level, tx, ty, 2)
            start = lay.metadata_offset_B + 2 * lay.compression_layer_stride_B + lay.level_offsets_compressed_B[level]
            end = start + (lay.level_offsets_compressed_B[level + 1] if level + 1 < lay.compressed_levels
                           else lay.compression_layer_stride_B) - lay.level_offsets_compressed_B[level]
            assert offs.min() >= start and offs.max() + 8 <= end
            assert len(np.unique(offs)) == offs.size


def test_clear_metadata_marks_everything_uncompressed():
    lay = make_miptree(64, 64, 2, levels=2, tiling="twiddled_compressed")
    buf = np.full(lay.size_B, 0xAA, np.uint8)
    clear_metadata(lay, buf)
    assert (buf[lay.metadata_offset_B:] == 0x7F).all()
    assert (buf[:lay.metadata_offset_B] == 0xAA).all()
    assert (tile_modes(lay, buf, 1, 1) == 0x7F).all() and tile_modes(lay, buf, 1, 1).shape == (2, 2, 8)


def test_fast_clear_then_read_write_and_resolve():
    lay = make_miptree(40, 24, levels=2, tiling="twiddled_compressed")  # 3x2 tiles at level 0
    buf = np.zeros(lay.size_B, np.uint8)
    clear_metadata(lay, buf)
    fast_clear(lay, buf, 0, 0, [1, 2, 3, 4])
    assert (tile_modes(lay, buf, 0) == SUBTILE_SOLID).all()
    # The hardware's solid colour lives at the start of each tile's body: 8 copies.
    start = int(offset_B(lay, 16, 16))
    assert buf[start:start + 32].tolist() == [1, 2, 3, 4] * 8
    assert int(offset_B(lay, 39, 23)) != start and buf[int(offset_B(lay, 39, 23))] == 0  # body untouched
    # Reads see the value everywhere, without changing the image.
    before = buf.copy()
    assert (detile(lay, buf, 0, 0, 0, 0, 40, 24).reshape(-1, 4) == [1, 2, 3, 4]).all()
    assert np.array_equal(buf, before)
    # A partial write keeps the clear value around it and leaves the level uncompressed.
    patch = np.full((3, 5, 4), 9, np.uint8)
    tile(lay, buf, patch, 0, 0, 30, 20, 5, 3)
    out = detile(lay, buf, 0, 0, 0, 0, 40, 24)
    assert (out[20:23, 30:35] == 9).all()
    assert (out[:20].reshape(-1, 4) == [1, 2, 3, 4]).all() and (out[23, 30] == [1, 2, 3, 4]).all()
    assert (tile_modes(lay, buf, 0) == 0x7F).all()
    # Other levels were never touched.
    assert (tile_modes(lay, buf, 1) == 0x7F).all()


def test_resolve_rewrites_solid_subtiles_as_plain_data():
    lay = make_miptree(32, 16, tiling="twiddled_compressed")
    buf = np.zeros(lay.size_B, np.uint8)
    clear_metadata(lay, buf)
    fast_clear(lay, buf, 0, 0, [5, 6, 7, 8])
    # Make one subtile (tile 1, subtile 5 = column 1, row 2) plain again: it reads the body.
    at = int(metadata_index(lay, 0, 1, 0))
    buf[at + 5] = 0x7F
    out = detile(lay, buf, 0, 0, 0, 0, 32, 16)
    assert (out[8:12, 24:32] == 0).all() and (out[8:12, 16:24].reshape(-1, 4) == [5, 6, 7, 8]).all()
    resolve(lay, buf, 0, 0)
    assert (tile_modes(lay, buf, 0) == 0x7F).all()
    assert np.array_equal(detile(lay, buf, 0, 0, 0, 0, 32, 16), out)


def test_msaa_fast_clear_covers_every_sample():
    lay = make_miptree(12, 10, format="R8G8_UNORM", sample_count_sa=4, tiling="twiddled_compressed")
    buf = np.zeros(lay.size_B, np.uint8)
    clear_metadata(lay, buf)
    assert tile_modes(lay, buf, 0).shape == (2, 2, 8)  # 24x20 samples
    fast_clear(lay, buf, 0, 0, [0xAB, 0xCD])  # one sample of R8G8
    out = detile(lay, buf, 0, 0, 0, 0, 12, 10)
    assert out.shape == (10, 12, 8)  # 4 samples of 2 bytes per pixel
    assert (out.reshape(-1, 2) == [0xAB, 0xCD]).all()


def test_errors():
    lay = make_miptree(32, 32, levels=2, tiling="twiddled_compressed")
    buf = np.zeros(lay.size_B, np.uint8)
    clear_metadata(lay, buf)
    buf[int(metadata_index(lay, 0, 1, 1)) + 2] = 0x42
    with pytest.raises(ValueError, match="unknown compression mode 0x42 at level 0, layer 0, tile \\(1, 1\\), subtile 2"):
        detile(lay, buf, 0, 0, 0, 0, 4, 4)
    with pytest.raises(ValueError, match="no compression metadata"):
        tile_modes(lay, buf, 3)
    with pytest.raises(ValueError, match="only for twiddled_compressed"):
        clear_metadata(make_miptree(32, 32), buf)
    with pytest.raises(ValueError, match="clear value"):
        fast_clear(lay, buf, 0, 0, [1, 2, 3])


def test_set_tiles_uncompressed_marks_only_the_region():
    lay = make_miptree(64, 64, tiling="twiddled_compressed")
    buf = np.zeros(lay.size_B, np.uint8)
    set_tiles_uncompressed(lay, buf, 0, 0, 20, 0, 10, 17)  # tiles x 1, y 0..1
    modes = tile_modes(lay, buf, 0)[..., 0]
    assert modes.tolist() == [[0, 0x7F, 0, 0], [0, 0x7F, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


@pytest.mark.parametrize("w, h, fmt, samples, levels", [
    (512, 512, "R8G8B8A8_UNORM", 1, 3), (1024, 768, "R8G8B8A8_UNORM", 1, 1), (64, 64, "R8G8B8A8_UNORM", 4, 1),
    (300, 200, "R32_FLOAT", 2, 1), (256, 256, "R16G16B16A16_FLOAT", 1, 4), (48, 32, "R8_UNORM", 1, 2)])
def test_fast_clear_by_ranges_writes_the_bytes_of_the_indexed_plan(w, h, fmt, samples, levels, monkeypatch):
    """The quick form of a fast clear (metadata words as one range, the copies as one
    strided view) leaves every byte as the indexed plan does, over random contents;
    and it is taken for the usual power-of-two single-sampled levels."""
    from layout import compression
    lay = make_miptree(w, h, format=fmt, sample_count_sa=samples, levels=levels, tiling="twiddled_compressed")
    rng = np.random.default_rng(w + h + levels)
    for level in range(min(lay.compressed_levels, levels)):
        quick = rng.integers(0, 256, lay.size_B, dtype=np.uint8)
        indexed = quick.copy()
        value = rng.integers(0, 256, lay.bytes_per_block_B, dtype=np.uint8)
        fast_clear(lay, quick, level, 0, value)
        with monkeypatch.context() as m:
            m.setattr(compression, "_fast_clear_views", lambda *a: None)
            fast_clear(lay, indexed, level, 0, value)
        assert np.array_equal(quick, indexed)
    if (w, h) == (512, 512):
        assert compression._fast_clear_views(lay, 0, 0) is not None
