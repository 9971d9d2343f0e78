"""EXT_clear_texture in GLES beyond the basic clears (test_gles_ext_commands.py):
what piglit's ext_clear_texture directory checks, each against hand-computed
texels and the errors GL 4.6 section 8.21 names (which EXT_clear_texture takes):

- a region leaving the image, a depth image cleared with a colour format and a
  colour image with a depth format: INVALID_OPERATION;
- a value given in another format/type than GLES's TexSubImage would take for
  the image (RGBA/FLOAT into RGBA8) converts, also through a texture view, and
  the parent's other level keeps its texels;
- every sample of a box of a multisample texture;
- a level of an immutable texture above TEXTURE_MAX_LEVEL (its storage has it);
- GLES reads of integer buffers in their IMPLEMENTATION_COLOR_READ_TYPE
  (RGBA16UI: RGBA_INTEGER/UNSIGNED_SHORT), as piglit reads the cleared images."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

T2 = E.GL_TEXTURE_2D
GREEN_F = np.array([0.0, 1.0, 0.0, 1.0], np.float32)
RED_B = bytes([255, 0, 0, 255])


def _ctx():
    return driver.Context(api="gles31", width=8, height=8)


def _read(ctx, tex, level, w, h, fmt=E.GL_RGBA, type=E.GL_UNSIGNED_BYTE, dtype=np.uint8):
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, tex, level)
    raw = ctx.glReadPixels(0, 0, w, h, fmt, type)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    ctx.glDeleteFramebuffers(1, [fb])
    return np.frombuffer(raw, dtype).reshape(h, w, 4)


def test_errors_of_section_8_21():
    ctx = _ctx()
    t, d = ctx.glGenTextures(2)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 1, E.GL_RGBA8, 4, 4)
    for box in [(-1, 0, 0, 1, 1, 1), (0, -1, 0, 1, 1, 1), (0, 0, -1, 1, 1, 1), (1, 1, 0, 4, 1, 1),
                (1, 1, 0, 1, 4, 1), (1, 1, 0, 1, 1, 2)]:
        ctx.glClearTexSubImageEXT(t, 0, *box, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glClearTexSubImageEXT(t, 0, 1, 1, 0, 3, 3, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glClearTexImageEXT(t, 0, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT, bytes(4))
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glBindTexture(T2, d)
    ctx.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT, 1, 1, 0, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT, bytes(4))
    ctx.glClearTexImageEXT(d, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, RED_B)
    expect(ctx, E.GL_INVALID_OPERATION)


@pytest.mark.parametrize("level", [0, 1])
def test_a_float_value_clears_a_level_through_a_view(level):
    """A 2-level RGBA8 texture filled red; a one-level view of level ``level``
    cleared with RGBA/FLOAT green: that level of the parent is (0, 255, 0, 255),
    the other stays red."""
    ctx = _ctx()
    src, view = ctx.glGenTextures(2)
    ctx.glBindTexture(T2, src)
    ctx.glTexStorage2D(T2, 2, E.GL_RGBA8, 2, 2)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, RED_B * 4)
    ctx.glTexSubImage2D(T2, 1, 0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, RED_B)
    ctx.glTextureViewOES(view, T2, src, E.GL_RGBA8, level, 1, 0, 1)
    ctx.glClearTexImageEXT(view, 0, E.GL_RGBA, E.GL_FLOAT, GREEN_F.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    for j in range(2):
        px = _read(ctx, src, j, 2 >> j, 2 >> j)
        assert (px == ([0, 255, 0, 255] if j == level else [255, 0, 0, 255])).all(), (j, px[0, 0])


def test_every_sample_of_a_multisample_box():
    """An 8x8 4-sample RGBA8 texture cleared red (RGBA/FLOAT), then the box
    x 2-4, y 4-5 green: a blit to a single-sample texture (the average of equal
    samples) shows exactly those texels green."""
    ctx = _ctx()
    ms, out = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ms)
    ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8, 8, 8, False)
    ctx.glClearTexImageEXT(ms, 0, E.GL_RGBA, E.GL_FLOAT, np.array([1, 0, 0, 1], np.float32).tobytes())
    ctx.glClearTexSubImageEXT(ms, 0, 2, 4, 0, 3, 2, 1, E.GL_RGBA, E.GL_FLOAT, GREEN_F.tobytes())
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindTexture(T2, out)
    ctx.glTexStorage2D(T2, 1, E.GL_RGBA8, 8, 8)
    fbs = ctx.glGenFramebuffers(2)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbs[0])
    ctx.glFramebufferTexture2D(E.GL_READ_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, ms, 0)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fbs[1])
    ctx.glFramebufferTexture2D(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, out, 0)
    ctx.glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    expect(ctx, E.GL_NO_ERROR)
    px = _read(ctx, out, 0, 8, 8)
    want = np.tile(np.array([255, 0, 0, 255], np.uint8), (8, 8, 1))
    want[4:6, 2:5] = [0, 255, 0, 255]
    assert (px == want).all()


def test_a_level_above_max_level_of_an_immutable_texture():
    """TEXTURE_MAX_LEVEL 0 on a 3-level immutable texture: levels 1 and 2 are
    still storage that can be cleared, attached and read (before, reading level 1
    was an internal error: the storage had only level 0)."""
    ctx = _ctx()
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 3, E.GL_RGBA8, 8, 8)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MAX_LEVEL, 0)
    for level, v in enumerate([10, 20, 30]):
        ctx.glClearTexImageEXT(t, level, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([v, v + 1, v + 2, 255]))
    expect(ctx, E.GL_NO_ERROR)
    for level, v in enumerate([10, 20, 30]):
        size = 8 >> level
        assert (_read(ctx, t, level, size, size) == [v, v + 1, v + 2, 255]).all(), level


def test_integer_buffers_read_in_their_natural_type():
    """RGBA16UI: IMPLEMENTATION_COLOR_READ_FORMAT/TYPE are RGBA_INTEGER /
    UNSIGNED_SHORT and ReadPixels takes that pair (besides RGBA_INTEGER /
    UNSIGNED_INT); RGBA8I: BYTE; RGBA32I stays INT."""
    ctx = _ctx()
    for ifmt, value, type, dtype in [(E.GL_RGBA16UI, [1, 300, 65535, 7], E.GL_UNSIGNED_SHORT, np.uint16),
                                     (E.GL_RGBA8I, [-128, -1, 5, 127], E.GL_BYTE, np.int8),
                                     (E.GL_RGBA32I, [-70000, 0, 1, 2 ** 31 - 1], E.GL_INT, np.int32)]:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(T2, t)
        ctx.glTexStorage2D(T2, 1, ifmt, 2, 2)
        ctx.glClearTexImageEXT(t, 0, E.GL_RGBA_INTEGER, type, np.array(value, dtype).tobytes())
        expect(ctx, E.GL_NO_ERROR)
        fb = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
        assert ctx.glGetIntegerv(E.GL_IMPLEMENTATION_COLOR_READ_FORMAT) == [E.GL_RGBA_INTEGER]
        assert ctx.glGetIntegerv(E.GL_IMPLEMENTATION_COLOR_READ_TYPE) == [type]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
        assert (_read(ctx, t, 0, 2, 2, E.GL_RGBA_INTEGER, type, dtype) == value).all(), hex(ifmt)


@pytest.mark.parametrize("api, ok", [("gles3", False), ("gles31", True), ("gles32", True)])
def test_framebuffer_texture_2d_takes_multisample_textures_from_es31(api, ok):
    """GLES 3.1 section 9.2.8: textarget TEXTURE_2D_MULTISAMPLE (level 0 only,
    else INVALID_VALUE); GLES 3.0 has no multisample textures (INVALID_ENUM)."""
    ctx = driver.Context(api=api, width=8, height=8)
    (t,) = ctx.glGenTextures(1)
    if ok:
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, t)
        ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8, 8, 8, False)
    else:
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)        # an existing texture: the target is what is wrong
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, ctx.glGenFramebuffers(1)[0])
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, t, 0)
    expect(ctx, E.GL_NO_ERROR if ok else E.GL_INVALID_ENUM)
    if ok:
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        assert ctx.glGetIntegerv(E.GL_SAMPLES) == [4]
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, t, 1)
        expect(ctx, E.GL_INVALID_VALUE)
