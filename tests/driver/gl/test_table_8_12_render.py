"""Colour-renderable formats of GL 4.6 table 8.12 that desktop GL used to refuse
as attachments (piglit's arb_texture_multisample-dsa-texelfetch): the legacy sized
formats (R3_G3_B2, RGB4, RGB5, RGB10, RGB12, RGBA2, RGBA12), RGB16, SRGB8 and
RGB32F, and, as Mesa takes them in desktop GL, RGB8_SNORM and RGB16_SNORM. Each is drawn with a constant colour and read back as floats: the value
must be within half a step of the named precision (hand-computed tolerance, the
implementation may store more bits), or exact where the format holds the value
exactly. GLES 3.2 table 8.10 renders none of the three-component ones. RGB9_E5
(not colour-renderable) is taken as an attachment in desktop GL, as Mesa does, and
makes the framebuffer UNSUPPORTED (the piglit test skips it, as on llvmpipe)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect, link_sources

# internal format, colour drawn (RGBA), named bits per channel (None: exact), has alpha
CASES = [
    (E.GL_R3_G3_B2, (0.25, 0.6, 0.9, 0.3), (3, 3, 2), False),
    (E.GL_RGB4, (0.25, 0.6, 0.9, 0.3), (4, 4, 4), False),
    (E.GL_RGB5, (0.25, 0.6, 0.9, 0.3), (5, 5, 5), False),
    (E.GL_RGB10, (0.25, 0.6, 0.9, 0.3), (10, 10, 10), False),
    (E.GL_RGB12, (0.25, 0.6, 0.9, 0.3), (12, 12, 12), False),
    (E.GL_RGB16, (0.25, 0.6, 0.9, 0.3), (16, 16, 16), False),
    (E.GL_RGBA2, (0.25, 0.6, 0.9, 0.3), (2, 2, 2, 2), True),
    (E.GL_RGBA12, (0.25, 0.6, 0.9, 0.3), (12, 12, 12, 12), True),
    (E.GL_SRGB8, (1.0, 0.0, 1.0, 0.3), None, False),       # 0 and 1 are fixed points of sRGB
    # 7 and 15 magnitude bits (ReadPixels clamps a fixed-point buffer to [0, 1])
    (E.GL_RGB8_SNORM, (0.25, 0.6, 0.9, 0.3), (7, 7, 7), False),
    (E.GL_RGB16_SNORM, (0.25, 0.6, 0.9, 0.3), (15, 15, 15), False),
    (E.GL_RGB32F, (2.5, -1.25, 1000.0, 0.3), None, False),
]

VS = "#version 330\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FS = "#version 330\nuniform vec4 v; out vec4 o; void main() { o = v; }"


def _attach(ctx, ifmt, samples=0):
    (t,) = ctx.glGenTextures(1)
    if samples:
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, t)
        ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, samples, ifmt, 4, 4, False)
    else:
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, ifmt, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0,
                               E.GL_TEXTURE_2D_MULTISAMPLE if samples else E.GL_TEXTURE_2D, t, 0)
    return ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER)


def _draw(ctx, colour):
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)))
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "v"), *colour)
    tri = np.array([(-1, -1), (3, -1), (-1, 3)], np.float32)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glViewport(0, 0, 4, 4)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)


@pytest.mark.parametrize("ifmt, colour, bits, alpha", CASES, ids=[hex(c[0]) for c in CASES])
def test_desktop_draws_into_table_8_12_formats(ifmt, colour, bits, alpha):
    ctx = driver.Context(api="gl45", width=4, height=4)
    assert _attach(ctx, ifmt) == E.GL_FRAMEBUFFER_COMPLETE
    _draw(ctx, colour)
    expect(ctx, E.GL_NO_ERROR)
    got = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(16, 4)
    want = np.array(colour if alpha else colour[:3] + (1.0,), np.float32)
    if bits is None:
        assert (got == want).all(), (got[0], want)
    else:
        steps = np.array([(1 << b) - 1 for b in bits] + ([] if alpha else [1]), np.float64)
        # within half a step of the named precision (more bits may be stored)
        assert (np.abs(got - want) <= 0.5 / steps + 1e-6).all(), (got[0], want)


@pytest.mark.parametrize("ifmt", [E.GL_R3_G3_B2, E.GL_RGB12, E.GL_SRGB8, E.GL_RGB32F, E.GL_RGB8_SNORM])
def test_multisample_attachments_are_complete(ifmt):
    ctx = driver.Context(api="gl45", width=4, height=4)
    assert _attach(ctx, ifmt, samples=4) == E.GL_FRAMEBUFFER_COMPLETE


@pytest.mark.parametrize("ifmt", [E.GL_RGB16, E.GL_SRGB8, E.GL_RGB8_SNORM, E.GL_RGB32F, E.GL_RGB9_E5])
def test_gles3_does_not_render_them(ifmt):
    ctx = driver.Context(api="gles3", width=4, height=4)
    assert _attach(ctx, ifmt) != E.GL_FRAMEBUFFER_COMPLETE


def test_rgb9_e5_attachments_are_unsupported_on_desktop():
    ctx = driver.Context(api="gl45", width=4, height=4)
    assert _attach(ctx, E.GL_RGB9_E5, samples=4) == E.GL_FRAMEBUFFER_UNSUPPORTED
    expect(ctx, E.GL_NO_ERROR)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    expect(ctx, E.GL_INVALID_FRAMEBUFFER_OPERATION)
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGB9_E5, 4, 4)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_UNSUPPORTED
    # a missing attachment image still reads as incomplete first
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, E.GL_TEXTURE_2D, 0, 0)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, E.GL_TEXTURE_2D, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT


def test_rgb9_e5_is_no_gles_attachment():
    ctx = driver.Context(api="gles3", width=4, height=4)
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGB9_E5, 4, 4)
    expect(ctx, E.GL_INVALID_ENUM)
