"""BC1-BC5 (S3TC ``DXT1/3/5`` and ``RGTC1/2``) decompression, vectorised over blocks.

Blocks are little-endian; pixel (x, y) of a 4 x 4 block has index ``4 * y + x``
(row-major, unlike ETC). Interpolated colours and alphas are computed exactly
(as the S3TC and RGTC extensions state them: e.g. ``(2 * c0 + c1) / 3`` on the
8-bit-expanded endpoints) and normalised without intermediate rounding;
``raw=True`` gives them rounded to the nearest integer.

- BC1 (``DXT1_RGB``/``DXT1_RGBA``): two RGB565 endpoints; if ``c0 > c1`` four colours
  c0, c1, (2c0+c1)/3, (c0+2c1)/3, else three plus black, which is transparent
  (alpha 0) for ``DXT1_RGBA``.
- BC2 (``DXT3``): 4-bit explicit alpha (x 17), then a BC1 colour block always in
  four-colour mode.
- BC3 (``DXT5``): a BC4-style alpha block, then a four-colour BC1 block.
- BC4/BC5 (``RGTC1``/``RGTC2``): one/two 8-bit endpoint blocks with 3-bit indices;
  ``e0 > e1`` gives 8 values, else 6 plus the range's minimum and maximum. SNORM
  endpoints are signed bytes with -128 read as -127, normalised by 127.
- LATC1/LATC2 (EXT_texture_compression_latc): the BC4/BC5 blocks of luminance and
  alpha, decoded as (L, L, L, 1) and (L, L, L, A).
"""

from __future__ import annotations

import numpy as np

from layout.endpoints import nearest_entry, principal_extremes

__all__ = ["ENCODABLE", "compress_bc", "decompress_bc"]

_ROW_MAJOR = np.arange(16).reshape(4, 4)  # [y, x] -> pixel index


def _u64_le(blocks8: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(blocks8).view("<u8")[:, 0]


def _expand565(c: np.ndarray) -> np.ndarray:
    """(n,) RGB565 -> (n, 3) float64 8-bit-expanded channels."""
    r, g, b = (c >> 11) & 31, (c >> 5) & 63, c & 31
    return np.stack([(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)], -1).astype(np.float64)


def _indices(bits: np.ndarray, width: int) -> np.ndarray:
    """(n,) uint64 packed indices -> (n, 4, 4) int [y, x], ``width`` bits each."""
    shift = (_ROW_MAJOR * width).astype(np.uint64)[None]
    return ((bits[:, None, None] >> shift) & np.uint64((1 << width) - 1)).astype(np.intp)


def _bc1_colours(block8: np.ndarray, four_colour_only: bool) -> tuple[np.ndarray, np.ndarray]:
    """-> RGB (n, 4, 4, 3) float64 and a "black, transparent in 3-colour mode" mask."""
    word = _u64_le(block8)
    c0 = (word & np.uint64(0xFFFF)).astype(np.int64)
    c1 = ((word >> np.uint64(16)) & np.uint64(0xFFFF)).astype(np.int64)
    e0, e1 = _expand565(c0), _expand565(c1)
    four = np.ones_like(c0, dtype=bool) if four_colour_only else c0 > c1
    f = four[:, None]
    palette = np.stack([e0, e1,
                        np.where(f, (2 * e0 + e1) / 3, (e0 + e1) / 2),
                        np.where(f, (e0 + 2 * e1) / 3, 0.0)], 1)  # (n, 4, 3)
    idx = _indices(word >> np.uint64(32), 2)
    rgb = palette[np.arange(word.shape[0])[:, None, None], idx]
    transparent = ~four[:, None, None] & (idx == 3)
    return rgb, transparent


def _bc4_values(block8: np.ndarray, signed: bool) -> np.ndarray:
    """-> (n, 4, 4) float64 values in 0..255 (or -127..127 signed)."""
    word = _u64_le(block8)
    e = np.stack([(word & np.uint64(0xFF)), (word >> np.uint64(8)) & np.uint64(0xFF)], -1).astype(np.int64)
    if signed:
        e = np.where(e >= 128, e - 256, e)
        e = np.maximum(e, -127)
    e0, e1 = e[:, 0:1].astype(np.float64), e[:, 1:2].astype(np.float64)
    eight = e0 > e1
    k = np.arange(1, 7, dtype=np.float64)[None]
    lo, hi = (-127.0, 127.0) if signed else (0.0, 255.0)
    interp8 = ((7 - k) * e0 + k * e1) / 7  # indices 2..7
    k5 = np.arange(1, 5, dtype=np.float64)[None]
    interp6 = np.concatenate([((5 - k5) * e0 + k5 * e1) / 5, np.full_like(e0, lo), np.full_like(e0, hi)], 1)
    palette = np.concatenate([e0, e1, np.where(eight, interp8, interp6)], 1)  # (n, 8)
    idx = _indices(word >> np.uint64(16), 3)
    return palette[np.arange(word.shape[0])[:, None, None], idx]


def decompress_bc(name: str, blocks: np.ndarray, raw: bool, srgb: bool, to_linear) -> np.ndarray:
    """Decode BC1-BC5 blocks -> (n, 4, 4, 4) [block, y, x, c] (see the module doc)."""
    n = blocks.shape[0]
    out = np.zeros((n, 4, 4, 4), dtype=np.float64)
    if name.startswith("LATC"):          # BC4/BC5 blocks of luminance (and alpha): (L, L, L, A)
        signed = name.endswith("SNORM")
        one = 127.0 if signed else 255.0
        out[..., :3] = _bc4_values(blocks[:, :8], signed)[..., None]
        out[..., 3] = _bc4_values(blocks[:, 8:16], signed) if name.startswith("LATC2") else one
        if raw:
            return np.rint(out).astype(np.int32)
        return (out / one).astype(np.float32)
    if name.startswith("RGTC"):
        signed = name.endswith("SNORM")
        out[..., 0] = _bc4_values(blocks[:, :8], signed)
        if name.startswith("RGTC2"):
            out[..., 1] = _bc4_values(blocks[:, 8:16], signed)
        if raw:
            return np.rint(out).astype(np.int32)
        result = (out / (127.0 if signed else 255.0)).astype(np.float32)
        result[..., 3] = 1.0
        return result
    if name.startswith("DXT1"):
        rgb, transparent = _bc1_colours(blocks, four_colour_only=False)
        out[..., :3] = rgb
        out[..., 3] = 255.0
        if name in ("DXT1_RGBA", "DXT1_SRGBA"):
            out[transparent] = 0.0
    else:
        rgb, _ = _bc1_colours(blocks[:, 8:], four_colour_only=True)
        out[..., :3] = rgb
        if name.startswith("DXT3"):
            out[..., 3] = _indices(_u64_le(blocks[:, :8]), 4) * 17.0
        else:
            out[..., 3] = _bc4_values(blocks[:, :8], signed=False)
    if raw:
        return np.rint(out).astype(np.int32)
    result = out / 255.0
    if srgb:
        result[..., :3] = to_linear(result[..., :3])
    return result.astype(np.float32)


# -- encoding (the GL's online compression: glTexImage* with a specific S3TC/RGTC/BPTC format) --

ENCODABLE = ("DXT1_RGB", "DXT1_RGBA", "DXT3_RGBA", "DXT5_RGBA", "DXT1_SRGB", "DXT1_SRGBA",
              "DXT3_SRGBA", "DXT5_SRGBA", "RGTC1_UNORM", "RGTC1_SNORM", "RGTC2_UNORM", "RGTC2_SNORM",
              "BPTC_RGBA_UNORM", "BPTC_SRGBA", "BPTC_RGB_UFLOAT", "BPTC_RGB_FLOAT",
              "LATC1_UNORM", "LATC1_SNORM", "LATC2_UNORM", "LATC2_SNORM")


def _pack_indices(idx: np.ndarray, width: int) -> np.ndarray:
    """(n, 16) indices (pixel order 4 * y + x) -> (n,) uint64, ``width`` bits each."""
    shifts = (np.arange(16, dtype=np.uint64) * np.uint64(width))[None]
    return np.bitwise_or.reduce(idx.astype(np.uint64) << shifts, axis=1)


def _pack565(rgb8: np.ndarray) -> np.ndarray:
    """(n, 3) 0..255 -> (n,) RGB565, each channel rounded to its nearest code."""
    r = np.rint(rgb8[:, 0] * 31 / 255).astype(np.int64)
    g = np.rint(rgb8[:, 1] * 63 / 255).astype(np.int64)
    b = np.rint(rgb8[:, 2] * 31 / 255).astype(np.int64)
    return (r << 11) | (g << 5) | b


def _encode_bc1(rgb8: np.ndarray, transparent: np.ndarray | None) -> np.ndarray:
    """(n, 16, 3) colours 0..255 -> (n,) uint64 BC1 words. The endpoints are the
    block's per-channel extremes; with ``transparent`` texels (DXT1 RGBA) the block
    uses the three-colour mode and those texels index the transparent black."""
    n = rgb8.shape[0]
    picked = rgb8
    if transparent is not None:
        # transparent texels take no part in the endpoints: give them the opaque mean
        opaque = ~transparent[..., None]
        mean = (rgb8 * opaque).sum(1, keepdims=True) / np.maximum(opaque.sum(1, keepdims=True), 1)
        picked = np.where(opaque, rgb8, mean)
    rows = np.arange(n)
    lo_at, hi_at = principal_extremes(picked)
    hi, lo = _pack565(picked[rows, hi_at]), _pack565(picked[rows, lo_at])
    three = np.zeros(n, bool) if transparent is None else transparent.any(1)
    # four-colour mode needs c0 > c1, three-colour mode c0 <= c1
    c0 = np.where(three, np.minimum(hi, lo), np.maximum(hi, lo))
    c1 = np.where(three, np.maximum(hi, lo), np.minimum(hi, lo))
    e0, e1 = _expand565(c0), _expand565(c1)
    four = (c0 > c1)[:, None]
    palette = np.stack([e0, e1, np.where(four, (2 * e0 + e1) / 3, (e0 + e1) / 2),
                        np.where(four, (e0 + 2 * e1) / 3, np.inf)], 1)   # index 3 of 3-colour: never nearest
    idx = nearest_entry(rgb8, palette)
    if transparent is not None:
        idx = np.where(transparent, 3, idx)
    return (c0.astype(np.uint64) | (c1.astype(np.uint64) << np.uint64(16))
            | (_pack_indices(idx, 2) << np.uint64(32)))


def _encode_bc4(values: np.ndarray, signed: bool) -> np.ndarray:
    """(n, 16) values 0..255 (or -127..127 signed) -> (n,) uint64 BC4 words in the
    eight-value mode (e0 = max > e1 = min; equal endpoints index e0 only)."""
    v = np.rint(values).astype(np.int64)
    e0, e1 = v.max(1), v.min(1)
    ef0, ef1 = e0[:, None].astype(np.float64), e1[:, None].astype(np.float64)
    k = np.arange(1, 7, dtype=np.float64)[None]
    palette = np.concatenate([ef0, ef1, ((7 - k) * ef0 + k * ef1) / 7], 1)   # (n, 8)
    idx = nearest_entry(values[..., None].astype(np.float64), palette[..., None])
    idx = np.where((e0 == e1)[:, None], 0, idx)
    b0, b1 = (e0 & 0xFF).astype(np.uint64), (e1 & 0xFF).astype(np.uint64)
    return b0 | (b1 << np.uint64(8)) | (_pack_indices(idx, 3) << np.uint64(16))


def compress_bc(name: str, texels: np.ndarray) -> np.ndarray:
    """Encode (n, 4, 4, 4) RGBA texels [block, y, x, c] (normalised: 0..1, or -1..1
    for SNORM; BC6H: floats) into BC1-BC7 blocks (n, 8 or 16) uint8 that
    ``decompress_bc``/``decompress_bptc`` read back. The encoder is simple
    (endpoints at the block's extremes, nearest palette entries), as drivers'
    fallback encoders are: exact for blocks of two representable colours, close
    otherwise. sRGB formats encode the given values. BPTC: see
    ``bptc.compress_bptc``."""
    if name not in ENCODABLE:
        raise ValueError(f"{name} has no encoder")
    if name.startswith("BPTC"):
        from layout.bptc import compress_bptc
        return compress_bptc(name, texels)
    n = texels.shape[0]
    t = texels.reshape(n, 16, 4).astype(np.float64)
    if name.startswith(("RGTC", "LATC")):
        signed = name.endswith("SNORM")
        scale = 127.0 if signed else 255.0
        lo = -1.0 if signed else 0.0
        # RGTC2: red then green; LATC: luminance (the red of the GL's conversion), LATC2 then alpha
        channels = {"RGTC1": (0,), "RGTC2": (0, 1), "LATC1": (0,), "LATC2": (0, 3)}[name[:5]]
        words = [_encode_bc4(np.clip(t[..., c], lo, 1.0) * scale, signed) for c in channels]
    else:
        v8 = np.clip(t, 0.0, 1.0) * 255.0
        if name.startswith("DXT1"):
            transparent = v8[..., 3] < 127.5 if "RGBA" in name else None
            words = [_encode_bc1(v8[..., :3], transparent)]
        elif name.startswith("DXT3"):
            alpha = np.rint(v8[..., 3] / 17.0).astype(np.int64)
            words = [_pack_indices(alpha, 4), _encode_bc1(v8[..., :3], None)]
        else:
            words = [_encode_bc4(v8[..., 3], False), _encode_bc1(v8[..., :3], None)]
    out = np.stack([w.astype("<u8") for w in words], 1)
    return out.view(np.uint8).reshape(n, 8 * len(words))
