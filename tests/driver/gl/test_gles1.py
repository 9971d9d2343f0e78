"""OpenGL ES 1.1 contexts (the common profile): the context request, the
version string, the command set (ES 1.1's commands only, the ES 1.1-only
commands nowhere else), the fixed-point entry points against hand-computed
values, and client arrays of ES 1.1's types."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.api import api_for_request
from driver.gl.features.gles1 import ES1_COMMANDS, ES1_ONLY, float_to_fixed

N = 16


def X(f: float) -> int:
    """f as GLfixed (S15.16)."""
    return int(round(f * 65536))


def es1(w=N, h=N):
    return driver.Context(api="gles1", width=w, height=h)


def test_requests_for_es_1_0_and_1_1_get_the_es_1_1_context():
    for minor in (0, 1):
        api = api_for_request(True, 1, minor)
        assert (api.name, api.es, api.version, api.es1, api.compat) == ("gles1", True, (1, 1), True, True)
    assert not api_for_request(True, 2, 0).es1 and not api_for_request(True, 2, 0).compat


def test_strings():
    ctx = es1()
    assert ctx.glGetString(E.GL_VERSION).startswith("OpenGL ES-CM 1.1")
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_commands_of_other_apis_are_invalid_operation():
    ctx = es1()
    for call in (lambda: ctx.glBegin(E.GL_TRIANGLES), lambda: ctx.glCreateShader(E.GL_VERTEX_SHADER),
                 lambda: ctx.glGenVertexArrays(1), lambda: ctx.glRectf(0, 0, 1, 1),
                 lambda: ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)):
        assert call() is None
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
    # nothing happened: no shader, no begin/end block (glColor4f still works)
    ctx.glColor4f(0.5, 0.25, 0.0, 1.0)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetFloatv(E.GL_CURRENT_COLOR) == [0.5, 0.25, 0.0, 1.0]


@pytest.mark.parametrize("api", ["gles2", "gl33", "gl46"])     # compatibility: NV_ES1_1_compatibility
def test_es1_only_commands_are_invalid_operation_elsewhere(api):
    ctx = driver.Context(api=api, width=4, height=4)
    for name, args in (("glColor4x", (1, 1, 1, 1)), ("glOrthof", (-1, 1, -1, 1, -1, 1)),
                       ("glGetFixedv", (E.GL_VIEWPORT,)), ("glClipPlanef", (E.GL_CLIP_PLANE0, [1, 0, 0, 0]))):
        assert name in ES1_ONLY
        assert getattr(ctx, name)(*args) is None
        assert ctx.glGetError() == E.GL_INVALID_OPERATION, name


def test_the_command_set_is_the_registrys():
    # ES 1.1 has 144 core commands (Khronos registry, feature GL_VERSION_ES_CM_1_0 with the
    # common profile); every one is implemented
    from driver.gl import missing_entry_points, entry_points
    assert missing_entry_points("gles1") == []
    assert len(entry_points("gles1")) == 144
    assert {"glOrthof", "glColor4x", "glGetFixedv", "glPointParameterxv"} <= set(entry_points("gles1"))
    assert "glBegin" not in ES1_COMMANDS and "glCreateShader" not in ES1_COMMANDS


def test_float_to_fixed_truncates_and_clamps():
    assert float_to_fixed(1.0) == 65536 and float_to_fixed(-0.5) == -32768
    assert float_to_fixed(1.0 / 65536 * 0.75) == 0           # truncated towards zero
    assert float_to_fixed(1e10) == 2**31 - 1 and float_to_fixed(-1e10) == -2**31
    assert float_to_fixed(float("nan")) == 0


def test_fixed_point_matrices():
    ctx = es1()
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrthox(X(-2), X(2), X(-4), X(4), X(-1), X(3))
    # GL equation 12.4: 2/(r-l)=0.5, 2/(t-b)=0.25, -2/(f-n)=-0.5, tz=-(f+n)/(f-n)=-0.5
    assert ctx.glGetFixedv(E.GL_PROJECTION_MATRIX) == [
        X(0.5), 0, 0, 0, 0, X(0.25), 0, 0, 0, 0, X(-0.5), 0, 0, 0, X(-0.5), X(1)]
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glTranslatex(X(1.5), X(-2), X(0.25))
    ctx.glScalex(X(2), X(2), X(2))
    ctx.glRotatex(X(90), 0, 0, X(1))
    m = np.array(ctx.glGetFloatv(E.GL_MODELVIEW_MATRIX)).reshape(4, 4).T
    expect = np.array([[0, -2, 0, 1.5], [2, 0, 0, -2], [0, 0, 2, 0.25], [0, 0, 0, 1]])
    assert np.allclose(m, expect, atol=1e-6)
    ctx.glLoadMatrixx([X(v) for v in range(16)])
    assert ctx.glGetFloatv(E.GL_MODELVIEW_MATRIX) == [float(v) for v in range(16)]
    ctx.glFrustumf(-1, 1, -1, 1, 1, 3)
    ctx.glLoadIdentity()
    ctx.glFrustumx(X(-1), X(1), X(-1), X(1), 0, X(3))          # near = 0: INVALID_VALUE
    assert ctx.glGetError() == E.GL_INVALID_VALUE
    assert ctx.glGetFloatv(E.GL_MODELVIEW_MATRIX) == list(np.eye(4).ravel())
    # GetFixedv: enums unscaled, integers and floats in S15.16
    assert ctx.glGetFixedv(E.GL_MATRIX_MODE) == [E.GL_MODELVIEW]
    assert ctx.glGetFixedv(E.GL_VIEWPORT) == [0, 0, X(N), X(N)]


def test_fixed_point_parameters_scale_values_not_enums():
    ctx = es1()
    ctx.glFogx(E.GL_FOG_MODE, E.GL_LINEAR)
    ctx.glFogxv(E.GL_FOG_COLOR, [X(0.25), X(0.5), X(0.75), X(1)])
    ctx.glFogx(E.GL_FOG_END, X(3.5))
    assert ctx.glGetIntegerv(E.GL_FOG_MODE) == [E.GL_LINEAR]
    assert ctx.glGetFloatv(E.GL_FOG_COLOR) == [0.25, 0.5, 0.75, 1.0]
    assert ctx.glGetFloatv(E.GL_FOG_END) == [3.5]
    ctx.glTexEnvx(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_DECAL)
    ctx.glTexEnvx(E.GL_TEXTURE_ENV, E.GL_RGB_SCALE, X(2))
    assert ctx.glGetTexEnvxv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE) == [E.GL_DECAL]
    assert ctx.glGetTexEnvxv(E.GL_TEXTURE_ENV, E.GL_RGB_SCALE) == [X(2)]
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexParameterx(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    assert ctx.glGetTexParameterxv(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER) == [E.GL_NEAREST]
    ctx.glLightx(E.GL_LIGHT1, E.GL_SPOT_CUTOFF, X(45))
    ctx.glLightxv(E.GL_LIGHT1, E.GL_DIFFUSE, [X(0.5), 0, X(1), X(1)])
    assert ctx.glGetLightxv(E.GL_LIGHT1, E.GL_SPOT_CUTOFF) == [X(45)]
    assert ctx.glGetLightfv(E.GL_LIGHT1, E.GL_DIFFUSE) == [0.5, 0.0, 1.0, 1.0]
    ctx.glMaterialx(E.GL_FRONT_AND_BACK, E.GL_SHININESS, X(12.5))
    assert ctx.glGetMaterialxv(E.GL_FRONT, E.GL_SHININESS) == [X(12.5)]
    ctx.glLightModelx(E.GL_LIGHT_MODEL_TWO_SIDE, 1)
    assert ctx.glGetIntegerv(E.GL_LIGHT_MODEL_TWO_SIDE) == [1]
    ctx.glPointSizex(X(3.5))
    ctx.glLineWidthx(X(2))
    ctx.glPointParameterx(E.GL_POINT_SIZE_MIN, X(1.5))
    ctx.glPointParameterxv(E.GL_POINT_DISTANCE_ATTENUATION, [X(1), X(0.5), 0])
    assert ctx.glGetFloatv(E.GL_POINT_SIZE) == [3.5] and ctx.glGetFloatv(E.GL_LINE_WIDTH) == [2.0]
    assert ctx.glGetFloatv(E.GL_POINT_SIZE_MIN) == [1.5]
    assert ctx.glGetFloatv(E.GL_POINT_DISTANCE_ATTENUATION) == [1.0, 0.5, 0.0]
    ctx.glAlphaFuncx(E.GL_GREATER, X(0.5))
    ctx.glDepthRangex(X(0.25), X(0.75))
    ctx.glClearDepthx(X(0.5))
    ctx.glPolygonOffsetx(X(1), X(2))
    ctx.glSampleCoveragex(X(0.5), 0)
    assert ctx.glGetFloatv(E.GL_ALPHA_TEST_REF) == [0.5]
    assert ctx.glGetFloatv(E.GL_DEPTH_RANGE) == [0.25, 0.75]
    assert ctx.glGetFloatv(E.GL_DEPTH_CLEAR_VALUE) == [0.5]
    assert ctx.glGetFloatv(E.GL_POLYGON_OFFSET_UNITS) == [2.0]
    assert ctx.glGetFloatv(E.GL_SAMPLE_COVERAGE_VALUE) == [0.5]
    ctx.glClipPlanex(E.GL_CLIP_PLANE0, [X(1), 0, 0, X(0.5)])
    assert ctx.glGetClipPlanex(E.GL_CLIP_PLANE0) == [X(1), 0, 0, X(0.5)]
    assert ctx.glGetClipPlanef(E.GL_CLIP_PLANE0) == [1.0, 0.0, 0.0, 0.5]
    ctx.glMultiTexCoord4x(E.GL_TEXTURE1, X(0.5), X(1), 0, X(1))
    ctx.glNormal3x(0, X(-1), 0)
    assert ctx.glGetFloatv(E.GL_CURRENT_NORMAL) == [0.0, -1.0, 0.0]
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glLightModelx(E.GL_LIGHT_MODEL_AMBIENT, 0)        # a vector parameter: INVALID_ENUM
    assert ctx.glGetError() == E.GL_INVALID_ENUM


def test_draw_with_fixed_arrays_and_fixed_colour():
    """A GL_FIXED triangle strip covering the left half in glColor4x's colour,
    a GL_BYTE one with a GL_UNSIGNED_BYTE colour array on the right half."""
    ctx = es1()
    ctx.glClearColorx(0, 0, X(1), X(1))
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrthof(0, N, 0, N, -1, 1)
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    left = np.array([0, 0, N // 2, 0, 0, N, N // 2, N], np.int32) * 65536
    ctx.glVertexPointer(2, E.GL_FIXED, 0, left.tobytes())
    ctx.glColor4x(X(1), X(0.5), 0, X(1))
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    right = np.array([N // 2, 0, N, 0, N // 2, N, N, N], np.int8)
    ctx.glVertexPointer(2, E.GL_BYTE, 0, right.tobytes())
    ctx.glEnableClientState(E.GL_COLOR_ARRAY)
    ctx.glColorPointer(4, E.GL_UNSIGNED_BYTE, 0, bytes([0, 255, 64, 255] * 4))
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = ctx.read_pixels().astype(int)
    assert (img[:, :N // 2] == [255, 128, 0, 255]).all()
    assert (img[:, N // 2:] == [0, 255, 64, 255]).all()


def test_client_arrays_take_es1_sizes_and_types():
    ctx = es1()
    ctx.glColorPointer(3, E.GL_FLOAT, 0, bytes(48))           # ES 1.1: colours have 4 components
    assert ctx.glGetError() == E.GL_INVALID_VALUE
    ctx.glVertexPointer(2, E.GL_DOUBLE, 0, bytes(64))         # no doubles in ES 1.1
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    ctx.glTexCoordPointer(2, E.GL_FIXED, 0, bytes(32))
    ctx.glNormalPointer(E.GL_BYTE, 0, bytes(12))
    assert ctx.glGetError() == E.GL_NO_ERROR
