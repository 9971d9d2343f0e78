"""gl_NumSamples is one of GL_ARB_sample_shading's built-ins (its GLSL section: "uniform
int gl_NumSamples" in the fragment language), so a GLSL 1.40 fragment shader enabling
the extension may read it, as llvmpipe accepts (piglit's
arb_framebuffer_no_attachments-roundup-samples); without the extension GLSL 1.40 has
no such name. Its value is the draw framebuffer's sample count."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

from .helpers import compile_source

FS = """#version 140
{enable}
out vec4 o;
void main() {{ o = vec4(float(gl_NumSamples) / 8.0, 0.0, 0.0, 1.0); }}"""


def test_gl_num_samples_comes_with_the_extension():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER,
                                    FS.format(enable="#extension GL_ARB_sample_shading : require"))
        assert ok, log
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, FS.format(enable=""))
        assert not ok and "gl_NumSamples" in log


def test_its_value_is_the_framebuffer_sample_count():
    """Drawn into a 4-sample renderbuffer, resolved: 4 / 8 = 0.5 -> 128 of 255."""
    vs = "#version 140\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }"
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        prog = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS.format(
                enable="#extension GL_ARB_sample_shading : require"))):
            sh, ok, log = compile_source(ctx, kind, src)
            assert ok, log
            ctx.glAttachShader(prog, sh)
        ctx.glBindAttribLocation(prog, 0, "p")
        ctx.glLinkProgram(prog)
        ctx.glUseProgram(prog)
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, 4, 4)
        fb = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        buf = ctx.glGenBuffers(1)[0]
        quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fb)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, 0)
        ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
        px = ctx.read_pixels().astype(int)
        assert (abs(px[..., 0] - 128) <= 1).all() and (px[..., 3] == 255).all()
