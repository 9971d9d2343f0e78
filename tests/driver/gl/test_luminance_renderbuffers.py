"""The luminance, luminance-alpha and intensity formats render in the compatibility
profile (colour-renderable in GL 4.6 compatibility table 8.22 with framebuffer objects,
as Mesa's _mesa_base_fbo_format): luminance and intensity take the red component, a
luminance-alpha target red and alpha (tile swizzles (0,) and (0, 3)). Read back as
RGBA they give (L, 0, 0, 1) or (L, 0, 0, A) (GL 4.6 compatibility section 18.2, as
llvmpipe). Expected by hand, 8-bit: clear (0.2, 0.4, 0.6, 0.8) -> L 51, A 204; a rect
of (0.6, 0.1, 0.3, 0.4) -> L 153, A 102; blended (SRC_ALPHA, ONE_MINUS_SRC_ALPHA) over
the clear -> L 0.6*0.4 + 0.2*0.6 = 0.36 -> 92, A 0.4*0.4 + 0.8*0.6 = 0.64 -> 163."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

W = H = 8
WITH_ALPHA = (E.GL_LUMINANCE_ALPHA, E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE16_ALPHA16)


def _rgba(ctx) -> np.ndarray:
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    px = px.reshape(H, W, 4).astype(int)
    assert (px[..., 1:3] == 0).all()
    return px


def _near(got, want):
    return (np.abs(got - want) <= 1).all()        # 16-bit storage read back as 8 bits


@pytest.mark.parametrize("fmt", [E.GL_LUMINANCE, E.GL_LUMINANCE8, E.GL_LUMINANCE16, E.GL_INTENSITY,
                                 E.GL_INTENSITY8, *WITH_ALPHA])
def test_luminance_buffers_clear_draw_and_blend(fmt):
    alpha = fmt in WITH_ALPHA
    with driver.Context(api="compat", width=W, height=H) as ctx:
        fb, rb = ctx.glGenFramebuffers(1)[0], ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, W, H)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClearColor(0.2, 0.4, 0.6, 0.8)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        px = _rgba(ctx)
        assert _near(px[..., 0], 51) and _near(px[..., 3], 204 if alpha else 255)
        ctx.glColor4f(0.6, 0.1, 0.3, 0.4)
        ctx.glRectf(-1, -1, 0, 1)                       # left half
        px = _rgba(ctx)
        assert _near(px[:, :4, 0], 153) and _near(px[:, 4:, 0], 51)
        assert _near(px[:, :4, 3], 102 if alpha else 255)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_BLEND)
        ctx.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
        ctx.glRectf(-1, -1, 0, 1)
        px = _rgba(ctx)
        assert _near(px[:, :4, 0], 92) and _near(px[:, 4:, 0], 51), px[..., 0]
        if alpha:
            assert _near(px[:, :4, 3], 163) and _near(px[:, 4:, 3], 204)
        la = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 1, 1, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert _near(la.astype(int), [92, 163 if alpha else 255])
        expect(ctx, E.GL_NO_ERROR)


def test_a_luminance_texture_rendered_to_samples_as_luminance():
    """Drawn through a framebuffer, an L8 texture then samples as (L, L, L, 1)."""
    with driver.Context(api="compat", width=W, height=H) as ctx:
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_LUMINANCE8, W, H, 0, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE,
                         bytes(W * H))
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
        fb = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClearColor(0.6, 0.0, 0.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_TEXTURE_2D)
        ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
        ctx.glBegin(E.GL_QUADS)
        for s, t in ((0, 0), (1, 0), (1, 1), (0, 1)):
            ctx.glTexCoord2f(s, t)
            ctx.glVertex2f(2 * s - 1, 2 * t - 1)
        ctx.glEnd()
        px = ctx.read_pixels()
        assert (px[..., :3] == 153).all() and (px[..., 3] == 255).all()
        expect(ctx, E.GL_NO_ERROR)


def test_luminance_renders_only_in_the_compatibility_profile():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        for fmt in (E.GL_LUMINANCE, E.GL_LUMINANCE8, E.GL_INTENSITY8):
            ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, 4, 4)
            expect(ctx, E.GL_INVALID_ENUM)
    with driver.Context(api="gles2", width=4, height=4) as ctx:     # GLES: textures, not render targets
        for fmt in (E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA):
            tex = ctx.glGenTextures(1)[0]
            ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
            ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 4, 4, 0, fmt, E.GL_UNSIGNED_BYTE, bytes(32))
            fb = ctx.glGenFramebuffers(1)[0]
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
            ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
            assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT


@pytest.mark.parametrize("storage", [False, True])
@pytest.mark.parametrize("fmt", [E.GL_LUMINANCE8, E.GL_ALPHA8, E.GL_INTENSITY8, E.GL_LUMINANCE8_ALPHA8,
                                 E.GL_LUMINANCE16])
def test_sized_legacy_multisample_textures_render_and_resolve(fmt, storage):
    """glTexImage2DMultisample and glTexStorage2DMultisample take the sized alpha,
    luminance, luminance-alpha and intensity formats in the compatibility profile (colour-
    renderable there, as Mesa's _mesa_base_fbo_format); a 4-sample texture cleared and
    half drawn resolves (glBlitFramebuffer) to the same values as the single-sample
    buffers above: L 153 left / 51 right, A 102 / 204 with alpha (alpha-only: L reads 0)."""
    alpha_only = fmt == E.GL_ALPHA8
    alpha = fmt in WITH_ALPHA or alpha_only
    with driver.Context(api="compat", width=W, height=H) as ctx:
        ms = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ms)
        if storage:
            ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, fmt, W, H, True)
        else:
            ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, fmt, W, H, True)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D_MULTISAMPLE, 0, E.GL_TEXTURE_SAMPLES) == [4]
        fb_ms, fb = ctx.glGenFramebuffers(2)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb_ms)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, ms, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClearColor(0.2, 0.4, 0.6, 0.8)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glColor4f(0.6, 0.1, 0.3, 0.4)
        ctx.glRectf(-1, -1, 0, 1)                       # left half
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, W, H)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fb)
        ctx.glFramebufferRenderbuffer(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fb)
        px = _rgba(ctx)
        if alpha_only:
            assert (px[..., 0] == 0).all()
        else:
            assert _near(px[:, :4, 0], 153) and _near(px[:, 4:, 0], 51), px[..., 0]
        assert _near(px[:, :4, 3], 102 if alpha else 255) and _near(px[:, 4:, 3], 204 if alpha else 255)


def test_multisample_legacy_formats_are_compat_and_storage_takes_sized_only():
    """A core context has no GL_LUMINANCE8 (INVALID_ENUM); glTexStorage2DMultisample
    takes sized formats only: the unsized GL_INTENSITY is INVALID_ENUM there even in the
    compatibility profile, while glTexImage2DMultisample takes it."""
    with driver.Context(api="gl46", width=W, height=H) as core:
        core.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, core.glGenTextures(1)[0])
        for call in (core.glTexImage2DMultisample, core.glTexStorage2DMultisample):
            call(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_LUMINANCE8, W, H, True)
            expect(core, E.GL_INVALID_ENUM)
    with driver.Context(api="compat", width=W, height=H) as ctx:
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ctx.glGenTextures(1)[0])
        ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_INTENSITY, W, H, True)
        expect(ctx, E.GL_INVALID_ENUM)
        ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_INTENSITY, W, H, True)
        expect(ctx, E.GL_NO_ERROR)
