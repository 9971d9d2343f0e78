"""Viewport arrays (GL 4.6 sections 13.6.1 and 14.9.2, ARB_viewport_array): 16 viewports,
each with its rectangle, depth range, scissor box and scissor test, set by the indexed
commands and by the non-indexed ones for all; gl_ViewportIndex written by the geometry
stage draws each primitive through its viewport. Expected images by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

from .helpers import expect
from .test_geometry import _shader

W = H = 16


def test_sixteen_viewports_with_their_own_state():
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        assert ctx.glGetIntegerv(E.GL_MAX_VIEWPORTS) == [16]
        ctx.glViewport(0, 0, 16, 16)
        ctx.glViewportIndexedf(3, 1.7, 2.2, 5.0, 6.0)
        ctx.glScissorIndexed(15, 1, 2, 3, 4)
        ctx.glDepthRangeIndexed(7, 0.25, 2.0)
        ctx.glEnablei(E.GL_SCISSOR_TEST, 9)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetFloati_v(E.GL_VIEWPORT, 3) == [1.7, 2.2, 5.0, 6.0]      # kept as floats
        assert ctx.glGetIntegeri_v(E.GL_VIEWPORT, 3) == [2, 2, 5, 6]
        ctx.glViewportIndexedf(4, -1e9, 1e9, 1e9, 8.0)                          # clamped (GL 4.6 13.6.1)
        lo, hi = ctx.glGetFloatv(E.GL_VIEWPORT_BOUNDS_RANGE)
        assert ctx.glGetFloati_v(E.GL_VIEWPORT, 4) == [lo, hi, ctx.glGetIntegerv(E.GL_MAX_VIEWPORT_DIMS)[0], 8.0]
        assert ctx.glGetFloati_v(E.GL_VIEWPORT, 2) == [0.0, 0.0, 16.0, 16.0]
        assert ctx.glGetIntegerv(E.GL_VIEWPORT) == [0, 0, 16, 16]          # index 0
        assert ctx.glGetIntegeri_v(E.GL_SCISSOR_BOX, 15) == [1, 2, 3, 4]
        assert ctx.glGetFloati_v(E.GL_DEPTH_RANGE, 7) == [0.25, 1.0]
        assert ctx.glGetFloati_v(E.GL_DEPTH_RANGE, 6) == [0.0, 1.0]
        assert ctx.glIsEnabledi(E.GL_SCISSOR_TEST, 9) and not ctx.glIsEnabledi(E.GL_SCISSOR_TEST, 0)
        assert not ctx.glIsEnabled(E.GL_SCISSOR_TEST)
        ctx.glEnablei(E.GL_SCISSOR_TEST, 0)
        assert ctx.glIsEnabled(E.GL_SCISSOR_TEST) and not ctx.glIsEnabledi(E.GL_SCISSOR_TEST, 8)
        # the non-indexed commands set every viewport
        ctx.glViewport(4, 4, 8, 8)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        ctx.glDepthRange(0.5, 0.75)
        for i in (0, 3, 15):
            assert ctx.glGetFloati_v(E.GL_VIEWPORT, i) == [4.0, 4.0, 8.0, 8.0]
            assert ctx.glGetFloati_v(E.GL_DEPTH_RANGE, i) == [0.5, 0.75]
            assert not ctx.glIsEnabledi(E.GL_SCISSOR_TEST, i)
        assert ctx.glGetIntegeri_v(E.GL_SCISSOR_BOX, 15) == [1, 2, 3, 4]    # glScissor not called
        # arrays, validated whole before any value is set
        ctx.glViewportArrayv(14, 2, [0, 0, 1, 1, 2, 2, 3, 3])
        assert ctx.glGetFloati_v(E.GL_VIEWPORT, 15) == [2.0, 2.0, 3.0, 3.0]
        ctx.glViewportArrayv(15, 2, [0, 0, 1, 1, 2, 2, 3, 3])
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glScissorArrayv(0, 2, [0, 0, 1, 1, 2, 2, -3, 3])
        expect(ctx, E.GL_INVALID_VALUE)
        assert ctx.glGetIntegeri_v(E.GL_SCISSOR_BOX, 0) == ctx.glGetIntegerv(E.GL_SCISSOR_BOX)
        ctx.glViewportIndexedf(16, 0, 0, 1, 1)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glEnablei(E.GL_SCISSOR_TEST, 16)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glGetFloati_v(E.GL_VIEWPORT, 16)
        expect(ctx, E.GL_INVALID_VALUE)


VS = """#version 150
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }
"""
# a full-viewport quad through each of viewports 0..3, coloured by its index
GS = """#version 410
layout(points) in;
layout(triangle_strip, max_vertices = 16) out;
flat out int vp;
void main() {
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 4; k++) {
            gl_ViewportIndex = i;
            vp = i;
            gl_Position = vec4((k & 1) == 0 ? -1.0 : 1.0, k < 2 ? -1.0 : 1.0, 0.0, 1.0);
            EmitVertex();
        }
        EndPrimitive();
    }
}
"""
FS = """#version 410
flat in int vp;
out vec4 frag;
void main() { frag = vec4(float(vp + 1) / 8.0, gl_FragCoord.z, 0.0, 1.0); }
"""


def _draw(ctx, fs=FS):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, GS), (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(ctx, E.GL_NO_ERROR)
    return np.asarray(ctx.read_pixels())


def test_gl_viewport_index_selects_viewport_depth_range_and_scissor():
    """Viewports 0..3 are the four 8x8 quadrants; viewport 1's depth range is [0.5, 0.5]
    (z 0 maps to 0.5, elsewhere to 0.5 of [0, 1]); viewport 3 scissors to a 2x2 box."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        ctx.glViewportArrayv(0, 4, [0, 0, 8, 8, 8, 0, 8, 8, 0, 8, 8, 8, 8, 8, 8, 8])
        ctx.glDepthRangeIndexed(1, 0.25, 0.25)
        ctx.glScissorIndexed(3, 10, 10, 2, 2)
        ctx.glEnablei(E.GL_SCISSOR_TEST, 3)
        img = _draw(ctx)
        want = np.zeros((H, W, 4), np.uint8)
        want[..., 3] = 255
        half = 128                     # z 0 in [0, 1] depth range: 0.5
        want[0:8, 0:8, :2] = (32, half)               # viewport 0: bottom left (rows from the bottom)
        want[0:8, 8:16, :2] = (64, 64)                # viewport 1: depth 0.25
        want[8:16, 0:8, :2] = (96, half)              # viewport 2
        want[10:12, 10:12, :2] = (128, half)          # viewport 3, scissored
        np.testing.assert_array_equal(img, want)


def test_without_gl_viewport_index_viewport_zero_is_used():
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        ctx.glViewportArrayv(0, 2, [0, 0, 8, 8, 8, 8, 8, 8])
        gs_src = GS.replace("gl_ViewportIndex = i;", "")
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, gs_src), (E.GL_FRAGMENT_SHADER, FS)):
            ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glLinkProgram(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        ctx.glClearColor(0, 0, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        img = np.asarray(ctx.read_pixels())
        assert (img[0:8, 0:8, 0] == 128).all()          # the last quad (vp 3) drawn over viewport 0
        assert (img[8:16, :, :3] == 0).all() and (img[:, 8:16, :3] == 0).all()


def test_fragment_shader_reads_gl_viewport_index():
    fs = """#version 430
out vec4 frag;
void main() { frag = vec4(float(gl_ViewportIndex + 1) / 8.0, 0.0, 0.0, 1.0); }
"""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        ctx.glViewportArrayv(0, 4, [0, 0, 8, 8, 8, 0, 8, 8, 0, 8, 8, 8, 8, 8, 8, 8])
        img = _draw(ctx, fs)
        for (r, c), i in (((0, 0), 0), ((0, 8), 1), ((8, 0), 2), ((8, 8), 3)):
            assert (img[r:r + 8, c:c + 8, 0] == 32 * (i + 1)).all(), i


def test_indexed_depth_range_as_integers_is_rounded():
    """An indexed integer query of a depth range rounds each value to the nearest integer
    (as Mesa; piglit arb_viewport_array-queries checks (int)(f + 0.5)); glGetIntegerv's
    unindexed one is normalized (GL 4.6 section 2.2.2)."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        ctx.glDepthRangeIndexed(2, 0.25, 0.75)
        assert ctx.glGetIntegeri_v(E.GL_DEPTH_RANGE, 2) == [0, 1]
        assert ctx.glGetInteger64i_v(E.GL_DEPTH_RANGE, 0) == [0, 1]
        assert ctx.glGetIntegerv(E.GL_DEPTH_RANGE) == [0, 0x7FFFFFFF]


def test_glsl_150_extensions_are_listed_and_work():
    """GL_ARB_viewport_array (gl_ViewportIndex in a GLSL 1.50 geometry shader) and
    GL_ARB_fragment_layer_viewport (gl_Layer / gl_ViewportIndex in a GLSL 1.50 fragment
    shader) are listed (the first from GL 4.1, whose commands it uses) and their
    #extension lines work; without the extension a 1.50 fragment shader has no
    gl_ViewportIndex."""
    gs = """#version 150
#extension GL_ARB_viewport_array : require
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
void main() {
    for (int k = 0; k < 4; k++) {
        gl_ViewportIndex = 1;
        gl_Position = vec4((k & 1) == 0 ? -1.0 : 1.0, k < 2 ? -1.0 : 1.0, 0.0, 1.0);
        EmitVertex();
    }
}
"""
    fs = """#version 150
#extension GL_ARB_fragment_layer_viewport : require
out vec4 frag;
void main() { frag = vec4(float(gl_ViewportIndex) / 4.0, float(gl_Layer), 0.0, 1.0); }
"""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        assert "GL_ARB_fragment_layer_viewport" in names and "GL_ARB_viewport_array" not in names
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        assert {"GL_ARB_viewport_array", "GL_ARB_fragment_layer_viewport"} <= names
        bad = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
        ctx.glShaderSource(bad, 1, [fs.replace("#extension GL_ARB_fragment_layer_viewport : require\n", "")])
        ctx.glCompileShader(bad)
        assert not ctx.glGetShaderiv(bad, E.GL_COMPILE_STATUS)[0]
        ctx.glViewportIndexedf(1, 8, 8, 8, 8)
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)):
            ctx.glAttachShader(p, _shader(ctx, kind, src))
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
        ctx.glUseProgram(p)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        ctx.glClearColor(0, 0, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        expect(ctx, E.GL_NO_ERROR)
        img = np.asarray(ctx.read_pixels())
        assert (img[8:16, 8:16, :3] == (64, 0, 0)).all()
        assert (img[:8, :, :3] == 0).all() and (img[:, :8, :3] == 0).all()
