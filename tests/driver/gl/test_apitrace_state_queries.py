"""State programs read at start-up or for every snapshot: apitrace's replayers
(glretrace -s, qapitrace's state dump: a query they get INVALID_ENUM for makes
the snapshot fail) and moderngl's Context.info."""

from __future__ import annotations

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


@pytest.mark.parametrize("api", ["gl33", "compat"])
def test_clamp_read_color(api):
    """GL 4.6 table 23.36: CLAMP_READ_COLOR, initially FIXED_ONLY, set by glClampColor."""
    ctx = make_ctx(api)
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) == [E.GL_FIXED_ONLY]
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, E.GL_FALSE)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) == [E.GL_FALSE]
    ctx.glClampColor(E.GL_CLAMP_READ_COLOR, 7)                  # not TRUE/FALSE/FIXED_ONLY
    expect(ctx, E.GL_INVALID_ENUM)
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) == [E.GL_FALSE]


def test_clamp_read_color_is_not_gles_state():
    ctx = make_ctx("gles3")
    assert ctx.glGetIntegerv(E.GL_CLAMP_READ_COLOR) is None
    expect(ctx, E.GL_INVALID_ENUM)


@pytest.mark.parametrize("api", ["gl33", "gl43", "compat"])
def test_point_parameters(api):
    """GL 4.6 table 23.10 (core state, moderngl's Context.info reads it):
    POINT_FADE_THRESHOLD_SIZE 1.0 and POINT_SPRITE_COORD_ORIGIN UPPER_LEFT initially,
    then what glPointParameter set; a negative threshold is INVALID_VALUE."""
    ctx = make_ctx(api)
    assert ctx.glGetFloatv(E.GL_POINT_FADE_THRESHOLD_SIZE) == [1.0]
    assert ctx.glGetIntegerv(E.GL_POINT_SPRITE_COORD_ORIGIN) == [E.GL_UPPER_LEFT]
    ctx.glPointParameterf(E.GL_POINT_FADE_THRESHOLD_SIZE, 2.5)
    ctx.glPointParameteri(E.GL_POINT_SPRITE_COORD_ORIGIN, E.GL_LOWER_LEFT)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glPointParameterf(E.GL_POINT_FADE_THRESHOLD_SIZE, -1.0)
    expect(ctx, E.GL_INVALID_VALUE)
    assert ctx.glGetFloatv(E.GL_POINT_FADE_THRESHOLD_SIZE) == [2.5]
    assert ctx.glGetIntegerv(E.GL_POINT_SPRITE_COORD_ORIGIN) == [E.GL_LOWER_LEFT]
