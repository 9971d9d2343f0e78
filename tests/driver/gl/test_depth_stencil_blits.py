"""glBlitFramebuffer of depth and stencil (GL 4.6 section 18.3.1), as piglit's
ext_framebuffer_multisample no-color tests found them wrong:

- between multisampled buffers of the same sample count every sample is copied
  (the blitter read sample 0 of the source for all of them);
- the formats must match in the buffer blitted only, as Mesa reads the rule: the
  depth of a DEPTH_COMPONENT24 buffer blits into a DEPTH24_STENCIL8 one (it was
  INVALID_OPERATION), a DEPTH_COMPONENT16 one does not.

Per-sample values are read back with texelFetch from multisampled depth textures
(GL_DEPTH_STENCIL_TEXTURE_MODE picks stencil); the expected values are the ones
each sample was given through the sample mask."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

W = H = 4
VS = ("#version 150\nuniform float z;\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, z, 1.0); }\n")
FS = "#version 150\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"


def _ms_depth_texture(ctx, samples, fmt=E.GL_DEPTH24_STENCIL8):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, samples, fmt, W, H, True)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_TEXTURE_2D_MULTISAMPLE, tex, 0)
    ctx.glDrawBuffer(E.GL_NONE)
    ctx.glReadBuffer(E.GL_NONE)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return tex, fb


def _samples_of(ctx, tex, samples, stencil):
    """Sample s of texel (0, 0) .. of the multisampled depth/stencil texture, as
    (H, W, samples) floats (depth) or integers (stencil)."""
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    ctx.glTexParameteri(E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_DEPTH_STENCIL_TEXTURE_MODE,
                        E.GL_STENCIL_INDEX if stencil else E.GL_DEPTH_COMPONENT)
    (out,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, out)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, W * samples, H, 0, E.GL_RGBA, E.GL_FLOAT, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, out, 0)
    ctx.glViewport(0, 0, W * samples, H)
    ctx.glDisable(E.GL_DEPTH_TEST)
    ctx.glDisable(E.GL_STENCIL_TEST)
    ctx.glDisable(E.GL_SAMPLE_MASK)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    sampler = "usampler2DMS" if stencil else "sampler2DMS"
    glhelp.program(ctx, VS, f"#version 150\nuniform {sampler} t;\nout vec4 o;\n"
                            "void main() { ivec2 p = ivec2(gl_FragCoord.xy);"
                            f" o = vec4(texelFetch(t, ivec2(p.x / {samples}, p.y), p.x % {samples})); }}\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W * samples, H, E.GL_RGBA, E.GL_FLOAT), np.float32)
    return got.reshape(H, W, samples, 4)[..., 0]


@pytest.mark.parametrize("samples", [2, 4])
def test_multisample_depth_and_stencil_blits_copy_every_sample(samples):
    ctx = glhelp.context(1, 1, api="gl43")
    src, src_fb = _ms_depth_texture(ctx, samples)
    dst, dst_fb = _ms_depth_texture(ctx, samples)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, src_fb)
    ctx.glViewport(0, 0, W, H)
    ctx.glClearDepth(1.0)
    ctx.glClearStencil(0)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    prog = glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    ctx.glEnable(E.GL_STENCIL_TEST)
    ctx.glStencilOp(E.GL_REPLACE, E.GL_REPLACE, E.GL_REPLACE)
    ctx.glEnable(E.GL_SAMPLE_MASK)
    depths, stencils = [], []
    for s in range(samples):                       # sample s: depth (s + 1) / 8, stencil 10 + s
        ctx.glSampleMaski(0, 1 << s)
        z = (s + 1) / 8
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "z"), 2 * z - 1)
        ctx.glStencilFunc(E.GL_ALWAYS, 10 + s, 0xFF)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        depths.append(z)
        stencils.append(10 + s)
    ctx.glDisable(E.GL_SAMPLE_MASK)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, dst_fb)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src_fb)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst_fb)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_NO_ERROR
    np.testing.assert_allclose(_samples_of(ctx, dst, samples, False), np.broadcast_to(depths, (H, W, samples)),
                               atol=1e-6)
    np.testing.assert_array_equal(_samples_of(ctx, dst, samples, True), np.broadcast_to(stencils, (H, W, samples)))


def _depth_fbo(ctx, fmt, attachment):
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, W, H)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, attachment, E.GL_RENDERBUFFER, rb)
    ctx.glDrawBuffer(E.GL_NONE)
    ctx.glReadBuffer(E.GL_NONE)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def test_depth_blits_need_matching_depth_components_only():
    ctx = glhelp.context(1, 1, api="gl43")
    d24 = _depth_fbo(ctx, E.GL_DEPTH_COMPONENT24, E.GL_DEPTH_ATTACHMENT)
    d16 = _depth_fbo(ctx, E.GL_DEPTH_COMPONENT16, E.GL_DEPTH_ATTACHMENT)
    d24s8 = _depth_fbo(ctx, E.GL_DEPTH24_STENCIL8, E.GL_DEPTH_STENCIL_ATTACHMENT)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, d24)
    ctx.glClearDepth(0.375)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, d24s8)
    ctx.glClearDepth(1.0)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, d24)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, d24s8)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_DEPTH_BUFFER_BIT, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, d24s8)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
    np.testing.assert_allclose(got, 0.375, atol=1e-6)
    # 16 depth bits against 24: INVALID_OPERATION, nothing written
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, d16)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_DEPTH_BUFFER_BIT, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    # a stencil blit from a buffer without stencil to one with it is not an error: no source buffer
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, d24)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_STENCIL_BUFFER_BIT, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_NO_ERROR
