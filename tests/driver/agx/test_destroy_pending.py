"""A resource destroyed while an unsubmitted batch still uses it (glmark2 deletes
its probe framebuffer right after clearing it): the batch still flushes with the
resource's address, and nothing reports an error."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp


def test_delete_a_cleared_renderbuffer_before_the_flush():
    ctx = glhelp.context(4, 4, api="gles3")
    rb = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb[0])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb[1])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH_COMPONENT24, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb[0])
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, rb[1])
    ctx.glClearColor(0.0, 1.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    ctx.glDeleteFramebuffers(1, [fb])
    ctx.glDeleteRenderbuffers(2, rb)
    ctx.glFlush()
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glClearColor(1.0, 0.0, 0.0, 1.0)                  # the default framebuffer still works
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [255, 0, 0, 255]).all()
    assert ctx.glGetError() == E.GL_NO_ERROR
