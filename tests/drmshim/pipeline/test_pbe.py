"""PBE fast paths against its general path: a whole-image overwrite (no read of
the old image) and whole-word record reads give the same bytes as reading the
image and scattering bytes."""

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
        image_read = target.lay.size_B in reads
        images.append(sp.get(target.va, target.lay.size_B))
        assert image_read == (key is None or cover == "part"), "a whole overwrite does not read the image"
    np.testing.assert_array_equal(images[0], images[1])
    pixels = target.pixels()
    np.testing.assert_array_equal(pixels[py, px], records[:, offset_B:offset_B + 4])
