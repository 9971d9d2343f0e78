"""Packed depth-stencil rectangles (EXT/NV_packed_depth_stencil) and
GL_NV_copy_depth_to_color: glDrawPixels of GL_DEPTH_STENCIL writes the depths and the
stencil indices and leaves the colour buffers; glCopyPixels of GL_DEPTH_STENCIL copies
both; glCopyPixels of DEPTH_STENCIL_TO_RGBA_NV / _BGRA_NV writes each pixel's packed
word (24-bit depth, 8-bit index) as a colour: its bytes from the top are R, G, B, A
(B, G, R, A). Expected values computed by hand from the packed words."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

W = H = 8
TO_RGBA, TO_BGRA = 0x886E, 0x886F       # NV_copy_depth_to_color's CopyPixels types


def _ctx():
    return driver.Context(api="compat", width=2 * W, height=2 * H)


def _words():
    """A W x H image of packed words: depth (x * 0x111111 + y * 0x10101) << 8 | stencil."""
    y, x = np.mgrid[0:H, 0:W].astype(np.uint32)
    return ((x * 0x111111 + y * 0x010101) & 0xFFFFFF) << 8 | (x * 16 + y) & 0xFF


def _read_packed(ctx, x0, y0):
    raw = ctx.glReadPixels(x0, y0, W, H, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8)
    return np.frombuffer(bytes(raw), np.uint32).reshape(H, W)


def _read_colour(ctx, x0, y0):
    return np.frombuffer(bytes(ctx.glReadPixels(x0, y0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                         np.uint8).reshape(H, W, 4)


def _clear(ctx):
    ctx.glClearColor(0.25, 0.5, 0.75, 1.0)
    ctx.glClearDepth(0.0)
    ctx.glClearStencil(0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)


def test_listed_in_compatibility_only():
    """NV_copy_depth_to_color (glCopyPixels) is compatibility-only; NV_packed_depth_stencil's
    format and type are core GL 3.0, so it is listed in core contexts too, as Mesa lists it."""
    for api, listed in (("compat", True), ("gl46", False)):
        with driver.Context(api=api, width=4, height=4) as ctx:
            n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
            names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
            assert ("GL_NV_copy_depth_to_color" in names) == listed
            assert "GL_NV_packed_depth_stencil" in names


@pytest.mark.parametrize("kind", ["24_8", "32F_24_8_REV"])
def test_draw_pixels_depth_stencil_writes_both_and_no_colour(kind):
    words = _words()
    if kind == "24_8":
        data, ty = words, E.GL_UNSIGNED_INT_24_8
    else:       # a float depth and a word whose low byte is the index
        pairs = np.zeros((H, W, 2), np.uint32)
        pairs[..., 0] = ((words >> 8) / 0xFFFFFF).astype(np.float32).view(np.uint32)
        pairs[..., 1] = words & 0xFF
        data, ty = pairs, E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV
    with _ctx() as ctx:
        _clear(ctx)
        before = _read_colour(ctx, 2, 3)
        ctx.glWindowPos2i(2, 3)
        ctx.glDrawPixels(W, H, E.GL_DEPTH_STENCIL, ty, data)
        assert ctx.glGetError() == E.GL_NO_ERROR
        np.testing.assert_array_equal(_read_packed(ctx, 2, 3), words)
        np.testing.assert_array_equal(_read_colour(ctx, 2, 3), before)       # colour untouched


def test_copy_pixels_depth_stencil():
    words = _words()
    with _ctx() as ctx:
        _clear(ctx)
        ctx.glWindowPos2i(0, 0)
        ctx.glDrawPixels(W, H, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, words)
        ctx.glWindowPos2i(W, H)
        ctx.glCopyPixels(0, 0, W, H, E.GL_DEPTH_STENCIL)
        assert ctx.glGetError() == E.GL_NO_ERROR
        np.testing.assert_array_equal(_read_packed(ctx, W, H), words)


@pytest.mark.parametrize("to_type", [TO_RGBA, TO_BGRA], ids=["rgba", "bgra"])
def test_copy_depth_to_color(to_type):
    words = _words()
    order = (24, 16, 8, 0) if to_type == TO_RGBA else (8, 16, 24, 0)
    expected = np.stack([(words >> s) & 0xFF for s in order], axis=-1).astype(np.uint8)
    with _ctx() as ctx:
        _clear(ctx)
        ctx.glWindowPos2i(0, 0)
        ctx.glDrawPixels(W, H, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, words)
        ctx.glWindowPos2i(W, 1)
        ctx.glCopyPixels(0, 0, W, H, to_type)
        assert ctx.glGetError() == E.GL_NO_ERROR
        np.testing.assert_array_equal(_read_colour(ctx, W, 1), expected)
        np.testing.assert_array_equal(_read_packed(ctx, 0, 0), words)      # the source stays


def test_errors():
    with _ctx() as ctx:
        ctx.glCopyPixels(0, 0, W, H, 0x886D)                # not a CopyPixels type
        expect(ctx, E.GL_INVALID_ENUM)
        ctx.glDrawPixels(W, H, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT, _words())     # not a packed type
        expect(ctx, E.GL_INVALID_ENUM)        # EXT_packed_depth_stencil's error, as Mesa
        # a framebuffer with colour only: no depth or stencil to read or write
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, W, H)
        fb = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        ctx.glWindowPos2i(0, 0)
        for call in (lambda: ctx.glCopyPixels(0, 0, W, H, TO_RGBA),
                     lambda: ctx.glCopyPixels(0, 0, W, H, E.GL_DEPTH_STENCIL),
                     lambda: ctx.glDrawPixels(W, H, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, _words())):
            call()
            expect(ctx, E.GL_INVALID_OPERATION)


def test_read_pixels_applies_the_depth_and_index_transfer():
    """Compatibility ReadPixels of depth and stencil: DEPTH_SCALE/BIAS (clamped) and the
    index shift/offset and MAP_STENCIL apply (GL 4.6 compatibility section 18.2.8);
    by hand: depth d -> 0.5 d + 0.25, index s -> map[(s << 1) + 1 & 3] with map = 7, 9, 11, 13."""
    words = _words()
    with _ctx() as ctx:
        _clear(ctx)
        ctx.glWindowPos2i(0, 0)
        ctx.glDrawPixels(W, H, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, words)
        ctx.glPixelTransferf(E.GL_DEPTH_SCALE, 0.5)
        ctx.glPixelTransferf(E.GL_DEPTH_BIAS, 0.25)
        ctx.glPixelTransferi(E.GL_INDEX_SHIFT, 1)
        ctx.glPixelTransferi(E.GL_INDEX_OFFSET, 1)
        ctx.glPixelMapuiv(E.GL_PIXEL_MAP_S_TO_S, 4, [7, 9, 11, 13])
        ctx.glPixelTransferi(E.GL_MAP_STENCIL, 1)
        got = _read_packed(ctx, 0, 0)
        depth = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_DEPTH_COMPONENT, E.GL_FLOAT)),
                              np.float32).reshape(H, W)
        index = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)),
                              np.uint8).reshape(H, W)
        assert ctx.glGetError() == E.GL_NO_ERROR
    d = (words >> 8) / 0xFFFFFF * 0.5 + 0.25
    s = np.array([7, 9, 11, 13])[((words & 0xFF).astype(np.int64) * 2 + 1) & 3]
    np.testing.assert_allclose(depth, d, atol=1e-6)
    np.testing.assert_array_equal(index, s)
    np.testing.assert_array_equal(got & 0xFF, s)
    np.testing.assert_allclose((got >> 8) / 0xFFFFFF, d, atol=2.0 ** -23)
