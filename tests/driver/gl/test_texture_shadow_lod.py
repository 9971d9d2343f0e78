"""EXT_texture_shadow_lod: texture() with a bias and textureLod()/textureLodOffset() on
sampler2DArrayShadow, samplerCubeShadow and samplerCubeArrayShadow. Depth textures
whose level 0 holds 0.25 and level 1 0.75, compared LEQUAL with the reference 0.5:
a sample of level 0 gives 0, of level 1 gives 1 (by hand), so each call shows which
level it read."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from compiler.glsl import GLSLCompileError, parse

from .helpers import expect

W = H = 4
S = 4           # level 0 of the textures: S x S texels (a full-viewport quad reads LOD 0)

VS = """#version 130
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""


def _program(ctx, fs):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(p, sh)
    ctx.glBindAttribLocation(p, 0, "pos")
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _depth_texture(ctx, target, layers):
    tex = ctx.glGenTextures(1)[0]
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glBindTexture(target, tex)
    for level, value in ((0, 0.25), (1, 0.75)):
        n = S >> level
        data = np.full(n * n * layers, value, np.float32).tobytes()
        if target == E.GL_TEXTURE_CUBE_MAP:
            for f in range(6):
                ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, level, E.GL_DEPTH_COMPONENT32F, n, n, 0,
                                 E.GL_DEPTH_COMPONENT, E.GL_FLOAT, data[:n * n * 4])
        else:
            ctx.glTexImage3D(target, level, E.GL_DEPTH_COMPONENT32F, n, n, layers, 0, E.GL_DEPTH_COMPONENT,
                             E.GL_FLOAT, data)
    ctx.glTexParameteri(target, E.GL_TEXTURE_MAX_LEVEL, 1)
    ctx.glTexParameteri(target, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glTexParameteri(target, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(target, E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE)
    ctx.glTexParameteri(target, E.GL_TEXTURE_COMPARE_FUNC, E.GL_LEQUAL)


def _draw(ctx, body, sampler, exts=()):
    lines = ["#version 130", "#extension GL_EXT_texture_shadow_lod : require"]
    lines += [f"#extension {x} : require" for x in exts]
    # t: the pixel's texel centre (a 4 x 4 quad on level 0's 4 x 4 texels: LOD 0 before the bias)
    lines += [f"uniform {sampler} s;", "out vec4 c;", "void main() {", "    vec2 t = gl_FragCoord.xy / 4.0;",
              f"    c = vec4({body}, 0.0, 0.0, 1.0);",
              "}", ""]
    p = _program(ctx, "\n".join(lines))
    ctx.glUniform1i(ctx.glGetUniformLocation(p, "s"), 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    return ctx.read_pixels()[..., 0]


def _quad(ctx):
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    raw = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32).tobytes()
    ctx.glBufferData(E.GL_ARRAY_BUFFER, len(raw), raw, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)


@pytest.mark.parametrize("call,want", [
    ("texture(s, vec4(t, 1.0, 0.5), 0.0)", 0),
    ("texture(s, vec4(t, 1.0, 0.5), 1.0)", 255),          # bias 1: level 1
    ("textureLod(s, vec4(0.5, 0.5, 1.0, 0.5), 0.0)", 0),
    ("textureLod(s, vec4(0.5, 0.5, 1.0, 0.5), 1.0)", 255),
    ("textureLodOffset(s, vec4(0.5, 0.5, 1.0, 0.5), 1.0, ivec2(1, 0))", 255),
    ("textureOffset(s, vec4(t, 1.0, 0.5), ivec2(0, 1), 0.0)", 0),
    ("textureOffset(s, vec4(t, 1.0, 0.5), ivec2(0, 1), 1.0)", 255),
])
def test_2d_array_shadow(call, want):
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert "GL_EXT_texture_shadow_lod" in names
        _depth_texture(ctx, E.GL_TEXTURE_2D_ARRAY, 2)
        _quad(ctx)
        ctx.glViewport(0, 0, W, H)
        assert (_draw(ctx, call, "sampler2DArrayShadow") == want).all()


@pytest.mark.parametrize("lod,want", [(0.0, 0), (1.0, 255)])
def test_cube_shadow_lod(lod, want):
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        _depth_texture(ctx, E.GL_TEXTURE_CUBE_MAP, 1)
        _quad(ctx)
        assert (_draw(ctx, f"textureLod(s, vec4(1.0, 0.2, 0.3, 0.5), {lod})", "samplerCubeShadow") == want).all()


@pytest.mark.parametrize("call,want", [
    ("textureLod(s, vec4(1.0, 0.2, 0.3, 1.0), 0.5, 0.0)", 0),
    ("textureLod(s, vec4(1.0, 0.2, 0.3, 1.0), 0.5, 1.0)", 255),
    ("texture(s, vec4(1.0, t * 2.0 - 1.0, 1.0), 0.5, 0.0)", 0),
    ("texture(s, vec4(1.0, t * 2.0 - 1.0, 1.0), 0.5, 1.0)", 255),
])
def test_cube_array_shadow(call, want):
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        _depth_texture(ctx, E.GL_TEXTURE_CUBE_MAP_ARRAY, 12)
        _quad(ctx)
        assert (_draw(ctx, call, "samplerCubeArrayShadow", ("GL_ARB_texture_cube_map_array",)) == want).all()


def test_glsl_side():
    """The functions exist only with the extension; a bias outside the fragment stage is
    an error, as for every texture() with a bias."""
    src = "#version 130\nuniform sampler2DArrayShadow s;\nout vec4 c;\n" \
          "void main() { c = vec4(textureLod(s, vec4(0.5), 0.0)); }\n"
    with pytest.raises(GLSLCompileError, match="textureLod"):
        parse(src, "fragment")
    parse(src.replace("#version 130\n", "#version 130\n#extension GL_EXT_texture_shadow_lod : enable\n"), "fragment")
    vs = "#version 130\n#extension GL_EXT_texture_shadow_lod : enable\nuniform sampler2DArrayShadow s;\n" \
         "void main() { gl_Position = vec4(texture(s, vec4(0.5), 1.0)); }\n"
    with pytest.raises(GLSLCompileError, match="texture"):
        parse(vs, "vertex")
