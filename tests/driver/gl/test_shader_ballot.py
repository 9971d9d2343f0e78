"""GL_ARB_shader_ballot: ballotARB, readInvocationARB, readFirstInvocationARB and the
gl_SubGroup*ARB built-ins over a SIMD group of 32 invocations (in compute, groups restart
at each work group: a 48-invocation work group is a group of 32 and one of 16), in
uniform and divergent control flow, against results computed group by group in the
test; the GLSL side's availability."""

import numpy as np
import pytest

import driver
from compiler.glsl import GLSLCompileError, parse
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

LOCAL = 48
GROUPS = 3
N = LOCAL * GROUPS
WORDS = 8       # per invocation

SOURCE = f"""#version 430
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = {LOCAL}) in;
layout(std430, binding = 0) buffer In {{ uint v[]; }};
layout(std430, binding = 1) buffer Out {{ uint r[]; }};
void main() {{
    uint i = gl_GlobalInvocationID.x;
    uint o = i * {WORDS}u;
    uvec2 m = unpackUint2x32(ballotARB(v[i] % 3u == 0u));
    r[o] = m.x;
    r[o + 1u] = m.y;
    r[o + 2u] = readInvocationARB(v[i], 5u);
    r[o + 3u] = gl_SubGroupInvocationARB;
    r[o + 4u] = floatBitsToUint(readFirstInvocationARB(float(v[i]) * 0.5));
    // divergent: the invocations whose index is odd read the first active one's value
    r[o + 5u] = (i & 1u) != 0u ? readFirstInvocationARB(v[i]) : 0xFFFFFFFFu;
    r[o + 6u] = uint(gl_SubGroupLtMaskARB) ^ uint(gl_SubGroupGtMaskARB >> 1u);
    r[o + 7u] = gl_SubGroupSizeARB + uint(gl_SubGroupEqMaskARB == (1ul << gl_SubGroupInvocationARB))
              + 2u * uint(gl_SubGroupLeMaskARB == (gl_SubGroupLtMaskARB | gl_SubGroupEqMaskARB))
              + 4u * uint(gl_SubGroupGeMaskARB == (gl_SubGroupGtMaskARB | gl_SubGroupEqMaskARB));
}}
"""


def expected(v: np.ndarray) -> np.ndarray:
    out = np.zeros((N, WORDS), np.uint32)
    for wg in range(GROUPS):
        for first, last in ((0, 32), (32, LOCAL)):
            lanes = list(range(wg * LOCAL + first, wg * LOCAL + last))
            mask = sum(1 << k for k, i in enumerate(lanes) if v[i] % 3 == 0)
            odd_first = next(i for i in lanes if i & 1)
            for k, i in enumerate(lanes):
                out[i, 0], out[i, 1] = mask, 0
                out[i, 2] = v[lanes[5]]
                out[i, 3] = k
                out[i, 4] = np.float32(v[lanes[0]] * 0.5).view(np.uint32)
                out[i, 5] = v[odd_first] if i & 1 else 0xFFFFFFFF
                lt = (1 << k) - 1
                gt = (0xFFFFFFFF << (k + 1)) & 0xFFFFFFFF
                out[i, 6] = lt ^ (gt >> 1)
                out[i, 7] = 32 + 1 + 2 + 4
    return out


def test_ballot_reads_and_masks():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert "GL_ARB_shader_ballot" in names
        glhelp.compute_program(ctx, SOURCE)
        v = np.random.default_rng(3).integers(0, 1000, N).astype(np.uint32)
        bufs = ctx.glGenBuffers(2)
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, bufs[0])
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 4 * N, v, E.GL_STATIC_DRAW)
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 4 * WORDS * N, None, E.GL_DYNAMIC_COPY)
        ctx.glDispatchCompute(GROUPS, 1, 1)
        ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
        out = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 4 * WORDS * N)),
                            np.uint32).reshape(N, WORDS)
        expect(ctx, E.GL_NO_ERROR)
        want = expected(v)
        for w in range(WORDS):
            assert out[:, w].tolist() == want[:, w].tolist(), w


def test_glsl_side():
    """The functions exist behind the extension; ballotARB and the masks need uint64_t
    (ARB_gpu_shader_int64 enabled too); readInvocationARB takes float, int and uint
    vectors."""
    head = "#version 430\n#extension GL_ARB_shader_ballot : require\n"
    parse(head + "layout(local_size_x = 1) in;\nvoid main() { vec3 a = readInvocationARB(vec3(1.0), 2u);"
                 " ivec2 b = readFirstInvocationARB(ivec2(1)); uint s = gl_SubGroupSizeARB; }\n", "compute")
    with pytest.raises(GLSLCompileError, match="ballotARB"):
        parse(head + "void main() { ballotARB(true); }\n", "fragment")
    with pytest.raises(GLSLCompileError, match="gl_SubGroupEqMaskARB"):
        parse(head + "void main() { gl_SubGroupEqMaskARB; }\n", "fragment")
    with pytest.raises(GLSLCompileError, match="readInvocationARB"):
        parse("#version 430\nvoid main() { readInvocationARB(1.0, 0u); }\n", "fragment")
