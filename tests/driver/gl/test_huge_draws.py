"""Host memory follows the work, not the request: glDrawElements above
MAX_DRAW_PIECE indices goes to the pipe as consecutive draws (as glDrawArrays),
client index arrays are read piece by piece, and indices past the end of the
element buffer (out of bounds: undefined results, GL 4.6 section 6.4) are not
drawn, so a count of 2^31 with a small buffer costs what the buffer holds."""

from __future__ import annotations

import numpy as np
import pytest

import driver
import driver.gl.draws as draws
from driver.gl import enums as E
from tests.driver.gl.helpers import expect, use_program

VS = {"gles3": "#version 300 es\n", "compat": "#version 130\n"}
BODY = ("flat out vec4 c;\nvoid main() {\n"
        "  float i = float(gl_VertexID);\n"
        "  vec2 p = vec2(floor(i / 2.0) / 12.0 * 2.0 - 1.0, mod(i, 2.0) * 1.6 - 0.8 + i * 0.01);\n"
        "  c = vec4(mod(i, 3.0) / 2.0, mod(i, 5.0) / 4.0, i / 40.0, 1.0);\n"
        "  gl_Position = vec4(p, 0.0, 1.0); gl_PointSize = 2.0; }\n")
FS = {"gles3": "#version 300 es\nprecision mediump float;\nflat in vec4 c;\nout vec4 o;\n"
               "void main() { o = c; }\n",
      "compat": "#version 130\nflat in vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"}
# 25 indices visiting the vertices out of order, some twice
INDICES = np.array([3, 1, 2, 0, 5, 4, 7, 6, 9, 8, 11, 10, 12, 14, 13, 16, 15, 18, 17, 20, 19,
                    22, 21, 24, 23], np.uint16)


def _image(monkeypatch, api, mode, limit, count=len(INDICES), client=False, restart=False):
    monkeypatch.setattr(draws, "MAX_DRAW_PIECE", limit)
    with driver.Context(api, 32, 32) as ctx:
        g = ctx.gl
        if not client:
            g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        use_program(g, VS[api] + BODY, FS[api])
        data = INDICES.copy()
        if restart:
            data[10] = 0xFFFF
            g.glEnable(E.GL_PRIMITIVE_RESTART_FIXED_INDEX)
        if client:
            g.glDrawElements(mode, count, E.GL_UNSIGNED_SHORT, data.tobytes())
        else:
            g.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, g.glGenBuffers(1)[0])
            g.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
            g.glDrawElements(mode, count, E.GL_UNSIGNED_SHORT, 0)
        expect(g, E.GL_NO_ERROR)
        assert g.internal_errors == []
        return ctx.read_pixels()


@pytest.mark.parametrize("mode", [E.GL_TRIANGLE_STRIP, E.GL_TRIANGLES, E.GL_LINE_STRIP, E.GL_POINTS])
@pytest.mark.parametrize("api,client", [("gles3", False), ("compat", True)])
def test_a_huge_element_draw_in_pieces_draws_the_same_pixels(monkeypatch, mode, api, client):
    whole = _image(monkeypatch, api, mode, 1 << 16, client=client)
    pieces = _image(monkeypatch, api, mode, 5, client=client)
    assert whole.any()
    assert np.array_equal(whole, pieces)


def test_with_primitive_restart_the_draw_is_not_split(monkeypatch):
    whole = _image(monkeypatch, "gles3", E.GL_TRIANGLE_STRIP, 1 << 16, restart=True)
    assert np.array_equal(whole, _image(monkeypatch, "gles3", E.GL_TRIANGLE_STRIP, 5, restart=True))
    assert not np.array_equal(whole, _image(monkeypatch, "gles3", E.GL_TRIANGLE_STRIP, 1 << 16))


@pytest.mark.parametrize("count", [26, 1000, (1 << 31) - 1])
def test_indices_past_the_element_buffer_are_not_drawn(monkeypatch, count):
    """A count beyond the buffer draws what the buffer holds (and costs no more)."""
    assert np.array_equal(_image(monkeypatch, "gles3", E.GL_TRIANGLES, 1 << 16),
                          _image(monkeypatch, "gles3", E.GL_TRIANGLES, 1 << 16, count=count))


# Instanced draws above MAX_DRAW_PIECE are drawn whole: gl_InstanceID and the
# instanced attributes (divisor 2 here) of every instance as the spec defines them.
INSTANCED_VS = ("#version 300 es\nin float a;\nflat out vec4 c;\nvoid main() {\n"
                "  int i = gl_VertexID;\n"
                "  vec2 px = vec2(float(i % 5 + 8 * gl_InstanceID), float(i / 5)) + 0.5;\n"
                "  c = vec4(float(gl_InstanceID + 1) / 4.0, a / 255.0, 0.0, 1.0);\n"
                "  gl_Position = vec4(px / 16.0 - 1.0, 0.0, 1.0); gl_PointSize = 1.0; }\n")


@pytest.mark.parametrize("elements", [False, True])
def test_an_instanced_draw_above_the_piece_size_keeps_instance_ids(monkeypatch, elements):
    monkeypatch.setattr(draws, "MAX_DRAW_PIECE", 5)
    per_instance = np.array([10, 20, 30, 40], np.float32)      # instance k reads a[k // 2]
    with driver.Context("gles3", 32, 32) as ctx:
        g = ctx.gl
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        prog = use_program(g, INSTANCED_VS, FS["gles3"])
        g.glBindBuffer(E.GL_ARRAY_BUFFER, g.glGenBuffers(1)[0])
        g.glBufferData(E.GL_ARRAY_BUFFER, per_instance.nbytes, per_instance.tobytes(), E.GL_STATIC_DRAW)
        loc = g.glGetAttribLocation(prog, "a")
        g.glVertexAttribPointer(loc, 1, E.GL_FLOAT, False, 4, 0)
        g.glEnableVertexAttribArray(loc)
        g.glVertexAttribDivisor(loc, 2)
        if elements:
            idx = np.arange(25, dtype=np.uint16)
            g.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, g.glGenBuffers(1)[0])
            g.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
            g.glDrawElementsInstanced(E.GL_POINTS, 25, E.GL_UNSIGNED_SHORT, 0, 3)
        else:
            g.glDrawArraysInstanced(E.GL_POINTS, 0, 25, 3)
        expect(g, E.GL_NO_ERROR)
        got = ctx.read_pixels()
    expected = np.zeros((32, 32, 4), np.uint8)
    for k in range(3):
        # 25 points of instance k: a 5x5 block of pixels at x = 8k.., y = 0..4
        expected[0:5, 8 * k:8 * k + 5] = [round((k + 1) / 4 * 255), per_instance[k // 2], 0, 255]
    np.testing.assert_array_equal(got.reshape(32, 32, 4), expected)


@pytest.mark.parametrize("call", ["arrays", "multi", "ibm"])
def test_an_array_draw_past_the_largest_vertex_index_is_invalid_value(monkeypatch, call):
    """first + count - 1 must be a GLint (gl_VertexID): past 2^31 - 1 the draw is
    GL_INVALID_VALUE and draws nothing. Before, a draw split into pieces packed a
    piece's start of 2^31 or more into the VDM's signed base-vertex field: an
    internal error. The last index exactly 2^31 - 1 is still a valid draw."""
    monkeypatch.setattr(draws, "MAX_DRAW_PIECE", 8)
    api = "compat" if call == "ibm" else "gles3"
    with driver.Context(api, 16, 16) as ctx:
        g = ctx.gl
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        use_program(g, VS[api] + BODY, FS[api])
        g.glClearColor(0, 0, 0, 0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        top = (1 << 31) - 1

        def draw(first, count):
            if call == "arrays":
                g.glDrawArrays(E.GL_POINTS, first, count)
            elif call == "multi":
                g.glMultiDrawArraysEXT(E.GL_POINTS, [0, first], [1, count], 2)
            else:
                g.glMultiModeDrawArraysIBM([E.GL_POINTS], [first], [count], 1, 4)

        draw(top - 20, 30)                          # last index 2^31 + 8
        expect(g, E.GL_INVALID_VALUE)
        draw(top - 20, 21)                          # last index 2^31 - 1: a draw
        expect(g, E.GL_NO_ERROR)
        assert g.internal_errors == []
