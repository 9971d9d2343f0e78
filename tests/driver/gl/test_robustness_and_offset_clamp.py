"""KHR_robustness's bounded reads and reset status; ARB_polygon_offset_clamp
through a real draw."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = "#version 430\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS = "#version 430\nuniform vec4 colour;\nout vec4 o;\nvoid main() { o = colour; }\n"


@pytest.fixture
def ctx():
    c = glhelp.context(4, 4, api="gl43")
    return c


def test_bounded_uniform_and_pixel_reads(ctx):
    prog = glhelp.program(ctx, VS, FS)
    loc = ctx.glGetUniformLocation(prog, "colour")
    ctx.glUniform4f(loc, 0.25, 0.5, 0.75, 1.0)
    assert ctx.glGetnUniformfv(prog, loc, 16) == [0.25, 0.5, 0.75, 1.0]
    assert ctx.glGetnUniformfv(prog, loc, 15) is None            # 4 floats need 16 bytes
    expect(ctx, E.GL_INVALID_OPERATION)
    assert ctx.glReadnPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 64) is not None
    assert ctx.glReadnPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 63) is None
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 8)
    # 3 RGB bytes per pixel, rows of 12 bytes padded to 16: 3 * 16 + 12 = 60 bytes
    assert ctx.glReadnPixels(0, 0, 4, 4, E.GL_RGB, E.GL_UNSIGNED_BYTE, 59) is None
    expect(ctx, E.GL_INVALID_OPERATION)
    assert len(ctx.glReadnPixels(0, 0, 4, 4, E.GL_RGB, E.GL_UNSIGNED_BYTE, 60)) >= 60
    expect(ctx, E.GL_NO_ERROR)


def test_reset_status_without_a_reset(ctx):
    assert ctx.glGetGraphicsResetStatus() == E.GL_NO_ERROR


def _depth_of_flat_quad(ctx, offset_call):
    glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glCreateVertexArrays(1)
    (buf,) = ctx.glCreateBuffers(1)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glNamedBufferStorage(buf, quad.nbytes, quad, 0)
    ctx.glVertexArrayVertexBuffer(vao, 0, buf, 0, 8)
    ctx.glVertexArrayAttribFormat(vao, 0, 2, E.GL_FLOAT, False, 0)
    ctx.glEnableVertexArrayAttrib(vao, 0)
    ctx.glBindVertexArray(vao)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    ctx.glEnable(E.GL_POLYGON_OFFSET_FILL)
    offset_call()
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    z = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
    return float(z.mean())


def test_offset_clamp_limits_the_depth_offset():
    """A flat quad at z = 0 (window depth 0.5) with units = 1000: the offset
    is 1000 * r unclamped, r = 2^-23 for the 24-bit window depth buffer (two of its
    steps, as Mesa's software rasterisers: test_polygon_offset_fixed24), and the
    clamp when smaller."""
    r = 2.0 ** -23
    unclamped = _depth_of_flat_quad(c := glhelp.context(4, 4, api="gl43"), lambda: c.glPolygonOffset(0.0, 1000.0))
    assert abs(unclamped - (0.5 + 1000 * r)) < 100 * r
    clamped = _depth_of_flat_quad(c := glhelp.context(4, 4, api="gl43"),
                                  lambda: c.glPolygonOffsetClamp(0.0, 1000.0, 2e-5))
    assert abs(clamped - (0.5 + 2e-5)) < 100 * r
    assert c.glGetFloatv(E.GL_POLYGON_OFFSET_CLAMP) == [pytest.approx(2e-5)]
    negative = _depth_of_flat_quad(c := glhelp.context(4, 4, api="gl43"),
                                   lambda: c.glPolygonOffsetClamp(0.0, -1000.0, -2e-5))
    assert abs(negative - (0.5 - 2e-5)) < 100 * r



@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_ext_polygon_offset_clamp_in_desktop_contexts(api):
    """EXT_polygon_offset_clamp is listed in desktop contexts (every compatibility version,
    core from 3.2, as Mesa): glPolygonOffsetClampEXT is glPolygonOffsetClamp, the same clamp
    of the same draw (window depth 0.5 + 2e-5 instead of 0.5 + 1000 r), read back through
    GL_POLYGON_OFFSET_CLAMP_EXT (the same token)."""
    for listed_in in (api, "gl32"):
        c = glhelp.context(4, 4, api=listed_in)
        n = c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert "GL_EXT_polygon_offset_clamp" in {c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
    c = glhelp.context(4, 4, api=api)
    r = 2.0 ** -23
    z = _depth_of_flat_quad(c, lambda: c.glPolygonOffsetClampEXT(0.0, 1000.0, 2e-5))
    assert abs(z - (0.5 + 2e-5)) < 100 * r
    assert c.glGetFloatv(E.GL_POLYGON_OFFSET_CLAMP) == [pytest.approx(2e-5)]
