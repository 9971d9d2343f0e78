"""GL 4.6 section 7.3.1.1: REFERENCED_BY_<STAGE>_SHADER of a default-block uniform is 1
for the stages whose shaders use it, not for every stage of the program (piglit's
arb_program_interface_query-getprogramresourceiv: a fragment-only uniform was
reported as referenced by the vertex shader). Expected values from the shaders below."""

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

VS = """#version 150
uniform vec4 shared_value;
uniform vec4 vertex_only;
in vec4 position;
void main() { gl_Position = position * shared_value + vertex_only; }
"""
FS = """#version 150
uniform vec4 shared_value;
uniform vec4 fragment_only;
uniform vec4 declared_here_unused;
out vec4 color;
void main() { color = shared_value * fragment_only; }
"""


def test_each_uniform_names_the_stages_that_use_it():
    c = driver.Context(api="gl43", width=4, height=4)
    prog = c.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh, ok, log = compile_source(c, kind, src)
        assert ok, log
        c.glAttachShader(prog, sh)
    c.glLinkProgram(prog)
    assert c.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(prog)
    props = [E.GL_REFERENCED_BY_VERTEX_SHADER, E.GL_REFERENCED_BY_GEOMETRY_SHADER,
             E.GL_REFERENCED_BY_FRAGMENT_SHADER, E.GL_REFERENCED_BY_COMPUTE_SHADER]
    expected = {"shared_value": [1, 0, 1, 0], "vertex_only": [1, 0, 0, 0], "fragment_only": [0, 0, 1, 0]}
    for name, refs in expected.items():
        index = c.glGetProgramResourceIndex(prog, E.GL_UNIFORM, name)
        assert c.glGetProgramResourceiv(prog, E.GL_UNIFORM, index, len(props), props, 8) == refs, name
    assert c.glGetProgramResourceIndex(prog, E.GL_UNIFORM, "declared_here_unused") == E.GL_INVALID_INDEX
    assert c.glGetError() == E.GL_NO_ERROR
