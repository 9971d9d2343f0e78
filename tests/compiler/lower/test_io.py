"""Interface lowering: varying order and indices, uniform maps, attributes, UBO/SSBO
access, clip planes and compatibility built-ins, checked literally and run."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.compile import front_half
from compiler.ir import ShaderKey
from compiler.lower import order_varyings
from tests.compiler.lower.harness import as_f32, f32, run_fragment, run_vertex

LANES = 8


def _vary(info):
    return [(v.slot, v.name, v.index, v.components, v.locations, v.interp, v.bit_size) for v in info.varyings]


VS_MIXED = """#version 410
in vec4 p;
flat out int f1;
out vec2 s1;
noperspective out float l1;
out vec3 s2;
layout(location = 3) out vec4 s0;
flat out ivec2 f2[2];
out mat2 m;
void main() {
    gl_Position = p; f1 = 1; s1 = p.xy; l1 = p.z; s2 = p.xyz; s0 = p; f2[0] = ivec2(1); f2[1] = ivec2(2);
    m = mat2(p); gl_PointSize = 3.0;
}
"""


def test_vertex_output_order_literal():
    _s, info = front_half(VS_MIXED, "vertex")
    # POS, 32-bit smooth (location 3 first, then declaration order), flat, linear, PSIZ.
    assert _vary(info) == [
        ("POS", "gl_Position", 0, 4, 1, "noperspective", 32),
        ("VAR0", "s0", 4, 4, 1, "smooth", 32),
        ("VAR1", "s1", 8, 2, 1, "smooth", 32),
        ("VAR2", "s2", 10, 3, 1, "smooth", 32),
        ("VAR3", "m", 13, 2, 2, "smooth", 32),
        ("VAR4", "f1", 17, 1, 1, "flat", 32),
        ("VAR5", "f2", 18, 2, 2, "flat", 32),
        ("VAR6", "l1", 22, 1, 1, "noperspective", 32),
        ("PSIZ", "gl_PointSize", 23, 1, 1, "flat", 32),
    ]
    assert info.vertex_outputs == 24


def test_vertex_outputs_are_stored_at_their_indices():
    p = np.arange(4 * LANES, dtype=np.float32).reshape(4, LANES)
    outs, info, it = run_vertex(VS_MIXED, {"p": p}, LANES)
    np.testing.assert_array_equal(as_f32(outs["s1"])[:2], p[:2])
    # (the interpreter keys outputs by slot only; the two locations of f2 are two stores)
    from compiler.ir import Intrinsic, walk_instrs
    shader, _info = front_half(VS_MIXED, "vertex")
    stores = [(i.indices["slot"], i.srcs[1].parent.values[0], i.indices["base"])
              for i in walk_instrs(shader.main.body) if isinstance(i, Intrinsic) and i.name == "store_output"
              and i.indices["slot"] in ("VAR5", "VAR3")]
    assert sorted(stores) == [("VAR3", 0, 13), ("VAR3", 1, 13), ("VAR5", 0, 18), ("VAR5", 1, 18)]
    np.testing.assert_array_equal(as_f32(it.outputs["PSIZ"][0]), 3.0)


def test_sixteen_bit_groups_follow_the_32_bit_ones():
    items = [dict(name=n, location=None, components=c, locations=1, interp=i, bit_size=b)
             for n, c, i, b in [("h_s", 3, "smooth", 16), ("f_l", 1, "noperspective", 32), ("h_f", 2, "flat", 16),
                                ("f_s", 4, "smooth", 32), ("h_l", 1, "noperspective", 16)]]
    got = [(v.slot, v.name, v.index, v.words) for v in order_varyings(items, 4)]
    assert got == [("VAR0", "f_s", 4, 4), ("VAR1", "f_l", 8, 1), ("VAR2", "h_s", 9, 2), ("VAR3", "h_f", 11, 1),
                   ("VAR4", "h_l", 12, 1)]


def test_mediump_varyings_are_16_bit_with_the_key():
    src = "#version 300 es\nin vec4 p; out mediump vec3 a; out highp vec2 b;\n" \
          "void main() { gl_Position = p; a = p.xyz; b = p.xy; }\n"
    _s, info = front_half(src, "vertex", ShaderKey.make(fp16_varyings=True))
    assert [(v.name, v.index, v.bit_size) for v in info.varyings] == [
        ("gl_Position", 0, 32), ("b", 4, 32), ("a", 6, 16)]
    _s, info = front_half(src, "vertex")
    assert [(v.name, v.index, v.bit_size) for v in info.varyings] == [
        ("gl_Position", 0, 32), ("a", 4, 32), ("b", 7, 32)]


def test_fragment_inputs_get_coefficient_registers_after_w_and_z():
    src = """#version 330
flat in int f; in vec2 s; noperspective in vec3 l; in vec4 t; out vec4 o;
void main() { o = vec4(s, l.x, t.w + float(f)); }"""
    _s, info = front_half(src, "fragment")
    assert _vary(info) == [("VAR0", "s", 2, 2, 1, "smooth", 32), ("VAR1", "t", 4, 4, 1, "smooth", 32),
                           ("VAR2", "f", 8, 1, 1, "flat", 32), ("VAR3", "l", 9, 3, 1, "noperspective", 32)]


def test_attribute_locations_layout_key_then_order():
    src = """#version 330
in vec4 a; layout(location = 0) in vec4 b; in mat2 m; in vec2 c;
out vec4 o; void main() { o = a + b + vec4(m[1], c); gl_Position = o; }"""
    key = ShaderKey.make(attribute_locations={"c": 1})
    _s, info = front_half(src, "vertex", key)
    assert {n: (a.location, a.components, a.locations) for n, a in info.attributes.items()} == {
        "b": (0, 4, 1), "c": (1, 2, 1), "a": (2, 4, 1), "m": (3, 2, 2)}


UNIFORMS = """#version 330
struct Light { vec3 pos; float power; };
uniform float f; uniform vec3 v3; uniform mat3 m3; uniform Light lights[2]; uniform int arr[3];
uniform vec4 big[20];
in vec4 p;
out vec4 o;
void main() { o = vec4(f) + vec4(v3, 0.0) + vec4(m3[2], 1.0) + vec4(lights[1].pos * lights[1].power, 0.0)
              + vec4(float(arr[2])) + big[int(p.x)]; gl_Position = p; }
"""


def test_uniform_map_literal_and_spill_to_the_default_ubo():
    _s, info = front_half(UNIFORMS, "vertex", ShaderKey.make(uniform_regs_B=192))
    got = {n: (u.file, u.offset_B, u.size_B, u.count, u.array_stride_B, u.matrix_stride_B)
           for n, u in info.uniforms.items()}
    assert got == {
        "f": ("regs", 0, 4, 1, 0, 0),
        "v3": ("regs", 16, 12, 1, 0, 0),
        "m3": ("regs", 32, 48, 1, 0, 16),
        "lights[0].pos": ("regs", 80, 12, 1, 0, 0),
        "lights[0].power": ("regs", 92, 4, 1, 0, 0),
        "lights[1].pos": ("regs", 96, 12, 1, 0, 0),
        "lights[1].power": ("regs", 108, 4, 1, 0, 0),
        "arr": ("regs", 112, 12, 3, 4, 0),
        "big": ("ubo", 192, 320, 20, 16, 0),     # UBO 0 = the whole block: after the 192 register bytes
    }
    assert info.uniform_regs_B == 124


def test_uniforms_read_from_registers_and_default_ubo():
    p = np.zeros((4, LANES), np.float32)
    p[0] = np.arange(LANES) % 20
    key = ShaderKey.make(uniform_regs_B=192)
    shader, info = front_half(UNIFORMS, "vertex", key)
    words = np.zeros(64, np.uint32)

    def put(off, vals, kind="f"):
        a = np.asarray(vals, np.float32 if kind == "f" else np.int32).view(np.uint32)
        words[off // 4:off // 4 + len(a)] = a
    put(0, [0.5]); put(16, [1, 2, 3]); put(64, [7, 8, 9]); put(96, [1, 1, 1]); put(108, [4])
    put(120, [5], "i")
    big = np.arange(80, dtype=np.float32) * 10
    from compiler.lower import LowerInterpreter
    ubo0 = np.concatenate([np.zeros(192, np.uint8), big.view(np.uint8)])
    it = LowerInterpreter(lanes=LANES, inputs={"ATTR0": f32(p)}, uniforms=words, ubos={0: ubo0})
    it.run(shader)
    got = as_f32(it.outputs["VAR0"])
    base = np.array([0.5 + 1 + 7 + 4 + 5, 0.5 + 2 + 8 + 4 + 5, 0.5 + 3 + 9 + 4 + 5, 0.5 + 1 + 5])
    idx = (np.arange(LANES) % 20).astype(int)
    want = base[:, None] + big.reshape(20, 4)[idx].T
    np.testing.assert_array_equal(got, want)


def test_uniform_and_storage_blocks():
    src = """#version 430
layout(std140, binding = 2) uniform Params { float scale; vec3 offset; } params;
layout(std430, binding = 1) buffer Data { uint count; float values[]; };
in vec4 p; out vec4 o;
void main() { uint i = uint(p.x); o = vec4(values[i] * params.scale + params.offset.y, float(values.length()),
              float(count), 0.0); values[i] = 1.0; gl_Position = p; }"""
    shader, info = front_half(src, "vertex")
    assert info.ubos == {"Params": 3} and info.ssbos == {"Data": 1}
    ubo = np.zeros(8, np.float32)
    ubo[0], ubo[4:7] = 2.0, [10, 20, 30]          # std140: offset at 16
    ssbo = np.zeros(1 + 16, np.uint32)
    ssbo[0] = 99
    ssbo[1:] = np.arange(16, dtype=np.float32).view(np.uint32)
    p = np.zeros((4, LANES), np.float32)
    p[0] = np.arange(LANES)
    from compiler.lower import LowerInterpreter
    buf = ssbo.view(np.uint8).copy()
    it = LowerInterpreter(lanes=LANES, inputs={"ATTR0": f32(p)}, ubos={3: ubo.view(np.uint8)}, ssbos={1: buf})
    it.run(shader)
    got = as_f32(it.outputs["VAR0"])
    np.testing.assert_array_equal(got[0], np.arange(LANES) * 2.0 + 20)
    np.testing.assert_array_equal(got[1], 16)
    np.testing.assert_array_equal(got[2], 99)
    np.testing.assert_array_equal(buf.view(np.uint32)[1:1 + LANES].view(np.float32), 1.0)


def test_clip_distances_follow_the_enable_mask():
    src = """#version 130
in vec4 p; out float d;
void main() { gl_Position = p; gl_ClipDistance[0] = p.x; gl_ClipDistance[2] = p.y;
              gl_ClipDistance[3] = 5.0; d = 1.0; }"""
    p = np.random.default_rng(1).uniform(-1, 1, (4, LANES)).astype(np.float32)
    _o, info, it = run_vertex(src, {"p": p}, LANES, key=ShaderKey.make(clip_planes=0b101))
    # the elements written (0..3) also go to the fragment stage as a smooth varying, after d
    fragment_copy = ("gl_ClipDistance(fragment)", 5, 1, 4, "smooth", 32)
    assert [v[1:] for v in _vary(info)[-2:]] == [fragment_copy,
                                                 ("gl_ClipDistance", 9, 3, 1, "noperspective", 32)]
    assert _vary(info)[-1][0] == "CLIP"
    clip = as_f32(it.outputs["CLIP"])
    np.testing.assert_array_equal(clip[:3], [p[0], np.ones(LANES), p[1]])
    # (its values, per element: tests/driver/gl/test_fragment_distances.py)
    _o, info, it = run_vertex(src, {"p": p}, LANES)
    assert "CLIP" not in [v.slot for v in info.varyings]
    assert [v[1:] for v in _vary(info)][-1] == fragment_copy           # (not an enable's matter)


def test_user_clip_planes_from_clip_vertex():
    src = "#version 110\nvoid main() { gl_Position = ftransform(); gl_ClipVertex = gl_Vertex * 2.0; }\n"
    v = np.random.default_rng(2).uniform(-1, 1, (4, LANES)).astype(np.float32)
    planes = np.random.default_rng(3).uniform(-1, 1, (8, 4)).astype(np.float32)
    _o, info, it = run_vertex(src, {"gl_Vertex": v}, LANES, key=ShaderKey.make(clip_planes=0b11),
                              uniforms={"gl_ClipPlane": planes,
                                        "gl_ModelViewProjectionMatrix": np.eye(4, dtype=np.float32)})
    clip = as_f32(it.outputs["CLIP"])
    np.testing.assert_allclose(clip[:2], planes[:2] @ (v * 2), rtol=1e-6)
    np.testing.assert_array_equal(as_f32(it.outputs["POS"]), v)


def test_compatibility_colours_two_sided_and_flat():
    fs = "#version 110\nvoid main() { gl_FragColor = gl_Color + gl_TexCoord[3]; }\n"
    _s, info = front_half(fs, "fragment", ShaderKey.make(two_side=True, flat_shade=True))
    assert [(v.name, v.interp, v.index) for v in info.varyings] == [
        ("gl_TexCoord[3]", "smooth", 2), ("gl_FrontColor", "flat", 6), ("gl_BackColor", "flat", 10)]
    from compiler.lower import RenderTarget
    key = ShaderKey.make(two_side=True, render_targets=(RenderTarget(format="i32"),))
    lanes = 8
    front = np.full((4, lanes), 0.25, np.float32)
    back = np.full((4, lanes), 0.5, np.float32)
    tc = np.zeros((4, lanes), np.float32)
    facing = np.array([[True, False] * 4])
    tiles, info, _it = run_fragment(fs, {"gl_FrontColor": front, "gl_BackColor": back, "gl_TexCoord[3]": tc},
                                    lanes, key=key, sysvals={"load_front_face": facing})
    np.testing.assert_array_equal(as_f32(tiles[0])[0], np.where(facing[0], 0.25, 0.5))


def test_builtin_state_arrays_keep_only_the_used_elements():
    vs = """#version 110
void main() { gl_TexCoord[1] = gl_TextureMatrix[1] * gl_MultiTexCoord0;
              gl_FrontColor = gl_LightSource[0].diffuse; gl_Position = ftransform(); }"""
    _s, info = front_half(vs, "vertex")
    u = info.uniforms
    assert (u["gl_TextureMatrix"].file, u["gl_TextureMatrix"].offset_B, u["gl_TextureMatrix"].count) == ("regs", 0, 2)
    assert "gl_LightSource[0].diffuse" in u and "gl_LightSource[1].diffuse" not in u
    assert all(s.file == "regs" for s in u.values())
    assert [(v.name, v.index) for v in info.varyings] == [("gl_Position", 0), ("gl_FrontColor", 4),
                                                          ("gl_TexCoord[1]", 8)]


def test_arrays_of_blocks_are_one_buffer_per_element():
    src = """#version 430
layout(std140, binding = 1) uniform L { vec4 c; } ls[3];
layout(std430, binding = 4) buffer O { float v[]; } outs[2];
layout(local_size_x = 1) in;
void main() { outs[1].v[2] = ls[2].c.y + ls[0].c.x + float(outs[0].v.length()); }"""
    shader, info = front_half(src, "compute")
    assert info.ubos == {"L[0]": 2, "L[1]": 3, "L[2]": 4} and info.ssbos == {"O[0]": 4, "O[1]": 5}
    from compiler.lower import LowerInterpreter
    ubos = {2: np.array([1, 0, 0, 0], np.float32).view(np.uint8), 4: np.array([0, 10, 0, 0], np.float32).view(np.uint8)}
    o0, o1 = np.zeros(7, np.float32).view(np.uint8), np.zeros(4, np.float32).view(np.uint8)
    it = LowerInterpreter(lanes=1, ubos=ubos, ssbos={4: o0, 5: o1})
    it.run(shader)
    assert o1.view(np.float32)[2] == 1 + 10 + 7


def test_vertex_fetch_from_attribute_descriptors():
    from compiler.lower import LowerInterpreter
    from compiler.lower.vertex_fetch import VertexAttrib
    src = """#version 330
layout(location = 0) in vec4 pos; layout(location = 1) in vec4 col; layout(location = 2) in vec2 sh;
layout(location = 3) in ivec2 ids; layout(location = 4) in vec3 inst;
out vec4 c; out vec2 s; flat out ivec2 i; out vec3 k;
void main() { gl_Position = pos; c = col; s = sh; i = ids; k = inst; }"""
    n = 6
    pos = np.arange(n * 3, dtype=np.float32).reshape(n, 3)            # 3 floats, stride 12: w = 1
    col = np.arange(n * 4, dtype=np.uint8).reshape(n, 4) * 10          # normalized ubyte
    sh = np.array([[-3, 7]] * n, np.int16)                            # short, not normalized -> float
    ids = np.array([[-2, 100]] * n, np.int8)                           # byte as int (glVertexAttribIPointer)
    inst = np.arange(3 * 3, dtype=np.float16).reshape(3, 3)           # half, divisor 2
    attribs = (VertexAttrib(0, 0, "float", 3, stride_B=12), VertexAttrib(1, 1, "ubyte", 4, True, stride_B=4),
               VertexAttrib(2, 2, "short", 2, stride_B=4), VertexAttrib(3, 3, "byte", 2, stride_B=2),
               VertexAttrib(4, 4, "half", 3, stride_B=6, divisor=2))
    shader, info = front_half(src, "vertex", ShaderKey.make(vertex_attribs=attribs))
    vbos = {0: pos.view(np.uint8).ravel(), 1: col.ravel(), 2: sh.view(np.uint8).ravel(),
            3: ids.view(np.uint8).ravel(), 4: inst.view(np.uint8).ravel()}
    inst_id = np.array([[0, 1, 2, 3, 4, 5]], np.uint32)
    it = LowerInterpreter(lanes=n, vbos=vbos, sysvals={"load_instance_id": inst_id})
    it.run(shader)
    np.testing.assert_array_equal(as_f32(it.outputs["POS"]), np.concatenate([pos.T, np.ones((1, n))]))
    np.testing.assert_allclose(as_f32(it.outputs[info.varying("VAR0").slot]), col.T / 255.0, rtol=1e-6)
    got = {v.name: it.outputs[v.slot] for v in info.varyings}
    np.testing.assert_array_equal(as_f32(got["s"])[:2], sh.T.astype(np.float32))
    np.testing.assert_array_equal(got["i"][:2].view(np.int32), ids.T.astype(np.int32))
    np.testing.assert_array_equal(as_f32(got["k"])[:3], inst[np.arange(n) // 2].T.astype(np.float32))


def test_link_varyings_by_name_and_location():
    from compiler.lower import link_varyings
    vs = """#version 410
in vec4 p; layout(location = 5) out vec2 byloc; out vec3 n; flat out int id; out float unused;
void main() { gl_Position = p; byloc = p.xy; n = p.xyz; id = 1; unused = 0.0; }"""
    fs = """#version 410
layout(location = 5) in vec2 renamed; in vec3 n; flat in int id; in vec4 missing; out vec4 o;
void main() { o = vec4(renamed, n.x, float(id)) + missing; }"""
    _v, vi = front_half(vs, "vertex")
    _f, fi = front_half(fs, "fragment")
    got = [(b.name, b.cf_base, b.vs_index, b.count, b.interp) for b in link_varyings(vi.varyings, fi.varyings)]
    assert got == [("renamed", 2, 4, 2, "smooth"), ("n", 4, 6, 3, "smooth"), ("missing", 7, None, 4, "smooth"),
                   ("id", 11, 10, 1, "flat")]


def test_centroid_and_sample_qualifiers_reach_the_varying_map():
    fs = """#version 400
centroid in vec2 c; sample in vec3 s; in float n; out vec4 o;
void main() { o = vec4(c, s.x, n); }"""
    _s, info = front_half(fs, "fragment")
    assert [(v.name, v.sampling) for v in info.varyings] == [("c", "centroid"), ("s", "sample"), ("n", "center")]


@pytest.mark.parametrize("block,ref", [("", "{}"), (" b", "b.{}"), (" b[2]", "b[1].{}")])
def test_centroid_and_sample_qualifiers_of_block_members_reach_the_varying_map(block, ref):
    """GLSL 1.50 section 4.3.7: members of an input block keep their own auxiliary
    qualifiers, in an unnamed block (whose members are global names) as in a named one."""
    fs = f"""#version 400
in Blk {{ centroid float c; sample vec2 s; float n; }}{block}; out vec4 o;
void main() {{ o = vec4({ref.format('c')}, {ref.format('s')}.x, {ref.format('n')}, 1.0); }}"""
    _s, info = front_half(fs, "fragment")
    got = {v.name.rsplit(".", 1)[-1]: v.sampling for v in info.varyings}
    assert {k: got[k] for k in "csn"} == {"c": "centroid", "s": "sample", "n": "center"}, got


def test_inactive_uniforms_take_no_registers():
    src = "#version 330\nuniform vec4 big[300]; uniform float f; out vec4 o;\nvoid main() { o = vec4(f); }\n"
    _s, info = front_half(src, "fragment")
    assert list(info.uniforms) == ["f"] and info.uniforms["f"].offset_B == 0 and info.uniform_regs_B == 4


FIT = """#version 330
layout(location = 0) in vec4 a0;
layout(location = 1) in vec4 a1;
uniform vec4 first;
uniform vec4 many[7];
uniform float last;
out vec4 v;
void main() { gl_Position = a0; v = a1 * first + many[6] * last; }
"""


def test_uniforms_that_leave_no_room_for_the_backend_move_to_ubo0():
    # 4 + 16 * 7 + 1 words = 132 B of 160: the backend's addresses (UBO 0, two
    # attributes with strides) do not fit after them, so what does not fit moves to
    # UBO 0 and the rest is packed again from u0.
    _s, info = front_half(FIT, "vertex", ShaderKey.make(uniform_regs_B=160))
    got = {n: (u.file, u.offset_B) for n, u in info.uniforms.items()}
    assert got == {"first": ("regs", 0), "many": ("ubo", 160), "last": ("regs", 16)}
    assert info.uniform_regs_B == 20
    _s, info = front_half(FIT, "vertex", ShaderKey.make(uniform_regs_B=1024))
    assert {u.file for u in info.uniforms.values()} == {"regs"} and info.uniform_regs_B == 132


def test_interpolate_at_names_the_input_varying():
    src = """#version 440
in vec4 a;
noperspective in vec2 arr[3];
out vec4 o;
uniform int i;
void main() { o = interpolateAtOffset(a, vec2(0.25)) + interpolateAtSample(arr[i], 2).xyxy
                  + interpolateAtCentroid(a.w); }
"""
    from compiler.ir import Intrinsic, walk_instrs
    shader, info = front_half(src, "fragment")
    got = sorted((i.indices["loc"], i.indices["slot"], i.indices["base"], i.indices["interp"], i.dest.num_components)
                 for i in walk_instrs(shader.main.body)
                 if isinstance(i, Intrinsic) and i.name == "load_interpolated_input")
    a, arr = info.varying("VAR0"), info.varying("VAR1")
    assert (a.name, arr.name) == ("a", "arr")
    # arr[i] with a dynamic i: one iter per element and a select
    assert got == [("at_offset", "VAR0", a.index, "smooth", 4)] + [
        ("at_sample", "VAR1", arr.index, "noperspective", 2)] * 3 + [("centroid", "VAR0", a.index, "smooth", 4)]
