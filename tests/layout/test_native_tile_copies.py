"""``layout.native``: the tile copies in C against numpy.

Each read is compared with every element read at its own address (``offset_B``,
the independent expectation) and with the numpy copy; each write with the numpy
write of the same bytes into a same buffer. Every element size the C instantiates
(1, 2, 4, 8, 16 bytes) and one it does not (32: the generic instance), MSAA
elements, levels, array layers, regions of whole tiles that do not start at the
origin, and regions the C cannot take (partial tiles: numpy must run). The C
kernels are built through ``uapi.native_kernels`` as the driver builds them."""

import numpy as np
import pytest

from layout import clear_metadata, detile, make_miptree, offset_B, tile
from layout import native as layout_native
from layout.addressing import _region
from uapi.native_kernels import Kernels

KERNELS = Kernels(layout_native.SOURCE, layout_native.CDEF)


@pytest.fixture(scope="module")
def native():
    if not KERNELS.usable():
        pytest.skip("no C compiler")
    return KERNELS


class _Refuses:
    """A native stand-in that fails when called: the region must go to numpy."""

    ffi = property(lambda self: pytest.fail("the C copy ran on a region it cannot take"))


def _reference(lay, buf, level, layer, x, y, w, h):
    ys, xs = np.mgrid[y:y + h, x:x + w]
    at = offset_B(lay, xs, ys, layer=layer, level=level)
    return buf[at[..., None] + np.arange(lay.blocksize_B)]


CASES = [  # format, samples, tiling, width, height, layers, levels
    ("R8_UNORM", 1, "twiddled", 256, 256, 1, 1),
    ("R8G8_UNORM", 1, "twiddled", 256, 128, 2, 2),
    ("R8G8B8A8_UNORM", 1, "twiddled_compressed", 512, 256, 1, 3),
    ("R8G8B8A8_UNORM", 4, "twiddled_compressed", 128, 128, 1, 1),
    ("R16G16B16A16_FLOAT", 1, "twiddled", 256, 256, 3, 2),
    ("R32G32B32A32_FLOAT", 1, "twiddled", 128, 256, 1, 2),
    ("R16G16B16A16_FLOAT", 4, "twiddled", 128, 128, 1, 1),       # 32-byte elements: the generic instance
]


def _image(fmt, samples, tiling, w, h, layers, levels, seed=0):
    lay = make_miptree(w, h, layers, levels=levels, format=fmt, sample_count_sa=samples, tiling=tiling)
    buf = np.random.default_rng(seed).integers(0, 256, lay.size_B, dtype=np.uint8)
    if tiling == "twiddled_compressed":
        clear_metadata(lay, buf)
    return lay, buf


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{c[2]}-{c[3]}x{c[4]}")
def test_whole_levels_read_as_each_element_at_its_address(native, case):
    lay, buf = _image(*case)
    ran_native = 0
    for level in range(lay.levels):
        w, h = lay.level_width_px(level), lay.level_height_px(level)
        for layer in range(lay.depth_px):
            want = _reference(lay, buf, level, layer, 0, 0, w, h)
            got = detile(lay, buf, level, layer, 0, 0, w, h, native=native)
            assert np.array_equal(got, want), (level, layer)
            out = np.zeros(want.size, np.uint8)
            detile(lay, buf, level, layer, 0, 0, w, h, out=out, native=native)
            assert np.array_equal(out.reshape(want.shape), want)
            ran_native += _region_takes_native(lay, level, layer, 0, 0, w, h)
    assert ran_native, "no level of the case took the C copy"


def _region_takes_native(lay, level, layer, x, y, w, h) -> bool:
    return _region(lay, level, layer, x, y, w, h).native_plan(lay.blocksize_B) is not None


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-{c[2]}-{c[3]}x{c[4]}")
def test_whole_level_writes_are_numpy_writes(native, case):
    lay, buf = _image(*case, seed=1)
    rng = np.random.default_rng(2)
    by_numpy, by_c = buf.copy(), buf.copy()
    for level in range(lay.levels):
        w, h = lay.level_width_px(level), lay.level_height_px(level)
        for layer in range(lay.depth_px):
            data = rng.integers(0, 256, (h, w, lay.blocksize_B), dtype=np.uint8)
            tile(lay, by_numpy, data, level, layer, 0, 0, w, h)
            tile(lay, by_c, data, level, layer, 0, 0, w, h, native=native)
            assert np.array_equal(_reference(lay, by_c, level, layer, 0, 0, w, h), data)
    assert np.array_equal(by_c, by_numpy)


def test_regions_of_whole_tiles_away_from_the_origin(native):
    lay, buf = _image("R8G8B8A8_UNORM", 1, "twiddled", 512, 512, 1, 1)   # 64 x 64 tiles
    for x, y, w, h in ((64, 128, 128, 64), (448, 0, 64, 512), (192, 320, 320, 192)):
        assert _region_takes_native(lay, 0, 0, x, y, w, h)
        assert np.array_equal(detile(lay, buf, 0, 0, x, y, w, h, native=native),
                              _reference(lay, buf, 0, 0, x, y, w, h))
        data = np.random.default_rng(x + y).integers(0, 256, (h, w, 4), dtype=np.uint8)
        a, b = buf.copy(), buf.copy()
        tile(lay, a, data, 0, 0, x, y, w, h)
        tile(lay, b, data, 0, 0, x, y, w, h, native=native)
        assert np.array_equal(a, b)


def test_partial_tiles_stay_on_numpy():
    lay, buf = _image("R8G8B8A8_UNORM", 1, "twiddled", 256, 256, 1, 1)
    for x, y, w, h in ((0, 0, 100, 64), (1, 0, 64, 64), (32, 32, 64, 64), (0, 0, 1, 1)):
        assert not _region_takes_native(lay, 0, 0, x, y, w, h)
        assert np.array_equal(detile(lay, buf, 0, 0, x, y, w, h, native=_Refuses()),
                              _reference(lay, buf, 0, 0, x, y, w, h))


def test_block_tables_of_the_twiddled_order():
    """The Morton 4x4 block: rows {0,1,4,5}, {2,3,6,7}, {8,9,12,13}, {10,11,14,15}."""
    from layout.addressing import morton_el
    ys, xs = np.mgrid[0:8, 0:16]
    order = morton_el(xs, ys, 16, 8)
    block_el, pair_el = layout_native.block_tables(order, 8, 16)
    assert pair_el.tolist() == [0, 4, 2, 6, 8, 12, 10, 14]
    assert block_el.reshape(2, 4).tolist() == [[0, 16, 64, 80], [32, 48, 96, 112]]
    # an order whose blocks are not of pairs, or not all alike, has no tables
    assert layout_native.block_tables(np.arange(64)[::-1].copy(), 8, 8) is None
    swapped = order.copy().reshape(8, 16)
    swapped[0, 0], swapped[0, 1] = swapped[0, 1], swapped[0, 0]
    assert layout_native.block_tables(swapped, 8, 16) is None
    assert layout_native.block_tables(np.arange(24), 4, 6) is None


@pytest.mark.parametrize("el_B", [1, 4, 16, 12])
def test_an_order_of_other_pairs_copies_by_its_tables(native, el_B):
    """A tile order that is not the twiddled one (the C's table-driven instance):
    blocks in raster order, each block's rows bottom-up, the pairs of a row swapped."""
    th, tw, ny, nx = 8, 12, 2, 3
    inner = np.array([[14, 15, 12, 13], [10, 11, 8, 9], [6, 7, 4, 5], [2, 3, 0, 1]])
    bys, bxs = np.mgrid[0:th // 4, 0:tw // 4]
    first = (bys * (tw // 4) + bxs) * 16
    order = (first[:, None, :, None] + inner[None, :, None, :]).reshape(th, tw)
    tables = layout_native.block_tables(order, th, tw)
    assert tables is not None and tables[1].tolist() == [14, 12, 10, 8, 6, 4, 2, 0]
    assert tables[0].tolist() == [0, 16, 32, 48, 64, 80]
    rng = np.random.default_rng(el_B)
    tiled = rng.integers(0, 256, ny * nx * th * tw * el_B, dtype=np.uint8)
    els = tiled.reshape(ny, nx, th * tw, el_B)
    want = els[:, :, order.reshape(-1)].reshape(ny, nx, th, tw, el_B).transpose(0, 2, 1, 3, 4)
    linear = np.zeros((ny * th, nx * tw, el_B), np.uint8)
    layout_native.copy_tiles(native, True, el_B, tiled, linear, (ny, nx, th, tw, nx), tables)
    assert np.array_equal(linear, want.reshape(linear.shape))
    back = np.zeros_like(tiled)
    layout_native.copy_tiles(native, False, el_B, back, linear, (ny, nx, th, tw, nx), tables)
    assert np.array_equal(back, tiled)
