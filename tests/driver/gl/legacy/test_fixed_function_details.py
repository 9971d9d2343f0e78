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


def _two_level_texture(ctx):
    """Level 0 (2x2) red, level 1 (1x1) green; nearest-mipmap-nearest."""
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     bytes([255, 0, 0, 255] * 4))
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     bytes([0, 255, 0, 255]))
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32).tobytes())
    ctx.glEnableClientState(E.GL_TEXTURE_COORD_ARRAY)
    ctx.glTexCoordPointer(2, E.GL_FLOAT, 0, np.array([0, 0, 1, 0, 0, 1, 1, 1], np.float32).tobytes())


@pytest.mark.parametrize("env_bias, tex_bias, green", [(0.0, 0.0, False), (1.0, 0.0, True),
                                                       (0.0, 1.0, True), (1.5, -1.0, False),
                                                       (-2.0, 3.0, True)])
def test_lod_bias_of_the_unit_and_of_the_texture_add(env_bias, tex_bias, green):
    """A 2x2 texture on 2x2 pixels has LOD 0 (level 0, red); the texture
    environment's TEXTURE_LOD_BIAS (EXT_texture_lod_bias) plus the texture's
    own bias >= 0.5 selects level 1 (green) with NEAREST_MIPMAP_NEAREST."""
    ctx = compat(2, 2)
    _two_level_texture(ctx)
    ctx.glTexEnvf(E.GL_TEXTURE_FILTER_CONTROL, E.GL_TEXTURE_LOD_BIAS, env_bias)
    ctx.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_LOD_BIAS, tex_bias)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetTexEnvfv(E.GL_TEXTURE_FILTER_CONTROL, E.GL_TEXTURE_LOD_BIAS) == [env_bias]
    px = ctx.read_pixels()[0, 0, :3].tolist()
    assert px == ([0, 255, 0] if green else [255, 0, 0])


def test_stencil_wrap():
    """EXT_stencil_wrap (compatibility profile): INCR_WRAP from 255 gives 0,
    DECR_WRAP from 0 gives 255, read back as stencil indices."""
    ctx = compat(4, 4)
    ctx.glClearStencil(255)
    ctx.glClear(E.GL_STENCIL_BUFFER_BIT)
    ctx.glEnable(E.GL_STENCIL_TEST)
    ctx.glStencilFunc(E.GL_ALWAYS, 0, 0xFF)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array([-1, -1, 0, -1, -1, 1, 0, 1], np.float32).tobytes())
    ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_INCR_WRAP)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)         # left half: 255 -> 0
    left = ctx.glReadPixels(0, 0, 1, 1, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)
    ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_DECR_WRAP)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)         # 0 -> 255
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)         # 255 -> 254
    again = ctx.glReadPixels(0, 0, 1, 1, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)
    right = ctx.glReadPixels(3, 0, 1, 1, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)
    assert (bytes(left), bytes(again), bytes(right)) == (b"\x00", b"\xfe", b"\xff")
    assert "GL_EXT_stencil_wrap" in ctx.glGetString(E.GL_EXTENSIONS).split()
