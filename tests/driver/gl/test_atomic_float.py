"""GL_NV_shader_atomic_float and GL_INTEL_shader_atomic_float_minmax: atomics on float
buffer and shared variables and on r32f images, run on the GPU model (the ISA's fadd,
fmin, fmax and fcmpxchg; the texture unit's float add) and checked against numpy:

- atomicAdd: 256 invocations add to 4 words (64 each); the sum of exactly representable
  values is exact in any order, and each invocation's old value is a partial sum: the
  old values of one word, sorted, are the running sums of its addends in some order;
- atomicMin/atomicMax: minNum/maxNum, -0 below +0, quiet NaNs lose, the result the
  numpy minimum of the numbers;
- atomicCompSwap compares as floats: -0 equals +0, a NaN equals nothing;
- atomicExchange swaps bits (a NaN's payload kept);
- imageAtomicAdd / imageAtomicExchange on an r32f image.
Without the extensions the float overloads do not exist."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import compile_source

N = 256
RNG = np.random.default_rng(1415)
HEAD = ("#version 430\n#extension GL_NV_shader_atomic_float : require\n"
        "#extension GL_INTEL_shader_atomic_float_minmax : require\n")


def _ssbo(ctx, binding, data):
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, binding, buf)
    return buf


def _read(ctx, buf, dtype, n):
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
    return np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, n * 4)), dtype).copy()


def _dispatch(ctx, src, groups=1):
    prog = glhelp.compute_program(ctx, src)
    ctx.glUseProgram(prog)
    ctx.glDispatchCompute(groups, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]


@pytest.mark.parametrize("memory", ["buffer", "shared"])
def test_atomic_add_and_exchange(memory):
    ctx = glhelp.context(4, 4, api="gl46")
    # multiples of 1/8 up to 2^10: every partial sum is exact in float32
    addends = (RNG.integers(-8192, 8192, N) / 8.0).astype(np.float32)
    if memory == "buffer":
        store = "layout(std430, binding = 2) buffer Acc { float acc[4]; float xs[4]; };"
        init = ""
        publish = ""
    else:
        store = ("shared float acc[4];\nshared float xs[4];\n"
                 "layout(std430, binding = 2) buffer Acc { float out_acc[4]; float out_xs[4]; };")
        init = ("if (i < 4u) { acc[i] = 0.5; xs[i] = -1.0; }\n"
                "    memoryBarrierShared(); barrier();")
        publish = ("memoryBarrierShared(); barrier();\n"
                   "    if (i < 4u) { out_acc[i] = acc[i]; out_xs[i] = xs[i]; }")
    src = HEAD + f"""layout(local_size_x = {N}) in;
layout(std430, binding = 0) readonly buffer In {{ float v[]; }};
layout(std430, binding = 1) buffer Old {{ float old_add[{N}]; float old_xchg[{N}]; }};
{store}
void main() {{
    uint i = gl_LocalInvocationIndex;
    {init}
    old_add[i] = atomicAdd(acc[i & 3u], v[i]);
    old_xchg[i] = atomicExchange(xs[i & 3u], float(i));
    {publish}
}}
"""
    _ssbo(ctx, 0, addends)
    old = _ssbo(ctx, 1, np.zeros(2 * N, np.float32))
    acc = _ssbo(ctx, 2, np.array([0.5] * 4 + [-1.0] * 4, np.float32))
    _dispatch(ctx, src)
    olds = _read(ctx, old, np.float32, 2 * N)
    final = _read(ctx, acc, np.float32, 8)
    for w in range(4):
        mine = addends[w::4]
        assert final[w] == np.float32(0.5) + mine.sum(dtype=np.float64)
        # each old value is 0.5 plus the addends applied before it: the old values and the
        # final one are {0.5} and each old value plus its own addend (one chain of sums)
        mine_old = olds[:N][w::4]
        assert sorted(mine_old.tolist() + [float(final[w])]) == sorted([0.5] + (mine_old + mine).tolist())
        # exchange: the word ends with one invocation's index; the old values are -1 and
        # every other of that word's indices, each once
        ids = np.arange(w, N, 4, dtype=np.float32)
        xold = olds[N:][w::4]
        assert final[4 + w] in ids
        assert sorted(xold.tolist()) == sorted([-1.0] + [x for x in ids.tolist() if x != final[4 + w]])


QNAN, QNAN_NEG, SNAN = 0x7FC01234, 0xFFC00077, 0x7F800042


def _bits(values):
    return np.array(values, np.float32).view(np.uint32)


def test_atomic_min_max_against_numpy_with_nans_and_signed_zeros():
    """Word w starts at start[w]; invocation i combines v[i] into word i % 8 with atomicMin
    (first buffer) and atomicMax (second). Quiet NaNs lose to numbers, a signalling NaN
    wins and stays as it is, -0 is below +0; the numbers' result is numpy's."""
    ctx = glhelp.context(4, 4, api="gl46")
    n = 64
    v = (RNG.standard_normal(n) * 100).astype(np.float32).view(np.uint32)
    v[8:16:2] = QNAN
    v[9] = QNAN_NEG
    start = _bits([5.0, 0.0, -0.0, 1e30, -1e30, 0.0, 3.0, 7.0])
    start[3] = QNAN                       # a quiet NaN in memory loses to the first number
    start[6] = SNAN                       # a signalling NaN in memory stays
    v[0] = _bits([-0.0])[0]               # word 0: -0 against the others
    v[1::8] = _bits([0.0])[0]             # word 1: +0 and -0 ...
    v[2::8] = _bits([0.0])[0]             # word 2: memory -0 against +0
    src = HEAD + f"""layout(local_size_x = {n}) in;
layout(std430, binding = 0) readonly buffer In {{ uint v[]; }};
layout(std430, binding = 1) buffer Lo {{ float lo[8]; }};
layout(std430, binding = 2) buffer Hi {{ float hi[8]; }};
void main() {{
    uint i = gl_LocalInvocationIndex;
    atomicMin(lo[i % 8u], uintBitsToFloat(v[i]));
    atomicMax(hi[i % 8u], uintBitsToFloat(v[i]));
}}
"""
    _ssbo(ctx, 0, v)
    lo = _ssbo(ctx, 1, start)
    hi = _ssbo(ctx, 2, start)
    _dispatch(ctx, src)
    got_lo, got_hi = _read(ctx, lo, np.uint32, 8), _read(ctx, hi, np.uint32, 8)
    for w in range(8):
        operands = np.concatenate([[start[w]], v[w::8]]).astype(np.uint32)
        f = operands.view(np.float32)
        if w == 6:
            assert got_lo[w] == SNAN and got_hi[w] == SNAN
            continue
        numbers = f[~np.isnan(f)]
        want_lo, want_hi = numbers.min(), numbers.max()
        assert got_lo[w].view(np.float32) == want_lo and got_hi[w].view(np.float32) == want_hi, w
        if want_lo == 0:                  # the sign of a zero result: -0 is the smaller
            assert got_lo[w] == (0x80000000 if (operands == 0x80000000).any() else 0)
        if want_hi == 0:
            assert got_hi[w] == (0 if (operands == 0).any() else 0x80000000)


def test_atomic_comp_swap_compares_as_floats():
    """Each word is swapped by the first invocation whose compare value equals it as a
    float: -0 matches +0, a NaN matches nothing (not even the same bits)."""
    ctx = glhelp.context(4, 4, api="gl46")
    start = np.array([0x80000000, 0x00000000, QNAN, _bits([2.5])[0]], np.uint32)
    cmp = np.array([0x00000000, 0x80000000, QNAN, _bits([2.5])[0]], np.uint32)
    src = HEAD + """layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer In { uint c[4]; };
layout(std430, binding = 1) buffer W { float w[4]; };
layout(std430, binding = 2) buffer O { float old[16]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    old[i] = atomicCompSwap(w[i & 3u], uintBitsToFloat(c[i & 3u]), 100.0 + float(i));
}
"""
    _ssbo(ctx, 0, cmp)
    w = _ssbo(ctx, 1, start)
    o = _ssbo(ctx, 2, np.zeros(16, np.float32))
    _dispatch(ctx, src)
    final, olds = _read(ctx, w, np.uint32, 4), _read(ctx, o, np.uint32, 16)
    for k in (0, 1, 3):                  # swapped once: by one of the 4 invocations of the word
        winners = [i for i in range(k, 16, 4) if olds[i] == start[k]]
        assert len(winners) == 1
        assert final[k] == _bits([100.0 + winners[0]])[0]
    assert final[2] == QNAN and (olds[2::4] == QNAN).all()


def test_image_atomic_add_and_exchange_on_r32f():
    ctx = glhelp.context(4, 4, api="gl46")
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_R32F, 4, 4)
    start = np.arange(16, dtype=np.float32) * 0.25
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 4, 4, E.GL_RED, E.GL_FLOAT, start.tobytes())
    ctx.glBindImageTexture(0, tex, 0, False, 0, E.GL_READ_WRITE, E.GL_R32F)
    src = HEAD + """layout(local_size_x = 64) in;
layout(r32f, binding = 0) uniform image2D img;
layout(std430, binding = 1) buffer O { float old[64]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(int(i & 3u), int((i >> 2u) & 3u));
    old[i] = imageAtomicAdd(img, p, 0.5 * float(i >> 4u) + 1.0);    // four adds per texel
    memoryBarrierImage();
    barrier();
    if (i < 16u)
        old[64u + i] = imageAtomicExchange(img, p, -float(i));     // then one exchange each
}
"""
    o = _ssbo(ctx, 1, np.zeros(80, np.float32))
    _dispatch(ctx, src)
    olds = _read(ctx, o, np.float32, 80)
    got = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED, E.GL_FLOAT)), np.float32)
    addend = 0.5 * (np.arange(64) >> 4) + 1.0
    sums = start + 1.0 + 1.5 + 2.0 + 2.5
    assert (olds[64:] == sums).all()          # the exchanges saw every add
    assert (got == -np.arange(16, dtype=np.float32)).all()
    for t in range(16):                       # the adds' old values: one chain of sums per texel
        mine = olds[t:64:16]
        assert sorted(mine.tolist() + [float(sums[t])]) == sorted([float(start[t])] + (mine + addend[t::16]).tolist())


def test_the_float_overloads_need_the_extensions():
    ctx = glhelp.context(4, 4, api="gl46")
    body = ("layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { float f; };\n"
            "void main() { atomicAdd(f, 1.0); }\n")
    assert not compile_source(ctx, E.GL_COMPUTE_SHADER, "#version 430\n" + body)[1]
    ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER,
                             "#version 430\n#extension GL_NV_shader_atomic_float : require\n" + body)[1:]
    assert ok, log
    minmax = body.replace("atomicAdd", "atomicMin")
    assert not compile_source(ctx, E.GL_COMPUTE_SHADER,
                              "#version 430\n#extension GL_NV_shader_atomic_float : require\n" + minmax)[1]
    # an int variable is not converted to float (the argument is inout)
    assert not compile_source(ctx, E.GL_COMPUTE_SHADER, HEAD + body.replace("float f", "int f"))[1]
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
    assert {"GL_NV_shader_atomic_float", "GL_INTEL_shader_atomic_float_minmax"} <= names
