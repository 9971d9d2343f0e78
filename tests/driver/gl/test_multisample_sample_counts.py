"""A multisampled image asked for 1 sample gets 2 (the smallest count above single
sampling; Mesa's state tracker rounds the same way), for renderbuffers, multisample
textures and framebuffers without attachments. It used to get 1 sample, so
GL_SAMPLES said 1 and a blit from it into a 2-sample buffer was taken instead of
INVALID_OPERATION (piglit's ext_framebuffer_multisample-blit-mismatched-samples,
GL 4.6 section 18.3.1: both multisampled, different sample counts)."""

import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def _ms_framebuffer(ctx, samples):
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, E.GL_RGBA8, 8, 8)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb, rb


@pytest.mark.parametrize("requested, got", [(0, 0), (1, 2), (2, 2), (3, 4), (4, 4)])
def test_renderbuffer_samples_round_up_above_one(requested, got):
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        fb, rb = _ms_framebuffer(ctx, requested)
        assert ctx.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_SAMPLES)[0] == got
        assert ctx.glGetIntegerv(E.GL_SAMPLES)[0] == got
        assert ctx.glGetIntegerv(E.GL_SAMPLE_BUFFERS)[0] == (1 if got else 0)


def test_multisample_texture_of_one_sample_has_two():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, t)
        ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 1, E.GL_RGBA8, 4, 4, True)
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_2D_MULTISAMPLE, 0, E.GL_TEXTURE_SAMPLES)[0] == 2


def test_blit_between_one_sample_request_and_four_samples_is_invalid():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        src, _ = _ms_framebuffer(ctx, 1)
        dst, _ = _ms_framebuffer(ctx, 4)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, src)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst)
        ctx.glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_framebuffer_parameter_samples_from_gl_45():
    """GL 4.5 section 9.2.3: glGetFramebufferParameteriv answers SAMPLES and
    SAMPLE_BUFFERS of the framebuffer bound to the target (piglit's
    arb_sample_shading-samplemask asks it; it was INVALID_ENUM)."""
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        ms, _ = _ms_framebuffer(ctx, 4)
        ss, _ = _ms_framebuffer(ctx, 0)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms)        # the draw framebuffer stays ss
        assert ctx.glGetFramebufferParameteriv(E.GL_READ_FRAMEBUFFER, E.GL_SAMPLES) == [4]
        assert ctx.glGetFramebufferParameteriv(E.GL_READ_FRAMEBUFFER, E.GL_SAMPLE_BUFFERS) == [1]
        assert ctx.glGetFramebufferParameteriv(E.GL_DRAW_FRAMEBUFFER, E.GL_SAMPLES) == [0]
        assert ctx.glGetFramebufferParameteriv(E.GL_DRAW_FRAMEBUFFER, E.GL_SAMPLE_BUFFERS) == [0]
        expect(ctx, E.GL_NO_ERROR)
        ctx.glGetFramebufferParameteriv(E.GL_DRAW_FRAMEBUFFER, E.GL_SAMPLE_POSITION)
        expect(ctx, E.GL_INVALID_ENUM)
