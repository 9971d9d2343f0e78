"""glGetAttribLocation of a name with the reserved prefix ``gl_`` is -1 (GL 4.6 section
11.1.1), also for a built-in input a compatibility shader reads (gl_Vertex is active:
glGetActiveAttrib lists it) - it has no generic attribute location."""

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import use_program


def test_gl_vertex_is_active_but_has_no_location():
    ctx = driver.Context(api="compat", width=4, height=4)
    prog = use_program(ctx, "attribute vec4 extra;\nvoid main() { gl_Position = gl_Vertex + extra; }",
                       "void main() { gl_FragColor = vec4(1.0); }")
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1]
    names = [ctx.glGetActiveAttrib(prog, i)[0]
             for i in range(ctx.glGetProgramiv(prog, E.GL_ACTIVE_ATTRIBUTES)[0])]
    assert sorted(names) == ["extra", "gl_Vertex"]
    assert ctx.glGetAttribLocation(prog, "gl_Vertex") == -1
    assert ctx.glGetAttribLocation(prog, "gl_Color") == -1
    assert ctx.glGetAttribLocation(prog, "extra") >= 0
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_built_in_inputs_report_their_declared_types():
    """glGetActiveAttrib of the compatibility profile's built-in inputs answers the type
    GLSL 1.10 section 7.3 declares: gl_FogCoord is a float, gl_Normal a vec3, the others
    vec4 (gl_FogCoord read as a vec4 before)."""
    ctx = driver.Context(api="compat", width=4, height=4)
    prog = use_program(ctx, "void main() { gl_Position = gl_Vertex + vec4(gl_FogCoord) + vec4(gl_Normal, 0.0)"
                            " + gl_Color + gl_MultiTexCoord3; }",
                       "void main() { gl_FragColor = vec4(1.0); }")
    got = {}
    for i in range(ctx.glGetProgramiv(prog, E.GL_ACTIVE_ATTRIBUTES)[0]):
        name, size, type_ = ctx.glGetActiveAttrib(prog, i)
        got[name] = (size, type_)
    assert got == {"gl_Vertex": (1, E.GL_FLOAT_VEC4), "gl_FogCoord": (1, E.GL_FLOAT),
                   "gl_Normal": (1, E.GL_FLOAT_VEC3), "gl_Color": (1, E.GL_FLOAT_VEC4),
                   "gl_MultiTexCoord3": (1, E.GL_FLOAT_VEC4)}
    assert ctx.glGetError() == E.GL_NO_ERROR
