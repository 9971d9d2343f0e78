"""glReadPixels in a compatibility context: the colours read go through the pixel
transfer operations (GL 4.6 compatibility section 18.2.8 with section 8.4.4.1:
glPixelTransfer's RED/GREEN/BLUE/ALPHA scale and bias, the colour maps with
MAP_COLOR), then CLAMP_READ_COLOR. A framebuffer object cleared to (0.2, 0.4, 0.6,
0.8) holds bytes (51, 102, 153, 204); each expected value below is computed by hand
from them. llvmpipe reads the same bytes in every case but one: it never clamps a
fixed-point buffer (Mesa drops the clamp for unsigned normalized buffers, whose
values are in [0, 1] before a transfer), so it reads RED_SCALE 6 as 1.2 in FLOAT
where the specification's FIXED_ONLY clamp gives 1.0."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.test_clear_read_memos import _fbo_with, _read_into, _renderbuffer


@pytest.fixture
def ctx():
    c = driver.Context(api="compat", width=8, height=8)
    _fbo_with(c, _renderbuffer(c, 32, 32))
    c.glClearColor(0.2, 0.4, 0.6, 0.8)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    return c


def _bytes(ctx, fmt=E.GL_RGBA):
    return list(np.frombuffer(ctx.glReadPixels(1, 1, 1, 1, fmt, E.GL_UNSIGNED_BYTE), np.uint8))


def _floats(ctx):
    return list(np.frombuffer(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_FLOAT), "<f4"))


def _scale_bias(ctx):
    ctx.glPixelTransferf(E.GL_RED_SCALE, 2.0)
    ctx.glPixelTransferf(E.GL_GREEN_BIAS, 0.25)
    ctx.glPixelTransferf(E.GL_BLUE_SCALE, -1.0)
    ctx.glPixelTransferf(E.GL_BLUE_BIAS, 1.0)
    ctx.glPixelTransferf(E.GL_ALPHA_SCALE, 0.5)


def test_scale_and_bias(ctx):
    assert _bytes(ctx) == [51, 102, 153, 204]
    _scale_bias(ctx)
    # R 51/255*2 = 0.4 -> 102; G 0.4+0.25 = 0.65 -> 165.75 -> 166; B 1-0.6 = 0.4 -> 102; A 0.4 -> 102
    assert _bytes(ctx) == [102, 166, 102, 102]
    assert np.allclose(_floats(ctx), [0.4, 0.65, 0.4, 0.4], atol=1e-6)
    ctx.glPixelTransferf(E.GL_RED_SCALE, 6.0)          # 1.2: clamped (FIXED_ONLY, a fixed-point buffer)
    assert _floats(ctx)[0] == 1.0 and _bytes(ctx)[0] == 255
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, E.GL_FALSE)
    assert np.isclose(_floats(ctx)[0], 1.2, atol=1e-6)
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, E.GL_FIXED_ONLY)
    # LUMINANCE: L = R + G + B after the transfer, clamped: 1.0 + 0.65 + 0.4 -> 255
    assert _bytes(ctx, E.GL_LUMINANCE) == [255]
    for k, v in ((E.GL_RED_SCALE, 1.0), (E.GL_GREEN_BIAS, 0.0), (E.GL_BLUE_SCALE, 1.0), (E.GL_BLUE_BIAS, 0.0),
                 (E.GL_ALPHA_SCALE, 1.0)):
        ctx.glPixelTransferf(k, v)
    assert _bytes(ctx) == [51, 102, 153, 204]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_map_color(ctx):
    # R through a 256-entry map i -> 1 - i/255 (index rint(0.2 * 255) = 51 -> 204/255); A through
    # [0.25, 0.75] (index rint(0.8) = 1 -> 0.75 -> 191.25 -> 191); G and B through the initial maps
    # (one entry, 0)
    ctx.glPixelMapfv(E.GL_PIXEL_MAP_R_TO_R, 256, [1 - i / 255 for i in range(256)])
    ctx.glPixelMapfv(E.GL_PIXEL_MAP_A_TO_A, 2, [0.25, 0.75])
    ctx.glPixelTransferi(E.GL_MAP_COLOR, E.GL_TRUE)
    assert _bytes(ctx) == [204, 0, 0, 191]
    ctx.glPixelTransferi(E.GL_MAP_COLOR, E.GL_FALSE)
    assert _bytes(ctx) == [51, 102, 153, 204]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_a_kept_read_plan_takes_the_transfer(ctx):
    """The read copied straight into client memory (``_read_plan``) is not the read
    once a transfer is set."""
    plain = np.frombuffer(_read_into(ctx, 0, 0, 32, 32), np.uint8).reshape(-1, 4)
    assert (plain == [51, 102, 153, 204]).all()
    assert (np.frombuffer(_read_into(ctx, 0, 0, 32, 32), np.uint8).reshape(-1, 4) == plain).all()
    _scale_bias(ctx)
    got = np.frombuffer(_read_into(ctx, 0, 0, 32, 32), np.uint8).reshape(-1, 4)
    assert (got == [102, 166, 102, 102]).all()
    ctx.glPixelTransferi(E.GL_MAP_COLOR, E.GL_TRUE)      # maps of one entry, 0: everything reads 0
    assert (np.frombuffer(_read_into(ctx, 0, 0, 32, 32), np.uint8) == 0).all()


def test_integer_and_core_reads_take_no_transfer():
    c = driver.Context(api="compat", width=8, height=8)
    _fbo_with(c, _renderbuffer(c, 4, 4, E.GL_RGBA8UI))
    c.glClearBufferuiv(E.GL_COLOR, 0, [7, 8, 9, 10])
    c.glPixelTransferf(E.GL_RED_SCALE, 2.0)
    got = np.frombuffer(c.glReadPixels(0, 0, 1, 1, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE), np.uint8)
    assert list(got) == [7, 8, 9, 10]
    assert c.glGetError() == E.GL_NO_ERROR
