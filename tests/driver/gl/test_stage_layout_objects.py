"""A geometry or tessellation control stage made of several shader objects, its layout
declared in one object and the code that depends on it in another (GLSL 1.50 section
4.3.8.2 / GLSL 4.00 section 4.3.8.2: the declarations of all objects of the stage
combine): the linked stage has the primitives and max_vertices, or the output patch
size, whichever object gave them, and a control object without layout(vertices) may
index gl_out[] and its per-vertex outputs with gl_InvocationID (the link sizes them).
Colours and counts by hand."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W = H = 4


def _program(ctx, objects: list[tuple[int, str]]) -> int:
    p = ctx.glCreateProgram()
    for kind, src in objects:
        ctx.glAttachShader(p, glhelp.compile_shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _image(ctx):
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4)


FS = """#version 150
in vec4 colour;
out vec4 c;
void main() { c = colour; }
"""


def test_geometry_layout_in_another_object():
    """The main geometry object has no layout; a second one declares points in and a
    4-vertex triangle strip out, a third the function making the corners. One point
    becomes the quad covering the viewport (green everywhere)."""
    vs = """#version 150
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }
"""
    gs_main = """#version 150
vec4 corner(int i);
out vec4 colour;
void main() {
    for (int i = 0; i < 4; i++) {
        gl_Position = corner(i);
        colour = vec4(0.0, 1.0, 0.0, 1.0);
        EmitVertex();
    }
}
"""
    gs_layout = """#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
"""
    gs_corner = """#version 150
vec4 corner(int i) { return vec4(float(i % 2) * 2.0 - 1.0, float(i / 2) * 2.0 - 1.0, 0.0, 1.0); }
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs_main),
                          (E.GL_GEOMETRY_SHADER, gs_layout), (E.GL_GEOMETRY_SHADER, gs_corner),
                          (E.GL_FRAGMENT_SHADER, FS)])
    assert ctx.glGetProgramiv(prog, E.GL_GEOMETRY_VERTICES_OUT)[0] == 4
    assert ctx.glGetProgramiv(prog, E.GL_GEOMETRY_INPUT_TYPE)[0] == E.GL_POINTS
    assert ctx.glGetProgramiv(prog, E.GL_GEOMETRY_OUTPUT_TYPE)[0] == E.GL_TRIANGLE_STRIP
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()


def test_control_outputs_written_by_an_object_without_the_patch_size():
    """The control object that declares layout(vertices = 3) calls a function of another
    object, which writes gl_out[gl_InvocationID] and a per-vertex output indexed by
    gl_InvocationID without knowing the patch size. Two patches of three vertices cover
    the viewport; the evaluation stage averages the three colours (green)."""
    vs = """#version 400
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
    tcs_main = """#version 400
layout(vertices = 3) out;
void copy_vertex();
void main() {
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
    copy_vertex();
}
"""
    tcs_copy = """#version 400
out vec4 vcolour[];
void copy_vertex() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    vcolour[gl_InvocationID] = vec4(0.0, float(gl_InvocationID), 0.0, 1.0);     // green 0, 1, 2
}
"""
    tes = """#version 400
layout(triangles) in;
in vec4 vcolour[];
out vec4 colour;
void main() {
    gl_Position = gl_in[0].gl_Position * gl_TessCoord.x + gl_in[1].gl_Position * gl_TessCoord.y
                + gl_in[2].gl_Position * gl_TessCoord.z;
    colour = (vcolour[0] + vcolour[1] + vcolour[2]) / 3.0;   // (0, 1, 0, 1)
}
"""
    ctx = glhelp.context(W, H, api="gl46")
    prog = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_TESS_CONTROL_SHADER, tcs_main),
                          (E.GL_TESS_CONTROL_SHADER, tcs_copy), (E.GL_TESS_EVALUATION_SHADER, tes),
                          (E.GL_FRAGMENT_SHADER, FS.replace("150", "400"))])
    assert ctx.glGetProgramiv(prog, E.GL_TESS_CONTROL_OUTPUT_VERTICES)[0] == 3
    quad = np.array([-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1], np.float32)
    glhelp.vertices(ctx, prog, quad, {"pos": (2, 0)}, 2)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()
