"""Texture image reads found wrong by piglit's getteximage-formats and
arb_direct_state_access/gettextureimage-formats: glGetTexImage (and
glGetTextureImage) of an INTENSITY image gives (I, 0, 0, 1) - a one-component
image reads back into red with alpha 1 (GL 4.6 compatibility section 8.11.4,
as luminance; Mesa's llvmpipe gives the same). shimgl repeated I in alpha, so
a program blending the image it read back squared the intensity."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl import formats

T2 = E.GL_TEXTURE_2D


@pytest.mark.parametrize("internal", [E.GL_INTENSITY8, E.GL_INTENSITY16, formats.GL_INTENSITY16F_ARB,
                                      formats.GL_INTENSITY32F_ARB, formats.GL_INTENSITY16_SNORM])
def test_an_intensity_image_reads_back_with_alpha_one(internal):
    texels = np.array([[0, 51, 204, 255]], np.uint8)          # I = 0, 0.2, 0.8, 1 (as R of RGBA)
    rgba = np.zeros((1, 4, 4), np.uint8)
    rgba[..., 0] = texels
    rgba[..., 3] = 7                                          # an intensity image keeps no alpha of its own
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        t = g.glGenTextures(1)[0]
        g.glBindTexture(T2, t)
        g.glTexImage2D(T2, 0, internal, 4, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, rgba.tobytes())
        got = np.frombuffer(g.glGetTexImage(T2, 0, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4)
        assert g.glGetError() == E.GL_NO_ERROR
    want = np.array([[v / 255, 0, 0, 1] for v in (0, 51, 204, 255)], np.float32)
    np.testing.assert_allclose(got, want, atol=1 / 255 if internal == formats.GL_INTENSITY16_SNORM else 1e-3)


def test_dsa_get_texture_image_reads_an_intensity_like_get_tex_image():
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        t = g.glCreateTextures(T2, 1)[0]
        g.glBindTexture(T2, t)
        g.glTexImage2D(T2, 0, E.GL_INTENSITY16, 2, 1, 0, E.GL_RED, E.GL_FLOAT,
                       np.array([0.25, 0.5], np.float32).tobytes())
        g.glBindTexture(T2, 0)
        got = np.frombuffer(g.glGetTextureImage(t, 0, E.GL_RGBA, E.GL_FLOAT, 32), np.float32).reshape(2, 4)
        assert g.glGetError() == E.GL_NO_ERROR
    np.testing.assert_allclose(got, [[0.25, 0, 0, 1], [0.5, 0, 0, 1]], atol=1 / 65535)
