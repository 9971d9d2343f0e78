"""OES_sample_shading (GLES 3.0+): SAMPLE_SHADING_OES, glMinSampleShadingOES and
MIN_SAMPLE_SHADING_VALUE_OES, the GLES names of GL 4.0's sample shading."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp


def test_oes_sample_shading_in_gles31():
    """OES_sample_shading: SAMPLE_SHADING_OES is a capability of GLES 3.x with the
    extension, glMinSampleShadingOES sets MIN_SAMPLE_SHADING_VALUE_OES (clamped to
    [0, 1]), and with 1.0 a 4-sample 4x4 target runs the fragment shader once per
    sample: 64 invocations, counted with a storage-buffer atomic. (The GPU model
    shades every sample of a multisampled pixel also without it: 64 both times.)"""
    ctx = glhelp.context(4, 4, api="gles31")
    assert "GL_OES_sample_shading" in ctx.extensions
    glhelp.program(ctx, "#version 310 es\nvoid main() { gl_Position = vec4(vec2(gl_VertexID & 1, "
                        "gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }\n",
                   "#version 310 es\nprecision highp float;\nlayout(std430, binding = 0) buffer B { uint n; };\n"
                   "out vec4 o;\nvoid main() { atomicAdd(n, 1u); o = vec4(1.0); }\n")
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    (ssbo,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, ssbo)
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, 4, 4)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)

    def invocations():
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 4, np.zeros(1, np.uint32), E.GL_DYNAMIC_COPY)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
        return int(np.frombuffer(bytes(ctx.glMapBufferRange(E.GL_SHADER_STORAGE_BUFFER, 0, 4, E.GL_MAP_READ_BIT)),
                                 np.uint32)[0])

    ctx.glEnable(E.GL_SAMPLE_SHADING)
    ctx.glMinSampleShadingOES(2.0)
    assert ctx.glIsEnabled(E.GL_SAMPLE_SHADING) and ctx.glGetFloatv(E.GL_MIN_SAMPLE_SHADING_VALUE) == [1.0]
    assert invocations() == 64
    ctx.glUnmapBuffer(E.GL_SHADER_STORAGE_BUFFER)
    assert ctx.glGetError() == E.GL_NO_ERROR
    es30 = glhelp.context(1, 1, api="gles3")
    es30.glEnable(E.GL_SAMPLE_SHADING)
    es30.glMinSampleShadingOES(0.5)
    assert es30.glGetError() == E.GL_NO_ERROR and es30.glGetFloatv(E.GL_MIN_SAMPLE_SHADING_VALUE) == [0.5]
