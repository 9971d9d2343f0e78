"""Depth readback precision: a depth buffer's value reaches the client with one
rounding from the stored value (GL 4.6 section 18.2.6 / 8.4.4.2 conversions),
checked against integers computed exactly. The hardware keeps unorm depth in a
float32 plane (as Mesa's asahi does): a DEPTH_COMPONENT24 value is that float
rounded to 24 bits, DEPTH_COMPONENT16 to 16."""

from __future__ import annotations

import numpy as np
import pytest

import driver
import layout
from driver.gl import enums as E
from tests.driver.agx import glhelp

from .helpers import expect

N24, N32 = (1 << 24) - 1, (1 << 32) - 1


def _round_ratio(num: int, den: int) -> int:
    """round(num / den), halves up, in integers."""
    return (2 * num + den) // (2 * den)


def test_24_bit_depth_to_32_bit_uint_is_exact_for_every_value():
    """layout: every 24-bit depth read precisely and packed as a 32-bit unorm gives
    round(d * (2^32 - 1) / (2^24 - 1)); through float32 (the old path) 98% of them
    were off, by up to 128 units of 2^-32."""
    d = np.arange(0, 1 << 24, 7, dtype=np.uint64)
    d[-1] = N24
    raw = d.astype("<u4").view(np.uint8).reshape(-1, 4)
    value = layout.unpack("Z24X8_UNORM", raw, precise=True)
    assert value.dtype == np.float64
    got = layout.pack("Z32_UNORM", value).view("<u4")[:, 0].astype(np.uint64)
    want = (2 * d * N32 + N24) // (2 * N24)
    assert np.array_equal(got, want)
    as_float = layout.pack("Z32_FLOAT", value).view(np.float32)[:, 0]
    assert np.array_equal(as_float, (d / N24).astype(np.float32))      # correctly rounded


def _fbo(ctx, depth_format, w, h):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    colour, depth = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, colour)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, w, h)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, colour)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, depth)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, depth_format, w, h)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, depth)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


CLEARS = [0.0, 1.0, 0.5, 0.1, 1 / 3, 0.999999, 0.75 + 2 ** -30, 12345 / N24, 0.2500001, 2 / 3, 0.9, 1e-7]


@pytest.mark.parametrize("fmt,bits", [(E.GL_DEPTH_COMPONENT24, 24), (E.GL_DEPTH_COMPONENT16, 16),
                                      (E.GL_DEPTH24_STENCIL8, 24), (E.GL_DEPTH_COMPONENT32F, 0)])
def test_cleared_depth_reads_back_exactly(fmt, bits):
    w = len(CLEARS)
    with driver.Context(api="gl43", width=w, height=1) as ctx:
        _fbo(ctx, fmt, w, 1)
        ctx.glEnable(E.GL_SCISSOR_TEST)
        for x, v in enumerate(CLEARS):
            ctx.glScissor(x, 0, 1, 1)
            ctx.glClearDepth(v)
            ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        as_uint = np.frombuffer(ctx.glReadPixels(0, 0, w, 1, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT), np.uint32)
        as_float = np.frombuffer(ctx.glReadPixels(0, 0, w, 1, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
        as_ushort = np.frombuffer(ctx.glReadPixels(0, 0, w, 1, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_SHORT),
                                  np.uint16)
        expect(ctx, E.GL_NO_ERROR)
    for x, v in enumerate(CLEARS):
        stored = float(np.float32(v))                     # the float plane's value
        if bits:
            n = (1 << bits) - 1
            # the buffer's fixed-point value: 24-bit depth lives in the float plane and is
            # rounded from it; a 16-bit plane holds the clear value rounded directly
            q = int(np.rint(stored * n)) if bits == 24 else int(np.floor(v * n + 0.5))
            assert as_uint[x] == _round_ratio(q * N32, n), (v, q)
            assert as_ushort[x] == _round_ratio(q * 65535, n), (v, q)
            assert as_float[x] == np.float32(q / n), (v, q)
        else:
            assert as_float[x] == np.float32(v)
            assert as_uint[x] == int(np.rint(stored * N32)), v


def test_drawn_depth_24_is_within_one_unit():
    """A slanted triangle into DEPTH_COMPONENT24: every pixel's depth within 1.1 units
    of 2^-24 of the exact plane (measured 1.04; llvmpipe's figure is 1.6), and the
    32-bit reading is exactly the 24-bit value widened."""
    w = h = 48
    vs = "#version 330\nin vec3 p; void main() { gl_Position = vec4(p, 1.0); }"
    fs = "#version 330\nout vec4 c; void main() { c = vec4(1.0); }"
    tri = np.array([[-1, -1, -0.9], [3, -1, 0.3], [-1, 3, 0.7]], np.float32)
    with driver.Context(api="gl43", width=w, height=h) as ctx:
        _fbo(ctx, E.GL_DEPTH_COMPONENT24, w, h)
        prog = glhelp.program(ctx, vs, fs)
        glhelp.vertices(ctx, prog, tri, {"p": (3, 0)}, 3)
        ctx.glEnable(E.GL_DEPTH_TEST)
        ctx.glDepthFunc(E.GL_ALWAYS)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        f = np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32).reshape(h, w)
        u = np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT), np.uint32)
    x, y = glhelp.pixel_centres(w, h)
    weights = glhelp.barycentric(tri[:, :2].astype(np.float64), x, y)
    exact = (weights * tri[:, 2, None, None].astype(np.float64)).sum(0) * 0.5 + 0.5
    assert np.abs(f - exact).max() * 2 ** 24 <= 1.1
    q = np.rint(f.astype(np.float64).reshape(-1) * N24).astype(np.uint64)   # the stored 24-bit values
    assert np.array_equal(u.astype(np.uint64), (2 * q * N32 + N24) // (2 * N24))
