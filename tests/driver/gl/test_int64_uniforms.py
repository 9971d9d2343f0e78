"""GL_ARB_gpu_shader_int64's GL commands: glUniform{1,2,3,4}{i64,ui64}[v]ARB and
their glProgramUniform forms load 64-bit integer uniforms that a compute shader
reads back exactly (values beyond 32 bits, 2^63 and above, negative ones);
glGetUniform{i64,ui64}vARB and glGetnUniform*64vARB answer them; the type checks
and errors of GL 4.6 section 7.6.1; the uniform type enums; the extension listed."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

SRC = """#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 1) in;
uniform int64_t a;
uniform u64vec2 b;
uniform i64vec4 c[2];
uniform uint64_t d;
uniform int64_t k = -3l;
uniform int i;
layout(std430, binding = 0) buffer Out { uint64_t r[12]; };
void main() {
    r[0] = uint64_t(a); r[1] = b.x; r[2] = b.y; r[3] = uint64_t(c[0].x); r[4] = uint64_t(c[0].w);
    r[5] = uint64_t(c[1].y); r[6] = uint64_t(k); r[7] = uint64_t(c[1].w); r[8] = d;
    r[9] = uint64_t(int64_t(i));
}
"""
U64 = 1 << 64


def _setup():
    ctx = glhelp.context(4, 4, api="gl46")
    p = glhelp.compute_program(ctx, SRC)
    loc = {n: ctx.glGetUniformLocation(p, n) for n in ("a", "b", "c", "d", "k", "i")}
    assert all(v >= 0 for v in loc.values())
    return ctx, p, loc


def _run(ctx) -> list:
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 96, None, E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    expect(ctx, E.GL_NO_ERROR)
    return [int(v) for v in np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 96)),
                                          np.uint64)]


def test_values_reach_the_shader_exactly():
    ctx, p, loc = _setup()
    ctx.glUniform1i64ARB(loc["a"], -5)
    ctx.glUniform2ui64ARB(loc["b"], 2 ** 63 + 5, 7)
    ctx.glUniform4i64vARB(loc["c"], 2, np.array([1, 2, 3, -2 ** 63, 5, 6, 7, 2 ** 62 + 1], np.int64))
    ctx.glProgramUniform1ui64ARB(p, loc["d"], U64 - 1)
    ctx.glUniform1i(loc["i"], -7)
    r = _run(ctx)
    assert r[:10] == [U64 - 5, 2 ** 63 + 5, 7, 1, 2 ** 63, 6, U64 - 3, 2 ** 62 + 1, U64 - 1, U64 - 7]


def test_queries_answer_the_values():
    ctx, p, loc = _setup()
    ctx.glUniform1i64ARB(loc["a"], -(2 ** 40))
    ctx.glUniform2ui64vARB(loc["b"], 1, [2 ** 64 - 2, 2 ** 33])
    ctx.glProgramUniform4i64ARB(p, loc["c"] + 1, 9, -9, 2 ** 50, -(2 ** 50))
    assert ctx.glGetUniformi64vARB(p, loc["a"]) == [-(2 ** 40)]
    assert ctx.glGetUniformui64vARB(p, loc["b"]) == [2 ** 64 - 2, 2 ** 33]
    assert ctx.glGetUniformi64vARB(p, loc["b"]) == [-2, 2 ** 33]          # the same bits, signed
    assert ctx.glGetUniformi64vARB(p, loc["c"] + 1) == [9, -9, 2 ** 50, -(2 ** 50)]
    assert ctx.glGetUniformi64vARB(p, loc["k"]) == [-3]                   # the initializer
    assert ctx.glGetUniformi64vARB(p, loc["i"]) == [0]                    # a 32-bit int as int64
    assert ctx.glGetnUniformi64vARB(p, loc["c"] + 1, 32) == [9, -9, 2 ** 50, -(2 ** 50)]
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetnUniformui64vARB(p, loc["c"] + 1, 24) is None      # needs 32 bytes
    expect(ctx, E.GL_INVALID_OPERATION)


def test_active_uniform_types():
    ctx, p, loc = _setup()
    n = ctx.glGetProgramiv(p, E.GL_ACTIVE_UNIFORMS)[0]
    types = {}
    for idx in range(n):
        name, size, t = ctx.glGetActiveUniform(p, idx)
        types[name] = (size, t)
    assert types["a"] == (1, E.GL_INT64_ARB)
    assert types["b"] == (1, E.GL_UNSIGNED_INT64_VEC2_ARB)
    assert types["c[0]"] == (2, E.GL_INT64_VEC4_ARB)
    assert types["d"] == (1, E.GL_UNSIGNED_INT64_ARB)


def test_errors_change_nothing():
    ctx, p, loc = _setup()
    ctx.glUniform1i64ARB(loc["a"], 11)
    for call, args in (("glUniform1ui64ARB", (loc["a"], 1)),        # unsigned command, signed uniform
                       ("glUniform1i", (loc["a"], 1)),               # 32-bit command, 64-bit uniform
                       ("glUniform1f", (loc["a"], 1.0)),
                       ("glUniform2i64ARB", (loc["a"], 1, 2)),       # size mismatch
                       ("glUniform1i64ARB", (loc["i"], 1)),          # 64-bit command, int uniform
                       ("glUniform1i64vARB", (loc["a"], 2, [1, 2])),  # count > 1 for a non-array
                       ("glUniform1i64ARB", (99, 1))):               # no such location
        getattr(ctx, call)(*args)
        expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glUniform1i64vARB(loc["a"], -1, [1])
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glUniform1i64ARB(-1, 5)                                      # location -1: ignored
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetUniformi64vARB(p, loc["a"]) == [11]
    ctx.glUseProgram(0)
    ctx.glUniform1i64ARB(loc["a"], 1)                                # no current program
    expect(ctx, E.GL_INVALID_OPERATION)


def test_commands_need_the_extension():
    ctx = glhelp.context(4, 4, api="gles31")
    ctx.glUniform1i64ARB(0, 1)
    expect(ctx, E.GL_INVALID_OPERATION)


@pytest.mark.parametrize("api, listed", [("compat", True), ("gl46", True), ("gl40", True), ("gl33", False)])
def test_listed_from_gl_4_0(api, listed):
    ctx = glhelp.context(4, 4, api=api)
    assert ("GL_ARB_gpu_shader_int64" in ctx.extensions) == listed
