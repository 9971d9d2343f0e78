"""GLSL and program-query details piglit's C tests found wrong:

- ARB_draw_instanced names the instance index gl_InstanceIDARB (it was undeclared);
- gl_MaxVaryingFloats is a core constant up to GLSL 4.10 (deprecated, not removed;
  GLSL 4.20 moves it to the compatibility profile): a #version 330 core shader
  could not read it;
- #extension GL_ARB_uniform_buffer_object may be enabled in GLSL 1.10/1.20 shaders
  (the extension is written against GLSL 1.20);
- the index and location queries return INVALID_INDEX / -1 when they record an
  error (they returned None: 0 through the C ABI, a valid index)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E


def _compile(g, kind, src):
    s = g.glCreateShader(kind)
    g.glShaderSource(s, 1, [src])
    g.glCompileShader(s)
    return s, bool(g.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0])


def _program(g, vs, fs):
    p = g.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        if src is not None:
            s, ok = _compile(g, kind, src)
            assert ok, g.glGetShaderInfoLog(s)
            g.glAttachShader(p, s)
    g.glLinkProgram(p)
    assert g.glGetProgramiv(p, E.GL_LINK_STATUS)[0], g.glGetProgramInfoLog(p)
    return p


def test_gl_instance_id_arb_counts_instances():
    vs = """#version 120
#extension GL_ARB_draw_instanced : require
attribute vec2 p;
varying vec4 c;
void main() {
  c = vec4(float(gl_InstanceIDARB) / 2.0, 1.0, 0.0, 1.0);
  gl_Position = vec4(p.x + 2.0 / 3.0 * float(gl_InstanceIDARB), p.y, 0.0, 1.0);
}"""
    fs = "#version 120\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }"
    with driver.Context("compat", 3, 1) as c:
        g = c.gl
        p = _program(g, vs, fs)
        g.glUseProgram(p)
        # one column-wide strip at x in [-1, -1/3]; instance i moves it i thirds right
        quad = np.array([-1, -1, -1 / 3, -1, -1, 1, -1 / 3, 1], np.float32)
        loc = g.glGetAttribLocation(p, "p")
        g.glBindBuffer(E.GL_ARRAY_BUFFER, g.glGenBuffers(1)[0])
        g.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad.tobytes(), E.GL_STATIC_DRAW)
        g.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)
        g.glEnableVertexAttribArray(loc)
        g.glDrawArraysInstanced(E.GL_TRIANGLE_STRIP, 0, 4, 3)
        px = c.read_pixels().reshape(3, 4)
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    # red = instance / 2: 0, 128 (0.5 * 255 rounded), 255
    assert px[:, 0].tolist() == [0, 128, 255] and (px[:, 1] == 255).all(), px


@pytest.mark.parametrize("api,version,ok", [("gl43", "330", True), ("gl43", "150", True), ("gl43", "410", True),
                                            ("gl43", "420", False), ("compat", "420 compatibility", True)])
def test_gl_max_varying_floats_is_core_until_glsl_4_10(api, version, ok):
    fs = f"""#version {version}
out vec4 o;
void main() {{ o = vec4(float(gl_MaxVaryingFloats)); }}"""
    with driver.Context(api, 4, 4) as c:
        g = c.gl
        s, compiled = _compile(g, E.GL_FRAGMENT_SHADER, fs)
        assert compiled == ok, g.glGetShaderInfoLog(s)
        if not ok:
            assert "gl_MaxVaryingFloats" in g.glGetShaderInfoLog(s)


def test_gl_max_varying_floats_equals_the_gl_limit():
    fs = """#version 330
out vec4 o;
void main() { o = vec4(gl_MaxVaryingFloats == VALUE ? 1.0 : 0.0, 0.0, 0.0, 1.0); }"""
    with driver.Context("gl43", 1, 1) as c:
        g = c.gl
        value = g.glGetIntegerv(E.GL_MAX_VARYING_COMPONENTS)[0]
        vs = "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }"
        p = _program(g, vs, fs.replace("VALUE", str(value)))
        g.glUseProgram(p)
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        g.glVertexAttrib4f(0, 0.0, 0.0, 0.0, 1.0)
        g.glDrawArrays(E.GL_POINTS, 0, 1)
        px = c.read_pixels().reshape(4)
    assert px.tolist() == [255, 0, 0, 255]


def test_uniform_blocks_in_a_glsl_110_shader_with_the_extension():
    fs = """#extension GL_ARB_uniform_buffer_object : require
uniform ub_a { vec4 a; };
uniform ub_b { vec4 b; };
void main() { gl_FragColor = a + b; }"""
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        p = _program(g, None, fs)
        assert sorted([g.glGetUniformBlockIndex(p, "ub_a"), g.glGetUniformBlockIndex(p, "ub_b")]) == [0, 1]
        assert g.glGetUniformBlockIndex(p, "ub_c") == E.GL_INVALID_INDEX
        assert g.glGetError() == E.GL_NO_ERROR


def test_index_and_location_queries_return_invalid_index_or_minus_one_on_error():
    with driver.Context("gl43", 4, 4) as c:
        g = c.gl
        assert g.glGetUniformBlockIndex(0xD0D0, "a") == E.GL_INVALID_INDEX
        assert g.glGetError() == E.GL_INVALID_VALUE
        assert g.glGetProgramResourceIndex(0xD0D0, E.GL_UNIFORM, "a") == E.GL_INVALID_INDEX
        assert g.glGetError() == E.GL_INVALID_VALUE
        unlinked = g.glCreateProgram()
        for query in (lambda: g.glGetUniformLocation(unlinked, "a"), lambda: g.glGetAttribLocation(unlinked, "a"),
                      lambda: g.glGetFragDataLocation(unlinked, "a")):
            assert query() == -1
            assert g.glGetError() == E.GL_INVALID_OPERATION
