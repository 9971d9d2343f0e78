"""Compute dispatches and display lists (ARB_compute_shader, GL 4.6 compatibility
profile): glDispatchCompute is compiled like a draw, glDispatchComputeIndirect is
INVALID_OPERATION while a list is compiled and is neither compiled nor run, in
GL_COMPILE_AND_EXECUTE mode too (piglit's arb_compute_shader display-list: the
indirect dispatch ran). Counted with an atomic counter."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

CS = """#version 430
layout(local_size_x = 2) in;
layout(binding = 0) uniform atomic_uint n;
void main() { atomicCounterIncrement(n); }
"""


def _setup():
    ctx = driver.Context(api="compat", width=4, height=4)
    sh = ctx.glCreateShader(E.GL_COMPUTE_SHADER)
    ctx.glShaderSource(sh, 1, [CS])
    ctx.glCompileShader(sh)
    assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(sh)
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    counter, indirect = ctx.glGenBuffers(2)
    ctx.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, counter)
    ctx.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 4, bytes(4), E.GL_STATIC_DRAW)
    ctx.glBindBuffer(E.GL_DISPATCH_INDIRECT_BUFFER, indirect)
    ctx.glBufferData(E.GL_DISPATCH_INDIRECT_BUFFER, 12, np.array([3, 1, 1], np.uint32).tobytes(), E.GL_STATIC_DRAW)
    return ctx


def _count(ctx):
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    return int(np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 4)), np.uint32)[0])


def test_indirect_dispatch_is_refused_in_lists_and_direct_is_compiled():
    ctx = _setup()
    lst = ctx.glGenLists(1)
    for mode in (E.GL_COMPILE, E.GL_COMPILE_AND_EXECUTE):
        ctx.glNewList(lst, mode)
        ctx.glDispatchComputeIndirect(0)
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
        ctx.glEndList()
        assert _count(ctx) == 0
        ctx.glCallList(lst)                  # an empty list
        assert _count(ctx) == 0
    ctx.glNewList(lst, E.GL_COMPILE)
    ctx.glDispatchCompute(2, 1, 1)            # compiled, not run
    ctx.glEndList()
    assert _count(ctx) == 0
    ctx.glCallList(lst)
    assert _count(ctx) == 4
    ctx.glDispatchComputeIndirect(0)          # outside a list: 3 groups of 2
    assert _count(ctx) == 10
    assert ctx.glGetError() == E.GL_NO_ERROR
