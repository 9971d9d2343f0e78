"""Vertex and fragment shaders from GLSL, end to end on the shader core, with
the lowering's conventions: attribute fetch, st_var at each varying's index,
coefficient registers (iter persp/linear, ldcf), derivatives in quads,
gl_FragCoord, discard, gl_FragDepth and st_tile to the key's render target.
Also the faces: SHIMGL_DEBUG=shaderdb/shaders and ``shimgl compile``."""

import subprocess
import sys

import numpy as np

from compiler.compile import compile_glsl
from compiler.ir import ShaderKey
from compiler.lower import RenderTarget
from drmshim.gpu.usc import ExecContext

from .harness import CODE_VA, Run

FRAG = """#version 330
in vec4 v; flat in int k; noperspective in vec2 w;
layout(location = 0) out uvec4 o;
void main() {
  vec4 d = vec4(dFdx(v.x), dFdy(v.y), fwidth(v.z), 0.0);
  if (v.w < 0.2) discard;
  o = floatBitsToUint(vec4(v.x * 2.0 + float(k), w.y, d.x + d.y + d.z, gl_FragCoord.x + gl_FragCoord.y));
  gl_FragDepth = v.y;
}"""


class _Compiled(Run):
    def __init__(self, compiled):
        self.compiled = compiled


def test_fragment_shader_from_glsl():
    key = ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),))
    c = compile_glsl(FRAG, "fragment", key)
    info = c.info
    lanes = 64
    q, lane = np.arange(lanes) // 4, np.arange(lanes) % 4
    px = (2 * (q % 4) + lane % 2).astype(np.float32)
    py = (2 * (q // 4) + lane // 2).astype(np.float32)
    pos = np.stack([px + 0.5, py + 0.5]).astype(np.float32)
    rng = np.random.default_rng(8)
    n_cf = 16
    planes = np.zeros((n_cf, 3), np.float32)
    planes[0] = (0, 0, 1)                                     # W: 1/w = 1
    vi, ki, wi = (info.varying(s).index for s in ("VAR0", "VAR1", "VAR2"))
    planes[vi:vi + 4] = rng.uniform(-0.2, 0.2, (4, 3))
    planes[vi + 3] = (0.01, 0.02, 0.1)                        # v.w < 0.2 on the lower left pixels
    planes[ki] = (0, 0, np.int32(7).view(np.float32))          # flat int: raw bits in the constant term
    planes[wi:wi + 2] = rng.uniform(-1, 1, (2, 3))
    coef = np.repeat(planes[:, :, None], lanes, axis=2)
    ctx = ExecContext(lanes=lanes, quads=True, coefficients=coef, position_px=pos,
                      tile_buffer=np.zeros((lanes, 16), np.uint8), tile_index=np.arange(lanes),
                      specials={"pixel_x": px.astype(np.uint32), "pixel_y": py.astype(np.uint32)})
    ctx, _ = _Compiled(c).core(lanes, ctx=ctx)
    ev = lambda p: (p[0] * pos[0] + p[1] * pos[1] + p[2]).astype(np.float32)  # noqa: E731
    v = [ev(planes[vi + i]) for i in range(4)]
    keep = v[3] >= 0.2
    assert 0 < keep.sum() < lanes and (ctx.discarded == ~keep).all()
    out = ctx.tile_buffer.view(np.uint32).view(np.float32)
    assert np.allclose(out[keep, 0], (v[0] * 2 + 7)[keep], rtol=1e-6)
    assert np.allclose(out[keep, 1], ev(planes[wi + 1])[keep], rtol=1e-6)
    deriv = planes[vi][0] + planes[vi + 1][1] + abs(planes[vi + 2][0]) + abs(planes[vi + 2][1])
    assert np.allclose(out[keep, 2], deriv, atol=1e-5)
    assert np.allclose(out[keep, 3], (px + py + 1)[keep])
    assert np.allclose(ctx.depth[keep], v[1][keep]) and ctx.depth_written[keep].all()
    assert c.cf_count >= wi + 2 and c.discards and c.writes_depth


VERT = """#version 330
layout(location = 0) in vec4 pos;
layout(location = 2) in vec2 uv;
uniform mat4 mvp;
uniform float scale;
out vec2 t;
flat out int id;
void main() {
  gl_Position = mvp * pos;
  t = uv * scale;
  id = gl_VertexID * 3;
}"""


def test_vertex_shader_from_glsl():
    c = compile_glsl(VERT, "vertex")
    info = c.info
    lanes = 32
    rng = np.random.default_rng(9)
    pos = rng.uniform(-1, 1, (lanes, 4)).astype(np.float32)
    uv = rng.uniform(0, 1, (lanes, 2)).astype(np.float32)
    mvp = rng.uniform(-1, 1, (4, 4)).astype(np.float32)          # columns
    default = np.zeros(info.uniform_regs_B // 4 + 1, np.float32)
    default[info.uniforms["mvp"].offset_B // 4:][:16] = mvp.reshape(-1)
    default[info.uniforms["scale"].offset_B // 4] = 3.0
    run = _Compiled(c)
    va = 0x1_0030_0000
    extra = {("attribute_address", 0): va, ("attribute_stride", 0): 16,
             ("attribute_address", 2): va + 4096, ("attribute_stride", 2): 8}
    ctx = ExecContext(lanes=lanes, specials={"vertex_id": np.arange(lanes, dtype=np.uint32), "instance_id": 0})
    # first run places code and uniforms; then write the attributes and run again
    ctx, _ = run.core(lanes, ctx=ctx, extra=extra, default_uniforms=default)
    run.mem.write(va, pos.view(np.uint8), "test")
    run.mem.write(va + 4096, uv.view(np.uint8), "test")
    from drmshim.gpu.usc import ShaderCore
    ShaderCore(run.mem, debug=True).run(CODE_VA, ctx)
    out = ctx.varyings.view(np.float32)
    assert np.allclose(out[0:4].T, pos @ mvp, rtol=1e-5, atol=1e-6)
    ti, ii = info.varying("VAR0").index, info.varying("VAR1").index
    assert np.allclose(out[ti:ti + 2].T, uv * 3)
    assert (ctx.varyings[ii] == np.arange(lanes) * 3).all()


def test_shaderdb_and_shaders_debug_output(monkeypatch, capsys):
    monkeypatch.setenv("SHIMGL_DEBUG", "shaderdb,shaders")
    compile_glsl(VERT, "vertex")
    err = capsys.readouterr().err
    line = [ln for ln in err.splitlines() if ln.startswith("vertex shader:")]
    assert len(line) == 1
    assert " instrs, " in line[0] and line[0].endswith("spills:fills") and " gprs, " in line[0]
    assert "GLSL vertex shader" in err and "IR:" in err and "st_var" in err


def test_shimgl_compile_command(tmp_path):
    good = tmp_path / "a.vert"
    good.write_text(VERT)
    bad = tmp_path / "b.frag"
    bad.write_text("void main() { gl_FragColor = vec4(1.0) + nothing; }\n")
    cmd = [sys.executable, "-m", "driver.cli", "compile"]
    p = subprocess.run(cmd + [str(good), "--stats", "-o", str(tmp_path / "a.bin")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("vertex shader: ")
    binary = (tmp_path / "a.bin").read_bytes()
    assert binary == compile_glsl(VERT, "vertex").binary
    p = subprocess.run(cmd + [str(bad)], capture_output=True, text=True)
    assert p.returncode == 1 and "error:" in p.stdout and "nothing" in p.stdout


def test_fp16_varyings_are_packed_in_pairs():
    src = """#version 330
layout(location = 0) in vec4 pos;
out mediump vec3 c;
out vec2 t;
void main() { gl_Position = pos; c = pos.zyx; t = pos.xy * 2.0; }"""
    comp = compile_glsl(src, "vertex", ShaderKey.make(fp16_varyings=True))
    info = comp.info
    v16 = [v for v in info.varyings if v.bit_size == 16]
    assert len(v16) == 1 and v16[0].words == 2
    lanes = 16
    pos = np.random.default_rng(10).uniform(-1, 1, (lanes, 4)).astype(np.float32)
    run = _Compiled(comp)
    va = 0x1_0030_0000
    extra = {("attribute_address", 0): va, ("attribute_stride", 0): 16}
    ctx = ExecContext(lanes=lanes, specials={"vertex_id": np.arange(lanes, dtype=np.uint32), "instance_id": 0})
    ctx, _ = run.core(lanes, ctx=ctx, extra=extra)
    run.mem.write(va, pos.view(np.uint8), "test")
    from drmshim.gpu.usc import ShaderCore
    ShaderCore(run.mem, debug=True).run(CODE_VA, ctx)
    k = v16[0].index
    halves = ctx.varyings[k:k + 2].T.copy().view(np.float16)      # (lanes, 4 halves)
    assert (halves[:, :3] == pos[:, [2, 1, 0]].astype(np.float16)).all() and (halves[:, 3] == 0).all()
    t = info.varying([v.slot for v in info.varyings if v.name == "t"][0]).index
    assert np.allclose(ctx.varyings[t:t + 2].view(np.float32).T, pos[:, :2] * 2)


TEX_FRAG = """#version 430
uniform sampler2D s;
in vec2 uv;
flat in ivec2 texel;
layout(location = 0) out uvec4 o;
void main() {
  vec4 a = texture(s, uv);
  vec4 b = texelFetch(s, texel, 0);
  ivec2 size = textureSize(s, 0);
  o = uvec4(packUnorm4x8(a), packUnorm4x8(b), uint(size.x * 100 + size.y), uint(textureQueryLevels(s)));
}"""


def test_texture_builtins_with_the_real_texture_unit():
    import layout
    from drmshim.gpu import texture
    from uapi import packets as P

    key = ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),))
    c = compile_glsl(TEX_FRAG, "fragment", key)
    info = c.info
    side = 8
    texels = np.random.default_rng(12).integers(0, 256, (side, side, 4), dtype=np.uint8)
    lay = layout.make_miptree(side, side, 1, 1, "R8G8B8A8_UNORM", 1, "twiddled")
    buf = np.zeros(lay.size_B, np.uint8)
    layout.tile(lay, buf, texels, 0, 0, 0, 0, side, side)
    lanes = side * side
    x, y = np.meshgrid(np.arange(side), np.arange(side))
    x, y = x.reshape(-1), y.reshape(-1)
    ui, ti = info.varying("VAR0").index, info.varying("VAR1").index
    n_cf = max(ui, ti) + 4
    coef = np.zeros((n_cf, 3, lanes), np.float32)
    coef[0, 2] = 1.0
    coef[ui, 2], coef[ui + 1, 2] = (x + 0.5) / side, (y + 0.5) / side
    coef[ti, 2], coef[ti + 1, 2] = x.astype(np.int32).view(np.float32), y[::-1].astype(np.int32).view(np.float32)
    ctx = ExecContext(lanes=lanes, quads=False, coefficients=coef, position_px=np.zeros((2, lanes), np.float32),
                      tile_buffer=np.zeros((lanes, 16), np.uint8), tile_index=np.arange(lanes),
                      specials={"pixel_x": x.astype(np.uint32), "pixel_y": y.astype(np.uint32)})
    run = _Compiled(c)
    heap = 0x1_0030_0000
    ctx.texture_heap_va, ctx.sampler_heap_va = heap, heap + 0x800

    def setup(mem):
        mem.write(heap + 0x1000, buf, "t")
        mem.write(heap, P.pack(P.TEXTURE, format_id=texture.format_id("R8G8B8A8_UNORM"), tiling="TWIDDLED",
                               width_px=side, height_px=side, levels=1, last_level=0, address=heap + 0x1000,
                               layer_stride_B=lay.layer_stride_B), "t")
        mem.write(heap + 0x800, P.pack(P.SAMPLER, min_filter="NEAREST", mag_filter="NEAREST", mip_filter="NONE"),
                  "t")
    ctx, _ = run.core(lanes, ctx=ctx, setup=setup)
    out = ctx.tile_buffer.view(np.uint32)
    pack = lambda t: t[..., 0].astype(np.uint32) | (t[..., 1].astype(np.uint32) << 8) | \
        (t[..., 2].astype(np.uint32) << 16) | (t[..., 3].astype(np.uint32) << 24)  # noqa: E731
    assert (out[:, 0] == pack(texels[y, x])).all()
    assert (out[:, 1] == pack(texels[y[::-1], x])).all()
    assert (out[:, 2] == side * 100 + side).all() and (out[:, 3] == 1).all()


def test_point_coord_gets_its_own_coefficient_registers():
    src = """#version 330
in vec3 v;
layout(location = 0) out uvec4 o;
void main() { o = floatBitsToUint(vec4(gl_PointCoord, v.z, 0.0)); }"""
    c = compile_glsl(src, "fragment", ShaderKey.make(render_targets=(RenderTarget(format="i32", base_type="uint"),)))
    vi = c.info.varying("VAR0").index
    pc = c.point_coord_cf
    assert pc is not None and pc >= vi + 3 and c.cf_count == pc + 2
    lanes = 8
    coef = np.zeros((pc + 2, 3, lanes), np.float32)
    coef[0, 2] = 1.0
    coef[vi + 2, 2] = 5.0
    coef[pc] = np.array([[1.0], [0.0], [0.0]])           # s = x
    coef[pc + 1] = np.array([[0.0], [1.0], [0.0]])       # t = y
    pos = np.stack([np.arange(lanes) + 0.5, np.full(lanes, 2.5)]).astype(np.float32)
    ctx = ExecContext(lanes=lanes, coefficients=coef, position_px=pos, tile_buffer=np.zeros((lanes, 16), np.uint8),
                      tile_index=np.arange(lanes))
    ctx, _ = _Compiled(c).core(lanes, ctx=ctx)
    out = ctx.tile_buffer.view(np.float32)
    assert (out[:, 0] == pos[0]).all() and (out[:, 1] == 2.5).all() and (out[:, 2] == 5.0).all()


def test_centroid_and_sample_inputs_iterate_there():
    src = """#version 400
centroid in vec2 a;
sample in float s;
noperspective in float n;
out vec4 o;
void main() { o = vec4(a, s, n); }"""
    asm = compile_glsl(src, "fragment").assembly
    assert "iter.persp.centroid" in asm and "iter.persp.sample" in asm and "iter.linear.center" in asm
