"""layout: addressing, tile/detile, pack/unpack and ETC2 decode at 1024x1024."""

from __future__ import annotations

import time

import numpy as np

import layout


def _ms(fn, repeat=5) -> float:
    fn()  # warm up
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def run() -> list[tuple[str, float, str]]:
    rng = np.random.default_rng(0)
    lay = layout.make_miptree(1024, 1024, levels=2)
    buf = np.zeros(lay.size_B, np.uint8)
    img = rng.integers(0, 256, (1024, 1024, 4), dtype=np.uint8)
    xs = rng.integers(0, 1024, 1 << 20)
    ys = rng.integers(0, 1024, 1 << 20)
    rgba = rng.random((1 << 20, 4), dtype=np.float32)
    packed = layout.pack("R8G8B8A8_UNORM", rgba)
    etc = rng.integers(0, 256, (256 * 256, 8), dtype=np.uint8)
    lay16 = layout.make_miptree(1024, 1024, format="R16G16B16A16_FLOAT")
    buf16 = np.zeros(lay16.size_B, np.uint8)
    img16 = rng.integers(0, 256, (1024, 1024, 8), dtype=np.uint8)
    return [
        ("make_miptree 1024x1024 RGBA8 full chain", _ms(lambda: layout.make_miptree(1024, 1024, levels=2), 50), ""),
        ("offset_B, 1M random (x, y), twiddled RGBA8", _ms(lambda: layout.offset_B(lay, xs, ys)), ""),
        ("tile 1024x1024 RGBA8 level 0", _ms(lambda: layout.tile(lay, buf, img, 0, 0, 0, 0, 1024, 1024)), ""),
        ("detile 1024x1024 RGBA8 level 0", _ms(lambda: layout.detile(lay, buf, 0, 0, 0, 0, 1024, 1024)), ""),
        ("tile 1024x1024 RGBA16F level 0", _ms(lambda: layout.tile(lay16, buf16, img16, 0, 0, 0, 0, 1024, 1024)), ""),
        ("detile 1024x1024 RGBA16F level 0", _ms(lambda: layout.detile(lay16, buf16, 0, 0, 0, 0, 1024, 1024)), ""),
        *_native_rows(lay, buf, img, lay16, buf16, img16),
        ("pack 1M RGBA8_UNORM", _ms(lambda: layout.pack("R8G8B8A8_UNORM", rgba)), ""),
        ("unpack 1M RGBA8_UNORM", _ms(lambda: layout.unpack("R8G8B8A8_UNORM", packed)), ""),
        ("pack 1M R11G11B10_FLOAT", _ms(lambda: layout.pack("R11G11B10_FLOAT", rgba)), ""),
        ("decompress ETC2_RGB8 1024x1024 (65536 blocks)", _ms(lambda: layout.decompress("ETC2_RGB8", etc), 3), ""),
    ]


def _native_rows(lay, buf, img, lay16, buf16, img16) -> list[tuple[str, float, str]]:
    """The same copies through ``layout.native``'s C (as the driver runs them), when
    a C compiler is there."""
    from layout import native
    from uapi.native_kernels import Kernels
    kernels = Kernels(native.SOURCE, native.CDEF)
    if not kernels.usable():
        return [("tile/detile in C", float("nan"), "no C compiler")]
    out = np.empty(1024 * 1024 * 4, np.uint8)
    return [
        ("tile 1024x1024 RGBA8 level 0, C", _ms(lambda: layout.tile(lay, buf, img, 0, 0, 0, 0, 1024, 1024,
                                                                    native=kernels)), ""),
        ("detile 1024x1024 RGBA8 level 0, C", _ms(lambda: layout.detile(lay, buf, 0, 0, 0, 0, 1024, 1024,
                                                                        native=kernels)), ""),
        ("detile 1024x1024 RGBA8 level 0, C, into a reused buffer",
         _ms(lambda: layout.detile(lay, buf, 0, 0, 0, 0, 1024, 1024, out=out, native=kernels)), "glReadPixels' case"),
        ("detile 1024x1024 RGBA16F level 0, C", _ms(lambda: layout.detile(lay16, buf16, 0, 0, 0, 0, 1024, 1024,
                                                                          native=kernels)), ""),
    ]
