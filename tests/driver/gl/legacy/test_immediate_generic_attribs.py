"""Generic vertex attributes between glBegin and glEnd (GL 2.1 section 2.7, compatibility
profile): glVertexAttrib*(0, ...) specifies a vertex as glVertex does, and the other
generic attributes are per-vertex values, as the colour is (piglit's gl-2.0-vertex-attr-0;
both used to be only current values, so nothing was drawn). Two triangles, each of one
colour, cover the two halves of the window: the expected pixels are worked out by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import use_program

VS = """attribute vec4 color_in;
varying vec4 color;
void main() { gl_Position = gl_Vertex; color = color_in; }
"""
FS = """varying vec4 color;
void main() { gl_FragColor = color; }
"""


def test_attribute_zero_emits_vertices_and_others_vary_per_vertex():
    c = driver.Context("compat", 8, 8)
    prog = use_program(c, VS, FS)
    loc = c.glGetAttribLocation(prog, "color_in")
    assert loc > 0                     # gl_Vertex holds location 0
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glVertexAttrib4f(loc, 0, 0, 1, 1)        # blue, set before glBegin
    c.glBegin(E.GL_TRIANGLES)
    # lower-left triangle: the value current at glBegin (blue)
    for x, y in ((-1, -1), (1, -1), (-1, 1)):
        c.glVertexAttrib2f(0, x, y)
    # upper-right triangle: red from its first vertex on
    c.glVertexAttrib4fv(loc, [1, 0, 0, 1])
    for x, y in ((1, -1), (1, 1), (-1, 1)):
        c.glVertexAttrib2fv(0, [x, y])
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR
    px = c.read_pixels()
    ys, xs = np.mgrid[0:8, 0:8]
    below = xs + ys < 7                          # pixel centres strictly below the diagonal
    above = xs + ys > 7
    assert (px[below] == [0, 0, 255, 255]).all()
    assert (px[above] == [255, 0, 0, 255]).all()
    # the last value set stays current after glEnd
    assert c.glGetVertexAttribfv(loc, E.GL_CURRENT_VERTEX_ATTRIB) == [1.0, 0.0, 0.0, 1.0]


def test_outside_begin_end_attribute_zero_draws_nothing():
    c = driver.Context("compat", 4, 4)
    use_program(c, VS, FS)
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glVertexAttrib2f(0, 0.5, 0.5)
    c.glBegin(E.GL_POINTS)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR
    assert not c.read_pixels().any()


INTEGER_VS = """#version 130
in {kind}vec4 attr;
out vec4 color;
void main() {{
    gl_Position = gl_Vertex;
    color = all(equal(attr, {kind}vec4({values}))) ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
"""
INTEGER_FS = """#version 130
in vec4 color;
void main() { gl_FragColor = color; }
"""


def _integer_attribute_quad(kind: str, values: list[int], literal: str) -> np.ndarray:
    """A quad over the window whose vertices each set ``values`` with
    glVertexAttribI4{kind}; the shader paints green where it read them exactly."""
    c = driver.Context("compat", 4, 4)
    prog = use_program(c, INTEGER_VS.format(kind=kind, values=literal), INTEGER_FS)
    loc = c.glGetAttribLocation(prog, "attr")
    assert loc > 0, c.glGetProgramInfoLog(prog)
    setter = c.glVertexAttribI4ui if kind == "u" else c.glVertexAttribI4i
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        setter(loc, *values)
        c.glVertex2f(x, y)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR
    return c.read_pixels()


def test_integer_attributes_between_begin_and_end_keep_every_bit():
    """glVertexAttribI4ui/I4i per vertex (piglit's attribs GL3): unsigned values of
    2^31 and more, and integers float32 cannot hold (2^24 + 1), reach the shader as
    they were given (they went through a float32 array: 2^32 - 1 read 2^31 - 1)."""
    green = [0, 255, 0, 255]
    px = _integer_attribute_quad("u", [4294967295, 2147483648, 16777217, 1],
                                 "4294967295u, 2147483648u, 16777217u, 1u")
    assert (px == green).all(), px[0, 0]
    px = _integer_attribute_quad("i", [-2147483647, 2147483647, 16777217, -16777217],
                                 "-2147483647, 2147483647, 16777217, -16777217")
    assert (px == green).all(), px[0, 0]
