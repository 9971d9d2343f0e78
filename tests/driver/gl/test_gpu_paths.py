"""Work that used to fall back to the CPU and now runs on the GPU: scissored and masked
depth/stencil clears (glClear and glClearBuffer) are drawn as a quad; checked by reading
the depth and stencil back against numpy, with the CPU clear path made to fail."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

W, H = 16, 12


def _no_cpu(*_a, **_k):
    raise AssertionError("the CPU clear path was used")


def _fbo(ctx):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    rbs = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rbs[0])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, W, H)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rbs[0])
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rbs[1])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH32F_STENCIL8, W, H)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, rbs[1])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


def _depth(ctx):
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_DEPTH_COMPONENT, E.GL_FLOAT)
    return np.frombuffer(raw, np.float32).reshape(H, W)


def _stencil(ctx):
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(H, W)


@pytest.mark.parametrize("how", ["glClear", "glClearBuffer"])
def test_scissored_and_masked_depth_stencil_clears_on_the_gpu(how):
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        _fbo(ctx)
        ctx.glClearDepth(0.25)
        ctx.glClearStencil(0x0F)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
        ctx.pipe.clear_depth_stencil = _no_cpu
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(3, 2, 7, 5)
        ctx.glStencilMask(0xF0)
        if how == "glClear":
            ctx.glClearDepth(0.3)
            ctx.glClearStencil(0xAA)
            ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
        else:
            ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 0.3, 0xAA)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        depth, stencil = _depth(ctx), _stencil(ctx)
    want_d = np.full((H, W), 0.25, np.float32)
    want_d[2:7, 3:10] = np.float32(0.3)                  # exact: the clear is not interpolated
    want_s = np.full((H, W), 0x0F, np.uint8)
    want_s[2:7, 3:10] = (0x0F & ~0xF0) | (0xAA & 0xF0)
    np.testing.assert_array_equal(depth, want_d)
    np.testing.assert_array_equal(stencil, want_s)


def test_clear_buffer_respects_the_depth_mask():
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        _fbo(ctx)
        ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 0.5, 3)
        ctx.glDepthMask(False)
        ctx.glClearBufferfv(E.GL_DEPTH, 0, [0.75])
        expect(ctx, E.GL_NO_ERROR)
        assert (_depth(ctx) == 0.5).all()
        assert (_stencil(ctx) == 3).all()
