"""GLES extensions with a shading-language part built on the compiler's
desktop built-ins (compiler/glsl/versions.py EXTENSIONS: the ES names):
EXT_shader_integer_mix, OES_shader_image_atomic. Each
test compiles GLSL ES with the #extension line (and checks that the built-ins
are absent without it) and draws or dispatches on the whole stack, against
values worked out by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source as _compile, expect, link_sources

T2 = E.GL_TEXTURE_2D
VS3 = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FULL = [(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)]


def _link(ctx, *shaders):
    return link_sources(ctx, shaders)


def _draw_full(ctx):
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    data = np.array(FULL, np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)


def _listed(ctx, name):
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    return name in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}


def test_ext_shader_integer_mix_in_es3():
    """GLSL ES 3.00 gets mix() of int, uint and bool selected by bool with the
    extension: mix(1, 7, true) = 7, mix(3u, 4u, false) = 3u, mix(true, false,
    true) = false; written as x / 255 they read back 7, 3, 0."""
    ctx = driver.Context(api="gles3", width=4, height=4)
    assert _listed(ctx, "GL_EXT_shader_integer_mix")
    body = ("precision mediump float; out vec4 o; void main() {"
            " o = vec4(float(mix(1, 7, true)), float(mix(3u, 4u, false)),"
            " mix(true, false, true) ? 255.0 : 0.0, 255.0) / 255.0; }")
    _, ok, _ = _compile(ctx, E.GL_FRAGMENT_SHADER, "#version 300 es\n" + body)
    assert not ok
    _link(ctx, (E.GL_VERTEX_SHADER, VS3),
          (E.GL_FRAGMENT_SHADER, "#version 300 es\n#extension GL_EXT_shader_integer_mix : require\n" + body))
    _draw_full(ctx)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [7, 3, 0, 255]).all()


def _image(ctx, ifmt, value, dtype):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 1, ifmt, 1, 1)
    fmt, type = (E.GL_RED_INTEGER, E.GL_UNSIGNED_INT) if dtype == np.uint32 else (E.GL_RED, E.GL_FLOAT)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 1, 1, fmt, type, np.array([value], dtype))
    return t


def _read_image(ctx, t, fmt, type, dtype):
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
    return np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, fmt, type), dtype)[0]


def test_oes_shader_image_atomic_in_es31():
    """GLSL ES 3.10 compute shaders get the image atomics with the extension:
    16 invocations each imageAtomicAdd 3 to an r32ui texel holding 5 -> 53;
    imageAtomicExchange on an r32f texel leaves the value one of the 16
    invocations wrote (i + 0.5), not the initial -1."""
    ctx = driver.Context(api="gles31", width=4, height=4)
    assert _listed(ctx, "GL_OES_shader_image_atomic")
    body = ("layout(local_size_x = 16) in;\n"
            "layout(r32ui, binding = 0) uniform highp uimage2D counter;\n"
            "layout(r32f, binding = 1) uniform highp image2D last;\n"
            "void main() { imageAtomicAdd(counter, ivec2(0), 3u);"
            " imageAtomicExchange(last, ivec2(0), float(gl_LocalInvocationIndex) + 0.5); }")
    _, ok, log = _compile(ctx, E.GL_COMPUTE_SHADER, "#version 310 es\n" + body)
    assert not ok and "imageAtomicAdd" in log
    counter = _image(ctx, E.GL_R32UI, 5, np.uint32)
    last = _image(ctx, E.GL_R32F, -1.0, np.float32)
    ctx.glBindImageTexture(0, counter, 0, False, 0, E.GL_READ_WRITE, E.GL_R32UI)
    ctx.glBindImageTexture(1, last, 0, False, 0, E.GL_READ_WRITE, E.GL_R32F)
    _link(ctx, (E.GL_COMPUTE_SHADER, "#version 310 es\n#extension GL_OES_shader_image_atomic : require\n" + body))
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    expect(ctx, E.GL_NO_ERROR)
    assert _read_image(ctx, counter, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT, np.uint32) == 5 + 16 * 3
    got = _read_image(ctx, last, E.GL_RGBA, E.GL_FLOAT, np.float32)
    assert got in [i + 0.5 for i in range(16)]



def test_oes_texture_cube_map_array_in_es31():
    """GLES 3.1 with OES/EXT_texture_cube_map_array: a CUBE_MAP_ARRAY texture
    of 2 cubes (12 layer-faces, layer-face k = cube * 6 + face, each its own
    colour k * 20) sampled by samplerCubeArray: direction +X (face 0) of cube 1
    reads layer-face 6 (120), -Y (face 3) of cube 0 reads 3 (60). The GLSL
    types need the #extension line."""
    ctx = driver.Context(api="gles31", width=8, height=4)
    for name in ("GL_OES_texture_cube_map_array", "GL_EXT_texture_cube_map_array"):
        assert _listed(ctx, name)
    body = ("precision mediump float; uniform highp samplerCubeArray s; out vec4 o;\n"
            "void main() { o = gl_FragCoord.x < 4.0 ? texture(s, vec4(1.0, 0.0, 0.0, 1.0))"
            " : texture(s, vec4(0.0, -1.0, 0.0, 0.0)); }")
    _, ok, _ = _compile(ctx, E.GL_FRAGMENT_SHADER, "#version 310 es\n" + body)
    assert not ok
    _, ok, log = _compile(ctx, E.GL_FRAGMENT_SHADER,
                          "#version 310 es\n#extension GL_EXT_texture_cube_map_array : require\n"
                          "precision mediump float; layout(rgba8, binding = 0) readonly uniform highp"
                          " imageCubeArray im; out vec4 o; void main() { o = imageLoad(im, ivec3(0, 0, 7)); }")
    assert ok, log
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP_ARRAY, t)
    ctx.glTexStorage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 1, E.GL_RGBA8, 1, 1, 12)
    for k in range(12):
        ctx.glTexSubImage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 0, 0, 0, k, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                            np.array([k * 20, 0, 0, 255], np.uint8))
    ctx.glTexParameteri(E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_CUBE_MAP_ARRAY, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    expect(ctx, E.GL_NO_ERROR)
    _link(ctx, (E.GL_VERTEX_SHADER, VS3.replace("300 es", "310 es")),
          (E.GL_FRAGMENT_SHADER, "#version 310 es\n#extension GL_OES_texture_cube_map_array : require\n" + body))
    _draw_full(ctx)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 8, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 8, 4)
    assert (px[:, :4] == [120, 0, 0, 255]).all() and (px[:, 4:] == [60, 0, 0, 255]).all()


def test_oes_texture_buffer_in_es31():
    """GLES 3.1 with OES/EXT_texture_buffer: a buffer of 8 RGBA8 texels
    attached to a TEXTURE_BUFFER texture by glTexBufferOES, then by
    glTexBufferRangeEXT from texel 4 (byte 16, a multiple of
    TEXTURE_BUFFER_OFFSET_ALIGNMENT); samplerBuffer's texelFetch(s, 1) reads
    texel 1 (then texel 5) and textureSize gives 8 (then 3). The buffer
    bindings and the level parameters read back."""
    ctx = driver.Context(api="gles31", width=4, height=4)
    for name in ("GL_OES_texture_buffer", "GL_EXT_texture_buffer"):
        assert _listed(ctx, name)
    body = ("precision mediump float; uniform highp samplerBuffer s; out vec4 o;\n"
            "void main() { o = texelFetch(s, 1); o.a = float(textureSize(s)) / 255.0; }")
    _, ok, _ = _compile(ctx, E.GL_FRAGMENT_SHADER, "#version 310 es\n" + body)
    assert not ok
    texels = np.array([[10 * i, i, 2 * i, 3 * i] for i in range(8)], np.uint8)
    align = ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT)[0]
    assert 16 % align == 0                                      # texel 4 is an aligned offset
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, b)
    ctx.glBufferData(E.GL_TEXTURE_BUFFER, 32, texels.tobytes(), E.GL_STATIC_DRAW)
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_BINDING) == [b]
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, t)
    ctx.glTexBufferOES(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, b)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_BUFFER) == [t]
    level = lambda p: ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, p)[0]  # noqa: E731
    assert (level(E.GL_TEXTURE_BUFFER_DATA_STORE_BINDING), level(E.GL_TEXTURE_BUFFER_OFFSET),
            level(E.GL_TEXTURE_BUFFER_SIZE)) == (b, 0, 32)
    _link(ctx, (E.GL_VERTEX_SHADER, VS3.replace("300 es", "310 es")),
          (E.GL_FRAGMENT_SHADER, "#version 310 es\n#extension GL_OES_texture_buffer : require\n" + body))
    _draw_full(ctx)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [10, 1, 2, 8]).all()
    ctx.glTexBufferRangeEXT(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, b, 16, 12)
    assert (level(E.GL_TEXTURE_BUFFER_OFFSET), level(E.GL_TEXTURE_BUFFER_SIZE)) == (16, 12)
    _draw_full(ctx)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [50, 5, 10, 3]).all()


def test_oes_texture_stencil8_in_es31():
    """GLES 3.1 with OES_texture_stencil8: a STENCIL_INDEX8 texture takes
    STENCIL_INDEX/UNSIGNED_BYTE texels, is sampled as unsigned integers
    (usampler2D texelFetch: 7, 9, 11, 13 -> red 7, 9, 11, 13), and is a
    complete framebuffer's stencil attachment whose stencil test passes where
    the stored value equals the reference (9: the texel at (1, 0) only)."""
    ctx = driver.Context(api="gles31", width=2, height=2)
    assert _listed(ctx, "GL_OES_texture_stencil8")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 1, E.GL_STENCIL_INDEX8, 2, 2)
    ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 2, 2, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE, np.array([7, 9, 11, 13], np.uint8))
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    expect(ctx, E.GL_NO_ERROR)
    vs = VS3.replace("300 es", "310 es")
    _link(ctx, (E.GL_VERTEX_SHADER, vs),
          (E.GL_FRAGMENT_SHADER, "#version 310 es\nprecision mediump float; uniform highp usampler2D s; out vec4 o;\n"
                                 "void main() { o = vec4(float(texelFetch(s, ivec2(gl_FragCoord.xy), 0).r) / 255.0,"
                                 " 0.0, 0.0, 1.0); }"))
    _draw_full(ctx)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert px[:, 0].tolist() == [7, 9, 11, 13]
    (colour, fb) = ctx.glGenTextures(1)[0], ctx.glGenFramebuffers(1)[0]
    ctx.glBindTexture(T2, colour)
    ctx.glTexStorage2D(T2, 1, E.GL_RGBA8, 2, 2)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, colour, 0)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_STENCIL_ATTACHMENT, T2, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(E.GL_STENCIL_TEST)
    ctx.glStencilFunc(E.GL_EQUAL, 9, 0xFF)
    _link(ctx, (E.GL_VERTEX_SHADER, vs),
          (E.GL_FRAGMENT_SHADER, "#version 310 es\nprecision mediump float; out vec4 o; void main() { o = vec4(1.0); }"))
    _draw_full(ctx)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert px[:, 0].tolist() == [0, 255, 0, 0]


def test_ext_texture_srgb_decode_skips_the_srgb_transfer():
    """An SRGB8_ALPHA8 texel (128, 64, 255, 128) samples as decoded linear
    values by default (sRGB 128/255 -> 0.2158 -> 55, 64/255 -> 0.0513 -> 13;
    alpha is linear: 128); with TEXTURE_SRGB_DECODE_EXT = SKIP_DECODE_EXT on
    the texture, or on a sampler object bound over a decoding texture, it
    samples the stored values (128, 64, 255, 128). The state reads back; a
    bad value is INVALID_ENUM."""
    from driver.gl.features.gles_ext import GL_DECODE_EXT, GL_SKIP_DECODE_EXT, GL_TEXTURE_SRGB_DECODE_EXT
    ctx = driver.Context(api="gles3", width=2, height=2)
    assert _listed(ctx, "GL_EXT_texture_sRGB_decode")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_SRGB8_ALPHA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     np.array([128, 64, 255, 128], np.uint8))
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    assert ctx.glGetTexParameteriv(T2, GL_TEXTURE_SRGB_DECODE_EXT) == [GL_DECODE_EXT]
    _link(ctx, (E.GL_VERTEX_SHADER, VS3),
          (E.GL_FRAGMENT_SHADER, "#version 300 es\nprecision mediump float; uniform sampler2D s; out vec4 o;\n"
                                 "void main() { o = texture(s, vec2(0.5)); }"))

    def drawn():
        _draw_full(ctx)
        return np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).tolist()
    got = drawn()
    assert abs(got[0] - 55) <= 1 and abs(got[1] - 13) <= 1 and got[2:] == [255, 128]
    ctx.glTexParameteri(T2, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT)
    assert drawn() == [128, 64, 255, 128]
    ctx.glTexParameteri(T2, GL_TEXTURE_SRGB_DECODE_EXT, GL_DECODE_EXT)
    (s,) = ctx.glGenSamplers(1)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glSamplerParameteri(s, GL_TEXTURE_SRGB_DECODE_EXT, GL_SKIP_DECODE_EXT)
    assert ctx.glGetSamplerParameteriv(s, GL_TEXTURE_SRGB_DECODE_EXT) == [GL_SKIP_DECODE_EXT]
    ctx.glBindSampler(0, s)
    assert drawn() == [128, 64, 255, 128]
    ctx.glTexParameteri(T2, GL_TEXTURE_SRGB_DECODE_EXT, E.GL_LINEAR)
    expect(ctx, E.GL_INVALID_ENUM)
