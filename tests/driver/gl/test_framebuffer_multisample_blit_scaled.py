"""GL_EXT_framebuffer_multisample_blit_scaled: glBlitFramebuffer's filters
SCALED_RESOLVE_FASTEST_EXT and SCALED_RESOLVE_NICEST_EXT resolve a multisampled
read framebuffer into a single-sampled draw framebuffer of another size: each
destination pixel is the bilinear mix (texel centres, edges clamped) of the
resolved (sample-averaged) source texels around its centre's source position,
computed here with numpy. The extension's errors: INVALID_OPERATION for a
single-sampled read or a multisampled draw framebuffer, or an integer buffer;
NEAREST/LINEAR still refuse to scale a multisampled blit."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = "#version 130\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS = "#version 130\nuniform float s;\nout vec4 o;\n" \
     "void main() { o = vec4(gl_FragCoord.x * (s + 1.0), gl_FragCoord.y + s * s, s, 1.0); }\n"
SCALED = (E.GL_SCALED_RESOLVE_FASTEST_EXT, E.GL_SCALED_RESOLVE_NICEST_EXT)


def _fbo(ctx, samples, w, h, fmt=E.GL_RGBA32F):
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, fmt, w, h)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def _source(ctx, w, h):
    """A 4-sample w x h RGBA32F framebuffer whose sample s of pixel (x, y) holds
    ((x + 0.5)(s + 1), y + 0.5 + s^2, s, 1); returns it and its resolved texels."""
    fb = _fbo(ctx, 4, w, h)
    ctx.glViewport(0, 0, w, h)
    prog = glhelp.program(ctx, VS, FS)
    glhelp.vertices(ctx, prog, [[-1, -1], [1, -1], [-1, 1], [1, 1]], {"p": (2, 0)}, 2)
    ctx.glEnable(E.GL_SAMPLE_MASK)
    for s in range(4):
        ctx.glSampleMaski(0, 1 << s)
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "s"), float(s))
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glDisable(E.GL_SAMPLE_MASK)
    y, x = np.mgrid[0:h, 0:w] + 0.5
    s = np.arange(4.0)
    samples = np.stack([x[..., None] * (s + 1), y[..., None] + s * s, np.broadcast_to(s, (h, w, 4)),
                        np.ones((h, w, 4))], -1)               # (h, w, sample, rgba)
    return fb, samples.mean(axis=2)


def _bilinear(texels, dw, dh):
    """The scaled resolve of the resolved ``texels`` (h, w, 4) onto dw x dh pixels."""
    h, w, _ = texels.shape
    out = np.empty((dh, dw, 4))
    for j in range(dh):
        for i in range(dw):
            px, py = (i + 0.5) * w / dw - 0.5, (j + 0.5) * h / dh - 0.5
            x0, y0 = int(np.floor(px)), int(np.floor(py))
            fx, fy = px - x0, py - y0
            cx = lambda v: min(max(v, 0), w - 1)                   # noqa: E731
            cy = lambda v: min(max(v, 0), h - 1)                   # noqa: E731
            top = texels[cy(y0), cx(x0)] * (1 - fx) + texels[cy(y0), cx(x0 + 1)] * fx
            bottom = texels[cy(y0 + 1), cx(x0)] * (1 - fx) + texels[cy(y0 + 1), cx(x0 + 1)] * fx
            out[j, i] = top * (1 - fy) + bottom * fy
    return out


def test_listed():
    for api in ("compat", "gl46"):
        with driver.Context(api=api, width=1, height=1) as ctx:
            assert "GL_EXT_framebuffer_multisample_blit_scaled" in ctx.extensions


@pytest.mark.parametrize("filter_", SCALED)
@pytest.mark.parametrize("src, dst", [((2, 1), (4, 1)), ((2, 2), (1, 1)), ((3, 2), (7, 5)), ((4, 4), (4, 4))])
def test_scaled_resolve_is_bilinear_over_resolved_texels(filter_, src, dst):
    ctx = glhelp.context(1, 1, api="compat")
    ms, texels = _source(ctx, *src)
    out = _fbo(ctx, 0, *dst)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, out)
    ctx.glBlitFramebuffer(0, 0, src[0], src[1], 0, 0, dst[0], dst[1], E.GL_COLOR_BUFFER_BIT, filter_)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, out)
    got = np.frombuffer(ctx.glReadPixels(0, 0, dst[0], dst[1], E.GL_RGBA, E.GL_FLOAT), np.float32)
    np.testing.assert_allclose(got.reshape(dst[1], dst[0], 4), _bilinear(texels, *dst), rtol=1e-5, atol=1e-5)


def test_errors():
    ctx = glhelp.context(1, 1, api="compat")
    ms1, ms2, ss1, ss2 = _fbo(ctx, 4, 8, 8), _fbo(ctx, 4, 8, 8), _fbo(ctx, 0, 8, 8), _fbo(ctx, 0, 8, 8)
    msi, ssi = _fbo(ctx, 4, 8, 8, E.GL_RGBA8I), _fbo(ctx, 0, 8, 8, E.GL_RGBA8I)
    for filter_ in SCALED:
        for read, draw, error in ((ms1, ms2, E.GL_INVALID_OPERATION), (ss1, ss2, E.GL_INVALID_OPERATION),
                                  (ss1, ms1, E.GL_INVALID_OPERATION), (msi, ssi, E.GL_INVALID_OPERATION),
                                  (ms1, ss1, E.GL_NO_ERROR)):
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, read)
            ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, draw)
            ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 8, 8, E.GL_COLOR_BUFFER_BIT, filter_)
            expect(ctx, error)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms1)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, ss1)
        ctx.glBlitFramebuffer(0, 0, 8, 8, 0, 0, 8, 8, E.GL_DEPTH_BUFFER_BIT, filter_)
        expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms1)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, ss1)
    for filter_ in (E.GL_NEAREST, E.GL_LINEAR):
        ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 8, 8, E.GL_COLOR_BUFFER_BIT, filter_)
        expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 8, 8, E.GL_COLOR_BUFFER_BIT, E.GL_SCALED_RESOLVE_NICEST_EXT + 1)
    expect(ctx, E.GL_INVALID_ENUM)


def test_not_in_gles():
    with driver.Context(api="gles3", width=1, height=1) as ctx:
        assert "GL_EXT_framebuffer_multisample_blit_scaled" not in ctx.extensions
        ctx.glBlitFramebuffer(0, 0, 1, 1, 0, 0, 1, 1, E.GL_COLOR_BUFFER_BIT, E.GL_SCALED_RESOLVE_FASTEST_EXT)
        expect(ctx, E.GL_INVALID_ENUM)
