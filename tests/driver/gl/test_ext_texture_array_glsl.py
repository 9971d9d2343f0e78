"""GL_EXT_texture_array's shading-language part: with ``#extension GL_EXT_texture_array``
a GLSL 1.10/1.20 shader has the array sampler types and the lookups texture1DArray,
texture2DArray, shadow1DArray, shadow2DArray and the Lod forms of all but shadow2DArray (the EXT spec's names;
GLSL 1.30 calls them texture/textureLod). Without the extension (or EXT_gpu_shader4) the
names do not exist."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from compiler.glsl.builtin_functions import builtin_functions
from compiler.glsl.versions import GLSLVersion
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

V110 = GLSLVersion(110, False, "compatibility")
NAMES = {"texture1DArray", "texture2DArray", "shadow1DArray", "shadow2DArray",
         "texture1DArrayLod", "texture2DArrayLod", "shadow1DArrayLod"}


def test_the_extension_brings_the_seven_lookups():
    got = set(builtin_functions(V110, "vertex", ("GL_EXT_texture_array",)))
    assert NAMES <= got
    assert not NAMES & set(builtin_functions(V110, "vertex", ()))
    # the bias forms are fragment-only, as every implicit-derivative bias
    frag = builtin_functions(V110, "fragment", ("GL_EXT_texture_array",))
    vert = builtin_functions(V110, "vertex", ("GL_EXT_texture_array",))
    assert len(frag["texture2DArray"]) == 2 and len(vert["texture2DArray"]) == 1
    # integer array samplers stay EXT_gpu_shader4's
    assert not any(p[1].name.startswith("isampler")
                   for f in frag["texture2DArray"] for p in f.params)


VS = """void main() { gl_Position = gl_Vertex; gl_TexCoord[0] = gl_MultiTexCoord0; }"""
FS = """#extension GL_EXT_texture_array : enable
uniform sampler2DArray tex;
uniform float layer;
void main() { gl_FragColor = texture2DArray(tex, vec3(gl_TexCoord[0].xy, layer)); }
"""


def test_texture2DArray_samples_the_named_layer():
    ctx = driver.Context(api="compat", width=4, height=4)
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    # three 2x2 layers of one colour each
    colours = np.array([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]], np.uint8)
    texels = np.repeat(colours[:, None, :], 4, axis=1)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, tex)
    ctx.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_RGBA8, 2, 2, 3, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     texels.tobytes())
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "tex"), 0)
    for layer in (2, 0, 1):
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "layer"), float(layer))
        ctx.glBegin(E.GL_QUADS)
        for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)):
            ctx.glTexCoord2f(x, y)
            ctx.glVertex2f(2 * x - 1, 2 * y - 1)
        ctx.glEnd()
        px = np.frombuffer(bytes(ctx.glReadPixels(2, 2, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert px.tolist() == colours[layer].tolist()
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_without_the_extension_the_name_is_unknown():
    ctx = driver.Context(api="compat", width=4, height=4)
    src = FS.replace("#extension GL_EXT_texture_array : enable\n", "")
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, src)
    assert not ok and "error" in log
