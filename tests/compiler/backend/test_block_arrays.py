"""Arrays of uniform and storage blocks indexed with dynamically uniform expressions
(GLSL 4.30 sections 4.3.9 and 4.1.9): one buffer per element, the element's address
selected in the shader; arrays inside blocks indexed dynamically too. Run on the
shader core against numpy."""

import numpy as np
import pytest

from compiler.compile import compile_glsl
from compiler.glsl import GLSLCompileError, parse
from drmshim.gpu.usc import ExecContext

from .harness import Run

SRC = """#version 430
layout(local_size_x = 64) in;
layout(std140, binding = 1) uniform Params { vec4 scale[4]; int pick; } params[3];
layout(std430, binding = 2) buffer Data { uint n; float v[]; } data[2];
uniform int which;
void main() {
  uint i = gl_GlobalInvocationID.x;
  int w = which & 1;
  data[w].v[i] = params[which].scale[i % 4u].y * float(params[(which + 1) % 3].pick)
                 + data[1 - w].v[i] + float(data[w].v.length());
  atomicAdd(data[w].n, 1u);
}"""
UBO_VA = 0x1_0030_0000
N = 64


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


@pytest.mark.parametrize("which", [0, 1, 2])
def test_dynamically_indexed_block_arrays(which):
    c = compile_glsl(SRC, "compute")
    rng = np.random.default_rng(5 + which)
    scale = rng.uniform(-2, 2, (3, 4, 4)).astype(np.float32)
    pick = np.array([3, -2, 7], np.int32)
    ubos = []
    for k in range(3):
        block = np.zeros(20, np.float32)
        block[:16] = scale[k].reshape(-1)
        block[16] = pick[k:k + 1].view(np.float32)[0]
        ubos.append(block)
    lengths = (N, N + 5)
    data = [np.zeros(1 + n, np.float32) for n in lengths]
    for d in data:
        d[1:] = rng.uniform(-1, 1, d.size - 1)
    before = [d.copy() for d in data]
    extra = {("ubo_address", 2 + k): UBO_VA + 0x1000 * k for k in range(3)}

    def setup(mem):
        for k in range(3):
            mem.write(UBO_VA + 0x1000 * k, ubos[k].view(np.uint8), "test")
    default = np.zeros(max(1, c.info.uniform_regs_B // 4), np.int32)
    default[c.info.uniforms["which"].offset_B // 4] = which
    ctx = ExecContext.for_compute((1, 1, 1), (N, 1, 1))
    _, out = _Compiled(c).core(N, ssbos={2: data[0].view(np.uint8), 3: data[1].view(np.uint8)}, ctx=ctx,
                               extra=extra, setup=setup, default_uniforms=default)
    w = which & 1
    got = out[2 + w].view(np.float32)
    i = np.arange(N)
    want = scale[which, i % 4, 1] * np.float32(pick[(which + 1) % 3]) + before[1 - w][1:N + 1] + lengths[w]
    np.testing.assert_allclose(got[1:N + 1], want, rtol=1e-6)
    assert got[:1].view(np.uint32)[0] == N
    other = out[2 + (1 - w)].view(np.float32)
    np.testing.assert_array_equal(other, before[1 - w])


def test_uniform_block_arrays_need_constant_indices_before_400():
    src = """#version 330
layout(std140) uniform P { vec4 s; } p[3];
uniform int w;
out vec4 o;
void main() { o = p[w].s; }
"""
    with pytest.raises(GLSLCompileError) as e:
        parse(src, "fragment")
    assert ("0:5(19): error: uniform block arrays indexed with non-constant expressions are forbidden "
            "in GLSL 3.30") in e.value.info_log.splitlines()
    assert parse(src.replace("#version 330", "#version 400"), "fragment").main is not None
