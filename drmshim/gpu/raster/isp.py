"""ISP: per-sample depth and stencil tests, primitive ordering by per-pixel rank
layers, hidden surface removal and occlusion counts.

Ordering: fragments of one pixel must be handled in primitive order, but a Python
loop over primitives is never acceptable. ``rank_layers`` sorts fragments by
(pixel, input position) once and numbers them within their pixel: layer k holds
every pixel's k-th fragment, so inside a layer all pixels are distinct and a whole
layer is gathered, tested and scattered with plain numpy indexing. Layers are
processed in order 0, 1, 2...: the loop runs over the depth complexity, not over
primitives or pixels.

Buffers are (H, W, S) arrays (rows, columns, samples) whose element [0, 0] is pixel
``origin`` = (x0, y0): a whole framebuffer (origin (0, 0)) or one tile's memory.
Depth is float32 window depth (the caller converts to/from D16/D24/D32F on
load/store); stencil is uint8 (``stencil_bits`` = 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .constants import (ALWAYS, CompareFunc, StencilOp, DECR, DECR_WRAP, EQUAL, GEQUAL, GREATER, INCR,
                        INCR_WRAP, INVERT, KEEP, LEQUAL, LESS, NEVER, NOTEQUAL, REPLACE,
                        ZERO, enum_value)
from .native import depth_test as depth_test_c
from .native import VISIBLE_BIN_PX
from .native import visible_rows as visible_rows_c
from .rasterize import Fragments, intersect_rects, rasterize


def compare(func: int | str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """GL compare: ``a FUNC b`` (depth: fragment z vs stored z; stencil:
    (ref & mask) vs (stored & mask)). Returns a bool array."""
    f = enum_value(func, CompareFunc, "compare function")
    if f == NEVER:
        return np.zeros(np.broadcast(a, b).shape, bool)
    if f == ALWAYS:
        return np.ones(np.broadcast(a, b).shape, bool)
    return {LESS: np.less, EQUAL: np.equal, LEQUAL: np.less_equal, GREATER: np.greater,
            NOTEQUAL: np.not_equal, GEQUAL: np.greater_equal}[f](a, b)


def stencil_op(op: int | str, stored: np.ndarray, ref: np.ndarray | int, bits: int = 8) -> np.ndarray:
    """New stencil values (before the write mask) for ``op`` applied to ``stored``.

    incr/decr clamp to [0, 2^bits - 1]; incr_wrap/decr_wrap wrap; invert flips all
    ``bits`` bits; replace writes ``ref``. Returns the dtype of ``stored``.
    """
    o = enum_value(op, StencilOp, "stencil op")
    top = (1 << bits) - 1
    s = np.asarray(stored)
    wide = s.astype(np.int64)
    if o == KEEP:
        r = wide
    elif o == ZERO:
        r = np.zeros_like(wide)
    elif o == REPLACE:
        r = np.broadcast_to(np.asarray(ref, dtype=np.int64) & top, wide.shape)
    elif o == INCR:
        r = np.minimum(wide + 1, top)
    elif o == DECR:
        r = np.maximum(wide - 1, 0)
    elif o == INVERT:
        r = ~wide & top
    elif o == INCR_WRAP:
        r = (wide + 1) & top
    elif o == DECR_WRAP:
        r = (wide - 1) & top
    else:  # pragma: no cover
        raise AssertionError(o)
    return r.astype(s.dtype)


@dataclass(frozen=True)
class StencilFace:
    """glStencilFuncSeparate + glStencilOpSeparate + glStencilMaskSeparate of one face."""

    func: int | str = "always"
    ref: int = 0
    value_mask: int = 0xFF
    write_mask: int = 0xFF
    fail_op: int | str = "keep"      # stencil test fails
    zfail_op: int | str = "keep"     # stencil passes, depth fails
    zpass_op: int | str = "keep"     # both pass (or no depth test)


@dataclass(frozen=True)
class DepthStencilState:
    """Depth/stencil state of a draw. Disabled tests pass and write nothing."""

    depth_test: bool = False
    depth_func: int | str = "less"
    depth_write: bool = True
    stencil_test: bool = False
    front: StencilFace = field(default_factory=StencilFace)
    back: StencilFace = field(default_factory=StencilFace)
    stencil_bits: int = 8

    @property
    def trivial(self) -> bool:
        """True when every covered sample passes and no buffer changes."""
        return not self.depth_test and not self.stencil_test


@dataclass(frozen=True)
class RankLayers:
    """Fragments grouped into per-pixel rank layers.

    ``order`` (F,) int64 or None (identity): fragment indices sorted by layer; layer k is
    ``order[offsets[k]:offsets[k+1]]`` and holds at most one fragment per pixel; a
    pixel's fragments are in increasing layers in primitive order.
    ``rank`` (F,) int32 or None: each fragment's layer (from ``rank_layers``: its position
    among its pixel's fragments; from the rasteriser: its block rank, which can
    exceed that, so layers may be sparser but never disordered).
    """

    order: np.ndarray | None
    offsets: np.ndarray
    rank: np.ndarray | None
    identity: bool = False   # order is arange(F) (then ``order``/``rank`` may be None)

    @property
    def count(self) -> int:
        return len(self.offsets) - 1

    def layer(self, k: int) -> np.ndarray:
        lo, hi = int(self.offsets[k]), int(self.offsets[k + 1])
        return np.arange(lo, hi) if self.order is None else self.order[lo:hi]


def rank_layers(x: np.ndarray, y: np.ndarray, tri: np.ndarray | None = None) -> RankLayers:
    """Per-pixel ranks of fragments at pixels (x, y) (each (F,) int).

    Among the fragments of one pixel the order is that of ``tri`` (setup rows, i.e.
    primitive order; at most one fragment per (pixel, tri)) when given, else the
    order of the input arrays.
    """
    n = len(x)
    if n == 0:
        return RankLayers(np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int32))
    x = np.asarray(x, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    x0, y0 = x.min(), y.min()
    span = int(x.max() - x0) + 1
    pix = (y - y0) * span + (x - x0)
    if tri is None:
        # unique keys (pixel, input index): a plain sort of int64 is far faster than
        # a stable argsort, and decoding the key gives the permutation back
        key = pix * n + np.arange(n, dtype=np.int64)
        key.sort()
        frag_sorted = key % n
        pix_sorted = key // n
    else:
        t = np.asarray(tri, dtype=np.int64)
        frag_sorted = np.argsort(pix * (int(t.max()) + 1) + t)
        pix_sorted = pix[frag_sorted]
    new_group = np.empty(n, bool)
    new_group[0] = True
    np.not_equal(pix_sorted[1:], pix_sorted[:-1], out=new_group[1:])
    idx = np.arange(n, dtype=np.int64)
    group_start = np.maximum.accumulate(np.where(new_group, idx, 0))
    rank_sorted = idx - group_start
    nlayers = int(rank_sorted.max()) + 1
    rank = np.empty(n, dtype=np.int32)
    rank[frag_sorted] = rank_sorted
    if nlayers == 1:
        return RankLayers(frag_sorted, np.array([0, n], np.int64), rank)
    small = rank_sorted.astype(np.uint8 if nlayers <= 256 else np.uint16 if nlayers <= 65536 else np.int64)
    perm = np.argsort(small, kind="stable")         # radix sort for small ints; keeps pixel order
    offsets = np.zeros(nlayers + 1, np.int64)
    np.cumsum(np.bincount(rank_sorted, minlength=nlayers), out=offsets[1:])
    return RankLayers(frag_sorted[perm], offsets, rank)


def layers_of(frags: Fragments) -> RankLayers:
    """The rank layers of ``frags``: the rasteriser's own (``layer_offsets``: layers
    are contiguous, no sorting) or, for fragments without them, ``rank_layers`` by
    pixel and setup row."""
    if frags.layer_offsets is not None:
        off = np.asarray(frags.layer_offsets, dtype=np.int64)
        return RankLayers(None, off, None, identity=True)
    return rank_layers(frags.x, frags.y, frags.tri)


def _face_select(front_facing: np.ndarray | None, fv, bv):
    if front_facing is None or fv == bv:
        return fv
    return np.where(front_facing, fv, bv)


def _stencil_update(state: DepthStencilState, face: StencilFace, stored: np.ndarray,
                    spass: np.ndarray, dpass: np.ndarray, ref=None) -> np.ndarray:
    """``ref``: the reference REPLACE writes (the face's when None; per fragment when
    the shader exports one)."""
    bits = state.stencil_bits
    ref = face.ref if ref is None else ref
    fail = enum_value(face.fail_op, StencilOp, "stencil op")
    zfail = enum_value(face.zfail_op, StencilOp, "stencil op")
    zpass = enum_value(face.zpass_op, StencilOp, "stencil op")
    new = stored
    if zpass != KEEP:
        new = np.where(spass & dpass, stencil_op(zpass, stored, ref, bits), new)
    if zfail != KEEP:
        new = np.where(spass & ~dpass, stencil_op(zfail, stored, ref, bits), new)
    if fail != KEEP:
        new = np.where(~spass, stencil_op(fail, stored, ref, bits), new)
    top = (1 << bits) - 1
    wm = face.write_mask & top
    keep_bits = top & ~wm
    return ((new & wm) | (stored & keep_bits)).astype(stored.dtype)


def depth_stencil(frags: Fragments, state: DepthStencilState, depth: np.ndarray | None,
                  stencil: np.ndarray | None, *, front_facing: np.ndarray | None = None,
                  layers: RankLayers | None = None, coverage: np.ndarray | None = None,
                  z: np.ndarray | None = None, origin: tuple[int, int] = (0, 0),
                  owner: np.ndarray | None = None, ref: np.ndarray | None = None,
                  owner_index: np.ndarray | None = None) -> np.ndarray:
    """Run the depth and stencil tests of ``frags`` in primitive order, updating
    ``depth`` (H, W, S) float32 and ``stencil`` (H, W, S) uint8 in place.

    ``front_facing`` (F,) bool selects the stencil face (None: all front).
    ``coverage`` (F,) uint8 replaces ``frags.coverage`` (late tests: the shader's
    discard / sample mask applied); ``z`` (F, S) replaces ``frags.z`` (shader-written
    depth). ``layers``: ``layers_of(frags)`` when not given. ``ref`` (F,) int, optional:
    the stencil reference each fragment's shader exported (its stencil output, as AGX's
    ``zs_emit`` gives the ISP), -1 where it exported none (the face's reference then);
    it is both the value tested and the value REPLACE writes.
    ``owner`` (H, W, S) int64, optional: set to the fragment index wherever a
    fragment passes (the last writer of each sample; see ``resolve_visibility``).
    ``owner_index`` (F,) int64, optional: ``owner`` is then a flat array of any
    layout, fragment f's sample s being ``owner[owner_index[f] + s]`` (e.g. the
    fragment's tile record times S).
    Buffers must be C-contiguous; ``origin`` is the pixel of their element [0, 0]
    (a tile's corner), and every fragment must lie inside them.

    Early vs late is the caller's choice: call it before shading with the raster
    coverage (early), or after shading with the shader's coverage and depth (late).
    Returns (F,) uint8: the samples of each fragment that passed both tests.
    """
    cov = frags.coverage if coverage is None else np.asarray(coverage, dtype=np.uint8)
    if state.trivial and owner is None:
        return cov.copy()
    zs = np.asarray(frags.z if z is None else z, dtype=np.float32)        # the ISP compares float32
    if layers is None:
        layers = layers_of(frags)
    bufs = [b for b in (depth, stencil, owner if owner_index is None else None) if b is not None]
    h, w, nsamples = bufs[0].shape
    for b in bufs:
        assert b.shape == (h, w, nsamples) and b.flags.c_contiguous, \
            "depth/stencil/owner buffers must be C-contiguous (H, W, S) arrays of one shape"
    dflat = depth.reshape(-1) if depth is not None else None
    sflat = stencil.reshape(-1) if stencil is not None else None
    oflat = owner.reshape(-1) if owner is not None else None
    if owner is not None and owner_index is not None:
        assert owner.ndim == 1 and owner.flags.c_contiguous, "an owner with owner_index is a flat array"
    ox, oy = origin
    # flat index of every fragment's sample 0 in the (H, W, S) buffers
    if h * w * nsamples < 2 ** 31:
        base = frags.y - np.int32(oy)
        base *= np.int32(w)
        base += frags.x
        base -= np.int32(ox)
        base = base.astype(np.int64)        # int64 indices scatter fastest
    else:
        base = (frags.y.astype(np.int64) - oy) * w + (frags.x.astype(np.int64) - ox)
    if nsamples > 1:
        base *= nsamples
    passed = np.zeros(len(frags), dtype=np.uint8)
    dfunc = enum_value(state.depth_func, CompareFunc, "depth function")
    obase = base if owner_index is None else owner_index
    if state.depth_test and not state.stencil_test and \
            depth_test_c(layers, frags.samples, base, cov, zs, dfunc, state.depth_write, dflat, passed,
                         oflat, obase if oflat is not None else None):
        return passed       # (the C kernel: the loop below is its specification)
    fr, bk = state.front, state.back
    two_sided = state.stencil_test and front_facing is not None and fr != bk
    identity = layers.identity
    all_covered = bool((cov == (1 << frags.samples) - 1).all())
    for k in range(layers.count):
        lo, hi = int(layers.offsets[k]), int(layers.offsets[k + 1])
        pick = slice(lo, hi) if identity else layers.order[lo:hi]
        lbase, lcov, lz = base[pick], cov[pick], zs[pick]
        lface = front_facing[pick] if two_sided else None
        lref = ref[pick] if ref is not None else None
        lpassed = np.zeros(hi - lo, np.uint8)
        for smp in range(frags.samples):
            m = None if all_covered else np.flatnonzero((lcov >> smp) & 1)
            if m is not None and len(m) == hi - lo:
                m = None
            if m is not None and len(m) == 0:
                continue
            fi = lbase if m is None else lbase[m]
            if smp:
                fi = fi + smp
            n = len(fi)
            face_sel = lface if lface is None or m is None else lface[m]
            if state.depth_test:
                zf = lz[:, smp] if m is None else lz[m, smp]
                dcur = np.take(dflat, fi)
                dpass = compare(dfunc, zf, dcur)
            else:
                dpass = np.ones(n, bool)
            if state.stencil_test:
                st = sflat[fi]
                sref = _face_select(face_sel, fr.ref, bk.ref)
                fref = bref = None
                if lref is not None:         # exported references replace the faces'
                    exported = lref if m is None else lref[m]
                    sref = np.where(exported >= 0, exported, sref)
                    fref = np.where(exported >= 0, exported, fr.ref)
                    bref = np.where(exported >= 0, exported, bk.ref)
                vmask = _face_select(face_sel, fr.value_mask, bk.value_mask)
                ref_m = np.asarray(sref & vmask, dtype=np.int64)
                st_m = st.astype(np.int64) & vmask
                sp_front = compare(fr.func, ref_m, st_m)
                spass = sp_front if face_sel is None else np.where(
                    face_sel, sp_front, compare(bk.func, ref_m, st_m))
                new_st = _stencil_update(state, fr, st, spass, dpass, fref)
                if face_sel is not None:
                    new_st = np.where(face_sel, new_st, _stencil_update(state, bk, st, spass, dpass, bref))
                sflat[fi] = new_st
                ok = spass & dpass
            else:
                ok = dpass
            if state.depth_test and state.depth_write:
                dflat[fi] = np.where(ok, zf, dcur)      # pixels are distinct within a layer
            bits = ok.view(np.uint8) if smp == 0 else ok.view(np.uint8) << smp
            if m is None:
                if frags.samples == 1:
                    lpassed = bits
                else:
                    lpassed |= bits
            else:
                lpassed[m] |= bits
            if oflat is not None:
                wsel = np.flatnonzero(ok)
                frag = (np.arange(lo, hi) if identity else layers.order[lo:hi])
                oi = obase[pick] if m is None else obase[pick][m]
                oflat[oi[wsel] + smp] = frag[wsel] if m is None else frag[m[wsel]]
        passed[pick] = lpassed
    return passed


def resolve_visibility(frags: Fragments, state: DepthStencilState, depth: np.ndarray | None,
                       stencil: np.ndarray | None, shape: tuple[int, int] | None = None, *,
                       front_facing: np.ndarray | None = None, layers: RankLayers | None = None,
                       origin: tuple[int, int] = (0, 0)) -> tuple[np.ndarray, np.ndarray]:
    """Hidden surface removal for opaque, non-discarding, non-depth-writing shaders
    with plain colour overwrite (no blending, no logic op).

    Runs the depth/stencil tests of all fragments first (updating the buffers exactly
    as in-order processing would), then keeps, per sample, only the **last**
    fragment that passed: its colour is the one in-order processing leaves. Shading
    only those fragments, with coverage ``visible``, and writing their colour gives
    the same image as shading everything in order.

    ``shape``: (H, W) of the buffers when both are None. Returns ``(visible,
    passed)``, both (F,) uint8 sample masks (``passed`` feeds occlusion queries).
    """
    if depth is not None:
        h, w, _ = depth.shape
    elif stencil is not None:
        h, w, _ = stencil.shape
    else:
        h, w = shape
    owner = np.full((h, w, frags.samples), -1, dtype=np.int64)
    passed = depth_stencil(frags, state, depth, stencil, front_facing=front_facing, layers=layers,
                           origin=origin, owner=owner)
    visible = np.zeros(len(frags), dtype=np.uint8)
    for s in range(frags.samples):
        o = owner[..., s].ravel()
        o = o[o >= 0]                      # unique per sample: plain fancy-index OR is safe
        visible[o] |= np.uint8(1 << s)
    return visible, passed


def visible_pixels(setup, rect: tuple[int, int, int, int], state: DepthStencilState, depth: np.ndarray, *,
                   rows: np.ndarray | None = None, clip: tuple[int, int, int, int] | None = None,
                   depth_clamp: tuple[float, float] = (0.0, 1.0)):
    """Hidden surface removal of a single-sampled pass with a depth test and no
    stencil test, whose fragments need not exist: ``rasterize(setup, rect, rows=,
    depth_clamp=)``'s fragments inside ``clip`` (None: all), depth tested in
    primitive order against ``depth`` ((H, W, 1) float32 of the whole framebuffer,
    updated in place), and each pixel's last passing fragment.

    Returns (tri, x, y, fragments, passed): the visible fragments, one per pixel of
    ``rect`` that some fragment passed, bin by bin (``VISIBLE_BIN_PX`` squares of
    ``rect``, row-major, each bin's pixels row-major); the number of fragments
    tested and of those that passed (occlusion). The C kernel
    (``native.visible_rows``) gives the same without building fragments (its arrays
    are then valid until the thread's next call); this numpy code is its
    specification."""
    if state.stencil_test or not state.depth_test:
        raise ValueError("visible_pixels: a depth test without a stencil test only")
    clip = rect if clip is None else intersect_rects(rect, clip)
    func = enum_value(state.depth_func, CompareFunc, "depth function")
    got = visible_rows_c(setup, rows, rect, clip, depth_clamp, func, state.depth_write, depth)
    if got is not None:
        return got
    rx0, ry0, rx1, ry1 = (int(v) for v in rect)
    w = rx1 - rx0
    frags = rasterize(setup, rect, 1, rows=rows, depth_clamp=depth_clamp)
    cx0, cy0, cx1, cy1 = clip
    keep = (frags.x >= cx0) & (frags.x < cx1) & (frags.y >= cy0) & (frags.y < cy1)
    layers = None
    if not keep.all():
        frags = frags.take(keep)            # (layered again by sorting)
        layers = rank_layers(frags.x, frags.y, frags.tri)
    owner = np.full(w * (ry1 - ry0), -1, np.int64)
    pixel = (frags.y.astype(np.int64) - ry0) * w + (frags.x - rx0)
    passed = depth_stencil(frags, state, depth, None, layers=layers, owner=owner, owner_index=pixel)
    held = np.flatnonzero(owner >= 0)
    hy, hx = np.divmod(held, w)
    o = owner[held[np.lexsort((hx, hy, hx // VISIBLE_BIN_PX, hy // VISIBLE_BIN_PX))]]       # bin by bin
    return frags.tri[o], frags.x[o], frags.y[o], len(frags), samples_passed(passed)


_POPCOUNT8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def samples_passed(mask: np.ndarray) -> int:
    """Occlusion query count: the number of set bits over (F,) uint8 sample masks."""
    return int(_POPCOUNT8[np.asarray(mask, dtype=np.uint8)].sum())
