"""glClampColor(GL_CLAMP_FRAGMENT_COLOR) (compatibility profile, GL 4.6 compat
section 17.3): TRUE clamps fragment colours to [0, 1] before blending and storing
into every colour buffer, also floating-point ones; FIXED_ONLY (the initial value)
and FALSE store a float buffer's colours unclamped."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp


def test_fragment_clamp_of_a_float_buffer():
    ctx = glhelp.context(2, 2, api="compat")
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32F, 2, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    glhelp.program(ctx, "#version 130\nvoid main() { gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1)"
                        " * 4.0 - 1.0, 0.0, 1.0); }\n",
                   "#version 130\nout vec4 o;\nvoid main() { o = vec4(2.0, -1.0, 0.5, 7.0); }\n")

    def draw_and_read():
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        return np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(-1, 4)

    assert (draw_and_read() == [2.0, -1.0, 0.5, 7.0]).all()          # FIXED_ONLY: a float buffer
    ctx.glClampColor(E.GL_CLAMP_FRAGMENT_COLOR, E.GL_TRUE)
    assert (draw_and_read() == [1.0, 0.0, 0.5, 1.0]).all()
    ctx.glClampColor(E.GL_CLAMP_FRAGMENT_COLOR, E.GL_FALSE)
    assert (draw_and_read() == [2.0, -1.0, 0.5, 7.0]).all()
    assert ctx.glGetError() == E.GL_NO_ERROR
