"""The fragment pipeline's C kernels against their numpy specifications on one
frame's worth of lanes: 2x2 quads of two full-screen triangles at 1024x1024 (with
the pick and the lanes' records) and each fragment's tile record. CPU time of this
process, best of a few runs."""

from __future__ import annotations

import time

import numpy as np

from drmshim.gpu.pipeline import fragment, native
from drmshim.gpu.pipeline.render import TiledVertexBuffer, _pixel_map

SIDE_PX = 1024


def _best_ms(fn, repeats=3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        fn()
        best = min(best, (time.process_time() - t) * 1e3)
    return best


def _frame():
    tvb = TiledVertexBuffer(SIDE_PX, SIDE_PX, 1, 32, False, True)
    _, _, record_of, _ = _pixel_map(tvb, np.arange(tvb.tiles_x * tvb.tiles_y, dtype=np.int64))
    blocks = SIDE_PX // 16      # fragments in the rasteriser's 16 x 16 block order
    by, bx = np.divmod(np.arange(blocks * blocks), blocks)
    ly, lx = np.divmod(np.arange(256), 16)
    fx = (bx[:, None] * 16 + lx).ravel().astype(np.int32)
    fy = (by[:, None] * 16 + ly).ravel().astype(np.int32)
    tri = (fx > fy).astype(np.int32)
    f = np.argsort(record_of[fy, fx], kind="stable").astype(np.int64)    # shaded in record order
    return record_of, fx, fy, tri, f


def _numpy_quads(record_of, fx, fy, tri, f):
    X, Y, *_ = fragment._quads(fx[f], fy[f], tri[f], np.zeros(len(f), np.int32), f, 1, SIDE_PX, SIDE_PX)
    h, w = record_of.shape
    return record_of[np.clip(Y, 0, h - 1), np.clip(X, 0, w - 1)]


def run() -> list[tuple[str, float, str]]:
    record_of, fx, fy, tri, f = _frame()
    if not native.KERNELS.usable():
        return [("fragment kernels: not built (no C compiler)", 0.0, "")]
    rows = []
    ms_np = _best_ms(lambda: _numpy_quads(record_of, fx, fy, tri, f))
    ms_c = _best_ms(lambda: native.quads_single_sample(fx, fy, tri, f, SIDE_PX, SIDE_PX, record_of, (0, 0)))
    rows.append(("quads: 1M fragments, 2 triangles, numpy (with pick, records)", ms_np, "specification"))
    rows.append(("quads: the same, C kernel", ms_c, f"{ms_c / ms_np:.2f}x numpy"))
    native.KERNELS.enabled = False
    try:
        ms_np = _best_ms(lambda: fragment.records_at(record_of, fx, fy))
    finally:
        native.KERNELS.enabled = True
    ms_c = _best_ms(lambda: fragment.records_at(record_of, fx, fy))
    rows.append(("records: 1M fragments, numpy take", ms_np, "specification"))
    rows.append(("records: the same, C (whole tiles: arithmetic)", ms_c, f"{ms_c / ms_np:.2f}x numpy"))
    return rows


if __name__ == "__main__":
    for what, ms, note in run():
        print(f"{what:<60} {ms:>10.2f}  {note}")
