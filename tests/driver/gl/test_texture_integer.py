"""GL_EXT_texture_integer under its own name: its legacy integer formats
(alpha, intensity, luminance, luminance-alpha), its integer pixel formats,
integer clear colours and RGBA_INTEGER_MODE_EXT, against hand-computed values."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

ALPHA8UI, INTENSITY16I, LUMINANCE32UI, LUMINANCE_ALPHA16UI = 0x8D7E, 0x8D8B, 0x8D74, 0x8D7B
LUMINANCE_INTEGER, LUMINANCE_ALPHA_INTEGER, RGBA_INTEGER_MODE = 0x8D9C, 0x8D9D, 0x8D9E
VS = ("#version 130\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, 0.0, 1.0); }\n")


def _texture(ctx, unit, internal, fmt, type_, data):
    ctx.glActiveTexture(E.GL_TEXTURE0 + unit)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, internal, 1, 1, 0, fmt, type_, data)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return tex


def _integer_target(ctx, internal, w=4):
    fb = glhelp.renderbuffer_target(ctx, internal, w, 1)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def _read(ctx, w, type_=E.GL_INT, dtype=np.int32):
    return np.frombuffer(ctx.glReadPixels(0, 0, w, 1, E.GL_RGBA_INTEGER, type_), dtype).reshape(w, 4)


def test_listed_in_the_compatibility_profile():
    ctx = glhelp.context(1, 1, api="compat")
    assert "GL_EXT_texture_integer" in ctx.glGetString(E.GL_EXTENSIONS).split()


def test_legacy_integer_images_upload_and_read_back():
    """LUMINANCE_ALPHA16UI from LUMINANCE_ALPHA_INTEGER data: read as RGBA_INTEGER,
    luminance goes to red (L, 0, 0, A); read as LUMINANCE_ALPHA_INTEGER, the two
    values come back. Non-integer client data for an integer image: INVALID_OPERATION
    and the image keeps its contents."""
    ctx = glhelp.context(1, 1, api="compat")
    _texture(ctx, 0, LUMINANCE_ALPHA16UI, LUMINANCE_ALPHA_INTEGER, E.GL_UNSIGNED_SHORT,
             np.array([7, 60000], np.uint16))
    rgba = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT), np.uint32)
    assert rgba.tolist() == [7, 0, 0, 60000]
    la = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, LUMINANCE_ALPHA_INTEGER, E.GL_UNSIGNED_INT), np.uint32)
    assert la.tolist() == [7, 60000]
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, LUMINANCE_ALPHA16UI, 1, 1, 0, E.GL_LUMINANCE_ALPHA,
                     E.GL_UNSIGNED_SHORT, np.array([1, 2], np.uint16))
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    la = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, LUMINANCE_ALPHA_INTEGER, E.GL_UNSIGNED_INT), np.uint32)
    assert la.tolist() == [7, 60000]


def test_sampled_legacy_integer_formats():
    """Alpha (0, 0, 0, A), intensity (I, I, I, I) and luminance (L, L, L, 1) of
    integer images, fetched by a GLSL 1.30 shader into an RGBA32I target."""
    ctx = glhelp.context(3, 1, api="compat")
    _texture(ctx, 0, ALPHA8UI, E.GL_ALPHA_INTEGER, E.GL_UNSIGNED_BYTE, np.array([200], np.uint8))
    _texture(ctx, 1, INTENSITY16I, E.GL_RED_INTEGER, E.GL_SHORT, np.array([-1234], np.int16))
    _texture(ctx, 2, LUMINANCE32UI, LUMINANCE_INTEGER, E.GL_UNSIGNED_INT, np.array([70000], np.uint32))
    _integer_target(ctx, E.GL_RGBA32I, w=3)
    prog = glhelp.program(ctx, VS, "#version 130\nuniform usampler2D a;\nuniform isampler2D i;\n"
                                   "uniform usampler2D l;\nout ivec4 o;\n"
                                   "void main() { int x = int(gl_FragCoord.x);\n"
                                   " o = x == 0 ? ivec4(texture(a, vec2(0.5))) : x == 1 ? texture(i, vec2(0.5))"
                                   " : ivec4(texture(l, vec2(0.5))); }\n")
    for name, unit in (("a", 0), ("i", 1), ("l", 2)):
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, name), unit)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _read(ctx, 3).tolist() == [[0, 0, 0, 200], [-1234] * 4, [70000, 70000, 70000, 1]]


def test_integer_clear_colours_and_the_integer_mode_query():
    """glClearColorIiEXT values reach a signed integer buffer unconverted,
    glClearColorIuiEXT values an unsigned one (beyond 2^31); RGBA_INTEGER_MODE_EXT
    is TRUE while an integer buffer is the draw buffer, FALSE for the window."""
    ctx = glhelp.context(2, 1, api="compat")
    assert ctx.glGetIntegerv(RGBA_INTEGER_MODE) == [0]
    _integer_target(ctx, E.GL_RGBA32I, w=2)
    assert ctx.glGetIntegerv(RGBA_INTEGER_MODE) == [1]
    ctx.glClearColorIiEXT(-5, 7, 1 << 20, -(1 << 31))
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _read(ctx, 2).tolist() == [[-5, 7, 1 << 20, -(1 << 31)]] * 2
    _integer_target(ctx, E.GL_RGBA32UI, w=2)
    ctx.glClearColorIuiEXT(3_000_000_000, 0, 1, 0xFFFFFFFF)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    got = _read(ctx, 2, E.GL_UNSIGNED_INT, np.uint32)
    assert got.tolist() == [[3_000_000_000, 0, 1, 0xFFFFFFFF]] * 2


def test_integer_mode_with_the_integer_buffer_second():
    """A framebuffer drawing to a unorm attachment 0 and an integer attachment 1
    is in integer mode (piglit gl-3.1-mixed-int-float-fbo int_second); with
    only the unorm one drawn it is not."""
    ctx = glhelp.context(2, 1, api="compat")
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for i, internal in enumerate((E.GL_RGBA8, E.GL_RGBA8UI)):
        (rb,) = ctx.glGenRenderbuffers(1)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, internal, 2, 1)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    assert ctx.glGetIntegerv(RGBA_INTEGER_MODE) == [0]          # draw buffer: attachment 0 only
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    assert ctx.glGetIntegerv(RGBA_INTEGER_MODE) == [1]
    assert ctx.glGetBooleanv(RGBA_INTEGER_MODE) == [True]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_legacy_integer_formats_stay_out_of_core_profiles():
    ctx = glhelp.context(1, 1, api="gl43")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, ALPHA8UI, 1, 1, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_BYTE, None)
    err = ctx.glGetError()
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_ALPHA8, 1, 1, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, None)
    assert err != E.GL_NO_ERROR and err == ctx.glGetError()   # refused as the other legacy formats are


def test_integer_and_float_data_do_not_mix():
    """An integer pixel format with a float type is INVALID_ENUM (TexImage,
    TexSubImage, ReadPixels); integer client data cannot be drawn (DrawPixels:
    INVALID_OPERATION); a non-integer framebuffer cannot be copied into an
    integer texture (INVALID_OPERATION). None of them changes the image."""
    ctx = glhelp.context(1, 1, api="compat")
    _texture(ctx, 0, E.GL_RGBA16UI, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_SHORT, np.array([1, 2, 3, 4], np.uint16))
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA16UI, 1, 1, 0, E.GL_RGBA_INTEGER, E.GL_FLOAT,
                     np.zeros(4, np.float32))
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 1, 1, E.GL_RGBA_INTEGER, E.GL_HALF_FLOAT, np.zeros(4, np.uint16))
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    ctx.glCopyTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8UI, 0, 0, 1, 1, 0)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_SHORT), np.uint16)
    assert got.tolist() == [1, 2, 3, 4]
    ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA_INTEGER, E.GL_FLOAT)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    ctx.glDrawPixels(1, 1, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT, np.zeros(4, np.uint32))
    assert ctx.glGetError() == E.GL_INVALID_OPERATION


def test_alpha_test_and_blending_do_not_touch_integer_buffers():
    """EXT_texture_integer: alpha test (NEVER) and blending (ZERO, ZERO) have no
    effect on an integer colour buffer: the shader's (5, 4, 3, 2) is written."""
    ctx = glhelp.context(1, 1, api="compat")
    _integer_target(ctx, E.GL_RGBA32UI, w=1)
    glhelp.program(ctx, VS, "#version 130\nout uvec4 o;\nvoid main() { o = uvec4(5u, 4u, 3u, 2u); }\n")
    ctx.glEnable(E.GL_ALPHA_TEST)
    ctx.glAlphaFunc(E.GL_NEVER, 1.0)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_ZERO, E.GL_ZERO)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _read(ctx, 1, E.GL_UNSIGNED_INT, np.uint32).tolist() == [[5, 4, 3, 2]]
