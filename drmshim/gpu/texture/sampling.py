"""Filtered sampling, texel fetch and size queries, in bulk over lanes.

Sole responsibility: GL's texture sampling rules (OpenGL 4.6 §8.14-8.15, §8.22-8.23)
for one texture view and one sampler over many lanes at once: cube face selection
(and seamless filtering across faces), the LOD from derivatives (given, or from 2x2
quads), bias and clamps, mipmap selection, wrap modes, nearest/linear filtering
(1D, 2D, 3D, arrays), shadow comparison, gather, offsets and swizzles. Texels come
from ``texels.fetch``; no Python loop runs per lane or per texel.

Float computations use float32 like the hardware; integer formats are never
averaged (linear filters act as nearest for them, as GL calls such textures
incomplete), but a sampler whose ``reduction`` is MIN or MAX (ARB_texture_filter_minmax)
filters every format: the result is the component-wise minimum or maximum of the
taps the filter gives a non-zero weight (both levels' taps for a linear mip filter,
every sample's for anisotropic filtering, the comparison results for a shadow
sampler), in the texels' own type.

Formats of four 8-bit UNORM channels (RGBA8, BGRA8, ABGR8; not sRGB, which decodes
before filtering) are filtered in the byte domain, as hardware filters unorm8 in
fixed point: a linear filter's result is sum_k(weight_k * byte_k) in float32, taps
added in order, divided by 255 once at the end. Every path gives exactly that; the
direct 2D path gathers each tap once as a packed 32-bit word (``_bilinear_2d_unorm8``).
"""

from __future__ import annotations

import threading

import numpy as np

from uapi import packets as P

from . import native
from .descriptors import UNIT, SamplerState, TextureView
from .texels import (DecodeCache, border_colour, column_span, columns, fetch, fetch_plan, solid_redirect,
                     value_dtype)

__all__ = ["sample_view", "sample_rows_2d", "load_view", "size_view", "cube_face", "wrap", "unorm8_bytes", "SampleCache",
           "QUAD_LANES", "UNORM8_CHUNK_LANES"]

QUAD_LANES = 4  # implicit derivatives: lanes 4q+0..3 are pixels (0,0), (1,0), (0,1), (1,1) of quad q

W = P.Wrap
F32 = np.float32

#: Take the special-case paths the data allows (exactly the general path's results;
#: tests switch them off to compare).
FAST_PATHS = True

#: The packed unorm8 kernel filters this many lanes at a time, so its (4, lanes)
#: temporaries stay in the core's cache.
UNORM8_CHUNK_LANES = 1 << 15


class SampleCache(DecodeCache):
    """A sample call's caches (memory does not change during a call): the decoded
    ranges of ``DecodeCache``, the packed words of whole levels for the unorm8
    kernel and the byte-valued tables of the general path's unorm8 filtering."""

    def __init__(self):
        super().__init__()
        self.level_words: list[tuple[TextureView, object, np.ndarray]] = []  # view, level or span, uint32 words
        self.byte_tables: list[tuple[np.ndarray, np.ndarray]] = []        # decoded table, its bytes as float32


def unorm8_bytes(view: TextureView) -> tuple[int, int, int, int] | None:
    """The byte of the 32-bit texel holding R, G, B and A when the view's format is
    four 8-bit UNORM channels read without an sRGB conversion (filtered in the byte
    domain: see the module doc), else None."""
    fmt = view.fmt
    if fmt.is_compressed or fmt.block_size_B != 4 or fmt.is_srgb or view.srgb or fmt.is_depth_or_stencil:
        return None
    where = {c.name: c.shift_bits // 8 for c in fmt.channels if c.type == "UNORM" and c.bits == 8}
    if len(fmt.channels) != 4 or set(where) != set("RGBA"):
        return None
    return where["R"], where["G"], where["B"], where["A"]


def wrap(i: np.ndarray, size: np.ndarray, mode: P.Wrap) -> tuple[np.ndarray, np.ndarray | None]:
    """Integer texel coordinate -> (index in [0, size), border mask or None)."""
    if mode == W.REPEAT:
        if np.ndim(size) == 0 and (size & (size - 1)) == 0:
            return i & (int(size) - 1), None  # power of two: a mask (cheaper than mod)
        return np.mod(i, size), None
    if mode == W.MIRRORED_REPEAT:
        m = np.mod(i, 2 * size)
        return np.where(m < size, m, 2 * size - 1 - m), None
    if mode == W.MIRROR_CLAMP_TO_EDGE:
        return np.minimum(np.where(i >= 0, i, -1 - i), size - 1), None
    if mode == W.MIRROR_CLAMP_TO_BORDER:
        m = np.where(i >= 0, i, -1 - i)
        return np.minimum(m, size - 1), m >= size
    clamped = np.clip(i, 0, size - 1)
    if mode == W.CLAMP_TO_BORDER:
        return clamped, (i < 0) | (i >= size)
    return clamped, None


def cube_face(d: np.ndarray):
    """Directions (n, 3) -> face (0..5 = +X -X +Y -Y +Z -Z), s, t in [0, 1] (GL table 8.19).
    Ties go to X, then Y."""
    x, y, z = d[:, 0], d[:, 1], d[:, 2]
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    is_x = (ax >= ay) & (ax >= az)
    is_y = ~is_x & (ay >= az)
    is_z = ~is_x & ~is_y
    ma = np.where(is_x, ax, np.where(is_y, ay, az))
    sc = np.where(is_x, np.where(x >= 0, -z, z), np.where(is_y, x, np.where(z >= 0, x, -x)))
    tc = np.where(is_x, -y, np.where(is_y, np.where(y >= 0, z, -z), -y))
    face = np.where(is_x, np.where(x >= 0, 0, 1), np.where(is_y, np.where(y >= 0, 2, 3), np.where(z >= 0, 4, 5)))
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = F32(0.5) / ma
    return face.astype(np.int64), (sc * inv + F32(0.5)).astype(F32), (tc * inv + F32(0.5)).astype(F32), \
        is_x, is_y, ma


def _face_direction(face, sc, tc):
    """Inverse of the table: face and (sc, tc) in [-1, 1] (or beyond) -> direction."""
    one = np.ones_like(sc)
    x = np.select([face == 0, face == 1, face == 4, face == 5], [one, -one, sc, -sc], sc)
    y = np.select([face <= 1, face == 2, face == 3], [-tc, one, -one], -tc)
    z = np.select([face == 0, face == 1, face == 2, face == 3, face == 4], [-sc, sc, tc, -tc, one], -one)
    return np.stack([x, y, z], axis=1)


def _table_take(table, bases, level, uniform, size, idx, shift, itype=np.intp):
    """table[bases[level] + i] - shift for each index array; a uniform level takes
    from the level's slice (shifted once, on the small table, as ``itype``)."""
    if uniform:
        b = int(bases[level])
        t = table[b:b + int(size)]
        if shift:
            t = t - shift
        if itype != t.dtype:
            t = t.astype(itype)
        return [t.take(i) for i in idx]
    b = bases.take(level)
    return [table.take(b + i) - shift if shift else table.take(b + i) for i in idx]


def _seamless(view, col, face, layer, level, i, j, size, shift):
    """Seamless cube filtering: taps off the face's edge continue on the adjacent
    face (through the direction of the tap's centre). Corner taps (off both edges)
    land on one of the two faces sharing the corner."""
    off = (i < 0) | (i >= size) | (j < 0) | (j >= size)
    if not np.any(off):
        return col
    n = np.broadcast_to(size, off.shape)[off].astype(np.float64)
    f = face[off]
    sc = (i[off] + 0.5) / n * 2 - 1
    tc = (j[off] + 0.5) / n * 2 - 1
    nf, s, t, *_ = cube_face(_face_direction(f, sc, tc))
    ni = np.clip(np.floor(s.astype(np.float64) * n), 0, n - 1).astype(np.int64)
    nj = np.clip(np.floor(t.astype(np.float64) * n), 0, n - 1).astype(np.int64)
    lv = np.broadcast_to(level, off.shape)[off]
    col = col.copy()
    moved = columns(view, ni, nj, layer[off] - f + nf, lv)
    col[off] = moved - shift if shift else moved        # (None: gathered, columns from the image start)
    return col


def _quad_derivatives(c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fine derivatives of per-lane values (n, k) over 2x2 quads (see QUAD_LANES):
    d/dx from the pixel's row of the quad, d/dy from its column."""
    n = c.shape[0]
    if n % 4:
        raise ValueError(f"implicit derivatives need whole 2x2 quads: {n} lanes is not a multiple of 4")
    q = c.reshape(n // 4, 4, -1)
    dx = np.empty_like(q)
    dy = np.empty_like(q)
    dx[:, 0] = q[:, 1] - q[:, 0]
    dx[:, 1] = dx[:, 0]
    dx[:, 2] = q[:, 3] - q[:, 2]
    dx[:, 3] = dx[:, 2]
    dy[:, 0] = q[:, 2] - q[:, 0]
    dy[:, 2] = dy[:, 0]
    dy[:, 1] = q[:, 3] - q[:, 1]
    dy[:, 3] = dy[:, 1]
    return dx.reshape(c.shape), dy.reshape(c.shape)


def _cube_face_derivs(d, dd, face_info):
    """Derivatives of the face coordinates (s, t) given derivatives of the direction."""
    _, s, t, is_x, is_y, ma = face_info
    x, y, z = d[:, 0], d[:, 1], d[:, 2]
    dx_, dy_, dz_ = dd[:, 0], dd[:, 1], dd[:, 2]
    # sc, tc, ma as signed functions of the direction, and their derivatives
    sgn_ma = np.where(is_x, np.sign(x), np.where(is_y, np.sign(y), np.sign(z)))
    dma = sgn_ma * np.where(is_x, dx_, np.where(is_y, dy_, dz_))
    sc = (s - 0.5) * 2 * ma
    tc = (t - 0.5) * 2 * ma
    dsc = np.where(is_x, np.where(x >= 0, -dz_, dz_), np.where(is_y, dx_, np.where(z >= 0, dx_, -dx_)))
    dtc = np.where(is_x, -dy_, np.where(is_y, np.where(y >= 0, dz_, -dz_), -dy_))
    with np.errstate(divide="ignore", invalid="ignore"):
        ds = 0.5 * (dsc * ma - sc * dma) / (ma * ma)
        dt = 0.5 * (dtc * ma - tc * dma) / (ma * ma)
    return np.stack([ds, dt], axis=1)


def _compare(func: P.CompareFunc, ref, d):
    ops = {P.CompareFunc.NEVER: lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
           P.CompareFunc.LESS: np.less, P.CompareFunc.EQUAL: np.equal, P.CompareFunc.LEQUAL: np.less_equal,
           P.CompareFunc.GREATER: np.greater, P.CompareFunc.NOTEQUAL: np.not_equal,
           P.CompareFunc.GEQUAL: np.greater_equal,
           P.CompareFunc.ALWAYS: lambda a, b: np.ones(np.broadcast(a, b).shape, bool)}
    return ops[func](ref, d).astype(F32)


def _swizzle(view: TextureView, res: np.ndarray) -> np.ndarray:
    if view.swizzle == (0, 1, 2, 3):
        return res
    out = np.empty_like(res)
    for i, s in enumerate(view.swizzle):
        out[i] = res[s] if s < 4 else (0 if s == P.Swizzle.ZERO else 1)
    return out


def _quad_rho2(cols: list[np.ndarray], scale) -> np.ndarray:
    """Implicit LOD from 2x2 quads without per-lane derivative arrays: the squared
    scale factor max(|d/dx|^2, |d/dy|^2) per lane, from per-quad differences (a
    lane's d/dx is its quad row's, its d/dy its quad column's)."""
    n = cols[0].shape[0]
    if n % 4:
        raise ValueError(f"implicit derivatives need whole 2x2 quads: {n} lanes is not a multiple of 4")
    d = np.empty((4, n // 4), F32)   # per quad: x_top, x_bot, y_left, y_right
    acc = None
    for c, sc in zip(cols, scale):
        q = c.reshape(-1, 4)
        np.subtract(q[:, 1], q[:, 0], out=d[0])
        np.subtract(q[:, 3], q[:, 2], out=d[1])
        np.subtract(q[:, 2], q[:, 0], out=d[2])
        np.subtract(q[:, 3], q[:, 1], out=d[3])
        d *= sc
        if acc is None:
            acc = np.square(d)
        else:
            acc += np.square(d, out=d)
    x_top, x_bot, y_left, y_right = acc
    out = np.empty((n // 4, 4), F32)
    np.maximum(x_top, y_left, out=out[:, 0])
    np.maximum(x_top, y_right, out=out[:, 1])
    np.maximum(x_bot, y_left, out=out[:, 2])
    np.maximum(x_bot, y_right, out=out[:, 3])
    return out.reshape(n)


#: int32 texel indices and columns are exact while every value stays below this
_INT32_SAFE = 1 << 30


def _index_type(view, samp, st_cols, offs, level: int):
    """int32 when every texel coordinate (any tap, any wrap) and every column of the
    image fits int32 with room to spare, else intp: the data decides, the results
    are the same (int32 arithmetic is half the memory traffic of int64). NaN or
    infinite coordinates take intp, where their casts are defined as before."""
    columns_total = -(-view.lay.size_B // view.unit_B) * view.ppb
    if not FAST_PATHS or columns_total >= _INT32_SAFE:
        return np.intp
    scale = 1 if samp.unnormalized else max(int(view.width_px_l[level]), int(view.height_px_l[level]),
                                           int(view.depth_px[level]))
    reach = 2 + (0 if offs is None or offs.size == 0 else int(np.abs(offs).max()))
    for c in st_cols:
        lo, hi = c.min(), c.max()
        if not (-_INT32_SAFE < (float(lo) * scale - reach) and float(hi) * scale + reach < _INT32_SAFE):
            return np.intp
    return np.int32


def _log2_runs(x: np.ndarray) -> np.ndarray:
    """np.log2 of a float32 array, taken once per run of equal neighbours when the
    runs are long (neighbouring lanes' scale factors mostly are; float32 log2
    costs about 4 ns a lane without AVX-512, the runs about 1): the same values."""
    n = x.shape[0]
    if not FAST_PATHS or n < 64:
        return np.log2(x)
    starts = np.empty(n, bool)
    starts[0] = True
    np.not_equal(x[1:], x[:-1], out=starts[1:])     # NaN != NaN: each NaN is a run of its own
    starts = np.flatnonzero(starts)
    if starts.size * 4 > n:
        return np.log2(x)
    return np.repeat(np.log2(x[starts]), np.diff(starts, append=n))


def _lod(view, samp, st, lod, bias, ddx, ddy, cube_info, dirs, n, st_cols=None):
    """lambda' of GL eq. 8.6 (before the level choice), per lane (float32).
    ``st_cols``: contiguous columns of ``st``, if the caller has them."""
    if samp.unnormalized:
        return np.zeros(n, F32)
    if lod is not None:
        lam = np.broadcast_to(np.asarray(lod, F32), (n,)).astype(F32)
    else:
        b = view.first_level
        k = 2 if view.is_cube else st.shape[1]
        scale = np.array([view.lay.width_px >> b or 1, view.lay.height_px >> b or 1, int(view.depth_px[b])][:k], F32)
        if (ddx is None or ddy is None) and not view.is_cube:
            if st_cols is None:
                st_cols = [np.ascontiguousarray(st[:, a]) for a in range(k)]
            rho2 = _quad_rho2(st_cols[:k], scale)
        else:
            src = dirs if view.is_cube else st
            if ddx is None or ddy is None:
                gx, gy = _quad_derivatives(src)
            else:
                gx = np.asarray(ddx, F32)[:, :src.shape[1]]
                gy = np.asarray(ddy, F32)[:, :src.shape[1]]
            if view.is_cube:
                gx, gy = _cube_face_derivs(dirs, gx, cube_info), _cube_face_derivs(dirs, gy, cube_info)

            def length2(g):
                total = None
                for a in range(g.shape[1]):
                    c = g[:, a] * scale[a]
                    total = c * c if total is None else total + c * c
                return total
            rho2 = np.maximum(length2(gx), length2(gy))
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = _log2_runs(rho2)                          # a fresh array: updated in place below
            lam *= F32(0.5)                                 # log2(rho) = log2(rho^2) / 2
            lam = lam.astype(F32, copy=False)
    if samp.lod_bias:
        lam += F32(samp.lod_bias)
    if bias is not None:
        lam += np.asarray(bias, F32)
    lo, hi = F32(samp.lod_min), F32(samp.lod_max)
    if lo <= hi:  # clamp, NaN -> lod_min: fmax drops a NaN operand, so two in-place passes
        np.fmax(lam, lo, out=lam)
        np.minimum(lam, hi, out=lam)
        return lam
    lam = np.clip(lam, lo, hi)
    return np.where(np.isnan(lam), lo, lam).astype(F32, copy=False)


def sample_view(mem, view: TextureView, samp: SamplerState, coords, *, lod=None, bias=None, ddx=None,
                ddy=None, compare=None, offset=None, gather_component=None, strategy="auto",
                cache=None, out=None) -> np.ndarray:
    """Sample one texture view with one sampler. Returns (4, n), channel-major:
    ``out`` when given (a (4, n) array of the result's type, filled)."""
    if (samp.max_anisotropy > 1 and lod is None and gather_component is None and not samp.unnormalized
            and not view.is_cube and samp.min_filter == P.Filter.LINEAR
            and value_dtype(view.fmt) == np.float32 and view.lay.sample_count_sa == 1):
        res = _sample_anisotropic(mem, view, samp, coords, bias=bias, ddx=ddx, ddy=ddy, compare=compare,
                                  offset=offset, strategy=strategy, cache=cache)
        if out is None:
            return res
        out[...] = res
        return out
    res = _sample_view(mem, view, samp, coords, lod=lod, bias=bias, ddx=ddx, ddy=ddy, compare=compare,
                       offset=offset, gather_component=gather_component, strategy=strategy, cache=cache, out=out)
    if out is None or res is out:
        return res
    out[...] = res
    return out


def sample_rows_2d(mem, view: TextureView, samp: SamplerState, s: np.ndarray, t: np.ndarray, outs, *, quads: bool,
                   lod=None, bias=None) -> bool:
    """``sample_view`` of the common case in one C call (``native.sample_2d``): a 2D
    four-channel unorm8 texture of one level range, linear minification and
    magnification (any mip filter), no border, no comparison, offsets, gather or
    anisotropy; the LOD from 2x2 quads (``quads``) or ``lod`` (scalar or per lane),
    plus ``bias``. ``s``, ``t``: contiguous float32 coordinates; ``outs``: four
    float32 rows (or None: not written), the channels of the result. Each lane's
    level and weights are the ones ``_sample_view`` chooses (numpy's log2 loop
    included), its taps and sums those of ``_bilinear_2d_unorm8``/the general path:
    the same bits. The texels are read in place from the memory holding every level
    of the view (``GPUMemory.window``: the range is mapped and readable, so no read
    the numpy path makes could fault), through the view's column tables. Returns
    False, having written nothing, when the call is not of that kind or the range
    has no window (the caller runs ``sample_view``)."""
    if s.dtype != F32 or t.dtype != F32 or not (s.flags.c_contiguous and t.flags.c_contiguous):
        return False
    taken = rows_2d_plan(mem, view, samp, s.shape[0], quads)
    return taken is not None and native.sample_2d(*taken, s, t, quads, lod, bias, outs)


def rows_2d_plan(mem, view: TextureView, samp: SamplerState, n: int, quads: bool):
    """What ``sample_rows_2d`` calls ``native.sample_2d`` with for ``n`` lanes of the
    pair: (plan, the words of its span), or None when it does not take the call (the
    same conditions; the coordinates are the C function's to check). The native
    tier's texture segments call the C function themselves with these."""
    if not FAST_PATHS or n == 0 or (quads and n % 4):
        return None
    if (n < native.MIN_LANES and not native.built()) or not native.available():
        return None
    plan = _plan_2d(view, samp)
    if plan is None:
        return None
    window = getattr(mem, "window", None)
    words = None if window is None else window(plan.address, plan.nbytes, True)
    if words is None or words.ctypes.data % 4:
        return None
    return plan, words


def _plan_2d(view: TextureView, samp: SamplerState):
    """``native.Plan2D`` of a (view, sampler) pair that ``sample_rows_2d`` takes, else
    None; made once per pair (both are cached by their descriptors' bytes)."""
    key = (id(view), id(samp))
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is view and hit[1] is samp:
        return hit[2]
    plan = _make_plan_2d(view, samp)
    if len(_PLANS) >= 64:
        _PLANS.pop(next(iter(_PLANS)), None)
    _PLANS[key] = (view, samp, plan)
    return plan


#: ``_plan_2d``'s plans: (view id, sampler id) -> (view, sampler, plan or None)
_PLANS: dict = {}


def _make_plan_2d(view: TextureView, samp: SamplerState):
    lo, hi = F32(samp.lod_min), F32(samp.lod_max)
    if (view.spatial_dims != 2 or view.is_cube or view.is_array or view.layers != 1 or view.lay.sample_count_sa != 1
            or view.ppb != 1 or not view.aligned or view.lay.tiling == "twiddled_compressed" or samp.unnormalized
            or samp.max_anisotropy > 1 or samp.min_filter != P.Filter.LINEAR or samp.mag_filter != P.Filter.LINEAR
            or samp.reduction != P.Reduction.WEIGHTED_AVERAGE
            or any(w not in native._WRAP_CODE for w in samp.wraps[:2]) or not (lo <= hi)
            or not (abs(float(lo)) < 1 << 24 and abs(float(hi)) < 1 << 24)):
        return None
    byte_of = unorm8_bytes(view)
    base, top = view.first_level, view.last_level
    if byte_of is None or top - base + 1 > native.MAX_LEVELS:
        return None
    first, end = int(view.level_first_col[base]), int(view.level_end_col[top])
    levels = []
    for lv in range(base, top + 1):
        w, h = int(view.width_px_l[lv]), int(view.height_px_l[lv])
        xb, yb = int(view.x_base[lv]), int(view.y_base[lv])
        xcol, ycol = view.x_col[xb:xb + w], view.y_col[yb:yb + h] - first
        if xcol.min() < 0 or ycol.min() < 0 or int(xcol.max()) + int(ycol.max()) >= end - first:
            return None         # (a texel outside the span: the general path reads it as it does)
        levels.append((xcol, ycol, w, h))
    if end - first >= 1 << 31:
        return None
    scale = (F32(view.lay.width_px >> base or 1), F32(view.lay.height_px >> base or 1))
    sel = [byte_of[c] if c < 4 else (-1 if c == P.Swizzle.ZERO else -2) for c in view.swizzle]
    return native.Plan2D(view.address + first * view.unit_B, (end - first) * view.unit_B, levels, samp.wraps[:2],
                         scale, F32(samp.lod_bias), lo, hi, samp.mip_filter, sel)


def _sample_anisotropic(mem, view: TextureView, samp: SamplerState, coords, *, bias, ddx, ddy, compare, offset,
                        strategy, cache) -> np.ndarray:
    """Anisotropic minification (EXT_texture_filter_anisotropic's footprint, as
    GPUs approximate it): with the texel-space derivatives Px = |dP/dx| and
    Py = |dP/dy|, N = min(ceil(Pmax / Pmin), max_anisotropy) samples are taken at
    the level of detail log2(Pmax / N), spread evenly along the major axis over
    the pixel's footprint (offsets (k + 1/2) / N - 1/2 of the major derivative),
    and averaged. N = 1 is the isotropic sample (rho = Pmax). All lanes in bulk: one
    pass per sample index up to the largest N."""
    coords = np.asarray(coords, F32)
    if coords.ndim == 1:
        coords = coords[:, None]
    n = coords.shape[0]
    nd = view.spatial_dims
    st = coords[:, :nd]
    if ddx is None or ddy is None:
        gx, gy = _quad_derivatives(st)
    else:
        gx, gy = np.asarray(ddx, F32)[:, :nd], np.asarray(ddy, F32)[:, :nd]
    b = view.first_level
    scale = np.array([view.lay.width_px >> b or 1, view.lay.height_px >> b or 1, int(view.depth_px[b])][:nd], F32)
    px = np.sqrt(((gx * scale) ** 2).sum(axis=1, dtype=np.float64))
    py = np.sqrt(((gy * scale) ** 2).sum(axis=1, dtype=np.float64))
    pmax, pmin = np.maximum(px, py), np.minimum(px, py)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(pmin > 0, np.ceil(pmax / pmin), samp.max_anisotropy)
    count = np.clip(np.nan_to_num(ratio, nan=1.0), 1, samp.max_anisotropy).astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.log2(pmax / count).astype(F32)
    major = np.where((px >= py)[:, None], gx, gy).astype(np.float64)
    total = None
    reduce = _REDUCE.get(samp.reduction)
    for k in range(int(count.max())):
        live = k < count
        t = np.where(live, (k + 0.5) / count - 0.5, 0.0)
        moved = coords.astype(np.float64).copy()
        moved[:, :nd] += t[:, None] * major
        part = _sample_view(mem, view, samp, moved.astype(F32), lod=lam, bias=bias, ddx=None, ddy=None,
                            compare=compare, offset=offset, gather_component=None, strategy=strategy,
                            cache=cache, out=None).astype(np.float64)
        if reduce is not None:          # MIN/MAX: over the live samples (each already reduced)
            total = part if total is None else np.where(live, reduce(total, part), total)
            continue
        weighted = part * np.where(live, 1.0 / count, 0.0)
        total = weighted if total is None else total + weighted
    return total.astype(F32)


def _sample_view(mem, view: TextureView, samp: SamplerState, coords, *, lod, bias, ddx, ddy, compare, offset,
                 gather_component, strategy, cache, out) -> np.ndarray:
    coords = np.asarray(coords, F32)
    if coords.ndim == 1:
        coords = coords[:, None]
    n = coords.shape[0]
    if view.lay.sample_count_sa > 1:
        raise ValueError("multisampled textures cannot be sampled with filtering: use load()")
    if n == 0:
        return np.zeros((4, 0), value_dtype(view.fmt))
    nd = view.spatial_dims
    is_int = value_dtype(view.fmt) != np.float32
    cube_info = dirs = None
    layer_coord = None
    if view.is_cube:
        dirs = coords[:, :3]
        cube_info = cube_face(dirs)
        st = np.stack([cube_info[1], cube_info[2]], axis=1)
        if view.is_array:
            layer_coord = coords[:, 3]
    else:
        st = coords[:, :nd]
        if view.is_array:
            layer_coord = coords[:, nd]

    st_cols = [np.ascontiguousarray(st[:, a]) for a in range(nd)]
    lam = _lod(view, samp, st, lod, bias, ddx, ddy, cube_info, dirs, n, st_cols)
    base, top = view.first_level, view.last_level
    mip = samp.mip_filter
    reduce = None if gather_component is not None else _REDUCE.get(samp.reduction)
    filters = not is_int or reduce is not None      # integer texels are reduced, never averaged
    mag_linear = samp.mag_filter == P.Filter.LINEAR and filters
    min_linear = samp.min_filter == P.Filter.LINEAR and filters
    c = F32(0.5) if (mag_linear and not min_linear and mip != P.MipFilter.NONE) else F32(0)
    lam_lo, lam_hi = lam.min(), lam.max()   # NaN if any lane is NaN
    mag = None if lam_lo > c else lam <= c  # None: no lane is magnified
    if gather_component is not None:
        lin = True
    elif mag_linear == min_linear:
        lin = mag_linear  # one filter for every lane
    else:
        lin = min_linear if mag is None else np.where(mag, mag_linear, min_linear)
    any_linear = lin if isinstance(lin, bool) else bool(np.any(lin))

    # levels (GL 8.14.3) and the weight of the second one
    level1 = base   # an int when every lane uses the same first level, else per lane
    frac = None
    if gather_component is None and not samp.unnormalized and mip != P.MipFilter.NONE:
        if mag is None:
            mag = np.zeros(n, bool) if (mip == P.MipFilter.NEAREST or not filters) or \
                not (np.floor(lam_lo) == np.floor(lam_hi) and np.isfinite(lam_hi)) else None
        if mip == P.MipFilter.NEAREST or not filters:
            d = base + np.ceil(lam + F32(0.5)).astype(np.intp) - 1
            level1 = np.where(mag | (lam <= 0.5), base, np.minimum(d, top))
        elif mag is None:
            # one level pair for every lane (a uniform LOD: the common case of a surface
            # facing the viewer): scalar levels, no per-lane level arrays; every lane's
            # floor(lambda) is f_lo, and some lane has a fraction above 0 iff lam_hi > f_lo
            f_lo = np.floor(lam_lo)
            level1 = min(base + int(f_lo), top)
            frac = lam - f_lo if level1 < top and lam_hi > f_lo else None
        else:
            fl = np.floor(lam)
            level1 = np.where(mag, base, np.minimum(base + fl.astype(np.intp), top))
            frac = np.where(mag | (level1 >= top), F32(0), lam - fl).astype(F32, copy=False)
            if not np.any(frac > 0):
                frac = None
    if np.ndim(level1) == 0:   # every lane at the same level(s): plain ints
        l1_lo = l1_hi = level1 = int(level1)
        level2 = min(l1_lo + 1, top)
    else:
        level1 = np.asarray(level1, np.intp)
        l1_lo, l1_hi = int(level1.min()), int(level1.max())
        level2 = None if frac is None else np.minimum(level1 + 1, top)
    if frac is None:
        levels = [(level1, None)]
    else:
        levels = [(level1, F32(1) - frac), (level2, frac)]

    layer = 0
    if layer_coord is not None:
        count = view.layers // 6 if view.is_cube else view.layers
        layer = np.clip(np.floor(layer_coord + F32(0.5)), 0, max(count - 1, 0)).astype(np.intp)
    face = None
    if view.is_cube:
        face = cube_info[0]
        layer = face + 6 * layer

    # the columns all taps can reach: one read of that range when it is small
    uniform = l1_lo == l1_hi  # then every lane uses the same level(s): scalar tables
    lvl_lo, lvl_hi = l1_lo, (min(l1_hi + 1, top) if len(levels) == 2 else l1_hi)
    if nd == 3 or view.layers == 1:
        layer_lo, layer_hi = 0, view.layers - 1
    elif view.is_cube:
        cubes = (layer - face) // 6
        layer_lo, layer_hi = 6 * int(cubes.min()), 6 * int(cubes.max()) + 5
    else:
        layer_lo, layer_hi = int(np.min(layer)), int(np.max(layer))
    ntaps = n * len(levels) * ((1 << nd) if any_linear else 1)
    span = column_span(view, lvl_lo, lvl_hi, layer_lo, layer_hi)
    shift = fetch_plan(view, span, ntaps, strategy, cache)
    layer_part = layer * view.layer_col if (view.layers > 1 and nd < 3) else 0
    offs = None if offset is None else np.asarray(offset, np.intp).reshape(n, -1)

    itype = _index_type(view, samp, st_cols, offs, lvl_lo)
    if (FAST_PATHS and lin is True and uniform and nd == 2 and view.layers == 1 and not view.is_cube and offs is None
            and gather_component is None and compare is None and reduce is None and not samp.unnormalized
            and shift is not None
            and view.lay.tiling != "twiddled_compressed"
            and not {W.CLAMP_TO_BORDER, W.CLAMP_GL, W.MIRROR_CLAMP_GL, W.MIRROR_CLAMP_TO_BORDER} & set(samp.wraps[:2])):
        # the common case (a 2D texture, linear filters, one level pair for every
        # lane, no border): the same arithmetic as below without its generality
        scalar_levels = [(int(np.ravel(lv)[0]), w) for lv, w in levels]
        byte_of = unorm8_bytes(view)
        if byte_of is not None and view.ppb == 1 and view.aligned:
            if all(c < 4 for c in view.swizzle):   # the swizzle picks the bytes: results straight into ``out``
                picked = tuple(byte_of[c] for c in view.swizzle)
                return _bilinear_2d_unorm8(mem, view, samp, st_cols, scalar_levels, itype, shift, span[1], cache,
                                           picked, out if out is not None and out.dtype == F32 else None)
            return _swizzle(view, _bilinear_2d_unorm8(mem, view, samp, st_cols, scalar_levels, itype, shift, span[1],
                                                      cache, byte_of))
        return _swizzle(view, _bilinear_2d(mem, view, samp, st_cols, scalar_levels, itype, shift, span[1], cache))
    cols, borders, weights = [], [], []
    for level, level_w in levels:
        if uniform:
            level = int(np.ravel(level)[0])
            sizes = [int(view.width_px_l[level]), int(view.height_px_l[level]), int(view.depth_px[level])][:nd]
        else:
            sizes = [view.width_px_l[level], view.height_px_l[level], view.depth_px[level]][:nd]
        parts, wts, bmasks, raw_idx, idxs = [], [], [], [], []
        for a in range(nd):
            coord = st_cols[a]
            mirror_gl = samp.wraps[a] == W.MIRROR_CLAMP_GL and not view.is_cube and not samp.unnormalized
            clamp_gl = (samp.wraps[a] == W.CLAMP_GL and not view.is_cube) or mirror_gl
            u = coord if samp.unnormalized else coord * np.asarray(sizes[a], F32)
            if offs is not None and a < offs.shape[1]:
                u = u + offs[:, a].astype(F32)
            if mirror_gl:          # EXT_texture_mirror_clamp: min(1, max(1/2N, |s|)), in texels
                u = np.clip(np.abs(u), F32(0.5), np.asarray(sizes[a], F32))
            elif clamp_gl:         # GL_CLAMP: the texel coordinate, offset included, into [0, size]
                u = np.clip(u, F32(0), np.asarray(sizes[a], F32))
            with np.errstate(invalid="ignore"):
                if any_linear:
                    if lin is True:   # u - 0.5, its floor and fraction, in place on fresh arrays
                        ua = np.subtract(u, F32(0.5), out=u if u is not st_cols[a] else None)
                        fl = np.floor(ua)
                        i0 = fl.astype(itype)
                        w1 = np.subtract(ua, fl, out=ua)
                    else:
                        ua = np.where(lin, u - F32(0.5), u)
                        fl = np.floor(ua)
                        i0 = fl.astype(itype)
                        w1 = np.where(lin, ua - fl, F32(0)).astype(F32)
                    ends = [i0, i0 + 1]
                    w0 = F32(1) - w1
                    if a == nd - 1 and level_w is not None:  # fold the level weight in once
                        w0 *= level_w
                        w1 = w1 * level_w
                    wts.append([w0, w1])
                else:
                    ends = [np.floor(u).astype(itype)]
                    wts.append([level_w if a == nd - 1 else None])
            mode = samp.wraps[a]
            if view.is_cube:
                mode = W.CLAMP_TO_EDGE
            elif samp.unnormalized and mode in (W.REPEAT, W.MIRRORED_REPEAT):
                mode = W.CLAMP_TO_EDGE
            elif clamp_gl:         # linear taps beyond the image: the border; nearest ones: the edge
                mode = W.CLAMP_TO_BORDER if any_linear else W.CLAMP_TO_EDGE
            wrapped = [wrap(i, sizes[a], mode) for i in ends]
            if clamp_gl and any_linear and lin is not True:   # per-lane filters: nearest lanes clamp
                wrapped = [(i, b & lin) for i, b in wrapped]
            bmasks.append([b for _, b in wrapped])
            idx = [i for i, _ in wrapped]
            raw_idx.append(ends)
            idxs.append(idx)
            if a == 0:
                parts.append(_table_take(view.x_col, view.x_base, level, uniform, sizes[0], idx, 0, itype))
            elif a == 1:
                ys = _table_take(view.y_col, view.y_base, level, uniform, sizes[1], idx, shift, itype)
                parts.append([y + layer_part for y in ys] if isinstance(layer_part, np.ndarray) else ys)
            else:
                parts.append([k * view.layer_col for k in idx])
        if nd == 1:
            parts.append([view.y_col.take(view.y_base[level]) - shift + layer_part])
            wts.append([None])
            bmasks.append([None])
        for combo in range(1 << len(parts)) if any_linear else [0]:
            bits = [(combo >> a) & 1 for a in range(len(parts))]
            if any(b >= len(parts[a]) for a, b in enumerate(bits)):
                continue
            col = parts[0][bits[0]]
            for a in range(1, len(parts)):
                col = col + parts[a][bits[a]]
            wt = bm = None
            for a in range(len(parts)):
                w = wts[a][bits[a]]
                if w is not None:
                    wt = w if wt is None else wt * w
                b = bmasks[a][bits[a]]
                if b is not None:
                    bm = b if bm is None else bm | b
            if view.is_cube and samp.seamless_cube:
                col = _seamless(view, col, face, layer, level, raw_idx[0][bits[0]], raw_idx[1][bits[1]],
                                sizes[0], shift)
            if view.lay.tiling == "twiddled_compressed":
                base = shift or 0  # columns are relative to a range read's shift, else absolute
                col = solid_redirect(mem, view, col + base, idxs[0][bits[0]], idxs[1][bits[1]] if nd > 1 else 0,
                                     idxs[2][bits[2]] if nd == 3 else layer, level) - base
            cols.append(col)
            borders.append(bm)
            weights.append(wt)

    table, cols = fetch(mem, view, cols, borders, border_colour(view, samp), shift=shift, span_end=span[1],
                        cache=cache)
    dtype = table.dtype
    if gather_component is not None:
        order = [2, 3, 1, 0]  # GL: (i0,j1), (i1,j1), (i1,j0), (i0,j0); combo bit0 = i, bit1 = j
        res = np.empty((4, n), F32 if compare is not None else dtype)
        s = view.swizzle[int(gather_component)]
        for out_i, combo in enumerate(order):
            if compare is not None and samp.compare_enable:
                res[out_i] = _compare(samp.compare_func, _ref(view, compare), table[0].take(cols[combo]))
            elif s < 4:
                res[out_i] = table[s].take(cols[combo])
            else:
                res[out_i] = 0 if s == P.Swizzle.ZERO else 1
        return res
    if compare is not None and samp.compare_enable:
        ref = _ref(view, compare)
        if reduce is not None:      # MIN/MAX of the comparison results (0 or 1), not of the depths
            res = np.zeros((4, n), F32)
            res[0] = _reduce_taps(reduce, [_compare(samp.compare_func, ref, table[0].take(col))[None]
                                           for col in cols], weights, F32)[0]
            res[3] = 1
            return _swizzle(view, res)
        r = np.zeros(n, F32)
        for col, wt in zip(cols, weights):
            v = _compare(samp.compare_func, ref, table[0].take(col))
            r += v if wt is None else wt * v
        res = np.zeros((4, n), F32)
        res[0], res[3] = r, 1
        return _swizzle(view, res)
    if reduce is not None:
        return _swizzle(view, _reduce_taps(reduce, [table[:, col] for col in cols], weights, dtype))
    if dtype != np.float32 or all(w is None for w in weights):
        res = table[:, cols[0]]
        return _swizzle(view, res)
    if unorm8_bytes(view) is None:
        return _swizzle(view, _weighted_sum(table, cols, weights, n))
    res = _weighted_sum(_byte_table(table, cache), cols, weights, n)   # the byte domain (see the module doc)
    res /= F32(255)
    return _swizzle(view, res)


#: The reductions of ARB_texture_filter_minmax (None: the weighted average).
_REDUCE = {P.Reduction.MIN: np.minimum, P.Reduction.MAX: np.maximum}


def _reduce_taps(reduce, taps: list[np.ndarray], weights: list, dtype) -> np.ndarray:
    """The component-wise ``reduce`` (np.minimum or np.maximum) of each lane's (4, n)
    taps whose weight is not zero (a None weight: the tap counts). The filters give
    every lane such a tap (a lane's weights sum to one)."""
    out = have = None
    for tap, wt in zip(taps, weights):
        tap = tap.astype(dtype, copy=False)
        n = tap.shape[1]
        live = np.ones(n, bool) if wt is None else np.broadcast_to(np.asarray(wt) != 0, (n,))
        if out is None:
            out, have = tap.copy(), live.copy()
            continue
        out = np.where(live, np.where(have, reduce(out, tap), tap), out)   # a lane's first live tap: itself
        have |= live
    return out


def _bilinear_2d(mem, view, samp, st_cols, levels, itype, shift, span_end, cache) -> np.ndarray:
    """Bilinear taps of each (level, level weight) of ``levels`` (scalar levels) of
    a 2D view, wrapped without borders, and their weighted sum: exactly the
    general path's operations in its order (taps x fastest, then y, then level;
    see ``_weighted_sum``), each tap consumed as soon as it is made so the
    batch's temporaries stay in cache."""
    table = res = None
    for level, level_w in levels:
        with np.errstate(invalid="ignore"):    # NaN coordinates: their casts are defined (see _index_type)
            xs, wxs = _linear_axis(st_cols[0], int(view.width_px_l[level]), samp.wraps[0], view.x_col,
                                   int(view.x_base[level]), 0, itype, None)
            ys, wys = _linear_axis(st_cols[1], int(view.height_px_l[level]), samp.wraps[1], view.y_col,
                                   int(view.y_base[level]), shift, itype, level_w)
        for y, wy in zip(ys, wys):
            for x, wx in zip(xs, wxs):
                col = x + y
                if table is None:   # one range read serves every tap (columns relative to ``shift``)
                    table, (col,) = fetch(mem, view, [col], None, None, shift=shift, span_end=span_end,
                                          cache=cache)
                tap = table.take(col, axis=1)
                tap *= wx * wy
                if res is None:
                    res = tap
                else:
                    res += tap
    return res


def _linear_axis(s, size: int, mode, col_table, base: int, shift: int, itype, level_w):
    """One axis of a linear filter at one level: the two taps' column parts and
    weights (the level weight folded into the weights when given): the taps of
    ``_linear_taps`` looked up in the level's column table."""
    (i0, i1), ws = _linear_taps(s, size, mode, itype, level_w)
    t = col_table[base:base + size]
    t = (t - shift if shift else t).astype(itype, copy=False)
    return [t.take(i0), t.take(i1)], ws


def _byte_table(table: np.ndarray, cache) -> np.ndarray:
    """A decoded unorm8 table (4, m + 1) as its bytes in float32 (c / 255 * 255,
    rounded: exact); the spare last column (the border colour) scaled by 255."""
    memo = cache.byte_tables if isinstance(cache, SampleCache) else []
    for decoded, as_bytes in memo:
        if decoded is table:
            return as_bytes
    as_bytes = np.multiply(table, F32(255))
    np.rint(as_bytes[:, :-1], out=as_bytes[:, :-1])
    if len(memo) > 8:
        memo.clear()
    memo.append((table, as_bytes))
    return as_bytes


def _bilinear_2d_unorm8(mem, view, samp, st_cols, levels, itype, shift, span_end, cache, byte_of,
                        out=None) -> np.ndarray:
    """``_bilinear_2d`` for four 8-bit UNORM channels, in the byte domain (the
    module doc): the same float32 weights, products and tap order as the general
    path's ``_weighted_sum`` on byte values, then one division by 255.

    Each tap is one gather of a packed 32-bit texel from the level in raster
    order (``_level_words``), split into its four channels by shifts and masks
    (one gather instead of one per channel). ``byte_of``: the byte of each result
    channel. Lanes go in chunks of UNORM8_CHUNK_LANES into buffers made once, so
    the temporaries stay in cache; the result goes into ``out`` when given."""
    n = st_cols[0].shape[0]
    wrap_s, wrap_t = samp.wraps[:2]
    plan = [(_level_words(mem, view, level, shift, span_end, cache), int(view.width_px_l[level]),
             int(view.height_px_l[level]), level_w) for level, level_w in levels]
    out = np.empty((4, n), F32) if out is None else out
    if FAST_PATHS and itype == np.int32 and native.unorm8_bilinear_2d(st_cols[0], st_cols[1], plan, wrap_s, wrap_t,
                                                                      byte_of, out):
        return out       # the same operations in C (texture/native.py)
    shifts = np.array([8 * b for b in byte_of], np.int32)[:, None]   # each channel's byte: its bit offset
    m = min(n, UNORM8_CHUNK_LANES)
    idx_buf, texel_buf, wt_buf = np.empty(m, np.intp), np.empty(m, np.uint32), np.empty(m, F32)
    ch_buf, tap_buf = np.empty((4, m), np.int32), np.empty((4, m), F32)
    for a in range(0, n, m):
        k = min(m, n - a)
        res = out[:, a:a + k]
        idx, texel, wt, ch, tap = idx_buf[:k], texel_buf[:k], wt_buf[:k], ch_buf[:, :k], tap_buf[:, :k]
        first = True
        for words, width, height, level_w in plan:
            if np.ndim(level_w):
                level_w = level_w[a:a + k]
            with np.errstate(invalid="ignore"):    # NaN coordinates: their casts are defined (see _index_type)
                xs, wxs = _linear_taps(st_cols[0][a:a + k], width, wrap_s, itype, None)
                ys, wys = _linear_taps(st_cols[1][a:a + k], height, wrap_t, itype, level_w)
            for y, wy in zip(ys, wys):
                y *= width                                   # the row's first texel
                for x, wx in zip(xs, wxs):                   # taps in the general path's order: x fastest
                    words.take(np.add(y, x, out=idx), out=texel, mode="clip")  # wrapped: clip changes nothing
                    np.right_shift(texel.view(np.int32), shifts, out=ch)
                    np.bitwise_and(ch, 255, out=ch)
                    np.multiply(wx, wy, out=wt)
                    if first:
                        np.copyto(res, ch)
                        res *= wt
                        first = False
                    else:
                        np.copyto(tap, ch)
                        tap *= wt
                        res += tap
        res /= F32(255)
    return out


def _linear_taps(s, size: int, mode, itype, level_w):
    """One axis of a linear filter at one level: the two taps' texel
    coordinates, wrapped, and their weights, the level weight folded in when
    given. Every array here is fresh, so the arithmetic runs in place."""
    u = s * F32(size)
    u -= F32(0.5)
    fl = np.floor(u)
    i0 = fl.astype(itype)
    w1 = np.subtract(u, fl, out=u)
    w0 = np.subtract(F32(1), w1, out=fl)
    if level_w is not None:
        w0 *= level_w
        w1 *= level_w
    i1 = i0 + 1
    if mode == W.REPEAT and size & (size - 1) == 0:   # a power of two: a mask, in place (as ``wrap``)
        i0 &= size - 1
        i1 &= size - 1
        return [i0, i1], [w0, w1]
    return [wrap(i0, size, mode)[0], wrap(i1, size, mode)[0]], [w0, w1]


def _level_words(mem, view: TextureView, level: int, shift: int, span_end: int, cache) -> np.ndarray:
    """A level's texels as packed 32-bit words in raster order ((h * w,) uint32):
    one read of the columns [shift, span_end) (the range every tap of the call
    lies in, as ``fetch`` reads it), rearranged through the address tables."""
    memo = cache.level_words if isinstance(cache, SampleCache) else []
    for v, lv, words in memo:
        if v is view and lv == level:
            return words
    packed = next((words for v, lv, words in memo if v is view and lv == (shift, span_end)), None)
    key = (id(view), shift, span_end)
    with _ACROSS_LOCK:
        kept = _ACROSS.get(key)
    if packed is None and kept is not None and kept[0] is view:
        # the kept words while the memory holds the same bytes: compared in place
        # (a window onto the memory, no copy), read as below when they differ
        window = getattr(mem, "window", None)
        at = None if window is None else window(view.address + shift * view.unit_B,
                                                (span_end - shift) * view.unit_B, True)
        if at is not None and at.size == kept[1].nbytes and np.array_equal(at.view("<u4"), kept[1]):
            packed = kept[1]
            memo.append((view, (shift, span_end), packed))
    if packed is None:
        raw = mem.read(view.address + shift * view.unit_B, (span_end - shift) * view.unit_B, UNIT)
        packed = np.ascontiguousarray(raw, np.uint8).view("<u4")
        memo.append((view, (shift, span_end), packed))
    if kept is not None and kept[0] is view and (kept[1] is packed or np.array_equal(kept[1], packed)):
        by_level = kept[2]
        kept[1] = packed        # (the same bytes: later levels of this call compare by identity)
    else:
        by_level = {}
        with _ACROSS_LOCK:
            if len(_ACROSS) >= _ACROSS_MAX:
                _ACROSS.pop(next(iter(_ACROSS)))
            _ACROSS[key] = [view, packed, by_level]
    words = by_level.get(level)
    if words is None:
        w, h = int(view.width_px_l[level]), int(view.height_px_l[level])
        xb, yb = int(view.x_base[level]), int(view.y_base[level])
        cols = (view.y_col[yb:yb + h] - shift)[:, None] + view.x_col[xb:xb + w][None, :]
        words = by_level[level] = packed.take(cols.reshape(-1)).astype(np.uint32, copy=False)
    memo.append((view, level, words))
    return words


#: ``_level_words`` across calls: (view id, shift, span end) -> [view, the span's words
#: as read, {level: raster-order words}], reused while a call reads the same bytes
#: (each call still reads the span: faults and writes are always seen)
_ACROSS: dict = {}
_ACROSS_MAX = 16
_ACROSS_LOCK = threading.Lock()


def _weighted_sum(table: np.ndarray, cols, weights, n: int) -> np.ndarray:
    """sum_k weights[k] * table[:, cols[k]] -> (4, n) float32, taps added in order.
    Each tap is one take of all four channels (channel-major, so the weight
    broadcasts along contiguous rows), scaled and added in place."""
    res = None
    for col, wt in zip(cols, weights):
        tap = table.take(col, axis=1)
        tap *= wt
        if res is None:
            res = tap
        else:
            res += tap
    return res


def _ref(view: TextureView, compare) -> np.ndarray:
    ref = np.asarray(compare, F32)
    depth = view.fmt.channel("Z")
    if depth is not None and depth.type == "UNORM":
        ref = np.clip(ref, 0, 1)  # fixed-point depth: the reference is clamped (GL 8.23.1)
    return ref


def load_view(mem, view: TextureView, coords, lod, sample=None, *, swizzle=True, strategy="auto",
              cache=None) -> np.ndarray:
    """texelFetch: integer coordinates (n, k) at level first_level + lod -> (4, n).
    Out-of-range coordinates, levels, layers or samples read 0 (robust access)."""
    coords = np.asarray(coords, np.int64)
    if coords.ndim == 1:
        coords = coords[:, None]
    n = coords.shape[0]
    if n == 0:
        return np.zeros((4, 0), value_dtype(view.fmt))
    nd = view.spatial_dims
    level = view.first_level + np.broadcast_to(np.asarray(lod if lod is not None else 0, np.int64), (n,))
    ok = (level >= view.first_level) & (level <= view.last_level)
    level = np.where(ok, level, view.first_level)
    sizes = [view.level_width_px(level), view.level_height_px(level), view.depth_px[level]]
    xyz = [coords[:, a] if a < coords.shape[1] else np.zeros(n, np.int64) for a in range(3)]
    if nd == 3:
        layer = xyz[2]
        ok &= (layer >= 0) & (layer < sizes[2])
    elif view.is_array or view.is_cube:
        layer = coords[:, nd] if coords.shape[1] > nd else np.zeros(n, np.int64)
        ok &= (layer >= 0) & (layer < view.layers)
    else:
        layer = np.zeros(n, np.int64)
    for a in range(min(nd, 2)):
        ok &= (xyz[a] >= 0) & (xyz[a] < sizes[a])
    samp_idx = np.zeros(n, np.int64) if sample is None else np.broadcast_to(np.asarray(sample, np.int64), (n,))
    ok &= (samp_idx >= 0) & (samp_idx < view.lay.sample_count_sa)
    x = np.where(ok, xyz[0], 0)
    y = np.where(ok, xyz[1], 0) if nd >= 2 else np.zeros(n, np.int64)
    layer = np.where(ok, layer, 0)
    col = columns(view, x, y, layer, level, np.where(ok, samp_idx, 0))
    col = solid_redirect(mem, view, col, x, y, layer, level)
    shift = fetch_plan(view, (int(col.min()), int(col.max()) + 1) if col.size else (0, 1), col.size, strategy,
                       cache)
    table, cols = fetch(mem, view, [col - shift if shift else col], None, None, shift=shift, cache=cache)
    res = table[:, cols[0]]  # a fresh array
    res[:, ~ok] = 0
    return _swizzle(view, res) if swizzle else res


def size_view(view: TextureView, lod) -> np.ndarray:
    """textureSize: (n, 3) int32; unused components are 0 (see ``texture.size``)."""
    lod = np.atleast_1d(np.asarray(lod, np.int64))
    level = np.clip(view.first_level + lod, 0, view.levels - 1)
    w = view.level_width_px(level)
    h = view.level_height_px(level)
    zero = np.zeros_like(w)
    T = P.TextureTarget
    t = view.target
    layers = np.full_like(w, view.layers)
    if t in (T.TEXTURE_1D, T.TEXTURE_BUFFER):
        out = (w, zero, zero)
    elif t == T.TEXTURE_1D_ARRAY:
        out = (w, layers, zero)
    elif t in (T.TEXTURE_2D, T.TEXTURE_2D_MS, T.TEXTURE_CUBE):
        out = (w, h, zero)
    elif t == T.TEXTURE_3D:
        out = (w, h, view.depth_px[level])
    elif t == T.TEXTURE_CUBE_ARRAY:
        out = (w, h, layers // 6)
    else:
        out = (w, h, layers)
    return np.stack(out, axis=1).astype(np.int32)
