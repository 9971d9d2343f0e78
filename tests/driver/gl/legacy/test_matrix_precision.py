"""The fixed-function matrix stacks hold single-precision matrices (GL 4.6
compatibility section 2.2.1: GL's matrices are float; Mesa keeps GLfloat): the
result of each matrix command is rounded to float32, so a matrix read back with
glGetFloatv and loaded again with glLoadMatrixf is the same matrix, bit for bit,
and glGetDoublev returns that float32 matrix. MuJoCo builds its shadow texgen
planes from glFrustum's product read back; with a float64 stack the planes and the
shadow pass differed by the product's rounding and every lit fragment failed the
depth comparison. Expected values: numpy's float32 rounding of the products."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E


def _reverse_z_projection(ctx):
    """MuJoCo's reverse-Z projection: translate z by 0.5, scale z by -0.5, frustum."""
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glLoadIdentity()
    ctx.glTranslatef(0.0, 0.0, 0.5)
    ctx.glScalef(1.0, 1.0, -0.5)
    ctx.glFrustum(-0.0062, 0.0062, -0.0047, 0.0047, 0.0113, 56.5)


def test_the_stack_holds_float32_products():
    ctx = driver.Context(api="compat", width=4, height=4)
    _reverse_z_projection(ctx)
    got = np.array(ctx.glGetDoublev(E.GL_PROJECTION_MATRIX), np.float64)
    assert (got.astype(np.float32).astype(np.float64) == got).all(), got     # float32 values
    # the z row's cancellation (0.5 w - 0.5 z with z ~ -1.0004 w) is where float64 and
    # float32 differ most: the stored value is the float32 rounding of the product
    n, f = 0.0113, 56.5
    exact = 0.5 * (f + n) / (f - n) - 0.5
    assert got[10] == float(np.float32(got[10])) and abs(got[10] - exact) <= np.spacing(np.float32(exact)), got[10]


def test_get_then_load_round_trips_bit_for_bit():
    ctx = driver.Context(api="compat", width=4, height=4)
    _reverse_z_projection(ctx)
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glRotatef(33.0, 0.2, 1.0, 0.1)
    ctx.glTranslatef(0.1, -2.0, 0.7)
    for pname, mode in ((E.GL_PROJECTION_MATRIX, E.GL_PROJECTION), (E.GL_MODELVIEW_MATRIX, E.GL_MODELVIEW)):
        before = np.array(ctx.glGetDoublev(pname), np.float64)
        ctx.glMatrixMode(mode)
        ctx.glLoadMatrixf(np.array(ctx.glGetFloatv(pname), np.float32))
        after = np.array(ctx.glGetDoublev(pname), np.float64)
        assert (before == after).all(), np.abs(before - after).max()
    assert ctx.glGetError() == E.GL_NO_ERROR
