"""glBlitFramebuffer of a multisampled depth buffer into a single-sampled one gives
each pixel the mean of its samples (GL 4.6 section 18.3.2 leaves depth resolves to
the implementation; for a plane the mean of a symmetric sample pattern is the depth
at the pixel's centre, which single-sampled rendering and Mesa's llvmpipe give).
Sample 0 lies off the centre: on a steep plane its depth was off by the slope
times the offset (MuJoCo's depth images, read through such a blit, were 0.3%% off
in distance). Expected values by hand: the plane's depth at each pixel centre."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

W, H = 16, 8


def _fbo(ctx, samples):
    fb, = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for attach, fmt in ((E.GL_COLOR_ATTACHMENT0, E.GL_RGBA8), (E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_DEPTH24_STENCIL8)):
        rb, = ctx.glGenRenderbuffers(1)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, fmt, W, H)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, attach, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


@pytest.mark.parametrize("samples", [2, 4])
def test_resolved_depth_is_the_depth_at_the_pixel_centre(samples):
    ctx = driver.Context(api="compat", width=W, height=H)
    ms = _fbo(ctx, samples)
    ctx.glViewport(0, 0, W, H)
    ctx.glClearDepth(1.0)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    # a plane steep in both directions: window z = 0.5 + 0.2 x_ndc + 0.3 y_ndc
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex3f(x, y, 2 * (0.5 + 0.2 * x + 0.3 * y) - 1)
    ctx.glEnd()
    single = _fbo(ctx, 0)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, single)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_DEPTH_BUFFER_BIT, E.GL_NEAREST)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, single)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32).reshape(H, W)
    assert ctx.glGetError() == E.GL_NO_ERROR
    yy, xx = np.mgrid[0:H, 0:W]
    want = 0.5 + 0.2 * ((xx + 0.5) / W * 2 - 1) + 0.3 * ((yy + 0.5) / H * 2 - 1)
    # a sample 1/8 px off the centre moves z by 0.4/16/8 = 0.003 here; the mean is exact
    np.testing.assert_allclose(got, want, atol=2e-6)
