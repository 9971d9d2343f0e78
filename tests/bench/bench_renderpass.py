"""The work around the shader core of a 1024x1024 render pass: the background
program's texel fetch of the previous image, the PBE's store, the readback's
client copy; each fast path next to the general path it must equal."""

from __future__ import annotations

import time

import numpy as np

import layout
from drmshim.gpu import texture as tex
from drmshim.gpu.pipeline.pbe import store_render_target
from drmshim.gpu.texture.sampling import load_view
from drmshim.memory import FlatMemory
from uapi import packets as P

BASE = 0x1_0000_0000
W = H = 1024
TILE = 32


def _ms(fn, repeat=3) -> float:
    fn()  # warm up
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _tile_major():
    ly, lx = np.divmod(np.arange(TILE * TILE), TILE)
    ty, tx = np.divmod(np.arange((W // TILE) * (H // TILE)), W // TILE)
    return (tx[:, None] * TILE + lx).ravel(), (ty[:, None] * TILE + ly).ravel()


def run() -> list[tuple[str, float, str]]:
    from driver.gl import enums as E
    from driver.gl.pixels import from_resource_bytes, write_client_bytes, write_client_image
    from driver.gl.state import PixelStore
    rng = np.random.default_rng(0)
    lay = layout.make_miptree(W, H, format="R8G8B8A8_UNORM", tiling="twiddled_compressed")
    mem = FlatMemory(2 * lay.size_B + (1 << 16), BASE)
    image = BASE + (1 << 16)
    buf = np.zeros(lay.size_B, np.uint8)
    layout.clear_metadata(lay, buf)
    layout.tile(lay, buf, rng.integers(0, 256, (H, W, 4), dtype=np.uint8), 0, 0, 0, 0, W, H)
    mem.write(image, buf, "bench")
    mem.write(BASE, P.pack(P.TEXTURE, tiling="TWIDDLED_COMPRESSED", format_id=tex.format_id("R8G8B8A8_UNORM"),
                           width_px=W, height_px=H, address=image), "bench")
    mem.write(BASE + 0x100, P.pack("PBE", tiling="TWIDDLED_COMPRESSED", format_id=tex.format_id("R8G8B8A8_UNORM"),
                                   width_px=W, height_px=H, address=image), "bench")
    px, py = _tile_major()
    coords = np.stack([px, py], 1)
    view = tex.read_texture(mem, BASE)
    records = rng.integers(0, 256, (W * H, 8), dtype=np.uint8)
    raw = rng.integers(0, 256, (1, H, W, 4), dtype=np.uint8)
    store = PixelStore(alignment=4)
    return [
        ("texelFetch 1M lanes, tile-major, compressed RGBA8 (bulk)",
         _ms(lambda: tex.load(mem, BASE, coords, 0)), "texels.fetch_level"),
        ("texelFetch 1M lanes, same (general load_view)",
         _ms(lambda: load_view(mem, view, coords, 0)), "same values"),
        ("PBE store 1M pixels, whole compressed level (named pixels)",
         _ms(lambda: store_render_target(mem, BASE + 0x100, 4, records, px, py, 1, pixels_key="bench")),
         "gather, metadata only"),
        ("PBE store 1M pixels, same (general: read, resolve, scatter)",
         _ms(lambda: store_render_target(mem, BASE + 0x100, 4, records, px, py, 1)), "same bytes"),
        ("readback copy 1024x1024 RGBA8 (passthrough)",
         _ms(lambda: write_client_bytes(raw, store, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), "same bytes"),
        ("readback copy, same (unpack to RGBA, pack)",
         _ms(lambda: write_client_image(from_resource_bytes(raw.tobytes(), "R8G8B8A8_UNORM", (1, H, W)), store,
                                        E.GL_RGBA, E.GL_UNSIGNED_BYTE), 1), ""),
    ]
