"""A blitter of Gallium's kind (util_blitter): blits a hardware driver cannot do with
its own copy path, drawn as a quad through the pipe interface.

Sole responsibility: one ``BlitInfo`` from a 2D image (layers of arrays and cubes) as draws:

- depth: a fragment program writes ``gl_FragDepth`` from ``texelFetch`` of the
  source (depth and stencil blits are NEAREST by rule);
- stencil: without stencil export, as Mesa's util_blitter does: the covered
  stencil is first written 0, then one pass per bit sets that bit (stencil
  write mask = the bit, op REPLACE, reference 0xFF) where the source has it,
  discarding the other fragments;
- integer colour: ``texelFetch`` into an integer output (NEAREST by rule);
- colour into a multisampled destination: the value lands in every sample.

The caller saves and restores the bound state the draws change (Gallium's
util_blitter_save_* contract): every setter the blitter calls is listed in
``Blitter.STATE``. A multisampled source is read at the sample the program runs for
(``gl_SampleID``: per-sample shading), so a multisampled destination of the same
count gets each sample's own value and a single-sampled one sample 0 (depth, stencil,
integer; unscaled, as GL requires). Returns False for what it does not handle (float
resolves, which the hardware driver does itself, 1D and 3D sources); array layers
are blitted one draw each.

The programs come from the layer above (``programs(kind, ms)``, given to the
pipe as ``PipeContext.blit_programs``; the GL front end's are
``driver.gl.blit_programs``), as IR the compiler made (``.vertex`` and
``.fragment``: ``compiler.variant.StageIR``), with the layout of their default
uniform block (``.block``, ``compiler.link.DefaultBlock``); the pipe never
parses GLSL. What the blitter feeds them: the attribute ``pos`` at location 0
(the quad's corners in clip space), the sampler ``src`` on unit 0 (the source
level and layer: a 2D view, multisampled when the source is), and the uniforms
``box`` (source x, y, destination x, y), ``size`` (source width, height,
destination width, height; negative sizes flip), ``bit`` (the stencil bit a
pass sets, -1 for the others) and, for float blits, ``inv_size`` (1 / the source
level's width and height); colour programs write ``o`` at location 0, depth ones
gl_FragDepth, the stencil ones discard where the source lacks ``bit``. Kinds:
"depth", "stencil", "int", "uint", "float" (a float source is never
multisampled here)."""

from __future__ import annotations

import struct

from .defines import (
    PIPE_MAX_COLOR_BUFS, PipeCompareFunc, PipeFormat, PipeMask, PipePrim, PipeShaderType, PipeStencilOp,
    PipeTexFilter, PipeTexMipFilter, PipeTexWrap, PipeTextureTarget,
)
from .state import (
    BlendState, ConstantBuffer, DepthStencilAlphaState, DrawInfo, DrawStartCountBias,
    FramebufferState, RasterizerState, RtBlendState, SamplerState, SamplerView, ScissorState,
    ShaderState, StencilState, Surface, VertexBuffer, VertexElement, ViewportState,
)

__all__ = ["Blitter"]

_STENCIL_VIEW = {"Z24_UNORM_S8_UINT": PipeFormat.X24S8_UINT, "Z32_FLOAT_S8X24_UINT": PipeFormat.S8X24_UINT,
                 "S8_UINT": PipeFormat.S8_UINT}


class Blitter:
    """Draw-based blits over one pipe context (its ``create_shader_state`` compiles)."""

    # the pipe setters the blits call: the caller saves and restores these
    STATE = ("blend", "depth_stencil_alpha", "rasterizer", "vertex_elements", "vertex_buffers",
             "shaders", "constant_buffer 0", "sampler_states 0", "sampler_views 0", "framebuffer",
             "viewport", "scissor", "stencil_ref", "sample_mask", "min_samples", "stream_output_targets")

    def __init__(self, pipe, programs):
        self.pipe, self.programs = pipe, programs
        self._shaders: dict[str, tuple] = {}

    # -- programs ---------------------------------------------------------------------------
    def _program(self, kind: str, ms: bool):
        got = self._shaders.get((kind, ms))
        if got is None:
            # the layer above built the programs (IR, never GLSL here); the blitter makes their CSOs
            p = self.programs(kind, ms)
            info = {"attributes": {"pos": 0}, "frag_outputs": {"o": 0} if kind in ("int", "uint", "float") else {},
                    "default_block": p.block, "uniform_blocks": {}, "storage_blocks": {},
                    "atomic_counter_buffers": {}, "samplers": {"src": (0, 1)}, "images": {}, "local_size": None}
            vs = self.pipe.create_shader_state(ShaderState(PipeShaderType.VERTEX, p.vertex, p.vertex.source,
                                                           dict(info, samplers={})))
            fs = self.pipe.create_shader_state(ShaderState(PipeShaderType.FRAGMENT, p.fragment, p.fragment.source,
                                                           info))
            got = self._shaders[(kind, ms)] = (vs, fs, p.block)
        return got

    def destroy(self) -> None:
        for vs, fs, _block in self._shaders.values():
            self.pipe.delete_shader_state(vs)
            self.pipe.delete_shader_state(fs)
        self._shaders.clear()

    # -- blits ------------------------------------------------------------------------------
    def blit(self, info, *, depth_plane: bool, stencil_plane: bool, integer: str | None) -> bool:
        """Do ``info`` with draws. ``depth_plane``/``stencil_plane``: the destination has
        them; ``integer``: "int"/"uint" for integer colour formats, else None."""
        src, dst = info.src, info.dst
        sres, dres = src.resource, dst.resource
        ms = sres.template.nr_samples > 1
        if ms and (info.mask & PipeMask.RGBA and integer is None or
                   (abs(src.box.width), abs(src.box.height)) != (abs(dst.box.width), abs(dst.box.height))):
            return False        # float resolves are the hardware driver's; resolves never scale
        if sres.template.target not in (
                PipeTextureTarget.TEXTURE_2D, PipeTextureTarget.TEXTURE_RECT, PipeTextureTarget.TEXTURE_2D_ARRAY,
                PipeTextureTarget.TEXTURE_CUBE):
            return False
        sb, db = src.box, dst.box
        if not (sb.width and sb.height and db.width and db.height):
            return True
        layers = max(1, min(abs(sb.depth), abs(db.depth)))
        for k in range(layers):
            if info.mask & PipeMask.Z and depth_plane:
                self._draw(info, "depth", src.format, sb.z + k, db.z + k, zs=True)
            if info.mask & PipeMask.S and stencil_plane:
                fmt = _STENCIL_VIEW.get(src.format.value)
                if fmt is None:
                    return False
                self._draw(info, "stencil", fmt, sb.z + k, db.z + k, zs=True)
            if info.mask & PipeMask.RGBA:
                self._draw(info, integer or "float", src.format, sb.z + k, db.z + k, zs=False)
        return True

    def _draw(self, info, kind: str, view_format: PipeFormat, src_layer: int, dst_layer: int, zs: bool) -> None:
        ms = info.src.resource.template.nr_samples > 1
        p = self.pipe
        src, dst = info.src, info.dst
        sres, dres = src.resource, dst.resource
        sb, db = src.box, dst.box
        w, h = _level_size(dres, dst.level)
        sw, sh = _level_size(sres, src.level)
        surf = Surface(dres, dst.format, dst.level, dst_layer, dst_layer)
        p.set_framebuffer_state(FramebufferState(w, h, cbufs=() if zs else (surf,), zsbuf=surf if zs else None,
                                                 samples=dres.template.nr_samples or 1))
        p.set_viewport_states(0, [ViewportState.from_gl(0, 0, w, h, 0.0, 1.0)])
        x0, x1 = sorted((db.x, db.x + db.width))
        y0, y1 = sorted((db.y, db.y + db.height))
        sc = ScissorState(max(x0, 0), max(y0, 0), min(x1, w), min(y1, h))
        if info.scissor is not None:
            s = info.scissor
            sc = ScissorState(max(sc.minx, s.minx), max(sc.miny, s.miny), min(sc.maxx, s.maxx), min(sc.maxy, s.maxy))
        if sc.maxx <= sc.minx or sc.maxy <= sc.miny:
            return
        p.set_scissor_states(0, [sc])
        p.bind_rasterizer_state(p.create_rasterizer_state(RasterizerState(scissor=True)))
        mask = int(info.mask & PipeMask.RGBA)
        rts = (RtBlendState(colormask=mask if not zs else 0),) + (RtBlendState(colormask=0),) * (PIPE_MAX_COLOR_BUFS - 1)
        p.bind_blend_state(p.create_blend_state(BlendState(rt=rts)))
        p.set_sample_mask(0xFFFFFFFF)
        p.set_min_samples(1)
        p.set_stream_output_targets([], [])
        vs, fs, block = self._program(kind, ms)
        p.bind_shader_state(PipeShaderType.VERTEX, vs)
        p.bind_shader_state(PipeShaderType.FRAGMENT, fs)
        view = SamplerView(sres, view_format, PipeTextureTarget.TEXTURE_2D, src.level, src.level,
                           src_layer, src_layer)
        linear = kind == "float" and info.filter == PipeTexFilter.LINEAR
        filt = PipeTexFilter.LINEAR if linear else PipeTexFilter.NEAREST
        smp = p.create_sampler_state(SamplerState(
            wrap_s=PipeTexWrap.CLAMP_TO_EDGE, wrap_t=PipeTexWrap.CLAMP_TO_EDGE, wrap_r=PipeTexWrap.CLAMP_TO_EDGE,
            min_img_filter=filt, mag_img_filter=filt, min_mip_filter=PipeTexMipFilter.NONE))
        p.bind_sampler_states(PipeShaderType.FRAGMENT, 0, [smp])
        p.set_sampler_views(PipeShaderType.FRAGMENT, 0, [view])
        quad = struct.pack("<8f", -1, -1, 1, -1, -1, 1, 1, 1)
        p.bind_vertex_elements_state(p.create_vertex_elements_state(
            (VertexElement(0, 0, PipeFormat.R32G32_FLOAT, 8),)))
        p.set_vertex_buffers([VertexBuffer(None, 0, quad)])

        def draw(bit: int, dsa: DepthStencilAlphaState, ref: int) -> None:
            at = dict(block.offsets)
            cb = bytearray(-(-block.size_B // 16) * 16)
            struct.pack_into("<4f", cb, at["box"], sb.x, sb.y, db.x, db.y)
            struct.pack_into("<4f", cb, at["size"], sb.width, sb.height, db.width, db.height)
            struct.pack_into("<i", cb, at["bit"], bit)
            if "inv_size" in at:
                struct.pack_into("<2f", cb, at["inv_size"], 1.0 / sw, 1.0 / sh)
            cb = bytes(cb)
            for stage in (PipeShaderType.VERTEX, PipeShaderType.FRAGMENT):
                p.set_constant_buffer(stage, 0, ConstantBuffer(None, 0, len(cb), cb))
            p.bind_depth_stencil_alpha_state(p.create_depth_stencil_alpha_state(dsa))
            p.set_stencil_ref(ref, ref)
            p.draw_vbo(DrawInfo(PipePrim.TRIANGLE_STRIP), 0, None, [DrawStartCountBias(0, 4)])

        if kind == "depth":
            draw(-1, DepthStencilAlphaState(depth_enabled=True, depth_writemask=True,
                                            depth_func=PipeCompareFunc.ALWAYS), 0)
        elif kind == "stencil":
            for bit in range(-1, 8):
                st = StencilState(True, PipeCompareFunc.ALWAYS, PipeStencilOp.REPLACE, PipeStencilOp.REPLACE,
                                  PipeStencilOp.REPLACE, 0xFF, 0xFF if bit < 0 else 1 << bit)
                draw(bit, DepthStencilAlphaState(depth_enabled=False, stencil=(st, st)), 0 if bit < 0 else 0xFF)
        else:
            draw(-1, DepthStencilAlphaState(), 0)


def _level_size(res, level: int) -> tuple[int, int]:
    t = res.template
    return max(1, t.width_px >> level), max(1, t.height_px >> level)
