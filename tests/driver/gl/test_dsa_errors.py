"""Errors and defaults of the direct-state-access commands that differ from their
bind-to-edit forms (GL 4.6 sections 6, 8.6, 8.10, 9.2.4, 13.2.2, 4.2), with values
written from the specification's tables."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


def test_a_created_renderbuffer_reads_rgba_and_zero_sizes():
    ctx = make_ctx("gl43")
    (rb,) = ctx.glCreateRenderbuffers(1)
    assert ctx.glGetNamedRenderbufferParameteriv(rb, E.GL_RENDERBUFFER_INTERNAL_FORMAT) == [E.GL_RGBA]
    for pname in (E.GL_RENDERBUFFER_RED_SIZE, E.GL_RENDERBUFFER_ALPHA_SIZE, E.GL_RENDERBUFFER_DEPTH_SIZE,
                  E.GL_RENDERBUFFER_WIDTH):
        assert ctx.glGetNamedRenderbufferParameteriv(rb, pname) == [0]
    ctx.glNamedRenderbufferStorage(rb, E.GL_RGB565, 4, 4)
    assert ctx.glGetNamedRenderbufferParameteriv(rb, E.GL_RENDERBUFFER_INTERNAL_FORMAT) == [E.GL_RGB565]
    assert ctx.glGetNamedRenderbufferParameteriv(rb, E.GL_RENDERBUFFER_GREEN_SIZE) == [6]
    # GLES 3.2 table 21.17: the initial format is RGBA4 there
    es = make_ctx("gles3")
    (rb,) = es.glGenRenderbuffers(1)
    es.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    assert es.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_INTERNAL_FORMAT) == [E.GL_RGBA4]
    assert es.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_RED_SIZE) == [0]


def test_a_created_query_is_available_with_result_zero():
    ctx = make_ctx("gl43")
    (q,) = ctx.glCreateQueries(E.GL_SAMPLES_PASSED, 1)
    assert ctx.glGetQueryObjectiv(q, E.GL_QUERY_RESULT_AVAILABLE) == [1]
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [0]
    expect(ctx, E.GL_NO_ERROR)


def test_transform_feedback_buffer_of_no_buffer_is_invalid_value():
    ctx = make_ctx("gl43")
    ctx.glTransformFeedbackBufferBase(0, 0, 1337)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glTransformFeedbackBufferRange(0, 0, 1337, 0, 4096)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glTransformFeedbackBufferBase(1337, 0, 0)          # no such transform feedback object
    expect(ctx, E.GL_INVALID_OPERATION)


def test_sub_image_commands_of_the_wrong_dimension():
    ctx = make_ctx("gl43")
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureStorage2D(t, 1, E.GL_RGBA8, 4, 4)
    ctx.glTextureSubImage1D(t, 0, 0, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(16))
    expect(ctx, E.GL_INVALID_OPERATION)                     # the DSA form names no target
    ctx.glTextureSubImage3D(t, 0, 0, 0, 0, 4, 4, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(64))
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glCopyTextureSubImage1D(t, 0, 0, 0, 0, 4)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexSubImage1D(E.GL_TEXTURE_2D, 0, 0, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(16))
    expect(ctx, E.GL_INVALID_ENUM)                          # a bad target
    ctx.glTextureSubImage2D(t, 0, 0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(64))
    expect(ctx, E.GL_NO_ERROR)


def test_multisample_texture_parameters():
    ctx = make_ctx("gl43")
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D_MULTISAMPLE, 1)
    ctx.glTextureParameteri(t, E.GL_TEXTURE_WRAP_R, E.GL_REPEAT)
    expect(ctx, E.GL_INVALID_OPERATION)                     # a sampler state, through DSA
    ctx.glTextureParameteri(t, E.GL_TEXTURE_BASE_LEVEL, 1)
    expect(ctx, E.GL_INVALID_OPERATION)                     # level 0 only
    ctx.glTextureParameteri(t, E.GL_TEXTURE_SWIZZLE_R, E.GL_GREEN)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, t)
    ctx.glTexParameteri(E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_WRAP_R, E.GL_REPEAT)
    expect(ctx, E.GL_INVALID_ENUM)                          # the same through the target
    ctx.glTexParameteri(E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_BASE_LEVEL, 0)
    expect(ctx, E.GL_NO_ERROR)


def test_copy_texture_sub_image_3d_into_a_cube_face():
    ctx = glhelp.context(8, 8, api="gl43")
    ctx.glClearColor(0.0, 1.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_CUBE_MAP, 1)
    ctx.glTextureStorage2D(t, 1, E.GL_RGBA8, 4, 4)
    ctx.glCopyTextureSubImage3D(t, 0, 0, 0, 3, 0, 0, 4, 4)   # face 3 = NEGATIVE_Y
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, t)
    face3 = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, E.GL_RGBA,
                                            E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)
    assert (face3 == [0, 255, 0, 255]).all()
    ctx.glCopyTextureSubImage3D(t, 0, 0, 0, 6, 0, 0, 4, 4)
    expect(ctx, E.GL_INVALID_VALUE)


def test_texture_storage_of_another_dimension_is_invalid_operation():
    ctx = make_ctx("gl43")
    (cube,) = ctx.glCreateTextures(E.GL_TEXTURE_CUBE_MAP, 1)
    ctx.glTextureStorage3D(cube, 1, E.GL_RGBA8, 32, 32, 6)     # cube maps are 2D storage
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glTextureStorage2D(cube, 1, E.GL_RGBA8, 32, 32)
    expect(ctx, E.GL_NO_ERROR)
    (arr,) = ctx.glCreateTextures(E.GL_TEXTURE_2D_ARRAY, 1)
    ctx.glTextureStorage2D(arr, 1, E.GL_RGBA8, 4, 4)
    expect(ctx, E.GL_INVALID_OPERATION)


def test_texture_images_into_a_pack_buffer_at_an_offset():
    """glGetTexImage / glGetTextureImage with a PIXEL_PACK_BUFFER bound write at the
    given byte offset (a cube map's six faces one after another)."""
    ctx = glhelp.context(4, 4, api="gl45")
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_CUBE_MAP, 1)
    ctx.glTextureStorage2D(t, 1, E.GL_RGBA8, 2, 2)
    faces = (np.arange(6 * 2 * 2 * 4) % 251).astype(np.uint8).reshape(6, 2, 2, 4)
    ctx.glTextureSubImage3D(t, 0, 0, 0, 0, 2, 2, 6, E.GL_RGBA, E.GL_UNSIGNED_BYTE, faces.tobytes())
    (pbo,) = ctx.glCreateBuffers(1)
    ctx.glNamedBufferData(pbo, 16 + 6 * 16, None, E.GL_STREAM_READ)
    ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pbo)
    ctx.glGetTextureImage(t, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 6 * 16, 16)
    expect(ctx, E.GL_NO_ERROR)
    got = np.frombuffer(bytes(ctx.glGetNamedBufferSubData(pbo, 16, 6 * 16)), np.uint8)
    assert (got.reshape(6, 2, 2, 4) == faces).all()
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, t)
    ctx.glGetTexImage(E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 4)
    got = np.frombuffer(bytes(ctx.glGetNamedBufferSubData(pbo, 4, 16)), np.uint8)
    assert (got.reshape(2, 2, 4) == faces[5]).all()
    ctx.glGetTexImage(E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 16 + 6 * 16 - 8)
    expect(ctx, E.GL_INVALID_OPERATION)                # does not fit
