"""ARB programs translated to IR, run on the IR interpreter against numpy:
every instruction with swizzles, negation, write masks and saturation; state,
env and local bindings; relative addressing; KIL; TEX/TXP/TXB sources; fog."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.arb import parse_program
from compiler.arb.to_ir import ARBShader, env_uniform, local_uniform, sampler_uniform
from compiler.ir import ShaderKey, validate_shader
from compiler.lower import LowerInterpreter, RenderTarget
from tests.compiler.lower.harness import as_f32, f32, upload_uniforms

LANES = 5
RNG = np.random.default_rng(7)
# per-lane inputs: vertex.position and vertex.color (components, lanes)
POS = RNG.uniform(-2, 2, (4, LANES)).astype(np.float32)
COL = RNG.uniform(0.1, 3, (4, LANES)).astype(np.float32)
ENV = RNG.uniform(-2, 2, (4, 4)).astype(np.float32)      # program.env[0..3]


def run_vp(body: str, env=ENV, local=None, uniforms=None):
    """Run a vertex program whose result.color is the value under test; returns
    result.color as (4, lanes) floats."""
    src = f"!!ARBvp1.0\nPARAM e[4] = {{ program.env[0..3] }};\n{body}\nMOV result.position, vertex.position;\nEND\n"
    shader = ARBShader(parse_program(src))
    ir, info = shader.front_half(None)
    validate_shader(ir)
    values = {env_uniform("vertex"): np.asarray(env, np.float32)}
    if local is not None:
        values[local_uniform("vertex")] = np.asarray(local, np.float32)
    values.update(uniforms or {})
    # the env/local arrays are as long as the highest element the program reads
    values = {k: v[:info.uniforms[k].count] if k in (env_uniform("vertex"), local_uniform("vertex")) else v
              for k, v in values.items() if k in info.uniforms}
    inputs = {}
    for name, data in (("gl_Vertex", POS), ("gl_Color", COL)):
        if name in info.attributes:
            inputs[f"ATTR{info.attributes[name].location}"] = f32(data)
    it = LowerInterpreter(lanes=LANES, inputs=inputs, uniforms=upload_uniforms(info, values))
    it.run(ir)
    slot = next(v.slot for v in info.varyings if v.name == "gl_FrontColor")
    return as_f32(it.outputs[slot])


def col(v):
    return np.broadcast_to(np.asarray(v, np.float32).reshape(4, -1), (4, LANES))


P, C = POS, COL
E0, E1 = ENV[0][:, None], ENV[1][:, None]


def rep(x):
    return np.broadcast_to(x, (4, LANES))


CASES = {
    "MOV result.color, vertex.color;": C,
    "ADD result.color, vertex.color, -vertex.position.yzwx;": C - P[[1, 2, 3, 0]],
    "SUB result.color, vertex.color, e[1];": C - E1,
    "MUL result.color, vertex.color.x, e[0].wzyx;": C[0] * E0[[3, 2, 1, 0]],
    "MAD result.color, vertex.color, vertex.position, e[1];": C * P + E1,
    "ABS result.color, -vertex.position;": np.abs(P),
    "FLR result.color, vertex.position;": np.floor(P),
    "FRC result.color, vertex.position;": P - np.floor(P),
    "MAX result.color, vertex.position, e[0];": np.maximum(P, E0),
    "MIN result.color, vertex.position, e[0];": np.minimum(P, E0),
    "DP3 result.color, vertex.position, vertex.color;": rep((P[:3] * C[:3]).sum(0)),
    "DP4 result.color, vertex.position, vertex.color;": rep((P * C).sum(0)),
    "DPH result.color, vertex.position, vertex.color;": rep((P[:3] * C[:3]).sum(0) + C[3]),
    "DST result.color, vertex.position, vertex.color;": np.stack([np.ones(LANES), P[1] * C[1], P[2], C[3]]),
    "SGE result.color, vertex.position, e[0];": (P >= E0).astype(np.float32),
    "SLT result.color, vertex.position, e[0];": (P < E0).astype(np.float32),
    "EX2 result.color, vertex.position.y;": rep(np.exp2(P[1])),
    "LG2 result.color, vertex.color.z;": rep(np.log2(C[2])),
    "RCP result.color, vertex.color.w;": rep(1 / C[3]),
    "RSQ result.color, -vertex.color.w;": rep(1 / np.sqrt(C[3])),
    "POW result.color, vertex.color.x, vertex.position.y;": rep(C[0] ** P[1]),
    "XPD result.color, vertex.position, vertex.color;": np.vstack(
        [np.cross(P[:3].T, C[:3].T).T, np.ones((1, LANES))]),
    "SWZ result.color, vertex.position, -w, 0, x, -1;": np.stack(
        [-P[3], np.zeros(LANES), P[0], -np.ones(LANES)]),
    "EXP result.color, vertex.position.x;": np.stack(
        [np.exp2(np.floor(P[0])), P[0] - np.floor(P[0]), np.exp2(P[0]), np.ones(LANES)]),
    "LOG result.color, -vertex.color.y;": np.stack(
        [np.floor(np.log2(C[1])), C[1] / np.exp2(np.floor(np.log2(C[1]))), np.log2(C[1]), np.ones(LANES)]),
    "MOV result.color, 2.5;": rep(np.float32(2.5)),
    "MOV result.color, -{1, 2, 3};": col([-1, -2, -3, -1]),
}


@pytest.mark.parametrize("body", list(CASES))
def test_instruction(body):
    np.testing.assert_allclose(run_vp(body), CASES[body], rtol=2e-6, atol=1e-6)


def test_lit():
    env = np.array([[0.5, 0.25, 0, 2.0], [-1, 0.5, 0, 3], [2, 0, 0, 0.5], [1, 0.5, 0, 200]], np.float32)
    got = [run_vp(f"LIT result.color, e[{i}];", env=env)[:, 0] for i in range(4)]
    want = [[1, 0.5, 0.25 ** 2, 1], [1, 0, 0, 1], [1, 2, 0, 1], [1, 1, 0.5 ** 128, 1]]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-30)


def test_write_masks_accumulate_in_a_temporary():
    got = run_vp("TEMP t; MOV t, e[0]; MOV t.yw, vertex.color; ADD t.x, t.x, 1; MOV result.color, t;")
    want = np.vstack([np.full(LANES, E0[0, 0] + 1), C[1], np.full(LANES, E0[2, 0]), C[3]])
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_relative_addressing_and_local():
    # A0.x = floor(position.x) per lane picks env[A0.x + 1]
    pos = np.array([[-0.5, 0.2, 1.7, 2.0, 0.0]] * 4, np.float32)
    global POS
    saved, POS = POS, pos
    try:
        got = run_vp("ADDRESS A0; ARL A0.x, vertex.position.x; MOV result.color, e[A0.x + 1];"
                     " ADD result.color.w, program.local[2].x, 0;",
                     local=np.arange(12, dtype=np.float32).reshape(3, 4))
    finally:
        POS = saved
    idx = np.floor(pos[0]).astype(int) + 1
    want = ENV[idx].T.copy()
    want[3] = 8.0
    np.testing.assert_allclose(got, want)


def test_state_bindings_read_the_compatibility_uniforms():
    mvp = RNG.uniform(-1, 1, (4, 4)).astype(np.float32)       # [column][row]
    got = run_vp("PARAM m[] = { state.matrix.mvp.row[1..2] }; PARAM d = state.light[1].diffuse;"
                 " PARAM a = state.light[1].attenuation;"
                 " DP4 result.color.x, m[0], vertex.position; DP4 result.color.y, m[1], vertex.position;"
                 " MUL result.color.z, d, a.w; MOV result.color.w, a.y;",
                 uniforms={"gl_ModelViewProjectionMatrix": mvp,
                           "gl_LightSource[1].diffuse": np.array([0.5, 0.25, 3, 1], np.float32),
                           "gl_LightSource[1].linearAttenuation": np.float32(0.125),
                           "gl_LightSource[1].spotExponent": np.float32(4.0)})
    rows = mvp.T
    np.testing.assert_allclose(got[0], rows[1] @ POS, rtol=1e-5)
    np.testing.assert_allclose(got[1], rows[2] @ POS, rtol=1e-5)
    np.testing.assert_allclose(got[2], 3 * 4.0)
    np.testing.assert_allclose(got[3], 0.125)


def run_fp(src: str, varyings: dict, uniforms=None, sample=None):
    shader = ARBShader(parse_program(src))
    key = ShaderKey.make(render_targets=(RenderTarget(format="i32"),))
    ir, info = shader.front_half(key)
    validate_shader(ir)
    inputs = {}
    for v in info.varyings:
        # fragment.color reads the vertex stage's gl_FrontColor
        name = {"gl_FrontColor": "gl_Color"}.get(v.name, v.name)
        if name in varyings:
            inputs[v.slot] = f32(varyings[name])
    it = LowerInterpreter(lanes=LANES, inputs=inputs, uniforms=upload_uniforms(info, uniforms or {}),
                          sample=sample)
    it.run(ir)
    return as_f32(it.tiles[0]), it, info


def test_fragment_arithmetic_sat_cmp_lrp_and_scs():
    t = np.linspace(-1, 2, 4 * LANES, dtype=np.float32).reshape(4, LANES)
    c = RNG.uniform(0, 1, (4, LANES)).astype(np.float32)
    got, _it, _i = run_fp("""!!ARBfp1.0
TEMP a, b;
ADD_SAT a, fragment.texcoord[0], fragment.color;
CMP b, fragment.texcoord[0], fragment.color, a;
LRP a, fragment.color, b, {0.5, 0.25, 0, 1};
SCS b.xy, fragment.texcoord[0].y;
MUL result.color, a, b.xyxy;
END""", {"gl_TexCoord[0]": t, "gl_Color": c})
    a = np.clip(t + c, 0, 1)
    b = np.where(t < 0, c, a)
    lrp = c * b + (1 - c) * np.array([0.5, 0.25, 0, 1], np.float32)[:, None]
    scs = np.stack([np.cos(t[1]), np.sin(t[1])] * 2)
    np.testing.assert_allclose(got, lrp * scs, rtol=1e-5, atol=1e-6)


def test_kil_discards_lanes_with_a_negative_component():
    t = np.ones((4, LANES), np.float32)
    t[2, 1] = -0.5
    t[0, 3] = -1e-6
    _got, it, info = run_fp("!!ARBfp1.0 KIL fragment.texcoord[0]; MOV result.color, 1; END",
                            {"gl_TexCoord[0]": t})
    assert info.discards
    assert list(it.alive) == [True, False, True, False, True]


@pytest.mark.parametrize("op, target, dim, coord", [
    ("TEX", "2D", "2d", lambda t: t[:2]), ("TEX", "3D", "3d", lambda t: t[:3]),
    ("TEX", "1D", "1d", lambda t: t[:1]), ("TEX", "CUBE", "cube", lambda t: t[:3]),
    ("TEX", "RECT", "rect", lambda t: t[:2]), ("TXP", "2D", "2d", lambda t: t[:2] / t[3]),
    ("TXB", "2D", "2d", lambda t: t[:2])])
def test_texture_instructions(op, target, dim, coord):
    t = RNG.uniform(0.5, 2, (4, LANES)).astype(np.float32)
    log = []

    def sample(tex, srcs):
        log.append((tex.op, tex.dim, tex.texture, {k: np.asarray(v, np.uint32).view(np.float32) for k, v in
                                                   srcs.items()}))
        return f32(np.full((4, LANES), 0.25, np.float32))
    got, _it, info = run_fp(f"!!ARBfp1.0 TEMP c; {op} c, fragment.texcoord[2], texture[3], {target};"
                            " MUL result.color, c, 2; END", {"gl_TexCoord[2]": t}, sample=sample)
    (kind, d, slot, srcs), = log
    assert (kind, d) == ({"TXB": "txb"}.get(op, "tex"), dim)
    assert slot == info.samplers[sampler_uniform(3)].slot
    np.testing.assert_allclose(srcs["coord"].reshape(-1, LANES), coord(t), rtol=1e-6)
    if op == "TXB":
        np.testing.assert_allclose(srcs["bias"].reshape(LANES), t[3])
    np.testing.assert_allclose(got, 0.5)


@pytest.mark.parametrize("mode", ["linear", "exp", "exp2"])
def test_fog_options(mode):
    c = RNG.uniform(0, 1, (4, LANES)).astype(np.float32)
    z = np.linspace(0.5, 6, LANES, dtype=np.float32)
    fog = np.array([0.2, 0.4, 0.6, 1.0], np.float32)
    density, start, end = 0.3, 1.0, 5.0
    got, _it, _i = run_fp(f"!!ARBfp1.0 OPTION ARB_fog_{mode}; MOV result.color, fragment.color; END",
                          {"gl_Color": c, "gl_FogFragCoord": z[None]},
                          uniforms={"gl_Fog.color": fog, "gl_Fog.density": np.float32(density),
                                    "gl_Fog.start": np.float32(start), "gl_Fog.end": np.float32(end),
                                    "gl_Fog.scale": np.float32(1 / (end - start))})
    f = {"linear": (end - z) / (end - start), "exp": np.exp(-density * z),
         "exp2": np.exp(-(density * z) ** 2)}[mode]
    f = np.clip(f, 0, 1)
    want = c.copy()
    want[:3] = fog[:3, None] + f * (c[:3] - fog[:3, None])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_position_invariant_uses_ftransform():
    shader = ARBShader(parse_program(
        "!!ARBvp1.0 OPTION ARB_position_invariant; MOV result.color, vertex.color; END"))
    assert "gl_Position = ftransform();" in shader.source
    ir, info = shader.front_half(None)
    assert "gl_ModelViewProjectionMatrix" in info.uniforms


def test_interface_holds_only_the_parameters_read():
    shader = ARBShader(parse_program("""!!ARBvp1.0
PARAM big[1021] = { program.local[0..1020] };
PARAM unused = state.light[3].diffuse;
MOV result.color, big[5];
END"""))
    assert shader.source.count("shimgl_p") == 2          # declared and assigned once
    assert f"uniform vec4 {local_uniform('vertex')}[6];" in shader.source
    assert "gl_LightSource" not in shader.source
    # a relatively addressed array needs every element
    rel = ARBShader(parse_program("""!!ARBvp1.0
ADDRESS A0;
PARAM a[3] = { program.env[4..5], state.light[1].ambient };
ARL A0.x, vertex.position.x;
MOV result.color, a[A0.x + 109];
END"""))
    assert f"uniform vec4 {env_uniform('vertex')}[6];" in rel.source and "gl_LightSource[1].ambient" in rel.source


@pytest.mark.parametrize("op, target, dim", [("TEX", "SHADOW2D", "2d"), ("TXP", "SHADOW1D", "1d"),
                                             ("TEX", "SHADOWRECT", "rect")])
def test_shadow_targets_compare_against_r(op, target, dim):
    t = RNG.uniform(0.5, 2, (4, LANES)).astype(np.float32)
    log = []

    def sample(tex, srcs):
        log.append((tex.dim, tex.is_shadow, {k: np.asarray(v, np.uint32).view(np.float32) for k, v in
                                             srcs.items()}))
        return f32(np.full((1, LANES), 0.5, np.float32))
    got, _it, _info = run_fp(f"!!ARBfp1.0 OPTION ARB_fragment_program_shadow;"
                             f" {op} result.color, fragment.texcoord[0], texture[0], {target}; END",
                             {"gl_TexCoord[0]": t}, sample=sample)
    (d, shadow, srcs), = log
    assert (d, shadow) == (dim, True)
    w = t[3] if op == "TXP" else 1.0
    np.testing.assert_allclose(srcs["comparator"].reshape(LANES), t[2] / w, rtol=1e-6)
    np.testing.assert_allclose(got, [[0.5] * LANES] * 3 + [[1.0] * LANES])
