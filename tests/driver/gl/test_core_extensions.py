"""Extensions whose functionality is core in GL 3.0-4.3, each checked under its
own name before the table lists it (driver/gl/extensions.py): what the
extension specifies, against hand-computed values, mostly through real draws."""

import struct

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

QUAD_VS = ("#version 330\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
           " gl_Position = vec4(p, 0.0, 1.0); }\n")


def _pixels(ctx, w, h, fmt=E.GL_RGBA, type=E.GL_UNSIGNED_BYTE, dtype=np.uint8, n=4):
    return np.frombuffer(ctx.glReadPixels(0, 0, w, h, fmt, type), dtype).reshape(h, w, n)


def _listed(name):
    return name in make_ctx("compat").extensions or name in make_ctx("gl43").extensions


# -- GL_ARB_texture_float -----------------------------------------------------------------


def test_arb_texture_float_stores_floats():
    """RGBA32F keeps float32 exactly (incl. values outside [0, 1]); RGBA16F
    rounds to half precision (1/3 -> 0.333251953125); both report FLOAT as
    their component type."""
    ctx = make_ctx("compat")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    data = np.array([[1e-3, -2.5, 1e6, 1 / 3]], np.float32)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, 1, 1, 0, E.GL_RGBA, E.GL_FLOAT, data)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_FLOAT), np.float32)
    assert np.array_equal(got, data.ravel())
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_RED_TYPE) == [E.GL_FLOAT]
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA16F, 1, 1, 0, E.GL_RGBA, E.GL_FLOAT, data)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_FLOAT), np.float32)
    assert np.array_equal(got, data.ravel().astype(np.float16).astype(np.float32))
    expect(ctx, E.GL_NO_ERROR)


# -- GL_ARB_copy_image -----------------------------------------------------------------------


def test_arb_copy_image_copies_texels_between_textures_and_renderbuffers():
    ctx = make_ctx("gl43")
    src, dst = ctx.glGenTextures(2)
    texels = np.arange(4 * 4 * 4, dtype=np.uint8)
    for name in (src, dst):
        ctx.glBindTexture(E.GL_TEXTURE_2D, name)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4, 4)
    ctx.glBindTexture(E.GL_TEXTURE_2D, src)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    # a 2x2 block from (1, 1) of src to (2, 0) of dst
    ctx.glCopyImageSubData(src, E.GL_TEXTURE_2D, 0, 1, 1, 0, dst, E.GL_TEXTURE_2D, 0, 2, 0, 0, 2, 2, 1)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindTexture(E.GL_TEXTURE_2D, dst)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE),
                        np.uint8).reshape(4, 4, 4)
    src_img = texels.reshape(4, 4, 4)
    assert np.array_equal(got[0:2, 2:4], src_img[1:3, 1:3])
    ctx.glCopyImageSubData(src, E.GL_TEXTURE_2D, 0, 3, 3, 0, dst, E.GL_TEXTURE_2D, 0, 0, 0, 0, 2, 2, 1)
    expect(ctx, E.GL_INVALID_VALUE)                         # the source box leaves the image


# -- GL_ARB_clear_buffer_object -----------------------------------------------------------------


def test_arb_clear_buffer_object_fills_with_the_converted_value():
    ctx = make_ctx("gl43")
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, bytes(range(32)), E.GL_STATIC_DRAW)
    # RGBA8 from floats: (1.0, 0.5, 0, 1) -> bytes 255, 128, 0, 255 over [8, 24)
    ctx.glClearBufferSubData(E.GL_ARRAY_BUFFER, E.GL_RGBA8, 8, 16, E.GL_RGBA, E.GL_FLOAT,
                             np.array([1.0, 0.5, 0.0, 1.0], np.float32))
    expect(ctx, E.GL_NO_ERROR)
    got = ctx.glGetBufferSubData(E.GL_ARRAY_BUFFER, 0, 32)
    assert got == bytes(range(8)) + bytes([255, 128, 0, 255]) * 4 + bytes(range(24, 32))
    ctx.glClearBufferSubData(E.GL_ARRAY_BUFFER, E.GL_RGBA8, 2, 4, E.GL_RGBA, E.GL_FLOAT, None)
    expect(ctx, E.GL_INVALID_VALUE)                         # offset not a multiple of the element
    ctx.glClearBufferData(E.GL_ARRAY_BUFFER, E.GL_R32UI, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT, None)
    assert ctx.glGetBufferSubData(E.GL_ARRAY_BUFFER, 0, 32) == bytes(32)


# -- GL_ARB_framebuffer_sRGB ------------------------------------------------------------------------


@pytest.mark.parametrize("enabled,expected", [(True, 188), (False, 128)])
def test_arb_framebuffer_srgb_encodes_only_when_enabled(enabled, expected):
    """0.5 written to an SRGB8_ALPHA8 target is stored sRGB-encoded
    (round(255 * 1.055 * 0.5^(1/2.4) - 0.055) = 188) only with
    GL_FRAMEBUFFER_SRGB enabled; otherwise as linear 128."""
    ctx = glhelp.context(2, 2, api="gl43")
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_SRGB8_ALPHA8, 2, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glGetFramebufferAttachmentParameteriv(
        E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING) == [E.GL_SRGB]
    (ctx.glEnable if enabled else ctx.glDisable)(E.GL_FRAMEBUFFER_SRGB)
    glhelp.program(ctx, QUAD_VS, "#version 330\nout vec4 o;\nvoid main() { o = vec4(0.5, 0.5, 0.5, 1.0); }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glDisable(E.GL_FRAMEBUFFER_SRGB)            # read the stored bytes as they are
    raw = ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    assert set(np.frombuffer(raw, np.uint8).reshape(4, 4)[:, 0]) == {expected}
    assert ctx.glIsEnabled(E.GL_FRAMEBUFFER_SRGB) is False or ctx.glIsEnabled(E.GL_FRAMEBUFFER_SRGB) == 0


# -- GL_ARB_depth_buffer_float ------------------------------------------------------------------------


def test_arb_depth_buffer_float_keeps_float_depth():
    """DEPTH_COMPONENT32F stores the depth as a float32: a value read back as
    FLOAT is the one written; DEPTH32F_STENCIL8 keeps stencil beside it."""
    ctx = make_ctx("gl43")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    depth = np.array([0.1, 0.3333333, 0.75, 1.0], np.float32)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT32F, 2, 2, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
    assert np.array_equal(got, depth)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_DEPTH_TYPE) == [E.GL_FLOAT]
    packed = struct.pack("<fI", 0.25, 0x5A) * 4           # FLOAT_32_UNSIGNED_INT_24_8_REV: depth, then stencil
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH32F_STENCIL8, 2, 2, 0, E.GL_DEPTH_STENCIL,
                     E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV, packed)
    expect(ctx, E.GL_NO_ERROR)
    got = ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_STENCIL, E.GL_FLOAT_32_UNSIGNED_INT_24_8_REV)
    assert [struct.unpack_from("<fI", got, 8 * i) for i in range(4)] == [(0.25, 0x5A)] * 4


# -- GL_ARB_texture_rgb10_a2ui ---------------------------------------------------------------------------


def test_arb_texture_rgb10_a2ui_round_trips_integers():
    ctx = make_ctx("gl43")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    word = 1023 | (512 << 10) | (7 << 20) | (2 << 30)      # R=1023, G=512, B=7, A=2
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGB10_A2UI, 1, 1, 0, E.GL_RGBA_INTEGER,
                     E.GL_UNSIGNED_INT_2_10_10_10_REV, np.array([word], np.uint32))
    expect(ctx, E.GL_NO_ERROR)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT), np.uint32)
    assert list(got) == [1023, 512, 7, 2]


# -- GL_ARB_half_float_vertex --------------------------------------------------------------------------------


def test_arb_half_float_vertex_attributes_render():
    ctx = glhelp.context(2, 2, api="gl43")
    prog = glhelp.program(ctx, "#version 330\nin vec2 p; in vec3 c; out vec3 v;\n"
                          "void main() { gl_Position = vec4(p, 0.0, 1.0); v = c; }\n",
                          "#version 330\nin vec3 v; out vec4 o;\nvoid main() { o = vec4(v, 1.0); }\n")
    data = np.array([[-1, -1, 0.25, 0.5, 1.0], [1, -1, 0.25, 0.5, 1.0],
                     [-1, 1, 0.25, 0.5, 1.0], [1, 1, 0.25, 0.5, 1.0]], np.float16)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    for name, n, first in (("p", 2, 0), ("c", 3, 2)):
        loc = ctx.glGetAttribLocation(prog, name)
        ctx.glVertexAttribPointer(loc, n, E.GL_HALF_FLOAT, False, 10, 2 * first)
        ctx.glEnableVertexAttribArray(loc)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (_pixels(ctx, 2, 2) == [64, 128, 255, 255]).all()


# -- GL_ARB_provoking_vertex -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode,expected", [(E.GL_FIRST_VERTEX_CONVENTION, [255, 0, 0, 255]),
                                           (E.GL_LAST_VERTEX_CONVENTION, [0, 0, 255, 255])])
def test_arb_provoking_vertex_selects_the_flat_colour(mode, expected):
    ctx = glhelp.context(4, 4, api="gl43")
    prog = glhelp.program(ctx, "#version 330\nin vec2 p; in vec3 c; flat out vec3 v;\n"
                          "void main() { gl_Position = vec4(p, 0.0, 1.0); v = c; }\n",
                          "#version 330\nflat in vec3 v; out vec4 o;\nvoid main() { o = vec4(v, 1.0); }\n")
    tri = np.array([[-1, -1, 1, 0, 0], [3, -1, 0, 1, 0], [-1, 3, 0, 0, 1]], np.float32)
    glhelp.vertices(ctx, prog, tri, {"p": (2, 0), "c": (3, 2)}, 5)
    ctx.glProvokingVertex(mode)
    assert ctx.glGetIntegerv(E.GL_PROVOKING_VERTEX) == [mode]
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert (_pixels(ctx, 4, 4) == expected).all()


# -- GL_ARB_texture_buffer_object (+ _rgb32, ARB_texture_buffer_range) ---------------------------------------------


def test_arb_texture_buffer_object_range_and_rgb32_fetch_texels():
    """texelFetch from a buffer texture: RGBA8 texels of a buffer, an RGB32F
    view of a range of another (ARB_texture_buffer_object_rgb32,
    ARB_texture_buffer_range)."""
    ctx = glhelp.context(4, 1, api="gl43")
    glhelp.program(ctx, QUAD_VS, "#version 330\nuniform samplerBuffer a; uniform samplerBuffer b; out vec4 o;\n"
                   "void main() { int i = int(gl_FragCoord.x);\n"
                   "  o = i < 2 ? texelFetch(a, i) : vec4(texelFetch(b, i - 2).rgb, 1.0); }\n")
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    bufs = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, bufs[0])
    ctx.glBufferData(E.GL_TEXTURE_BUFFER, 8, bytes([255, 0, 0, 255, 0, 255, 0, 255]), E.GL_STATIC_DRAW)
    floats = np.array([9, 9, 9, 9] + [0.0, 0.0, 1.0, 1.0, 1.0, 0.0] + [9, 9], np.float32)
    ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, bufs[1])
    ctx.glBufferData(E.GL_TEXTURE_BUFFER, floats.nbytes, floats, E.GL_STATIC_DRAW)
    texs = ctx.glGenTextures(2)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, texs[0])
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, bufs[0])
    ctx.glActiveTexture(E.GL_TEXTURE1)
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, texs[1])
    align = ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT)[0]
    assert 16 % align == 0
    ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_RGB32F, bufs[1], 16, 24)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "a"), 0)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "b"), 1)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _pixels(ctx, 4, 1)[0].tolist() == [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255],
                                               [255, 255, 0, 255]]


# -- GL_ARB_draw_indirect, ARB_multi_draw_indirect, ARB_base_instance -----------------------------------------------


def test_arb_draw_indirect_multi_draw_and_base_instance():
    """Two indirect draws of one quad each, with base instances 1 and 3: the
    instanced attribute (divisor 1) picks the colour of instance baseinstance."""
    ctx = glhelp.context(4, 2, api="gl43")
    prog = glhelp.program(ctx, "#version 330\nin vec2 p; in vec3 c; out vec3 v;\n"
                          "void main() { gl_Position = vec4(p, 0.0, 1.0); v = c; }\n",
                          "#version 330\nin vec3 v; out vec4 o;\nvoid main() { o = vec4(v, 1.0); }\n")
    quads = np.array([[-1, -1], [0, -1], [-1, 1], [0, 1], [0, -1], [1, -1], [0, 1], [1, 1]], np.float32)
    colours = np.array([[0, 0, 0], [1, 0, 0], [0, 0, 0], [0, 1, 0]], np.float32)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    vbo, cbo, ibo = ctx.glGenBuffers(3)
    for buf, arr, name, n in ((vbo, quads, "p", 2), (cbo, colours, "c", 3)):
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, arr.nbytes, arr, E.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(prog, name)
        ctx.glVertexAttribPointer(loc, n, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
        if name == "c":
            ctx.glVertexAttribDivisor(loc, 1)
    # DrawArraysIndirectCommand: count, instanceCount, first, baseInstance
    cmds = np.array([[4, 1, 0, 1], [4, 1, 4, 3]], np.uint32)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, ibo)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, cmds.nbytes, cmds, E.GL_STATIC_DRAW)
    ctx.glMultiDrawArraysIndirect(E.GL_TRIANGLE_STRIP, 0, 2, 16)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = _pixels(ctx, 4, 2)
    assert (img[:, :2] == [255, 0, 0, 255]).all() and (img[:, 2:] == [0, 255, 0, 255]).all()
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArraysIndirect(E.GL_TRIANGLE_STRIP, 16)      # the second command alone
    img = _pixels(ctx, 4, 2)
    assert (img[:, 2:] == [0, 255, 0, 255]).all() and (img[:, :2] == 0).all()


# -- GL_NV_conditional_render ----------------------------------------------------------------------------------------


def test_nv_conditional_render_skips_draws_when_nothing_passed():
    """An occlusion query over a draw that the depth test rejects entirely
    counts 0 samples: a draw under glBeginConditionalRenderNV(QUERY_WAIT) is
    skipped; over a visible draw it runs."""
    ctx = glhelp.context(4, 4, api="compat")
    glhelp.program(ctx, QUAD_VS, "#version 330\nuniform vec4 colour; out vec4 o;\nvoid main() { o = colour; }\n")
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    loc = ctx.glGetUniformLocation(prog, "colour")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    hidden, visible = ctx.glGenQueries(2)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_NEVER)
    ctx.glBeginQuery(E.GL_SAMPLES_PASSED, hidden)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndQuery(E.GL_SAMPLES_PASSED)
    ctx.glDepthFunc(E.GL_ALWAYS)
    ctx.glBeginQuery(E.GL_SAMPLES_PASSED, visible)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndQuery(E.GL_SAMPLES_PASSED)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glUniform4f(loc, 1.0, 0.0, 0.0, 1.0)
    ctx.glBeginConditionalRenderNV(hidden, E.GL_QUERY_WAIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndConditionalRenderNV()
    assert (_pixels(ctx, 4, 4) == 0).all()
    ctx.glUniform4f(loc, 0.0, 1.0, 0.0, 1.0)
    ctx.glBeginConditionalRenderNV(visible, E.GL_QUERY_WAIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndConditionalRenderNV()
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (_pixels(ctx, 4, 4) == [0, 255, 0, 255]).all()


# -- GL_ARB_draw_buffers_blend -----------------------------------------------------------------------------------------


def test_arb_draw_buffers_blend_blends_each_buffer_its_own_way():
    """Two colour buffers cleared to 0.5 grey; the shader writes 0.25 to both;
    buffer 0 adds (ONE, ONE) -> 0.75, buffer 1 subtracts (FUNC_REVERSE_SUBTRACT) -> 0.25."""
    ctx = glhelp.context(2, 2, api="compat")
    rbs = ctx.glGenRenderbuffers(2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for i, rb in enumerate(rbs):
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 2, 2)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_RENDERBUFFER, rb)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    ctx.glClearColor(0.5, 0.5, 0.5, 0.5)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    glhelp.program(ctx, QUAD_VS, "#version 330\nlayout(location = 0) out vec4 a;\nlayout(location = 1) out vec4 b;\n"
                   "void main() { a = vec4(0.25); b = vec4(0.25); }\n")
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunciARB(0, E.GL_ONE, E.GL_ONE)
    ctx.glBlendFunciARB(1, E.GL_ONE, E.GL_ONE)
    ctx.glBlendEquationiARB(1, E.GL_FUNC_REVERSE_SUBTRACT)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    for i, expected in ((0, 191), (1, 64)):                 # 0.5 + 0.25 = 0.75 -> 191; 0.5 - 0.25 -> 64
        ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0 + i)
        got = _pixels(ctx, 2, 2)
        assert (np.abs(got.astype(int) - expected) <= 1).all(), (i, got[0, 0])
    assert ctx.glGetIntegeri_v(E.GL_BLEND_EQUATION_RGB, 1) == [E.GL_FUNC_REVERSE_SUBTRACT]


# -- GL_EXT_transform_feedback -----------------------------------------------------------------------------------------


def test_ext_transform_feedback_captures_through_the_ext_commands():
    """A GLSL 1.20 shader's varying captured with the EXT commands into a
    buffer bound from an offset (glBindBufferOffsetEXT): the words before the
    offset stay as they were, the captured values are the vertices doubled."""
    ctx = glhelp.context(4, 4, api="compat")
    vs = ("#version 120\nattribute vec4 p;\nvarying vec4 v;\n"
          "void main() { gl_Position = p; v = p * 2.0; }\n")
    fs = "#version 120\nvarying vec4 v;\nvoid main() { gl_FragColor = v; }\n"
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glTransformFeedbackVaryingsEXT(prog, 1, ["v"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    verts = np.arange(12, dtype=np.float32).reshape(3, 4) / 16
    (vbo, out) = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, verts.nbytes, verts, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, out)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 64 + 48, np.full(28, -1, np.float32), E.GL_STREAM_READ)
    ctx.glBindBufferOffsetEXT(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, out, 64)
    ctx.glBeginTransformFeedbackEXT(E.GL_TRIANGLES)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    ctx.glEndTransformFeedbackEXT()
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 112), np.float32)
    assert (got[:16] == -1).all()
    assert np.array_equal(got[16:], (verts * 2).ravel())
    ctx.glBindBufferOffsetEXT(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, out, 6)     # not a multiple of 4
    assert ctx.glGetError() == E.GL_INVALID_VALUE


# -- GL_ARB_texture_gather ------------------------------------------------------------------------------------------------


def test_arb_texture_gather_in_a_glsl_130_shader():
    """#version 130 with GL_ARB_texture_gather: textureGather at the centre of
    a 2x2 texture returns the red of its four texels in the order of GL 4.6
    section 8.14.3 (i0j1, i1j1, i1j0, i0j0), and textureGatherOffset shifts
    the footprint (clamped at the edge)."""
    ctx = glhelp.context(2, 1, api="compat")
    glhelp.program(ctx, "#version 130\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
                   " gl_Position = vec4(p, 0.0, 1.0); }\n",
                   "#version 130\n#extension GL_ARB_texture_gather : require\nuniform sampler2D t;\n"
                   "void main() { gl_FragColor = gl_FragCoord.x < 1.0 ? textureGather(t, vec2(0.5))\n"
                   "  : textureGatherOffset(t, vec2(0.25), ivec2(1, 0)); }\n")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    # texel (i, j) red = 40 * (1 + i + 2 j): (0,0) 40, (1,0) 80, (0,1) 120, (1,1) 160
    texels = np.array([[40, 0, 0, 255], [80, 0, 0, 255], [120, 0, 0, 255], [160, 0, 0, 255]], np.uint8)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = _pixels(ctx, 2, 1)[0]
    assert img[0].tolist() == [120, 160, 80, 40]
    # vec2(0.25): u = v = 0.25 * 2 - 0.5 = 0, so i0 = j0 = 0, i1 = j1 = 1; the offset
    # (1, 0) makes i0 = 1, i1 = 2 -> 1 (clamped): (1,1) (1,1) (1,0) (1,0) = 160 160 80 80
    assert img[1].tolist() == [160, 160, 80, 80]
    assert ctx.glGetIntegerv(E.GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET) == [7]


# -- GL_ARB_texture_multisample ----------------------------------------------------------------------------------------------


def test_arb_texture_multisample_renders_and_fetches_samples():
    """A 4-sample texture rendered with GL_SAMPLE_MASK = 0b0101 (samples 0 and
    2 written green over a red clear), then read sample by sample with
    texelFetch(sampler2DMS) into the window: red for samples 1 and 3."""
    ctx = glhelp.context(4, 1, api="gl43")
    (ms,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ms)
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8, 4, 1, True)
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D_MULTISAMPLE, 0, E.GL_TEXTURE_SAMPLES) == [4]
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, ms, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearColor(1.0, 0.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    for i in range(4):
        x, y = ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i)
        assert 0.0 <= x < 1.0 and 0.0 <= y < 1.0
    ctx.glEnable(E.GL_SAMPLE_MASK)
    ctx.glSampleMaski(0, 0b0101)
    glhelp.program(ctx, QUAD_VS, "#version 330\nout vec4 o;\nvoid main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glDisable(E.GL_SAMPLE_MASK)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    glhelp.program(ctx, QUAD_VS, "#version 330\nuniform sampler2DMS t; out vec4 o;\n"
                   "void main() { o = texelFetch(t, ivec2(0, 0), int(gl_FragCoord.x)); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = _pixels(ctx, 4, 1)[0].tolist()
    assert got == [[0, 255, 0, 255], [255, 0, 0, 255], [0, 255, 0, 255], [255, 0, 0, 255]]


def test_arb_texture_multisample_array_fetches_each_layer():
    """A 4-sample, 2-layer array texture cleared red (layer 0) and blue
    (layer 1); texelFetch of sample 3 of layer x into the window."""
    ctx = glhelp.context(2, 1, api="gl43")
    (ms,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, ms)
    ctx.glTexImage3DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, E.GL_RGBA8, 2, 1, 2, True)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for layer, colour in ((0, (1.0, 0.0, 0.0, 1.0)), (1, (0.0, 0.0, 1.0, 1.0))):
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, ms, 0, layer)
        ctx.glClearColor(*colour)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    glhelp.program(ctx, QUAD_VS, "#version 330\nuniform sampler2DMSArray t; out vec4 o;\n"
                   "void main() { o = texelFetch(t, ivec3(0, 0, int(gl_FragCoord.x)), 3); }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _pixels(ctx, 2, 1)[0].tolist() == [[255, 0, 0, 255], [0, 0, 255, 255]]


def test_arb_texture_multisample_in_glsl_130_and_its_image_calls():
    """`#extension GL_ARB_texture_multisample` brings sampler2DMS to GLSL 1.30 (piglit's
    tests use it there); glTexImage2DMultisample takes unsized renderable formats
    (GL_RGBA here) and the proxy target (no image made, no error); a compressed format
    is not renderable: INVALID_ENUM (LUMINANCE is, in the compatibility profile since
    79167877, as in Mesa; a core context has no LUMINANCE: INVALID_ENUM there). Sample 1
    of a 2-sample texture whose sample 1 alone was drawn green (SAMPLE_MASK 0b10) over
    a red clear reads green."""
    ctx = glhelp.context(1, 1, api="compat")
    assert "GL_ARB_texture_multisample" in ctx.glGetString(E.GL_EXTENSIONS).split()
    (ms,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ms)
    ctx.glTexImage2DMultisample(E.GL_PROXY_TEXTURE_2D_MULTISAMPLE, 2, E.GL_RGBA, 4, 4, True)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 2, E.GL_COMPRESSED_RED_RGTC1, 4, 4, True)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    core = glhelp.context(1, 1, api="gl46")
    (core_ms,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, core_ms)
    for legacy in (E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_ALPHA, E.GL_INTENSITY):
        core.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 2, legacy, 4, 4, True)
        assert core.glGetError() == E.GL_INVALID_ENUM
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 2, E.GL_LUMINANCE, 4, 4, True)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 2, E.GL_RGBA, 4, 4, True)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D_MULTISAMPLE, 0, E.GL_TEXTURE_SAMPLES) == [2]
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, ms, 0)
    ctx.glClearColor(1.0, 0.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    green = glhelp.program(ctx, "#version 130\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1)"
                           " * 2.0 - 1.0; gl_Position = vec4(p, 0.0, 1.0); }\n",
                           "#version 130\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n")
    ctx.glEnable(E.GL_SAMPLE_MASK)
    ctx.glSampleMaski(0, 0b10)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glDisable(E.GL_SAMPLE_MASK)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    glhelp.program(ctx, "#version 130\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1)"
                   " * 2.0 - 1.0; gl_Position = vec4(p, 0.0, 1.0); }\n",
                   "#version 130\n#extension GL_ARB_texture_multisample : require\nuniform sampler2DMS t;\n"
                   "void main() { gl_FragColor = vec4(texelFetch(t, ivec2(0), 1).rg, texelFetch(t, ivec2(0), 0).r,"
                   " float(textureSize(t).x) / 4.0); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _pixels(ctx, 1, 1)[0].tolist() == [[0, 255, 255, 255]]


# -- GL_ARB_ES2_compatibility, GL_ARB_ES3_compatibility -------------------------------------------------------------------


def test_arb_es2_compatibility_fixed_point_attributes_and_queries():
    """GL_FIXED attributes are 16.16 fixed point: 0x8000 is 0.5, 0x4000 0.25;
    glClearDepthf/glDepthRangef set the same state as their double forms;
    highp float is IEEE single (range 2^127, precision 23 bits)."""
    ctx = glhelp.context(2, 2, api="compat")
    prog = glhelp.program(ctx, "#version 120\nattribute vec2 p; attribute vec3 c; varying vec3 v;\n"
                          "void main() { gl_Position = vec4(p, 0.0, 1.0); v = c; }\n",
                          "#version 120\nvarying vec3 v;\nvoid main() { gl_FragColor = vec4(v, 1.0); }\n")
    one = 0x10000
    data = np.array([[-one, -one, 0x8000, 0x4000, one], [one, -one, 0x8000, 0x4000, one],
                     [-one, one, 0x8000, 0x4000, one], [one, one, 0x8000, 0x4000, one]], np.int32)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    for name, n, first in (("p", 2, 0), ("c", 3, 2)):
        loc = ctx.glGetAttribLocation(prog, name)
        ctx.glVertexAttribPointer(loc, n, E.GL_FIXED, False, 20, 4 * first)
        ctx.glEnableVertexAttribArray(loc)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (np.abs(_pixels(ctx, 2, 2).astype(int) - [128, 64, 255, 255]) <= 1).all()
    ctx.glClearDepthf(0.25)
    ctx.glDepthRangef(0.125, 0.75)
    assert ctx.glGetFloatv(E.GL_DEPTH_CLEAR_VALUE) == [0.25]
    assert ctx.glGetFloatv(E.GL_DEPTH_RANGE) == [0.125, 0.75]
    assert ctx.glGetShaderPrecisionFormat(E.GL_FRAGMENT_SHADER, E.GL_HIGH_FLOAT) == ([127, 127], 23)
    assert ctx.glGetIntegerv(E.GL_SHADER_COMPILER) == [1]


def test_arb_es2_compatibility_rgb565_renders():
    """An RGB565 renderbuffer cleared magenta reads back (255, 0, 255, 255)."""
    ctx = glhelp.context(2, 2, api="compat")
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGB565, 2, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearColor(1.0, 0.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (_pixels(ctx, 2, 2) == [255, 0, 255, 255]).all()


def test_arb_es3_compatibility_fixed_index_restart_and_conservative_query():
    """PRIMITIVE_RESTART_FIXED_INDEX restarts at the type's all-ones index
    (0xFFFF for shorts) without a restart index set; the conservative
    any-samples query answers; MAX_ELEMENT_INDEX is 2^32 - 1; the ETC2/EAC
    formats are accepted (their decoding is tested in tests/layout)."""
    ctx = glhelp.context(4, 2, api="gl43")
    prog = glhelp.program(ctx, "#version 330\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n",
                          "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n")
    # two quads side by side as strips 0-3 and 4-7, joined by a restart index
    verts = np.array([[-1, -1], [0, -1], [-1, 1], [0, 1], [0, -1], [1, -1], [0, 1], [1, 1]], np.float32)
    glhelp.vertices(ctx, prog, verts, {"p": (2, 0)}, 2)
    (ibo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    idx = np.array([0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7], np.uint16)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx, E.GL_STATIC_DRAW)
    ctx.glEnable(E.GL_PRIMITIVE_RESTART_FIXED_INDEX)
    (q,) = ctx.glGenQueries(1)
    ctx.glBeginQuery(E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE, q)
    ctx.glDrawElements(E.GL_TRIANGLE_STRIP, 9, E.GL_UNSIGNED_SHORT, 0)
    ctx.glEndQuery(E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [1]
    assert (_pixels(ctx, 4, 2) == 255).all()              # both quads, no triangle through the restart
    assert ctx.glGetInteger64v(E.GL_MAX_ELEMENT_INDEX) == [2 ** 32 - 1]
    formats = set(ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS))
    assert {E.GL_COMPRESSED_RGB8_ETC2, E.GL_COMPRESSED_RGBA8_ETC2_EAC, E.GL_COMPRESSED_R11_EAC,
            E.GL_COMPRESSED_SIGNED_RG11_EAC, E.GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2} <= formats


# -- GL_ARB_texture_stencil8, GL_ARB_stencil_texturing --------------------------------------------------------------------


def test_stencil_textures_are_sampled_as_unsigned_integers():
    """A STENCIL_INDEX8 texture (ARB_texture_stencil8) and the stencil of a
    DEPTH24_STENCIL8 texture in GL_STENCIL_INDEX mode (ARB_stencil_texturing)
    read back through usampler2D as the uploaded stencil values."""
    ctx = glhelp.context(4, 1, api="gl43")
    glhelp.program(ctx, QUAD_VS, "#version 330\nuniform usampler2D t; out vec4 o;\n"
                   "void main() { uint s = texelFetch(t, ivec2(int(gl_FragCoord.x), 0), 0).r;\n"
                   "  o = vec4(float(s) / 255.0, 0.0, 0.0, 1.0); }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    s8, ds = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_2D, s8)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_STENCIL_INDEX8, 4, 1, 0, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE,
                     bytes([3, 50, 128, 255]))
    for pname in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, pname, E.GL_NEAREST)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx, 4, 1)[0, :, 0].tolist() == [3, 50, 128, 255]
    assert ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE) == bytes([3, 50, 128, 255])
    ctx.glBindTexture(E.GL_TEXTURE_2D, ds)
    words = np.array([(0x800000 << 8) | (40 * (i + 1)) for i in range(4)], np.uint32)   # depth 0.5, stencil 40i
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH24_STENCIL8, 4, 1, 0, E.GL_DEPTH_STENCIL,
                     E.GL_UNSIGNED_INT_24_8, words)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_DEPTH_STENCIL_TEXTURE_MODE, E.GL_STENCIL_INDEX)
    for pname in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, pname, E.GL_NEAREST)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _pixels(ctx, 4, 1)[0, :, 0].tolist() == [40, 80, 120, 160]
    assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_DEPTH_STENCIL_TEXTURE_MODE) == [E.GL_STENCIL_INDEX]


# -- GL_ARB_conditional_render_inverted ------------------------------------------------------------------------------------


def test_arb_conditional_render_inverted_renders_when_nothing_passed():
    """The inverted modes render when the query counted nothing and skip when
    samples passed (the reverse of the test above); blits follow the condition
    too (GL 4.6 section 10.10); glBeginConditionalRender(0) is INVALID_VALUE."""
    ctx = glhelp.context(4, 4, api="gl43")
    glhelp.program(ctx, QUAD_VS, "#version 330\nuniform vec4 colour; out vec4 o;\nvoid main() { o = colour; }\n")
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    loc = ctx.glGetUniformLocation(prog, "colour")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    hidden, visible = ctx.glGenQueries(2)
    ctx.glEnable(E.GL_DEPTH_TEST)
    for q, func in ((hidden, E.GL_NEVER), (visible, E.GL_ALWAYS)):
        ctx.glDepthFunc(func)
        ctx.glBeginQuery(E.GL_SAMPLES_PASSED, q)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glEndQuery(E.GL_SAMPLES_PASSED)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glUniform4f(loc, 0.0, 0.0, 1.0, 1.0)
    ctx.glBeginConditionalRender(visible, E.GL_QUERY_WAIT_INVERTED)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndConditionalRender()
    assert (_pixels(ctx, 4, 4) == 0).all()
    ctx.glBeginConditionalRender(hidden, E.GL_QUERY_WAIT_INVERTED)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndConditionalRender()
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (_pixels(ctx, 4, 4) == [0, 0, 255, 255]).all()
    # a blit under a failing condition does nothing
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glClearColor(1.0, 1.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glBeginConditionalRender(hidden, E.GL_QUERY_WAIT)
    ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    ctx.glEndConditionalRender()
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fb)
    assert (_pixels(ctx, 4, 4) == [255, 255, 0, 255]).all()        # still the clear colour
    ctx.glBeginConditionalRender(0, E.GL_QUERY_WAIT)
    assert ctx.glGetError() == E.GL_INVALID_VALUE


# -- GL_ARB_derivative_control ----------------------------------------------------------------------------------------------


def test_arb_derivative_control_fine_derivatives_per_row():
    """p = x * y over the window: dFdxFine is p(x+1) - p(x) within each quad
    row, so it equals y of that row's pixel centre (0.5, 1.5, ...); fwidthFine
    = |dFdx| + |dFdy| = y + x; the coarse forms are the quad derivatives too."""
    ctx = glhelp.context(4, 4, api="gl43")
    glhelp.program(ctx, QUAD_VS, "#version 150\n#extension GL_ARB_derivative_control : require\nout vec4 o;\n"
                   "void main() { float p = gl_FragCoord.x * gl_FragCoord.y;\n"
                   "  o = vec4(dFdxFine(p), dFdyFine(p), fwidthFine(p), dFdxCoarse(p) - dFdxFine(p)) / 16.0; }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4, 4) * 16
    # fine: the x derivative at a pixel is its row's y, the y derivative its column's x
    # (the window is RGBA8: values /16 are stored to 1/255, so 16/255 of tolerance)
    tol = 16 / 255
    xs = np.broadcast_to(np.arange(4)[None, :] + 0.5, (4, 4))
    ys = np.broadcast_to(np.arange(4)[:, None] + 0.5, (4, 4))
    assert np.allclose(got[..., 0], ys, atol=tol)
    assert np.allclose(got[..., 1], xs, atol=tol)
    assert np.allclose(got[..., 2], xs + ys, atol=tol)
    assert np.allclose(got[..., 3], 0.0, atol=tol)


def test_gl_4x_limits_programs_read_at_start_up_are_answered():
    """Limits moderngl reads at start-up (GL 4.6 tables 23.63, 23.69, 23.72):
    each answers, with at least the spec's minimum."""
    ctx = make_ctx("gl43")
    assert ctx.glGetIntegerv(E.GL_MIN_MAP_BUFFER_ALIGNMENT)[0] >= 64
    assert ctx.glGetIntegerv(E.GL_MAX_FRAMEBUFFER_LAYERS)[0] >= 2048
    combined = ctx.glGetIntegerv(E.GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS)[0]
    blocks = ctx.glGetIntegerv(E.GL_MAX_COMPUTE_UNIFORM_BLOCKS)[0]
    size = ctx.glGetIntegerv(E.GL_MAX_UNIFORM_BLOCK_SIZE)[0]
    assert combined == blocks * size // 4 + ctx.glGetIntegerv(E.GL_MAX_COMPUTE_UNIFORM_COMPONENTS)[0]
    expect(ctx, E.GL_NO_ERROR)


def test_indexed_viewport_scissor_and_vertex_binding_queries():
    """glGet*i_v of GL 4.1 (viewport index 0 of MAX_VIEWPORTS) and GL 4.3
    (vertex binding points of the bound VAO) answer the state set; an index
    past the limit is INVALID_VALUE."""
    ctx = make_ctx("gl43")
    ctx.glViewportIndexedf(0, 1.0, 2.0, 30.0, 40.0)
    ctx.glScissorIndexed(0, 3, 4, 5, 6)
    ctx.glEnable(E.GL_SCISSOR_TEST)
    assert ctx.glGetIntegeri_v(E.GL_VIEWPORT, 0) == [1, 2, 30, 40]
    assert ctx.glGetIntegeri_v(E.GL_SCISSOR_BOX, 0) == [3, 4, 5, 6]
    assert ctx.glGetBooleani_v(E.GL_SCISSOR_TEST, 0) == [True]
    n = ctx.glGetIntegerv(E.GL_MAX_VIEWPORTS)[0]
    ctx.glGetIntegeri_v(E.GL_VIEWPORT, n)
    expect(ctx, E.GL_INVALID_VALUE)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindVertexBuffer(2, buf, 48, 12)
    ctx.glVertexBindingDivisor(2, 3)
    assert ctx.glGetIntegeri_v(E.GL_VERTEX_BINDING_BUFFER, 2) == [buf]
    assert ctx.glGetIntegeri_v(E.GL_VERTEX_BINDING_STRIDE, 2) == [12]
    assert ctx.glGetInteger64i_v(E.GL_VERTEX_BINDING_OFFSET, 2) == [48]
    assert ctx.glGetIntegeri_v(E.GL_VERTEX_BINDING_DIVISOR, 2) == [3]
    expect(ctx, E.GL_NO_ERROR)
