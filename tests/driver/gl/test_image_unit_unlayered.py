"""GL 4.6 section 8.26: a texture level without layers or faces (1D, 2D, rectangle) is
bound to an image unit whole, whatever glBindImageTexture's ``layered`` and ``layer``
say (piglit's arb_shader_image_load_store/layer: a non-layered binding with layer 1 of
a 2D texture stored nothing). A compute shader stores a texel through such a binding;
glGetTexImage reads it back: the values are the ones the shader wrote."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

CS = """#version 430
layout(local_size_x = 1) in;
layout(rgba32f) uniform {kind} img;
void main() {{ imageStore(img, {coord}, vec4(1.0, 2.0, 3.0, 4.0)); }}
"""


@pytest.mark.parametrize("target, kind, coord", [
    (E.GL_TEXTURE_2D, "image2D", "ivec2(1, 0)"),
    (E.GL_TEXTURE_1D, "image1D", "1"),
    (E.GL_TEXTURE_RECTANGLE, "image2DRect", "ivec2(1, 0)")])
def test_a_layer_of_an_unlayered_texture_binds_the_whole_level(target, kind, coord):
    c = driver.Context(api="gl43", width=4, height=4)
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(target, tex)
    if target == E.GL_TEXTURE_1D:
        c.glTexStorage1D(target, 1, E.GL_RGBA32F, 2)
    else:
        c.glTexStorage2D(target, 1, E.GL_RGBA32F, 2, 1)
    sh, ok, log = compile_source(c, E.GL_COMPUTE_SHADER, CS.format(kind=kind, coord=coord))
    assert ok, log
    prog = c.glCreateProgram()
    c.glAttachShader(prog, sh)
    c.glLinkProgram(prog)
    assert c.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(prog)
    c.glUseProgram(prog)
    for layered, layer in ((False, 1), (True, 3)):
        c.glClearTexImage(tex, 0, E.GL_RGBA, E.GL_FLOAT, np.zeros(4, np.float32).tobytes())
        c.glBindImageTexture(0, tex, 0, layered, layer, E.GL_WRITE_ONLY, E.GL_RGBA32F)
        c.glDispatchCompute(1, 1, 1)
        c.glMemoryBarrier(E.GL_TEXTURE_UPDATE_BARRIER_BIT)
        assert c.glGetError() == E.GL_NO_ERROR
        got = np.frombuffer(c.glGetTexImage(target, 0, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(2, 4)
        assert got.tolist() == [[0, 0, 0, 0], [1, 2, 3, 4]], (layered, layer)
