"""Adjacency primitives without a geometry shader (GL 4.6 sections 10.1.11-10.1.14,
tables 10.1 and 13.2): the adjacent vertices are ignored and the base lines, line
strips, triangles and triangle strips are drawn, with the table's vertex numbering,
strip orientation and provoking vertices. DrawArrays, DrawElements with base vertex,
instances and primitive restart; transform feedback pairs the modes with their base
type (table 13.1); GLES 3.1 has no adjacency modes. Also the geometry/tessellation
limits (spec minimums) the GL 3.2+/4.0+ contexts report. Pixels are checked against
analytic coverage."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.agx.encode import _drop_adjacency
from driver.gallium import PipePrim
from driver.gl import enums as E

from tests.driver.agx.glhelp import program

from .helpers import expect

W = H = 16
VS = """#version 330
layout(location = 0) in vec2 pos;
layout(location = 1) in vec3 col;
flat out vec3 c;
void main() { gl_Position = vec4(pos + vec2(float(gl_InstanceID), 0.0), 0.0, 1.0); c = col; }"""
FS = """#version 330
flat in vec3 c;
out vec4 o;
void main() { o = vec4(c, 1.0); }"""

# distinct flat colours, one per vertex
PALETTE = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1],
                    [1, 1, 1], [0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5], [0.5, 0.5, 0],
                    [0.5, 0, 0.5]], np.float32)
FAR = (0.9, 0.9)        # where adjacent vertices sit: drawing them would change coverage


def _ctx(api="gl33"):
    return driver.Context(api=api, width=W, height=H)


def _program(ctx):
    return program(ctx, VS, FS)


def _setup(ctx, pos, indices=None):
    """Vertex i: position pos[i], colour PALETTE[i]."""
    pos = np.asarray(pos, np.float32).reshape(-1, 2)
    data = np.concatenate([pos, PALETTE[:len(pos)]], 1).astype(np.float32)
    _program(ctx)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 20, 0)
    ctx.glVertexAttribPointer(1, 3, E.GL_FLOAT, False, 20, 8)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnableVertexAttribArray(1)
    if indices is not None:
        idx = np.asarray(indices, np.uint16)
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx, E.GL_STATIC_DRAW)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)


def _image(ctx):
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(bytes(raw), np.uint8).reshape(H, W, 4)


def _rgba(i):
    return np.append(np.round(PALETTE[i] * 255), 255).astype(np.uint8)


# pixel-centre NDC coordinates
X, Y = np.meshgrid((np.arange(W) + 0.5) / W * 2 - 1, (np.arange(H) + 0.5) / H * 2 - 1)
LOWER_LEFT = X + Y < -1e-3          # triangle (-1,-1) (1,-1) (-1,1)
UPPER_RIGHT = X + Y > 1e-3          # triangle (-1,1) (1,-1) (1,1)
EMPTY = np.zeros(4, np.uint8)


def _row_ndc(r):
    return (r + 0.5) / H * 2 - 1


# -- the index rewrite (pure) ---------------------------------------------------------

def test_rewrite_follows_the_vertex_numbering():
    # independent lines/triangles of the main vertices, the provoking vertex (last-vertex
    # convention) in the last column
    ids = np.arange(20, 34)
    mode, out = _drop_adjacency(PipePrim.LINES_ADJACENCY, ids)
    assert mode == PipePrim.LINES and out.tolist() == [21, 22, 25, 26, 29, 30]
    mode, out = _drop_adjacency(PipePrim.TRIANGLES_ADJACENCY, ids)
    assert mode == PipePrim.TRIANGLES and out.tolist() == [20, 22, 24, 26, 28, 30]
    mode, out = _drop_adjacency(PipePrim.LINE_STRIP_ADJACENCY, ids[:6])
    assert mode == PipePrim.LINES and out.tolist() == [21, 22, 22, 23, 23, 24]
    mode, out = _drop_adjacency(PipePrim.TRIANGLE_STRIP_ADJACENCY, ids[:9])
    assert mode == PipePrim.TRIANGLES and out.tolist() == [20, 22, 24, 24, 22, 26]
    # first-vertex convention: the odd triangle starts on its provoking vertex 22, winding kept
    assert _drop_adjacency(PipePrim.TRIANGLE_STRIP_ADJACENCY, ids[:9], last=False)[1].tolist() == \
        [20, 22, 24, 22, 26, 24]
    # fewer than one primitive: nothing
    assert _drop_adjacency(PipePrim.TRIANGLE_STRIP_ADJACENCY, ids[:5])[1].tolist() == []
    assert _drop_adjacency(PipePrim.LINE_STRIP_ADJACENCY, ids[:3])[1].tolist() == []


def test_rewrite_restarts_numbering_after_each_restart_mark():
    ids = np.array([0, 1, 2, 9, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14])
    marks = ids == 9
    # runs of 3, 6 and 5 vertices: the first is too short for any primitive
    assert _drop_adjacency(PipePrim.LINES_ADJACENCY, ids, marks)[1].tolist() == [4, 5, 11, 12]
    assert _drop_adjacency(PipePrim.TRIANGLES_ADJACENCY, ids, marks)[1].tolist() == [3, 5, 7]
    _, out = _drop_adjacency(PipePrim.LINE_STRIP_ADJACENCY, ids, marks)
    assert out.tolist() == [4, 5, 5, 6, 6, 7, 11, 12, 12, 13]
    _, out = _drop_adjacency(PipePrim.TRIANGLE_STRIP_ADJACENCY, ids, marks)
    assert out.tolist() == [3, 5, 7]


# -- drawing ---------------------------------------------------------------------------

@pytest.mark.parametrize("convention,provoking", [(E.GL_LAST_VERTEX_CONVENTION, 4),
                                                  (E.GL_FIRST_VERTEX_CONVENTION, 0)])
def test_triangles_adjacency_draws_vertices_0_2_4(convention, provoking):
    pos = [(-1, -1), FAR, (1, -1), FAR, (-1, 1), FAR]
    with _ctx() as ctx:
        _setup(ctx, pos)
        ctx.glProvokingVertex(convention)
        ctx.glDrawArrays(E.GL_TRIANGLES_ADJACENCY, 0, 6)
        img = _image(ctx)
    assert (img[LOWER_LEFT] == _rgba(provoking)).all()
    assert (img[UPPER_RIGHT] == EMPTY).all()


@pytest.mark.parametrize("convention,provoking", [(E.GL_LAST_VERTEX_CONVENTION, (4, 6)),
                                                  (E.GL_FIRST_VERTEX_CONVENTION, (0, 2))])
def test_triangle_strip_adjacency_orientation_and_provoking_vertex(convention, provoking):
    # triangles (0, 2, 4) and, odd, (4, 2, 6): both counter-clockwise
    pos = [(-1, -1), FAR, (1, -1), FAR, (-1, 1), FAR, (1, 1), FAR]
    with _ctx() as ctx:
        _setup(ctx, pos)
        ctx.glProvokingVertex(convention)
        ctx.glEnable(E.GL_CULL_FACE)
        ctx.glCullFace(E.GL_BACK)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP_ADJACENCY, 0, 8)
        img = _image(ctx)
        assert (img[LOWER_LEFT] == _rgba(provoking[0])).all()
        assert (img[UPPER_RIGHT] == _rgba(provoking[1])).all()
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glCullFace(E.GL_FRONT)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP_ADJACENCY, 0, 8)
        assert (_image(ctx) == EMPTY).all()


def test_triangle_strip_adjacency_drops_incomplete_triangles():
    pos = [(-1, -1), FAR, (1, -1), FAR, (-1, 1), FAR, (1, 1)]
    with _ctx() as ctx:
        _setup(ctx, pos)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP_ADJACENCY, 0, 7)       # one triangle (only primitive)
        img = _image(ctx)
        assert (img[LOWER_LEFT] == _rgba(4)).all()
        assert (img[UPPER_RIGHT] == EMPTY).all()
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP_ADJACENCY, 0, 5)
        ctx.glDrawArrays(E.GL_TRIANGLES_ADJACENCY, 0, 5)
        assert (_image(ctx) == EMPTY).all()


def _line_pixels(img):
    return (img[..., 3] != 0)


@pytest.mark.parametrize("convention,provoking", [(E.GL_LAST_VERTEX_CONVENTION, (2, 6)),
                                                  (E.GL_FIRST_VERTEX_CONVENTION, (1, 5))])
def test_lines_adjacency_draws_vertices_1_2(convention, provoking):
    r, c = 4, 10
    y, x = _row_ndc(r), _row_ndc(c)
    pos = [(-1, -1), (-1, y), (1, y), (1, 1),           # row r
           (1, -1), (x, -1), (x, 1), (-1, 1),           # column c
           (-1, -1), (0, 0), (1, 1)]                    # incomplete: ignored
    with _ctx() as ctx:
        _setup(ctx, pos)
        ctx.glProvokingVertex(convention)
        ctx.glDrawArrays(E.GL_LINES_ADJACENCY, 0, 11)
        img = _image(ctx)
    lit = _line_pixels(img)
    expect_lit = np.zeros((H, W), bool)
    expect_lit[r, :] = True
    expect_lit[:, c] = True
    inner = np.zeros((H, W), bool)
    inner[1:-1, 1:-1] = True
    # the ends touch the framebuffer edge; the interior is exact
    assert (lit[inner] == expect_lit[inner]).all()
    row = [x_ for x_ in range(1, W - 1) if x_ != c]
    col = [y_ for y_ in range(1, H - 1) if y_ != r]
    assert (img[r, row] == _rgba(provoking[0])).all()
    assert (img[col, c] == _rgba(provoking[1])).all()


@pytest.mark.parametrize("convention", [E.GL_LAST_VERTEX_CONVENTION, E.GL_FIRST_VERTEX_CONVENTION])
def test_line_strip_adjacency_draws_the_inner_strip(convention):
    # strip 1 -> 2 -> 3: row 3 from column 2 to 12, then column 12 up to row 12
    x0, x1 = _row_ndc(2), _row_ndc(12)
    y0, y1 = _row_ndc(3), _row_ndc(12)
    pos = [(-1, 1), (x0, y0), (x1, y0), (x1, y1), (1, -1)]
    with _ctx() as ctx:
        _setup(ctx, pos)
        ctx.glProvokingVertex(convention)
        ctx.glDrawArrays(E.GL_LINE_STRIP_ADJACENCY, 0, 5)
        img = _image(ctx)
    lit = _line_pixels(img)
    assert lit.sum() <= 10 + 9 + 2
    seg1, seg2 = (2, 3) if convention == E.GL_LAST_VERTEX_CONVENTION else (1, 2)
    assert (img[3, 3:12] == _rgba(seg1)).all()
    assert (img[4:12, 12] == _rgba(seg2)).all()
    off = np.ones((H, W), bool)
    off[3, 2:13] = False
    off[3:13, 12] = False
    assert not lit[off].any()


def test_elements_base_vertex_instances_and_restart():
    """Triangles with adjacency through indices with base vertex 2, two instances
    (instance 1 shifted right by one NDC unit), restart splitting the list."""
    # vertices 2..: a triangle (-1,-1) (0,-1) (-1,1) in the left half
    pos = [FAR, FAR, (-1, -1), FAR, (0, -1), FAR, (-1, 1), FAR]
    idx = [0, 1, 2, 0xFFFF, 0, 1, 2, 3, 4, 5, 0, 0xFFFF]
    with _ctx() as ctx:
        _setup(ctx, pos, idx)
        ctx.glEnable(E.GL_PRIMITIVE_RESTART)
        ctx.glPrimitiveRestartIndex(0xFFFF)
        ctx.glDrawElementsInstancedBaseVertex(E.GL_TRIANGLES_ADJACENCY, len(idx), E.GL_UNSIGNED_SHORT,
                                              0, 2, 2)
        img = _image(ctx)
    # triangle in NDC: x + 1 < (1 - y) / 2 ... i.e. below the line from (0,-1) to (-1,1)
    for inst in (0, 1):
        xs = X - inst
        inside = (xs > -1) & (2 * (xs + 1) + (Y + 1) < 2 - 1e-3)
        outside = (xs > -1) & (xs < 0) & (2 * (xs + 1) + (Y + 1) > 2 + 1e-3)
        assert (img[inside] == _rgba(6)).all()       # provoking: last vertex, index 4 + 2
        assert (img[outside] == EMPTY).all()


def test_strip_adjacency_elements_with_restart():
    """Two triangle strips with adjacency separated by a restart: each restarts the
    vertex numbering, so its even vertices make its triangles."""
    pos = [(-1, -1), FAR, (0, -1), FAR, (-1, 1), FAR,          # left half, lower-left triangle
           (0, 1), FAR, (1, -1), FAR, (1, 1), FAR]            # right half, upper-right triangle
    idx = [0, 1, 2, 3, 4, 5, 0xFFFF, 6, 7, 8, 9, 10, 11]
    with _ctx("gl43") as ctx:
        _setup(ctx, pos, idx)
        ctx.glEnable(E.GL_PRIMITIVE_RESTART_FIXED_INDEX)
        ctx.glDrawElements(E.GL_TRIANGLE_STRIP_ADJACENCY, len(idx), E.GL_UNSIGNED_SHORT, 0)
        img = _image(ctx)
    left = 2 * X + Y + 1 < 0            # below the edge (0,-1)-(-1,1)
    right = 2 * X + Y - 1 > 0           # above the edge (0,1)-(1,-1)
    assert left.sum() > 20 and right.sum() > 20
    assert (img[left] == _rgba(4)).all()
    assert (img[right] == _rgba(10)).all()
    assert (img[~left & ~right] == EMPTY).all()


# -- transform feedback ------------------------------------------------------------------

XFB_VS = """#version 330
layout(location = 0) in vec2 pos;
out float id;
void main() { gl_Position = vec4(pos, 0.0, 1.0); id = float(gl_VertexID); }"""


def _xfb_program(ctx):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, XFB_VS),
                      (E.GL_FRAGMENT_SHADER, "#version 330\nout vec4 o; void main() { o = vec4(1.0); }")):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glTransformFeedbackVaryings(p, 1, ["id"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    data = np.zeros((16, 2), np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 64 * 4, np.full(64, -7, np.float32), E.GL_STREAM_READ)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    return buf


@pytest.mark.parametrize("mode,xfb_mode,count,ids", [
    (E.GL_LINES_ADJACENCY, E.GL_LINES, 9, [1, 2, 5, 6]),
    (E.GL_LINE_STRIP_ADJACENCY, E.GL_LINES, 5, [1, 2, 2, 3]),
    (E.GL_TRIANGLES_ADJACENCY, E.GL_TRIANGLES, 12, [0, 2, 4, 6, 8, 10]),
    (E.GL_TRIANGLE_STRIP_ADJACENCY, E.GL_TRIANGLES, 8, [0, 2, 4, 4, 2, 6]),
])
def test_feedback_captures_the_base_primitives(mode, xfb_mode, count, ids):
    with _ctx("gl43") as ctx:
        buf = _xfb_program(ctx)
        ctx.glEnable(E.GL_RASTERIZER_DISCARD)
        ctx.glBeginTransformFeedback(xfb_mode)
        ctx.glDrawArrays(mode, 0, count)
        ctx.glEndTransformFeedback()
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
        view = ctx.glMapBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 64 * 4, E.GL_MAP_READ_BIT)
        got = np.frombuffer(bytes(view), np.float32)
        ctx.glUnmapBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER)
    assert got[:len(ids)].tolist() == ids
    assert (got[len(ids):] == -7).all()


@pytest.mark.parametrize("mode,wrong", [(E.GL_LINES_ADJACENCY, E.GL_TRIANGLES),
                                        (E.GL_LINE_STRIP_ADJACENCY, E.GL_POINTS),
                                        (E.GL_TRIANGLES_ADJACENCY, E.GL_LINES),
                                        (E.GL_TRIANGLE_STRIP_ADJACENCY, E.GL_POINTS)])
def test_feedback_with_another_base_type_is_invalid_operation(mode, wrong):
    with _ctx("gl43") as ctx:
        _xfb_program(ctx)
        ctx.glBeginTransformFeedback(wrong)
        ctx.glDrawArrays(mode, 0, 12)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glEndTransformFeedback()


# -- errors and limits ---------------------------------------------------------------------

ADJ = [E.GL_LINES_ADJACENCY, E.GL_LINE_STRIP_ADJACENCY, E.GL_TRIANGLES_ADJACENCY,
       E.GL_TRIANGLE_STRIP_ADJACENCY]


def test_gles30_rejects_adjacency_modes():
    # (GLES 3.1 contexts list OES/EXT_geometry_shader, which bring the modes)
    with _ctx("gles3") as ctx:
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }"),
                          (E.GL_FRAGMENT_SHADER, "#version 300 es\nprecision mediump float;\nout vec4 o;\n"
                                                 "void main() { o = vec4(1.0); }")):
            s = ctx.glCreateShader(kind)
            ctx.glShaderSource(s, 1, [src])
            ctx.glCompileShader(s)
            ctx.glAttachShader(p, s)
        ctx.glLinkProgram(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        for mode in ADJ:
            ctx.glDrawArrays(mode, 0, 12)
            expect(ctx, E.GL_INVALID_ENUM)
            ctx.glDrawElements(mode, 0, E.GL_UNSIGNED_SHORT, 0)
            expect(ctx, E.GL_INVALID_ENUM)


GEOMETRY = {"GL_MAX_GEOMETRY_UNIFORM_COMPONENTS": 1024, "GL_MAX_GEOMETRY_INPUT_COMPONENTS": 64,
            "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS": 128, "GL_MAX_GEOMETRY_OUTPUT_VERTICES": 256,
            "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS": 1024, "GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS": 16}
TESS = {"GL_MAX_TESS_GEN_LEVEL": 64, "GL_MAX_TESS_PATCH_COMPONENTS": 120,
        "GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS": 1024, "GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS": 1024,
        "GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS": 16, "GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS": 16,
        "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS": 128, "GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS": 4096,
        "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS": 128, "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS": 128,
        "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS": 128, "GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS": 14,
        "GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS": 14,
        # the stages bind storage buffers and images since they are lowered with them
        # (driver/gl/tessellation.py): the fragment stage's counts
        "GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS": 16, "GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS": 8}


def _get(ctx, name):
    v = ctx.glGetIntegerv(getattr(E, name))
    return ctx.glGetError(), (v[0] if v is not None else None)


def test_geometry_and_tessellation_limits_by_version():
    with _ctx("gl33") as ctx:
        for name, value in GEOMETRY.items():
            assert _get(ctx, name) == (E.GL_NO_ERROR, value), name
        assert _get(ctx, "GL_MAX_GEOMETRY_UNIFORM_BLOCKS") == (E.GL_NO_ERROR, 12)
        size = _get(ctx, "GL_MAX_UNIFORM_BLOCK_SIZE")[1]
        assert _get(ctx, "GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS") == \
            (E.GL_NO_ERROR, 12 * size // 4 + 1024)
        # GL 3.3 has no tessellation stages, nor 4.x geometry limits; GL_ARB_gpu_shader5 (listed
        # from 3.2) brings MAX_GEOMETRY_SHADER_INVOCATIONS, which its shaders read as a constant
        for name in ("GL_MAX_TESS_GEN_LEVEL", "GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS",
                     "GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS"):
            assert _get(ctx, name)[0] == E.GL_INVALID_ENUM, name
        assert "GL_ARB_gpu_shader5" in ctx.extensions
        assert _get(ctx, "GL_MAX_GEOMETRY_SHADER_INVOCATIONS") == (E.GL_NO_ERROR, 32)
        # a geometry shader compiles (driver/gl/geometry.py lowers it to compute passes)
        s = ctx.glCreateShader(E.GL_GEOMETRY_SHADER)
        ctx.glShaderSource(s, 1, ["#version 330\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n"
                                  "void main() { EmitVertex(); }"])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
    with _ctx("gl43") as ctx:
        for name, value in {**GEOMETRY, **TESS}.items():
            assert _get(ctx, name) == (E.GL_NO_ERROR, value), name
        assert _get(ctx, "GL_MAX_GEOMETRY_UNIFORM_BLOCKS") == (E.GL_NO_ERROR, 14)
        assert _get(ctx, "GL_MAX_GEOMETRY_SHADER_INVOCATIONS") == (E.GL_NO_ERROR, 32)
        assert _get(ctx, "GL_MAX_PATCH_VERTICES") == (E.GL_NO_ERROR, 32)
    with _ctx("gles3") as ctx:         # (GLES 3.1 has them through the OES/EXT stage extensions)
        for name in ("GL_MAX_GEOMETRY_OUTPUT_VERTICES", "GL_MAX_TESS_GEN_LEVEL"):
            assert _get(ctx, name)[0] == E.GL_INVALID_ENUM, name


def test_indirect_draw_with_adjacency():
    pos = [(-1, -1), FAR, (1, -1), FAR, (-1, 1), FAR]
    with _ctx("gl43") as ctx:
        _setup(ctx, pos)
        cmd = np.array([6, 1, 0, 0], np.uint32)        # count, instances, first, base instance
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, buf)
        ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, cmd.nbytes, cmd, E.GL_STATIC_DRAW)
        ctx.glDrawArraysIndirect(E.GL_TRIANGLES_ADJACENCY, 0)
        img = _image(ctx)
    assert (img[LOWER_LEFT] == _rgba(4)).all()
    assert (img[UPPER_RIGHT] == EMPTY).all()
