"""Subroutine uniform locations are a space of their own per stage (GL 4.6 section
7.9): `layout(location = 3) subroutine uniform` in the vertex, geometry and fragment
shaders of one program link (they collided with each other as default-block uniform
locations: "location 3 overlaps another"), and glGetProgramResourceLocation answers
them for the *_SUBROUTINE_UNIFORM interfaces (INVALID_ENUM before); piglit
arb_program_interface_query-resource-location. Locations by hand."""

from __future__ import annotations

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def _src(stage: str, extra: str, body: str) -> str:
    return f"""#version 150
#extension GL_ARB_explicit_uniform_location : require
#extension GL_ARB_shader_subroutine : require
{extra}
subroutine vec4 {stage}_t();
layout(location = 3) subroutine uniform {stage}_t {stage.upper()};
subroutine({stage}_t) vec4 f() {{ return vec4(1.0, 0.0, 0.0, 0.0); }}
{body}
"""


VS = _src("vs", "in vec4 v;", "void main() { gl_Position = v + VS(); }")
GS = _src("gs", "layout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;",
          "void main() { for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position + GS(); "
          "EmitVertex(); } EndPrimitive(); }")
FS = _src("fs", "out vec4 o;\nlayout(location = 3) uniform float k;", "void main() { o = FS() * k; }")


def test_the_same_subroutine_location_in_three_stages():
    ctx = driver.Context(api="gl46", width=4, height=4)
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, GS), (E.GL_FRAGMENT_SHADER, FS)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    assert ctx.glGetUniformLocation(prog, "k") == 3          # the uniforms' own location 3
    for interface, name in ((E.GL_VERTEX_SUBROUTINE_UNIFORM, "VS"), (E.GL_GEOMETRY_SUBROUTINE_UNIFORM, "GS"),
                            (E.GL_FRAGMENT_SUBROUTINE_UNIFORM, "FS")):
        assert ctx.glGetProgramResourceLocation(prog, interface, name) == 3
        assert ctx.glGetProgramResourceLocation(prog, interface, "nothing") == -1
    assert ctx.glGetProgramResourceLocation(prog, E.GL_COMPUTE_SUBROUTINE_UNIFORM, "VS") == -1
    expect(ctx, E.GL_NO_ERROR)
    ctx.glGetProgramResourceLocation(prog, E.GL_ATOMIC_COUNTER_BUFFER, "VS")
    expect(ctx, E.GL_INVALID_ENUM)
