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
"""

from __future__ import annotations

import numpy as np

__all__ = ["decompress_bc"]

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
