"""GL_ARB_ES3_2_compatibility (listed from GL 4.5, compatibility and core): GLSL ES 3.20
shaders in desktop contexts (drawn, and with ES 3.20's geometry and tessellation stages
without extensions), glPrimitiveBoundingBoxARB and PRIMITIVE_BOUNDING_BOX_ARB (the box is
kept and, as the specification allows, not used to drop fragments), gl_BoundingBox in a
desktop control shader with the #extension, and MULTISAMPLE_LINE_WIDTH_RANGE/_GRANULARITY_ARB
with a multisampled wide line drawn as the rectangle of its width (coverage per row worked
out from the context's own sample positions)."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

from .helpers import expect

EXT = "GL_ARB_ES3_2_compatibility"
BOX = 0x92BE            # PRIMITIVE_BOUNDING_BOX_ARB
LINE_RANGE, LINE_GRANULARITY = 0x9381, 0x9382


def _names(ctx) -> set[str]:
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


def _compile(ctx, kind, src) -> tuple[int, str]:
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    return s, ("" if ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [1] else ctx.glGetShaderInfoLog(s))


def _link(ctx, *shaders) -> int:
    p = ctx.glCreateProgram()
    for kind, src in shaders:
        s, log = _compile(ctx, kind, src)
        assert not log, log
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    return p


VS = """#version 320 es
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS = """#version 320 es
precision mediump float;
layout(location = 0) out vec4 colour;
uniform vec4 c;
void main() { colour = c; }
"""


def _quad(ctx, points):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    data = np.array(points, np.float32)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)


def test_listed_from_gl45_with_its_queries_and_command():
    with driver.Context(api="gl44", width=4, height=4) as ctx:
        assert EXT not in _names(ctx)
        ctx.glGetFloatv(LINE_RANGE)
        expect(ctx, E.GL_INVALID_ENUM)
        ctx.glPrimitiveBoundingBoxARB(0, 0, 0, 1, 1, 1, 1, 1)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert _compile(ctx, E.GL_FRAGMENT_SHADER, FS)[1].startswith("0:1(10): error: GLSL 320 ES is not supported")
    for api in ("gl45", "gl46", "compat"):
        with driver.Context(api=api, width=4, height=4) as ctx:
            assert EXT in _names(ctx)
            assert ctx.glGetFloatv(LINE_RANGE) == ctx.glGetFloatv(E.GL_SMOOTH_LINE_WIDTH_RANGE) == [1.0, 16.0]
            assert ctx.glGetFloatv(LINE_GRANULARITY) == [0.125]
            assert ctx.glGetFloatv(BOX) == [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
            ctx.glPrimitiveBoundingBoxARB(-0.5, -2.0, 0.0, 1.0, 0.25, 3.0, 1.0, 2.0)
            expect(ctx, E.GL_NO_ERROR)
            assert ctx.glGetFloatv(BOX) == [-0.5, -2.0, 0.0, 1.0, 0.25, 3.0, 1.0, 2.0]


def test_glsl_es_320_draws_in_a_desktop_context_and_the_box_drops_nothing():
    with driver.Context(api="gl45", width=8, height=8) as ctx:
        p = _link(ctx, (E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS))
        ctx.glUseProgram(p)
        ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), 0.0, 1.0, 0.0, 1.0)
        ctx.glPrimitiveBoundingBoxARB(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)   # a box too small: a hint
        _quad(ctx, [[-1, -1], [1, -1], [-1, 1], [1, 1]])
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        assert (ctx.read_pixels().astype(int) == [0, 255, 0, 255]).all()


TCS_ES = """#version 320 es
layout(vertices = 3) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 1.0; gl_TessLevelOuter[1] = 1.0; gl_TessLevelOuter[2] = 1.0;
    gl_TessLevelInner[0] = 1.0;
    gl_BoundingBox[0] = vec4(-1.0); gl_BoundingBox[1] = vec4(1.0);
}
"""
TES_ES = """#version 320 es
layout(triangles) in;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
}
"""
GS_ES = """#version 320 es
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; EmitVertex(); }
    EndPrimitive();
}
"""


def test_es_320_tessellation_and_geometry_stages_and_desktop_bounding_box():
    with driver.Context(api="gl45", width=8, height=8) as ctx:
        p = _link(ctx, (E.GL_VERTEX_SHADER, VS), (E.GL_TESS_CONTROL_SHADER, TCS_ES),
                  (E.GL_TESS_EVALUATION_SHADER, TES_ES), (E.GL_GEOMETRY_SHADER, GS_ES), (E.GL_FRAGMENT_SHADER, FS))
        ctx.glUseProgram(p)
        ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), 1.0, 0.0, 1.0, 1.0)
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
        _quad(ctx, [[-1, -1], [1, -1], [-1, 1], [1, -1], [1, 1], [-1, 1]])
        ctx.glDrawArrays(E.GL_PATCHES, 0, 6)
        expect(ctx, E.GL_NO_ERROR)
        assert (ctx.read_pixels().astype(int) == [255, 0, 255, 255]).all()
        # desktop GLSL: gl_BoundingBox with the #extension only
        tcs = TCS_ES.replace("#version 320 es", "#version 450\n#extension GL_ARB_ES3_2_compatibility : require")
        assert _compile(ctx, E.GL_TESS_CONTROL_SHADER, tcs)[1] == ""
        log = _compile(ctx, E.GL_TESS_CONTROL_SHADER, tcs.replace("#extension GL_ARB_ES3_2_compatibility : require",
                                                                  ""))[1]
        assert "gl_BoundingBox" in log, log


def test_a_multisampled_wide_line_is_the_rectangle_of_its_width():
    w = h = 16
    with driver.Context(api="gl45", width=w, height=h) as ctx:
        rb = ctx.glGenRenderbuffers(1)[0]
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, w, h)
        fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        samples = ctx.glGetIntegerv(E.GL_SAMPLES)[0]
        ys = np.array([ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i)[1] for i in range(samples)])
        ctx.glViewport(0, 0, w, h)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        p = _link(ctx, (E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS))
        ctx.glUseProgram(p)
        ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), 1.0, 1.0, 1.0, 1.0)
        ctx.glLineWidth(2.5)
        _quad(ctx, [[-1, 0], [1, 0]])                 # window y = 8.0, the whole width
        ctx.glDrawArrays(E.GL_LINES, 0, 2)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, 0)
        ctx.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
        expect(ctx, E.GL_NO_ERROR)
        red = ctx.read_pixels()[:, :, 0].astype(float)      # rows bottom to top
        # the rectangle y in [8 - 1.25, 8 + 1.25]: a row's share is its samples inside it
        rows = np.arange(h)[:, None] + ys[None, :]
        expected = ((rows > 6.75) & (rows < 9.25)).mean(axis=1) * 255
        assert expected[6] > 0 and expected[9] > 0 and expected[6] < 255       # partial edge rows
        assert np.abs(red[:, 2:w - 2] - expected[:, None]).max() <= 1, red[:, w // 2]
