"""GL_ARB_gpu_shader5's parts beside vertex streams, drawn and compared with independent
expectations: interpolateAtSample at each sample of a multisample framebuffer reads the
varying at the sample positions GL reports (GL_SAMPLE_POSITION)."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

from .test_geometry import _shader

VS = """#version 150
in vec2 pos;
out vec2 texcoord;
void main() { gl_Position = vec4(pos, 0.0, 1.0); texcoord = pos * 0.5 + 0.5; }
"""
FS = """#version 400
in vec2 texcoord;
uniform int sample_id;
out vec4 colour;
void main() { colour = vec4(interpolateAtSample(texcoord, sample_id), 0.0, 1.0); }
"""


def _quad_program(ctx, vs, fs):
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, _shader(ctx, E.GL_VERTEX_SHADER, vs))
    ctx.glAttachShader(p, _shader(ctx, E.GL_FRAGMENT_SHADER, fs))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    return p


def test_interpolate_at_sample_reads_the_varying_at_each_sample_position():
    """A 1x1 four-sample RG32F framebuffer: the fragment writes interpolateAtSample(texcoord, i),
    texcoord being the position inside the pixel; resolved, it is sample i's GL_SAMPLE_POSITION."""
    with driver.Context(api="gl46", width=1, height=1) as ctx:
        p = _quad_program(ctx, VS, FS)
        fbs, rbs = ctx.glGenFramebuffers(2), ctx.glGenRenderbuffers(2)
        for samples, fb, rb in zip((4, 0), fbs, rbs):
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
            ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
            ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, E.GL_RG32F, 1, 1)
            ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        ctx.glViewport(0, 0, 1, 1)
        got, positions = [], []
        for i in range(4):
            ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbs[0])
            positions.append(ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i))
            ctx.glUniform1i(ctx.glGetUniformLocation(p, "sample_id"), i)
            ctx.glClear(E.GL_COLOR_BUFFER_BIT)
            ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbs[0])
            ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fbs[1])
            ctx.glBlitFramebuffer(0, 0, 1, 1, 0, 0, 1, 1, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
            ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fbs[1])
            got.append(np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RG, E.GL_FLOAT), np.float32))
        assert ctx.glGetError() == E.GL_NO_ERROR
    assert len({tuple(pos) for pos in positions}) == 4            # four distinct positions
    np.testing.assert_allclose(np.array(got), np.array(positions, np.float32), atol=1e-6)
