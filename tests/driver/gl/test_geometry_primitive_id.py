"""gl_PrimitiveID in a fragment shader (GLSL 4.60 section 7.1): without a geometry stage it
is the primitive's index in the draw, counted per instance and across primitive restarts
(the rasteriser's primitive index, a special register of the fragment stage); with a
geometry stage, the value that stage wrote. Expected images are computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .test_geometry import _shader

VS = """#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos.x + float(gl_InstanceID), pos.y, 0.0, 1.0); }
"""
FS = """#version 150
out vec4 o;
void main() { o = vec4(float(gl_PrimitiveID) / 255.0, 0.0, 0.0, 1.0); }
"""
# scales gl_PrimitiveIDIn by 10 into gl_PrimitiveID
GS = """#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        gl_PrimitiveID = 10 * gl_PrimitiveIDIn;
        EmitVertex();
    }
}
"""


def _draw(width, height, pos, draw, gs=None):
    with driver.Context(api="gl46", width=width, height=height) as ctx:
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, FS)):
            if src is not None:
                ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        data = np.asarray(pos, np.float32)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(ctx.glGetAttribLocation(p, "pos"), 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(ctx.glGetAttribLocation(p, "pos"))
        draw(ctx)
        assert ctx.glGetError() == E.GL_NO_ERROR
        img = np.frombuffer(ctx.glReadPixels(0, 0, width, height, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    return img.reshape(height, width, 4)[:, :, 0]


def _columns(n):
    """Two triangles per pixel column of a n x 2 target: the lower-left one first."""
    out = []
    for c in range(n):
        x0, x1 = -1 + 2 * c / n, -1 + 2 * (c + 1) / n
        out += [[x0, -1], [x1, -1], [x0, 1], [x1, -1], [x1, 1], [x0, 1]]
    return out


def test_primitive_id_without_geometry_stage_is_the_index_in_the_draw():
    img = _draw(4, 2, _columns(4), lambda ctx: ctx.glDrawArrays(E.GL_TRIANGLES, 0, 24))
    # column c: triangle 2c covers the bottom row, 2c + 1 the top row
    np.testing.assert_array_equal(img, [[0, 2, 4, 6], [1, 3, 5, 7]])


def test_primitive_id_restarts_with_each_instance():
    """A strip of 4 triangles over the left half, instance 1 moved to the right half."""
    strip = [[-1, -1], [-1, 1], [-0.5, -1], [-0.5, 1], [0, -1], [0, 1]]
    img = _draw(4, 2, strip, lambda ctx: ctx.glDrawArraysInstanced(E.GL_TRIANGLE_STRIP, 0, 6, 2))
    # strip triangles (0,1,2), (1,2,3), ...: 0 and 2 touch the bottom row's pixels, 1 and 3 the top's
    np.testing.assert_array_equal(img, [[0, 2, 0, 2], [1, 3, 1, 3]])


def test_primitive_id_counts_across_primitive_restarts():
    def draw(ctx):
        idx = np.array([0, 1, 2, 0xFFFF, 3, 4, 5, 6, 7, 8, 0xFFFF, 9, 10, 11], np.uint16)
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
        ctx.glEnable(E.GL_PRIMITIVE_RESTART)
        ctx.glPrimitiveRestartIndex(0xFFFF)
        ctx.glDrawElements(E.GL_TRIANGLES, len(idx), E.GL_UNSIGNED_SHORT, 0)
    # vertices 0..11: the first two columns' triangles; restarts between them change nothing
    img = _draw(4, 2, _columns(4)[:12], draw)
    np.testing.assert_array_equal(img, [[0, 2, 0, 0], [1, 3, 0, 0]])


def test_a_geometry_stage_writes_the_primitive_id_the_fragment_stage_reads():
    img = _draw(4, 2, _columns(4), lambda ctx: ctx.glDrawArrays(E.GL_TRIANGLES, 0, 24), gs=GS)
    np.testing.assert_array_equal(img, [[0, 20, 40, 60], [10, 30, 50, 70]])


# A draw of more than draws.MAX_DRAW_PIECE vertices is sent to the pipe in pieces (host
# memory follows the piece); gl_PrimitiveID must count on across them (GL 4.6 section
# 11.3.4.5 / 15.2.2: the primitives since the draw began). The limit is lowered so that a
# draw of 8 columns (16 triangles) takes several pieces.
PIECE = 12


def _strip(n):
    """A triangle strip over n pixel columns: triangle 2c is column c's lower-left half
    (bottom row), 2c + 1 its upper-right half (top row)."""
    out = []
    for c in range(n + 1):
        x = -1 + 2 * c / n
        out += [[x, -1], [x, 1]]
    return out


EXPECTED = np.array([[2 * c for c in range(8)], [2 * c + 1 for c in range(8)]])


def _pieces_drawn(monkeypatch):
    """draws.MAX_DRAW_PIECE lowered to PIECE; returns the list the vertex counts of the
    pieces each draw is sent in are appended to (to check it really was split, or not)."""
    from driver.gl import draws
    monkeypatch.setattr(draws, "MAX_DRAW_PIECE", PIECE)
    counts = []
    real = draws._pieces

    def pieces(*args, **kw):
        out = real(*args, **kw)
        counts.extend(n for _first, n in out)
        return out
    monkeypatch.setattr(draws, "_pieces", pieces)
    return counts


def _elements(mode, count):
    def draw(ctx):
        idx = np.arange(count, dtype=np.uint16)
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
        ctx.glDrawElements(mode, count, E.GL_UNSIGNED_SHORT, 0)
    return draw


@pytest.mark.parametrize("mode, pos", [(E.GL_TRIANGLES, _columns(8)), (E.GL_TRIANGLE_STRIP, _strip(8))])
@pytest.mark.parametrize("indexed", [False, True])
def test_a_geometry_stage_counts_primitive_ids_across_the_pieces_of_a_draw(monkeypatch, mode, pos, indexed):
    counts = _pieces_drawn(monkeypatch)
    draw = _elements(mode, len(pos)) if indexed else (lambda ctx: ctx.glDrawArrays(mode, 0, len(pos)))
    img = _draw(8, 2, pos, draw, gs=GS)
    assert len(counts) > 1                        # drawn in pieces
    np.testing.assert_array_equal(img, 10 * EXPECTED)


@pytest.mark.parametrize("mode, pos", [(E.GL_TRIANGLES, _columns(8)), (E.GL_TRIANGLE_STRIP, _strip(8))])
@pytest.mark.parametrize("indexed", [False, True])
def test_the_rasteriser_primitive_id_of_a_large_draw_counts_on(monkeypatch, mode, pos, indexed):
    """Without a geometry stage the fragment stage's gl_PrimitiveID is the rasteriser's
    index, which restarts in every pipe draw: such a draw is drawn whole."""
    counts = _pieces_drawn(monkeypatch)
    draw = _elements(mode, len(pos)) if indexed else (lambda ctx: ctx.glDrawArrays(mode, 0, len(pos)))
    img = _draw(8, 2, pos, draw)
    assert counts in ([], [len(pos)])             # not split
    np.testing.assert_array_equal(img, EXPECTED)


def test_a_large_draw_without_primitive_ids_is_still_drawn_in_pieces(monkeypatch):
    counts = _pieces_drawn(monkeypatch)
    fs = "#version 150\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n"
    monkeypatch.setitem(globals(), "FS", fs)
    img = _draw(8, 2, _columns(8), lambda ctx: ctx.glDrawArrays(E.GL_TRIANGLES, 0, 48))
    assert counts == [PIECE] * 4
    assert (img == 255).all()
