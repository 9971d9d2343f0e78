"""Polygon stipple (GL 4.6 compatibility section 14.6.2) with and without a GLSL
program: the pipe's rasterizer state (poly_stipple_enable + set_polygon_stipple)
makes the fragment stage drop the fragments whose pattern bit is clear, whatever
program runs. Before, only the generated fixed-function fragment stage applied
the pattern: a program's own fragment shader drew every pixel (piglit's
gl-2.1-polygon-stipple-fs).

The pattern: glPolygonStipple's 128 bytes are 32 rows of 4 bytes, row 0 the
window's bottom row, the most significant bit of a row's first byte the pixel
at x mod 32 = 0. Expected images are computed here from the bytes, bit by bit."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp

W, H = 40, 36          # wider and taller than the 32x32 pattern: it repeats
VS = "#version 120\nvoid main() { gl_Position = gl_Vertex; }\n"
FS = "#version 120\nvoid main() { gl_FragColor = vec4(1.0, 0.5, 0.25, 1.0); }\n"


def _pattern(seed=7) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, 128, dtype=np.uint8).tobytes()


def _expected(pattern: bytes) -> np.ndarray:
    """lit[y, x] (y = 0 the bottom row, as glReadPixels returns it)."""
    bits = np.unpackbits(np.frombuffer(pattern, np.uint8)).reshape(32, 32)   # MSB first
    ys, xs = np.mgrid[0:H, 0:W]
    return bits[ys % 32, xs % 32].astype(bool)


def _lit(ctx) -> np.ndarray:
    px = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    return px.reshape(H, W, 4)[..., 0] > 128


def _quad(ctx):
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()


@pytest.mark.parametrize("with_program", [True, False])
def test_filled_polygon_takes_the_pattern(with_program):
    pattern = _pattern()
    with driver.Context(api="compat", width=W, height=H) as ctx:
        if with_program:
            glhelp.program(ctx, VS, FS)
        else:
            ctx.glColor3f(1, 1, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glPolygonStipple(np.frombuffer(pattern, np.uint8))
        ctx.glEnable(E.GL_POLYGON_STIPPLE)
        _quad(ctx)
        lit = _lit(ctx)
        assert ctx.glGetError() == E.GL_NO_ERROR
    want = _expected(pattern)
    assert (lit == want).all(), np.argwhere(lit != want)[:8]


def test_triangles_of_a_program_and_then_disabled():
    """Two triangles through glDrawArrays with a program; after glDisable the whole
    window is drawn again (the variant follows the state)."""
    pattern = _pattern(11)
    v = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], np.float32)
    with driver.Context(api="compat", width=W, height=H) as ctx:
        glhelp.program(ctx, VS, FS)
        ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
        ctx.glVertexPointer(2, E.GL_FLOAT, 0, v)
        ctx.glPolygonStipple(np.frombuffer(pattern, np.uint8))
        ctx.glEnable(E.GL_POLYGON_STIPPLE)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
        first = _lit(ctx)
        ctx.glDisable(E.GL_POLYGON_STIPPLE)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
        second = _lit(ctx)
    assert (first == _expected(pattern)).all()
    assert second.all()


def test_lines_and_points_are_not_stippled():
    """The polygon stipple applies to filled polygons only: a line across row 4
    and points are drawn whole with an all-zero pattern."""
    with driver.Context(api="compat", width=W, height=H) as ctx:
        glhelp.program(ctx, VS, FS)
        ctx.glPolygonStipple(np.zeros(128, np.uint8))
        ctx.glEnable(E.GL_POLYGON_STIPPLE)
        y = (4.5 / H) * 2 - 1
        ctx.glBegin(E.GL_LINES)
        ctx.glVertex2f(-1, y)
        ctx.glVertex2f(1, y)
        ctx.glEnd()
        ctx.glBegin(E.GL_POINTS)
        ctx.glVertex2f((10.5 / W) * 2 - 1, (20.5 / H) * 2 - 1)
        ctx.glEnd()
        _quad(ctx)                        # a polygon: the zero pattern drops all of it
        lit = _lit(ctx)
    assert lit[4].all()
    assert lit[20, 10]
    assert lit.sum() == W + 1
