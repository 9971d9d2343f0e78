"""Stages made of several shader objects (GL 4.6 section 7.3: one of them has main(), the
others define functions it calls) for the stages lowered to compute kernels: the geometry
stage and a vertex stage feeding it, with and without tessellation. Images against
hand-computed coverage and colours."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

W = H = 16

VS_MAIN = """#version 400
in vec2 pos;
vec4 place(vec2 p);
void main() { gl_Position = place(pos); }
"""
VS_LIB = "#version 400\nvec4 place(vec2 p) { return vec4(p, 0.0, 1.0); }\n"
GS_MAIN = """#version 400
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 gcol;
vec4 colour_of(int i);
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        gcol = colour_of(i);
        EmitVertex();
    }
}
"""
GS_LIB = """#version 400
layout(triangles) in;
uniform vec4 tint;
vec4 colour_of(int i) { return tint; }
"""
FS = "#version 400\nin vec4 gcol;\nout vec4 frag;\nvoid main() { frag = gcol; }\n"


@pytest.fixture(scope="module")
def ctx():
    with driver.Context(api="gl43", width=W, height=H) as c:
        yield c


def _shader(ctx, kind, src):
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
    return s


def _draw(ctx, objects, mode, count, patch_vertices=None):
    p = ctx.glCreateProgram()
    for kind, src in objects:
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "tint"), 1.0, 0.0, 1.0, 1.0)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    pos = np.array([[-1, -1], [1, -1], [-1, 1]], np.float32)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, pos.nbytes, pos.tobytes(), E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(p, "pos")
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(loc)
    if patch_vertices:
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, patch_vertices)
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(mode, 0, count)
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    y, x = np.mgrid[0:H, 0:W]
    half = (x + 0.5) + (y + 0.5) < W            # the lower-left triangle's pixel centres
    assert ((img[..., :3].astype(int).sum(axis=2) > 0) == half).all()
    assert tuple(img[2, 2]) == (255, 0, 255, 255)


def test_geometry_stage_of_two_objects(ctx):
    _draw(ctx, [(E.GL_VERTEX_SHADER, VS_MAIN), (E.GL_VERTEX_SHADER, VS_LIB), (E.GL_GEOMETRY_SHADER, GS_LIB),
                (E.GL_GEOMETRY_SHADER, GS_MAIN), (E.GL_FRAGMENT_SHADER, FS)], E.GL_TRIANGLES, 3)


def test_geometry_after_tessellation_all_of_two_objects(ctx):
    tcs = "#version 400\nlayout(vertices = 3) out;\nvoid pass_through();\nvoid main() { pass_through(); }\n"
    tcs_lib = """#version 400
layout(vertices = 3) out;
void pass_through() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 2.0;
    gl_TessLevelOuter[1] = 2.0;
    gl_TessLevelOuter[2] = 2.0;
    gl_TessLevelInner[0] = 2.0;
}
"""
    tes = "#version 400\nlayout(triangles) in;\nvec4 at(vec3 c);\nvoid main() { gl_Position = at(gl_TessCoord); }\n"
    tes_lib = """#version 400
layout(triangles) in;
vec4 at(vec3 c) { return c.x * gl_in[0].gl_Position + c.y * gl_in[1].gl_Position + c.z * gl_in[2].gl_Position; }
"""
    _draw(ctx, [(E.GL_VERTEX_SHADER, VS_MAIN), (E.GL_VERTEX_SHADER, VS_LIB), (E.GL_TESS_CONTROL_SHADER, tcs),
                (E.GL_TESS_CONTROL_SHADER, tcs_lib), (E.GL_TESS_EVALUATION_SHADER, tes),
                (E.GL_TESS_EVALUATION_SHADER, tes_lib), (E.GL_GEOMETRY_SHADER, GS_MAIN),
                (E.GL_GEOMETRY_SHADER, GS_LIB), (E.GL_FRAGMENT_SHADER, FS)], E.GL_PATCHES, 3, 3)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
