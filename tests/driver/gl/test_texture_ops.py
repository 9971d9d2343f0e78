"""ARB_clear_texture, ARB_get_texture_sub_image, ARB_texture_barrier."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


@pytest.fixture
def ctx():
    return make_ctx("gl43")


def _level(ctx, tex, level, fmt, type, dtype, shape, target=E.GL_TEXTURE_2D):
    ctx.glBindTexture(target, tex)
    return np.frombuffer(ctx.glGetTexImage(target, level, fmt, type), dtype).reshape(shape)


def test_clear_whole_level_and_a_sub_box(ctx):
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureStorage2D(t, 2, E.GL_RGBA8, 5, 3)
    ctx.glClearTexImage(t, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([10, 20, 30, 40]))
    ctx.glClearTexSubImage(t, 0, 1, 1, 0, 3, 2, 1, E.GL_RGBA, E.GL_FLOAT,
                           np.array([1.0, 0.0, 0.5, 1.0], np.float32))
    expect(ctx, E.GL_NO_ERROR)
    img = _level(ctx, t, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.uint8, (3, 5, 4))
    expected = np.tile(np.array([10, 20, 30, 40], np.uint8), (3, 5, 1))
    expected[1:3, 1:4] = [255, 0, 128, 255]                 # 0.5 -> round(127.5) = 128
    assert np.array_equal(img, expected)
    ctx.glClearTexImage(t, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)      # NULL: zeros
    assert not _level(ctx, t, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.uint8, (1, 2, 4)).any()


def test_clear_ignores_the_unpack_state_and_buffer(ctx):
    ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 8)
    ctx.glPixelStorei(E.GL_UNPACK_SKIP_PIXELS, 3)
    (pbo,) = ctx.glCreateBuffers(1)
    ctx.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, pbo)
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureStorage2D(t, 1, E.GL_R32F, 3, 3)
    ctx.glClearTexImage(t, 0, E.GL_RED, E.GL_FLOAT, np.array([0.25], np.float32))
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
    ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
    assert (_level(ctx, t, 0, E.GL_RED, E.GL_FLOAT, np.float32, (3, 3)) == 0.25).all()
    assert ctx.glGetIntegerv(E.GL_UNPACK_ALIGNMENT) == [8]


def test_clear_array_layers_and_cube_faces(ctx):
    (a,) = ctx.glCreateTextures(E.GL_TEXTURE_2D_ARRAY, 1)
    ctx.glTextureStorage3D(a, 1, E.GL_R8UI, 2, 2, 4)
    ctx.glClearTexImage(a, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_BYTE, b"\x05")
    ctx.glClearTexSubImage(a, 0, 0, 0, 2, 2, 2, 1, E.GL_RED_INTEGER, E.GL_UNSIGNED_BYTE, b"\x09")
    expect(ctx, E.GL_NO_ERROR)
    ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
    layers = _level(ctx, a, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_BYTE, np.uint8, (4, 2, 2), E.GL_TEXTURE_2D_ARRAY)
    assert [int(layer[0, 0]) for layer in layers] == [5, 5, 9, 5]
    (c,) = ctx.glCreateTextures(E.GL_TEXTURE_CUBE_MAP, 1)
    ctx.glTextureStorage2D(c, 1, E.GL_RGBA8, 2, 2)
    ctx.glClearTexSubImage(c, 0, 0, 0, 3, 2, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([1, 2, 3, 4]))
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, c)
    for face in range(6):
        got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, E.GL_RGBA,
                                              E.GL_UNSIGNED_BYTE), np.uint8)
        assert (got == (np.tile([1, 2, 3, 4], 4) if face in (3, 4) else 0)).all(), face


def test_clear_errors(ctx):
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glClearTexImage(t, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)     # level not defined
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glTextureStorage2D(t, 1, E.GL_RGBA8, 4, 4)
    ctx.glClearTexSubImage(t, 0, 2, 2, 0, 3, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(ctx, E.GL_INVALID_OPERATION)        # a region leaving the image (GL 4.6 section 8.21)
    ctx.glClearTexImage(12345, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glClearTexImage(t, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE, bytes(4))   # integer data, unorm texture
    expect(ctx, E.GL_INVALID_OPERATION)


def test_get_texture_sub_image_honours_the_pack_state(ctx):
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureStorage2D(t, 1, E.GL_RGBA8, 4, 3)
    texels = np.arange(48, dtype=np.uint8)
    ctx.glTextureSubImage2D(t, 0, 0, 0, 4, 3, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    full = texels.reshape(3, 4, 4)
    got = ctx.glGetTextureSubImage(t, 0, 1, 1, 0, 2, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 16)
    assert np.array_equal(np.frombuffer(got, np.uint8).reshape(2, 2, 4), full[1:3, 1:3])
    ctx.glPixelStorei(E.GL_PACK_ROW_LENGTH, 3)                 # rows 3 pixels apart
    got = np.frombuffer(ctx.glGetTextureSubImage(t, 0, 0, 0, 0, 2, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 64), np.uint8)
    assert np.array_equal(got[:8], full[0, 0:2].ravel()) and np.array_equal(got[12:20], full[1, 0:2].ravel())
    ctx.glGetTextureSubImage(t, 0, 3, 0, 0, 2, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 64)   # outside
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glGetTextureSubImage(t, 0, 0, 0, 0, 2, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 4)    # bufSize
    expect(ctx, E.GL_INVALID_OPERATION)


def test_texture_barrier_makes_rendered_texels_visible():
    """Render red into a texture, barrier, then sample it in a second draw
    into the window: the window is red (the first pass reached memory)."""
    ctx = glhelp.context(4, 4, api="gl43")
    (tex,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureStorage2D(tex, 1, E.GL_RGBA8, 4, 4)
    ctx.glTextureParameteri(tex, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    (fb,) = ctx.glCreateFramebuffers(1)
    ctx.glNamedFramebufferTexture(fb, E.GL_COLOR_ATTACHMENT0, tex, 0)
    ctx.glClearNamedFramebufferfv(fb, E.GL_COLOR, 0, [1.0, 0.0, 0.0, 1.0])
    ctx.glTextureBarrier()
    glhelp.program(ctx, "#version 430\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
                   " gl_Position = vec4(p, 0.0, 1.0); }\n",
                   "#version 430\nuniform sampler2D t; out vec4 o;\n"
                   "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }\n")
    (vao,) = ctx.glCreateVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glBindTextureUnit(0, tex)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)
    assert (img == [255, 0, 0, 255]).all()


def test_get_compressed_texture_sub_image_returns_the_covering_blocks(ctx):
    """An 8x8 RGTC1 level is 2x2 blocks of 8 bytes; the box (4, 0, 4x8) is
    the right column of blocks, in row order."""
    (t,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    blocks = np.arange(32, dtype=np.uint8)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 32, blocks)
    expect(ctx, E.GL_NO_ERROR)
    got = ctx.glGetCompressedTextureSubImage(t, 0, 4, 0, 0, 4, 8, 1, 64)
    expect(ctx, E.GL_NO_ERROR)
    assert got == bytes(blocks[8:16]) + bytes(blocks[24:32])
    ctx.glGetCompressedTextureSubImage(t, 0, 2, 0, 0, 4, 4, 1, 64)        # not block-aligned
    expect(ctx, E.GL_INVALID_VALUE)
