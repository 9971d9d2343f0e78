"""glClampColor's three clamps (GL_ARB_color_buffer_float, core in GL 3.0), found
missing by piglit's arb_color_buffer_float (16 of 41 with the name forced; 41 now).
Modes TRUE, FALSE, FIXED_ONLY; FIXED_ONLY clamps when every colour buffer of the
framebuffer is fixed-point (unsigned or signed normalized). Initial: vertex TRUE,
fragment and read FIXED_ONLY. Values by hand (GL 4.6 compatibility sections on
flatshading/colour clamping, 17.3 fragment colour clamping, 18.2.8 ReadPixels;
ARB_color_buffer_float's query clamps)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

VERTEX, FRAGMENT, READ = E.GL_CLAMP_VERTEX_COLOR, E.GL_CLAMP_FRAGMENT_COLOR, E.GL_CLAMP_READ_COLOR
T2 = E.GL_TEXTURE_2D


def _fbo(g, internal, w=4, h=4):
    t = g.glGenTextures(1)[0]
    g.glBindTexture(T2, t)
    g.glTexImage2D(T2, 0, internal, w, h, 0, E.GL_RGBA, E.GL_FLOAT, None)
    fb = g.glGenFramebuffers(1)[0]
    g.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    g.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
    assert g.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    g.glViewport(0, 0, w, h)
    return fb


def _pixel(g, x, y):
    return np.frombuffer(g.glReadPixels(x, y, 1, 1, E.GL_RGBA, E.GL_FLOAT), np.float32)


def _draw(g, left, right):
    g.glBegin(E.GL_QUADS)
    for x, y, c in ((-1, -1, left), (1, -1, right), (1, 1, right), (-1, 1, left)):
        g.glColor4f(*c)
        g.glVertex2f(x, y)
    g.glEnd()


def test_the_vertex_clamp_is_applied_before_interpolation():
    """A quad R = 2 on the left and 0 on the right, into RGBA32F (4 pixels wide: the
    pixel centres at 1/8, 3/8, 5/8, 7/8 of the width). Clamped per vertex, R = 1 -> 0
    across (7/8, 5/8, 3/8, 1/8); clamped after interpolation instead, 2 * (7/8, 5/8, ...)
    would be cut at 1: (1, 1, 0.75, 0.25)."""
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        _fbo(g, E.GL_RGBA32F)
        g.glClampColor(READ, E.GL_FALSE)
        g.glClampColor(FRAGMENT, E.GL_FALSE)
        _draw(g, (2.0, -1.0, 0.5, 1.0), (0.0, -1.0, 0.5, 1.0))        # vertex clamp: initially TRUE
        r = [float(_pixel(g, x, 1)[0]) for x in range(4)]
        np.testing.assert_allclose(r, [7 / 8, 5 / 8, 3 / 8, 1 / 8], atol=1e-5)
        assert _pixel(g, 0, 1)[1] == 0.0                                # -1 clamped to 0
        g.glClampColor(VERTEX, E.GL_FALSE)
        _draw(g, (2.0, -1.0, 0.5, 1.0), (0.0, -1.0, 0.5, 1.0))
        r = [float(_pixel(g, x, 1)[0]) for x in range(4)]
        np.testing.assert_allclose(r, [14 / 8, 10 / 8, 6 / 8, 2 / 8], atol=1e-5)
        assert _pixel(g, 0, 1)[1] == -1.0
        g.glClampColor(FRAGMENT, E.GL_TRUE)                             # after interpolation
        _draw(g, (2.0, -1.0, 0.5, 1.0), (0.0, -1.0, 0.5, 1.0))
        r = [float(_pixel(g, x, 1)[0]) for x in range(4)]
        np.testing.assert_allclose(r, [1.0, 1.0, 6 / 8, 2 / 8], atol=1e-5)
        assert g.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("internal,fixed", [(E.GL_RGBA8_SNORM, True), (E.GL_RGBA16F, False)])
def test_fixed_only_clamps_fragments_for_fixed_point_buffers(internal, fixed):
    """The initial fragment clamp, FIXED_ONLY: a signed normalized buffer gets [0, 1]
    (its -0.5 becomes 0); a floating-point one keeps -0.5 and 1.5."""
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        _fbo(g, internal)
        g.glClampColor(VERTEX, E.GL_FALSE)
        g.glClampColor(READ, E.GL_FALSE)
        colour = (-0.5, 0.5, 1.5 if not fixed else 0.25, 1.0)
        _draw(g, colour, colour)
        got = _pixel(g, 1, 1)
        want = (0.0, 0.5, 0.25, 1.0) if fixed else colour
        np.testing.assert_allclose(got, want, atol=1 / 127)
        g.glClampColor(FRAGMENT, E.GL_FALSE)
        _draw(g, colour, colour)
        np.testing.assert_allclose(_pixel(g, 1, 1), colour, atol=1 / 127)


def test_read_clamp_of_a_signed_normalized_buffer():
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        _fbo(g, E.GL_RGBA8_SNORM)
        g.glClearColor(-0.5, 0.5, -1.0, 1.0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        for mode, want in ((E.GL_FIXED_ONLY, (0, 0.5, 0, 1)), (E.GL_TRUE, (0, 0.5, 0, 1)),
                           (E.GL_FALSE, (-0.5, 0.5, -1, 1))):
            g.glClampColor(READ, mode)
            np.testing.assert_allclose(_pixel(g, 0, 0), want, atol=1 / 127)
        assert g.glGetIntegerv(READ) == [E.GL_FALSE]


def _queries(g):
    return {"clear": g.glGetFloatv(E.GL_COLOR_CLEAR_VALUE), "blend": g.glGetFloatv(E.GL_BLEND_COLOR),
            "fog": g.glGetFloatv(E.GL_FOG_COLOR), "alpha ref": g.glGetFloatv(E.GL_ALPHA_TEST_REF),
            "texenv": g.glGetTexEnvfv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR),
            "border": g.glGetTexParameterfv(T2, E.GL_TEXTURE_BORDER_COLOR)}


def test_colour_state_is_kept_and_its_queries_clamp_when_fragments_clamp():
    value = [7.0, -2.75, -0.25, 0.75]
    clamped = [1.0, 0.0, 0.0, 0.75]
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        g.glBindTexture(T2, g.glGenTextures(1)[0])
        g.glClearColor(*value)
        g.glBlendColor(*value)
        g.glFogfv(E.GL_FOG_COLOR, value)
        g.glAlphaFunc(E.GL_GREATER, value[0])
        g.glTexEnvfv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR, value)
        g.glTexParameterfv(T2, E.GL_TEXTURE_BORDER_COLOR, value)
        assert g.glGetIntegerv(FRAGMENT) == [E.GL_FIXED_ONLY] and g.glGetIntegerv(VERTEX) == [E.GL_TRUE]
        # FIXED_ONLY with the (RGBA8) window framebuffer: clamped
        for name, got in _queries(g).items():
            assert list(got) == (clamped[:1] if name == "alpha ref" else clamped), name
        g.glClampColor(FRAGMENT, E.GL_FALSE)
        assert g.glGetIntegerv(FRAGMENT) == [E.GL_FALSE]
        for name, got in _queries(g).items():
            assert list(got) == (value[:1] if name == "alpha ref" else value), name
        g.glClampColor(FRAGMENT, E.GL_FIXED_ONLY)
        _fbo(g, E.GL_RGBA32F)                   # a floating-point framebuffer: FIXED_ONLY keeps them
        g.glBindTexture(T2, 0)
        assert list(_queries(g)["clear"]) == value
        g.glClampColor(FRAGMENT, E.GL_TRUE)
        assert list(_queries(g)["blend"]) == clamped
        assert g.glGetError() == E.GL_NO_ERROR


def test_draw_pixels_into_a_float_buffer_keeps_values_unless_fragments_clamp():
    pixels = np.array([7.0, -2.75, -0.25, 0.75], np.float32)
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        _fbo(g, E.GL_RGBA32F)
        g.glClampColor(READ, E.GL_FALSE)
        g.glWindowPos2i(0, 0)
        g.glDrawPixels(1, 1, E.GL_RGBA, E.GL_FLOAT, pixels.tobytes())
        np.testing.assert_array_equal(_pixel(g, 0, 0), pixels)
        g.glClampColor(FRAGMENT, E.GL_TRUE)
        g.glDrawPixels(1, 1, E.GL_RGBA, E.GL_FLOAT, pixels.tobytes())
        np.testing.assert_array_equal(_pixel(g, 0, 0), [1.0, 0.0, 0.0, 0.75])


def test_only_the_read_clamp_in_the_core_profile():
    with driver.Context("gl33", 4, 4) as c:
        g = c.gl
        g.glClampColor(FRAGMENT, E.GL_TRUE)
        assert g.glGetError() == E.GL_INVALID_ENUM
        g.glClampColor(READ, E.GL_TRUE)
        assert g.glGetError() == E.GL_NO_ERROR and g.glGetIntegerv(READ) == [E.GL_TRUE]
        g.glClearColor(7.0, -2.0, 0.5, 1.0)                  # no fragment clamp in core: kept
        assert g.glGetFloatv(E.GL_COLOR_CLEAR_VALUE) == [7.0, -2.0, 0.5, 1.0]
