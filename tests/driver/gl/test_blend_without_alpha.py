"""Blending into a colour buffer without alpha (GL_RGB8, GL_RGB565, GL_RGB16F) reads
the destination alpha as 1 (GL's blending takes a buffer's missing alpha as 1, as
Mesa's state tracker rewrites the factors): DST_ALPHA weighs 1, ONE_MINUS_DST_ALPHA 0 and
SRC_ALPHA_SATURATE's colour factor min(As, 1 - Ad) = 0, whatever the padding of the
stored texel holds. piglit fbo-blending-formats found it (GL_RGB, GL_RGB8)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

SRC = (0.6, 0.2, 0.4, 0.25)
DST = (0.2, 0.4, 0.6)


@pytest.mark.parametrize("fmt", [E.GL_RGB8, E.GL_RGB565, E.GL_RGB16F])
@pytest.mark.parametrize("src_factor, dst_factor, weights", [
    (E.GL_DST_ALPHA, E.GL_ZERO, (1.0, 0.0)),
    (E.GL_ONE_MINUS_DST_ALPHA, E.GL_ONE, (0.0, 1.0)),
    (E.GL_ONE, E.GL_DST_ALPHA, (1.0, 1.0)),
    (E.GL_SRC_ALPHA_SATURATE, E.GL_ONE, (0.0, 1.0)),
])
def test_destination_alpha_of_a_buffer_without_alpha_is_one(fmt, src_factor, dst_factor, weights):
    ctx = glhelp.context(4, 4, api="gl43")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    glhelp.renderbuffer_target(ctx, fmt, 4, 4)
    ctx.glViewport(0, 0, 4, 4)
    ctx.glClearColor(*DST, 0.0)             # the padding would hold 0 if it were kept
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    p = glhelp.program(ctx, "#version 430\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);"
                            " gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n",
                       "#version 430\nuniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n")
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), *SRC)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(src_factor, dst_factor)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGB, E.GL_FLOAT), np.float32).reshape(4, 4, 3)
    want = np.minimum(np.array(SRC[:3]) * weights[0] + np.array(DST) * weights[1], 1.0)
    tol = {E.GL_RGB8: 1.5 / 255, E.GL_RGB565: 1.5 / 31, E.GL_RGB16F: 2e-3}[fmt]
    np.testing.assert_allclose(got, np.broadcast_to(want, got.shape), atol=tol)
