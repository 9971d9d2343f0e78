"""Framebuffers and renderbuffers (GL 4.6 chapter 9, GLES 3.2 chapter 9)."""

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect, use_program

FB = E.GL_FRAMEBUFFER
C0 = E.GL_COLOR_ATTACHMENT0


def fbo(ctx):
    (f,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(FB, f)
    return f


def rbo(ctx, fmt, w=8, h=8, samples=0):
    (r,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, r)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, fmt, w, h)
    return r


def tex2d(ctx, fmt, w=8, h=8, f=E.GL_RGBA, t=E.GL_UNSIGNED_BYTE):
    (t_,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t_)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, w, h, 0, f, t, None)
    return t_


def test_default_framebuffer_is_complete(any_ctx):
    assert any_ctx.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_COMPLETE


def test_completeness_rules(es3):
    f = fbo(es3)
    assert es3.glIsFramebuffer(f)
    assert es3.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    t = tex2d(es3, E.GL_RGBA8)
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t, 0)
    assert es3.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_COMPLETE
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t, 1)      # undefined level
    assert es3.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t, 0)
    d = rbo(es3, E.GL_RGBA8)
    es3.glFramebufferRenderbuffer(FB, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, d)
    assert es3.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
    d = rbo(es3, E.GL_DEPTH_COMPONENT24, 4, 4)                    # smaller is fine in ES3
    es3.glFramebufferRenderbuffer(FB, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, d)
    assert es3.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_COMPLETE
    ms = rbo(es3, E.GL_RGBA8, samples=4)
    es3.glFramebufferRenderbuffer(FB, C0 + 1, E.GL_RENDERBUFFER, ms)
    assert es3.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE


def test_es2_requires_equal_sizes():
    c = make_ctx("gles2")
    fbo(c)
    t = tex2d(c, E.GL_RGBA)
    c.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t, 0)
    d = rbo_es2(c, E.GL_DEPTH_COMPONENT16, 4, 4)
    c.glFramebufferRenderbuffer(FB, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, d)
    assert c.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS


def rbo_es2(c, fmt, w, h):
    (r,) = c.glGenRenderbuffers(1)
    c.glBindRenderbuffer(E.GL_RENDERBUFFER, r)
    c.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, w, h)
    return r


def test_attachment_errors(es3):
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, 0, 0)
    expect(es3, E.GL_INVALID_OPERATION)                    # default framebuffer bound
    fbo(es3)
    es3.glFramebufferTexture2D(FB, C0 + 8, E.GL_TEXTURE_2D, 0, 0)
    expect(es3, E.GL_INVALID_OPERATION)                    # ES: >= MAX_COLOR_ATTACHMENTS
    es3.glFramebufferTexture2D(FB, E.GL_BACK, E.GL_TEXTURE_2D, 0, 0)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, 999, 0)
    expect(es3, E.GL_INVALID_OPERATION)
    t = tex2d(es3, E.GL_RGBA8)
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_CUBE_MAP_POSITIVE_X, t, 0)
    expect(es3, E.GL_INVALID_OPERATION)                    # target mismatch
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t, -1)
    expect(es3, E.GL_INVALID_VALUE)


def test_renderbuffer_storage(es3):
    es3.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    expect(es3, E.GL_INVALID_OPERATION)                    # none bound
    r = rbo(es3, E.GL_RGBA8, 5, 3, samples=3)
    assert es3.glIsRenderbuffer(r)
    q = lambda p: es3.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, p)[0]
    assert (q(E.GL_RENDERBUFFER_WIDTH), q(E.GL_RENDERBUFFER_HEIGHT)) == (5, 3)
    assert q(E.GL_RENDERBUFFER_SAMPLES) == 4               # rounded up to a supported count
    assert q(E.GL_RENDERBUFFER_RED_SIZE) == 8
    es3.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGB, 4, 4)     # ES3: unsized not allowed
    expect(es3, E.GL_INVALID_ENUM)
    es3.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 64, E.GL_RGBA8, 4, 4)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, -1, 4)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8UI, 4, 4)
    expect(es3, E.GL_INVALID_OPERATION)                    # ES 3.0: no MSAA integer


def test_unsized_stencil_index_renderbuffer():
    """Desktop GL: GL_STENCIL_INDEX is a renderbuffer format (GL 4.6 table 9.1's base
    format, 8 stencil bits, its own name read back), as on Mesa (piglit
    fbo-storage-completeness); as the only attachment it makes a complete
    framebuffer, as a colour attachment an incomplete one; GLES 3 refuses it
    (INVALID_ENUM)."""
    ctx = make_ctx("compat")
    fbo(ctx)
    rbo(ctx, E.GL_STENCIL_INDEX)
    expect(ctx, E.GL_NO_ERROR)
    q = lambda p: ctx.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, p)[0]
    assert (q(E.GL_RENDERBUFFER_INTERNAL_FORMAT), q(E.GL_RENDERBUFFER_STENCIL_SIZE)) == (E.GL_STENCIL_INDEX, 8)
    rb = ctx.glGetIntegerv(E.GL_RENDERBUFFER_BINDING)[0]
    ctx.glFramebufferRenderbuffer(FB, C0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
    ctx.glFramebufferRenderbuffer(FB, C0, E.GL_RENDERBUFFER, 0)
    ctx.glFramebufferRenderbuffer(FB, E.GL_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_COMPLETE
    es3 = make_ctx("gles3")
    rbo(es3, E.GL_STENCIL_INDEX)
    expect(es3, E.GL_INVALID_ENUM)


def test_a_layer_the_image_does_not_have_is_an_incomplete_attachment():
    """GL 4.6 section 9.4.2: an attached layer at or past the image's layer count makes
    the attachment incomplete: a 1D array's layers are its rows, a cube map array's are
    its layer-faces (the image's depth), as a 2D array's."""
    ctx = make_ctx("gl43")
    fbo(ctx)
    for target, size, layers in ((E.GL_TEXTURE_1D_ARRAY, (8, 4, 1), 4), (E.GL_TEXTURE_2D_ARRAY, (8, 8, 3), 3),
                                 (E.GL_TEXTURE_CUBE_MAP_ARRAY, (8, 8, 12), 12)):
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(target, tex)
        if target == E.GL_TEXTURE_1D_ARRAY:
            ctx.glTexImage2D(target, 0, E.GL_RGBA8, size[0], size[1], 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        else:
            ctx.glTexImage3D(target, 0, E.GL_RGBA8, *size, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        ctx.glFramebufferTextureLayer(FB, C0, tex, 0, layers - 1)
        assert ctx.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_COMPLETE, target
        ctx.glFramebufferTextureLayer(FB, C0, tex, 0, layers)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT, target


def test_a_1d_array_layer_is_one_row_high_in_the_framebuffer():
    """A layer of a 1D array is a 1-pixel-high image (GL 4.6 section 9.2.8): beside an
    8x8 texture, the framebuffer is the intersection, 8x1 - a full-screen draw writes
    row 0 of the 2D texture only (its layer count, 4, was taken as its height: rows
    0-3), and only the attached layer of the array."""
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        _draw_beside_a_1d_array_layer(ctx)


def _draw_beside_a_1d_array_layer(ctx):
    (arr,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_1D_ARRAY, arr)
    ctx.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA8, 8, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(8 * 4 * 4))
    t2 = tex2d(ctx, E.GL_RGBA8)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(8 * 8 * 4))
    fbo(ctx)
    ctx.glFramebufferTextureLayer(FB, C0, arr, 0, 1)
    ctx.glFramebufferTexture2D(FB, E.GL_COLOR_ATTACHMENT1, E.GL_TEXTURE_2D, t2, 0)
    ctx.glDrawBuffers(2, [C0, E.GL_COLOR_ATTACHMENT1])
    assert ctx.glCheckFramebufferStatus(FB) == E.GL_FRAMEBUFFER_COMPLETE
    use_program(ctx, "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }",
                "#version 330\nlayout(location = 0) out vec4 a;\nlayout(location = 1) out vec4 b;\n"
                "void main() { a = vec4(0.0, 1.0, 0.0, 1.0); b = a; }")
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
    quad = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glViewport(0, 0, 8, 8)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    green = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                          np.uint8).reshape(8, 8, 4)[..., 1]
    np.testing.assert_array_equal(green, np.where(np.arange(8)[:, None] == 0, 255, 0) + np.zeros((8, 8), int))
    layers = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                           np.uint8).reshape(4, 8, 4)[..., 1]
    np.testing.assert_array_equal(layers, np.where(np.arange(4)[:, None] == 1, 255, 0) + np.zeros((4, 8), int))


def test_deleting_attached_renderbuffer_detaches(es3):
    fbo(es3)
    r = rbo(es3, E.GL_RGBA8)
    es3.glFramebufferRenderbuffer(FB, C0, E.GL_RENDERBUFFER, r)
    assert es3.glGetFramebufferAttachmentParameteriv(
        FB, C0, E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) == [r]
    es3.glDeleteRenderbuffers(1, [r])
    assert es3.glGetFramebufferAttachmentParameteriv(
        FB, C0, E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) == [E.GL_NONE]


def test_attachment_queries(es3):
    fbo(es3)
    t = tex2d(es3, E.GL_RGBA16F, f=E.GL_RGBA, t=E.GL_HALF_FLOAT)
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t, 0)
    q = lambda p: es3.glGetFramebufferAttachmentParameteriv(FB, C0, p)[0]
    assert q(E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) == E.GL_TEXTURE
    assert q(E.GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE) == 16
    assert q(E.GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) == E.GL_FLOAT
    assert q(E.GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING) == E.GL_LINEAR


def test_draw_buffers(es3):
    es3.glDrawBuffers(1, [C0])
    expect(es3, E.GL_INVALID_OPERATION)                    # default fb takes BACK/NONE
    es3.glDrawBuffers(1, [E.GL_NONE])
    assert es3.glGetIntegerv(E.GL_DRAW_BUFFER0) == [E.GL_NONE]
    fbo(es3)
    es3.glDrawBuffers(2, [C0, C0 + 1])
    assert es3.glGetIntegerv(E.GL_DRAW_BUFFER1) == [C0 + 1]
    es3.glDrawBuffers(2, [C0 + 1, C0])
    expect(es3, E.GL_INVALID_OPERATION)                    # ES: i must be COLOR_ATTACHMENTi
    es3.glDrawBuffers(9, [C0] * 9)
    expect(es3, E.GL_INVALID_VALUE)
    core = make_ctx("gl33")
    fbo(core)
    core.glDrawBuffers(2, [C0 + 1, C0])
    assert core.glGetIntegerv(E.GL_DRAW_BUFFER0) == [C0 + 1]
    core.glDrawBuffers(2, [C0, C0])
    expect(core, E.GL_INVALID_OPERATION)


def test_read_buffer(es3):
    es3.glReadBuffer(C0)
    expect(es3, E.GL_INVALID_OPERATION)
    fbo(es3)
    es3.glReadBuffer(C0 + 2)
    assert es3.glGetIntegerv(E.GL_READ_BUFFER) == [C0 + 2]


def test_split_draw_read_bindings(es3):
    a, b = es3.glGenFramebuffers(2)
    es3.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, a)
    es3.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, b)
    assert es3.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING) == [a]
    assert es3.glGetIntegerv(E.GL_READ_FRAMEBUFFER_BINDING) == [b]
    es3.glDeleteFramebuffers(1, [a])
    assert es3.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING) == [0]
    es3.glBindFramebuffer(FB, 1234)
    expect(es3, E.GL_INVALID_OPERATION)


def test_pipe_framebuffer_state_for_mrt(es3):
    fbo(es3)
    t0 = tex2d(es3, E.GL_RGBA8, 8, 8)
    t1 = tex2d(es3, E.GL_RGBA8, 4, 4)
    es3.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t0, 0)
    es3.glFramebufferTexture2D(FB, C0 + 1, E.GL_TEXTURE_2D, t1, 0)
    es3.glDrawBuffers(2, [C0, E.GL_NONE])
    st = es3._pipe_framebuffer_state()
    assert (st.width_px, st.height_px) == (4, 4)
    assert st.cbufs[0].resource is es3.textures.get(t0).resource and st.cbufs[1] is None
    assert st.zsbuf is None


def test_srgb_encoding_follows_framebuffer_srgb_on_desktop():
    from driver.gallium import PipeFormat
    for api, enable, want in (("gl33", False, PipeFormat.R8G8B8A8_UNORM),
                              ("gl33", True, PipeFormat.R8G8B8A8_SRGB),
                              ("gles3", False, PipeFormat.R8G8B8A8_SRGB)):
        c = make_ctx(api)
        fbo(c)
        t = tex2d(c, E.GL_SRGB8_ALPHA8)
        c.glFramebufferTexture2D(FB, C0, E.GL_TEXTURE_2D, t, 0)
        if enable:
            c.glEnable(E.GL_FRAMEBUFFER_SRGB)
        assert c._pipe_framebuffer_state().cbufs[0].format == want, api


def test_draw_and_read_buffer_errors_follow_the_spec_order():
    """GL 4.6 sections 17.4.1 and 18.2.1: names of several buffers are INVALID_ENUM
    in DrawBuffers but valid in DrawBuffer; BACK only alone; default-framebuffer names
    on a framebuffer object and buffers the window lacks (right, aux) are
    INVALID_OPERATION; nothing changes on an error."""
    c = make_ctx("gl46")
    for b in (E.GL_FRONT, E.GL_LEFT, E.GL_RIGHT, E.GL_FRONT_AND_BACK, E.GL_RED):
        c.glDrawBuffers(1, [b])
        expect(c, E.GL_INVALID_ENUM)
    c.glDrawBuffers(2, [E.GL_BACK_LEFT, E.GL_BACK])
    expect(c, E.GL_INVALID_OPERATION)
    for b in (E.GL_FRONT_RIGHT, E.GL_BACK_RIGHT, E.GL_AUX0, E.GL_COLOR_ATTACHMENT0):
        c.glDrawBuffers(1, [b])
        expect(c, E.GL_INVALID_OPERATION)
    c.glDrawBuffers(1, [E.GL_FRONT_LEFT])
    expect(c, E.GL_NO_ERROR)
    assert c.glGetIntegerv(E.GL_DRAW_BUFFER0)[0] == E.GL_FRONT_LEFT
    c.glDrawBuffer(E.GL_FRONT_AND_BACK)               # several buffers: fine for DrawBuffer
    expect(c, E.GL_NO_ERROR)
    c.glDrawBuffer(E.GL_RIGHT)                        # names only buffers the window lacks
    expect(c, E.GL_INVALID_OPERATION)
    assert c.glGetIntegerv(E.GL_DRAW_BUFFER0)[0] == E.GL_FRONT_AND_BACK
    c.glReadBuffer(E.GL_FRONT_RIGHT)
    expect(c, E.GL_INVALID_OPERATION)
    c.glReadBuffer(E.GL_FRONT)
    expect(c, E.GL_NO_ERROR)
    fbo = c.glGenFramebuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    for b in (E.GL_FRONT_LEFT, E.GL_BACK, E.GL_COLOR_ATTACHMENT0 + c.glGetIntegerv(E.GL_MAX_COLOR_ATTACHMENTS)[0]):
        c.glDrawBuffers(1, [b])
        expect(c, E.GL_INVALID_OPERATION)
        c.glReadBuffer(b)
        expect(c, E.GL_INVALID_OPERATION)
    c.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT1, E.GL_COLOR_ATTACHMENT1])
    expect(c, E.GL_INVALID_OPERATION)
    c.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT1, E.GL_NONE])
    expect(c, E.GL_NO_ERROR)
    assert c.glGetIntegerv(E.GL_DRAW_BUFFER0)[0] == E.GL_COLOR_ATTACHMENT1
