"""Default-block uniforms that do not fit the 1 KiB of uniform registers (with what
the backend adds after them: buffer and attribute addresses) are read from UBO 0,
as Mesa's AGX pushes what fits and reads the rest from memory. Run on the shader
core against numpy."""

import numpy as np

from compiler.compile import compile_glsl

from .harness import CODE_VA, Run

UBO0_VA = 0x1_0020_0000
ATTR_VA = 0x1_0030_0000


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def _run_vertex(c, lanes, attrs: dict, values: dict):
    """Fill the register block and UBO 0 from ``values`` {uniform leaf: array} by the
    compiler's own map; ``attrs`` {location: (lanes, 4) float32}."""
    info = c.info
    regs = np.zeros(256, np.float32)
    ubo0 = np.zeros(4096, np.float32)
    for name, v in values.items():
        u = info.uniforms[name]
        flat = np.asarray(v, np.float32).reshape(-1)
        (regs if u.file == "regs" else ubo0)[u.offset_B // 4:][:flat.size] = flat
    extra = {("ubo_address", 0): UBO0_VA}
    for loc in attrs:
        extra[("attribute_address", loc)] = ATTR_VA + 0x10000 * loc
        extra[("attribute_stride", loc)] = 16

    def setup(mem):
        mem.write(UBO0_VA, ubo0.view(np.uint8), "test")
        for loc, a in attrs.items():
            mem.write(ATTR_VA + 0x10000 * loc, np.ascontiguousarray(a, np.float32).view(np.uint8), "test")
    ctx, _ = _Compiled(c).core(lanes, extra=extra, default_uniforms=regs[:info.uniform_regs_B // 4 + 1],
                               setup=setup)
    return ctx.varyings.view(np.float32)


def test_uniforms_past_the_register_file_are_read_from_ubo0():
    src = """#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
uniform vec4 table[60];
uniform mat4 mvp;
uniform vec4 tint;
uniform float scale;
out vec4 c;
void main() {
  gl_Position = mvp * pos;
  c = col * tint * scale + table[7] + table[59];
}"""
    c = compile_glsl(src, "vertex")
    files = {n: u.file for n, u in c.info.uniforms.items()}
    assert files["table"] == "regs" and "ubo" in (files["mvp"], files["tint"], files["scale"])
    assert c.info.uniform_regs_B <= 1024 and max(s.index + s.words for s in c.uniforms) <= 256
    rng = np.random.default_rng(3)
    lanes = 16
    pos, col = rng.uniform(-1, 1, (2, lanes, 4)).astype(np.float32)
    table = rng.uniform(-1, 1, (60, 4)).astype(np.float32)
    mvp = rng.uniform(-1, 1, (4, 4)).astype(np.float32)      # columns
    tint = rng.uniform(-1, 1, 4).astype(np.float32)
    out = _run_vertex(c, lanes, {0: pos, 1: col},
                      {"table": table, "mvp": mvp, "tint": tint, "scale": [2.5]})
    assert np.allclose(out[0:4].T, pos @ mvp, rtol=1e-5, atol=1e-6)
    ci = c.info.varying("VAR0").index
    assert np.allclose(out[ci:ci + 4].T, col * tint * np.float32(2.5) + table[7] + table[59], rtol=1e-5, atol=1e-6)


def test_a_uniform_array_too_large_for_registers_is_indexed_in_ubo0():
    src = """#version 330
layout(location = 0) in vec4 pos;
uniform vec4 small;
uniform vec4 big[300];
flat out vec4 c;
void main() {
  gl_Position = pos;
  c = big[gl_VertexID * 7 + 1] + small;
}"""
    c = compile_glsl(src, "vertex")
    assert c.info.uniforms["big"].file == "ubo" and c.info.uniforms["small"].file == "regs"
    rng = np.random.default_rng(4)
    lanes = 32
    pos = rng.uniform(-1, 1, (lanes, 4)).astype(np.float32)
    big = rng.uniform(-1, 1, (300, 4)).astype(np.float32)
    small = np.array([1, 2, 3, 4], np.float32)
    out = _run_vertex(c, lanes, {0: pos}, {"big": big, "small": small})
    ci = c.info.varying("VAR0").index
    assert np.allclose(out[ci:ci + 4].T, big[np.arange(lanes) * 7 + 1] + small)
