"""glGenerateMipmap of depth-only textures (desktop GL): GL 4.6 section 8.14.4 names no
format restriction and Mesa mipmaps depth images (refusing integer, depth-stencil and
stencil ones); shimgl refused them with INVALID_OPERATION (piglit
fbo-generatemipmap-formats with depth formats). Each level is the mean of 2 x 2 depth
values of the level above, by hand from an 8-texel gradient; GLES 3 keeps refusing them."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

T2 = E.GL_TEXTURE_2D


def _level(ctx, level, w, h):
    raw = ctx.glGetTexImage(T2, level, E.GL_DEPTH_COMPONENT, E.GL_FLOAT)
    return np.frombuffer(bytes(raw), np.float32).reshape(h, w)


@pytest.mark.parametrize("internal", [E.GL_DEPTH_COMPONENT16, E.GL_DEPTH_COMPONENT24, E.GL_DEPTH_COMPONENT32F])
def test_depth_levels_are_means_of_the_level_above(internal):
    with driver.Context(api="compat", width=4, height=4) as ctx:
        grad = np.tile(np.arange(8, dtype=np.float32) / 7, (4, 1))        # 8 x 4, x / 7
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(T2, tex)
        ctx.glTexImage2D(T2, 0, internal, 8, 4, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, grad.tobytes())
        ctx.glGenerateMipmap(T2)
        expect(ctx, E.GL_NO_ERROR)
        tol = 2.0 / 65535 if internal == E.GL_DEPTH_COMPONENT16 else 1e-6
        want = grad.astype(np.float64)
        for level, (w, h) in enumerate(((4, 2), (2, 1), (1, 1)), start=1):
            rows = np.minimum(np.arange(2 * h), want.shape[0] - 1)     # a side of 1 repeats its edge
            want = want[rows].reshape(h, 2, w, 2).mean((1, 3))
            np.testing.assert_allclose(_level(ctx, level, w, h), want, atol=tol, err_msg=f"level {level}")


def test_depth_stencil_and_gles_still_refuse():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        ctx.glBindTexture(T2, ctx.glGenTextures(1)[0])
        ctx.glTexImage2D(T2, 0, E.GL_DEPTH24_STENCIL8, 4, 4, 0, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, None)
        ctx.glGenerateMipmap(T2)
        expect(ctx, E.GL_INVALID_OPERATION)
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        ctx.glBindTexture(T2, ctx.glGenTextures(1)[0])
        ctx.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT16, 4, 4, 0, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_SHORT, None)
        ctx.glGenerateMipmap(T2)
        expect(ctx, E.GL_INVALID_OPERATION)
