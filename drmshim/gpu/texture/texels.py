"""Texel fetch: from integer texel coordinates to decoded values, in bulk.

Sole responsibility: address texels through the view's separable address tables,
read them through GPU memory (unit "TEX"), decode them with ``layout`` (plain
formats with ``layout.unpack``, ETC/EAC with ``layout.decompress``), apply the
descriptor's sRGB choice, and hand back one *table* of decoded texels plus, per
tap, the column of each lane's texel in it. Filtering is a weighted sum of
``table[c].take(column)`` (see ``sampling``), so each distinct texel is decoded
once however many taps read it.

Two read strategies give identical results: when the taps fall in a byte range not
much bigger than the number of taps, the range is read with one ``mem.read`` and
decoded whole; otherwise each tap's element is gathered with ``mem.gather``.
Column ``table.shape[1] - 1`` always holds the border colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import layout
from uapi import packets as P

from .descriptors import UNIT, InvalidDescriptor, SamplerState, TextureView

__all__ = ["Taps", "fetch", "decode_elements", "value_dtype", "border_colour", "RANGE_READ_FACTOR"]

#: Read a whole byte range when it holds at most this many elements per tap (or 64 Ki).
RANGE_READ_FACTOR = 4
_RANGE_MIN_EL = 1 << 16


@dataclass
class Taps:
    """Texel coordinates of several taps, each an int64 array over lanes (all the
    same shape). ``border`` marks taps that read the border colour instead."""

    x_px: list[np.ndarray]
    y_px: list[np.ndarray]
    layer: list[np.ndarray]
    level: list[np.ndarray]
    border: list[np.ndarray | None]
    sample: np.ndarray | int = 0


def value_dtype(fmt: layout.Format) -> np.dtype:
    """float32 for float/normalised formats, uint32/int32 for integer (and stencil) ones."""
    return np.dtype(np.float32) if fmt.is_compressed else layout.unpack_dtype(fmt)


def border_colour(view: TextureView, samp: SamplerState) -> np.ndarray:
    """The border colour as a decoded texel (4,) of the view's value type: custom
    colours are raw bits (float or integer by format); channels the format lacks
    read as 0 (colour) and 1 (alpha), as GL converts the border to the format."""
    dtype = value_dtype(view.fmt)
    bc = samp.border_colour
    if bc == P.BorderColour.CUSTOM:
        bits = np.array(samp.border_bits, dtype=np.uint32)
        v = bits.view(np.float32) if dtype == np.float32 else bits.view(dtype)
    else:
        one = 1 if dtype != np.float32 else 1.0
        v = {P.BorderColour.TRANSPARENT_BLACK: [0, 0, 0, 0], P.BorderColour.OPAQUE_BLACK: [0, 0, 0, one],
             P.BorderColour.OPAQUE_WHITE: [one] * 4}[bc]
        v = np.array(v, dtype=dtype)
    v = v.astype(dtype).copy()
    names = {c.name for c in view.fmt.channels}
    if view.fmt.is_depth_or_stencil:
        v[1:3], v[3] = 0, 1
        return v
    if names & {"L", "I"}:
        return v
    for i, ch in enumerate("RGB"):
        if ch not in names:
            v[i] = 0
    if "A" not in names:
        v[3] = 1
    return v


def decode_elements(view: TextureView, raw: np.ndarray) -> np.ndarray:
    """Raw elements uint8 (m, block_size_B) -> decoded (4, m * pixels per block),
    channel-major; block pixels are in row-major order inside each block."""
    fmt = view.fmt
    if fmt.is_compressed:
        if fmt.family != "etc":
            raise InvalidDescriptor(f"{fmt.name}: layout has no decoder for {fmt.family} blocks")
        vals = layout.decompress(fmt, raw).reshape(-1, 4)
    else:
        vals = layout.unpack(fmt, raw)
        if fmt.is_depth and fmt.is_stencil:
            vals[:, 1] = 0  # depth textures read (D, 0, 0, 1)
    vals = np.ascontiguousarray(vals.T, dtype=value_dtype(fmt))
    if view.srgb != fmt.is_srgb and vals.dtype == np.float32 and not fmt.is_depth_or_stencil:
        convert = layout.srgb_to_linear if view.srgb else layout.linear_to_srgb
        vals[:3] = convert(vals[:3]).astype(np.float32)
    return vals


def _element_offsets(mem, view: TextureView, taps: Taps):
    """Per tap: byte offsets of the element from the image start, and the pixel's
    index inside its block (None for plain formats)."""
    fmt, lay = view.fmt, view.lay
    bw, bh = fmt.block_width_px, fmt.block_height_px
    offs, pix = [], []
    for x, y, layer, level in zip(taps.x_px, taps.y_px, taps.layer, taps.level):
        if fmt.is_compressed:
            xe, ye = x // bw, y // bh
            pix.append((y % bh) * bw + x % bw)
        else:
            xe, ye = x, y
            pix.append(None)
        xb, yb = view.x_base[level], view.y_base[level]
        layer_B = layer * lay.layer_stride_B if lay.depth_px > 1 else 0
        off = view.x_part_B[xb + xe] + view.y_part_B[yb + ye] + layer_B
        if lay.sample_count_sa > 1:
            off = off + np.asarray(taps.sample, np.int64) * fmt.block_size_B
        elif lay.tiling == "twiddled_compressed":
            off = _solid_redirect(mem, view, off, x, y, layer, level, layer_B)
        offs.append(off)
    return offs, pix


def _solid_redirect(mem, view, off, x, y, layer, level, layer_B):
    """Compressed layouts: a texel in a SOLID subtile (8 x 4 pixels) reads copy k of
    the value, stored k elements after the first element of its 16 x 16 tile
    (layout.compression). Single-sampled images only."""
    lay = view.lay
    x, y, level = np.broadcast_arrays(x, y, level)
    comp = level < lay.compressed_levels
    if not np.any(comp):
        return off
    k = (x % 16) // 8 + 2 * ((y % 16) // 4)
    meta_B = np.zeros(x.shape, np.int64)
    layer = np.broadcast_to(layer, x.shape)
    for lv in np.unique(level[comp]):
        sel = comp & (level == lv)
        meta_B[sel] = layout.metadata_index(lay, int(lv), x[sel] // 16, y[sel] // 16, layer[sel]) + k[sel]
    modes = np.zeros(x.shape, np.uint8)
    modes[comp] = np.asarray(mem.gather((view.address + meta_B[comp]).astype(np.uint64), np.uint8, UNIT))
    solid = comp & (modes == layout.SUBTILE_SOLID)
    if not np.any(solid):
        return off
    xb, yb = view.x_base[level], view.y_base[level]
    tile_first_B = view.x_part_B[xb + x - x % 16] + view.y_part_B[yb + y - y % 16] + layer_B
    return np.where(solid, tile_first_B + k * lay.fmt.block_size_B, off)


def fetch(mem, view: TextureView, taps: Taps, border: np.ndarray | None = None,
          strategy: str = "auto") -> tuple[np.ndarray, list[np.ndarray]]:
    """Decode the texels of ``taps``. Returns ``(table, columns)``: ``table`` is
    (4, m + 1) decoded values (last column: ``border``, zeros if None) and
    ``columns[k]`` the column of tap k's texel per lane.

    ``strategy``: "auto", "range" (one read of the byte range) or "gather".
    """
    fmt = view.fmt
    bpb = fmt.block_size_B
    ppb = fmt.block_width_px * fmt.block_height_px
    offs, pix = _element_offsets(mem, view, taps)
    sizes = [o.size for o in offs]
    flat = np.concatenate([o.reshape(-1) for o in offs]) if offs else np.zeros(0, np.int64)
    dtype = value_dtype(fmt)
    if flat.size == 0:
        table = np.zeros((4, 1), dtype)
        return table, [np.zeros(0, np.int64) for _ in offs]
    lo, hi = int(flat.min()), int(flat.max())
    span_el = (hi - lo) // bpb + 1
    use_range = strategy == "range" or (
        strategy == "auto" and span_el <= max(RANGE_READ_FACTOR * flat.size, _RANGE_MIN_EL))
    if use_range and not np.all((flat - lo) % bpb == 0):
        use_range = False  # e.g. 3-byte texels across cache-line aligned levels
    if use_range:
        raw = np.asarray(mem.read(view.address + lo, span_el * bpb, UNIT), np.uint8).reshape(span_el, bpb)
        col_el = (flat - lo) // bpb
    else:
        raw = _gather_elements(mem, view.address + flat, bpb)
        col_el = np.arange(flat.size, dtype=np.int64)
    decoded = decode_elements(view, raw)
    table = np.empty((4, decoded.shape[1] + 1), dtype)
    table[:, :-1] = decoded
    table[:, -1] = 0 if border is None else border
    border_col = table.shape[1] - 1
    columns, start = [], 0
    for k, size in enumerate(sizes):
        col = col_el[start:start + size].reshape(offs[k].shape) * ppb
        if pix[k] is not None:
            col = col + pix[k]
        if taps.border[k] is not None:
            col = np.where(taps.border[k], border_col, col)
        columns.append(col)
        start += size
    return table, columns


def _gather_elements(mem, vas: np.ndarray, bpb: int) -> np.ndarray:
    """uint8 (m, bpb) elements at ``vas`` through the memory's vectorised gather."""
    vas = np.asarray(vas, np.uint64)
    for word_B, dt in ((8, np.uint64), (4, np.uint32), (2, np.uint16), (1, np.uint8)):
        if bpb % word_B == 0 and np.all(vas % np.uint64(word_B) == 0):
            k = bpb // word_B
            addrs = (vas[:, None] + np.arange(k, dtype=np.uint64) * np.uint64(word_B)).reshape(-1)
            words = np.asarray(mem.gather(addrs, dt, UNIT), dtype=dt)
            return words.reshape(vas.size, k).view(np.uint8).reshape(vas.size, bpb)
    raise AssertionError("unreachable")
