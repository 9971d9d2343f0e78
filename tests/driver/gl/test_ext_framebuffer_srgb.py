"""GL_EXT_framebuffer_sRGB (core GL 3.2+ and compatibility): FRAMEBUFFER_SRGB_CAPABLE_EXT
says whether the draw framebuffer has a colour buffer of sRGB encoding (the window's is
linear RGBA8; an SRGB8_ALPHA8 attachment is), where FRAMEBUFFER_SRGB makes writes
encode; the enable is in the colour-buffer and enable attribute groups. Encoded values
by hand: 0.3 linear -> 0.5838 sRGB (the sRGB transfer function), 149 of 255."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

from .helpers import expect

CAPABLE = 0x8DBA          # GL_FRAMEBUFFER_SRGB_CAPABLE_EXT


def _listed(ctx) -> bool:
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    return "GL_EXT_framebuffer_sRGB" in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}


def _fbo(ctx, internal):
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, internal, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def test_capable_follows_the_draw_framebuffer():
    for api in ("gl32", "gl46", "compat"):
        with driver.Context(api=api, width=4, height=4) as ctx:
            assert _listed(ctx), api
            assert ctx.glGetBooleanv(CAPABLE) == [False]          # the window is linear RGBA8
            _fbo(ctx, E.GL_SRGB8_ALPHA8)
            assert ctx.glGetBooleanv(CAPABLE) == [True]
            assert ctx.glGetIntegerv(CAPABLE) == [1]
            _fbo(ctx, E.GL_RGBA8)
            assert ctx.glGetBooleanv(CAPABLE) == [False]
            expect(ctx, E.GL_NO_ERROR)


def test_enabled_writes_encode_only_into_a_capable_buffer():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        _fbo(ctx, E.GL_SRGB8_ALPHA8)
        ctx.glViewport(0, 0, 4, 4)
        for enabled, want in ((False, round(0.3 * 255)), (True, 149)):
            (ctx.glEnable if enabled else ctx.glDisable)(E.GL_FRAMEBUFFER_SRGB)
            ctx.glColor4f(0.0, 0.3, 0.0, 1.0)
            ctx.glRecti(-1, -1, 1, 1)
            px = np.frombuffer(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
            assert abs(int(px[1]) - want) <= 1, (enabled, px)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)                # not capable: stored as given
        ctx.glEnable(E.GL_FRAMEBUFFER_SRGB)
        ctx.glRecti(-1, -1, 1, 1)
        assert abs(int(ctx.read_pixels()[1, 1, 1]) - round(0.3 * 255)) <= 1


def test_the_enable_is_pushed_with_the_colour_buffer_and_enable_groups():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        for bits, restored in ((E.GL_ENABLE_BIT, True), (E.GL_COLOR_BUFFER_BIT, True), (E.GL_FOG_BIT, False)):
            ctx.glEnable(E.GL_FRAMEBUFFER_SRGB)
            ctx.glPushAttrib(bits)
            ctx.glDisable(E.GL_FRAMEBUFFER_SRGB)
            ctx.glPopAttrib()
            assert bool(ctx.glIsEnabled(E.GL_FRAMEBUFFER_SRGB)) == restored, bits
        expect(ctx, E.GL_NO_ERROR)
