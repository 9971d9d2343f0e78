"""An array uniform read only with constant indices is active with one element past
the highest index read, in every stage together (Mesa's linker; piglit
glsl-getactiveuniform-array-size): GL_UNIFORM_SIZE and glGetActiveUniform say so and
the elements above have no location. Read with a variable index, or with an explicit
location, it keeps its declared size."""

from __future__ import annotations

import driver
from driver.gl import enums as E

import struct

from .helpers import compile_source, expect, link_and_use

VS = """#version 130
in vec4 pos;
uniform vec4 color[50];
uniform vec4 unused[100];
uniform vec4 dyn[8];
uniform int k;
out vec4 c;
void main() { gl_Position = pos; c = color[24] + color[3] + dyn[k] * 0.0; }
"""
FS = """#version 130
in vec4 c;
uniform vec4 color[50];
out vec4 o;
void main() { o = c + color[30] * 0.0; }
"""


def _program(ctx, vs=VS, fs=FS):
    shaders = []
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        shaders.append(sh)
    return link_and_use(ctx, *shaders)


def test_highest_constant_index_over_the_stages_sizes_the_array():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        prog = _program(ctx)
        idx = ctx.glGetUniformIndices(prog, 2, ["color[0]", "dyn[0]"])
        sizes = ctx.glGetActiveUniformsiv(prog, 2, idx, E.GL_UNIFORM_SIZE)
        assert list(sizes) == [31, 8]          # color: 30 read by the fragment stage, + 1; dyn: all
        assert ctx.glGetUniformIndices(prog, 1, ["unused[0]"]) == [E.GL_INVALID_INDEX]
        assert ctx.glGetUniformLocation(prog, "color[30]") != -1
        assert ctx.glGetUniformLocation(prog, "color[31]") == -1
        assert ctx.glGetUniformLocation(prog, "dyn[7]") != -1
        assert ctx.glGetActiveUniform(prog, idx[0])[:2] == ("color[0]", 31)
        # 50 values written from color[0]: the 31 active ones land, no error; the shader
        # reads color[24] + color[3]
        values = [0.0] * 200
        values[24 * 4:24 * 4 + 4] = [0.25, 0.0, 0.5, 0.5]
        values[3 * 4:3 * 4 + 4] = [0.25, 1.0, 0.0, 0.5]
        ctx.glUniform4fv(ctx.glGetUniformLocation(prog, "color"), 50, values)
        expect(ctx, E.GL_NO_ERROR)
        assert list(ctx.glGetUniformfv(prog, ctx.glGetUniformLocation(prog, "color[24]"))) == [0.25, 0.0, 0.5, 0.5]
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        quad = [-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1]
        ctx.glBufferData(E.GL_ARRAY_BUFFER, 64, struct.pack("16f", *quad), E.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(prog, "pos")
        ctx.glVertexAttribPointer(loc, 4, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert (ctx.read_pixels() == [128, 255, 128, 255]).all()


def test_explicit_locations_keep_the_declared_size():
    vs = VS.replace("#version 130", "#version 430").replace("uniform vec4 color[50];",
                                                            "layout(location = 10) uniform vec4 color[50];")
    fs = FS.replace("#version 130", "#version 430").replace("uniform vec4 color[50];",
                                                            "layout(location = 10) uniform vec4 color[50];")
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        prog = _program(ctx, vs, fs)
        idx = ctx.glGetUniformIndices(prog, 1, ["color[0]"])
        assert list(ctx.glGetActiveUniformsiv(prog, 1, idx, E.GL_UNIFORM_SIZE)) == [50]
        assert ctx.glGetUniformLocation(prog, "color[49]") == 59
