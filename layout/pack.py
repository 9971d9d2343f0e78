"""Vectorised pack/unpack between a plain format's bytes and RGBA numpy arrays.

``unpack(format, raw)``: ``raw`` is uint8 ``(..., block_size_B)``; the result is
``(..., 4)`` RGBA with GL's defaults (0, 0, 0, 1) for missing channels:

- float32 for UNORM / SNORM / FLOAT / sRGB formats (sRGB decoded to linear);
- uint32 for UINT formats, int32 for SINT formats;
- depth formats give depth (float32) in ``.r``; stencil-only formats (``S8_UINT``,
  ``X24S8_UINT``...) give the stencil value (uint32) in ``.r``; combined
  depth/stencil formats give float32 with depth in ``.r`` and the stencil value
  (an exact small integer) in ``.g``;
- ``L`` (luminance) channels replicate to R, G, B; ``I`` (intensity) to all four;
  ``A``-only formats give (0, 0, 0, A).

``pack(format, values)`` is the inverse, with GL's conversion rules: UNORM clamps to
[0, 1] and rounds to nearest (``floor(x * (2^n - 1) + 0.5)``), SNORM clamps to
[-1, 1] and rounds likewise, integer formats clamp to the channel's range, sRGB
encodes the colour channels, 16-bit floats round to nearest even, the unsigned 10-
and 11-bit floats clamp negatives to 0 and overflow to the largest finite value,
``R9G9B9E5_FLOAT`` follows EXT_texture_shared_exponent. ``values`` is anything
``(..., 4)``; for combined depth/stencil formats ``.r`` is depth and ``.g`` stencil.
"""

from __future__ import annotations

import numpy as np

from .formats import FORMATS, Channel, Format, get_format

__all__ = ["pack", "unpack", "srgb_to_linear", "linear_to_srgb", "unpack_dtype"]


def srgb_to_linear(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.maximum(c, 0.0031308) ** (1 / 2.4) - 0.055)


_SRGB8_TO_LINEAR = srgb_to_linear(np.arange(256) / 255.0).astype(np.float32)


def _rgba_slots(fmt: Format) -> list[tuple[Channel, list[int]]]:
    """For each stored channel, the RGBA positions it feeds on unpack (the first
    one is where pack reads it from)."""
    has_z = fmt.channel("Z") is not None
    slots = {"R": [0], "G": [1], "B": [2], "A": [3], "L": [0, 1, 2], "I": [0, 1, 2, 3],
             "Z": [0], "S": [1] if has_z else [0]}
    return [(c, slots[c.name]) for c in fmt.channels if c.name in slots]


def unpack_dtype(format: str | Format) -> np.dtype:
    """The dtype ``unpack`` returns for a format."""
    fmt = get_format(format)
    if fmt.is_stencil and not fmt.is_depth:
        return np.dtype(np.uint32)
    if fmt.is_integer:
        types = {c.type for c in fmt.channels if c.type != "X"}
        return np.dtype(np.int32 if "SINT" in types else np.uint32)
    return np.dtype(np.float32)


def _check_plain(fmt: Format) -> None:
    if fmt.is_compressed:
        raise ValueError(f"{fmt.name} is block-compressed: use decompress(), not pack/unpack")


_BYTE_ALIGNED = {8: np.dtype("<u1"), 16: np.dtype("<u2"), 32: np.dtype("<u4")}


def _extract(raw: np.ndarray, c: Channel) -> np.ndarray:
    """The channel's bitfield, as an unsigned integer array."""
    lo, hi = c.shift_bits // 8, (c.shift_bits + c.bits - 1) // 8
    if c.shift_bits % 8 == 0 and c.bits in _BYTE_ALIGNED:  # fast path: whole bytes
        return np.ascontiguousarray(raw[..., lo:hi + 1]).view(_BYTE_ALIGNED[c.bits])[..., 0]
    acc = np.zeros(raw.shape[:-1], dtype=np.uint64)
    for b in range(lo, hi + 1):  # at most 5 bytes per channel
        acc |= raw[..., b].astype(np.uint64) << np.uint64(8 * (b - lo))
    return (acc >> np.uint64(c.shift_bits % 8)) & np.uint64((1 << c.bits) - 1)


def _deposit(out: np.ndarray, c: Channel, code: np.ndarray) -> None:
    """OR the channel's code (uint64) into its bitfield of ``out`` (uint8 blocks)."""
    lo, hi = c.shift_bits // 8, (c.shift_bits + c.bits - 1) // 8
    if c.shift_bits % 8 == 0 and c.bits in _BYTE_ALIGNED:  # fast path: whole bytes
        out[..., lo:hi + 1] = code.astype(_BYTE_ALIGNED[c.bits])[..., None].view(np.uint8)
        return
    code = (code.astype(np.uint64) & np.uint64((1 << c.bits) - 1)) << np.uint64(c.shift_bits % 8)
    for b in range(lo, hi + 1):
        out[..., b] |= ((code >> np.uint64(8 * (b - lo))) & np.uint64(0xFF)).astype(np.uint8)


def _sign_extend(v: np.ndarray, bits: int) -> np.ndarray:
    v = v.astype(np.int64)
    return np.where(v >= (1 << (bits - 1)), v - (1 << bits), v)


def _small_float_value(code: np.ndarray, mant_bits: int) -> np.ndarray:
    """Unsigned float with a 5-bit exponent (bias 15) and ``mant_bits`` mantissa bits."""
    code = np.asarray(code, dtype=np.int64)
    e = code >> mant_bits
    m = (code & ((1 << mant_bits) - 1)).astype(np.float64)
    scale = float(1 << mant_bits)
    normal = np.ldexp(1.0 + m / scale, (e - 15).astype(np.int32))
    denormal = np.ldexp(m / scale, -14)
    special = np.where(m == 0, np.inf, np.nan)
    return np.where(e == 0, denormal, np.where(e == 31, special, normal))


# Every 10- and 11-bit float code's value: decoding is one table lookup.
_SMALL_FLOAT_TABLES = {bits: _small_float_value(np.arange(1 << bits), bits - 5).astype(np.float32)
                       for bits in (10, 11)}


def _rne_shift(v: np.ndarray, shift: np.ndarray | int) -> np.ndarray:
    """``v >> shift`` rounded to nearest, ties to even (0 <= v < 2^30, 1 <= shift <= 31)."""
    shift = np.asarray(shift, dtype=v.dtype)
    half = (v.dtype.type(1) << (shift - 1)) - 1
    return (v + half + ((v >> shift) & 1)) >> shift


def _small_float_encode(x: np.ndarray, mant_bits: int) -> np.ndarray:
    """GL's conversion to an unsigned 10/11-bit float: round to nearest even,
    negatives to 0, finite overflow to the largest finite value, +inf to inf,
    NaN to NaN.

    Rounds once, in integers, from the float32 bits (exact for float32 inputs;
    a float64 input is first rounded to float32)."""
    k = mant_bits
    x = np.asarray(x)
    max_val = float(np.ldexp(2.0 - 2.0 ** -k, 15))
    v = np.fmin(np.fmax(x, 0.0), max_val).astype(np.float32)  # NaN -> 0 here, fixed below
    bits = v.view(np.int32)  # v >= 0: the sign bit is clear
    e = bits >> 23  # float32 biased exponent (sign is 0)
    m = bits & 0x7FFFFF
    # Normal results: re-bias the exponent (127 -> 15) and round the mantissa.
    normal = _rne_shift(((e - 112) << 23) | m, 23 - k)
    # Denormal results (below 2^-14): the significand in units of 2^(-14-k).
    significand = np.where(e > 0, m | (1 << 23), 0)
    denormal = _rne_shift(significand, np.minimum(136 - k - e, 31))
    code = np.where(e >= 113, normal, denormal)
    special = ~np.isfinite(x)
    if special.any():
        code[special & (x > 0)] = 31 << k
        code[np.isnan(x)] = (31 << k) | (1 << (k - 1))
    return code.astype(np.uint64)


def _decode_channel(fmt: Format, c: Channel, v: np.ndarray, precise: bool = False) -> np.ndarray:
    if c.type == "UNORM":
        if fmt.is_srgb and c.name in "RGBL":
            if c.bits == 8 and not precise:
                return _SRGB8_TO_LINEAR[v]
            return srgb_to_linear(v.astype(np.float64) / float((1 << c.bits) - 1))
        # c / (2^n - 1) is correctly rounded in float32 while c fits its significand.
        ftype = np.float32 if c.bits <= 24 and not precise else np.float64
        return v.astype(ftype) / ftype((1 << c.bits) - 1)
    if c.type == "SNORM":
        return np.maximum(_sign_extend(v, c.bits) / float((1 << (c.bits - 1)) - 1), -1.0)
    if c.type == "UINT":
        return v
    if c.type == "SINT":
        return _sign_extend(v, c.bits)
    if c.type == "FLOAT":
        if c.bits == 16:
            return v.astype(np.uint16).view(np.float16).astype(np.float32)
        if c.bits == 32:
            return v.astype(np.uint32).view(np.float32)
        if c.bits in (10, 11):
            return _SMALL_FLOAT_TABLES[c.bits][v]
    raise ValueError(f"{fmt.name}: no conversion for a {c.bits}-bit {c.type} channel")


def _clamp(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Clamp to [lo, hi] with NaN going to lo (fmax/fmin ignore NaN), as float64."""
    return np.fmin(np.fmax(x, lo, dtype=np.float64), hi)


def _encode_channel(fmt: Format, c: Channel, x: np.ndarray) -> np.ndarray:
    """One channel's values to its code (an unsigned integer array)."""
    if c.type == "UNORM":
        x = _clamp(x, 0.0, 1.0)
        if fmt.is_srgb and c.name in "RGBL":
            x = linear_to_srgb(x)
        q = x * float((1 << c.bits) - 1)
        q += 0.5
        return np.floor(q, out=q).astype(np.uint64)
    if c.type == "SNORM":
        q = _clamp(x, -1.0, 1.0) * float((1 << (c.bits - 1)) - 1)
        q += 0.5
        q = np.floor(q, out=q).astype(np.int64)
        return (q & ((1 << c.bits) - 1)).astype(np.uint64)
    if c.type == "UINT":
        return _clamp(x, 0, (1 << c.bits) - 1).astype(np.uint64)
    if c.type == "SINT":
        q = _clamp(x, -(1 << (c.bits - 1)), (1 << (c.bits - 1)) - 1)
        return (q.astype(np.int64) & ((1 << c.bits) - 1)).astype(np.uint64)
    if c.type == "FLOAT":
        if c.bits == 16:
            with np.errstate(over="ignore"):
                return x.astype(np.float16).view(np.uint16)
        if c.bits == 32:
            return x.astype(np.float32).view(np.uint32)
        if c.bits in (10, 11):
            return _small_float_encode(x, c.bits - 5)
    raise ValueError(f"{fmt.name}: no conversion for a {c.bits}-bit {c.type} channel")


# R9G9B9E5 (EXT_texture_shared_exponent): N = 9 mantissa bits, bias B = 15.
_E5_N, _E5_B, _E5_MAX = 9, 15, (511 / 512) * 2.0 ** 16


def _rgb9e5_decode(raw: np.ndarray) -> np.ndarray:
    word = raw.view(np.uint32)[..., 0].astype(np.int64)
    e = (word >> 27) & 31
    scale = np.ldexp(1.0, (e - _E5_B - _E5_N).astype(np.int32))
    rgb = np.stack([(word >> s) & 511 for s in (0, 9, 18)], axis=-1) * scale[..., None]
    return rgb


def _rgb9e5_encode(rgb: np.ndarray) -> np.ndarray:
    c = np.clip(np.nan_to_num(rgb, nan=0.0), 0.0, _E5_MAX)
    maxc = c.max(axis=-1)
    _, e = np.frexp(maxc)  # floor(log2(maxc)) == e - 1 for maxc > 0
    floor_log2 = np.where(maxc > 0, e.astype(np.int64) - 1, -_E5_B - 1)
    exp_p = np.maximum(-_E5_B - 1, floor_log2) + 1 + _E5_B
    max_s = np.floor(maxc / np.ldexp(1.0, (exp_p - _E5_B - _E5_N).astype(np.int32)) + 0.5)
    exp_s = np.where(max_s >= (1 << _E5_N), exp_p + 1, exp_p)
    s = np.floor(c / np.ldexp(1.0, (exp_s - _E5_B - _E5_N).astype(np.int32))[..., None] + 0.5).astype(np.int64)
    word = s[..., 0] | (s[..., 1] << 9) | (s[..., 2] << 18) | (exp_s.astype(np.int64) << 27)
    return word.astype(np.uint32)[..., None].view(np.uint8)


#: ``unpack``/``pack`` of small inputs (at most SMALL_B bytes) are remembered by
#: everything they depend on - the direction, the format (a registered one), the
#: precision, the input's dtype, shape and bytes - at most SMALL_KEPT of them: a
#: program that reads back one pixel at a time (piglit's probes) converts the same
#: few values again and again. Callers get a copy (they may write it).
SMALL_B = 64
SMALL_KEPT = 4096
_SMALL: dict = {}


def _small_key(direction: str, fmt: Format, a: np.ndarray, precise: bool = False):
    """``_SMALL``'s key for ``a`` (None: not remembered)."""
    if a.nbytes > SMALL_B or FORMATS.get(fmt.name) is not fmt:
        return None
    return direction, fmt.name, precise, a.dtype.str, a.shape, a.tobytes()


def _keep_small(key, out: np.ndarray) -> np.ndarray:
    if key is not None:
        if len(_SMALL) >= SMALL_KEPT:
            _SMALL.clear()
        _SMALL[key] = out.copy()
    return out


def unpack(format: str | Format, raw, precise: bool = False) -> np.ndarray:
    """Bytes ``(..., block_size_B)`` uint8 -> RGBA ``(..., 4)`` (see the module doc).
    ``precise=True``: float64 instead of float32 for non-integer formats, so a
    normalised value converts on to another format (e.g. a 24-bit depth to a
    32-bit unsigned int) with one rounding only."""
    fmt = get_format(format)
    _check_plain(fmt)
    raw = np.asarray(raw, dtype=np.uint8)
    if raw.shape[-1:] != (fmt.block_size_B,):
        raise ValueError(f"{fmt.name}: raw data must end in an axis of {fmt.block_size_B} bytes, "
                         f"got shape {raw.shape}")
    key = _small_key("unpack", fmt, raw, precise)
    if key is not None:
        known = _SMALL.get(key)
        if known is not None:
            return known.copy()
    dtype = unpack_dtype(fmt)
    if precise and dtype == np.float32:
        dtype = np.dtype(np.float64)
    out = np.zeros(raw.shape[:-1] + (4,), dtype=dtype)
    out[..., 3] = 1
    if fmt.name == "R9G9B9E5_FLOAT":
        out[..., :3] = _rgb9e5_decode(np.ascontiguousarray(raw))
        return _keep_small(key, out)
    for c, positions in _rgba_slots(fmt):
        value = _decode_channel(fmt, c, _extract(raw, c), precise)
        for p in positions:
            out[..., p] = value
    return _keep_small(key, out)


def pack(format: str | Format, values) -> np.ndarray:
    """RGBA ``(..., 4)`` -> bytes ``(..., block_size_B)`` uint8 (see the module doc)."""
    fmt = get_format(format)
    _check_plain(fmt)
    values = np.asarray(values)
    if values.shape[-1:] != (4,):
        raise ValueError(f"{fmt.name}: values must end in an axis of 4 (RGBA), got shape {values.shape}")
    key = _small_key("pack", fmt, values)
    if key is not None:
        known = _SMALL.get(key)
        if known is not None:
            return known.copy()
    shape = values.shape[:-1]
    values = values.reshape(-1, 4)  # 1-D channels: no 0-d corner cases below
    if fmt.name == "R9G9B9E5_FLOAT":
        return _keep_small(key, _rgb9e5_encode(values[:, :3].astype(np.float64)).reshape(shape + (4,)))
    out = np.zeros((values.shape[0], fmt.block_size_B), dtype=np.uint8)
    for c, positions in _rgba_slots(fmt):
        x = values[:, positions[0]]
        if c.type != "FLOAT" or c.bits in (10, 11):
            x = x.astype(np.float64)
        _deposit(out, c, _encode_channel(fmt, c, x))
    return _keep_small(key, out.reshape(shape + (fmt.block_size_B,)))
