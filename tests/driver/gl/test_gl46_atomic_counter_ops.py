"""GL_ARB_shader_atomic_counter_ops: add, subtract, min, max, and, or, xor,
exchange and compare-swap on atomic counters, each returning the counter's old
value, run on the GPU's atomic unit against hand-computed results."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

HEADER = "#version 430\n#extension GL_ARB_shader_atomic_counter_ops : require\n"
ONE = HEADER + """layout(local_size_x = 1) in;
layout(binding = 0, offset = 0) uniform atomic_uint c[9];
layout(std430, binding = 1) buffer Old { uint old[9]; };
void main() {
    old[0] = atomicCounterAddARB(c[0], 5u);
    old[1] = atomicCounterSubtractARB(c[1], 3u);
    old[2] = atomicCounterMinARB(c[2], 7u);
    old[3] = atomicCounterMaxARB(c[3], 7u);
    old[4] = atomicCounterAndARB(c[4], 0x0Fu);
    old[5] = atomicCounterOrARB(c[5], 0xF0u);
    old[6] = atomicCounterXorARB(c[6], 0xFFu);
    old[7] = atomicCounterExchangeARB(c[7], 42u);
    old[8] = atomicCounterCompSwapARB(c[8], 10u, 99u);
}
"""
MANY = HEADER + """layout(local_size_x = 64) in;
layout(binding = 0, offset = 0) uniform atomic_uint sum;
layout(binding = 0, offset = 4) uniform atomic_uint top;
layout(binding = 0, offset = 8) uniform atomic_uint bits;
void main() {
    uint i = gl_LocalInvocationIndex;
    atomicCounterAddARB(sum, i);
    atomicCounterMaxARB(top, i * 3u);
    atomicCounterOrARB(bits, 1u << (i & 31u));
}
"""


def _run(ctx, src, counters, old_words=0):
    ctx.glUseProgram(glhelp.compute_program(ctx, src))
    bufs = ctx.glGenBuffers(2)
    ctx.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, bufs[0])
    ctx.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 4 * len(counters), np.array(counters, np.uint32),
                     E.GL_DYNAMIC_COPY)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, max(4 * old_words, 4), None, E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    after = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 4 * len(counters))),
                          np.uint32)
    old = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 4 * old_words)), np.uint32)
    expect(ctx, E.GL_NO_ERROR)
    return list(after), list(old)


def test_each_operation_returns_the_old_value():
    ctx = glhelp.context(4, 4, api="compat")
    start = [10, 10, 10, 10, 0x3C, 0x3C, 0x3C, 10, 10]
    after, old = _run(ctx, ONE, start, 9)
    assert old == start
    assert after == [15, 7, 7, 10, 0x0C, 0xFC, 0xC3, 42, 99]


def test_compare_swap_leaves_a_different_value():
    ctx = glhelp.context(4, 4, api="compat")
    start = [0, 0, 0, 0, 0, 0, 0, 0, 11]                       # 11 != 10: no swap
    after, old = _run(ctx, ONE, start, 9)
    assert after[8] == 11 and old[8] == 11
    assert after[1] == 0xFFFFFFFD                               # 0 - 3 wraps


def test_64_invocations_at_once():
    """Sum of 0..63 = 2016, max of 3i = 189, or of 1 << (i % 32) = all bits."""
    ctx = glhelp.context(4, 4, api="compat")
    after, _ = _run(ctx, MANY, [0, 0, 0])
    assert after == [2016, 189, 0xFFFFFFFF]


def test_listed():
    ctx = glhelp.context(4, 4, api="compat")
    assert "GL_ARB_shader_atomic_counter_ops" in ctx.extensions


INDEXED = """#version 430
layout(local_size_x = 12) in;
layout(binding = 0, offset = 4) uniform atomic_uint flat_[3];
layout(binding = 0, offset = 16) uniform atomic_uint nested[2][3];
layout(std430, binding = 1) buffer Old { uint old[12]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    old[i] = atomicCounterIncrement(flat_[i % 3u]);
    atomicCounterIncrement(nested[i % 2u][i % 3u]);
    atomicCounterIncrement(nested[1][2]);
}
"""


def test_dynamically_indexed_arrays_of_counters():
    """An element of an array of atomic counters chosen at run time (GLSL 4.60
    section 4.1.7: counters of an array are 4 bytes apart from the declared offset;
    arrays of arrays row-major): 12 invocations over flat_[i % 3] and
    nested[i % 2][i % 3]; every invocation also increments nested[1][2]."""
    ctx = glhelp.context(4, 4, api="compat")
    after, old = _run(ctx, INDEXED, [0] * 10, 12)
    flat = np.bincount(np.arange(12) % 3, minlength=3)
    nested = np.zeros((2, 3), int)
    for i in range(12):
        nested[i % 2, i % 3] += 1
    nested[1, 2] += 12
    assert after == [0] + list(flat) + list(nested.ravel())
    # each invocation got a distinct old value of its counter: 0..3 for each of the three
    assert sorted(old) == sorted(list(range(4)) * 3)
