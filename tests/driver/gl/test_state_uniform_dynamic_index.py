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


def test_fragment_uniform_array_after_the_vertex_stages_uniforms():
    """A fragment stage's register window starts at its first uniform (here after the
    vertex stage's matrix and array): a dynamically indexed struct array of it is read
    from that window of the block's memory, not from the block's first bytes (pyrender's
    point_lights[i] read the vertex stage's matrices)."""
    vs = """#version 330 core
layout(location = 0) in vec2 p;
uniform mat4 mvp;
uniform vec4 pad[6];
void main() { gl_Position = mvp * vec4(p, 0.0, 1.0) + pad[5] * 0.0; }"""
    fs = """#version 330 core
struct Light { vec3 color; float intensity; float range; vec3 position; };
uniform Light lights[3];
uniform int n;
out vec4 o;
void main() {
    vec3 c = vec3(0.0);
    for (int i = 0; i < n; i++) c += lights[i].color * lights[i].intensity + lights[i].position * lights[i].range;
    o = vec4(c, 1.0);
}"""
    with driver.Context(api="gl33", width=W, height=H) as gl:
        prog = use_program(gl, vs, fs)
        loc = lambda name: gl.glGetUniformLocation(prog, name)          # noqa: E731
        gl.glUniformMatrix4fv(loc("mvp"), 1, False, np.identity(4, np.float32))
        gl.glUniform4fv(loc("pad"), 6, np.full(24, 7.0, np.float32))
        gl.glUniform1i(loc("n"), 3)
        lights = [((0.5, 0.0, 0.0), 0.5, 0.0, (0.0, 0.0, 0.0)), ((0.0, 0.25, 0.0), 2.0, 0.5, (0.0, 0.0, 0.5)),
                  ((0.0, 0.0, 0.0), 1.0, 0.25, (0.4, 0.0, 0.0))]
        for i, (colour, intensity, rng, position) in enumerate(lights):
            gl.glUniform3f(loc(f"lights[{i}].color"), *colour)
            gl.glUniform1f(loc(f"lights[{i}].intensity"), intensity)
            gl.glUniform1f(loc(f"lights[{i}].range"), rng)
            gl.glUniform3f(loc(f"lights[{i}].position"), *position)
        data = np.array([-1, -1, 3, -1, -1, 3], np.float32)
        gl.glBindVertexArray(gl.glGenVertexArrays(1)[0])
        gl.glBindBuffer(E.GL_ARRAY_BUFFER, gl.glGenBuffers(1)[0])
        gl.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
        gl.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
        gl.glEnableVertexAttribArray(0)
        gl.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        assert gl.glGetError() == E.GL_NO_ERROR
        got = _pixels(gl)[8, 8].astype(int)
    # red 0.5 * 0.5 + 0.4 * 0.25 = 0.35, green 0.25 * 2 = 0.5, blue 0.5 * 0.5 = 0.25
    assert np.abs(got - np.round(np.array([0.35, 0.5, 0.25, 1.0]) * 255)).max() <= 1, got
