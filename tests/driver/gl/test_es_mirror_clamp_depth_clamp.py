"""GL_EXT_texture_mirror_clamp_to_edge and GL_EXT_depth_clamp in GLES contexts (as llvmpipe
lists them): the wrap mode MIRROR_CLAMP_TO_EDGE_EXT and the DEPTH_CLAMP_EXT enable, the
desktop features under GLES names (same token values). Expected by hand."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source, expect, link_and_use

VS = "#version 300 es\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n"
FS = """#version 300 es
precision highp float;
uniform sampler2D t;
out vec4 o;
void main() {
    float s[4] = float[4](-0.25, -0.75, 1.25, 0.25);
    o = texture(t, vec2(s[int(gl_FragCoord.x)], 0.5));
}
"""


def _quad(c, z=0.0):
    buf = c.glGenBuffers(1)[0]
    c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    c.glBufferData(E.GL_ARRAY_BUFFER, 64, struct.pack("16f", -1, -1, z, 1, 1, -1, z, 1, -1, 1, z, 1, 1, 1, z, 1),
                   E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    c.glEnableVertexAttribArray(0)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)


def _row(c, w):
    return np.frombuffer(bytes(c.glReadPixels(0, 0, w, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(w, 4)


@pytest.mark.parametrize("wrap, want", [
    # texels red, green; s -0.25 mirrors to 0.25 (red), -0.75 to 0.75 (green), 1.25 and 0.25 clamp/red
    (E.GL_MIRROR_CLAMP_TO_EDGE, ["r", "g", "g", "r"]),
    (E.GL_REPEAT, ["g", "r", "r", "r"])])
def test_mirror_clamp_to_edge_in_gles(wrap, want):
    with driver.Context(api="gles3", width=4, height=1) as c:
        assert "GL_EXT_texture_mirror_clamp_to_edge" in c.glGetString(E.GL_EXTENSIONS).split()
        shaders = [compile_source(c, k, s)[0] for k, s in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS))]
        link_and_use(c, *shaders)
        tex = c.glGenTextures(1)[0]
        c.glBindTexture(E.GL_TEXTURE_2D, tex)
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                       bytes([255, 0, 0, 255, 0, 255, 0, 255]))
        c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
        c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, wrap)
        expect(c, E.GL_NO_ERROR)
        _quad(c)
        colours = {(255, 0, 0, 255): "r", (0, 255, 0, 255): "g"}
        assert [colours.get(tuple(p)) for p in _row(c, 4)] == want


def test_gles2_has_both_and_mirror_clamp_to_border_stays_desktop():
    with driver.Context(api="gles2", width=4, height=1) as c:
        names = c.glGetString(E.GL_EXTENSIONS).split()
        assert "GL_EXT_texture_mirror_clamp_to_edge" in names and "GL_EXT_depth_clamp" in names
        c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, E.GL_MIRROR_CLAMP_TO_EDGE)
        expect(c, E.GL_NO_ERROR)
        c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, E.GL_MIRROR_CLAMP_TO_BORDER_EXT)
        expect(c, E.GL_INVALID_ENUM)
        c.glEnable(E.GL_DEPTH_CLAMP)
        expect(c, E.GL_NO_ERROR)


@pytest.mark.parametrize("clamp", [True, False])
def test_depth_clamp_keeps_what_lies_beyond_the_far_plane(clamp):
    """A quad at z = 1.5 (beyond the far plane): clipped without the clamp (the clear's
    black stays), drawn with it (depth clamped to 1.0, LEQUAL against the cleared 1.0)."""
    fs = "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(0, 0, 1, 1); }\n"
    with driver.Context(api="gles3", width=4, height=4) as c:
        assert "GL_EXT_depth_clamp" in c.glGetString(E.GL_EXTENSIONS).split()
        shaders = [compile_source(c, k, s)[0] for k, s in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs))]
        link_and_use(c, *shaders)
        c.glClearColor(0, 0, 0, 1)
        c.glClearDepthf(1.0)
        c.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
        c.glEnable(E.GL_DEPTH_TEST)
        c.glDepthFunc(E.GL_LEQUAL)
        (c.glEnable if clamp else c.glDisable)(E.GL_DEPTH_CLAMP)       # DEPTH_CLAMP_EXT
        assert c.glIsEnabled(E.GL_DEPTH_CLAMP) == clamp
        _quad(c, 1.5)
        expect(c, E.GL_NO_ERROR)
        px = _row(c, 4)
        assert (px == ([0, 0, 255, 255] if clamp else [0, 0, 0, 255])).all()


@pytest.mark.parametrize("api", ["gles2", "gles3"])
def test_clip_control_in_gles(api):
    """EXT_clip_control: glClipControlEXT(UPPER_LEFT, ZERO_TO_ONE). A quad over the lower
    half at z = -0.5: kept by [-w, w] and shown at the bottom; flipped to the top by
    UPPER_LEFT and clipped by [0, w] (z < 0)."""
    version = "#version 300 es" if api == "gles3" else "#version 100"
    vs = (version + "\n" + ("layout(location = 0) in vec4 p;" if api == "gles3" else "attribute vec4 p;")
          + "\nvoid main() { gl_Position = p; }\n")
    fs = (version + "\nprecision mediump float;\n" + ("out vec4 o;\nvoid main() { o = vec4(0, 0, 1, 1); }\n"
          if api == "gles3" else "void main() { gl_FragColor = vec4(0, 0, 1, 1); }\n"))
    with driver.Context(api=api, width=4, height=4) as c:
        assert "GL_EXT_clip_control" in c.glGetString(E.GL_EXTENSIONS).split()
        shaders = [compile_source(c, k, s)[0] for k, s in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs))]
        prog = link_and_use(c, *shaders)
        c.glBindAttribLocation(prog, 0, "p")
        c.glLinkProgram(prog)
        c.glUseProgram(prog)

        def draw(z):
            c.glClearColor(0, 0, 0, 1)
            c.glClear(E.GL_COLOR_BUFFER_BIT)
            buf = c.glGenBuffers(1)[0]
            c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
            c.glBufferData(E.GL_ARRAY_BUFFER, 64, struct.pack("16f", -1, -1, z, 1, 1, -1, z, 1, -1, 0, z, 1,
                                                              1, 0, z, 1), E.GL_STATIC_DRAW)
            c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
            c.glEnableVertexAttribArray(0)
            c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
            px = np.frombuffer(bytes(c.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
            return (px.reshape(4, 4, 4)[:, 0, 2] // 255).tolist()      # blue per row, bottom first

        assert draw(-0.5) == [1, 1, 0, 0]
        c.glClipControlEXT(E.GL_UPPER_LEFT, E.GL_ZERO_TO_ONE)
        assert c.glGetIntegerv(E.GL_CLIP_ORIGIN) == [E.GL_UPPER_LEFT]
        assert c.glGetIntegerv(E.GL_CLIP_DEPTH_MODE) == [E.GL_ZERO_TO_ONE]
        assert draw(0.5) == [0, 0, 1, 1]
        assert draw(-0.5) == [0, 0, 0, 0]
        c.glClipControlEXT(E.GL_UPPER_LEFT, E.GL_RED)
        expect(c, E.GL_INVALID_ENUM)


def test_conditional_render_in_gles3():
    """NV_conditional_render in GLES 3.0: after an ANY_SAMPLES_PASSED query of a draw the
    depth test rejects (z 0.5 behind a depth of 0), a conditional draw (QUERY_WAIT) is
    skipped; after one it passes, it draws blue."""
    fs = "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(0, 0, 1, 1); }\n"
    with driver.Context(api="gles3", width=4, height=4) as c:
        assert "GL_NV_conditional_render" in c.glGetString(E.GL_EXTENSIONS).split()
        shaders = [compile_source(c, k, s)[0] for k, s in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs))]
        link_and_use(c, *shaders)
        c.glEnable(E.GL_DEPTH_TEST)
        q = c.glGenQueries(1)[0]
        for depth, want in ((0.0, [0, 0, 0, 255]), (1.0, [0, 0, 255, 255])):
            c.glClearColor(0, 0, 0, 1)
            c.glClearDepthf(depth)
            c.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
            c.glColorMask(False, False, False, False)
            c.glBeginQuery(E.GL_ANY_SAMPLES_PASSED, q)
            _quad(c, 0.5)
            c.glEndQuery(E.GL_ANY_SAMPLES_PASSED)
            c.glColorMask(True, True, True, True)
            c.glDisable(E.GL_DEPTH_TEST)
            c.glBeginConditionalRenderNV(q, E.GL_QUERY_WAIT)
            _quad(c, 0.0)
            c.glEndConditionalRenderNV()
            c.glEnable(E.GL_DEPTH_TEST)
            assert (_row(c, 4) == want).all(), depth
        expect(c, E.GL_NO_ERROR)
    with driver.Context(api="gles2", width=4, height=4) as c:
        c.glBeginConditionalRenderNV(1, E.GL_QUERY_WAIT)
        expect(c, E.GL_INVALID_OPERATION)


def test_srgb_write_control_in_gles3():
    """EXT_sRGB_write_control: FRAMEBUFFER_SRGB_EXT starts enabled in GLES (a clear of 0.5
    into an SRGB8_ALPHA8 buffer stores the encoding, 188); disabled, the value is stored
    linearly (128). ReadPixels returns the stored bytes. GLES 2.0 lacks the enable."""
    with driver.Context(api="gles3", width=4, height=4) as c:
        assert "GL_EXT_sRGB_write_control" in c.glGetString(E.GL_EXTENSIONS).split()
        assert c.glIsEnabled(E.GL_FRAMEBUFFER_SRGB)
        fb, rb = c.glGenFramebuffers(1)[0], c.glGenRenderbuffers(1)[0]
        c.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        c.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_SRGB8_ALPHA8, 4, 4)
        c.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        c.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        c.glClearColor(0.5, 0.5, 0.5, 0.5)
        for enabled, value in ((True, 188), (False, 128), (True, 188)):
            (c.glEnable if enabled else c.glDisable)(E.GL_FRAMEBUFFER_SRGB)
            c.glClear(E.GL_COLOR_BUFFER_BIT)
            assert (_row(c, 4) == [value, value, value, 128]).all(), enabled
        expect(c, E.GL_NO_ERROR)
    with driver.Context(api="gles2", width=4, height=4) as c:
        c.glDisable(E.GL_FRAMEBUFFER_SRGB)
        expect(c, E.GL_INVALID_ENUM)
