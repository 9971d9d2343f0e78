"""GLES extensions that bring a desktop GL command set to GLES under ES names
(EXT/OES aliases of the core commands; driver/gl/features/gles_ext.py
ES_FEATURES admits the core command in a context with the extension). Each test
calls the suffixed entry points in the lowest GLES context that lists the
extension and checks the pixels or state against values worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

A, EL = E.GL_ARRAY_BUFFER, E.GL_ELEMENT_ARRAY_BUFFER
T2 = E.GL_TEXTURE_2D
W, H = 8, 4
RED, GREEN, BLUE = [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]


def _ctx(api):
    return driver.Context(api=api, width=W, height=H)


def _listed(ctx, *names):
    exts = set(ctx.glGetString(E.GL_EXTENSIONS).split())
    return all(n in exts for n in names)


def _program(ctx, vs, fs, attribs=("p",)):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(prog, s)
    for i, name in enumerate(attribs):
        ctx.glBindAttribLocation(prog, i, name)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    return prog


def _buffer(ctx, target, data):
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(target, b)
    ctx.glBufferData(target, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    return b


def _positions(ctx, corners, loc=0):
    _buffer(ctx, A, np.array(corners, np.float32))
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(loc)


def _pixels(ctx, w=W, h=H):
    return np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(h, w, 4)


def _quad(x0, x1):
    """Two triangles covering clip x in [x0, x1], all of y."""
    return [(x0, -1), (x1, -1), (x0, 1), (x0, 1), (x1, -1), (x1, 1)]


def _texture_fb(ctx, w, h, texture=None):
    """A framebuffer whose colour is an RGBA8 w x h texture (new unless given)."""
    if texture is None:
        (texture,) = ctx.glGenTextures(1)
        ctx.glBindTexture(T2, texture)
        ctx.glTexImage2D(T2, 0, E.GL_RGBA, w, h, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, texture, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


WHITE_FS = "precision mediump float; void main() { gl_FragColor = vec4(1.0); }"


# -- EXT_draw_instanced --------------------------------------------------------------------


def test_ext_draw_instanced_in_es2():
    """GLES 2.0 with EXT_draw_instanced: glDrawArraysInstancedEXT and
    glDrawElementsInstancedEXT draw `instancecount` copies, and GLSL ES 1.00
    sees gl_InstanceIDEXT (only with the #extension line): a quad over clip x
    in [-1, -0.5] moved right by 0.5 per instance: 2 instances cover columns
    0-3, 3 instances columns 0-5."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_EXT_draw_instanced")
    s = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderSource(s, 1, ["attribute vec2 p; void main() { gl_Position = vec4(p.x + float(gl_InstanceIDEXT), p.y, 0.0, 1.0); }"])
    ctx.glCompileShader(s)
    assert not ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0]
    _program(ctx, "#extension GL_EXT_draw_instanced : require\n"
                  "attribute vec2 p;\n"
                  "void main() { gl_Position = vec4(p.x + 0.5 * float(gl_InstanceIDEXT), p.y, 0.0, 1.0); }",
             WHITE_FS)
    _positions(ctx, _quad(-1.0, -0.5))
    ctx.glDrawArraysInstancedEXT(E.GL_TRIANGLES, 0, 6, 2)
    expect(ctx, E.GL_NO_ERROR)
    lit = (_pixels(ctx)[0, :, 0] == 255).tolist()
    assert lit == [True] * 4 + [False] * 4
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    _buffer(ctx, EL, np.arange(6, dtype=np.uint16))
    ctx.glDrawElementsInstancedEXT(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_SHORT, 0, 3)
    lit = (_pixels(ctx)[0, :, 0] == 255).tolist()
    assert lit == [True] * 6 + [False] * 2
    ctx.glDrawArraysInstancedEXT(E.GL_TRIANGLES, 0, 6, -1)
    expect(ctx, E.GL_INVALID_VALUE)


# -- OES_draw_elements_base_vertex / EXT_draw_elements_base_vertex ---------------------------------


@pytest.mark.parametrize("suffix", ["OES", "EXT"])
def test_draw_elements_base_vertex_in_es2(suffix):
    """Indices 0..5 with basevertex 6 fetch vertices 6..11: the second quad of
    the buffer (the right half), not the first (the left half)."""
    ctx = _ctx("gles2")
    assert _listed(ctx, f"GL_{suffix}_draw_elements_base_vertex")
    _program(ctx, "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }", WHITE_FS)
    _positions(ctx, _quad(-1, 0) + _quad(0, 1))
    _buffer(ctx, EL, np.arange(6, dtype=np.uint16))
    getattr(ctx, f"glDrawElementsBaseVertex{suffix}")(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_SHORT, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    px = _pixels(ctx)
    assert (px[:, :4] == 0).all() and (px[:, 4:] == 255).all()
    # DrawRangeElements is a GLES 3.0 command: its base-vertex form stays unavailable in 2.0
    getattr(ctx, f"glDrawRangeElementsBaseVertex{suffix}")(E.GL_TRIANGLES, 0, 5, 6, E.GL_UNSIGNED_SHORT, 0, 6)
    expect(ctx, E.GL_INVALID_OPERATION)


# -- EXT_base_instance ------------------------------------------------------------------------------


def test_ext_base_instance_offsets_instanced_attributes_only():
    """A per-instance colour attribute (divisor 1) of red, green, blue: one
    instance from base instance 2 reads blue; gl_InstanceID still counts from 0
    (GLES: base instance does not change it), so the shader's instance test
    passes."""
    ctx = _ctx("gles3")
    assert _listed(ctx, "GL_EXT_base_instance")
    _program(ctx, "#version 300 es\nin vec2 p; in vec4 c; out vec4 v;\n"
                  "void main() { v = gl_InstanceID == 0 ? c : vec4(1.0); gl_Position = vec4(p, 0.0, 1.0); }",
             "#version 300 es\nprecision mediump float; in vec4 v; out vec4 o; void main() { o = v; }",
             ("p", "c"))
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _positions(ctx, _quad(-1, 1))
    _buffer(ctx, A, np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]], np.float32))
    ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 16, 0)
    ctx.glEnableVertexAttribArray(1)
    ctx.glVertexAttribDivisor(1, 1)
    ctx.glDrawArraysInstancedBaseInstanceEXT(E.GL_TRIANGLES, 0, 6, 1, 2)
    expect(ctx, E.GL_NO_ERROR)
    assert (_pixels(ctx) == BLUE).all()
    _buffer(ctx, EL, np.arange(6, dtype=np.uint16))
    ctx.glDrawElementsInstancedBaseInstanceEXT(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_SHORT, 0, 1, 1)
    assert (_pixels(ctx) == GREEN).all()
    ctx.glDrawElementsInstancedBaseVertexBaseInstanceEXT(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_SHORT, 0, 1, 0, 0)
    assert (_pixels(ctx) == RED).all()


# -- EXT_polygon_offset_clamp ------------------------------------------------------------------------


def test_ext_polygon_offset_clamp_limits_the_offset():
    """A quad at window depth 0.5 with factor 0, units 2^20: unclamped offset
    2^20 * 2^-24 = 0.0625 (depth 0.5625); clamped to 0.01 -> 0.51. A second
    quad at depth 0.52 (clip z 0.04) with LESS then fails (0.52 > 0.51); it
    would have passed without the clamp (0.52 < 0.5625)."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_EXT_polygon_offset_clamp")
    _program(ctx, "attribute vec2 p; uniform float z; void main() { gl_Position = vec4(p, z, 1.0); }",
             "precision mediump float; uniform vec4 c; void main() { gl_FragColor = c; }")
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    _positions(ctx, _quad(-1, 1))
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    ctx.glEnable(E.GL_POLYGON_OFFSET_FILL)
    ctx.glPolygonOffsetClampEXT(0.0, float(1 << 20), 0.01)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetFloatv(E.GL_POLYGON_OFFSET_CLAMP) == [pytest.approx(0.01)]
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), 1, 0, 0, 1)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    ctx.glDisable(E.GL_POLYGON_OFFSET_FILL)
    ctx.glUniform1f(ctx.glGetUniformLocation(prog, "z"), 0.04)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), 0, 1, 0, 1)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    assert (_pixels(ctx) == RED).all()
    ctx.glUniform1f(ctx.glGetUniformLocation(prog, "z"), 0.0)        # depth 0.5 < 0.51
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    assert (_pixels(ctx) == GREEN).all()


# -- EXT_clear_texture ---------------------------------------------------------------------------------


def test_ext_clear_texture_in_es31():
    """glClearTexImageEXT fills a level with one colour, glClearTexSubImageEXT a
    box of it: a 4x2 RGBA8 texture cleared to (10, 20, 30, 40) then its right
    half to (200, 0, 0, 255)."""
    ctx = _ctx("gles31")
    assert _listed(ctx, "GL_EXT_clear_texture")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 1, E.GL_RGBA8, 4, 2)
    ctx.glClearTexImageEXT(t, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.array([10, 20, 30, 40], np.uint8))
    ctx.glClearTexSubImageEXT(t, 0, 2, 0, 0, 2, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                              np.array([200, 0, 0, 255], np.uint8))
    expect(ctx, E.GL_NO_ERROR)
    _texture_fb(ctx, 4, 2, t)
    px = _pixels(ctx, 4, 2)
    assert (px[:, :2] == [10, 20, 30, 40]).all() and (px[:, 2:] == [200, 0, 0, 255]).all()
    ctx.glClearTexImageEXT(t, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)     # no level 1
    expect(ctx, E.GL_INVALID_OPERATION)


# -- EXT_copy_image / OES_copy_image ---------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["EXT", "OES"])
def test_copy_image_in_es3(suffix):
    """A 2x1 block from (1, 1) of a 4x2 texture lands at (0, 0) of another;
    a box leaving the source is INVALID_VALUE."""
    ctx = _ctx("gles3")
    assert _listed(ctx, f"GL_{suffix}_copy_image")
    src, dst = ctx.glGenTextures(2)
    texels = np.arange(4 * 2 * 4, dtype=np.uint8)
    for t in (src, dst):
        ctx.glBindTexture(T2, t)
        ctx.glTexStorage2D(T2, 1, E.GL_RGBA8, 4, 2)
    ctx.glBindTexture(T2, src)
    ctx.glTexSubImage2D(T2, 0, 0, 0, 4, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    copy = getattr(ctx, f"glCopyImageSubData{suffix}")
    copy(src, T2, 0, 1, 1, 0, dst, T2, 0, 0, 0, 0, 2, 1, 1)
    expect(ctx, E.GL_NO_ERROR)
    _texture_fb(ctx, 4, 2, dst)
    px = _pixels(ctx, 4, 2)
    assert (px[0, 0:2] == texels.reshape(2, 4, 4)[1, 1:3]).all()
    copy(src, T2, 0, 3, 0, 0, dst, T2, 0, 0, 0, 0, 2, 1, 1)
    expect(ctx, E.GL_INVALID_VALUE)


# -- EXT_draw_buffers_indexed / OES_draw_buffers_indexed ----------------------------------------------------


@pytest.mark.parametrize("suffix", ["EXT", "OES"])
def test_draw_buffers_indexed_in_es3(suffix):
    """Two colour attachments, both cleared to (64, 64, 64, 64)/255; blending
    enabled on buffer 0 only (ONE, ONE: adds) and red masked on buffer 1. A
    draw of (0.5, 0.25, 0, 1) to both gives 64+128, 64+64, 64, 255 in 0 and
    64 (kept), 64, 0, 255 in 1."""
    ctx = _ctx("gles3")
    assert _listed(ctx, f"GL_{suffix}_draw_buffers_indexed")
    f = lambda name: getattr(ctx, name + suffix)  # noqa: E731
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for i, t in enumerate(ctx.glGenTextures(2)):
        ctx.glBindTexture(T2, t)
        ctx.glTexStorage2D(T2, 1, E.GL_RGBA8, 2, 2)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, T2, t, 0)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    ctx.glClearColor(64 / 255, 64 / 255, 64 / 255, 64 / 255)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    f("glEnablei")(E.GL_BLEND, 0)
    f("glBlendFunci")(0, E.GL_ONE, E.GL_ONE)
    f("glBlendEquationi")(0, E.GL_FUNC_ADD)
    f("glColorMaski")(1, False, True, True, True)
    assert f("glIsEnabledi")(E.GL_BLEND, 0) and not f("glIsEnabledi")(E.GL_BLEND, 1)
    expect(ctx, E.GL_NO_ERROR)
    _program(ctx, "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
             "#version 300 es\nprecision mediump float; layout(location = 0) out vec4 a;"
             " layout(location = 1) out vec4 b;\n"
             "void main() { a = vec4(0.5, 0.25, 0.0, 1.0); b = a; }")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _positions(ctx, _quad(-1, 1))
    ctx.glViewport(0, 0, 2, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0)
    assert (_pixels(ctx, 2, 2) == [192, 128, 64, 255]).all()
    ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT1)
    assert (_pixels(ctx, 2, 2) == [64, 64, 0, 255]).all()
    f("glEnablei")(E.GL_BLEND, 99)
    expect(ctx, E.GL_INVALID_VALUE)


# -- OES_texture_view / EXT_texture_view ----------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["OES", "EXT"])
def test_texture_view_in_es31(suffix):
    """A 4x4 RGBA8 texture of 3 levels (red, green, blue); a view of levels
    1-2 samples green at its level 0, and a view of that view from its level 1
    samples blue: the views' ranges are offsets into the shared storage
    (TEXTURE_VIEW_MIN_LEVEL 1, then 2)."""
    ctx = _ctx("gles31")
    assert ctx.api.has_extension(f"GL_{suffix}_texture_view")      # CORE: working, not listed yet
    view_fn = getattr(ctx, f"glTextureView{suffix}")
    orig, view, view2 = ctx.glGenTextures(3)
    ctx.glBindTexture(T2, orig)
    ctx.glTexStorage2D(T2, 3, E.GL_RGBA8, 4, 4)
    for level, rgba in enumerate((RED, GREEN, BLUE)):
        n = 4 >> level
        ctx.glTexSubImage2D(T2, level, 0, 0, n, n, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.array([rgba] * n * n, np.uint8))
    assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_VIEW_NUM_LEVELS) == [3]
    view_fn(view, T2, orig, E.GL_RGBA8, 1, 2, 0, 1)
    view_fn(view2, T2, view, E.GL_RGBA8, 1, 1, 0, 1)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindTexture(T2, view2)
    assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_VIEW_MIN_LEVEL) == [2]
    assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_VIEW_NUM_LEVELS) == [1]
    assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_VIEW_NUM_LAYERS) == [1]
    _program(ctx, "#version 310 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
             "#version 310 es\nprecision mediump float; uniform highp sampler2D s; out vec4 o;\n"
             "void main() { o = textureLod(s, vec2(0.5), 0.0); }")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _positions(ctx, _quad(-1, 1))
    for name, rgba in ((view, GREEN), (view2, BLUE)):
        ctx.glBindTexture(T2, name)
        ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
        assert (_pixels(ctx) == rgba).all()
    (mutable,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, mutable)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    (other,) = ctx.glGenTextures(1)
    view_fn(other, T2, mutable, E.GL_RGBA8, 0, 1, 0, 1)
    expect(ctx, E.GL_INVALID_OPERATION)                          # the original must be immutable


# -- EXT_texture_border_clamp / OES_texture_border_clamp ----------------------------------------------------------


@pytest.mark.parametrize("suffix", ["EXT", "OES"])
def test_texture_border_clamp_in_es2(suffix):
    """CLAMP_TO_BORDER with a blue border: a 1x1 red texture sampled at u = 0.5
    is red and at u = 1.5 blue. The border colour reads back (float and the
    integer form of glGetTexParameterIiv{suffix} in ES 3)."""
    ctx = _ctx("gles2")
    assert _listed(ctx, f"GL_{suffix}_texture_border_clamp")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.array(RED, np.uint8))
    for pname, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                     (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_BORDER), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
        ctx.glTexParameteri(T2, pname, v)
    ctx.glTexParameterfv(T2, E.GL_TEXTURE_BORDER_COLOR, [0.0, 0.0, 1.0, 1.0])
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetTexParameterfv(T2, E.GL_TEXTURE_BORDER_COLOR) == [0.0, 0.0, 1.0, 1.0]
    _program(ctx, "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
             "precision mediump float; uniform sampler2D s;\n"
             "void main() { gl_FragColor = texture2D(s, vec2(gl_FragCoord.x < 4.0 ? 0.5 : 1.5, 0.5)); }")
    _positions(ctx, _quad(-1, 1))
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    px = _pixels(ctx)
    assert (px[:, :4] == RED).all() and (px[:, 4:] == BLUE).all()
    es3 = _ctx("gles3")
    (t,) = es3.glGenTextures(1)
    es3.glBindTexture(T2, t)
    getattr(es3, f"glTexParameterIiv{suffix}")(T2, E.GL_TEXTURE_BORDER_COLOR, [1, 2, 3, 4])
    assert getattr(es3, f"glGetTexParameterIiv{suffix}")(T2, E.GL_TEXTURE_BORDER_COLOR) == [1, 2, 3, 4]
    expect(es3, E.GL_NO_ERROR)


# -- EXT_occlusion_query_boolean ---------------------------------------------------------------------


def test_ext_occlusion_query_boolean_in_es2():
    """GLES 2.0 gets the boolean occlusion queries: a query around a draw
    that passes the depth test answers TRUE, one around a draw behind the
    cleared-to-nearer depth answers FALSE; GL's SAMPLES_PASSED (a count) is not
    an ES target."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_EXT_occlusion_query_boolean")
    _program(ctx, "attribute vec2 p; uniform float z; void main() { gl_Position = vec4(p, z, 1.0); }", WHITE_FS)
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    _positions(ctx, _quad(-1, 1))
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glClearDepthf(0.5)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
    seen, hidden = ctx.glGenQueriesEXT(2)
    for q, z in ((seen, -0.5), (hidden, 0.5)):                 # window depth 0.25 / 0.75
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "z"), z)
        ctx.glBeginQueryEXT(E.GL_ANY_SAMPLES_PASSED, q)
        assert ctx.glGetQueryivEXT(E.GL_ANY_SAMPLES_PASSED, E.GL_CURRENT_QUERY) == [q]
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
        ctx.glEndQueryEXT(E.GL_ANY_SAMPLES_PASSED)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glIsQueryEXT(seen)
    assert ctx.glGetQueryObjectuivEXT(seen, E.GL_QUERY_RESULT) == [1]
    assert ctx.glGetQueryObjectuivEXT(hidden, E.GL_QUERY_RESULT) == [0]
    ctx.glBeginQueryEXT(E.GL_SAMPLES_PASSED, seen)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glDeleteQueriesEXT(2, [seen, hidden])
    assert not ctx.glIsQueryEXT(seen)


# -- EXT_disjoint_timer_query ---------------------------------------------------------------------------


def test_ext_disjoint_timer_query_in_es2():
    """TIME_ELAPSED around a draw and two TIMESTAMP counters: the counters are
    ordered, the elapsed time is at most their span's bracket plus the draw,
    counters have 64 bits, GPU_DISJOINT_EXT is FALSE (the model's GPU clock
    never jumps) and glGetInteger64vEXT(TIMESTAMP) reads the GPU clock."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_EXT_disjoint_timer_query")
    _program(ctx, "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }", WHITE_FS)
    _positions(ctx, _quad(-1, 1))
    t0, elapsed, t1 = ctx.glGenQueriesEXT(3)
    ctx.glQueryCounterEXT(t0, E.GL_TIMESTAMP)
    ctx.glBeginQueryEXT(E.GL_TIME_ELAPSED, elapsed)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    ctx.glEndQueryEXT(E.GL_TIME_ELAPSED)
    ctx.glQueryCounterEXT(t1, E.GL_TIMESTAMP)
    expect(ctx, E.GL_NO_ERROR)
    a = ctx.glGetQueryObjectui64vEXT(t0, E.GL_QUERY_RESULT)[0]
    b = ctx.glGetQueryObjecti64vEXT(t1, E.GL_QUERY_RESULT)[0]
    ns = ctx.glGetQueryObjectui64vEXT(elapsed, E.GL_QUERY_RESULT)[0]
    assert 0 < a <= b and 0 <= ns <= b - a
    assert ctx.glGetQueryObjectivEXT(elapsed, E.GL_QUERY_RESULT_AVAILABLE) == [1]
    assert ctx.glGetQueryivEXT(E.GL_TIMESTAMP, E.GL_QUERY_COUNTER_BITS) == [64]
    assert ctx.glGetIntegerv(0x8FBB) == [0]                       # GPU_DISJOINT_EXT
    assert ctx.glGetInteger64vEXT(E.GL_TIMESTAMP)[0] >= b
    expect(ctx, E.GL_NO_ERROR)


# -- NV_read_depth / NV_read_stencil / NV_read_depth_stencil ---------------------------------------------------


def test_nv_read_depth_and_stencil_in_es2():
    """glReadPixels of the depth and stencil buffers in GLES: after a clear to
    depth 0.25 and stencil 0x5A, DEPTH_COMPONENT/FLOAT reads 0.25 (24-bit
    depth: within 2^-24), UNSIGNED_SHORT reads 0.25 * 65535 = 16384 (rounded),
    STENCIL_INDEX/UNSIGNED_BYTE 0x5A, DEPTH_STENCIL/UNSIGNED_INT_24_8
    (0.25 * (2^24 - 1)) << 8 | 0x5A, DEPTH_COMPONENT/UNSIGNED_INT_24_8 the same
    with a 0 low byte. A type the extensions do not name stays an error."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_NV_read_depth", "GL_NV_read_stencil", "GL_NV_read_depth_stencil")
    ctx.glClearDepthf(0.25)
    ctx.glClearStencil(0x5A)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    d = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
    assert np.allclose(d, 0.25, atol=2 ** -23)
    d16 = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_SHORT), np.uint16)
    assert (np.abs(d16.astype(int) - 16384) <= 1).all()
    ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
    s = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE), np.uint8)
    assert (s == 0x5A).all()
    ds = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8), np.uint32)
    assert ((ds & 0xFF) == 0x5A).all() and (np.abs((ds >> 8).astype(int) - round(0.25 * (2 ** 24 - 1))) <= 1).all()
    # DEPTH_COMPONENT as UNSIGNED_INT_24_8 (as Mesa's GLES): the depth in the upper 24 bits, low byte 0
    d24 = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT_24_8), np.uint32)
    assert ((d24 & 0xFF) == 0).all() and (np.abs((d24 >> 8).astype(int) - round(0.25 * (2 ** 24 - 1))) <= 1).all()
    expect(ctx, E.GL_NO_ERROR)
    ctx.glReadPixels(0, 0, 2, 2, E.GL_STENCIL_INDEX, E.GL_FLOAT)
    assert ctx.glGetError() in (E.GL_INVALID_ENUM, E.GL_INVALID_OPERATION)


# -- KHR_debug under its GLES names, through the C ABI's conventions ------------------------------------


def test_khr_debug_khr_names_use_the_core_commands_c_convention():
    """GLES programs call KHR_debug by its KHR names: the C ABI marshals
    glGetDebugMessageLogKHR as glGetDebugMessageLog (columns written to the
    caller's arrays, the count returned; it returned the columns themselves to
    C: TypeError) and calls the front end's KHR method, so the alias's checks
    apply."""
    import importlib.util
    from pathlib import Path

    import cffi

    from driver.abi import marshal as M
    build_py = Path(M.__file__).resolve().parent / "build.py"
    spec = importlib.util.spec_from_file_location("_abi_build_for_gles_ext_test", build_py)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ffi = cffi.FFI()
    ffi.cdef(build.TYPEDEFS)
    M.bind(ffi)
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_KHR_debug")
    ctx.glEnable(E.GL_DEBUG_OUTPUT)
    ctx.glDebugMessageInsertKHR(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_MARKER, 7,
                                E.GL_DEBUG_SEVERITY_NOTIFICATION, -1, "hello")
    sources, types, ids, severities, lengths = (ffi.new("GLuint[2]") for _ in range(5))
    log = ffi.new("char[64]")
    n = M.OVERRIDES["glGetDebugMessageLogKHR"](ctx, 2, 64, sources, types, ids, severities, lengths, log)
    assert n == 1 and ids[0] == 7 and lengths[0] == 6 and ffi.string(log) == b"hello"
    assert sources[0] == E.GL_DEBUG_SOURCE_APPLICATION and types[0] == E.GL_DEBUG_TYPE_MARKER
    expect(ctx, E.GL_NO_ERROR)


# -- EXT_unpack_subimage / NV_pack_subimage ----------------------------------------------------------


def test_unpack_and_pack_subimage_in_es2():
    """GLES 2.0 gets UNPACK_ROW_LENGTH/SKIP_ROWS/SKIP_PIXELS
    (EXT_unpack_subimage) and their PACK twins (NV_pack_subimage): a 2x2
    texture taken from texels (1, 1)-(2, 2) of a 4-texel-wide client image of
    values 10 * y + x (alignment 1) holds 11, 12, 21, 22; read back into a
    4-wide client image at (1, 1) they land there and nowhere else."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_EXT_unpack_subimage", "GL_NV_pack_subimage")
    image = np.array([[10 * y + x for x in range(4)] for y in range(4)], np.uint8)
    rgba = np.repeat(image[..., None], 4, axis=2)
    ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    ctx.glPixelStorei(E.GL_UNPACK_ROW_LENGTH, 4)
    ctx.glPixelStorei(E.GL_UNPACK_SKIP_ROWS, 1)
    ctx.glPixelStorei(E.GL_UNPACK_SKIP_PIXELS, 1)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetIntegerv(E.GL_UNPACK_ROW_LENGTH) == [4]
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, rgba)
    _texture_fb(ctx, 2, 2, t)
    ctx.glPixelStorei(E.GL_PACK_ROW_LENGTH, 4)
    ctx.glPixelStorei(E.GL_PACK_SKIP_ROWS, 1)
    ctx.glPixelStorei(E.GL_PACK_SKIP_PIXELS, 1)
    assert ctx.glGetIntegerv(E.GL_PACK_SKIP_PIXELS) == [1]
    out = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    # rows 1-2, columns 1-2 of a 4-texel-wide image: the bytes up to the last texel written
    got = np.zeros(4 * 4 * 4, np.uint8)
    got[:len(out)] = out
    got = got.reshape(4, 4, 4)[..., 0]
    assert got[1:3, 1:3].tolist() == [[11, 12], [21, 22]]
    assert got[0].tolist() == [0, 0, 0, 0] and got[1, 0] == 0


# -- EXT_discard_framebuffer ----------------------------------------------------------------------------


def test_ext_discard_framebuffer_in_es2():
    """glDiscardFramebufferEXT takes the default framebuffer's COLOR_EXT/
    DEPTH_EXT/STENCIL_EXT and a framebuffer object's attachment points; other
    tokens are INVALID_ENUM, a negative count INVALID_VALUE, a target other
    than FRAMEBUFFER INVALID_ENUM. Drawing after a discard works as before."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_EXT_discard_framebuffer")
    ctx.glDiscardFramebufferEXT(E.GL_FRAMEBUFFER, 3, [E.GL_COLOR, E.GL_DEPTH, E.GL_STENCIL])
    expect(ctx, E.GL_NO_ERROR)
    ctx.glDiscardFramebufferEXT(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR_ATTACHMENT0])
    expect(ctx, E.GL_INVALID_ENUM)                               # not a default-framebuffer token
    ctx.glDiscardFramebufferEXT(E.GL_FRAMEBUFFER, -1, [])
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glDiscardFramebufferEXT(E.GL_TEXTURE_2D, 1, [E.GL_COLOR])
    expect(ctx, E.GL_INVALID_ENUM)
    _texture_fb(ctx, 2, 2)
    ctx.glDiscardFramebufferEXT(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR_ATTACHMENT0])
    expect(ctx, E.GL_NO_ERROR)
    ctx.glDiscardFramebufferEXT(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR])
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glClearColor(0, 1, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert (_pixels(ctx, 2, 2) == GREEN).all()


# -- OES_fbo_render_mipmap / APPLE_texture_max_level ----------------------------------------------------------


def test_es2_renders_into_a_mip_level_and_limits_the_levels():
    """GLES 2.0 with OES_fbo_render_mipmap: level 1 of a 4x4 texture is a
    colour attachment; a clear to green lands there (read back 2x2) and level
    0 keeps its red. APPLE_texture_max_level: TEXTURE_MAX_LEVEL 0 makes a
    texture with only level 0 defined mipmap-complete (sampled red with
    LINEAR_MIPMAP_NEAREST), and reads back."""
    ctx = _ctx("gles2")
    assert _listed(ctx, "GL_OES_fbo_render_mipmap", "GL_APPLE_texture_max_level")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.array([RED] * 16, np.uint8))
    ctx.glTexImage2D(T2, 1, E.GL_RGBA, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 1)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glClearColor(0, 1, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert (_pixels(ctx, 2, 2) == GREEN).all()
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
    assert (_pixels(ctx, 4, 4) == RED).all()
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    (t2,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t2)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.array([RED] * 16, np.uint8))
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_NEAREST)
    _program(ctx, "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
             "precision mediump float; uniform sampler2D s; void main() { gl_FragColor = texture2D(s, vec2(0.5)); }")
    _positions(ctx, _quad(-1, 1))
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    assert (_pixels(ctx) == [0, 0, 0, 255]).all()                  # levels 1-2 missing: incomplete
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MAX_LEVEL, 0)
    assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_MAX_LEVEL) == [0]
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    assert (_pixels(ctx) == RED).all()
