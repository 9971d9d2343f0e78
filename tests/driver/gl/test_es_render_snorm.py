"""GLES rendering to SNORM formats (EXT_render_snorm, GLES 3.1) and 32-bit depth
renderbuffers in GLES 2.0 (OES_depth32). Expected values by GL's rules:
snorm c -> round(c * (2^(b-1) - 1)), clamped to [-1, 1]."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp


def _fbo_texture(ctx, internal, w=4, h=4):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, internal, w, h)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    return ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER)


@pytest.mark.parametrize("internal, dtype, read_type, bits", [
    (E.GL_RGBA8_SNORM, np.int8, E.GL_BYTE, 8), (E.GL_RGBA16_SNORM, np.int16, E.GL_SHORT, 16)])
def test_snorm_targets_clear_draw_and_read_in_gles31(internal, dtype, read_type, bits):
    ctx = glhelp.context(4, 4, api="gles31")
    assert "GL_EXT_render_snorm" in ctx.extensions
    assert _fbo_texture(ctx, internal) == E.GL_FRAMEBUFFER_COMPLETE
    scale = (1 << (bits - 1)) - 1
    ctx.glClearColor(-1.0, -0.25, 0.6, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, read_type), dtype).reshape(-1, 4)
    want = np.rint(np.array([-1.0, -0.25, 0.6, 1.0]) * scale)
    assert (px == want).all(), (px[0], want)
    prog = glhelp.program(ctx, "#version 310 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n",
                          "#version 310 es\nprecision highp float;\nout vec4 o;\n"
                          "void main() { o = vec4(-0.5, 2.0, -3.0, 0.75); }\n")
    glhelp.vertices(ctx, prog, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, read_type), dtype).reshape(-1, 4)
    assert (px == np.rint(np.array([-0.5, 1.0, -1.0, 0.75]) * scale)).all(), px[0]   # clamped to [-1, 1]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_snorm_is_not_renderable_without_the_extension():
    """GLES 3.0 (no EXT_render_snorm): an RGBA8_SNORM attachment is incomplete and
    an R8_SNORM renderbuffer is INVALID_ENUM; desktop GL renders them."""
    ctx = glhelp.context(4, 4, api="gles3")
    assert "GL_EXT_render_snorm" not in ctx.extensions
    assert _fbo_texture(ctx, E.GL_RGBA8_SNORM) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_R8_SNORM, 4, 4)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    desktop = glhelp.context(4, 4, api="gl43")
    assert _fbo_texture(desktop, E.GL_RG8_SNORM) == E.GL_FRAMEBUFFER_COMPLETE


def test_depth32_renderbuffer_in_gles2():
    """OES_depth32: a DEPTH_COMPONENT32_OES renderbuffer in GLES 2.0 depth-tests: a
    near red quad, then a far green one that fails LESS."""
    ctx = glhelp.context(4, 4, api="gles2")
    assert "GL_OES_depth32" in ctx.extensions
    rb = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb[0])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA4, 4, 4)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb[1])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH_COMPONENT32, 4, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_DEPTH_SIZE)[0] >= 24
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb[0])
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, rb[1])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    prog = glhelp.program(ctx, "attribute vec3 p;\nvoid main() { gl_Position = vec4(p, 1.0); }\n",
                          "precision mediump float;\nuniform vec4 c;\nvoid main() { gl_FragColor = c; }\n")
    quad = np.array([[-1, -1, 0], [3, -1, 0], [-1, 3, 0]], np.float32)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    loc = ctx.glGetAttribLocation(prog, "p")
    ctx.glEnableVertexAttribArray(loc)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    for z, colour in ((-0.5, (1.0, 0.0, 0.0, 1.0)), (0.5, (0.0, 1.0, 0.0, 1.0))):
        data = quad.copy()
        data[:, 2] = z
        ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(loc, 3, E.GL_FLOAT, False, 12, 0)
        ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), *colour)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [255, 0, 0, 255]).all()
    assert ctx.glGetError() == E.GL_NO_ERROR
