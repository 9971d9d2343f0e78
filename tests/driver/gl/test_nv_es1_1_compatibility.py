"""GL_NV_ES1_1_compatibility (NVIDIA's, unpublished; Mesa lists it): OpenGL ES 1.1's
own commands -- every fixed-point command and glOrthof, glFrustumf, glClipPlanef,
glGetClipPlanef -- exist in compatibility contexts. Each fixed-point command leaves
the state its float command leaves with value / 65536 (enums unscaled), checked on
two contexts against each other and against values by hand (Mesa 22.3's llvmpipe
takes glOrthof, glAlphaFuncx, glColor4x and glClipPlanef in a compatibility context
the same way)."""

import numpy as np
import pytest

from driver.gl import enums as E
from driver.gl.features.gles1 import ES1_ONLY

ONE = 65536


def make(api="compat"):
    import driver
    return driver.Context(api=api, width=4, height=4)


def x(v):
    return int(round(v * ONE))


def test_listed_in_compatibility_only_and_the_commands_exist():
    c = make()
    assert "GL_NV_ES1_1_compatibility" in c.glGetString(E.GL_EXTENSIONS).split()
    core = make("gl46")
    core.glOrthof(0, 1, 0, 1, -1, 1)
    assert core.glGetError() == E.GL_INVALID_OPERATION
    es2 = make("gles2")
    es2.glColor4x(ONE, 0, 0, ONE)
    assert es2.glGetError() == E.GL_INVALID_OPERATION
    from driver.gl.entrypoints import context_commands
    assert ES1_ONLY <= context_commands(c.api)
    assert not ES1_ONLY & context_commands(core.api)


# (fixed-point call, float call giving the same state, the query that shows it)
CASES = [
    (("glAlphaFuncx", E.GL_GREATER, x(0.5)), ("glAlphaFunc", E.GL_GREATER, 0.5), E.GL_ALPHA_TEST_REF),
    (("glClearColorx", x(0.25), x(0.5), x(0.75), ONE), ("glClearColor", 0.25, 0.5, 0.75, 1.0),
     E.GL_COLOR_CLEAR_VALUE),
    (("glClearDepthx", x(0.25)), ("glClearDepth", 0.25), E.GL_DEPTH_CLEAR_VALUE),
    (("glColor4x", ONE, x(0.5), 0, ONE), ("glColor4f", 1.0, 0.5, 0.0, 1.0), E.GL_CURRENT_COLOR),
    (("glDepthRangex", x(0.25), x(0.75)), ("glDepthRange", 0.25, 0.75), E.GL_DEPTH_RANGE),
    (("glFogx", E.GL_FOG_MODE, E.GL_LINEAR), ("glFogi", E.GL_FOG_MODE, E.GL_LINEAR), E.GL_FOG_MODE),
    (("glFogx", E.GL_FOG_DENSITY, x(2.5)), ("glFogf", E.GL_FOG_DENSITY, 2.5), E.GL_FOG_DENSITY),
    (("glFogxv", E.GL_FOG_COLOR, [x(0.5), 0, ONE, ONE]), ("glFogfv", E.GL_FOG_COLOR, [0.5, 0, 1, 1]),
     E.GL_FOG_COLOR),
    (("glLightModelx", E.GL_LIGHT_MODEL_TWO_SIDE, ONE), ("glLightModelf", E.GL_LIGHT_MODEL_TWO_SIDE, 1.0),
     E.GL_LIGHT_MODEL_TWO_SIDE),
    (("glLightModelxv", E.GL_LIGHT_MODEL_AMBIENT, [x(0.5)] * 4), ("glLightModelfv", E.GL_LIGHT_MODEL_AMBIENT,
                                                                    [0.5] * 4), E.GL_LIGHT_MODEL_AMBIENT),
    (("glLineWidthx", x(2.0)), ("glLineWidth", 2.0), E.GL_LINE_WIDTH),
    (("glMultiTexCoord4x", E.GL_TEXTURE1, ONE, 2 * ONE, 0, ONE), ("glMultiTexCoord4f", E.GL_TEXTURE1, 1, 2, 0, 1),
     None),
    (("glNormal3x", 0, ONE, 0), ("glNormal3f", 0.0, 1.0, 0.0), E.GL_CURRENT_NORMAL),
    (("glPointSizex", x(3.0)), ("glPointSize", 3.0), E.GL_POINT_SIZE),
    (("glPointParameterx", E.GL_POINT_SIZE_MIN, x(2.0)), ("glPointParameterf", E.GL_POINT_SIZE_MIN, 2.0),
     E.GL_POINT_SIZE_MIN),
    (("glPointParameterxv", E.GL_POINT_DISTANCE_ATTENUATION, [ONE, x(0.5), 0]),
     ("glPointParameterfv", E.GL_POINT_DISTANCE_ATTENUATION, [1.0, 0.5, 0.0]), E.GL_POINT_DISTANCE_ATTENUATION),
    (("glPolygonOffsetx", x(1.5), x(-2.0)), ("glPolygonOffset", 1.5, -2.0), E.GL_POLYGON_OFFSET_UNITS),
    (("glSampleCoveragex", x(0.5), 1), ("glSampleCoverage", 0.5, 1), E.GL_SAMPLE_COVERAGE_VALUE),
    (("glTexEnvx", E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_DECAL),
     ("glTexEnvi", E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_DECAL), None),
]


@pytest.mark.parametrize("fixed,float_,query", CASES, ids=[c[0][0] + str(i) for i, c in enumerate(CASES)])
def test_fixed_point_commands_leave_the_float_commands_state(fixed, float_, query):
    a, b = make(), make()
    getattr(a, fixed[0])(*fixed[1:])
    getattr(b, float_[0])(*float_[1:])
    assert a.glGetError() == E.GL_NO_ERROR and b.glGetError() == E.GL_NO_ERROR
    if query is not None:
        assert a.glGetFloatv(query) == b.glGetFloatv(query)
        if fixed[0] != "glFogx" or fixed[1] != E.GL_FOG_MODE:
            assert a.glGetFixedv(query) == [x(v) for v in b.glGetFloatv(query)]
    elif fixed[0] == "glMultiTexCoord4x":
        a.glActiveTexture(E.GL_TEXTURE1)
        assert a.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [1.0, 2.0, 0.0, 1.0]
    else:
        assert a.glGetTexEnvxv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE) == [E.GL_DECAL]


def test_matrices():
    c = make()
    c.glMatrixMode(E.GL_PROJECTION)
    c.glOrthof(0, 2, 0, 4, -1, 1)
    m = np.array(c.glGetFloatv(E.GL_PROJECTION_MATRIX)).reshape(4, 4)
    assert m[0, 0] == 1.0 and m[1, 1] == 0.5 and m[3, 0] == -1.0 and m[3, 1] == -1.0
    c.glLoadIdentity()
    c.glFrustumf(-1, 1, -1, 1, 1, 3)
    f = np.array(c.glGetFloatv(E.GL_PROJECTION_MATRIX)).reshape(4, 4)
    assert f[0, 0] == 1.0 and f[2, 2] == -2.0 and f[2, 3] == -1.0 and f[3, 2] == -3.0
    c.glMatrixMode(E.GL_MODELVIEW)
    c.glTranslatex(ONE, 2 * ONE, 0)
    c.glScalex(2 * ONE, ONE, ONE)
    c.glRotatex(90 * ONE, 0, 0, ONE)
    d = make()
    d.glTranslatef(1, 2, 0)
    d.glScalef(2, 1, 1)
    d.glRotatef(90, 0, 0, 1)
    assert np.allclose(c.glGetFloatv(E.GL_MODELVIEW_MATRIX), d.glGetFloatv(E.GL_MODELVIEW_MATRIX), atol=1e-6)
    ident = [ONE, 0, 0, 0, 0, ONE, 0, 0, 0, 0, ONE, 0, 3 * ONE, 0, 0, ONE]
    c.glLoadMatrixx(ident)
    c.glMultMatrixx(ident)
    assert c.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12] == 6.0
    assert c.glGetFixedv(E.GL_MODELVIEW_MATRIX)[12] == 6 * ONE
    c.glOrthox(0, 2 * ONE, 0, 4 * ONE, -ONE, ONE)
    assert c.glGetError() == E.GL_NO_ERROR


def test_clip_planes_lights_materials_and_texture_parameters():
    c = make()
    c.glClipPlanef(E.GL_CLIP_PLANE0, [1.0, 2.0, 3.0, 4.0])
    assert c.glGetClipPlanef(E.GL_CLIP_PLANE0) == [1.0, 2.0, 3.0, 4.0]
    assert c.glGetClipPlane(E.GL_CLIP_PLANE0) == [1.0, 2.0, 3.0, 4.0]
    c.glClipPlanex(E.GL_CLIP_PLANE1, [ONE, 0, x(-0.5), 0])
    assert c.glGetClipPlanex(E.GL_CLIP_PLANE1) == [ONE, 0, x(-0.5), 0]
    c.glLightx(E.GL_LIGHT0, E.GL_SPOT_EXPONENT, 4 * ONE)
    c.glLightxv(E.GL_LIGHT0, E.GL_DIFFUSE, [x(0.5), x(0.25), 0, ONE])
    assert c.glGetLightfv(E.GL_LIGHT0, E.GL_SPOT_EXPONENT) == [4.0]
    assert c.glGetLightxv(E.GL_LIGHT0, E.GL_DIFFUSE) == [x(0.5), x(0.25), 0, ONE]
    c.glMaterialx(E.GL_FRONT_AND_BACK, E.GL_SHININESS, 10 * ONE)
    c.glMaterialxv(E.GL_FRONT_AND_BACK, E.GL_AMBIENT, [0, x(0.5), 0, ONE])
    assert c.glGetMaterialfv(E.GL_FRONT, E.GL_SHININESS) == [10.0]
    assert c.glGetMaterialxv(E.GL_BACK, E.GL_AMBIENT) == [0, x(0.5), 0, ONE]
    t = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexParameterx(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)     # an enum: unscaled
    c.glTexParameterxv(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, [E.GL_CLAMP_TO_EDGE])
    assert c.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER) == [E.GL_NEAREST]
    assert c.glGetTexParameterxv(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S) == [E.GL_CLAMP_TO_EDGE]
    c.glTexEnvxv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR, [ONE, 0, x(0.5), ONE])
    assert c.glGetTexEnvfv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR) == [1.0, 0.0, 0.5, 1.0]
    assert c.glGetError() == E.GL_NO_ERROR


def test_fixed_point_colour_between_begin_and_end_and_in_lists():
    c = make()
    lst = c.glGenLists(1)
    c.glNewList(lst, E.GL_COMPILE)
    c.glColor4x(0, ONE, 0, ONE)
    c.glEndList()
    assert c.glGetFloatv(E.GL_CURRENT_COLOR) == [1.0, 1.0, 1.0, 1.0]
    c.glCallList(lst)
    assert c.glGetFloatv(E.GL_CURRENT_COLOR) == [0.0, 1.0, 0.0, 1.0]
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glBegin(E.GL_QUADS)
    c.glColor4x(ONE, 0, 0, ONE)
    for px, py in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex2f(px, py)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR
    data = np.frombuffer(bytes(c.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(16, 4)
    assert (data == [255, 0, 0, 255]).all()
