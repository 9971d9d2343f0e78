"""glFramebufferTextureLayer takes a cube map texture from GL 4.5 on, its layer naming
the face (GL 4.6 section 9.2.8, table 9.3; piglit arb_stencil_texturing
glblitframebuffer corrupts state gl_texture_cube_map: the framebuffer was incomplete,
missing its attachment). Layer 6 or more is INVALID_VALUE; GLES 3.2 and GL before
4.5 take no cube maps there (INVALID_OPERATION). Each face's colour by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def _cube(ctx) -> int:
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, tex)
    for face in range(6):
        texels = np.tile(np.array([face * 40, 255 - face * 40, face, 255], np.uint8), 4 * 4)
        ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA,
                         E.GL_UNSIGNED_BYTE, texels.tobytes())
    return tex


@pytest.mark.parametrize("api", ["gl46", "compat"])
def test_a_cube_face_by_layer(api):
    ctx = driver.Context(api=api, width=4, height=4)
    tex = _cube(ctx)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    for face in (3, 5):
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, face)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        px = np.frombuffer(bytes(ctx.glReadPixels(1, 2, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert list(px) == [face * 40, 255 - face * 40, face, 255]
    ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, 6)
    expect(ctx, E.GL_INVALID_VALUE)


@pytest.mark.parametrize("api", ["gles3", "gl43"])
def test_no_cube_maps_before_gl45(api):
    ctx = driver.Context(api=api, width=4, height=4)
    tex = _cube(ctx)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, 1)
    expect(ctx, E.GL_INVALID_OPERATION)
