"""Encoders: draws into VDM streams and PPP state, dispatches into CDM streams
(Mesa's agx_encode_state / agx_draw_vbo / agx_launch_grid).

Sole responsibility: for one draw or dispatch with the context's bound state,
pick the shader variants (keys from blend state, render-target formats and
other state), fill their uniform registers (default block, buffer and
attribute addresses, system values), build texture/sampler tables, write the
USC words, PPP state and VDM/CDM packets through ``uapi.packets``, and record
what the batch reads and writes. Everything goes into the batch's pools."""

from __future__ import annotations

import math
import struct
import weakref
from functools import lru_cache

import numpy as np

import layout
from compiler.ir import ShaderKey
from compiler.lower.vertex_fetch import VertexAttrib
from compiler.lower.xfb import XFB_BUFFER_BASE, XFB_PARAMS, XfbOutput
from driver.gallium import (
    DrawInfo, DrawStartCountBias, GridInfo, PipeBlendFactor, PipeBlendFunc, PipeClear, PipeFace, PipePrim,
    PipePolygonMode, PipeQueryType, PipeShaderType, PipeSwizzle, PipeTexMipFilter, PipeTexWrap,
    PipeTextureTarget, SamplerState,
)
from uapi import packets as P
from uapi import topology

from . import fallbacks, index_rewrite, texel_buffer
from .compile import link_fragment_bindings
from .packed import packed, packer
from .resource import FIXED24_DEPTH, AgxResource, layout_format
from .shader import AgxShader

__all__ = ["encode_draw", "encode_launch", "sampler_descriptor", "view_descriptor"]

S = PipeShaderType
_U32 = struct.Struct("<I")
_U32X2 = struct.Struct("<II")
#: the VDM topology drawing each pipe primitive it assembles (a polygon is drawn as a fan)
_PRIMS = {m: P.Primitive[m.name] for m in PipePrim if m.name in P.Primitive.__members__}
_PRIMS[PipePrim.POLYGON] = P.Primitive.TRIANGLE_FAN
_INDEX = {1: P.IndexSize.U8, 2: P.IndexSize.U16, 4: P.IndexSize.U32}
_STENCIL_OPS = [P.StencilOp.KEEP, P.StencilOp.ZERO, P.StencilOp.REPLACE, P.StencilOp.INCR_SAT,
                P.StencilOp.DECR_SAT, P.StencilOp.INCR_WRAP, P.StencilOp.DECR_WRAP, P.StencilOp.INVERT]
_WRAPS = {PipeTexWrap.REPEAT: P.Wrap.REPEAT, PipeTexWrap.CLAMP: P.Wrap.CLAMP_GL,
          PipeTexWrap.CLAMP_TO_EDGE: P.Wrap.CLAMP_TO_EDGE, PipeTexWrap.CLAMP_TO_BORDER: P.Wrap.CLAMP_TO_BORDER,
          PipeTexWrap.MIRROR_REPEAT: P.Wrap.MIRRORED_REPEAT, PipeTexWrap.MIRROR_CLAMP: P.Wrap.MIRROR_CLAMP_GL,
          PipeTexWrap.MIRROR_CLAMP_TO_EDGE: P.Wrap.MIRROR_CLAMP_TO_EDGE,
          PipeTexWrap.MIRROR_CLAMP_TO_BORDER: P.Wrap.MIRROR_CLAMP_TO_BORDER}
_FACTORS = {PipeBlendFactor.ONE: "one", PipeBlendFactor.SRC_COLOR: "src_color",
            PipeBlendFactor.SRC_ALPHA: "src_alpha", PipeBlendFactor.DST_ALPHA: "dst_alpha",
            PipeBlendFactor.DST_COLOR: "dst_color", PipeBlendFactor.SRC_ALPHA_SATURATE: "src_alpha_saturate",
            PipeBlendFactor.CONST_COLOR: "constant_color", PipeBlendFactor.CONST_ALPHA: "constant_alpha",
            PipeBlendFactor.ZERO: "zero", PipeBlendFactor.INV_SRC_COLOR: "one_minus_src_color",
            PipeBlendFactor.INV_SRC_ALPHA: "one_minus_src_alpha", PipeBlendFactor.INV_DST_ALPHA: "one_minus_dst_alpha",
            PipeBlendFactor.INV_DST_COLOR: "one_minus_dst_color",
            PipeBlendFactor.INV_CONST_COLOR: "one_minus_constant_color",
            PipeBlendFactor.INV_CONST_ALPHA: "one_minus_constant_alpha",
            PipeBlendFactor.SRC1_COLOR: "src1_color", PipeBlendFactor.SRC1_ALPHA: "src1_alpha",
            PipeBlendFactor.INV_SRC1_COLOR: "one_minus_src1_color",
            PipeBlendFactor.INV_SRC1_ALPHA: "one_minus_src1_alpha"}
#: The factors for a colour buffer without alpha, whose destination alpha is 1: DST_ALPHA
#: is ONE, its inverse ZERO, and SRC_ALPHA_SATURATE's min(As, 1 - Ad) is ZERO (as Mesa's
#: state tracker rewrites them for RGBX formats).
_FACTORS_NO_DST_ALPHA = {**_FACTORS, PipeBlendFactor.DST_ALPHA: "one", PipeBlendFactor.INV_DST_ALPHA: "zero",
                         PipeBlendFactor.SRC_ALPHA_SATURATE: "zero"}


@lru_cache(maxsize=None)
def _has_alpha(fmt) -> bool:
    """Whether a colour surface format stores alpha (intensity is also alpha; RGBX padding
    is not)."""
    return any(c.name in ("A", "I") for c in layout.get_format(layout_format(fmt)).channels)


_FUNCS = {PipeBlendFunc.ADD: "add", PipeBlendFunc.SUBTRACT: "subtract",
          PipeBlendFunc.REVERSE_SUBTRACT: "reverse_subtract", PipeBlendFunc.MIN: "min", PipeBlendFunc.MAX: "max"}
_ALPHA = ["never", "less", "equal", "lequal", "greater", "notequal", "gequal", "always"]


# ----------------------------------------------------------------------------- draw memos

class _Memo:
    """A dict of at most ``MAX`` entries (emptied when full) and its last hit, checked
    first by ``==``: a tuple of the same objects compares equal without calling their
    ``__eq__`` or hashing them (as a dict lookup does, a Python call per state object)."""

    MAX = 64
    __slots__ = ("last_key", "last", "table")

    def __init__(self):
        self.last_key, self.last, self.table = None, None, {}

    def get(self, key):
        if key == self.last_key:
            return self.last
        hit = self.table.get(key)
        if hit is not None:
            self.last_key, self.last = key, hit
        return hit

    def put(self, key, value):
        if len(self.table) >= self.MAX:
            self.table.clear()
        self.table[key] = self.last = value
        self.last_key = key
        return value


class DrawMemos:
    """What a context's draws derive from bound state alone, kept across batches (a
    frame of one draw is a batch of its own: a batch's memos would never see its state
    again): the fragment key (``fragment_key``; the framebuffer fixes the tile layout it
    reads), the PPP state (``_PppEntry``) and the USC words around the uniforms of a
    shader without descriptor tables (``usc_words``). Keys are the state objects
    (frozen) and the ids of variants their values hold."""

    __slots__ = ("fragment", "ppp", "frames")

    def __init__(self):
        self.fragment, self.ppp, self.frames = _Memo(), _Memo(), _Memo()


def draw_memos(ctx) -> DrawMemos:
    """The context's ``DrawMemos`` (made on its first draw)."""
    memos = ctx.__dict__.get("draw_memos")
    if memos is None:
        memos = ctx.__dict__["draw_memos"] = DrawMemos()
    return memos


# ----------------------------------------------------------------------------- keys

def fragment_key(ctx, batch) -> ShaderKey:
    """Render targets (tile format, offset, write mask, blend), alpha test, MSAA."""
    from compiler.keys import Blend, RenderTarget
    rts = []
    b = ctx.blend
    for i, s in enumerate(ctx.fb.cbufs):
        slot = batch.tile.slots[i]
        if slot is None:
            rts.append(RenderTarget(write_mask=0))
            continue
        rt = b.rt[i] if b.independent_blend_enable else b.rt[0]
        blend = None
        # GL 4.6 section 17.3.9: with the logic op enabled blending is disabled, for every buffer
        # (a floating-point one then takes the colour as it is: the logic op ignores it)
        blend_enable = rt.blend_enable and not b.logicop_enable
        if blend_enable and slot.base_type == "float" and rt.advanced is not None:
            blend = Blend(rt.advanced)
        elif blend_enable and slot.base_type == "float":
            f = _FACTORS if _has_alpha(s.format) else _FACTORS_NO_DST_ALPHA
            blend = Blend(_FUNCS[rt.rgb_func], f.get(rt.rgb_src_factor, "one"),
                          f.get(rt.rgb_dst_factor, "zero"), _FUNCS[rt.alpha_func],
                          f.get(rt.alpha_src_factor, "one"), f.get(rt.alpha_dst_factor, "zero"))
        # the colour mask names RGBA channels; the key's mask names memory components
        mask = sum((rt.colormask >> ch & 1) << j for j, ch in enumerate(slot.swizzle[:slot.components]))
        rts.append(RenderTarget(format=slot.mem_format, base_type=slot.base_type, components=slot.components,
                                offset_B=slot.offset_B, write_mask=mask, blend=blend,
                                swizzle=slot.swizzle[:slot.components], spilled=slot.spilled))
    dsa = ctx.dsa
    return ShaderKey.make(render_targets=tuple(rts) or (RenderTarget(write_mask=0),),
                          alpha_func=_ALPHA[int(dsa.alpha_func)] if dsa.alpha_enabled else "always",
                          # GL 4.6 section 17.3.1: both act on multisampled buffers only (no-ops with one
                          # sample, where alpha to coverage dropped fragments of alpha < 1)
                          alpha_to_coverage=b.alpha_to_coverage and (ctx.fb.samples or 1) > 1,
                          alpha_to_one=b.alpha_to_one and (ctx.fb.samples or 1) > 1,
                          samples=max(1, ctx.fb.samples or 1), two_side=ctx.rast.light_twoside,
                          flat_shade=ctx.rast.flatshade,
                          **({"logic_op": b.logicop_func.name.lower()} if b.logicop_enable else {}),
                          **({"clamp_fragment_color": True} if ctx.rast.clamp_fragment_color else {}),
                          # sample shading: inputs at the sample, as Mesa's drivers interpolate then
                          **({"sample_shading": True} if ctx.min_samples > 1 else {}))


def _robust(ctx, key: ShaderKey) -> ShaderKey:
    """The key of a robust context's variant: buffer accesses bounds-checked
    (compiler/lower/robust_access.py; ARB_robust_buffer_access_behavior)."""
    return key.replace(robust_buffer_access=True) if ctx.robust_buffer_access else key


def vertex_key(ctx, cso, capture: bool = False) -> ShaderKey:
    """Clip planes, flat shading, the attributes the shader fetches itself
    (``fetched_attribs``, decided on the shader's attribute types, which every
    variant shares) and transform feedback. Kept per CSO on what it reads (but
    a capturing draw's, made each time)."""
    if capture:
        return _vertex_key(ctx, cso, True)
    rast = ctx.rast
    state = (rast.clip_plane_enable, rast.flatshade, ctx.output_filter, rast.clamp_vertex_color,
             tuple(ctx.velems), tuple([_bound_buffer(ctx, el) is not None for el in ctx.velems]))
    memo = cso.__dict__.get("_vertex_keys")
    if memo is None:
        memo = cso.__dict__["_vertex_keys"] = _Memo()
    key = memo.get(state)
    if key is None:
        key = memo.put(state, _vertex_key(ctx, cso, False))
    return key


def _vertex_key(ctx, cso, capture: bool) -> ShaderKey:
    info = cso.state.info or {}
    fields = dict(attribute_locations=dict(info.get("attributes", {})),
                  clip_planes=ctx.rast.clip_plane_enable, flat_shade=ctx.rast.flatshade)
    if ctx.output_filter != (None, None) and cso.prebuilt is None:
        fields["output_filter"] = tuple(f is not None for f in ctx.output_filter)
    if ctx.rast.clamp_vertex_color:
        fields["clamp_vertex_color"] = True     # glClampColor(CLAMP_VERTEX_COLOR): gl_*Color in [0, 1]
    if capture:
        fields["xfb"] = xfb_outputs(cso)
    if cso.prebuilt is None:
        fetch = _vertex_fetch(ctx, cso, fields)
        if fetch:
            fields["vertex_attribs"] = fetch
    return ShaderKey.make(**fields)


def xfb_outputs(cso) -> tuple:
    """The vertex shader's stream output (``ShaderState.stream_output``; register index =
    index into ``info["stream_outputs"]``, the captured outputs' names) as the lowering's
    ``XfbOutput``s (compiler/lower/xfb.py)."""
    so = cso.state.stream_output
    names = (cso.state.info or {}).get("stream_outputs", ())
    return tuple(XfbOutput(names[o[0]], o[1], o[2], o[3], o[4], so.stride_dw[o[3]], o[5] if len(o) > 5 else 0)
                 for o in so.outputs)


def _captures(ctx, vs_cso) -> bool:
    return bool(ctx.so_targets) and bool(vs_cso.state.stream_output.outputs)


def _topology(mode: PipePrim) -> str:
    """The topology table's name of a pipe primitive the VDM draws (a polygon is a fan)."""
    return "triangle_fan" if mode == PipePrim.POLYGON else mode.name.lower()


def feedback_records(mode: PipePrim, ids: np.ndarray, flatshade_first: bool = False) -> np.ndarray:
    """The vertex ids transform feedback records, in order, for a draw shading ``ids``
    (VDM order; -1 = primitive restart): strips, fans and loops decomposed into
    independent primitives (GL 4.6 section 13.3, table 13.1; ``uapi.topology``),
    incomplete ones dropped. Under the first-vertex convention each primitive starts
    with its provoking vertex (the last convention's order ends with it already), so the
    records drawn as independent primitives flat-shade as the draw did (as Mesa)."""
    ids = np.asarray(ids, np.int64)
    name = _topology(mode)
    starts, lengths = topology.run_bounds(len(ids), ids < 0)
    if flatshade_first:     # the GPU's assembly: provoking vertex in column 0
        pos = topology.assemble(name, starts, lengths, False)
    else:
        pos, _ = topology.decompose(name, starts, lengths)
    return ids[pos].reshape(-1)


def _xfb_setup(ctx, batch, mode, ids: np.ndarray, instances: int, vs_cso) -> dict:
    """The record table (compiler/lower/xfb.py) of a capturing draw and its targets at
    their running offsets. Records past the end of any bound buffer are dropped (GL 4.6
    section 13.3.2: writing stops; PRIMITIVES_WRITTEN counts what was written)."""
    per = topology.TOPOLOGIES[_topology(mode)].vertices
    records = feedback_records(mode, ids, ctx.rast.flatshade_first)
    count = len(records)
    so = vs_cso.state.stream_output
    targets, limit = {}, count * instances
    for b, (t, _off) in enumerate(ctx.so_targets):
        stride = 4 * so.stride_dw[b] if b < len(so.stride_dw) else 0
        if not stride:
            continue
        filled = ctx.so_filled.get((id(t.resource), t.offset_B), 0)
        limit = min(limit, max(0, t.size_B - filled) // stride)
        targets[b] = (t, filled, stride)
    written = limit // per * per
    for b, (t, filled, stride) in targets.items():
        key = (id(t.resource), t.offset_B)
        ctx.so_filled[key] = filled + written * stride
        # vertices in each buffer (glDrawTransformFeedbackStream draws a vertex stream's first buffer)
        ctx.so_vertices[key] = ctx.so_filled[key] // stride
    ctx.so_primitives += written // per
    ctx.so_primitives_needed += count * instances // per     # overflow: needed > written
    live = ids[ids >= 0]
    lo = int(live.min()) if live.size else 0
    hi = int(live.max()) if live.size else 0
    order = np.argsort(records, kind="stable")
    starts = np.searchsorted(records[order], np.arange(lo, hi + 2))
    head = 4 + len(starts)
    table = np.concatenate([[count, written, lo & 0xFFFFFFFF, head], starts + 0, order]).astype(np.uint32)
    return {"targets": targets, "table": table}


def _bound_buffer(ctx, el):
    vb = ctx.vertex_buffers[el.vertex_buffer_index] if el is not None and \
        el.vertex_buffer_index < len(ctx.vertex_buffers) else None
    if vb is None or (vb.resource is None and vb.user_buffer is None):
        return None
    return vb


# ----------------------------------------------------------------------------- descriptors

@lru_cache(maxsize=1024)
def sampler_descriptor(s: SamplerState | None) -> tuple[bytes, bytes | None]:
    """SAMPLER (and its SAMPLER_BORDER when the border colour is custom)."""
    if s is None:
        return P.pack("SAMPLER"), None
    border = tuple(s.border_color)
    builtin = {(0, 0, 0, 0): P.BorderColour.TRANSPARENT_BLACK, (0, 0, 0, 1): P.BorderColour.OPAQUE_BLACK,
               (1, 1, 1, 1): P.BorderColour.OPAQUE_WHITE}
    key = tuple(float(c) for c in border)
    bc = builtin.get(key, P.BorderColour.CUSTOM) if not s.border_color_is_integer or key == (0, 0, 0, 0) \
        else P.BorderColour.CUSTOM
    mip = {PipeTexMipFilter.NONE: P.MipFilter.NONE, PipeTexMipFilter.NEAREST: P.MipFilter.NEAREST,
           PipeTexMipFilter.LINEAR: P.MipFilter.LINEAR}[s.min_mip_filter]
    desc = packed("SAMPLER", min_filter=int(s.min_img_filter), mag_filter=int(s.mag_img_filter), mip_filter=mip,
                  wrap_s=_WRAPS[s.wrap_s], wrap_t=_WRAPS[s.wrap_t], wrap_r=_WRAPS[s.wrap_r],
                  compare_enable=s.compare_mode, compare_func=int(s.compare_func), border_colour=bc,
                  seamless_cube=s.seamless_cube_map, unnormalized_coords=s.unnormalized_coords,
                  lod_min=max(min(s.min_lod, 1000.0), -1000.0), lod_max=max(min(s.max_lod, 1000.0), -1000.0),
                  lod_bias=s.lod_bias,
                  # as Mesa's asahi: the next power of two of GL's TEXTURE_MAX_ANISOTROPY, at most 16
                  max_anisotropy_log2=min(4, max(0, math.ceil(math.log2(max(1.0, s.max_anisotropy))))),
                  reduction=P.Reduction(int(s.reduction_mode)))
    extra = None
    if bc == P.BorderColour.CUSTOM:
        words = [int(c) & 0xFFFFFFFF for c in border] if s.border_color_is_integer else \
            [int(w) for w in np.array(border, np.float32).view(np.uint32)]
        extra = packed("SAMPLER_BORDER", border_0=words[0], border_1=words[1], border_2=words[2], border_3=words[3])
    return desc, extra


_SWZ = {PipeSwizzle.X: P.Swizzle.R, PipeSwizzle.Y: P.Swizzle.G, PipeSwizzle.Z: P.Swizzle.B,
        PipeSwizzle.W: P.Swizzle.A, PipeSwizzle.ZERO: P.Swizzle.ZERO, PipeSwizzle.ONE: P.Swizzle.ONE}


_VIEW_CACHE: dict = {}


def view_descriptor(view) -> bytes:
    """TEXTURE descriptor of a sampler view (memoised on the view and the resource's address)."""
    if view is None:
        return bytes(P.TEXTURE_DESC_B)
    key = (view, view.resource.bo.va)
    desc = _VIEW_CACHE.get(key)
    if desc is None:
        if len(_VIEW_CACHE) > 4096:
            _VIEW_CACHE.clear()
        desc = _VIEW_CACHE[key] = _view_descriptor(view)
    return desc


def _sampler_slot_kinds(sh: AgxShader) -> tuple[frozenset, frozenset]:
    """Compiler texture slots of the shader's integer samplers (isampler*, usampler*)
    and of its 1D samplers (not 1D arrays: their sample instructions give one
    coordinate), from the sampler types; kept on the shader."""
    kinds = sh.info.get("sampler_slot_kinds")
    if kinds is None:
        info = sh.info.get("shader_info")
        samplers = getattr(info, "samplers", {}) if info is not None else {}

        def slots(pred) -> frozenset:
            return frozenset(o.slot + k for o in samplers.values() if pred(o.type) for k in range(o.count))
        kinds = sh.info["sampler_slot_kinds"] = (
            slots(lambda t: t.startswith(("isampler", "usampler"))),
            slots(lambda t: "1D" in t and "1DArray" not in t))
    return kinds


def _null_texture(batch, integer: bool, one_d: bool = False) -> bytes:
    """The descriptor of a texture slot without a view (an incomplete or unbound
    texture, GL 4.6 section 11.1.3.5: sampling it returns (0, 0, 0, 1)): a 1 x 1
    linear RGBA8 image of zeros in the batch's pool whose swizzle is the constants
    0, 0, 0, 1 (Mesa's agx_set_null_texture), so the texture unit reads valid memory
    and every access gives (0, 0, 0, 1); a UINT format for integer samplers, whose
    1 is the integer 1; a 1D image for 1D samplers (a 2D one would have the texture
    unit read a second coordinate the instruction does not give)."""
    kind = ("null texture", integer, one_d)
    descriptor = batch.usc_cache.get(kind)            # the bytes once per batch and kind
    if descriptor is None:
        address = batch.usc_cache.get("null texel")   # one per batch: identical USC words stay shared
        if address is None:
            address = batch.usc_cache["null texel"] = batch.pool.upload(bytes(16), 64)
        descriptor = batch.usc_cache[kind] = _null_texture_packer(integer, one_d)(address)
    return descriptor


_NULL_TEXTURE_PACKERS: dict = {}


def _null_texture_packer(integer: bool, one_d: bool):
    """The packer of ``_null_texture``'s TEXTURE descriptor of its texel's address, one
    per kind."""
    hit = _NULL_TEXTURE_PACKERS.get((integer, one_d))
    if hit is None:
        S_ = P.Swizzle
        target = P.TextureTarget.TEXTURE_1D if one_d else P.TextureTarget.TEXTURE_2D
        hit = _NULL_TEXTURE_PACKERS[(integer, one_d)] = packer(
            "TEXTURE", "address", target=target, tiling=P.Tiling.LINEAR,
            format_id=_fid("R8G8B8A8_UINT" if integer else "R8G8B8A8_UNORM"), swizzle_r=S_.ZERO,
            swizzle_g=S_.ZERO, swizzle_b=S_.ZERO, swizzle_a=S_.ONE, width_px=1, height_px=1, depth_px=1,
            levels=1, linear_stride_B=16)
    return hit


def _view_descriptor(view) -> bytes:
    res: AgxResource = view.resource
    if view.target == PipeTextureTarget.BUFFER or res.template.is_buffer:
        # a 2D image the compiler addresses by (i % W, i // W) (driver/agx/texel_buffer.py)
        n = texel_buffer.elements(view.format, res.template.width_px, view.offset_B, view.size_B)
        return texel_buffer.descriptor(view.format, res.va + view.offset_B, n)
    swz = tuple(_SWZ[s] for s in view.swizzle)
    plane = None
    if "color" not in res.planes:
        # depth/stencil sampling: the depth plane unless the view format is stencil-only
        plane = "stencil" if view.format.value in ("S8_UINT", "X24S8_UINT", "S8X24_UINT") or \
            "depth" not in res.planes else "depth"
    fmt = layout_format(view.format) if plane is None else None
    # array layers of the view (a texture view of some of the layers); a 3D texture's depth is its own
    layers = None if view.target == PipeTextureTarget.TEXTURE_3D else view.last_layer - view.first_layer + 1
    return res.texture_descriptor(format=fmt, target=view.target, first_level=view.first_level,
                                  last_level=view.last_level, first_layer=view.first_layer, swizzle=swz,
                                  plane=plane, layers=layers)


def _fid(name):
    from .resource import format_id
    return format_id(name)


# ----------------------------------------------------------------------------- uniforms and tables

def _cb_bytes(ctx, stage, slot) -> bytes:
    cb = ctx.constant_buffers[stage].get(slot)
    if cb is None:
        return b""
    if cb.user_buffer is not None:
        return bytes(cb.user_buffer[cb.offset_B:cb.offset_B + cb.size_B] if cb.offset_B else cb.user_buffer)
    return fallbacks.read_bytes(ctx, cb.resource, cb.offset_B, cb.size_B)


def _default_block(ctx, sh: AgxShader, stage) -> tuple[bytes, bytes]:
    """(uniform register bytes, memory bytes: UBO 0) of the default uniform block:
    the program's storage (constant buffer 0, already in the layout the shader
    reads: one copy), the registers a window of it (from the first uniform the
    stage reads), with the ranges of the state
    block the compiler listed (one copy each) and the values the driver supplies
    (blend colour, alpha reference, draw index) written into them."""
    size = sh.info.get("default_size_B", 0)
    memory = bytearray(-(-size // 16) * 16)
    if not memory:
        return b"", b""
    if sh.info.get("program_block"):
        cb0 = _cb_bytes(ctx, stage, 0)[:len(memory)]
        memory[:len(cb0)] = cb0
    base = sh.info.get("registers_base_B", 0)       # the stage's window of the program's block
    # a view: what is written into the registers is in the memory copy too (a uniform read
    # with a dynamic offset reads the registers' window of UBO 0)
    registers = memoryview(memory)[base:base + sh.info.get("registers_B", 0)]
    if sh.info.get("state_ranges"):
        state = _cb_bytes(ctx, stage, sh.info["state_cb"])
        for reg, off, n in sh.info["state_ranges"]:
            registers[reg:reg + n] = state[off:off + n].ljust(n, b"\0")
    for name, values in (("blend_color", ctx.blend_color), ("alpha_ref", (ctx.dsa.alpha_ref_value,))):
        u = sh.info.get(name)
        if u is not None:
            raw = np.array(values, np.float32).tobytes()
            registers[u.offset_B:u.offset_B + len(raw)] = raw
    u = sh.info.get("poly_stipple")
    if u is not None:                     # the polygon stipple's 32 rows (set_polygon_stipple)
        raw = np.array(ctx.poly_stipple, np.uint32).tobytes()
        registers[u.offset_B:u.offset_B + len(raw)] = raw
    u = sh.info.get("output_filter")
    if u is not None:                     # the layer and viewport this pass draws (set_output_filter)
        registers[u.offset_B:u.offset_B + 8] = np.array([f or 0 for f in ctx.output_filter], np.int32).tobytes()
    u = sh.info.get("draw_id")
    if u is not None:                     # gl_DrawIDARB: this draw's index in its multi-draw
        registers[u.offset_B:u.offset_B + 4] = np.int32(getattr(ctx, "draw_id", 0)).tobytes()
    return bytes(registers), bytes(memory)


def _buffer_address(ctx, batch, res, offset_B: int, write: bool) -> int:
    if write:
        ctx.write(batch, res)
    else:
        ctx.read(batch, res)
    return res.va + offset_B


def _uniform_bytes(sh: AgxShader) -> int:
    """Bytes of the uniform registers a variant reads (at least two halves), kept on
    the variant while its ``push`` list stands."""
    push = sh.push
    hit = sh.__dict__.get("_uniform_bytes")
    if hit is None or hit[0] is not push:
        hit = sh.__dict__["_uniform_bytes"] = (push, 2 * max(sh.uniform_halves, 2))
    return hit[1]


def _put(out: bytearray, at_B: int, raw) -> None:
    """``raw`` written at byte ``at_B`` of the registers (never past their end)."""
    end = at_B + len(raw)
    if end > len(out):
        raise ValueError(f"uniform bytes [{at_B}, {end}) past the {len(out)} register bytes")
    out[at_B:end] = raw


def build_uniforms(ctx, batch, sh: AgxShader, stage, attributes=None) -> bytes:
    """The bytes of the uint16 halves of the uniform registers the shader reads
    (little-endian; 32-bit values at the word of their first half): the variant's
    uniform plan (``_uniform_plan``) run against this draw's bindings."""
    plan = _uniform_plan(sh)
    out = bytearray(plan.size_B)
    if plan.block is None:
        registers = memory = b""
    elif plan.block:
        registers, memory = _simple_default_block(ctx, stage, *plan.block)
    else:
        registers, memory = _default_block(ctx, sh, stage)
    default_va = [None]             # the default block's upload, once per call
    for code, at, end, payload in plan.steps:
        if code == _STEP_DEFAULT:
            out[at:end] = registers[:end - at].ljust(end - at, b"\0")
        elif code == _STEP_CONST:
            out[at:end] = payload
        elif code == _STEP_ATTRIBUTE:       # (index, field, value when unbound, struct)
            index, k, unbound, fmt = payload
            value = attributes[index][k] if attributes and index in attributes else unbound
            if k:
                fmt.pack_into(out, at, value)
            else:
                fmt.pack_into(out, at, value & 0xFFFFFFFF, value >> 32)
        else:
            _push_entry(ctx, batch, sh, stage, out, payload, registers, memory, attributes, default_va)
    return bytes(out)


_STEP_DEFAULT, _STEP_CONST, _STEP_ATTRIBUTE, _STEP_DYNAMIC = 0, 1, 2, 3
#: push sources read from the vertex attributes' (address, stride, limit): field, value when unbound
_ATTRIBUTE_SOURCES = {"attribute_address": (0, 1 << 32), "vbo": (0, 1 << 32), "vbo_address": (0, 1 << 32),
                      "attribute_stride": (1, 0), "attribute_limit": (2, 16)}


class _UniformPlan:
    """What ``build_uniforms`` does for one variant, worked out once: the register
    bytes, the default block's shape (``block``: None when the variant has none, the
    arguments of ``_simple_default_block`` when it is the program's storage alone, ()
    when state ranges or driver values are written into it: ``_default_block``), and per ``push`` entry, in order, a step: the
    default block's first bytes or a literal at a checked byte range, or the entry
    itself, filled from the draw's bindings (``_push_entry``; a vertex attribute's
    address, stride or limit in the loop itself). Kept on the variant
    while its ``push`` tuple (identity) and the ``info`` facts it read (``facts``,
    compared by value) are the ones it was made from."""

    __slots__ = ("push", "facts", "size_B", "block", "steps")


#: the variant ``info`` entries a uniform plan is made from
_PLAN_FACTS = ("default_size_B", "program_block", "registers_base_B", "registers_B", "state_ranges",
               "blend_color", "alpha_ref", "poly_stipple", "output_filter", "draw_id")


def _plan_facts(info: dict) -> tuple:
    get = info.get
    ranges = get("state_ranges")
    return (get("default_size_B", 0), get("program_block"), get("registers_base_B", 0), get("registers_B", 0),
            tuple(map(tuple, ranges)) if ranges else ranges, get("blend_color"), get("alpha_ref"),
            get("poly_stipple"), get("output_filter"), get("draw_id"))


def _uniform_plan(sh: AgxShader) -> _UniformPlan:
    facts = _plan_facts(sh.info)
    plan = sh.__dict__.get("_uniform_plan")
    if plan is not None and plan.push is sh.push and plan.facts == facts:
        return plan
    plan = _UniformPlan()
    plan.push, plan.facts, plan.size_B = sh.push, facts, _uniform_bytes(sh)
    size, program_block, base, registers_B, ranges, *driver_values = facts
    if not size:
        plan.block = None
    elif ranges or any(v is not None for v in driver_values):
        plan.block = ()
    else:
        plan.block = (-(-size // 16) * 16, bool(program_block), base, base + registers_B)
    steps = []
    for p in sh.push:
        if p.source == "default":
            at, end = 2 * p.start_halves, 2 * p.start_halves + 2 * p.size_halves
            _check_range(plan.size_B, at, end)
            steps.append((_STEP_DEFAULT, at, end, None))
        elif p.source == "const":
            raw = p.data[:len(p.data) // 2 * 2]
            at = 2 * p.start_halves
            _check_range(plan.size_B, at, at + len(raw))
            steps.append((_STEP_CONST, at, at + len(raw), raw))
        elif p.source in _ATTRIBUTE_SOURCES:
            k, unbound = _ATTRIBUTE_SOURCES[p.source]
            steps.append((_STEP_ATTRIBUTE, 4 * (p.start_halves // 2), 0,
                          (p.index, k, unbound, _U32 if k else _U32X2)))
        else:
            steps.append((_STEP_DYNAMIC, 0, 0, p))
    plan.steps = tuple(steps)
    sh.__dict__["_uniform_plan"] = plan
    return plan


def _check_range(size_B: int, at_B: int, end_B: int) -> None:
    if end_B > size_B:
        raise ValueError(f"uniform bytes [{at_B}, {end_B}) past the {size_B} register bytes")


def _simple_default_block(ctx, stage, size_B: int, program_block: bool, base: int, end: int
                          ) -> tuple[bytes, bytes]:
    """``_default_block`` of a block that is the program's storage alone (no state
    ranges, no driver values): constant buffer 0's first ``size_B`` bytes (zeros past
    its end) and the register window [base, end) of them."""
    if program_block:
        memory = _cb_bytes(ctx, stage, 0)[:size_B]
        if len(memory) < size_B:
            memory += bytes(size_B - len(memory))
    else:
        memory = bytes(size_B)
    return memory[base:end], memory


def _push_entry(ctx, batch, sh: AgxShader, stage, out: bytearray, p, registers, memory, attributes,
                default_va: list) -> None:
    """One ``push`` entry of ``build_uniforms`` read from the draw's bindings (every
    source but the default block, literals and vertex attributes (``_ATTRIBUTE_SOURCES``,
    whose value when unbound is 16 for a robust variant's limit: the zero page an
    unbound one reads): addresses, sizes, sampler parameters."""
    pack_into = _U32X2.pack_into

    def put64(p, value):
        pack_into(out, 4 * (p.start_halves // 2), value & 0xFFFFFFFF, value >> 32)

    def put32(p, value):
        _U32.pack_into(out, 4 * (p.start_halves // 2), value)

    src = p.source
    if src == "cb0":
        raw = _cb_bytes(ctx, stage, 0)[p.offset_B:p.offset_B + 2 * p.size_halves]
        _put(out, 2 * p.start_halves, raw[:len(raw) // 2 * 2])
    elif src in ("uniform_address",) or (src == "ubo_address" and sh.info.get("ubo_map", {}).get(p.index, p.index) is None):
        if default_va[0] is None:
            default_va[0] = batch.pool.upload(memory or bytes(16), 16)
        # a register uniform read with a dynamic offset reads its register window, which
        # starts at byte registers_base_B of the block; UBO 0 reads are block offsets
        put64(p, default_va[0] + (sh.info.get("registers_base_B", 0) if src == "uniform_address" else 0))
    elif src in ("ubo_address", "ubo"):
        slot = sh.info.get("ubo_map", {}).get(p.index, p.index)
        cb = ctx.constant_buffers[stage].get(slot)
        if cb is None:
            put64(p, ctx.device.zero_page and (1 << 32) or 0)
        elif cb.user_buffer is not None:
            put64(p, batch.pool.upload(bytes(cb.user_buffer) or bytes(16), 16) + cb.offset_B)
        else:
            put64(p, _buffer_address(ctx, batch, cb.resource, cb.offset_B, False))
    elif src == "ssbo_address" and XFB_BUFFER_BASE <= p.index <= XFB_PARAMS:
        xfb = getattr(ctx, "xfb_draw", None)
        if xfb is None:
            put64(p, 1 << 32)
        elif p.index == XFB_PARAMS:
            put64(p, batch.pool.upload(xfb["table"].tobytes(), 16))
        elif p.index - XFB_BUFFER_BASE in xfb["targets"]:
            t, filled, _stride = xfb["targets"][p.index - XFB_BUFFER_BASE]
            put64(p, _buffer_address(ctx, batch, t.resource, t.offset_B + filled, True))
        else:
            put64(p, 1 << 32)
    elif src in ("ssbo_address", "ssbo", "ssbo_size"):
        slot = sh.info.get("ssbo_map", {}).get(p.index, p.index)
        bufs = ctx.shader_buffers[stage]
        sb = bufs[slot] if slot < len(bufs) else None
        if sb is None:
            if src != "ssbo_size":
                put64(p, 1 << 32)
            return
        if src == "ssbo_size":
            put32(p, sb.size_B)
        else:
            writable = bool(ctx.shader_buffers_writable[stage] >> slot & 1)
            put64(p, _buffer_address(ctx, batch, sb.resource, sb.offset_B, writable))
    elif src == "uniform_size":         # robust variants: the default block's bytes from uniform_address
        put32(p, max(0, len(memory) - sh.info.get("registers_base_B", 0)))
    elif src == "texel_buffer_elements":
        put32(p, _texel_buffer_elements(ctx, sh, stage, p.index))
    elif src == "ubo_size":          # robust buffer access: the bound range's bytes
        slot = sh.info.get("ubo_map", {}).get(p.index, p.index)
        if slot is None:             # the default block (or its register window), uploaded whole
            put32(p, sh.info.get("default_size_B", 0))
        else:
            cb = ctx.constant_buffers[stage].get(slot)
            put32(p, 0 if cb is None else cb.size_B)
    elif src == "sampler_lod_parameters":
        _put(out, 4 * (p.start_halves // 2), _sampler_lod_parameters(ctx, sh, stage, p.index).tobytes())
    elif src == "sysval" and p.name == "blend_color":
        _put(out, 4 * (p.start_halves // 2), np.array(ctx.blend_color, np.float32).tobytes())


def _image_view(ctx, sh: AgxShader, stage, i: int, cb0: bytes):
    """The image view bound to the shader's image slot i: its unit is the image
    uniform's value (glUniform1i), read from constant buffer 0, or i."""
    off = sh.info.get("image_units", {}).get(i)
    unit = int(np.frombuffer(cb0[off:off + 4], np.int32)[0]) if off is not None and off + 4 <= len(cb0) else i
    imgs = ctx.images[stage]
    return imgs[unit] if 0 <= unit < len(imgs) else None


def _texel_buffer_elements(ctx, sh: AgxShader, stage, descriptor: int) -> int:
    """The element count of the buffer texture or buffer image at texture descriptor
    ``descriptor`` (the uniform slot texel_buffer_elements); 0 when nothing, or no
    buffer, is bound there (every access then reads 0 / is dropped)."""
    from compiler.backend import IMAGE_DESCRIPTOR_BASE
    if descriptor >= IMAGE_DESCRIPTOR_BASE:
        view = _image_view(ctx, sh, stage, descriptor - IMAGE_DESCRIPTOR_BASE, _cb_bytes(ctx, stage, 0))
    else:
        tmap = sh.info.get("texture_map") or {i: i for i in range(sh.textures)}
        slot = tmap.get(descriptor)
        views = ctx.views[stage]
        view = views[slot] if slot is not None and slot < len(views) else None
    if view is None or view.resource is None or not view.resource.template.is_buffer:
        return 0
    return texel_buffer.elements(view.format, view.resource.template.width_px, view.offset_B, view.size_B)


_MIP_FILTER_CODE = {PipeTexMipFilter.NONE: 0.0, PipeTexMipFilter.NEAREST: 1.0, PipeTexMipFilter.LINEAR: 2.0}


def _sampler_lod_parameters(ctx, sh: AgxShader, stage, sampler: int) -> np.ndarray:
    """float32 (min LOD, max LOD, LOD bias, mip filter code) of the sampler at the
    shader's sampler slot (the uniform slot sampler_lod_parameters, read by
    textureQueryLod): the bias (texture, sampler and, in compatibility contexts, the
    unit's) clamped to MAX_TEXTURE_LOD_BIAS as sampling clamps it (GL 4.6 section 8.14.1)."""
    tmap = sh.info.get("texture_map") or {i: i for i in range(sh.textures)}
    slot = tmap.get(sampler)
    samplers = ctx.samplers[stage]
    s = samplers[slot] if slot is not None and slot < len(samplers) else None
    s = s if s is not None else SamplerState()
    limit = ctx.screen.caps.max_texture_lod_bias
    bias = min(max(s.lod_bias, -limit), limit)
    return np.array([s.min_lod, s.max_lod, bias, _MIP_FILTER_CODE[s.min_mip_filter]], np.float32)


def _tables(ctx, batch, sh: AgxShader, stage) -> tuple[bytes, bytes, bool]:
    """Texture and sampler tables (descriptor i = compiler slot i; images at IMAGE_DESCRIPTOR_BASE + i)."""
    info = sh.info
    tmap = info.get("texture_map")
    images = info.get("image_units")
    if not (tmap or sh.textures or images) and not (stage == PipeShaderType.FRAGMENT and batch.fb is not None
                                                   and _batch_spilled(batch)):
        return b"", b"", False          # (no descriptor at all)
    tmap = tmap or {i: i for i in range(sh.textures)}
    images = images or {}
    views, samplers = ctx.views[stage], ctx.samplers[stage]
    n = max(list(tmap) + [-1]) + 1
    texs, samps, extended = [], [], False
    sampler_entries = []
    for i in range(n):
        slot = tmap.get(i)
        view = views[slot] if slot is not None and slot < len(views) else None
        if view is not None:
            ctx.read(batch, view.resource)
            texs.append(view_descriptor(view))
        else:
            integer, one_d = _sampler_slot_kinds(sh)
            texs.append(_null_texture(batch, i in integer, i in one_d))
        smp = samplers[slot] if slot is not None and slot < len(samplers) else None
        d, extra = sampler_descriptor(smp)
        sampler_entries.append((d, extra))
        extended |= extra is not None
    for d, extra in sampler_entries:
        samps.append(d + (extra or bytes(P.SAMPLER_BORDER.size_B)) if extended else d)
    if images:
        from compiler.backend import IMAGE_DESCRIPTOR_BASE
        while len(texs) < IMAGE_DESCRIPTOR_BASE:
            texs.append(bytes(P.TEXTURE_DESC_B))
        cb0 = _cb_bytes(ctx, stage, 0)
        for i in range(max(images) + 1):
            iv = _image_view(ctx, sh, stage, i, cb0)
            if iv is None:
                texs.append(bytes(P.TEXTURE_DESC_B))
                continue
            ctx.write(batch, iv.resource)
            res = iv.resource
            if res.template.is_buffer:
                n = texel_buffer.elements(iv.format, res.template.width_px, iv.offset_B, iv.size_B)
                texs.append(texel_buffer.descriptor(iv.format, res.va + iv.offset_B, n))
            else:
                # the bound layers only (a texture view's, or one layer); a 3D image's depth is its own
                layers = None if res.template.target == PipeTextureTarget.TEXTURE_3D else \
                    iv.last_layer - iv.first_layer + 1
                texs.append(res.texture_descriptor(format=layout_format(iv.format), first_level=iv.level,
                                                   last_level=iv.level, first_layer=iv.first_layer,
                                                   layers=layers))
    if stage == PipeShaderType.FRAGMENT and batch.fb is not None:
        _spilled_render_targets(batch, texs)
    return b"".join(texs), b"".join(samps), extended


def _spilled_render_targets(batch, texs: list) -> None:
    """The image views of the batch's spilled render targets (tilebuffer.RTSlot.spilled)
    at the fragment shader's image slots SPILLED_RT_IMAGE_BASE + i, where the
    blend lowering reads and writes them."""
    for at, view in _batch_spilled(batch):
        while len(texs) <= at:
            texs.append(bytes(P.TEXTURE_DESC_B))
        texs[at] = view


def _batch_spilled(batch) -> tuple:
    """(descriptor index, view) of each of a render batch's spilled render targets,
    once per batch."""
    spilled = batch.usc_cache.get("spilled")
    if spilled is None:
        targets = [(i, s) for i, (slot, s) in enumerate(zip(batch.tile.slots, batch.fb.cbufs))
                   if slot is not None and slot.spilled]
        if targets:
            from compiler.backend import IMAGE_DESCRIPTOR_BASE
            from compiler.keys import SPILLED_RT_IMAGE_BASE
            targets = [(IMAGE_DESCRIPTOR_BASE + SPILLED_RT_IMAGE_BASE + i, batch.surface_view(s)) for i, s in targets]
        spilled = batch.usc_cache["spilled"] = tuple(targets)
    return spilled


#: the per-draw packets whose integer fields (addresses, sizes) are all that changes
_USC_UNIFORM = packer("USC_UNIFORM", "start_halves", "size_halves", "buffer")
_VDM_PPP_STATE_UPDATE = packer("VDM_PPP_STATE_UPDATE", "size_words", "state")


_VDM_STATES: dict = {}


def _vdm_state(output_count_words: int):
    """The packer of the VDM_STATE of a draw (its vertex shader's USC words and
    output count), one per output count."""
    hit = _VDM_STATES.get(output_count_words)
    if hit is None:
        hit = _VDM_STATES[output_count_words] = packer(
            "VDM_STATE", "vertex_shader.pipeline", vertex_outputs=dict(output_count_words=output_count_words))
    return hit


def usc_words(ctx, batch, sh: AgxShader, stage, attributes=None, fragment: tuple = ()) -> int:
    """The USC words of a shader with its bindings; returns their address. Identical
    words (same variant, uniform values and tables) are uploaded once per batch, and
    the words around the uniform ones (shader, tables, varyings, fragment, end) are
    packed, and their tables uploaded, once per batch, variant, tables and fragment
    fields (``fragment``: USC_FRAGMENT's, sorted (name, value) pairs) - across batches
    when there are no tables: a draw that changed a uniform value uploads its
    registers and packs its USC_UNIFORM words only."""
    halves = build_uniforms(ctx, batch, sh, stage, attributes)
    texs, samps, extended = _tables(ctx, batch, sh, stage)
    frame = (id(sh), int(stage), texs, samps, fragment)
    key = (frame, halves)
    cached = batch.usc_cache.get(key)
    if cached is not None:
        return cached
    around = batch.usc_cache.get(frame)
    if around is None:
        if texs or samps:       # (the tables are uploaded into the batch's pool)
            around = _usc_frame(ctx, batch, sh, texs, samps, extended, fragment)
        else:                   # nothing of the batch's: kept across batches, but the code's reference
            code = sh.code_bo(ctx.device)
            frames = draw_memos(ctx).frames
            hit = frames.get(frame)
            if hit is None or hit[1] is not code:
                hit = frames.put(frame, (sh, code, _usc_frame(ctx, batch, sh, texs, samps, extended, fragment)))
            else:
                batch.keep(code)
            around = hit[2]
        batch.usc_cache[frame] = around
    head, tail = around
    words = [head]
    if halves:
        va = batch.pool.upload(halves, 16)
        n_halves = len(halves) // 2
        for start in range(0, n_halves, 256):
            n = min(256, n_halves - start)
            words.append(_USC_UNIFORM(start, n, va + 2 * start))
    words.append(tail)
    va = batch.usc_cache[key] = batch.pool.upload(b"".join(words), 64)
    return va


def _usc_frame(ctx, batch, sh: AgxShader, texs: bytes, samps: bytes, extended: bool,
               fragment: tuple) -> tuple[bytes, bytes]:
    """(the words before the USC_UNIFORM words, the words after them) of ``usc_words``:
    USC_SHADER; then the texture and sampler tables (uploaded here), shared memory,
    varyings, the fragment fields and USC_END."""
    code = sh.code_bo(ctx.device)
    batch.keep(code)
    head = packed("USC_SHADER", register_count=min(sh.register_count, 255),
                  scratch_size_B=-(-sh.scratch_size_B // 16) * 16, code=code.va,
                  uniform_count_halves=min(sh.uniform_halves, 1023))
    words = []
    if texs:
        words.append(packed("USC_TEXTURE", start=0, count=len(texs) // P.TEXTURE_DESC_B,
                            table=batch.pool.upload(texs, 64)))
    if samps:
        stride = P.SAMPLER_EXTENDED_DESC_B if extended else P.SAMPLER_DESC_B
        words.append(packed("USC_SAMPLER", start=0, count=len(samps) // stride, extended=extended,
                            table=batch.pool.upload(samps, 64)))
    if sh.stage == "compute" and sh.shared_B:
        lx, ly, lz = sh.local_size
        words.append(packed("USC_SHARED", local_memory_size_B=-(-sh.shared_B // 16) * 16,
                            threadgroup_size_threads=max(1, lx * ly * lz)))
    if sh.stage == "vertex":
        words.append(packed("USC_VARYINGS", output_count_words=sh.output_count_words))
    if sh.stage == "fragment":
        words.append(packed("USC_VARYINGS", cf_count=max(sh.cf_count, 1)))
        words.append(packed("USC_FRAGMENT", **dict(fragment)))
    words.append(packed("USC_END"))
    return head, b"".join(words)


# ----------------------------------------------------------------------------- vertex attributes

_INT_TYPES = {(8, True): "byte", (8, False): "ubyte", (16, True): "short", (16, False): "ushort",
              (32, True): "int", (32, False): "uint"}
_SIGNED_KINDS = ("SNORM", "SINT", "SSCALED", "FIXED")


@lru_cache(maxsize=256)
def fetch_format(fmt) -> tuple[str, int, bool, bool]:
    """(GL component type as ``compiler.lower.vertex_fetch`` names it, components,
    normalized, bgra) of a vertex element's pipe format. Derived from ``layout``'s
    channels: pixel formats directly; the vertex-only kinds (``<channels>_USCALED``,
    ``_SSCALED``, ``_FIXED``, 32-bit ``_UNORM``/``_SNORM``) through the layout format
    holding the same bits; 64-bit FLOAT (doubles, no pixel format) has the channels
    of its 32-bit twin. ValueError for a format nobody knows."""
    name = fmt.value if hasattr(fmt, "value") else str(fmt)
    stem, _, kind = name.rpartition("_")
    signed = kind in _SIGNED_KINDS
    if name in layout.FORMATS:
        chans = layout.get_format(name).channels
    elif kind == "FLOAT" and "64" in stem:
        return "double", len(layout.get_format(stem.replace("64", "32") + "_FLOAT").channels), False, False
    else:
        chans = layout.get_format(f"{stem}_{'SINT' if signed else 'UINT'}").channels
    bits = tuple(c.bits for c in chans)
    if bits == (10, 10, 10, 2):
        gl_type = "int_2_10_10_10_rev" if signed else "uint_2_10_10_10_rev"
    elif bits == (11, 11, 10):
        gl_type = "uint_10f_11f_11f_rev"
    elif kind == "FLOAT":
        gl_type = {16: "half", 32: "float"}[bits[0]]
    elif kind == "FIXED":
        gl_type = "fixed"
    else:
        gl_type = _INT_TYPES[(bits[0], signed)]
    return gl_type, len(chans), kind in ("UNORM", "SNORM"), chans[0].name == "B"


def _wants_int(attr) -> bool:
    return attr is not None and attr.type.startswith(("int", "uint", "ivec", "uvec"))


@lru_cache(maxsize=1024)
def _raw_words(el, attr) -> bool:
    """Whether element ``el`` feeds shader attribute ``attr`` (compiler.lower
    ``Attribute``, None: unknown, 4 floats) as raw 32-bit words the backend's
    ``load_input`` reads (``attribute_address + vertex_id * attribute_stride``):
    per vertex, 32-bit FLOAT/SINT/UINT channels of the attribute's kind, at least
    as many as it has components."""
    gl_type, n, normalized, bgra = fetch_format(el.src_format)
    comps = attr.components if attr is not None else 4
    name = el.src_format.value if hasattr(el.src_format, "value") else str(el.src_format)
    pure = name.endswith(("_FLOAT", "_SINT", "_UINT"))
    return (el.instance_divisor == 0 and pure and not normalized and not bgra and n >= comps and
            gl_type in ("float", "int", "uint") and (gl_type != "float") == _wants_int(attr))


#: vertex shader CSO -> ({location: Attribute}, {(vertex elements, bound): fetched attributes});
#: the attributes are the same for every variant, so the first compiled one gives them
_SHADER_ATTRIBUTES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _vertex_fetch(ctx, cso, fields: dict) -> tuple:
    """``fetched_attribs`` of the bound vertex elements for shader CSO ``cso``, memoised
    per CSO on the elements and which of them have a buffer."""
    memo = _SHADER_ATTRIBUTES.get(cso)
    if memo is None:
        attrs = dict(cso.variant(ShaderKey.make(**fields)).info.get("attributes", {}))
        memo = _SHADER_ATTRIBUTES[cso] = (attrs, {})
    attrs, by_state = memo
    state = (tuple(ctx.velems), tuple(_bound_buffer(ctx, el) is not None for el in ctx.velems))
    fetch = by_state.get(state)
    if fetch is None:
        if len(by_state) > 64:
            by_state.clear()
        fetch = by_state[state] = fetched_attribs(ctx, attrs)
    return fetch


def fetched_attribs(ctx, attributes: dict) -> tuple:
    """The vertex-fetch descriptors of the vertex key (Mesa's agx_nir_lower_vbo): every
    shader attribute whose bound element is not raw 32-bit words (``_raw_words``:
    other formats, per-instance elements) is fetched and converted by the shader
    with ``load_vbo`` from vertex buffer slot = location, which the driver binds to
    the element's first byte (``vertex_attributes``). A matrix or array attribute is
    fetched whole when any of its locations is. Unbound locations read the
    default (0, 0, 0, 1) with stride 0."""
    out = []
    for loc0, attr in sorted(attributes.items()):
        locs = range(loc0, loc0 + max(1, attr.locations))
        els = [ctx.velems[loc] if loc < len(ctx.velems) else None for loc in locs]
        bound = [el if _bound_buffer(ctx, el) is not None else None for el in els]
        if all(el is not None and _raw_words(el, attr) for el in bound):
            continue
        for loc, el in zip(locs, bound):
            if el is None:
                kind = ("uint" if attr.type.startswith(("uint", "uvec")) else "int") if _wants_int(attr) else "float"
                out.append(VertexAttrib(location=loc, buffer=loc, format=kind, components=4, stride_B=0))
                continue
            gl_type, n, normalized, bgra = fetch_format(el.src_format)
            out.append(VertexAttrib(location=loc, buffer=loc, format=gl_type, components=n, normalized=normalized,
                                    stride_B=el.src_stride_B, divisor=int(el.instance_divisor), bgra=bgra))
    return tuple(out)


def _element_address(ctx, batch, el, vb) -> int:
    """GPU address of element ``el``'s first byte (client memory is uploaded whole)."""
    if vb.resource is not None:
        return _buffer_address(ctx, batch, vb.resource, vb.offset_B + el.src_offset_B, False)
    return batch.pool.upload(bytes(vb.user_buffer) or bytes(16), 16) + vb.offset_B + el.src_offset_B


def vertex_attributes(ctx, batch, vs: AgxShader, vertex_range) -> dict:
    """{location: (address, stride_B, limit_B)} for the compiled VS's attributes (limit_B:
    the bytes readable from the address, which a robust context's variant checks each
    fetch against; the uniform slot attribute_limit): raw 32-bit
    attributes (``load_input``) and fetched ones (``load_vbo``: the element's first
    byte, the shader adds index * stride) read the bound buffers in place; unbound
    ones a (0, 0, 0, 1) default. Only a driver-built shader that cannot fetch (no
    ``vertex_attribs`` support) reading a converted format gets CPU-converted rows
    (``fallbacks.attribute_rows``) over ``vertex_range()`` = (lo, hi) vertex ids."""
    attrs = vs.info.get("attributes", {})
    locations, fetched = _attribute_locations(vs)
    out = {}
    for loc in locations:
        a = attrs.get(loc)
        if a is None:       # a later location of a matrix/array attribute
            a = next((x for x in attrs.values() if x.location <= loc < x.location + x.locations), None)
        el = ctx.velems[loc] if loc < len(ctx.velems) else None
        vb = _bound_buffer(ctx, el)
        if vb is None:
            default = np.array([0, 0, 0, 1], np.uint32 if _wants_int(a) else np.float32).view(np.uint32)
            out[loc] = (batch.pool.upload(default.tobytes(), 16), 0, 16)
        elif loc in fetched or _raw_words(el, a):
            first_B = vb.offset_B + el.src_offset_B
            held_B = vb.resource.template.width_px if vb.resource is not None else len(bytes(vb.user_buffer))
            out[loc] = (_element_address(ctx, batch, el, vb), el.src_stride_B, max(0, held_B - first_B))
        else:
            if el.instance_divisor:
                raise NotImplementedError("per-instance attributes of a shader that cannot fetch them")
            comps = a.components if a is not None else 4
            lo, hi = vertex_range()
            data = fallbacks.attribute_rows(ctx, layout_format(el.src_format), el, vb, range(lo, hi), comps,
                                            _wants_int(a))
            out[loc] = (batch.pool.upload(data.tobytes() or bytes(16), 16) - lo * 4 * comps, 4 * comps,
                        hi * 4 * comps)
    return out


def _attribute_locations(vs: AgxShader) -> tuple[tuple, frozenset]:
    """(the locations the compiled vertex variant reads, loaded or fetched, in order;
    those it fetches with ``load_vbo``), kept on the variant."""
    hit = vs.__dict__.get("_attribute_locations")
    if hit is None:
        compiled = vs.info.get("compiled")
        loaded = set(compiled.attributes) if compiled is not None else set()
        fetched = frozenset(s.binding for s in compiled.uniforms if s.kind == "vbo_address") \
            if compiled is not None else frozenset()
        hit = vs.__dict__["_attribute_locations"] = (tuple(sorted(loaded | fetched)), fetched)
    return hit


# ----------------------------------------------------------------------------- draws

def _quads_to_triangles(mode, ids: np.ndarray, marks: np.ndarray | None = None) -> np.ndarray:
    """Quads and quad strips as triangles (each quad a fan of two, winding kept);
    numbering restarts after each primitive-restart mark (``marks``)."""
    starts, lengths = topology.run_bounds(len(ids), marks)
    quads, _ = topology.decompose(mode.name.lower(), starts, lengths)
    return ids[topology.triangulate(quads)].reshape(-1)


_ADJACENCY = frozenset({PipePrim.LINES_ADJACENCY, PipePrim.LINE_STRIP_ADJACENCY, PipePrim.TRIANGLES_ADJACENCY,
                        PipePrim.TRIANGLE_STRIP_ADJACENCY})
#: the modes whose draws are converted into independent triangles or lines (quads, adjacency)
_CONVERTED = frozenset({PipePrim.QUADS, PipePrim.QUAD_STRIP, *_ADJACENCY})


def _drop_adjacency(mode, ids: np.ndarray, marks: np.ndarray | None = None, last: bool = True) -> tuple:
    """(LINES or TRIANGLES, ids) of an adjacency draw without a geometry stage (GL 4.6
    section 10.1.11-10.1.14): each primitive reduced to its main vertices
    (``uapi.topology.base_primitives``), an independent line or triangle with its
    provoking vertex (table 13.2, ``last``: the last-vertex convention) in the
    column the VDM takes it from. Vertex numbering restarts after each
    primitive-restart mark (``marks``); incomplete primitives are dropped."""
    starts, lengths = topology.run_bounds(len(ids), marks)
    kind, rows = topology.base_primitives(mode.name.lower(), starts, lengths, last)
    return PipePrim[kind.upper()], ids[rows].reshape(-1)


def _gathers_on_gpu(ctx, info: DrawInfo, batch, capture: bool) -> bool:
    """Whether an indexed quad or adjacency draw's index list is rewritten by a GPU
    kernel (``index_rewrite``) rather than read back: not with primitive restart (the
    positions depend on the values), nor when transform feedback needs the vertex ids,
    nor when the draw's own render batch writes the index buffer (the kernel would
    have to run in the middle of that batch). A list in client memory is the
    application's own bytes: it is read on the CPU, with no wait for the GPU."""
    if info.primitive_restart or capture or info.index_user_buffer is not None:
        return False
    return info.index_resource.writer is not batch


class _NeedsParameters(Exception):
    """A draw encoded from its indirect record needs the parameters on the CPU after
    all (a driver-built vertex shader that cannot fetch its attributes)."""


def _indirect_on_gpu(ctx, info: DrawInfo, ind) -> bool:
    """Whether the VDM reads an indirect draw's parameters itself (``VDM_INDEX_LIST``
    ``indirect``): not for draws whose encoding needs the count (quads and adjacency
    rewritten into other primitives, transform feedback's records), draws from
    transform feedback or client indices. A draw count in a buffer (ARB_indirect_parameters)
    is applied on the GPU too (``index_rewrite.filter_records``)."""
    vs_cso = ctx.shaders[S.VERTEX]
    return (ind.buffer is not None and ind.count_from_stream_output is None
            and info.mode in _PRIMS and not (info.index_size and info.index_user_buffer is not None)
            and vs_cso is not None and not _captures(ctx, vs_cso))


def encode_draw(ctx, info: DrawInfo, drawid_offset: int, indirect, draws) -> None:
    if indirect is not None and _indirect_on_gpu(ctx, info, indirect):
        if indirect.draw_count <= 0:
            return
        words = 5 if info.index_size else 4
        stride = indirect.stride_B or 4 * words
        records, first_B, record_stride = indirect.buffer, indirect.offset_B, stride
        if indirect.indirect_draw_count is not None:
            # the count is read on the GPU: all maxdrawcount records are drawn, those
            # past the count with zero instances (index_rewrite.filter_records)
            records, first_B, record_stride = index_rewrite.filter_records(ctx, indirect, words), 0, 4 * words
        for k in range(indirect.draw_count):
            ctx.draw_id = drawid_offset + k
            try:
                _encode_one(ctx, info, DrawStartCountBias(0, 0), (records, first_B + k * record_stride))
            except _NeedsParameters:
                from dataclasses import replace
                if indirect.indirect_draw_count is not None and k >= _indirect_draw_count(ctx, indirect):
                    continue
                one = replace(indirect, offset_B=indirect.offset_B + k * stride, draw_count=1,
                              indirect_draw_count=None)
                for inf, d in _resolve_indirect(ctx, info, one):
                    if d.count and inf.instance_count:
                        _encode_one(ctx, inf, d)
        if records is not indirect.buffer:
            ctx.screen.resource_destroy(records)     # the batches keep its memory until they are done
        return
    runs = [(info, d) for d in draws] if indirect is None else _resolve_indirect(ctx, info, indirect)
    for i, (inf, d) in enumerate(runs):
        ctx.draw_id = drawid_offset + i              # gl_DrawIDARB of the draw (uniform)
        if d.count and inf.instance_count:
            _encode_one(ctx, inf, d)


def _indirect_draw_count(ctx, ind) -> int:
    """ARB_indirect_parameters: the draw count in its buffer (read once the GPU work
    writing it is done, as the indirect records are), at most ``ind.draw_count``."""
    word = fallbacks.read_word(ctx, ind.indirect_draw_count, ind.indirect_draw_count_offset_B)
    return min(word, ind.draw_count)


def _resolve_indirect(ctx, info: DrawInfo, ind) -> list:
    """Indirect draws: the parameters are read back once the GPU work writing them is
    done (``fallbacks.read_indirect``; (info, draw) per indirect record). Draws from transform feedback draw the
    vertices last captured into their target (counted when the capturing draws were encoded)."""
    from dataclasses import replace
    so = ind.count_from_stream_output
    if so is not None:
        # glDrawTransformFeedback: the vertices last captured into the target
        count = ctx.so_vertices.get((id(so.resource), so.offset_B), 0)
        return [(info, DrawStartCountBias(0, count))]
    if ind.buffer is None:
        return []
    if ind.indirect_draw_count is not None:
        ind = replace(ind, draw_count=_indirect_draw_count(ctx, ind))
    out = []
    for w in fallbacks.read_indirect(ctx, ind, bool(info.index_size)):
        if info.index_size:
            count, inst, first, bias, base_inst = w
            bias = int(np.int32(np.uint32(bias)))
            out.append((DrawStartCountBias(int(first), int(count), bias), int(inst), int(base_inst)))
        else:
            count, inst, first, base_inst = w
            out.append((DrawStartCountBias(int(first), int(count)), int(inst), int(base_inst)))
    return [(replace(info, instance_count=inst, start_instance=base), d) for d, inst, base in out]


def _encode_one(ctx, info: DrawInfo, d, indirect_record=None) -> None:
    mode = info.mode
    if mode not in _PRIMS and mode not in _ADJACENCY and mode not in (PipePrim.QUADS, PipePrim.QUAD_STRIP):
        return      # patches: no tessellation stages
    index_res = info.index_resource if info.index_size and info.index_user_buffer is None else None
    if index_res is not None and index_res.writer is not None and index_res.writer is ctx.batches.get(ctx.fb):
        # the batch this draw goes into wrote its index buffer (transform feedback captured
        # into it): a CPU read of the indices (capture, converted topologies) would submit
        # that batch half-way through this draw's encoding, so it is submitted first
        ctx.stats["flushes_for_hazards"] += 1
        ctx._flush_batch(index_res.writer)
    if indirect_record is not None and indirect_record[0].writer is not None \
            and indirect_record[0].writer is ctx.batches.get(ctx.fb):
        # the VDM reads an indirect record as it walks the control stream, before the
        # batch's earlier draws are shaded: records this batch wrote (transform feedback
        # captured into them) exist only once it is submitted, so it is submitted first
        ctx.stats["flushes_for_hazards"] += 1
        ctx._flush_batch(indirect_record[0].writer)
    batch = ctx.render_batch()
    vs_cso, fs_cso = ctx.shaders[S.VERTEX], ctx.shaders[S.FRAGMENT]
    assert vs_cso is not None, "no vertex shader bound"
    try:
        _encode_draw(ctx, info, d, batch, vs_cso, fs_cso, _captures(ctx, vs_cso), indirect_record)
    finally:
        ctx.xfb_draw = None


def _smooth_lines(ctx, mode) -> bool:
    """GL_LINE_SMOOTH applies (GL 4.6 section 14.5.1.2): single-sample rasterisation
    (a multisampled framebuffer with GL_MULTISAMPLE on ignores it) of a draw whose
    every primitive is a line - two-vertex primitives of ``uapi.topology``, or polygons
    with both polygon modes LINE (a fragment shader variant multiplies alpha by the
    coverage the PPP gives lines; filled polygons and points must not get it)."""
    r = ctx.rast
    if not r.line_smooth or ((ctx.fb.samples or 1) > 1 and r.multisample):
        return False
    vertices = _vertices(mode)
    return vertices == 2 or (vertices not in (None, 1) and r.fill_front == PipePolygonMode.LINE
                             and r.fill_back == PipePolygonMode.LINE)


def _vertices(mode) -> int | None:
    """Vertices of each primitive of a pipe topology (adjacency: its base's), from
    ``uapi.topology``; None for a mode it lacks."""
    t = topology.TOPOLOGIES.get(mode.name.lower())
    if t is None:
        return None
    return topology.TOPOLOGIES[t.base].vertices if t.base else t.vertices


def _line_topology(mode) -> bool:
    """Every primitive of the draw is a line segment (lists, strips, loops and their
    adjacency forms)."""
    return _vertices(mode) == 2


def _encode_draw(ctx, info, d, batch, vs_cso, fs_cso, capture: bool, indirect_record=None) -> None:
    """One draw; ``indirect_record`` (resource, offset_B): the VDM reads the count,
    instances, first index/vertex, base vertex and base instance there (``d`` is
    then zero)."""
    mode = info.mode
    vs = vs_cso.variant(_robust(ctx, vertex_key(ctx, vs_cso, capture=capture)))
    memos = draw_memos(ctx)
    # the fragment key, once per state it reads (the framebuffer fixes the tile layout)
    fstate = (ctx.fb, ctx.blend, ctx.dsa, ctx.rast, ctx.min_samples)
    fkey = memos.fragment.get(fstate)
    if fkey is None:
        fkey = memos.fragment.put(fstate, fragment_key(ctx, batch))
    if "gl_PrimitiveID" in vs.info.get("varyings", {}):
        # the vertex program passes a geometry stage's gl_PrimitiveID on: the fragment stage reads
        # that varying instead of the rasteriser's primitive index
        fkey = fkey.replace(primitive_id_varying=True)
    if _smooth_lines(ctx, mode):
        fkey = fkey.replace(line_smooth=True)
    if ctx.rast.line_stipple_enable and _line_topology(mode):
        # GL 2.1 section 3.5.2: the fragment stage drops what the pattern leaves out, by the
        # counter the PPP gives each line (CoefficientSource.LINE_STIPPLE)
        fkey = fkey.replace(line_stipple=(ctx.rast.line_stipple_factor + 1, ctx.rast.line_stipple_pattern))
    if ctx.rast.poly_stipple_enable and (_vertices(mode) or 3) >= 3 and \
            PipePolygonMode.FILL in (ctx.rast.fill_front, ctx.rast.fill_back):
        # GL 4.6 compatibility section 14.6.2: a filled polygon's fragment is drawn where
        # the pattern's bit at the window position (x mod 32, y mod 32) is set
        fkey = fkey.replace(polygon_stipple=True)
    if fs_cso is not None and (fs_cso.state.info or {}).get("frag_coord_origin_upper_left"):
        fkey = fkey.replace(frag_coord_height=ctx.fb.height_px)     # layout(origin_upper_left) gl_FragCoord
    fs = fs_cso.variant(_robust(ctx, fkey)) if fs_cso is not None else None
    # indices (CPU-converted for quads and adjacency into independent primitives)
    index_size, index_va, index_bytes, count, base_vertex = 0, 0, 0, d.count, d.start
    indices = None
    converted = _CONVERTED
    if info.index_size:
        base_vertex = d.index_bias
        if mode in converted and _gathers_on_gpu(ctx, info, batch, capture):
            # the positions of the list each output index takes: the topology's, no GPU data
            positions = np.arange(d.count, dtype=np.int64)
            if mode in _ADJACENCY:
                mode, positions = _drop_adjacency(mode, positions, last=not ctx.rast.flatshade_first)
            else:
                mode, positions = PipePrim.TRIANGLES, _quads_to_triangles(mode, positions)
            count = len(positions)
            if count == 0:
                return
            gathered = index_rewrite.gather_indices(ctx, info, d.start, positions)
            index_va, index_bytes, index_size = _buffer_address(ctx, batch, gathered, 0, False), 4 * count, 4
            ctx.screen.resource_destroy(gathered)        # the batches keep its memory until they are done
        elif mode in converted:
            indices = fallbacks.read_indices(ctx, info, d.start, d.count)
        elif info.index_user_buffer is not None:
            raw = bytes(info.index_user_buffer)[d.start * info.index_size:(d.start + d.count) * info.index_size]
            index_va, index_bytes, index_size = batch.pool.upload(raw or bytes(4), 16), len(raw), info.index_size
        else:
            res = info.index_resource
            index_va = _buffer_address(ctx, batch, res, d.start * info.index_size, False)
            index_bytes = max(0, res.template.width_px - d.start * info.index_size)
            index_size = info.index_size
    elif mode in converted:
        indices = np.arange(d.start, d.start + d.count, dtype=np.int64)
        base_vertex = 0
    if indices is not None:
        # a non-indexed range converts to the same list whatever the buffers hold: once per batch
        generated = ("converted", mode, d.start, d.count, ctx.rast.flatshade_first) if not info.index_size else None
        hit = batch.index_cache.get(generated) if generated else None
        if hit is not None:
            mode, tri, index_va, index_bytes, index_size = hit
        else:
            marks = None
            if info.index_size and info.primitive_restart:
                marks = indices == (info.restart_index & ((1 << (8 * info.index_size)) - 1))
            if mode in _ADJACENCY:
                mode, tri = _drop_adjacency(mode, indices, marks, last=not ctx.rast.flatshade_first)
            else:
                tri = _quads_to_triangles(mode, indices, marks)
                mode = PipePrim.TRIANGLES
            if len(tri) == 0:
                return
            words = tri.astype(np.uint32)
            index_va, index_bytes, index_size = batch.pool.upload(words.tobytes(), 16), words.nbytes, 4
            if generated:
                batch.index_cache[generated] = (mode, tri, index_va, index_bytes, index_size)
        count = len(tri)

    def vertex_range() -> tuple[int, int]:
        """[lo, hi) of the vertex ids the draw shades (only a CPU fallback asks)."""
        if indirect_record is not None:
            raise _NeedsParameters()
        if index_size:
            if info.index_bounds_valid and indices is None:
                lo, hi = info.min_index + base_vertex, info.max_index + base_vertex + 1
            else:
                ids = indices if indices is not None else fallbacks.read_indices(ctx, info, d.start, d.count)
                if info.primitive_restart:
                    ids = ids[ids != (info.restart_index & ((1 << (8 * info.index_size)) - 1))]
                lo, hi = (int(ids.min()) + base_vertex, int(ids.max()) + base_vertex + 1) if len(ids) else (0, 1)
        else:
            lo, hi = d.start, d.start + d.count
        lo = max(lo, 0)
        return lo, max(hi, lo + 1)

    if capture:
        # the vertex ids the VDM shades, in order (-1: primitive restart)
        if not index_size:
            ids = np.arange(base_vertex, base_vertex + count, dtype=np.int64)
        else:
            ids = tri.copy() if indices is not None else fallbacks.read_indices(ctx, info, d.start, d.count)
            if indices is not None:
                marks = ids < 0
            elif info.primitive_restart:
                marks = ids == (info.restart_index & ((1 << (8 * info.index_size)) - 1))
            else:
                marks = None
            ids = ids + base_vertex
            if marks is not None:
                ids[marks] = -1
        ctx.xfb_draw = _xfb_setup(ctx, batch, mode, ids, info.instance_count, vs_cso)
    attributes = vertex_attributes(ctx, batch, vs, vertex_range)
    cf = fs.cf_bindings if fs is not None and fs.cf_bindings else (
        _linked_bindings(vs, fs, ctx.rast.flatshade, ctx.rast.sprite_coord_enable if mode == PipePrim.POINTS else 0)
        if fs is not None else ())
    fs_words = None
    if fs is not None:
        fs_words = usc_words(ctx, batch, fs, S.FRAGMENT, fragment=_fragment_fields(fs, ctx.rast.multisample))
    occ = tuple([(q.slot, q.type) for q in ctx.counting_queries if q.slot is not None])
    # the PPP state's members, packed once per state (the entry holds vs and fs: their
    # ids stay theirs), but the fragment shader's pipeline (new words whenever a uniform
    # changes) and CF bindings (uploaded once per batch): added per draw
    state_key = (ctx.fb, ctx.rast, ctx.dsa, ctx.blend, ctx.viewport, ctx.scissor, ctx.stencil_ref, ctx.sample_mask,
                 ctx.min_samples, id(vs), id(fs), cf, occ)
    entry = memos.ppp.get(state_key)
    if entry is None:
        entry = memos.ppp.put(state_key, _ppp_entry(ctx, vs, fs, cf))
    if occ:
        if not batch.occlusion_va:
            batch.occlusion_va = ctx.occlusion_bo.va
        batch.keep(ctx.occlusion_bo)
    ppp = _ppp_upload(batch, entry, fs_words)
    vs_words = usc_words(ctx, batch, vs, S.VERTEX, attributes)
    stats_va = ctx.statistics_va()
    if stats_va != getattr(batch, "statistics_va", 0):   # the VDM keeps it for the following draws
        batch.vdm += packed("VDM_STATE", vertex_shader=dict(pipeline=vs_words), statistics=dict(counters=stats_va),
                            vertex_outputs=dict(output_count_words=vs.output_count_words))
        batch.statistics_va = stats_va
    else:
        batch.vdm += _vdm_state(vs.output_count_words)(vs_words)
    batch.vdm += _VDM_PPP_STATE_UPDATE(ppp[1], ppp[0])
    if not index_size and indirect_record is None:      # (the usual draw: one packer per primitive)
        batch.vdm += _vdm_arrays(_PRIMS[mode])(info.instance_count, base_vertex, info.start_instance, count)
        batch.draws += 1
        batch.zs_access |= _zs_access(ctx)
        return
    draw = dict(primitive=_PRIMS[mode], instances=info.instance_count, base_vertex=base_vertex,
                base_instance=info.start_instance, count=count)
    if index_size:
        draw.update(indexed=True, index_size=_INDEX[index_size], index_buffer=index_va,
                    index_buffer_size_B=index_bytes)
        if info.primitive_restart and indices is None:
            draw.update(restart_enable=True, restart_index=info.restart_index & 0xFFFFFFFF)
    if indirect_record is not None:
        res, offset_B = indirect_record
        draw.update(indirect=True, indirect_buffer=_buffer_address(ctx, batch, res, offset_B, False))
    batch.vdm += packed("VDM_INDEX_LIST", **draw)
    batch.draws += 1
    batch.zs_access |= _zs_access(ctx)


def _fragment_fields(fs: AgxShader, multisample: bool) -> tuple:
    """The USC_FRAGMENT fields of a fragment variant as sorted (name, value) pairs, kept
    on the variant per ``multisample`` (the rasterizer's)."""
    memo = fs.__dict__.setdefault("_fragment_fields", {})
    hit = memo.get(multisample)
    if hit is None:
        hit = memo[multisample] = tuple(sorted(dict(
            writes_depth=fs.writes_depth, writes_sample_mask=fs.writes_sample_mask,
            discards=fs.discards, early_z=early_z(fs),
            # GL 4.6 section 14.3.1: with multisampling off, a fragment is one pixel
            # (gl_SampleID 0), even for a program that reads gl_SampleID
            per_sample=fs.per_sample and multisample,
            post_depth_coverage=bool(fs.info.get("post_depth_coverage"))).items()))
    return hit


_VDM_ARRAYS: dict = {}


def _vdm_arrays(primitive):
    """The packer of a non-indexed, direct VDM_INDEX_LIST of ``primitive`` (instances,
    base vertex, base instance, count), one per primitive."""
    hit = _VDM_ARRAYS.get(primitive)
    if hit is None:
        hit = _VDM_ARRAYS[primitive] = packer("VDM_INDEX_LIST", "instances", "base_vertex", "base_instance", "count",
                                              primitive=primitive)
    return hit


def _linked_bindings(vs: AgxShader, fs: AgxShader, flat_shade: bool, sprite_coords: int) -> tuple:
    """``link_fragment_bindings`` of a variant pair, once per pair and arguments (kept on
    the fragment variant; draw after draw links the same pair)."""
    memo = fs.__dict__.setdefault("_linked_bindings", {})
    key = (id(vs), flat_shade, sprite_coords)
    hit = memo.get(key)
    if hit is None or hit[0] is not vs:
        hit = memo[key] = (vs, link_fragment_bindings(vs, fs, flat_shade, sprite_coords))
    return hit[1]


def early_z(fs: AgxShader) -> bool:
    """Whether depth and stencil may be tested before the fragment shader runs (the
    USC_FRAGMENT ``early_z`` bit). layout(early_fragment_tests) asks for it (GL 4.6
    section 14.9, early per-fragment tests: the tests run first, so an occluded
    fragment's image and buffer writes never happen). Otherwise only when the shader
    cannot change the outcome (no discard, depth or sample-mask output) and has no
    side effect that a fragment failing the tests must still have (stores and
    atomics to buffers and images: without the layout the tests run after the
    shader). A shader reading the depth/stencil buffers (ARM_shader_framebuffer_fetch_depth_stencil)
    reads them before its fragment's tests: late ones."""
    if fs.reads_zs:
        return False
    if fs.info.get("early_fragment_tests"):
        return True
    return not (fs.writes_depth or fs.discards or fs.writes_sample_mask or fs.info.get("writes_memory"))


def _zs_access(ctx) -> int:
    """The depth/stencil planes a draw tests (so reads and may write): PipeClear bits."""
    zs = ctx.fb.zsbuf
    if zs is None:
        return 0
    planes = zs.resource.planes
    depth = ctx.dsa.depth_enabled and "depth" in planes
    stencil = ctx.dsa.stencil[0].enabled and "stencil" in planes
    return (PipeClear.DEPTH if depth else 0) | (PipeClear.STENCIL if stencil else 0)


class _PppEntry:
    """The PPP state of one draw state (``_ppp_entry``), kept across batches: ``whole``,
    the packed state of a draw without a fragment shader; else ``cf`` (the CF binding
    words, uploaded once per batch), ``fs_packer`` (the fragment_shader member of the
    USC words' and the CF bindings' addresses) and ``around`` (the packed words before
    and after that member). Holds the variants whose ids its key names."""

    __slots__ = ("vs", "fs", "whole", "cf", "fs_packer", "around")


def _ppp_entry(ctx, vs: AgxShader, fs: AgxShader | None, cf) -> _PppEntry:
    """The ``_PppEntry`` of the draw state: ``_ppp_members`` packed."""
    members, cf_words = _ppp_members(ctx, vs, fs, cf)
    entry = _PppEntry()
    entry.vs, entry.fs, entry.cf = vs, fs, cf_words
    if fs is None:
        entry.whole, entry.fs_packer, entry.around = packed(P.PPP_STATE, **members), None, None
        return entry
    member = P.PPP_STATE.members["fragment_shader"]
    entry.whole = None
    entry.fs_packer = packer(member, "pipeline", "cf_bindings", **members.pop("fragment_shader"))
    whole = packed(P.PPP_STATE, **members, fragment_shader=bytes(member.size_B))
    at = P.PPP_STATE.header.size_B
    for name, packet in P.PPP_STATE.members.items():
        if name == "fragment_shader":
            break
        if name in members:
            at += packet.size_B
    entry.around = (whole[:at], whole[at + member.size_B:])
    return entry


def _ppp_members(ctx, vs: AgxShader, fs: AgxShader | None, cf) -> tuple[dict, bytes | None]:
    """(the PPP state of a draw as its packed members (name -> bytes), but the
    fragment shader's: its fields without ``pipeline`` and ``cf_bindings`` (a dict;
    ``_ppp_upload`` packs it with the draw's USC words and the bindings' address);
    the CF binding words, None without a fragment shader). Reads the state only:
    the batch's side of occlusion queries is ``_encode_draw``'s."""
    fb, rast, dsa = ctx.fb, ctx.rast, ctx.dsa
    vp = ctx.viewport
    (sx, sy, sz), (tx, ty, tz) = vp.scale, vp.translate
    near, far = tz - sz, tz + sz
    m = {"viewport": dict(translate_x=tx, scale_x=sx, translate_y=ty, scale_y=sy, translate_z=tz, scale_z=sz,
                          min_depth=max(0.0, min(near, far)), max_depth=min(1.0, max(near, far)))}
    if rast.scissor:
        sc = ctx.scissor
        x0, y0 = min(max(sc.minx, 0), fb.width_px), min(max(sc.miny, 0), fb.height_px)
        x1, y1 = min(max(sc.maxx, x0), fb.width_px), min(max(sc.maxy, y0), fb.height_px)
    else:
        x0, y0, x1, y1 = 0, 0, fb.width_px, fb.height_px
    m["scissor"] = dict(min_x_px=x0, max_x_px=x1, min_y_px=y0, max_y_px=y1)
    if rast.offset_tri or rast.offset_line or rast.offset_point:
        m["depth_bias"] = dict(constant=rast.offset_units, slope_scale=rast.offset_scale, clamp=rast.offset_clamp)
    m["raster"] = dict(cull_front=bool(rast.cull_face & PipeFace.FRONT), cull_back=bool(rast.cull_face & PipeFace.BACK),
                       front_ccw=rast.front_ccw,
                       provoking_vertex=P.ProvokingVertex.FIRST if rast.flatshade_first else P.ProvokingVertex.LAST,
                       polygon_mode_front=int(rast.fill_front), polygon_mode_back=int(rast.fill_back),
                       point_sprite=bool(rast.sprite_coord_enable or rast.point_quad_rasterization or
                                         (fs is not None and fs.info.get("point_coord_cf") is not None)),
                       point_sprite_lower_left=not rast.sprite_coord_upper_left,
                       program_point_size=bool(rast.point_size_per_vertex and vs.point_size),
                       depth_clip=rast.depth_clip_near, depth_clamp=rast.depth_clamp,
                       clip_zero_to_one=rast.clip_halfz,
                       rasterizer_discard=rast.rasterizer_discard,
                       depth_bias_enable=bool(rast.offset_tri or rast.offset_line or rast.offset_point),
                       depth_bias_fixed24=ctx.fb.zsbuf is not None and ctx.fb.zsbuf.format.name in FIXED24_DEPTH,
                       scissor_enable=True, multisample=rast.multisample or (fb.samples or 1) == 1,
                       point_size_px=float(rast.point_size),
                       line_width_px=float(rast.line_width),
                       line_smooth=bool(fs is not None and fs.info.get("line_smooth")))
    has_user = bool(vs.smooth_32 or vs.flat_32 or vs.linear_32 or vs.output_count_words > 4)
    m["output_select"] = dict(clip_distances=vs.clip_distances & 0xFFFF, cull_distances=vs.cull_distances,
                              varyings=has_user,
                              point_size=vs.point_size, frag_coord_z=False)
    m["varying_counts"] = dict(smooth_32=vs.smooth_32, flat_32=vs.flat_32, linear_32=vs.linear_32)
    if fs is not None:
        n_user = vs.smooth_32 + vs.flat_32 + vs.linear_32
        hdr = packed("CF_BINDING_HEADER", slots_32=1 + n_user,
                     cf_count=max([b.base_cf + b.components for b in cf] + [fs.cf_count, 1]))
        body = b"".join(packed("CF_BINDING", components=b.components, shade_model=P.ShadeModel[b.shade_model],
                               source=P.CoefficientSource[b.source], base_slot=b.base_slot, base_cf=b.base_cf)
                        for b in cf)
        cf_words = hdr + body
        m["fragment_shader"] = dict(cf_binding_count=len(cf))
    else:
        cf_words = None
    zs = fb.zsbuf
    planes = zs.resource.planes if zs is not None else {}
    depth_on = dsa.depth_enabled and "depth" in planes
    st_on = dsa.stencil[0].enabled and "stencil" in planes
    two = st_on and dsa.stencil[1].enabled
    m["zs"] = dict(depth_func=int(dsa.depth_func) if depth_on else P.CompareFunc.ALWAYS,
                   depth_write=bool(depth_on and dsa.depth_writemask), stencil_test=st_on, two_sided_stencil=two)
    if st_on:
        for face, name in ((0, "stencil_front"), (1, "stencil_back")):
            s = dsa.stencil[face if two else 0]
            m[name] = dict(compare=int(s.func), stencil_fail=_STENCIL_OPS[s.fail_op],
                           depth_fail=_STENCIL_OPS[s.zfail_op], depth_pass=_STENCIL_OPS[s.zpass_op],
                           reference=ctx.stencil_ref[face if two else 0] & 0xFF, read_mask=s.valuemask & 0xFF,
                           write_mask=s.writemask & 0xFF)
    samples = max(1, fb.samples or 1)
    m["msaa"] = dict(sample_count=samples, sample_mask=ctx.sample_mask & 0xFFFF,
                     alpha_to_coverage=ctx.blend.alpha_to_coverage, alpha_to_one=ctx.blend.alpha_to_one,
                     sample_shading=ctx.min_samples > 1)
    occ = [q for q in ctx.counting_queries if q.slot is not None]
    if occ:
        q = occ[0]
        mode = P.VisibilityMode.COUNTING if q.type == PipeQueryType.OCCLUSION_COUNTER else P.VisibilityMode.BOOLEAN
        m["occlusion"] = dict(mode=mode, index=q.slot)
    else:
        m["occlusion"] = dict(mode=P.VisibilityMode.NONE)
    return {name: fields if name == "fragment_shader" else packed(P.PPP_STATE.members[name], **fields)
            for name, fields in m.items()}, cf_words


def _ppp_upload(batch, entry: _PppEntry, fs_words) -> tuple[int, int]:
    """The PPP state of ``entry`` with the fragment shader's USC words at ``fs_words``,
    uploaded once per batch and distinct bytes; (address, size in words). A draw that
    changed nothing finds its upload by the entry (its identity: the batch's keys hold
    it) and ``fs_words``."""
    again = (entry, fs_words)
    hit = batch.ppp_cache.get(again)
    if hit is None:
        hit = batch.ppp_cache[again] = _ppp_pack_upload(batch, entry, fs_words)
    return hit


def _ppp_pack_upload(batch, entry: _PppEntry, fs_words) -> tuple[int, int]:
    if entry.fs_packer is None:
        state = entry.whole
    else:
        cf_va = batch.ppp_cache.get(entry)          # the CF bindings, once per batch and entry
        if cf_va is None:
            cf_va = batch.ppp_cache[entry] = batch.pool.upload(entry.cf, 16)
        state = b"".join((entry.around[0], entry.fs_packer(fs_words, cf_va), entry.around[1]))
    key = ("state", state)
    hit = batch.ppp_cache.get(key)
    if hit is None:
        hit = batch.ppp_cache[key] = (batch.pool.upload(state, 16), len(state) // 4)
    return hit


# ----------------------------------------------------------------------------- dispatches

def encode_launch(ctx, info: GridInfo) -> None:
    cso = ctx.shaders[S.COMPUTE]
    assert cso is not None, "no compute shader bound"
    sh = cso.variant(_robust(ctx, ShaderKey.make()))
    batch = ctx._batch_for(None)
    words = usc_words(ctx, batch, sh, S.COMPUTE)
    bx, by, bz = info.block
    launch = dict(pipeline=words, threadgroup_x_threads=bx, threadgroup_y_threads=by, threadgroup_z_threads=bz)
    if info.indirect is not None:
        launch.update(mode=P.CDMMode.INDIRECT,
                      indirect_buffer=_buffer_address(ctx, batch, info.indirect, info.indirect_offset_B, False))
    else:
        gx, gy, gz = info.grid
        if gx * gy * gz == 0:
            return
        launch.update(grid_x_tg=gx, grid_y_tg=gy, grid_z_tg=gz)
    if batch.launches:
        batch.cdm += P.pack("CDM_BARRIER")
    batch.cdm += P.pack("CDM_LAUNCH", **launch)
    batch.launches += 1
