"""Explicit offsets and alignment of block members (ARB_enhanced_layouts' offset/align,
GLSL 4.40 section 4.4.5): a compute shader reads a uniform block and writes a storage
block whose members are placed by the qualifiers; the bytes are compared with numpy
buffers laid out by hand, and GL_OFFSET/GL_BUFFER_DATA_SIZE report the same places."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

CS = """#version 440
layout(local_size_x = 1) in;
layout(std140, binding = 0) uniform In {
  layout(offset = 4, align = 16) float a;    // actual offset 16
  vec2 b;                                     // next available: 24
  layout(offset = 48) vec4 c;
  layout(align = 64) float d;                 // 64
};
layout(std430, binding = 1) buffer Out {
  layout(offset = 8) float x;                 // 8
  layout(align = 32) vec3 y;                  // 32
  layout(offset = 48) ivec2 z;                // 48
};
void main() {
  x = a + d;
  y = vec3(b, c.w);
  z = ivec2(c.xy);
}"""


@pytest.fixture
def ctx():
    # GLSL 4.40 has the qualifiers without the #extension (a GL 4.6 context)
    return driver.Context(api="gl46", width=8, height=8)


def _program(ctx, src):
    s = ctx.glCreateShader(E.GL_COMPUTE_SHADER)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    return p


def test_offsets_in_uniform_and_storage_blocks(ctx):
    p = _program(ctx, CS)
    ubo = np.full(80 // 4, -1.0, np.float32)       # the uniform block, placed by hand
    ubo[16 // 4] = 1.5                            # a
    ubo[24 // 4:32 // 4] = [2.0, 3.0]             # b
    ubo[48 // 4:64 // 4] = [4.0, 5.0, 6.0, 7.0]   # c
    ubo[64 // 4] = 0.25                           # d
    ssbo = np.full(64 // 4, -9.0, np.float32)
    bufs = ctx.glGenBuffers(2)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, bufs[0])
    ctx.glBufferData(E.GL_UNIFORM_BUFFER, ubo.nbytes, ubo, E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, ssbo.nbytes, ssbo, E.GL_STATIC_DRAW)
    ctx.glUseProgram(p)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, bufs[1])
    view = ctx.glMapBufferRange(E.GL_SHADER_STORAGE_BUFFER, 0, ssbo.nbytes, E.GL_MAP_READ_BIT)
    got = np.frombuffer(bytes(view), np.float32).copy()
    ctx.glUnmapBuffer(E.GL_SHADER_STORAGE_BUFFER)
    exp = ssbo.copy()
    exp[8 // 4] = 1.5 + 0.25                       # x
    exp[32 // 4:44 // 4] = [2.0, 3.0, 7.0]         # y
    exp[48 // 4:56 // 4] = np.array([4, 5], np.int32).view(np.float32)    # z
    np.testing.assert_array_equal(got.view(np.uint32), exp.view(np.uint32))
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_offsets_reported_by_the_interface_queries(ctx):
    p = _program(ctx, CS)
    offsets = {}
    for name in ("a", "b", "c", "d", "x", "y", "z"):
        interface = E.GL_UNIFORM if name in "abcd" else E.GL_BUFFER_VARIABLE
        i = ctx.glGetProgramResourceIndex(p, interface, name)
        vals = ctx.glGetProgramResourceiv(p, interface, i, 1, [E.GL_OFFSET], 1)
        offsets[name] = (vals[1] if isinstance(vals, tuple) else vals)[0]
    assert offsets == {"a": 16, "b": 24, "c": 48, "d": 64, "x": 8, "y": 32, "z": 48}
    size = ctx.glGetProgramResourceiv(p, E.GL_UNIFORM_BLOCK, 0, 1, [E.GL_BUFFER_DATA_SIZE], 1)
    assert (size[1] if isinstance(size, tuple) else size)[0] == 80      # d ends at 68, rounded to 16


def test_compile_error_for_an_offset_inside_the_previous_member(ctx):
    s = ctx.glCreateShader(E.GL_COMPUTE_SHADER)
    ctx.glShaderSource(s, 1, ["""#version 440
layout(local_size_x = 1) in;
layout(std140) uniform U {
  layout(offset = 8, align = 16) vec2 v;
  layout(offset = 20) float f;
};
void main() {}"""])
    ctx.glCompileShader(s)
    assert not ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0]
    assert ctx.glGetShaderInfoLog(s).startswith("0:5(")
    assert "lies within or before the previous member" in ctx.glGetShaderInfoLog(s)
