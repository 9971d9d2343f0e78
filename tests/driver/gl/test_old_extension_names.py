"""Old extension names of features shimgl has under their core names (session 13), each
tested for what its own specification says: its entry points, tokens and errors, in a
compatibility context, against hand-computed values."""

import numpy as np
import pytest

from driver.gl import enums as E

W = H = 8


@pytest.fixture
def ctx():
    import driver
    return driver.Context(api="compat", width=W, height=H)


def listed(c, name):
    return name in c.glGetString(E.GL_EXTENSIONS).split()


def no_error(c):
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]


def quad(c, z=0.0):
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex3f(x, y, z)
    c.glEnd()
    no_error(c)


def fbo_with(c, n):
    fbo = c.glGenFramebuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    for k, tex in enumerate(c.glGenTextures(n)):
        c.glBindTexture(E.GL_TEXTURE_2D, tex)
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        c.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + k, E.GL_TEXTURE_2D, tex, 0)
    assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    c.glDrawBuffers(n, [E.GL_COLOR_ATTACHMENT0 + k for k in range(n)])
    return fbo


def read(c, attachment=None, x=0, y=0, w=W, h=H):
    if attachment is not None:
        c.glReadBuffer(attachment)
    data = c.glReadPixels(x, y, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(data), np.uint8).reshape(h, w, 4)


# -- GL_EXT_draw_buffers2 -------------------------------------------------------------------------
def test_ext_draw_buffers2_masks_and_blend_per_buffer(ctx):
    c = ctx
    assert listed(c, "GL_EXT_draw_buffers2")
    fbo_with(c, 2)
    c.glClearColor(0.5, 0.5, 0.5, 0.5)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glColorMaskIndexedEXT(1, True, False, True, False)
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 1) == [True, False, True, False]
    assert c.glGetIntegerIndexedvEXT(E.GL_COLOR_WRITEMASK, 1) == [1, 0, 1, 0]
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 0) == [True] * 4
    c.glEnableIndexedEXT(E.GL_BLEND, 0)
    assert c.glIsEnabledIndexedEXT(E.GL_BLEND, 0) and not c.glIsEnabledIndexedEXT(E.GL_BLEND, 1)
    assert c.glIsEnabled(E.GL_BLEND)                 # IsEnabled(BLEND) answers for buffer 0
    c.glBlendFunc(E.GL_ONE, E.GL_ONE)
    c.glColor4f(0.25, 0.25, 0.25, 0.25)
    quad(c)
    # buffer 0 blends the stored 128/255 + 64/255 = 192; buffer 1 does not blend and writes
    # red and blue only (0.25 -> 64)
    assert (read(c, E.GL_COLOR_ATTACHMENT0) == [192, 192, 192, 192]).all()
    assert (read(c, E.GL_COLOR_ATTACHMENT1) == [64, 128, 64, 128]).all()
    c.glDisableIndexedEXT(E.GL_BLEND, 0)
    assert not c.glIsEnabledIndexedEXT(E.GL_BLEND, 0)
    # the non-indexed commands set every buffer
    c.glColorMask(False, True, False, True)
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 1) == [False, True, False, True]
    c.glEnable(E.GL_BLEND)
    assert c.glIsEnabledIndexedEXT(E.GL_BLEND, 1)
    no_error(c)


def test_ext_draw_buffers2_errors(ctx):
    c = ctx
    n = c.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)[0]
    c.glColorMaskIndexedEXT(n, False, False, False, False)
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 0) == [True] * 4
    c.glEnableIndexedEXT(E.GL_BLEND, n)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, n)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glEnableIndexedEXT(E.GL_DEPTH_TEST, 0)          # not an indexed capability
    assert c.glGetError() == E.GL_INVALID_ENUM
    assert not c.glIsEnabled(E.GL_DEPTH_TEST)
