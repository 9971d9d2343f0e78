"""Work that used to fall back to the CPU and now runs on the GPU: scissored and masked
depth/stencil clears (glClear and glClearBuffer) are drawn as a quad; depth, stencil and
integer blits and depth copies are drawn by the Gallium blitter. Checked against numpy
with the CPU paths made to fail. Conditional rendering stays a CPU decision (as in Mesa's
asahi) and honours the NO_WAIT modes."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

W, H = 16, 12


def _no_cpu(*_a, **_k):
    raise AssertionError("the CPU clear path was used")


def _fbo(ctx):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    rbs = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rbs[0])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, W, H)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rbs[0])
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rbs[1])
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH32F_STENCIL8, W, H)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, rbs[1])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


def _depth(ctx):
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_DEPTH_COMPONENT, E.GL_FLOAT)
    return np.frombuffer(raw, np.float32).reshape(H, W)


def _stencil(ctx):
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(H, W)


@pytest.mark.parametrize("how", ["glClear", "glClearBuffer"])
def test_scissored_and_masked_depth_stencil_clears_on_the_gpu(how):
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        _fbo(ctx)
        ctx.glClearDepth(0.25)
        ctx.glClearStencil(0x0F)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
        ctx.pipe.clear_depth_stencil = _no_cpu
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(3, 2, 7, 5)
        ctx.glStencilMask(0xF0)
        if how == "glClear":
            ctx.glClearDepth(0.3)
            ctx.glClearStencil(0xAA)
            ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
        else:
            ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 0.3, 0xAA)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        depth, stencil = _depth(ctx), _stencil(ctx)
    want_d = np.full((H, W), 0.25, np.float32)
    want_d[2:7, 3:10] = np.float32(0.3)                  # exact: the clear is not interpolated
    want_s = np.full((H, W), 0x0F, np.uint8)
    want_s[2:7, 3:10] = (0x0F & ~0xF0) | (0xAA & 0xF0)
    np.testing.assert_array_equal(depth, want_d)
    np.testing.assert_array_equal(stencil, want_s)


def test_clear_buffer_respects_the_depth_mask():
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        _fbo(ctx)
        ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 0.5, 3)
        ctx.glDepthMask(False)
        ctx.glClearBufferfv(E.GL_DEPTH, 0, [0.75])
        expect(ctx, E.GL_NO_ERROR)
        assert (_depth(ctx) == 0.5).all()
        assert (_stencil(ctx) == 3).all()


# -- blits the BLIT command cannot do, drawn by the Gallium blitter ---------------------------

def _fbo_pair(ctx, color_fmt, zs_fmt, size):
    fbos = ctx.glGenFramebuffers(2)
    for fbo, (w, h) in zip(fbos, size):
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        rbs = ctx.glGenRenderbuffers(2)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rbs[0])
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, color_fmt, w, h)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rbs[0])
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rbs[1])
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, zs_fmt, w, h)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, rbs[1])
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fbos


def _nearest_map(src_box, dst_box, dst_shape, src_img, dst_img):
    """The NEAREST blit of src_box into dst_box (GL 4.6 section 18.3.1), numpy."""
    out = dst_img.copy()
    sx0, sy0, sx1, sy1 = src_box
    dx0, dy0, dx1, dy1 = dst_box
    h, w = dst_shape
    for y in range(max(0, min(dy0, dy1)), min(h, max(dy0, dy1))):
        for x in range(max(0, min(dx0, dx1)), min(w, max(dx0, dx1))):
            u = sx0 + (x + 0.5 - dx0) * (sx1 - sx0) / (dx1 - dx0)
            v = sy0 + (y + 0.5 - dy0) * (sy1 - sy0) / (dy1 - dy0)
            out[y, x] = src_img[int(np.floor(v)), int(np.floor(u))]
    return out


@pytest.mark.parametrize("zs_fmt", [E.GL_DEPTH32F_STENCIL8, E.GL_DEPTH24_STENCIL8])
def test_depth_and_stencil_blits_scaled_and_flipped_on_the_gpu(zs_fmt, monkeypatch):
    import driver.agx.blit
    monkeypatch.setattr(driver.agx.blit, "cpu_blit", _no_cpu)
    sw, sh, dw, dh = 8, 6, 16, 12
    rng = np.random.default_rng(7)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        src, dst = _fbo_pair(ctx, E.GL_RGBA8, zs_fmt, [(sw, sh), (dw, dh)])
        # source depth: a quad per pixel is overkill; draw with scissored clears instead
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, src)
        ctx.glEnable(E.GL_SCISSOR_TEST)
        depth = rng.integers(0, 64, (sh, sw)) / 64.0
        stencil = rng.integers(0, 256, (sh, sw)).astype(np.uint8)
        for y in range(sh):
            for x in range(sw):
                ctx.glScissor(x, y, 1, 1)
                ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, float(depth[y, x]), int(stencil[y, x]))
        ctx.glDisable(E.GL_SCISSOR_TEST)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, dst)
        ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 1.0, 0x5A)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst)
        sbox, dbox = (1, 0, 7, 5), (14, 1, 2, 11)          # scaled 2x in both, flipped in x
        ctx.glBlitFramebuffer(*sbox, *dbox, E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT, E.GL_NEAREST)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, dst)
        got_d = np.frombuffer(ctx.glReadPixels(0, 0, dw, dh, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
        got_s = np.frombuffer(ctx.glReadPixels(0, 0, dw, dh, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE), np.uint8)
    want_d = _nearest_map(sbox, dbox, (dh, dw), depth.astype(np.float32), np.ones((dh, dw), np.float32))
    want_s = _nearest_map(sbox, dbox, (dh, dw), stencil, np.full((dh, dw), 0x5A, np.uint8))
    np.testing.assert_allclose(got_d.reshape(dh, dw), want_d, atol=1e-6)
    np.testing.assert_array_equal(got_s.reshape(dh, dw), want_s)


@pytest.mark.parametrize("fmt,dtype,kind", [(E.GL_RGBA32I, np.int32, E.GL_INT),
                                            (E.GL_RGBA16UI, np.uint16, E.GL_UNSIGNED_INT)])
def test_integer_colour_blit_on_the_gpu(fmt, dtype, kind, monkeypatch):
    import driver.agx.blit
    monkeypatch.setattr(driver.agx.blit, "cpu_blit", _no_cpu)
    sw, sh, dw, dh = 6, 4, 9, 8
    rng = np.random.default_rng(3)
    img = rng.integers(-1000 if dtype == np.int32 else 0, 60000, (sh, sw, 4)).astype(dtype)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        texs = ctx.glGenTextures(2)
        fbos = ctx.glGenFramebuffers(2)
        for t, f, (w, h), data in ((texs[0], fbos[0], (sw, sh), img), (texs[1], fbos[1], (dw, dh), None)):
            ctx.glBindTexture(E.GL_TEXTURE_2D, t)
            ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, w, h, 0, E.GL_RGBA_INTEGER,
                             E.GL_INT if dtype == np.int32 else E.GL_UNSIGNED_SHORT, data)
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, f)
            ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t, 0)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fbos[1])
        ctx.glClearBufferiv(E.GL_COLOR, 0, [7, 7, 7, 7]) if dtype == np.int32 else \
            ctx.glClearBufferuiv(E.GL_COLOR, 0, [7, 7, 7, 7])
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbos[0])
        sbox, dbox = (0, 4, 6, 0), (1, 1, 8, 7)                       # flipped in y, scaled
        ctx.glBlitFramebuffer(*sbox, *dbox, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbos[1])
        got = np.frombuffer(ctx.glReadPixels(0, 0, dw, dh, E.GL_RGBA_INTEGER, kind),
                            np.int32 if kind == E.GL_INT else np.uint32).reshape(dh, dw, 4)
    want = _nearest_map(sbox, dbox, (dh, dw), img.astype(np.int64), np.full((dh, dw, 4), 7, np.int64))
    np.testing.assert_array_equal(got.astype(np.int64), want)


def test_copy_image_sub_data_of_depth_on_the_gpu(monkeypatch):
    import driver.agx.blit
    monkeypatch.setattr(driver.agx.blit, "cpu_blit", _no_cpu)
    w, h = 8, 8
    depth = (np.arange(w * h, dtype=np.float32).reshape(h, w) / 64.0)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        texs = ctx.glGenTextures(2)
        for t, data in zip(texs, (depth, np.ones_like(depth))):
            ctx.glBindTexture(E.GL_TEXTURE_2D, t)
            ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT32F, w, h, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT,
                             data)
        draws = ctx.pipe.stats["draws"]
        ctx.glCopyImageSubData(texs[0], E.GL_TEXTURE_2D, 0, 1, 2, 0, texs[1], E.GL_TEXTURE_2D, 0, 4, 3, 0, 3, 4, 1)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.pipe.stats["draws"] == draws + 1          # drawn by the blitter, not copied by the CPU
        fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_TEXTURE_2D, texs[1], 0)
        ctx.glDrawBuffer(E.GL_NONE)
        ctx.glReadBuffer(E.GL_NONE)
        got = np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32).reshape(h, w)
    want = np.ones_like(depth)
    want[3:7, 4:7] = depth[2:6, 1:4]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode", [E.GL_QUERY_WAIT, E.GL_QUERY_NO_WAIT])
def test_conditional_render_wait_modes(mode):
    """The result decides on the CPU (as Mesa's asahi); NO_WAIT renders while the result is
    not available yet, and skips once it is (zero samples passed)."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        q = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_SAMPLES_PASSED, q)
        ctx.glEndQuery(E.GL_SAMPLES_PASSED)                   # nothing drawn: 0 samples
        ctx.glClearColor(0, 0, 1, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glFinish()
        ctx.glBeginConditionalRender(q, mode)
        ctx.glClearColor(1, 0, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEndConditionalRender()
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
    assert (img == (0, 0, 255, 255)).all()                    # available by now: skipped either way


def test_copy_tex_sub_image_of_depth_reads_the_depth_buffer_on_the_gpu(monkeypatch):
    import driver.agx.blit
    monkeypatch.setattr(driver.agx.blit, "cpu_blit", _no_cpu)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        _fbo(ctx)                                                  # W x H, DEPTH32F_STENCIL8
        ctx.glClearDepth(0.75)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(2, 1, 3, 2)
        ctx.glClearDepth(0.125)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT32F, 8, 8, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT,
                         np.ones((8, 8), np.float32))
        ctx.glCopyTexSubImage2D(E.GL_TEXTURE_2D, 0, 1, 1, 0, 0, 6, 4)
        expect(ctx, E.GL_NO_ERROR)
        fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_TEXTURE_2D, tex, 0)
        ctx.glDrawBuffer(E.GL_NONE)
        ctx.glReadBuffer(E.GL_NONE)
        got = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32).reshape(8, 8)
    src = np.full((H, W), 0.75, np.float32)
    src[1:3, 2:5] = 0.125
    want = np.ones((8, 8), np.float32)
    want[1:5, 1:7] = src[0:4, 0:6]
    np.testing.assert_array_equal(got, want)


def test_multisampled_depth_stencil_resolve_on_the_gpu(monkeypatch):
    import driver.agx.blit
    monkeypatch.setattr(driver.agx.blit, "cpu_blit", _no_cpu)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        fbos = ctx.glGenFramebuffers(2)
        for fbo, samples in zip(fbos, (4, 0)):
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
            rbs = ctx.glGenRenderbuffers(2)
            for rb, fmt, point in ((rbs[0], E.GL_RGBA8, E.GL_COLOR_ATTACHMENT0),
                                   (rbs[1], E.GL_DEPTH24_STENCIL8, E.GL_DEPTH_STENCIL_ATTACHMENT)):
                ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
                ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, fmt, W, H)
                ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, point, E.GL_RENDERBUFFER, rb)
            assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
            ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 1.0, 0)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbos[0])
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(2, 3, 5, 4)
        ctx.glClearBufferfi(E.GL_DEPTH_STENCIL, 0, 0.5, 0x3C)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbos[0])
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fbos[1])
        ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT, E.GL_NEAREST)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbos[1])
        depth, stencil = _depth(ctx), _stencil(ctx)
    want_d = np.ones((H, W), np.float32)
    want_d[3:7, 2:7] = 0.5
    want_s = np.zeros((H, W), np.uint8)
    want_s[3:7, 2:7] = 0x3C
    np.testing.assert_allclose(depth, want_d, atol=1e-7)
    np.testing.assert_array_equal(stencil, want_s)


def test_copy_image_sub_data_between_formats_of_one_size_is_bit_exact(monkeypatch):
    w, h = 8, 4
    rgba = np.random.default_rng(5).integers(0, 256, (h, w, 4), dtype=np.uint8)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        texs = ctx.glGenTextures(2)
        ctx.glBindTexture(E.GL_TEXTURE_2D, texs[0])
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8_SNORM, w, h, 0, E.GL_RGBA, E.GL_BYTE, rgba)
        ctx.glBindTexture(E.GL_TEXTURE_2D, texs[1])
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_R32UI, w, h, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT,
                         np.zeros((h, w), np.uint32))
        draws = ctx.pipe.stats["draws"]
        submits = ctx.pipe.stats["submits"]
        ctx.glCopyImageSubData(texs[0], E.GL_TEXTURE_2D, 0, 0, 0, 0, texs[1], E.GL_TEXTURE_2D, 0, 0, 0, 0, w, h, 1)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.pipe.stats["submits"] > submits and ctx.pipe.stats["draws"] == draws     # a BLIT command
        got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT),
                            np.uint32).reshape(h, w)
    np.testing.assert_array_equal(got, rgba.view(np.uint32).reshape(h, w))
