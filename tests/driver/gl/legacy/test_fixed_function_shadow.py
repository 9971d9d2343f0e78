"""Fixed-function texturing of a depth texture with TEXTURE_COMPARE_MODE =
COMPARE_REF_TO_TEXTURE (GL 2.1 / 3.2 compatibility section 3.8.15-16): the unit's
texel is the comparison's result, expanded by DEPTH_TEXTURE_MODE, with the
reference r/q of the (projective) texture coordinate. MuJoCo's shadows work this
way (texgen EYE_LINEAR of S, T, R, Q, an INTENSITY compare, alpha test); the
fixed-function program sampled the raw depth instead. Expected values by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

N = 8


def _depth_texture(ctx, func=E.GL_LEQUAL, mode=E.GL_INTENSITY, compare=True):
    """A 2x1 depth texture: 0.25 on the left, 0.75 on the right, nearest filtering."""
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT24, 2, 1, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT,
                     np.array([0.25, 0.75], np.float32).tobytes())
    for pname, value in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                         (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE),
                         (E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE if compare else E.GL_NONE),
                         (E.GL_TEXTURE_COMPARE_FUNC, func), (E.GL_DEPTH_TEXTURE_MODE, mode)):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, pname, value)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)


def _quad(ctx, ref, q=2.0):
    """A window-filling quad whose texture coordinate is (s, t, ref, 1) * q: the
    projective division gives s across [0, 1] and the reference `ref`."""
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        s, t = (x + 1) / 2, (y + 1) / 2
        ctx.glTexCoord4f(s * q, t * q, ref * q, q)
        ctx.glVertex2f(x, y)
    ctx.glEnd()


@pytest.mark.parametrize("mode, lit, unlit", [
    (E.GL_INTENSITY, (255, 255, 255, 255), (0, 0, 0, 0)),
    (E.GL_LUMINANCE, (255, 255, 255, 255), (0, 0, 0, 255)),
    (E.GL_ALPHA, (255, 255, 255, 255), (255, 255, 255, 0))])     # REPLACE of an alpha texture: RGB is the fragment's
def test_compare_result_expanded_by_depth_texture_mode(mode, lit, unlit):
    ctx = driver.Context(api="compat", width=N, height=N)
    _depth_texture(ctx, E.GL_LEQUAL, mode)
    _quad(ctx, ref=0.5)                  # 0.5 <= 0.25 fails on the left, 0.5 <= 0.75 passes on the right
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = ctx.read_pixels()
    assert (px[:, : N // 2] == unlit).all(), px[0, 0]
    assert (px[:, N // 2:] == lit).all(), px[0, -1]


def test_reference_is_r_over_q_and_func_applies():
    ctx = driver.Context(api="compat", width=N, height=N)
    _depth_texture(ctx, E.GL_GEQUAL, E.GL_LUMINANCE)
    _quad(ctx, ref=0.5, q=4.0)           # 0.5 >= 0.25 passes on the left, fails on the right
    px = ctx.read_pixels()
    assert (px[:, : N // 2, 0] == 255).all() and (px[:, N // 2:, 0] == 0).all(), px[0]


def test_without_compare_the_depth_is_sampled():
    ctx = driver.Context(api="compat", width=N, height=N)
    _depth_texture(ctx, E.GL_LEQUAL, E.GL_LUMINANCE, compare=False)
    _quad(ctx, ref=0.5)
    px = ctx.read_pixels()
    assert np.abs(px[:, : N // 2, 0].astype(int) - 64).max() <= 1, px[0]     # 0.25 * 255
    assert np.abs(px[:, N // 2:, 0].astype(int) - 191).max() <= 1, px[0]


def test_alpha_test_on_the_compare_as_mujoco_draws_shadows():
    """The lit pass of MuJoCo's shadows: MODULATE with an INTENSITY compare, alpha
    test GEQUAL 0.99, additive blending: only unshadowed fragments add light."""
    ctx = driver.Context(api="compat", width=N, height=N)
    ctx.glClearColor(0.0, 0.0, 0.25, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    _depth_texture(ctx, E.GL_LEQUAL, E.GL_INTENSITY)
    ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_MODULATE)
    ctx.glEnable(E.GL_ALPHA_TEST)
    ctx.glAlphaFunc(E.GL_GEQUAL, 0.99)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)
    ctx.glColor4f(0.5, 0.5, 0.0, 1.0)
    _quad(ctx, ref=0.5)
    px = ctx.read_pixels()
    assert (px[:, : N // 2] == (0, 0, 64, 255)).all(), px[0, 0]       # shadowed: discarded
    assert (np.abs(px[:, N // 2:].astype(int) - (128, 128, 64, 255)) <= 1).all(), px[0, -1]
