"""interpolateAtCentroid / AtSample / AtOffset select ``iter``'s centroid, at_sample
and at_offset forms; run on the shader core against the planes evaluated
analytically at those positions (numpy)."""

import numpy as np

from compiler.compile import compile_glsl
from compiler.ir import ShaderKey
from compiler.lower import RenderTarget
from drmshim.gpu.usc import ExecContext

from .harness import Run

SRC = """#version 440
in vec3 a;
in vec2 arr[2];
noperspective in float n;
flat in int k;
layout(location = 0) out uvec4 o;
uniform vec2 off;
void main() {
  o = floatBitsToUint(vec4(interpolateAtOffset(a, off).z, interpolateAtSample(arr[1], k).y,
                           interpolateAtCentroid(n), interpolateAtOffset(arr[k % 2].x, off * 0.5)));
}"""
SAMPLES = np.array([[0.375, 0.125], [0.875, 0.375], [0.125, 0.625], [0.625, 0.875]], np.float32)


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def test_interpolate_at_uses_the_iter_forms_and_matches_the_planes():
    c = compile_glsl(SRC, "fragment", ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))
    asm = c.assembly
    assert "iter.persp.at_offset" in asm and "iter.persp.at_sample" in asm and "iter.linear.centroid" in asm
    info = c.info
    lanes = 16
    rng = np.random.default_rng(12)
    px = np.arange(lanes, dtype=np.float32) % 4
    py = np.arange(lanes, dtype=np.float32) // 4
    pos = np.stack([px + 0.5, py + 0.5]).astype(np.float32)
    centroid = pos + rng.uniform(-0.3, 0.3, (2, lanes)).astype(np.float32)
    n_cf = 16
    planes = np.zeros((n_cf, 3), np.float32)
    planes[0] = (0, 0, 1)                                   # W = 1: perspective = linear here
    index = {v.name: v.index for v in info.varyings}
    ai, ri, ni, ki = index["a"], index["arr"], index["n"], index["k"]
    planes[ai:ai + 3] = rng.uniform(-2, 2, (3, 3))
    planes[ri:ri + 4] = rng.uniform(-2, 2, (4, 3))
    planes[ni] = rng.uniform(-2, 2, 3)
    sample = np.arange(lanes) % 4
    coef = np.repeat(planes[:, :, None], lanes, axis=2)
    coef[ki, 2] = sample.astype(np.int32).view(np.float32)  # flat int k: raw bits of the constant term
    ctx = ExecContext(lanes=lanes, coefficients=coef, position_px=pos, centroid_position_px=centroid,
                      sample_offsets_px=SAMPLES, tile_buffer=np.zeros((lanes, 16), np.uint8),
                      tile_index=np.arange(lanes))
    off = np.array([0.25, -0.375], np.float32)
    default = np.zeros(info.uniform_regs_B // 4 + 1, np.float32)
    default[info.uniforms["off"].offset_B // 4:][:2] = off
    ctx, _ = _Compiled(c).core(lanes, ctx=ctx, default_uniforms=default)
    out = ctx.tile_buffer.view(np.float32)

    def ev(p, xy):
        return p[0] * xy[0] + p[1] * xy[1] + p[2]
    at_off = pos + off[:, None]
    at_sample = np.floor(pos) + SAMPLES[sample].T
    np.testing.assert_allclose(out[:, 0], ev(planes[ai + 2], at_off), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[:, 1], ev(planes[ri + 3], at_sample), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[:, 2], ev(planes[ni], centroid), rtol=1e-5, atol=1e-5)
    elem = planes[ri + 2 * (sample % 2)].T                 # arr[k % 2].x: a dynamic element
    np.testing.assert_allclose(out[:, 3], ev(elem, pos + off[:, None] * 0.5), rtol=1e-5, atol=1e-5)
