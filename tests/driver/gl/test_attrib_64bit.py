"""GL_ARB_vertex_attrib_64bit (core in GL 4.1): glVertexAttribLPointer/LFormat (and
the DSA glVertexArrayAttribLFormat) keep double components exact into double, dvec
and dmat shader inputs (a dvec3/dvec4 takes one location, GLSL 4.60 section 4.4.1,
and counts twice against MAX_VERTEX_ATTRIBS, GL 4.6 section 11.1.1),
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
    """GLSL 4.60 section 4.4.1: a vertex input of any scalar or vector type, dvec3 and
    dvec4 included, consumes one location: the four inputs take locations 0-3, as
    glGetAttribLocation, glGetActiveAttrib and the GL_PROGRAM_INPUT queries say (the
    "two" is only what they count against MAX_VERTEX_ATTRIBS: see
    test_too_many_locations_fail_to_link)."""
    ctx, p, loc = _setup()
    assert sorted(loc.values()) == [0, 1, 2, 3]
    active = {}
    for i in range(ctx.glGetProgramiv(p, E.GL_ACTIVE_ATTRIBUTES)[0]):
        name, size, gl_type = ctx.glGetActiveAttrib(p, i)
        active[name] = (size, gl_type)
    assert active == {"pos": (1, E.GL_FLOAT_VEC2), "d": (1, E.GL_DOUBLE_VEC4), "s": (1, E.GL_DOUBLE),
                      "e": (1, E.GL_DOUBLE_VEC3)}
    for name in ("d", "e"):
        i = ctx.glGetProgramResourceIndex(p, E.GL_PROGRAM_INPUT, name)
        vals = ctx.glGetProgramResourceiv(p, E.GL_PROGRAM_INPUT, i, 1, [E.GL_LOCATION], 1)
        assert (vals[1] if isinstance(vals, tuple) else vals)[0] == loc[name]


ADJACENT_VS = """#version 410
layout(location = 0) in dvec4 a;
layout(location = 1) in dvec3 b;
layout(location = 2) in dmat4x3 m;       // locations 2-5, one per column
layout(location = 6) in vec2 pos;
layout(location = 7) in double t;
flat out int ok;
uniform dvec4 want_a; uniform dvec3 want_b; uniform dmat4x3 want_m; uniform double want_t;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    ok = int(a == want_a) + 2 * int(b == want_b) + 4 * int(m == want_m) + 8 * int(t == want_t);
}
"""
OK_FS = """#version 410
flat in int ok;
layout(location = 0) out vec4 c;
void main() { c = vec4(float(ok & 3) / 3.0, float(ok >> 2) / 3.0, 0.0, 1.0); }
"""


def _draw_adjacent(ctx, p, arrays: bool):
    """Each double input at its own location, from glVertexAttribLPointer arrays (one
    buffer, rows of 4 + 3 + 12 + 1 doubles) or from glVertexAttribL*d current values."""
    rng = np.random.default_rng(7)
    a, b, m, t = rng.normal(size=4) * 1e10 / 3, rng.normal(size=3) / 7, rng.normal(size=(4, 3)) / 11, 1 / 13
    ctx.glUniform4dv(ctx.glGetUniformLocation(p, "want_a"), 1, a)
    ctx.glUniform3dv(ctx.glGetUniformLocation(p, "want_b"), 1, b)
    ctx.glUniformMatrix4x3dv(ctx.glGetUniformLocation(p, "want_m"), 1, False, m.reshape(-1))
    ctx.glUniform1d(ctx.glGetUniformLocation(p, "want_t"), t)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _quad(ctx, 6)
    if arrays:
        row = np.concatenate([a, b, m.reshape(-1), [t]])
        (buf,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, row.nbytes * 4, np.tile(row, 4), E.GL_STATIC_DRAW)
        stride = row.nbytes
        for loc, size, first in ((0, 4, 0), (1, 3, 4), (2, 3, 7), (3, 3, 10), (4, 3, 13), (5, 3, 16),
                                 (7, 1, 19)):
            ctx.glEnableVertexAttribArray(loc)
            ctx.glVertexAttribLPointer(loc, size, E.GL_DOUBLE, stride, 8 * first)
    else:
        ctx.glVertexAttribL4d(0, *a)
        ctx.glVertexAttribL3d(1, *b)
        for c in range(4):
            ctx.glVertexAttribL3d(2 + c, *m[c])
        ctx.glVertexAttribL1d(7, t)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    return _pixels(ctx)


@pytest.mark.parametrize("arrays", [True, False], ids=["arrays", "current_values"])
def test_adjacent_explicit_locations_read_their_own_doubles(arrays):
    """dvec4, dvec3 and a dmat4x3's columns at consecutive explicit locations (a link
    error while a dvec3/dvec4 took two): every value arrives exactly, so each location
    reads its own array (ok = 15: (255, 255, 0, 255))."""
    ctx = glhelp.context(4, 1, api="gl46")
    p = glhelp.program(ctx, ADJACENT_VS, OK_FS)
    assert [ctx.glGetAttribLocation(p, n) for n in ("a", "b", "m", "pos", "t")] == [0, 1, 2, 6, 7]
    assert _draw_adjacent(ctx, p, arrays) == [[255, 255, 0, 255]] * 4


def test_bound_locations_follow_the_same_rule():
    """glBindAttribLocation puts the dvec4 and the dmat4x3 columns at consecutive
    locations the same way (a linker-assigned location is the lowest free one: t after
    m's four columns)."""
    ctx = glhelp.context(4, 1, api="gl46")
    vs = ADJACENT_VS.replace("layout(location = 0) ", "").replace("layout(location = 1) ", "") \
        .replace("layout(location = 2) ", "").replace("layout(location = 7) ", "")
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, glhelp.compile_shader(ctx, E.GL_VERTEX_SHADER, vs))
    ctx.glAttachShader(p, glhelp.compile_shader(ctx, E.GL_FRAGMENT_SHADER, OK_FS))
    for name, loc in (("a", 0), ("b", 1), ("m", 2)):
        ctx.glBindAttribLocation(p, loc, name)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    assert [ctx.glGetAttribLocation(p, n) for n in ("a", "b", "m", "pos", "t")] == [0, 1, 2, 6, 7]
    assert _draw_adjacent(ctx, p, True) == [[255, 255, 0, 255]] * 4


ALIASED_VS = """#version 410
layout(location = 0) in vec2 pos;
layout(location = 1) in dvec3 c0;
layout(location = 1) in dvec3 c1;
layout(location = 2) in dvec4 after;
uniform int which;
out vec4 colour;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    colour = which == 0 ? vec4(vec3(c0), 1.0) : which == 1 ? vec4(vec3(c1), 1.0) : vec4(after);
}
"""
COLOUR_FS = """#version 410
in vec4 colour;
out vec4 c;
void main() { c = colour; }
"""


def test_aliased_dvec3_inputs_in_desktop_gl():
    """GL 4.6 section 11.1.1 / GLSL 4.60 section 4.4.1: two vertex inputs may share a
    location (each path reading one of them); c0 and c1 both read location 1's array,
    and the dvec4 at location 2 its own."""
    ctx = glhelp.context(4, 1, api="compat")
    p = glhelp.program(ctx, ALIASED_VS, COLOUR_FS)
    assert [ctx.glGetAttribLocation(p, n) for n in ("c0", "c1", "after")] == [1, 1, 2]
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _quad(ctx, 0)
    ctx.glVertexAttribL3d(1, 0.25, 0.5, 1.0)
    ctx.glVertexAttribL4d(2, 1.0, 0.0, 0.5, 1.0)
    got = []
    for which in range(3):
        ctx.glUniform1i(ctx.glGetUniformLocation(p, "which"), which)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        got.append(_pixels(ctx)[0])
    # 0.25 * 255 = 63.75 and 0.5 * 255 = 127.5 round to 64 and 128
    assert got == [[64, 128, 255, 255], [64, 128, 255, 255], [255, 0, 128, 255]]


def test_dvec4_at_the_last_location_fits():
    """A dvec4 at location MAX_VERTEX_ATTRIBS - 1 takes that one location (it exceeded
    the limit while it took two)."""
    ctx = glhelp.context(4, 1, api="gl46")
    vs = ("#version 410\nlayout(location = 15) in dvec4 d;\nin vec2 pos;\nflat out int ok;\n"
          "uniform dvec4 want;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); ok = 4 * int(d == want); }\n")
    p = glhelp.program(ctx, vs, OK_FS)
    assert ctx.glGetAttribLocation(p, "d") == 15
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _quad(ctx, ctx.glGetAttribLocation(p, "pos"))
    ctx.glUniform4dv(ctx.glGetUniformLocation(p, "want"), 1, D)
    ctx.glVertexAttribL4dv(15, D)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert _pixels(ctx) == [[0, 85, 0, 255]] * 4


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


@pytest.mark.parametrize("decls, ok", [
    (["dvec4"] * 8, True), (["dvec4"] * 9, False),             # 8 locations counting 16; 9 counting 18
    (["float"] * 14 + ["dvec3"], True), (["float"] * 15 + ["dvec3"], False),
    (["dmat4"] * 2, True), (["dmat4"] * 2 + ["double"], False),
    (["dmat2"] * 8, True)])                                     # dvec2 columns count once
def test_too_many_locations_fail_to_link(decls, ok):
    """GL 4.6 section 11.1.1: dvec3, dvec4 and matrices of such columns count twice
    against MAX_VERTEX_ATTRIBS (16): eight dvec4 inputs fit, nine do not, although
    each takes one location."""
    ctx = glhelp.context(4, 1, api="gl46")
    assert ctx.glGetIntegerv(E.GL_MAX_VERTEX_ATTRIBS) == [16]
    first = {"float": "", "double": "", "dvec3": ".x", "dvec4": ".x", "dmat4": "[0].x", "dmat2": "[0].x"}
    decl = "".join(f"in {t} a{i};\n" for i, t in enumerate(decls))
    use = " + ".join(f"float(a{i}{first[t]})" for i, t in enumerate(decls))     # every input active
    vs = f"#version 410\n{decl}void main() {{ gl_Position = vec4({use}); }}\n"
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs),
                      (E.GL_FRAGMENT_SHADER, "#version 410\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n")):
        ctx.glAttachShader(p, glhelp.compile_shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [int(ok)], ctx.glGetProgramInfoLog(p)
    if not ok:
        assert "MAX_VERTEX_ATTRIBS" in ctx.glGetProgramInfoLog(p) or "too many" in ctx.glGetProgramInfoLog(p)


@pytest.mark.parametrize("api", ["gles31"])
def test_not_in_gles(api):
    ctx = glhelp.context(4, 1, api=api)
    ctx.glVertexAttribL1d(0, 1.0)
    expect(ctx, E.GL_INVALID_OPERATION)


def test_the_extension_brings_double_inputs_to_glsl_150():
    """GLSL 1.50 with GL_ARB_gpu_shader_fp64 and GL_ARB_vertex_attrib_64bit (piglit's
    form); the compiler knows the extension (the listed GL side: test_va64_spirv_listed)."""
    from compiler.glsl import parse
    unit = parse("#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\n"
                 "#extension GL_ARB_vertex_attrib_64bit : require\n"
                 "in dvec4 d;\nvoid main() { gl_Position = vec4(d); }\n", "vertex")
    assert unit.extensions.get("GL_ARB_vertex_attrib_64bit") == "require"
