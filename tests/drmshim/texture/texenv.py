"""Test scaffolding: put textures and samplers into a FlatMemory, and a
clarity-first reference sampler written from the GL spec with plain loops.

The reference reads texel values from the host arrays the test wrote (never through
layout's addressing), one lane and one texel at a time.
"""

from __future__ import annotations

import math

import numpy as np

import layout
from drmshim.gpu import texture as tex
from drmshim.memory import FlatMemory
from uapi import packets as P

BASE = 0x1_0000_0000
DESC_VA = BASE
SAMP_VA = BASE + 0x100
IMAGE_VA = BASE + 0x10000


def new_memory(size: int = 8 << 20) -> FlatMemory:
    return FlatMemory(size, BASE)


def put_texture(mem, levels_data, fmt="R8G8B8A8_UNORM", target="TEXTURE_2D", tiling="twiddled",
                va=IMAGE_VA, desc_va=DESC_VA, first_level=0, last_level=None, srgb=False,
                swizzle=("R", "G", "B", "A"), samples=1, pack_values=True, width=None, height=None):
    """Write an image and its TEXTURE descriptor.

    ``levels_data[l]``: array (layers, h, w, 4) of values for layout.pack (or raw
    uint8 (layers, h, w, bytes) when ``pack_values`` is False). Returns the Layout."""
    fmtobj = layout.get_format(fmt)
    l0 = levels_data[0]
    layers, h, w = l0.shape[:3]
    w = width or w
    h = height or h
    tgt = P.TextureTarget[target]
    depth = layers
    lay = layout.make_miptree(w, h, depth, len(levels_data), fmt, samples, tiling,
                              mipmapped_z=tgt == P.TextureTarget.TEXTURE_3D)
    buf = np.zeros(lay.size_B, np.uint8)
    if tiling == "twiddled_compressed":
        layout.clear_metadata(lay, buf)
    for level, data in enumerate(levels_data):
        nl = data.shape[0]
        for z in range(nl):
            raw = layout.pack(fmtobj, data[z]) if pack_values else data[z]
            lh, lw = data.shape[1:3]
            layout.tile(lay, buf, raw, level, z, 0, 0, lw if not fmtobj.is_compressed else lay.level_width_px(level),
                        lh if not fmtobj.is_compressed else lay.level_height_px(level))
    mem.write(va, buf, "TEST")
    desc = P.pack(P.TEXTURE, target=tgt, tiling=P.Tiling[tiling.upper()], srgb=srgb,
                  format_id=tex.format_id(fmt), swizzle_r=swizzle[0], swizzle_g=swizzle[1],
                  swizzle_b=swizzle[2], swizzle_a=swizzle[3], width_px=w, height_px=h,
                  sample_count=samples, depth_px=depth, levels=lay.levels, first_level=first_level,
                  last_level=lay.levels - 1 if last_level is None else last_level, address=va,
                  linear_stride_B=lay.linear_stride_B if tiling == "linear" else 0,
                  layer_stride_B=lay.layer_stride_B)
    mem.write(desc_va, desc, "TEST")
    return lay


def put_sampler(mem, va=SAMP_VA, **fields):
    """A SAMPLER, extended by a SAMPLER_BORDER when border_0..3 are given."""
    border = {k: fields.pop(k) for k in list(fields) if k.startswith("border_") and k != "border_colour"}
    data = P.pack(P.SAMPLER, **fields)
    if border:
        data += P.pack(P.SAMPLER_BORDER, **border)
    mem.write(va, data, "TEST")


def mip_chain(rng, w, h, layers=1, levels=None, depth_3d=False):
    """Random RGBA8 values (as bytes) for a full chain: list of uint8 (layers, h, w, 4)."""
    out = []
    level = 0
    while True:
        lw, lh = max(1, w >> level), max(1, h >> level)
        ll = max(1, layers >> level) if depth_3d else layers
        out.append(rng.integers(0, 256, (ll, lh, lw, 4), dtype=np.uint8))
        level += 1
        if (levels is not None and level == levels) or (levels is None and lw == 1 and lh == 1
                                                         and (not depth_3d or ll == 1)):
            return out


# -- the reference sampler --------------------------------------------------------------

def ref_wrap(i: int, n: int, mode: str):
    """GL 8.14.2: integer texel coordinate -> index, or None for the border."""
    if mode == "REPEAT":
        return i % n
    if mode == "MIRRORED_REPEAT":
        m = i % (2 * n)
        return m if m < n else 2 * n - 1 - m
    if mode == "MIRROR_CLAMP_TO_EDGE":
        a = i if i >= 0 else -(1 + i)
        return min(a, n - 1)
    if mode == "CLAMP_TO_BORDER":
        return i if 0 <= i < n else None
    return min(max(i, 0), n - 1)


def ref_level_select(lam: float, base: int, top: int, mip: str, mag_linear: bool, min_linear: bool):
    """GL 8.14/8.14.3: [(level, weight)], and whether the filter is linear."""
    c = 0.5 if (mag_linear and not min_linear and mip != "NONE") else 0.0
    if lam <= c:
        return [(base, 1.0)], mag_linear
    if mip == "NONE":
        return [(base, 1.0)], min_linear
    if mip == "NEAREST":
        d = base if lam <= 0.5 else base + math.ceil(lam + 0.5) - 1
        return [(min(d, top), 1.0)], min_linear
    d1 = min(base + math.floor(lam), top)
    if d1 >= top:
        return [(top, 1.0)], min_linear
    f = lam - math.floor(lam)
    return [(d1, 1 - f), (d1 + 1, f)], min_linear


def ref_sample_2d(levels, s, t, lam, *, layer=0, wrap_s="REPEAT", wrap_t="REPEAT", mip="NONE",
                  mag_linear=False, min_linear=False, base=0, top=None, border=(0, 0, 0, 0)):
    """One lane: levels[l] is float (layers, h, w, 4) of decoded texel values."""
    top = len(levels) - 1 if top is None else top
    chosen, linear = ref_level_select(lam, base, top, mip, mag_linear, min_linear)
    out = np.zeros(4)
    for level, lw in chosen:
        img = levels[level][layer]
        h, w = img.shape[:2]
        u, v = np.float32(s) * np.float32(w), np.float32(t) * np.float32(h)
        if linear:
            i0, j0 = math.floor(u - 0.5), math.floor(v - 0.5)
            a, b = (u - 0.5) - i0, (v - 0.5) - j0
            taps = [(i0, j0, (1 - a) * (1 - b)), (i0 + 1, j0, a * (1 - b)),
                    (i0, j0 + 1, (1 - a) * b), (i0 + 1, j0 + 1, a * b)]
        else:
            taps = [(math.floor(u), math.floor(v), 1.0)]
        for i, j, wt in taps:
            ii, jj = ref_wrap(i, w, wrap_s), ref_wrap(j, h, wrap_t)
            texel = np.asarray(border, float) if ii is None or jj is None else img[jj, ii]
            out += lw * wt * texel
    return out
