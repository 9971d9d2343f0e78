"""gl_NumSamples (GLSL 4.00, ARB_sample_shading, OES_sample_variables): the
framebuffer's sample count, 1 when it is single-sampled (GL 4.6 section 14.9.3;
GLSL 4.60 section 7.4). It read 0 before: the built-in uniform had no value."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = "#version 400\nvoid main() { gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }\n"
FS = "#version 400\nout vec4 o;\nvoid main() { o = vec4(float(gl_NumSamples) / 8.0, 0.0, 0.0, 1.0); }\n"


def _red(ctx, fb=0):
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fb)
    return int(np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)[0])


def test_num_samples_single_and_multisampled():
    ctx = glhelp.context(4, 4, api="gl43")
    glhelp.program(ctx, VS, FS)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _red(ctx) == round(255 / 8)                     # 1 sample
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glGetIntegerv(E.GL_SAMPLES) == [4]
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, 0)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fb)
    ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)     # resolve
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _red(ctx) == round(4 * 255 / 8)                 # 4 samples: 127.5 -> 128


ES_VS = "#version 300 es\nvoid main() { gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }\n"
ES_FS = ("#version 300 es\n#extension GL_OES_sample_variables : require\nprecision highp float;\nout vec4 o;\n"
         "void main() {\n  o = vec4(float(gl_NumSamples) / 8.0, float(gl_SampleID) / 4.0,\n"
         "           gl_SamplePosition.x, float(gl_SampleMaskIn[0]) / 16.0);\n}\n")


def test_oes_sample_variables_in_gles3():
    """GLSL ES 3.00 with OES_sample_variables on a 4-sample renderbuffer: the shader
    runs per sample (it reads gl_SampleID); resolved, red is 4/8, green the mean
    of the sample ids 0..3 over 4 (0.375), blue the mean of the sample positions'
    x (0.5 for the standard pattern), alpha the mean of 1 << id over 16 (15/64).
    Without the #extension line the built-ins are unknown."""
    ctx = glhelp.context(4, 4, api="gles3")
    assert "GL_OES_sample_variables" in ctx.extensions
    glhelp.program(ctx, ES_VS, ES_FS)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, 0)
    ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, 0)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).astype(int)
    want = np.array([4 / 8, 1.5 / 4, 0.5, 15 / 4 / 16]) * 255
    assert (np.abs(px - want) <= 1.5).all(), (px, want)
    s = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
    ctx.glShaderSource(s, 1, [ES_FS.replace("#extension GL_OES_sample_variables : require\n", "")])
    ctx.glCompileShader(s)
    assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    assert "gl_NumSamples" in ctx.glGetShaderInfoLog(s) or "gl_Sample" in ctx.glGetShaderInfoLog(s)
