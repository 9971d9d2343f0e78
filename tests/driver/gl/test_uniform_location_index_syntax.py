"""An array element's name takes a decimal index without sign, spaces or leading zeros
(ARB_program_interface_query, "bug 9254"; piglit arb_program_interface_query
resource-location's array cases): "array[01]" names nothing, as "array[+1]" and
"array[ 0]" do, for glGetUniformLocation and glGetProgramResourceLocation alike."""

from __future__ import annotations

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def test_leading_zeros_name_no_element():
    ctx = driver.Context(api="gl46", width=4, height=4)
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, "#version 430\nvoid main() { gl_Position = vec4(0.0); }"),
                      (E.GL_FRAGMENT_SHADER, "#version 430\nlayout(location = 1) uniform float array[4];\n"
                                             "out vec4 o;\nvoid main() { o = vec4(array[2] + array[3]); }")):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    for name, want in (("array", 1), ("array[0]", 1), ("array[1]", 2), ("array[3]", 4), ("array[10]", -1),
                       ("array[01]", -1), ("array[00]", -1), ("array[+1]", -1), ("array[ 0]", -1)):
        assert ctx.glGetUniformLocation(prog, name) == want, name
        assert ctx.glGetProgramResourceLocation(prog, E.GL_UNIFORM, name) == want, name
    expect(ctx, E.GL_NO_ERROR)
