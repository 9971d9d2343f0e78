"""Regression (found by the demo): a compute shader's imageStore into an RGBA8
texture made with glTexStorage2D faulted, because the texture had been given a
compressed render-target layout, which image stores cannot write."""

from __future__ import annotations

import numpy as np

from tests.driver.agx.glhelp import compute_program, context

CS = """#version 310 es
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba8, binding = 0) writeonly uniform highp image2D img;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(img, p, vec4(float(p.x) / 15.0, float(p.y) / 15.0, 0.25, 1.0));
}"""


def test_compute_image_store_into_texstorage_rgba8_reads_back():
    n = 16
    ctx = context(n, n, api="gles31")
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(ctx.GL_TEXTURE_2D, 1, ctx.GL_RGBA8, n, n)
    compute_program(ctx, CS)
    ctx.glBindImageTexture(0, tex, 0, False, 0, ctx.GL_WRITE_ONLY, ctx.GL_RGBA8)
    ctx.glDispatchCompute(n // 8, n // 8, 1)
    ctx.glMemoryBarrier(ctx.GL_FRAMEBUFFER_BARRIER_BIT | ctx.GL_TEXTURE_FETCH_BARRIER_BIT)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    raw = ctx.glReadPixels(0, 0, n, n, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE)
    assert ctx.glGetError() == ctx.GL_NO_ERROR
    got = np.frombuffer(raw, np.uint8).reshape(n, n, 4)
    y, x = np.mgrid[0:n, 0:n]
    expected = np.stack([np.round(x / 15 * 255), np.round(y / 15 * 255),
                         np.full((n, n), np.round(0.25 * 255)), np.full((n, n), 255)], -1)
    assert np.abs(got.astype(int) - expected).max() <= 1
