"""Fixed-function details piglit's tests found wrong, against hand-computed
values: the point size clamp to [POINT_SIZE_MIN, POINT_SIZE_MAX] without
attenuation, the attenuation distance, the current fog coordinate of array
draws, stencil indices read back as every integer type."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

N = 32


def compat(w=N, h=N):
    return driver.Context(api="compat", width=w, height=h)


def lit_pixels(ctx) -> int:
    return int((ctx.read_pixels()[..., 0] > 0).sum())


def draw_point(ctx, x=0.0, y=0.0, z=0.0):
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(3, E.GL_FLOAT, 0, np.array([x, y, z], np.float32).tobytes())
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)


@pytest.mark.parametrize("size, lo, hi, side", [(9.0, 1.0, 3.0, 3), (2.0, 5.0, 10.0, 5), (4.0, 1.0, 8.0, 4)])
def test_point_size_is_clamped_without_attenuation(size, lo, hi, side):
    """GL 2.1 section 3.4: derived size = clamp(size * 1, POINT_SIZE_MIN, POINT_SIZE_MAX)."""
    ctx = compat()
    ctx.glPointSize(size)
    ctx.glPointParameterf(E.GL_POINT_SIZE_MIN, lo)
    ctx.glPointParameterf(E.GL_POINT_SIZE_MAX, hi)
    draw_point(ctx)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert lit_pixels(ctx) == side * side


def test_attenuation_distance_is_eye_z():
    """Quadratic attenuation 1/4 at eye z = -2 halves the size: 8 -> 4 (the
    eye distance |z|, as Mesa; the vertex's full distance sqrt(5) would give 3.58)."""
    ctx = compat()
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrtho(-4, 4, -4, 4, -10, 10)
    ctx.glPointSize(8.0)
    ctx.glPointParameterfv(E.GL_POINT_DISTANCE_ATTENUATION, [0.0, 0.0, 0.25])
    draw_point(ctx, 1.0, 0.5, -2.0)       # eye (1, 0.5, -2): |z| 2, 0.25 * 4 = 1 -> size 8
    assert lit_pixels(ctx) == 64
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glPointParameterfv(E.GL_POINT_DISTANCE_ATTENUATION, [0.0, 0.0, 1.0])
    draw_point(ctx, 1.0, 0.5, -2.0)       # 1 / sqrt(4) -> size 4
    assert lit_pixels(ctx) == 16


def test_current_fog_coordinate_feeds_array_draws():
    """FOG_COORD source with no fog coordinate array: the current value of
    glFogCoordf. Linear fog 0..1, fog colour white, black fragments: f = 1 - c."""
    ctx = compat(4, 4)
    ctx.glEnable(E.GL_FOG)
    ctx.glFogfv(E.GL_FOG_COLOR, [1.0, 1.0, 1.0, 1.0])
    ctx.glFogi(E.GL_FOG_COORD_SRC, E.GL_FOG_COORD)
    ctx.glFogi(E.GL_FOG_MODE, E.GL_LINEAR)
    ctx.glFogf(E.GL_FOG_START, 0.0)
    ctx.glFogf(E.GL_FOG_END, 1.0)
    ctx.glColor4f(0.0, 0.0, 0.0, 1.0)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32).tobytes())
    for coord, grey in ((0.25, 64), (0.75, 191)):
        ctx.glFogCoordf(coord)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert abs(int(ctx.read_pixels()[1, 1, 0]) - grey) <= 1
    assert ctx.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("type, fmt", [(E.GL_UNSIGNED_BYTE, "<B"), (E.GL_BYTE, "<b"),
                                       (E.GL_UNSIGNED_SHORT, "<H"), (E.GL_SHORT, "<h"),
                                       (E.GL_UNSIGNED_INT, "<I"), (E.GL_INT, "<i"),
                                       (E.GL_FLOAT, "<f")])
def test_stencil_index_reads_as_every_type(type, fmt):
    import struct
    ctx = compat(4, 4)
    ctx.glClearStencil(5)
    ctx.glClear(E.GL_STENCIL_BUFFER_BIT)
    out = ctx.glReadPixels(1, 1, 1, 1, E.GL_STENCIL_INDEX, type)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert struct.unpack(fmt, bytes(out))[0] == 5
