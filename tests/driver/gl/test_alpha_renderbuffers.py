"""GL_ALPHA, GL_ALPHA4/8/12/16 render in the compatibility profile (colour-renderable in
GL 4.6 compatibility table 8.22, as Mesa): an alpha-only target whose one memory
component is the alpha channel (tile swizzle (3,)). The tile clear used to store the
clear colour's red there (the clear program set only the first component's register),
so a cleared ALPHA8 buffer read 0. Expected by hand: RGB read as 0, alpha
round(255 a): clear 0.8 -> 204, a draw of alpha 0.4 -> 102, blending (DST_ALPHA, ONE)
alpha 0.4 over 0.4 -> 0.56 -> 143 and over 0.8 -> 1.12 -> 255, a scissored clear 0.2 -> 51."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect


def _alpha(ctx, w, h) -> np.ndarray:
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    px = px.reshape(h, w, 4)
    assert (px[..., :3] == 0).all()
    return px[..., 3].astype(int)


@pytest.mark.parametrize("fmt", [E.GL_ALPHA, E.GL_ALPHA4, E.GL_ALPHA8, E.GL_ALPHA12, E.GL_ALPHA16])
def test_alpha_buffers_clear_draw_and_blend(fmt):
    w = h = 8
    with driver.Context(api="compat", width=w, height=h) as ctx:
        fb, rb = ctx.glGenFramebuffers(1)[0], ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, w, h)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        assert ctx.glGetIntegerv(E.GL_ALPHA_BITS)[0] >= 4
        ctx.glClearColor(0.2, 0.4, 0.6, 0.8)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        assert (_alpha(ctx, w, h) == 204).all()
        ctx.glColor4f(0.1, 0.2, 0.3, 0.4)
        ctx.glRectf(-1, -1, 0, 1)                       # left half: alpha 0.4
        ctx.glEnable(E.GL_BLEND)
        ctx.glBlendFunc(E.GL_DST_ALPHA, E.GL_ONE)
        ctx.glRectf(-1, -1, 1, 1)
        a = _alpha(ctx, w, h)
        assert (a[:, :4] == 143).all() and (a[:, 4:] == 255).all(), a
        ctx.glDisable(E.GL_BLEND)
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(2, 3, 4, 2)
        ctx.glClearColor(1.0, 1.0, 1.0, 0.2)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        want = np.where(np.arange(w)[None, :] < 4, 143, 255).repeat(h, 0)
        want[3:5, 2:6] = 51
        assert (_alpha(ctx, w, h) == want).all()
        expect(ctx, E.GL_NO_ERROR)


def test_alpha_is_no_renderbuffer_format_outside_the_compatibility_profile():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        for fmt in (E.GL_ALPHA, E.GL_ALPHA8):
            ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, 4, 4)
            expect(ctx, E.GL_INVALID_ENUM)
    with driver.Context(api="gles2", width=4, height=4) as ctx:     # an ALPHA texture does not render
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_ALPHA, 4, 4, 0, E.GL_ALPHA, E.GL_UNSIGNED_BYTE, bytes(16))
        fb = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
