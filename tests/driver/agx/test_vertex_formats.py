"""Vertex attribute types that are no pixel format (GL 4.6 section 10.2.1, table
10.3; GLES 3.2 section 10.3.1): 16.16 FIXED, integers read as floats without
normalisation (SCALED) and 32-bit normalized integers. The vertex shader fetches
and converts them (compiler/lower/vertex_fetch.py); the expected floats here are
worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from driver.agx.encode import fetch_format
from driver.gallium import PipeFormat
from driver.gl import enums as E

from .glhelp import context, program, renderbuffer_target

VS = """#version 330
in vec2 pos;
in vec4 a;
flat out vec4 v;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v = a; }"""

FS = """#version 330
flat in vec4 v;
out vec4 o;
void main() { o = v; }"""


def test_element_formats_name_the_shader_fetch():
    # (GL component type, components, normalized, bgra) for compiler/lower/vertex_fetch.py
    assert fetch_format(PipeFormat.R32G32_FIXED) == ("fixed", 2, False, False)
    assert fetch_format(PipeFormat.R16G16B16_SSCALED) == ("short", 3, False, False)
    assert fetch_format(PipeFormat.R8_USCALED) == ("ubyte", 1, False, False)
    assert fetch_format(PipeFormat.R32G32_SNORM) == ("int", 2, True, False)
    assert fetch_format(PipeFormat.R32G32B32_UNORM) == ("uint", 3, True, False)
    assert fetch_format(PipeFormat.R8G8B8A8_UNORM) == ("ubyte", 4, True, False)
    assert fetch_format(PipeFormat.B8G8R8A8_UNORM) == ("ubyte", 4, True, True)
    assert fetch_format(PipeFormat.B10G10R10A2_UNORM) == ("uint_2_10_10_10_rev", 4, True, True)
    assert fetch_format(PipeFormat.R10G10B10A2_SSCALED) == ("int_2_10_10_10_rev", 4, False, False)
    assert fetch_format(PipeFormat.R11G11B10_FLOAT) == ("uint_10f_11f_11f_rev", 3, False, False)
    assert fetch_format(PipeFormat.R16G16_FLOAT) == ("half", 2, False, False)
    assert fetch_format("R64G64B64_FLOAT") == ("double", 3, False, False)
    with pytest.raises(ValueError):
        fetch_format("R7_UNORM")


def _draw(size: int, type_: int, normalized: bool, row, divisor: int = 0) -> np.ndarray:
    """The attribute ``a`` (``size`` components of ``type_``, the same ``row`` for
    every vertex or instance) drawn flat into a 2x2 RGBA32F target; its pixels."""
    ctx = context(2, 2, api="gl43")
    prog = program(ctx, VS, FS)
    renderbuffer_target(ctx, E.GL_RGBA32F, 2, 2)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    pos = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    attr = np.array([row] * 4, {E.GL_FIXED: np.int32, E.GL_INT: np.int32, E.GL_UNSIGNED_INT: np.uint32,
                                E.GL_SHORT: np.int16}[type_])
    bufs = ctx.glGenBuffers(2)
    for buf, data, name, n, t, norm in ((bufs[0], pos, "pos", 2, E.GL_FLOAT, False),
                                        (bufs[1], attr, "a", size, type_, normalized)):
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(prog, name)
        ctx.glVertexAttribPointer(loc, n, t, norm, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
        if name == "a" and divisor:
            ctx.glVertexAttribDivisor(loc, divisor)
    if divisor:
        ctx.glDrawArraysInstanced(E.GL_TRIANGLE_STRIP, 0, 4, 2)
    else:
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4)


@pytest.mark.parametrize("divisor", [0, 1])
def test_fixed_attributes_are_16_16_fixed_point(divisor):
    # 0x18000 = 1.5; -0x8000 = -0.5; 1 = 2^-16 exactly; 0x7FFFFFFF / 65536 =
    # 32767.99998..., whose nearest float32 (spacing 2^-8 there) is 32768
    got = _draw(4, E.GL_FIXED, False, [0x18000, -0x8000, 1, 0x7FFFFFFF], divisor)
    assert (got == [1.5, -0.5, 2.0 ** -16, 32768.0]).all()


def test_fixed_attribute_with_two_components_fills_zero_and_one():
    got = _draw(2, E.GL_FIXED, False, [0x30000, -0x10000])
    assert (got == [3.0, -1.0, 0.0, 1.0]).all()


def test_scaled_integer_attributes_convert_without_normalising():
    got = _draw(4, E.GL_INT, False, [-7, 100000, 16777217, 3])
    assert (got == [-7.0, 100000.0, 16777216.0, 3.0]).all()       # 2^24 + 1 rounds to even
    got = _draw(3, E.GL_SHORT, False, [-32768, 32767, 0])
    assert (got == [-32768.0, 32767.0, 0.0, 1.0]).all()


def test_normalized_32_bit_integer_attributes():
    got = _draw(2, E.GL_INT, True, [0x7FFFFFFF, -0x80000000])
    assert (got == [1.0, -1.0, 0.0, 1.0]).all()                     # the most negative code is -1 too
    got = _draw(2, E.GL_UNSIGNED_INT, True, [0xFFFFFFFF, 0])
    assert (got == [1.0, 0.0, 0.0, 1.0]).all()
