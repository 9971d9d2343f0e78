"""glPolygonOffset's units on a 24-bit depth buffer count in a constant r (GL 4.6
section 14.6.5: r is a constant of the buffer's fixed-point representation), also
where the hardware keeps the buffer as 32-bit float: 2^-23, two steps of the
buffer, as Mesa's software rasterisers (llvmpipe's shadow maps of MuJoCo differ
from shimgl's by exactly 4 steps for units -4 otherwise); a DEPTH_COMPONENT32F buffer
keeps the floating-point rule, r = 2^(e - 23) of the primitive's largest |z|.
Before, a DEPTH24 buffer had the float rule, so near z = 0 (reverse-Z, ZERO_TO_ONE
clip control, as MuJoCo's shadow maps) the units offset nothing. Expected values by
hand from the rules."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

N = 8


def _depth_after_offset(internal, z, units, factor=0.0):
    ctx = driver.Context(api="compat", width=N, height=N)
    tex, = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    if internal == E.GL_DEPTH24_STENCIL8:
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, internal, N, N, 0, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, None)
    else:
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, internal, N, N, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, None)
    fb, = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_TEXTURE_2D, tex, 0)
    ctx.glDrawBuffer(E.GL_NONE)
    ctx.glReadBuffer(E.GL_NONE)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClipControl(E.GL_LOWER_LEFT, E.GL_ZERO_TO_ONE)      # window z = z_ndc: small values stay small
    ctx.glClearDepth(0.0)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    ctx.glEnable(E.GL_POLYGON_OFFSET_FILL)
    ctx.glPolygonOffset(factor, units)
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex3f(x, y, z)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(0, 0, N, N, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)


@pytest.mark.parametrize("internal", [E.GL_DEPTH_COMPONENT24, E.GL_DEPTH24_STENCIL8])
@pytest.mark.parametrize("z", [0.01, 0.5])
def test_units_of_a_24_bit_buffer_are_2_to_the_minus_23(internal, z):
    base = _depth_after_offset(internal, z, 0.0)
    moved = _depth_after_offset(internal, z, -4.0)
    step = 2.0 ** -24
    # 8 steps apart, within one step (the float storage keeps z unrounded to 24 bits);
    # the floating-point rule would move z = 0.01 by 2^-28 only
    assert np.abs(base - z).max() <= step
    assert np.abs((base - moved) - 8 * step).max() <= step, (base - moved)[:2]


def test_units_of_a_float_buffer_follow_the_exponent():
    """z = 0.01 = 0.64 * 2^-6: r = 2^(-7 - 23), 4 units = 2^-28."""
    base = _depth_after_offset(E.GL_DEPTH_COMPONENT32F, 0.01, 0.0)
    moved = _depth_after_offset(E.GL_DEPTH_COMPONENT32F, 0.01, -4.0)
    np.testing.assert_allclose(base - moved, 2.0 ** -28, rtol=0.05)
