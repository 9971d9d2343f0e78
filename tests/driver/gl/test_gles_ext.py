"""GLES extensions under their ES names (driver/gl/extensions.py, es2 column;
driver/gl/features/gles_ext.py): each test exercises what its extension
specifies in a GLES context, through real draws or queries on the whole stack
(driver.Context), against values worked out by hand in the test."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.features.gles_ext import (GL_COMPLETION_STATUS_KHR, GL_HALF_FLOAT_OES,
                                         GL_MAX_SHADER_COMPILER_THREADS_KHR)
from tests.driver.gl.helpers import compile_source as _compile, expect, link_sources

A = E.GL_ARRAY_BUFFER
T2 = E.GL_TEXTURE_2D
W, H = 8, 4

VS = ("attribute vec2 p; uniform float z; varying vec2 uv;\n"
      "void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, z, 1.0); }")
FULL = [(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)]


def _ctx(api="gles2"):
    return driver.Context(api=api, width=W, height=H)


def _program(ctx, fs, vs=VS):
    return link_sources(ctx, ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)))


def _draw(ctx, corners=FULL, z=0.0, mode=E.GL_TRIANGLES):
    """Draw `corners` (clip x, y) at clip depth `z` with the current program."""
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    ctx.glUniform1f(ctx.glGetUniformLocation(prog, "z"), z)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(A, vbo)
    data = np.array(corners, np.float32)
    ctx.glBufferData(A, data.nbytes, data.tobytes(), E.GL_STREAM_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(mode, 0, len(corners))


def _pixels(ctx, w=W, h=H):
    raw = ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(h, w, 4)


def _texture(ctx, ifmt, w, h, fmt, type, data, filt=E.GL_NEAREST):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, ifmt, w, h, 0, fmt, type, data)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, filt)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MAG_FILTER, filt)
    return t


def _listed(api, name):
    return name in _ctx(api).glGetString(E.GL_EXTENSIONS).split()


# -- OES_standard_derivatives -----------------------------------------------------------


def test_oes_standard_derivatives_dfdx_dfdy_and_the_hint():
    """GLSL ES 1.00 has dFdx/dFdy/fwidth only with the extension enabled; across
    neighbouring fragments gl_FragCoord.x * 0.25 changes by 0.25 in x and
    gl_FragCoord.y * 0.5 by 0.5 in y (fwidth: |0.25| + |0| = 0.25). ES 2.0
    gets FRAGMENT_SHADER_DERIVATIVE_HINT_OES with it."""
    ctx = _ctx()
    assert _listed("gles2", "GL_OES_standard_derivatives")
    _, ok, log = _compile(ctx, E.GL_FRAGMENT_SHADER,
                          "precision mediump float; void main() { gl_FragColor = vec4(dFdx(1.0)); }")
    assert not ok and "dFdx" in log
    _program(ctx, "#extension GL_OES_standard_derivatives : require\n"
                  "precision mediump float;\n"
                  "void main() { gl_FragColor = vec4(dFdx(gl_FragCoord.x * 0.25), dFdy(gl_FragCoord.y * 0.5),"
                  " fwidth(gl_FragCoord.x * 0.25), 1.0); }")
    _draw(ctx)
    assert (_pixels(ctx) == [64, 128, 64, 255]).all()
    ctx.glHint(E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT, E.GL_NICEST)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT) == [E.GL_NICEST]


# -- EXT_frag_depth ------------------------------------------------------------------------


def test_ext_frag_depth_writes_the_depth_the_shader_chooses():
    """A quad at z = 0.9 (window depth 0.95) writes gl_FragDepthEXT = 0.25 on
    its left half; a second quad at z = 0 (depth 0.5) with LESS passes only
    where the stored depth is 0.95 (right half)."""
    ctx = _ctx()
    assert _listed("gles2", "GL_EXT_frag_depth")
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    _program(ctx, "#extension GL_EXT_frag_depth : require\nprecision mediump float;\n"
                  "void main() { gl_FragDepthEXT = gl_FragCoord.x < 4.0 ? 0.25 : gl_FragCoord.z;"
                  " gl_FragColor = vec4(0.0, 0.0, 1.0, 1.0); }")
    _draw(ctx, FULL, 0.9)
    _program(ctx, "precision mediump float; void main() { gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0); }")
    _draw(ctx)
    px = _pixels(ctx)
    assert (px[:, :4] == [0, 0, 255, 255]).all()
    assert (px[:, 4:] == [255, 0, 0, 255]).all()



# -- EXT_shader_texture_lod -------------------------------------------------------------------


def test_ext_shader_texture_lod_picks_the_level_asked_for():
    """A 4x4 texture whose level 0 is red, level 1 green and level 2 blue:
    texture2DLodEXT(.., 1.0) reads level 1 and texture2DGradEXT with a
    derivative of 4 texels per pixel (log2 4 = level 2) reads level 2, whatever
    the fragment's own derivatives; the lod built-ins need the extension."""
    ctx = _ctx()
    assert _listed("gles2", "GL_EXT_shader_texture_lod")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    for level, (size, rgba) in enumerate(((4, (255, 0, 0, 255)), (2, (0, 255, 0, 255)), (1, (0, 0, 255, 255)))):
        data = np.array([rgba] * size * size, np.uint8)
        ctx.glTexImage2D(T2, level, E.GL_RGBA, size, size, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    body = ("uniform sampler2D s; varying vec2 uv; void main() {"
            " gl_FragColor = gl_FragCoord.x < 4.0 ? texture2DLodEXT(s, uv, 1.0)"
            " : texture2DGradEXT(s, uv, vec2(1.0, 0.0), vec2(0.0, 1.0)); }")
    _, ok, _ = _compile(ctx, E.GL_FRAGMENT_SHADER, "precision mediump float;\n" + body)
    assert not ok
    _program(ctx, "#extension GL_EXT_shader_texture_lod : require\nprecision mediump float;\n" + body)
    _draw(ctx)
    px = _pixels(ctx)
    assert (px[:, :4] == [0, 255, 0, 255]).all()
    assert (px[:, 4:] == [0, 0, 255, 255]).all()


# -- OES_texture_npot --------------------------------------------------------------------------


def test_oes_texture_npot_repeat_and_mipmaps_on_a_3x1_texture():
    """GLES 2.0 alone makes a non-power-of-two texture with REPEAT or a
    mipmapped filter incomplete; with OES_texture_npot a 3x1 texture of red,
    green, blue repeats: texel centres at u = 1/6, 1/2, 5/6 and the same plus
    one give the same texels. glGenerateMipmap on it is no error."""
    ctx = _ctx()
    assert _listed("gles2", "GL_OES_texture_npot")
    texels = np.array([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]], np.uint8)
    _texture(ctx, E.GL_RGBA, 3, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_WRAP_S, E.GL_REPEAT)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_WRAP_T, E.GL_REPEAT)
    ctx.glGenerateMipmap(T2)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    # pixel column i samples u = 1/6 + i/3 (+1 from column 3): red, green, blue, red + 1, ...
    _program(ctx, "precision mediump float; uniform sampler2D s;\n"
                  "void main() { float i = floor(gl_FragCoord.x);"
                  " gl_FragColor = texture2D(s, vec2(1.0 / 6.0 + i / 3.0, 0.5)); }")
    _draw(ctx)
    px = _pixels(ctx)
    for i in range(W):
        assert (px[:, i] == texels[i % 3]).all(), i


# -- EXT_texture_rg ---------------------------------------------------------------------------


def test_ext_texture_rg_red_and_rg_textures_and_renderbuffers():
    """RED and RG with UNSIGNED_BYTE are texture formats of GLES 2.0 with the
    extension (missing components read 0, alpha 1); R8 and RG8 are renderable:
    a cleared R8 texture attached to a framebuffer reads back its red."""
    ctx = _ctx()
    assert _listed("gles2", "GL_EXT_texture_rg")
    _texture(ctx, E.GL_RED, 1, 1, E.GL_RED, E.GL_UNSIGNED_BYTE, np.array([200], np.uint8))
    expect(ctx, E.GL_NO_ERROR)
    _program(ctx, "precision mediump float; uniform sampler2D s; void main() {"
                  " gl_FragColor = texture2D(s, vec2(0.5)); }")
    _draw(ctx)
    assert (_pixels(ctx) == [200, 0, 0, 255]).all()
    _texture(ctx, E.GL_RG, 1, 1, E.GL_RG, E.GL_UNSIGNED_BYTE, np.array([10, 20], np.uint8))
    _draw(ctx)
    assert (_pixels(ctx) == [10, 20, 0, 255]).all()
    # R8 renderbuffer, RED texture as a colour attachment
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RG8, 2, 2)
    expect(ctx, E.GL_NO_ERROR)
    t = _texture(ctx, E.GL_RED, 2, 2, E.GL_RED, E.GL_UNSIGNED_BYTE, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearColor(0.6, 0.3, 0.2, 0.1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert (_pixels(ctx, 2, 2) == [153, 0, 0, 255]).all()


def test_ext_texture_rg_absent_red_is_an_error_in_plain_es2():
    """The combinations come with the extension only: GL_RED with a type that
    no extension gives it (UNSIGNED_SHORT_5_6_5) stays INVALID_OPERATION."""
    ctx = _ctx()
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_RED, 1, 1, 0, E.GL_RED, E.GL_UNSIGNED_SHORT_5_6_5, None)
    expect(ctx, E.GL_INVALID_OPERATION)


# -- OES_texture_float / OES_texture_half_float (+ _linear) -----------------------------------

FS_QUARTER = ("precision highp float; uniform sampler2D s; varying vec2 uv;\n"
              "void main() { gl_FragColor = texture2D(s, vec2(0.5)) * 0.25; }")


@pytest.mark.parametrize("api", ["gles2", "gles3"])
def test_oes_texture_float_keeps_values_outside_0_1(api):
    """An unsized RGBA image of FLOAT data is stored as floats: texel (3.0,
    2.0, -1.0, 4.0) * 0.25 draws (0.75, 0.5, 0, 1) -> 191, 128, 0, 255 (an
    8-bit store would have clamped to 1.0 -> 64). LUMINANCE and ALPHA with
    FLOAT too: L = 2.0 reads (2, 2, 2, 1), A = 2.0 reads (0, 0, 0, 2)."""
    ctx = _ctx(api)
    assert _listed(api, "GL_OES_texture_float")
    _texture(ctx, E.GL_RGBA, 1, 1, E.GL_RGBA, E.GL_FLOAT, np.array([3.0, 2.0, -1.0, 4.0], np.float32))
    expect(ctx, E.GL_NO_ERROR)
    _program(ctx, FS_QUARTER)
    _draw(ctx)
    assert (_pixels(ctx) == [191, 128, 0, 255]).all()
    _texture(ctx, E.GL_LUMINANCE, 1, 1, E.GL_LUMINANCE, E.GL_FLOAT, np.array([2.0], np.float32))
    _draw(ctx)
    assert (_pixels(ctx) == [128, 128, 128, 64]).all()
    _texture(ctx, E.GL_ALPHA, 1, 1, E.GL_ALPHA, E.GL_FLOAT, np.array([2.0], np.float32))
    _draw(ctx)
    assert (_pixels(ctx) == [0, 0, 0, 128]).all()


@pytest.mark.parametrize("api", ["gles2", "gles3"])
def test_oes_texture_half_float_takes_the_oes_token(api):
    """HALF_FLOAT_OES (0x8D61) is the type of OES_texture_half_float: half
    2.5 * 0.25 = 0.625 -> 159 (0.625 * 255 = 159.4). GLES 2.0 does not know
    GL's HALF_FLOAT (0x140B): INVALID_ENUM there."""
    ctx = _ctx(api)
    assert _listed(api, "GL_OES_texture_half_float")
    _texture(ctx, E.GL_RGBA, 1, 1, E.GL_RGBA, GL_HALF_FLOAT_OES,
             np.array([2.5, 2.5, 2.5, 2.5], np.float16))
    expect(ctx, E.GL_NO_ERROR)
    _program(ctx, FS_QUARTER)
    _draw(ctx)
    assert (_pixels(ctx) == [159, 159, 159, 159]).all()
    if api == "gles2":
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(T2, t)
        ctx.glTexImage2D(T2, 0, E.GL_RGBA, 1, 1, 0, E.GL_RGBA, E.GL_HALF_FLOAT, None)
        assert ctx.glGetError() in (E.GL_INVALID_ENUM, E.GL_INVALID_OPERATION)


@pytest.mark.parametrize("type,ext", [(E.GL_FLOAT, "GL_OES_texture_float_linear"),
                                      (GL_HALF_FLOAT_OES, "GL_OES_texture_half_float_linear")])
def test_oes_texture_float_linear_filters_between_texels(type, ext):
    """With the _linear extension a float texture takes LINEAR filtering: a
    2x1 texture (0, 4) sampled half way (u = 0.5) gives 2.0; * 0.25 -> 128."""
    ctx = _ctx()
    assert _listed("gles2", ext)
    dtype = np.float32 if type == E.GL_FLOAT else np.float16
    _texture(ctx, E.GL_LUMINANCE, 2, 1, E.GL_LUMINANCE, type, np.array([0.0, 4.0], dtype), E.GL_LINEAR)
    _program(ctx, FS_QUARTER)
    _draw(ctx)
    assert (_pixels(ctx)[..., 0] == 128).all()


# -- EXT_color_buffer_half_float ------------------------------------------------------------------


def test_ext_color_buffer_half_float_renders_unclamped_halves():
    """An RGBA texture of HALF_FLOAT_OES and an RGBA16F renderbuffer are
    colour-renderable in GLES 2.0: the framebuffer is complete, a clear to
    (2.0, -1.0, 0.5, 1.0) is stored unclamped and reads back exactly as floats."""
    ctx = _ctx()
    assert _listed("gles2", "GL_EXT_color_buffer_half_float")
    t = _texture(ctx, E.GL_RGBA, 2, 2, E.GL_RGBA, GL_HALF_FLOAT_OES, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearColor(2.0, -1.0, 0.5, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    got = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32)
    assert (got.reshape(4, 4) == [2.0, -1.0, 0.5, 1.0]).all()
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA16F, 2, 2)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


# -- OES_vertex_half_float ------------------------------------------------------------------------


def test_oes_vertex_half_float_positions():
    """Vertex positions of HALF_FLOAT_OES: a triangle pair covering x in
    [-1, 0] (the left half) as float16 draws the left 4 columns only."""
    ctx = _ctx()
    assert _listed("gles2", "GL_OES_vertex_half_float")
    _program(ctx, "precision mediump float; void main() { gl_FragColor = vec4(1.0); }")
    left = np.array([(-1, -1), (0, -1), (-1, 1), (-1, 1), (0, -1), (0, 1)], np.float16)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(A, vbo)
    ctx.glBufferData(A, left.nbytes, left.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, GL_HALF_FLOAT_OES, False, 4, 0)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    px = _pixels(ctx)
    assert (px[:, :4] == 255).all() and (px[:, 4:] == [0, 0, 0, 0]).all()


# -- KHR_parallel_shader_compile ------------------------------------------------------------------


@pytest.mark.parametrize("api", ["gles2", "gles31", "gl43"])
def test_khr_parallel_shader_compile_completion_and_thread_count(api):
    """Compiles and links are done when the call returns: COMPLETION_STATUS_KHR
    is TRUE for a shader (even one that failed) and a program; the thread count
    set is the one read back (initially 0xFFFFFFFF, the implementation's choice)."""
    ctx = _ctx(api)
    assert api.startswith("gl4") or _listed(api, "GL_KHR_parallel_shader_compile")
    assert ctx.glGetInteger64v(GL_MAX_SHADER_COMPILER_THREADS_KHR) == [0xFFFFFFFF] \
        if api != "gles2" else True
    # GetIntegerv gives the same 32 bits, -1, as Mesa (piglit khr_parallel_shader_compile-basic)
    assert ctx.glGetIntegerv(GL_MAX_SHADER_COMPILER_THREADS_KHR) == [-1]
    ctx.glMaxShaderCompilerThreadsKHR(3)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(GL_MAX_SHADER_COMPILER_THREADS_KHR) == [3]
    bad, ok, _ = _compile(ctx, E.GL_FRAGMENT_SHADER, "void main() { nonsense; }")
    assert not ok and ctx.glGetShaderiv(bad, GL_COMPLETION_STATUS_KHR) == [1]
    prog = ctx.glCreateProgram()
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, GL_COMPLETION_STATUS_KHR) == [1]


def test_arb_parallel_shader_compile_is_the_khr_extension_under_its_name():
    """Desktop contexts list ARB_parallel_shader_compile: glMaxShaderCompilerThreadsARB sets
    what MAX_SHADER_COMPILER_THREADS_ARB (the KHR token) reads back, COMPLETION_STATUS_ARB is
    TRUE; GLES contexts have neither the name nor the ARB command."""
    ctx = _ctx("compat")
    core = _ctx("gl32")
    assert _listed("compat", "GL_ARB_parallel_shader_compile") and "GL_ARB_parallel_shader_compile" in {
        core.glGetStringi(E.GL_EXTENSIONS, i) for i in range(core.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
    assert not _listed("gles32", "GL_ARB_parallel_shader_compile")
    ctx.glMaxShaderCompilerThreadsARB(5)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(GL_MAX_SHADER_COMPILER_THREADS_KHR) == [5]
    ctx.glMaxShaderCompilerThreadsARB(0xFFFFFFFF)
    assert ctx.glGetIntegerv(GL_MAX_SHADER_COMPILER_THREADS_KHR) == [-1]
    sh, ok, _ = _compile(ctx, E.GL_VERTEX_SHADER, "void main() { gl_Position = vec4(0.0); }")
    assert ok and ctx.glGetShaderiv(sh, GL_COMPLETION_STATUS_KHR) == [1]
    es = _ctx("gles32")
    es.glMaxShaderCompilerThreadsARB(2)
    expect(es, E.GL_INVALID_OPERATION)
    assert es.glGetIntegerv(GL_MAX_SHADER_COMPILER_THREADS_KHR) == [-1]


# -- GLES 3.2 readiness ---------------------------------------------------------------------------


def test_es32_is_claimed_with_nothing_pending():
    """Every GLES 3.2 requirement is DONE or CORE (the stage lines OES_geometry_shader,
    OES_tessellation_shader, OES_gpu_shader5 are listed from GLES 3.2): a request for
    3.0 gets 3.2 (the newest backward-compatible version), a GLES 3.1 context still
    refuses GLSL ES 3.20 and a GLES 3.2 context compiles it."""
    from driver.gl.api import MAX_ES_VERSION, api_for_request
    from driver.gl.extensions import ES_VERSIONS, MISSING, STAGE, by_name, pending_features
    table = by_name()
    assert [r for r in ES_VERSIONS[(3, 2)] if r in table and table[r].status is MISSING] == []
    assert pending_features(True, (3, 2)) == []
    assert [r for r in ES_VERSIONS[(3, 2)] if r in table and table[r].status is STAGE] == []
    assert MAX_ES_VERSION == (3, 2) and api_for_request(True, 3, 0).version == (3, 2)
    _, ok, log = _compile(_ctx("gles31"), E.GL_VERTEX_SHADER,
                          "#version 320 es\nvoid main() { gl_Position = vec4(0.0); }")
    assert not ok and "not supported" in log
    _, ok, log = _compile(_ctx("gles32"), E.GL_VERTEX_SHADER,
                          "#version 320 es\nvoid main() { gl_Position = vec4(0.0); }")
    assert ok, log
