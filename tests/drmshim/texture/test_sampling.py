"""Filtered sampling against the clarity-first reference sampler (texenv), and
analytic cases: wraps, filters, mipmaps, LOD from derivatives and quads, arrays,
3D, cube maps (faces, seamless), shadow compare, sRGB, integer formats,
swizzles, gather, offsets and borders."""

from __future__ import annotations

import math

import numpy as np
import pytest

from drmshim.gpu import texture as tex
from tests.drmshim.texture.texenv import (DESC_VA, SAMP_VA, mip_chain, new_memory, put_sampler, put_texture,
                                          ref_sample_2d, ref_wrap)

WRAPS = ["REPEAT", "MIRRORED_REPEAT", "CLAMP_TO_EDGE", "CLAMP_TO_BORDER", "MIRROR_CLAMP_TO_EDGE"]


def as_float(chain):
    return [c.astype(np.float64) / 255 for c in chain]


@pytest.mark.parametrize("wrap_s, wrap_t", [(w, WRAPS[(i + 2) % 5]) for i, w in enumerate(WRAPS)])
@pytest.mark.parametrize("linear", [False, True])
def test_2d_wraps_and_filters_match_reference(wrap_s, wrap_t, linear):
    rng = np.random.default_rng(10)
    mem = new_memory()
    chain = mip_chain(rng, 7, 5, levels=1)
    put_texture(mem, chain, tiling="linear", pack_values=False)
    border = (0.25, 0.5, 0.75, 1.0)
    put_sampler(mem, wrap_s=wrap_s, wrap_t=wrap_t, mag_filter=int(linear), min_filter=int(linear),
                border_colour="CUSTOM", **{f"border_{i}": int(np.float32(v).view(np.uint32)) for i, v in enumerate(border)})
    st = rng.uniform(-2.3, 3.1, (300, 2)).astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, st, lod=np.zeros(300, np.float32))
    ref = [ref_sample_2d(as_float(chain), s, t, 0.0, wrap_s=wrap_s, wrap_t=wrap_t, mag_linear=linear,
                         min_linear=linear, border=border) for s, t in st]
    np.testing.assert_allclose(got, np.array(ref), atol=2e-6)


@pytest.mark.parametrize("mip", ["NONE", "NEAREST", "LINEAR"])
@pytest.mark.parametrize("min_linear, mag_linear", [(False, False), (True, True), (False, True)])
def test_mipmapping_matches_reference(mip, min_linear, mag_linear):
    rng = np.random.default_rng(11)
    mem = new_memory()
    chain = mip_chain(rng, 32, 16)
    put_texture(mem, chain, first_level=1, last_level=4, pack_values=False)
    put_sampler(mem, mip_filter=mip, min_filter=int(min_linear), mag_filter=int(mag_linear),
                lod_bias=0.25, lod_min=-0.5, lod_max=2.75)
    n = 400
    st = rng.uniform(-1, 2, (n, 2)).astype(np.float32)
    lod = rng.uniform(-1.5, 5, n).astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, st, lod=lod)
    ref = [ref_sample_2d(as_float(chain), s, t, min(max(l + 0.25, -0.5), 2.75), mip=mip, mag_linear=mag_linear,
                         min_linear=min_linear, base=1, top=4) for (s, t), l in zip(st, np.float32(lod))]
    np.testing.assert_allclose(got, np.array(ref), atol=3e-6)


def test_trilinear_exact_midway_between_levels():
    mem = new_memory()
    chain = [np.full((1, 8 >> l, 8 >> l, 4), v, np.uint8) for l, v in enumerate([0, 100, 200, 250])]
    put_texture(mem, chain, pack_values=False)
    put_sampler(mem, mip_filter="LINEAR", min_filter="LINEAR", mag_filter="LINEAR")
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.full((3, 2), 0.3, np.float32), lod=np.array([0.5, 1.25, 9.0]))
    assert got[:, 0].tolist() == pytest.approx([50 / 255, (0.75 * 100 + 0.25 * 200) / 255, 250 / 255], abs=1e-6)


def test_lod_from_gradients_and_from_quads():
    mem = new_memory()
    chain = [np.full((1, 64 >> l, 64 >> l, 4), 10 * l, np.uint8) for l in range(7)]
    put_texture(mem, chain, pack_values=False)
    put_sampler(mem, mip_filter="NEAREST")
    # a quad whose pixels step 4 texels in x and 1 in y: rho = 4, lambda = 2 -> level 2
    step = np.float32(4 / 64)
    quad = np.array([[0.1, 0.1], [0.1 + step, 0.1], [0.1, 0.1 + 1 / 64], [0.1 + step, 0.1 + 1 / 64]], np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.concatenate([quad, quad * 0.5]))
    assert np.round(got[:, 0] * 255).tolist() == [20] * 4 + [10] * 4
    ddx = np.tile([[16 / 64, 0]], (2, 1)).astype(np.float32)
    ddy = np.tile([[0, 2 / 64]], (2, 1)).astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.full((2, 2), 0.5, np.float32), ddx=ddx, ddy=ddy,
                     bias=np.array([0, -1], np.float32))
    assert np.round(got[:, 0] * 255).tolist() == [40, 30]


def test_1d_and_1d_array_and_2d_array_layers():
    rng = np.random.default_rng(12)
    mem = new_memory()
    chain = mip_chain(rng, 9, 1, layers=4, levels=1)
    put_texture(mem, chain, target="TEXTURE_1D_ARRAY", pack_values=False)
    put_sampler(mem, mag_filter="LINEAR", wrap_s="REPEAT")
    n = 200
    s = rng.uniform(-1, 2, n).astype(np.float32)
    layer = rng.uniform(-1, 5, n).astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.stack([s, layer], 1), lod=np.zeros(n))
    f = as_float(chain)
    for k in range(n):
        li = min(max(math.floor(layer[k] + 0.5), 0), 3)
        u = np.float32(s[k]) * np.float32(9) - 0.5
        i0, a = math.floor(u), u - math.floor(u)
        expect = (1 - a) * f[0][li, 0, ref_wrap(i0, 9, "REPEAT")] + a * f[0][li, 0, ref_wrap(i0 + 1, 9, "REPEAT")]
        np.testing.assert_allclose(got[k], expect, atol=2e-6)


def test_3d_trilinear_filtering():
    rng = np.random.default_rng(13)
    mem = new_memory()
    data = rng.integers(0, 256, (5, 4, 6, 4), dtype=np.uint8)  # depth 5, height 4, width 6
    put_texture(mem, [data], target="TEXTURE_3D", pack_values=False)
    put_sampler(mem, mag_filter="LINEAR", wrap_s="REPEAT", wrap_t="CLAMP_TO_EDGE", wrap_r="MIRRORED_REPEAT")
    n = 150
    str_ = rng.uniform(-0.5, 1.5, (n, 3)).astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, str_, lod=np.zeros(n))
    f = data.astype(float) / 255
    for k in range(n):
        uvw = [np.float32(str_[k, a]) * np.float32(sz) - 0.5 for a, sz in enumerate((6, 4, 5))]
        base = [math.floor(c) for c in uvw]
        fr = [c - b for c, b in zip(uvw, base)]
        acc = np.zeros(4)
        for dz in (0, 1):
            for dy in (0, 1):
                for dx in (0, 1):
                    wt = (fr[0] if dx else 1 - fr[0]) * (fr[1] if dy else 1 - fr[1]) * (fr[2] if dz else 1 - fr[2])
                    i = ref_wrap(base[0] + dx, 6, "REPEAT")
                    j = ref_wrap(base[1] + dy, 4, "CLAMP_TO_EDGE")
                    z = ref_wrap(base[2] + dz, 5, "MIRRORED_REPEAT")
                    acc += wt * f[z, j, i]
        np.testing.assert_allclose(got[k], acc, atol=3e-6)


def face_colours():
    """Cube with face f filled with value 40 * (f + 1)."""
    return [np.stack([np.full((8, 8, 4), 40 * (f + 1), np.uint8) for f in range(6)])]


def test_cube_face_selection_follows_the_gl_table():
    mem = new_memory()
    rng = np.random.default_rng(14)
    faces = rng.integers(0, 256, (6, 4, 4, 4), dtype=np.uint8)
    put_texture(mem, [faces], target="TEXTURE_CUBE", pack_values=False)
    put_sampler(mem)
    # (direction, face, sc, tc, ma) per GL table 8.19, with sc, tc = +-0.5 of ma
    cases = [((1, -0.5, -0.25), 0, 0.25, 0.5), ((-1, -0.5, -0.25), 1, -0.25, 0.5),
             ((0.25, 1, 0.5), 2, 0.25, 0.5), ((0.25, -1, 0.5), 3, 0.25, -0.5),
             ((0.25, -0.5, 1), 4, 0.25, 0.5), ((0.25, -0.5, -1), 5, -0.25, 0.5)]
    dirs = np.array([c[0] for c in cases], np.float32) * 3  # scale must not matter
    got = tex.sample(mem, DESC_VA, SAMP_VA, dirs, lod=np.zeros(6))
    for k, (_, face, sc, tc) in enumerate(cases):
        s, t = (sc + 1) / 2, (tc + 1) / 2
        np.testing.assert_allclose(got[k], faces[face, int(t * 4), int(s * 4)] / 255, atol=1e-6)


@pytest.mark.parametrize("read", ["range", "gather"])
@pytest.mark.parametrize("seamless", [False, True])
def test_cube_edge_filtering_seamless_or_not(seamless, read, monkeypatch):
    """Also when the texels are gathered one by one (``fetch_plan`` None, as for
    sparse taps of a large cube: Blender's EEVEE probes faulted on the USC)."""
    if read == "gather":
        from drmshim.gpu.texture import sampling
        monkeypatch.setattr(sampling, "fetch_plan", lambda *a, **k: None)
    mem = new_memory()
    put_texture(mem, face_colours(), target="TEXTURE_CUBE", pack_values=False)
    put_sampler(mem, mag_filter="LINEAR", min_filter="LINEAR", seamless_cube=seamless)
    # just inside +X, on its edge with +Z (sc = -z = -1): half the footprint is off the face
    d = np.array([[1.0, 0.0, 0.99999]], np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, d, lod=np.zeros(1))
    x_val, z_val = 40 / 255, 200 / 255
    expect = (x_val + z_val) / 2 if seamless else x_val
    assert got[0, 0] == pytest.approx(expect, abs=2e-3)


@pytest.mark.parametrize("func, expect", [("NEVER", [0, 0, 0]), ("LESS", [1, 0, 0]), ("EQUAL", [0, 1, 0]),
                                          ("LEQUAL", [1, 1, 0]), ("GREATER", [0, 0, 1]), ("NOTEQUAL", [1, 0, 1]),
                                          ("GEQUAL", [0, 1, 1]), ("ALWAYS", [1, 1, 1])])
def test_shadow_compare_functions(func, expect):
    mem = new_memory()
    put_texture(mem, [np.full((1, 4, 4, 4), 0.5, np.float32)], fmt="Z32_FLOAT")
    put_sampler(mem, compare_enable=True, compare_func=func)
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.full((3, 2), 0.5, np.float32), lod=np.zeros(3),
                     compare=np.array([0.25, 0.5, 0.75], np.float32))
    assert got[:, 0].tolist() == expect and got[:, 3].tolist() == [1, 1, 1]


def test_shadow_pcf_filters_the_comparisons():
    mem = new_memory()
    depth = np.zeros((1, 2, 2, 4), np.float32)
    depth[0, :, 1, 0] = 1.0  # right column far
    put_texture(mem, [depth], fmt="Z16_UNORM")
    put_sampler(mem, compare_enable=True, compare_func="LEQUAL", mag_filter="LINEAR", wrap_s="CLAMP_TO_EDGE",
                wrap_t="CLAMP_TO_EDGE")
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[0.5, 0.5], [0.375, 0.5]], np.float32), lod=np.zeros(2),
                     compare=np.array([0.5, 1.5], np.float32))  # 1.5 clamps to 1.0 for UNORM depth
    assert got[:, 0].tolist() == pytest.approx([0.5, 0.25])


@pytest.mark.parametrize("fmt, order", [("R8G8B8A8_UNORM", [0, 1, 2, 3]), ("B8G8R8A8_UNORM", [2, 1, 0, 3]),
                                        ("A8B8G8R8_UNORM", [3, 2, 1, 0])])
@pytest.mark.parametrize("lod", [0.0, 0.625])
def test_unorm8_filters_bytes_then_divides_by_255(fmt, order, lod):
    """Four 8-bit UNORM channels filter in the byte domain (sampling's module doc):
    exactly sum(weight * byte) in float32, taps x fastest, then y, then level,
    divided by 255 once; written here with plain float32 scalars per lane."""
    rng = np.random.default_rng(21)
    mem = new_memory()
    chain = mip_chain(rng, 16, 8, levels=2)                       # bytes in memory order
    put_texture(mem, chain, fmt=fmt, pack_values=False)
    put_sampler(mem, min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR", wrap_s="REPEAT",
                wrap_t="MIRRORED_REPEAT")
    n = 64
    st = rng.uniform(-2, 3, (n, 2)).astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, st, lod=np.full(n, lod, np.float32))
    f32 = np.float32
    frac = f32(lod) - f32(math.floor(lod))
    levels = [(0, f32(1) - frac), (1, frac)] if frac else [(0, None)]
    for k in range(n):
        acc = None
        for level, level_w in levels:
            img = chain[level][0]
            h, w = img.shape[:2]
            axes = []
            for c, size in ((st[k, 0], w), (st[k, 1], h)):
                u = f32(c) * f32(size) - f32(0.5)
                i0 = math.floor(u)
                w1 = u - f32(i0)
                axes.append((i0, [f32(1) - w1, w1]))
            (i0, wx), (j0, wy) = axes
            if level_w is not None:
                wy = [v * level_w for v in wy]
            for dy in (0, 1):
                for dx in (0, 1):
                    texel = img[ref_wrap(j0 + dy, h, "MIRRORED_REPEAT"), ref_wrap(i0 + dx, w, "REPEAT")]
                    tap = texel[order].astype(f32) * (wx[dx] * wy[dy])
                    acc = tap if acc is None else acc + tap
        np.testing.assert_array_equal(got[k], acc / f32(255))


def test_srgb_decode_before_filtering():
    mem = new_memory()
    raw = np.array([[[[0, 0, 0, 255], [255, 255, 255, 0]]]], np.uint8)
    put_texture(mem, [raw], pack_values=False, srgb=True)
    put_sampler(mem, mag_filter="LINEAR", wrap_s="CLAMP_TO_EDGE")
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[0.5, 0.5]], np.float32), lod=np.zeros(1))
    assert got[0].tolist() == pytest.approx([0.5, 0.5, 0.5, 0.5])  # linear-space average, alpha untouched
    raw2 = np.full((1, 1, 1, 4), 128, np.uint8)
    put_texture(mem, [raw2], pack_values=False, srgb=True)
    c = 128 / 255
    assert tex.sample(mem, DESC_VA, SAMP_VA, np.array([[0.5, 0.5]], np.float32), lod=np.zeros(1))[0, 0] \
        == pytest.approx(((c + 0.055) / 1.055) ** 2.4, abs=1e-6)


def test_integer_textures_are_exact_and_never_filtered():
    mem = new_memory()
    data = np.arange(16 * 4, dtype=np.uint32).reshape(1, 4, 4, 4) * 1000003
    put_texture(mem, [data], fmt="R32G32B32A32_UINT")
    put_sampler(mem, mag_filter="LINEAR", min_filter="LINEAR", mip_filter="LINEAR")
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[0.3, 0.6], [0.99, 0.01]], np.float32), lod=np.zeros(2))
    assert got.dtype == np.uint32
    np.testing.assert_array_equal(got, [data[0, 2, 1], data[0, 0, 3]])


def test_swizzle_and_missing_channels():
    mem = new_memory()
    put_texture(mem, [np.full((1, 2, 2, 4), [0.25, 0.5, 0, 0], np.float32)], fmt="R32G32_FLOAT",
                swizzle=("G", "ONE", "R", "B"))
    put_sampler(mem)
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[0.5, 0.5]], np.float32), lod=np.zeros(1))
    assert got[0].tolist() == [0.5, 1.0, 0.25, 0.0]


def test_gather_returns_the_footprint_in_gl_order():
    mem = new_memory()
    data = np.zeros((1, 4, 4, 4), np.float32)
    data[0, :, :, 1] = np.arange(16).reshape(4, 4)
    put_texture(mem, [data], fmt="R32G32B32A32_FLOAT")
    put_sampler(mem, wrap_s="REPEAT", wrap_t="REPEAT")
    # centre between texels (1,1), (2,1), (1,2), (2,2): i0 = 1, j0 = 1
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[0.5, 0.5], [0.0, 0.0]], np.float32), gather_component=1,
                     lod=np.zeros(2))
    # (i0,j1), (i1,j1), (i1,j0), (i0,j0) ; second lane wraps: i0 = j0 = -1 -> 3
    assert got[0].tolist() == [9, 10, 6, 5] and got[1].tolist() == [3, 0, 12, 15]


def test_texel_offsets_shift_in_texel_space():
    mem = new_memory()
    data = np.zeros((1, 4, 8, 4), np.float32)
    data[0, :, :, 0] = np.arange(32).reshape(4, 8)
    put_texture(mem, [data], fmt="R32G32B32A32_FLOAT")
    put_sampler(mem, wrap_s="CLAMP_TO_EDGE", wrap_t="CLAMP_TO_EDGE")
    st = np.array([[2.5 / 8, 1.5 / 4]] * 3, np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, st, lod=np.zeros(3), offset=np.array([[0, 0], [1, -1], [-8, 2]]))
    assert got[:, 0].tolist() == [10, 3, 24]


def test_border_colour_takes_the_format_channels():
    mem = new_memory()
    put_texture(mem, [np.zeros((1, 2, 2, 4), np.float32)], fmt="R8_UNORM")
    put_sampler(mem, wrap_s="CLAMP_TO_BORDER", wrap_t="CLAMP_TO_BORDER", border_colour="CUSTOM",
                **{f"border_{i}": int(np.float32(v).view(np.uint32)) for i, v in enumerate([0.2, 0.3, 0.4, 0.5])})
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[-1, -1]], np.float32), lod=np.zeros(1))
    assert got[0].tolist() == pytest.approx([0.2, 0, 0, 1])
    put_texture(mem, [np.zeros((1, 2, 2, 4), np.int32)], fmt="R32G32B32A32_SINT")
    put_sampler(mem, wrap_s="CLAMP_TO_BORDER", border_colour="CUSTOM", border_0=2**32 - 7, border_3=5)
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[1.5, 0.5]], np.float32), lod=np.zeros(1))
    assert got.dtype == np.int32 and got[0].tolist() == [-7, 0, 0, 5]
    put_sampler(mem, wrap_s="CLAMP_TO_BORDER", border_colour="OPAQUE_WHITE")
    assert tex.sample(mem, DESC_VA, SAMP_VA, np.array([[1.5, 0.5]], np.float32), lod=np.zeros(1))[0].tolist() \
        == [1, 1, 1, 1]


def test_cube_lod_from_direction_gradients():
    mem = new_memory()
    chain = [np.stack([np.full((16 >> l, 16 >> l, 4), 30 * l, np.uint8)] * 6) for l in range(5)]
    put_texture(mem, chain, target="TEXTURE_CUBE", pack_values=False)
    put_sampler(mem, mip_filter="NEAREST")
    # on +Z at the centre (ma = 1): s = (x + 1) / 2, so ds/dx = dx / 2; 16 texels -> rho = 8 dx
    d = np.array([[0, 0, 1]] * 3, np.float32)
    ddx = np.array([[0.25, 0, 0], [0.5, 0, 0], [0.125, 0, 0]], np.float32)  # rho = 2, 4, 1
    got = tex.sample(mem, DESC_VA, SAMP_VA, d, ddx=ddx, ddy=np.zeros_like(ddx))
    assert np.round(got[:, 0] * 255).tolist() == [30, 60, 0]


def test_cube_array_layers_select_the_cube():
    mem = new_memory()
    faces = np.concatenate([np.full((6, 4, 4, 4), 10, np.uint8), np.full((6, 4, 4, 4), 90, np.uint8)])
    put_texture(mem, [faces], target="TEXTURE_CUBE_ARRAY", pack_values=False)
    put_sampler(mem)
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[1, 0, 0, 0], [0, -1, 0, 1.2], [0, 0, 1, 7]], np.float32),
                     lod=np.zeros(3))
    assert np.round(got[:, 0] * 255).tolist() == [10, 90, 90]


def test_gather_with_compare_returns_the_four_comparisons():
    mem = new_memory()
    depth = np.zeros((1, 2, 2, 4), np.float32)
    depth[0, :, :, 0] = [[0.1, 0.9], [0.4, 0.6]]
    put_texture(mem, [depth], fmt="Z32_FLOAT")
    put_sampler(mem, compare_enable=True, compare_func="LESS", wrap_s="CLAMP_TO_EDGE", wrap_t="CLAMP_TO_EDGE")
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[0.5, 0.5]], np.float32), gather_component=0,
                     compare=np.array([0.5], np.float32), lod=np.zeros(1))
    # (i0,j1)=0.4, (i1,j1)=0.6, (i1,j0)=0.9, (i0,j0)=0.1 ; 0.5 < d
    assert got[0].tolist() == [0, 1, 1, 0]


def test_unnormalized_coordinates_address_texels():
    mem = new_memory()
    data = np.zeros((1, 4, 8, 4), np.float32)
    data[0, :, :, 0] = np.arange(32).reshape(4, 8)
    put_texture(mem, [data], fmt="R32G32B32A32_FLOAT")
    put_sampler(mem, unnormalized_coords=True, wrap_s="REPEAT", mag_filter="LINEAR")
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[3.5, 2.5], [4.0, 0.5], [20, 0.5]], np.float32))
    assert got[:, 0].tolist() == pytest.approx([19, 3.5, 7])  # REPEAT acts as clamp to edge


@pytest.mark.parametrize("tiling", ["twiddled", "twiddled_compressed"])
@pytest.mark.parametrize("strategy", ["range", "gather"])
def test_both_read_strategies_sample_alike(strategy, tiling):
    """Regression: the gather strategy on a compressed layout (glbench's tex
    workload at 256 px) once added a None range shift."""
    from drmshim.gpu.texture.sampling import sample_view
    rng = np.random.default_rng(15)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 32, 32, layers=3), target="TEXTURE_2D_ARRAY", pack_values=False,
                tiling=tiling)
    put_sampler(mem, mip_filter="LINEAR", min_filter="LINEAR", mag_filter="LINEAR", wrap_t="MIRRORED_REPEAT")
    view, samp = tex.read_texture(mem, DESC_VA), tex.read_sampler(mem, SAMP_VA)
    c = rng.uniform(-1, 3, (300, 3)).astype(np.float32)
    lod = rng.uniform(-1, 6, 300).astype(np.float32)
    a = sample_view(mem, view, samp, c, lod=lod, strategy=strategy)
    b = sample_view(mem, view, samp, c, lod=lod)
    np.testing.assert_array_equal(a, b)


def test_big_calls_run_in_batches_with_per_lane_descriptors():
    rng = np.random.default_rng(16)
    mem = new_memory()
    chain = mip_chain(rng, 16, 16)
    put_texture(mem, chain, pack_values=False)
    put_sampler(mem, mag_filter="LINEAR", min_filter="LINEAR", mip_filter="LINEAR")
    put_sampler(mem, va=SAMP_VA + 0x40)
    n = tex.BATCH_LANES * 2 + 8
    st = rng.uniform(0, 1, (n, 2)).astype(np.float32)
    lod = rng.uniform(0, 4, n).astype(np.float32)
    samp_va = np.where(np.arange(n) % 3 == 0, SAMP_VA + 0x40, SAMP_VA).astype(np.uint64)
    got = tex.sample(mem, DESC_VA, samp_va, st, lod=lod)
    pick = rng.choice(n, 60, replace=False)
    for k in pick:
        linear = samp_va[k] == SAMP_VA
        ref = ref_sample_2d(as_float(chain), st[k, 0], st[k, 1], float(lod[k]), mip="LINEAR" if linear else "NONE",
                            mag_linear=linear, min_linear=linear)
        np.testing.assert_allclose(got[k], ref, atol=3e-6)


from hypothesis import given, settings, strategies as st_  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st_.lists(st_.integers(-70, 70), min_size=1, max_size=40), st_.integers(1, 9), st_.sampled_from(WRAPS))
def test_wrap_matches_the_spec_definition(coords, size, mode):
    from drmshim.gpu.texture.sampling import wrap
    from uapi import packets as P
    i = np.array(coords, np.int64)
    for sz in (size, np.int64(size), np.full(i.shape, size)):
        idx, border = wrap(i, sz, P.Wrap[mode])
        for k, c in enumerate(coords):
            expect = ref_wrap(c, size, mode)
            if expect is None:
                assert border[k]
            else:
                assert idx[k] == expect and (border is None or not border[k])


@pytest.mark.parametrize("lod_value", [0.0, 1.5, 2.25, 7.0])
def test_uniform_lod_takes_the_scalar_path_and_matches_reference(lod_value):
    rng = np.random.default_rng(17)
    mem = new_memory()
    chain = mip_chain(rng, 16, 8)
    put_texture(mem, chain, pack_values=False)
    put_sampler(mem, mip_filter="LINEAR", min_filter="LINEAR", mag_filter="LINEAR", wrap_s="MIRRORED_REPEAT",
                wrap_t="REPEAT")
    st = rng.uniform(-1, 2, (100, 2)).astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, st, lod=np.full(100, lod_value, np.float32))
    ref = [ref_sample_2d(as_float(chain), s, t, lod_value, mip="LINEAR", mag_linear=True, min_linear=True,
                         wrap_s="MIRRORED_REPEAT", wrap_t="REPEAT") for s, t in st]
    np.testing.assert_allclose(got, np.array(ref), atol=3e-6)


@pytest.mark.parametrize("wrap_s, wrap_t", [("REPEAT", "REPEAT"), ("MIRRORED_REPEAT", "CLAMP_TO_EDGE"),
                                            ("MIRROR_CLAMP_TO_EDGE", "REPEAT"), ("CLAMP_TO_BORDER", "REPEAT")])
@pytest.mark.parametrize("size, tiling, fmt", [((64, 32), "twiddled", "R8G8B8A8_UNORM"),
                                               ((37, 21), "linear", "R8G8B8A8_UNORM"),
                                               ((32, 16), "twiddled", "B8G8R8A8_UNORM"),
                                               ((16, 16), "twiddled", "R8G8B8A8_SRGB"),
                                               ((16, 16), "twiddled", "R16G16B16A16_FLOAT")])
@pytest.mark.parametrize("lod", ["quads", 0.0, 1.375, "per-lane"])
def test_fast_paths_equal_the_general_path(wrap_s, wrap_t, size, tiling, fmt, lod, monkeypatch):
    """The special-case paths (2D linear filtering at one level pair, with packed
    32-bit texels for four 8-bit UNORM channels, int32 texel indices) give bit
    for bit the general path's results on the same inputs: coordinates far
    outside [0, 1] and repeated many times, non-power-of-two sizes, every wrap,
    a swizzle, a first level above 0, NaN and huge coordinates."""
    from drmshim.gpu.texture import sampling
    rng = np.random.default_rng(20)
    mem = new_memory()
    mipmapped = tiling != "linear"   # (linear images have one level)
    chain = mip_chain(rng, *size, levels=None if mipmapped else 1)
    if fmt == "R16G16B16A16_FLOAT":
        chain = [rng.uniform(-2, 2, c.shape).astype(np.float32) for c in chain]
    swizzle = ("A", "R", "G", "R") if fmt == "B8G8R8A8_UNORM" else ("B", "G", "R", "ONE")
    put_texture(mem, chain, fmt=fmt, tiling=tiling, first_level=int(mipmapped), swizzle=swizzle,
                pack_values=fmt == "R16G16B16A16_FLOAT")
    put_sampler(mem, wrap_s=wrap_s, wrap_t=wrap_t, min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR")
    n = 4096
    # 2x2 quads of pixels stepping 2.6 texels of the base level (LOD ~1.4 from quads)
    corner = np.repeat(rng.uniform(-9, 13, (n // 4, 2)), 4, axis=0)
    step = 2.6 / (size[0] >> 1)
    st = (corner + np.tile([[0, 0], [step, 0], [0, step], [step, step]], (n // 4, 1))).astype(np.float32)
    kw = {}
    if lod == "per-lane":
        kw["lod"] = rng.uniform(-1, 4, n).astype(np.float32)
    elif lod != "quads":
        kw["lod"] = np.full(n, lod, np.float32)
    cases = [st]
    odd = st.copy()
    odd[5] = [np.nan, 0.5]
    odd[9] = [3e9, -4e9]
    cases.append(odd)
    calls = []
    bilinear_2d, bilinear_2d_unorm8 = sampling._bilinear_2d, sampling._bilinear_2d_unorm8
    for coords in cases:
        monkeypatch.setattr(sampling, "_bilinear_2d", lambda *a: calls.append(("float", a[5])) or bilinear_2d(*a))
        monkeypatch.setattr(sampling, "_bilinear_2d_unorm8",
                            lambda *a: calls.append(("unorm8", a[5])) or bilinear_2d_unorm8(*a))
        fast = tex.sample(mem, DESC_VA, SAMP_VA, coords, **kw)
        monkeypatch.undo()
        monkeypatch.setattr(sampling, "FAST_PATHS", False)
        general = tex.sample(mem, DESC_VA, SAMP_VA, coords, **kw)
        monkeypatch.undo()
        np.testing.assert_array_equal(fast, general)
    if wrap_s != "CLAMP_TO_BORDER" and lod != "per-lane":  # the data allowed the 2D path: it was taken,
        kernel = "unorm8" if fmt in ("R8G8B8A8_UNORM", "B8G8R8A8_UNORM") else "float"   # (sRGB: float)
        assert calls[0] == (kernel, np.int32)              # with int32 indices,
        if lod != "quads":                                   # and intp ones for NaN / huge coordinates
            assert calls[1] == (kernel, np.intp)             # (whose quads' LODs are not uniform)


def test_a_big_call_equals_its_batches():
    """A call of more than BATCH_LANES lanes (its batches written in place into one
    result) gives each lane what a call of that lane's batch alone gives."""
    rng = np.random.default_rng(22)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 32, 32), pack_values=False)
    put_sampler(mem, min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR")
    n = 2 * tex.BATCH_LANES + 4
    st = np.repeat(rng.uniform(-1, 2, (n // 4, 2)), 4, axis=0) + np.tile([[0, 0], [0.02, 0], [0, 0.03], [0.02, 0.03]],
                                                                          (n // 4, 1))
    st = st.astype(np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, st)
    for a in range(0, n, tex.BATCH_LANES):
        np.testing.assert_array_equal(got[a:a + tex.BATCH_LANES], tex.sample(mem, DESC_VA, SAMP_VA,
                                                                             st[a:a + tex.BATCH_LANES]))


@pytest.mark.parametrize("linear", [False, True])
def test_clamp_gl_clamps_the_coordinate_then_blends_the_border(linear):
    """CLAMP_GL (GL_CLAMP of the compatibility profile, GL 4.6 compatibility section
    8.14.2): s is clamped to [0, 1] first; a linear filter at the edge then mixes the
    border colour in (half of it at s <= 0 or s >= 1), a nearest one never reads it.
    Columns of the 2 x 2 image: red, green; border blue. Values by hand."""
    mem = new_memory()
    row = [[1, 0, 0, 1], [0, 1, 0, 1]]
    put_texture(mem, [np.array([[row, row]], np.float32)], fmt="R32G32B32A32_FLOAT")
    put_sampler(mem, wrap_s="CLAMP_GL", wrap_t="CLAMP_GL", mag_filter=int(linear), min_filter=int(linear),
                border_colour="CUSTOM", **{f"border_{i}": int(np.float32(v).view(np.uint32))
                                           for i, v in enumerate((0.0, 0.0, 1.0, 1.0))})
    st = np.array([[-1.0, 0.5], [2.0, 0.5], [0.5, 0.5]], np.float32)
    got = tex.sample(mem, DESC_VA, SAMP_VA, st, lod=np.zeros(3, np.float32))
    if linear:
        expected = [[0.5, 0, 0.5, 1], [0, 0.5, 0.5, 1], [0.5, 0.5, 0, 1]]
    else:
        expected = [[1, 0, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1]]      # s = 0.5: u = 1 -> column 1
    np.testing.assert_allclose(got, expected, atol=1e-6)


@pytest.mark.parametrize("fmt, expected", [("L8_UNORM", [0.2, 0.2, 0.2, 1.0]), ("L8A8_UNORM", [0.2, 0.2, 0.2, 0.5]),
                                           ("I8_UNORM", [0.2, 0.2, 0.2, 0.2]), ("A8_UNORM", [0.0, 0.0, 0.0, 0.5])])
def test_border_colour_of_luminance_intensity_and_alpha_formats(fmt, expected):
    """GL converts the border colour to the texture's base format (GL 4.6
    compatibility table 8.13): luminance takes red as L, intensity red as I."""
    mem = new_memory()
    put_texture(mem, [np.zeros((1, 2, 2, 4), np.float32)], fmt=fmt)
    put_sampler(mem, wrap_s="CLAMP_TO_BORDER", wrap_t="CLAMP_TO_BORDER", border_colour="CUSTOM",
                **{f"border_{i}": int(np.float32(v).view(np.uint32)) for i, v in enumerate([0.2, 0.3, 0.4, 0.5])})
    got = tex.sample(mem, DESC_VA, SAMP_VA, np.array([[-1, -1]], np.float32), lod=np.zeros(1))
    assert got[0].tolist() == pytest.approx(expected)
