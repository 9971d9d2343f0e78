"""The texture unit's whole-sample C path (``texture.sample_rows`` ->
``sampling.sample_rows_2d``: LOD from quads or given, level choice, filter, straight
into register rows) gives bit for bit what ``texture.sample`` gives on the numpy
path, its specification (``FAST_PATHS`` off and the C filter off: the general
path), and what the default path gives: every mip filter, wraps, power-of-two and
other sizes, lanes at different levels within one batch, explicit per-lane and
uniform LODs (NaN, infinities, negative), biases, the sampler's bias and clamps,
first/last levels, swizzles with ZERO/ONE, rows not written. What it does not take
(NaN or huge coordinates, other formats, partial quads) it refuses without writing."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu import texture as tex
from drmshim.gpu.texture import native, sampling
from tests.drmshim.texture.texenv import DESC_VA, SAMP_VA, mip_chain, new_memory, put_sampler, put_texture

pytestmark = pytest.mark.skipif(not native.available(), reason="no C compiler: the kernel cannot be built")

WRAPS = ["REPEAT", "MIRRORED_REPEAT", "CLAMP_TO_EDGE", "MIRROR_CLAMP_TO_EDGE"]


def _quads(rng, n: int, scale_lo: float, scale_hi: float, spread: float = 8.0) -> np.ndarray:
    """n lanes in 2x2 quads (pixels (0,0), (1,0), (0,1), (1,1)), each quad with its own
    step (so its own LOD) and a random, possibly rotated footprint."""
    q = n // 4
    corner = rng.uniform(-spread, spread, (q, 2))
    step = np.exp(rng.uniform(np.log(scale_lo), np.log(scale_hi), q))
    angle = rng.uniform(0, 2 * np.pi, q)
    dx = np.stack([np.cos(angle), np.sin(angle)], 1) * step[:, None]
    dy = np.stack([-np.sin(angle), np.cos(angle)], 1) * step[:, None] * rng.uniform(0.5, 2, (q, 1))
    pix = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], np.float64)
    st = corner[:, None, :] + pix[None, :, 0:1] * dx[:, None, :] + pix[None, :, 1:2] * dy[:, None, :]
    return st.reshape(n, 2).astype(np.float32)


def _reference(monkeypatch, mem, st, **kw):
    """texture.sample on the general numpy path, and on the default path."""
    with monkeypatch.context() as m:
        m.setattr(sampling, "FAST_PATHS", False)
        m.setattr(native, "ENABLED", False)
        general = tex.sample(mem, DESC_VA, SAMP_VA, st, **kw)
    return general, tex.sample(mem, DESC_VA, SAMP_VA, st, **kw)


def _rows(mem, st, outs=(True,) * 4, **kw):
    """texture.sample_rows over the lanes of ``st`` -> (taken, (n, 4) with NaN where not written)."""
    n = st.shape[0]
    rows = [np.full(n, np.nan, np.float32) if o else None for o in outs]
    s, t = np.ascontiguousarray(st[:, 0]), np.ascontiguousarray(st[:, 1])
    taken = tex.sample_rows(mem, DESC_VA, SAMP_VA, s, t, rows, **kw)
    return taken, np.stack([r if r is not None else np.full(n, np.nan, np.float32) for r in rows], 1)


def _same(a, b):
    np.testing.assert_array_equal(np.asarray(a, np.float32).view(np.uint32), np.asarray(b, np.float32).view(np.uint32))


@pytest.fixture(autouse=True)
def _small_calls(monkeypatch):
    monkeypatch.setattr(native, "MIN_LANES", 1)


@pytest.mark.parametrize("mip", ["LINEAR", "NEAREST", "NONE"])
@pytest.mark.parametrize("wrap_s, wrap_t", [(w, WRAPS[(i + 1) % 4]) for i, w in enumerate(WRAPS)])
@pytest.mark.parametrize("size", [(64, 64), (37, 23)])
def test_lod_from_quads_equals_numpy(monkeypatch, mip, wrap_s, wrap_t, size):
    """Quads from magnified to several levels down: lanes of one batch at different
    levels (the general numpy path), and batches of one level (its direct path)."""
    rng = np.random.default_rng(40)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, *size), tiling="twiddled", pack_values=False)
    put_sampler(mem, wrap_s=wrap_s, wrap_t=wrap_t, min_filter="LINEAR", mag_filter="LINEAR", mip_filter=mip)
    monkeypatch.setattr(tex, "BATCH_LANES", 1024)
    st = np.concatenate([_quads(rng, 2048, 0.1 / size[0], 12.0 / size[0]),     # mixed levels
                         _quads(rng, 1024, 1.5 / size[0], 1.5 / size[0])])     # one level pair
    general, default = _reference(monkeypatch, mem, st)
    taken, got = _rows(mem, st, quads=True)
    assert taken
    _same(got, general)
    _same(got, default)
    assert 0 < got.mean() < 1


@pytest.mark.parametrize("case", ["per_lane", "uniform", "specials"])
def test_given_lod_and_biases_equal_numpy(monkeypatch, case):
    """textureLod (per lane or one value, NaN and infinities among them), then the
    sampler's bias and clamps on a view of levels 1..5."""
    rng = np.random.default_rng(41)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 128, 128), tiling="twiddled", pack_values=False, first_level=1, last_level=5)
    put_sampler(mem, wrap_s="REPEAT", wrap_t="MIRRORED_REPEAT", min_filter="LINEAR", mag_filter="LINEAR",
                mip_filter="LINEAR", lod_min=0.25, lod_max=3.5, lod_bias=0.375)
    n = 4096
    st = rng.uniform(-4, 4, (n, 2)).astype(np.float32)
    if case == "per_lane":
        lod = rng.uniform(-2, 6, n).astype(np.float32)
    elif case == "uniform":
        lod = np.full(n, 1.3, np.float32)
    else:
        lod = rng.choice(np.float32([np.nan, np.inf, -np.inf, -0.0, 0.0, 2.0, 3.125, -7]), n)
    general, default = _reference(monkeypatch, mem, st, lod=lod)
    taken, got = _rows(mem, st, quads=False, lod=lod if case != "uniform" else np.float32(1.3))
    assert taken
    _same(got, general)
    _same(got, default)


def test_bias_on_quads_and_lod_zero_without_quads(monkeypatch):
    rng = np.random.default_rng(42)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 64, 32), tiling="twiddled", pack_values=False)
    put_sampler(mem, wrap_s="CLAMP_TO_EDGE", wrap_t="REPEAT", min_filter="LINEAR", mag_filter="LINEAR",
                mip_filter="LINEAR")
    st = _quads(rng, 4096, 0.2 / 64, 6.0 / 64)
    bias = rng.uniform(-3, 3, st.shape[0]).astype(np.float32)
    general, _ = _reference(monkeypatch, mem, st, bias=bias)
    taken, got = _rows(mem, st, quads=True, bias=bias)
    assert taken
    _same(got, general)
    zero = np.zeros(st.shape[0], np.float32)             # no quads (vertex, compute): level 0, then the bias
    general, _ = _reference(monkeypatch, mem, st, lod=zero, bias=bias)
    taken, got = _rows(mem, st, quads=False, lod=np.float32(0), bias=bias)
    assert taken
    _same(got, general)


@pytest.mark.parametrize("fmt, swizzle", [("R8G8B8A8_UNORM", ("B", "ZERO", "R", "ONE")),
                                          ("B8G8R8A8_UNORM", ("A", "R", "G", "B"))])
def test_swizzles_and_rows_not_written(monkeypatch, fmt, swizzle):
    rng = np.random.default_rng(43)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 32, 32), fmt=fmt, tiling="twiddled", pack_values=False, swizzle=swizzle)
    put_sampler(mem, wrap_s="REPEAT", wrap_t="REPEAT", min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR")
    st = _quads(rng, 2048, 0.3 / 32, 4.0 / 32)
    general, _ = _reference(monkeypatch, mem, st)
    taken, got = _rows(mem, st, outs=(True, True, False, True), quads=True)
    assert taken
    _same(got[:, [0, 1, 3]], general[:, [0, 1, 3]])
    assert np.isnan(got[:, 2]).all()


@pytest.mark.parametrize("what", ["nan", "inf", "huge", "partial_quad", "format", "nearest", "border"])
def test_refuses_without_writing(monkeypatch, what):
    rng = np.random.default_rng(44)
    mem = new_memory()
    fmt = "R16G16B16A16_UNORM" if what == "format" else "R8G8B8A8_UNORM"
    data = mip_chain(rng, 32, 32)
    if what == "format":
        data = [d.astype(np.uint16) * 257 for d in data]
    put_texture(mem, data, fmt=fmt, tiling="twiddled", pack_values=False)
    put_sampler(mem, wrap_s="CLAMP_TO_BORDER" if what == "border" else "REPEAT", wrap_t="REPEAT",
                min_filter="NEAREST" if what == "nearest" else "LINEAR", mag_filter="LINEAR", mip_filter="LINEAR")
    st = _quads(rng, 1024, 0.3 / 32, 4.0 / 32)
    if what == "nan":
        st[517, 1] = np.nan
    elif what == "inf":
        st[3, 0] = -np.inf
    elif what == "huge":
        st[9, 0] = 4e7           # x 32 texels: beyond the int32-safe range
    elif what == "partial_quad":
        st = st[:-2]
    taken, got = _rows(mem, st, quads=True)
    assert not taken
    assert np.isnan(got).all()


def test_level_words_follow_memory_across_calls(monkeypatch):
    """The raster-order words kept across calls are used only while the image's bytes
    are the ones they came from: a rewritten image is sampled anew."""
    rng = np.random.default_rng(45)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 64, 64), tiling="twiddled", pack_values=False)
    put_sampler(mem, wrap_s="REPEAT", wrap_t="REPEAT", min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR")
    st = _quads(rng, 2048, 0.5 / 64, 3.0 / 64)
    _, first = _rows(mem, st, quads=True)
    put_texture(mem, mip_chain(rng, 64, 64), tiling="twiddled", pack_values=False)
    general, _ = _reference(monkeypatch, mem, st)
    taken, second = _rows(mem, st, quads=True)
    assert taken
    _same(second, general)
    assert not np.array_equal(first, second)


class _NoWindow:
    """A memory that reads like ``inner`` but offers no window onto its bytes."""

    def __init__(self, inner):
        self.inner = inner

    def read(self, va, nbytes, unit):
        return self.inner.read(va, nbytes, unit)

    def gather(self, vas, dtype, unit):
        return self.inner.gather(vas, dtype, unit)


def test_refuses_a_memory_without_a_window(monkeypatch):
    """The C path reads the image in place: a memory that cannot lend its bytes is left
    to the numpy path (which reads it, and faults, as ever), and nothing is written."""
    rng = np.random.default_rng(46)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 32, 32), tiling="twiddled", pack_values=False)
    put_sampler(mem, wrap_s="REPEAT", wrap_t="REPEAT", min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR")
    st = _quads(rng, 1024, 0.3 / 32, 4.0 / 32)
    taken, got = _rows(_NoWindow(mem), st, quads=True)
    assert not taken
    assert np.isnan(got).all()
    taken, got = _rows(mem, st, quads=True)
    assert taken
    _same(got, _reference(monkeypatch, mem, st)[0])


def test_small_calls_once_built(monkeypatch):
    """Under ``MIN_LANES`` lanes the C path runs only when its kernels are already built
    in the process (small test draws compile nothing); then it gives the numpy bits."""
    rng = np.random.default_rng(47)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 16, 16), tiling="twiddled", pack_values=False)
    put_sampler(mem, wrap_s="MIRRORED_REPEAT", wrap_t="CLAMP_TO_EDGE", min_filter="LINEAR", mag_filter="LINEAR",
                mip_filter="LINEAR")
    st = _quads(rng, 64, 0.3 / 16, 4.0 / 16)
    monkeypatch.setattr(native, "MIN_LANES", 1 << 12)
    assert native.built()           # (the module's fixture built them)
    taken, got = _rows(mem, st, quads=True)
    assert taken
    _same(got, _reference(monkeypatch, mem, st)[0])
    monkeypatch.setattr(native, "ENABLED", False)
    taken, got = _rows(mem, st, quads=True)
    assert not taken and np.isnan(got).all()


@pytest.mark.parametrize("tiling, levels", [("twiddled", (1, 3)), ("twiddled", (2, 2)), ("twiddled", (0, 6)),
                                            ("linear", (0, 0))])
def test_level_ranges_and_tilings(monkeypatch, tiling, levels):
    """A view of levels first..last of its miptree (the LOD's scale is the first
    level's size, the texels those levels' own), in twiddled and (one level) linear
    layouts."""
    rng = np.random.default_rng(48)
    mem = new_memory()
    chain = mip_chain(rng, 64, 32) if tiling == "twiddled" else mip_chain(rng, 48, 20, levels=1)
    put_texture(mem, chain, tiling=tiling, pack_values=False, first_level=levels[0], last_level=levels[1])
    put_sampler(mem, wrap_s="REPEAT", wrap_t="MIRROR_CLAMP_TO_EDGE", min_filter="LINEAR", mag_filter="LINEAR",
                mip_filter="LINEAR")
    st = _quads(rng, 2048, 0.1 / 64, 16.0 / 64)
    taken, got = _rows(mem, st, quads=True)
    assert taken
    _same(got, _reference(monkeypatch, mem, st)[0])
