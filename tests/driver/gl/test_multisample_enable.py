"""GL_MULTISAMPLE and GL_SAMPLE_COVERAGE on a 4-sample target (GL 4.6 sections
14.3.1 and 17.3.1), read sample by sample with texelFetch.

- Enabled, a primitive covers the samples whose positions (glGetMultisamplefv) lie
  inside it; disabled, rasterization is single-sample at the pixel centre with full
  coverage: all four samples or none (piglit's ext_framebuffer_multisample-enable-flag
  failed: the GPU model kept sampling at the sample positions).
- SAMPLE_COVERAGE keeps floor(value * samples) samples (the first ones, inverted:
  the others), ANDed with SAMPLE_MASK (piglit's sample-coverage tests failed: it
  was ignored); with GL_MULTISAMPLE disabled, it, the sample mask and alpha to
  coverage do nothing."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = "#version 130\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS = "#version 130\nuniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"


def _target(ctx, samples=4):
    (ms,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ms)
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, samples, E.GL_RGBA32F, 1, 1, True)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, ms, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, 1, 1)
    ctx.glClearColor(0.0, 0.0, 0.0, 0.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    prog = glhelp.program(ctx, VS, FS)
    return prog


def _draw(ctx, prog, x1_px, colour=(1.0, 1.0, 1.0, 1.0)):
    """A rectangle over the 1x1 target's whole height from x = 0 to ``x1_px``."""
    x1 = 2.0 * x1_px - 1.0
    glhelp.vertices(ctx, prog, [[-1, -1], [x1, -1], [-1, 1], [x1, 1]], {"p": (2, 0)}, 2)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), *colour)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR


def _reds(ctx, samples=4):
    """The red of each sample of the 1x1 target."""
    (ms,) = ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_2D_MULTISAMPLE)
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t2)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, samples, 1, 0, E.GL_RGBA, E.GL_FLOAT, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t2, 0)
    ctx.glViewport(0, 0, samples, 1)
    ctx.glDisable(E.GL_SAMPLE_COVERAGE)
    ctx.glDisable(E.GL_SAMPLE_MASK)
    ctx.glDisable(E.GL_SAMPLE_ALPHA_TO_COVERAGE)
    ctx.glDisable(E.GL_BLEND)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ms)
    prog = glhelp.program(ctx, VS, "#version 150\nuniform sampler2DMS t;\nout vec4 o;\n"
                                   "void main() { o = texelFetch(t, ivec2(0), int(gl_FragCoord.x)); }\n")
    glhelp.vertices(ctx, prog, [[-1, -1], [1, -1], [-1, 1], [1, 1]], {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = np.frombuffer(ctx.glReadPixels(0, 0, samples, 1, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(samples, 4)
    return got[:, 0]


def _coverage(ctx, samples=4):
    """Which samples of the 1x1 target hold a non-zero red."""
    return [int(v != 0) for v in _reds(ctx, samples)]


def _inside(ctx, x1_px):
    """Which of the 4 sample positions lie left of x1_px (GL's sample positions)."""
    return [int(ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i)[0] < x1_px) for i in range(4)]


@pytest.mark.parametrize("x1_px", [0.45, 0.55])
def test_multisample_enabled_covers_the_samples_inside(x1_px):
    ctx = glhelp.context(1, 1, api="compat")
    prog = _target(ctx)
    assert ctx.glIsEnabled(E.GL_MULTISAMPLE)
    expected = _inside(ctx, x1_px)
    assert 0 < sum(expected) < 4                 # the edge splits the samples
    _draw(ctx, prog, x1_px)
    assert _coverage(ctx) == expected


@pytest.mark.parametrize("x1_px, expected", [(0.45, [0, 0, 0, 0]), (0.55, [1, 1, 1, 1])])
def test_multisample_disabled_samples_the_pixel_centre(x1_px, expected):
    ctx = glhelp.context(1, 1, api="compat")
    prog = _target(ctx)
    ctx.glDisable(E.GL_MULTISAMPLE)
    _draw(ctx, prog, x1_px)
    assert _coverage(ctx) == expected


def test_multisample_toggled_between_draws_of_one_pass():
    """A draw with MULTISAMPLE on and one with it off in the same render pass: the
    first covers its samples, the second (its centre inside) all of them."""
    ctx = glhelp.context(1, 1, api="compat")
    prog = _target(ctx)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)
    _draw(ctx, prog, 0.45, (0.25, 0, 0, 0))
    ctx.glDisable(E.GL_MULTISAMPLE)
    _draw(ctx, prog, 0.55, (0.5, 0, 0, 0))
    ctx.glEnable(E.GL_MULTISAMPLE)
    _draw(ctx, prog, 0.45, (0.125, 0, 0, 0))
    inside = np.array(_inside(ctx, 0.45))
    assert _reds(ctx).tolist() == (0.5 + 0.375 * inside).tolist()


@pytest.mark.parametrize("value, invert, expected", [
    (0.5, False, [1, 1, 0, 0]), (0.5, True, [0, 0, 1, 1]),
    (0.3, False, [1, 0, 0, 0]), (1.0, True, [0, 0, 0, 0]), (0.0, True, [1, 1, 1, 1])])
def test_sample_coverage_keeps_floor_value_times_samples(value, invert, expected):
    ctx = glhelp.context(1, 1, api="compat")
    prog = _target(ctx)
    ctx.glEnable(E.GL_SAMPLE_COVERAGE)
    ctx.glSampleCoverage(value, invert)
    _draw(ctx, prog, 1.0)
    assert _coverage(ctx) == expected


def test_sample_coverage_and_sample_mask_combine():
    ctx = glhelp.context(1, 1, api="compat")
    prog = _target(ctx)
    ctx.glEnable(E.GL_SAMPLE_COVERAGE)
    ctx.glSampleCoverage(0.5, False)                 # samples 0, 1
    ctx.glEnable(E.GL_SAMPLE_MASK)
    ctx.glSampleMaski(0, 0b0110)                     # samples 1, 2
    _draw(ctx, prog, 1.0)
    assert _coverage(ctx) == [0, 1, 0, 0]


@pytest.mark.parametrize("cap", [E.GL_SAMPLE_COVERAGE, E.GL_SAMPLE_MASK, E.GL_SAMPLE_ALPHA_TO_COVERAGE])
def test_multisample_disabled_ignores_the_coverage_operations(cap):
    ctx = glhelp.context(1, 1, api="compat")
    prog = _target(ctx)
    ctx.glSampleCoverage(0.0, False)
    ctx.glSampleMaski(0, 0)
    ctx.glEnable(cap)
    ctx.glDisable(E.GL_MULTISAMPLE)
    _draw(ctx, prog, 1.0, (1.0, 1.0, 1.0, 0.0))     # alpha 0: no coverage when it applies
    assert _coverage(ctx) == [1, 1, 1, 1]
    ctx2 = glhelp.context(1, 1, api="compat")        # and it applies with MULTISAMPLE on
    prog2 = _target(ctx2)
    ctx2.glSampleCoverage(0.0, False)
    ctx2.glSampleMaski(0, 0)
    ctx2.glEnable(cap)
    _draw(ctx2, prog2, 1.0, (1.0, 1.0, 1.0, 0.0))
    assert _coverage(ctx2) == [0, 0, 0, 0]


FS_MASK0 = ("#version 130\n#extension GL_ARB_sample_shading : require\nuniform vec4 c;\nout vec4 o;\n"
            "void main() { o = c; gl_SampleMask[0] = 0; }\n")


def test_shader_sample_mask_ignored_with_multisample_disabled():
    """GL 4.6 section 17.3.1: the shader's output sample mask changes nothing with
    GL_MULTISAMPLE disabled (and it acts with it enabled)."""
    for enabled, expected in ((True, [0, 0, 0, 0]), (False, [1, 1, 1, 1])):
        ctx = glhelp.context(1, 1, api="compat")
        _target(ctx)
        prog = glhelp.program(ctx, VS, FS_MASK0)
        (ctx.glEnable if enabled else ctx.glDisable)(E.GL_MULTISAMPLE)
        _draw(ctx, prog, 1.0)
        assert _coverage(ctx) == expected


@pytest.mark.parametrize("value", ["float(gl_SampleID + 1)", "float(gl_SampleMaskIn[0])"])
def test_sample_id_and_mask_in_with_multisample_disabled(value):
    """GL 4.6 section 14.3.1: with GL_MULTISAMPLE disabled a fragment is the pixel,
    shaded once: a program reading gl_SampleID sees 0 (it ran once per sample with
    its sample's number), gl_SampleMaskIn is 1 (it held every covered sample), as
    on Mesa's drivers (piglit's arb_sample_shading samplemask noms partition and
    mask_in_one). With it enabled (control) each sample has its own number, and the
    mask a sample was written with holds that sample (the rectangle's two triangles
    share the pixel's samples)."""
    fs = ("#version 130\n#extension GL_ARB_sample_shading : require\nuniform vec4 c;\nout vec4 o;\n"
          f"void main() {{ o = vec4({value}, 0.0, 0.0, 1.0); }}\n")
    for enabled in (True, False):
        ctx = glhelp.context(1, 1, api="compat")
        _target(ctx)
        prog = glhelp.program(ctx, VS, fs)
        (ctx.glEnable if enabled else ctx.glDisable)(E.GL_MULTISAMPLE)
        _draw(ctx, prog, 1.0)
        reds = [int(v) for v in _reds(ctx)]
        if not enabled:
            assert reds == [1, 1, 1, 1]
        elif "SampleID" in value:
            assert reds == [1, 2, 3, 4]
        else:
            assert all(r >> i & 1 for i, r in enumerate(reds)), reds


def test_shader_sample_mask_ignored_on_a_single_sampled_target():
    """No sample buffers: gl_SampleMask[0] = 0 keeps the fragment (piglit's
    arb_sample_shading builtin-gl-sample-mask-simple 0 failed: it was discarded)."""
    ctx = glhelp.context(1, 1, api="compat")
    prog = glhelp.program(ctx, VS, FS_MASK0)
    ctx.glViewport(0, 0, 1, 1)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    _draw(ctx, prog, 1.0, (1.0, 0.5, 0.25, 1.0))
    got = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).tolist()
    assert got == [255, 128, 64, 255]


def test_alpha_to_coverage_off_when_draw_buffer_zero_is_integer():
    """Alpha to coverage takes draw buffer zero's alpha; with an integer buffer zero
    it does nothing (Mesa turns it off; piglit's int-draw-buffers-alpha-to-coverage):
    buffer one gets all four samples although its alpha is 0."""
    ctx = glhelp.context(1, 1, api="compat")
    texs = ctx.glGenTextures(2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for i, (t, fmt) in enumerate(zip(texs, (E.GL_RGBA8I, E.GL_RGBA8))):
        ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, t)
        ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 4, fmt, 1, 1, True)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_TEXTURE_2D_MULTISAMPLE, t, 0)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, 1, 1)
    prog = glhelp.program(ctx, VS, "#version 130\nout ivec4 i;\nout vec4 o;\n"
                                   "void main() { i = ivec4(1, 2, 3, 0); o = vec4(1.0, 1.0, 1.0, 0.0); }\n")
    ctx.glBindFragDataLocation(prog, 0, "i")
    ctx.glBindFragDataLocation(prog, 1, "o")
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    ctx.glEnable(E.GL_SAMPLE_ALPHA_TO_COVERAGE)
    glhelp.vertices(ctx, prog, [[-1, -1], [3, -1], [-1, 3]], {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, texs[1])
    assert _coverage(ctx) == [1, 1, 1, 1]
