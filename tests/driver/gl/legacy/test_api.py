"""Legacy GL API behaviour on the recording pipe (no GPU): Begin/End rules
and errors, immediate-mode vertices reaching the draw, display lists,
attribute stacks, glGet of legacy state, the state block in constant
buffer 15 and the fixed-function program cache."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from driver.gallium import PipePrim
from driver.gl import enums as E
from driver.gl.compat import STATE_CONSTANT_BUFFER
from driver.gl.legacy.ffgen import FragmentKey, UnitKey, VertexKey, fragment_source, vertex_source
from driver.gl.legacy.stateblock import state_layout
from driver.gl.glsl import compile_glsl
from tests.driver.gl.conftest import make_ctx


@pytest.fixture
def gl():
    return make_ctx("compat")


def err(gl):
    return gl.glGetError()


def vertex_rows(gl, count, comps=4):
    """The positions of the last draw (gl_Vertex is vertex element 0)."""
    vb = gl.pipe.last("set_vertex_buffers")[0][0]
    raw = bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 4 * comps * count])
    return np.frombuffer(raw, np.float32).reshape(count, comps)


def state_block(gl):
    cb = [a for n, a in gl.pipe.calls if n == "set_constant_buffer" and a[1] == STATE_CONSTANT_BUFFER][-1][2]
    return bytes(cb.user_buffer)


# -- Begin / End -------------------------------------------------------------------------------
def test_begin_end_draws_the_vertices_with_every_size_and_type(gl):
    gl.glBegin(E.GL_TRIANGLES)
    gl.glVertex2s(1, 2)
    gl.glVertex3iv([3, 4, 5])
    gl.glVertex4d(6.0, 7.0, 8.0, 2.0)
    gl.glEnd()
    assert err(gl) == E.GL_NO_ERROR
    info, _, _, draws = gl.pipe.last("draw_vbo")
    assert info.mode == PipePrim.TRIANGLES and draws[0].count == 3
    assert vertex_rows(gl, 3).tolist() == [[1, 2, 0, 1], [3, 4, 5, 1], [6, 7, 8, 2]]


@pytest.mark.parametrize("mode", [E.GL_POINTS, E.GL_LINES, E.GL_LINE_LOOP, E.GL_LINE_STRIP, E.GL_TRIANGLES,
                                  E.GL_TRIANGLE_STRIP, E.GL_TRIANGLE_FAN, E.GL_QUADS, E.GL_QUAD_STRIP,
                                  E.GL_POLYGON])
def test_every_primitive(gl, mode):
    gl.glBegin(mode)
    for i in range(4):
        gl.glVertex2f(i, i % 2)
    gl.glEnd()
    assert err(gl) == E.GL_NO_ERROR
    info, _, _, draws = gl.pipe.last("draw_vbo")
    assert info.mode == PipePrim(mode) and draws[0].count == 4


def test_begin_end_errors(gl):
    gl.glBegin(0x1234)
    assert err(gl) == E.GL_INVALID_ENUM
    gl.glEnd()
    assert err(gl) == E.GL_INVALID_OPERATION
    # errors between Begin and End are read after End: glGetError there returns 0 (and is
    # itself INVALID_OPERATION)
    for refused in (lambda: gl.glBegin(E.GL_POINTS),
                    lambda: gl.glEnable(E.GL_LIGHTING),          # not allowed between Begin and End
                    lambda: gl.glIsEnabled(E.GL_LIGHTING),       # so is glIsEnabled
                    lambda: gl.glGetError()):
        gl.glBegin(E.GL_POINTS)
        assert refused() in (None, E.GL_NO_ERROR)
        gl.glEnd()
        assert err(gl) == E.GL_INVALID_OPERATION and err(gl) == E.GL_NO_ERROR
    gl.glBegin(E.GL_POINTS)
    gl.glColor3f(1, 0, 0)                           # allowed
    gl.glNormal3f(0, 1, 0)
    gl.glMaterialf(E.GL_FRONT, E.GL_SHININESS, 5.0)
    gl.glEnd()
    assert err(gl) == E.GL_NO_ERROR
    assert not gl.glIsEnabled(E.GL_LIGHTING)
    assert gl.glGetFloatv(E.GL_CURRENT_COLOR) == [1, 0, 0, 1]


def test_current_values_recorded_per_vertex(gl):
    gl.glBegin(E.GL_LINES)
    gl.glColor4ub(255, 0, 0, 255)
    gl.glTexCoord2f(0.5, 0.25)
    gl.glVertex2f(0, 0)
    gl.glColor3f(0, 1, 0)
    gl.glVertex2f(1, 1)
    gl.glEnd()
    assert gl.glGetFloatv(E.GL_CURRENT_COLOR) == [0, 1, 0, 1]
    assert gl.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [0.5, 0.25, 0, 1]


def test_rect_and_edge_flag_and_fog_coord(gl):
    gl.glEdgeFlag(False)
    gl.glFogCoordf(3.5)
    gl.glRecti(0, 0, 2, 1)
    info, _, _, draws = gl.pipe.last("draw_vbo")
    assert info.mode == PipePrim.POLYGON and draws[0].count == 4
    assert gl.glGetBooleanv(E.GL_EDGE_FLAG) == [False]
    assert gl.glGetFloatv(E.GL_CURRENT_FOG_COORD) == [3.5]


def test_polygon_mode_line_draws_boundaries_with_edge_flags(gl):
    gl.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
    gl.glBegin(E.GL_QUADS)
    for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)):
        gl.glEdgeFlag(x != 1 or y != 0)              # drop the edge starting at (1, 0)
        gl.glVertex2f(x * 0.5, y * 0.5)
    gl.glEnd()
    info, _, _, draws = gl.pipe.last("draw_vbo")
    assert info.mode == PipePrim.LINES and draws[0].count == 6   # 3 of the 4 edges, no diagonal
    gl.glEnable(E.GL_CULL_FACE)                       # a clockwise quad is a back face: culled
    gl.glBegin(E.GL_POLYGON)
    for x, y in ((0, 0), (0, 1), (1, 1), (1, 0)):
        gl.glVertex2f(x * 0.5, y * 0.5)
    gl.glEnd()
    assert gl.pipe.names().count("draw_vbo") == 1


def test_array_element_and_interleaved_arrays(gl):
    data = np.array([[1, 0, 0, 10, 20, 30], [0, 1, 0, 40, 50, 60]], np.float32)
    gl.glInterleavedArrays(E.GL_C3F_V3F, 0, data)
    assert gl.glIsEnabled(E.GL_COLOR_ARRAY) and gl.glIsEnabled(E.GL_VERTEX_ARRAY)
    assert not gl.glIsEnabled(E.GL_NORMAL_ARRAY)
    gl.glBegin(E.GL_LINES)
    gl.glArrayElement(1)
    gl.glArrayElement(0)
    gl.glEnd()
    assert vertex_rows(gl, 2).tolist() == [[40, 50, 60, 1], [10, 20, 30, 1]]
    assert gl.glGetFloatv(E.GL_CURRENT_COLOR) == [1, 0, 0, 1]       # the last element's colour
    gl.glInterleavedArrays(0x1234, 0, data)
    assert err(gl) == E.GL_INVALID_ENUM


def test_immediate_mode_leaves_client_arrays_alone(gl):
    before = np.zeros(8, np.float32)
    gl.glVertexPointer(2, E.GL_FLOAT, 0, before)
    gl.glBegin(E.GL_POINTS)
    gl.glVertex2f(1, 1)
    gl.glEnd()
    assert not gl.glIsEnabled(E.GL_VERTEX_ARRAY)
    assert gl.glGetPointerv(E.GL_VERTEX_ARRAY_POINTER).read(0, 32) == before.tobytes()


# -- display lists -------------------------------------------------------------------------------
def test_compile_records_without_executing(gl):
    n = gl.glGenLists(2)
    assert n == 1 and gl.glIsList(1) and gl.glIsList(2) and not gl.glIsList(3)
    gl.glNewList(n, E.GL_COMPILE)
    assert gl.glGetIntegerv(E.GL_LIST_INDEX) == [n] and gl.glGetIntegerv(E.GL_LIST_MODE) == [E.GL_COMPILE]
    gl.glColor3f(0, 0, 1)
    gl.glEnable(E.GL_FOG)
    gl.glEndList()
    assert gl.glGetFloatv(E.GL_CURRENT_COLOR) == [1, 1, 1, 1] and not gl.glIsEnabled(E.GL_FOG)
    gl.glCallList(n)
    assert gl.glGetFloatv(E.GL_CURRENT_COLOR) == [0, 0, 1, 1] and gl.glIsEnabled(E.GL_FOG)


def test_compile_and_execute_and_nesting(gl):
    gl.glNewList(5, E.GL_COMPILE)
    gl.glTranslatef(1, 0, 0)
    gl.glEndList()
    gl.glNewList(6, E.GL_COMPILE_AND_EXECUTE)
    gl.glCallList(5)
    gl.glCallList(5)
    gl.glEndList()
    assert gl.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12] == 2      # executed while compiled
    gl.glLoadIdentity()
    gl.glCallList(6)
    assert gl.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12] == 2      # nested lists run at call time
    gl.glNewList(5, E.GL_COMPILE)                              # redefining 5 changes list 6
    gl.glTranslatef(0, 1, 0)
    gl.glEndList()
    gl.glLoadIdentity()
    gl.glCallList(6)
    assert gl.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12:14] == [0, 2]


def test_immediate_commands_run_at_compile_time(gl):
    """GL 2.1 section 5.4: Gen*, Get*, client state ... are not compiled."""
    gl.glNewList(1, E.GL_COMPILE)
    tex = gl.glGenTextures(1)
    gl.glEnableClientState(E.GL_VERTEX_ARRAY)
    gl.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 2)
    gl.glEndList()
    assert tex == [1] and gl.glIsEnabled(E.GL_VERTEX_ARRAY)
    assert gl.glGetIntegerv(E.GL_UNPACK_ALIGNMENT) == [2]


def test_errors_of_compiled_commands_come_at_execution(gl):
    gl.glNewList(1, E.GL_COMPILE)
    gl.glEnable(0x1234)
    gl.glEndList()
    assert err(gl) == E.GL_NO_ERROR
    gl.glCallList(1)
    assert err(gl) == E.GL_INVALID_ENUM


def test_list_errors(gl):
    gl.glNewList(0, E.GL_COMPILE)
    assert err(gl) == E.GL_INVALID_VALUE
    gl.glNewList(1, 0x1234)
    assert err(gl) == E.GL_INVALID_ENUM
    gl.glEndList()
    assert err(gl) == E.GL_INVALID_OPERATION
    gl.glNewList(1, E.GL_COMPILE)
    gl.glNewList(2, E.GL_COMPILE)
    assert err(gl) == E.GL_INVALID_OPERATION
    gl.glEndList()
    assert gl.glGenLists(-1) is None and err(gl) == E.GL_INVALID_VALUE
    assert gl.glGenLists(0) == 0
    gl.glCallList(999)                                          # undefined lists do nothing
    assert err(gl) == E.GL_NO_ERROR


def test_call_lists_with_base_and_types(gl):
    for name, dx in ((10, 1), (11, 10), (12, 100)):
        gl.glNewList(name, E.GL_COMPILE)
        gl.glTranslatef(dx, 0, 0)
        gl.glEndList()
    gl.glListBase(10)
    assert gl.glGetIntegerv(E.GL_LIST_BASE) == [10]
    gl.glCallLists(3, E.GL_UNSIGNED_BYTE, bytes([0, 2, 2]))
    assert gl.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12] == 201
    gl.glLoadIdentity()
    gl.glCallLists(2, E.GL_2_BYTES, bytes([0, 1, 0, 2]))
    assert gl.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12] == 110
    gl.glLoadIdentity()
    gl.glCallLists(2, E.GL_INT, np.array([1, 1], np.int32))
    assert gl.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12] == 20
    gl.glDeleteLists(10, 3)
    assert not gl.glIsList(11)


def test_immediate_mode_in_a_list_copies_client_data(gl):
    v = np.array([1.0, 2.0, 3.0], np.float32)
    gl.glNewList(1, E.GL_COMPILE)
    gl.glBegin(E.GL_POINTS)
    gl.glVertex3fv(v)
    gl.glEnd()
    gl.glEndList()
    v[:] = 9
    assert "draw_vbo" not in gl.pipe.names()
    gl.glCallList(1)
    assert vertex_rows(gl, 1).tolist() == [[1, 2, 3, 1]]


def test_vertex_arrays_are_dereferenced_at_compile_time(gl):
    data = np.array([[0, 0], [1, 0], [0, 1]], np.float32)
    gl.glEnableClientState(E.GL_VERTEX_ARRAY)
    gl.glVertexPointer(2, E.GL_FLOAT, 0, data)
    gl.glNewList(1, E.GL_COMPILE)
    gl.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    gl.glBegin(E.GL_POINTS)
    gl.glArrayElement(2)
    gl.glEnd()
    gl.glEndList()
    gl.glVertexPointer(2, E.GL_FLOAT, 0, np.full((3, 2), 9, np.float32))
    gl.glCallList(1)
    names = gl.pipe.names()
    first_draw = names.index("draw_vbo")
    vbs = [a for n, a in gl.pipe.calls[:first_draw] if n == "set_vertex_buffers"][-1]
    vb = vbs[0][0]
    raw = np.frombuffer(bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 24]), np.float32)
    assert raw.tolist() == [0, 0, 1, 0, 0, 1] and names.count("draw_vbo") == 2
    assert vertex_rows(gl, 1).tolist() == [[0, 1, 0, 1]]          # the compiled element


# -- attribute stacks ----------------------------------------------------------------------------
def test_push_pop_attrib_restores_the_groups_in_the_mask(gl):
    gl.glPushAttrib(E.GL_LIGHTING_BIT | E.GL_ENABLE_BIT)
    gl.glEnable(E.GL_LIGHTING)
    gl.glLightfv(E.GL_LIGHT3, E.GL_DIFFUSE, [0.5, 0.5, 0.5, 1])
    gl.glShadeModel(E.GL_FLAT)
    gl.glFogf(E.GL_FOG_DENSITY, 2.0)                    # FOG_BIT: not in the mask
    assert gl.glGetIntegerv(E.GL_ATTRIB_STACK_DEPTH) == [1]
    gl.glPopAttrib()
    assert not gl.glIsEnabled(E.GL_LIGHTING)
    assert gl.glGetLightfv(E.GL_LIGHT3, E.GL_DIFFUSE) == [0, 0, 0, 1]
    assert gl.glGetIntegerv(E.GL_SHADE_MODEL) == [E.GL_SMOOTH]
    assert gl.glGetFloatv(E.GL_FOG_DENSITY) == [2.0]


def test_push_attrib_current_texture_and_depth(gl):
    gl.glPushAttrib(E.GL_ALL_ATTRIB_BITS)
    gl.glColor3f(0.5, 0.5, 0.5)
    gl.glActiveTexture(E.GL_TEXTURE2)
    gl.glEnable(E.GL_TEXTURE_2D)
    gl.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_DECAL)
    gl.glDepthFunc(E.GL_GREATER)
    gl.glViewport(1, 2, 3, 4)
    gl.glPopAttrib()
    assert gl.glGetFloatv(E.GL_CURRENT_COLOR) == [1, 1, 1, 1]
    assert gl.glGetIntegerv(E.GL_ACTIVE_TEXTURE) == [E.GL_TEXTURE0]
    gl.glActiveTexture(E.GL_TEXTURE2)
    assert not gl.glIsEnabled(E.GL_TEXTURE_2D)
    assert gl.glGetTexEnviv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE) == [E.GL_MODULATE]
    assert gl.glGetIntegerv(E.GL_DEPTH_FUNC) == [E.GL_LESS]
    assert gl.glGetIntegerv(E.GL_VIEWPORT) == [0, 0, 64, 32]


def test_attrib_stack_limits(gl):
    gl.glPopAttrib()
    assert err(gl) == E.GL_STACK_UNDERFLOW
    for _ in range(16):
        gl.glPushAttrib(E.GL_CURRENT_BIT)
    gl.glPushAttrib(E.GL_CURRENT_BIT)
    assert err(gl) == E.GL_STACK_OVERFLOW
    gl.glPopClientAttrib()
    assert err(gl) == E.GL_STACK_UNDERFLOW


def test_client_attrib_stack(gl):
    gl.glPushClientAttrib(E.GL_CLIENT_ALL_ATTRIB_BITS)
    gl.glEnableClientState(E.GL_COLOR_ARRAY)
    gl.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
    gl.glClientActiveTexture(E.GL_TEXTURE3)
    gl.glPopClientAttrib()
    assert not gl.glIsEnabled(E.GL_COLOR_ARRAY)
    assert gl.glGetIntegerv(E.GL_PACK_ALIGNMENT) == [4]
    assert gl.glGetIntegerv(E.GL_CLIENT_ACTIVE_TEXTURE) == [E.GL_TEXTURE0]


# -- legacy state and glGet -----------------------------------------------------------------------
def test_light_position_and_spot_direction_are_in_eye_space(gl):
    gl.glTranslatef(1, 2, 3)
    gl.glLightfv(E.GL_LIGHT0, E.GL_POSITION, [0, 0, 0, 1])
    gl.glRotatef(90, 0, 0, 1)
    gl.glLightfv(E.GL_LIGHT0, E.GL_SPOT_DIRECTION, [1, 0, 0])
    assert gl.glGetLightfv(E.GL_LIGHT0, E.GL_POSITION) == [1, 2, 3, 1]
    assert np.allclose(gl.glGetLightfv(E.GL_LIGHT0, E.GL_SPOT_DIRECTION), [0, 1, 0], atol=1e-12)


def test_light_and_material_defaults_and_errors(gl):
    assert gl.glGetLightfv(E.GL_LIGHT0, E.GL_DIFFUSE) == [1, 1, 1, 1]
    assert gl.glGetLightfv(E.GL_LIGHT1, E.GL_DIFFUSE) == [0, 0, 0, 1]
    assert gl.glGetMaterialfv(E.GL_FRONT, E.GL_AMBIENT) == pytest.approx([0.2, 0.2, 0.2, 1])
    gl.glLightf(E.GL_LIGHT0, E.GL_SPOT_CUTOFF, 95.0)
    assert err(gl) == E.GL_INVALID_VALUE
    gl.glLightf(E.GL_LIGHT0, E.GL_SPOT_EXPONENT, 129.0)
    assert err(gl) == E.GL_INVALID_VALUE
    gl.glMaterialf(E.GL_FRONT, E.GL_SHININESS, -1.0)
    assert err(gl) == E.GL_INVALID_VALUE
    gl.glLightfv(E.GL_LIGHT0 + 8, E.GL_DIFFUSE, [1, 1, 1, 1])
    assert err(gl) == E.GL_INVALID_ENUM


def test_color_material_tracks_the_current_colour(gl):
    gl.glColorMaterial(E.GL_FRONT_AND_BACK, E.GL_DIFFUSE)
    gl.glEnable(E.GL_COLOR_MATERIAL)
    gl.glColor3f(0.25, 0.5, 0.75)
    assert gl.glGetMaterialfv(E.GL_BACK, E.GL_DIFFUSE) == [0.25, 0.5, 0.75, 1]
    assert gl.glGetIntegerv(E.GL_COLOR_MATERIAL_PARAMETER) == [E.GL_DIFFUSE]


def test_fog_texenv_texgen_point_gets(gl):
    gl.glFogi(E.GL_FOG_MODE, E.GL_LINEAR)
    gl.glFogfv(E.GL_FOG_COLOR, [0.5, 0.25, 0, 1])
    gl.glFogi(E.GL_FOG_MODE, E.GL_TRIANGLES)
    assert err(gl) == E.GL_INVALID_ENUM
    assert gl.glGetIntegerv(E.GL_FOG_MODE) == [E.GL_LINEAR]
    assert gl.glGetFloatv(E.GL_FOG_COLOR) == [0.5, 0.25, 0, 1]
    gl.glTexEnvfv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR, [2, 0.5, -1, 1])      # clamped
    assert gl.glGetTexEnvfv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR) == [1, 0.5, 0, 1]
    gl.glTexEnvf(E.GL_TEXTURE_ENV, E.GL_RGB_SCALE, 3.0)
    assert err(gl) == E.GL_INVALID_VALUE
    gl.glTexGeni(E.GL_Q, E.GL_TEXTURE_GEN_MODE, E.GL_SPHERE_MAP)
    assert err(gl) == E.GL_INVALID_ENUM
    gl.glTranslatef(0, 0, 2)
    gl.glTexGenfv(E.GL_S, E.GL_EYE_PLANE, [0, 0, 1, 0])
    assert gl.glGetTexGenfv(E.GL_S, E.GL_EYE_PLANE) == [0, 0, 1, -2]        # p M^-1
    gl.glPointParameterfv(E.GL_POINT_DISTANCE_ATTENUATION, [1, 0.5, 0.25])
    assert gl.glGetFloatv(E.GL_POINT_DISTANCE_ATTENUATION) == [1, 0.5, 0.25]
    gl.glLineStipple(3, 0xAAAA)
    assert gl.glGetIntegerv(E.GL_LINE_STIPPLE_REPEAT) == [3]


def test_texture_enables_are_per_unit(gl):
    gl.glActiveTexture(E.GL_TEXTURE1)
    gl.glEnable(E.GL_TEXTURE_2D)
    gl.glEnable(E.GL_TEXTURE_GEN_S)
    assert gl.glIsEnabled(E.GL_TEXTURE_2D) and gl.glGetBooleanv(E.GL_TEXTURE_GEN_S) == [True]
    gl.glActiveTexture(E.GL_TEXTURE0)
    assert not gl.glIsEnabled(E.GL_TEXTURE_2D) and not gl.glIsEnabled(E.GL_TEXTURE_GEN_S)


def test_raster_position(gl):
    gl.glRasterPos2f(0.5, -0.5)                 # identity matrices, viewport 64 x 32
    assert gl.glGetFloatv(E.GL_CURRENT_RASTER_POSITION) == [48, 8, 0.5, 1]
    assert gl.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [True]
    gl.glRasterPos3f(2, 0, 0)                   # outside the view volume
    assert gl.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [False]
    gl.glWindowPos2i(5, 6)
    assert gl.glGetFloatv(E.GL_CURRENT_RASTER_POSITION)[:2] == [5, 6]


def test_raster_colour_is_lit(gl):
    gl.glEnable(E.GL_LIGHTING)
    gl.glEnable(E.GL_LIGHT0)                     # white, directional along +z; normal +z
    gl.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, [0.5, 0.25, 1.0, 0.75])
    gl.glRasterPos2f(0, 0)
    assert gl.glGetFloatv(E.GL_CURRENT_RASTER_COLOR) == pytest.approx([0.54, 0.29, 1.0, 0.75])


def test_accumulation_buffer_is_absent(gl):
    gl.glAccum(E.GL_LOAD, 1.0)
    assert err(gl) == E.GL_INVALID_OPERATION
    assert gl.glGetIntegerv(E.GL_ACCUM_RED_BITS) == [0]


def test_legacy_commands_are_compat_only():
    core = make_ctx("gl33")
    core.glBegin(E.GL_TRIANGLES)
    assert core.glGetError() == E.GL_INVALID_OPERATION
    core.glNewList(1, E.GL_COMPILE)
    assert core.glGetError() == E.GL_INVALID_OPERATION
    core.glTexImage2D(E.GL_TEXTURE_2D, 0, 3, 1, 1, 0, E.GL_RGB, E.GL_UNSIGNED_BYTE, bytes(3))
    assert core.glGetError() == E.GL_INVALID_VALUE


def test_evaluators_issue_vertices_without_touching_current_values(gl):
    pts = np.array([[0, 0, 0], [1, 2, 0], [2, 0, 0]], np.float32)
    gl.glMap1f(E.GL_MAP1_VERTEX_3, 0.0, 1.0, 3, 3, pts)
    gl.glMap1f(E.GL_MAP1_COLOR_4, 0.0, 1.0, 4, 2, np.array([[1, 0, 0, 1], [0, 0, 1, 1]], np.float32))
    gl.glEnable(E.GL_MAP1_VERTEX_3)
    gl.glEnable(E.GL_MAP1_COLOR_4)
    assert gl.glGetMapiv(E.GL_MAP1_VERTEX_3, E.GL_ORDER) == [3]
    assert gl.glGetMapfv(E.GL_MAP1_VERTEX_3, E.GL_DOMAIN) == [0, 1]
    gl.glMapGrid1f(2, 0.0, 1.0)
    gl.glEvalMesh1(E.GL_LINE, 0, 2)
    info, _, _, draws = gl.pipe.last("draw_vbo")
    assert info.mode == PipePrim.LINE_STRIP and draws[0].count == 3
    assert vertex_rows(gl, 3).tolist() == [[0, 0, 0, 1], [1, 1, 0, 1], [2, 0, 0, 1]]   # Bezier midpoint
    assert gl.glGetFloatv(E.GL_CURRENT_COLOR) == [1, 1, 1, 1]
    gl.glMap1f(E.GL_MAP1_VERTEX_3, 1.0, 1.0, 3, 3, pts)
    assert err(gl) == E.GL_INVALID_VALUE
    gl.glMap2f(E.GL_MAP2_NORMAL, 0, 1, 3, 31, 0, 1, 93, 1, np.zeros(93 * 31, np.float32))
    assert err(gl) == E.GL_INVALID_VALUE                                   # order > MAX_EVAL_ORDER


def test_selection_and_feedback_state(gl):
    gl.glRenderMode(E.GL_SELECT)
    assert err(gl) == E.GL_INVALID_OPERATION                               # no select buffer
    gl.glSelectBuffer(64)
    gl.glRenderMode(E.GL_SELECT)
    gl.glInitNames()
    gl.glPushName(7)
    gl.glLoadName(8)
    assert gl.glGetIntegerv(E.GL_NAME_STACK_DEPTH) == [1]
    assert gl.glRenderMode(E.GL_RENDER) == 0
    assert gl.glAreTexturesResident(0, []) == []


# -- the state block and the generated programs ----------------------------------------------------
def test_state_block_holds_the_builtin_uniforms(gl):
    gl.glLightfv(E.GL_LIGHT2, E.GL_SPECULAR, [0.1, 0.2, 0.3, 0.4])
    gl.glFogf(E.GL_FOG_START, 2.0)
    gl.glFogf(E.GL_FOG_END, 6.0)
    gl.glMaterialf(E.GL_BACK, E.GL_SHININESS, 7.0)
    gl.glRectf(0, 0, 1, 1)
    block, layout = state_block(gl), state_layout()

    def at(name, n=4):
        return list(struct.unpack_from(f"<{n}f", block, layout[name][0]))
    assert at("gl_LightSource[2].specular") == pytest.approx([0.1, 0.2, 0.3, 0.4])
    assert at("gl_Fog.scale", 1) == [0.25]
    assert at("gl_BackMaterial.shininess", 1) == [7.0]
    assert at("gl_LightSource[0].spotCosCutoff", 1) == pytest.approx([-1.0])


def test_user_shaders_read_the_same_state(gl):
    """GLSL 1.20 built-ins are laid out by the same table the driver copies from."""
    layout = state_layout()
    for name in ("gl_LightSource[7].quadraticAttenuation", "gl_FrontLightProduct[3].specular",
                 "gl_EyePlaneQ", "gl_TextureMatrixInverseTranspose", "gl_NormalScale", "gl_Point.sizeMax"):
        assert name in layout
    assert layout["gl_TextureMatrix"][1:] == (64, 8)


def test_fixed_function_programs_are_cached_by_state_key(gl):
    gl.glRectf(0, 0, 1, 1)
    gl.glRectf(0, 0, 1, 1)
    assert len(gl._ff_programs) == 1
    gl.glEnable(E.GL_LIGHTING)
    gl.glEnable(E.GL_LIGHT0)
    gl.glRectf(0, 0, 1, 1)
    gl.glLightfv(E.GL_LIGHT0, E.GL_DIFFUSE, [0.5, 0.5, 0.5, 1])     # a value: same program
    gl.glRectf(0, 0, 1, 1)
    assert len(gl._ff_programs) == 2
    gl.glDisable(E.GL_LIGHTING)
    gl.glRectf(0, 0, 1, 1)
    assert len(gl._ff_programs) == 2


def _all_keys():
    from driver.gl.legacy.ffgen import LightKey
    yield VertexKey(), FragmentKey()
    yield (VertexKey(lighting=True, lights=(LightKey(0, True, False, False), LightKey(3, False, True, True)),
                     two_side=True, local_viewer=True, separate_specular=True,
                     color_material=(E.GL_FRONT, E.GL_AMBIENT_AND_DIFFUSE), normalize=True,
                     texcoords=((0, (E.GL_SPHERE_MAP, E.GL_SPHERE_MAP, 0, 0)),
                                (1, (E.GL_OBJECT_LINEAR, E.GL_EYE_LINEAR, E.GL_REFLECTION_MAP, E.GL_EYE_LINEAR)),
                                (2, (E.GL_NORMAL_MAP,) * 3 + (0,))),
                     fog_coord=E.GL_FOG_COORD, point_attenuation=True),
           FragmentKey(units=(UnitKey(0, E.GL_TEXTURE_2D, E.GL_INTENSITY, E.GL_BLEND),
                              UnitKey(1, E.GL_TEXTURE_CUBE_MAP, E.GL_RGBA, E.GL_COMBINE,
                                      (E.GL_DOT3_RGBA, E.GL_ADD, (E.GL_TEXTURE0, E.GL_PREVIOUS, E.GL_CONSTANT),
                                       (E.GL_SRC_COLOR,) * 3, (E.GL_TEXTURE,) * 3, (E.GL_SRC_ALPHA,) * 3,
                                       (2.0, 4.0))),
                              UnitKey(2, E.GL_TEXTURE_3D, E.GL_ALPHA, E.GL_ADD)),
                       color_sum=True, fog_mode=E.GL_EXP2))
    yield VertexKey(lighting=True), FragmentKey(units=(UnitKey(0, E.GL_TEXTURE_1D, E.GL_LUMINANCE_ALPHA, E.GL_DECAL),))


@pytest.mark.parametrize("vkey, fkey", list(_all_keys()))
def test_generated_sources_compile(vkey, fkey):
    for src, stage in ((vertex_source(vkey), "vertex"), (fragment_source(fkey), "fragment")):
        res = compile_glsl(src, stage)
        assert res.ok, res.info_log + "\n" + src


def test_generated_vertex_stage_with_every_feature_compiles_in_the_backend():
    from compiler.compile import compile_glsl as backend_compile
    vkey, _ = list(_all_keys())[1]
    backend_compile(vertex_source(vkey), "vertex", {})
