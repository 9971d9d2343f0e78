"""glClampColor(GL_CLAMP_READ_COLOR) applies to glReadPixels (GL 4.6 section
18.2.8): TRUE clamps a floating-point buffer's colours to [0, 1]; FIXED_ONLY (the
initial value) and FALSE leave them as stored."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp


def test_read_clamp_of_a_float_buffer():
    ctx = glhelp.context(2, 2, api="gl43")
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32F, 2, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glClearColor(2.0, -1.0, 0.5, 7.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)

    def read():
        return np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(-1, 4)

    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) == [E.GL_FIXED_ONLY]
    assert (read() == [2.0, -1.0, 0.5, 7.0]).all()
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, E.GL_TRUE)
    assert (read() == [1.0, 0.0, 0.5, 1.0]).all()
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, E.GL_FALSE)
    assert (read() == [2.0, -1.0, 0.5, 7.0]).all()
    assert ctx.glGetError() == E.GL_NO_ERROR
