"""ISP: compare and stencil-op truth tables, depth/stencil processing against an
in-order per-fragment reference, rank layers, HSR identical to in-order shading,
occlusion counts."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from drmshim.gpu.raster import (COMPARE_FUNCS, STENCIL_OPS, DepthStencilState, Fragments, StencilFace,
                                compare, depth_stencil, layers_of, rank_layers, rasterize, resolve_visibility,
                                samples_passed, setup_triangles, stencil_op)

PY_COMPARE = {"never": lambda a, b: False, "less": operator.lt, "equal": operator.eq, "lequal": operator.le,
              "greater": operator.gt, "notequal": operator.ne, "gequal": operator.ge,
              "always": lambda a, b: True}


@pytest.mark.parametrize("func", COMPARE_FUNCS)
def test_compare_truth_table(func):
    a, b = np.meshgrid(np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.5, 1.0]))
    want = np.array([[PY_COMPARE[func](x, y) for x, y in zip(ra, rb)] for ra, rb in zip(a, b)])
    np.testing.assert_array_equal(compare(func, a, b), want)
    assert COMPARE_FUNCS.index(func) == ["never", "less", "equal", "lequal", "greater", "notequal",
                                         "gequal", "always"].index(func)      # GL's order


STENCIL_TABLE = {  # stored: 0, 1, 0x7F, 0xFE, 0xFF with ref 0x5A
    "keep": [0, 1, 0x7F, 0xFE, 0xFF],
    "zero": [0, 0, 0, 0, 0],
    "replace": [0x5A] * 5,
    "incr_sat": [1, 2, 0x80, 0xFF, 0xFF],
    "decr_sat": [0, 0, 0x7E, 0xFD, 0xFE],
    "invert": [0xFF, 0xFE, 0x80, 0x01, 0x00],
    "incr_wrap": [1, 2, 0x80, 0xFF, 0x00],
    "decr_wrap": [0xFF, 0, 0x7E, 0xFD, 0xFE],
}


@pytest.mark.parametrize("op", STENCIL_OPS)
def test_stencil_op_truth_table(op):
    stored = np.array([0, 1, 0x7F, 0xFE, 0xFF], np.uint8)
    got = stencil_op(op, stored, 0x5A)
    assert got.dtype == np.uint8
    assert got.tolist() == STENCIL_TABLE[op]


def test_enums_are_the_packet_tables():
    from uapi.packets import CompareFunc, StencilOp
    stored = np.array([0, 1, 0x7F, 0xFE, 0xFF], np.uint8)
    assert stencil_op(StencilOp.INCR_SAT, stored, 0).tolist() == STENCIL_TABLE["incr_sat"]
    assert stencil_op("incr", stored, 0).tolist() == STENCIL_TABLE["incr_sat"]       # GL's name
    assert stencil_op(int(StencilOp.DECR_WRAP), stored, 0).tolist() == STENCIL_TABLE["decr_wrap"]
    assert compare(CompareFunc.GEQUAL, 1, 1) and not compare("LESS", 1, 1)
    with pytest.raises(ValueError):
        compare("lessish", 1, 1)


def reference_depth_stencil(frags, state, depth, stencil, front_facing):
    """Plain in-order loop: one fragment, one sample at a time."""
    passed = np.zeros(len(frags), np.uint8)
    for f in range(len(frags)):
        x, y = int(frags.x[f]), int(frags.y[f])
        face = state.front if front_facing is None or front_facing[f] else state.back
        for s in range(frags.samples):
            if not (frags.coverage[f] >> s) & 1:
                continue
            dpass = True
            if state.depth_test:
                dpass = PY_COMPARE[state.depth_func](float(frags.z[f, s]), float(depth[y, x, s]))
            spass = True
            if state.stencil_test:
                st_ = int(stencil[y, x, s])
                spass = PY_COMPARE[face.func](face.ref & face.value_mask, st_ & face.value_mask)
                op = face.fail_op if not spass else face.zfail_op if not dpass else face.zpass_op
                new = int(stencil_op(op, np.array([st_], np.uint8), face.ref)[0])
                stencil[y, x, s] = (new & face.write_mask) | (st_ & ~face.write_mask & 0xFF)
            if spass and dpass:
                if state.depth_test and state.depth_write:
                    depth[y, x, s] = frags.z[f, s]
                passed[f] |= 1 << s
    return passed


def random_fragments(rng, n, size, samples, nprims):
    tri = np.sort(rng.integers(0, nprims, n)).astype(np.int32)
    x = rng.integers(0, size, n).astype(np.int32)
    y = rng.integers(0, size, n).astype(np.int32)
    # one fragment per (prim, pixel), as the rasteriser guarantees
    key = tri.astype(np.int64) * size * size + y * size + x
    _, first = np.unique(key, return_index=True)
    first.sort()
    tri, x, y = tri[first], x[first], y[first]
    cov = rng.integers(1, 1 << samples, len(tri)).astype(np.uint8)
    z = rng.choice(np.array([0.25, 0.5, 0.75], np.float32), size=(len(tri), samples))
    return Fragments(tri, x, y, cov, z, samples)


faces = st.builds(StencilFace, func=st.sampled_from(COMPARE_FUNCS), ref=st.integers(0, 255),
                  value_mask=st.sampled_from([0xFF, 0x0F, 0x3C]), write_mask=st.sampled_from([0xFF, 0xF0, 0x00]),
                  fail_op=st.sampled_from(STENCIL_OPS), zfail_op=st.sampled_from(STENCIL_OPS),
                  zpass_op=st.sampled_from(STENCIL_OPS))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31), st.sampled_from([1, 2, 4]), st.booleans(), st.sampled_from(COMPARE_FUNCS),
       st.booleans(), st.booleans(), faces, faces, st.booleans())
def test_depth_stencil_matches_in_order_reference(seed, samples, depth_test, depth_func, depth_write,
                                                  stencil_test, front, back, two_sided):
    rng = np.random.default_rng(seed)
    frags = random_fragments(rng, 300, 6, samples, 40)
    state = DepthStencilState(depth_test=depth_test, depth_func=depth_func, depth_write=depth_write,
                              stencil_test=stencil_test, front=front, back=back)
    facing = rng.random(len(frags)) < 0.5 if two_sided else None
    depth0 = rng.choice(np.array([0.25, 0.5, 0.75, 1.0], np.float32), size=(6, 6, samples))
    stencil0 = rng.integers(0, 256, size=(6, 6, samples)).astype(np.uint8)
    d_ref, s_ref = depth0.copy(), stencil0.copy()
    want = reference_depth_stencil(frags, state, d_ref, s_ref, facing)
    d, s = depth0.copy(), stencil0.copy()
    got = depth_stencil(frags, state, d, s, front_facing=facing)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(d, d_ref)
    np.testing.assert_array_equal(s, s_ref)


def test_late_coverage_and_z_override_and_origin():
    frags = Fragments(np.array([0, 1], np.int32), np.array([10, 10], np.int32), np.array([20, 20], np.int32),
                      np.array([1, 1], np.uint8), np.array([[0.5], [0.4]], np.float32), 1)
    state = DepthStencilState(depth_test=True, depth_func="less")
    depth = np.ones((4, 4, 1), np.float32)
    # tile memory at origin (8, 18); the second fragment is discarded by its shader
    passed = depth_stencil(frags, state, depth, None, coverage=np.array([1, 0], np.uint8), origin=(8, 18))
    assert passed.tolist() == [1, 0] and depth[2, 2, 0] == 0.5
    depth[:] = 1
    passed = depth_stencil(frags, state, depth, None, z=np.array([[0.5], [0.6]], np.float32), origin=(8, 18))
    assert passed.tolist() == [1, 0] and depth[2, 2, 0] == 0.5



@pytest.mark.parametrize("kernels", [False, True])
def test_depth_compares_in_float32(kernels):
    """The ISP tests float32 depth: a fragment depth given in binary64 that rounds to
    the stored float32 value is equal to it (LESS fails, LEQUAL passes), whichever
    path (the C kernel or numpy's layer loop) runs."""
    from drmshim.gpu.raster import native
    stored = np.float32(0.3)
    below = float(stored) - 2.0 ** -40            # < stored in binary64, == stored in float32
    assert below < float(stored) and np.float32(below) == stored
    frags = Fragments(np.array([0], np.int32), np.array([1], np.int32), np.array([1], np.int32),
                      np.array([1], np.uint8), np.array([[below]], np.float64), 1)
    native.KERNELS.enabled = kernels
    try:
        for func, want in (("less", 0), ("lequal", 1), ("equal", 1), ("notequal", 0)):
            depth = np.full((2, 2, 1), stored, np.float32)
            passed = depth_stencil(frags, DepthStencilState(depth_test=True, depth_func=func), depth, None)
            assert passed.tolist() == [want], func
    finally:
        native.KERNELS.enabled = True

def test_rank_layers():
    x = np.array([1, 2, 1, 1, 3, 2], np.int32)
    y = np.array([0, 0, 0, 0, 5, 0], np.int32)
    r = rank_layers(x, y)
    assert r.rank.tolist() == [0, 0, 1, 2, 0, 1]
    assert r.count == 3
    for k in range(r.count):
        layer = r.layer(k)
        assert (r.rank[layer] == k).all()
        assert len(set(zip(x[layer].tolist(), y[layer].tolist()))) == len(layer)
    assert sorted(r.order.tolist()) == list(range(6))
    assert rank_layers(np.zeros(0, np.int32), np.zeros(0, np.int32)).count == 0


def shade_in_order(frags, state, depth, stencil, facing, colour_of_frag):
    """Reference: every fragment shaded, colours written in primitive order."""
    h, w, S = depth.shape
    image = np.full((h, w, S), -1, np.int64)
    layers = rank_layers(frags.x, frags.y, frags.tri)      # sorted ranks, not the raster's layers
    passed = depth_stencil(frags, state, depth, stencil, front_facing=facing, layers=layers)
    for k in range(layers.count):
        idx = layers.layer(k)
        for s in range(S):
            on = idx[(passed[idx] >> s) & 1 == 1]
            image[frags.y[on], frags.x[on], s] = colour_of_frag[on]
    return image, passed


@pytest.mark.parametrize("func", ["less", "lequal", "greater", "always", "equal", "notequal"])
@pytest.mark.parametrize("samples", [1, 4])
def test_hsr_gives_the_in_order_image(func, samples):
    """HSR on the rasteriser's block layers == shading everything in sorted per-pixel
    rank order: same depth, stencil, passed masks and image."""
    rng = np.random.default_rng(5)
    size = 24
    t = 60
    win = np.empty((t, 3, 4))
    win[..., :2] = rng.uniform(-4, size + 4, (t, 3, 2))
    win[..., 2] = rng.choice([0.25, 0.5, 0.75], (t, 1)) + rng.uniform(-0.2, 0.2, (t, 3)) * (func != "equal")
    win[..., 3] = 1
    setup = setup_triangles(win)
    frags = rasterize(setup, (0, 0, size, size), samples)
    facing = setup.front_facing[frags.tri]
    state = DepthStencilState(depth_test=True, depth_func=func, depth_write=True, stencil_test=True,
                              front=StencilFace("gequal", 3, 0xFF, 0xFF, "keep", "incr_sat", "incr_sat"),
                              back=StencilFace("always", 0, 0xFF, 0xFF, "keep", "keep", "decr_wrap"))
    colour = setup.prim[frags.tri] * 7 + 1
    d0 = np.full((size, size, samples), 0.5 if func in ("greater", "gequal") else 1.0, np.float32)
    s0 = np.zeros((size, size, samples), np.uint8)
    d_ref, s_ref = d0.copy(), s0.copy()
    want_img, want_passed = shade_in_order(frags, state, d_ref, s_ref, facing, colour)
    d, s = d0.copy(), s0.copy()
    visible, passed = resolve_visibility(frags, state, d, s, front_facing=facing)
    np.testing.assert_array_equal(passed, want_passed)
    np.testing.assert_array_equal(d, d_ref)
    np.testing.assert_array_equal(s, s_ref)
    shaded = np.flatnonzero(visible)
    assert len(shaded) < len(frags)                   # HSR skipped some shading work
    img = np.full((size, size, samples), -1, np.int64)
    for smp in range(samples):
        on = shaded[(visible[shaded] >> smp) & 1 == 1]
        img[frags.y[on], frags.x[on], smp] = colour[on]
    np.testing.assert_array_equal(img, want_img)
    assert samples_passed(passed) == int(sum(bin(int(m)).count("1") for m in want_passed))


def test_samples_passed():
    assert samples_passed(np.array([0, 1, 3, 15, 255], np.uint8)) == 0 + 1 + 2 + 4 + 8
