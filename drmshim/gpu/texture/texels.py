"""Texel fetch: from integer texel coordinates to decoded values, in bulk.

Sole responsibility: address texels through the view's separable address tables,
read them through GPU memory (unit "TEX"), decode them with ``layout`` (plain
formats with ``layout.unpack``, block-compressed ones with ``layout.decompress``), apply the
descriptor's sRGB choice, and hand back one *table* of decoded texels plus, per
tap, the column of each lane's texel in it. Filtering is a weighted sum of
``table[c].take(column)`` (see ``sampling``), so each distinct texel is decoded
once however many taps read it.

Two read strategies give identical results: when the taps fall in a byte range not
much bigger than the number of taps, the range is read with one ``mem.read`` and
decoded whole; otherwise each tap's element is gathered with ``mem.gather``.
Column ``table.shape[1] - 1`` holds the border colour when some tap reads it.
"""

from __future__ import annotations

import weakref

import numpy as np

import layout
from uapi import packets as P

from ...memory import GPUFault
from .descriptors import UNIT, InvalidDescriptor, SamplerState, TextureView

__all__ = ["DecodeCache", "fetch_level", "columns", "column_span", "solid_redirect", "fetch", "fetch_plan",
           "decode_elements", "value_dtype", "border_colour", "RANGE_READ_FACTOR"]

#: Read a whole byte range when it holds at most this many elements per tap (or 64 Ki).
RANGE_READ_FACTOR = 4
_RANGE_MIN_EL = 1 << 16


def value_dtype(fmt: layout.Format) -> np.dtype:
    """float32 for float/normalised formats, uint32/int32 for integer (and stencil) ones."""
    return np.dtype(np.float32) if fmt.is_compressed else layout.unpack_dtype(fmt)


def border_colour(view: TextureView, samp: SamplerState) -> np.ndarray:
    """The border colour as a decoded texel (4,) of the view's value type: custom
    colours are raw bits (float or integer by format); channels the format lacks
    read as 0 (colour) and 1 (alpha), as GL converts the border to the format;
    luminance formats take red as L ((R, R, R, A)), intensity ones as I ((R, R, R, R)),
    GL 4.6 compatibility section 8.14.2 and table 8.13."""
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
    if "I" in names:          # intensity: (R, R, R, R) of the border
        v[1:4] = v[0]
        return v
    if "L" in names:          # luminance (and alpha): (R, R, R, A), alpha 1 without an A channel
        v[1:3] = v[0]
        if "A" not in names:
            v[3] = 1
        return v
    for i, ch in enumerate("RGB"):
        if ch not in names:
            v[i] = 0
    if "A" not in names:
        v[3] = 1
    return v


def decode_elements(view: TextureView, raw: np.ndarray) -> np.ndarray:
    """Raw elements uint8 (m, block_size_B) -> decoded (4, m * pixels per block + 1),
    channel-major; block pixels are in row-major order inside each block. The last
    column is spare: ``fetch`` puts the border colour there."""
    fmt = view.fmt
    if fmt.is_compressed:
        try:
            vals = layout.decompress(fmt, raw).reshape(-1, 4)
        except ValueError as e:   # e.g. a block format layout cannot decode
            raise InvalidDescriptor(str(e)) from None
    else:
        vals = layout.unpack(fmt, raw)
        if fmt.is_depth and fmt.is_stencil:
            vals[:, 1] = 0  # depth textures read (D, 0, 0, 1)
    out = np.zeros((4, vals.shape[0] + 1), value_dtype(fmt))
    out[:, :-1] = vals.T
    if view.srgb != fmt.is_srgb and out.dtype == np.float32 and not fmt.is_depth_or_stencil:
        convert = layout.srgb_to_linear if view.srgb else layout.linear_to_srgb
        out[:3, :-1] = convert(out[:3, :-1]).astype(np.float32)
    return out


def columns(view: TextureView, x, y, layer, level, sample=0) -> np.ndarray:
    """Column (see TextureView) of pixel (x, y) of a layer (3D: slice), level and
    sample; coordinates must be in range. Vectorised; scalars broadcast."""
    col = view.x_col.take(view.x_base[level] + x) + view.y_col.take(view.y_base[level] + y)
    if view.lay.depth_px > 1:
        col = col + np.asarray(layer, np.int64) * view.layer_col
    if view.lay.sample_count_sa > 1:
        col = col + np.asarray(sample, np.int64) * view.sample_col
    return col


def fetch_level(mem, view: TextureView, coords: np.ndarray, lod, sample=None,
                cache: DecodeCache | None = None) -> np.ndarray | None:
    """texelFetch in bulk for the common case, unswizzled (4, n): a 2D single-sampled
    view, one level for every lane (``lod`` a scalar or all equal) and every
    coordinate inside it. Returns None for any other input (the caller takes the
    general path, ``sampling.load_view``, which gives the same values for these).

    Addresses are two table lookups per lane (the level's slices of the separable
    column tables), the decoded table is read one channel row at a time."""
    if (view.spatial_dims != 2 or view.is_array or view.is_cube or view.lay.sample_count_sa != 1
            or view.lay.depth_px != 1 or sample is not None or coords.ndim != 2 or coords.shape[1] < 2):
        return None
    n = coords.shape[0]
    if n == 0:
        return None
    lod = np.asarray(0 if lod is None else lod)
    if lod.ndim:
        if lod.size != n or (lod.strides != (0,) * lod.ndim and lod.min() != lod.max()):  # broadcast: one value
            return None
        lod = lod.reshape(-1)[0]
    level = view.first_level + int(lod)
    if not view.first_level <= level <= view.last_level:
        return None
    w, h = int(view.width_px_l[level]), int(view.height_px_l[level])
    x, y = coords[:, 0], coords[:, 1]
    x0, x1, y0, y1 = int(x.min()), int(x.max()), int(y.min()), int(y.max())
    if x0 < 0 or y0 < 0 or x1 >= w or y1 >= h:
        return None
    xb, yb = int(view.x_base[level]), int(view.y_base[level])
    x_col, y_col = view.x_col[xb:xb + w], view.y_col[yb:yb + h]
    box = _box_span(view, level, x_col, y_col, (x0, x1, y0, y1), n)
    if box is not None:
        # every column a lane may read, solid copies included, is in the box's span:
        # when all its texels are alike, that value is every lane's
        table, _ = fetch(mem, view, [np.zeros(1, np.int64)], shift=box[0], span_end=box[1], cache=cache)
        if _one_value(table):                       # e.g. a cleared or constant-filled target
            out = np.empty((4, n), table.dtype)
            out[...] = table[:, :1]
            return out
    col = x_col.take(x)
    col += y_col.take(y)
    col = solid_redirect(mem, view, col, x, y, 0, level)
    if box is not None:
        shift, span_end = box                       # decoded above: the call's cache has it
    else:
        shift, span_end = fetch_plan(view, (int(col.min()), int(col.max()) + 1), n, "auto", cache), None
    table, (local,) = fetch(mem, view, [col - shift if shift else col], shift=shift, span_end=span_end, cache=cache)
    out = np.empty((4, n), table.dtype)
    if shift is not None and _one_value(table):     # every texel of the range alike
        out[...] = table[:, :1]
        return out
    for c in range(4):
        table[c].take(local, out=out[c], mode="clip")  # in range: clip changes nothing, skips a buffer
    return out


def _box_span(view: TextureView, level: int, x_col, y_col, box, n: int) -> tuple[int, int] | None:
    """Columns [lo, hi) holding every texel of the pixel box (x0, x1, y0, y1) of a
    level and, on compressed levels, of the whole 16 x 16 tiles it touches (where
    solid subtiles keep their value); None unless it is a range read worth making
    (plain one-pixel elements, whole tiles inside the level, not much wider than
    the lanes)."""
    if not view.aligned or view.ppb != 1:
        return None
    x0, x1, y0, y1 = box
    lay = view.lay
    if lay.tiling == "twiddled_compressed" and level < lay.compressed_levels:
        x0, y0, x1, y1 = x0 - x0 % 16, y0 - y0 % 16, x1 | 15, y1 | 15
        if x1 >= len(x_col) or y1 >= len(y_col):
            return None
    lo = int(x_col[x0:x1 + 1].min()) + int(y_col[y0:y1 + 1].min())
    hi = int(x_col[x0:x1 + 1].max()) + int(y_col[y0:y1 + 1].max()) + 1
    return (lo, hi) if hi - lo <= max(RANGE_READ_FACTOR * n, _RANGE_MIN_EL) else None


_ONE_VALUE: dict = {}


def _one_value(table: np.ndarray) -> bool:
    """Whether every texel column of a decoded table (not its spare last column)
    holds the same bits; remembered (by weak reference: the answer never keeps a
    table alive) for the tables the caches share, which are the same object while
    the bytes behind them are unchanged."""
    hit = _ONE_VALUE.get(id(table))
    if hit is not None and hit[0]() is table:
        return hit[1]
    body = table[:, :-1].view(np.uint32) if table.dtype.itemsize == 4 else table[:, :-1]
    same = body.shape[1] > 0 and bool((body[:, -1] == body[:, 0]).all() and (body == body[:, :1]).all())
    if len(_ONE_VALUE) > 64:
        _ONE_VALUE.clear()
    _ONE_VALUE[id(table)] = (weakref.ref(table), same)
    return same


def column_span(view: TextureView, level_lo: int, level_hi: int, layer_lo: int, layer_hi: int) -> tuple[int, int]:
    """Columns [lo, hi) that hold levels level_lo..level_hi of layers layer_lo..layer_hi."""
    lo = layer_lo * view.layer_col + int(view.level_first_col[level_lo])
    hi = layer_hi * view.layer_col + int(view.level_end_col[level_hi])
    return lo, hi


def solid_redirect(mem, view: TextureView, col, x, y, layer, level):
    """Compressed layouts: a texel in a SOLID subtile (8 x 4 pixels) reads copy k of
    the value, stored k elements after the first element of its 16 x 16 tile
    (layout.compression). Single-sampled images only; others are returned as is.

    The image's whole metadata is read at once when it can be: no SOLID byte in it
    means nothing to redirect, and the lanes' modes come from it (the same bytes a
    per-lane gather reads; the gather is used when the whole read faults)."""
    lay = view.lay
    if lay.tiling != "twiddled_compressed" or lay.sample_count_sa > 1:
        return col
    x, y, level, layer = (np.broadcast_to(np.asarray(a, np.int64), np.shape(col)) for a in (x, y, level, layer))
    uniform_level = level.size and level.strides == (0,) * level.ndim
    if uniform_level:
        if int(level.reshape(-1)[0]) >= lay.compressed_levels:
            return col
        comp = None  # every lane
    else:
        comp = level < lay.compressed_levels
        if not np.any(comp):
            return col
    metadata = _metadata(mem, view)
    if metadata is not None and not np.any(metadata == layout.SUBTILE_SOLID):
        return col
    if comp is None:
        comp = np.ones(np.shape(col), bool)
    k = (x % 16) // 8 + 2 * ((y % 16) // 4)
    meta_B = np.zeros(np.shape(col), np.int64)
    levels = [int(level.reshape(-1)[0])] if uniform_level else np.unique(level[comp])
    for lv in levels:
        sel = comp if uniform_level else comp & (level == lv)
        meta_B[sel] = layout.metadata_index(lay, int(lv), x[sel] // 16, y[sel] // 16, layer[sel]) + k[sel]
    modes = np.zeros(np.shape(col), np.uint8)
    if metadata is not None:
        modes[comp] = metadata[meta_B[comp] - lay.metadata_offset_B]
    else:
        modes[comp] = np.asarray(mem.gather((view.address + meta_B[comp]).astype(np.uint64), np.uint8, UNIT))
    solid = comp & (modes == layout.SUBTILE_SOLID)
    if not np.any(solid):
        return col
    first = columns(view, x - x % 16, y - y % 16, layer, level)
    return np.where(solid, first + k * (lay.fmt.block_size_B // view.unit_B), col)


def _metadata(mem, view: TextureView) -> np.ndarray | None:
    """The compression metadata of the view's whole image (uint8, from
    ``metadata_offset_B``), or None when reading all of it faults (or would record a
    soft fault the lanes' own reads might not)."""
    lay = view.lay
    if getattr(mem, "soft_faults", False):
        return None
    try:
        return np.asarray(mem.read(view.address + lay.metadata_offset_B, lay.size_B - lay.metadata_offset_B, UNIT),
                          np.uint8)
    except GPUFault:
        return None


class _ContentCache:
    """Decoded ranges across calls, validated by content: each use re-reads the
    range's bytes from GPU memory (so faults and writes are always seen) and reuses
    the decoded texels only if the bytes are unchanged. Bounded LRU."""

    def __init__(self, budget_B: int = 64 << 20):
        self.budget_B = budget_B
        self.used_B = 0
        self.entries: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    def decode(self, view: TextureView, va: int, raw: np.ndarray) -> np.ndarray:
        key = (va, raw.size, view.fmt.name, view.srgb)
        hit = self.entries.pop(key, None)
        if hit is not None and np.array_equal(hit[0], raw):
            self.entries[key] = hit  # most recently used last
            return hit[1]
        if hit is not None:
            self.used_B -= hit[0].nbytes + hit[1].nbytes
        decoded = decode_elements(view, raw.reshape(-1, view.fmt.block_size_B))
        size = raw.nbytes + decoded.nbytes
        if size <= self.budget_B // 4:
            while self.entries and self.used_B + size > self.budget_B:
                old = self.entries.pop(next(iter(self.entries)))
                self.used_B -= old[0].nbytes + old[1].nbytes
            self.entries[key] = (raw.copy(), decoded)
            self.used_B += size
        return decoded


CONTENT_CACHE = _ContentCache()


class DecodeCache:
    """Decoded column ranges of one call (memory does not change during a call), so
    the batches of a big call decode each range once."""

    def __init__(self):
        self.entries: list[tuple[TextureView, int, int, np.ndarray]] = []  # view, lo_col, hi_col, decoded

    def find(self, view: TextureView, lo: int, hi: int):
        for v, a, b, decoded in self.entries:
            if v is view and a <= lo and hi <= b:
                return a, b, decoded
        return None


def fetch_plan(view: TextureView, span: tuple[int, int], ntaps: int, strategy: str = "auto",
               cache: DecodeCache | None = None) -> int | None:
    """Choose how ``fetch`` reads: returns the column shift of a range read (callers
    pass columns minus it), or None to gather each tap. ``span``: columns [lo, hi)
    containing every tap."""
    if strategy == "gather" or not view.aligned:
        return None
    if cache is not None:
        hit = cache.find(view, *span)
        if hit is not None:
            return hit[0]
    ppb = view.ppb
    lo_el, hi_el = span[0] // ppb, -(-span[1] // ppb)
    if strategy == "range" or (hi_el - lo_el) * ppb <= max(RANGE_READ_FACTOR * ntaps, _RANGE_MIN_EL):
        return lo_el * ppb
    return None


def fetch(mem, view: TextureView, cols: list[np.ndarray], borders: list | None = None,
          border_value: np.ndarray | None = None, *, shift: int | None = None, span_end: int | None = None,
          cache: DecodeCache | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """Decode the texels at ``cols`` (per tap). With ``shift`` (from ``fetch_plan``)
    the columns are relative to it and one range read serves all taps; without,
    they are columns from the image start and each is gathered. ``span_end``: a
    column (from the image start) past every tap, if the caller knows one.

    Returns ``(table, local)``: ``table`` is (4, m + 1) decoded values, its last
    column the border value (zeros if None); ``local[k]`` gives tap k's column in
    ``table`` per lane (the border column where ``borders[k]`` is set).
    """
    fmt = view.fmt
    bpb, ppb, unit = fmt.block_size_B, view.ppb, view.unit_B
    dtype = value_dtype(fmt)
    ntaps = sum(np.size(c) for c in cols)
    if ntaps == 0:
        return np.zeros((4, 1), dtype), [np.zeros(np.shape(c), np.intp) for c in cols]
    if shift is not None:
        hi = span_end if span_end is not None else max(int(c.max()) for c in cols) + 1 + shift
        hit = cache.find(view, shift, hi) if cache is not None else None
        if hit is not None:
            decoded = hit[2]
        else:
            hi_el = -(-(hi - shift) // ppb)
            va = view.address + shift // ppb * bpb
            raw = np.asarray(mem.read(va, hi_el * bpb, UNIT), np.uint8)
            decoded = CONTENT_CACHE.decode(view, va, raw)
            if cache is not None:
                cache.entries.append((view, shift, shift + decoded.shape[1] - 1, decoded))
        local = cols
    else:
        flat = np.concatenate([np.asarray(c, np.int64).reshape(-1) for c in cols])
        raw = _gather_elements(mem, view.address + (flat // ppb) * unit, bpb)
        decoded = decode_elements(view, raw)
        pos = np.arange(flat.size, dtype=np.intp) * ppb + (flat % ppb if ppb > 1 else 0)
        local, start = [], 0
        for c in cols:
            local.append(pos[start:start + np.size(c)].reshape(np.shape(c)))
            start += np.size(c)
    table = decoded  # shared with the caches: read-only, except in a private copy below
    if borders is not None and any(b is not None for b in borders):
        table = decoded.copy()  # (several threads may sample the same texture at once)
        table[:, -1] = 0 if border_value is None else border_value
        edge = table.shape[1] - 1
        local = [lc if b is None else np.where(b, edge, lc) for lc, b in zip(local, borders)]
    return table, local


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
