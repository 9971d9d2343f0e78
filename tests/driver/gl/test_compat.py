"""Compatibility profile: matrix stacks, current values, legacy arrays,
shade model, clip planes, fixed-function stages (GL 4.6 compatibility
profile chapters 10, 12, 13)."""

import struct

import numpy as np
import pytest

from driver.gallium import PipeFormat, PipeShaderType
from driver.gl import enums as E
from driver.gl.compat import STATE_CONSTANT_BUFFER, state_uniform_layout
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_programs import program


def matrix(c, pname):
    return np.array(c.glGetFloatv(pname)).reshape(4, 4).T     # GL returns column-major


def test_ortho_and_frustum_match_the_spec(compat):
    c = compat
    c.glMatrixMode(E.GL_PROJECTION)
    c.glOrtho(0, 250, 0, 250, -1, 1)            # piglit's "ortho" command
    m = matrix(c, E.GL_PROJECTION_MATRIX)
    assert np.allclose(m @ [125, 125, 0, 1], [0, 0, 0, 1], atol=1e-6)     # single-precision matrices
    assert np.allclose(m @ [250, 0, 0, 1], [1, -1, 0, 1], atol=1e-6)
    c.glLoadIdentity()
    c.glFrustum(-1, 1, -1, 1, 1, 10)
    clip = matrix(c, E.GL_PROJECTION_MATRIX) @ [0, 0, -1, 1]
    assert np.isclose(clip[2] / clip[3], -1)    # near plane maps to ndc z = -1
    clip = matrix(c, E.GL_PROJECTION_MATRIX) @ [0, 0, -10, 1]
    assert np.isclose(clip[2] / clip[3], 1)
    c.glFrustum(-1, 1, -1, 1, 0, 10)
    expect(c, E.GL_INVALID_VALUE)


def test_modelview_transforms_and_stack(compat):
    c = compat
    c.glTranslatef(1, 2, 3)
    c.glRotatef(90, 0, 0, 1)
    c.glScalef(2, 2, 2)
    m = matrix(c, E.GL_MODELVIEW_MATRIX)
    assert np.allclose(m @ [1, 0, 0, 1], [1, 4, 3, 1])       # scale, rotate x->y, translate
    c.glPushMatrix()
    assert c.glGetIntegerv(E.GL_MODELVIEW_STACK_DEPTH) == [2]
    c.glLoadIdentity()
    c.glPopMatrix()
    assert np.allclose(matrix(c, E.GL_MODELVIEW_MATRIX), m)
    c.glPopMatrix()
    expect(c, E.GL_STACK_UNDERFLOW)
    for _ in range(31):
        c.glPushMatrix()
    c.glPushMatrix()
    expect(c, E.GL_STACK_OVERFLOW)


def test_load_matrix_is_column_major(compat):
    compat.glLoadMatrixf(list(range(16)))
    assert compat.glGetFloatv(E.GL_MODELVIEW_MATRIX) == [float(i) for i in range(16)]
    assert matrix(compat, E.GL_MODELVIEW_MATRIX)[0, 3] == 12.0


def test_texture_matrix_per_unit(compat):
    compat.glMatrixMode(E.GL_TEXTURE)
    compat.glActiveTexture(E.GL_TEXTURE1)
    compat.glScalef(2, 2, 2)
    compat.glActiveTexture(E.GL_TEXTURE0)
    assert matrix(compat, E.GL_TEXTURE_MATRIX)[0, 0] == 1.0
    compat.glActiveTexture(E.GL_TEXTURE1)
    assert matrix(compat, E.GL_TEXTURE_MATRIX)[0, 0] == 2.0


def test_legacy_entry_points_are_compat_only(core):
    core.glMatrixMode(E.GL_MODELVIEW)
    expect(core, E.GL_INVALID_OPERATION)
    core.glShadeModel(E.GL_FLAT)
    expect(core, E.GL_INVALID_OPERATION)
    core.glColor4f(1, 1, 1, 1)
    expect(core, E.GL_INVALID_OPERATION)


def test_current_values_and_shade_model(compat):
    compat.glColor4ub(255, 0, 51, 255)
    assert compat.glGetFloatv(E.GL_CURRENT_COLOR) == pytest.approx([1.0, 0.0, 0.2, 1.0])
    compat.glTexCoord2f(0.5, 0.25)
    assert compat.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [0.5, 0.25, 0.0, 1.0]
    compat.glShadeModel(E.GL_FLAT)
    assert compat.glGetIntegerv(E.GL_SHADE_MODEL) == [E.GL_FLAT]
    compat.glShadeModel(E.GL_FLAT + 7)
    expect(compat, E.GL_INVALID_ENUM)


def test_clip_plane_in_eye_space(compat):
    compat.glTranslatef(0, 0, -5)
    compat.glClipPlane(E.GL_CLIP_PLANE0, [0, 0, 1, 0])
    # p_eye = p * inverse(MV): z >= 0 in object space is z >= -5 in eye space
    assert compat.glGetClipPlane(E.GL_CLIP_PLANE0) == [0.0, 0.0, 1.0, 5.0]
    compat.glClipPlane(E.GL_CLIP_PLANE0 + 8, [0, 0, 0, 0])
    expect(compat, E.GL_INVALID_ENUM)
    compat.glEnable(E.GL_CLIP_PLANE0)
    compat.glRectf(0, 0, 1, 1)
    assert compat.pipe.last("set_clip_state")[0].ucp[0] == (0.0, 0.0, 1.0, 5.0)
    assert compat.pipe.last("create_rasterizer_state")[0].clip_plane_enable == 1


def test_draw_rect_the_piglit_way(compat):
    """piglit's draw rect without piglit_vertex: glVertexPointer from client
    memory + glEnableClientState + a triangle strip, fixed-function VS."""
    c = compat
    fs = "#version 110\nvoid main() { gl_FragColor = gl_Color * 0.5; }\n"
    p = program(c, vs=None, fs=fs)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    c.glUseProgram(p)
    c.glMatrixMode(E.GL_PROJECTION)
    c.glOrtho(0, 64, 0, 32, -1, 1)
    verts = np.array([0, 0, 64, 0, 0, 32, 64, 32], np.float32)
    c.glVertexPointer(2, E.GL_FLOAT, 0, verts)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    assert c.glIsEnabled(E.GL_VERTEX_ARRAY)
    c.glColor4f(0.0, 1.0, 0.0, 1.0)
    c.glShadeModel(E.GL_FLAT)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log
    elements = c.pipe.last("create_vertex_elements_state")[0]
    buffers = c.pipe.last("set_vertex_buffers")[0]
    attrs = c.current_program.linked_state.attributes
    assert attrs["gl_Vertex"][0] == 0 and "gl_Color" in attrs
    v = elements[attrs["gl_Vertex"][0]]
    assert v.src_format == PipeFormat.R32G32_FLOAT and v.src_stride_B == 8
    vb = buffers[v.vertex_buffer_index]
    assert bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 32]) == verts.tobytes()
    col = elements[attrs["gl_Color"][0]]                   # element i feeds location i
    assert col.src_stride_B == 0                           # the current colour
    cb = buffers[col.vertex_buffer_index]
    assert struct.unpack_from("<4f", cb.resource.storage, cb.offset_B) == (0.0, 1.0, 0.0, 1.0)
    assert c.pipe.last("create_rasterizer_state")[0].flatshade
    # the state constant buffer holds gl_ModelViewProjectionMatrix
    calls = [a for n, a in c.pipe.calls if n == "set_constant_buffer" and a[1] == STATE_CONSTANT_BUFFER]
    data = calls[-1][2].user_buffer
    off, _, _ = state_uniform_layout()["gl_ModelViewProjectionMatrix"]
    mvp = np.frombuffer(data, np.float32, 16, off).reshape(4, 4).T
    assert np.allclose(mvp @ [64, 32, 0, 1], [1, 1, 0, 1])


def test_no_program_uses_fixed_function(compat):
    compat.glVertexPointer(3, E.GL_FLOAT, 0, np.zeros(9, np.float32))
    compat.glEnableClientState(E.GL_VERTEX_ARRAY)
    compat.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert compat.glGetError() == E.GL_NO_ERROR, compat.error_log
    stages = {a[0].stage for n, a in compat.pipe.calls if n == "create_shader_state"}
    assert stages == {PipeShaderType.VERTEX, PipeShaderType.FRAGMENT}
    assert compat.pipe.names().count("draw_vbo") == 1


def test_legacy_pointer_errors(compat):
    compat.glVertexPointer(1, E.GL_FLOAT, 0, None)
    expect(compat, E.GL_INVALID_VALUE)
    compat.glColorPointer(4, E.GL_FLOAT, -1, None)
    expect(compat, E.GL_INVALID_VALUE)
    compat.glTexCoordPointer(2, E.GL_UNSIGNED_BYTE, 0, None)
    expect(compat, E.GL_INVALID_ENUM)
    compat.glEnableClientState(E.GL_BLEND)
    expect(compat, E.GL_INVALID_ENUM)


def test_current_value_variants(compat):
    compat.glColor3ub(255, 0, 0)
    assert compat.glGetFloatv(E.GL_CURRENT_COLOR) == [1.0, 0.0, 0.0, 1.0]
    compat.glColor4sv([32767, -32767, 0, 32767])
    assert compat.glGetFloatv(E.GL_CURRENT_COLOR) == [1.0, -1.0, 0.0, 1.0]
    compat.glMultiTexCoord3d(E.GL_TEXTURE0 + 2, 1, 2, 3)
    assert compat.legacy.current_texcoords[2] == (1.0, 2.0, 3.0, 1.0)
    compat.glTexCoord1f(0.5)
    assert compat.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [0.5, 0.0, 0.0, 1.0]
    compat.glColorP4ui(E.GL_UNSIGNED_INT_2_10_10_10_REV, 1023 | (3 << 30))
    assert compat.glGetFloatv(E.GL_CURRENT_COLOR) == [1.0, 0.0, 0.0, 1.0]
    compat.glMultiTexCoord2f(E.GL_TEXTURE0 + 9, 0, 0)
    expect(compat, E.GL_INVALID_ENUM)


def test_alpha_test_reaches_the_dsa_state(compat):
    from driver.gallium import PipeCompareFunc
    compat.glAlphaFunc(E.GL_GREATER, 1.5)
    assert compat.glGetFloatv(E.GL_ALPHA_TEST_REF) == [1.0]     # clamped
    compat.glEnable(E.GL_ALPHA_TEST)
    compat.glRectf(-1, -1, 1, 1)
    dsa = compat.pipe.last("create_depth_stencil_alpha_state")[0]
    assert dsa.alpha_enabled and dsa.alpha_func == PipeCompareFunc.GREATER
    compat.glAlphaFunc(0, 0.5)
    expect(compat, E.GL_INVALID_ENUM)


def test_rect_draws_a_polygon_and_restores_arrays(compat):
    from driver.gallium import PipePrim
    before = np.zeros(6, np.float32)
    compat.glVertexPointer(3, E.GL_FLOAT, 0, before)
    compat.glRectf(0, 0, 2, 1)
    info, _, _, draws = compat.pipe.last("draw_vbo")
    assert info.mode == PipePrim.POLYGON and draws[0].count == 4
    vb = compat.pipe.last("set_vertex_buffers")[0][0]
    xyzw = np.frombuffer(bytes(vb.resource.storage[vb.offset_B:vb.offset_B + 64]), np.float32)
    assert np.array_equal(xyzw.reshape(4, 4), [[0, 0, 0, 1], [2, 0, 0, 1], [2, 1, 0, 1], [0, 1, 0, 1]])
    assert not compat.glIsEnabled(E.GL_VERTEX_ARRAY)
    assert compat.glGetPointerv(E.GL_VERTEX_ARRAY_POINTER).read(0, 24) == before.tobytes()


def test_generated_stages_carry_their_source(compat):
    """Drivers may recompile ShaderState.source: fixed-function stages pass
    their generated GLSL, GLES shaders without #version their prefixed text."""
    compat.glRectf(0, 0, 1, 1)
    states = [a[0] for n, a in compat.pipe.calls if n == "create_shader_state"]
    assert all("void main()" in st.source for st in states) and len(states) == 2
    es = make_ctx("gles2")
    program(es, "attribute vec4 p;\nvoid main() { gl_Position = p; }\n",
            "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); }\n")
    states = [a[0] for n, a in es.pipe.calls if n == "create_shader_state"]
    assert all(st.source.startswith("#version 100\n") for st in states)


VS150_LEGACY = ("#version 150\nin vec4 piglit_vertex;\nvarying vec4 color;\n"
                "void main() { gl_Position = piglit_vertex; color = vec4(0.0, 1.0, 0.0, 1.0); }\n")
FS150_LEGACY = "#version 150\nvarying vec4 color;\nvoid main() { gl_FragColor = color; }\n"


@pytest.mark.parametrize("api, compat", [("compat", True), ("gl33", False), ("gl43", False)])
def test_glsl_150_keeps_deprecated_features_in_a_compatibility_context(api, compat):
    """Plain `#version 150` in a compatibility context is the compatibility
    profile: gl_FragColor and `varying` (Mesa: ARB_compatibility; piglit
    fs-determinant-mat4, primitive-id-no-gs-strip). In a core context (and with
    an explicit `core`) GLSL 1.50 still has gl_FragColor (core loses it in 4.20)
    and `varying` is deprecated, not removed: the program links and the
    shader's log warns, as Mesa."""
    c = make_ctx(api)
    for vs, fs, warns in ((VS150_LEGACY, FS150_LEGACY, not compat),
                          (VS150_LEGACY.replace("150", "150 core"), FS150_LEGACY.replace("150", "150 core"), True)):
        p = program(c, vs=vs, fs=fs)
        assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
        sh = c.glCreateShader(E.GL_FRAGMENT_SHADER)
        c.glShaderSource(sh, 1, [fs])
        c.glCompileShader(sh)
        assert ("`varying' is deprecated" in c.glGetShaderInfoLog(sh)) == warns


def test_glsl_150_compatibility_profile_reaches_the_gpu_compile():
    """A bare `#version 150` that the compatibility context made compatibility
    is compiled for the GPU as such (the profile travels in the shader key; the
    application's text is kept as written) and draws: gl_FragColor and
    `varying` of the compatibility profile reach the render target."""
    import driver
    c = driver.Context(api="compat", width=16, height=8)
    p = program(c, vs=VS150_LEGACY, fs=FS150_LEGACY)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    c.glUseProgram(p)
    loc = c.glGetAttribLocation(p, "piglit_vertex")
    verts = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
    c.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, verts)
    c.glEnableVertexAttribArray(loc)
    c.glClearColor(1.0, 0.0, 0.0, 1.0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    px = np.asarray(c.read_pixels())
    assert (px[..., :3].reshape(-1, 3) == [0, 255, 0]).all()
