"""Atomic counters declared without an offset take the next 4-byte slot of their
binding in declaration order (GLSL 4.60 section 4.4.6.2), in the shader's code as in
the program queries: eight counters at binding 0 were all incremented at offset 0
(piglit arb_compute_shader render-and-compute, indirect-compute). Counts by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

CS = """#version 430
layout(local_size_x = 4) in;
layout(binding = 0) uniform atomic_uint a0;
layout(binding = 1) uniform atomic_uint other;
layout(binding = 0) uniform atomic_uint a1[2];
layout(binding = 0, offset = 20) uniform atomic_uint a3;
layout(binding = 0) uniform atomic_uint a4;
void main() {
    uint i = gl_LocalInvocationID.x;
    atomicCounterIncrement(a0);                    // 4 a group
    if (i == 1u) atomicCounterIncrement(a1[1]);    // 1
    if (i < 3u) atomicCounterIncrement(a3);        // 3
    if (i == 0u) atomicCounterIncrement(a4);       // 1
    atomicCounterIncrement(other);                 // 4
}
"""


def test_counters_without_offsets_follow_each_other():
    ctx = driver.Context(api="gl43", width=4, height=4)
    sh = ctx.glCreateShader(E.GL_COMPUTE_SHADER)
    ctx.glShaderSource(sh, 1, [CS])
    ctx.glCompileShader(sh)
    assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(sh)
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    offsets = {}
    for i in range(ctx.glGetProgramiv(prog, E.GL_ACTIVE_UNIFORMS)[0]):
        name = ctx.glGetActiveUniform(prog, i)[0]
        offsets[name] = ctx.glGetActiveUniformsiv(prog, 1, [i], E.GL_UNIFORM_OFFSET)[0]
    assert offsets == {"a0": 0, "a1[0]": 4, "a3": 20, "a4": 24, "other": 0}
    bufs = ctx.glGenBuffers(2)
    for binding, b in enumerate(bufs):
        ctx.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, binding, b)
        ctx.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 32, bytes(32), E.GL_STATIC_DRAW)
    ctx.glUseProgram(prog)
    ctx.glDispatchCompute(2, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindBuffer(E.GL_ATOMIC_COUNTER_BUFFER, bufs[0])
    got = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 32)), np.uint32)
    assert list(got) == [8, 0, 2, 0, 0, 6, 2, 0]       # a0, a1[0], a1[1], -, -, a3, a4, -
    ctx.glBindBuffer(E.GL_ATOMIC_COUNTER_BUFFER, bufs[1])
    got = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 8)), np.uint32)
    assert list(got) == [8, 0]
