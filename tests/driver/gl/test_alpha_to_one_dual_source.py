"""Alpha to one replaces the alpha of a dual-source blend's second colour too (as Mesa
lowers every colour output; piglit ext_framebuffer_multisample-alpha-to-one-dual-src-blend
read green 0.094 where 0.0196 was expected). Expected by hand: colour 0 (0.8, 0.6, 0.4,
0.5) and colour 1 (0, 0, 0, 0.25) blended with (SRC1_ALPHA, ZERO) over a black 4-sample
buffer give 255 * (0.8, 0.6, 0.4, 1) x 1 = (204, 153, 102, 255) with alpha to one (both
alphas 1), and x 0.25 = (51, 38, 26, 32) without."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source, expect, link_and_use

VS = "#version 330\nlayout(location = 0) in vec4 pos;\nvoid main() { gl_Position = pos; }\n"
FS = """#version 330
layout(location = 0, index = 0) out vec4 c0;
layout(location = 0, index = 1) out vec4 c1;
void main() { c0 = vec4(0.8, 0.6, 0.4, 0.5); c1 = vec4(0.0, 0.0, 0.0, 0.25); }
"""


@pytest.mark.parametrize("alpha_to_one, want", [(True, [204, 153, 102, 255]), (False, [51, 38, 26, 32])])
def test_alpha_to_one_makes_the_second_colours_alpha_one(alpha_to_one, want):
    w = h = 8
    with driver.Context(api="gl33", width=w, height=h) as ctx:
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        shaders = []
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
            sh, ok, log = compile_source(ctx, kind, src)
            assert ok, log
            shaders.append(sh)
        link_and_use(ctx, *shaders)
        ms, single = ctx.glGenFramebuffers(2)
        rb_ms, rb = ctx.glGenRenderbuffers(2)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb_ms)
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, w, h)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, ms)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb_ms)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, w, h)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, single)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, ms)
        ctx.glViewport(0, 0, w, h)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_BLEND)
        ctx.glBlendFunc(E.GL_SRC1_ALPHA, E.GL_ZERO)
        (ctx.glEnable if alpha_to_one else ctx.glDisable)(E.GL_SAMPLE_ALPHA_TO_ONE)
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, 64, struct.pack("16f", -1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1,
                                                            1, 1, 0, 1), E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, single)
        ctx.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, single)
        px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        expect(ctx, E.GL_NO_ERROR)
        assert (np.abs(px.reshape(-1, 4).astype(int) - want) <= 1).all(), px[:4]
