"""glUniform* errors and storage (GL 4.6 section 7.6.1, GLES 3.2 section 7.6.1)."""

import struct

import pytest

from driver.gl import enums as E
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_programs import program


@pytest.fixture
def prog(es3):
    p = program(es3)
    es3.glUseProgram(p)
    return es3, p


def test_no_current_program(es3):
    es3.glUniform1f(0, 1.0)
    expect(es3, E.GL_INVALID_OPERATION)


def test_set_and_get_vector(prog):
    c, p = prog
    loc = c.glGetUniformLocation(p, "tint")
    c.glUniform4f(loc, 0.25, 0.5, 0.75, 1.0)
    assert c.glGetUniformfv(p, loc) == [0.25, 0.5, 0.75, 1.0]
    c.glUniform4fv(loc, 1, [1, 2, 3, 4])
    assert c.glGetUniformiv(p, loc) == [1, 2, 3, 4]


def test_location_minus_one_is_ignored(prog):
    c, _ = prog
    c.glUniform1f(-1, 3.0)
    assert c.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("call,code", [
    (lambda c, l: c.glUniform3f(l["tint"], 1, 2, 3), E.GL_INVALID_OPERATION),    # size
    (lambda c, l: c.glUniform4i(l["tint"], 1, 2, 3, 4), E.GL_INVALID_OPERATION), # type
    (lambda c, l: c.glUniform1f(l["tex"], 1.0), E.GL_INVALID_OPERATION),         # sampler
    (lambda c, l: c.glUniform1i(l["tex"], 100000), E.GL_INVALID_VALUE),          # unit range
    (lambda c, l: c.glUniform4fv(l["tint"], 2, [0] * 8), E.GL_INVALID_OPERATION), # not array
    (lambda c, l: c.glUniform1fv(l["scale"], -1, []), E.GL_INVALID_VALUE),
    (lambda c, l: c.glUniform1f(9999, 1.0), E.GL_INVALID_OPERATION),             # bad location
    (lambda c, l: c.glUniformMatrix3fv(l["mvp"], 1, False, [0] * 9), E.GL_INVALID_OPERATION),
    (lambda c, l: c.glUniform1ui(l["light.n"], 1), E.GL_INVALID_OPERATION),
])
def test_errors(prog, call, code):
    c, p = prog
    locs = {n: c.glGetUniformLocation(p, n) for n in ("tint", "tex", "scale", "mvp", "light.n")}
    before = bytes(c.current_program.linked_state.uniform_data)
    call(c, locs)
    expect(c, code)
    assert bytes(c.current_program.linked_state.uniform_data) == before   # no change on error


def test_arrays_partial_and_overflow(prog):
    c, p = prog
    loc = c.glGetUniformLocation(p, "scale[1]")
    c.glUniform1fv(loc, 5, [7, 8, 9, 10, 11])      # extra elements are ignored
    assert c.glGetError() == E.GL_NO_ERROR
    base = c.glGetUniformLocation(p, "scale")
    assert [c.glGetUniformfv(p, base + i)[0] for i in range(3)] == [0.0, 7.0, 8.0]


def test_matrix_transpose_and_storage(prog):
    c, p = prog
    loc = c.glGetUniformLocation(p, "mvp")
    vals = list(range(16))
    c.glUniformMatrix4fv(loc, 1, True, vals)
    got = c.glGetUniformfv(p, loc)
    assert got[:4] == [0.0, 4.0, 8.0, 12.0]          # first column of the transposed matrix
    u, _ = c.current_program.linked_state.locations[loc]
    data = c.current_program.linked_state.uniform_data
    assert struct.unpack_from("<4f", data, u.offset_B + 16) == (1.0, 5.0, 9.0, 13.0)


def test_int_uniform_and_sampler(prog):
    c, p = prog
    c.glUniform1i(c.glGetUniformLocation(p, "light.n"), -3)
    assert c.glGetUniformiv(p, c.glGetUniformLocation(p, "light.n")) == [-3]
    c.glUniform1i(c.glGetUniformLocation(p, "tex"), 5)
    assert c.glGetUniformiv(p, c.glGetUniformLocation(p, "tex")) == [5]


def test_get_uniform_needs_a_linked_program(es3):
    p = es3.glCreateProgram()
    es3.glGetUniformfv(p, 0)
    expect(es3, E.GL_INVALID_OPERATION)


def test_uniform_initializers_are_the_values_after_link():
    from tests.driver.gl.conftest import make_ctx
    c = make_ctx("compat")
    fs = """#version 120
struct S { float a; int c; };
uniform float x = 2.5;
uniform vec3 v = vec3(1.0, 2.0, 3.0);
uniform int i[2] = int[2](4, 5);
uniform mat2 m = mat2(1.0, 2.0, 3.0, 4.0);
uniform bool b = true;
uniform S s = S(1.5, 7);
void main() { gl_FragColor = vec4(x) + vec4(v, 1.0) + float(i[1]) + m[0].x + float(b) + s.a + float(s.c); }
"""
    p = program(c, vs=None, fs=fs)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    loc = lambda n: c.glGetUniformLocation(p, n)              # noqa: E731
    assert c.glGetUniformfv(p, loc("x")) == [2.5]
    assert c.glGetUniformfv(p, loc("v")) == [1.0, 2.0, 3.0]
    assert c.glGetUniformiv(p, loc("i[1]")) == [5]
    assert c.glGetUniformfv(p, loc("m")) == [1.0, 2.0, 3.0, 4.0]
    assert c.glGetUniformiv(p, loc("b")) == [1]
    assert c.glGetUniformfv(p, loc("s.a")) == [1.5] and c.glGetUniformiv(p, loc("s.c")) == [7]
