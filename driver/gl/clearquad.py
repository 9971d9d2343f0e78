"""Clears that pipe.clear cannot express (partial colour or stencil write
masks, and scissored depth/stencil clears, which the hardware's clear at tile
start cannot limit to a rectangle) are drawn as a full-framebuffer quad, as
Mesa's st_Clear does with clear_with_quad: a tiny internal program writes the
clear values while the GL write masks and scissor stay in force."""

from __future__ import annotations

import struct

from driver.gallium import (
    BlendState, ConstantBuffer, DepthStencilAlphaState, DrawInfo, DrawStartCountBias,
    PipeCompareFunc, PipeFormat, PipePrim, PipeShaderType, PipeStencilOp, RasterizerState,
    RtBlendState, StencilState, VertexBuffer, VertexElement, ViewportState,
    PIPE_MAX_COLOR_BUFS,
)
from driver.gl import enums as E
from driver.gl.glsl import compile_glsl
from driver.gl.objects import Program, Shader
from driver.gl import pipestate as ps

__all__ = ["ClearQuadMixin"]

_VS = """#version 330
layout(location = 0) in vec2 pos;
uniform float depth;
void main() { gl_Position = vec4(pos, depth, 1.0); }
"""


def _fs(n: int) -> str:
    outs = "".join(f"layout(location = {i}) out vec4 o{i};\n" for i in range(n))
    body = "".join(f"    o{i} = color;\n" for i in range(n))
    return f"#version 330\nuniform vec4 color;\n{outs}void main() {{\n{body}}}\n"


class ClearQuadMixin:
    def _internal_program(self, vs: str, fs: str, int_uniform=None):
        """A linked program of the driver's own vertex and fragment sources,
        with its pipe shaders; `int_uniform(name)` gives the initial value of
        an int uniform (a sampler's unit), None to leave it."""
        prog = Program(0)
        for type, src, stage in ((E.GL_VERTEX_SHADER, vs, "vertex"),
                                 (E.GL_FRAGMENT_SHADER, fs, "fragment")):
            res = compile_glsl(src, stage)
            assert res.ok, f"internal {stage} shader: {res.info_log}\n{src}"
            prog.shaders.append(Shader(0, type, src, True, ast=res.unit))
        prog.linked_state = self._link(prog)
        prog.linked = True
        if int_uniform is not None:
            ls = prog.linked_state
            for u in ls.uniforms:
                value = int_uniform(u.name)
                if value is not None:
                    ls.uniform_storage.pack("<i", u.offset_B, value)
        self._create_pipe_shaders(prog)
        return prog

    def _clear_program(self, n_cbufs: int):
        cache = self.__dict__.setdefault("_clear_programs", {})
        prog = cache.get(n_cbufs)
        if prog is None:
            prog = cache[n_cbufs] = self._internal_program(_VS, _fs(n_cbufs))
        return prog

    def _clear_with_quad(self, fb, color_bits: list[int], depth: bool, stencil: bool,
                         stencil_bits: int, depth_value: float | None = None,
                         stencil_value: int | None = None) -> None:
        """Draw the clear. `color_bits[i]` is the 4-bit write mask of
        colour buffer i (0: leave it alone); the depth and stencil values are
        CLEAR_DEPTH / CLEAR_STENCIL unless given (glClearBuffer). The depth is
        exact: the viewport's depth range is [value, value]."""
        s = self.state
        clear_depth = min(1.0, max(0.0, s.clear_depth if depth_value is None else depth_value))
        clear_stencil = s.clear_stencil if stencil_value is None else stencil_value
        prog = self._clear_program(max(1, len(fb.cbufs)))
        ls = prog.linked_state
        data = bytearray(ls.uniform_data)
        for u in ls.uniforms:
            if u.name == "color":
                struct.pack_into("<4f", data, u.offset_B, *s.clear_color)
            elif u.name == "depth":
                struct.pack_into("<f", data, u.offset_B, 0.0)
        rts = tuple(RtBlendState(colormask=color_bits[i] if i < len(color_bits) else 0)
                    for i in range(PIPE_MAX_COLOR_BUFS))
        self.cso.set_blend(BlendState(rt=rts, independent_blend_enable=True))
        full = (1 << stencil_bits) - 1 if stencil_bits else 0
        st = StencilState(True, PipeCompareFunc.ALWAYS, PipeStencilOp.REPLACE,
                          PipeStencilOp.REPLACE, PipeStencilOp.REPLACE, full,
                          s.stencil[0].write_mask & full) if stencil else StencilState()
        self.cso.set_depth_stencil_alpha(DepthStencilAlphaState(
            depth_enabled=depth, depth_writemask=depth, depth_func=PipeCompareFunc.ALWAYS,
            stencil=(st, st)))
        self.cso.set_rasterizer(RasterizerState(scissor=E.GL_SCISSOR_TEST in s.enabled))
        self.pipe.set_viewport_states(0, [ViewportState.from_gl(0, 0, fb.width_px, fb.height_px,
                                                                clear_depth, clear_depth)])
        self.pipe.set_scissor_states(0, [ps.scissor_state(s, fb.width_px, fb.height_px)])
        self.pipe.set_stencil_ref(clear_stencil & full, clear_stencil & full)
        self.pipe.set_sample_mask(0xFFFFFFFF)
        for stage in (PipeShaderType.VERTEX, PipeShaderType.FRAGMENT):
            self.pipe.bind_shader_state(stage, ls.pipe_shaders[stage])
            self.pipe.set_constant_buffer(stage, 0, ConstantBuffer(None, 0, len(data), bytes(data)))
        quad = struct.pack("<8f", -1, -1, 1, -1, -1, 1, 1, 1)
        res, off = self.uploader.upload(quad)
        self.cso.set_vertex_elements((VertexElement(0, 0, PipeFormat.R32G32_FLOAT, 8),))
        self.pipe.set_vertex_buffers([VertexBuffer(res, off)])
        self.pipe.set_stream_output_targets([], [])
        self.pipe.set_active_query_state(False)         # a clear passes no samples (GL 4.6 section 17.4.3)
        try:
            self.pipe.draw_vbo(DrawInfo(PipePrim.TRIANGLE_STRIP), 0, None, [DrawStartCountBias(0, 4)])
        finally:
            self.pipe.set_active_query_state(True)

