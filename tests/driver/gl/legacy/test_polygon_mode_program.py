"""Polygon modes and culling in a compatibility context with a GLSL program that
does not compute ftransform(): the side a polygon faces is the side of the
positions the program's stages produced (GL 2.1 section 3.5.1: the area of the
polygon in window coordinates), not of the fixed-function transform of the
vertex arrays.

The vertex shader mirrors x (clip x = -object x), so a triangle counter-clockwise
in object coordinates is clockwise in the window. Window 32 x 32, identity
matrices: NDC x maps to column (x + 1) * 16, y to row (y + 1) * 16.

- triangle A, object (0.1, -0.8) (0.9, -0.8) (0.9, 0.8), counter-clockwise:
  in the window (-0.1, -0.8) (-0.9, -0.8) (-0.9, 0.8), columns 1.6..14.4, clockwise,
  a back face;
- triangle B, object (-0.9, -0.8) (-0.9, 0.8) (-0.1, -0.8), clockwise: in the
  window (0.9, -0.8) (0.9, 0.8) (0.1, -0.8), columns 17.6..30.4, counter-clockwise,
  a front face.

Under the fixed-function transform A would be the front face and B the back
face, so every expectation below is the other way round there."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp

N = 32
VS = """#version 120
void main() {
    gl_Position = vec4(-gl_Vertex.x, gl_Vertex.y, 0.0, 1.0);
    gl_FrontColor = vec4(1.0);
    gl_BackColor = vec4(1.0);
}
"""
FS = "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n"
A = [(0.1, -0.8), (0.9, -0.8), (0.9, 0.8)]
B = [(-0.9, -0.8), (-0.9, 0.8), (-0.1, -0.8)]


def _draw(ctx, how: str, vertices) -> None:
    v = np.asarray(vertices, np.float32)
    if how == "begin":
        ctx.glBegin(E.GL_TRIANGLES)
        for p in v:
            ctx.glVertex2f(*p)
        ctx.glEnd()
        return
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, v)
    if how == "arrays":
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, len(v))
    else:
        ctx.glDrawElements(E.GL_TRIANGLES, len(v), E.GL_UNSIGNED_BYTE, np.arange(len(v), dtype=np.uint8))
    ctx.glDisableClientState(E.GL_VERTEX_ARRAY)


def _image(setup, how: str = "arrays") -> np.ndarray:
    ctx = driver.Context(api="compat", width=N, height=N)
    glhelp.program(ctx, VS, FS)
    setup(ctx)
    _draw(ctx, how, A + B)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return (ctx.read_pixels()[..., :3] > 0).any(-1)


def _interior(lit, cx, cy):
    """Whether the 3 x 3 pixels around NDC (cx, cy) are all lit / any lit."""
    c, r = int((cx + 1) * N / 2), int((cy + 1) * N / 2)
    block = lit[r - 1:r + 2, c - 1:c + 2]
    return block.all(), block.any()


@pytest.mark.parametrize("how", ["begin", "arrays", "elements"])
def test_front_line_back_fill_follow_the_programs_mirror(how):
    """FRONT LINE / BACK FILL: A (a back face in the window) is filled, B (a front
    face) is its three edges with an empty inside."""
    def setup(ctx):
        ctx.glPolygonMode(E.GL_FRONT, E.GL_LINE)
        ctx.glPolygonMode(E.GL_BACK, E.GL_FILL)

    lit = _image(setup, how)
    assert _interior(lit, -0.65, -0.3)[0]                  # A's inside (centroid -0.63, -0.27)
    assert not _interior(lit, 0.63, -0.27)[1]              # B's inside empty
    col_b = int(0.9 * 16 + 16)                             # B's vertical edge at x = 0.9: column 30
    assert lit[4:28, col_b].sum() >= 20
    row_b = int(-0.8 * 16 + 16)                            # both bottom edges at y = -0.8: row 3
    assert lit[row_b, 19:30].sum() >= 9


def test_culling_the_back_faces_keeps_the_mirrored_front():
    """Back faces culled, both modes LINE: only B's outline (A is the culled back
    face); its inside stays empty."""
    def setup(ctx):
        ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
        ctx.glEnable(E.GL_CULL_FACE)

    lit = _image(setup)
    assert not lit[:, :16].any()                           # A culled
    assert lit[4:28, 30].sum() >= 20 and not _interior(lit, 0.63, -0.27)[1]


def test_front_point_back_line_after_the_mirror():
    """FRONT POINT / BACK LINE: B's three corners only (columns 17 and 30), A
    outlined (its vertical edge at x = -0.9, column 1)."""
    def setup(ctx):
        ctx.glPolygonMode(E.GL_FRONT, E.GL_POINT)
        ctx.glPolygonMode(E.GL_BACK, E.GL_LINE)

    lit = _image(setup)
    right = np.argwhere(lit[:, 16:])
    assert 1 <= len(right) <= 3
    assert set((right[:, 1] + 16).tolist()) <= {17, 30}
    assert lit[4:28, 1].sum() >= 20 and not _interior(lit, -0.65, -0.3)[1]


XFB_VS = """#version 130
in vec2 pos;
out float id;
void main() { gl_Position = vec4(pos, 0.0, 1.0); id = float(gl_VertexID); }
"""


@pytest.mark.parametrize("mode,count,ids", [
    (E.GL_QUADS, 4, [0, 1, 2, 0, 2, 3]),                  # one quad: two triangles
    (E.GL_POLYGON, 5, [0, 1, 2, 0, 2, 3, 0, 3, 4]),       # a pentagon: a fan of three
])
def test_feedback_captures_triangles_while_outlines_are_drawn(mode, count, ids):
    """Transform feedback begun with GL_TRIANGLES and GL_LINE polygon mode: the
    capture holds the polygon's triangles (gl_VertexID in the pipe's order), each
    counted once by PRIMITIVES_GENERATED and TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
    while the framebuffer gets the outline only (no diagonal through the inside)."""
    ctx = driver.Context(api="compat", width=N, height=N)
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, XFB_VS),
                      (E.GL_FRAGMENT_SHADER, "#version 130\nvoid main() { gl_FragColor = vec4(1.0); }\n")):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glBindAttribLocation(p, 0, "pos")
    ctx.glTransformFeedbackVaryings(p, 1, ["id"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    angle = np.pi / 2 + 2 * np.pi * np.arange(count) / count
    v = np.stack([0.8 * np.cos(angle), 0.8 * np.sin(angle)], 1).astype(np.float32)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, v)
    ctx.glEnableVertexAttribArray(0)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 16 * 4, np.full(16, -7, np.float32), E.GL_STREAM_READ)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    generated, written = ctx.glGenQueries(2)
    ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
    ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, generated)
    ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, written)
    ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
    ctx.glDrawArrays(mode, 0, count)
    ctx.glEndTransformFeedback()
    ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
    ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 16 * 4)), np.float32)
    assert got[:len(ids)].tolist() == ids and (got[len(ids):] == -7).all()
    triangles = len(ids) // 3
    assert ctx.glGetQueryObjectuiv(generated, E.GL_QUERY_RESULT) in (triangles, [triangles])
    assert ctx.glGetQueryObjectuiv(written, E.GL_QUERY_RESULT) in (triangles, [triangles])
    lit = (ctx.read_pixels()[..., :3] > 0).any(-1)
    assert lit.sum() > 30 and not lit[14:18, 14:18].any()          # edges drawn, centre empty


# quads, drawn through the outlines the compatibility layer makes (a quad's outline has
# no diagonal): QA counter-clockwise in object coordinates on the right, mirrored to the
# left half of the window and clockwise there (a back face); QB clockwise on the left,
# mirrored to the right half, counter-clockwise (a front face)
QA = [(0.1, -0.8), (0.9, -0.8), (0.9, 0.8), (0.1, 0.8)]
QB = [(-0.9, -0.8), (-0.9, 0.8), (-0.1, 0.8), (-0.1, -0.8)]


@pytest.mark.parametrize("how", ["begin", "arrays"])
def test_quads_front_line_back_fill_follow_the_programs_mirror(how):
    """FRONT LINE / BACK FILL with quads: QA (a back face in the window) filled,
    QB (a front face) its four edges with an empty inside and no diagonal."""
    ctx = driver.Context(api="compat", width=N, height=N)
    glhelp.program(ctx, VS, FS)
    ctx.glPolygonMode(E.GL_FRONT, E.GL_LINE)
    ctx.glPolygonMode(E.GL_BACK, E.GL_FILL)
    v = np.asarray(QA + QB, np.float32)
    if how == "begin":
        ctx.glBegin(E.GL_QUADS)
        for p in v:
            ctx.glVertex2f(*p)
        ctx.glEnd()
    else:
        ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
        ctx.glVertexPointer(2, E.GL_FLOAT, 0, v)
        ctx.glDrawArrays(E.GL_QUADS, 0, 8)
    assert ctx.glGetError() == E.GL_NO_ERROR
    lit = (ctx.read_pixels()[..., :3] > 0).any(-1)
    assert lit[6:26, 3:13].all()                           # QA's inside (columns 1.6..14.4) filled
    assert not lit[6:26, 20:28].any()                      # QB's inside (columns 17.6..30.4) empty
    assert lit[4:28, 30].sum() >= 20 and lit[4:28, 17].sum() >= 20     # QB's vertical edges


def test_quads_culling_the_back_faces_keeps_the_mirrored_front():
    """Back faces culled, both modes LINE: only QB's outline on the right."""
    ctx = driver.Context(api="compat", width=N, height=N)
    glhelp.program(ctx, VS, FS)
    ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
    ctx.glEnable(E.GL_CULL_FACE)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.asarray(QA + QB, np.float32))
    ctx.glDrawArrays(E.GL_QUADS, 0, 8)
    assert ctx.glGetError() == E.GL_NO_ERROR
    lit = (ctx.read_pixels()[..., :3] > 0).any(-1)
    assert not lit[:, :16].any()                           # QA culled
    assert lit[4:28, 30].sum() >= 20 and not lit[6:26, 20:28].any()
