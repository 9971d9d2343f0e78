"""glReadPixels into the client's memory (the C ABI's pointer: ``dest``) on the
AGX driver: the image is detiled straight into it (``pipe.texture_read``), for
twiddled textures (levels, array layers) and compressed render targets, in every
pixel format whose stored bytes are the client's. Expected pixels: the uploaded
data (and the same bytes glReadPixels returns without ``dest``)."""

import numpy as np
import pytest

import driver
from driver.agx.pipe import AgxContext

# (internal format, format, type, bytes a pixel, numpy dtype of a component)
FORMATS = [("GL_RGBA8", "GL_RGBA", "GL_UNSIGNED_BYTE", 4), ("GL_R8", "GL_RED", "GL_UNSIGNED_BYTE", 1),
           ("GL_RG16", "GL_RG", "GL_UNSIGNED_SHORT", 4), ("GL_RGBA16UI", "GL_RGBA_INTEGER", "GL_UNSIGNED_SHORT", 8),
           ("GL_RGBA32I", "GL_RGBA_INTEGER", "GL_INT", 16)]


def _read(ctx, x, y, w, h, fmt, type_, n_B):
    """(bytes written into client memory, bytes returned without it)."""
    mem = bytearray(b"\xa5" * (n_B + 16))
    r = ctx.glReadPixels(x, y, w, h, fmt, type_, dest=lambda n: memoryview(mem)[:n])
    assert r is None and bytes(mem[n_B:]) == b"\xa5" * 16
    return bytes(mem[:n_B]), ctx.glReadPixels(x, y, w, h, fmt, type_)


@pytest.mark.parametrize("internal, fmt, type_, bpp", FORMATS)
def test_read_pixels_into_client_memory_is_the_image(internal, fmt, type_, bpp, monkeypatch):
    reads = []
    original = AgxContext.texture_read
    monkeypatch.setattr(AgxContext, "texture_read", lambda self, *a: (reads.append(a[1:3]), original(self, *a)))
    ctx = driver.Context(api="gl33", width=8, height=8)
    I, F, T = (getattr(ctx, n) for n in (internal, fmt, type_))
    rng = np.random.default_rng(len(internal) + bpp)
    W, H = 70, 37
    ctx.glPixelStorei(ctx.GL_UNPACK_ALIGNMENT, 1)
    ctx.glPixelStorei(ctx.GL_PACK_ALIGNMENT, 1)          # rows of 70 R8 pixels are tight
    levels = [rng.integers(0, 256, (max(1, H >> k), max(1, W >> k), bpp), dtype=np.uint8) for k in range(3)]
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    for k, data in enumerate(levels):
        ctx.glTexImage2D(ctx.GL_TEXTURE_2D, k, I, data.shape[1], data.shape[0], 0, F, T, data.tobytes())
    fb = ctx.glGenFramebuffers(2)
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fb[0])
    for k, data in enumerate(levels):
        ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, k)
        h, w = data.shape[:2]
        for x, y, rw, rh in ((0, 0, w, h), (w // 3, h // 4, w - w // 3, h // 2)):
            got, returned = _read(ctx, x, y, rw, rh, F, T, rw * rh * bpp)
            assert got == data[y:y + rh, x:x + rw].tobytes() == returned, (k, x, y)
    # a render target (a compressed layout where the format allows) filled by a blit
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(ctx.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(ctx.GL_RENDERBUFFER, I, W, H)
    ctx.glBindFramebuffer(ctx.GL_DRAW_FRAMEBUFFER, fb[1])
    ctx.glFramebufferRenderbuffer(ctx.GL_DRAW_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_RENDERBUFFER, rb)
    ctx.glFramebufferTexture2D(ctx.GL_READ_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, ctx.GL_COLOR_BUFFER_BIT, ctx.GL_NEAREST)
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fb[1])
    got, returned = _read(ctx, 0, 0, W, H, F, T, W * H * bpp)
    assert got == levels[0].tobytes() == returned
    assert ctx.glGetError() == ctx.GL_NO_ERROR
    assert len(reads) == 2 * len(levels) + 1       # every read above went straight into client memory


def test_a_region_partly_outside_is_read_through_a_copy():
    """Pixels outside the image read as zero bytes; the whole region is still
    written in place (from a staging copy)."""
    ctx = driver.Context(api="gles3", width=8, height=8)
    data = np.arange(6 * 5 * 4, dtype=np.uint8).reshape(5, 6, 4)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_RGBA8, 6, 5, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, data.tobytes())
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, ctx.glGenFramebuffers(1)[0])
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    got, returned = _read(ctx, 2, 2, 4, 3, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, 48)
    assert got == data[2:5, 2:6].tobytes() == returned
    got, returned = _read(ctx, 2, 2, 5, 3, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, 60)
    want = np.zeros((3, 5, 4), np.uint8)
    want[:, :4] = data[2:5, 2:6]
    assert got == want.tobytes() == returned
    assert ctx.glGetError() == ctx.GL_NO_ERROR
