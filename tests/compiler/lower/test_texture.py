"""Texture built-ins become Tex instructions with the right op, sources and flags:
a recording sample callback on the IR interpreter captures what each call asks for."""

from __future__ import annotations

import numpy as np

from compiler.compile import front_half
from compiler.ir import ShaderKey
from compiler.lower import LowerInterpreter, RenderTarget
from tests.compiler.lower.harness import as_f32, f32

LANES = 4
P = np.array([[0.5, 1.0, 2.0, 4.0]] * LANES, np.float32).T      # (x, y, z, w) per lane


def sample_log(src: str, stage="fragment", ret=None, version="430"):
    """Run a shader calling texture functions; returns [(op, flags, {kind: values})]."""
    log = []

    def sample(tex, srcs):
        vals = {}
        for kind, raw in srcs.items():
            v = raw[:, 0]
            vals[kind] = tuple(np.asarray(v, np.uint32).view(np.int32 if kind in ("offset", "ms_index") or
                                                            (tex.op in ("txf", "txs")) else np.float32).tolist())
        log.append((tex.op, dict(dim=tex.dim, array=tex.is_array, shadow=tex.is_shadow, texture=tex.texture,
                                 type=tex.dest_type, comp=tex.component), vals))
        out = np.zeros((tex.dest.num_components, LANES), np.float32)
        out[0] = 0.75
        return out.view(np.uint32)
    full = f"#version {version}\n{src}"
    key = ShaderKey.make(render_targets=(RenderTarget(format="i32"),)) if stage == "fragment" else None
    shader, info = front_half(full, stage, key)
    inputs = {v.slot: f32(P) for v in info.varyings}
    for a in info.attributes.values():
        inputs[f"ATTR{a.location}"] = f32(P)
    it = LowerInterpreter(lanes=LANES, inputs=inputs, sample=sample, uniforms=np.zeros(256, np.uint32))
    it.run(shader)
    return log, info, it


def one(call: str, sampler: str, stage="fragment", extra="", version="430"):
    legacy = version == "110"
    p_decl = ("attribute" if stage == "vertex" else "varying") if legacy else "in"
    out = "" if legacy else "out vec4 o;"
    target = "o" if not legacy else ("gl_FragColor" if stage == "fragment" else "gl_FrontColor")
    src = f"uniform {sampler} s;\nuniform {sampler} s2;\n{p_decl} vec4 p;\n{out}\n{extra}\n" \
          f"void main() {{ {target} = vec4({call}); {'gl_Position = p;' if stage == 'vertex' else ''} }}\n"
    log, info, _it = sample_log(src, stage, version=version)
    assert len(log) >= 1, "no texture instruction executed"
    return log


def test_texture_2d_implicit_lod_and_bias():
    (op, fl, v), = one("texture(s2, p.xy)", "sampler2D")
    assert op == "tex" and fl["dim"] == "2d" and fl["texture"] == 1 and v == {"coord": (0.5, 1.0)}
    (op, fl, v), = one("texture(s, p.xy, 1.5)", "sampler2D")
    assert op == "txb" and v == {"coord": (0.5, 1.0), "bias": (1.5,)}


def test_vertex_shader_sampling_uses_lod_zero():
    (op, fl, v), = one("texture(s, p.xy)", "sampler2D", stage="vertex")
    assert op == "txl" and v == {"coord": (0.5, 1.0), "lod": (0.0,)}


def test_projective_divides_by_q():
    (op, fl, v), = one("textureProj(s, p)", "sampler2D")
    assert v["coord"] == (0.125, 0.25)
    (op, fl, v), = one("textureProj(s, p.xyz)", "sampler2D")
    assert v["coord"] == (0.25, 0.5)
    (op, fl, v), = one("textureProj(s, p)", "sampler2DShadow")
    assert fl["shadow"] and v == {"coord": (0.125, 0.25), "comparator": (0.5,)}


def test_shadow_comparators():
    (op, fl, v), = one("texture(s, p.xyz)", "sampler2DShadow")
    assert v == {"coord": (0.5, 1.0), "comparator": (2.0,)}
    (op, fl, v), = one("texture(s, p)", "sampler2DArrayShadow")
    assert fl["array"] and v == {"coord": (0.5, 1.0, 2.0), "comparator": (4.0,)}
    (op, fl, v), = one("texture(s, p.xyz)", "sampler1DArrayShadow")
    assert v == {"coord": (0.5, 1.0), "comparator": (2.0,)}
    (op, fl, v), = one("texture(s, p)", "samplerCubeShadow")
    assert fl["dim"] == "cube" and v == {"coord": (0.5, 1.0, 2.0), "comparator": (4.0,)}
    (op, fl, v), = one("texture(s, p, 3.0)", "samplerCubeArrayShadow")
    assert v == {"coord": (0.5, 1.0, 2.0, 4.0), "comparator": (3.0,)}


def test_lod_grad_offset_variants():
    (op, fl, v), = one("textureLod(s, p.xyz, 2.0)", "sampler3D")
    assert op == "txl" and fl["dim"] == "3d" and v == {"coord": (0.5, 1.0, 2.0), "lod": (2.0,)}
    (op, fl, v), = one("textureGrad(s, p.xy, p.zw, p.xx)", "sampler2D")
    assert op == "txd" and v == {"coord": (0.5, 1.0), "ddx": (2.0, 4.0), "ddy": (0.5, 0.5)}
    (op, fl, v), = one("textureOffset(s, p.xy, ivec2(1, -2))", "sampler2D")
    assert op == "tex" and v == {"coord": (0.5, 1.0), "offset": (1, -2)}
    (op, fl, v), = one("textureLodOffset(s, p.xy, 1.0, ivec2(3, 0))", "sampler2D")
    assert op == "txl" and v == {"coord": (0.5, 1.0), "lod": (1.0,), "offset": (3, 0)}
    (op, fl, v), = one("textureProjGradOffset(s, p, p.xy, p.xy, ivec2(1))", "sampler2D")
    assert op == "txd" and v["coord"] == (0.125, 0.25) and v["offset"] == (1, 1)


def test_fetch_size_levels_querylod():
    (op, fl, v), = one("texelFetch(s, ivec2(3, 4), 1)", "isampler2D")
    assert op == "txf" and fl["type"] == "int" and v == {"coord": (3, 4), "lod": (1,)}
    (op, fl, v), = one("texelFetch(s, ivec2(3, 4), 2)", "sampler2DMS")
    assert op == "txf" and fl["dim"] == "ms" and v == {"coord": (3, 4), "ms_index": (2,)}
    (op, fl, v), = one("texelFetch(s, 7)", "usamplerBuffer")
    assert fl["dim"] == "buf" and v == {"coord": (7,), "lod": (0,)}
    (op, fl, v), = one("vec3(textureSize(s, 2)), 0.0", "sampler2DArray")
    assert op == "txs" and v == {"lod": (2,)}
    (op, fl, v), = one("float(textureQueryLevels(s))", "samplerCube")
    assert op == "query_levels"
    # no LOD query in the ISA: the front half computes it (compiler.ir.passes.tex) from
    # the level-0 size and the level count
    log = one("textureQueryLod(s, p.xy), 0.0, 0.0", "sampler2D")
    assert [(op, v) for op, _fl, v in log] == [("txs", {"lod": (0,)}), ("query_levels", {})]


def test_gather_variants():
    (op, fl, v), = one("textureGather(s, p.xy, 2)", "sampler2D")
    assert op == "tg4" and fl["comp"] == 2
    # GLSL 4.00 section 8.9.4: the reference is a parameter of its own, P the coordinate alone
    (op, fl, v), = one("textureGather(s, p.xy, 0.5)", "sampler2DShadow")
    assert v == {"coord": (0.5, 1.0), "comparator": (0.5,)}
    log = one("textureGatherOffsets(s, p.xy, ivec2[4](ivec2(0), ivec2(1), ivec2(2), ivec2(3)))", "sampler2D")
    assert [e[2]["offset"] for e in log] == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_legacy_functions():
    (op, fl, v), = one("texture2D(s, p.xy)", "sampler2D", version="110")
    assert op == "tex" and v == {"coord": (0.5, 1.0)}
    (op, fl, v), = one("texture2DProjLod(s, p, 1.0)", "sampler2D", version="110", stage="vertex")
    assert op == "txl" and v == {"coord": (0.125, 0.25), "lod": (1.0,)}
    log, _info, it = sample_log("uniform sampler2DShadow s; varying vec4 p;\n"
                                "void main() { gl_FragColor = shadow2D(s, p.xyz); }\n", version="110")
    (op, fl, v), = log
    assert v == {"coord": (0.5, 1.0), "comparator": (2.0,)}
    # the vec4 is the sampler's four components (the texture unit expands the result
    # by DEPTH_TEXTURE_MODE through the view's swizzle); this stub fills only .x
    np.testing.assert_array_equal(as_f32(it.tiles[0])[:, 0], [0.75, 0.0, 0.0, 0.0])
    (op, fl, v), = one("textureCube(s, p.xyz)", "samplerCube", version="110")
    assert fl["dim"] == "cube"
    (op, fl, v), = one("texture1D(s, p.x)", "sampler1D", version="110")
    assert fl["dim"] == "1d" and v == {"coord": (0.5,)}


def test_sampler_arrays_and_parameters_pick_slots():
    src = """uniform sampler2D a[3]; uniform sampler2D b; in vec4 p; out vec4 o;
vec4 look(sampler2D t) { return texture(t, p.xy); }
void main() { o = texture(a[2], p.xy) + look(b) + texture(a[int(p.z)], p.xy); }"""
    log, info, _it = sample_log(src)
    assert {n: (s.slot, s.count) for n, s in info.samplers.items()} == {"a": (0, 3), "b": (3, 1)}
    # the dynamic index samples all three and selects (CSE merges a[2] with the ladder's slot 2)
    assert [e[1]["texture"] for e in log] == [2, 3, 0, 1]


def test_samplers_inside_uniform_structs():
    src = """struct M { vec4 tint; sampler2D tex; }; uniform M mats[2]; uniform sampler2D plain; in vec4 p; out vec4 o;
void main() { o = texture(mats[1].tex, p.xy) * mats[1].tint + texture(plain, p.zw); }"""
    log, info, _it = sample_log(src)
    assert {n: s.slot for n, s in info.samplers.items()} == {"plain": 0, "mats[1].tex": 1}
    assert "mats[1].tint" in info.uniforms and not any("tex" in n for n in info.uniforms)
    assert sorted(e[1]["texture"] for e in log) == [0, 1]
