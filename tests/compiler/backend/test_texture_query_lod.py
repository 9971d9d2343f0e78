"""textureQueryLod, computed in the shader from derivatives (compiler.ir.passes.tex),
on the shader core with the real texture unit's size and level queries, against the
LOD worked out by hand (log2 of the larger texel footprint, clamped to the levels)."""

import numpy as np
import pytest

from compiler.compile import compile_glsl
from compiler.ir import ShaderKey
from compiler.lower import RenderTarget
from drmshim.gpu.usc import ExecContext

from .harness import Run

SRC = """#version 400
uniform sampler2D t;
in vec2 uv;
layout(location = 0) out uvec4 o;
void main() { o = floatBitsToUint(vec4(textureQueryLod(t, uv), 0.0, 0.0)); }"""


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


# the driver's sampler_lod_parameters: (min LOD, max LOD, bias, mip filter 0 none / 1 nearest / 2 linear)
DEFAULT_SAMPLER = (-1000.0, 1000.0, 0.0, 2.0)


def _expected(lam, levels, min_lod, max_lod, bias, mip):
    """ARB_texture_query_lod by hand: y = lambda + bias; x = the accessed level."""
    y = lam + bias
    c = np.clip(np.clip(y, min_lod, max_lod), 0, levels - 1)
    x = np.zeros_like(c) if mip == 0 else np.ceil(c + 0.5) - 1 if mip == 1 else c
    return x, y


@pytest.mark.parametrize("params", [DEFAULT_SAMPLER, (0.5, 2.5, 1.0, 1.0), (-1000.0, 1000.0, -1.25, 1.0),
                                    (1.0, 3.0, 0.0, 0.0), (-1000.0, 1000.0, 0.5, 2.0)],
                         ids=["default", "bias-clamped-nearest", "negative-bias-nearest", "no-mipmap", "bias-linear"])
def test_texture_query_lod_from_derivatives(params):
    import layout
    from drmshim.gpu import texture
    from uapi import packets as P

    c = compile_glsl(SRC, "fragment", ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))
    side, levels = 16, 5
    # texels per pixel along x and y for each quad: LOD = log2(max)
    footprints = [(4.0, 2.0), (1.0, 0.5), (0.25, 0.125), (64.0, 3.0), (1.5, 2.5)]
    lanes = 4 * len(footprints)
    q, lane = np.arange(lanes) // 4, np.arange(lanes) % 4
    px = (2 * q + lane % 2).astype(np.float32)
    py = (lane // 2).astype(np.float32)
    ui = c.info.varying("VAR0").index
    coef = np.zeros((ui + 2, 3, lanes), np.float32)
    coef[0, 2] = 1.0
    fx = np.array([f[0] for f in footprints], np.float32)[q]
    fy = np.array([f[1] for f in footprints], np.float32)[q]
    coef[ui, 0], coef[ui, 2] = fx / side, 0.1
    coef[ui + 1, 1], coef[ui + 1, 2] = fy / side, 0.2
    ctx = ExecContext(lanes=lanes, quads=True, coefficients=coef, position_px=np.stack([px + 0.5, py + 0.5]),
                      tile_buffer=np.zeros((lanes, 16), np.uint8), tile_index=np.arange(lanes),
                      specials={"pixel_x": px.astype(np.uint32), "pixel_y": py.astype(np.uint32)})
    lay = layout.make_miptree(side, side, 1, levels, "R8G8B8A8_UNORM", 1, "twiddled")
    heap = 0x1_0030_0000
    ctx.texture_heap_va, ctx.sampler_heap_va = heap, heap + 0x800

    def setup(mem):
        mem.write(heap + 0x1000, np.zeros(lay.size_B, np.uint8), "t")
        mem.write(heap, P.pack(P.TEXTURE, format_id=texture.format_id("R8G8B8A8_UNORM"), tiling="TWIDDLED",
                               width_px=side, height_px=side, levels=levels, last_level=levels - 1,
                               address=heap + 0x1000, layer_stride_B=lay.layer_stride_B), "t")
        mem.write(heap + 0x800, P.pack(P.SAMPLER, min_filter="LINEAR", mag_filter="LINEAR", mip_filter="LINEAR"),
                  "t")
    ctx, _ = _Compiled(c).core(lanes, ctx=ctx, setup=setup, extra={("sampler_lod_parameters", 0): params})
    out = ctx.tile_buffer.view(np.float32)
    lam = np.log2(np.maximum(fx, fy))
    x, y = _expected(lam, levels, *params)
    np.testing.assert_allclose(out[:, 1], y, atol=1e-5)
    np.testing.assert_allclose(out[:, 0], x, atol=1e-5)
