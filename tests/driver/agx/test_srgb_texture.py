"""sRGB textures: uploads store the client's (already encoded) bytes, sampling
decodes them to linear (GL 4.6 section 8.24), reads return the stored encoding.
Regression: uploads used to re-encode the bytes as if they were linear."""

from __future__ import annotations

import numpy as np

from tests.driver.agx.glhelp import context, program, vertices

VS = """#version 300 es
in vec2 pos; void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 300 es
precision highp float; uniform sampler2D t; out vec4 o;
void main() { o = texture(t, vec2(0.5)); }"""


def srgb_to_linear(c):
    c = np.asarray(c, np.float64) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def test_srgb8_alpha8_upload_sample_and_read_back():
    ctx = context(4, 4)
    texel = [64, 128, 192, 200]
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_SRGB8_ALPHA8, 4, 4, 0, ctx.GL_RGBA,
                     ctx.GL_UNSIGNED_BYTE, np.tile(np.uint8(texel), (4, 4, 1)))
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_NEAREST)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    stored = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE), np.uint8)
    assert stored.tolist() == texel
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, 0)
    prog = program(ctx, VS, FS)
    quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], np.float32)
    vertices(ctx, prog, quad, {"pos": (2, 0)}, 2)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    got = ctx.read_pixels()[0, 0].astype(int)
    expected = np.round(np.append(srgb_to_linear(texel[:3]), texel[3] / 255) * 255)
    assert np.abs(got - expected).max() <= 1, (got, expected)
