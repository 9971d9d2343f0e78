"""GL_ARB_ES3_1_compatibility (GL 4.5 core): GLSL ES 3.10 shaders in desktop
contexts, the GLSL 4.50 / ES 3.10 built-ins it brings (integer and boolean
mix, imageAtomicExchange on r32f images, gl_HelperInvocation) and
glMemoryBarrierByRegion with its restricted barrier bits."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

CS_ES31 = """#version 310 es
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { ivec2 m; uvec2 u; int b; };
void main() {
    m = mix(ivec2(1, 2), ivec2(3, 4), bvec2(true, false));
    u = mix(uvec2(5u, 6u), uvec2(7u, 8u), bvec2(false, true));
    b = int(mix(true, false, true));
}
"""


def test_a_glsl_es_310_compute_shader_runs_in_a_desktop_context():
    """mix selects component-wise (true takes y): (3, 2), (5, 8), false."""
    ctx = glhelp.context(4, 4, api="compat")
    prog = glhelp.compute_program(ctx, CS_ES31)
    ctx.glUseProgram(prog)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 20, bytes(20), E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrierByRegion(E.GL_SHADER_STORAGE_BARRIER_BIT | E.GL_SHADER_IMAGE_ACCESS_BARRIER_BIT)
    raw = bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 20))
    expect(ctx, E.GL_NO_ERROR)
    assert list(np.frombuffer(raw[0:8], np.int32)) == [3, 2]
    assert list(np.frombuffer(raw[8:16], np.uint32)) == [5, 8]
    assert np.frombuffer(raw[16:20], np.int32)[0] == 0


def test_image_atomic_exchange_on_r32f():
    """GLSL 4.50: the exchange returns the texel's 1.5 and leaves 2.25 in it."""
    ctx = glhelp.context(4, 4, api="compat")
    prog = glhelp.compute_program(ctx, "#version 450\nlayout(local_size_x = 1) in;\n"
                                       "layout(r32f, binding = 0) uniform image2D img;\n"
                                       "layout(std430, binding = 0) buffer Out { float old; };\n"
                                       "void main() { old = imageAtomicExchange(img, ivec2(1, 0), 2.25); }\n")
    ctx.glUseProgram(prog)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_R32F, 2, 1)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 1, E.GL_RED, E.GL_FLOAT, np.array([0.5, 1.5], np.float32))
    ctx.glBindImageTexture(0, tex, 0, False, 0, E.GL_READ_WRITE, E.GL_R32F)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 4, bytes(4), E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    expect(ctx, E.GL_NO_ERROR)
    assert np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 4)), np.float32)[0] == 1.5
    texels = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED, E.GL_FLOAT)), np.float32)
    assert list(texels) == [0.5, 2.25]


def test_memory_barrier_by_region_takes_only_fragment_barriers():
    ctx = glhelp.context(4, 4, api="compat")
    ctx.glMemoryBarrierByRegion(E.GL_ALL_BARRIER_BITS)
    ctx.glMemoryBarrierByRegion(E.GL_FRAMEBUFFER_BARRIER_BIT | E.GL_UNIFORM_BARRIER_BIT)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glMemoryBarrierByRegion(E.GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glMemoryBarrierByRegion(E.GL_UNIFORM_BARRIER_BIT | E.GL_COMMAND_BARRIER_BIT)
    expect(ctx, E.GL_INVALID_VALUE)


def test_helper_invocation_in_an_es_310_fragment_shader():
    """Every fragment of a covered quad is a real invocation: gl_HelperInvocation
    is false where colour is written."""
    ctx = glhelp.context(4, 4, api="compat")
    glhelp.program(ctx, "#version 310 es\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1)"
                        " * 2.0 - 1.0; gl_Position = vec4(p, 0.0, 1.0); }\n",
                   "#version 310 es\nprecision mediump float;\nout vec4 o;\n"
                   "void main() { o = gl_HelperInvocation ? vec4(1, 0, 0, 1) : vec4(0, 1, 0, 1); }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(4, 4, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert (img == [0, 255, 0, 255]).all()


def test_listed():
    ctx = glhelp.context(4, 4, api="compat")
    assert "GL_ARB_ES3_1_compatibility" in ctx.extensions
