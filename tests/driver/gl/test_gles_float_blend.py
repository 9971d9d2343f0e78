"""GL_EXT_float_blend (GLES 3.0+): blending into 32-bit float colour buffers, which
EXT_color_buffer_float alone leaves an INVALID_OPERATION at the draw. shimgl blends
them in the fragment epilogue without clamping, so the extension is listed and the
draws blend; every expected value below is exact in binary32, worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.extensions import advertised
from tests.driver.gl.helpers import expect, link_sources

VS = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
TRI = np.array([(-1, -1), (3, -1), (-1, 3)], np.float32)
DST = [1.5, -3.0, 100.0, 0.5]
SRC = (2.25, 1.0, 1.0e6, 0.25)


def test_listed_from_gles_3_0():
    assert "GL_EXT_float_blend" not in advertised(True, False, (2, 0))
    for version in ((3, 0), (3, 1), (3, 2)):
        assert "GL_EXT_float_blend" in advertised(True, False, version)


def _blend(api, ifmt, setup):
    ctx = driver.Context(api=api, width=2, height=2)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, ifmt, 2, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearBufferfv(E.GL_COLOR, 0, DST)
    fs = ("#version 300 es\nprecision highp float; out vec4 o;\n"
          "void main() { o = vec4(%r, %r, %r, %r); }" % SRC)
    link_sources(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)))
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, TRI.nbytes, TRI.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnable(E.GL_BLEND)
    setup(ctx)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    return np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4)


@pytest.mark.parametrize("api", ["gles3", "gles32"])
def test_add_blends_unclamped_rgba32f(api):
    """ONE, ONE: (1.5 + 2.25, -3 + 1, 100 + 1e6, 0.5 + 0.25) = (3.75, -2, 1000100, 0.75)."""
    px = _blend(api, E.GL_RGBA32F, lambda c: c.glBlendFunc(E.GL_ONE, E.GL_ONE))
    assert (px == [3.75, -2.0, 1000100.0, 0.75]).all(), px


def test_factors_constant_colour_and_min_max():
    """SRC_ALPHA, CONSTANT_COLOR with the constant (2, 0.5, 0, 4) and RGB equation ADD,
    alpha equation MAX: r = 2.25 * 0.25 + 1.5 * 2 = 3.5625; g = 0.25 - 1.5 = -1.25;
    b = 250000 + 0 = 250000; a = max(0.25, 0.5) = 0.5 (MAX ignores the factors)."""
    def setup(ctx):
        ctx.glBlendColor(2.0, 0.5, 0.0, 4.0)
        ctx.glBlendFunc(E.GL_SRC_ALPHA, E.GL_CONSTANT_COLOR)
        ctx.glBlendEquationSeparate(E.GL_FUNC_ADD, E.GL_MAX)
    px = _blend("gles3", E.GL_RGBA32F, setup)
    assert (px == [3.5625, -1.25, 250000.0, 0.5]).all(), px


@pytest.mark.parametrize("ifmt, n", [(E.GL_R32F, 1), (E.GL_RG32F, 2)])
def test_one_and_two_channel_float_buffers(ifmt, n):
    """FUNC_REVERSE_SUBTRACT with ONE, ONE: dst - src = (1.5 - 2.25, -3 - 1) = (-0.75, -4);
    the missing channels read (0, 1) as GLES 3.0 section 4.3.1 says."""
    def setup(ctx):
        ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)
        ctx.glBlendEquation(E.GL_FUNC_REVERSE_SUBTRACT)
    px = _blend("gles31", ifmt, setup)
    want = [-0.75, -4.0, 0.0, 1.0][:n] + [0.0, 0.0, 1.0][n - 1:]
    assert (px == want).all(), px
