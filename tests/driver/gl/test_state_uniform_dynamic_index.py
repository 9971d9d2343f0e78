"""Built-in state read with a dynamic index: the compatibility profile's state
uniforms the compiler places in uniform registers (gl_LightSource[], the polygon
stipple rows) are also in the default block's memory copy, which a uniform read
with a non-constant offset loads (driver/agx/encode.py _default_block). Before,
only the registers had them: every dynamically indexed read gave 0, so polygon
stipple discarded every fragment. Values by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

from .helpers import use_program

W = H = 16


def _pixels(gl):
    return np.frombuffer(gl.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)


def test_polygon_stipple_draws_its_pattern():
    with driver.Context(api="compat", width=W, height=H) as gl:
        gl.glClearColor(0, 0, 0, 1)
        gl.glClear(E.GL_COLOR_BUFFER_BIT)
        pattern = np.zeros((32, 4), np.uint8)
        pattern[0::2] = 0xAA            # even rows: columns 0, 2, 4 ... (the most significant bit first)
        pattern[1::2] = 0x0F            # odd rows: columns 4-7 of every byte
        gl.glPolygonStipple(pattern.ravel())
        gl.glEnable(E.GL_POLYGON_STIPPLE)
        gl.glColor3f(1, 1, 1)
        gl.glRectf(-1, -1, 1, 1)
        lit = _pixels(gl)[..., 0] > 128
    x = np.arange(W)
    for y in range(H):
        want = x % 2 == 0 if y % 2 == 0 else x % 8 >= 4
        assert (lit[y] == want).all(), (y, lit[y].astype(int))


def test_light_source_read_with_a_uniform_index():
    with driver.Context(api="compat", width=W, height=H) as gl:
        colours = [(0.25, 0.5, 0.75, 1.0), (1.0, 0.0, 0.5, 1.0), (0.0, 0.75, 0.25, 1.0)]
        for k, c in enumerate(colours):
            gl.glLightfv(E.GL_LIGHT0 + k, E.GL_DIFFUSE, c)
        prog = use_program(gl, "#version 120\nvoid main() { gl_Position = ftransform(); }",
                           "#version 120\nuniform int which;\n"
                           "void main() { gl_FragColor = gl_LightSource[which].diffuse; }")
        for k, c in enumerate(colours):
            gl.glUniform1i(gl.glGetUniformLocation(prog, "which"), k)
            gl.glRectf(-1, -1, 1, 1)
            got = _pixels(gl)[8, 8].astype(int)
            assert np.abs(got - np.round(np.array(c) * 255)).max() <= 1, (k, got)
        assert gl.glGetError() == E.GL_NO_ERROR
