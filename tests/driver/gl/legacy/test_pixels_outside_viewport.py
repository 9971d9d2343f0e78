"""glDrawPixels and glCopyPixels write at the raster position in window coordinates,
wherever the viewport is (GL 4.6 compatibility section 18.1: pixel rectangles are
not clipped by the viewport; piglit ext_framebuffer_blit fbo-readdrawpix copied to
the window outside an FBO-sized viewport and drew nothing). Pixels by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def _image(ctx) -> np.ndarray:
    raw = ctx.glReadPixels(0, 0, 16, 16, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(raw), np.uint8).reshape(16, 16, 4)


def test_draw_and_copy_pixels_beyond_the_viewport():
    ctx = driver.Context(api="compat", width=16, height=16)
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glViewport(0, 0, 4, 4)
    red = np.tile(np.array([255, 0, 0, 255], np.uint8), 4 * 4)
    ctx.glWindowPos2i(8, 8)
    ctx.glDrawPixels(4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, red.tobytes())
    ctx.glWindowPos2i(2, 10)
    ctx.glCopyPixels(8, 8, 3, 2, E.GL_COLOR)          # 3x2 of the red square to x 2..4, y 10..11
    expect(ctx, E.GL_NO_ERROR)
    want = np.zeros((16, 16), bool)
    want[8:12, 8:12] = True
    want[10:12, 2:5] = True
    img = _image(ctx)
    assert ((img == [255, 0, 0, 255]).all(axis=2) == want).all()
    assert ((img == [0, 0, 0, 255]).all(axis=2) == ~want).all()
    assert ctx.glGetIntegerv(E.GL_VIEWPORT) == [0, 0, 4, 4]      # the viewport is kept
