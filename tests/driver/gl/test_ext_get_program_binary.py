"""GL_ARB_get_program_binary (core in GL 4.1; listed in core GL 3.2+ and compatibility
contexts): the commands and queries exist wherever the name is listed, and a binary
restores what the program was linked with, PROGRAM_SEPARABLE included (GL 4.6 section
7.5; a separable program saved and loaded again goes into a pipeline, as piglit's
restore-sso-program does). Pixels by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from driver.gl.binary import PROGRAM_BINARY_FORMAT

from .helpers import expect

VS = """#version 140
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 140
uniform vec4 colour;
out vec4 o;
void main() { o = colour; }"""


def _program(ctx, separable: bool, stages=((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS))):
    p = ctx.glCreateProgram()
    for kind, src in stages:
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glBindAttribLocation(p, 0, "pos")
    ctx.glProgramParameteri(p, E.GL_PROGRAM_SEPARABLE, int(separable))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    return p


def _reload(ctx, p):
    n = ctx.glGetProgramiv(p, E.GL_PROGRAM_BINARY_LENGTH)[0]
    length, fmt, data = ctx.glGetProgramBinary(p, n)
    q = ctx.glCreateProgram()
    ctx.glProgramBinary(q, fmt, data, length)
    assert ctx.glGetProgramiv(q, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(q)
    return q


def _quad(ctx):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    buf = ctx.glGenBuffers(1)[0]
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)


def test_a_separable_program_stays_separable_and_draws_from_a_pipeline():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        p = _program(ctx, separable=True)
        q = _reload(ctx, p)
        assert ctx.glGetProgramiv(q, E.GL_PROGRAM_SEPARABLE) == [1]
        pipe = ctx.glGenProgramPipelines(1)[0]
        ctx.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT | E.GL_FRAGMENT_SHADER_BIT, q)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glDeleteProgram(p)
        ctx.glProgramUniform4f(q, ctx.glGetUniformLocation(q, "colour"), 0.0, 1.0, 0.5, 1.0)
        ctx.glBindProgramPipeline(pipe)
        _quad(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        px = ctx.read_pixels().astype(int)
        assert (abs(px - [0, 255, 128, 255]) <= 1).all()
        # and a program that was not separable is not after reloading either
        r = _reload(ctx, _program(ctx, separable=False))
        assert ctx.glGetProgramiv(r, E.GL_PROGRAM_SEPARABLE) == [0]
        ctx.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, r)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_a_gl32_core_context_lists_it_with_its_commands_and_queries():
    with driver.Context(api="gl32", width=4, height=4) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert "GL_ARB_get_program_binary" in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        assert ctx.glGetIntegerv(E.GL_NUM_PROGRAM_BINARY_FORMATS) == [1]
        assert ctx.glGetIntegerv(E.GL_PROGRAM_BINARY_FORMATS) == [PROGRAM_BINARY_FORMAT]
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
            s = ctx.glCreateShader(kind)
            ctx.glShaderSource(s, 1, [src])
            ctx.glCompileShader(s)
            ctx.glAttachShader(p, s)
        ctx.glProgramParameteri(p, E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 1)
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT) == [1]
        q = _reload(ctx, p)
        ctx.glUseProgram(q)
        ctx.glUniform4f(ctx.glGetUniformLocation(q, "colour"), 1.0, 0.0, 0.0, 1.0)
        _quad(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert (ctx.read_pixels().astype(int) == [255, 0, 0, 255]).all()
        expect(ctx, E.GL_NO_ERROR)
