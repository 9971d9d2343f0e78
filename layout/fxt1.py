"""FXT1 (GL_3DFX_texture_compression_FXT1) decoding and encoding, vectorised over blocks.

A block is 128 bits (little-endian) for 8 x 4 texels, split into two 4 x 4 halves:
texels 0-15 are the left half and 16-31 the right one, each row-major
(texel ``16 * (x >= 4) + 4 * y + x % 4``). The top bits choose one of four modes
(the extension's appendix):

- ``CC_HI`` (bits 127:126 = 00): two RGB555 colours (color1 at 125:111, color0 at
  110:96), 3-bit indices (texel t at bits 3t+2:3t): index 0-6 the colours
  ``((6 - i) * color0 + i * color1 + 3) / 6``, index 7 transparent black.
- ``CC_CHROMA`` (127:125 = 010): four RGB555 colours (color k at 64 + 15k:
  blue, green, red, 5 bits each), 2-bit indices (texel t at bits 2t+1:2t), no
  interpolation, opaque.
- ``CC_MIXED`` (bit 127 = 1): the same four colour fields, colours 0/1 for the
  left half and 2/3 for the right. Bit 124 (``alpha``) = 0: four RGB565 colours
  whose green LSBs are bit 125 (color1), bit 126 (color3), bit 1 ^ bit 125
  (color0) and bit 33 ^ bit 126 (color2); a half's palette is c0,
  ``(2 c0 + c1 + 1) / 3``, ``(c0 + 2 c1 + 1) / 3``, c1. Bit 124 = 1: colours 0/2
  RGB555, 1/3 RGB565 (same green LSBs); palette c0, ``(c0 + c1) / 2``, c1 and
  transparent black.
- ``CC_ALPHA`` (127:125 = 011): three ARGB5555 colours (alphas at 113:109,
  118:114, 123:119). Bit 124 (``lerp``) = 0: palette c0, c1, c2, transparent
  black; = 1: the left half interpolates c0 -> c1, the right one c2 -> c1 (as
  ``CC_MIXED``'s thirds, alpha included).

5-bit channels widen to 8 bits by repeating their top 3 bits, 6-bit ones their
top 2; every interpolation above is integer arithmetic on the 8-bit values (the
extension's formulas), so a decoded value is exact. ``FXT1_RGB`` reads alpha as 1.

The encoder (``compress_fxt1``) is simple, as drivers' fallback encoders are:
opaque blocks use ``CC_MIXED`` (RGB565 endpoints at each half's extremes, the
nearest of the four entries), blocks whose texels are all opaque or transparent
black ``CC_MIXED`` with bit 124 set, other blocks ``CC_ALPHA``: the closest of
three candidates (two with ``lerp``, one direct palette). Blocks of one colour per
half are exact up to RGB565 (ARGB5555 for ``CC_ALPHA``), as are blocks of three
ARGB5555 colours with alpha.
"""

from __future__ import annotations

import numpy as np

from layout.endpoints import nearest_entry, principal_extremes

__all__ = ["FXT1_FORMATS", "compress_fxt1", "decompress_fxt1", "TEXEL_INDEX"]

FXT1_FORMATS = ("FXT1_RGB", "FXT1_RGBA")

#: [y, x] of an 8 x 4 block -> the extension's texel number (left half 0-15, right 16-31).
TEXEL_INDEX = np.array([[16 * (x // 4) + 4 * y + x % 4 for x in range(8)] for y in range(4)])

_TRANSPARENT = np.zeros(4, np.int64)


def _bits(blocks: np.ndarray) -> np.ndarray:
    """(n, 16) uint8 -> (n, 128) int64 bits, bit k of the little-endian block at k."""
    return np.unpackbits(blocks, axis=1, bitorder="little").astype(np.int64)


def _field(bits: np.ndarray, start: int, width: int) -> np.ndarray:
    return bits[:, start:start + width] @ (np.int64(1) << np.arange(width, dtype=np.int64))


def _up5(v):
    return (v << 3) | (v >> 2)


def _up6(v):
    return (v << 2) | (v >> 4)


def _colour555(bits, k: int, green=None):
    """Colour field k (k = 0..3 at bit 64 + 15k: blue, green, red) -> (n, 4) ARGB in
    RGBA order, 8 bits each, alpha 255; ``green`` a 6-bit green replaces the field's."""
    base = 64 + 15 * k
    b, g, r = _field(bits, base, 5), _field(bits, base + 5, 5), _field(bits, base + 10, 5)
    g8 = _up5(g) if green is None else _up6(green)
    return np.stack([_up5(r), g8, _up5(b), np.full_like(r, 255)], -1)


def _thirds(c0, c1):
    """(n, 4) endpoints -> (n, 4, 4) palette c0, (2c0+c1+1)/3, (c0+2c1+1)/3, c1."""
    return np.stack([c0, (2 * c0 + c1 + 1) // 3, (c0 + 2 * c1 + 1) // 3, c1], 1)


def _palettes(bits: np.ndarray):
    """-> (palette (n, 2, 8, 4) per half, index (n, 32)) of each block by its mode."""
    n = bits.shape[0]
    mixed = bits[:, 127] == 1
    hi = ~mixed & (bits[:, 126] == 0)
    chroma = ~mixed & ~hi & (bits[:, 125] == 0)
    alpha_mode = ~mixed & ~hi & ~chroma
    pal = np.zeros((n, 2, 8, 4), np.int64)

    # CC_HI: 3-bit indices, seven levels between color0 and color1 and transparent black
    c1 = np.stack([_up5(_field(bits, 121, 5)), _up5(_field(bits, 116, 5)), _up5(_field(bits, 111, 5))], -1)
    c0 = np.stack([_up5(_field(bits, 106, 5)), _up5(_field(bits, 101, 5)), _up5(_field(bits, 96, 5))], -1)
    i = np.arange(7)[None, :, None]
    levels = ((6 - i) * c0[:, None] + i * c1[:, None] + 3) // 6                       # (n, 7, 3)
    hi_pal = np.zeros((n, 8, 4), np.int64)
    hi_pal[:, :7, :3], hi_pal[:, :7, 3] = levels, 255
    idx3 = bits[:, :96].reshape(n, 32, 3) @ np.array([1, 2, 4])
    idx2 = bits[:, :64].reshape(n, 32, 2) @ np.array([1, 2])

    # CC_CHROMA: four colours as they are
    cols = [_colour555(bits, k) for k in range(4)]
    chroma_pal = np.stack(cols, 1)                                                    # (n, 4, 4)

    # CC_MIXED: colours 0/1 for the left half, 2/3 for the right
    g5 = [_field(bits, 69 + 15 * k, 5) for k in range(4)]
    lsb1, lsb3 = bits[:, 125], bits[:, 126]
    c1m, c3m = _colour555(bits, 1, (g5[1] << 1) | lsb1), _colour555(bits, 3, (g5[3] << 1) | lsb3)
    c0m = _colour555(bits, 0, (g5[0] << 1) | (bits[:, 1] ^ lsb1))
    c2m = _colour555(bits, 2, (g5[2] << 1) | (bits[:, 33] ^ lsb3))
    punch = bits[:, 124] == 1
    mixed_opaque = np.stack([_thirds(c0m, c1m), _thirds(c2m, c3m)], 1)               # (n, 2, 4, 4)
    t = np.broadcast_to(_TRANSPARENT, (n, 4))
    mixed_punch = np.stack([np.stack([cols[0], (cols[0] + c1m) // 2, c1m, t], 1),
                            np.stack([cols[2], (cols[2] + c3m) // 2, c3m, t], 1)], 1)
    mixed_pal = np.where(punch[:, None, None, None], mixed_punch, mixed_opaque)

    # CC_ALPHA: three ARGB5555 colours, a direct palette or two interpolated halves
    ca = [cols[k].copy() for k in range(3)]
    for k in range(3):
        ca[k][:, 3] = _up5(_field(bits, 109 + 5 * k, 5))
    lerp = bits[:, 124] == 1
    direct = np.stack([ca[0], ca[1], ca[2], t], 1)
    alpha_pal = np.where(lerp[:, None, None, None],
                         np.stack([_thirds(ca[0], ca[1]), _thirds(ca[2], ca[1])], 1),
                         np.stack([direct, direct], 1))

    pal[hi] = hi_pal[hi][:, None]
    pal[chroma, :, :4] = chroma_pal[chroma][:, None]
    pal[mixed, :, :4] = mixed_pal[mixed]
    pal[alpha_mode, :, :4] = alpha_pal[alpha_mode]
    index = np.where(hi[:, None], idx3, idx2)
    return pal, index


def _decode_bits(bits: np.ndarray) -> np.ndarray:
    """(n, 128) bits -> (n, 4, 8, 4) int64 RGBA texels [block, y, x, c]."""
    pal, index = _palettes(bits)
    t = TEXEL_INDEX[None]                                                            # (1, 4, 8)
    rows = np.arange(bits.shape[0])[:, None, None]
    return pal[rows, (t >= 16).astype(np.intp), index[rows, t]]


def decompress_fxt1(name: str, blocks: np.ndarray, raw: bool) -> np.ndarray:
    """Decode FXT1 blocks (n, 16) uint8 -> (n, 4, 8, 4) RGBA [block, y, x, c]: floats
    0..1, or the 8-bit values with ``raw``. ``FXT1_RGB`` reads alpha as 1."""
    if name not in FXT1_FORMATS:
        raise ValueError(f"{name} is not an FXT1 format")
    out = _decode_bits(_bits(blocks))
    if name == "FXT1_RGB":
        out[..., 3] = 255
    if raw:
        return out.astype(np.int32)
    return (out / 255.0).astype(np.float32)


# -- encoding (glTexImage* with an FXT1 internal format) --

def _put(bits: np.ndarray, start: int, width: int, values: np.ndarray) -> None:
    """Write (n,) values as bits start .. start + width - 1 of each block."""
    v = np.asarray(values, np.int64)
    bits[:, start:start + width] = (v[:, None] >> np.arange(width, dtype=np.int64)) & 1


def _put_indices(bits: np.ndarray, indices: np.ndarray) -> None:
    """(n, 32) 2-bit indices -> bits 63:0 (texel t at bits 2t+1:2t)."""
    bits[:, 0:64:2] = indices & 1
    bits[:, 1:64:2] = indices >> 1


def _halves(texels: np.ndarray) -> np.ndarray:
    """(n, 4, 8, c) [y, x] -> (n, 2, 16, c): each half's texels in the extension's order."""
    n = texels.shape[0]
    return texels.reshape(n, 4, 2, 4, -1).transpose(0, 2, 1, 3, 4).reshape(n, 2, 16, -1)


def _q(v: np.ndarray, bits: int) -> np.ndarray:
    """0..255 -> the nearest ``bits``-bit code."""
    top = (1 << bits) - 1
    return np.clip(np.rint(v * top / 255.0), 0, top).astype(np.int64)


def _encode_mixed(rgb: np.ndarray, transparent: np.ndarray) -> np.ndarray:
    """(n, 2, 16, 3) colours 0..255 and (n, 2, 16) transparency -> (n, 128) bits of
    CC_MIXED blocks (bit 124 set where a block has transparent texels)."""
    n = rgb.shape[0]
    bits = np.zeros((n, 128), np.int64)
    punch = transparent.any((1, 2))
    bits[:, 127] = 1
    bits[:, 124] = punch
    indices = np.zeros((n, 2, 16), np.int64)
    for half in range(2):
        col, tr = rgb[:, half], transparent[:, half]
        opaque = ~tr[..., None]
        mean = (col * opaque).sum(1, keepdims=True) / np.maximum(opaque.sum(1, keepdims=True), 1)
        picked = np.where(opaque, col, mean)
        lo_at, hi_at = principal_extremes(picked)
        rows = np.arange(n)
        e = [picked[rows, lo_at], picked[rows, hi_at]]
        r = [_q(x[:, 0], 5) for x in e]
        b = [_q(x[:, 2], 5) for x in e]
        g6 = [_q(x[:, 1], 6) for x in e]
        # colour 0 (2) of a punch-through block is RGB555: its green keeps 5 bits
        g6[0] = np.where(punch, _q(e[0][:, 1], 5) << 1, g6[0])
        green0 = np.where(punch, _up5(g6[0] >> 1), _up6(g6[0]))
        c = [np.stack([_up5(r[0]), green0, _up5(b[0])], -1).astype(np.float64),
             np.stack([_up5(r[1]), _up6(g6[1]), _up5(b[1])], -1).astype(np.float64)]
        opaque_pal = np.stack([c[0], (2 * c[0] + c[1] + 1) // 3, (c[0] + 2 * c[1] + 1) // 3, c[1]], 1)
        punch_pal = np.stack([c[0], (c[0] + c[1]) // 2, c[1], np.full_like(c[0], np.inf)], 1)
        pal = np.where(punch[:, None, None], punch_pal, opaque_pal)
        idx = nearest_entry(col, pal)
        idx = np.where(tr, 3, idx)
        # opaque blocks: colour 0's green LSB is bit 1 of the half's first index xor
        # colour 1's; where that is not so, swap the colours and invert the indices
        swap = ~punch & (((idx[:, 0] >> 1) & 1) != ((g6[0] ^ g6[1]) & 1))
        r = [np.where(swap, r[1], r[0]), np.where(swap, r[0], r[1])]
        b = [np.where(swap, b[1], b[0]), np.where(swap, b[0], b[1])]
        g6 = [np.where(swap, g6[1], g6[0]), np.where(swap, g6[0], g6[1])]
        idx = np.where(swap[:, None], 3 - idx, idx)
        base = 64 + 30 * half
        _put(bits, base, 5, b[0])
        _put(bits, base + 5, 5, g6[0] >> 1)
        _put(bits, base + 10, 5, r[0])
        _put(bits, base + 15, 5, b[1])
        _put(bits, base + 20, 5, g6[1] >> 1)
        _put(bits, base + 25, 5, r[1])
        bits[:, 125 + half] = g6[1] & 1
        indices[:, half] = idx
    _put_indices(bits, indices.reshape(n, 32))
    return bits


def _alpha_bits(rgba: np.ndarray, colours: list[np.ndarray], lerp: bool) -> np.ndarray:
    """(n, 128) bits of CC_ALPHA blocks of three colours (n, 4) 0..255 (quantised to
    ARGB5555 here), each texel indexing the nearest entry of its half's palette."""
    n = rgba.shape[0]
    q = [_q(x, 5) for x in colours]
    c = [_up5(x).astype(np.float64) for x in q]
    bits = np.zeros((n, 128), np.int64)
    _put(bits, 125, 3, np.full(n, 0b011))                               # mode CC_ALPHA
    bits[:, 124] = lerp
    for k in range(3):
        base = 64 + 15 * k
        _put(bits, base, 5, q[k][:, 2])
        _put(bits, base + 5, 5, q[k][:, 1])
        _put(bits, base + 10, 5, q[k][:, 0])
        _put(bits, 109 + 5 * k, 5, q[k][:, 3])
    if lerp:
        pals = [_thirds(c[0], c[1]), _thirds(c[2], c[1])]
    else:
        pals = [np.stack([c[0], c[1], c[2], np.zeros_like(c[0])], 1)] * 2
    _put_indices(bits, np.concatenate([nearest_entry(rgba[:, h], pals[h]) for h in range(2)], 1))
    return bits


def _encode_alpha(rgba: np.ndarray) -> np.ndarray:
    """(n, 2, 16, 4) texels 0..255 -> (n, 128) bits of CC_ALPHA blocks: of three
    candidates the one closest to the texels (squared error): lerp with colour 1 at
    either end of the block's principal axis (colours 0 and 2 the texels of the left
    and right halves farthest from it), and the direct palette of both ends and the
    texel farthest from the segment between them."""
    n = rgba.shape[0]
    rows = np.arange(n)
    whole = rgba.reshape(n, 32, 4)
    lo_at, hi_at = principal_extremes(whole)
    lo, hi = whole[rows, lo_at], whole[rows, hi_at]
    candidates = []
    for shared in (lo, hi):
        ends = [rgba[:, h][rows, ((rgba[:, h] - shared[:, None]) ** 2).sum(-1).argmax(1)] for h in range(2)]
        candidates.append(_alpha_bits(rgba, [ends[0], shared, ends[1]], lerp=True))
    seg = hi - lo
    t = np.clip(((whole - lo[:, None]) * seg[:, None]).sum(-1) / np.maximum((seg ** 2).sum(-1), 1e-9)[:, None], 0, 1)
    off = ((whole - (lo[:, None] + t[..., None] * seg[:, None])) ** 2).sum(-1)
    candidates.append(_alpha_bits(rgba, [lo, whole[rows, off.argmax(1)], hi], lerp=False))
    target = rgba.reshape(n, 2, 4, 4, 4).transpose(0, 2, 1, 3, 4).reshape(n, 4, 8, 4)
    errors = [((_decode_bits(bits) - target) ** 2).sum((1, 2, 3)) for bits in candidates]
    best = np.argmin(np.stack(errors, 1), 1)
    return np.stack(candidates, 1)[rows, best]


def compress_fxt1(name: str, texels: np.ndarray) -> np.ndarray:
    """Encode (n, 4, 8, 4) RGBA texels [block, y, x, c] (0..1) into FXT1 blocks
    (n, 16) uint8 that ``decompress_fxt1`` reads back (see the module doc)."""
    if name not in FXT1_FORMATS:
        raise ValueError(f"{name} is not an FXT1 format")
    n = texels.shape[0]
    v8 = np.clip(np.asarray(texels, np.float64), 0.0, 1.0) * 255.0
    if name == "FXT1_RGB":
        v8[..., 3] = 255.0
    halves = _halves(v8)                                                  # (n, 2, 16, 4)
    alpha = halves[..., 3]
    transparent = (alpha < 0.5) & (halves[..., :3] < 0.5).all(-1)     # transparent black
    punch_only = ((alpha >= 254.5) | transparent).all((1, 2))
    bits = np.zeros((n, 128), np.int64)
    if punch_only.any():
        bits[punch_only] = _encode_mixed(halves[punch_only][..., :3], transparent[punch_only])
    if (~punch_only).any():
        bits[~punch_only] = _encode_alpha(halves[~punch_only])
    return np.packbits(bits.astype(np.uint8), axis=1, bitorder="little")
