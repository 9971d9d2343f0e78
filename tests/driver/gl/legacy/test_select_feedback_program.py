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


# -- user clip planes (GL 4.6 compatibility section 13.7) ---------------------------------------
# glClipPlane(0, (1, 0, 0, 0)) under the identity modelview: the plane keeps x >= 0 of the vertex
# clipping uses: gl_ClipDistance[0] when the shader writes it, else gl_ClipVertex, else gl_Position.

VS_CLIP_VERTEX = """#version 120
void main() {
    gl_Position = vec4(gl_Vertex.xy * 0.5, 0.5, 1.0);
    gl_ClipVertex = vec4(gl_Vertex.x - 0.5, gl_Vertex.yzw);
}
"""
VS_CLIP_DISTANCE = """#version 130
void main() {
    gl_Position = vec4(gl_Vertex.xy * 0.5, 0.5, 1.0);
    gl_ClipDistance[0] = gl_Vertex.y;
}
"""


def _fed_back(vs, draw, kind=E.GL_2D):
    ctx = _context(vs)
    ctx.glClipPlane(E.GL_CLIP_PLANE0, (1.0, 0.0, 0.0, 0.0))
    ctx.glEnable(E.GL_CLIP_PLANE0)
    buf = np.zeros(32, np.float32)
    ctx.glFeedbackBuffer(32, kind, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    draw(ctx)
    n = ctx.glRenderMode(E.GL_RENDER)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return buf[:n].tolist()


def _points(*xy):
    def draw(ctx):
        ctx.glBegin(E.GL_POINTS)
        for x, y in xy:
            ctx.glVertex2f(x, y)
        ctx.glEnd()
    return draw


def test_user_clip_plane_clips_by_gl_clipvertex():
    """gl_ClipVertex x = object x - 0.5: object x 1.5 is kept (window x 28), 0.25 is
    clipped; a line from object x -1 to 1 is cut where the clip vertex crosses 0
    (object x 0.5: window x (0.25 + 1) * 16 = 20) and runs on to window x 24."""
    assert _fed_back(VS_CLIP_VERTEX, _points((1.5, 0.0), (0.25, 0.0))) == [E.GL_POINT_TOKEN, 28, 16]

    def line(ctx):
        ctx.glBegin(E.GL_LINES)
        ctx.glVertex2f(-1.0, 0.0)
        ctx.glVertex2f(1.0, 0.0)
        ctx.glEnd()
    assert _fed_back(VS_CLIP_VERTEX, line) == [E.GL_LINE_RESET_TOKEN, 20, 16, 24, 16]


def test_user_clip_plane_uses_the_shaders_clip_distance():
    """gl_ClipDistance[0] = object y replaces the plane: y 0.5 is kept (window
    (8, 20)), y -0.5 is clipped, whatever x is."""
    assert _fed_back(VS_CLIP_DISTANCE, _points((-1.0, 0.5), (1.0, -0.5))) == [E.GL_POINT_TOKEN, 8, 20]


def test_user_clip_plane_without_a_clip_vertex_uses_the_position():
    """No gl_ClipVertex nor gl_ClipDistance: the plane is dotted with gl_Position
    (the compiler's rule for draws): object x -1 (position x -0.5) is clipped,
    object x 1 (0.5, window x 24) is kept."""
    assert _fed_back(VS_POSITION_ONLY, _points((-1.0, 0.0), (1.0, 0.0))) == [E.GL_POINT_TOKEN, 24, 16]


def test_disabled_plane_clips_nothing():
    ctx = _context(VS_CLIP_VERTEX)
    ctx.glClipPlane(E.GL_CLIP_PLANE0, (1.0, 0.0, 0.0, 0.0))
    buf = np.zeros(16, np.float32)
    ctx.glFeedbackBuffer(16, E.GL_2D, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    _points((0.25, 0.0))(ctx)
    assert ctx.glRenderMode(E.GL_RENDER) == 3
    assert buf[:3].tolist() == [E.GL_POINT_TOKEN, 18, 16]          # (0.125 + 1) * 16


# -- programs with a geometry stage: its primitives are the ones selected and fed back ----------

VS_PASS = "#version 150 compatibility\nvoid main() { gl_Position = gl_Vertex; }\n"
GS_TRIANGLE = """#version 150 compatibility
layout(points) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    vec4 p = gl_in[0].gl_Position;
    gl_Position = p + vec4(-0.5, -0.5, 0.0, 0.0); EmitVertex();
    gl_Position = p + vec4(0.5, -0.5, 0.0, 0.0); EmitVertex();
    gl_Position = p + vec4(0.0, 0.5, 0.0, 0.0); EmitVertex();
}
"""
FS_150 = "#version 150 compatibility\nvoid main() { gl_FragColor = vec4(1.0); }\n"


def _geometry_context():
    ctx = driver.Context(api="compat", width=N, height=N)
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS_PASS, E.GL_GEOMETRY_SHADER: GS_TRIANGLE,
                      E.GL_FRAGMENT_SHADER: FS_150})
    return ctx


def test_feedback_of_a_geometry_stage_gives_its_triangles():
    """Each point becomes the geometry stage's triangle: for the point at (0, 0),
    clip (-0.5, -0.5), (0.5, -0.5), (0, 0.5) -> window (8, 8), (24, 8), (16, 24); for
    (0.25, 0.25) each is 4 to the right and up. Not a point token in sight."""
    ctx = _geometry_context()
    buf = np.zeros(32, np.float32)
    ctx.glFeedbackBuffer(32, E.GL_2D, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex2f(0.0, 0.0)
    ctx.glVertex2f(0.25, 0.25)
    ctx.glEnd()
    n = ctx.glRenderMode(E.GL_RENDER)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert buf[:n].tolist() == [E.GL_POLYGON_TOKEN, 3, 8, 8, 24, 8, 16, 24,
                                E.GL_POLYGON_TOKEN, 3, 12, 12, 28, 12, 20, 28]


def test_selection_of_a_geometry_stage_hits_what_it_emits():
    """A point at x = 1.2 is outside the view volume, but the geometry stage's
    triangle around it reaches back inside (x from 0.7): a hit; one at x = 3 is
    not. The window z is the point's: 0.5 (z 0)."""
    ctx = _geometry_context()
    buf = np.zeros(16, np.uint32)
    ctx.glSelectBuffer(16, buf)
    ctx.glRenderMode(E.GL_SELECT)
    ctx.glInitNames()
    ctx.glPushName(5)
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex2f(1.2, 0.0)
    ctx.glEnd()
    ctx.glLoadName(6)
    ctx.glBegin(E.GL_POINTS)
    ctx.glVertex2f(3.0, 0.0)
    ctx.glEnd()
    assert ctx.glRenderMode(E.GL_RENDER) == 1
    z = int(round(0.5 * U32))
    assert buf[:4].tolist() == [1, z, z, 5]
    assert ctx.glGetError() == E.GL_NO_ERROR


TES_TRIANGLE = """#version 400 compatibility
layout(triangles, equal_spacing, ccw) in;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
}
"""


def test_feedback_of_a_tessellation_stage_gives_its_triangles():
    """A patch of 3 vertices, every level 1: the evaluation stage emits the one
    triangle of the patch's corners: window (8, 8), (24, 8), (16, 24) in some order
    (one polygon token of 3 vertices)."""
    ctx = driver.Context(api="compat", width=N, height=N)
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS_PASS.replace("150", "400"),
                      E.GL_TESS_EVALUATION_SHADER: TES_TRIANGLE, E.GL_FRAGMENT_SHADER: FS_150})
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [1.0, 1.0, 1.0, 1.0])
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_INNER_LEVEL, [1.0, 1.0])
    buf = np.zeros(32, np.float32)
    ctx.glFeedbackBuffer(32, E.GL_2D, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    data = np.array([[-0.5, -0.5, 0, 1], [0.5, -0.5, 0, 1], [0.0, 0.5, 0, 1]], np.float32)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(4, E.GL_FLOAT, 0, data.tobytes())
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    n = ctx.glRenderMode(E.GL_RENDER)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert n == 8 and buf[:2].tolist() == [E.GL_POLYGON_TOKEN, 3]
    assert sorted(map(tuple, buf[2:8].reshape(3, 2).tolist())) == [(8, 8), (16, 24), (24, 8)]


# -- polygon modes: a face's side is the one the vertex stage's output has ----------------------
# The shader mirrors x, so the counter-clockwise triangle of the object coordinates is clockwise
# (a back face) in clip coordinates; ftransform() would keep it a front face.

VS_MIRROR = "#version 120\nvoid main() { gl_Position = vec4(-gl_Vertex.x * 0.5, gl_Vertex.y * 0.5, 0.5, 1.0); }\n"


def _mirrored_triangle(ctx):
    ctx.glBegin(E.GL_TRIANGLES)
    for x, y in ((-1, -1), (1, -1), (0, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()


def test_feedback_gives_a_mirrored_triangle_the_back_faces_polygon_mode():
    """Front faces as lines, back faces as points: the triangle is fed back as
    its three vertices, window x = (-x / 2 + 1) * 16: (24, 8), (8, 8), (16, 24)."""
    ctx = _context(VS_MIRROR)
    ctx.glPolygonMode(E.GL_FRONT, E.GL_LINE)
    ctx.glPolygonMode(E.GL_BACK, E.GL_POINT)
    buf = np.zeros(32, np.float32)
    ctx.glFeedbackBuffer(32, E.GL_2D, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    _mirrored_triangle(ctx)
    n = ctx.glRenderMode(E.GL_RENDER)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert n == 9
    np.testing.assert_allclose(buf[:9], [E.GL_POINT_TOKEN, 24, 8, E.GL_POINT_TOKEN, 8, 8,
                                         E.GL_POINT_TOKEN, 16, 24], atol=1e-4)


def test_selection_culls_a_mirrored_triangle_drawn_as_lines():
    """Back faces culled, both faces as lines: the mirrored triangle is a back
    face, so no hit; the same triangle unmirrored (the fixed-function transform,
    no program) is a hit."""
    for program in (True, False):
        ctx = _context(VS_MIRROR) if program else driver.Context(api="compat", width=N, height=N)
        ctx.glEnable(E.GL_CULL_FACE)
        ctx.glCullFace(E.GL_BACK)
        ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
        buf = np.zeros(16, np.uint32)
        ctx.glSelectBuffer(16, buf)
        ctx.glRenderMode(E.GL_SELECT)
        ctx.glInitNames()
        ctx.glPushName(3)
        _mirrored_triangle(ctx)
        assert ctx.glRenderMode(E.GL_RENDER) == (0 if program else 1)
        assert ctx.glGetError() == E.GL_NO_ERROR
