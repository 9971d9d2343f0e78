"""gl_HelperInvocation (GLSL ES 3.10 section 7.1.2): true in the lanes that run only
for derivatives; read from the shader core's helper_invocation register."""

import numpy as np

from compiler.compile import compile_glsl
from compiler.glsl import GLSLCompileError, parse
from compiler.ir import ShaderKey
from compiler.lower import RenderTarget
from drmshim.gpu.usc import ExecContext

from .harness import Run

SRC = """#version 310 es
precision highp float;
in vec2 uv;
layout(location = 0) out highp uvec4 o;
void main() { o = uvec4(gl_HelperInvocation ? 7u : 3u, floatBitsToUint(dFdx(uv.x)), 0u, 0u); }"""


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def test_helper_lanes_see_true():
    c = compile_glsl(SRC, "fragment", ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))
    lanes = 8
    helper = np.array([0, 1, 0, 0, 1, 1, 1, 0], bool)
    ui = c.info.varying("VAR0").index
    coef = np.zeros((ui + 2, 3, lanes), np.float32)
    coef[0, 2] = 1.0
    coef[ui, 0] = 0.5                                   # uv.x = x / 2: dFdx = 0.5 in every quad
    lane = np.arange(lanes) % 4
    pos = np.stack([lane % 2 + 0.5, lane // 2 + 0.5]).astype(np.float32)
    ctx = ExecContext(lanes=lanes, quads=True, helper=helper, coefficients=coef, position_px=pos,
                      tile_buffer=np.zeros((lanes, 16), np.uint8), tile_index=np.arange(lanes))
    ctx, _ = _Compiled(c).core(lanes, ctx=ctx)
    out = ctx.tile_buffer.view(np.uint32)
    live = ~helper
    assert (out[live, 0] == 3).all()                    # helpers write nothing
    assert (out[live, 1].view(np.float32) == 0.5).all()
    assert (out[helper] == 0).all()


def test_gl_helper_invocation_is_es31_only():
    src = "#version 300 es\nprecision highp float;\nout vec4 c;\nvoid main() { c = vec4(gl_HelperInvocation); }\n"
    try:
        parse(src, "fragment")
        raise AssertionError("accepted")
    except GLSLCompileError as e:
        assert "0:4(24): error: `gl_HelperInvocation' undeclared" in e.info_log.splitlines()
