"""GL_EXT_direct_state_access's commands through driver.Context(api="compat"):
each acts on the named object or selector, creates an unused name's object,
and leaves every binding and selector as it was (the extension is not listed
yet: MESA_EXTENSION_OVERRIDE exposes it here)."""

import numpy as np
import pytest

from driver.gl import enums as E


def _reset_caches():
    """Forget what was derived from the extension list: the override, the lists and
    the dispatch tables' command sets (a table built before the override refuses the
    EXT commands as not part of the context's API)."""
    from driver.gl import extensions as X
    from driver.gl.entrypoints import context_commands
    from driver.gl.families import Context
    X.extension_override.cache_clear()
    X.available.cache_clear()
    X.glsl_extensions.cache_clear()
    context_commands.cache_clear()
    Context._dispatch_tables.clear()


@pytest.fixture
def ctx(monkeypatch):
    monkeypatch.setenv("MESA_EXTENSION_OVERRIDE", "+GL_EXT_direct_state_access")
    _reset_caches()
    import driver
    c = driver.Context(api="compat", width=8, height=8)
    assert "GL_EXT_direct_state_access" in c.glGetString(E.GL_EXTENSIONS).split()
    yield c
    monkeypatch.delenv("MESA_EXTENSION_OVERRIDE")
    _reset_caches()          # the next test's contexts do not see the override


def test_not_available_without_the_extension(ctx):
    import driver
    _reset_caches()
    import os
    del os.environ["MESA_EXTENSION_OVERRIDE"]
    _reset_caches()
    c = driver.Context(api="compat", width=4, height=4)
    c.glMatrixLoadIdentityEXT(E.GL_PROJECTION)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    os.environ["MESA_EXTENSION_OVERRIDE"] = "+GL_EXT_direct_state_access"


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

