"""ARB_multi_bind: ranges of binding points set in one call, NULL arrays
unbind, a range beyond the limit changes nothing, and a bad entry keeps its
binding while the others are bound (GL 4.6 sections 6.1.1, 8.1, 8.2, 10.3.1)."""

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


@pytest.fixture
def ctx():
    return make_ctx("gl43")


def test_buffers_base_and_range(ctx):
    a, b = ctx.glCreateBuffers(2)
    for name in (a, b):
        ctx.glNamedBufferData(name, 256, None, E.GL_STATIC_DRAW)
    ctx.glBindBuffersBase(E.GL_UNIFORM_BUFFER, 2, 2, [a, b])
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_BINDING, 2) == [a]
    assert ctx.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_BINDING, 3) == [b]
    ctx.glBindBuffersRange(E.GL_SHADER_STORAGE_BUFFER, 0, 2, [a, b], [16, 32], [64, 128])
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetInteger64i_v(E.GL_SHADER_STORAGE_BUFFER_START, 1) == [32]
    assert ctx.glGetInteger64i_v(E.GL_SHADER_STORAGE_BUFFER_SIZE, 1) == [128]
    ctx.glBindBuffersBase(E.GL_UNIFORM_BUFFER, 2, 2, None)                # NULL: unbind
    assert ctx.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_BINDING, 2) == [0]
    assert ctx.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_BINDING, 3) == [0]


def test_one_bad_entry_keeps_its_binding_the_others_bind(ctx):
    a, b = ctx.glCreateBuffers(2)
    for name in (a, b):
        ctx.glNamedBufferData(name, 64, None, E.GL_STATIC_DRAW)
    ctx.glBindBuffersBase(E.GL_UNIFORM_BUFFER, 0, 1, [b])
    ctx.glBindBuffersBase(E.GL_UNIFORM_BUFFER, 0, 3, [999, a, b])         # 999 is no buffer
    expect(ctx, E.GL_INVALID_OPERATION)
    assert [ctx.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_BINDING, i)[0] for i in range(3)] == [b, a, b]


def test_range_beyond_the_limit_changes_nothing(ctx):
    (a,) = ctx.glCreateBuffers(1)
    limit = ctx.glGetIntegerv(E.GL_MAX_UNIFORM_BUFFER_BINDINGS)[0]
    ctx.glBindBuffersBase(E.GL_UNIFORM_BUFFER, limit - 1, 2, [a, a])
    expect(ctx, E.GL_INVALID_OPERATION)
    assert ctx.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_BINDING, limit - 1) == [0]
    ctx.glBindBuffersBase(E.GL_ARRAY_BUFFER, 0, 1, [a])
    expect(ctx, E.GL_INVALID_ENUM)
    units = ctx.glGetIntegerv(E.GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0]
    ctx.glBindTextures(units, 1, [0])
    expect(ctx, E.GL_INVALID_OPERATION)


def test_textures_and_samplers(ctx):
    t2d, t3d = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1) + ctx.glCreateTextures(E.GL_TEXTURE_3D, 1)
    ctx.glBindTextures(4, 2, [t2d, t3d])
    expect(ctx, E.GL_NO_ERROR)
    ctx.glActiveTexture(E.GL_TEXTURE4)
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [t2d]
    ctx.glActiveTexture(E.GL_TEXTURE5)
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_3D) == [t3d]
    ctx.glBindTextures(5, 1, None)                                          # unbinds every target
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_3D) == [0]
    s1, s2 = ctx.glCreateSamplers(2)
    ctx.glBindSamplers(0, 2, [s1, s2])
    ctx.glActiveTexture(E.GL_TEXTURE1)
    assert ctx.glGetIntegerv(E.GL_SAMPLER_BINDING) == [s2]
    ctx.glBindSamplers(0, 2, [s1, 12345])
    expect(ctx, E.GL_INVALID_OPERATION)
    assert ctx.glGetIntegerv(E.GL_SAMPLER_BINDING) == [s2]                 # the bad entry kept its value


def test_image_textures_bind_level_zero_read_write_in_the_level_format(ctx):
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D_ARRAY, 1)
    ctx.glTextureStorage3D(t, 1, E.GL_RGBA32F, 4, 4, 3)
    ctx.glBindImageTextures(1, 1, [t])
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegeri_v(E.GL_IMAGE_BINDING_NAME, 1) == [t]
    assert ctx.glGetIntegeri_v(E.GL_IMAGE_BINDING_ACCESS, 1) == [E.GL_READ_WRITE]
    assert ctx.glGetIntegeri_v(E.GL_IMAGE_BINDING_FORMAT, 1) == [E.GL_RGBA32F]
    assert ctx.glGetBooleani_v(E.GL_IMAGE_BINDING_LAYERED, 1) == [True]
    ctx.glBindImageTextures(1, 1, None)
    assert ctx.glGetIntegeri_v(E.GL_IMAGE_BINDING_NAME, 1) == [0]


def test_vertex_buffers(ctx):
    a, b = ctx.glCreateBuffers(2)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glBindVertexBuffers(0, 2, [a, b], [0, 8], [12, 24])
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetVertexArrayIndexediv(vao, 1, E.GL_VERTEX_BINDING_BUFFER) == [b]
    assert ctx.glGetVertexArrayIndexediv(vao, 1, E.GL_VERTEX_BINDING_STRIDE) == [24]
    assert ctx.glGetVertexArrayIndexed64iv(vao, 1, E.GL_VERTEX_BINDING_OFFSET) == [8]
    ctx.glBindVertexBuffers(0, 2, [a, b], [0, -8], [12, 24])
    expect(ctx, E.GL_INVALID_VALUE)
    assert ctx.glGetVertexArrayIndexed64iv(vao, 1, E.GL_VERTEX_BINDING_OFFSET) == [8]
    ctx.glBindVertexBuffers(0, 2, None, None, None)
    assert ctx.glGetVertexArrayIndexediv(vao, 0, E.GL_VERTEX_BINDING_BUFFER) == [0]
    ctx.glBindVertexArray(0)
    ctx.glBindVertexBuffers(0, 1, [a], [0], [4])                            # core: no VAO bound
    expect(ctx, E.GL_INVALID_OPERATION)
