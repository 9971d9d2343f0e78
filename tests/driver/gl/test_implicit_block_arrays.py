"""Input and output block members declared without a size (desktop GLSL 1.50 and later,
as Mesa: an implicitly sized array takes the size its largest constant index implies,
section 4.1.9) between the vertex, geometry and fragment stages. Each shader object is
sized on its own; the values drawn are checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.glsl import GLSLCompileError, parse
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W = H = 4
QUAD = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)

VS_NAMED = """#version 150
in vec2 pos;
out blk { float f[]; float g; } o;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    o.f[0] = 0.25;
    o.f[2] = 0.75;
    o.g = 0.5;
}
"""
VS_UNNAMED = """#version 150
in vec2 pos;
out blk { float f[]; float g; };
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    f[0] = 0.25;
    f[2] = 0.75;
    g = 0.5;
}
"""
FS = """#version 150
in blk { float f[3]; float g; } o;
out vec4 colour;
void main() { colour = vec4(o.f[0], o.g, o.f[2], 1.0); }
"""
FS_UNNAMED = """#version 150
in blk { float f[3]; float g; };
out vec4 colour;
void main() { colour = vec4(f[0], g, f[2], 1.0); }
"""
# the geometry stage reads the members through an array of blocks, sized implicitly too
GS = """#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in blk { float f[]; float g; } ins[];
out blk { float f[3]; float g; } o;
void main() {
    for (int k = 0; k < 3; k++) {
        gl_Position = gl_in[k].gl_Position;
        o.f[0] = ins[k].f[0];
        o.f[1] = 0.0;
        o.f[2] = ins[k].f[2];
        o.g = ins[k].g;
        EmitVertex();
    }
}
"""
EXPECTED = [64, 128, 191, 255]         # 0.25, 0.5, 0.75 in unorm8


@pytest.mark.parametrize("vs, fs", [(VS_NAMED, FS), (VS_UNNAMED, FS_UNNAMED)], ids=["instance", "no-instance"])
@pytest.mark.parametrize("gs", [None, GS], ids=["vs-fs", "vs-gs-fs"])
def test_implicitly_sized_block_members_carry_their_values(vs, fs, gs):
    ctx = glhelp.context(W, H, api="compat")
    stages = {E.GL_VERTEX_SHADER: vs, E.GL_FRAGMENT_SHADER: fs if gs is None else FS}
    if gs is not None:
        stages[E.GL_GEOMETRY_SHADER] = gs
    prog = glhelp.link(ctx, stages)
    glhelp.vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (np.abs(img.reshape(-1, 4).astype(int) - EXPECTED) <= 1).all()


def test_the_implicit_size_is_the_largest_constant_index_plus_one():
    unit = parse(VS_NAMED, "vertex")
    (o,) = [v for v in unit.globals if v.name == "o"]
    (f,) = [m for m in o.type.fields if m.name == "f"]
    assert f.type.length == 3


@pytest.mark.parametrize("body, message", [
    ("int i = 1; o.f[i] = 1.0;", "index must be constant"),
    ("o.f[0] = float(o.f.length());", "length called on unsized array"),
])
def test_an_implicitly_sized_member_needs_constant_indices(body, message):
    src = f"#version 150\nout blk {{ float f[]; }} o;\nvoid main() {{ {body} }}\n"
    with pytest.raises(GLSLCompileError, match=message):
        parse(src, "vertex")


def test_glsl_es_refuses_unsized_block_members():
    src = "#version 320 es\nout blk { float f[]; } o;\nvoid main() { o.f[0] = 1.0; }\n"
    with pytest.raises(GLSLCompileError, match="unsized array"):
        parse(src, "vertex")
