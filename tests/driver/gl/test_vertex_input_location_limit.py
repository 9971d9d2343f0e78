"""A vertex input whose explicit location passes GL_MAX_VERTEX_ATTRIBS compiles and fails
to link (GLSL 3.30 section 4.3.8.1 and ARB_explicit_attrib_location: the attribute slots
are the linker's to check; Mesa does the same, and piglit's glsl-explicit-location-04
expects the compile to succeed). The shader used to fail to compile."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

FS = "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"


def _vs(location: int, type_: str = "vec4") -> str:
    use = "v" if type_ == "vec4" else "v[0], v[1]"
    return (f"#version 330\nlayout(location = {location}) in {type_} v;\n"
            f"void main() {{ gl_Position = vec4({use}); }}\n")


@pytest.mark.parametrize("offset,type_,links", [(-1, "vec4", True), (0, "vec4", False),
                                                (-1, "mat2", False), (-2, "mat2", True),
                                                (1000, "vec4", False)])
def test_locations_against_max_vertex_attribs(offset, type_, links):
    c = driver.Context("gl33", 4, 4)
    max_attribs = c.glGetIntegerv(E.GL_MAX_VERTEX_ATTRIBS)[0]
    location = offset if offset >= 1000 else max_attribs + offset
    prog = c.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, _vs(location, type_)), (E.GL_FRAGMENT_SHADER, FS)):
        sh, ok, log = compile_source(c, kind, src)
        assert ok, log                      # every one compiles
        c.glAttachShader(prog, sh)
    c.glLinkProgram(prog)
    assert bool(c.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]) == links
    if not links:
        assert f"location {location} exceeds MAX_VERTEX_ATTRIBS" in c.glGetProgramInfoLog(prog)
