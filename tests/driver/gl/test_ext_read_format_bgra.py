"""GL_EXT_read_format_bgra (GLES 1.0+/2.0+): a fixed-point colour buffer can be read
with format BGRA_EXT in UNSIGNED_BYTE, UNSIGNED_SHORT_4_4_4_4_REV_EXT and
UNSIGNED_SHORT_1_5_5_5_REV_EXT; other BGRA reads stay INVALID_OPERATION. Chromium's
ANGLE (GL backend on EGL) reads its compositor's frames this way.

Expected values by hand: the clear colour (0.2, 0.4, 0.6, 0.8) is stored as
(51, 102, 153, 204); a _REV packed type puts the first component (B) in the low bits."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

CLEAR = (0.2, 0.4, 0.6, 0.8)


def _cleared(api):
    ctx = glhelp.context(4, 4, api=api)
    ctx.glClearColor(*CLEAR)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    return ctx


@pytest.mark.parametrize("api", ["gles2", "gles3", "gles32"])
def test_bgra_reads_in_the_three_types(api):
    ctx = _cleared(api)
    assert "GL_EXT_read_format_bgra" in ctx.extensions
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_BGRA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [153, 102, 51, 204]).all(), px[0]
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_BGRA, E.GL_UNSIGNED_SHORT_4_4_4_4_REV), np.uint16)
    assert (px == (9 | 6 << 4 | 3 << 8 | 12 << 12)).all(), hex(px[0])
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_BGRA, E.GL_UNSIGNED_SHORT_1_5_5_5_REV), np.uint16)
    assert (px == (19 | 12 << 5 | 6 << 10 | 1 << 15)).all(), hex(px[0])
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_other_bgra_reads_stay_errors():
    ctx = _cleared("gles3")
    assert ctx.glReadPixels(0, 0, 4, 4, E.GL_BGRA, E.GL_UNSIGNED_SHORT) is None
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    # an integer colour buffer has no BGRA read
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8UI, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    assert ctx.glReadPixels(0, 0, 4, 4, E.GL_BGRA, E.GL_UNSIGNED_BYTE) is None
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
