"""GL_OES_EGL_image_external and GL_OES_EGL_image_external_essl3: the
TEXTURE_EXTERNAL_OES target, glEGLImageTargetTexture2DOES on it, its
restricted parameters and commands, and samplerExternalOES in GLSL ES 1.00
(texture2D, texture2DProj) and 3.x (texture, textureProj, textureSize,
texelFetch; an image unit bound to the external texture). The image is made
from a 2D texture whose texels are hand-written, so every sampled value is
known (texel (x, y) = (40x + 10, 40y + 20, 7, 255) / 255)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import egl_image
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source, expect

W = H = 4
QUAD = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)


def _texels() -> np.ndarray:
    t = np.zeros((H, W, 4), np.uint8)
    t[..., 0] = np.arange(W)[None, :] * 40 + 10
    t[..., 1] = np.arange(H)[:, None] * 40 + 20
    t[..., 2], t[..., 3] = 7, 255
    return t


def _external_texture(ctx) -> int:
    """An external texture on unit 0 whose image is a 4x4 RGBA8 texture of _texels()."""
    src = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, src)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     _texels().tobytes())
    img = egl_image.from_texture(ctx, src, E.GL_TEXTURE_2D, 0, 0)
    ext = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_EXTERNAL_OES, ext)
    ctx.glEGLImageTargetTexture2DOES(E.GL_TEXTURE_EXTERNAL_OES, img.handle)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glTexParameteri(E.GL_TEXTURE_EXTERNAL_OES, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_EXTERNAL_OES, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    return ext


def _draw(ctx, vs: str, fs: str) -> np.ndarray:
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "s"), 0)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, QUAD.tobytes())
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    return ctx.read_pixels()


VS100 = """#version 100
attribute vec2 p; varying vec2 tc;
void main() { tc = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }"""
VS310 = """#version 310 es
in vec2 p; out vec2 tc;
void main() { tc = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }"""


def test_listed_in_es_contexts_only():
    for api, want in (("gles2", {"GL_OES_EGL_image_external"}),
                      ("gles3", {"GL_OES_EGL_image_external", "GL_OES_EGL_image_external_essl3"}),
                      ("gl43", set())):
        ctx = driver.Context(api=api, width=1, height=1)
        names = set((ctx.glGetString(E.GL_EXTENSIONS) or "").split()) | {
            ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range((ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS) or [0])[0])}
        while ctx.glGetError():          # the form the context lacks set INVALID_ENUM
            pass
        assert names & {"GL_OES_EGL_image_external", "GL_OES_EGL_image_external_essl3"} == want, api
        if not want:
            ctx.glBindTexture(E.GL_TEXTURE_EXTERNAL_OES, 1)
            expect(ctx, E.GL_INVALID_ENUM)


def test_es2_texture2d_and_proj_sample_the_image():
    ctx = driver.Context(api="gles2", width=W, height=H)
    _external_texture(ctx)
    fs = """#version 100
#extension GL_OES_EGL_image_external : require
precision mediump float;
uniform samplerExternalOES s; varying vec2 tc;
void main() {
    vec4 a = texture2D(s, tc);
    vec4 b = texture2DProj(s, vec3(tc * 2.0, 2.0));
    vec4 c = texture2DProj(s, vec4(tc * 4.0, 0.5, 4.0));
    gl_FragColor = (a == b && b == c) ? a : vec4(1.0, 0.0, 1.0, 1.0);
}"""
    got = _draw(ctx, VS100, fs)
    # one fragment per texel: the pixel centres are the texel centres
    np.testing.assert_array_equal(got, _texels())


def test_essl3_functions():
    ctx = driver.Context(api="gles31", width=W, height=H)
    _external_texture(ctx)
    fs = """#version 310 es
#extension GL_OES_EGL_image_external_essl3 : require
precision mediump float;
uniform samplerExternalOES s; in vec2 tc; out vec4 colour;
void main() {
    ivec2 size = textureSize(s, 0);
    vec4 a = texture(s, tc);
    vec4 b = textureProj(s, vec3(tc * 2.0, 2.0));
    vec4 c = textureProj(s, vec4(tc * 3.0, 0.0, 3.0));
    vec4 d = texelFetch(s, ivec2(gl_FragCoord.xy), 0);
    bool ok = size == ivec2(4, 4) && a == b && b == c && c == d;
    colour = ok ? a : vec4(1.0, 0.0, 1.0, 1.0);
}"""
    np.testing.assert_array_equal(_draw(ctx, VS310, fs), _texels())


def test_image_unit_on_the_external_texture():
    """The piglit test's imageLoad case: an external texture bound to an image unit."""
    ctx = driver.Context(api="gles31", width=W, height=H)
    ext = _external_texture(ctx)
    ctx.glBindImageTexture(1, ext, 0, False, 0, E.GL_READ_ONLY, E.GL_RGBA8)
    expect(ctx, E.GL_NO_ERROR)
    fs = """#version 310 es
precision mediump float; precision mediump image2D;
layout(binding = 1, rgba8) readonly uniform image2D img;
in vec2 tc; out vec4 colour;
void main() { colour = imageLoad(img, ivec2(gl_FragCoord.xy)); }"""
    np.testing.assert_array_equal(_draw(ctx, VS310, fs), _texels())


def test_no_image_samples_black():
    """OES_EGL_image_external: an external texture without an image samples (0, 0, 0, 1)."""
    ctx = driver.Context(api="gles2", width=W, height=H)
    ctx.glBindTexture(E.GL_TEXTURE_EXTERNAL_OES, ctx.glGenTextures(1)[0])
    fs = """#version 100
#extension GL_OES_EGL_image_external : require
precision mediump float; uniform samplerExternalOES s; varying vec2 tc;
void main() { gl_FragColor = texture2D(s, tc); }"""
    got = _draw(ctx, VS100, fs)
    assert (got == [0, 0, 0, 255]).all()


def test_state_and_errors():
    ctx = driver.Context(api="gles3", width=1, height=1)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_EXTERNAL_OES, tex)
    T = E.GL_TEXTURE_EXTERNAL_OES
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_EXTERNAL_OES) == [tex]
    # defaults: LINEAR, CLAMP_TO_EDGE; one unit to sample it
    assert ctx.glGetTexParameteriv(T, E.GL_TEXTURE_MIN_FILTER) == [E.GL_LINEAR]
    assert ctx.glGetTexParameteriv(T, E.GL_TEXTURE_WRAP_S) == [E.GL_CLAMP_TO_EDGE]
    assert ctx.glGetTexParameteriv(T, E.GL_TEXTURE_WRAP_T) == [E.GL_CLAMP_TO_EDGE]
    assert ctx.glGetTexParameteriv(T, E.GL_REQUIRED_TEXTURE_IMAGE_UNITS_OES) == [1]
    ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_REQUIRED_TEXTURE_IMAGE_UNITS_OES)
    expect(ctx, E.GL_INVALID_ENUM)
    for pname, value in ((E.GL_TEXTURE_WRAP_S, E.GL_REPEAT), (E.GL_TEXTURE_WRAP_T, E.GL_MIRRORED_REPEAT),
                         (E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_LINEAR)):
        ctx.glTexParameteri(T, pname, value)
        expect(ctx, E.GL_INVALID_ENUM)
    assert ctx.glGetTexParameteriv(T, E.GL_TEXTURE_WRAP_S) == [E.GL_CLAMP_TO_EDGE]
    ctx.glTexParameteri(T, E.GL_TEXTURE_BASE_LEVEL, 1)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glTexParameteri(T, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    expect(ctx, E.GL_NO_ERROR)
    # the texture commands do not take the target
    ctx.glTexImage2D(T, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(4))
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glTexStorage2D(T, 1, E.GL_RGBA8, 1, 1)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glGenerateMipmap(T)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glCopyTexImage2D(T, 0, E.GL_RGBA8, 0, 0, 1, 1, 0)
    expect(ctx, E.GL_INVALID_ENUM)
    # a texture first bound as external is not a 2D texture
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glEGLImageTargetTexture2DOES(T, 0x7FFF0)        # no such image
    expect(ctx, E.GL_INVALID_VALUE)


@pytest.mark.parametrize("version, ext, source, ok", [
    ("100", "GL_OES_EGL_image_external", "texture2D(s, vec2(0.5))", True),
    ("100", "GL_OES_EGL_image_external", "texture2DProj(s, vec4(0.5))", True),
    ("100", "GL_OES_EGL_image_external", "texture2DLod(s, vec2(0.5), 0.0)", False),
    ("100", "GL_OES_EGL_image_external", "texture2D(s, vec2(0.5), 1.0)", False),
    ("300 es", "GL_OES_EGL_image_external_essl3", "texture(s, vec2(0.5))", True),
    ("300 es", "GL_OES_EGL_image_external_essl3", "textureLod(s, vec2(0.5), 0.0)", False),
    ("300 es", "GL_OES_EGL_image_external_essl3", "textureGrad(s, vec2(0.5), vec2(0.0), vec2(0.0))", False),
    ("300 es", "GL_OES_EGL_image_external_essl3", "textureOffset(s, vec2(0.5), ivec2(1))", False),
    ("300 es", "GL_OES_EGL_image_external_essl3", "texture2D(s, vec2(0.5))", False),
    # GLSL ES 3.x keeps the GLSL ES 1.00 lookups when the first extension is enabled (as Mesa)
    ("300 es", "GL_OES_EGL_image_external", "texture2D(s, vec2(0.5))", True),
])
def test_which_lookups_exist(version, ext, source, ok):
    ctx = driver.Context(api="gles3", width=1, height=1)
    out = "gl_FragColor" if version == "100" else "colour"
    decl = "" if version == "100" else "out vec4 colour;"
    fs = f"""#version {version}
#extension {ext} : require
precision mediump float; uniform samplerExternalOES s; {decl}
void main() {{ {out} = {source}; }}"""
    _, compiled, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert compiled == ok, log


def test_type_needs_the_extension():
    ctx = driver.Context(api="gles3", width=1, height=1)
    fs = """#version 100
precision mediump float; uniform samplerExternalOES s;
void main() { gl_FragColor = vec4(1.0); }"""
    _, compiled, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert not compiled and "error" in log
    # the macro exists once the context lists the extension
    fs = """#version 100
#if !defined(GL_OES_EGL_image_external) || GL_OES_EGL_image_external != 1
#error no macro
#endif
void main() { gl_FragColor = vec4(1.0); }"""
    _, compiled, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert compiled, log
