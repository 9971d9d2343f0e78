"""GL_ARB_occlusion_query2 is listed in GL 3.2 contexts, so GL_ANY_SAMPLES_PASSED is a query
target there (it was refused below 3.3 with INVALID_ENUM while the extension was listed;
likewise GL_ANY_SAMPLES_PASSED_CONSERVATIVE wherever GL_ARB_ES3_compatibility is).
A clear-only query passes no sample (0), a full-screen triangle does (1)."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

VS = "#version 150\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS = "#version 150\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"


def _names(ctx):
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


def test_any_samples_passed_in_a_3_2_context():
    with driver.Context(api="gl32", width=4, height=4) as ctx:
        assert "GL_ARB_occlusion_query2" in _names(ctx)
        prog = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
            sh = ctx.glCreateShader(kind)
            ctx.glShaderSource(sh, 1, [src])
            ctx.glCompileShader(sh)
            ctx.glAttachShader(prog, sh)
        ctx.glBindAttribLocation(prog, 0, "p")
        ctx.glLinkProgram(prog)
        ctx.glUseProgram(prog)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        tri = np.array([-1, -1, 3, -1, -1, 3], np.float32)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        q = ctx.glGenQueries(2)
        ctx.glBeginQuery(E.GL_ANY_SAMPLES_PASSED, q[0])
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEndQuery(E.GL_ANY_SAMPLES_PASSED)
        ctx.glBeginQuery(E.GL_ANY_SAMPLES_PASSED, q[1])
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        ctx.glEndQuery(E.GL_ANY_SAMPLES_PASSED)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert [ctx.glGetQueryObjectuiv(x, E.GL_QUERY_RESULT)[0] for x in q] == [0, 1]
        conservative = "GL_ARB_ES3_compatibility" in _names(ctx)
        ctx.glBeginQuery(E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE, ctx.glGenQueries(1)[0])
        ctx.glEndQuery(E.GL_ANY_SAMPLES_PASSED_CONSERVATIVE)
        assert ctx.glGetError() == (E.GL_NO_ERROR if conservative else E.GL_INVALID_ENUM)
