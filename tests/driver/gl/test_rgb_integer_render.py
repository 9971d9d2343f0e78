"""Three-component integer colour buffers (EXT_texture_integer's RGB8I ... RGB32UI):
desktop GL renders them through their padded RGBX storage, as Mesa does (piglit's
fbo-integer); GLES 3.x never makes them colour-renderable (GLES 3.2 table 8.10).
Cleared and drawn values read back as given, with alpha 1 (the RGB base format)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect, link_sources

FORMATS = [(E.GL_RGB8I, E.GL_BYTE, 127), (E.GL_RGB8UI, E.GL_UNSIGNED_BYTE, 255),
           (E.GL_RGB16I, E.GL_SHORT, 32767), (E.GL_RGB16UI, E.GL_UNSIGNED_SHORT, 65535),
           (E.GL_RGB32I, E.GL_INT, 10000), (E.GL_RGB32UI, E.GL_UNSIGNED_INT, 20000)]


def _fbo(ctx, ifmt, type):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, ifmt, 4, 4, 0, E.GL_RGB_INTEGER, type, None)
    expect(ctx, E.GL_NO_ERROR)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t, 0)
    return ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER)


def _pixel(ctx):
    return np.frombuffer(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA_INTEGER, E.GL_INT), np.int32).tolist()


@pytest.mark.parametrize("ifmt, type, top", FORMATS)
def test_desktop_clears_and_draws_rgb_integer_buffers(ifmt, type, top):
    ctx = driver.Context(api="gl33", width=4, height=4)
    assert _fbo(ctx, ifmt, type) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearBufferiv(E.GL_COLOR, 0, [8, 7, 6, 5])
    assert _pixel(ctx) == [8, 7, 6, 1]
    signed = ifmt in (E.GL_RGB8I, E.GL_RGB16I, E.GL_RGB32I)
    out, uni = ("ivec4", "glUniform4i") if signed else ("uvec4", "glUniform4ui")
    vs = "#version 330\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
    fs = f"#version 330\nuniform {out} v; out {out} o; void main() {{ o = v; }}"
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)))
    getattr(ctx, uni)(ctx.glGetUniformLocation(prog, "v"), top, top // 3, 0, 99)
    tri = np.array([(-1, -1), (3, -1), (-1, 3)], np.float32)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    assert _pixel(ctx) == [top, top // 3, 0, 1]


@pytest.mark.parametrize("ifmt, type, top", FORMATS[:2])
def test_gles3_does_not_render_them(ifmt, type, top):
    ctx = driver.Context(api="gles3", width=4, height=4)
    assert _fbo(ctx, ifmt, type) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
    (info,) = ctx.glGetInternalformativ(E.GL_RENDERBUFFER, ifmt, E.GL_NUM_SAMPLE_COUNTS, 1) or (0,)
    assert info == 0
