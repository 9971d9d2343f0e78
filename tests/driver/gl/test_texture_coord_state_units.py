"""Texture coordinate state (current and raster texture coordinates, the texture matrix
and its stack depth) exists for MAX_TEXTURE_COORDS units; with an active texture unit at
or past it (allowed up to MAX_COMBINED_TEXTURE_IMAGE_UNITS) a query of that state is
INVALID_OPERATION (GL 2.1 section 6.1.2) - it answered the state of unit (n mod 8)."""

import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

PNAMES = [E.GL_CURRENT_TEXTURE_COORDS, E.GL_CURRENT_RASTER_TEXTURE_COORDS, E.GL_TEXTURE_MATRIX,
          E.GL_TRANSPOSE_TEXTURE_MATRIX, E.GL_TEXTURE_STACK_DEPTH]


@pytest.mark.parametrize("pname", PNAMES)
def test_units_past_the_coordinate_sets_have_no_coordinate_state(pname):
    ctx = driver.Context(api="compat", width=4, height=4)
    coords = ctx.glGetIntegerv(E.GL_MAX_TEXTURE_COORDS)[0]
    assert ctx.glGetIntegerv(E.GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0] > coords
    ctx.glMultiTexCoord4f(E.GL_TEXTURE0 + coords - 1, 0.5, 0.25, 0.0, 1.0)
    ctx.glActiveTexture(E.GL_TEXTURE0 + coords - 1)
    assert ctx.glGetFloatv(pname) is not None
    expect(ctx, E.GL_NO_ERROR)
    ctx.glActiveTexture(E.GL_TEXTURE0 + coords)          # a valid unit (image units go further)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetFloatv(pname) is None
    expect(ctx, E.GL_INVALID_OPERATION)


def test_the_last_coordinate_set_answers_its_own_values():
    ctx = driver.Context(api="compat", width=4, height=4)
    coords = ctx.glGetIntegerv(E.GL_MAX_TEXTURE_COORDS)[0]
    ctx.glMultiTexCoord4f(E.GL_TEXTURE0 + coords - 1, 0.5, 0.25, 0.0, 1.0)
    ctx.glActiveTexture(E.GL_TEXTURE0 + coords - 1)
    assert ctx.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [0.5, 0.25, 0.0, 1.0]
    ctx.glActiveTexture(E.GL_TEXTURE0)
    assert ctx.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [0.0, 0.0, 0.0, 1.0]
