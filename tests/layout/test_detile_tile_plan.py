"""detile's whole-tile fast path (reorder within tiles, then one transposing copy)
gives byte for byte what the general gather gives."""

import numpy as np
import pytest

import layout
from layout import addressing as A


def _general(lay, mem, level, layer, x, y, w, h):
    """detile with the tile plan turned off for this region."""
    region = A._region(lay, level, layer, *A._region_el(lay, level, x, y, w, h))
    region._tiles = {}
    plan = region.tile_plan
    region.tile_plan = lambda word_B: None
    try:
        return layout.detile(lay, mem, level, layer, x, y, w, h)
    finally:
        del region.tile_plan
        assert region.tile_plan == plan


@pytest.mark.parametrize("fmt", ["R8G8B8A8_UNORM", "R16G16B16A16_FLOAT", "R8_UNORM", "R32_FLOAT"])
@pytest.mark.parametrize("tiling", ["twiddled", "twiddled_compressed", "linear"])
def test_tile_plan_equals_general_gather(fmt, tiling):
    rng = np.random.default_rng(7)
    planned = 0
    for width, height in ((1024, 256), (256, 128), (100, 60), (64, 64)):
        try:
            lay = layout.make_miptree(width, height, 2, levels=3, format=fmt, tiling=tiling)
        except ValueError:
            continue
        mem = rng.integers(0, 256, lay.size_B, dtype=np.uint8)
        if tiling == "twiddled_compressed":
            layout.clear_metadata(lay, mem)
        for level in range(3):
            lw, lh = lay.level_width_px(level), lay.level_height_px(level)
            for x, y, w, h in ((0, 0, lw, lh), (0, 0, min(lw, 64), min(lh, 64)),
                               (1, 1, max(1, lw - 2), max(1, lh - 2)), (lw // 2, 0, lw - lw // 2, lh)):
                for layer in (0, 1):
                    A._REGIONS.clear()
                    fast = layout.detile(lay, mem, level, layer, x, y, w, h)
                    region = A._region(lay, level, layer, *A._region_el(lay, level, x, y, w, h))
                    planned += any(p is not None for p in region._tiles.values())
                    slow = _general(lay, mem, level, layer, x, y, w, h)
                    assert fast.shape == slow.shape and fast.dtype == slow.dtype
                    assert np.array_equal(fast, slow), (width, height, level, layer, x, y, w, h)
    if tiling != "linear" and fmt in ("R8G8B8A8_UNORM", "R32_FLOAT"):
        assert planned          # the fast path ran (whole-tile regions)
    A._REGIONS.clear()


def test_tile_plan_rejects_partial_tiles():
    lay = layout.make_miptree(256, 256, 1, levels=1, format="R8G8B8A8_UNORM", tiling="twiddled")
    A._REGIONS.clear()
    assert A._region(lay, 0, 0, 0, 0, 256, 256).tile_plan(4) is not None
    assert A._region(lay, 0, 0, 1, 0, 64, 64).tile_plan(4) is None
    assert A._region(lay, 0, 0, 0, 0, 32, 64).tile_plan(4) is None
    A._REGIONS.clear()


@pytest.mark.parametrize("fmt", ["R8_UNORM", "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT"])
def test_pairs_of_elements_and_unaligned_buffers_read_the_same(fmt):
    """Whole tiles of 1, 2, 4 and 8-byte elements move as horizontal pairs (one item
    of twice the size each); an image in a buffer not aligned for that (or for its own
    words) takes the other paths; all equal the general gather, also into ``out``."""
    rng = np.random.default_rng(11)
    lay = layout.make_miptree(256, 128, 1, levels=1, format=fmt, tiling="twiddled")
    mem = rng.integers(0, 256, lay.size_B, dtype=np.uint8)
    want = _general(lay, mem, 0, 0, 0, 0, 256, 128)
    assert np.array_equal(layout.detile(lay, mem, 0, 0, 0, 0, 256, 128), want)
    for shift in (1, 2, 4, 8):
        store = np.zeros(lay.size_B + 8, np.uint8)
        shifted = store[shift:shift + lay.size_B]
        shifted[:] = mem
        out = np.zeros(want.size + 1, np.uint8)[1:]
        assert np.array_equal(layout.detile(lay, shifted, 0, 0, 0, 0, 256, 128, out=out).reshape(-1),
                              want.reshape(-1)), shift


def test_many_small_regions_are_remembered_within_bounds():
    """Thousands of distinct one-pixel reads (piglit's probes) keep at most
    _REGIONS_MAX regions, each read still gives its pixel, and a region read again
    after the cache was emptied is computed afresh."""
    lay = layout.make_miptree(128, 128, 1, levels=1, format="R8G8B8A8_UNORM", tiling="twiddled")
    mem = np.random.default_rng(3).integers(0, 256, lay.size_B, dtype=np.uint8)
    whole = layout.detile(lay, mem, 0, 0, 0, 0, 128, 128)
    A._REGIONS.clear()
    for i in range(A._REGIONS_MAX + 100):
        x, y = i % 128, (i // 128) % 128
        assert np.array_equal(layout.detile(lay, mem, 0, 0, x, y, 1, 1)[0, 0], whole[y, x])
        assert len(A._REGIONS) <= A._REGIONS_MAX
    assert A._regions_el == sum(r.offsets.size for r in A._REGIONS.values())
    A._REGIONS.clear()
