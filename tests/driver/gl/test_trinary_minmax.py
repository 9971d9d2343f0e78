"""GL_AMD_shader_trinary_minmax: min3, max3 and mid3 of float, int and uint vectors in a
compute shader against numpy (min, max and median of three) on random values, ties and
signed zeros; listed in every desktop context (as llvmpipe), the functions exist only
where a shader enables the extension, and the macro is defined."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

N = 64
RNG = np.random.default_rng(22)


def _run(ctx, gtype: str, dtype, data: np.ndarray) -> np.ndarray:
    """Each invocation reads x, y, z (vec4s of ``gtype``) and writes min3, max3, mid3."""
    src = f"""#version 430
#extension GL_AMD_shader_trinary_minmax : require
layout(local_size_x = {N}) in;
layout(std430, binding = 0) buffer In {{ {gtype} v[]; }};
layout(std430, binding = 1) buffer Out {{ {gtype} r[]; }};
void main() {{
    uint i = gl_GlobalInvocationID.x;
    {gtype} x = v[3u * i], y = v[3u * i + 1u], z = v[3u * i + 2u];
    r[3u * i] = min3(x, y, z);
    r[3u * i + 1u] = max3(x, y, z);
    r[3u * i + 2u] = mid3(x, y, z);
}}
"""
    prog = glhelp.compute_program(ctx, src)
    bufs = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, bufs[0])
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, bufs[0])
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, bufs[1])
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, data.nbytes, None, E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 1, bufs[1])
    ctx.glUseProgram(prog)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    out = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, data.nbytes)), dtype)
    expect(ctx, E.GL_NO_ERROR)
    return out.reshape(N, 3, 4)


@pytest.mark.parametrize("gtype,dtype", [("vec4", np.float32), ("ivec4", np.int32), ("uvec4", np.uint32)])
def test_min3_max3_mid3_against_numpy(gtype, dtype):
    ctx = glhelp.context(4, 4, api="gl46")
    if dtype is np.float32:
        data = RNG.standard_normal((N, 3, 4)).astype(np.float32) * 100
        data[:8] = np.round(data[:8] / 50)          # ties: equal values among the three
    else:
        info = np.iinfo(dtype)
        data = RNG.integers(info.min, info.max, (N, 3, 4), dtype=np.int64, endpoint=True).astype(dtype)
        data[:8] = data[:8] % 3                      # ties
    got = _run(ctx, gtype, dtype, data)
    assert (got[:, 0] == data.min(axis=1)).all()
    assert (got[:, 1] == data.max(axis=1)).all()
    assert (got[:, 2] == np.median(data.astype(np.float64), axis=1).astype(dtype)).all()


def test_listed_in_desktop_contexts_and_enabled_by_the_shader():
    for api in ("gl46", "gl32", "compat"):
        ctx = glhelp.context(4, 4, api=api)
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        assert "GL_AMD_shader_trinary_minmax" in names, api
    ctx = glhelp.context(4, 4, api="gles32")
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    assert "GL_AMD_shader_trinary_minmax" not in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
    ctx = glhelp.context(4, 4, api="gl46")
    body = "out vec4 c;\nvoid main() { c = vec4(min3(0.5, 0.25, 1.0)); }\n"
    for header, ok in (("#version 150\n#extension GL_AMD_shader_trinary_minmax : require\n"
                        "#ifndef GL_AMD_shader_trinary_minmax\n#error no macro\n#endif\n", True),
                       ("#version 150\n", False)):
        s = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
        ctx.glShaderSource(s, 1, [header + body])
        ctx.glCompileShader(s)
        assert bool(ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0]) == ok, ctx.glGetShaderInfoLog(s)
