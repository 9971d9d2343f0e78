"""GL_AMD_texture_texture4: ``texture4(sampler2D, vec2)`` returns the first component of
the four texels a bilinear lookup would weigh, in textureGather's order (i0j1, i1j1,
i1j0, i0j0), from the base level whatever the filter, in GLSL 1.10. Expected texels by
hand from a 2x2 texture whose red channels differ."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from compiler.glsl import GLSLCompileError, parse
from driver.gl import enums as E

from .helpers import expect

VS = "#version 110\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
FS = """#version 110
#extension GL_AMD_texture_texture4 : require
uniform sampler2D tex;
uniform vec2 at;
void main() { gl_FragColor = texture4(tex, at); }
"""
# level 0, rows bottom to top: red 0, 85 / 170, 255; green and blue constant
LEVEL0 = np.array([[[0, 10, 20, 255], [85, 10, 20, 255]],
                   [[170, 10, 20, 255], [255, 10, 20, 255]]], np.uint8)


def _program(ctx) -> int:
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    ctx.glBindAttribLocation(p, 0, "pos")
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def test_texture4_gathers_the_red_channel_of_the_base_level():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert "GL_AMD_texture_texture4" in names
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, LEVEL0.tobytes())
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                         bytes([40, 40, 40, 255]))      # never read: a gather reads the base level
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_LINEAR)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
        p = _program(ctx)
        ctx.glUniform1i(ctx.glGetUniformLocation(p, "tex"), 0)
        quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        at = ctx.glGetUniformLocation(p, "at")
        # the centre: i0 = j0 = 0, i1 = j1 = 1 -> (T(0,1), T(1,1), T(1,0), T(0,0)).r
        ctx.glUniform2f(at, 0.5, 0.5)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        assert (ctx.read_pixels().astype(int) == [170, 255, 85, 0]).all()
        # near the lower left texel's centre with REPEAT: i0 = j0 = -1 -> wraps to 1
        ctx.glUniform2f(at, 0.2, 0.2)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert (ctx.read_pixels().astype(int) == [85, 0, 170, 255]).all()


def test_texture4_needs_its_extension_and_a_sampler2D():
    src = "#version 110\n{ext}uniform {s} t;\nvoid main() {{ gl_FragColor = vec4(texture4(t, vec2(0.5))); }}\n"
    parse(src.format(ext="#extension GL_AMD_texture_texture4 : enable\n", s="sampler2D"), "fragment")
    with pytest.raises(GLSLCompileError, match="texture4"):
        parse(src.format(ext="", s="sampler2D"), "fragment")
    with pytest.raises(GLSLCompileError, match="texture4"):
        parse(src.format(ext="#extension GL_AMD_texture_texture4 : enable\n", s="sampler3D"), "fragment")
    with driver.Context(api="gles3", width=4, height=4) as ctx:
        assert "GL_AMD_texture_texture4" not in {
            ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
