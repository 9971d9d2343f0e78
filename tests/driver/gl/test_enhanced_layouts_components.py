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
