"""Creating vertex array objects costs O(objects), not O(objects x attributes):
glCreateVertexArrays / glGenVertexArrays of tens of thousands of names make no
per-attribute state until an array is used, and a used array still answers the
initial state GL 4.6 table 23.4 names."""

from __future__ import annotations

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

N = 65535


def test_sixty_five_thousand_created_arrays_are_arrays_without_attribute_state():
    with driver.Context("gl45", 8, 8) as ctx:
        g = ctx.gl
        names = g.glCreateVertexArrays(N)
        expect(g, E.GL_NO_ERROR)
        assert len(names) == N and len(set(names)) == N and 0 not in names
        assert g.glIsVertexArray(names[0]) and g.glIsVertexArray(names[-1])    # created = bound once
        made = [g.vertex_arrays.get(n) for n in names]
        assert all(v is not None for v in made)
        # nothing per attribute was built for arrays nobody touched
        assert sum(v._attribs is not None or v._bindings is not None for v in made) == 0
        g.glDeleteVertexArrays(N, names)
        expect(g, E.GL_NO_ERROR)
        assert not g.glIsVertexArray(names[0]) and g.vertex_arrays.get(names[-1]) is None


def test_a_lazily_made_array_answers_the_initial_state():
    with driver.Context("gl45", 8, 8) as ctx:
        g = ctx.gl
        a, b = g.glCreateVertexArrays(2)
        max_attribs = g.glGetIntegerv(E.GL_MAX_VERTEX_ATTRIBS)[0]
        last = max_attribs - 1
        # initial state (GL 4.6 table 23.4): disabled, size 4, FLOAT, binding = index
        assert g.glGetVertexArrayIndexediv(a, last, E.GL_VERTEX_ATTRIB_ARRAY_ENABLED) == [0]
        assert g.glGetVertexArrayIndexediv(a, last, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [4]
        assert g.glGetVertexArrayIndexediv(a, last, E.GL_VERTEX_ATTRIB_ARRAY_TYPE) == [E.GL_FLOAT]
        assert g.glGetVertexArrayIndexediv(a, last, E.GL_VERTEX_ATTRIB_BINDING) == [last]
        g.glEnableVertexArrayAttrib(a, 3)
        g.glVertexArrayAttribFormat(a, 3, 2, E.GL_SHORT, False, 4)
        expect(g, E.GL_NO_ERROR)
        assert g.glGetVertexArrayIndexediv(a, 3, E.GL_VERTEX_ATTRIB_ARRAY_ENABLED) == [1]
        assert g.glGetVertexArrayIndexediv(a, 3, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [2]
        assert g.glGetVertexArrayIndexediv(a, 3, E.GL_VERTEX_ATTRIB_RELATIVE_OFFSET) == [4]
        # the other array is untouched and still has no attribute state of its own
        assert g.vertex_arrays.get(b)._attribs is None
        assert g.glGetVertexArrayIndexediv(b, 3, E.GL_VERTEX_ATTRIB_ARRAY_ENABLED) == [0]
        assert g.glGetVertexArrayIndexediv(b, 3, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [4]
