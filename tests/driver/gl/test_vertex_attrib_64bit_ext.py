"""GL_EXT_vertex_attrib_64bit: the EXT entry points (glVertexAttribL{1,2,3,4}d[v]EXT,
glVertexAttribLPointerEXT, glGetVertexAttribLdvEXT and EXT_direct_state_access's
glVertexArrayVertexAttribLOffsetEXT) over ARB_vertex_attrib_64bit's machinery: doubles
arrive exactly (each fragment compares what it received with the same doubles given
as uniforms: white = exact), the queries and the errors. As in Mesa the EXT name has no
GLSL directive of its own (double inputs: GLSL 4.10 or GL_ARB_vertex_attrib_64bit)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

D = np.array([1 / 3, 1e300, -2.5, 2.0 ** -1074], np.float64)      # not representable as floats

VS = """#version 410
in vec2 pos; in dvec4 d; in double s; in dvec3 e;
flat out dvec4 od; flat out double os; flat out dvec3 oe;
void main() { gl_Position = vec4(pos, 0.0, 1.0); od = d; os = s; oe = e; }
"""
FS = """#version 410
flat in dvec4 od; flat in double os; flat in dvec3 oe;
layout(location = 0) out vec4 c;
uniform dvec4 want_d; uniform double want_s; uniform dvec3 want_e;
void main() { c = vec4(od == want_d ? 1.0 : 0.0, os == want_s ? 1.0 : 0.0, oe == want_e ? 1.0 : 0.0, 1.0); }
"""


def _names(ctx):
    if ctx.api.compat:
        return ctx.glGetString(E.GL_EXTENSIONS).split()
    return [ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]


def _setup(api):
    ctx = glhelp.context(4, 1, api=api)
    assert "GL_EXT_vertex_attrib_64bit" in _names(ctx)
    p = glhelp.program(ctx, VS, FS)
    loc = {n: ctx.glGetAttribLocation(p, n) for n in ("pos", "d", "s", "e")}
    ctx.glUniform4dv(ctx.glGetUniformLocation(p, "want_d"), 1, D)
    ctx.glUniform1d(ctx.glGetUniformLocation(p, "want_s"), 1 / 7)
    ctx.glUniform3dv(ctx.glGetUniformLocation(p, "want_e"), 1, D[1:])
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(loc["pos"])
    ctx.glVertexAttribPointer(loc["pos"], 2, E.GL_FLOAT, False, 0, 0)
    return ctx, p, loc, vao


def _pixels(ctx, w=4):
    expect(ctx, E.GL_NO_ERROR)
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, w, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return px.reshape(w, 4).tolist()


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_current_values_and_arrays_through_the_ext_commands(api):
    ctx, p, loc, vao = _setup(api)
    ctx.glVertexAttribL4dvEXT(loc["d"], D)
    ctx.glVertexAttribL1dEXT(loc["s"], 1 / 7)
    (dbuf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, dbuf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 4 * 3 * 8, np.tile(D[1:], 4), E.GL_STATIC_DRAW)
    ctx.glVertexAttribLPointerEXT(loc["e"], 3, E.GL_DOUBLE, 24, 0)
    ctx.glEnableVertexAttribArray(loc["e"])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx) == [[255, 255, 255, 255]] * 4
    assert ctx.glGetVertexAttribiv(loc["e"], E.GL_VERTEX_ATTRIB_ARRAY_LONG) == [1]
    assert ctx.glGetVertexAttribLdvEXT(loc["e"], E.GL_VERTEX_ATTRIB_ARRAY_STRIDE) == [24.0]
    assert ctx.glGetVertexAttribLdvEXT(loc["d"], E.GL_CURRENT_VERTEX_ATTRIB) == list(D)
    # the other immediate forms, each read back exactly (missing components: 0, 0, 1)
    for n, args in ((2, (1 / 3, 1e300)), (3, (1 / 3, 1e300, -2.5)), (4, tuple(D))):
        getattr(ctx, f"glVertexAttribL{n}dEXT")(7, *args)
        assert ctx.glGetVertexAttribLdvEXT(7, E.GL_CURRENT_VERTEX_ATTRIB) == list(args) + [0.0, 0.0, 1.0][n - 1:][:4 - n]
        getattr(ctx, f"glVertexAttribL{n}dvEXT")(6, list(args))
        assert ctx.glGetVertexAttribLdvEXT(6, E.GL_CURRENT_VERTEX_ATTRIB) == list(args) + [0.0, 0.0, 1.0][n - 1:][:4 - n]
    ctx.glVertexAttribL1dvEXT(5, [2.0 ** -1074])
    assert ctx.glGetVertexAttribLdvEXT(5, E.GL_CURRENT_VERTEX_ATTRIB) == [2.0 ** -1074, 0.0, 0.0, 1.0]


def test_direct_state_access_offset_command():
    """EXT_direct_state_access + EXT_vertex_attrib_64bit: glVertexArrayVertexAttribLOffsetEXT
    sets a vertex array object's double array without binding it."""
    ctx, p, loc, vao = _setup("compat")
    ctx.glVertexAttribL4dvEXT(loc["d"], D)
    ctx.glVertexAttribL1dEXT(loc["s"], 1 / 7)
    (dbuf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, dbuf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 8 + 4 * 3 * 8, np.concatenate(([0.0], np.tile(D[1:], 4))), E.GL_STATIC_DRAW)
    ctx.glBindVertexArray(0)
    ctx.glVertexArrayVertexAttribLOffsetEXT(vao, dbuf, loc["e"], 3, E.GL_DOUBLE, 24, 8)
    ctx.glBindVertexArray(vao)
    ctx.glEnableVertexAttribArray(loc["e"])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx) == [[255, 255, 255, 255]] * 4
    assert ctx.glGetVertexAttribiv(loc["e"], E.GL_VERTEX_ATTRIB_ARRAY_LONG) == [1]
    assert ctx.glGetVertexAttribiv(loc["e"], E.GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING) == [dbuf]


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_errors_change_nothing(api):
    ctx, p, loc, vao = _setup(api)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glVertexAttribLPointerEXT(1, 2, E.GL_DOUBLE, 0, 0)
    for args, err in (((1, 2, E.GL_FLOAT, 0, 0), E.GL_INVALID_ENUM),
                      ((1, 5, E.GL_DOUBLE, 0, 0), E.GL_INVALID_VALUE),
                      ((1, 2, E.GL_DOUBLE, -8, 0), E.GL_INVALID_VALUE),
                      ((ctx.caps.max_vertex_attribs, 2, E.GL_DOUBLE, 0, 0), E.GL_INVALID_VALUE)):
        ctx.glVertexAttribLPointerEXT(*args)
        expect(ctx, err)
    ctx.glVertexAttribL1dEXT(ctx.caps.max_vertex_attribs, 1.0)
    expect(ctx, E.GL_INVALID_VALUE)
    assert ctx.glGetVertexAttribiv(1, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [2]
    assert ctx.glGetVertexAttribiv(1, E.GL_VERTEX_ATTRIB_ARRAY_TYPE) == [E.GL_DOUBLE]


def test_active_attribute_types_are_the_ext_enums():
    """The EXT names of the double types are the core values GetActiveAttrib answers."""
    ctx, p, loc, vao = _setup("compat")
    types = {ctx.glGetActiveAttrib(p, i)[0]: ctx.glGetActiveAttrib(p, i)[2]
             for i in range(ctx.glGetProgramiv(p, E.GL_ACTIVE_ATTRIBUTES)[0])}
    assert types["d"] == 0x8FFE and types["e"] == 0x8FFD and types["s"] == E.GL_DOUBLE   # DOUBLE_VEC4/3_EXT


def test_no_glsl_directive_and_not_in_gles():
    ctx = glhelp.context(4, 1, api="compat")
    sh = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderSource(sh, 1, ["#version 150\n#extension GL_EXT_vertex_attrib_64bit : require\n"
                               "void main() { gl_Position = vec4(0.0); }\n"])
    ctx.glCompileShader(sh)
    assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [0]          # Mesa: "unsupported"
    es = glhelp.context(4, 1, api="gles32")
    assert "GL_EXT_vertex_attrib_64bit" not in _names(es)
    es.glVertexAttribL1dEXT(0, 1.0)
    expect(es, E.GL_INVALID_OPERATION)
