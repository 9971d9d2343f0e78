"""Selection and feedback with a GLSL program current (GL 2.1 sections 5.2-5.3:
the vertices selected or fed back are the ones vertex processing produced): the
program's own vertex stage runs, not ftransform(). The shader here halves x and y,
puts every vertex at clip z 0.5 and writes a constant colour and texture
coordinate, so a point at object x = 1.5 (outside the view volume under the
identity matrices) lands at clip x = 0.75, and window values are by hand:
viewport 32 x 32, depth range [0, 1]: x = (0.75 + 1) * 16 = 28, y = 16,
z = (0.5 + 1) / 2 = 0.75."""

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp

N = 32
U32 = 0xFFFFFFFF
VS = """#version 120
void main() {
    gl_Position = vec4(gl_Vertex.xy * 0.5, 0.5, 1.0);
    gl_FrontColor = vec4(0.25, 0.5, 0.75, 1.0);
    gl_TexCoord[0] = vec4(1.0, 2.0, 3.0, 4.0);
}
"""
VS_POSITION_ONLY = "#version 120\nvoid main() { gl_Position = vec4(gl_Vertex.xy * 0.5, 0.5, 1.0); }\n"
FS = "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n"


def _context(vs=VS):
    ctx = driver.Context(api="compat", width=N, height=N)
    glhelp.program(ctx, vs, FS)
    return ctx


def test_select_runs_the_vertex_shader():
    """The point at x = 1.5 is a hit at window z 0.75 (ftransform would put it
    outside the view volume: no hit); the point at x = 3 (clip x 1.5) is not."""
    ctx = _context()
    buf = np.zeros(16, np.uint32)
    ctx.glSelectBuffer(16, buf)
    ctx.glRenderMode(E.GL_SELECT)
    ctx.glInitNames()
    ctx.glPushName(7)
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex3f(1.5, 0.0, -9.0)
    ctx.glEnd()
    ctx.glLoadName(8)
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex3f(3.0, 0.0, 0.0)
    ctx.glEnd()
    assert ctx.glRenderMode(E.GL_RENDER) == 1
    z = int(round(0.75 * U32))
    assert buf[:4].tolist() == [1, z, z, 7]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_feedback_of_the_vertex_shader_outputs():
    """GL_3D_COLOR_TEXTURE: the point token, window (28, 16, 0.75), the shader's
    gl_FrontColor and gl_TexCoord[0]; a triangle from arrays gives its three."""
    ctx = _context()
    buf = np.zeros(64, np.float32)
    ctx.glFeedbackBuffer(64, E.GL_3D_COLOR_TEXTURE, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex2f(1.5, 0.0)
    ctx.glEnd()
    n = ctx.glRenderMode(E.GL_RENDER)
    assert n == 12
    assert buf[0] == E.GL_POINT_TOKEN
    np.testing.assert_allclose(buf[1:12], [28, 16, 0.75, 0.25, 0.5, 0.75, 1, 1, 2, 3, 4], atol=1e-5)
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_feedback_of_a_shader_writing_only_the_position():
    """A shader that writes no colour feeds back colour (0, 0, 0, 0) and texture
    coordinate (0, 0, 0, 1) (undefined outputs, given fixed values); the window
    position is the shader's: x = (-0.5 + 1) * 16 = 8 for object x = -1."""
    ctx = _context(VS_POSITION_ONLY)
    buf = np.zeros(16, np.float32)
    ctx.glFeedbackBuffer(16, E.GL_3D_COLOR, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex2f(-1.0, 1.0)
    ctx.glEnd()
    assert ctx.glRenderMode(E.GL_RENDER) == 8
    np.testing.assert_allclose(buf[:8], [E.GL_POINT_TOKEN, 8, 24, 0.75, 0, 0, 0, 0], atol=1e-5)


def test_rendering_after_selection_is_unchanged():
    """The capture leaves no state behind: the program, rasterisation (no
    discard) and the next rendered draw are the application's."""
    ctx = _context()
    buf = np.zeros(16, np.uint32)
    ctx.glSelectBuffer(16, buf)
    ctx.glRenderMode(E.GL_SELECT)
    ctx.glBegin(E.GL_TRIANGLES)
    for x, y in ((-2, -2), (2, -2), (0, 2)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    ctx.glRenderMode(E.GL_RENDER)
    assert not ctx.glIsEnabled(E.GL_RASTERIZER_DISCARD)
    ctx.glBegin(E.GL_TRIANGLES)
    for x, y in ((-2, -2), (2, -2), (0, 2)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    px = ctx.read_pixels()
    assert tuple(px[N // 2, N // 2][:3]) == (64, 128, 191)
    assert ctx.glGetError() == E.GL_NO_ERROR
