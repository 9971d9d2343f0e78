"""Multisample textures and completeness (GL 4.6 sections 8.8, 8.17): a
multisample texture has a single level and takes no sampler state, so the
default NEAREST_MIPMAP_LINEAR minification filter (or a LINEAR filter on an
integer format) does not make it incomplete; texelFetch reads its samples."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

MS = E.GL_TEXTURE_2D_MULTISAMPLE

QUAD_VS = ("#version 330\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
           " gl_Position = vec4(p, 0.0, 1.0); }\n")


def _ms_texture(ctx, internal_format, samples=2, w=2, h=1):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(MS, t)
    ctx.glTexImage2DMultisample(MS, samples, internal_format, w, h, True)
    return ctx.textures.get(t)


def test_multisample_textures_are_complete_whatever_the_default_filters():
    ctx = glhelp.context(2, 1, api="gl43")
    for fmt in (E.GL_RGBA8, E.GL_RGBA8UI):      # integer formats need NEAREST filters elsewhere
        tex = _ms_texture(ctx, fmt)
        # (multisample textures report NEAREST; a mipmap filter in the state changes nothing)
        tex.params.min_filter = E.GL_NEAREST_MIPMAP_LINEAR
        assert ctx._texture_complete(tex)
    (t2d,) = ctx.glGenTextures(1)                 # a 2D texture with one level stays incomplete
    ctx.glBindTexture(E.GL_TEXTURE_2D, t2d)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert not ctx._texture_complete(ctx.textures.get(t2d))


def test_texel_fetch_reads_an_integer_multisample_texture():
    """Every sample of a 2-sample RGBA8UI texture cleared to (7, 8, 9, 10); sample 1
    fetched and written as value / 255 to the RGBA8 window: bytes 7, 8, 9, 10."""
    ctx = glhelp.context(2, 1, api="gl43")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(MS, t)
    ctx.glTexImage2DMultisample(MS, 2, E.GL_RGBA8UI, 2, 1, True)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, MS, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearBufferuiv(E.GL_COLOR, 0, [7, 8, 9, 10])
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    glhelp.program(ctx, QUAD_VS, "#version 330\nuniform usampler2DMS t; out vec4 o;\n"
                   "void main() { o = vec4(texelFetch(t, ivec2(gl_FragCoord.xy), 1)) / 255.0; }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glReadPixels(0, 0, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(2, 4)
    assert got.tolist() == [[7, 8, 9, 10], [7, 8, 9, 10]]
