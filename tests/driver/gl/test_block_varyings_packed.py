"""Output and input blocks between stages as varyings: each member of a block is a
varying of its own, named ``Block.member`` (whether the block has an instance name or
not: blocks match by block name, GLSL 1.50 section 4.3.7), so a member takes the
components it has in each location (a ``float[64]`` member 64 vertex output words, as
Mesa packs scalar arrays) instead of four words a location, and an instance-less output
block feeds a named input block and the reverse. Values by hand; green when all match."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W = H = 4
QUAD = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)


def _image(ctx):
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4)


def _draw(ctx, prog, mode=E.GL_TRIANGLE_STRIP):
    glhelp.vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(mode, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    return _image(ctx)


def _max_floats(ctx, *limits) -> int:
    return min(ctx.glGetIntegerv(limit)[0] for limit in limits)


@pytest.mark.parametrize("instance", ["outs", ""])
def test_a_block_of_the_maximum_output_components_reaches_the_fragment_stage(instance):
    """A block of gl_MaxVertexOutputComponents floats (fragment inputs permitting): 64
    words of vertex outputs besides the position, not 4 a float (256 + 4 words do not
    fit the 255 outputs of a vertex shader)."""
    ctx = glhelp.context(W, H, api="gl46")
    n = _max_floats(ctx, E.GL_MAX_VERTEX_OUTPUT_COMPONENTS, E.GL_MAX_FRAGMENT_INPUT_COMPONENTS)
    assert n >= 64
    ref = f"{instance}." if instance else ""
    vs = f"""#version 150
in vec2 pos;
out Blk {{ float f[{n}]; }} {instance};
void main() {{
    gl_Position = vec4(pos, 0.0, 1.0);
    for (int i = 0; i < {n}; i++) {ref}f[i] = float(i * 3 + 1);
}}
"""
    fs = f"""#version 150
in Blk {{ float f[{n}]; }} {instance};
out vec4 colour;
void main() {{
    bool ok = true;
    for (int i = 0; i < {n}; i++) ok = ok && {ref}f[i] == float(i * 3 + 1);
    colour = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_FRAGMENT_SHADER: fs})
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()


def test_a_block_of_the_maximum_input_components_reaches_the_geometry_stage():
    """As piglit's max-input-components: gl_MaxGeometryInputComponents floats in a
    block, through the geometry stage's vertex pass (whose vertex shader keeps its
    outputs within the hardware's count) into its records."""
    ctx = glhelp.context(W, H, api="gl46")
    n = _max_floats(ctx, E.GL_MAX_VERTEX_OUTPUT_COMPONENTS, E.GL_MAX_GEOMETRY_INPUT_COMPONENTS)
    vs = f"""#version 150
in vec2 pos;
out Blk {{ float f[{n}]; }} outs;
void main() {{
    gl_Position = vec4(pos, 0.0, 1.0);
    for (int i = 0; i < {n}; i++) outs.f[i] = float(gl_VertexID * 1000 + i + 1);
}}
"""
    gs = f"""#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in Blk {{ float f[{n}]; }} ins[];
out vec4 colour;
void main() {{
    bool ok = true;
    for (int k = 0; k < 3; k++) {{
        int v = int(ins[k].f[0] - 1.0) / 1000;
        for (int i = 0; i < {n}; i++) ok = ok && ins[k].f[i] == float(v * 1000 + i + 1);
    }}
    for (int k = 0; k < 3; k++) {{
        gl_Position = gl_in[k].gl_Position;
        colour = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
        EmitVertex();
    }}
}}
"""
    fs = """#version 150
in vec4 colour;
out vec4 c;
void main() { c = colour; }
"""
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_GEOMETRY_SHADER: gs, E.GL_FRAGMENT_SHADER: fs})
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()


MEMBERS = "vec4 c; float f[3]; flat ivec2 i;"
WRITE = """{p}c = vec4(0.25, 0.5, 0.75, 1.0); {p}f[0] = 2.0; {p}f[1] = 3.0; {p}f[2] = 5.0; {p}i = ivec2(-7, 9);"""
CHECK = """{p}c == vec4(0.25, 0.5, 0.75, 1.0) && {p}f[0] == 2.0 && {p}f[1] == 3.0 && {p}f[2] == 5.0
    && {p}i == ivec2(-7, 9)"""


@pytest.mark.parametrize("out_instance, in_instance", [("", "fs_in"), ("vs_out", ""), ("vs_out", "fs_in")])
def test_blocks_match_by_block_name_with_or_without_instance(out_instance, in_instance):
    """An instance-less output block feeds a named input block of the same block name
    and the reverse (GLSL 1.50 section 4.3.7: the block name matches, the instance
    name is the stage's own)."""
    p_out = f"{out_instance}." if out_instance else ""
    p_in = f"{in_instance}." if in_instance else ""
    vs = f"""#version 150
in vec2 pos;
out Data {{ {MEMBERS} }} {out_instance};
void main() {{ gl_Position = vec4(pos, 0.0, 1.0); {WRITE.format(p=p_out)} }}
"""
    fs = f"""#version 150
in Data {{ {MEMBERS} }} {in_instance};
out vec4 colour;
void main() {{ colour = {CHECK.format(p=p_in)} ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0); }}
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_FRAGMENT_SHADER: fs})
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()


@pytest.mark.parametrize("out_instance", ["", "vs_out"])
def test_a_vertex_block_reaches_a_geometry_input_block_by_block_name(out_instance):
    """The geometry stage's input block (an array, named) reads an output block of the
    vertex stage declared with or without an instance name; the geometry stage's own
    instance-less output block feeds the fragment stage's named one."""
    p_out = f"{out_instance}." if out_instance else ""
    vs = f"""#version 150
in vec2 pos;
out Data {{ {MEMBERS} }} {out_instance};
void main() {{ gl_Position = vec4(pos, 0.0, 1.0); {WRITE.format(p=p_out)} }}
"""
    gs = f"""#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in Data {{ {MEMBERS} }} gs_in[];
out Result {{ vec4 colour; }};
void main() {{
    for (int k = 0; k < 3; k++) {{
        gl_Position = gl_in[k].gl_Position;
        colour = {CHECK.format(p="gs_in[k].")} ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
        EmitVertex();
    }}
}}
"""
    fs = """#version 150
in Result { vec4 colour; } fs_in;
out vec4 c;
void main() { c = fs_in.colour; }
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_GEOMETRY_SHADER: gs, E.GL_FRAGMENT_SHADER: fs})
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()


def test_arrays_of_blocks_match_by_block_name():
    """An array of blocks (GLSL 1.50 allows them between the vertex and fragment
    stages) links by block name whatever the two instance names."""
    vs = """#version 150
in vec2 pos;
out Data { vec4 c; float f; } vs_out[2];
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    vs_out[0].c = vec4(0.0, 0.5, 0.0, 0.5); vs_out[0].f = 0.25;
    vs_out[1].c = vec4(0.0, 0.5, 0.0, 0.5); vs_out[1].f = 0.75;
}
"""
    fs = """#version 150
in Data { vec4 c; float f; } fs_in[2];
out vec4 colour;
void main() { colour = fs_in[0].c + fs_in[1].c + vec4(fs_in[0].f + fs_in[1].f - 1.0); }
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_FRAGMENT_SHADER: fs})
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()


def test_members_of_an_array_of_blocks_keep_their_own_interpolation():
    """Each member of each element of an array of blocks is its own varying, so a flat
    member is the provoking vertex's value (the last of each triangle: vertex 2 or 3 of
    the strip) and a noperspective member equals a plain noperspective varying written
    the same (the whole block was one smooth varying)."""
    vs = """#version 150
in vec2 pos;
noperspective out float ref;
out Blk { flat float a; noperspective float b; } ifc[2];
void main() {
    gl_Position = vec4(pos, 0.0, 1.0) * float(gl_VertexID + 1);
    float v = float(gl_VertexID);
    ref = v;
    for (int i = 0; i < 2; i++) { ifc[i].a = v + float(i); ifc[i].b = v * 2.0 + float(i); }
}
"""
    fs = """#version 150
noperspective in float ref;
in Blk { flat float a; noperspective float b; } ifc[2];
out vec4 colour;
void main() {
    bool flat_ok = (ifc[0].a == 2.0 || ifc[0].a == 3.0) && ifc[1].a == ifc[0].a + 1.0;
    bool linear_ok = abs(ifc[0].b - 2.0 * ref) < 1e-4 && abs(ifc[1].b - 2.0 * ref - 1.0) < 1e-4;
    colour = vec4(flat_ok ? 0.0 : 1.0, linear_ok ? 1.0 : 0.0, 0.0, 1.0);
}
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_FRAGMENT_SHADER: fs})
    assert (_draw(ctx, prog) == [0, 255, 0, 255]).all()
