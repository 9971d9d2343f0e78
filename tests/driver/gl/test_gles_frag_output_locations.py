"""GLSL ES fragment outputs without locations: a shader with several outputs and
no (or some) layout locations links, the free locations taken in declaration
order, as Mesa does (GLSL ES 3.00 section 4.3.8.2 asks for a location on each;
llvmpipe gives b = 0, a = 1 for `out vec4 b; out vec4 a;` and b = 1 for
`out vec4 b; layout(location = 0) out vec4 a;`). Checked by
glGetFragDataLocation and by drawing into two colour attachments."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect, link_sources

W, H = 4, 4
VS = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FULL = np.array([(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)], np.float32)


def _program(ctx, decls):
    fs = ("#version 300 es\nprecision highp float;\n" + decls +
          "void main() { a = vec4(1.0, 0.0, 0.0, 1.0); b = vec4(0.0, 0.0, 1.0, 1.0); }\n")
    return link_sources(ctx, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)])


def _draw_two_attachments(ctx):
    """Renders into two RGBA8 textures at COLOR_ATTACHMENT0/1; their pixels."""
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    texs = ctx.glGenTextures(2)
    for i, t in enumerate(texs):
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, W, H)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_TEXTURE_2D, t, 0)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    out = []
    for i in range(2):
        ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0 + i)
        raw = ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
        out.append(np.frombuffer(raw, np.uint8).reshape(H, W, 4))
    return out


RED, BLUE = [255, 0, 0, 255], [0, 0, 255, 255]


@pytest.mark.parametrize("api", ["gles3", "gles31", "gles32"])
@pytest.mark.parametrize("decls, loc_b, loc_a", [
    ("out vec4 b;\nout vec4 a;\n", 0, 1),                          # declaration order
    ("out vec4 a;\nout vec4 b;\n", 1, 0),
    ("out vec4 b;\nlayout(location = 0) out vec4 a;\n", 1, 0),     # the free location
])
def test_outputs_without_locations_take_the_free_ones_in_order(api, decls, loc_b, loc_a):
    ctx = driver.Context(api=api, width=W, height=H)
    prog = _program(ctx, decls)
    assert ctx.glGetFragDataLocation(prog, "b") == loc_b
    assert ctx.glGetFragDataLocation(prog, "a") == loc_a
    att = _draw_two_attachments(ctx)
    assert (att[loc_a] == RED).all() and (att[loc_b] == BLUE).all()


def test_two_outputs_at_one_location_still_fail_to_link():
    ctx = driver.Context(api="gles3", width=W, height=H)
    fs = ("#version 300 es\nprecision highp float;\nlayout(location = 1) out vec4 a;\n"
          "layout(location = 1) out vec4 b;\nvoid main() { a = b = vec4(1.0); }\n")
    prog = ctx.glCreateProgram()
    from tests.driver.gl.helpers import compile_source
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert not ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]
    assert "share a location" in ctx.glGetProgramInfoLog(prog)
