"""The GL 1.3/1.4 texture-environment features under their extension names
(compatibility profile): ARB/EXT_texture_env_combine, ARB/EXT_texture_env_add,
ARB_texture_env_dot3 and ARB_texture_env_crossbar (another unit's texture as a
combiner source). Each draw's colour is computed by hand from the texels, the
vertex colour and the environment constant (unorm8, +-1)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

NAMES = ("GL_ARB_texture_env_combine", "GL_EXT_texture_env_combine", "GL_ARB_texture_env_add",
         "GL_EXT_texture_env_add", "GL_ARB_texture_env_dot3", "GL_ARB_texture_env_crossbar")
T0 = (0.8, 0.4, 0.2, 1.0)          # unit 0's texel
T1 = (0.5, 0.25, 1.0, 0.5)         # unit 1's texel
PRIMARY = (0.5, 1.0, 0.25, 1.0)
CONSTANT = (0.25, 0.5, 0.75, 1.0)


def _setup(ctx):
    for unit, texel in ((0, T0), (1, T1)):
        ctx.glActiveTexture(E.GL_TEXTURE0 + unit)
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                         np.round(np.array(texel) * 255).astype(np.uint8))
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        ctx.glEnable(E.GL_TEXTURE_2D)
        ctx.glTexEnvfv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR, CONSTANT)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)     # previous = T0
    ctx.glActiveTexture(E.GL_TEXTURE1)


def _draw(ctx):
    ctx.glColor4f(*PRIMARY)
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glMultiTexCoord2f(E.GL_TEXTURE0, 0.5, 0.5)
        ctx.glMultiTexCoord2f(E.GL_TEXTURE1, 0.5, 0.5)
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).astype(int)


def _unorm(v):
    return np.round(np.clip(np.array(v, float), 0, 1) * 255).astype(int)


def test_names_are_listed():
    ctx = glhelp.context(1, 1, api="compat")
    names = ctx.glGetString(E.GL_EXTENSIONS).split()
    for n in NAMES:
        assert n in names, n


def test_add_mode():
    ctx = glhelp.context(4, 4, api="compat")
    _setup(ctx)
    ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_ADD)
    # ADD: rgb = previous + texture, alpha = previous * texture
    want = _unorm([T0[0] + T1[0], T0[1] + T1[1], T0[2] + T1[2], T0[3] * T1[3]])
    assert np.abs(_draw(ctx) - want).max() <= 1


@pytest.mark.parametrize("case", ["crossbar_interpolate", "dot3", "subtract_scaled"])
def test_combine(case):
    ctx = glhelp.context(4, 4, api="compat")
    _setup(ctx)
    env = lambda p, v: ctx.glTexEnvi(E.GL_TEXTURE_ENV, p, v)  # noqa: E731
    env(E.GL_TEXTURE_ENV_MODE, E.GL_COMBINE)
    t0, t1, p, k = map(np.array, (T0, T1, PRIMARY, CONSTANT))
    if case == "crossbar_interpolate":
        # rgb = TEXTURE0 * CONSTANT.a... : INTERPOLATE(TEXTURE0, PRIMARY, 1 - TEXTURE1.alpha)
        env(E.GL_COMBINE_RGB, E.GL_INTERPOLATE)
        env(E.GL_SRC0_RGB, E.GL_TEXTURE0)
        env(E.GL_SRC1_RGB, E.GL_PRIMARY_COLOR)
        env(E.GL_SRC2_RGB, E.GL_TEXTURE)
        env(E.GL_OPERAND2_RGB, E.GL_ONE_MINUS_SRC_ALPHA)
        env(E.GL_COMBINE_ALPHA, E.GL_REPLACE)
        env(E.GL_SRC0_ALPHA, E.GL_CONSTANT)
        a2 = 1 - t1[3]
        rgb = t0[:3] * a2 + p[:3] * (1 - a2)
        want = _unorm([*rgb, k[3]])
    elif case == "dot3":
        env(E.GL_COMBINE_RGB, E.GL_DOT3_RGB)
        env(E.GL_SRC0_RGB, E.GL_TEXTURE)
        env(E.GL_SRC1_RGB, E.GL_CONSTANT)
        env(E.GL_COMBINE_ALPHA, E.GL_REPLACE)
        env(E.GL_SRC0_ALPHA, E.GL_PRIMARY_COLOR)
        d = 4 * np.sum((t1[:3] - 0.5) * (k[:3] - 0.5))
        want = _unorm([d, d, d, p[3]])
    else:
        env(E.GL_COMBINE_RGB, E.GL_SUBTRACT)
        env(E.GL_SRC0_RGB, E.GL_PRIMARY_COLOR)
        env(E.GL_SRC1_RGB, E.GL_PREVIOUS)
        ctx.glTexEnvf(E.GL_TEXTURE_ENV, E.GL_RGB_SCALE, 2.0)
        env(E.GL_COMBINE_ALPHA, E.GL_MODULATE)
        env(E.GL_SRC0_ALPHA, E.GL_TEXTURE)
        env(E.GL_SRC1_ALPHA, E.GL_CONSTANT)
        want = _unorm([*(np.clip(p[:3] - t0[:3], 0, 1) * 2), t1[3] * k[3]])
    assert np.abs(_draw(ctx) - want).max() <= 1
