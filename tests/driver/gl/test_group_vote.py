"""GL_ARB_shader_group_vote and GLSL 4.60's anyInvocation/allInvocations/
allInvocationsEqual: votes over the active invocations of a SIMD group (32
invocations; in compute, groups restart at each work group, so a 48-invocation
work group is a group of 32 and one of 16), in uniform and divergent control
flow, against results computed group by group in the test."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

LOCAL = 48
GROUPS = 4
N = LOCAL * GROUPS

VOTES = """layout(local_size_x = 48) in;
layout(std430, binding = 0) buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    bool b = v[i] != 0u;
    r[i] = (ANY(b) ? 1u : 0u) | (ALL(b) ? 2u : 0u) | (EQ(b) ? 4u : 0u);
    // divergent: only invocations whose index is not a multiple of 3 vote
    if (i % 3u != 0u)
        r[N + i] = (ANY(b) ? 1u : 0u) | (ALL(b) ? 2u : 0u) | (EQ(b) ? 4u : 0u);
    else
        r[N + i] = 8u;
}
""".replace("N + i", f"{N}u + i")

ARB = ("#version 430\n#extension GL_ARB_shader_group_vote : require\n"
       "#define ANY anyInvocationARB\n#define ALL allInvocationsARB\n#define EQ allInvocationsEqualARB\n")
GLSL460 = "#version 460\n#define ANY anyInvocation\n#define ALL allInvocations\n#define EQ allInvocationsEqual\n"


def expected(values: np.ndarray, active: np.ndarray) -> np.ndarray:
    out = np.full(N, 8, np.uint32)
    for wg in range(GROUPS):
        for first, last in ((0, 32), (32, LOCAL)):
            lanes = range(wg * LOCAL + first, wg * LOCAL + last)
            voters = [bool(values[i]) for i in lanes if active[i]]
            bits = any(voters) | (all(voters) << 1) | ((len(set(voters)) <= 1) << 2)
            for i in lanes:
                if active[i]:
                    out[i] = bits
    return out


def run(ctx, header: str, values: np.ndarray) -> np.ndarray:
    glhelp.compute_program(ctx, header + VOTES)
    bufs = ctx.glGenBuffers(2)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, bufs[0])
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 4 * N, values.astype(np.uint32), E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 8 * N, None, E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(GROUPS, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    out = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 8 * N)), np.uint32)
    expect(ctx, E.GL_NO_ERROR)
    return out


def _values():
    rng = np.random.default_rng(7)
    v = (rng.random(N) < 0.5).astype(np.uint32)
    v[0:32] = 1                       # work group 0, group 0: all true
    v[32:48] = 0                      # work group 0, group 1: all false
    v[48:80] = 0
    v[60] = 5                         # work group 1, group 0: one true lane
    v[96 + 32:96 + 48] = 0
    v[96 + 33] = 1                    # work group 2, group 1: one true lane, not a voter in the if
    v[96 + 45] = 1                    # (45 % 3 == 0: not a voter either) -> the voters all agree
    return v


@pytest.mark.parametrize("header", [ARB, GLSL460], ids=["ARB", "460"])
def test_votes_in_uniform_and_divergent_control_flow(header):
    ctx = glhelp.context(4, 4, api="compat" if header is ARB else "gl46")
    v = _values()
    out = run(ctx, header, v)
    everyone = np.ones(N, bool)
    assert out[:N].tolist() == expected(v, everyone).tolist()
    voters = np.arange(N) % 3 != 0
    assert out[N:].tolist() == expected(v, voters).tolist()
    # spot checks by hand: the all-true group, the one-true-lane group, the
    # group whose only true lanes do not vote inside the if
    assert out[5] == 1 | 2 | 4 and out[40] == 4 and out[61] == 1
    assert out[N + 96 + 34] == 4


def test_fragment_votes_on_a_uniform_condition():
    """A condition the same in every fragment: every vote is true (any, all, equal)."""
    vs = "#version 460\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    fs = ("#version 460\nuniform float k;\nout vec4 c;\nvoid main() {\n"
          "    bool b = k > 0.5;\n"
          "    c = vec4(anyInvocation(b), allInvocations(b), allInvocationsEqual(b), 1.0);\n}\n")
    with driver.Context(api="gl46", width=8, height=8) as ctx:
        prog = glhelp.program(ctx, vs, fs)
        ctx.glUseProgram(prog)
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "k"), 1.0)
        _quad(ctx, prog)
        px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert px.reshape(-1, 4).tolist() == [[255, 255, 255, 255]] * 64
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "k"), 0.0)
        _quad(ctx, prog)
        px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert px.reshape(-1, 4).tolist() == [[0, 0, 255, 255]] * 64


def _quad(ctx, prog):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(prog, "p")
    ctx.glEnableVertexAttribArray(loc)
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)


def test_the_functions_need_the_extension_or_glsl_460():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        for src, ok in (("#version 450\nvoid main() { bool b = anyInvocationARB(true); }\n", False),
                        ("#version 450\nvoid main() { bool b = anyInvocation(true); }\n", False),
                        ("#version 450\n#extension GL_ARB_shader_group_vote : enable\n"
                         "void main() { bool b = anyInvocation(true); }\n", False),
                        ("#version 450\n#extension GL_ARB_shader_group_vote : enable\n"
                         "#ifndef GL_ARB_shader_group_vote\n#error no macro\n#endif\n"
                         "void main() { bool b = allInvocationsEqualARB(true); }\n", True)):
            s = ctx.glCreateShader(E.GL_VERTEX_SHADER)
            ctx.glShaderSource(s, 1, [src])
            ctx.glCompileShader(s)
            assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [int(ok)], (src, ctx.glGetShaderInfoLog(s))
            if not ok:
                assert "error: no function with name" in ctx.glGetShaderInfoLog(s)


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_listed(api):
    with driver.Context(api=api, width=4, height=4) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert "GL_ARB_shader_group_vote" in [ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)]


def test_votes_per_work_group_counted_by_an_atomic_counter():
    """GLSL 1.50 with the compute, atomic-counter and vote extensions (atomic counters
    may take layout(binding) with ARB_shader_atomic_counters alone): 8 invocations per
    work group agree on their work group's id being non-zero, so in 2 work groups all
    16 count for allInvocationsEqual, 8 for anyInvocation and 8 for allInvocations."""
    results = []
    for vote in ("allInvocationsEqualARB", "anyInvocationARB", "allInvocationsARB"):
        ctx = glhelp.context(4, 4, api="compat")
        glhelp.compute_program(ctx, "#version 150\n#extension GL_ARB_compute_shader: require\n"
                                    "#extension GL_ARB_shader_atomic_counters: require\n"
                                    "#extension GL_ARB_shader_group_vote: require\n"
                                    "layout(binding = 0) uniform atomic_uint inc;\n"
                                    "layout(local_size_x = 8) in;\n"
                                    f"void main() {{ if ({vote}(bool(gl_WorkGroupID.x))) "
                                    "atomicCounterIncrement(inc); }\n")
        (buf,) = ctx.glGenBuffers(1)
        ctx.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, buf)
        ctx.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 4, np.zeros(1, np.uint32), E.GL_DYNAMIC_COPY)
        ctx.glDispatchCompute(2, 1, 1)
        ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
        results.append(int(np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 4)),
                                         np.uint32)[0]))
        expect(ctx, E.GL_NO_ERROR)
    assert results == [16, 8, 8]
