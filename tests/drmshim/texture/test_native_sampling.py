"""The texture unit's native unorm8 linear filter (drmshim/gpu/texture/native.py)
gives bit for bit the numpy path's results (its specification) on the same
inputs: every wrap it takes, power-of-two and other sizes, bilinear and trilinear
(uniform and per-lane level weights), swizzles, coordinates far outside [0, 1];
and it refuses what it does not take (NaN level weights) without writing."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu import texture as tex
from drmshim.gpu.texture import native, sampling
from tests.drmshim.texture.texenv import DESC_VA, SAMP_VA, mip_chain, new_memory, put_sampler, put_texture

pytestmark = pytest.mark.skipif(not native.available(), reason="no C compiler: the kernel cannot be built")

WRAPS = ["REPEAT", "MIRRORED_REPEAT", "CLAMP_TO_EDGE", "MIRROR_CLAMP_TO_EDGE"]


def _both(monkeypatch, *args, **kw):
    """(native result, numpy result, the kernel ran) of one tex.sample call."""
    ran = []
    real = native.unorm8_bilinear_2d

    def spy(*a):
        ok = real(*a)
        ran.append(ok)
        return ok
    monkeypatch.setattr(native, "unorm8_bilinear_2d", spy)
    monkeypatch.setattr(native, "MIN_LANES", 1)
    fast = tex.sample(*args, **kw)
    monkeypatch.setattr(native, "ENABLED", False)
    slow = tex.sample(*args, **kw)
    monkeypatch.undo()
    return fast, slow, any(ran)


@pytest.mark.parametrize("wrap_s, wrap_t", [(w, WRAPS[(i + 1) % 4]) for i, w in enumerate(WRAPS)])
@pytest.mark.parametrize("size", [(64, 32), (37, 23)])
@pytest.mark.parametrize("lod", ["quads", 0.4, "none"])
@pytest.mark.parametrize("fmt", ["R8G8B8A8_UNORM", "B8G8R8A8_UNORM"])
def test_native_filter_equals_numpy(monkeypatch, wrap_s, wrap_t, size, lod, fmt):
    rng = np.random.default_rng(31)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, *size), fmt=fmt, tiling="twiddled", pack_values=False,
                swizzle=("B", "G", "R", "A") if fmt == "R8G8B8A8_UNORM" else ("A", "R", "G", "B"))
    put_sampler(mem, wrap_s=wrap_s, wrap_t=wrap_t, min_filter="LINEAR", mag_filter="LINEAR",
                mip_filter="NONE" if lod == "none" else "LINEAR")
    n = 8192
    corner = np.repeat(rng.uniform(-7, 9, (n // 4, 2)), 4, axis=0)
    step = 1.7 / size[0]
    st = (corner + np.tile([[0, 0], [step, 0], [0, step], [step, step]], (n // 4, 1))).astype(np.float32)
    kw = {"lod": np.full(n, lod, np.float32)} if isinstance(lod, float) else {}
    fast, slow, ran = _both(monkeypatch, mem, DESC_VA, SAMP_VA, st, **kw)
    assert ran
    np.testing.assert_array_equal(fast.view(np.uint32), slow.view(np.uint32))
    assert 0 < fast.mean() < 1


def test_native_filter_per_lane_level_weights(monkeypatch):
    """Quads at different LODs in one level pair: per-lane level weights."""
    rng = np.random.default_rng(32)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 128, 128), tiling="twiddled", pack_values=False)
    put_sampler(mem, wrap_s="REPEAT", wrap_t="REPEAT", min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR")
    n = 4096
    lod = np.repeat(rng.uniform(1.01, 1.99, n // 4), 4).astype(np.float32)
    st = rng.uniform(-3, 3, (n, 2)).astype(np.float32)
    fast, slow, ran = _both(monkeypatch, mem, DESC_VA, SAMP_VA, st, lod=lod)
    assert ran
    np.testing.assert_array_equal(fast.view(np.uint32), slow.view(np.uint32))


def test_native_kernel_refuses_nan_level_weights():
    words = np.arange(16, dtype=np.uint32)
    s = np.full(8, 0.3, np.float32)
    weights = np.full(8, 0.5, np.float32)
    weights[3] = np.nan
    out = np.full((4, 8), 7.0, np.float32)
    old = native.MIN_LANES
    native.MIN_LANES = 1
    try:
        ok = native.unorm8_bilinear_2d(s, s, [(words, 4, 4, weights), (words[:4], 2, 2, 1 - weights)],
                                       sampling.W.REPEAT, sampling.W.REPEAT, (0, 1, 2, 3), out)
    finally:
        native.MIN_LANES = old
    assert not ok
    assert (out == 7.0).all()


def test_interp_debug_flag_keeps_numpy(monkeypatch):
    monkeypatch.setenv("SHIMGL_DEBUG", "interp")
    assert not native.available()
