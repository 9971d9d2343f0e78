"""GL_EXT_draw_buffers: GLES 3.0's draw buffers in GLES 2.0 (as llvmpipe lists it;
piglit draw_buffers_gles2). In a GLES 2.0 context: MAX_DRAW_BUFFERS_EXT and
MAX_COLOR_ATTACHMENTS_EXT, COLOR_ATTACHMENT1+ attachment points, DRAW_BUFFERi_EXT,
glDrawBuffersEXT with GLES 3.0's rules (buffer i is COLOR_ATTACHMENTi or NONE on
a framebuffer object, BACK or NONE on the window), and GLSL ES 1.00's
gl_FragData[i] reaching attachment i with gl_MaxDrawBuffers = MAX_DRAW_BUFFERS_EXT
(the extension's issue 8). Pixels read back and compared with the colours written."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.extensions import advertised
from tests.driver.gl.helpers import compile_source, expect, link_sources

W, H = 4, 4
T2 = E.GL_TEXTURE_2D
CA0, CA1 = E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1
FULL = np.array([(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)], np.float32)
VS = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FS = ("#extension GL_EXT_draw_buffers : require\nprecision mediump float;\n"
      "void main() { gl_FragData[0] = vec4(1.0, 0.0, 0.0, 1.0); gl_FragData[1] = vec4(0.0, 1.0, 0.0, 1.0); }")


def _ctx():
    ctx = driver.Context(api="gles2", width=W, height=H)
    assert ctx.api.version == (2, 0)
    assert "GL_EXT_draw_buffers" in advertised(True, False, (2, 0))
    return ctx


def _texture_fbo(ctx, attachments):
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    texs = ctx.glGenTextures(len(attachments))
    for t, a in zip(texs, attachments):
        ctx.glBindTexture(T2, t)
        ctx.glTexImage2D(T2, 0, E.GL_RGBA, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, a, T2, t, 0)
    expect(ctx, E.GL_NO_ERROR)
    return fb, texs


def test_limits_and_attachment_points():
    ctx = _ctx()
    n = ctx.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)[0]
    assert n >= 4 and ctx.glGetIntegerv(E.GL_MAX_COLOR_ATTACHMENTS) == [n]
    _texture_fbo(ctx, [CA0, CA0 + n - 1])
    assert ctx.glGetIntegerv(E.GL_DRAW_BUFFER0) == [CA0] and ctx.glGetIntegerv(E.GL_DRAW_BUFFER1) == [E.GL_NONE]
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, CA0 + n, T2, 0, 0)
    expect(ctx, E.GL_INVALID_OPERATION)            # beyond MAX_COLOR_ATTACHMENTS


def test_draw_buffers_rules():
    ctx = _ctx()
    ctx.glDrawBuffersEXT(1, [E.GL_BACK])            # the window: BACK or NONE, one of them
    expect(ctx, E.GL_NO_ERROR)
    ctx.glDrawBuffersEXT(1, [CA0])
    expect(ctx, E.GL_INVALID_OPERATION)
    _texture_fbo(ctx, [CA0, CA1])
    ctx.glDrawBuffersEXT(2, [CA1, CA0])             # buffer i must be COLOR_ATTACHMENTi or NONE
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glDrawBuffersEXT(2, [E.GL_NONE, CA1])
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(E.GL_DRAW_BUFFER0) == [E.GL_NONE] and ctx.glGetIntegerv(E.GL_DRAW_BUFFER1) == [CA1]


def test_frag_data_reaches_each_attachment():
    ctx = _ctx()
    fb, (t0, t1) = _texture_fbo(ctx, [CA0, CA1])
    ctx.glDrawBuffersEXT(2, [CA0, CA1])
    link_sources(ctx, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)])
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    for tex, want in ((t0, [255, 0, 0, 255]), (t1, [0, 255, 0, 255])):
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, CA0, T2, tex, 0)     # GLES 2.0 reads attachment 0
        px = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        assert (px.reshape(H, W, 4) == want).all()


def test_glsl_es_100_max_draw_buffers():
    """gl_MaxDrawBuffers is MAX_DRAW_BUFFERS_EXT: gl_FragData[n - 1] compiles, gl_FragData[n] does not."""
    ctx = _ctx()
    n = ctx.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)[0]
    src = ("#extension GL_EXT_draw_buffers : require\nprecision mediump float;\n"
           "void main() {{ gl_FragData[{}] = vec4(float(gl_MaxDrawBuffers)); }}")
    assert compile_source(ctx, E.GL_FRAGMENT_SHADER, src.format(n - 1))[1]
    _sh, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, src.format(n))
    assert not ok and "index" in log


def test_not_in_gles1():
    assert "GL_EXT_draw_buffers" not in advertised(True, False, (1, 1))
    ctx = driver.Context(api="gles1", width=W, height=H)
    ctx.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)
    expect(ctx, E.GL_INVALID_ENUM)
