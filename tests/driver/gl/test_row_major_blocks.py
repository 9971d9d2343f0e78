"""row_major matrices of uniform and storage blocks (GLSL 4.60 section 4.4.5, GL 4.6
section 7.6.2.2 rule 7): a row-major C-column, R-row matrix is held as R rows of C
components, ``GL_MATRIX_STRIDE`` apart; the block's qualifier reaches the matrices
of its structures, a member's own qualifier overrides it. The offsets, strides and
``GL_IS_ROW_MAJOR`` GL reports are worked out by hand and checked against the bytes a
compute shader stores (doubles and floats)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx.glhelp import compute_program

CS = """#version 430
layout(local_size_x = 1) in;
struct S { double k; dmat3x2 n; };
layout(std140, row_major, binding = 0) buffer B {
    dmat2x3 m;                      // 3 rows of dvec2, 16 bytes apart
    layout(column_major) mat2 c;    // 2 columns of vec2, rounded to 16 bytes
    S s;                            // n: 2 rows of dvec3, 32 bytes apart
    mat3x2 f[2];                    // each: 2 rows of vec3, 16 bytes apart
} b;
void main() {
    b.m = dmat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    b.c = mat2(7.0, 8.0, 9.0, 10.0);
    b.s.k = 11.0;
    b.s.n = dmat3x2(12.0, 13.0, 14.0, 15.0, 16.0, 17.0);
    b.f[1] = mat3x2(18.0, 19.0, 20.0, 21.0, 22.0, 23.0);
}"""

# member -> (offset, array stride, matrix stride, row-major), by hand (std140)
WANT = {"m": (0, 0, 16, 1),             # 3 x dvec2 rows: 48 bytes
        "c": (48, 0, 16, 0),            # column_major overrides the block: 2 x vec2 columns
        "s.k": (96, 0, 0, 0),           # S aligned to 32 (its dvec3 rows)
        "s.n": (128, 0, 32, 1),         # 2 x dvec3 rows
        "f[0]": (192, 32, 16, 1)}       # 2 x vec3 rows each, 32 bytes per matrix


@pytest.fixture(scope="module")
def ran():
    ctx = driver.Context(api="gl43", width=4, height=4)
    p = compute_program(ctx, CS)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 256, bytes(256), E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    data = bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 256))
    assert ctx.glGetError() == E.GL_NO_ERROR
    return ctx, p, data


def test_reported_layout_is_the_hand_computed_one(ran):
    ctx, p, _ = ran
    props = [E.GL_OFFSET, E.GL_ARRAY_STRIDE, E.GL_MATRIX_STRIDE, E.GL_IS_ROW_MAJOR]
    for member, expected in WANT.items():
        v = ctx.glGetProgramResourceIndex(p, E.GL_BUFFER_VARIABLE, f"B.{member}")
        assert v != E.GL_INVALID_INDEX, member
        assert tuple(ctx.glGetProgramResourceiv(p, E.GL_BUFFER_VARIABLE, v, 4, props, 4)) == expected, member


def test_the_shader_stores_rows_where_gl_says(ran):
    _, _, data = ran
    d = np.frombuffer(data, np.float64)
    f = np.frombuffer(data, np.float32)
    # m = columns (1, 2, 3), (4, 5, 6): row r is (m[0][r], m[1][r])
    assert [list(d[k * 2:k * 2 + 2]) for k in range(3)] == [[1, 4], [2, 5], [3, 6]]
    assert list(f[12:14]) == [7, 8] and list(f[16:18]) == [9, 10]          # c: columns
    assert d[12] == 11
    # n = columns (12, 13), (14, 15), (16, 17): rows (12, 14, 16), (13, 15, 17)
    assert list(d[16:19]) == [12, 14, 16] and list(d[20:23]) == [13, 15, 17]
    # f[1] at 192 + 32: rows (18, 20, 22), (19, 21, 23)
    assert list(f[56:59]) == [18, 20, 22] and list(f[60:63]) == [19, 21, 23]


def test_uniform_query_of_a_row_major_uniform_block_member():
    ctx = driver.Context(api="gl43", width=4, height=4)
    p = compute_program(ctx, """#version 430
layout(local_size_x = 1) in;
layout(std140, row_major) uniform U { mat4x2 a; layout(column_major) dmat3 b; };
layout(std430, binding = 0) buffer O { float o; };
void main() { o = a[3][1] + float(b[2][2]); }""")
    idx = ctx.glGetUniformIndices(p, 2, ["a", "b"])
    assert ctx.glGetActiveUniformsiv(p, 2, idx, E.GL_UNIFORM_IS_ROW_MAJOR) == [1, 0]
    assert ctx.glGetActiveUniformsiv(p, 2, idx, E.GL_UNIFORM_MATRIX_STRIDE) == [16, 32]
    # a: 2 rows of vec4 (32 bytes); b at 32: 3 columns of dvec3
    assert ctx.glGetActiveUniformsiv(p, 2, idx, E.GL_UNIFORM_OFFSET) == [0, 32]
