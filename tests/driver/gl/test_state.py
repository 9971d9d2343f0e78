"""Fixed state, glEnable, glGet conversions, GetError (GL 4.6 ch. 2, 17, 22)."""

import pytest

from driver.gl import enums as E
from driver.gl.api import MAX_GL_VERSION
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


def test_first_error_sticks_until_read(es3):
    # GL 4.6 section 2.3.1: only the first error is recorded
    es3.glDepthFunc(0)
    es3.glViewport(0, 0, -1, 1)
    assert es3.glGetError() == E.GL_INVALID_ENUM
    assert es3.glGetError() == E.GL_NO_ERROR


def test_initial_state(any_ctx):
    c = any_ctx
    assert c.glGetIntegerv(E.GL_VIEWPORT) == [0, 0, 64, 32]
    assert c.glGetIntegerv(E.GL_SCISSOR_BOX) == [0, 0, 64, 32]
    assert c.glIsEnabled(E.GL_DITHER) and not c.glIsEnabled(E.GL_BLEND)
    assert c.glGetIntegerv(E.GL_DEPTH_FUNC) == [E.GL_LESS]
    assert c.glGetFloatv(E.GL_DEPTH_RANGE) == [0.0, 1.0]
    assert c.glGetBooleanv(E.GL_COLOR_WRITEMASK) == [True] * 4
    assert c.glGetIntegerv(E.GL_STENCIL_VALUE_MASK) == [0xFFFFFFFF]
    assert c.glGetIntegerv(E.GL_UNPACK_ALIGNMENT) == [4]
    assert c.glGetError() == E.GL_NO_ERROR


def test_enable_rejects_unknown_caps_per_api():
    es2 = make_ctx("gles2")
    es2.glEnable(E.GL_PRIMITIVE_RESTART_FIXED_INDEX)       # ES 3.0 only
    expect(es2, E.GL_INVALID_ENUM)
    core = make_ctx("gl43")
    core.glEnable(E.GL_ALPHA_TEST)                         # removed from core
    expect(core, E.GL_INVALID_ENUM)
    compat = make_ctx("compat")
    compat.glEnable(E.GL_ALPHA_TEST)
    assert compat.glIsEnabled(E.GL_ALPHA_TEST)
    compat.glIsEnabled(0x1234)
    expect(compat, E.GL_INVALID_ENUM)


def test_blend_state_and_errors(es3):
    es3.glBlendFuncSeparate(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA, E.GL_ONE, E.GL_ZERO)
    assert es3.glGetIntegerv(E.GL_BLEND_SRC_RGB) == [E.GL_SRC_ALPHA]
    assert es3.glGetIntegerv(E.GL_BLEND_DST_RGB) == [E.GL_ONE_MINUS_SRC_ALPHA]
    es3.glBlendFunc(E.GL_SRC1_ALPHA, 0x1234)                # not a blend factor
    expect(es3, E.GL_INVALID_ENUM)
    assert es3.glGetIntegerv(E.GL_BLEND_SRC_RGB) == [E.GL_SRC_ALPHA]   # unchanged
    es3.glBlendEquationSeparate(E.GL_FUNC_SUBTRACT, E.GL_MAX)
    assert es3.glGetIntegerv(E.GL_BLEND_EQUATION_ALPHA) == [E.GL_MAX]
    es3.glBlendEquation(E.GL_LOGIC_OP)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glBlendColor(0.5, -2.0, 3.0, 1.0)                   # not clamped (GL 3.0+)
    assert es3.glGetFloatv(E.GL_BLEND_COLOR) == [0.5, -2.0, 3.0, 1.0]


def test_es2_min_max_come_with_the_advertised_extension():
    c = make_ctx("gles2")
    assert "GL_EXT_blend_minmax" in c.glGetString(E.GL_EXTENSIONS).split()
    c.glBlendEquation(E.GL_MIN)
    assert c.glGetIntegerv(E.GL_BLEND_EQUATION_RGB) == [E.GL_MIN]
    # (SRC_ALPHA_SATURATE as a destination factor: GLES 3.0, or EXT_blend_func_extended,
    # which every GLES 2.0 context here has: test_gles_blend_func_extended.py)
    c.glBindVertexArray(0)                                # no OES_vertex_array_object
    expect(c, E.GL_INVALID_OPERATION)


def test_separate_stencil(es3):
    es3.glStencilFuncSeparate(E.GL_BACK, E.GL_EQUAL, 3, 0x0F)
    es3.glStencilOpSeparate(E.GL_FRONT, E.GL_ZERO, E.GL_INCR_WRAP, E.GL_INVERT)
    es3.glStencilMaskSeparate(E.GL_BACK, 0x55)
    assert es3.glGetIntegerv(E.GL_STENCIL_BACK_FUNC) == [E.GL_EQUAL]
    assert es3.glGetIntegerv(E.GL_STENCIL_BACK_REF) == [3]
    assert es3.glGetIntegerv(E.GL_STENCIL_FUNC) == [E.GL_ALWAYS]
    assert es3.glGetIntegerv(E.GL_STENCIL_PASS_DEPTH_FAIL) == [E.GL_INCR_WRAP]
    assert es3.glGetIntegerv(E.GL_STENCIL_BACK_WRITEMASK) == [0x55]
    es3.glStencilFuncSeparate(E.GL_FRONT_LEFT, E.GL_EQUAL, 0, 0)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_ONE)
    expect(es3, E.GL_INVALID_ENUM)
    assert es3.glGetIntegerv(E.GL_STENCIL_FAIL) == [E.GL_ZERO]


def test_viewport_scissor_errors_and_clamp(es3):
    es3.glViewport(1, 2, -3, 4)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glScissor(0, 0, 1, -1)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glViewport(-5, 2, 1 << 20, 10)     # clamped to MAX_VIEWPORT_DIMS (13.8.1)
    assert es3.glGetIntegerv(E.GL_VIEWPORT) == [-5, 2, es3.caps.max_viewport_size_px, 10]


def test_depth_range_and_clear_values_clamped(es3):
    es3.glDepthRangef(-1.0, 2.0)
    assert es3.glGetFloatv(E.GL_DEPTH_RANGE) == [0.0, 1.0]
    es3.glClearDepthf(1.5)
    assert es3.glGetFloatv(E.GL_DEPTH_CLEAR_VALUE) == [1.0]


def test_get_integer_maps_normalized_values(es3):
    # GL 4.6 section 2.2.2: colour values map [-1, 1] to the full int range
    es3.glClearColor(1.0, 0.0, -1.0, 0.5)
    r, g, b, a = es3.glGetIntegerv(E.GL_COLOR_CLEAR_VALUE)
    assert (r, g, b) == (0x7FFFFFFF, 0, -0x80000000)
    assert abs(a - 0x3FFFFFFF) <= 1
    es3.glLineWidth(2.6)
    assert es3.glGetIntegerv(E.GL_LINE_WIDTH) == [3]     # rounded, not normalised


def test_cull_front_face_polygon_offset(any_ctx):
    c = any_ctx
    c.glCullFace(E.GL_FRONT_AND_BACK)
    c.glFrontFace(E.GL_CW)
    c.glPolygonOffset(1.5, 2.0)
    assert c.glGetIntegerv(E.GL_CULL_FACE_MODE) == [E.GL_FRONT_AND_BACK]
    assert c.glGetIntegerv(E.GL_FRONT_FACE) == [E.GL_CW]
    assert c.glGetFloatv(E.GL_POLYGON_OFFSET_FACTOR) == [1.5]
    c.glFrontFace(E.GL_FRONT)
    expect(c, E.GL_INVALID_ENUM)
    c.glLineWidth(0)
    expect(c, E.GL_INVALID_VALUE)


def test_polygon_mode_core_needs_front_and_back():
    c = make_ctx("gl33")
    c.glPolygonMode(E.GL_FRONT, E.GL_LINE)
    expect(c, E.GL_INVALID_ENUM)
    c.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
    assert c.glGetIntegerv(E.GL_POLYGON_MODE) == [E.GL_LINE, E.GL_LINE]
    es = make_ctx("gles3")
    es.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
    expect(es, E.GL_INVALID_OPERATION)


@pytest.mark.parametrize("api,ok", [("gles2", False), ("gles3", True), ("gl33", True)])
def test_pixel_store(api, ok, monkeypatch):
    """GLES 2.0's own rule, without EXT_unpack_subimage (which shimgl lists:
    tests/driver/gl/test_gles_ext_commands.py checks what it allows)."""
    from driver.gl.api import Api
    has = Api.has_extension
    monkeypatch.setattr(Api, "has_extension", lambda a, name: name != "GL_EXT_unpack_subimage" and has(a, name))
    c = make_ctx(api)
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 3)
    expect(c, E.GL_INVALID_VALUE)
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 8)
    assert c.glGetIntegerv(E.GL_UNPACK_ALIGNMENT) == [8]
    c.glPixelStorei(E.GL_UNPACK_ROW_LENGTH, 7)
    if ok:
        assert c.glGetIntegerv(E.GL_UNPACK_ROW_LENGTH) == [7]
        c.glPixelStorei(E.GL_UNPACK_ROW_LENGTH, -1)
        expect(c, E.GL_INVALID_VALUE)
    else:
        expect(c, E.GL_INVALID_ENUM)


def test_hint(es3):
    es3.glHint(E.GL_GENERATE_MIPMAP_HINT, E.GL_NICEST)
    assert es3.glGetIntegerv(E.GL_GENERATE_MIPMAP_HINT) == [E.GL_NICEST]
    es3.glHint(E.GL_GENERATE_MIPMAP_HINT, E.GL_ONE)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glHint(E.GL_LINE_SMOOTH_HINT, E.GL_NICEST)     # desktop only
    expect(es3, E.GL_INVALID_ENUM)


def test_sample_coverage_and_mask():
    c = make_ctx("gles31")
    c.glSampleCoverage(2.0, True)
    assert c.glGetFloatv(E.GL_SAMPLE_COVERAGE_VALUE) == [1.0]
    assert c.glGetBooleanv(E.GL_SAMPLE_COVERAGE_INVERT) == [True]
    c.glSampleMaski(1, 0)
    expect(c, E.GL_INVALID_VALUE)
    c.glSampleMaski(0, 0x5)
    assert c.glGetIntegerv(E.GL_SAMPLE_MASK_VALUE) == [5]


@pytest.mark.parametrize("api,version,glsl", [
    ("gles2", "OpenGL ES 2.0", "OpenGL ES GLSL ES 1.00"),
    ("gles3", "OpenGL ES 3.0", "OpenGL ES GLSL ES 3.00"),
    ("gles31", "OpenGL ES 3.1", "OpenGL ES GLSL ES 3.10"),
    ("gl33", "3.3 (Core Profile)", "3.30"),
    ("gl43", "4.3 (Core Profile)", "4.30"),
    # the compatibility profile is at the newest version, as every core feature is in it
    ("compat", "%d.%d (Compatibility Profile)" % MAX_GL_VERSION, "%d.%d0" % MAX_GL_VERSION),
])
def test_version_strings(api, version, glsl):
    # GL 4.6 section 22.2 / ES 3.2 section 20.2: "<version><space><vendor info>"
    c = make_ctx(api)
    assert c.glGetString(E.GL_VERSION).startswith(version + " ")
    assert c.glGetString(E.GL_SHADING_LANGUAGE_VERSION) == glsl


def test_extensions_strings():
    core = make_ctx("gl43")
    core.glGetString(E.GL_EXTENSIONS)             # core: only via GetStringi
    expect(core, E.GL_INVALID_ENUM)
    n = core.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    names = [core.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)]
    assert "GL_ARB_compute_shader" in names
    core.glGetStringi(E.GL_EXTENSIONS, n)
    expect(core, E.GL_INVALID_VALUE)
    compat = make_ctx("compat")
    assert "GL_ARB_texture_rectangle" in compat.glGetString(E.GL_EXTENSIONS).split()
    nv = core.glGetIntegerv(E.GL_NUM_SHADING_LANGUAGE_VERSIONS)[0]
    assert core.glGetStringi(E.GL_SHADING_LANGUAGE_VERSION, nv - 1) == ""


def test_limits_meet_spec_minimums(any_ctx):
    c = any_ctx
    # GLES 2.0 table 6.18 / GL 4.6 table 23.53 minimums
    assert c.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0] >= (2048 if c.api.version >= (3, 0) else 64)
    assert c.glGetIntegerv(E.GL_MAX_VERTEX_ATTRIBS)[0] >= 8
    assert c.glGetIntegerv(E.GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0] >= 8
    if c.api.version >= (3, 0):
        assert c.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)[0] >= 4
        assert c.glGetIntegerv(E.GL_MAJOR_VERSION) == [c.api.version[0]]
    if c.api.gl_or_es((4, 3), (3, 1)):
        assert c.glGetIntegeri_v(E.GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0)[0] >= 128
        assert c.glGetIntegerv(E.GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS)[0] >= 128
    c.glGetIntegerv(0xFFFF)
    expect(c, E.GL_INVALID_ENUM)


def test_every_get_entry_answers_in_every_type(any_ctx):
    """Each pname of the context's Get table answers glGetIntegerv,
    glGetFloatv and glGetBooleanv with the same number of values."""
    c = any_ctx
    for pname in sorted(c._get_table):
        i, f, b = c.glGetIntegerv(pname), c.glGetFloatv(pname), c.glGetBooleanv(pname)
        assert c.glGetError() == E.GL_NO_ERROR, hex(pname)
        assert len(i) == len(f) == len(b) >= 0, hex(pname)


def test_implementation_read_format_follows_the_read_buffer():
    c = make_ctx("gles3")
    assert c.glGetIntegerv(E.GL_IMPLEMENTATION_COLOR_READ_TYPE) == [E.GL_UNSIGNED_BYTE]
    (f,) = c.glGenFramebuffers(1)
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, f)
    (r,) = c.glGenRenderbuffers(1)
    c.glBindRenderbuffer(E.GL_RENDERBUFFER, r)
    c.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32UI, 4, 4)
    c.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, r)
    assert c.glGetIntegerv(E.GL_IMPLEMENTATION_COLOR_READ_FORMAT) == [E.GL_RGBA_INTEGER]
    assert c.glGetIntegerv(E.GL_IMPLEMENTATION_COLOR_READ_TYPE) == [E.GL_UNSIGNED_INT]


def test_destroy_releases_pipe_objects():
    from tests.driver.gl.test_programs import program
    c = make_ctx("gles3")
    (b,) = c.glGenBuffers(1)
    c.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    c.glBufferData(E.GL_ARRAY_BUFFER, 4, None, E.GL_STATIC_DRAW)
    program(c)
    c.destroy()
    destroyed = c.screen.destroyed
    assert c.buffers.get(b).resource in destroyed and c.window.color in destroyed
    assert c.pipe.names().count("delete_shader_state") == 2
