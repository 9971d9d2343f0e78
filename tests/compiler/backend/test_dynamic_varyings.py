"""Varying arrays indexed dynamically (GLSL 4.30 section 4.3.4/4.3.6: inputs and
outputs may be indexed with any integral expression): the vertex side writes the
element at a lane-varying index, the fragment side reads one; on the shader core."""

import numpy as np

from compiler.compile import compile_glsl
from compiler.ir import ShaderKey
from compiler.lower import RenderTarget
from drmshim.gpu.usc import ExecContext, ShaderCore

from .harness import CODE_VA, Run


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def test_vertex_outputs_written_at_a_dynamic_index():
    src = """#version 430
layout(location = 0) in vec4 p;
out vec4 arr[3];
void main() {
  gl_Position = p;
  for (int i = 0; i < 3; i++) arr[i] = vec4(float(i));
  arr[gl_VertexID % 3] = p * 2.0;
}"""
    c = compile_glsl(src, "vertex")
    lanes = 12
    pos = np.random.default_rng(2).uniform(-1, 1, (lanes, 4)).astype(np.float32)
    va = 0x1_0030_0000
    run = _Compiled(c)
    ctx = ExecContext(lanes=lanes, specials={"vertex_id": np.arange(lanes, dtype=np.uint32), "instance_id": 0})
    ctx, _ = run.core(lanes, ctx=ctx, extra={("attribute_address", 0): va, ("attribute_stride", 0): 16})
    run.mem.write(va, pos.view(np.uint8), "test")
    ShaderCore(run.mem, debug=True).run(CODE_VA, ctx)
    out = ctx.varyings.view(np.float32)
    base = c.info.varying("VAR0").index
    for e in range(3):
        want = np.where((np.arange(lanes) % 3 == e)[:, None], pos * 2, np.float32(e))
        np.testing.assert_array_equal(out[base + 4 * e:base + 4 * e + 4].T, want)


def test_fragment_inputs_read_at_a_dynamic_index():
    src = """#version 430
in vec4 arr[3];
flat in int k;
layout(location = 0) out uvec4 o;
void main() { o = floatBitsToUint(arr[k] + arr[(k + 1) % 3]); }"""
    c = compile_glsl(src, "fragment", ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))
    index = {v.name: v.index for v in c.info.varyings}
    lanes = 9
    rng = np.random.default_rng(3)
    vals = rng.uniform(-1, 1, (3, 4, lanes)).astype(np.float32)
    k = np.arange(lanes) % 3
    coef = np.zeros((max(index.values()) + 12, 3, lanes), np.float32)
    coef[0, 2] = 1.0
    for e in range(3):
        coef[index["arr"] + 4 * e:index["arr"] + 4 * e + 4, 2] = vals[e]
    coef[index["k"], 2] = k.astype(np.int32).view(np.float32)
    ctx = ExecContext(lanes=lanes, coefficients=coef, position_px=np.zeros((2, lanes), np.float32),
                      tile_buffer=np.zeros((lanes, 16), np.uint8), tile_index=np.arange(lanes))
    ctx, _ = _Compiled(c).core(lanes, ctx=ctx)
    lane = np.arange(lanes)
    want = vals[k, :, lane] + vals[(k + 1) % 3, :, lane]
    np.testing.assert_array_equal(ctx.tile_buffer.view(np.float32), want)
