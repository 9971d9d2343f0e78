"""BPTC decompression (BC7 ``BPTC_RGBA_UNORM``/``BPTC_SRGBA`` and BC6H
``BPTC_RGB_UFLOAT``/``BPTC_RGB_FLOAT``), vectorised over blocks.

Follows the Khronos Data Format specification's BPTC chapter (ARB_texture_compression_bptc).
A 128-bit block is read as one little-endian bit string. Its mode is the number
of zero bits below the first set bit (a block whose low byte is 0 has no mode and
decodes to transparent black). Each mode fixes the number of subsets, the
partition, rotation and index-selection fields, the endpoint precision, the
P-bits and the index sizes (``_BC7_MODES``). Pixel (x, y) of the 4 x 4 block has
index ``4 * y + x``; the first pixel of each subset (its anchor: pixel 0 for
subset 0, the partition's anchor table for the others) stores its index with
one bit fewer (the implied top bit is 0).

BC6H (float): the mode is the low 2 bits when they are 0 or 1, else the low 5
bits; each mode scatters its endpoint bits over the header in its own order
(``_BC6_MODES``: a layout string per mode, fields ``m`` mode, ``d`` partition,
``rw gw bw`` endpoint 0 of subset 0, ``x`` its endpoint 1, ``y z`` subset 1's;
``rw0-9`` is bits 0..9 of ``rw`` in consecutive block bits). Transformed modes store
x, y, z as signed deltas from w (modulo the w precision). Endpoints are
unquantised to 16 bits, interpolated with the 3-bit (two subsets, BC7's first 32
partitions) or 4-bit weights, and scaled by 31/64 (31/32 signed) to the bits of
a half float. Reserved mode values decode to 0.

Decoding is one pass per mode over the blocks of that mode (at most eight BC7
and fourteen BC6H modes), with every field read for all those blocks at once.
"""

from __future__ import annotations

import numpy as np

from layout.endpoints import nearest_entry, principal_extremes

__all__ = ["compress_bptc", "decompress_bptc"]


def _table(rows: str, digits_per_entry: int = 16) -> np.ndarray:
    """Whitespace-separated strings of digits -> (entries, digits) int array."""
    return np.array([[int(c, 16) for c in entry] for entry in rows.split()], dtype=np.int64)


# Partition of the 16 pixels (index 4y + x) into subsets, for 2- and 3-subset modes
# (64 shapes each), and the anchor pixel of subset 1 (and 2), as hex digits.
_PARTITIONS_2 = _table("""
    0011001100110011 0001000100010001 0111011101110111 0001001100110111
    0000000100010011 0011011101111111 0001001101111111 0000000100110111
    0000000000010011 0011011111111111 0000000101111111 0000000000010111
    0001011111111111 0000000011111111 0000111111111111 0000000000001111
    0000100011101111 0111000100000000 0000000010001110 0111001100010000
    0011000100000000 0000100011001110 0000000010001100 0111001100110001
    0011000100010000 0000100010001100 0110011001100110 0011011001101100
    0001011111101000 0000111111110000 0111000110001110 0011100110011100
    0101010101010101 0000111100001111 0101101001011010 0011001111001100
    0011110000111100 0101010110101010 0110100101101001 0101101010100101
    0111001111001110 0001001111001000 0011001001001100 0011101111011100
    0110100110010110 0011110011000011 0110011010011001 0000011001100000
    0100111001000000 0010011100100000 0000001001110010 0000010011100100
    0110110010010011 0011011011001001 0110001110011100 0011100111000110
    0110110011001001 0110001100111001 0111111010000001 0001100011100111
    0000111100110011 0011001111110000 0010001011101110 0100010001110111
""")
_PARTITIONS_3 = _table("""
    0011001102212222 0001001122112221 0000200122112211 0222002200110111
    0000000011221122 0011001100220022 0022002211111111 0011001122112211
    0000000011112222 0000111111112222 0000111122222222 0012001200120012
    0112011201120112 0122012201220122 0011011211221222 0011200122002220
    0001001101121122 0111001120012200 0000112211221122 0022002200221111
    0111011102220222 0001000122212221 0000001101220122 0000110022102210
    0122012200110000 0012001211222222 0110122112210110 0000011012211221
    0022110211020022 0110011020022222 0011012201220011 0000200022112221
    0000000211221222 0222002200120011 0011001200220222 0120012001200120
    0000111122220000 0120120120120120 0120201212010120 0011220011220011
    0011112222000011 0101010122222222 0000000021212121 0022112200221122
    0022001100220011 0220122102201221 0101222222220101 0000212121212121
    0101010101012222 0222011102220111 0002111200021112 0000211221122112
    0222011101110222 0002111211120002 0110011001102222 0000000021122112
    0110011022222222 0022001100110022 0022112211220022 0000000000002112
    0002000100020001 0222122202221222 0101222222222222 0111201122012220
""")
_ANCHOR_2 = _table("fffffffffffffffff282288f28228822ff6828ff28222ff66268ff22fffff22f")[0]
_ANCHOR_3_SUBSET_1 = _table("33ff83ff88666533338f336a588685ff8f356a8ff3f5ffff3f55585a5a8dfc33")[0]
_ANCHOR_3_SUBSET_2 = _table("f883ff38fffffff8f8f3f8f83f6affa8f3faa89a6f8f3668f3ffffffffff3ff8")[0]

# Interpolation weights (out of 64) by index size.
_WEIGHTS = {2: np.array([0, 21, 43, 64]), 3: np.array([0, 9, 18, 27, 37, 46, 55, 64]),
            4: np.array([0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64])}

# mode: (subsets, partition bits, rotation bits, index-selection bits, colour bits,
#        alpha bits, P-bits per endpoint, P-bits per subset (shared), index bits, second index bits)
_BC7_MODES = [
    (3, 4, 0, 0, 4, 0, 1, 0, 3, 0),
    (2, 6, 0, 0, 6, 0, 0, 1, 3, 0),
    (3, 6, 0, 0, 5, 0, 0, 0, 2, 0),
    (2, 6, 0, 0, 7, 0, 1, 0, 2, 0),
    (1, 0, 2, 1, 5, 6, 0, 0, 2, 3),
    (1, 0, 2, 0, 7, 8, 0, 0, 2, 2),
    (1, 0, 0, 0, 7, 7, 1, 0, 4, 0),
    (2, 6, 0, 0, 5, 5, 1, 0, 2, 0),
]


class _Bits:
    """The blocks' bit strings (n, 128), read from a cursor."""

    def __init__(self, blocks16: np.ndarray):
        self.bits = np.unpackbits(blocks16, axis=1, bitorder="little").astype(np.int64)
        self.pos = 0

    def take(self, width: int) -> np.ndarray:
        """The next ``width``-bit field of every block (n,)."""
        weights = np.int64(1) << np.arange(width, dtype=np.int64)
        value = self.bits[:, self.pos:self.pos + width] @ weights
        self.pos += width
        return value

    def take_varying(self, widths: np.ndarray) -> np.ndarray:
        """Consecutive fields of per-block widths ``widths`` (n, k) -> (n, k)."""
        n, k = widths.shape
        starts = self.pos + np.concatenate([np.zeros((n, 1), np.int64), np.cumsum(widths, 1)[:, :-1]], 1)
        top = int(widths.max(initial=0))
        offs = np.arange(top, dtype=np.int64)
        idx = np.minimum(starts[..., None] + offs, 127)
        got = np.take_along_axis(self.bits, idx.reshape(n, -1), 1).reshape(n, k, top)
        got = np.where(offs < widths[..., None], got, 0)
        self.pos += int(widths[0].sum())         # every block of a mode uses the same total
        return (got << offs).sum(-1)


def _expand(v: np.ndarray, bits: int) -> np.ndarray:
    """A ``bits``-bit endpoint to 8 bits by repeating its top bits."""
    v = v << (8 - bits)
    return v | (v >> bits)


def _decode_mode(mode: int, blocks16: np.ndarray) -> np.ndarray:
    """Blocks of one mode -> (n, 16, 4) int 0..255."""
    ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2 = _BC7_MODES[mode]
    n = blocks16.shape[0]
    r = _Bits(blocks16)
    r.pos = mode + 1
    partition = r.take(pb) if pb else np.zeros(n, np.int64)
    rotation = r.take(rb) if rb else np.zeros(n, np.int64)
    selection = r.take(isb) if isb else np.zeros(n, np.int64)
    ends = 2 * ns
    channels = 4 if ab else 3
    endpoints = np.zeros((n, ends, 4), np.int64)          # [block, subset*2 + e, channel]
    for c in range(channels):
        width = cb if c < 3 else ab
        for e in range(ends):
            endpoints[:, e, c] = r.take(width)
    bits = np.array([cb, cb, cb, ab if ab else 0])
    if epb or spb:
        pbits = np.stack([r.take(1) for _ in range(ends if epb else ns)], 1)
        if spb:
            pbits = np.repeat(pbits, 2, axis=1)
        endpoints[:, :, :channels] = (endpoints[:, :, :channels] << 1) | pbits[:, :, None]
        bits = bits + 1
    for c in range(channels):
        endpoints[:, :, c] = _expand(endpoints[:, :, c], int(bits[c]))
    if not ab:
        endpoints[:, :, 3] = 255
    # subset of each pixel and the anchors (one index bit fewer)
    if ns == 1:
        subset = np.zeros((n, 16), np.int64)
    else:
        subset = (_PARTITIONS_2 if ns == 2 else _PARTITIONS_3)[partition]
    anchor = np.zeros((n, 16), bool)
    anchor[:, 0] = True
    rows = np.arange(n)
    if ns == 2:
        anchor[rows, _ANCHOR_2[partition]] = True
    elif ns == 3:
        anchor[rows, _ANCHOR_3_SUBSET_1[partition]] = True
        anchor[rows, _ANCHOR_3_SUBSET_2[partition]] = True
    index = r.take_varying(ib - anchor.astype(np.int64))
    colour_index, colour_bits, alpha_index, alpha_bits = index, ib, index, ib
    if ib2:
        anchor0 = np.zeros((n, 16), np.int64)
        anchor0[:, 0] = 1
        index2 = r.take_varying(ib2 - anchor0)
        sel = (selection == 1)[:, None]
        colour_index = np.where(sel, index2, index)
        alpha_index = np.where(sel, index, index2)
        colour_bits = np.where(selection == 1, ib2, ib)
        alpha_bits = np.where(selection == 1, ib, ib2)
    e0 = np.take_along_axis(endpoints, (2 * subset)[..., None].repeat(4, -1), 1)   # (n, 16, 4)
    e1 = np.take_along_axis(endpoints, (2 * subset + 1)[..., None].repeat(4, -1), 1)
    out = np.empty((n, 16, 4), np.int64)
    for part, idx, nbits in ((slice(0, 3), colour_index, colour_bits), (slice(3, 4), alpha_index, alpha_bits)):
        nbits = np.broadcast_to(np.asarray(nbits), (n,))
        w = np.zeros((n, 16), np.int64)
        for b in (2, 3, 4):
            sel = nbits == b
            if sel.any():
                w[sel] = _WEIGHTS[b][np.minimum(idx[sel], (1 << b) - 1)]
        w = w[..., None]
        out[..., part] = ((64 - w) * e0[..., part] + w * e1[..., part] + 32) >> 6
    if rb:
        for rot, c in ((1, 0), (2, 1), (3, 2)):
            sel = rotation == rot
            out[sel, :, c], out[sel, :, 3] = out[sel, :, 3], out[sel, :, c].copy()
    return out


# BC6H modes: mode value -> (subsets, transformed, endpoint-0 bits, delta bits R G B, layout)
_BC6_MODES = {
    0x00: (2, True, 10, (5, 5, 5), "m0-1 gy4 by4 bz4 rw0-9 gw0-9 bw0-9 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 "
                                    "by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"),
    0x01: (2, True, 7, (6, 6, 6), "m0-1 gy5 gz4-5 rw0-6 bz0-1 by4 gw0-6 by5 bz2 gy4 bw0-6 bz3 bz5 bz4 rx0-5 gy0-3 "
                                   "gx0-5 gz0-3 bx0-5 by0-3 ry0-5 rz0-5 d0-4"),
    0x02: (2, True, 11, (5, 4, 4), "m0-4 rw0-9 gw0-9 bw0-9 rx0-4 rw10 gy0-3 gx0-3 gw10 bz0 gz0-3 bx0-3 bw10 bz1 "
                                    "by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"),
    0x06: (2, True, 11, (4, 5, 4), "m0-4 rw0-9 gw0-9 bw0-9 rx0-3 rw10 gz4 gy0-3 gx0-4 gw10 gz0-3 bx0-3 bw10 bz1 "
                                    "by0-3 ry0-3 bz0 bz2 rz0-3 gy4 bz3 d0-4"),
    0x0a: (2, True, 11, (4, 4, 5), "m0-4 rw0-9 gw0-9 bw0-9 rx0-3 rw10 by4 gy0-3 gx0-3 gw10 bz0 gz0-3 bx0-4 bw10 "
                                    "by0-3 ry0-3 bz1-2 rz0-3 bz4 bz3 d0-4"),
    0x0e: (2, True, 9, (5, 5, 5), "m0-4 rw0-8 by4 gw0-8 gy4 bw0-8 bz4 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 "
                                   "by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"),
    0x12: (2, True, 8, (6, 5, 5), "m0-4 rw0-7 gz4 by4 gw0-7 bz2 gy4 bw0-7 bz3-4 rx0-5 gy0-3 gx0-4 bz0 gz0-3 bx0-4 "
                                   "bz1 by0-3 ry0-5 rz0-5 d0-4"),
    0x16: (2, True, 8, (5, 6, 5), "m0-4 rw0-7 bz0 by4 gw0-7 gy5 gy4 bw0-7 gz5 bz4 rx0-4 gz4 gy0-3 gx0-5 gz0-3 "
                                   "bx0-4 bz1 by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"),
    0x1a: (2, True, 8, (5, 5, 6), "m0-4 rw0-7 bz1 by4 gw0-7 by5 gy4 bw0-7 bz5 bz4 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 "
                                   "bx0-5 by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"),
    0x1e: (2, False, 6, (6, 6, 6), "m0-4 rw0-5 gz4 bz0-1 by4 gw0-5 gy5 by5 bz2 gy4 bw0-5 gz5 bz3 bz5 bz4 rx0-5 "
                                    "gy0-3 gx0-5 gz0-3 bx0-5 by0-3 ry0-5 rz0-5 d0-4"),
    0x03: (1, False, 10, (10, 10, 10), "m0-4 rw0-9 gw0-9 bw0-9 rx0-9 gx0-9 bx0-9"),
    0x07: (1, True, 11, (9, 9, 9), "m0-4 rw0-9 gw0-9 bw0-9 rx0-8 rw10 gx0-8 gw10 bx0-8 bw10"),
    0x0b: (1, True, 12, (8, 8, 8), "m0-4 rw0-9 gw0-9 bw0-9 rx0-7 rw11 rw10 gx0-7 gw11 gw10 bx0-7 bw11 bw10"),
    0x0f: (1, True, 16, (4, 4, 4), "m0-4 rw0-9 gw0-9 bw0-9 rx0-3 rw15 rw14 rw13 rw12 rw11 rw10 gx0-3 gw15 gw14 "
                                    "gw13 gw12 gw11 gw10 bx0-3 bw15 bw14 bw13 bw12 bw11 bw10"),
}


def _sign_extend(v: np.ndarray, bits: int) -> np.ndarray:
    return np.where(v >= (1 << (bits - 1)), v - (1 << bits), v)


def _bc6_unquantise(v: np.ndarray, bits: int, signed: bool) -> np.ndarray:
    """Endpoints of ``bits`` bits -> 16-bit range (signed: -0x7FFF..0x7FFF)."""
    if not signed:
        if bits >= 15:
            return v
        return np.where(v == 0, 0, np.where(v == (1 << bits) - 1, 0xFFFF, ((v << 16) + 0x8000) >> bits))
    if bits >= 16:
        return v
    mag = np.abs(v)
    q = np.where(mag == 0, 0, np.where(mag >= (1 << (bits - 1)) - 1, 0x7FFF, ((mag << 15) + 0x4000) >> (bits - 1)))
    return np.where(v < 0, -q, q)


def _decode_bc6_mode(mode: int, blocks16: np.ndarray, signed: bool) -> np.ndarray:
    """Blocks of one BC6H mode -> (n, 16, 3) half-float bit patterns (uint16 values)."""
    ns, transformed, prec, deltas, fields_layout = _BC6_MODES[mode]
    n = blocks16.shape[0]
    r = _Bits(blocks16)
    fields: dict[str, np.ndarray] = {}
    for token in fields_layout.split():
        name = token.rstrip("0123456789-")
        lo, _, hi = token[len(name):].partition("-")
        for bit in range(int(lo), int(hi or lo) + 1):
            fields[name] = fields.get(name, 0) | (r.take(1) << bit)
    endpoints = np.zeros((n, 2 * ns, 3), np.int64)          # [block, subset*2 + e, channel]
    for c, ch in enumerate("rgb"):
        w = fields.get(ch + "w", np.zeros(n, np.int64))
        values = [_sign_extend(w, prec) if signed else w]
        for e in "xyz"[:2 * ns - 1]:
            v = fields.get(ch + e, np.zeros(n, np.int64))
            if transformed:     # a signed delta from w, modulo w's precision
                v = (w + _sign_extend(v, deltas[c])) & ((1 << prec) - 1)
            if signed:
                v = _sign_extend(v, prec)
            values.append(v)
        endpoints[:, :, c] = _bc6_unquantise(np.stack(values, 1), prec, signed)
    if ns == 2:
        partition = fields["d"]
        subset = _PARTITIONS_2[partition]
        anchor = np.zeros((n, 16), bool)
        anchor[:, 0] = True
        anchor[np.arange(n), _ANCHOR_2[partition]] = True
        index_bits = 3
    else:
        subset = np.zeros((n, 16), np.int64)
        anchor = np.zeros((n, 16), bool)
        anchor[:, 0] = True
        index_bits = 4
    r.pos = 82 if ns == 2 else 65
    index = r.take_varying(index_bits - anchor.astype(np.int64))
    w = _WEIGHTS[index_bits][index][..., None]
    e0 = np.take_along_axis(endpoints, (2 * subset)[..., None].repeat(3, -1), 1)
    e1 = np.take_along_axis(endpoints, (2 * subset + 1)[..., None].repeat(3, -1), 1)
    v = ((64 - w) * e0 + w * e1 + 32) >> 6
    if not signed:
        return (v * 31) >> 6
    mag = (np.abs(v) * 31) >> 5
    return np.where(v < 0, mag | 0x8000, mag)


def _decompress_bc6(blocks: np.ndarray, signed: bool) -> np.ndarray:
    """BC6H blocks (n, 16) -> (n, 16, 3) float32 RGB."""
    n = blocks.shape[0]
    low = blocks[:, 0].astype(np.int64)
    mode = np.where((low & 3) < 2, low & 3, low & 31)
    halves = np.zeros((n, 16, 3), np.int64)               # reserved modes: 0
    for m in _BC6_MODES:
        sel = mode == m
        if sel.any():
            halves[sel] = _decode_bc6_mode(m, np.ascontiguousarray(blocks[sel]), signed)
    return halves.astype(np.uint16).view(np.float16).astype(np.float32)


def decompress_bptc(name: str, blocks: np.ndarray, raw: bool, srgb: bool, to_linear) -> np.ndarray:
    """Decode BPTC blocks (n, 16) -> (n, 4, 4, 4) [block, y, x, c] (see the module doc).
    BC7: float32 in [0, 1] (sRGB decoded to linear when ``srgb``), or the 8-bit values
    (int32) when ``raw``. BC6H: float32 RGB (alpha 1); ``raw`` gives the half-float
    bit patterns (int32)."""
    if name in ("BPTC_RGB_UFLOAT", "BPTC_RGB_FLOAT"):
        rgb = _decompress_bc6(blocks, signed=name == "BPTC_RGB_FLOAT")
        n = blocks.shape[0]
        if raw:
            out = np.zeros((n, 16, 4), np.int32)
            out[..., :3] = rgb.astype(np.float16).view(np.uint16)
            out[..., 3] = 0x3C00
            return out.reshape(n, 4, 4, 4)
        out = np.ones((n, 16, 4), np.float32)
        out[..., :3] = rgb
        return out.reshape(n, 4, 4, 4)
    if name not in ("BPTC_RGBA_UNORM", "BPTC_SRGBA"):
        raise ValueError(f"layout does not decode {name} blocks")
    n = blocks.shape[0]
    out = np.zeros((n, 16, 4), np.int64)          # no mode (low byte 0): transparent black
    low = blocks[:, 0].astype(np.int64)
    mode = np.where(low == 0, 8, np.log2(np.maximum(low & -low, 1)).astype(np.int64))
    for m in range(8):
        sel = mode == m
        if sel.any():
            out[sel] = _decode_mode(m, np.ascontiguousarray(blocks[sel]))
    out = out.reshape(n, 4, 4, 4)
    if raw:
        return out.astype(np.int32)
    result = out.astype(np.float32) / np.float32(255.0)
    if srgb:
        result[..., :3] = to_linear(result[..., :3])
    return result.astype(np.float32)


# -- encoding (the GL's online compression: glTexImage* into a BPTC format) -----------

def _put(bits: np.ndarray, pos: int, values: np.ndarray, width: int) -> int:
    """Write the ``width``-bit fields ``values`` (n,) of every block at bit ``pos``;
    returns the position after them."""
    for b in range(width):
        bits[:, pos + b] = (values >> b) & 1
    return pos + width


def _put_indices(bits: np.ndarray, pos: int, idx: np.ndarray) -> None:
    """4-bit indices (n, 16) in pixel order; pixel 0 (the anchor) stores 3 bits."""
    pos = _put(bits, pos, idx[:, 0], 3)
    for p in range(1, 16):
        pos = _put(bits, pos, idx[:, p], 4)
    assert pos == 128


def _anchor_low(idx: np.ndarray, e0: np.ndarray, e1: np.ndarray):
    """Swap the endpoints of blocks whose pixel 0 has an index with the top bit
    set (the anchor stores one bit fewer), mirroring their indices."""
    flip = idx[:, 0] >= 8
    e0, e1 = np.where(flip[:, None], e1, e0), np.where(flip[:, None], e0, e1)
    return np.where(flip[:, None], 15 - idx, idx), e0, e1


def _encode_bc7_mode6(v8: np.ndarray) -> np.ndarray:
    """(n, 16, 4) RGBA 0..255 -> (n, 16) uint8 BC7 blocks in mode 6 (one subset,
    RGBA endpoints of 7 bits plus a P-bit each, 4-bit indices)."""
    n = v8.shape[0]
    rows = np.arange(n)
    lo_at, hi_at = principal_extremes(v8)
    quantised = []
    for end in (v8[rows, lo_at], v8[rows, hi_at]):              # (n, 4)
        # the P-bit is the low bit of all four channels: keep the closer choice
        cands = []
        for p in (0, 1):
            q = np.clip(np.rint((end - p) / 2.0), 0, 127).astype(np.int64)
            cands.append((q, np.full(n, p), (((2 * q + p) - end) ** 2).sum(1)))
        better = cands[1][2] < cands[0][2]
        quantised.append((np.where(better[:, None], cands[1][0], cands[0][0]), better.astype(np.int64)))
    (q0, p0), (q1, p1) = quantised
    e0, e1 = 2 * q0 + p0[:, None], 2 * q1 + p1[:, None]           # 8-bit endpoints
    w = _WEIGHTS[4][None, :, None]
    palette = ((64 - w) * e0[:, None] + w * e1[:, None] + 32) >> 6  # (n, 16, 4)
    idx = nearest_entry(v8, palette.astype(np.float64))
    flip = idx[:, 0] >= 8
    idx, _, _ = _anchor_low(idx, e0, e1)
    q0, q1 = np.where(flip[:, None], q1, q0), np.where(flip[:, None], q0, q1)
    p0, p1 = np.where(flip, p1, p0), np.where(flip, p0, p1)
    bits = np.zeros((n, 128), np.uint8)
    bits[:, 6] = 1                                              # mode 6: six zero bits, then a one
    pos = 7
    for c in range(4):
        pos = _put(bits, pos, q0[:, c], 7)
        pos = _put(bits, pos, q1[:, c], 7)
    pos = _put(bits, pos, p0, 1)
    pos = _put(bits, pos, p1, 1)
    _put_indices(bits, pos, idx)
    return np.packbits(bits, axis=1, bitorder="little")


def _bc6_levels(signed: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every 10-bit endpoint code of BC6H mode 0x03 and its unquantised value
    (increasing), for choosing the nearest code."""
    codes = np.arange(-511, 512) if signed else np.arange(0, 1024)
    return codes, _bc6_unquantise(codes, 10, signed)


def _encode_bc6_mode3(rgb: np.ndarray, signed: bool) -> np.ndarray:
    """(n, 16, 3) float RGB -> (n, 16) uint8 BC6H blocks in mode 0x03 (one region,
    untransformed 10-bit endpoints, 4-bit indices). Endpoints and indices are
    chosen in the unquantised domain, where the decoder interpolates: a half
    float's bits h come from u as (u * 31) >> 6 (signed: |u| * 31 >> 5), so the
    target is u = h * 64 / 31 (32 / 31), close to logarithmic in the value."""
    n = rgb.shape[0]
    limit = 65504.0
    x = np.clip(np.nan_to_num(rgb), -limit if signed else 0.0, limit)
    h = x.astype(np.float16).view(np.uint16).astype(np.int64)
    if signed:
        target = np.where(h & 0x8000, -(h & 0x7FFF), h & 0x7FFF) * (32.0 / 31.0)
    else:
        target = h * (64.0 / 31.0)
    rows = np.arange(n)
    lo_at, hi_at = principal_extremes(target)
    codes, levels = _bc6_levels(signed)
    ends = []
    for end in (target[rows, lo_at], target[rows, hi_at]):         # (n, 3)
        at = np.clip(np.searchsorted(levels, end), 1, len(levels) - 1)
        nearer_below = (end - levels[at - 1]) <= (levels[at] - end)
        ends.append(np.where(nearer_below, at - 1, at))            # position in codes
    i0, i1 = ends
    u0, u1 = levels[i0], levels[i1]
    w = _WEIGHTS[4][None, :, None]
    palette = ((64 - w) * u0[:, None] + w * u1[:, None] + 32) >> 6   # (n, 16, 3)
    idx = nearest_entry(target, palette.astype(np.float64))
    idx, i0, i1 = _anchor_low(idx, i0, i1)
    c0, c1 = codes[i0] & 0x3FF, codes[i1] & 0x3FF                  # signed: two's complement
    bits = np.zeros((n, 128), np.uint8)
    pos = _put(bits, 0, np.full(n, 0x03), 5)
    for c in range(3):
        pos = _put(bits, pos, c0[:, c], 10)
    for c in range(3):
        pos = _put(bits, pos, c1[:, c], 10)
    _put_indices(bits, pos, idx)
    return np.packbits(bits, axis=1, bitorder="little")


def compress_bptc(name: str, texels: np.ndarray) -> np.ndarray:
    """Encode (n, 4, 4, 4) RGBA texels [block, y, x, c] into BPTC blocks (n, 16)
    uint8 that ``decompress_bptc`` reads back. BC7 (``BPTC_RGBA_UNORM``,
    ``BPTC_SRGBA``: values 0..1, sRGB ones encoded as given) uses mode 6 only:
    endpoints are 7 bits plus a low bit shared by the four channels, so an
    endpoint is within 1/255 of the texel it comes from. BC6H (``BPTC_RGB_UFLOAT``,
    ``BPTC_RGB_FLOAT``: float RGB; negative values clamp to 0 when unsigned) uses
    mode 0x03 only. Exact for blocks of two representable colours."""
    n = texels.shape[0]
    t = texels.reshape(n, 16, 4).astype(np.float64)
    if name in ("BPTC_RGBA_UNORM", "BPTC_SRGBA"):
        return _encode_bc7_mode6(np.clip(t, 0.0, 1.0) * 255.0)
    if name in ("BPTC_RGB_UFLOAT", "BPTC_RGB_FLOAT"):
        return _encode_bc6_mode3(t[..., :3], signed=name == "BPTC_RGB_FLOAT")
    raise ValueError(f"{name} has no BPTC encoder")
