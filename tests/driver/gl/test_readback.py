"""ReadPixels, BlitFramebuffer, Invalidate (GL 4.6 sections 18.2-18.3, 17.4.4;
GLES 3.2 sections 16.1-16.2)."""

import numpy as np

from driver.gallium import PipeMask, PipeTexFilter
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_framebuffers import fbo, rbo


def window_pixels(ctx, data: bytes):
    ctx.window.color.levels[0][3][:] = data


def test_read_pixels_rgba8(es3):
    c = make_ctx("gles3", 4, 2)
    window_pixels(c, bytes(range(32)))
    assert c.glReadPixels(0, 0, 4, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE) == bytes(range(32))
    assert c.glReadPixels(1, 1, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE) == bytes(range(20, 28))


def test_read_pixels_pack_state_and_conversion():
    c = make_ctx("gl33", 2, 2)
    window_pixels(c, bytes([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 0]))
    # GL allows any format/type: RGB floats, rows padded to PACK_ALIGNMENT
    out = c.glReadPixels(0, 0, 2, 2, E.GL_RGB, E.GL_FLOAT)
    assert np.array_equal(np.frombuffer(out, np.float32).reshape(2, 2, 3),
                          [[[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [1, 1, 1]]])
    c.glPixelStorei(E.GL_PACK_ALIGNMENT, 8)
    out = c.glReadPixels(0, 0, 1, 2, E.GL_BGRA, E.GL_UNSIGNED_BYTE)
    assert len(out) == 8 + 4 and out[:4] == bytes([0, 0, 255, 255]) and out[8:] == bytes([255, 0, 0, 255])
    c.glPixelStorei(E.GL_PACK_SKIP_PIXELS, 1)
    c.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
    out = c.glReadPixels(0, 0, 1, 1, E.GL_RED, E.GL_UNSIGNED_BYTE)
    assert out == bytes([0, 255])                          # skipped pixel left as zero


def test_read_pixels_errors(es3):
    es3.glReadPixels(0, 0, -1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_FLOAT)    # not allowed for an RGBA8 buffer
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glReadPixels(0, 0, 1, 1, 0x1234, E.GL_UNSIGNED_BYTE)
    expect(es3, E.GL_INVALID_ENUM)
    fbo(es3)
    es3.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    expect(es3, E.GL_INVALID_FRAMEBUFFER_OPERATION)


def test_read_pixels_into_pack_buffer(es3):
    c = make_ctx("gles3", 1, 1)
    window_pixels(c, bytes([1, 2, 3, 4]))
    (b,) = c.glGenBuffers(1)
    c.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, b)
    c.glBufferData(E.GL_PIXEL_PACK_BUFFER, 8, None, E.GL_STREAM_READ)
    assert c.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 4) is None
    assert bytes(c.buffers.get(b).resource.storage) == bytes([0, 0, 0, 0, 1, 2, 3, 4])
    c.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 6)
    expect(c, E.GL_INVALID_OPERATION)


def test_blit_resolve_and_errors(es3):
    (src, dst) = es3.glGenFramebuffers(2)
    es3.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src)
    ms = rbo(es3, E.GL_RGBA8, 8, 8, samples=4)
    es3.glFramebufferRenderbuffer(E.GL_READ_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, ms)
    es3.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst)
    ss = rbo(es3, E.GL_RGBA8, 8, 8)
    es3.glFramebufferRenderbuffer(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, ss)
    es3.glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    assert es3.glGetError() == E.GL_NO_ERROR
    info = es3.pipe.last("blit")[0]
    assert info.src.resource is es3.renderbuffers.get(ms).resource
    assert info.dst.resource is es3.renderbuffers.get(ss).resource
    assert info.mask == PipeMask.RGBA and info.filter == PipeTexFilter.NEAREST
    es3.glBlitFramebuffer(0, 0, 8, 8, 0, 0, 4, 4, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    expect(es3, E.GL_INVALID_OPERATION)                    # scaled resolve
    es3.glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, E.GL_DEPTH_BUFFER_BIT, E.GL_LINEAR)
    expect(es3, E.GL_INVALID_OPERATION)                    # LINEAR with depth
    es3.glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, 0x10, E.GL_NEAREST)
    expect(es3, E.GL_INVALID_VALUE)


def test_invalidate(es3):
    fbo(es3)
    r = rbo(es3, E.GL_RGBA8)
    es3.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, r)
    es3.glInvalidateFramebuffer(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR_ATTACHMENT0])
    assert es3.pipe.last("invalidate_resource")[0] is es3.renderbuffers.get(r).resource
    es3.glInvalidateFramebuffer(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR])
    expect(es3, E.GL_INVALID_ENUM)
    es3.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    es3.glInvalidateFramebuffer(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR])
    assert es3.pipe.last("invalidate_resource")[0] is es3.window.color


def test_read_pixels_partly_outside_reads_zero_bytes(es3):
    c = make_ctx("gles3", 4, 2)
    window_pixels(c, bytes(range(32)))
    out = c.glReadPixels(-1, 1, 3, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE)   # (-1..1, 1..2): 2 pixels inside
    want = np.zeros((2, 3, 4), np.uint8)
    want[0, 1:] = np.arange(16, 24).reshape(2, 4)
    assert out == want.tobytes()


def test_read_pixels_into_client_memory_equals_returned_bytes():
    """`dest` (the C ABI's client pointer): the bytes written in place are the
    bytes glReadPixels returns, for tight and padded pack states, inside and partly
    outside the image, and converting formats (which return bytes instead)."""
    c = make_ctx("gl33", 4, 3)
    window_pixels(c, bytes(range(7, 55)))
    tight_seen = 0
    for store in ({}, {E.GL_PACK_ALIGNMENT: 1}, {E.GL_PACK_ALIGNMENT: 8}, {E.GL_PACK_ROW_LENGTH: 6},
                  {E.GL_PACK_SKIP_PIXELS: 1}, {E.GL_PACK_SKIP_ROWS: 1}):
        for pname in (E.GL_PACK_ALIGNMENT, E.GL_PACK_ROW_LENGTH, E.GL_PACK_SKIP_PIXELS, E.GL_PACK_SKIP_ROWS):
            c.glPixelStorei(pname, store.get(pname, 4 if pname == E.GL_PACK_ALIGNMENT else 0))
        for fmt, type in ((E.GL_RGBA, E.GL_UNSIGNED_BYTE), (E.GL_RGB, E.GL_FLOAT), (E.GL_BGRA, E.GL_UNSIGNED_BYTE)):
            for x, y, w, h in ((0, 0, 4, 3), (1, 1, 3, 2), (-1, 0, 3, 2), (0, 0, 2, 3)):
                want = c.glReadPixels(x, y, w, h, fmt, type)
                mem = bytearray(b"\xa5" * (len(want) + 8))
                asked = []

                def dest(n):
                    asked.append(n)
                    return memoryview(mem)[:n]

                r = c.glReadPixels(x, y, w, h, fmt, type, dest=dest)
                if r is None:
                    assert asked == [len(want)]
                    assert bytes(mem) == want + b"\xa5" * 8
                    tight_seen += 1
                else:
                    assert r == want and asked == [] and bytes(mem) == b"\xa5" * len(mem)
    assert tight_seen >= 4          # the in-place path ran (tight RGBA8 reads)
