"""PBE fast paths against its general path: a whole-level overwrite (no read of
the old image), a read of the stored level only, metadata-only updates of a
compressed level and whole-word record reads give the same bytes as reading the
whole image, resolving it and scattering bytes."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu.pipeline.pbe import store_render_target

from .gpu import Space, Target


def _tile_major(W, H, T):
    ly, lx = np.divmod(np.arange(T * T), T)
    ty, tx = np.divmod(np.arange((W // T) * (H // T)), W // T)
    return (tx[:, None] * T + lx).ravel(), (ty[:, None] * T + ly).ravel()


@pytest.mark.parametrize("tiling", ["linear", "twiddled"])
@pytest.mark.parametrize("record_B, offset_B", [(4, 0), (12, 8), (6, 1)])
@pytest.mark.parametrize("cover", ["whole", "part"])
def test_fast_paths_store_the_same_bytes_as_the_general_path(tiling, record_B, offset_B, cover):
    W = H = 64
    rng = np.random.default_rng(record_B + offset_B)
    px, py = _tile_major(W, H, 16)
    if cover == "part":
        px, py = px[: len(px) // 3], py[: len(py) // 3]
    records = rng.integers(0, 256, (len(px), record_B), dtype=np.uint8)
    old = rng.integers(0, 256, 1 << 16, dtype=np.uint8)   # the image's old contents
    images = []
    for key in ("pixels", None):                # a named pixel set takes the fast paths
        sp = Space(1 << 20)
        target = Target(sp, W, H, tiling)
        sp.mem.write(target.va, old[:target.lay.size_B], "test")
        desc = sp.put(target.pbe)
        reads = []
        read = sp.mem.read
        sp.mem.read = lambda va, n, unit: (reads.append(n), read(va, n, unit))[1]
        store_render_target(sp.mem, desc, offset_B, records, px, py, 1, pixels_key=key and (key, tiling, cover))
        image_reads = [n for n in reads if n != len(target.pbe)]       # not the descriptor
        images.append(sp.get(target.va, target.lay.size_B))
        if key is not None and cover == "whole":
            assert image_reads == [], "a whole overwrite does not read the image"
    np.testing.assert_array_equal(images[0], images[1])
    pixels = target.pixels()
    np.testing.assert_array_equal(pixels[py, px], records[:, offset_B:offset_B + 4])


def _solid_metadata(lay, buf, rng):
    """Mark random subtiles of level 0 solid (their copies: whatever the body holds)."""
    import layout
    ty, tx = np.mgrid[0:lay.metadata_height_tl(0), 0:lay.metadata_width_tl(0)]
    words = layout.metadata_index(lay, 0, tx.ravel(), ty.ravel(), 0)
    solid = rng.random((words.size, 8)) < 0.5
    buf[(words[:, None] + np.arange(8))[solid]] = layout.SUBTILE_SOLID


@pytest.mark.parametrize("W, H", [(64, 64), (48, 40)])
@pytest.mark.parametrize("cover", ["whole", "part"])
@pytest.mark.parametrize("level", [0, 1])
def test_compressed_and_mipmapped_stores_match_the_general_path(W, H, cover, level):
    """twiddled_compressed with solid subtiles, mipmapped, levels with padding: the
    named-pixel-set path leaves the same bytes (body, metadata, other levels) as
    the general read-resolve-scatter-write path, and the stored pixels read back."""
    import layout
    from drmshim.gpu.texture.descriptors import format_id
    from uapi import packets as P
    rng = np.random.default_rng(W + H + level)
    lay = layout.make_miptree(W, H, levels=3, format="R8G8B8A8_UNORM", tiling="twiddled_compressed")
    lw, lh = lay.level_width_px(level), lay.level_height_px(level)
    y, x = np.mgrid[0:lh, 0:lw]
    order = rng.permutation(lw * lh)
    px, py = x.ravel()[order], y.ravel()[order]
    if cover == "part":
        px, py = px[: len(px) // 2], py[: len(py) // 2]
    records = rng.integers(0, 256, (len(px), 8), dtype=np.uint8)
    old = rng.integers(0, 256, lay.size_B, dtype=np.uint8)
    layout.clear_metadata(lay, old)
    _solid_metadata(lay, old, rng)
    images = []
    for key in ("pixels", None):
        sp = Space(1 << 20)
        va = sp.alloc(lay.size_B, 16384)
        sp.mem.write(va, old, "test")
        desc = sp.put(P.pack("PBE", tiling="TWIDDLED_COMPRESSED", format_id=format_id("R8G8B8A8_UNORM"),
                             width_px=W, height_px=H, levels=3, level=level, address=va))
        store_render_target(sp.mem, desc, 4, records, px, py, 1, pixels_key=key and (key, W, H, cover, level))
        images.append(sp.get(va, lay.size_B))
    np.testing.assert_array_equal(images[0], images[1])
    got = layout.detile(lay, images[0], level, 0, 0, 0, lw, lh).reshape(lh, lw, 4)
    np.testing.assert_array_equal(got[py, px], records[:, 4:8])


@pytest.mark.parametrize("tiling", ["linear", "twiddled", "twiddled_compressed"])
def test_multisampled_tile_memory_stores_sample_0_alike(tiling):
    """Tile memory with 4 samples per pixel into a single-sampled image: the
    whole-level gather and the general scatter store sample 0 of every pixel."""
    W = H = 32
    rng = np.random.default_rng(5)
    px, py = _tile_major(W, H, 16)
    records = rng.integers(0, 256, (len(px) * 4, 8), dtype=np.uint8)
    images = []
    for key in ("pixels", None):
        sp = Space(1 << 20)
        target = Target(sp, W, H, tiling)
        desc = sp.put(target.pbe)
        store_render_target(sp.mem, desc, 4, records, px, py, 4, pixels_key=key and (key, tiling, "ms"))
        images.append(sp.get(target.va, target.lay.size_B))
    np.testing.assert_array_equal(images[0], images[1])
    np.testing.assert_array_equal(target.pixels()[py, px], records.reshape(-1, 4, 8)[:, 0, 4:8])


@pytest.mark.parametrize("tiling", ["linear", "twiddled", "twiddled_compressed"])
@pytest.mark.parametrize("uniform", [True, False])
def test_uniform_records_store_like_the_general_path(tiling, uniform):
    """Records all holding one value (and all but one, which must not pass for
    uniform) store the same bytes through the named-pixel path and the general one."""
    W = H = 64
    px, py = _tile_major(W, H, 16)
    records = np.tile(np.array([[9, 8, 7, 6, 1, 2, 3, 4]], np.uint8), (len(px), 1))
    if not uniform:
        records[len(px) // 3, 5] = 99
    images = []
    for key in ("pixels", None):
        sp = Space(1 << 20)
        target = Target(sp, W, H, tiling)
        desc = sp.put(target.pbe)
        store_render_target(sp.mem, desc, 4, records, px, py, 1, pixels_key=key and (key, tiling, uniform))
        images.append(sp.get(target.va, target.lay.size_B))
    np.testing.assert_array_equal(images[0], images[1])
    np.testing.assert_array_equal(target.pixels()[py, px], records[:, 4:8])


@pytest.mark.parametrize("tiling", ["twiddled", "twiddled_compressed"])
def test_a_uniform_store_fast_clears_a_compressed_level_and_reads_as_the_fill(tiling):
    """A uniform store (a clear) of a whole compressed level writes the metadata
    (every subtile solid) and 8 copies a tile, nothing else of the body; the level
    reads (``layout.detile``, a fill from ``solid_value``; the general read: body
    then solid subtiles) as the value, as does the plain fill of an uncompressed
    one. A later partial store through the general path resolves it first."""
    import layout
    from drmshim.gpu.pipeline import pbe
    from layout.compression import fill_solid, solid_value
    W = H = 64
    px, py = _tile_major(W, H, 16)
    value = np.array([9, 8, 7, 6, 1, 2, 3, 4], np.uint8)            # the record; the target's bytes at 4
    sp = Space(1 << 20)
    target = Target(sp, W, H, tiling)
    old = np.full(W * H * 4, 0x55, np.uint8)                         # a body the clear must not need
    sp.mem.write(target.va, old, "test")
    desc = sp.put(target.pbe)
    key = ("clear", tiling)
    assert pbe.fill_possible(sp.mem, desc, 4, value, px, py, 1, key)
    store_render_target(sp.mem, desc, 4, None, px, py, 1, pixels_key=key, uniform=value)
    raw = sp.get(target.va, target.lay.size_B)
    want = np.tile(value[4:8], (H, W, 1))
    np.testing.assert_array_equal(target.pixels(), want)
    body = raw[:W * H * 4]
    if tiling == "twiddled_compressed":
        lay = target.lay
        assert (layout.tile_modes(lay, raw, 0) == layout.SUBTILE_SOLID).all()
        changed = np.count_nonzero((body.reshape(-1, 4) != 0x55).any(axis=1))
        assert changed == (W // 16) * (H // 16) * 8                  # 8 copies a tile, the rest untouched
        np.testing.assert_array_equal(solid_value(lay, raw, 0), value[4:8])
        general = layout.detile(lay, raw, 0, 0, 0, 0, W, H)           # what the general read makes of it
        fill_solid(lay, raw, 0, 0, 0, 0, general)
        np.testing.assert_array_equal(general.reshape(H, W, 4), want)
        part = np.arange(10)                                          # then a partial store: resolved first
        records = np.tile(np.array([[0, 0, 0, 0, 200, 201, 202, 203]], np.uint8), (len(part), 1))
        store_render_target(sp.mem, desc, 4, records, px[part], py[part], 1)
        want[py[part], px[part]] = [200, 201, 202, 203]
        np.testing.assert_array_equal(target.pixels(), want)
        assert solid_value(lay, sp.get(target.va, lay.size_B), 0) is None
    else:
        np.testing.assert_array_equal(body.reshape(-1, 4), np.tile(value[4:8], (W * H, 1)))


@pytest.mark.parametrize("tiling", ["linear", "twiddled", "twiddled_compressed"])
@pytest.mark.parametrize("fmt, record_B, offset_B", [("R8G8B8A8_UNORM", 4, 0), ("R8G8B8A8_UNORM", 12, 8),
                                                     ("R16G16B16A16_FLOAT", 8, 0), ("R8_UNORM", 4, 3)])
@pytest.mark.parametrize("order", ["tile_major", "random"])
def test_a_level_gathered_in_blocks_is_numpys_take(tiling, fmt, record_B, offset_B, order, monkeypatch):
    """A whole level stored from records in 32 x 32 tiles (tile memory's order)
    goes through the C gather 16 words at a time (``native.gather_blocks``) when
    the C kernel is there; pixels in a random order take numpy's gather. Both give
    the bytes of ``take`` (GATHER_BLOCKS off), for 1-, 4- and 8-byte words read
    from records wider than the word, at an offset."""
    import layout
    from drmshim.gpu.pipeline import native, pbe
    from drmshim.gpu.texture.descriptors import format_id
    from uapi import packets as P
    W, H = 128, 64
    rng = np.random.default_rng(record_B + offset_B)
    px, py = _tile_major(W, H, 32)
    if order == "random":
        perm = rng.permutation(len(px))
        px, py = px[perm], py[perm]
    records = rng.integers(0, 256, (len(px), record_B), dtype=np.uint8)
    lay = layout.make_miptree(W, H, levels=1, format=fmt, tiling=tiling)
    taken = []
    gather = native.gather_blocks
    monkeypatch.setattr(pbe, "gather_blocks", lambda *a: (taken.append(1), gather(*a))[1])
    images = []
    for blocks in (True, False):
        monkeypatch.setattr(pbe, "GATHER_BLOCKS", blocks)
        sp = Space(1 << 20)
        va = sp.alloc(lay.size_B, 16384)
        desc = sp.put(P.pack("PBE", tiling=tiling.upper(), format_id=format_id(fmt), width_px=W, height_px=H,
                             levels=1, level=0, address=va))
        store_render_target(sp.mem, desc, offset_B, records, px, py, 1,
                            pixels_key=("blocks", blocks, tiling, fmt, record_B, order))
        images.append(sp.get(va, lay.size_B))
    np.testing.assert_array_equal(images[0], images[1])
    bpp = lay.bytes_per_block_B
    got = layout.detile(lay, images[0], 0, 0, 0, 0, W, H).reshape(H, W, bpp)
    np.testing.assert_array_equal(got[py, px], records[:, offset_B:offset_B + bpp])
    if native.KERNELS.usable():
        assert bool(taken) == (order == "tile_major")
