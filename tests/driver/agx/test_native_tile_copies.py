"""The AGX driver's texture uploads and readbacks of large regions go through
``layout``'s tile copies in C (built by the driver through
``uapi.native_kernels``); smaller ones, ``SHIMGL_DEBUG=interp`` and a host
without a C compiler take numpy. Expected pixels: the uploaded data (an
independent expectation), and the same bytes on both paths."""

import numpy as np
import pytest

import driver
from driver.agx import resource as agx_resource
from layout import native as layout_native

# (internal format, format, type, bytes a pixel)
FORMATS = [("GL_RGBA8", "GL_RGBA", "GL_UNSIGNED_BYTE", 4), ("GL_R8", "GL_RED", "GL_UNSIGNED_BYTE", 1),
           ("GL_RGBA16UI", "GL_RGBA_INTEGER", "GL_UNSIGNED_SHORT", 8),
           ("GL_RGBA32I", "GL_RGBA_INTEGER", "GL_INT", 16)]


@pytest.fixture
def copies(monkeypatch):
    """Count the C copies (None: the C cannot be built here)."""
    if not agx_resource._TILE_COPIES.usable():
        pytest.skip("no C compiler")
    calls = []
    original = layout_native.copy_tiles
    monkeypatch.setattr(layout_native, "copy_tiles", lambda *a: (calls.append(a[1]), original(*a)))
    import layout.addressing
    monkeypatch.setattr(layout.addressing, "copy_tiles", layout_native.copy_tiles)
    return calls


def _round_trip(internal, fmt, type_, bpp, W, H, seed):
    ctx = driver.Context(api="gl33", width=8, height=8)
    I, F, T = (getattr(ctx, n) for n in (internal, fmt, type_))
    ctx.glPixelStorei(ctx.GL_UNPACK_ALIGNMENT, 1)
    ctx.glPixelStorei(ctx.GL_PACK_ALIGNMENT, 1)
    data = np.random.default_rng(seed).integers(0, 256, (H, W, bpp), dtype=np.uint8)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, I, W, H, 0, F, T, data.tobytes())
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, ctx.glGenFramebuffers(1)[0])
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    whole = ctx.glReadPixels(0, 0, W, H, F, T)
    mem = bytearray(W * H * bpp)
    assert ctx.glReadPixels(0, 0, W, H, F, T, dest=lambda n: memoryview(mem)[:n]) is None
    part = ctx.glReadPixels(W // 4, H // 4, W // 2, H // 2, F, T)
    assert ctx.glGetError() == ctx.GL_NO_ERROR
    return data, whole, bytes(mem), part


@pytest.mark.parametrize("internal, fmt, type_, bpp", FORMATS)
def test_large_uploads_and_readbacks_copy_in_c(internal, fmt, type_, bpp, copies):
    W, H = 512, 256
    data, whole, into_client, part = _round_trip(internal, fmt, type_, bpp, W, H, bpp)
    assert whole == data.tobytes() == into_client
    assert part == data[H // 4:H // 4 + H // 2, W // 4:W // 4 + W // 2].tobytes()
    assert False in copies and True in copies          # uploaded and read back in C


def test_small_regions_and_interp_copy_with_numpy(copies, monkeypatch):
    data, whole, into_client, _ = _round_trip("GL_RGBA8", "GL_RGBA", "GL_UNSIGNED_BYTE", 4, 128, 128, 1)
    assert whole == data.tobytes() == into_client
    assert copies == []                                 # 16K pixels: under the C's threshold
    monkeypatch.setenv("SHIMGL_DEBUG", "interp")
    data, whole, into_client, _ = _round_trip("GL_RGBA8", "GL_RGBA", "GL_UNSIGNED_BYTE", 4, 512, 256, 2)
    assert whole == data.tobytes() == into_client
    assert copies == []
