"""gl_FragCoord.z and .w under a perspective projection, through the whole stack.

GL 4.6 section 14.6 / GLSL 4.60 section 7.1.2: gl_FragCoord.z is the fragment's window
depth, and .w is 1/w_clip, both linear in window space (they are the plane of the
vertices' z_window and 1/w_clip, with no perspective correction). The expectation
is computed here with numpy from the vertices alone. Shadow maps (VTK's
vtkShadowMapBakerPass) and depth linearisation read them; with w_clip = 1 every
wrong interpolation looks right, so the triangle's corners have w = 1, 2 and 4."""

import numpy as np
import pytest

from tests.driver.agx.glhelp import barycentric, context, interior, pixel_centres, program, vertices

W, H = 48, 40

VS = """#version 150
in vec4 pos;
void main(){ gl_Position = pos; }"""
FS = """#version 150
out vec4 o;
void main(){ o = vec4(gl_FragCoord.z, gl_FragCoord.w, 1.0 / gl_FragCoord.w, gl_FragCoord.x); }"""


def _render(ctx, prog, clip: np.ndarray) -> np.ndarray:
    vertices(ctx, prog, clip, {"pos": (4, 0)}, 4)
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(ctx.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(ctx.GL_RENDERBUFFER, ctx.GL_RGBA32F, W, H)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferRenderbuffer(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_RENDERBUFFER, rb)
    ctx.glViewport(0, 0, W, H)
    ctx.glClearColor(-1.0, -1.0, -1.0, -1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == 0
    raw = ctx.glReadPixels(0, 0, W, H, ctx.GL_RGBA, ctx.GL_FLOAT)
    return np.frombuffer(raw, np.float32).reshape(H, W, 4)


@pytest.mark.parametrize("api", ["gl45", "compat"])
def test_frag_coord_z_and_w_are_window_linear_under_perspective(api):
    ctx = context(W, H, api)
    prog = program(ctx, VS, FS)
    ndc = np.array([(-0.9, -0.8, -0.5), (0.85, -0.6, 0.25), (0.1, 0.9, 0.75)])
    w_clip = np.array([1.0, 2.0, 4.0])
    clip = np.hstack([ndc * w_clip[:, None], w_clip[:, None]])
    img = _render(ctx, prog, clip)

    X, Y = pixel_centres(W, H)
    bary = barycentric(ndc[:, :2], X, Y)                      # window-space weights
    inside = interior(bary)
    assert inside.sum() > 300
    z_window = ndc[:, 2] * 0.5 + 0.5                          # depth range [0, 1]
    expect_z = np.einsum("kyx,k->yx", bary, z_window)
    expect_w = np.einsum("kyx,k->yx", bary, 1.0 / w_clip)
    assert np.abs(img[..., 0][inside] - expect_z[inside]).max() < 1e-4
    assert np.abs(img[..., 1][inside] - expect_w[inside]).max() < 1e-4
    assert np.abs(img[..., 2][inside] - 1.0 / expect_w[inside]).max() < 1e-3 * 4
    # the interpolation really varies: w spans most of [1/4, 1] over the triangle
    assert img[..., 1][inside].max() - img[..., 1][inside].min() > 0.5
