"""glBlitFramebuffer with a source rectangle partly outside the read buffer: the
destination pixels whose source lies outside are not written (GL 4.6 section 18.3.1),
mirrored or not, single- or multisampled (piglit ext_framebuffer_multisample-clip-and-
scissor-blit 2 normal: the outside part was written with clamped source pixels). A
4x1 source of four colours, a 4x1 destination cleared grey; pixels by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

COLOURS = np.array([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]], np.uint8)
GREY = [128, 128, 128, 128]


def _fbo(ctx, samples=0):
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, E.GL_RGBA8, 4, 1)
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    return fb


@pytest.mark.parametrize("src_x, dst_x, want", [
    ((-2, 2), (0, 4), [GREY, GREY, COLOURS[0], COLOURS[1]]),          # left part outside
    ((2, 6), (0, 4), [COLOURS[2], COLOURS[3], GREY, GREY]),           # right part outside
    ((2, -2), (0, 4), [COLOURS[1], COLOURS[0], GREY, GREY]),          # mirrored source
    ((-2, 2), (4, 0), [COLOURS[1], COLOURS[0], GREY, GREY]),          # mirrored destination
    ((6, 10), (0, 4), [GREY, GREY, GREY, GREY]),                      # wholly outside
])
@pytest.mark.parametrize("src_samples", [0, 4])
def test_outside_source_pixels_leave_the_destination(src_x, dst_x, want, src_samples):
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        # the source image: four colours, drawn by clears of one pixel each
        src = _fbo(ctx, src_samples)
        ctx.glEnable(E.GL_SCISSOR_TEST)
        for x, c in enumerate(COLOURS):
            ctx.glScissor(x, 0, 1, 1)
            ctx.glClearColor(*(c / 255.0))
            ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        dst = _fbo(ctx)
        ctx.glClearColor(128 / 255, 128 / 255, 128 / 255, 128 / 255)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst)
        ctx.glBlitFramebuffer(src_x[0], 0, src_x[1], 1, dst_x[0], 0, dst_x[1], 1, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, dst)
        got = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(4, 4)
        np.testing.assert_array_equal(got, np.array(want, np.uint8))
