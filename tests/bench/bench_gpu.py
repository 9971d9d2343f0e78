"""Speed of the whole GPU model at 1024x1024: commands built directly (no GL, no
kernel), vertex half + fragment half of one render command on a flat address
space, with three workloads (the GPU model's speed targets):

- a full-screen quad, trivial fragment shader (constant colour), clear + store;
- 20,000 small triangles (~10 px each) with a depth test (opaque: HSR);
- 100 large overlapping triangles blended in the shader (ld_tile + st_tile).

Times are process CPU time, best of a few runs (see bench_raster).
"""

from __future__ import annotations

import time

import numpy as np

from drmshim.gpu.pipeline import Executor
from tests.drmshim.pipeline.gpu import Scene, Space, constant_fs
from tests.drmshim.pipeline.test_equivalence import BINDINGS, BLEND_FS, OPAQUE_FS

SIZE = 1024


def _best_ms(make, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        sc = make()
        ex = Executor(sysmem=False, hsr=True)
        cmd = sc.command()
        t0 = time.process_time()
        ex.run_vertex(cmd)
        ex.run_fragment(cmd)
        best = min(best, time.process_time() - t0)
    return best * 1e3, cmd


def _space():
    return Space(64 << 20)


def fullscreen_quad():
    sc = Scene(_space(), SIZE, SIZE, clear=(0, 0, 0, 1))
    sc.draw(np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, 1, 0, 1]], np.float32),
            constant_fs((1, 0.5, 0.25, 1)), primitive="TRIANGLE_STRIP")
    return sc


def small_triangles(n=20_000, seed=0):
    rng = np.random.default_rng(seed)
    centre = rng.uniform(-1, 1, (n, 1, 2))
    xy = centre + rng.uniform(-4.5, 4.5, (n, 3, 2)) / SIZE * 2    # ~10 px each on average
    z = rng.uniform(-1, 1, (n, 1, 1)).repeat(3, 1)
    colour = rng.uniform(0, 1, (n, 3, 4))
    verts = np.concatenate([xy, z, np.ones((n, 3, 1)), colour], 2).reshape(-1, 8)
    sc = Scene(_space(), SIZE, SIZE)
    sc.draw(verts, OPAQUE_FS, varyings=4, cf_bindings=BINDINGS, zs=dict(depth_func="LESS", depth_write=True))
    return sc


def large_blended(n=100, seed=1):
    rng = np.random.default_rng(seed)
    centre = rng.uniform(-0.5, 0.5, (n, 1, 2))
    xy = centre + rng.uniform(-0.6, 0.6, (n, 3, 2))
    colour = rng.uniform(0, 1, (n, 3, 4))
    verts = np.concatenate([xy, np.zeros((n, 3, 1)), np.ones((n, 3, 1)), colour], 2).reshape(-1, 8)
    sc = Scene(_space(), SIZE, SIZE)
    sc.draw(verts, BLEND_FS, varyings=4, cf_bindings=BINDINGS)
    return sc


def overdraw(m=100, seed=1240):
    """glbench's tris_big_overdraw pattern: m jittered full-screen triangles, blended,
    no depth test (about 82 fragments a pixel)."""
    rng = np.random.default_rng(seed)
    base = np.array([[-1, -1], [3, -1], [-1, 3]], np.float64)
    jit = rng.uniform(0.0, 1.2, (m, 3, 2))
    pos = (base[None] + np.where(base[None] > 0, -jit, jit * 0.25)) * (rng.integers(0, 2, (m, 1, 2)) * 2 - 1)
    colour = np.concatenate([rng.uniform(0, 1, (m, 3, 3)), rng.uniform(0.1, 0.3, (m, 3, 1))], 2)
    verts = np.concatenate([pos, np.zeros((m, 3, 1)), np.ones((m, 3, 1)), colour], 2).reshape(-1, 8)
    sc = Scene(_space(), SIZE // 2, SIZE // 2)
    sc.draw(verts.astype(np.float32), BLEND_FS, varyings=4, cf_bindings=BINDINGS)
    return sc


def _overdraw_rows() -> list[tuple[str, float, str]]:
    """The overdraw pattern at 512x512 rasterised and shaded bin by bin in C
    (``fragment._bin_pass``), with the pass's layers in one lane-ordered run, and
    layer by layer, interleaved (CPU ms, best of 2 each; the first run compiles)."""
    from drmshim.gpu.pipeline import fragment
    ordered = fragment._PassContext._ordered_pass
    modes = ("bins", "ordered", "layers")
    best = dict.fromkeys(modes, float("inf"))
    _best_ms(overdraw, repeat=1)
    try:
        for _ in range(2):
            for mode in modes:
                fragment.BIN_PASSES = mode == "bins"
                fragment._PassContext._ordered_pass = ordered if mode != "layers" else (lambda self, layers: None)
                best[mode] = min(best[mode], _best_ms(overdraw, repeat=1)[0])
    finally:
        fragment.BIN_PASSES = True
        fragment._PassContext._ordered_pass = ordered
    return [("gpu: glbench overdraw pattern 512^2, bin by bin", best["bins"], "blended, no depth"),
            ("gpu: glbench overdraw pattern 512^2, layers in one ordered run", best["ordered"], "the same pass"),
            ("gpu: glbench overdraw pattern 512^2, layer by layer", best["layers"], "the same pass, one run per layer")]


def run() -> list[tuple[str, float, str]]:
    rows = []
    ms, cmd = _best_ms(fullscreen_quad)
    rows.append(("gpu: full-screen quad, trivial FS, 1024^2", ms, "target <= 30 ms"))
    ms, cmd = _best_ms(small_triangles, repeat=2)
    c = cmd.counters.snapshot()
    rows.append(("gpu: 20k small triangles, depth test (HSR)", ms,
                 f"target <= 150 ms; {c['fragments']} fragments shaded"))
    ms, cmd = _best_ms(large_blended, repeat=1)
    c = cmd.counters.snapshot()
    rows.append(("gpu: 100 large blended triangles", ms, f"target <= 1500 ms; {c['fragments']} fragments"))
    rows += _overdraw_rows()
    return rows


if __name__ == "__main__":
    for what, ms, note in run():
        print(f"{what:50s} {ms:9.1f} ms  {note}")
