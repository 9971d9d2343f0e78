"""GLSL ES 1.00's texture functions (and texture3D) in GLSL ES 3.x shaders, as Mesa keeps them:
texture2D, texture2DProj, textureCube (every stage) and texture2DLod (every stage
from GLSL ES 3.00; GLSL ES 1.00 has it in vertex shaders only). Each draw samples
a texture whose texels are worked out by hand and reads the pixels back."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source, expect, link_sources

W, H = 4, 4
FULL = np.array([(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)], np.float32)
VS = {300: "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
      310: "#version 310 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
      320: "#version 320 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"}
API = {300: "gles3", 310: "gles31", 320: "gles32"}
LEVEL0 = (255, 0, 0, 255)       # a 2x2 level 0 of one colour and its 1x1 level 1 of another
LEVEL1 = (0, 255, 0, 255)


def _draw(version, body, target=E.GL_TEXTURE_2D):
    ctx = driver.Context(api=API[version], width=W, height=H)
    fs = (f"#version {version} es\nprecision highp float;\nuniform sampler2D s;\n"
          "uniform samplerCube c;\nout vec4 o;\n" f"void main() {{ {body} }}\n")
    link_sources(ctx, [(E.GL_VERTEX_SHADER, VS[version]), (E.GL_FRAGMENT_SHADER, fs)])
    tex = ctx.glGenTextures(2)
    ctx.glActiveTexture(E.GL_TEXTURE0)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex[0])
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     bytes(LEVEL0) * 4)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(LEVEL1))
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glActiveTexture(E.GL_TEXTURE1)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, tex[1])
    for face in range(6):       # face i holds (40 * i, 0, 255, 255)
        ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA,
                         E.GL_UNSIGNED_BYTE, bytes((40 * face, 0, 255, 255)))
    ctx.glTexParameteri(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)  # no seamless blend
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "s"), 0)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "c"), 1)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(H, W, 4)


@pytest.mark.parametrize("version", [300, 310, 320])
@pytest.mark.parametrize("body, want", [
    ("o = texture2D(s, vec2(0.25));", LEVEL0),
    ("o = texture2DProj(s, vec3(0.5, 0.5, 2.0));", LEVEL0),
    ("o = texture2DLod(s, vec2(0.5), 1.0);", LEVEL1),            # fragment stage: ES 3.00+
    ("o = textureCube(c, vec3(0.0, -1.0, 0.1));", (120, 0, 255, 255)),   # -Y is face 3
])
def test_essl1_texture_functions_in_essl3(version, body, want):
    img = _draw(version, body)
    assert (img == want).all(), img[0, 0]


def test_texture2DLod_stays_vertex_only_in_essl100():
    ctx = driver.Context(api="gles2", width=W, height=H)
    fs = ("precision highp float; uniform sampler2D s;\n"
          "void main() { gl_FragColor = texture2DLod(s, vec2(0.5), 1.0); }\n")
    _sh, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert not ok and "texture2DLod" in log


@pytest.mark.parametrize("version", [300, 320])
@pytest.mark.parametrize("call", ["texture3D(t, vec3(0.25, 0.75, 0.75))",
                                  "texture3DProj(t, vec4(0.5, 1.5, 1.5, 2.0))",
                                  "texture3DLod(t, vec3(0.25, 0.75, 0.75), 0.0)"])
def test_texture3D_functions_in_essl3(version, call):
    """A 2x2x2 3D texture whose texel (x, y, z) is (80x, 80y, 80z + 40, 255): the
    coordinate (0.25, 0.75, 0.75) (also as a projective one) names texel (0, 1, 1)."""
    ctx = driver.Context(api=API[version], width=W, height=H)
    fs = (f"#version {version} es\nprecision highp float;\nuniform highp sampler3D t;\nout vec4 o;\n"
          f"void main() {{ o = {call}; }}\n")
    link_sources(ctx, [(E.GL_VERTEX_SHADER, VS[version]), (E.GL_FRAGMENT_SHADER, fs)])
    texels = bytes(v for z in range(2) for y in range(2) for x in range(2)
                   for v in (80 * x, 80 * y, 80 * z + 40, 255))
    ctx.glBindTexture(E.GL_TEXTURE_3D, ctx.glGenTextures(1)[0])
    ctx.glTexImage3D(E.GL_TEXTURE_3D, 0, E.GL_RGBA8, 2, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    for pname in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_3D, pname, E.GL_NEAREST)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert (img.reshape(H, W, 4) == (0, 80, 120, 255)).all()


def test_shadow2D_stays_out_of_essl3():
    ctx = driver.Context(api="gles3", width=W, height=H)
    fs = ("#version 300 es\nprecision highp float; uniform highp sampler2DShadow s; out vec4 o;\n"
          "void main() { o = shadow2D(s, vec3(0.5)); }\n")
    _sh, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert not ok and "shadow2D" in log
