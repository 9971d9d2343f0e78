"""Varyings packed into one location with the component qualifier (ARB_enhanced_layouts,
GLSL 4.40 section 4.4.1): the fragment stage declares them in another order and still
reads each from its own components; the colour read back is the expected one."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

HEAD = "#version 440\n"
VS = HEAD + """
layout(location = 0, component = 0) out float a;
layout(location = 0, component = 1) out vec2 b;
layout(location = 0, component = 3) out float c;
layout(location = 1, component = 2) flat out ivec2 n;
void main() {
  vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0;
  gl_Position = vec4(p, 0.0, 1.0);
  a = 0.25; b = vec2(0.5, 0.75); c = 1.0; n = ivec2(3, 5);
}"""
FS = HEAD + """
layout(location = 1, component = 2) flat in ivec2 n;
layout(location = 0, component = 3) in float c;
layout(location = 0, component = 1) in vec2 b;
layout(location = 0, component = 0) in float a;
out vec4 o;
void main() { o = vec4(a, b.yx, c) * float(n.y - n.x) * 0.5; }"""


@pytest.fixture
def ctx():
    # GLSL 4.40 has the qualifiers without the #extension (a GL 4.6 context)
    return driver.Context(api="gl46", width=4, height=4)


def _link(ctx, vs, fs):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    return p


def test_components_of_one_location_reach_their_inputs(ctx):
    p = _link(ctx, VS, FS)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 3)
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    expected = np.round(np.array([0.25, 0.75, 0.5, 1.0]) * 255).astype(np.uint8)
    np.testing.assert_array_equal(px.reshape(16, 4), np.tile(expected, (16, 1)))


def test_mismatched_component_type_is_a_link_error(ctx):
    fs = FS.replace("in vec2 b;", "in float b;").replace("b.yx", "vec2(b)")
    p = _link(ctx, VS, fs)
    assert not ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]
    assert "`b'" in ctx.glGetProgramInfoLog(p)


def _draw_and_read(ctx, p):
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(16, 4)


def test_fragment_outputs_share_a_render_target(ctx):
    vs = HEAD + "void main() { gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }"
    fs = HEAD + """
layout(location = 0, component = 1) out vec2 gb;
layout(location = 0) out float r;
layout(location = 0, component = 3) out float a;
void main() { r = 0.25; gb = vec2(0.5, 0.75); a = 1.0; }"""
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    px = _draw_and_read(ctx, _link(ctx, vs, fs))
    np.testing.assert_array_equal(px, np.tile(np.round(np.array([0.25, 0.5, 0.75, 1.0]) * 255), (16, 1)))


def test_overlapping_fragment_outputs_are_a_link_error(ctx):
    vs = HEAD + "void main() { gl_Position = vec4(0.0); }"
    p = _link(ctx, vs, HEAD + """
layout(location = 0, component = 1) out vec2 gb;
layout(location = 0, component = 2) out vec2 ba;
void main() { gb = vec2(0.5); ba = vec2(0.0); }""")
    assert not ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]
    assert "`ba' and `gb' use the same components of location 0" in ctx.glGetProgramInfoLog(p)


def test_vertex_attributes_read_from_their_components(ctx):
    vs = HEAD + """
layout(location = 0) in vec2 pos;
layout(location = 1, component = 1) in vec3 gba[2];
layout(location = 1) in float red[2];
uniform int index;
out vec4 colour;
void main() { gl_Position = vec4(pos, 0.0, 1.0); colour = vec4(red[index], gba[index]); }"""
    fs = HEAD + "in vec4 colour;\nout vec4 o;\nvoid main() { o = colour; }"
    p = _link(ctx, vs, fs)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    pos = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)
    attrs = np.array([[0.25, 0.5, 0.75, 1.0], [0.0, 0.25, 0.5, 1.0]], np.float32)
    data = np.concatenate([pos, np.repeat(attrs.reshape(1, 8), 3, 0)], 1).astype(np.float32)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 40, 0)
    ctx.glVertexAttribPointer(1, 4, E.GL_FLOAT, False, 40, 8)
    ctx.glVertexAttribPointer(2, 4, E.GL_FLOAT, False, 40, 24)
    for i in range(3):
        ctx.glEnableVertexAttribArray(i)
    ctx.glUseProgram(p)
    for index in range(2):
        ctx.glUniform1i(ctx.glGetUniformLocation(p, "index"), index)
        px = _draw_and_read(ctx, p)
        np.testing.assert_array_equal(px, np.tile(np.round(attrs[index] * 255), (16, 1)))


def test_location_component_queries(ctx):
    vs = HEAD + """
layout(location = 0) in vec2 pos;
layout(location = 1, component = 3) in float w[2];
layout(location = 1) in vec3 xyz[2];
void main() { gl_Position = vec4(pos, xyz[1].x, w[0]); }"""
    fs = HEAD + """
layout(location = 0) out vec2 rg;
layout(location = 0, component = 2) out vec2 ba;
void main() { rg = vec2(0.0); ba = vec2(1.0); }"""
    p = _link(ctx, vs, fs)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)

    def component(interface, name):
        i = ctx.glGetProgramResourceIndex(p, interface, name)
        vals = ctx.glGetProgramResourceiv(p, interface, i, 1, [E.GL_LOCATION_COMPONENT], 1)
        return (vals[1] if isinstance(vals, tuple) else vals)[0]
    assert [component(E.GL_PROGRAM_INPUT, n) for n in ("pos", "w[0]", "xyz[0]")] == [0, 3, 0]
    assert [component(E.GL_PROGRAM_OUTPUT, n) for n in ("rg", "ba")] == [0, 2]


def test_vertex_inputs_may_overlap_components(ctx):
    """GLSL 4.60 section 4.4.1: the one place component aliasing is allowed."""
    vs = HEAD + """
layout(location = 0, component = 1) in vec3 a;
layout(location = 0, component = 3) in float b;
uniform int i;
void main() { gl_Position = i == 1 ? vec4(b) : vec4(a, 1.0); }"""
    p = _link(ctx, vs, HEAD + "out vec4 o;\nvoid main() { o = vec4(1.0); }")
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
