"""Line stipple (GL 2.1 section 3.5.2) of lines a GLSL program transforms: the
counter runs over the fragments of the line the program's positions give, not
over the fixed-function transform of the vertex arrays.

Window 64 x 8, identity matrices; the vertex shader halves x and adds 0.25
(clip x = 0.5 * object x + 0.25), y is kept. Object x -1.5, 0.0 and 2.5 land at
clip x -0.5, 0.25 and 1.5, window x (x + 1) * 32 = 16, 40 and 80 (clipped at
64); object y 0.125 is window row 4 (y = 4.5, a pixel centre: width-1 x-major
lines cover that row).

A fragment at column c of a segment starting at window x0 with counter s0
has counter s0 + (c + 0.5 - x0), taken down to an integer; it is drawn when
bit (counter / factor) mod 16 of the pattern is set. Under the fixed-function
transform the same arrays would start at window x -16 with other dashes."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp

W, H = 64, 8
ROW = 4
VS = """#version 120
void main() {
    gl_Position = vec4(gl_Vertex.x * 0.5 + 0.25, gl_Vertex.y, 0.0, 1.0);
    gl_FrontColor = vec4(1.0);
}
"""
FS = "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n"


def _lit_row(mode, xs, factor, pattern, how="begin"):
    ctx = driver.Context(api="compat", width=W, height=H)
    glhelp.program(ctx, VS, FS)
    ctx.glEnable(E.GL_LINE_STIPPLE)
    ctx.glLineStipple(factor, pattern)
    v = np.array([[x, 0.125] for x in xs], np.float32)
    if how == "begin":
        ctx.glBegin(mode)
        for p in v:
            ctx.glVertex2f(*p)
        ctx.glEnd()
    else:
        ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
        ctx.glVertexPointer(2, E.GL_FLOAT, 0, v)
        ctx.glDrawArrays(mode, 0, len(v))
    assert ctx.glGetError() == E.GL_NO_ERROR
    lit = (ctx.read_pixels()[..., :3] > 0).any(-1)
    assert not np.delete(lit, ROW, axis=0).any()           # one row only
    return lit[ROW]


def _expected(segments, factor, pattern):
    """Columns drawn: segments [(x0, x1, counter at x0)] in window x."""
    out = np.zeros(W, bool)
    for x0, x1, s0 in segments:
        for c in range(int(x0), min(int(x1), W)):
            s = int(np.floor(s0 + c + 0.5 - x0))
            out[c] = bool(pattern >> ((s // factor) % 16) & 1)
    return out


@pytest.mark.parametrize("how", ["begin", "arrays"])
def test_strip_counter_follows_the_programs_positions(how):
    """A strip 16 -> 40 -> 80: the second segment goes on with counter 24
    (the first one's rounded length): pattern 0x00FF, factor 1 draws columns
    16-23, 32-39, 48-55 (restarting at 40 would draw 40-47 and 56-63 instead)."""
    row = _lit_row(E.GL_LINE_STRIP, (-1.5, 0.0, 2.5), 1, 0x00FF, how)
    want = _expected([(16, 40, 0), (40, 80, 24)], 1, 0x00FF)
    assert np.flatnonzero(want).tolist() == list(range(16, 24)) + list(range(32, 40)) + list(range(48, 56))
    assert row.tolist() == want.tolist()


def test_independent_lines_restart_the_counter():
    """GL_LINES 16 -> 40 and 40 -> 80, pattern 0x0F0F factor 2: each line from
    counter 0 (columns 16-23, 32-39 and 40-47, 56-63)."""
    row = _lit_row(E.GL_LINES, (-1.5, 0.0, 0.0, 2.5), 2, 0x0F0F)
    want = _expected([(16, 40, 0), (40, 80, 0)], 2, 0x0F0F)
    assert row.tolist() == want.tolist()


def test_loop_closes_with_the_counter_going_on():
    """A loop 16 -> 40 -> 16 (back along the same row): the closing segment
    (40 -> 16, drawn right to left) starts at counter 24; pattern 0x0FFF factor 1."""
    row = _lit_row(E.GL_LINE_LOOP, (-1.5, 0.0), 1, 0x0FFF)
    first = _expected([(16, 40, 0)], 1, 0x0FFF)
    # the closing segment: column c at distance 40 - (c + 0.5) from x = 40, counter 24 on
    back = np.zeros(W, bool)
    for c in range(16, 40):
        s = int(np.floor(24 + 40 - (c + 0.5)))
        back[c] = bool(0x0FFF >> (s % 16) & 1)
    assert row.tolist() == (first | back).tolist()
