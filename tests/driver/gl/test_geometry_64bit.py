"""64-bit values (doubles, 64-bit integers) through the geometry stage and into the
vertex records the geometry and tessellation kernels read: a dvec3/dvec4 vertex output
takes two record locations (8 words), each captured in two stream-output entries; a
geometry output of a 64-bit type is written as its words and rebuilt by the
rasterisation pass's vertex program (flat, as GLSL requires of 64-bit fragment inputs).

The fragment stage compares the bits it receives (unpackDouble2x32 / unpackUint2x32)
with the bits numpy gives for the same values: green when all match."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W = H = 4
QUAD = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
# DBL_MAX, 1/3, -0.0, the smallest denormal, then a dmat2x3's columns
DOUBLES = [1.7976931348623157e308, 1.0 / 3.0, -0.0, 5e-324, 1.5, -2.25, 1e-300, 7.0, -0.125, 3e10]
INT64S = [-(1 << 62) - 5, (1 << 40) + 3, -1]


def _words(x: float) -> tuple[int, int]:
    """(low, high) 32-bit words of a binary64 value, as numpy stores it."""
    lo, hi = struct.unpack("<2I", np.float64(x).tobytes())
    return lo, hi


def _check_words(values: list[str], words: list[tuple[int, int]]) -> str:
    """A GLSL condition: each of ``values`` (uvec2 expressions) equals its words."""
    return " && ".join(f"{v} == uvec2({lo}u, {hi}u)" for v, (lo, hi) in zip(values, words))


VS = """#version 150
#extension GL_ARB_gpu_shader_fp64 : require
uniform dvec4 a;
uniform dmat2x3 m;
in vec2 pos;
out dvec4 va;
out dmat2x3 vm;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    va = a;
    vm = m;
}
"""
GS = """#version 150
#extension GL_ARB_gpu_shader_fp64 : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in dvec4 va[];
in dmat2x3 vm[];
flat out dvec4 ga;
flat out dmat2x3 gm;
void main() {
    for (int k = 0; k < 3; k++) {
        gl_Position = gl_in[k].gl_Position;
        ga = va[k];
        gm = vm[k];
        EmitVertex();
    }
}
"""


def _fs_doubles() -> str:
    names = [f"unpackDouble2x32(ga.{c})" for c in "xyzw"] + \
            [f"unpackDouble2x32(gm[{c}][{r}])" for c in range(2) for r in range(3)]
    return f"""#version 150
#extension GL_ARB_gpu_shader_fp64 : require
flat in dvec4 ga;
flat in dmat2x3 gm;
out vec4 colour;
void main() {{
    bool same = {_check_words(names, [_words(x) for x in DOUBLES])};
    colour = same ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""


def _image(ctx):
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4)


def _draw(ctx, prog):
    glhelp.vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    return _image(ctx)


def test_doubles_through_the_geometry_stage_keep_their_bits():
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS, E.GL_GEOMETRY_SHADER: GS,
                             E.GL_FRAGMENT_SHADER: _fs_doubles()})
    ctx.glUniform4d(ctx.glGetUniformLocation(prog, "a"), *DOUBLES[:4])
    ctx.glUniformMatrix2x3dv(ctx.glGetUniformLocation(prog, "m"), 1, False, DOUBLES[4:])
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()


@pytest.mark.parametrize("written", ["input", "constant"])
def test_a_64_bit_integer_geometry_output(written):
    """A u64vec2/int64_t pair written by the geometry stage, from the vertex stage's
    records (``input``) or from constants (``constant``)."""
    value = "vi[k]" if written == "input" else f"i64vec3({INT64S[0]}l, {INT64S[1]}l, {INT64S[2]}l)"
    vs = f"""#version 150
#extension GL_ARB_gpu_shader_int64 : require
in vec2 pos;
out i64vec3 vi;
void main() {{
    gl_Position = vec4(pos, 0.0, 1.0);
    vi = i64vec3({INT64S[0]}l, {INT64S[1]}l, {INT64S[2]}l);
}}
"""
    gs = f"""#version 150
#extension GL_ARB_gpu_shader_int64 : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in i64vec3 vi[];
flat out i64vec3 gi;
void main() {{
    for (int k = 0; k < 3; k++) {{
        gl_Position = gl_in[k].gl_Position;
        gi = {value};
        EmitVertex();
    }}
}}
"""
    words = [struct.unpack("<2I", np.int64(x).tobytes()) for x in INT64S]
    names = [f"unpackUint2x32(uint64_t(gi.{c}))" for c in "xyz"]
    fs = f"""#version 150
#extension GL_ARB_gpu_shader_int64 : require
flat in i64vec3 gi;
out vec4 colour;
void main() {{
    colour = {_check_words(names, words)} ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_GEOMETRY_SHADER: gs, E.GL_FRAGMENT_SHADER: fs})
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()


def test_a_dvec4_vertex_output_reaches_the_tessellation_stages_whole():
    """The control stage reads the vertex stage's dvec4 records (both halves)."""
    vs = """#version 400
uniform dvec4 a;
in vec2 pos;
out dvec4 va;
void main() { gl_Position = vec4(pos, 0.0, 1.0); va = a; }
"""
    tcs = """#version 400
layout(vertices = 4) out;
in dvec4 va[];
patch out dvec4 pa;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) pa = va[2];
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
    tes = """#version 400
layout(quads) in;
patch in dvec4 pa;
flat out dvec4 ga;
void main() {
    vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
    gl_Position = mix(bottom, top, gl_TessCoord.y);
    ga = pa;
}
"""
    names = [f"unpackDouble2x32(ga.{c})" for c in "xyzw"]
    fs = f"""#version 400
flat in dvec4 ga;
out vec4 colour;
void main() {{
    colour = {_check_words(names, [_words(x) for x in DOUBLES[:4]])} ? vec4(0.0, 1.0, 0.0, 1.0)
                                                                     : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_TESS_CONTROL_SHADER: tcs,
                             E.GL_TESS_EVALUATION_SHADER: tes, E.GL_FRAGMENT_SHADER: fs})
    ctx.glUniform4d(ctx.glGetUniformLocation(prog, "a"), *DOUBLES[:4])
    glhelp.vertices(ctx, prog, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), {"pos": (2, 0)}, 2)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()


def test_a_double_matrix_through_the_tessellation_stages():
    """A dmat2x4 vertex output read by the control stage (two 8-word columns in the
    vertex records), handed on as a patch output, written by the evaluation stage as a
    flat dmat2x4 (two locations a column in its records) and read by the fragment stage."""
    vs = """#version 400
uniform dmat2x4 m;
in vec2 pos;
out dmat2x4 vm;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vm = m; }
"""
    tcs = """#version 400
layout(vertices = 4) out;
in dmat2x4 vm[];
patch out dmat2x4 pm;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) pm = vm[3];
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
    tes = """#version 400
layout(quads) in;
patch in dmat2x4 pm;
flat out dmat2x4 gm;
void main() {
    vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
    gl_Position = mix(bottom, top, gl_TessCoord.y);
    gm = pm;
}
"""
    values = DOUBLES[2:10]
    names = [f"unpackDouble2x32(gm[{c}][{r}])" for c in range(2) for r in range(4)]
    fs = f"""#version 400
flat in dmat2x4 gm;
out vec4 colour;
void main() {{
    colour = {_check_words(names, [_words(x) for x in values])} ? vec4(0.0, 1.0, 0.0, 1.0)
                                                                : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_TESS_CONTROL_SHADER: tcs,
                             E.GL_TESS_EVALUATION_SHADER: tes, E.GL_FRAGMENT_SHADER: fs})
    ctx.glUniformMatrix2x4dv(ctx.glGetUniformLocation(prog, "m"), 1, False, values)
    glhelp.vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()


BLOCK_VS = """#version 400
uniform dvec4 a;
uniform dmat2x3 m;
uniform int index;
in vec2 pos;
out Block {
    float f;
    dvec4 d[2];
    dmat2x3 dm;
    vec3 v;
    double s;
} blk;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    blk.f = 0.5;
    blk.d[0] = dvec4(0.25);
    blk.d[1] = dvec4(0.75);
    blk.d[index] = a;
    blk.dm = m;
    blk.v = vec3(1.0, 2.0, 3.0);
    blk.s = a.y;
}
"""


def _block_fs(stage_out: str) -> str:
    """The fragment stage of the block tests: green when the flat outputs the last
    stage copied from the block hold the uniforms' bits and the 32-bit members."""
    names = [f"unpackDouble2x32(gd.{c})" for c in "xyzw"] + \
            [f"unpackDouble2x32(gm[{c}][{r}])" for c in range(2) for r in range(3)] + \
            ["unpackDouble2x32(gs)"]
    values = DOUBLES[:4] + DOUBLES[4:10] + [DOUBLES[1]]
    return f"""#version 400
flat in dvec4 gd;
flat in dmat2x3 gm;
flat in double gs;
flat in vec4 gf;
out vec4 colour;
void main() {{
    bool same = {_check_words(names, [_words(x) for x in values])};
    colour = same && gf == vec4(0.5, 1.0, 2.0, 3.0) ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""


@pytest.mark.parametrize("index", [0, 1])
@pytest.mark.parametrize("stage", ["geometry", "tessellation"])
def test_a_block_with_64_bit_members_reaches_the_next_stage_whole(stage, index):
    """An output block mixing 32-bit and 64-bit members (a dvec4 array written with a
    dynamic index, a dmat2x3, a double) is captured value by value: each dvec4 element
    takes two record locations, the 32-bit members one. The geometry or tessellation
    control stage reads element ``index`` of the array and every other member back bit
    for bit (the dvec4 array's elements used to be captured one location apart, so an
    element's z and w read the next element's x and y)."""
    copy = """gd = blk{v}.d[index]; gm = blk{v}.dm; gs = blk{v}.s; gf = vec4(blk{v}.f, blk{v}.v);"""
    block_in = """in Block { float f; dvec4 d[2]; dmat2x3 dm; vec3 v; double s; } blk[];"""
    outs = """flat out dvec4 gd; flat out dmat2x3 gm; flat out double gs; flat out vec4 gf;"""
    if stage == "geometry":
        gs = f"""#version 400
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
uniform int index;
{block_in}
{outs}
void main() {{
    for (int k = 0; k < 3; k++) {{
        gl_Position = gl_in[k].gl_Position;
        {copy.format(v="[k]")}
        EmitVertex();
    }}
}}
"""
        shaders = {E.GL_GEOMETRY_SHADER: gs}
    else:
        tcs = f"""#version 400
layout(vertices = 4) out;
uniform int index;
{block_in}
patch out dvec4 pd; patch out dmat2x3 pm; patch out double ps; patch out vec4 pf;
void main() {{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0) {{
        pd = blk[1].d[index]; pm = blk[1].dm; ps = blk[1].s; pf = vec4(blk[1].f, blk[1].v);
    }}
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}}
"""
        tes = f"""#version 400
layout(quads) in;
patch in dvec4 pd; patch in dmat2x3 pm; patch in double ps; patch in vec4 pf;
{outs}
void main() {{
    vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
    gl_Position = mix(bottom, top, gl_TessCoord.y);
    gd = pd; gm = pm; gs = ps; gf = pf;
}}
"""
        shaders = {E.GL_TESS_CONTROL_SHADER: tcs, E.GL_TESS_EVALUATION_SHADER: tes}
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: BLOCK_VS, E.GL_FRAGMENT_SHADER: _block_fs(stage), **shaders})
    ctx.glUseProgram(prog)
    ctx.glUniform4d(ctx.glGetUniformLocation(prog, "a"), *DOUBLES[:4])
    ctx.glUniformMatrix2x3dv(ctx.glGetUniformLocation(prog, "m"), 1, False, DOUBLES[4:10])
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "index"), index)
    glhelp.vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    if stage == "geometry":
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    else:
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()
