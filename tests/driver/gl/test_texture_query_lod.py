"""GL_ARB_texture_query_lod's shading-language side: ``textureQueryLOD(sampler, P)`` in
fragment shaders of GLSL 1.30+ with the extension (``textureQueryLod`` from GLSL 4.00):
x is the level a lookup would use, y the computed level of detail (lambda'). With the
default sampler state (no bias, no LOD clamp, LINEAR_MIPMAP_LINEAR) x is lambda clamped
to the texture's levels. Expected values by hand: a 16x16 texture drawn over a 16x16
window with coordinates spanning ``scale`` texture widths/heights gives lambda =
log2(larger span). The sampler's bias, MIN/MAX_LOD, levels and mip filter are tested in
test_texture_query_lod_sampler.py."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source

W = H = 16

VS = """#version 130
in vec4 p;
uniform vec2 scale;
out vec2 uv;
void main() { gl_Position = p; uv = (p.xy * 0.5 + 0.5) * scale; }"""


def _fs(call="textureQueryLOD", version=130, ext="GL_ARB_texture_query_lod", sampler="sampler2D"):
    head = f"#version {version}\n" + (f"#extension {ext} : require\n" if ext else "")
    return head + f"uniform {sampler} t;\nin vec2 uv;\nout vec4 o;\n" \
        f"void main() {{ o = vec4({call}(t, uv), 0.0, 1.0); }}\n"


def _render(ctx, fs, scale):
    """The (x, y) textureQueryLOD returns at every pixel of a full-window quad."""
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    sx, sy = scale if isinstance(scale, tuple) else (scale, 1.0)
    ctx.glUniform2f(ctx.glGetUniformLocation(prog, "scale"), sx, sy)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 5, E.GL_RGBA8, 16, 16)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_LINEAR)
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32F, W, H)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    quad = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, 1, 0, 1]], np.float32)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_FLOAT)), np.float32).reshape(H, W, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    return px[..., 0], px[..., 1]


@pytest.mark.parametrize("scale,lam", [((4.0, 1.0), 2.0), ((2.0, 1.0), 1.0), ((1.0, 1.0), 0.0),
                                       ((1.0, 2.0), 1.0), ((0.5, 0.5), -1.0), ((0.25, 0.125), -2.0)])
def test_level_of_a_minified_and_magnified_lookup(scale, lam):
    """The coordinates span ``scale`` texture widths/heights over the window: lambda =
    log2 of the larger span. y is lambda; x is it clamped at 0 (a magnified lookup reads
    level 0)."""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        x, y = _render(ctx, _fs(), scale)
    np.testing.assert_allclose(y, lam, atol=1e-3)
    np.testing.assert_allclose(x, max(lam, 0.0), atol=1e-3)


def test_glsl_400_name_and_the_extension_macro():
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        x, y = _render(ctx, _fs("textureQueryLod", version=400, ext=None), 4.0)
        np.testing.assert_allclose(y, 2.0, atol=1e-3)
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER,
                                    "#version 130\n#extension GL_ARB_texture_query_lod : require\n"
                                    "#if GL_ARB_texture_query_lod != 1\n#error\n#endif\nvoid main() {}\n")
        assert ok, log


@pytest.mark.parametrize("src", [
    _fs(ext=None),                                                        # without the extension
    _fs(sampler="sampler2DRect"),                                         # no rectangle form
])
def test_compile_errors(src):
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, src)
    assert not ok and "textureQueryLOD" in log, log


def test_only_in_the_fragment_stage():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        _, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER,
                                    "#version 130\n#extension GL_ARB_texture_query_lod : require\n"
                                    "uniform sampler2D t;\nvoid main() { gl_Position = vec4(textureQueryLOD(t, vec2(0.0)), 0.0, 1.0); }\n")
    assert not ok and "textureQueryLOD" in log, log
