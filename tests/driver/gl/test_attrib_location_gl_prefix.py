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
