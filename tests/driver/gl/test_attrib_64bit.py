"""GL_ARB_vertex_attrib_64bit (core in GL 4.1): glVertexAttribLPointer/LFormat (and
the DSA glVertexArrayAttribLFormat) keep double components exact into double, dvec
and dmat shader inputs (a dvec3/dvec4 takes two locations, GL 4.6 section 11.1.1),
glVertexAttribL*d current values, per-instance doubles, client arrays, the queries
(glGetVertexAttribLdv, VERTEX_ATTRIB_ARRAY_LONG) and the errors. Each fragment
compares what it received with the same doubles given as uniforms: white = exact."""

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


def _quad(ctx, loc):
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(loc)
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)


def _pixels(ctx, w=4):
    expect(ctx, E.GL_NO_ERROR)
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, w, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return px.reshape(w, 4).tolist()


def _setup(api="gl46"):
    ctx = glhelp.context(4, 1, api=api)
    p = glhelp.program(ctx, VS, FS)
    loc = {n: ctx.glGetAttribLocation(p, n) for n in ("pos", "d", "s", "e")}
    ctx.glUniform4dv(ctx.glGetUniformLocation(p, "want_d"), 1, D)
    ctx.glUniform1d(ctx.glGetUniformLocation(p, "want_s"), 1 / 7)
    ctx.glUniform3dv(ctx.glGetUniformLocation(p, "want_e"), 1, D[1:])
    return ctx, p, loc


def test_locations_count_two_for_dvec3_and_dvec4():
    ctx, p, loc = _setup()
    taken = {loc["pos"]} | set(range(loc["d"], loc["d"] + 2)) | {loc["s"]} | set(range(loc["e"], loc["e"] + 2))
    assert len(taken) == 6                        # no two inputs share a location


def test_arrays_and_current_values_arrive_exactly():
    ctx, p, loc = _setup()
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _quad(ctx, loc["pos"])
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32 * 4, np.tile(D, 4), E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(loc["d"])
    ctx.glVertexAttribLPointer(loc["d"], 4, E.GL_DOUBLE, 0, 0)
    ctx.glEnableVertexAttribArray(loc["e"])
    ctx.glVertexAttribLPointer(loc["e"], 3, E.GL_DOUBLE, 32, 8)         # D[1:] of each row
    ctx.glVertexAttribL1d(loc["s"], 1 / 7)                              # disabled array: current value
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx) == [[255, 255, 255, 255]] * 4
    ctx.glVertexAttribL1d(loc["s"], 1 / 7 + 2.0 ** -50)                 # differs below float precision
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx) == [[255, 0, 255, 255]] * 4


def test_current_values_of_a_dvec4_and_separate_formats():
    """d from glVertexAttribL4dv; e through glVertexAttribLFormat + glBindVertexBuffer
    (binding 3) and the DSA glVertexArrayAttribLFormat."""
    ctx, p, loc = _setup()
    (vao,) = ctx.glCreateVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _quad(ctx, loc["pos"])
    ctx.glVertexAttribL4dv(loc["d"], D)
    ctx.glVertexAttribL1d(loc["s"], 1 / 7)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 8 * 4, D, E.GL_STATIC_DRAW)
    ctx.glVertexArrayAttribLFormat(vao, loc["e"], 3, E.GL_DOUBLE, 8)
    ctx.glVertexAttribBinding(loc["e"], 3)
    ctx.glBindVertexBuffer(3, buf, 0, 0)                                # stride 0: every vertex the same
    ctx.glEnableVertexAttribArray(loc["e"])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx) == [[255, 255, 255, 255]] * 4
    assert ctx.glGetVertexAttribiv(loc["e"], E.GL_VERTEX_ATTRIB_ARRAY_LONG) == [1]
    assert ctx.glGetVertexAttribiv(loc["e"], E.GL_VERTEX_ATTRIB_RELATIVE_OFFSET) == [8]


def test_client_arrays_in_a_compatibility_context():
    ctx, p, loc = _setup("compat")
    ctx.glBindVertexArray(0)
    ctx.glEnableVertexAttribArray(loc["pos"])
    ctx.glVertexAttribPointer(loc["pos"], 2, E.GL_FLOAT, False, 0,
                              np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32))
    ctx.glEnableVertexAttribArray(loc["d"])
    ctx.glVertexAttribLPointer(loc["d"], 4, E.GL_DOUBLE, 0, np.tile(D, 4))
    ctx.glEnableVertexAttribArray(loc["e"])
    ctx.glVertexAttribLPointer(loc["e"], 3, E.GL_DOUBLE, 24, np.tile(D[1:], 4))
    ctx.glVertexAttribL1d(loc["s"], 1 / 7)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx) == [[255, 255, 255, 255]] * 4


INSTANCED_VS = """#version 410
in vec2 pos; in dvec2 k; in dmat2 m;
flat out int ok;
uniform dvec2 want[4];
void main() {
    int i = gl_InstanceID;
    gl_Position = vec4((pos.x + 1.0) * 0.25 + float(i) * 0.5 - 1.0, pos.y, 0.0, 1.0);
    ok = (k == want[i] && m[0] == want[i] * 2.0lf && m[1] == dvec2(1.0lf / 3.0lf, -0.0lf)) ? 1 : 0;
}
"""
INSTANCED_FS = """#version 410
flat in int ok;
layout(location = 0) out vec4 c;
void main() { c = vec4(float(ok), 0.0, 0.0, 1.0); }
"""


def test_per_instance_doubles_and_a_dmat2():
    """dvec2 k per instance (divisor 1, fetched by the shader), dmat2 m's columns at two
    locations (column 0 per instance, column 1 a current value); instance i draws column i."""
    ctx = glhelp.context(4, 1, api="gl46")
    p = glhelp.program(ctx, INSTANCED_VS, INSTANCED_FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _quad(ctx, ctx.glGetAttribLocation(p, "pos"))
    k = np.array([[0.1, 1e-310], [1e307, -3.0], [2.0 ** 60 + 1, 7.0], [-0.3, 1 / 9]], np.float64)
    ctx.glUniform2dv(ctx.glGetUniformLocation(p, "want"), 4, k)
    bufs = ctx.glGenBuffers(2)
    lk, lm = ctx.glGetAttribLocation(p, "k"), ctx.glGetAttribLocation(p, "m")
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, bufs[0])
    ctx.glBufferData(E.GL_ARRAY_BUFFER, k.nbytes, k, E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(lk)
    ctx.glVertexAttribLPointer(lk, 2, E.GL_DOUBLE, 0, 0)
    ctx.glVertexAttribDivisor(lk, 1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, bufs[1])
    ctx.glBufferData(E.GL_ARRAY_BUFFER, k.nbytes, k * 2, E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(lm)
    ctx.glVertexAttribLPointer(lm, 2, E.GL_DOUBLE, 0, 0)
    ctx.glVertexAttribDivisor(lm, 1)
    ctx.glVertexAttribL2d(lm + 1, 1 / 3, -0.0)
    ctx.glDrawArraysInstanced(E.GL_TRIANGLE_STRIP, 0, 4, 4)
    assert [px[0] for px in _pixels(ctx)] == [255, 255, 255, 255]


def test_queries():
    ctx = glhelp.context(4, 1, api="gl46")
    ctx.glVertexAttribL3d(2, 1 / 7, 1e300, -0.0)
    assert ctx.glGetVertexAttribLdv(2, E.GL_CURRENT_VERTEX_ATTRIB) == [1 / 7, 1e300, -0.0, 1.0]
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glVertexAttribLPointer(5, 3, E.GL_DOUBLE, 48, 16)
    assert ctx.glGetVertexAttribiv(5, E.GL_VERTEX_ATTRIB_ARRAY_LONG) == [1]
    assert ctx.glGetVertexAttribiv(5, E.GL_VERTEX_ATTRIB_ARRAY_TYPE) == [E.GL_DOUBLE]
    assert ctx.glGetVertexAttribiv(5, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [3]
    assert ctx.glGetVertexAttribiv(5, E.GL_VERTEX_ATTRIB_ARRAY_STRIDE) == [48]
    assert ctx.glGetVertexAttribLdv(5, E.GL_VERTEX_ATTRIB_ARRAY_STRIDE) == [48.0]
    ctx.glVertexAttribPointer(5, 3, E.GL_DOUBLE, False, 48, 16)        # converted to float: not long
    assert ctx.glGetVertexAttribiv(5, E.GL_VERTEX_ATTRIB_ARRAY_LONG) == [0]
    expect(ctx, E.GL_NO_ERROR)


def test_errors_change_nothing():
    ctx = glhelp.context(4, 1, api="gl46")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glVertexAttribLPointer(1, 2, E.GL_DOUBLE, 0, 0)
    for args, err in (((1, 2, E.GL_FLOAT, 0, 0), E.GL_INVALID_ENUM),
                      ((1, 5, E.GL_DOUBLE, 0, 0), E.GL_INVALID_VALUE),
                      ((1, 2, E.GL_DOUBLE, -8, 0), E.GL_INVALID_VALUE),
                      ((ctx.caps.max_vertex_attribs, 2, E.GL_DOUBLE, 0, 0), E.GL_INVALID_VALUE)):
        ctx.glVertexAttribLPointer(*args)
        expect(ctx, err)
    ctx.glVertexAttribLFormat(1, 2, E.GL_INT, 0)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glVertexAttribL1d(ctx.caps.max_vertex_attribs, 1.0)
    expect(ctx, E.GL_INVALID_VALUE)
    assert ctx.glGetVertexAttribiv(1, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [2]
    assert ctx.glGetVertexAttribiv(1, E.GL_VERTEX_ATTRIB_ARRAY_LONG) == [1]


def test_too_many_locations_fail_to_link():
    """Eight dvec4 inputs fill the 16 locations; a ninth input does not fit."""
    ctx = glhelp.context(4, 1, api="gl46")
    assert ctx.glGetIntegerv(E.GL_MAX_VERTEX_ATTRIBS) == [16]
    for n, ok in ((8, True), (9, False)):
        decl = "".join(f"in dvec4 a{i};\n" for i in range(n))
        use = " + ".join(f"a{i}.x" for i in range(n))
        vs = f"#version 410\n{decl}void main() {{ gl_Position = vec4(float({use})); }}\n"
        p = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, vs),
                          (E.GL_FRAGMENT_SHADER, "#version 410\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n")):
            s = ctx.glCreateShader(kind)
            ctx.glShaderSource(s, 1, [src])
            ctx.glCompileShader(s)
            assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [1]
            ctx.glAttachShader(p, s)
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [int(ok)], ctx.glGetProgramInfoLog(p)


@pytest.mark.parametrize("api", ["gles31"])
def test_not_in_gles(api):
    ctx = glhelp.context(4, 1, api=api)
    ctx.glVertexAttribL1d(0, 1.0)
    expect(ctx, E.GL_INVALID_OPERATION)


def test_the_extension_brings_double_inputs_to_glsl_150():
    """GLSL 1.50 with GL_ARB_gpu_shader_fp64 and GL_ARB_vertex_attrib_64bit (piglit's
    form); the compiler knows the extension (the GL line stays STAGE with fp64)."""
    from compiler.glsl import parse
    unit = parse("#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\n"
                 "#extension GL_ARB_vertex_attrib_64bit : require\n"
                 "in dvec4 d;\nvoid main() { gl_Position = vec4(d); }\n", "vertex")
    assert unit.extensions.get("GL_ARB_vertex_attrib_64bit") == "require"
