"""GL_ARB_sample_shading under its own name: per-sample shading built-ins in a
GLSL 1.30 shader with `#extension GL_ARB_sample_shading` - gl_SampleID, the
sample's position inside the pixel (equal to glGetMultisamplefv's), the
invocation's coverage bit (gl_SampleMaskIn) and gl_SampleMask - and
glMinSampleShading's state, against hand-computed values."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = ("#version 130\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, 0.0, 1.0); }\n")
EXT = "#extension GL_ARB_sample_shading : require\n"


def _ms_target(ctx, samples=4):
    (ms,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, ms)
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, samples, E.GL_RGBA32F, 1, 1, True)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D_MULTISAMPLE, ms, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return ms


def _samples(ctx, samples=4):
    """Each sample of the 1x1 multisample texture, fetched into a row of pixels."""
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t2)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, samples, 1, 0, E.GL_RGBA, E.GL_FLOAT, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, t2, 0)
    ctx.glViewport(0, 0, samples, 1)
    glhelp.program(ctx, VS, "#version 150\nuniform sampler2DMS t;\nout vec4 o;\n"
                            "void main() { o = texelFetch(t, ivec2(0), int(gl_FragCoord.x)); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    return np.frombuffer(ctx.glReadPixels(0, 0, samples, 1, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(samples, 4)


def test_listed():
    ctx = glhelp.context(1, 1, api="compat")
    assert "GL_ARB_sample_shading" in ctx.glGetString(E.GL_EXTENSIONS).split()


def test_per_sample_builtins():
    """Sample i of a 4x texture holds (i, position.x, position.y, gl_SampleMaskIn[0]):
    the positions glGetMultisamplefv reports for that framebuffer and the bit 1 << i."""
    ctx = glhelp.context(1, 1, api="compat")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _ms_target(ctx)
    positions = [ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i) for i in range(4)]
    glhelp.program(ctx, VS, "#version 130\n" + EXT + "out vec4 o;\n"
                            "void main() { o = vec4(float(gl_SampleID), gl_SamplePosition,"
                            " float(gl_SampleMaskIn[0])); }\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = _samples(ctx)
    assert got[:, 0].tolist() == [0, 1, 2, 3]
    assert np.allclose(got[:, 1:3], positions)
    assert len({tuple(p) for p in positions}) == 4          # four distinct positions inside the pixel
    assert got[:, 3].tolist() == [1, 2, 4, 8]


def test_sample_mask_output_keeps_samples():
    """gl_SampleMask[0] = 0b0101 keeps samples 0 and 2 of a red clear painted green."""
    ctx = glhelp.context(1, 1, api="compat")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _ms_target(ctx)
    ctx.glClearColor(1.0, 0.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    glhelp.program(ctx, VS, "#version 130\n" + EXT + "out vec4 o;\n"
                            "void main() { o = vec4(0.0, 1.0, 0.0, 1.0); gl_SampleMask[0] = 5; }\n")
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    got = _samples(ctx)
    assert got[:, 1].tolist() == [1.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("value, expected", [(0.25, 0.25), (2.0, 1.0), (-1.0, 0.0)])
def test_min_sample_shading_value_is_clamped(value, expected):
    ctx = glhelp.context(1, 1, api="compat")
    ctx.glMinSampleShadingARB(value)
    ctx.glEnable(E.GL_SAMPLE_SHADING)
    assert ctx.glIsEnabled(E.GL_SAMPLE_SHADING)
    assert ctx.glGetFloatv(E.GL_MIN_SAMPLE_SHADING_VALUE)[0] == expected


def test_the_builtins_need_the_extension_line():
    ctx = glhelp.context(1, 1, api="compat")
    sh = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
    ctx.glShaderSource(sh, 1, ["#version 130\nout vec4 o;\nvoid main() { o = vec4(gl_SamplePosition, 0.0, 1.0); }\n"])
    ctx.glCompileShader(sh)
    assert not ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0]
