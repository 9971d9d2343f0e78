"""GL_EXT_direct_state_access's commands through driver.Context(api="compat"):
each acts on the named object or selector, creates an unused name's object,
and leaves every binding and selector as it was. Listed in compatibility
contexts only (tests/driver/abi/c/ext_dsa.c drives the commands from C)."""

import numpy as np
import pytest

from driver.gl import enums as E


@pytest.fixture
def ctx():
    import driver
    c = driver.Context(api="compat", width=8, height=8)
    assert "GL_EXT_direct_state_access" in c.glGetString(E.GL_EXTENSIONS).split()
    return c


def test_listed_in_compatibility_contexts_only():
    import driver
    for api in ("gl33", "gl46"):
        c = driver.Context(api=api, width=4, height=4)
        names = [c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
        assert "GL_EXT_direct_state_access" not in names
        c.glMatrixLoadIdentityEXT(E.GL_PROJECTION)
        assert c.glGetError() == E.GL_INVALID_OPERATION


def ok(c):
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]


def test_matrix_commands_leave_the_matrix_mode(ctx):
    c = ctx
    c.glMatrixMode(E.GL_MODELVIEW)
    c.glMatrixLoadIdentityEXT(E.GL_PROJECTION)
    c.glMatrixTranslatefEXT(E.GL_PROJECTION, 1.0, 2.0, 3.0)
    c.glMatrixScalefEXT(E.GL_TEXTURE1, 2.0, 2.0, 2.0)          # unit 1's texture matrix
    c.glMatrixPushEXT(E.GL_PROJECTION)
    c.glMatrixLoadTransposefEXT(E.GL_PROJECTION, list(np.arange(16, dtype=float)))
    ok(c)
    assert c.glGetIntegerv(E.GL_MATRIX_MODE) == [E.GL_MODELVIEW]
    assert c.glGetIntegerv(E.GL_PROJECTION_STACK_DEPTH) == [2]
    # loaded transposed: the column-major answer, read as rows, is its transpose
    assert np.allclose(np.array(c.glGetFloatv(E.GL_PROJECTION_MATRIX)).reshape(4, 4).T.ravel(), np.arange(16))
    c.glMatrixPopEXT(E.GL_PROJECTION)
    assert np.allclose(np.array(c.glGetFloatv(E.GL_PROJECTION_MATRIX))[12:15], [1, 2, 3])
    assert c.glGetIntegerv(E.GL_ACTIVE_TEXTURE) == [E.GL_TEXTURE0]
    c.glActiveTexture(E.GL_TEXTURE1)
    assert np.allclose(np.array(c.glGetFloatv(E.GL_TEXTURE_MATRIX))[[0, 5, 10]], 2.0)
    c.glMatrixLoadIdentityEXT(0x1234)
    assert c.glGetError() == E.GL_INVALID_ENUM


def test_texture_commands_create_the_object_and_keep_the_binding(ctx):
    c = ctx
    bound = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, bound)
    c.glTextureParameteriEXT(40, E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)   # unused name: made
    texels = np.array([[10, 20, 30, 255]], np.uint8)
    c.glTextureImage2DEXT(40, E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                          texels.tobytes())
    ok(c)
    assert c.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [bound]
    assert c.glIsTexture(40)
    assert c.glGetTextureParameterivEXT(40, E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER) == [E.GL_NEAREST]
    got = c.glGetTextureImageEXT(40, E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    assert bytes(got) == texels.tobytes()
    c.glTextureParameteriEXT(40, E.GL_TEXTURE_3D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)    # 2D texture
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert c.glGetIntegerv(E.GL_TEXTURE_BINDING_3D) == [0]


def test_multitexture_commands_act_on_their_unit(ctx):
    c = ctx
    c.glMultiTexEnviEXT(E.GL_TEXTURE2, E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_DECAL)
    c.glBindMultiTextureEXT(E.GL_TEXTURE2, E.GL_TEXTURE_2D, 9)
    c.glMultiTexParameteriEXT(E.GL_TEXTURE2, E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE)
    c.glMultiTexGeniEXT(E.GL_TEXTURE2, E.GL_S, E.GL_TEXTURE_GEN_MODE, E.GL_EYE_LINEAR)
    ok(c)
    assert c.glGetIntegerv(E.GL_ACTIVE_TEXTURE) == [E.GL_TEXTURE0]
    assert c.glGetTexEnviv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE) == [E.GL_MODULATE]      # unit 0's
    assert c.glGetMultiTexEnvivEXT(E.GL_TEXTURE2, E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE) == [E.GL_DECAL]
    assert c.glGetIntegerIndexedvEXT(E.GL_TEXTURE_BINDING_2D, 2) == [9]
    assert c.glGetMultiTexParameterivEXT(E.GL_TEXTURE2, E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S) == [
        E.GL_CLAMP_TO_EDGE]
    assert c.glGetMultiTexGenivEXT(E.GL_TEXTURE2, E.GL_S, E.GL_TEXTURE_GEN_MODE) == [E.GL_EYE_LINEAR]
    c.glEnableIndexedEXT(E.GL_TEXTURE_2D, 3)
    assert c.glIsEnabledIndexedEXT(E.GL_TEXTURE_2D, 3) and not c.glIsEnabled(E.GL_TEXTURE_2D)
    c.glGetIntegerIndexedvEXT(E.GL_TEXTURE_BINDING_2D, 500)
    assert c.glGetError() == E.GL_INVALID_VALUE


def test_named_buffers_renderbuffers_and_framebuffers(ctx):
    c = ctx
    c.glNamedBufferDataEXT(21, 16, bytes(range(16)), E.GL_STATIC_DRAW)      # unused name: made
    c.glNamedBufferSubDataEXT(21, 4, 4, b"\xff" * 4)
    ok(c)
    assert c.glIsBuffer(21)
    assert bytes(c.glGetNamedBufferSubDataEXT(21, 0, 8)) == bytes([0, 1, 2, 3, 255, 255, 255, 255])
    assert c.glGetNamedBufferParameterivEXT(21, E.GL_BUFFER_SIZE) == [16]
    assert c.glGetIntegerv(E.GL_COPY_WRITE_BUFFER_BINDING) == [0]
    c.glNamedBufferDataEXT(0, 16, None, E.GL_STATIC_DRAW)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glNamedRenderbufferStorageEXT(5, E.GL_RGBA8, 4, 4)
    c.glNamedFramebufferRenderbufferEXT(6, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, 5)
    ok(c)
    assert c.glGetNamedRenderbufferParameterivEXT(5, E.GL_RENDERBUFFER_WIDTH) == [4]
    assert c.glCheckNamedFramebufferStatusEXT(6, E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    assert c.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING) == [0]
    assert c.glGetIntegerv(E.GL_RENDERBUFFER_BINDING) == [0]
    assert c.glGetNamedFramebufferAttachmentParameterivEXT(
        6, E.GL_COLOR_ATTACHMENT0, E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) == [5]


def test_named_arb_programs(ctx):
    c = ctx
    text = b"!!ARBfp1.0\nMOV result.color, program.local[2];\nEND\n"
    c.glNamedProgramStringEXT(3, E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(text), text)
    c.glNamedProgramLocalParameter4fEXT(3, E.GL_FRAGMENT_PROGRAM_ARB, 2, 0.25, 0.5, 0.75, 1.0)
    ok(c)
    assert c.glGetProgramivARB(E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_BINDING_ARB) == [0]
    assert c.glGetNamedProgramivEXT(3, E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_LENGTH_ARB) == [len(text)]
    assert c.glGetNamedProgramLocalParameterfvEXT(3, E.GL_FRAGMENT_PROGRAM_ARB, 2) == [0.25, 0.5, 0.75, 1.0]
    c.glBindProgramARB(E.GL_FRAGMENT_PROGRAM_ARB, 3)
    c.glEnable(E.GL_FRAGMENT_PROGRAM_ARB)
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex2f(x, y)
    c.glEnd()
    assert list(np.asarray(c.read_pixels())[4, 4]) == [64, 128, 191, 255]


def test_vertex_array_object_commands(ctx):
    c = ctx
    vao, other = c.glGenVertexArrays(2)
    buf = c.glGenBuffers(1)[0]
    c.glBindVertexArray(other)
    c.glVertexArrayVertexOffsetEXT(vao, buf, 3, E.GL_DOUBLE, 24, 8)          # generated, never bound
    c.glVertexArrayMultiTexCoordOffsetEXT(vao, buf, E.GL_TEXTURE3, 2, E.GL_FLOAT, 0, 4)
    c.glEnableVertexArrayEXT(vao, E.GL_VERTEX_ARRAY)
    c.glEnableVertexArrayEXT(vao, E.GL_TEXTURE3)
    ok(c)
    assert c.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) == [other]
    assert c.glGetIntegerv(E.GL_ARRAY_BUFFER_BINDING) == [0]
    assert c.glGetVertexArrayIntegervEXT(vao, E.GL_VERTEX_ARRAY_SIZE) == [3]
    assert c.glGetVertexArrayIntegervEXT(vao, E.GL_VERTEX_ARRAY_STRIDE) == [24]
    assert c.glGetVertexArrayIntegervEXT(vao, E.GL_VERTEX_ARRAY_BUFFER_BINDING) == [buf]
    assert c.glGetVertexArrayIntegeri_vEXT(vao, 3, E.GL_TEXTURE_COORD_ARRAY) == [1]
    assert c.glGetVertexArrayIntegervEXT(other, E.GL_VERTEX_ARRAY) == [0]
    c.glVertexArrayVertexOffsetEXT(777, buf, 3, E.GL_FLOAT, 0, 0)
    assert c.glGetError() == E.GL_INVALID_OPERATION


def test_indexed_client_state_and_client_attribute_defaults(ctx):
    c = ctx
    c.glEnableClientStateIndexedEXT(E.GL_TEXTURE_COORD_ARRAY, 2)
    ok(c)
    assert c.glGetIntegerv(E.GL_CLIENT_ACTIVE_TEXTURE) == [E.GL_TEXTURE0]
    assert c.glGetBooleanIndexedvEXT(E.GL_TEXTURE_COORD_ARRAY, 2) == [True]
    assert c.glGetBooleanIndexedvEXT(E.GL_TEXTURE_COORD_ARRAY, 0) == [False]
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    c.glPushClientAttribDefaultEXT(E.GL_CLIENT_ALL_ATTRIB_BITS)
    assert c.glGetIntegerv(E.GL_UNPACK_ALIGNMENT) == [4]
    assert c.glGetBooleanIndexedvEXT(E.GL_TEXTURE_COORD_ARRAY, 2) == [False]
    c.glPopClientAttrib()
    assert c.glGetIntegerv(E.GL_UNPACK_ALIGNMENT) == [1]
    assert c.glGetBooleanIndexedvEXT(E.GL_TEXTURE_COORD_ARRAY, 2) == [True]
    c.glEnableClientStateIndexedEXT(E.GL_VERTEX_ARRAY, 0)
    assert c.glGetError() == E.GL_INVALID_ENUM



def test_proxy_targets_take_texture_zero_only(ctx):
    c = ctx
    c.glTextureImage2DEXT(0, E.GL_PROXY_TEXTURE_2D, 0, E.GL_RGBA8, 32, 16, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    ok(c)
    assert c.glGetTextureLevelParameterivEXT(0, E.GL_PROXY_TEXTURE_2D, 0, E.GL_TEXTURE_HEIGHT) == [16]
    tex = c.glGenTextures(1)[0]
    c.glTextureImage2DEXT(tex, E.GL_PROXY_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert not c.glIsTexture(tex)


def test_framebuffer_parameters_are_the_bound_framebuffers_state(ctx):
    """glGetFramebufferParameterivEXT answers what glGetIntegerv would with the
    framebuffer bound (draw and read buffers), not ARB_framebuffer_no_attachments'."""
    c = ctx
    fb = c.glGenFramebuffers(1)[0]
    c.glFramebufferDrawBuffersEXT(fb, 2, [E.GL_COLOR_ATTACHMENT2, E.GL_NONE])
    c.glFramebufferReadBufferEXT(fb, E.GL_COLOR_ATTACHMENT3)
    ok(c)
    assert c.glGetFramebufferParameterivEXT(fb, E.GL_DRAW_BUFFER0) == [E.GL_COLOR_ATTACHMENT2]
    assert c.glGetFramebufferParameterivEXT(fb, E.GL_DRAW_BUFFER1) == [E.GL_NONE]
    assert c.glGetFramebufferParameterivEXT(fb, E.GL_READ_BUFFER) == [E.GL_COLOR_ATTACHMENT3]
    assert c.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING) == [0]
    assert c.glGetIntegerv(E.GL_READ_FRAMEBUFFER_BINDING) == [0]
    c.glFramebufferReadBufferEXT(0, E.GL_FRONT_AND_BACK)        # the window's one image (GL 4.6 table 17.4)
    ok(c)
    assert c.glGetIntegerv(E.GL_READ_BUFFER) == [E.GL_FRONT_AND_BACK]


def test_program_binding_query_and_fragment_address_registers(ctx):
    c = ctx
    vp = b"!!ARBvp1.0\nADDRESS a;\nARL a.x, vertex.position.x;\nMOV result.position, vertex.position;\nEND\n"
    c.glNamedProgramStringEXT(4, E.GL_VERTEX_PROGRAM_ARB, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(vp), vp)
    c.glBindProgramARB(E.GL_VERTEX_PROGRAM_ARB, 0)
    ok(c)
    # PROGRAM_BINDING_ARB: the context's binding (0), not the named program (4)
    assert c.glGetNamedProgramivEXT(4, E.GL_VERTEX_PROGRAM_ARB, E.GL_PROGRAM_BINDING_ARB) == [0]
    assert c.glGetNamedProgramivEXT(4, E.GL_VERTEX_PROGRAM_ARB, E.GL_PROGRAM_ADDRESS_REGISTERS_ARB) == [1]
    # a fragment program has no address registers: 0, no error (as Mesa)
    assert c.glGetProgramivARB(E.GL_FRAGMENT_PROGRAM_ARB, E.GL_MAX_PROGRAM_ADDRESS_REGISTERS_ARB) == [0]
    ok(c)


def test_legacy_array_pointers(ctx):
    """glGetPointerv answers the edge flag, colour index and fog coordinate arrays too
    (GL 2.1 table 6.11); glGetVertexArrayIntegervEXT gives a pointer as an integer."""
    c = ctx
    vao = c.glGenVertexArrays(1)[0]
    buf = c.glGenBuffers(1)[0]
    c.glVertexArrayEdgeFlagOffsetEXT(vao, buf, 0, 12)
    c.glVertexArrayFogCoordOffsetEXT(vao, buf, E.GL_FLOAT, 0, 20)
    c.glVertexArrayIndexOffsetEXT(vao, buf, E.GL_FLOAT, 0, 28)
    ok(c)
    assert c.glGetVertexArrayIntegervEXT(vao, E.GL_EDGE_FLAG_ARRAY_POINTER) == [12]
    c.glBindVertexArray(vao)
    assert c.glGetPointerv(E.GL_EDGE_FLAG_ARRAY_POINTER) == 12
    assert c.glGetPointerv(E.GL_FOG_COORD_ARRAY_POINTER) == 20
    assert c.glGetPointerv(E.GL_INDEX_ARRAY_POINTER) == 28
    ok(c)


def test_texture_priority(ctx):
    """GL 2.1 section 3.8.12: TEXTURE_PRIORITY, clamped to [0, 1], an integer mapped as
    a colour component; every texture is resident."""
    c = ctx
    c.glTextureParameterfEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_PRIORITY, 0.25)
    ok(c)
    assert c.glGetTextureParameterfvEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_PRIORITY) == [0.25]
    assert c.glGetTextureParameterivEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_PRIORITY) == [int(0.25 * 2147483647)]
    c.glTextureParameterfEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_PRIORITY, 7.0)
    assert c.glGetTextureParameterfvEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_PRIORITY) == [1.0]
    c.glTextureParameteriEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_PRIORITY, 2 ** 30)
    assert abs(c.glGetTextureParameterfvEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_PRIORITY)[0] - 0.5) < 1e-6
    assert c.glGetTextureParameterivEXT(30, E.GL_TEXTURE_1D, E.GL_TEXTURE_RESIDENT) == [1]
    ok(c)
    core = __import__("driver").Context(api="gl33", width=4, height=4)
    core.glBindTexture(E.GL_TEXTURE_2D, core.glGenTextures(1)[0])
    core.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_PRIORITY, 0.5)
    assert core.glGetError() == E.GL_INVALID_ENUM


def test_units_past_the_fixed_function_ones(ctx):
    """A texunit selector reaches every combined texture image unit (as glActiveTexture)."""
    c = ctx
    units = c.glGetIntegerv(E.GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0]
    assert units > 32
    c.glBindMultiTextureEXT(E.GL_TEXTURE0 + units - 1, E.GL_TEXTURE_2D, 12)
    ok(c)
    assert c.glGetIntegerIndexedvEXT(E.GL_TEXTURE_BINDING_2D, units - 1) == [12]
    c.glBindMultiTextureEXT(E.GL_TEXTURE0 + units, E.GL_TEXTURE_2D, 12)
    assert c.glGetError() == E.GL_INVALID_ENUM


def test_double_program_uniforms(ctx):
    """The ARB_gpu_shader_fp64 interaction: glProgramUniform*dEXT set a double uniform
    of a program that is not current."""
    c = ctx
    vs = ("#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\nuniform double d;\nuniform dvec3 v;\n"
          "uniform dmat2x3 m;\nvoid main() { gl_Position = vec4(float(d) + float(v.x) + float(m[1][2])); }\n")
    prog = c.glCreateProgram()
    sh = c.glCreateShader(E.GL_VERTEX_SHADER)
    c.glShaderSource(sh, 1, [vs])
    c.glCompileShader(sh)
    assert c.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], c.glGetShaderInfoLog(sh)
    c.glAttachShader(prog, sh)
    c.glLinkProgram(prog)
    assert c.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(prog)
    c.glProgramUniform1dEXT(prog, c.glGetUniformLocation(prog, "d"), 0.1)
    c.glProgramUniform3dvEXT(prog, c.glGetUniformLocation(prog, "v"), 1, [1.5, 2.5, 1e300])
    c.glProgramUniformMatrix2x3dvEXT(prog, c.glGetUniformLocation(prog, "m"), 1, 0, [1, 2, 3, 4, 5, 6.25])
    ok(c)
    assert c.glGetIntegerv(E.GL_CURRENT_PROGRAM) == [0]
    assert c.glGetUniformdv(prog, c.glGetUniformLocation(prog, "d")) == [0.1]      # a double, not a float
    assert c.glGetUniformdv(prog, c.glGetUniformLocation(prog, "v")) == [1.5, 2.5, 1e300]
    assert c.glGetUniformdv(prog, c.glGetUniformLocation(prog, "m")) == [1, 2, 3, 4, 5, 6.25]


def test_commands_of_unlisted_extensions_refuse(ctx):
    """The registry lists glNamedProgramLocalParameterI4iEXT (NV_gpu_program4),
    glTexturePageCommitmentEXT (ARB_sparse_texture), ... with the extension: the
    context has them, and without their other extension they are INVALID_OPERATION."""
    ctx.glNamedProgramLocalParameterI4iEXT(1, E.GL_VERTEX_PROGRAM_ARB, 0, 1, 2, 3, 4)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glTexturePageCommitmentEXT(1, 0, 0, 0, 0, 1, 1, 1, True)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glGetError() == E.GL_NO_ERROR
