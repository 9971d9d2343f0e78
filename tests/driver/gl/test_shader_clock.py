"""GL_ARB_shader_clock: clock2x32ARB() and clockARB() read the shader core's 64-bit cycle
counter (the ISA's ``clock`` instruction: the low word latching the high one). Checked
as the extension specifies: within an invocation a later read is larger than an earlier
one (never merged with it), a later dispatch reads later values than an earlier one, the
two forms agree (the 64-bit value is the two words), and clockARB needs the 64-bit types
of ARB_gpu_shader_int64 while clock2x32ARB needs only the extension."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import compile_source

SRC = """#version 430
#extension GL_ARB_shader_clock : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer T { uvec2 t[]; };
uniform uint base;
void main() {
    uint i = base + 4u * gl_GlobalInvocationID.x;
    uvec2 a = clock2x32ARB();
    float x = float(i);
    for (int k = 0; k < 8; k++)        // some work between the reads
        x = sin(x) * 3.0 + 1.0;
    uint64_t b = clockARB();
    uvec2 c = clock2x32ARB();
    t[i] = a;
    t[i + 1u] = unpackUint2x32(b);
    t[i + 2u] = c;
    t[i + 3u] = uvec2(floatBitsToUint(x), 0u);
}
"""


def _as64(words):
    return words[..., 0].astype(np.uint64) | (words[..., 1].astype(np.uint64) << np.uint64(32))


def test_reads_advance_within_an_invocation_and_across_dispatches():
    ctx = glhelp.context(4, 4, api="gl46")
    prog = glhelp.compute_program(ctx, SRC)
    ctx.glUseProgram(prog)
    n = 64 * 2
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 2 * n * 4 * 8, None, E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    loc = ctx.glGetUniformLocation(prog, "base")
    for d in range(2):                       # two dispatches, one after the other
        ctx.glUniform1ui(loc, 4 * n * d)
        ctx.glDispatchCompute(2, 1, 1)
        ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    words = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 2 * n * 4 * 8)),
                          np.uint32).reshape(2, n, 4, 2)
    t = _as64(words[..., :3, :])             # (dispatch, invocation, read)
    assert (t[:, :, 0] < t[:, :, 1]).all() and (t[:, :, 1] < t[:, :, 2]).all()
    assert t[1, :, 0].min() > t[0, :, 2].max()
    assert (t > 0).all()


def test_clockARB_needs_the_64_bit_types():
    ctx = glhelp.context(4, 4, api="gl46")
    body = "layout(local_size_x = 1) in;\nvoid main() { %s }\n"
    head = "#version 430\n#extension GL_ARB_shader_clock : require\n"
    assert compile_source(ctx, E.GL_COMPUTE_SHADER, head + body % "uvec2 a = clock2x32ARB();")[1]
    assert not compile_source(ctx, E.GL_COMPUTE_SHADER, head + body % "bool b = clockARB() > clockARB();")[1]
    assert not compile_source(ctx, E.GL_COMPUTE_SHADER, "#version 430\n" + body % "uvec2 a = clock2x32ARB();")[1]
    names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
    assert "GL_ARB_shader_clock" in names
