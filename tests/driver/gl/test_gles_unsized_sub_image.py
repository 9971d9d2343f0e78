"""GLES TexSubImage into an image of an unsized internal format takes the
format/type pairs TexImage takes with that internal format (GLES 3.2 section
8.7 with tables 8.2 and 3.4; piglit ext_texture_format_bgra8888-api-errors):
BGRA_EXT/UNSIGNED_BYTE into a BGRA_EXT image, RGBA/UNSIGNED_SHORT_4_4_4_4 into
an RGBA one; BGRA_EXT/FLOAT or RGB/UNSIGNED_BYTE are INVALID_OPERATION and
change no texel. Texels read back through a framebuffer, worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

T2 = E.GL_TEXTURE_2D
GL_BGRA_EXT = 0x80E1


def _texel(ctx, tex):
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, tex, 0)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    return px.tolist()


@pytest.mark.parametrize("api", ["gles2", "gles3", "gles32"])
def test_bgra_image_takes_bgra_bytes_only(api):
    ctx = driver.Context(api=api, width=4, height=4)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, GL_BGRA_EXT, 2, 2, 0, GL_BGRA_EXT, E.GL_UNSIGNED_BYTE, bytes([10, 20, 30, 255]) * 4)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 1, 1, GL_BGRA_EXT, E.GL_UNSIGNED_BYTE, bytes([1, 2, 3, 4]))   # B G R A
    expect(ctx, E.GL_NO_ERROR)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 1, 1, GL_BGRA_EXT, E.GL_FLOAT, np.ones(4, np.float32).tobytes())
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(4))
    expect(ctx, E.GL_INVALID_OPERATION)
    assert _texel(ctx, t) == [3, 2, 1, 4]


def test_rgba_image_takes_its_packed_types():
    """RGBA/UNSIGNED_SHORT_4_4_4_4 0x1234 into an RGBA (UNSIGNED_BYTE) image:
    R 1, G 2, B 3, A 4 of 15 -> 17, 34, 51, 68."""
    ctx = driver.Context(api="gles3", width=4, height=4)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([9, 9, 9, 9]))
    ctx.glTexSubImage2D(T2, 0, 0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4,
                        np.array([0x1234], np.uint16).tobytes())
    expect(ctx, E.GL_NO_ERROR)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 1, 1, E.GL_RGB, E.GL_UNSIGNED_BYTE, bytes(3))
    expect(ctx, E.GL_INVALID_OPERATION)
    assert _texel(ctx, t) == [17, 34, 51, 68]
