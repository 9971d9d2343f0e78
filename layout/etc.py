"""ETC1, ETC2 and EAC decompression, vectorised over blocks.

Implements the block formats GLES 3.0 requires (Khronos Data Format
specification, "ETC2 compressed texture image formats"): ETC1_RGB8, ETC2_RGB8 and
ETC2_SRGB8 (individual, differential, T, H and planar modes), ETC2_RGB8A1 and
ETC2_SRGB8A1 (punch-through alpha), ETC2_RGBA8 and ETC2_SRGBA8 (EAC alpha + ETC2
colour), ETC2_R11/RG11 UNORM and SNORM (EAC 11-bit).

A 64-bit ETC/EAC block is a big-endian integer (byte 0 holds bits 63..56). Pixel
(x, y) of the 4 x 4 block has index ``i = 4 * x + y`` (column-major).

``decompress(format, blocks)`` takes uint8 ``(nblocks, block_size_B)`` and returns
``(nblocks, 4, 4, 4)`` RGBA indexed ``[block, y, x, channel]``:
- default: float32 in [0, 1] ([-1, 1] for SNORM), sRGB formats decoded to linear,
  missing channels 0 (colour) and 1 (alpha), as ``unpack`` does;
- ``raw=True``: the integer values the block encodes, before normalisation (int32):
  8-bit colour/alpha for ETC/EAC-alpha, 11-bit values (0..2047, or -1023..1023
  signed) for R11/RG11.

The same entry point decodes BC1-BC5 (``DXT1/3/5``, ``RGTC1/2``, see ``bc.py``) and
BPTC (BC7 and BC6H, see ``bptc.py``), ASTC LDR 2D blocks (``astc.py``) and FXT1
(``fxt1.py``); the result is ``(nblocks, block_height_px, block_width_px, 4)``.
``compress(format, texels)`` is the inverse for the formats the GL itself encodes
(``ENCODABLE``: S3TC, RGTC, LATC, BPTC in ``bc.py``/``bptc.py``, FXT1).
"""

from __future__ import annotations

import numpy as np

from .astc import decompress_astc
from .bc import ENCODABLE as _BC_ENCODABLE, compress_bc, decompress_bc
from .bptc import decompress_bptc
from .formats import Format, get_format
from .fxt1 import FXT1_FORMATS, compress_fxt1, decompress_fxt1
from .pack import srgb_to_linear

#: The BPTC formats ``decompress`` decodes (BC7 and BC6H).
DECODED_BPTC = frozenset({"BPTC_RGBA_UNORM", "BPTC_SRGBA", "BPTC_RGB_UFLOAT", "BPTC_RGB_FLOAT"})

#: The block formats ``compress`` encodes (glTexImage* into a specific compressed format).
ENCODABLE = frozenset(_BC_ENCODABLE) | frozenset(FXT1_FORMATS)

__all__ = ["decompress", "decompress_image", "compress", "ENCODABLE", "DECODED_BPTC", "ETC_MODIFIERS", "ETC_DISTANCES", "EAC_MODIFIERS"]

# Intensity modifiers by table codeword, indexed by the 2-bit pixel index
# (msb, lsb): 0 -> +a, 1 -> +b, 2 -> -a, 3 -> -b.
ETC_MODIFIERS = np.array([[2, 8, -2, -8], [5, 17, -5, -17], [9, 29, -9, -29],
                          [13, 42, -13, -42], [18, 60, -18, -60], [24, 80, -24, -80],
                          [33, 106, -33, -106], [47, 183, -47, -183]], dtype=np.int64)
# Punch-through with the opaque bit clear: index 0 and 2 lose their modifier
# (and index 2 is transparent).
_ETC_MODIFIERS_NON_OPAQUE = ETC_MODIFIERS * np.array([0, 1, 0, 1])
# [opaque][codeword][index]
_MODIFIER_TABLES = np.stack([_ETC_MODIFIERS_NON_OPAQUE, ETC_MODIFIERS]).astype(np.int32)
# T and H mode distances.
ETC_DISTANCES = np.array([3, 6, 11, 16, 23, 32, 41, 64], dtype=np.int64)
# EAC modifier tables, indexed by the 3-bit pixel index.
EAC_MODIFIERS = np.array([
    [-3, -6, -9, -15, 2, 5, 8, 14], [-3, -7, -10, -13, 2, 6, 9, 12],
    [-2, -5, -8, -13, 1, 4, 7, 12], [-2, -4, -6, -13, 1, 3, 5, 12],
    [-3, -6, -8, -12, 2, 5, 7, 11], [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10], [-3, -5, -8, -11, 2, 4, 7, 10],
    [-2, -6, -8, -10, 1, 5, 7, 9], [-2, -5, -8, -10, 1, 4, 7, 9],
    [-2, -4, -8, -10, 1, 3, 7, 9], [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9], [-1, -2, -3, -10, 0, 1, 2, 9],
    [-4, -6, -8, -9, 3, 5, 7, 8], [-3, -5, -7, -9, 2, 4, 6, 8]], dtype=np.int64)

# Pixel (y, x) -> pixel index i = 4x + y, as a (4, 4) grid indexed [y, x].
_PIXEL_INDEX = (4 * np.arange(4)[None, :] + np.arange(4)[:, None]).astype(np.int64)
_X = np.broadcast_to(np.arange(4)[None, :], (4, 4)).astype(np.int64)
_Y = np.broadcast_to(np.arange(4)[:, None], (4, 4)).astype(np.int64)


def _u64(blocks8: np.ndarray) -> np.ndarray:
    """Big-endian 64-bit words of (n, 8) uint8 blocks, as uint64."""
    return np.ascontiguousarray(blocks8).view(">u8")[:, 0].astype(np.uint64)


def _bits(word: np.ndarray, hi: int, lo: int) -> np.ndarray:
    """Bits hi..lo (inclusive) of each word, as int64."""
    return ((word >> np.uint64(lo)) & np.uint64((1 << (hi - lo + 1)) - 1)).astype(np.int64)


def _ext4(v):
    return (v << 4) | v


def _ext5(v):
    return (v << 3) | (v >> 2)


def _ext6(v):
    return (v << 2) | (v >> 4)


def _ext7(v):
    return (v << 1) | (v >> 6)


def _decode_etc2_rgb(word: np.ndarray, punchthrough: bool) -> tuple[np.ndarray, np.ndarray]:
    """(n,) uint64 colour words -> RGB int64 (n, 4, 4, 3) [block, y, x, c] and an
    opacity mask (n, 4, 4) (all True unless punch-through). Each mode is decoded
    only for the blocks that use it."""
    n = word.shape[0]
    flag33 = _bits(word, 33, 33).astype(bool)
    # Punch-through blocks are always "differential"; bit 33 is the opaque flag.
    diff = np.ones(n, dtype=bool) if punchthrough else flag33
    opaque = flag33 if punchthrough else np.ones(n, dtype=bool)

    # Per-pixel 2-bit index: msb from bits 31..16, lsb from bits 15..0.
    pix = _PIXEL_INDEX.astype(np.uint64)[None]
    w = word[:, None, None]
    idx = ((((w >> (np.uint64(16) + pix)) & np.uint64(1)) << np.uint64(1))
           | ((w >> pix) & np.uint64(1))).astype(np.int64)  # (n, 4, 4)

    # The differential fields decide the mode: an overflowing R, G or B selects
    # T, H or planar mode.
    base5 = np.stack([_bits(word, 63, 59), _bits(word, 55, 51), _bits(word, 47, 43)], -1)
    delta = np.stack([_bits(word, 58, 56), _bits(word, 50, 48), _bits(word, 42, 40)], -1)
    second5 = base5 + np.where(delta >= 4, delta - 8, delta)
    overflow = (second5 < 0) | (second5 > 31)
    t_mode = diff & overflow[:, 0]
    h_mode = diff & ~overflow[:, 0] & overflow[:, 1]
    p_mode = diff & ~overflow[:, 0] & ~overflow[:, 1] & overflow[:, 2]
    etc1 = ~(t_mode | h_mode | p_mode)

    out = np.empty((n, 4, 4, 3), dtype=np.int32)
    if etc1.any():
        out[etc1] = _etc1_modes(word[etc1], idx[etc1], diff[etc1], opaque[etc1])
    th = t_mode | h_mode
    if th.any():
        out[th] = _t_h_modes(word[th], idx[th], t_mode[th])
    if p_mode.any():
        out[p_mode] = _planar_mode(word[p_mode])
    visible = opaque[:, None, None] | p_mode[:, None, None] | (idx != 2)
    out[~visible] = 0
    return out, visible


def _etc1_modes(word, idx, diff, opaque):
    """Individual and differential modes: two sub-blocks, each a base colour plus
    a per-pixel intensity modifier."""
    base5 = np.stack([_bits(word, 63, 59), _bits(word, 55, 51), _bits(word, 47, 43)], -1)
    delta = np.stack([_bits(word, 58, 56), _bits(word, 50, 48), _bits(word, 42, 40)], -1)
    second5 = np.clip(base5 + np.where(delta >= 4, delta - 8, delta), 0, 31)
    ind1 = _ext4(np.stack([_bits(word, 63, 60), _bits(word, 55, 52), _bits(word, 47, 44)], -1))
    ind2 = _ext4(np.stack([_bits(word, 59, 56), _bits(word, 51, 48), _bits(word, 43, 40)], -1))
    c1 = np.where(diff[:, None], _ext5(base5), ind1)
    c2 = np.where(diff[:, None], _ext5(second5), ind2)
    cw1, cw2 = _bits(word, 39, 37), _bits(word, 36, 34)
    flip = _bits(word, 32, 32).astype(bool)
    # flip 0: left/right 2x4 sub-blocks; flip 1: top/bottom 4x2 sub-blocks.
    second = np.where(flip[:, None, None], _Y[None] >= 2, _X[None] >= 2).astype(np.intp)  # (n, 4, 4)
    block = np.arange(word.shape[0])[:, None, None]
    base = np.stack([c1, c2], 1).astype(np.int32)[block, second]  # (n, 4, 4, 3)
    cw = np.stack([cw1, cw2], 1)[block, second]
    mod = _MODIFIER_TABLES[opaque.astype(np.intp)[:, None, None], cw, idx]
    base += mod[..., None]
    return np.clip(base, 0, 255, out=base)


def _t_h_modes(word, idx, t_mode):
    """T and H modes: four paint colours, chosen per pixel by its index."""
    # T mode: paint colours C1, C2 + d, C2, C2 - d.
    t1 = _ext4(np.stack([(_bits(word, 60, 59) << 2) | _bits(word, 57, 56),
                         _bits(word, 55, 52), _bits(word, 51, 48)], -1))
    t2 = _ext4(np.stack([_bits(word, 47, 44), _bits(word, 43, 40), _bits(word, 39, 36)], -1))
    td = ETC_DISTANCES[(_bits(word, 35, 34) << 1) | _bits(word, 32, 32)][:, None]
    t_paint = np.stack([t1, np.clip(t2 + td, 0, 255), t2, np.clip(t2 - td, 0, 255)], 1)
    # H mode: paint colours C1 + d, C1 - d, C2 + d, C2 - d; the distance index's
    # low bit is whether C1 >= C2 (as 12-bit RGB444 values).
    h1_4 = np.stack([_bits(word, 62, 59), (_bits(word, 58, 56) << 1) | _bits(word, 52, 52),
                     (_bits(word, 51, 51) << 3) | _bits(word, 49, 47)], -1)
    h2_4 = np.stack([_bits(word, 46, 43), _bits(word, 42, 39), _bits(word, 38, 35)], -1)
    key1 = (h1_4[:, 0] << 8) | (h1_4[:, 1] << 4) | h1_4[:, 2]
    key2 = (h2_4[:, 0] << 8) | (h2_4[:, 1] << 4) | h2_4[:, 2]
    hd = ETC_DISTANCES[(_bits(word, 34, 34) << 2) | (_bits(word, 32, 32) << 1)
                       | (key1 >= key2).astype(np.int64)][:, None]
    h1, h2 = _ext4(h1_4), _ext4(h2_4)
    h_paint = np.stack([np.clip(h1 + hd, 0, 255), np.clip(h1 - hd, 0, 255),
                        np.clip(h2 + hd, 0, 255), np.clip(h2 - hd, 0, 255)], 1)
    paint = np.where(t_mode[:, None, None], t_paint, h_paint)  # (n, 4, 3)
    return paint[np.arange(word.shape[0])[:, None, None], idx]  # (n, 4, 4, 3)


def _planar_mode(word):
    """Planar mode: origin O, horizontal H and vertical V colours, interpolated."""
    o = np.stack([_ext6(_bits(word, 62, 57)),
                  _ext7((_bits(word, 56, 56) << 6) | _bits(word, 54, 49)),
                  _ext6((_bits(word, 48, 48) << 5) | (_bits(word, 44, 43) << 3) | _bits(word, 41, 39))], -1)
    h = np.stack([_ext6((_bits(word, 38, 34) << 1) | _bits(word, 32, 32)),
                  _ext7(_bits(word, 31, 25)), _ext6(_bits(word, 24, 19))], -1)
    v = np.stack([_ext6(_bits(word, 18, 13)), _ext7(_bits(word, 12, 6)), _ext6(_bits(word, 5, 0))], -1)
    o_, h_, v_ = o[:, None, None], h[:, None, None], v[:, None, None]
    return np.clip((_X[None, ..., None] * (h_ - o_) + _Y[None, ..., None] * (v_ - o_) + 4 * o_ + 2) >> 2, 0, 255)


def _decode_eac(word: np.ndarray, eleven_bit: bool, signed: bool) -> np.ndarray:
    """(n,) uint64 EAC words -> (n, 4, 4) int64 [block, y, x]: 8-bit alpha, or
    11-bit R11 values (0..2047 unsigned, -1023..1023 signed)."""
    base = _bits(word, 63, 56)
    if signed:
        base = np.where(base >= 128, base - 256, base)
        base = np.maximum(base, -127)
    mult = _bits(word, 55, 52)
    table = _bits(word, 51, 48)
    shift = (np.uint64(45) - 3 * _PIXEL_INDEX.astype(np.uint64))[None]
    idx = ((word[:, None, None] >> shift) & np.uint64(7)).astype(np.int64)
    mod = EAC_MODIFIERS[table[:, None, None], idx]
    b, m = base[:, None, None], mult[:, None, None]
    if not eleven_bit:
        return np.clip(b + mod * m, 0, 255)
    # A zero multiplier means "multiplier 1/8": the modifier is used unscaled.
    scaled = np.where(m == 0, mod, mod * m * 8)
    if signed:
        return np.clip(b * 8 + scaled, -1023, 1023)
    return np.clip(b * 8 + 4 + scaled, 0, 2047)


def decompress(format: str | Format, blocks, raw: bool = False, decode_srgb: bool = True) -> np.ndarray:
    """Decode ETC1/ETC2/EAC (and BC1-BC5) blocks: uint8 ``(nblocks, block_size_B)`` ->
    ``(nblocks, 4, 4, 4)`` RGBA ``[block, y, x, c]`` (see the module doc).
    ``decode_srgb=False``: sRGB formats give their encoded values (as pixel
    transfers read them), not linear ones."""
    fmt = get_format(format)
    srgb = fmt.is_srgb and decode_srgb
    supported = (fmt.family in ("etc", "astc", "fxt1") or fmt.name.startswith(("DXT", "RGTC", "LATC"))
                 or fmt.name in DECODED_BPTC)
    if not supported:
        raise ValueError(f"decompress supports ETC1/ETC2/EAC, BC1-BC5 (DXT, RGTC), BPTC, ASTC and FXT1, "
                         f"not {fmt.name}")
    blocks = np.asarray(blocks, dtype=np.uint8)
    if blocks.ndim != 2 or blocks.shape[1] != fmt.block_size_B:
        raise ValueError(f"{fmt.name}: blocks must have shape (n, {fmt.block_size_B}), got {blocks.shape}")
    if fmt.family == "astc":
        return decompress_astc(fmt.block_width_px, fmt.block_height_px, blocks, fmt.is_srgb,
                               srgb_to_linear if decode_srgb else None, raw)
    if fmt.family == "fxt1":
        return decompress_fxt1(fmt.name, blocks, raw)
    if fmt.name in DECODED_BPTC:
        return decompress_bptc(fmt.name, blocks, raw, srgb, srgb_to_linear)
    if fmt.family == "bc":
        return decompress_bc(fmt.name, blocks, raw, srgb, srgb_to_linear)
    n = blocks.shape[0]
    out = np.zeros((n, 4, 4, 4), dtype=np.int64)
    name = fmt.name
    if name.startswith(("ETC2_R11", "ETC2_RG11")):
        signed = name.endswith("SNORM")
        out[..., 0] = _decode_eac(_u64(blocks[:, :8]), True, signed)
        if name.startswith("ETC2_RG11"):
            out[..., 1] = _decode_eac(_u64(blocks[:, 8:]), True, signed)
        if raw:
            return out.astype(np.int32)
        result = out.astype(np.float32) / np.float32(1023.0 if signed else 2047.0)
        result[..., 3] = 1.0
        return result
    if name in ("ETC2_RGBA8", "ETC2_SRGBA8"):
        out[..., 3] = _decode_eac(_u64(blocks[:, :8]), False, False)
        out[..., :3], _ = _decode_etc2_rgb(_u64(blocks[:, 8:]), punchthrough=False)
    else:
        rgb, visible = _decode_etc2_rgb(_u64(blocks), punchthrough=name in ("ETC2_RGB8A1", "ETC2_SRGB8A1"))
        out[..., :3] = rgb
        out[..., 3] = np.where(visible, 255, 0)
    if raw:
        return out.astype(np.int32)
    result = out.astype(np.float32) / np.float32(255.0)
    if srgb:
        result[..., :3] = srgb_to_linear(result[..., :3])
    return result


def compress(format: str | Format, texels) -> np.ndarray:
    """Encode RGBA texels ``(nblocks, block_height_px, block_width_px, 4)`` (normalised,
    as ``decompress`` returns them) into blocks ``(nblocks, block_size_B)`` uint8 of an
    ``ENCODABLE`` format."""
    fmt = get_format(format)
    if fmt.name not in ENCODABLE:
        raise ValueError(f"{fmt.name} has no encoder")
    texels = np.asarray(texels)
    if texels.shape[1:] != (fmt.block_height_px, fmt.block_width_px, 4):
        raise ValueError(f"{fmt.name}: texels must have shape (n, {fmt.block_height_px}, "
                         f"{fmt.block_width_px}, 4), got {texels.shape}")
    if fmt.family == "fxt1":
        return compress_fxt1(fmt.name, texels)
    return compress_bc(fmt.name, texels)


def decompress_image(format: str | Format, blocks, width_px: int | None = None,
                     height_px: int | None = None, raw: bool = False, decode_srgb: bool = True) -> np.ndarray:
    """Decode a grid of blocks ``(h_el, w_el, block_size_B)`` (as ``detile`` returns
    them) into an image ``(height_px, width_px, 4)``, cropped to the given size
    (default: the whole grid)."""
    fmt = get_format(format)
    blocks = np.asarray(blocks, dtype=np.uint8)
    if blocks.ndim != 3:
        raise ValueError(f"blocks must have shape (h_el, w_el, {fmt.block_size_B}), got {blocks.shape}")
    h_el, w_el = blocks.shape[:2]
    bw, bh = fmt.block_width_px, fmt.block_height_px
    texels = decompress(fmt, blocks.reshape(-1, fmt.block_size_B), raw=raw, decode_srgb=decode_srgb)  # (n, bh, bw, 4)
    image = texels.reshape(h_el, w_el, bh, bw, 4).transpose(0, 2, 1, 3, 4).reshape(h_el * bh, w_el * bw, 4)
    return image[:height_px if height_px is not None else h_el * bh,
                 :width_px if width_px is not None else w_el * bw]
