"""glBlitFramebuffer and sRGB / multisampled buffers (GL 4.6 section 18.3.1), as
piglit's arb_framebuffer_srgb blit tests found them wrong:

- desktop GL decodes an sRGB read buffer and encodes an sRGB draw buffer only
  while FRAMEBUFFER_SRGB is enabled; disabled, the stored values are copied
  (GLES always converts);
- desktop GL blits a single-sampled buffer into a multisampled one (each sample
  gets the source value) and copies between multisampled buffers of the same
  sample count; GLES forbids a multisampled draw framebuffer."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

W = H = 8


def _srgb_to_linear(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb(c):
    return np.where(c < 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def _fbo(g, fmt, samples=0):
    fb = g.glGenFramebuffers(1)[0]
    g.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    rb = g.glGenRenderbuffers(1)[0]
    g.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    g.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, fmt, W, H)
    g.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert g.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def _clear(g, fb, value):
    g.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    g.glDisable(E.GL_FRAMEBUFFER_SRGB)          # the stored value is `value`, unconverted
    g.glClearColor(value, value, value, value)
    g.glClear(E.GL_COLOR_BUFFER_BIT)


def _blit(g, src, dst, size=(W, H), dst_size=(W, H)):
    g.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src)
    g.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst)
    g.glBlitFramebuffer(0, 0, *size, 0, 0, *dst_size, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)


def _read(g, fb):
    g.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fb)
    data = g.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(data), np.uint8).reshape(H, W, 4)


# stored source byte 128; what the destination stores, by hand from equations 8.14/17.1
_S = 128 / 255
CASES = {
    "srgb_to_linear, disabled": (E.GL_SRGB8_ALPHA8, E.GL_RGBA8, False, 128),
    "srgb_to_linear, enabled": (E.GL_SRGB8_ALPHA8, E.GL_RGBA8, True, round(float(_srgb_to_linear(_S)) * 255)),
    "linear_to_srgb, disabled": (E.GL_RGBA8, E.GL_SRGB8_ALPHA8, False, 128),
    "linear_to_srgb, enabled": (E.GL_RGBA8, E.GL_SRGB8_ALPHA8, True, round(float(_linear_to_srgb(_S)) * 255)),
    "srgb_to_srgb, enabled": (E.GL_SRGB8_ALPHA8, E.GL_SRGB8_ALPHA8, True, 128),
}


@pytest.mark.parametrize("case", CASES)
def test_srgb_conversion_of_blits_follows_framebuffer_srgb(case):
    src_fmt, dst_fmt, enabled, expected = CASES[case]
    assert (CASES["srgb_to_linear, enabled"][3], CASES["linear_to_srgb, enabled"][3]) == (55, 188)
    with driver.Context("compat", W, H) as c:
        g = c.gl
        src, dst = _fbo(g, src_fmt), _fbo(g, dst_fmt)
        _clear(g, dst, 0.0)
        _clear(g, src, _S)
        if enabled:
            g.glEnable(E.GL_FRAMEBUFFER_SRGB)
        _blit(g, src, dst)
        g.glDisable(E.GL_FRAMEBUFFER_SRGB)
        got = _read(g, dst)
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    # red, green, blue converted (or not); alpha is never converted
    assert (np.abs(got[..., :3].astype(int) - expected) <= 1).all(), got[0, 0]
    assert (got[..., 3] == 128).all(), got[0, 0]


def test_a_single_sampled_source_fills_every_sample_of_a_multisampled_destination():
    with driver.Context("compat", W, H) as c:
        g = c.gl
        src, ms, resolved = _fbo(g, E.GL_RGBA8), _fbo(g, E.GL_RGBA8, 4), _fbo(g, E.GL_RGBA8)
        _clear(g, ms, 0.0)
        _clear(g, src, 200 / 255)
        _blit(g, src, ms)                      # upsample
        ms2 = _fbo(g, E.GL_RGBA8, 4)
        _clear(g, ms2, 0.0)
        _blit(g, ms, ms2)                      # multisampled to multisampled, same count
        _blit(g, ms2, resolved)                # resolve: the average of the samples
        got = _read(g, resolved)
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    # had only some samples been written, the resolve would average in the cleared 0s
    assert (got == 200).all(), got[0, 0]


def test_multisample_blit_errors():
    with driver.Context("compat", W, H) as c:
        g = c.gl
        ms4, ss = _fbo(g, E.GL_RGBA8, 4), _fbo(g, E.GL_RGBA8)
        ms2 = _fbo(g, E.GL_RGBA8, 2)
        assert g.glGetError() == E.GL_NO_ERROR
        _blit(g, ms4, ms2)                     # sample counts differ
        assert g.glGetError() == E.GL_INVALID_OPERATION
        _blit(g, ss, ms4, size=(4, 4))         # a blit into a multisampled buffer must not scale
        assert g.glGetError() == E.GL_INVALID_OPERATION
        _blit(g, ms4, ss, size=(W, H), dst_size=(4, 4))
        assert g.glGetError() == E.GL_INVALID_OPERATION


def test_gles_forbids_a_multisampled_draw_framebuffer():
    with driver.Context("gles3", W, H) as c:
        g = c.gl
        ss, ms = _fbo(g, E.GL_RGBA8), _fbo(g, E.GL_RGBA8, 4)
        _blit(g, ss, ms)
        assert g.glGetError() == E.GL_INVALID_OPERATION


@pytest.mark.parametrize("samples", [2, 4])
def test_a_resolve_into_another_rectangle_reads_the_source_rectangle(samples):
    """GL 4.6 section 18.3.1: a resolve must not scale, but the destination rectangle
    may lie elsewhere (piglit's unaligned-blit moves 49x49 tiles). The resolve program
    read the source at the destination's pixel positions."""
    with driver.Context("compat", W, H) as c:
        g = c.gl
        ms, ss = _fbo(g, E.GL_RGBA8, samples), _fbo(g, E.GL_RGBA8)
        _clear(g, ms, 0.0)
        g.glEnable(E.GL_SCISSOR_TEST)
        g.glScissor(0, 0, 2, 3)                        # a 2x3 white block at the source's origin
        _clear(g, ms, 1.0)
        g.glDisable(E.GL_SCISSOR_TEST)
        _clear(g, ss, 0.0)
        g.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms)
        g.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, ss)
        g.glBlitFramebuffer(0, 0, 4, 4, 5, 3, 9, 7, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        got = _read(g, ss)
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    want = np.zeros((H, W), np.uint8)
    want[3:6, 5:7] = 255                               # rows 3..5, columns 5..6
    assert (got[..., 0] == want).all(), got[..., 0]
