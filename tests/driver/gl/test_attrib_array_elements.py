"""glGetAttribLocation of an element of an array vertex input (GL 4.6 section 7.3.1.1:
``d[1]`` names a resource): the array's location plus the element index times the
locations an element takes; out-of-range or malformed elements are -1. A draw that
feeds d[1]'s columns through the location the query gave reads them (piglit
glsl-1.50 vs-input-arrays). Locations and values by hand."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = """#version 150
in vec2 pos;
in float a[3];
in mat2 d[2];
out vec4 colour;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    bool ok = a[2] == 7.0 && d[1] == mat2(1.0, 2.0, 3.0, 4.0) && d[0] == mat2(0.0);
    colour = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}
"""
FS = """#version 150
in vec4 colour;
out vec4 c;
void main() { c = colour; }
"""


def test_array_element_locations_and_a_draw_through_them():
    ctx = glhelp.context(4, 4, api="gl46")
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, glhelp.compile_shader(ctx, E.GL_VERTEX_SHADER, VS))
    ctx.glAttachShader(prog, glhelp.compile_shader(ctx, E.GL_FRAGMENT_SHADER, FS))
    ctx.glBindAttribLocation(prog, 0, "pos")
    ctx.glBindAttribLocation(prog, 2, "a")          # a: 2, 3, 4
    ctx.glBindAttribLocation(prog, 6, "d")          # d[0]: 6, 7; d[1]: 8, 9
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    got = {n: ctx.glGetAttribLocation(prog, n) for n in
           ("a", "a[0]", "a[2]", "a[3]", "d", "d[0]", "d[1]", "d[2]", "pos[0]", "d[]", "d[x]", "d[1]x")}
    assert got == {"a": 2, "a[0]": 2, "a[2]": 4, "a[3]": -1, "d": 6, "d[0]": 6, "d[1]": 8, "d[2]": -1,
                   "pos[0]": -1, "d[]": -1, "d[x]": -1, "d[1]x": -1}
    expect(ctx, E.GL_NO_ERROR)
    glhelp.vertices(ctx, prog, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), {"pos": (2, 0)}, 2)
    ctx.glVertexAttrib1f(got["a[2]"], 7.0)
    ctx.glVertexAttrib2f(got["d[1]"], 1.0, 2.0)
    ctx.glVertexAttrib2f(got["d[1]"] + 1, 3.0, 4.0)
    for loc in (got["a[0]"], got["a[0]"] + 1, got["d[0]"], got["d[0]"] + 1):
        ctx.glVertexAttrib4f(loc, 0.0, 0.0, 0.0, 1.0)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (img.reshape(4, 4, 4) == [0, 255, 0, 255]).all()
