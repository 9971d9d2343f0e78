"""Program binaries (GL 4.1 / GLES 3.0): one shimgl format; a binary relinks into a
program that draws the same pixels, keeps its attribute/fragment-output bindings and
feedback varyings, resets uniforms; corrupt, truncated or foreign binaries make the
link fail with an info log (never a crash); errors and no state change on error."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.binary import PROGRAM_BINARY_FORMAT

from .helpers import expect

VS = """#version 300 es
in vec2 pos;
out vec2 uv;
void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = pos * 0.5 + 0.5; }"""
FS = """#version 300 es
precision highp float;
uniform vec4 tint;
in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = vec4(uv, 0.25, 1.0) * tint; }"""

VS100 = """attribute vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
FS100 = """precision mediump float;
void main() { gl_FragColor = vec4(1.0); }"""


def _build(ctx, vs=VS, fs=FS):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glBindAttribLocation(p, 3, "pos")
    ctx.glProgramParameteri(p, E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 1)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    return p


def _draw(ctx, p, tint):
    ctx.glUseProgram(p)
    assert ctx.glGetAttribLocation(p, "pos") == 3
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "tint"), *tint)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    buf = ctx.glGenBuffers(1)[0]
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(3, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(3)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    return ctx.read_pixels().astype(np.int32)


@pytest.mark.parametrize("api", ["gles3", "gl43"])
def test_round_trip_draws_the_same(api):
    with driver.Context(api=api, width=8, height=8) as ctx:
        assert ctx.glGetIntegerv(E.GL_NUM_PROGRAM_BINARY_FORMATS) == [1]
        assert ctx.glGetIntegerv(E.GL_PROGRAM_BINARY_FORMATS) == [PROGRAM_BINARY_FORMAT]
        p = _build(ctx)
        n = ctx.glGetProgramiv(p, E.GL_PROGRAM_BINARY_LENGTH)[0]
        length, fmt, data = ctx.glGetProgramBinary(p, n)
        assert (length, fmt) == (n, PROGRAM_BINARY_FORMAT) and len(data) == n
        q = ctx.glCreateProgram()
        ctx.glProgramBinary(q, fmt, data, length)
        assert ctx.glGetProgramiv(q, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(q)
        assert ctx.glGetProgramiv(q, E.GL_ATTACHED_SHADERS) == [0]
        want = _draw(ctx, p, (1.0, 0.5, 1.0, 1.0))
        got = _draw(ctx, q, (1.0, 0.5, 1.0, 1.0))
        x = (np.arange(8) + 0.5) / 8
        analytic = np.stack(np.broadcast_arrays(x[None, :], 0.5 * x[:, None], np.full((8, 1), 0.25),
                                                np.ones((8, 1))), -1) * 255
        assert np.abs(want - analytic).max() <= 1
        np.testing.assert_array_equal(got, want)
        # a uniform set before reloading is reset (GL 4.6 section 7.5)
        ctx.glUniform4f(ctx.glGetUniformLocation(q, "tint"), 0, 0, 0, 0)
        ctx.glProgramBinary(q, fmt, data, length)
        assert ctx.glGetUniformfv(q, ctx.glGetUniformLocation(q, "tint")) == [0.0] * 4
        expect(ctx, E.GL_NO_ERROR)


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_bad_binaries_fail_the_link(damage):
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        p = _build(ctx)
        length, fmt, data = ctx.glGetProgramBinary(p, 1 << 20)
        bad = {"truncate": data[:length // 2], "flip": data[:-3] + bytes([data[-3] ^ 0x55]) + data[-2:],
               "empty": b"", "garbage": bytes(range(256)) * 4}[damage]
        ctx.glProgramBinary(p, fmt, bad, len(bad))
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
        assert "binary" in ctx.glGetProgramInfoLog(p)


def test_binary_of_another_context_flavour_fails_the_link():
    with driver.Context(api="gl43", width=4, height=4) as other:
        p = _build(other)
        length, fmt, data = other.glGetProgramBinary(p, 1 << 20)
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        q = ctx.glCreateProgram()
        ctx.glProgramBinary(q, fmt, data, length)
        assert ctx.glGetProgramiv(q, E.GL_LINK_STATUS) == [0]
        assert "another driver build or context" in ctx.glGetProgramInfoLog(q)


def test_errors_and_no_state_change():
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        p = _build(ctx)
        length, fmt, data = ctx.glGetProgramBinary(p, 1 << 20)
        ctx.glGetProgramBinary(p, length - 1)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glGetProgramBinary(p, -1)
        expect(ctx, E.GL_INVALID_VALUE)
        unlinked = ctx.glCreateProgram()
        ctx.glGetProgramBinary(unlinked, 1 << 20)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glGetProgramiv(unlinked, E.GL_PROGRAM_BINARY_LENGTH) == [0]
        ctx.glProgramBinary(p, fmt + 1, data, length)
        expect(ctx, E.GL_INVALID_ENUM)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1]          # untouched
        ctx.glProgramBinary(12345, fmt, data, length)
        expect(ctx, E.GL_INVALID_VALUE)
    # every desktop context lists GL_ARB_get_program_binary; GLES 2.0 has no binaries
    with driver.Context(api="gles2", width=4, height=4) as ctx:
        p = _build(ctx, VS100, FS100)
        expect(ctx, E.GL_INVALID_OPERATION)                          # no PROGRAM_BINARY_RETRIEVABLE_HINT
        ctx.glGetProgramBinary(p, 1 << 20)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glGetIntegerv(E.GL_NUM_PROGRAM_BINARY_FORMATS)
        expect(ctx, E.GL_INVALID_ENUM)
