"""Constant promotion: 32-bit constants that are not 8-bit immediates move from
``mov_imm`` to uniform registers the driver fills (slot kind ``constant``); the
program computes the same on the shader core, with fewer instructions."""

import struct

import numpy as np

from compiler.backend import compile_ir
from compiler.compile import front_half
from compiler.ir import ShaderKey
from compiler.lower import RenderTarget
from drmshim.gpu.usc import ExecContext

from .harness import Run

SRC = """#version 330
in vec4 v;
layout(location = 0) out uvec4 o;
void main() {
  vec4 a = v * 3.14159 + 2.71828;
  if (v.x > 0.3) a = a * 1234.5 - 3.14159;
  o = floatBitsToUint(a * 0.1234 + vec4(1.1, 2.2, 3.3, 4.4));
}"""


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _run(c, v):
    lanes = v.shape[1]
    coef = np.zeros((6, 3, lanes), np.float32)
    coef[0, 2] = 1.0
    coef[2:6, 2] = v
    ctx = ExecContext(lanes=lanes, coefficients=coef, position_px=np.zeros((2, lanes), np.float32),
                      tile_buffer=np.zeros((lanes, 16), np.uint8), tile_index=np.arange(lanes))
    ctx, _ = _Compiled(c).core(lanes, ctx=ctx)
    return ctx.tile_buffer.view(np.float32)


def test_large_constants_become_uniforms():
    shader, info = front_half(SRC, "fragment",
                              ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))
    assert info.varying("VAR0").index == 2
    on, off = compile_ir(shader, info), compile_ir(shader, info, promote=False)
    consts = {s.binding for s in on.uniforms if s.kind == "constant"}
    assert {_f32_bits(x) for x in (3.14159, 2.71828, 1234.5, 0.1234, 1.1, 2.2, 3.3, 4.4)} <= consts
    assert not [s for s in off.uniforms if s.kind == "constant"]
    assert on.assembly.count("mov_imm") == 0 < off.assembly.count("mov_imm")
    assert on.stats.instrs < off.stats.instrs
    v = np.random.default_rng(1).uniform(-1, 1, (4, 32)).astype(np.float32)
    a = v * np.float32(3.14159) + np.float32(2.71828)
    a = np.where(v[0] > np.float32(0.3), a * np.float32(1234.5) - np.float32(3.14159), a)
    want = (a * np.float32(0.1234) + np.array([1.1, 2.2, 3.3, 4.4], np.float32)[:, None]).T
    np.testing.assert_allclose(_run(on, v), want, rtol=1e-6)
    np.testing.assert_array_equal(_run(on, v), _run(off, v))


def test_promotion_stops_when_the_uniform_registers_are_full():
    body = " + ".join(f"v.x * {1000.5 + k}" for k in range(300))
    src = f"#version 330\nin vec4 v;\nout vec4 o;\nvoid main() {{ o = vec4({body}); }}"
    shader, info = front_half(src, "fragment")
    c = compile_ir(shader, info)
    assert max(s.index + s.words for s in c.uniforms) <= 256
    assert 200 < len([s for s in c.uniforms if s.kind == "constant"]) and "mov_imm" in c.assembly
