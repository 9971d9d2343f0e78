"""glLogicOp reaches the fragment stage, and an enabled logic op disables blending
(GL 4.6 section 17.3.9: for every buffer; a floating-point buffer takes the colour
as it is). The blend lowering had the logic ops (compiler/lower/blend.py) but the
draw's shader key never carried the pipe's logic op, so GL_COLOR_LOGIC_OP did
nothing and blending went on under it: piglit's arb_color_buffer_float render tests
(blending ONE, ONE under the COPY logic op) failed on the blend."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E


def _rect(g, colour):
    g.glColor4f(*colour)
    g.glRectf(-1, -1, 1, 1)


def _pixel(g, type_=E.GL_UNSIGNED_BYTE, dtype=np.uint8):
    return np.frombuffer(g.glReadPixels(1, 1, 1, 1, E.GL_RGBA, type_), dtype).tolist()


@pytest.mark.parametrize("op,want", [(E.GL_XOR, [0xFF, 0x0F ^ 0x33, 0xF0, 0xFF ^ 0x80]),
                                     (E.GL_AND, [0x00, 0x0F & 0x33, 0x00, 0xFF & 0x80]),
                                     (E.GL_OR, [0xFF, 0x0F | 0x33, 0xF0, 0xFF]),
                                     (E.GL_COPY_INVERTED, [0x0F, 0xCC, 0xFF, 0x7F]),
                                     (E.GL_NOOP, [0x0F, 0x0F, 0xF0, 0xFF])])
def test_logic_ops_combine_the_stored_bits(op, want):
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        g.glClearColor(0x0F / 255, 0x0F / 255, 0xF0 / 255, 1.0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        g.glEnable(E.GL_COLOR_LOGIC_OP)
        g.glLogicOp(op)
        _rect(g, (0xF0 / 255, 0x33 / 255, 0.0, 0x80 / 255))
        assert _pixel(g) == want
        assert g.glGetError() == E.GL_NO_ERROR


def test_an_enabled_logic_op_disables_blending():
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        g.glClearColor(0.5, 0.5, 0.5, 0.5)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        g.glEnable(E.GL_BLEND)
        g.glBlendFunc(E.GL_ONE, E.GL_ONE)
        g.glEnable(E.GL_COLOR_LOGIC_OP)                   # COPY: the colour replaces the pixel
        _rect(g, (0.25, 0.25, 0.25, 0.25))
        assert _pixel(g) == [64, 64, 64, 64]
        g.glDisable(E.GL_COLOR_LOGIC_OP)                  # blending again: 0.25 + 0.25
        _rect(g, (0.25, 0.25, 0.25, 0.25))
        assert _pixel(g) == [128, 128, 128, 128]


def test_a_float_buffer_ignores_the_logic_op_and_is_not_blended():
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        t = g.glGenTextures(1)[0]
        g.glBindTexture(E.GL_TEXTURE_2D, t)
        g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, 4, 4, 0, E.GL_RGBA, E.GL_FLOAT, None)
        g.glBindFramebuffer(E.GL_FRAMEBUFFER, g.glGenFramebuffers(1)[0])
        g.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t, 0)
        g.glClearColor(0.5, 0.5, 0.5, 0.5)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        g.glEnable(E.GL_BLEND)
        g.glBlendFunc(E.GL_ONE, E.GL_ONE)
        g.glEnable(E.GL_COLOR_LOGIC_OP)
        g.glLogicOp(E.GL_XOR)
        _rect(g, (0.25, 0.75, 0.125, 1.0))
        assert _pixel(g, E.GL_FLOAT, np.float32) == [0.25, 0.75, 0.125, 1.0]
