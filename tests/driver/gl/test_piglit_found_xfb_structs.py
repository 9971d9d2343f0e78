"""Transform feedback of struct members (GL 4.6 section 11.1.2.1): a name passed to
glTransformFeedbackVaryings may select members of struct outputs and elements of
arrays of structs, e.g. ``v[1].b`` or ``v[2].a[1]``, down to a basic type or an array
of one; naming a whole struct (``v``, ``v[0]``) is a link error. These names were all
refused ("is not a vertex output"); piglit's ext_transform_feedback structs tests
failed on them. Captured values by hand."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

VS = """#version 150
struct S { float a[2]; ivec3 b; mat2 m; };
in vec4 p;
flat out S v[3];
flat out struct T { int x; S s; } t;
void main() {
  gl_Position = p;
  for (int i = 0; i < 3; i++) {
    v[i].a[0] = 10.0 * float(i) + 1.0;
    v[i].a[1] = 10.0 * float(i) + 2.0;
    v[i].b = ivec3(100 * i + 3, 100 * i + 4, 100 * i + 5);
    v[i].m = mat2(float(i) + 0.25, float(i) + 0.5, float(i) + 0.75, float(i) + 1.0);
  }
  t.x = 77;
  t.s = v[1];
}
"""
FS = """#version 150
out vec4 o;
void main() { o = vec4(1.0); }
"""


def _link(g, names):
    p = g.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        s = g.glCreateShader(kind)
        g.glShaderSource(s, 1, [src])
        g.glCompileShader(s)
        assert g.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], g.glGetShaderInfoLog(s)
        g.glAttachShader(p, s)
    g.glTransformFeedbackVaryings(p, len(names), names, E.GL_INTERLEAVED_ATTRIBS)
    g.glLinkProgram(p)
    return p, bool(g.glGetProgramiv(p, E.GL_LINK_STATUS)[0])


def _f(x):
    return np.float32(x).view(np.uint32)


# name -> (type, size, the words of one vertex, by hand)
CAPTURES = {
    "v[2].a": (E.GL_FLOAT, 2, [_f(21.0), _f(22.0)]),
    "v[0].b": (E.GL_INT_VEC3, 1, [3, 4, 5]),
    "v[1].a[1]": (E.GL_FLOAT, 1, [_f(12.0)]),
    "v[1].m": (E.GL_FLOAT_MAT2, 1, [_f(1.25), _f(1.5), _f(1.75), _f(2.0)]),
    "t.x": (E.GL_INT, 1, [77]),
    "t.s.b": (E.GL_INT_VEC3, 1, [103, 104, 105]),
    "t.s.a[0]": (E.GL_FLOAT, 1, [_f(11.0)]),
}


def test_members_of_structs_and_arrays_of_structs_are_captured():
    names = list(CAPTURES)
    with driver.Context("gl43", 4, 4) as c:
        g = c.gl
        p, ok = _link(g, names)
        assert ok, g.glGetProgramInfoLog(p)
        for k, name in enumerate(names):
            got_name, size, type_ = g.glGetTransformFeedbackVarying(p, k)
            assert (got_name, type_, size) == (name, *CAPTURES[name][:2])
        g.glUseProgram(p)
        words = sum(len(w) for _t, _s, w in CAPTURES.values())
        buf = g.glGenBuffers(1)[0]
        g.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
        g.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * words * 3, None, E.GL_STATIC_READ)
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        g.glEnable(E.GL_RASTERIZER_DISCARD)
        g.glBeginTransformFeedback(E.GL_TRIANGLES)
        g.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        g.glEndTransformFeedback()
        data = np.frombuffer(bytes(g.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * words * 3)),
                             np.uint32).reshape(3, words)
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
    expected = np.concatenate([np.asarray(w, np.uint32) for _t, _s, w in CAPTURES.values()])
    assert (data == expected).all(), data[0]


@pytest.mark.parametrize("names", [["v"], ["v[0]"], ["v.a"], ["t.s"], ["v[3].b"], ["v[0].c"], ["v[0].b[0]"],
                                   ["v[0].a", "v[0].a[1]"]])
def test_whole_structs_bad_members_and_overlaps_are_link_errors(names):
    with driver.Context("gl43", 4, 4) as c:
        g = c.gl
        p, ok = _link(g, names)
        assert not ok and g.glGetProgramInfoLog(p)
