"""GL_ARB_texture_query_lod with the sampler's state: textureQueryLOD's y is lambda' (the
computed level of detail relative to the base level, after the LOD bias of the texture
or sampler object and the texture unit, clamped to MAX_TEXTURE_LOD_BIAS, before the
MIN/MAX_LOD clamps); x is the level(s) a lookup reads: lambda' clamped to
[TEXTURE_MIN_LOD, TEXTURE_MAX_LOD] and to the levels BASE_LEVEL..MAX_LEVEL give, then
0 without a mip filter, ceil(x + 0.5) - 1 for *_MIPMAP_NEAREST, itself for
*_MIPMAP_LINEAR (the extension's ComputeAccessedLod). Every expected value is worked
out by hand below: a 16x16 texture of 5 levels drawn over a 16x16 window with
coordinates spanning ``scale`` texture widths gives lambda = log2(scale) at level 0."""

from __future__ import annotations

import math

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source

W = H = 16

VS = """#version 130
in vec4 p;
uniform float scale;
out vec2 uv;
void main() { gl_Position = p; uv = (p.xy * 0.5 + 0.5) * scale; }"""
FS = """#version 130
#extension GL_ARB_texture_query_lod : require
uniform sampler2D t;
in vec2 uv;
out vec4 o;
void main() { o = vec4(textureQueryLOD(t, uv), 0.0, 1.0); }"""


def _query(ctx, scale, tex_params=(), sampler_params=None, unit_bias=None):
    """(x, y) of textureQueryLOD at the window's centre (the same at every pixel)."""
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glUniform1f(ctx.glGetUniformLocation(prog, "scale"), scale)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    for level in range(5):
        ctx.glTexImage2D(E.GL_TEXTURE_2D, level, E.GL_RGBA8, 16 >> level, 16 >> level, 0, E.GL_RGBA,
                         E.GL_UNSIGNED_BYTE, None)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_LINEAR)
    for pname, value in tex_params:
        (ctx.glTexParameterf if isinstance(value, float) else ctx.glTexParameteri)(E.GL_TEXTURE_2D, pname, value)
    if sampler_params is not None:
        smp = ctx.glGenSamplers(1)[0]
        for pname, value in sampler_params:
            (ctx.glSamplerParameterf if isinstance(value, float) else ctx.glSamplerParameteri)(smp, pname, value)
        ctx.glBindSampler(0, smp)
    if unit_bias is not None:
        ctx.glTexEnvf(E.GL_TEXTURE_FILTER_CONTROL, E.GL_TEXTURE_LOD_BIAS, unit_bias)
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
    assert np.ptp(px[..., :2].reshape(-1, 2), axis=0).max() < 1e-4     # one LOD over the whole quad
    return float(px[H // 2, W // 2, 0]), float(px[H // 2, W // 2, 1])


L2_5 = math.log2(2.5)        # lambda of a 2.5-texture span: 1.3219

CASES = [
    # (id, scale, texture parameters, sampler object parameters, expected x, expected y)
    ("plain", 4.0, (), None, 2.0, 2.0),
    ("texture-bias", 4.0, ((E.GL_TEXTURE_LOD_BIAS, 1.0),), None, 3.0, 3.0),
    ("bias-beyond-the-levels", 4.0, ((E.GL_TEXTURE_LOD_BIAS, 3.0),), None, 4.0, 5.0),
    ("bias-clamped-to-max-bias", 4.0, ((E.GL_TEXTURE_LOD_BIAS, 40.0),), None, 4.0, 18.0),
    ("sampler-bias-wins", 4.0, ((E.GL_TEXTURE_LOD_BIAS, 1.0),), ((E.GL_TEXTURE_LOD_BIAS, -0.5),), 1.5, 1.5),
    ("min-lod", 2.0, ((E.GL_TEXTURE_MIN_LOD, 2.5), (E.GL_TEXTURE_MAX_LOD, 3.0)), None, 2.5, 1.0),
    ("max-lod", 4.0, ((E.GL_TEXTURE_MAX_LOD, 0.75),), None, 0.75, 2.0),
    ("sampler-max-lod", 4.0, (), ((E.GL_TEXTURE_MAX_LOD, 1.25), (E.GL_TEXTURE_MIN_FILTER,
                                                                  E.GL_LINEAR_MIPMAP_LINEAR)), 1.25, 2.0),
    # base level 1 (8x8): lambda relative to it is log2(8 / 2) = 2; levels 1..2 -> x at most 1
    ("base-and-max-level", 8.0, ((E.GL_TEXTURE_BASE_LEVEL, 1), (E.GL_TEXTURE_MAX_LEVEL, 2)), None, 1.0, 2.0),
    ("nearest-mip", 2.5, ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST),), None, 1.0, L2_5),
    ("nearest-mip-biased", 2.5, ((E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_NEAREST),
                                 (E.GL_TEXTURE_LOD_BIAS, 0.3)), None, 2.0, L2_5 + 0.3),
    ("linear-mip", 2.5, (), None, L2_5, L2_5),
    ("no-mipmap", 4.0, ((E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR),), None, 0.0, 2.0),
    ("no-mipmap-nearest", 2.5, ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST),), None, 0.0, L2_5),
    ("magnified", 0.25, ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST),), None, 0.0, -2.0),
]


@pytest.mark.parametrize("scale,tex_params,sampler_params,x,y", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_query_follows_the_sampler_state(scale, tex_params, sampler_params, x, y):
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        got = _query(ctx, scale, tex_params, sampler_params)
    assert got == pytest.approx((x, y), abs=1e-3)


def test_the_texture_units_bias_adds_in_compatibility_contexts():
    """glTexEnv(TEXTURE_FILTER_CONTROL, TEXTURE_LOD_BIAS) adds to the texture's bias."""
    with driver.Context(api="compat", width=W, height=H) as ctx:
        got = _query(ctx, 4.0, ((E.GL_TEXTURE_LOD_BIAS, 0.5),), unit_bias=-1.5)
    assert got == pytest.approx((1.0, 1.0), abs=1e-3)


def test_listed_with_its_glsl_side():
    """Listed in GL 3.2+ core and compatibility (GL 4.0 core feature), with its macro."""
    for api in ("gl33", "compat"):
        with driver.Context(api=api, width=4, height=4) as ctx:
            n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
            names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
            assert "GL_ARB_texture_query_lod" in names, api
            _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER,
                                        "#version 130\n#extension GL_ARB_texture_query_lod : require\n"
                                        "#if GL_ARB_texture_query_lod != 1\n#error\n#endif\nvoid main() {}\n")
            assert ok, log
