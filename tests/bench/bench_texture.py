"""Texture unit speed: one trilinear sample per lane over 1,048,576 lanes from a
256x256 RGBA8 mipmapped (twiddled) texture; target at most 60 ms (
llvmpipe's whole frame: 8.3 ms, softpipe: 193 ms).

Lanes are a 1024x1024 screen in 2x2 quads, with the texture repeated so each
pixel steps about 2.8 texels (lambda ~ 1.5: every lane blends levels 1 and 2),
the way a fragment shader would sample it. RGBA8 filters in the byte domain
(one packed 32-bit gather per tap: see ``drmshim.gpu.texture.sampling``); the
plain-numpy floor decodes to float first, within 1e-5 of it.
"""

from __future__ import annotations

import time

import numpy as np

import layout
from drmshim.gpu import texture as tex
from drmshim.memory import FlatMemory
from uapi import packets as P

BASE = 0x1_0000_0000
SIDE_PX = 1024
TEX_PX = 256
REPEATS = 11.3  # texture repeats across the screen: 256 * 11.3 / 1024 ~ 2.8 texels per pixel


def _setup():
    rng = np.random.default_rng(0)
    mem = FlatMemory(4 << 20, BASE)
    lay = layout.make_miptree(TEX_PX, TEX_PX, 1, 9, "R8G8B8A8_UNORM", 1, "twiddled")
    buf = np.zeros(lay.size_B, np.uint8)
    for level in range(lay.levels):
        w = lay.level_width_px(level)
        layout.tile(lay, buf, rng.integers(0, 256, (w, w, 4), dtype=np.uint8), level, 0, 0, 0, w, w)
    mem.write(BASE + 0x10000, buf, "BENCH")
    levels_f32 = [layout.unpack("R8G8B8A8_UNORM", layout.detile(lay, buf, l, 0, 0, 0, lay.level_width_px(l),
                                                                 lay.level_width_px(l))).reshape(-1, 4).T.copy()
                  for l in range(lay.levels)]
    mem.write(BASE, P.pack(P.TEXTURE, format_id=tex.format_id("R8G8B8A8_UNORM"), tiling="TWIDDLED",
                           width_px=TEX_PX, height_px=TEX_PX, levels=lay.levels, last_level=lay.levels - 1,
                           address=BASE + 0x10000, layer_stride_B=lay.layer_stride_B), "BENCH")
    mem.write(BASE + 0x100, P.pack(P.SAMPLER, min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR"),
              "BENCH")
    # 2x2 quads in raster order of quads
    q = np.arange(SIDE_PX * SIDE_PX // 4)
    qx, qy = q % (SIDE_PX // 2), q // (SIDE_PX // 2)
    px = (2 * qx)[:, None] + np.array([0, 1, 0, 1])
    py = (2 * qy)[:, None] + np.array([0, 0, 1, 1])
    st = np.stack([(px.ravel() + 0.5) / SIDE_PX * REPEATS, (py.ravel() + 0.5) / SIDE_PX * REPEATS], 1)
    return mem, st.astype(np.float32), levels_f32


def _numpy_floor(levels_f32, st, ddx, ddy):
    """The same trilinear samples, hand-written in plain numpy on linear float32
    level tables (4, h*w): the floor any texture unit in numpy pays."""
    w0 = np.float32(TEX_PX)
    rho = np.sqrt(np.maximum((ddx[:, 0] * w0) ** 2 + (ddx[:, 1] * w0) ** 2, (ddy[:, 0] * w0) ** 2 + (ddy[:, 1] * w0) ** 2))
    lam = np.log2(rho)
    fl = np.floor(lam)
    lvl = fl.astype(np.intp)
    f = lam - fl
    out = np.zeros((4, st.shape[0]), np.float32)
    for d, lw in ((0, 1 - f), (1, f)):
        level = int(lvl[0]) + d  # uniform here, as in the benchmark
        size = TEX_PX >> level
        table = levels_f32[level]
        u = st[:, 0] * np.float32(size) - np.float32(0.5)
        v = st[:, 1] * np.float32(size) - np.float32(0.5)
        iu, iv = np.floor(u), np.floor(v)
        a, b = u - iu, v - iv
        i0 = iu.astype(np.intp) & (size - 1)
        j0 = iv.astype(np.intp) & (size - 1)
        i1 = (i0 + 1) & (size - 1)
        j1 = (j0 + 1) & (size - 1)
        r0, r1 = j0 * size, j1 * size
        for idx, wt in ((r0 + i0, (1 - a) * (1 - b) * lw), (r0 + i1, a * (1 - b) * lw),
                        (r1 + i0, (1 - a) * b * lw), (r1 + i1, a * b * lw)):
            for ch in range(4):
                out[ch] += table[ch].take(idx) * wt
    return out


def _best_ms(fn, repeats=5) -> float:
    """Best of ``repeats`` runs, in CPU time of this process (other processes on a
    shared 2-core machine inflate wall time far more than CPU time)."""
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        fn()
        best = min(best, (time.process_time() - t) * 1e3)
    return best


def run() -> list[tuple[str, float, str]]:
    mem, st, levels_f32 = _setup()
    n = st.shape[0]
    ddx = np.tile(np.float32([REPEATS / SIDE_PX, 0]), (n, 1))
    ddy = np.tile(np.float32([0, REPEATS / SIDE_PX]), (n, 1))
    rows = []
    batch = tex.BATCH_LANES

    def floor_run():  # in the same batches as the texture unit, for a fair comparison
        return np.concatenate([_numpy_floor(levels_f32, st[s:s + batch], ddx[s:s + batch], ddy[s:s + batch])
                               for s in range(0, n, batch)], axis=1)
    np.testing.assert_allclose(tex.sample(mem, BASE, BASE + 0x100, st, ddx=ddx, ddy=ddy), floor_run().T, atol=1e-5)
    floor_ms = _best_ms(floor_run)
    rows.append((f"texture: plain-numpy trilinear floor (same samples, {batch}-lane batches)", floor_ms,
                 "reference in this run"))
    ms = _best_ms(lambda: tex.sample(mem, BASE, BASE + 0x100, st))
    rows.append(("texture: trilinear, 1M lanes, 256^2 RGBA8, LOD from quads", ms,
                 f"target <= 60 ms; {ms / floor_ms:.2f}x the numpy floor"))
    from drmshim.gpu.texture import native
    if native.available():     # the same call on the numpy path (the kernel's specification)
        native.ENABLED = False
        try:
            numpy_ms = _best_ms(lambda: tex.sample(mem, BASE, BASE + 0x100, st), repeats=3)
        finally:
            native.ENABLED = True
        rows.append(("texture: the same, numpy filter (C kernel off)", numpy_ms,
                     f"the C kernel: {ms / numpy_ms:.2f}x this"))
    ms = _best_ms(lambda: tex.sample(mem, BASE, BASE + 0x100, st, ddx=ddx, ddy=ddy))
    rows.append(("texture: trilinear, 1M lanes, explicit gradients", ms,
                 f"target <= 60 ms; {ms / floor_ms:.2f}x the numpy floor"))
    lod = np.zeros(n, np.float32)
    ms = _best_ms(lambda: tex.sample(mem, BASE, BASE + 0x100, st, lod=lod))
    rows.append(("texture: bilinear (lod 0), 1M lanes", ms, ""))
    coords = (np.floor(st * TEX_PX).astype(np.int64) % TEX_PX)
    ms = _best_ms(lambda: tex.load(mem, BASE, coords, 0))
    rows.append(("texture: texelFetch, 1M lanes", ms, ""))
    return rows


if __name__ == "__main__":
    for what, ms, note in run():
        print(f"{what:<60} {ms:>10.2f}  {note}")
