"""glFramebufferTexture2D with textarget TEXTURE_2D_ARRAY attaches layer 0 of a 2D
array texture, as Mesa does (GL 3.0 / GLES 3.0 and later): piglit's GLES stand-in for
glGetTexImage reads layer 0 of array textures this way, and every GLES test probing an
array texture (oes_texture_view's layer tests among them) read nothing before. GLES
2.0 has no array textures: there the target stays INVALID_ENUM."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

T2A = E.GL_TEXTURE_2D_ARRAY


@pytest.mark.parametrize("api", ["gles3", "gl45"])
def test_layer_zero_of_an_array_is_read_and_cleared(api):
    ctx = driver.Context(api=api, width=1, height=1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2A, t)
    ctx.glTexStorage3D(T2A, 1, E.GL_RGBA8, 2, 2, 3)
    layers = np.array([[[10 * (z + 1), 20, 30, 255]] * 4 for z in range(3)], np.uint8)
    ctx.glTexSubImage3D(T2A, 0, 0, 0, 0, 2, 2, 3, E.GL_RGBA, E.GL_UNSIGNED_BYTE, layers)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2A, t, 0)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    got = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4)
    assert (got == [10, 20, 30, 255]).all()
    # a clear through the attachment reaches layer 0 only
    ctx.glClearColor(1.0, 0.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    for z, want in ((0, [255, 0, 0, 255]), (1, [20, 20, 30, 255]), (2, [30, 20, 30, 255])):
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, t, 0, z)
        got = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4)
        assert (got == want).all(), (z, got[0])
    expect(ctx, E.GL_NO_ERROR)


def test_a_texture_of_another_target_or_gles2_is_refused():
    ctx = driver.Context(api="gles3", width=1, height=1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 2, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2A, t, 0)
    expect(ctx, E.GL_INVALID_OPERATION)          # a 2D texture named with the array target
    es2 = driver.Context(api="gles2", width=1, height=1)
    (t2,) = es2.glGenTextures(1)
    (fb2,) = es2.glGenFramebuffers(1)
    es2.glBindFramebuffer(E.GL_FRAMEBUFFER, fb2)
    es2.glBindTexture(E.GL_TEXTURE_2D, t2)
    es2.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2A, t2, 0)
    expect(es2, E.GL_INVALID_ENUM)
