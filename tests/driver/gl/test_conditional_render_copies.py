"""Conditional rendering never discards texture copies (GL 4.6 section 10.9: only
draws, clears and framebuffer blits are): glCopyTexImage2D/glCopyTexSubImage2D
under a failed condition still copy (piglit nv_conditional_render copyteximage and
copytexsubimage: the copy was skipped, the texture kept its red), while a clear
under it is still discarded. Colours by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def _texels(ctx, w, h) -> np.ndarray:
    raw = ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(raw), np.uint8).reshape(h, w, 4)


def test_copies_ignore_a_failed_condition():
    ctx = driver.Context(api="compat", width=4, height=4)
    ctx.glClearColor(0, 1, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    red = np.tile(np.array([255, 0, 0, 255], np.uint8), 16)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, red.tobytes())
    q = ctx.glGenQueries(1)[0]
    ctx.glBeginQuery(E.GL_SAMPLES_PASSED, q)
    ctx.glEndQuery(E.GL_SAMPLES_PASSED)                # nothing drawn: the condition fails
    ctx.glBeginConditionalRender(q, E.GL_QUERY_WAIT)
    ctx.glCopyTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2)
    ctx.glClearColor(0, 0, 1, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)                 # discarded
    ctx.glEndConditionalRender()
    expect(ctx, E.GL_NO_ERROR)
    got = _texels(ctx, 4, 4)
    assert (got[:2, :2] == [0, 255, 0, 255]).all() and (got[2:, :] == [255, 0, 0, 255]).all()
    ctx.glBeginConditionalRender(q, E.GL_QUERY_WAIT)
    ctx.glCopyTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 0, 0, 4, 2, 0)
    ctx.glEndConditionalRender()
    assert (_texels(ctx, 4, 2) == [0, 255, 0, 255]).all()
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert list(px) == [0, 255, 0, 255]                # the clear was discarded
