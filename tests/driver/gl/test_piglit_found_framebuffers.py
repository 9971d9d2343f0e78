"""Framebuffer completeness found wrong by piglit's depthstencil-render-miplevels:
depth and stencil attached from two different images are a combination shimgl does
not support (one depth/stencil surface per pipe framebuffer), so the framebuffer is
GL_FRAMEBUFFER_UNSUPPORTED in every API (GL 4.6 section 9.4.2 lets an
implementation refuse such combinations; Mesa's Gallium drivers do). Before, desktop
GL called it complete and silently drew without the stencil attachment."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E


def _ds_texture(g, size=8, levels=2):
    t = g.glGenTextures(1)[0]
    g.glBindTexture(E.GL_TEXTURE_2D, t)
    for level in range(levels):
        g.glTexImage2D(E.GL_TEXTURE_2D, level, E.GL_DEPTH24_STENCIL8, size >> level, size >> level, 0,
                       E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, None)
    return t


@pytest.mark.parametrize("api", ["compat", "gl43", "gles3"])
def test_depth_and_stencil_from_two_images_is_unsupported(api):
    with driver.Context(api, 8, 8) as c:
        g = c.gl
        a, b = _ds_texture(g), _ds_texture(g)
        g.glBindFramebuffer(E.GL_FRAMEBUFFER, g.glGenFramebuffers(1)[0])

        def attach(depth, depth_level, stencil, stencil_level):
            g.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_TEXTURE_2D, depth, depth_level)
            g.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_STENCIL_ATTACHMENT, E.GL_TEXTURE_2D, stencil,
                                     stencil_level)
            return g.glCheckFramebufferStatus(E.GL_FRAMEBUFFER)

        assert attach(a, 0, a, 0) == E.GL_FRAMEBUFFER_COMPLETE
        assert attach(a, 1, a, 1) == E.GL_FRAMEBUFFER_COMPLETE
        assert attach(a, 0, b, 0) == E.GL_FRAMEBUFFER_UNSUPPORTED       # two textures
        assert attach(a, 0, a, 1) == E.GL_FRAMEBUFFER_UNSUPPORTED       # two levels of one
        # drawing or clearing into it is refused, not done without the stencil
        g.glClear(E.GL_STENCIL_BUFFER_BIT)
        assert g.glGetError() == E.GL_INVALID_FRAMEBUFFER_OPERATION
        g.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_TEXTURE_2D, b, 1)
        assert g.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        assert g.glGetError() == E.GL_NO_ERROR
