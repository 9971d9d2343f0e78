"""drmshim.gpu.texture: the texture unit of the shader core.

Samples, fetches and queries textures and loads, stores and atomically updates
images in GPU memory, through ``TEXTURE`` and ``SAMPLER`` descriptors (the
``uapi.packets`` table) and ``layout`` (formats, miptrees, addressing, ETC/EAC).
Every memory access goes through a ``drmshim.memory.GPUMemory`` with unit "TEX".
Everything is vectorised over lanes; descriptor addresses may differ per lane
(lanes are grouped by descriptor, one group per distinct descriptor pair).

Results are (n, 4): float32 for float and normalised formats, uint32 / int32 for
integer formats.

Coordinates of ``sample`` per target: 1D (s), 1D array (s, layer), 2D (s, t),
2D array (s, t, layer), 3D (s, t, r), cube (x, y, z), cube array (x, y, z, layer).
Without ``lod`` or ``ddx``/``ddy`` the LOD comes from 2x2 quads: lanes 4q+0..3 are
pixels (0,0), (1,0), (0,1), (1,1) of quad q. ``load``/``image_*`` take integer
coordinates (x[, y][, layer or slice]); cube faces are layers (6 per cube).
"""

from __future__ import annotations

import numpy as np

from .descriptors import (FORMAT_NAMES, InvalidDescriptor, SamplerState, TextureView, format_by_id, format_id,
                          read_sampler, read_texture)
from .images import ATOMIC_OPS, image_atomic_view, image_load_view, image_store_view
from . import native
from .sampling import (QUAD_LANES, SampleCache, _swizzle, load_view, rows_2d_plan, sample_rows_2d, sample_view,
                       size_view)
from .texels import DecodeCache, fetch_level

#: Big calls run in batches of this many lanes (a multiple of 4: whole quads), so
#: every temporary stays in cache; the decoded texels are shared by the batches.
BATCH_LANES = 1 << 15

__all__ = ["BATCH_LANES", "sample", "sample_rows", "sample_rows_call", "load", "size", "levels", "samples", "image_load", "image_store", "image_atomic",
           "read_texture", "read_sampler", "TextureView", "SamplerState", "InvalidDescriptor",
           "format_id", "format_by_id", "FORMAT_NAMES", "ATOMIC_OPS", "QUAD_LANES"]


def _groups(n: int, *vas):
    """Split lanes by distinct descriptor addresses: [(lanes or None, va, ...)]."""
    arrs = [np.asarray(v) for v in vas]
    if all(a.ndim == 0 for a in arrs) or n == 0:
        return [(None, *[int(a.reshape(-1)[0]) if a.size else 0 for a in arrs])]
    cols = np.stack([np.broadcast_to(a.astype(np.uint64), (n,)) for a in arrs], axis=1)
    uniq, inverse = np.unique(cols, axis=0, return_inverse=True)
    if len(uniq) == 1:
        return [(None, *[int(v) for v in uniq[0]])]
    inverse = inverse.reshape(-1)
    return [(np.nonzero(inverse == g)[0], *[int(v) for v in uniq[g]]) for g in range(len(uniq))]


def _sub(x, lanes):
    """The lanes' part of a per-lane argument (``lanes``: None, a slice or indices)."""
    if x is None or lanes is None or np.ndim(x) == 0:
        return x
    return np.asarray(x)[lanes]


def _batch(lanes, start: int, m: int):
    """Lanes start..start + BATCH_LANES of a group (None: the whole call)."""
    if m <= BATCH_LANES:
        return lanes
    if lanes is None:
        return slice(start, start + BATCH_LANES)
    return lanes[start:start + BATCH_LANES]


def _per_group(n, groups, run):
    """Run ``run(lanes, *vas) -> (4 or k, m)`` per group and assemble (.., n)."""
    if len(groups) == 1:
        return run(*groups[0])
    out = None
    for g in groups:
        part = run(*g)
        if out is None:
            out = np.zeros(part.shape[:-1] + (n,), part.dtype)
        out[..., g[0]] = part
    return out


def sample(mem, tex_desc_va, samp_desc_va, coords, *, lod=None, bias=None, ddx=None, ddy=None, compare=None,
           offset=None, gather_component=None) -> np.ndarray:
    """Filtered sampling (texture, textureLod, textureGrad, textureOffset, shadow
    comparison with ``compare``, textureGather with ``gather_component``) -> (n, 4)."""
    coords = np.asarray(coords, np.float32)
    n = coords.shape[0]
    groups = _groups(n, tex_desc_va, samp_desc_va)
    if len(groups) > 1 and lod is None and (ddx is None or ddy is None):
        # derivatives need whole quads: take them over all lanes first
        from .sampling import _quad_derivatives
        c = coords if coords.ndim == 2 else coords[:, None]
        ddx, ddy = _quad_derivatives(c)

    cache = SampleCache()

    def run(lanes, tva, sva):
        view, samp = read_texture(mem, tva), read_sampler(mem, sva)
        m = n if lanes is None else lanes.size
        res = None
        for start in range(0, max(m, 1), BATCH_LANES):
            sel = _batch(lanes, start, m)
            part = None if res is None else res[:, start:start + BATCH_LANES]   # batches after the first: in place
            part = sample_view(mem, view, samp, _sub(coords, sel), lod=_sub(lod, sel), bias=_sub(bias, sel),
                               ddx=_sub(ddx, sel), ddy=_sub(ddy, sel), compare=_sub(compare, sel),
                               offset=_sub(offset, sel), gather_component=gather_component, cache=cache, out=part)
            if res is None and m > BATCH_LANES:
                res = np.empty(part.shape[:-1] + (m,), part.dtype)
                res[:, :part.shape[-1]] = part
            elif res is None:
                res = part
        return res
    return _per_group(n, groups, run).T


def sample_rows(mem, tex_desc_va: int, samp_desc_va: int, s: np.ndarray, t: np.ndarray, outs, *, quads: bool,
                lod=None, bias=None) -> bool:
    """``sample`` of a 2D texture with one descriptor pair, straight from and into
    register rows, when the texture unit's C path takes it (``sampling.sample_rows_2d``:
    RGBA8-like formats, linear filters): ``s``, ``t`` float32 rows, ``outs`` four
    float32 rows or None; the LOD from quads (``quads``) or ``lod``, plus ``bias``.
    The same results as ``sample``; returns False, having written nothing, when it
    does not take the call."""
    view, samp = read_texture(mem, tex_desc_va), read_sampler(mem, samp_desc_va)
    return sample_rows_2d(mem, view, samp, s, t, outs, quads=quads, lod=lod, bias=bias)


def sample_rows_call(mem, tex_desc_va: int, samp_desc_va: int, n: int, *, quads: bool):
    """For C code that makes ``sample_rows``' C call itself (the native tier's texture
    segments): (function, plan, words) addresses of ``native.sample_2d``'s call for
    ``n`` lanes of the pair and what must stay alive while it runs, or None when
    ``sample_rows`` would not take the call (the C function itself refuses a call
    whose coordinates it does not take, writing nothing)."""
    taken = rows_2d_plan(mem, read_texture(mem, tex_desc_va), read_sampler(mem, samp_desc_va), n, quads)
    return None if taken is None else (native.addresses(*taken), taken)


def load(mem, tex_desc_va, coords, lod, sample=None) -> np.ndarray:
    """texelFetch: integer coordinates (n, k), level first_level + lod -> (n, 4)."""
    coords = np.asarray(coords, np.int64)
    n = coords.shape[0]

    cache = DecodeCache()

    def run(lanes, tva):
        view = read_texture(mem, tva)
        fast = fetch_level(mem, view, _sub(coords, lanes), _sub(lod, lanes), _sub(sample, lanes), cache)
        if fast is not None:    # the common case, in bulk over all the group's lanes (same values)
            return _swizzle(view, fast)
        m = n if lanes is None else lanes.size
        parts = []
        for start in range(0, max(m, 1), BATCH_LANES):
            sel = _batch(lanes, start, m)
            parts.append(load_view(mem, view, _sub(coords, sel), _sub(lod, sel), _sub(sample, sel), cache=cache))
        return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)
    return _per_group(n, _groups(n, tex_desc_va), run).T


def size(mem, tex_desc_va, lod) -> np.ndarray:
    """textureSize / imageSize: (n, 3) int32 (w, h or layers, depth or layers; unused 0)."""
    lod = np.atleast_1d(np.asarray(lod, np.int64))
    n = lod.shape[0]

    def run(lanes, tva):
        return size_view(read_texture(mem, tva), _sub(lod, lanes)).T
    return _per_group(n, _groups(n, tex_desc_va), run).T


def levels(mem, tex_desc_va, n: int | None = None) -> np.ndarray:
    """textureQueryLevels: accessible levels (last - first + 1), int32 per lane."""
    n = n if n is not None else (np.size(tex_desc_va) if np.ndim(tex_desc_va) else 1)

    def run(lanes, tva):
        v = read_texture(mem, tva)
        m = n if lanes is None else lanes.size
        return np.full((1, m), v.last_level - v.first_level + 1, np.int32)
    return _per_group(n, _groups(n, tex_desc_va), run)[0]


def samples(mem, tex_desc_va, n: int | None = None) -> np.ndarray:
    """textureSamples / imageSamples: int32 per lane."""
    n = n if n is not None else (np.size(tex_desc_va) if np.ndim(tex_desc_va) else 1)

    def run(lanes, tva):
        m = n if lanes is None else lanes.size
        return np.full((1, m), read_texture(mem, tva).lay.sample_count_sa, np.int32)
    return _per_group(n, _groups(n, tex_desc_va), run)[0]


def image_load(mem, desc_va, coords, sample=None) -> np.ndarray:
    """imageLoad (no filtering, no swizzle; the view's first level) -> (n, 4)."""
    coords = np.asarray(coords, np.int64)
    n = coords.shape[0]

    def run(lanes, va):
        return image_load_view(mem, read_texture(mem, va), _sub(coords, lanes), _sub(sample, lanes))
    return _per_group(n, _groups(n, desc_va), run).T


def image_store(mem, desc_va, coords, values, sample=None) -> None:
    """imageStore; on duplicate texels the highest lane's value is kept. ``values``
    (n, 4): uint32 means raw register bits (float bits for float/normalised formats),
    float32/int32 are values."""
    coords = np.asarray(coords, np.int64)
    n = coords.shape[0]
    for lanes, va in _groups(n, desc_va):
        image_store_view(mem, read_texture(mem, va), _sub(coords, lanes), _sub(np.asarray(values), lanes),
                         _sub(sample, lanes))


def image_atomic(mem, desc_va, coords, op, values, compare=None, sample=None) -> np.ndarray:
    """imageAtomic*: ``op`` is one of ATOMIC_OPS (the ISA's names: add, sub, xchg,
    cmpxchg, umin, umax, smin, smax, and, or, xor). ``values``/``compare``: uint32
    register bits (float32/int32 arrays are taken by their bits). Returns each lane's
    old value as uint32 bits, as if lanes ran one after another in lane order."""
    coords = np.asarray(coords, np.int64)
    n = coords.shape[0]
    groups = _groups(n, desc_va)
    if len(groups) == 1:
        return image_atomic_view(mem, read_texture(mem, groups[0][1]), coords, op, values, compare, sample)
    out = None
    for lanes, va in groups:  # distinct descriptors: distinct images, order between them is free
        part = image_atomic_view(mem, read_texture(mem, va), coords[lanes], op, _sub(np.broadcast_to(values, (n,)), lanes),
                                 _sub(None if compare is None else np.broadcast_to(compare, (n,)), lanes),
                                 _sub(sample, lanes))
        out = np.zeros(n, np.uint32) if out is None else out
        out[lanes] = part
    return out
