"""Programs whose stages are made of several shader objects (GL 4.6 section 7.3): a
function declared in one object and defined in another links and draws, globals of one
name are one variable, and what does not link says why in the program's info log."""

import numpy as np

from tests.driver.agx.glhelp import compile_shader, context

VS_MAIN = """#version 150
in vec2 pos;
vec4 place(vec2 p);
void main() { gl_Position = place(pos); }
"""
VS_LIB = """#version 150
uniform float depth;
vec4 place(vec2 p) { return vec4(p, depth, 1.0); }
"""
FS_MAIN = """#version 150
uniform vec4 tint;
out vec4 colour;
vec4 shade(vec4 c);
void main() { colour = shade(tint); }
"""
FS_LIB = """#version 150
uniform vec4 tint;          // the same uniform as the main object's
vec4 shade(vec4 c) { return vec4(c.bgr, 1.0) * tint.a; }
"""


def _program(ctx, objects):
    p = ctx.glCreateProgram()
    for kind, src in objects:
        ctx.glAttachShader(p, compile_shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    return p


def test_stages_split_over_shader_objects_draw():
    ctx = context(16, 16, api="gl33")
    p = _program(ctx, [(ctx.GL_VERTEX_SHADER, VS_MAIN), (ctx.GL_VERTEX_SHADER, VS_LIB),
                       (ctx.GL_FRAGMENT_SHADER, FS_LIB), (ctx.GL_FRAGMENT_SHADER, FS_MAIN)])
    assert ctx.glGetProgramiv(p, ctx.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, vbo)
    tri = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)
    ctx.glBufferData(ctx.GL_ARRAY_BUFFER, tri.nbytes, tri, ctx.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(p, "pos")
    ctx.glVertexAttribPointer(loc, 2, ctx.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(loc)
    # one active `tint' for the two objects that declare it
    n = ctx.glGetProgramiv(p, ctx.GL_ACTIVE_UNIFORMS)[0]
    names = sorted(ctx.glGetActiveUniformName(p, i) for i in range(n))
    assert names == ["depth", "tint"]
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "tint"), 0.2, 0.4, 1.0, 0.5)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "depth"), 0.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels().astype(int)
    expect = np.round(np.array([1.0 * 0.5, 0.4 * 0.5, 0.2 * 0.5, 0.5]) * 255)   # bgr of tint times its alpha
    assert np.abs(img - expect).max() <= 1
    assert ctx.glGetError() == 0


def test_an_unresolved_function_compiles_but_does_not_link():
    ctx = context(8, 8, api="gl33")
    vs = "#version 150\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
    p = _program(ctx, [(ctx.GL_VERTEX_SHADER, vs), (ctx.GL_FRAGMENT_SHADER, FS_MAIN)])
    assert ctx.glGetProgramiv(p, ctx.GL_LINK_STATUS) == [0]
    assert "unresolved reference to function `shade'" in ctx.glGetProgramInfoLog(p)
    assert ctx.glGetError() == 0
