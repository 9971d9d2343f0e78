"""Vertex arrays (GL 4.6 chapter 10, GLES 3.2 chapter 10)."""

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


def test_vao_lifecycle(es3):
    (v,) = es3.glGenVertexArrays(1)
    assert not es3.glIsVertexArray(v)
    es3.glBindVertexArray(v)
    assert es3.glIsVertexArray(v)
    assert es3.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) == [v]
    es3.glBindVertexArray(99)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glDeleteVertexArrays(1, [v])
    assert es3.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) == [0]


def test_element_buffer_is_vao_state(es3):
    (v,) = es3.glGenVertexArrays(1)
    (b,) = es3.glGenBuffers(1)
    es3.glBindVertexArray(v)
    es3.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, b)
    es3.glBindVertexArray(0)
    assert es3.glGetIntegerv(E.GL_ELEMENT_ARRAY_BUFFER_BINDING) == [0]
    es3.glBindVertexArray(v)
    assert es3.glGetIntegerv(E.GL_ELEMENT_ARRAY_BUFFER_BINDING) == [b]


def test_attrib_pointer_state(es3):
    (b,) = es3.glGenBuffers(1)
    es3.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    es3.glVertexAttribPointer(3, 2, E.GL_SHORT, True, 12, 8)
    es3.glEnableVertexAttribArray(3)
    es3.glVertexAttribDivisor(3, 2)
    q = lambda p: es3.glGetVertexAttribiv(3, p)[0]
    assert q(E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == 2
    assert q(E.GL_VERTEX_ATTRIB_ARRAY_TYPE) == E.GL_SHORT
    assert q(E.GL_VERTEX_ATTRIB_ARRAY_NORMALIZED) == 1
    assert q(E.GL_VERTEX_ATTRIB_ARRAY_STRIDE) == 12
    assert q(E.GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING) == b
    assert q(E.GL_VERTEX_ATTRIB_ARRAY_ENABLED) == 1
    assert q(E.GL_VERTEX_ATTRIB_ARRAY_DIVISOR) == 2
    assert es3.glGetVertexAttribPointerv(3, E.GL_VERTEX_ATTRIB_ARRAY_POINTER) == 8
    es3.glVertexAttribIPointer(4, 4, E.GL_UNSIGNED_BYTE, 0, 0)
    assert es3.glGetVertexAttribiv(4, E.GL_VERTEX_ATTRIB_ARRAY_INTEGER) == [1]


@pytest.mark.parametrize("args,code", [
    ((99, 4, E.GL_FLOAT, False, 0, 0), E.GL_INVALID_VALUE),            # index
    ((0, 5, E.GL_FLOAT, False, 0, 0), E.GL_INVALID_VALUE),             # size
    ((0, 4, E.GL_RGBA, False, 0, 0), E.GL_INVALID_ENUM),               # type
    ((0, 4, E.GL_FLOAT, False, -4, 0), E.GL_INVALID_VALUE),            # stride
    ((0, 3, E.GL_INT_2_10_10_10_REV, True, 0, 0), E.GL_INVALID_OPERATION),  # packed needs 4
])
def test_attrib_pointer_errors(es3, args, code):
    es3.glVertexAttribPointer(*args)
    expect(es3, code)
    assert es3.glGetVertexAttribiv(0, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [4]   # unchanged


def test_integer_pointer_rejects_float(es3):
    es3.glVertexAttribIPointer(0, 4, E.GL_FLOAT, 0, 0)
    expect(es3, E.GL_INVALID_ENUM)


def test_client_pointer_rejected_with_vao(es3):
    # ES 3.0 section 2.9.6: client arrays only with the default VAO
    (v,) = es3.glGenVertexArrays(1)
    es3.glBindVertexArray(v)
    es3.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, b"\0" * 16)
    expect(es3, E.GL_INVALID_OPERATION)


def test_core_profile_needs_a_vao():
    """Pointers need a VAO in core; enabling an array without one raises nothing, as
    in Mesa (tests/driver/gl/test_core_follows_mesa.py)."""
    c = make_ctx("gl33")
    c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    expect(c, E.GL_INVALID_OPERATION)
    c.glEnableVertexAttribArray(0)
    assert c.glGetError() == E.GL_NO_ERROR
    (v,) = c.glGenVertexArrays(1)
    c.glBindVertexArray(v)
    c.glEnableVertexAttribArray(0)
    assert c.glGetError() == E.GL_NO_ERROR


def test_bgra_size_desktop_only():
    gl = make_ctx("compat")
    gl.glVertexAttribPointer(0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, True, 0, b"\0" * 4)
    assert gl.glGetError() == E.GL_NO_ERROR
    gl.glVertexAttribPointer(0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, False, 0, b"\0" * 4)
    expect(gl, E.GL_INVALID_OPERATION)
    es = make_ctx("gles3")
    es.glVertexAttribPointer(0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, True, 0, b"\0" * 4)
    expect(es, E.GL_INVALID_VALUE)


def test_current_attribs(es3):
    es3.glVertexAttrib2f(1, 0.5, 2.0)
    assert es3.glGetVertexAttribfv(1, E.GL_CURRENT_VERTEX_ATTRIB) == [0.5, 2.0, 0.0, 1.0]
    es3.glVertexAttribI4i(2, -1, 2, -3, 4)
    assert es3.glGetVertexAttribIiv(2, E.GL_CURRENT_VERTEX_ATTRIB) == [-1, 2, -3, 4]
    es3.glVertexAttrib4f(16, 0, 0, 0, 0)
    expect(es3, E.GL_INVALID_VALUE)


def test_separate_format_and_binding():
    c = make_ctx("gles31")
    (v,) = c.glGenVertexArrays(1)
    (b,) = c.glGenBuffers(1)
    c.glBindVertexArray(v)
    c.glBindVertexBuffer(1, b, 64, 20)
    c.glVertexAttribFormat(0, 3, E.GL_FLOAT, False, 8)
    c.glVertexAttribBinding(0, 1)
    c.glVertexBindingDivisor(1, 3)
    assert c.glGetVertexAttribiv(0, E.GL_VERTEX_ATTRIB_BINDING) == [1]
    assert c.glGetVertexAttribiv(0, E.GL_VERTEX_ATTRIB_RELATIVE_OFFSET) == [8]
    assert c.glGetVertexAttribiv(0, E.GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING) == [b]
    assert c.glGetVertexAttribiv(0, E.GL_VERTEX_ATTRIB_ARRAY_DIVISOR) == [3]
    c.glVertexAttribFormat(0, 3, E.GL_FLOAT, False, 4096)
    expect(c, E.GL_INVALID_VALUE)
    es3 = make_ctx("gles3")
    es3.glVertexAttribBinding(0, 0)
    expect(es3, E.GL_INVALID_OPERATION)
