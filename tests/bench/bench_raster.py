"""Speed of the geometry/raster units alone at 1024x1024 (no shading, no memory).

Workloads mirror the GPU model's speed targets (whole pipeline: full-screen quad
30 ms, 20k small depth-tested triangles 150 ms, 100 big blended triangles 1.5 s);
these rows are the raster units' share of them.

Times are process CPU time (``time.process_time``), best of a few runs: the
numpy code is single-threaded, so on a quiet machine this equals wall time, and on
a machine shared with other jobs it is far less noisy than wall time.
"""

from __future__ import annotations

import time

import numpy as np

from drmshim.gpu.raster import (DepthStencilState, Scratch, bin_triangles, barycentrics, clip_triangles,
                                depth_stencil, layers_of, rank_layers, rasterize, resolve_visibility,
                                setup_triangles, viewport_transform)

SIZE = 1024


def _best_ms(fn, repeat=3):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best * 1e3, out


def _window(clip):
    return viewport_transform(clip, (0, 0, SIZE, SIZE))


def fullscreen_quad():
    clip = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]], float)
    return clip, np.array([[0, 1, 2], [0, 2, 3]])


def small_triangles(n=20000, seed=1):
    rng = np.random.default_rng(seed)
    centre = rng.uniform(-1, 1, (n, 1, 2))
    # ~10 px area: edge ~4.5 px = 0.0088 NDC
    offs = rng.uniform(-1, 1, (n, 3, 2)) * (4.5 / SIZE * 2)
    clip = np.ones((n, 3, 4))
    clip[..., :2] = centre + offs
    clip[..., 2] = rng.uniform(-0.9, 0.9, (n, 1))
    return clip.reshape(-1, 4), np.arange(3 * n).reshape(n, 3)


def big_triangles(n=100, seed=2):
    rng = np.random.default_rng(seed)
    ang = rng.uniform(0, 2 * np.pi, (n, 1)) + np.array([0, 2.1, 4.2])[None, :] + rng.uniform(-0.3, 0.3, (n, 3))
    r = rng.uniform(1.6, 2.2, (n, 3))
    clip = np.ones((n, 3, 4))
    clip[..., 0] = r * np.cos(ang)
    clip[..., 1] = r * np.sin(ang)
    clip[..., 2] = rng.uniform(-0.5, 0.5, (n, 3))
    return clip.reshape(-1, 4), np.arange(3 * n).reshape(n, 3)


def geometry(clip, tris):
    c = clip_triangles(clip, tris)
    return setup_triangles(_window(c.position))


def run():
    rows = []
    rect = (0, 0, SIZE, SIZE)

    clip, tris = fullscreen_quad()
    setup = geometry(clip, tris)
    ms, frags = _best_ms(lambda: rasterize(setup, rect, 1))
    rows.append(("raster: full-screen quad, rasterize 1x", ms, f"{len(frags)} frags; pipeline target 30 ms"))
    ms, _ = _best_ms(lambda: rasterize(setup, rect, 4))
    rows.append(("raster: full-screen quad, rasterize 4x MSAA", ms, ""))
    ms, _ = _best_ms(lambda: barycentrics(setup, frags))
    rows.append(("raster: full-screen quad, perspective barycentrics", ms, "PDM share"))

    clip, tris = small_triangles()
    ms, setup = _best_ms(lambda: geometry(clip, tris))
    rows.append(("raster: 20k small tris, clip + viewport + setup", ms, ""))
    ms, frags = _best_ms(lambda: rasterize(setup, rect, 1))
    rows.append(("raster: 20k small tris, rasterize", ms, f"{len(frags)} frags"))
    ms, layers = _best_ms(lambda: rank_layers(frags.x, frags.y, frags.tri))
    rows.append(("raster: 20k small tris, per-pixel rank_layers (sort)", ms, f"{layers.count} layers"))
    layers = layers_of(frags)
    state = DepthStencilState(depth_test=True, depth_func="less")

    def depth():
        d = np.ones((SIZE, SIZE, 1), np.float32)
        return depth_stencil(frags, state, d, None, layers=layers)
    ms, _ = _best_ms(depth)
    rows.append(("raster: 20k small tris, depth test (layers given)", ms, ""))

    def hsr():
        d = np.ones((SIZE, SIZE, 1), np.float32)
        return resolve_visibility(frags, state, d, None, layers=layers)
    ms, _ = _best_ms(hsr)
    rows.append(("raster: 20k small tris, HSR visibility", ms, ""))

    def small_tiled(tile):
        tl = bin_triangles(setup, SIZE, SIZE, tile_size_px=tile)
        return sum(len(rasterize(setup, tl.tile_rect(t), 1, rows=tl.tile_rows(t))) for t in tl.nonempty_tiles())
    for tile in (32, 256):
        ms, n = _best_ms(lambda: small_tiled(tile), repeat=1)
        rows.append((f"raster: 20k small tris, bin + rasterize per {tile}px tile", ms,
                     "per-call overhead: rasterize big regions, not 32px tiles"))

    def small_regions(tile=32, region_tiles=8):
        tl = bin_triangles(setup, SIZE, SIZE, tile_size_px=tile)
        n = 0
        for ty in range(0, tl.tiles_y, region_tiles):
            for tx in range(0, tl.tiles_x, region_tiles):
                rect, r = tl.region(tx, ty, min(tx + region_tiles, tl.tiles_x), min(ty + region_tiles, tl.tiles_y))
                n += len(rasterize(setup, rect, 1, rows=r))
        return n
    ms, n = _best_ms(small_regions, repeat=1)
    rows.append(("raster: 20k small tris, 32px bins, rasterized as 256px regions", ms, f"{n} frags"))

    def whole_small():
        s = geometry(clip, tris)
        f = rasterize(s, rect, 1)
        d = np.ones((SIZE, SIZE, 1), np.float32)
        return depth_stencil(f, state, d, None)
    ms, _ = _best_ms(whole_small)
    rows.append(("raster: 20k small tris, all raster units", ms, "pipeline target 150 ms"))

    clip, tris = big_triangles()
    setup = geometry(clip, tris)

    def big_tiled(tile):
        tl = bin_triangles(setup, SIZE, SIZE, tile_size_px=tile)
        n = layers = 0
        for t in tl.nonempty_tiles():
            f = rasterize(setup, tl.tile_rect(t), 1, rows=tl.tile_rows(t))
            n += len(f)
            layers = max(layers, len(f.layer_offsets) - 1)
        return n, layers
    for tile in (128, 64):
        ms, (nfrags, nlayers) = _best_ms(lambda: big_tiled(tile), repeat=1)
        rows.append((f"raster: 100 big tris, bin + rasterize in layers, {tile}px tiles", ms,
                     f"{nfrags / 1e6:.1f} M frags, <= {nlayers} layers; pipeline target 1.5 s"))

    def big_depth(tile=128):
        tl = bin_triangles(setup, SIZE, SIZE, tile_size_px=tile)
        state = DepthStencilState(depth_test=True, depth_func="lequal")
        for t in tl.nonempty_tiles():
            x0, y0, x1, y1 = tl.tile_rect(t)
            f = rasterize(setup, (x0, y0, x1, y1), 1, rows=tl.tile_rows(t))
            d = np.ones((y1 - y0, x1 - x0, 1), np.float32)
            depth_stencil(f, state, d, None, origin=(x0, y0))
    for tile in (128, 256):
        ms, _ = _best_ms(lambda: big_depth(tile), repeat=1)
        rows.append((f"raster: 100 big tris, same + depth test in layer order", ms, f"{tile}px tiles"))

    def big_bary(tile=128):
        tl = bin_triangles(setup, SIZE, SIZE, tile_size_px=tile)
        for t in tl.nonempty_tiles():
            f = rasterize(setup, tl.tile_rect(t), 1, rows=tl.tile_rows(t))
            barycentrics(setup, f)
    ms, _ = _best_ms(big_bary, repeat=1)
    rows.append(("raster: 100 big tris, same + perspective barycentrics", ms, "128px tiles"))

    # the whole frame in one call, as the fragment pipeline does (no depth read)
    ms, frags = _best_ms(lambda: rasterize(setup, rect, 1, depth=False), repeat=2)
    rows.append(("raster: 100 big tris, whole frame, fresh arrays", ms, f"{len(frags) / 1e6:.1f} M frags"))
    del frags
    scratch = Scratch(2 << 30)
    ms, _ = _best_ms(lambda: rasterize(setup, rect, 1, depth=False, scratch=scratch), repeat=3)
    rows.append(("raster: 100 big tris, whole frame, into a reused Scratch", ms, "no fresh pages"))
    return rows


if __name__ == "__main__":
    for what, ms, note in run():
        print(f"{what:<60} {ms:>10.2f}  {note}")
