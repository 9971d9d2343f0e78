"""GL_OES_texture_storage_multisample_2d_array (GLES 3.1): immutable multisample
array textures (glTexStorage3DMultisampleOES), their layers as framebuffer
attachments, and GLSL ES 3.10's sampler2DMSArray under the #extension line
(texelFetch per sample and layer, textureSize). Expected values are the clear
colours each layer was given."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

EXT = "#version 310 es\n#extension GL_OES_texture_storage_multisample_2d_array : require\n"
VS = ("#version 310 es\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
      " gl_Position = vec4(p, 0.0, 1.0); }\n")


def test_listed_in_gles31_only():
    for api, listed in (("gles31", True), ("gles3", False)):
        ctx = glhelp.context(1, 1, api=api)
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert ("GL_OES_texture_storage_multisample_2d_array" in names) == listed
    ctx = glhelp.context(1, 1, api="gles3")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, tex)
    assert ctx.glGetError() == E.GL_INVALID_ENUM


def test_layers_are_attachments_and_fetched_per_sample():
    ctx = glhelp.context(1, 1, api="gles31")
    w, h, layers, samples = 4, 2, 3, 4
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, tex)
    ctx.glTexStorage3DMultisampleOES(E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, samples, E.GL_RGBA8, w, h, layers, True)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY)[0] == tex
    colours = [(1.0, 0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 1.0), (0.0, 0.0, 1.0, 0.0)]
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for layer, c in enumerate(colours):
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, tex, 0, layer)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClearColor(*c)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    # read each (layer, sample) at pixel (1, 1) and the size, into an RGBA32I target
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    n = layers * samples + 1
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32I, n, 1)
    (out_fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, out_fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glViewport(0, 0, n, 1)
    fs = EXT + ("precision highp float;\nuniform highp sampler2DMSArray t;\nlayout(location = 0) out ivec4 o;\n"
                "void main() { int x = int(gl_FragCoord.x);\n"
                f" if (x == {n - 1}) o = ivec4(textureSize(t), 0);\n"
                f" else o = ivec4(texelFetch(t, ivec3(1, 1, x / {samples}), x % {samples}) * 255.0 + 0.5); }}\n")
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    glhelp.program(ctx, VS, fs)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glReadPixels(0, 0, n, 1, E.GL_RGBA_INTEGER, E.GL_INT), np.int32).reshape(n, 4)
    want = [[round(v * 255) for v in colours[i // samples]] for i in range(n - 1)]
    assert got[:-1].tolist() == want
    assert got[-1].tolist() == [w, h, layers, 0]


def test_the_shading_language_part_needs_the_extension_line():
    ctx = glhelp.context(1, 1, api="gles31")
    s = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
    ctx.glShaderSource(s, 1, ["#version 310 es\nprecision highp float;\nuniform highp sampler2DMSArray t;\n"
                              "out vec4 o;\nvoid main() { o = texelFetch(t, ivec3(0), 0); }\n"])
    ctx.glCompileShader(s)
    assert not ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0]
