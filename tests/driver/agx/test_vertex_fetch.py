"""Every vertex attribute format is fetched and converted by the vertex shader
(compiler/lower/vertex_fetch.py; GL 4.6 section 10.2.1, table 10.3, equation
2.2): the draw reads the buffer in place and never falls back to the CPU
(driver/agx/fallbacks.py counts nothing). Expected values are worked out by hand
from the bits in the buffer."""

from __future__ import annotations

import numpy as np
import pytest

from driver.agx import fallbacks
from driver.gl import enums as E

from .glhelp import context, program, renderbuffer_target

FS = """#version 330
flat in vec4 v;
out vec4 o;
void main() { o = v; }"""


def _vs(decl: str, expr: str) -> str:
    return f"""#version 330
in vec2 pos;
{decl}
flat out vec4 v;
void main() {{ gl_Position = vec4(pos, 0.0, 1.0); v = {expr}; }}"""


def _draw(arrays, decl="in vec4 a;", expr="a", instances=0) -> np.ndarray:
    """Draw a 2x2 RGBA32F target flat with ``arrays``: (name, raw bytes of one
    row or a list of rows, size, type, normalized, integer, divisor), one row repeated for 4 vertices
    (per-vertex) or 2 instances; returns the pixels and asserts no CPU fallback."""
    ctx = context(2, 2, api="gl43")
    prog = program(ctx, _vs(decl, expr), FS)
    renderbuffer_target(ctx, E.GL_RGBA32F, 2, 2)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    pos = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    rows = [("pos", [pos[i].tobytes() for i in range(4)], 2, E.GL_FLOAT, False, False, 0)] + list(arrays)
    bufs = ctx.glGenBuffers(len(rows))
    for buf, (name, data, size, type_, norm, integer, divisor) in zip(bufs, rows):
        raw = b"".join(data) if isinstance(data, list) else data * 4
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, len(raw), np.frombuffer(raw, np.uint8), E.GL_STATIC_DRAW)
        base, _, column = name.partition("+")          # "m+1": the matrix's second column
        loc = ctx.glGetAttribLocation(prog, base) + int(column or 0)
        stride = len(data[0]) if isinstance(data, list) else len(data)
        if integer:
            ctx.glVertexAttribIPointer(loc, size, type_, stride, 0)
        else:
            ctx.glVertexAttribPointer(loc, size, type_, norm, stride, 0)
        ctx.glEnableVertexAttribArray(loc)
        if divisor:
            ctx.glVertexAttribDivisor(loc, divisor)
    before = dict(fallbacks.COUNTS)
    if instances:
        ctx.glDrawArraysInstanced(E.GL_TRIANGLE_STRIP, 0, 4, instances)
    else:
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    pixels = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4)
    assert dict(fallbacks.COUNTS) == before, "the draw fell back to the CPU"
    assert (pixels == pixels[0]).all()
    return pixels[0]


def _packed(fields, widths=(10, 10, 10, 2)) -> bytes:
    word, shift = 0, 0
    for f, bits in zip(fields, widths):
        word |= (f & ((1 << bits) - 1)) << shift
        shift += bits
    return np.uint32(word).tobytes()


def test_bgra_unsigned_bytes_swap_red_and_blue():
    got = _draw([("a", bytes([10, 20, 30, 40]), E.GL_BGRA, E.GL_UNSIGNED_BYTE, True, False, 0)])
    np.testing.assert_array_equal(got, np.float32([30, 20, 10, 40]) / np.float32(255))


def test_signed_2_10_10_10_normalized_and_scaled():
    got = _draw([("a", _packed([511, -511, -512, 1]), 4, E.GL_INT_2_10_10_10_REV, True, False, 0)])
    np.testing.assert_array_equal(got, [1.0, -1.0, -1.0, 1.0])          # -512 -> -1 too (equation 2.2)
    got = _draw([("a", _packed([5, -3, 7, -2]), 4, E.GL_INT_2_10_10_10_REV, False, False, 0)])
    np.testing.assert_array_equal(got, [5.0, -3.0, 7.0, -2.0])


def test_unsigned_2_10_10_10_normalized_scaled_and_bgra():
    got = _draw([("a", _packed([1023, 0, 511, 3]), 4, E.GL_UNSIGNED_INT_2_10_10_10_REV, True, False, 0)])
    np.testing.assert_array_equal(got, [1.0, 0.0, np.float32(511) / np.float32(1023), 1.0])
    got = _draw([("a", _packed([1023, 2, 7, 3]), 4, E.GL_UNSIGNED_INT_2_10_10_10_REV, False, False, 0)])
    np.testing.assert_array_equal(got, [1023.0, 2.0, 7.0, 3.0])
    got = _draw([("a", _packed([1023, 0, 0, 1]), E.GL_BGRA, E.GL_UNSIGNED_INT_2_10_10_10_REV, True, False, 0)])
    np.testing.assert_array_equal(got, [0.0, 0.0, 1.0, np.float32(1) / np.float32(3)])


def test_10f_11f_11f_unsigned_floats():
    # 1.0 = exponent 15, mantissa 0 (11-bit: 6 mantissa bits); 2.0 = exponent 16; 0.5 in
    # the 10-bit blue field (5 mantissa bits) = exponent 14; w is 1
    word = _packed([15 << 6, 16 << 6, 14 << 5], (11, 11, 10))
    got = _draw([("a", word, 3, E.GL_UNSIGNED_INT_10F_11F_11F_REV, False, False, 0)])
    np.testing.assert_array_equal(got, [1.0, 2.0, 0.5, 1.0])


def test_half_and_double_attributes():
    got = _draw([("a", np.float16([0.5, -2, 1000, 0.25]).tobytes(), 4, E.GL_HALF_FLOAT, False, False, 0)])
    np.testing.assert_array_equal(got, [0.5, -2.0, 1000.0, 0.25])
    values = np.float64([1.5, -1e-3, 1 / 3, 3e38])
    got = _draw([("a", values.tobytes(), 4, E.GL_DOUBLE, False, False, 0)])
    np.testing.assert_array_equal(got, values.astype(np.float32))      # rounded to nearest even


def test_integer_attribute_from_unsigned_shorts_fills_w_with_one():
    got = _draw([("a", np.uint16([7, 65535, 3]).tobytes(), 3, E.GL_UNSIGNED_SHORT, False, True, 0)],
                decl="in uvec4 a;", expr="vec4(a)")
    np.testing.assert_array_equal(got, [7.0, 65535.0, 3.0, 1.0])


def test_per_instance_normalized_bytes():
    # two instances cover the same pixels; the second (row 1) is drawn last
    rows = [np.int8([127, -127, -128, 0]).tobytes(), np.int8([0, 64, -64, 127]).tobytes()]
    got = _draw([("a", rows + [bytes(4)] * 2, 4, E.GL_BYTE, True, False, 1)], instances=2)
    np.testing.assert_array_equal(got, np.maximum(np.float32([0, 64, -64, 127]) / np.float32(127), -1))


def test_matrix_attribute_of_unsigned_bytes():
    # mat2 m at two locations, each column 2 normalized bytes: (255, 0) and (51, 102)
    got = _draw([("m", bytes([255, 0]), 2, E.GL_UNSIGNED_BYTE, True, False, 0),
                 ("m+1", bytes([51, 102]), 2, E.GL_UNSIGNED_BYTE, True, False, 0)],
                decl="in mat2 m;", expr="vec4(m[0], m[1])")
    np.testing.assert_array_equal(got, np.float32([255, 0, 51, 102]) / np.float32(255))


@pytest.mark.parametrize("stride_pad", [0, 3])
def test_unaligned_strides_of_normalized_shorts(stride_pad):
    row = np.int16([32767, -32768, 16384]).tobytes() + bytes(stride_pad)
    got = _draw([("a", row, 3, E.GL_SHORT, True, False, 0)])
    np.testing.assert_array_equal(got, [1.0, -1.0, np.float32(16384) / np.float32(32767), 1.0])


def test_cpu_fallbacks_are_counted_and_reported_once(monkeypatch, capsys):
    from collections import Counter
    monkeypatch.setattr(fallbacks, "COUNTS", Counter())
    monkeypatch.setenv("SHIMGL_DEBUG", "perf")
    ctx = context(2, 2, api="gl45")
    program(ctx, _vs("in vec4 a;", "a"), FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, buf)
    params = np.uint32([4, 1, 0, 0])                 # count, instances, first, base instance
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, params.nbytes, params, E.GL_STATIC_DRAW)
    # an indirect adjacency draw without a geometry stage: its record is still read
    # back on the CPU (the draw is rewritten into lines, which needs the count)
    for _ in range(2):
        ctx.glDrawArraysIndirect(E.GL_LINES_ADJACENCY, 0)
    ctx.glFinish()
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert fallbacks.COUNTS == {"indirect": 2}
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("shimgl perf:")]
    assert lines == ["shimgl perf: indirect draw parameters read back on the CPU (stalls on the GPU)"]
