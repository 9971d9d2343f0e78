"""GL_EXT_blend_func_extended: dual-source blending in GLES 2.0 and 3.x.

What the extension specifies, each checked in a GLES context against values worked
out by hand: the SRC1 blend factors (and SRC_ALPHA_SATURATE as a destination factor
in GLES 2.0), GLSL ES 1.00's gl_SecondaryFragColorEXT / gl_SecondaryFragDataEXT and
gl_MaxDualSourceDrawBuffersEXT, GLSL ES 3.00's layout(location, index),
glBindFragDataLocationIndexedEXT, glGetFragDataIndexEXT, and GLES 3.1's
glGetProgramResourceLocationIndexEXT / LOCATION_INDEX_EXT; with the errors the
specification names."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.extensions import advertised
from tests.driver.gl.helpers import compile_source, expect, link_sources

W, H = 4, 4
VS100 = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
VS300 = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
EXT = "#extension GL_EXT_blend_func_extended : require\n"
FULL = np.array([(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)], np.float32)

# Colours as bytes so every value below is exact in an RGBA8 buffer.
DST = (51, 102, 153, 153)         # (0.2, 0.4, 0.6, 0.6)
SRC0 = (1.0, 0.6, 0.2, 1.0)
SRC1 = (0.5, 1.0, 0.0, 0.5)
# BlendFuncSeparate(SRC1_COLOR, ONE_MINUS_SRC1_COLOR, SRC1_ALPHA, ONE_MINUS_SRC1_ALPHA):
#   r = 1.0*0.5 + 0.2*0.5 = 0.6; g = 0.6*1.0 + 0.4*0.0 = 0.6; b = 0.2*0.0 + 0.6*1.0 = 0.6
#   a = 1.0*0.5 + 0.6*0.5 = 0.8
EXPECTED = (153, 153, 153, 204)


def _ctx(api):
    return driver.Context(api=api, width=W, height=H)


def _draw(ctx, prog):
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c0"), *SRC0)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c1"), *SRC1)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glClearColor(*(v / 255 for v in DST))
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFuncSeparate(E.GL_SRC1_COLOR, E.GL_ONE_MINUS_SRC1_COLOR, E.GL_SRC1_ALPHA,
                            E.GL_ONE_MINUS_SRC1_ALPHA)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(H, W, 4)


def _blended(px):
    assert np.abs(px.astype(int) - EXPECTED).max() <= 1, px[0, 0]


def test_listed_in_every_gles_2_and_3_context_but_not_gles1_or_desktop():
    for version in ((2, 0), (3, 0), (3, 1), (3, 2)):
        assert "GL_EXT_blend_func_extended" in advertised(True, False, version)
    assert "GL_EXT_blend_func_extended" not in advertised(True, False, (1, 1))
    assert "GL_EXT_blend_func_extended" not in advertised(False, True, (4, 6))
    assert "GL_EXT_blend_func_extended" not in advertised(False, False, (4, 6))


@pytest.mark.parametrize("colour, second", [("gl_FragColor", "gl_SecondaryFragColorEXT"),
                                            ("gl_FragData[0]", "gl_SecondaryFragDataEXT[0]")])
def test_essl100_second_colour_is_src1(colour, second):
    ctx = _ctx("gles2")
    fs = ("#version 100\n" + EXT + "precision mediump float; uniform vec4 c0, c1;\n"
          f"void main() {{ {colour} = c0; {second} = c1; }}")
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, VS100), (E.GL_FRAGMENT_SHADER, fs)))
    _blended(_draw(ctx, prog))


def test_essl100_limit_constant_is_the_query():
    """gl_MaxDualSourceDrawBuffersEXT equals GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT (1 here):
    a shader writing it / 4 into red reads back 255 / 4 = 63.75 -> 64."""
    ctx = _ctx("gles2")
    (limit,) = ctx.glGetIntegerv(E.GL_MAX_DUAL_SOURCE_DRAW_BUFFERS)
    expect(ctx, E.GL_NO_ERROR)
    assert limit == 1
    fs = ("#version 100\n" + EXT + "precision mediump float;\n"
          "void main() { gl_FragColor = vec4(float(gl_MaxDualSourceDrawBuffersEXT) / 4.0, 0.0, 0.0, 1.0); }")
    link_sources(ctx, ((E.GL_VERTEX_SHADER, VS100), (E.GL_FRAGMENT_SHADER, fs)))
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert abs(int(px[0]) - 64) <= 1, px


@pytest.mark.parametrize("body, message", [
    ("gl_FragColor = vec4(0.0); gl_SecondaryFragDataEXT[0] = vec4(0.0);", "gl_SecondaryFragDataEXT"),
    ("gl_FragData[0] = vec4(0.0); gl_SecondaryFragColorEXT = vec4(0.0);", "gl_SecondaryFragColorEXT"),
])
def test_essl100_mixing_colour_and_data_forms_fails_to_compile(body, message):
    ctx = _ctx("gles2")
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, "#version 100\n" + EXT + f"void main() {{ {body} }}")
    assert not ok and "error" in log and message in log, log


def test_builtins_need_the_extension_and_essl100():
    ctx = _ctx("gles3")
    body = "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); gl_SecondaryFragColorEXT = vec4(1.0); }"
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, "#version 100\n" + body)
    assert not ok and "gl_SecondaryFragColorEXT" in log, log
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, "#version 100\n" + EXT + body)
    assert ok, log
    # GLSL ES 3.00 has user outputs with layout(index) instead (the extension's overview)
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, "#version 300 es\n" + EXT +
                                "precision mediump float; out vec4 o;\n"
                                "void main() { o = vec4(1.0); gl_SecondaryFragColorEXT = vec4(1.0); }")
    assert not ok and "gl_SecondaryFragColorEXT" in log, log


FS300 = ("#version 300 es\n" + EXT + "precision mediump float; uniform vec4 c0, c1;\n"
         "layout(location = 0, index = 0) out vec4 first;\n"
         "layout(location = 0, index = 1) out vec4 second;\n"
         "void main() { first = c0; second = c1; }")


@pytest.mark.parametrize("api", ["gles3", "gles31", "gles32"])
def test_essl300_layout_index_outputs_and_queries(api):
    ctx = _ctx(api)
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, VS300), (E.GL_FRAGMENT_SHADER, FS300)))
    assert ctx.glGetFragDataIndexEXT(prog, "first") == 0
    assert ctx.glGetFragDataIndexEXT(prog, "second") == 1
    assert ctx.glGetFragDataLocation(prog, "second") == 0
    assert ctx.glGetFragDataIndexEXT(prog, "missing") == -1
    expect(ctx, E.GL_NO_ERROR)
    if api == "gles3":          # the resource query is GLES 3.1's
        ctx.glGetProgramResourceLocationIndexEXT(prog, E.GL_PROGRAM_OUTPUT, "second")
        expect(ctx, E.GL_INVALID_OPERATION)
    else:
        assert ctx.glGetProgramResourceLocationIndexEXT(prog, E.GL_PROGRAM_OUTPUT, "second") == 1
        assert ctx.glGetProgramResourceLocationIndexEXT(prog, E.GL_PROGRAM_OUTPUT, "first") == 0
        ctx.glGetProgramResourceLocationIndexEXT(prog, E.GL_UNIFORM, "first")
        expect(ctx, E.GL_INVALID_ENUM)
        index = ctx.glGetProgramResourceIndex(prog, E.GL_PROGRAM_OUTPUT, "second")
        (got,) = ctx.glGetProgramResourceiv(prog, E.GL_PROGRAM_OUTPUT, index, 1, [E.GL_LOCATION_INDEX], 1)
        assert got == 1
    _blended(_draw(ctx, prog))


def test_essl300_index_needs_the_extension():
    ctx = _ctx("gles3")
    _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, FS300.replace(EXT, ""))
    assert not ok and "index" in log, log


def test_bind_frag_data_location_indexed_ext_places_outputs():
    """Without layout qualifiers, glBindFragDataLocationIndexedEXT gives both outputs
    location 0, the second one index 1 (applied at the next link)."""
    ctx = _ctx("gles3")
    fs = ("#version 300 es\n" + EXT + "precision mediump float; uniform vec4 c0, c1;\n"
          "out vec4 first; out vec4 second;\n"
          "void main() { first = c0; second = c1; }")
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS300), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glBindFragDataLocationIndexedEXT(prog, 0, 0, "first")
    ctx.glBindFragDataLocationIndexedEXT(prog, 0, 1, "second")
    expect(ctx, E.GL_NO_ERROR)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    assert ctx.glGetFragDataIndexEXT(prog, "second") == 1
    assert ctx.glGetFragDataLocation(prog, "second") == 0
    ctx.glUseProgram(prog)
    _blended(_draw(ctx, prog))


def test_index_1_beyond_the_dual_source_buffers_fails_to_link():
    ctx = _ctx("gles3")
    fs = ("#version 300 es\n" + EXT + "precision mediump float;\n"
          "layout(location = 0, index = 0) out vec4 a;\n"
          "layout(location = 1, index = 1) out vec4 b;\n"
          "void main() { a = vec4(1.0); b = vec4(1.0); }")
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS300), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert not ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]


def test_command_errors_as_the_specification_names():
    ctx = _ctx("gles3")
    prog = ctx.glCreateProgram()
    ctx.glBindFragDataLocationIndexedEXT(prog, 0, 2, "o")          # index > 1
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glBindFragDataLocationIndexedEXT(prog, 1, 1, "o")          # colorNumber >= MAX_DUAL_SOURCE (1)
    expect(ctx, E.GL_INVALID_VALUE)
    (draw_buffers,) = ctx.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)
    ctx.glBindFragDataLocationIndexedEXT(prog, draw_buffers, 0, "o")   # colorNumber >= MAX_DRAW_BUFFERS
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glBindFragDataLocationIndexedEXT(prog, 0, 0, "gl_o")       # reserved prefix
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glBindFragDataLocationEXT(prog, 0, "gl_o")
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glGetFragDataIndexEXT(prog, "o")                           # not linked
    expect(ctx, E.GL_INVALID_OPERATION)


def test_blend_factors_in_gles2():
    """The four SRC1 factors are accepted for source and destination; GLES 2.0's
    refusal of SRC_ALPHA_SATURATE as a destination factor is lifted; the state reads back."""
    ctx = _ctx("gles2")
    for f in (E.GL_SRC1_COLOR, E.GL_ONE_MINUS_SRC1_COLOR, E.GL_SRC1_ALPHA, E.GL_ONE_MINUS_SRC1_ALPHA):
        ctx.glBlendFunc(f, f)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetIntegerv(E.GL_BLEND_SRC_RGB)[0] == f
        assert ctx.glGetIntegerv(E.GL_BLEND_DST_ALPHA)[0] == f
    ctx.glBlendFunc(E.GL_ONE, E.GL_SRC_ALPHA_SATURATE)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBlendFunc(E.GL_ONE, 0x1234)
    expect(ctx, E.GL_INVALID_ENUM)


@pytest.mark.parametrize("enabled", [True, False])
def test_essl300_outputs_without_locations_take_the_free_locations_in_order(enabled):
    """GLSL ES 3.00 wants a location on every output when there are several; the
    extension lifts that, and Mesa links such shaders without it too (llvmpipe:
    glGetFragDataLocation gives the declaration order), so both link: v at 0, a[]
    at 1-2, as desktop GL. glGetFragDataIndexEXT of a built-in name is -1."""
    ctx = _ctx("gles3")
    fs = ("#version 300 es\n" + (EXT if enabled else "") + "out highp vec4 v; out highp vec4 a[2];\n"
          "void main() { v = vec4(0.0); a[0] = vec4(1.0); a[1] = vec4(2.0); }")
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS300), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    assert [ctx.glGetFragDataLocation(prog, n) for n in ("v", "a")] == [0, 1]
    assert ctx.glGetFragDataIndexEXT(prog, "a") == 0
    assert ctx.glGetFragDataIndexEXT(prog, "gl_FragColor") == -1
    expect(ctx, E.GL_NO_ERROR)


def test_draw_with_more_draw_buffers_than_dual_source_ones_is_invalid():
    """With a second-colour factor, a draw to 2 active draw buffers (MAX_DUAL_SOURCE is 1)
    is INVALID_OPERATION and draws nothing; with one active buffer it blends."""
    ctx = _ctx("gles3")
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, VS300), (E.GL_FRAGMENT_SHADER, FS300)))
    texs = ctx.glGenTextures(2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for i, t in enumerate(texs):
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, W, H)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_TEXTURE_2D, t, 0)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    ctx.glClearColor(*(v / 255 for v in DST))
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c0"), *SRC0)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c1"), *SRC1)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFuncSeparate(E.GL_SRC1_COLOR, E.GL_ONE_MINUS_SRC1_COLOR, E.GL_SRC1_ALPHA, E.GL_ONE_MINUS_SRC1_ALPHA)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_INVALID_OPERATION)
    read = lambda: np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)  # noqa: E731
    assert read().tolist() == list(DST)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_NONE])
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    assert np.abs(read().astype(int) - EXPECTED).max() <= 1
