"""Compatibility context: glShadeModel(GL_FLAT) flattens only the built-in colours
(user varyings keep their smooth/noperspective qualifiers), and GL_DEPTH_TEXTURE_MODE
(LUMINANCE by default, INTENSITY, ALPHA, RED) decides where a sampled depth lands.
Pixels checked against analytic values."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect


def _program(ctx, vs, fs, attribs=("pos",)):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    for i, a in enumerate(attribs):
        ctx.glBindAttribLocation(p, i, a)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


SHADE_VS = """#version 130
in vec2 pos; in vec4 col;
out vec4 user; noperspective out vec4 np_;
void main() { gl_Position = vec4(pos, 0.0, 1.0); user = col; np_ = col; gl_FrontColor = col; }"""
SHADE_FS = """#version 130
in vec4 user; noperspective in vec4 np_;
uniform int which;
void main() { gl_FragColor = which == 0 ? user : which == 1 ? np_ : gl_Color; }"""


def test_flat_shade_model_leaves_user_varyings_alone():
    pos = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)
    col = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]], np.float32)
    with driver.Context(api="compat", width=16, height=16) as ctx:
        p = _program(ctx, SHADE_VS, SHADE_FS, ("pos", "col"))
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, pos)
        ctx.glEnableVertexAttribArray(0)
        ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 0, col)
        ctx.glEnableVertexAttribArray(1)
        ctx.glShadeModel(E.GL_FLAT)
        # pixel (x, y) centre in NDC -> barycentric weights of the three vertices
        x = (np.arange(16) + 0.5) / 8 - 1
        b = (x[None, :] + 1) / 4
        c = (x[:, None] + 1) / 4
        b, c = np.broadcast_arrays(b, c)
        a = 1 - b - c
        smooth = np.stack([a, b, c, np.ones_like(a)], -1) * 255
        for which in (0, 1, 2):
            ctx.glUniform1i(ctx.glGetUniformLocation(p, "which"), which)
            ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
            img = ctx.read_pixels().astype(np.int32)
            if which < 2:
                assert np.abs(img - smooth).max() <= 2, which
            else:
                assert (img == (0, 0, 255, 255)).all()     # the provoking (last) vertex's colour
        expect(ctx, E.GL_NO_ERROR)


DEPTH_VS = """#version 120
attribute vec2 pos;
varying vec2 uv;
void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = pos * 0.5 + 0.5; }"""
DEPTH_FS = """#version 120
uniform sampler2D t;
varying vec2 uv;
void main() { gl_FragColor = texture2D(t, uv); }"""


@pytest.mark.parametrize("mode", [None, E.GL_LUMINANCE, E.GL_INTENSITY, E.GL_ALPHA, E.GL_RED])
def test_depth_texture_mode(mode):
    w = 8
    depth = np.tile(np.linspace(0.1, 0.9, w, dtype=np.float32), (w, 1))
    with driver.Context(api="compat", width=w, height=w) as ctx:
        _program(ctx, DEPTH_VS, DEPTH_FS)
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT32F, w, w, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
        assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE) == [E.GL_LUMINANCE]
        if mode is not None:
            ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE, mode)
            assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE) == [mode]
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE, E.GL_RGBA)
        expect(ctx, E.GL_INVALID_ENUM)
        quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, quad)
        ctx.glEnableVertexAttribArray(0)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        img = ctx.read_pixels().astype(np.int32)
    d = np.round(depth * 255).astype(np.int32)
    one, zero = np.full_like(d, 255), np.zeros_like(d)
    want = {None: (d, d, d, one), E.GL_LUMINANCE: (d, d, d, one), E.GL_INTENSITY: (d, d, d, d),
            E.GL_ALPHA: (zero, zero, zero, d), E.GL_RED: (d, zero, zero, one)}[mode]
    assert np.abs(img - np.stack(want, -1)).max() <= 1


@pytest.mark.parametrize("api", ["gl33", "gles3"])
def test_depth_texture_mode_is_compat_only(api):
    with driver.Context(api=api, width=4, height=4) as ctx:
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE, E.GL_LUMINANCE)
        expect(ctx, E.GL_INVALID_ENUM)
        ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE)
        expect(ctx, E.GL_INVALID_ENUM)
