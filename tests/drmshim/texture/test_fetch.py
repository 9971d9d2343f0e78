"""texelFetch, size/levels queries, descriptors, read strategies, faults."""

from __future__ import annotations

import numpy as np
import pytest

import layout
from drmshim.gpu import texture as tex
from drmshim.memory import GPUFault
from tests.drmshim.texture.texenv import DESC_VA, IMAGE_VA, mip_chain, new_memory, put_texture
from uapi import packets as P


@pytest.mark.parametrize("tiling", ["linear", "twiddled", "twiddled_compressed"])
def test_load_returns_every_texel_written(tiling):
    rng = np.random.default_rng(1)
    mem = new_memory()
    data = [rng.integers(0, 256, (1, 37, 45, 4), dtype=np.uint8)]
    put_texture(mem, data, tiling=tiling, pack_values=False)
    y, x = np.mgrid[0:37, 0:45]
    got = tex.load(mem, DESC_VA, np.stack([x.ravel(), y.ravel()], 1), 0)
    assert got.dtype == np.float32 and got.shape == (45 * 37, 4)
    np.testing.assert_array_equal(got, data[0][0].reshape(-1, 4) / np.float32(255))


def test_load_all_levels_and_layers_of_an_array():
    rng = np.random.default_rng(2)
    mem = new_memory()
    chain = mip_chain(rng, 32, 16, layers=3)
    put_texture(mem, chain, target="TEXTURE_2D_ARRAY", pack_values=False)
    for level, data in enumerate(chain):
        z, y, x = np.mgrid[0:3, 0:data.shape[1], 0:data.shape[2]]
        got = tex.load(mem, DESC_VA, np.stack([x.ravel(), y.ravel(), z.ravel()], 1), np.full(x.size, level))
        np.testing.assert_array_equal(got, data.reshape(-1, 4) / np.float32(255), err_msg=f"level {level}")


def test_load_out_of_range_reads_zero():
    mem = new_memory()
    put_texture(mem, [np.full((1, 4, 4, 4), 200, np.uint8)], pack_values=False)
    coords = np.array([[0, 0], [4, 0], [0, -1], [3, 3], [1, 1]])
    got = tex.load(mem, DESC_VA, coords, np.array([0, 0, 0, 0, 5]))
    assert got[:, 0].tolist() == pytest.approx([200 / 255, 0, 0, 200 / 255, 0])


@pytest.mark.parametrize("fmt, values, dtype", [
    ("R32G32B32A32_UINT", [[1, 2**32 - 1, 7, 9]], np.uint32),
    ("R16G16_SINT", [[-5, 300, 0, 1]], np.int32),
    ("R32_FLOAT", [[-1.5, 0, 0, 1]], np.float32),
    ("R16G16B16A16_FLOAT", [[0.5, -2, 65504, 1]], np.float32),
    ("B5G6R5_UNORM", [[1, 0, 1, 1]], np.float32),
    ("R8G8B8_UNORM", [[1, 0, 1, 1]], np.float32),
])
def test_load_formats_type_and_value(fmt, values, dtype):
    mem = new_memory()
    data = np.broadcast_to(np.array(values, dtype), (1, 3, 5, 4))
    put_texture(mem, [data], fmt=fmt, tiling="linear" if fmt == "R8G8B8_UNORM" else "twiddled")
    got = tex.load(mem, DESC_VA, np.array([[4, 2], [0, 0]]), 0)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got[0], np.array(values[0], dtype))


def test_size_levels_samples_queries():
    rng = np.random.default_rng(3)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 40, 24, layers=6), target="TEXTURE_CUBE_ARRAY", first_level=1, last_level=3,
                pack_values=False, width=40, height=24)
    assert tex.size(mem, DESC_VA, np.array([0, 1, 2])).tolist() == [[20, 12, 1], [10, 6, 1], [5, 3, 1]]
    assert tex.levels(mem, DESC_VA).tolist() == [3]
    assert tex.samples(mem, DESC_VA).tolist() == [1]
    put_texture(mem, mip_chain(rng, 8, 8, layers=4, depth_3d=True), target="TEXTURE_3D", pack_values=False)
    assert tex.size(mem, DESC_VA, np.array([0, 1, 3])).tolist() == [[8, 8, 4], [4, 4, 2], [1, 1, 1]]
    put_texture(mem, [np.zeros((5, 1, 9, 4), np.uint8)], target="TEXTURE_1D_ARRAY", pack_values=False)
    assert tex.size(mem, DESC_VA, 0).tolist() == [[9, 5, 0]]


def test_range_and_gather_reads_agree():
    from drmshim.gpu.texture.sampling import load_view
    rng = np.random.default_rng(4)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 64, 64), pack_values=False)
    view = tex.read_texture(mem, DESC_VA)
    coords = rng.integers(0, 8, (500, 2))
    lod = rng.integers(0, 4, 500)
    a = load_view(mem, view, coords, lod, strategy="range")
    b = load_view(mem, view, coords, lod, strategy="gather")
    np.testing.assert_array_equal(a, b)


def test_per_lane_descriptors_pick_their_own_texture():
    mem = new_memory()
    put_texture(mem, [np.full((1, 2, 2, 4), 10, np.uint8)], pack_values=False)
    put_texture(mem, [np.full((1, 2, 2, 4), 99, np.uint8)], va=IMAGE_VA + 0x10000, desc_va=DESC_VA + 0x40,
                pack_values=False)
    va = np.array([DESC_VA, DESC_VA + 0x40, DESC_VA + 0x40, DESC_VA], np.uint64)
    got = tex.load(mem, va, np.zeros((4, 2), np.int64), 0)
    assert np.round(got[:, 0] * 255).tolist() == [10, 99, 99, 10]


def test_etc2_texture_decodes_through_layout():
    rng = np.random.default_rng(5)
    mem = new_memory()
    blocks = rng.integers(0, 256, (1, 2, 3, 8), dtype=np.uint8)  # 12 x 8 pixels of 4x4 blocks
    put_texture(mem, [blocks], fmt="ETC2_RGB8", pack_values=False, width=12, height=8)
    y, x = np.mgrid[0:8, 0:12]
    got = tex.load(mem, DESC_VA, np.stack([x.ravel(), y.ravel()], 1), 0)
    expect = layout.decompress("ETC2_RGB8", blocks.reshape(-1, 8))  # [block, y, x, c]
    expect = expect.reshape(2, 3, 4, 4, 4).transpose(0, 2, 1, 3, 4).reshape(8, 12, 4)
    np.testing.assert_allclose(got, expect.reshape(-1, 4))


def test_solid_subtiles_of_compressed_images_read_the_clear_value():
    mem = new_memory()
    lay = put_texture(mem, [np.zeros((1, 32, 32, 4), np.uint8)], tiling="twiddled_compressed", pack_values=False)
    buf = np.asarray(mem.read(IMAGE_VA, lay.size_B, "TEST"))
    layout.fast_clear(lay, buf, 0, 0, np.array([10, 20, 30, 40], np.uint8))
    mem.write(IMAGE_VA, buf, "TEST")
    y, x = np.mgrid[0:32, 0:32]
    got = tex.load(mem, DESC_VA, np.stack([x.ravel(), y.ravel()], 1), 0)
    np.testing.assert_array_equal(np.round(got * 255), np.tile([10, 20, 30, 40], (1024, 1)))


def test_faults_name_the_texture_unit():
    mem = new_memory()
    with pytest.raises(GPUFault) as e:
        tex.load(mem, 0x10, np.zeros((1, 2), np.int64), 0)
    assert e.value.info.unit == "TEX"
    put_texture(mem, [np.zeros((1, 4, 4, 4), np.uint8)], pack_values=False)
    mem.write(DESC_VA, P.pack(P.TEXTURE, format_id=tex.format_id("R8G8B8A8_UNORM"), width_px=4, height_px=4,
                              tiling="LINEAR", linear_stride_B=16, address=0x9_0000_0000), "TEST")
    with pytest.raises(GPUFault) as e:
        tex.load(mem, DESC_VA, np.zeros((1, 2), np.int64), 0)
    assert e.value.info.unit == "TEX" and e.value.info.address >= 0x9_0000_0000


def test_invalid_descriptor_is_refused():
    mem = new_memory()
    mem.write(DESC_VA, P.pack(P.TEXTURE, format_id=1000), "TEST")
    with pytest.raises(tex.InvalidDescriptor) as info:
        tex.load(mem, DESC_VA, np.zeros((1, 2), np.int64), 0)
    # the texture unit's fault at the descriptor, as the firmware reports it
    assert isinstance(info.value, GPUFault)
    assert (info.value.info.unit, info.value.info.address) == ("TEX", DESC_VA) and info.value.info.reason


def test_multisampled_load_picks_the_sample():
    rng = np.random.default_rng(6)
    mem = new_memory()
    raw = rng.integers(0, 256, (1, 4, 8, 4 * 4), dtype=np.uint8)  # 4 samples of RGBA8 per pixel
    put_texture(mem, [raw], target="TEXTURE_2D_MS", samples=4, pack_values=False)
    y, x, s = np.mgrid[0:4, 0:8, 0:4]
    got = tex.load(mem, DESC_VA, np.stack([x.ravel(), y.ravel()], 1), 0, sample=s.ravel())
    expect = raw.reshape(4, 8, 4, 4)[y.ravel(), x.ravel(), s.ravel()] / np.float32(255)
    np.testing.assert_array_equal(got, expect)
    assert tex.samples(mem, DESC_VA).tolist() == [4]
    assert tex.load(mem, DESC_VA, np.array([[0, 0]]), 0, sample=np.array([4])).tolist() == [[0, 0, 0, 0]]
    with pytest.raises(ValueError, match="multisampled"):
        tex.sample(mem, DESC_VA, DESC_VA, np.zeros((1, 2), np.float32), lod=np.zeros(1))


def test_view_levels_offset_load_and_size():
    rng = np.random.default_rng(7)
    mem = new_memory()
    chain = mip_chain(rng, 16, 16)
    put_texture(mem, chain, first_level=2, last_level=3, pack_values=False)
    got = tex.load(mem, DESC_VA, np.array([[1, 2], [0, 0], [0, 0]]), np.array([0, 1, 2]))
    np.testing.assert_array_equal(got[:2], [chain[2][0, 2, 1] / np.float32(255), chain[3][0, 0, 0] / np.float32(255)])
    assert got[2].tolist() == [0, 0, 0, 0]  # lod 2 is past last_level
    assert tex.size(mem, DESC_VA, np.array([0, 1])).tolist() == [[4, 4, 0], [2, 2, 0]]


def test_decoded_texels_are_reused_only_while_memory_is_unchanged():
    mem = new_memory()
    lay = put_texture(mem, [np.full((1, 8, 8, 4), 50, np.uint8)], pack_values=False)
    coords = np.array([[3, 3]])
    assert np.round(tex.load(mem, DESC_VA, coords, 0)[0, 0] * 255) == 50
    assert np.round(tex.load(mem, DESC_VA, coords, 0)[0, 0] * 255) == 50   # from the cache
    off = int(layout.offset_B(lay, 3, 3))
    mem.write(IMAGE_VA + off, bytes([7, 7, 7, 7]), "TEST")                   # a render to the texture
    assert np.round(tex.load(mem, DESC_VA, coords, 0)[0, 0] * 255) == 7


def test_no_lanes_no_work():
    mem = new_memory()
    put_texture(mem, [np.zeros((1, 2, 2, 4), np.uint8)], pack_values=False)
    assert tex.load(mem, DESC_VA, np.zeros((0, 2), np.int64), np.zeros(0, np.int64)).shape == (0, 4)
    assert tex.sample(mem, DESC_VA, DESC_VA + 0x40, np.zeros((0, 2), np.float32)).shape == (0, 4)


@pytest.mark.parametrize("fmt, tiling, w, h, layers, levels, samples", [
    ("R8G8B8A8_UNORM", "twiddled", 300, 70, 3, 9, 1),
    ("R16_UINT", "twiddled", 129, 257, 2, 9, 1),
    ("R32G32B32A32_FLOAT", "twiddled_compressed", 64, 48, 1, 7, 1),
    ("R8G8B8A8_UNORM", "twiddled", 40, 24, 1, 1, 4),
    ("R8G8_UNORM", "linear", 33, 9, 2, 1, 1),
])
def test_column_tables_agree_with_layout_addressing(fmt, tiling, w, h, layers, levels, samples):
    """The unit addresses texels through separable per-level tables; they must give
    exactly layout.offset_B for every level, layer and sample."""
    from drmshim.gpu.texture.descriptors import texture_view
    lay = layout.make_miptree(w, h, layers, levels, fmt, samples, tiling)
    desc = P.pack(P.TEXTURE, target="TEXTURE_2D_ARRAY" if samples == 1 else "TEXTURE_2D_MS_ARRAY",
                  tiling=P.Tiling[tiling.upper()], format_id=tex.format_id(fmt), width_px=w, height_px=h,
                  depth_px=layers, levels=lay.levels, last_level=lay.levels - 1, sample_count=samples,
                  linear_stride_B=lay.linear_stride_B if tiling == "linear" else 0, layer_stride_B=lay.layer_stride_B)
    view = texture_view(desc)
    rng = np.random.default_rng(8)
    for level in range(lay.levels):
        lw, lh = lay.level_width_px(level), lay.level_height_px(level)
        x, y = rng.integers(0, lw, 200), rng.integers(0, lh, 200)
        z, s = rng.integers(0, layers, 200), rng.integers(0, samples, 200)
        from drmshim.gpu.texture.texels import columns
        got_B = columns(view, x, y, z, level, s) * view.unit_B
        np.testing.assert_array_equal(got_B, layout.offset_B(lay, x, y, z, level, s))


def _mixed_solid_image(mem, rng):
    """A 2-layer, 3-level compressed RGBA8 array whose random tiles have solid subtiles
    (their copies are whatever the tile's first elements hold). Returns the expected
    texels per (layer, level): the image resolved on the host, then read plainly."""
    chain = mip_chain(rng, 64, 48, layers=2, levels=3)
    lay = put_texture(mem, chain, target="TEXTURE_2D_ARRAY", tiling="twiddled_compressed", pack_values=False)
    buf = np.asarray(mem.read(IMAGE_VA, lay.size_B, "TEST")).copy()
    for level in range(lay.compressed_levels):
        for layer in range(2):
            w_tl, h_tl = lay.metadata_width_tl(level), lay.metadata_height_tl(level)
            ty, tx = np.mgrid[0:h_tl, 0:w_tl]
            words = layout.metadata_index(lay, level, tx.ravel(), ty.ravel(), layer)
            solid = rng.random((words.size, 8)) < 0.5
            idx = (words[:, None] + np.arange(8))[solid]
            buf[idx] = layout.SUBTILE_SOLID
    mem.write(IMAGE_VA, buf, "TEST")
    expect = {}
    host = buf.copy()
    for level in range(lay.compressed_levels):
        for layer in range(2):
            layout.resolve(lay, host, level, layer)
    for level in range(3):
        w, h = lay.level_width_px(level), lay.level_height_px(level)
        for layer in range(2):
            expect[layer, level] = layout.detile(lay, host, level, layer, 0, 0, w, h).reshape(h, w, 4)
    return lay, expect


def test_solid_subtiles_read_alike_through_the_whole_metadata_and_per_lane_gathers():
    """The texture unit reads the metadata of a compressed image whole when it can and
    per lane when not (here: a soft-fault memory); both give the resolved image, with
    one level for all lanes and with a level per lane."""
    rng = np.random.default_rng(7)
    whole, per_lane = new_memory(), new_memory()
    per_lane.soft_faults = True
    lay, expect = _mixed_solid_image(whole, np.random.default_rng(8))
    _mixed_solid_image(per_lane, np.random.default_rng(8))
    assert lay.compressed_levels >= 2
    for level in range(3):
        h, w = expect[0, level].shape[:2]
        y, x = np.mgrid[0:h, 0:w]
        layer = np.arange(x.size) % 2
        coords = np.stack([x.ravel(), y.ravel(), layer], 1)
        want = np.stack([expect[0, level], expect[1, level]], 0).reshape(2, -1, 4)[layer, np.arange(x.size)]
        for mem in (whole, per_lane):
            got = tex.load(mem, DESC_VA, coords, level)
            np.testing.assert_array_equal(np.round(got * 255).astype(np.uint8), want)
    # a level per lane: every texel of levels 0..2 at once, shuffled
    coords, lods, want = [], [], []
    for level in range(3):
        h, w = expect[0, level].shape[:2]
        y, x = np.mgrid[0:h, 0:w]
        coords.append(np.stack([x.ravel(), y.ravel(), np.ones(x.size, np.int64)], 1))
        lods.append(np.full(x.size, level))
        want.append(expect[1, level].reshape(-1, 4))
    order = rng.permutation(sum(len(c) for c in coords))
    coords, lods, want = (np.concatenate(a)[order] for a in (coords, lods, want))
    for mem in (whole, per_lane):
        got = tex.load(mem, DESC_VA, coords, lods)
        np.testing.assert_array_equal(np.round(got * 255).astype(np.uint8), want)
    assert per_lane.faults == []


@pytest.mark.parametrize("fmt, tiling", [(f, t) for f in ("R8G8B8A8_UNORM", "R16G16_FLOAT", "R32_UINT")
                                         for t in ("linear", "twiddled", "twiddled_compressed")]
                         + [("R8G8B8_UNORM", "linear")])
def test_bulk_level_fetch_equals_the_general_load(tiling, fmt):
    """texels.fetch_level (one level, all lanes inside it) gives load_view's bits;
    inputs it does not cover are left to load_view (None)."""
    from drmshim.gpu.texture.sampling import _swizzle, load_view
    from drmshim.gpu.texture.texels import fetch_level
    rng = np.random.default_rng(11)
    mem = new_memory()
    bpb = layout.get_format(fmt).block_size_B
    levels = 1 if tiling == "linear" else 3
    chain = [rng.integers(0, 256, (1, 40 >> lv, 52 >> lv, bpb), dtype=np.uint8) for lv in range(levels)]
    put_texture(mem, chain, fmt=fmt, tiling=tiling, pack_values=False, swizzle=("B", "G", "R", "ONE"),
                first_level=0)
    view = tex.read_texture(mem, DESC_VA)
    for level in range(levels):
        h, w = chain[level].shape[1:3]
        y, x = np.mgrid[0:h, 0:w]
        coords = np.stack([x.ravel(), y.ravel()], 1)[rng.permutation(h * w)]
        for lod in (level, np.full(len(coords), level, np.int32)):
            fast = fetch_level(mem, view, coords, lod)
            assert fast is not None
            general = load_view(mem, view, coords, lod)
            assert fast.dtype == general.dtype
            np.testing.assert_array_equal(_swizzle(view, fast).view(np.uint32), general.view(np.uint32))
    coords = np.array([[0, 0], [52, 0]])                           # the second is outside level 0
    assert fetch_level(mem, view, coords, 0) is None
    assert fetch_level(mem, view, coords[:1], np.array([0]), sample=np.array([0])) is None
    assert fetch_level(mem, view, np.array([[0, 0], [1, 1]]), np.array([0, 1])) is None
    assert fetch_level(mem, view, coords[:1], view.last_level + 1) is None   # no such level


@pytest.mark.parametrize("fill", ["uniform", "signed_zero", "one_texel"])
def test_bulk_level_fetch_of_one_value_images_equals_the_general_load(fill):
    """An image of one value (a cleared target) is read as that value everywhere;
    +0.0 beside -0.0, or one differing texel, is not one value."""
    from drmshim.gpu.texture.sampling import load_view
    from drmshim.gpu.texture.texels import fetch_level
    data = np.full((1, 40, 52, 1), 0.5, np.float32)
    if fill == "signed_zero":
        data[...] = 0.0
        data[0, 7, 9] = -0.0
    elif fill == "one_texel":
        data[0, 39, 51] = 0.25
    mem = new_memory()
    put_texture(mem, [data.view(np.uint8)], fmt="R32_FLOAT", tiling="twiddled_compressed", pack_values=False)
    view = tex.read_texture(mem, DESC_VA)
    y, x = np.mgrid[0:40, 0:52]
    coords = np.stack([x.ravel(), y.ravel()], 1)
    for _ in range(2):                      # the second call finds the decoded table cached
        fast = fetch_level(mem, view, coords, 0)
        np.testing.assert_array_equal(fast.view(np.uint32), load_view(mem, view, coords, 0).view(np.uint32))


def test_bulk_level_fetch_sees_solid_copies_that_differ_from_the_body():
    """A body of one value whose solid subtile's copy differs: the lanes in that
    subtile read the copy (the range the bulk fetch checks includes the copies)."""
    from drmshim.gpu.texture.texels import fetch_level
    data = np.full((1, 64, 64, 1), 0.5, np.float32)
    mem = new_memory()
    lay = put_texture(mem, [data.view(np.uint8)], fmt="R32_FLOAT", tiling="twiddled_compressed",
                      pack_values=False)
    buf = np.asarray(mem.read(IMAGE_VA, lay.size_B, "TEST")).copy()
    k = 3                                                # subtile 3: x 8..15, y 4..7 of tile (1, 1)
    buf[int(layout.metadata_index(lay, 0, 1, 1)) + k] = layout.SUBTILE_SOLID
    copy_at = int(layout.offset_B(lay, 16, 16)) + k * 4
    buf[copy_at:copy_at + 4] = np.array([0.75], np.float32).view(np.uint8)
    mem.write(IMAGE_VA, buf, "TEST")
    layout.resolve(lay, buf, 0, 0)
    want = layout.detile(lay, buf, 0, 0, 0, 0, 64, 64).view(np.float32).reshape(64, 64)
    assert (want == 0.75).sum() >= 32
    y, x = np.mgrid[0:64, 0:64]
    got = fetch_level(mem, tex.read_texture(mem, DESC_VA), np.stack([x.ravel(), y.ravel()], 1), 0)
    np.testing.assert_array_equal(got[0].reshape(64, 64), want)
