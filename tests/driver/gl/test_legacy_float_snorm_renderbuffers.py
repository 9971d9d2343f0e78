"""ARB_texture_float's and EXT_texture_snorm's alpha, luminance, luminance-alpha
and intensity formats render in the compatibility profile (as Mesa's
_mesa_base_fbo_format has them): renderbuffers of them are complete, clears and
draws land unclamped in float targets and in [-1, 1] in snorm ones, and read back
as RGBA they give (L, 0, 0, 1), (L, 0, 0, A), (0, 0, 0, A) (GL 4.6 compatibility
section 18.2). Expected values by hand: snormN stores round(v * (2^(N-1) - 1)) / (2^(N-1) - 1).
(A fragment's negative values reach no snorm target: FIXED_ONLY clamps them as for
RGBA8_SNORM here; Mesa leaves snorm targets unclamped - not this change.)"""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp

W = H = 4
A16F, I16F, L16F, LA16F = 0x881C, 0x881D, 0x881E, 0x881F
A32F, I32F, L32F, LA32F = 0x8816, 0x8817, 0x8818, 0x8819
A8_SNORM, L8_SNORM, LA8_SNORM, I8_SNORM = 0x9014, 0x9015, 0x9016, 0x9017
A16_SNORM, L16_SNORM, LA16_SNORM, I16_SNORM = 0x9018, 0x9019, 0x901A, 0x901B
VS = "#version 130\nin vec4 p; void main() { gl_Position = p; }\n"
FS = "#version 130\nuniform vec4 c; out vec4 o; void main() { o = c; }\n"

# (format, base letters, snorm)
FORMATS = [(A16F, "A", False), (A32F, "A", False), (L16F, "L", False), (L32F, "L", False),
           (LA16F, "LA", False), (LA32F, "LA", False), (I16F, "I", False), (I32F, "I", False),
           (A8_SNORM, "A", True), (L8_SNORM, "L", True), (LA8_SNORM, "LA", True), (I8_SNORM, "I", True),
           (A16_SNORM, "A", True), (L16_SNORM, "L", True), (LA16_SNORM, "LA", True), (I16_SNORM, "I", True)]


def _stored(v, snorm_bits):
    v = np.asarray(v, np.float64)
    if not snorm_bits:
        return v
    top = (1 << (snorm_bits - 1)) - 1
    return np.round(np.clip(v, -1, 1) * top) / top


def _expect(value, base, snorm_bits):
    """RGBA read back from a target of ``base`` holding ``value`` (r, g, b, a written)."""
    r, a = _stored(value[0], snorm_bits), _stored(value[3], snorm_bits)
    return {"A": (0, 0, 0, a), "L": (r, 0, 0, 1), "I": (r, 0, 0, 1), "LA": (r, 0, 0, a)}[base]


def _read(ctx):
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_FLOAT)), np.float32)
    return px.reshape(H, W, 4)


@pytest.mark.parametrize("fmt, base, snorm", FORMATS)
def test_clear_and_draw_unclamped(fmt, base, snorm):
    snorm = (16 if fmt >= A16_SNORM else 8) if snorm else 0
    with driver.Context(api="compat", width=W, height=H) as ctx:
        fb = glhelp.renderbuffer_target(ctx, fmt, W, H)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClampColor(E.GL_CLAMP_READ_COLOR, E.GL_FALSE)
        clear = (-0.5, 0.25, 0.75, 0.375) if snorm else (2.5, 0.25, 0.75, -1.5)
        ctx.glClearColor(*clear)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        np.testing.assert_allclose(_read(ctx), np.broadcast_to(_expect(clear, base, snorm), (H, W, 4)),
                                   atol=1e-4 if fmt >= A16_SNORM else 1e-6)
        prog = glhelp.program(ctx, VS, FS)
        draw = (0.25, 0.5, 0.5, 0.75) if snorm else (-3.0, 0.5, 0.5, 6.0)
        ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), *draw)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        (vbo,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
        quad = np.array([-1, -1, 0, -1, -1, 1, 0, 1], np.float32)       # the left half
        ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(prog, "p")
        ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert ctx.glGetError() == E.GL_NO_ERROR
        px = _read(ctx)
        atol = 1e-4 if fmt >= A16_SNORM else 1e-6
        np.testing.assert_allclose(px[:, :W // 2], np.broadcast_to(_expect(draw, base, snorm), (H, W // 2, 4)),
                                   atol=atol)
        np.testing.assert_allclose(px[:, W // 2:], np.broadcast_to(_expect(clear, base, snorm), (H, W // 2, 4)),
                                   atol=atol)
        del fb


def test_not_in_core():
    ctx = glhelp.context(1, 1, api="gl33")
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    for fmt in (L16F, A32F, LA8_SNORM, I16_SNORM):
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, 1, 1)
        assert ctx.glGetError() == E.GL_INVALID_ENUM
