"""Two shader objects of one stage declaring the same input, one with an explicit
location and one without, link with the explicit location (Mesa's
cross_validate_globals; piglit glsl-explicit-location-05); two different explicit
locations do not link."""

from __future__ import annotations

import driver
from driver.gl import enums as E

PLAIN = "#version 120\nattribute vec4 vertex;\nvoid main() { gl_Position = vertex; }\n"
PLACED = ("#version 120\n#extension GL_ARB_explicit_attrib_location : require\n"
          "layout(location = {loc}) in vec4 vertex;\nvec4 helper() {{ return vec4(1.0); }}\n")
FS = "#version 120\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n"


def _link(ctx, *vertex_sources) -> tuple[int, bool, str]:
    prog = ctx.glCreateProgram()
    for kind, src in [(E.GL_VERTEX_SHADER, s) for s in vertex_sources] + [(E.GL_FRAGMENT_SHADER, FS)]:
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    return prog, ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)


def test_the_explicit_location_of_one_object_holds_for_the_other():
    with driver.Context(api="compat", width=8, height=8) as ctx:
        for order in ((PLAIN, PLACED.format(loc=3)), (PLACED.format(loc=3), PLAIN)):
            prog, ok, log = _link(ctx, *order)
            assert ok, log
            assert ctx.glGetAttribLocation(prog, "vertex") == 3
        # and it draws from location 3: a quad over the whole window is green
        ctx.glUseProgram(prog)
        quad = [-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1]
        ctx.glVertexAttribPointer(3, 4, E.GL_FLOAT, False, 0, quad)
        ctx.glEnableVertexAttribArray(3)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        assert (ctx.read_pixels() == [0, 255, 0, 255]).all()


def test_two_different_explicit_locations_do_not_link():
    with driver.Context(api="compat", width=8, height=8) as ctx:
        _prog, ok, log = _link(ctx, PLAIN.replace("attribute vec4 vertex;", "#extension GL_ARB_explicit_attrib_location : require\nlayout(location = 1) in vec4 vertex;"),
                               PLACED.format(loc=2))
        assert not ok
        assert "vertex" in log
