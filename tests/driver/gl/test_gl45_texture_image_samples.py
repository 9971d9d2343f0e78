"""GL_ARB_shader_texture_image_samples (GLSL 4.50 core): textureSamples and
imageSamples answer the sample count of a multisample texture or image, read
by the GPU's texture unit from the descriptor (texture_query.samples)."""

import numpy as np
import pytest

from compiler.glsl import GLSLCompileError, parse
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

CS = """{header}
layout(local_size_x = 1) in;
uniform sampler2DMS t4;
uniform isampler2DMSArray t2;
uniform sampler2DMS t1;
layout(rgba8) uniform readonly image2DMS img;
layout(std430, binding = 0) buffer Out {{ int v[4]; }};
void main() {{
    v[0] = textureSamples(t4);
    v[1] = textureSamples(t2);
    v[2] = textureSamples(t1);
    v[3] = imageSamples(img);
}}
"""


def _ms_texture(ctx, target, samples, fmt, layers=0):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(target, t)
    if layers:
        ctx.glTexStorage3DMultisample(target, samples, fmt, 4, 4, layers, True)
    else:
        ctx.glTexStorage2DMultisample(target, samples, fmt, 4, 4, True)
    return t


@pytest.mark.parametrize("header", ["#version 450", "#version 430\n#extension GL_ARB_shader_texture_image_samples : require"])
def test_sample_counts_of_textures_and_images(header):
    ctx = glhelp.context(4, 4, api="compat")
    prog = glhelp.compute_program(ctx, CS.format(header=header))
    ctx.glUseProgram(prog)
    t4 = _ms_texture(ctx, E.GL_TEXTURE_2D_MULTISAMPLE, 4, E.GL_RGBA8)
    t2 = _ms_texture(ctx, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 2, E.GL_RGBA8I, layers=3)
    t1 = _ms_texture(ctx, E.GL_TEXTURE_2D_MULTISAMPLE, 1, E.GL_RGBA8)
    for unit, (target, tex, name) in enumerate(((E.GL_TEXTURE_2D_MULTISAMPLE, t4, "t4"),
                                                (E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, t2, "t2"),
                                                (E.GL_TEXTURE_2D_MULTISAMPLE, t1, "t1"))):
        ctx.glActiveTexture(E.GL_TEXTURE0 + unit)
        ctx.glBindTexture(target, tex)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, name), unit)
    ctx.glBindImageTexture(0, t4, 0, False, 0, E.GL_READ_ONLY, E.GL_RGBA8)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "img"), 0)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 16, np.full(4, -1, np.int32), E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    out = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 16)), np.int32)
    expect(ctx, E.GL_NO_ERROR)
    assert list(out) == [4, 2, 2, 4]        # a 1-sample request has 2 (test_multisample_sample_counts.py)


def test_not_before_450_without_the_extension():
    src = "#version 430\nuniform sampler2DMS t;\nout vec4 o;\nvoid main() { o = vec4(textureSamples(t)); }\n"
    with pytest.raises(GLSLCompileError, match="textureSamples"):
        parse(src, "fragment")
    parse(src.replace("#version 430", "#version 450"), "fragment")


def test_listed():
    ctx = glhelp.context(4, 4, api="compat")
    assert "GL_ARB_shader_texture_image_samples" in ctx.extensions
