"""Attribute interpolation goes through the vertices' true window positions, not
the 1/256-px positions the rasteriser snaps them to for coverage (GL 4.6 eq.
14.9's barycentrics of the window coordinates; Mesa's llvmpipe sets its planes up
the same way). A small triangle with off-grid corners and steep attributes shows
the difference: snapping moves a corner by up to 1/512 px, which shifts an
attribute by up to (gradient / 512), here ~0.01, where the exact value is within
float32 rounding. glmark2's refract scene (tens of thousands of sub-pixel bunny
triangles, its varyings feeding dependent texture lookups) differed from
llvmpipe through this in 18% of its interpolated normals' low bits."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

W = H = 8
VS = """#version 300 es
in vec2 pos; in vec3 value; out vec3 v;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v = value; }"""
FS = """#version 300 es
precision highp float;
in vec3 v; out vec4 o;
void main() { o = vec4(v, 1.0); }"""


def _window_to_ndc(xy_px):
    return np.asarray(xy_px, np.float64) / [W, H] * 2 - 1


def _interpolate(corners_px, values, xs, ys):
    """Exact (float64) barycentric interpolation at window points."""
    (x0, y0), (x1, y1), (x2, y2) = corners_px
    d = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
    a = ((y1 - y2) * (xs - x2) + (x2 - x1) * (ys - y2)) / d
    b = ((y2 - y0) * (xs - x2) + (x0 - x2) * (ys - y2)) / d
    return np.stack([a, b, 1 - a - b], -1) @ np.asarray(values, np.float64)


def test_attributes_follow_the_unsnapped_vertex_positions():
    ctx = glhelp.context(W, H, api="gles3")
    glhelp.renderbuffer_target(ctx, E.GL_RGBA32F, W, H)
    prog = glhelp.program(ctx, VS, FS)
    # corners 1/3 and 2/3 of a snapping step off the 1/256 px grid (exact in
    # float32 through the viewport transform: W = 8 is a power of two)
    corners_px = np.array([[1.0 + 1 / 768, 1.0 + 2 / 768], [6.0 - 1 / 768, 2.0 + 1 / 768],
                           [2.0 + 2 / 768, 6.0 - 2 / 768]])
    values = np.array([[0.0, 40.0, -20.0], [30.0, -10.0, 25.0], [-15.0, 5.0, 50.0]])
    data = np.concatenate([_window_to_ndc(corners_px), values], axis=1)
    glhelp.vertices(ctx, prog, data, {"pos": (2, 0), "value": (3, 2)}, 5)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(H, W, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    covered = got[..., 3] == 1.0
    assert covered.sum() >= 8
    ys, xs = np.nonzero(covered)
    cx, cy = xs + 0.5, ys + 0.5
    exact = _interpolate(corners_px, values, cx, cy)
    snapped = _interpolate(np.round(corners_px * 256) / 256, values, cx, cy)
    assert np.abs(snapped - exact).max() > 0.005         # the case tells the two apart
    np.testing.assert_allclose(got[ys, xs, :3], exact, atol=2e-4)
