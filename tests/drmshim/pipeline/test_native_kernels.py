"""The fragment pipeline's C kernels (drmshim/gpu/pipeline/native.py) give the
arrays of their numpy specification: ``_quads`` of picked single-sampled
fragments and each lane's tile record (-1 outside the region), with the lanes'
pixel centres when asked."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu.pipeline import native
from drmshim.gpu.pipeline.fragment import _quads

pytestmark = pytest.mark.skipif(not native.KERNELS.usable(), reason="no C compiler: the kernels cannot be built")


def _numpy(fx, fy, ftri, f, W, H, record_of, origin):
    """The kernel's results from numpy: _quads, the records (-1 outside), the records
    clamped at 0 and the pixel centres (float32 x + 0.5, y + 0.5)."""
    x, y, tri = fx[f], fy[f], ftri[f]
    s = np.zeros(len(f), np.int32)
    X, Y, TRI, SS, FF, helper, real = _quads(x, y, tri, s, f, 1, W, H)
    (x0, y0), (h, w) = origin, record_of.shape
    rec = record_of[np.clip(Y - y0, 0, h - 1), np.clip(X - x0, 0, w - 1)]
    rec = np.where((X >= x0) & (X < x0 + w) & (Y >= y0) & (Y < y0 + h), rec, -1)
    pos = np.stack([np.add(X, np.float32(0.5), dtype=np.float32), np.add(Y, np.float32(0.5), dtype=np.float32)])
    return X, Y, TRI, SS, FF, helper, real, rec, np.maximum(rec, 0), pos


def _same_arrays(got, want):
    assert len(got) == len(want)
    for g, w_ in zip(got, want):
        assert g.dtype == w_.dtype
        np.testing.assert_array_equal(g, w_)


#: the arrays the minimal form (``quad_lanes``) makes: TRI, helper, clamped, pos
MINIMAL = (2, 5, 8, 9)


def _same_minimal(got, want):
    """The minimal form's four arrays equal the full form's (from numpy), the others None."""
    assert len(got) == len(want)
    for k, (g, w_) in enumerate(zip(got, want)):
        if k in MINIMAL:
            assert g.dtype == w_.dtype
            np.testing.assert_array_equal(g, w_)
        else:
            assert g is None


@pytest.mark.parametrize("W, H, origin, region_h", [(97, 61, (0, 0), 61), (128, 96, (0, 32), 32)])
@pytest.mark.parametrize("order", ["raster", "shuffled"])
def test_quads_single_sample_equal_numpy(monkeypatch, W, H, origin, region_h, order):
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    rng = np.random.default_rng(40)
    # three overlapping triangles' worth of fragments: random pixel subsets, by triangle
    parts = []
    for t in range(3):
        keep = rng.random((H, W)) < 0.6
        ys, xs = np.nonzero(keep)
        parts.append((np.full(len(xs), t + 5, np.int32), xs.astype(np.int32), ys.astype(np.int32)))
    ftri, fx, fy = (np.concatenate(p) for p in zip(*parts))
    f = np.arange(len(fx), dtype=np.int64)
    if order == "shuffled":
        f = rng.permutation(f)[: len(f) // 2]          # a subset, in no particular order
    record_of = np.full((region_h, W), -1, np.int64)
    inside = rng.random(record_of.shape) < 0.9
    record_of[inside] = np.arange(int(inside.sum()))
    got = native.quads_single_sample(fx, fy, ftri, f, W, H, record_of, origin, centres=True)
    assert got is not None
    _same_arrays(got, _numpy(fx, fy, ftri, f, W, H, record_of, origin))
    assert native.quads_single_sample(fx, fy, ftri, f, W, H, record_of, origin)[9] is None   # not asked
    assert got[5].any() and not got[5].all()          # some helper lanes, some real
    assert (got[7] == -1).any()                         # some lanes outside the region
    want = _numpy(fx, fy, ftri, f, W, H, record_of, origin)
    _same_minimal(native.quads_single_sample(fx, fy, ftri, f, W, H, record_of, origin, centres=True, minimal=True),
                  want)
    # without centres the minimal form is not taken: the full arrays
    _same_arrays(native.quads_single_sample(fx, fy, ftri, f, W, H, record_of, origin, minimal=True)[:9], want[:9])


@pytest.mark.parametrize("tile, region", [(2, (64, 32)), (16, (64, 32)), (16, (48, 16))])
def test_quads_of_tile_major_records_equal_numpy(monkeypatch, tile, region):
    """Records of whole tiles in tile order (the kernel's arithmetic records, a whole
    quad's at once), fragments of three triangles in record order with repeats (a
    later fragment of a pixel replaces an earlier one, as numpy's); a region smaller
    than the frame leaves some fragments' lanes outside it."""
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    rng = np.random.default_rng(41)
    W, H = 64, 32
    parts = []
    for t in range(3):
        ys, xs = np.nonzero(rng.random((H, W)) < 0.5)
        parts.append((np.full(len(xs), t, np.int32), xs.astype(np.int32), ys.astype(np.int32)))
    ftri, fx, fy = (np.concatenate(p) for p in zip(*parts))
    RW, RH = region
    y, x = np.mgrid[0:RH, 0:RW]
    s = tile.bit_length() - 1
    record_of = ((((y >> s) * (RW >> s) + (x >> s)) << (2 * s)) + ((y & (tile - 1)) << s) + (x & (tile - 1)))
    record_of = record_of.astype(np.int64)
    record_of.flags.writeable = False                  # (a remembered pixel map: native._tile_major)
    assert native._tile_major(record_of, (0, 0)) == s
    f = np.argsort(np.where((fx < RW) & (fy < RH), fy * W + fx, 1 << 20), kind="stable").astype(np.int64)
    f = np.concatenate([f, rng.choice(f, 200)])        # repeats, out of order
    got = native.quads_single_sample(fx, fy, ftri, f, W, H, record_of, (0, 0), centres=True)
    assert got is not None
    want = _numpy(fx, fy, ftri, f, W, H, record_of, (0, 0))
    _same_arrays(got, want)
    assert got[5].any() and not got[5].all()
    _same_minimal(native.quads_single_sample(fx, fy, ftri, f, W, H, record_of, (0, 0), centres=True, minimal=True),
                  want)
    assert (want[7] == -1).any() == (region != (W, H))


def test_minimal_quads_of_far_pixels_take_the_full_form(monkeypatch):
    """Pixels 2^22 or more from 0 (where a helper lane's base pixel could not be read
    back exactly from a centre) make the minimal form give the full arrays, still equal
    to numpy's, including lanes outside the region."""
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    far = 1 << 22
    fx = np.array([far + 1, far + 2, far + 5, far + 6, far + 6], np.int32)     # (one quad row: keys close)
    fy = np.array([2, 3, 3, 2, 3], np.int32)
    ftri = np.zeros(5, np.int32)
    f = np.arange(5, dtype=np.int64)
    W, H = far + 8, 8
    for origin in ((0, 0), (far, 0)):       # every lane outside the region, or inside
        record_of = np.arange(64, dtype=np.int64).reshape(8, 8)
        got = native.quads_single_sample(fx, fy, ftri, f, W, H, record_of, origin, centres=True, minimal=True)
        assert got is not None and got[0] is not None          # the full form
        _same_arrays(got, _numpy(fx, fy, ftri, f, W, H, record_of, origin))


def test_quads_kernel_declines_sparse_keys(monkeypatch):
    """Keys spread far wider than their count take numpy's sort (None here)."""
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    fx = np.array([0, 1000], np.int32)
    fy = np.array([0, 1000], np.int32)
    tri = np.array([0, 1], np.int32)
    assert native.quads_single_sample(fx, fy, tri, np.arange(2, dtype=np.int64), 1024, 1024,
                                      np.zeros((1024, 1024), np.int64), (0, 0)) is None


@pytest.mark.parametrize("origin", [(0, 0), (0, 16), (8, 4)])
def test_records_at_equals_numpy(monkeypatch, origin):
    from drmshim.gpu.pipeline import fragment
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    rng = np.random.default_rng(41)
    record_of = rng.permutation(48 * 80).astype(np.int64).reshape(48, 80)
    record_of[rng.random(record_of.shape) < 0.2] = -1
    n = 5000
    x = (origin[0] + rng.integers(0, 80, n)).astype(np.int32)
    y = (origin[1] + rng.integers(0, 48, n)).astype(np.int32)
    got = native.records_at(record_of, x, y, origin)
    centres = np.full((2, n), np.nan, np.float32)
    np.testing.assert_array_equal(native.records_at(record_of, x, y, origin, centres=centres), got)
    _same_centres(centres, x, y)
    monkeypatch.setattr(native.KERNELS, "enabled", False)
    want = fragment.records_at(record_of, x, y, origin)
    assert got.dtype == want.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def _same_centres(centres, x, y):
    """The pixel centres as the fragment pipeline's numpy computes iter's positions."""
    for row, v in zip(centres, (x, y)):
        want = np.add(v, np.float32(0.5), dtype=np.float32)
        np.testing.assert_array_equal(row.view(np.uint32), want.view(np.uint32))


def test_centres_round_as_numpy(monkeypatch):
    """Coordinates past 2^24 round on conversion to float32 before the + 0.5 (the
    kernel must round the same way); wrong shapes or dtypes are declined."""
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    record_of = np.arange(64, dtype=np.int64).reshape(8, 8)
    x = np.array([0, 7, (1 << 24) + 1, (1 << 25) + 3, -((1 << 24) + 3)] * 4, np.int32)
    y = np.array([1, 2, 3, 4, 5] * 4, np.int32)
    centres = np.zeros((2, len(x)), np.float32)
    assert native.records_at(record_of, x, y, (0, 0), centres=centres) is not None
    _same_centres(centres, x, y)
    assert native.records_at(record_of, x, y, (0, 0), centres=np.zeros((2, len(x)), np.float64)) is None
    assert native.records_at(record_of, x, y, (0, 0), centres=np.zeros((len(x), 2), np.float32).T) is None


@pytest.mark.parametrize("tile", [8, 32])
def test_tile_major_records_equal_the_table(monkeypatch, tile):
    """A whole frame's remembered pixel map of whole tiles: records computed from
    (x, y) arithmetic equal the table's; a map of partial tiles uses the table."""
    from drmshim.gpu.pipeline import fragment
    from drmshim.gpu.pipeline.render import TiledVertexBuffer, _pixel_map
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    rng = np.random.default_rng(42)
    for W, H, arithmetic in ((4 * tile, 2 * tile, True), (4 * tile - 3, 2 * tile, False)):
        tvb = TiledVertexBuffer(W, H, 1, tile, False, True)
        tiles = np.arange(tvb.tiles_x * tvb.tiles_y, dtype=np.int64)
        _, _, record_of, _ = _pixel_map(tvb, tiles)
        assert (native._tile_major(record_of, (0, 0)) == tile.bit_length() - 1) == arithmetic
        x = rng.integers(0, W, 3000).astype(np.int32)
        y = rng.integers(0, H, 3000).astype(np.int32)
        got = native.records_at(record_of, x, y, (0, 0))
        np.testing.assert_array_equal(got, record_of[y, x])
        centres = np.full((2, len(x)), np.nan, np.float32)
        np.testing.assert_array_equal(native.records_at(record_of, x, y, (0, 0), centres=centres), got)
        _same_centres(centres, x, y)
        monkeypatch.setattr(native.KERNELS, "enabled", False)
        np.testing.assert_array_equal(fragment.records_at(record_of, x, y, (0, 0)), got)
        monkeypatch.setattr(native.KERNELS, "enabled", True)


def test_tile_memory_is_zeroed_when_reused():
    """A group's tile memory reuses the thread's previous buffer, zeroed again; a
    group bigger than the kept size gets its own."""
    from drmshim.gpu.pipeline import render
    first = render._tile_memory(1000, 8)
    first[:] = 0xAB
    again = render._tile_memory(600, 12)
    assert again.shape == (600, 12) and again.flags.c_contiguous
    assert np.shares_memory(first, again) and not again.any()
    big = render._tile_memory(render.TILE_MEMORY_KEPT_B // 4 + 1, 4)
    assert not np.shares_memory(first, big) and not big.any()


@pytest.mark.parametrize("tile, region, origin", [(0, (61, 37), (0, 0)), (0, (64, 32), (2, 32)),
                                                  (16, (64, 32), (0, 0)), (2, (48, 16), (0, 0))])
@pytest.mark.parametrize("kind", ["speckled", "halves"])
def test_hsr_quads_equal_the_owner_table_and_numpy_quads(monkeypatch, tile, region, origin, kind):
    """``hsr_quads``: each pixel's last fragment, then the minimal quads of those
    owners, as numpy's owner table by record and ``_quads`` give them (the quads
    compared in key order: the kernel walks 2 x 2 blocks); records of whole tiles in
    tile order or a table with holes; the count of real lanes. Fragments of three
    overlapping triangles, in order: random pixel subsets ("speckled": more quads
    than the kernel's first arrays hold, so it counts them and writes again), or two
    triangles splitting the region and a rectangle drawn over part of it ("halves":
    about one quad a block)."""
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    rng = np.random.default_rng(42)
    RW, RH = region
    x0, y0 = origin
    parts = []
    for t in range(3):
        if kind == "speckled":
            keep = rng.random((RH, RW)) < 0.5
        else:
            y, x = np.mgrid[0:RH, 0:RW]
            keep = [x * RH + y * RW < RW * RH, x * RH + y * RW >= RW * RH, (x > 5) & (x < 20) & (y > 2) & (y < 11)][t]
        ys, xs = np.nonzero(keep)
        parts.append((np.full(len(xs), 7 - t, np.int32), (xs + x0).astype(np.int32), (ys + y0).astype(np.int32)))
    ftri, fx, fy = (np.concatenate(p) for p in zip(*parts))
    if tile:
        y, x = np.mgrid[0:RH, 0:RW]
        s = tile.bit_length() - 1
        record_of = ((((y >> s) * (RW >> s) + (x >> s)) << (2 * s)) + ((y & (tile - 1)) << s)
                     + (x & (tile - 1))).astype(np.int64)
        record_of.flags.writeable = False
        assert native._tile_major(record_of, origin) == s
    else:
        record_of = np.full((RH, RW), -1, np.int64)
        inside = rng.random(record_of.shape) < 0.9
        record_of[inside] = rng.permutation(int(inside.sum()))
        keep = record_of[fy - y0, fx - x0] >= 0          # (the pass keeps fragments with a record)
        ftri, fx, fy = ftri[keep], fx[keep], fy[keep]
    # numpy: the owner table by record (the last fragment wins), the owners in record order
    rec = record_of[fy - y0, fx - x0]
    owner = np.full(record_of.max() + 1, -1, np.int64)
    owner[rec] = np.arange(len(fx))
    f = owner[owner >= 0]
    want = _numpy(fx, fy, ftri, f, RW + x0, RH + y0, record_of, origin)
    got = native.hsr_quads(fx, fy, ftri, record_of, origin)
    assert got is not None
    lanes, real = got
    assert real == len(f)
    for k in range(10):
        assert (lanes[k] is None) == (k not in MINIMAL)
    TRI, helper, clamped, pos = (lanes[k] for k in MINIMAL)
    assert len(TRI) == len(want[2])
    blocks = ((RW + 1) // 2) * ((RH + 1) // 2)
    assert (len(TRI) > 4 * (blocks + blocks // 4 + 16)) == (kind == "speckled")     # (both ways taken)
    # the kernel's quads in the numpy order: by (primitive, quad row, quad column)
    qx, qy = pos[0, ::4].astype(np.int64) // 2, pos[1, ::4].astype(np.int64) // 2
    order = np.lexsort((qx, qy, TRI[::4]))
    lane = (4 * order[:, None] + np.arange(4)).ravel()
    for g, w_ in ((TRI, want[2]), (helper, want[5]), (clamped, want[8]), (pos, want[9])):
        assert g.dtype == w_.dtype
        np.testing.assert_array_equal(g[..., lane], w_)
    assert helper.any() and not helper.all()


def test_hsr_quads_decline_fragments_outside_the_region_and_odd_origins(monkeypatch):
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    record_of = np.arange(64, dtype=np.int64).reshape(8, 8)
    fx, fy, ftri = np.array([1, 9], np.int32), np.array([1, 1], np.int32), np.zeros(2, np.int32)
    assert native.hsr_quads(fx, fy, ftri, record_of, (0, 0)) is None
    assert native.hsr_quads(fx[:1], fy[:1], ftri[:1], record_of, (0, 0)) is not None
    assert native.hsr_quads(fx[:1] + 1, fy[:1], ftri[:1], record_of, (1, 0)) is None
