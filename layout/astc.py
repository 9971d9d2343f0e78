"""ASTC LDR decompression of 2D blocks (KHR_texture_compression_astc_ldr), vectorised over blocks.

Follows the Khronos Data Format specification's ASTC chapter, LDR profile. A
128-bit block (one little-endian bit string) holds:

- bits 0-10, the block mode: the weight grid (``grid_w`` x ``grid_h``), the weight
  range and whether there are two weight planes (``_block_mode``); the mode
  ``0x1FC`` (low 9 bits) is a void-extent block: one constant RGBA16 colour;
- bits 11-12, the partition count - 1; with two or more partitions a 10-bit
  partition index (bits 13-22) seeds the texel-to-partition hash
  (``_partition_of_texels``);
- the colour endpoint modes (CEM): 4 bits (one partition) or a 6-bit field whose
  low 2 bits say whether all partitions share one mode; if not, the field's 4
  high bits and ``3 * partitions - 4`` more bits just below the weights give
  each partition a class bit and a 2-bit mode;
- the colour endpoint values, an integer sequence (ISE: values of a range of 2^b,
  3 * 2^b or 5 * 2^b levels, the trits and quints packed five to 8 bits and three
  to 7 bits) from bit 17 (one partition) or 29, in the largest range that fits;
- with two planes, a 2-bit channel selector below the CEM bits;
- the weights, an ISE stored bit-reversed from bit 127 down.

Values are unquantised (colour to 0..255, weights to 0..64), the endpoints
decoded per CEM (luminance, luminance-alpha, RGB, RGBA: direct, base+offset with
its bit transfer, base+scale; blue contraction), the weight grid infilled
bilinearly to the block's texels (the specification's fixed-point weights), and
each texel interpolated as ``(c0 * (64 - w) + c1 * w + 32) >> 6`` on 16-bit
expanded endpoints (``e * 257``; sRGB formats ``e << 8 | 0x80`` and the top byte
decoded). Anything the LDR profile does not allow (reserved block modes, HDR
endpoint modes or void extents, too many weights or colour values) decodes to
the error colour, opaque magenta.

Blocks are grouped by their configuration (block mode, partition count and CEM
bits); each group is decoded with every field read for all its blocks at once.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["decompress_astc"]

ERROR_COLOUR = (1.0, 0.0, 1.0, 1.0)

# -- integer sequence encoding ------------------------------------------------------------


def _trits_of(t: int) -> list[int]:
    """The five trits packed in an 8-bit value (the specification's decoding)."""
    bit = lambda v, i: (v >> i) & 1  # noqa: E731
    if (t >> 2) & 7 == 7:
        c = ((t >> 5) & 7) << 2 | (t & 3)
        t4, t3 = 2, 2
    else:
        c = t & 31
        if (t >> 5) & 3 == 3:
            t4, t3 = 2, bit(t, 7)
        else:
            t4, t3 = bit(t, 7), (t >> 5) & 3
    if c & 3 == 3:
        t2, t1, t0 = 2, bit(c, 4), (bit(c, 3) << 1) | (bit(c, 2) & (1 - bit(c, 3)))
    elif (c >> 2) & 3 == 3:
        t2, t1, t0 = 2, 2, c & 3
    else:
        t2, t1, t0 = bit(c, 4), (c >> 2) & 3, (bit(c, 1) << 1) | (bit(c, 0) & (1 - bit(c, 1)))
    return [t0, t1, t2, t3, t4]


def _quints_of(q: int) -> list[int]:
    """The three quints packed in a 7-bit value."""
    bit = lambda v, i: (v >> i) & 1  # noqa: E731
    if (q >> 1) & 3 == 3 and (q >> 5) & 3 == 0:
        q2 = (bit(q, 0) << 2) | ((bit(q, 4) & (1 - bit(q, 0))) << 1) | (bit(q, 3) & (1 - bit(q, 0)))
        return [4, 4, q2]
    if (q >> 1) & 3 == 3:
        q2 = 4
        c = (((q >> 3) & 3) << 3) | ((~(q >> 5) & 3) << 1) | bit(q, 0)
    else:
        q2 = (q >> 5) & 3
        c = q & 31
    if c & 7 == 5:
        q1, q0 = 4, (c >> 3) & 3
    else:
        q1, q0 = (c >> 3) & 3, c & 7
    return [q0, q1, q2]


_TRITS = np.array([_trits_of(t) for t in range(256)], np.int64)      # (256, 5)
_QUINTS = np.array([_quints_of(q) for q in range(128)], np.int64)    # (128, 3)

# Ranges by number of levels: (trits, quints, bits)
_RANGES = {2: (0, 0, 1), 3: (1, 0, 0), 4: (0, 0, 2), 5: (0, 1, 0), 6: (1, 0, 1), 8: (0, 0, 3),
           10: (0, 1, 1), 12: (1, 0, 2), 16: (0, 0, 4), 20: (0, 1, 2), 24: (1, 0, 3), 32: (0, 0, 5),
           40: (0, 1, 3), 48: (1, 0, 4), 64: (0, 0, 6), 80: (0, 1, 4), 96: (1, 0, 5), 128: (0, 0, 7),
           160: (0, 1, 5), 192: (1, 0, 6), 256: (0, 0, 8)}
_WEIGHT_LEVELS = (2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32)
_COLOUR_LEVELS = (6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256)


def _ise_bits(count: int, levels: int) -> int:
    trits, quints, bits = _RANGES[levels]
    return count * bits + (8 * count * trits + 4) // 5 + (7 * count * quints + 2) // 3


@lru_cache(maxsize=None)
def _ise_layout(count: int, levels: int):
    """Bit positions (relative to the sequence's start) of each value's low bits
    (count, bits) and of each packed trit/quint group's bits (groups, 8 or 7);
    positions past the sequence's end read as 0 (index -1)."""
    trits, quints, bits = _RANGES[levels]
    per, packed = (5, (2, 2, 1, 2, 1)) if trits else ((3, (3, 2, 2)) if quints else (1, ()))
    low = np.zeros((count, bits), np.int64)
    groups = -(-count // per) if packed else 0
    tq = np.full((groups, sum(packed)), -1, np.int64)
    total = _ise_bits(count, levels)
    pos = 0
    for g in range(max(groups, count if not packed else 0)):
        k = 0
        for j in range(per):
            v = g * per + j
            if v < count:
                low[v] = np.arange(pos, pos + bits)
                pos += bits
            elif packed:
                pos += bits       # a partial last group: its missing values take no bits
            if packed:
                n = packed[j]
                tq[g, k:k + n] = np.arange(pos, pos + n)
                k += n
                pos += n
    tq[tq >= total] = -1
    low[low >= total] = -1
    return low, tq, (trits, quints, bits)


def _ise_decode(bits: np.ndarray, start: int, count: int, levels: int) -> np.ndarray:
    """The ``count`` values of an ISE sequence at ``start`` in every block's bits
    (n, 128 + 1: the last column is a 0 for positions past the end) -> (n, count)."""
    low, tq, (trits, quints, nbits) = _ise_layout(count, levels)
    n = bits.shape[0]

    def gather(pos):
        idx = np.where(pos >= 0, pos + start, 128)
        return bits[:, idx.reshape(-1)].reshape((n,) + pos.shape)

    m = (gather(low) << np.arange(nbits)).sum(-1) if nbits else np.zeros((n, count), np.int64)
    if not (trits or quints):
        return m
    packed = (gather(tq) << np.arange(tq.shape[1])).sum(-1)          # (n, groups)
    digits = (_TRITS if trits else _QUINTS)[packed].reshape(n, -1)[:, :count]
    return (digits << nbits) | m


# -- unquantisation -----------------------------------------------------------------------------

def _replicate(v: np.ndarray, bits: int, to_bits: int) -> np.ndarray:
    out = np.zeros_like(v)
    have = 0
    while have < to_bits:
        shift = to_bits - have - bits
        out |= (v << shift) if shift >= 0 else (v >> -shift)
        have += bits
    return out


def _unquant_table(levels: int, weights: bool) -> np.ndarray:
    """Unquantised value of every ISE value of a range: colour 0..255, weights 0..64."""
    trits, quints, bits = _RANGES[levels]
    v = np.arange(levels, dtype=np.int64)
    if not (trits or quints):
        out = _replicate(v, bits, 6 if weights else 8)
    else:
        d, m = v >> bits, v & ((1 << bits) - 1)
        if bits == 0:
            out = np.array([0, 32, 63] if trits else [0, 16, 32, 47, 63], np.int64)
        else:
            a = np.where(m & 1, 0x7F if weights else 0x1FF, 0)
            x = m >> 1
            # (C, B) of the specification's unquantisation tables, by range
            if weights:
                c, b = {6: (50, 0), 12: (23, x | x << 2 | x << 6), 24: (11, x | x << 5),
                        10: (28, 0), 20: (13, x << 1 | x << 6)}[levels]
            else:
                c, b = {6: (204, 0), 12: (93, x << 1 | x << 2 | x << 4 | x << 8), 24: (44, x | x << 2 | x << 7),
                        48: (22, x | x << 6), 96: (11, x >> 2 | x << 5), 192: (5, x >> 4 | x << 4),
                        10: (113, 0), 20: (54, x << 2 | x << 3 | x << 8), 40: (26, x >> 1 | x << 1 | x << 7),
                        80: (13, x >> 1 | x << 6), 160: (6, x >> 3 | x << 5)}[levels]
            t = (d * c + b) ^ a
            out = (a & (0x20 if weights else 0x80)) | (t >> 2)
    if weights:
        out = np.where(out > 32, out + 1, out)
    return out


_UNQUANT_WEIGHTS = {lv: _unquant_table(lv, True) for lv in _WEIGHT_LEVELS}
_UNQUANT_COLOUR = {lv: _unquant_table(lv, False) for lv in _COLOUR_LEVELS}


# -- block mode ---------------------------------------------------------------------------------

def _block_mode(mode: int):
    """(grid_w, grid_h, weight levels, dual plane) of an 11-bit block mode, or None if reserved."""
    r = (mode >> 4) & 1
    h_bit, d = (mode >> 9) & 1, (mode >> 10) & 1
    a = (mode >> 5) & 3
    if mode & 3:
        r |= (mode & 3) << 1
        b = (mode >> 7) & 3
        sel = (mode >> 2) & 3
        if sel == 0:
            w, h = b + 4, a + 2
        elif sel == 1:
            w, h = b + 8, a + 2
        elif sel == 2:
            w, h = a + 2, b + 8
        elif mode & 0x100:
            w, h = (b & 1) + 2, a + 2
        else:
            w, h = a + 2, (b & 1) + 6
    else:
        r |= ((mode >> 2) & 3) << 1
        if (mode >> 2) & 3 == 0:
            return None
        b = (mode >> 9) & 3
        sel = (mode >> 7) & 3
        if sel == 0:
            w, h = 12, a + 2
        elif sel == 1:
            w, h = a + 2, 12
        elif sel == 2:
            w, h, d, h_bit = a + 6, b + 6, 0, 0
        elif a == 0:
            w, h = 6, 10
        elif a == 1:
            w, h = 10, 6
        else:
            return None
    if r < 2:
        return None
    levels = _WEIGHT_LEVELS[(r - 2) + 6 * h_bit]
    count = w * h * (d + 1)
    if count > 64 or not 24 <= _ise_bits(count, levels) <= 96:
        return None
    return w, h, levels, bool(d)


# -- partitions and weight infill --------------------------------------------------------------

def _hash52(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32)
    with np.errstate(over="ignore"):
        x ^= x >> np.uint32(15)
        x *= np.uint32(0xEEDE0891)
        x ^= x >> np.uint32(5)
        x += x << np.uint32(16)
        x ^= x >> np.uint32(7)
        x ^= x >> np.uint32(3)
        x ^= x << np.uint32(6)
        x ^= x >> np.uint32(17)
    return x


def _partition_of_texels(index: np.ndarray, partitions: int, bw: int, bh: int) -> np.ndarray:
    """Partition of each texel (n, bh * bw, row-major) for partition indices (n,)."""
    small = bw * bh < 32
    y, x = np.divmod(np.arange(bw * bh, dtype=np.int64), bw)
    if small:
        x, y = x << 1, y << 1
    seed = index.astype(np.int64) + (partitions - 1) * 1024
    rnum = _hash52(seed).astype(np.int64)
    s = [(rnum >> sh) & 0xF for sh in (0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26)]
    s.append(((rnum >> 30) | (rnum << 2)) & 0xF)
    s = [v * v for v in s]
    odd, two = (seed & 1) == 1, (seed & 2) == 2
    three = 6 if partitions == 3 else 5
    sh1 = np.where(odd, np.where(two, 4, 5), three)
    sh2 = np.where(odd, three, np.where(two, 4, 5))
    sh3 = np.where((seed & 0x10) != 0, sh1, sh2)
    shifts = [sh1, sh2, sh1, sh2, sh1, sh2, sh1, sh2, sh3, sh3, sh3, sh3]
    s = [(v >> sh)[:, None] for v, sh in zip(s, shifts)]
    r = rnum[:, None]
    # z is 0 for 2D blocks: seeds 9-12 only multiply z
    a = (s[0] * x + s[1] * y + (r >> 14)) & 0x3F
    b = (s[2] * x + s[3] * y + (r >> 10)) & 0x3F
    c = (s[4] * x + s[5] * y + (r >> 6)) & 0x3F
    d = (s[6] * x + s[7] * y + (r >> 2)) & 0x3F
    if partitions < 4:
        d = np.zeros_like(d)
    if partitions < 3:
        c = np.zeros_like(c)
    return np.where((a >= b) & (a >= c) & (a >= d), 0,
                    np.where((b >= c) & (b >= d), 1, np.where(c >= d, 2, 3)))


@lru_cache(maxsize=None)
def _infill(bw: int, bh: int, gw: int, gh: int) -> np.ndarray:
    """(texels, grid points) integer factors (summing to 16) of the bilinear infill."""
    ds = (1024 + bw // 2) // (bw - 1)
    dt = (1024 + bh // 2) // (bh - 1)
    out = np.zeros((bw * bh, gw * gh + gw + 1), np.int64)      # spare columns for the far taps
    for t in range(bh):
        for s in range(bw):
            gs = (ds * s * (gw - 1) + 32) >> 6
            gt = (dt * t * (gh - 1) + 32) >> 6
            js, fs, jt, ft = gs >> 4, gs & 15, gt >> 4, gt & 15
            w11 = (fs * ft + 8) >> 4
            v0 = js + jt * gw
            texel = t * bw + s
            for off, w in ((0, 16 - fs - ft + w11), (1, fs - w11), (gw, ft - w11), (gw + 1, w11)):
                out[texel, v0 + off] += w
    assert (out[:, gw * gh:] == 0).all(), "infill reached past the weight grid"
    return out[:, :gw * gh]


# -- colour endpoints ---------------------------------------------------------------------------

def _bit_transfer_signed(a: np.ndarray, b: np.ndarray):
    """(a, b) -> (a as a signed 6-bit offset, b with a's top bit) for base+offset modes."""
    b = (b >> 1) | (a & 0x80)
    a = (a >> 1) & 0x3F
    return np.where(a & 0x20, a - 0x40, a), b


def _blue_contract(rgba: np.ndarray) -> np.ndarray:
    out = rgba.copy()
    out[..., 0] = (rgba[..., 0] + rgba[..., 2]) >> 1
    out[..., 1] = (rgba[..., 1] + rgba[..., 2]) >> 1
    return out


def _endpoints(cem: int, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unquantised values (n, 2..8) of one CEM -> endpoints (n, 4) x 2 (0..255)."""
    n = v.shape[0]
    full = np.full(n, 255, np.int64)

    def rgba(r, g, b, a):
        return np.stack([r, g, b, a], -1)

    if cem == 0:
        return rgba(v[:, 0], v[:, 0], v[:, 0], full), rgba(v[:, 1], v[:, 1], v[:, 1], full)
    if cem == 1:
        l0 = (v[:, 0] >> 2) | (v[:, 1] & 0xC0)
        l1 = np.minimum(l0 + (v[:, 1] & 0x3F), 255)
        return rgba(l0, l0, l0, full), rgba(l1, l1, l1, full)
    if cem == 4:
        return rgba(v[:, 0], v[:, 0], v[:, 0], v[:, 2]), rgba(v[:, 1], v[:, 1], v[:, 1], v[:, 3])
    if cem == 5:
        d1, b0 = _bit_transfer_signed(v[:, 1], v[:, 0])
        d3, b2 = _bit_transfer_signed(v[:, 3], v[:, 2])
        e0 = rgba(b0, b0, b0, b2)
        e1 = rgba(b0 + d1, b0 + d1, b0 + d1, b2 + d3)
        return e0, np.clip(e1, 0, 255)
    if cem in (6, 10):
        scale = v[:, 3]
        a0, a1 = (v[:, 4], v[:, 5]) if cem == 10 else (full, full)
        e0 = rgba((v[:, 0] * scale) >> 8, (v[:, 1] * scale) >> 8, (v[:, 2] * scale) >> 8, a0)
        return e0, rgba(v[:, 0], v[:, 1], v[:, 2], a1)
    if cem in (8, 12):
        a0, a1 = (v[:, 6], v[:, 7]) if cem == 12 else (full, full)
        e0 = rgba(v[:, 0], v[:, 2], v[:, 4], a0)
        e1 = rgba(v[:, 1], v[:, 3], v[:, 5], a1)
        swap = (v[:, 1] + v[:, 3] + v[:, 5] < v[:, 0] + v[:, 2] + v[:, 4])[:, None]
        return np.where(swap, _blue_contract(e1), e0), np.where(swap, _blue_contract(e0), e1)
    if cem in (9, 13):
        d = {}
        base = {}
        for i in (0, 2, 4, 6) if cem == 13 else (0, 2, 4):
            d[i], base[i] = _bit_transfer_signed(v[:, i + 1], v[:, i])
        a0 = base[6] if cem == 13 else full
        a1 = base[6] + d[6] if cem == 13 else full
        e0 = rgba(base[0], base[2], base[4], a0)
        e1 = rgba(base[0] + d[0], base[2] + d[2], base[4] + d[4], a1)
        swap = (d[0] + d[2] + d[4] < 0)[:, None]
        e0, e1 = np.where(swap, _blue_contract(e1), e0), np.where(swap, _blue_contract(e0), e1)
        return np.clip(e0, 0, 255), np.clip(e1, 0, 255)
    raise AssertionError(f"HDR endpoint mode {cem} reached the LDR decoder")


_HDR_CEMS = frozenset({2, 3, 7, 11, 14, 15})


# -- one configuration ---------------------------------------------------------------------------

def _decode_group(bits: np.ndarray, mode: int, partitions: int, cem_field: int, extra: int,
                  bw: int, bh: int, srgb: bool) -> np.ndarray | None:
    """Blocks sharing a configuration -> (n, texels, 4) 16-bit values, or None if the
    configuration is illegal (error colour)."""
    info = _block_mode(mode)
    if info is None:
        return None
    gw, gh, wlevels, dual = info
    if gw > bw or gh > bh or (dual and partitions == 4):
        return None
    n = bits.shape[0]
    planes = 2 if dual else 1
    weight_bits = _ise_bits(gw * gh * planes, wlevels)
    if partitions == 1:
        cems = [cem_field]
        colour_start, below_weights = 17, 0
    elif cem_field & 3 == 0:
        cems = [cem_field >> 2] * partitions
        colour_start, below_weights = 29, 0
    else:
        base_class = (cem_field & 3) - 1
        below_weights = 3 * partitions - 4
        field = (cem_field >> 2) | (extra << 4)
        cems = [((base_class + ((field >> i) & 1)) << 2) | ((field >> (partitions + 2 * i)) & 3)
                for i in range(partitions)]
        colour_start = 29
    if any(c in _HDR_CEMS for c in cems):
        return None
    ccs_start = 128 - weight_bits - below_weights - 2
    colour_end = 128 - weight_bits - below_weights - (2 if dual else 0)
    count = sum(2 * ((c >> 2) + 1) for c in cems)
    if count > 18:
        return None
    available = colour_end - colour_start
    fitting = [lv for lv in _COLOUR_LEVELS if _ise_bits(count, lv) <= available]
    if not fitting:
        return None
    colour = _UNQUANT_COLOUR[fitting[-1]][_ise_decode(bits, colour_start, count, fitting[-1])]
    # the weights: bit-reversed from the top of the block
    reversed_bits = np.concatenate([bits[:, 127::-1], bits[:, 128:]], 1)
    weights = _UNQUANT_WEIGHTS[wlevels][_ise_decode(reversed_bits, 0, gw * gh * planes, wlevels)]
    factors = _infill(bw, bh, gw, gh)                               # (texels, grid)
    texel_w = [(weights[:, p::planes] @ factors.T + 8) >> 4 for p in range(planes)]   # (n, texels)
    # endpoints of each partition, then of each texel
    e0s, e1s, k = [], [], 0
    for c in cems:
        nv = 2 * ((c >> 2) + 1)
        e0, e1 = _endpoints(c, colour[:, k:k + nv])
        e0s.append(e0)
        e1s.append(e1)
        k += nv
    e0s, e1s = np.stack(e0s, 1), np.stack(e1s, 1)                  # (n, partitions, 4)
    if partitions > 1:
        index = (bits[:, 13:23] << np.arange(10)).sum(-1)
        part = _partition_of_texels(index, partitions, bw, bh)     # (n, texels)
    else:
        part = np.zeros((n, bw * bh), np.int64)
    rows = np.arange(n)[:, None]
    e0, e1 = e0s[rows, part], e1s[rows, part]                       # (n, texels, 4)
    c0, c1 = e0 * 257, e1 * 257
    if srgb:            # sRGB colour channels widen as e << 8 | 0x80; alpha stays linear
        c0[..., :3], c1[..., :3] = (e0[..., :3] << 8) | 0x80, (e1[..., :3] << 8) | 0x80
    w = np.repeat(texel_w[0][..., None], 4, -1)
    if dual:
        channel = (bits[:, ccs_start] | (bits[:, ccs_start + 1] << 1))[:, None]
        w = np.where(np.arange(4) == channel[..., None], texel_w[1][..., None], w)
    return (c0 * (64 - w) + c1 * w + 32) >> 6


def decompress_astc(block_w: int, block_h: int, blocks: np.ndarray, srgb: bool, to_linear,
                    raw: bool = False) -> np.ndarray:
    """Decode ASTC LDR blocks (n, 16) -> (n, block_h, block_w, 4) [block, y, x, c]:
    float32 in [0, 1] (sRGB formats decoded to linear by ``to_linear``, or left
    encoded when it is None), or with ``raw`` the 16-bit interpolation results
    (int32; sRGB formats: their top 8 bits)."""
    n = blocks.shape[0]
    texels = block_w * block_h
    bits = np.unpackbits(blocks, axis=1, bitorder="little").astype(np.int64)
    bits = np.concatenate([bits, np.zeros((n, 1), np.int64)], 1)     # column 128: a 0 for reads past the end
    word = np.frombuffer(np.ascontiguousarray(blocks).tobytes(), "<u8").reshape(n, 2)
    low = word[:, 0].astype(np.uint64)
    mode = (low & np.uint64(0x7FF)).astype(np.int64)
    values = np.zeros((n, texels, 4), np.int64)
    error = np.zeros(n, bool)
    # void extent: one constant colour (RGBA16 in bits 64-127); HDR ones are errors here
    void = (mode & 0x1FF) == 0x1FC
    if void.any():
        hi = word[void, 1].astype(np.uint64)
        constant = np.stack([(hi >> np.uint64(16 * i)) & np.uint64(0xFFFF) for i in range(4)], -1).astype(np.int64)
        values[void] = constant[:, None, :]
        error[void] = (mode[void] & 0x200) != 0
    partitions = ((low >> np.uint64(11)) & np.uint64(3)).astype(np.int64) + 1
    cem_field = np.where(partitions == 1, (low >> np.uint64(13)) & np.uint64(0xF),
                         (low >> np.uint64(23)) & np.uint64(0x3F)).astype(np.int64)
    # extra CEM bits below the weights (only with partitions of different classes): read
    # per block once its block mode is known
    extra = np.zeros(n, np.int64)
    keys = np.stack([mode, partitions, cem_field], 1)
    normal = ~void
    for key in np.unique(keys[normal], axis=0):
        m, p, cf = (int(v) for v in key)
        sel = normal & (keys == key).all(1)
        info = _block_mode(m)
        if info is not None and p > 1 and cf & 3:
            gw, gh, wlevels, dual = info
            count = 3 * p - 4
            top = 128 - _ise_bits(gw * gh * (2 if dual else 1), wlevels)
            extra[sel] = (bits[sel][:, top - count:top] << np.arange(count)).sum(-1)
        for e in np.unique(extra[sel]):
            sub = sel & (extra == e)
            out = _decode_group(bits[sub], m, p, cf, int(e), block_w, block_h, srgb)
            if out is None:
                error[sub] = True
            else:
                values[sub] = out
    if raw:
        out = values >> 8 if srgb else values
        out[error] = np.array([255, 0, 255, 255]) if srgb else np.array([0xFFFF, 0, 0xFFFF, 0xFFFF])
        return out.reshape(n, block_h, block_w, 4).astype(np.int32)
    if srgb:
        result = (values >> 8).astype(np.float32) / np.float32(255.0)
        if to_linear is not None:
            result[..., :3] = to_linear(result[..., :3])
    else:
        result = values.astype(np.float32) / np.float32(65535.0)
    result[error] = ERROR_COLOUR
    return result.reshape(n, block_h, block_w, 4).astype(np.float32)
