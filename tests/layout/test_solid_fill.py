"""Reading solid subtiles by subtile (``fill_solid``, used by ``detile`` and
``resolve``) against the sample-by-sample specification ``solid_patches``:
random mixtures of plain and solid subtiles, every element size, 1/2/4 samples,
images whose size is not a multiple of a subtile, and regions at odd offsets."""

import numpy as np
import pytest

from layout import (
    SUBTILE_SOLID, clear_metadata, detile, make_miptree, metadata_index, offset_B, resolve,
    subtile_uncompressed_mode, tile_modes,
)
from layout.compression import solid_patches

CASES = [("R8_UNORM", 1), ("R8G8_UNORM", 2), ("R8G8B8A8_UNORM", 1), ("R8G8B8A8_UNORM", 2),
         ("R8G8B8A8_UNORM", 4), ("R16G16B16A16_FLOAT", 1), ("R32G32B32A32_FLOAT", 1),
         ("R32G32B32A32_FLOAT", 4)]


def _image(fmt: str, samples: int, w: int, h: int, share_solid: float, seed: int):
    rng = np.random.default_rng(seed)
    lay = make_miptree(w, h, format=fmt, sample_count_sa=samples, tiling="twiddled_compressed")
    buf = rng.integers(0, 256, lay.size_B, dtype=np.uint8)
    clear_metadata(lay, buf)
    modes = tile_modes(lay, buf, 0)
    solid = rng.random(modes.shape) < share_solid
    h_tl, w_tl = modes.shape[:2]
    ty, tx = np.mgrid[0:h_tl, 0:w_tl]
    at = metadata_index(lay, 0, tx, ty)[..., None] + np.arange(8)
    buf[at] = np.where(solid, SUBTILE_SOLID, subtile_uncompressed_mode(fmt))
    return lay, buf


def _reference(lay, buf, x: int, y: int, w: int, h: int) -> np.ndarray:
    """Each element read at its own address, then every solid sample replaced by
    its value as ``solid_patches`` lists it."""
    ys, xs = np.mgrid[y:y + h, x:x + w]
    size_B = lay.blocksize_B
    out = buf[offset_B(lay, xs, ys)[..., None] + np.arange(size_B)].copy()
    px, py, sample, values = solid_patches(lay, buf, 0, 0)
    keep = (px >= x) & (px < x + w) & (py >= y) & (py < y + h)
    bpp = lay.bytes_per_block_B
    cols = (sample[keep] * bpp)[:, None] + np.arange(bpp)
    out[(py[keep] - y)[:, None], (px[keep] - x)[:, None], cols] = values[keep]
    return out


@pytest.mark.parametrize("fmt,samples", CASES)
@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_detile_reads_solid_subtiles_as_the_specification(fmt, samples, share):
    lay, buf = _image(fmt, samples, 45, 27, share, seed=samples * 7 + len(fmt))
    before = buf.copy()
    for x, y, w, h in [(0, 0, 45, 27), (3, 1, 17, 9), (8, 4, 16, 8), (44, 26, 1, 1), (5, 0, 40, 27)]:
        ref = _reference(lay, buf, x, y, w, h)
        assert np.array_equal(detile(lay, buf, 0, 0, x, y, w, h), ref), (x, y, w, h)
        into = np.full(ref.size, 0xEE, np.uint8)
        got = detile(lay, buf, 0, 0, x, y, w, h, out=into)
        assert got.base is not None and np.shares_memory(got, into)
        assert np.array_equal(into.reshape(ref.shape), ref), (x, y, w, h)
    assert np.array_equal(buf, before)       # reads leave the image alone


@pytest.mark.parametrize("fmt,samples", CASES[::2])
def test_resolve_stores_what_was_read(fmt, samples):
    lay, buf = _image(fmt, samples, 37, 21, 0.4, seed=3)
    ref = _reference(lay, buf, 0, 0, 37, 21)
    assert (tile_modes(lay, buf, 0) == SUBTILE_SOLID).any()
    resolve(lay, buf, 0, 0)
    assert (tile_modes(lay, buf, 0) == subtile_uncompressed_mode(fmt)).all()
    assert np.array_equal(_reference(lay, buf, 0, 0, 37, 21), ref)


def test_out_must_fit_the_region():
    lay, buf = _image("R8G8B8A8_UNORM", 1, 16, 16, 0.5, seed=1)
    with pytest.raises(ValueError, match="holds 1020 B"):
        detile(lay, buf, 0, 0, 0, 0, 16, 16, out=np.zeros(1020, np.uint8))
    with pytest.raises(ValueError, match="writable"):
        detile(lay, buf, 0, 0, 0, 0, 16, 16, out=bytes(1024))


@pytest.mark.parametrize("fmt", ["R8_UNORM", "R8G8_UNORM", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                                 "R32G32B32A32_FLOAT"])
@pytest.mark.parametrize("w,h", [(64, 64), (128, 32), (32, 96), (45, 27)])
def test_solid_value_is_the_value_every_pixel_reads(fmt, w, h):
    """``solid_value`` (a fill's source for ``detile``) against the specification:
    a value exactly when every pixel reads as it (after a fast clear), None once one
    copy of one tile differs or one subtile is plain."""
    from layout import fast_clear
    from layout.compression import solid_value
    rng = np.random.default_rng(w + h + len(fmt))
    lay = make_miptree(w, h, format=fmt, tiling="twiddled_compressed")
    buf = rng.integers(0, 256, lay.size_B, dtype=np.uint8)
    clear_metadata(lay, buf)
    assert solid_value(lay, buf, 0) is None
    value = rng.integers(0, 256, lay.blocksize_B, dtype=np.uint8)
    fast_clear(lay, buf, 0, 0, value)
    assert np.array_equal(_reference(lay, buf, 0, 0, w, h), np.broadcast_to(value, (h, w, lay.blocksize_B)))
    assert np.array_equal(solid_value(lay, buf, 0), value)
    for copy in (0, 1):              # copies of the last tile: a subtile with pixels in the image reads another value
        other = buf.copy()
        other[offset_B(lay, (w - 1) // 16 * 16, (h - 1) // 16 * 16) + copy * lay.blocksize_B] ^= 0x40
        ref = _reference(lay, other, 0, 0, w, h)
        assert len(np.unique(ref.reshape(-1, lay.blocksize_B), axis=0)) == 2
        assert solid_value(lay, other, 0) is None
    plain = buf.copy()
    plain[metadata_index(lay, 0, 0, 0) + 5] = subtile_uncompressed_mode(fmt)
    assert solid_value(lay, plain, 0) is None
