"""std140 and std430 block layouts (GL 4.6 section 7.6.2.2) are written once, in
the compiler (compiler.ir.passes.io.type_layout): the offsets and strides the GL
front end reports are the ones the shader writes to. Each member's offset is
worked out by hand below, queried through the program interface, and checked
against the bytes a compute shader stores there."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx.glhelp import compute_program

MEMBERS = "float f; vec3 v; float g; mat2 m; float arr[2]; S s[2];"
CS = """#version 430
layout(local_size_x = 1) in;
struct S { vec2 a; float b; };
layout(std430, binding = 0) buffer B430 { %(m)s } x;
layout(std140, binding = 1) buffer B140 { %(m)s } y;
void main() {
    x.f = 1.0; x.v = vec3(2.0, 3.0, 4.0); x.g = 5.0; x.m = mat2(6.0, 7.0, 8.0, 9.0);
    x.arr[0] = 10.0; x.arr[1] = 11.0; x.s[0].a = vec2(12.0, 13.0); x.s[0].b = 14.0;
    x.s[1].a = vec2(15.0, 16.0); x.s[1].b = 17.0;
    y.f = 1.0; y.v = vec3(2.0, 3.0, 4.0); y.g = 5.0; y.m = mat2(6.0, 7.0, 8.0, 9.0);
    y.arr[0] = 10.0; y.arr[1] = 11.0; y.s[0].a = vec2(12.0, 13.0); y.s[0].b = 14.0;
    y.s[1].a = vec2(15.0, 16.0); y.s[1].b = 17.0;
}""" % {"m": MEMBERS}

# name -> (offset, array stride, matrix stride) in bytes, by hand
STD430 = {"f": (0, 0, 0), "v": (16, 0, 0), "g": (28, 0, 0),
          "m": (32, 0, 8),                      # vec2 columns, 8 bytes apart
          "arr[0]": (48, 4, 0),                 # std430 does not round array strides
          "s[0].a": (56, 0, 0), "s[0].b": (64, 0, 0),   # S: align 8, size 16
          "s[1].a": (72, 0, 0), "s[1].b": (80, 0, 0)}
STD140 = {"f": (0, 0, 0), "v": (16, 0, 0), "g": (28, 0, 0),
          "m": (32, 0, 16),                     # columns rounded up to vec4
          "arr[0]": (64, 16, 0),                # array strides rounded up to 16
          "s[0].a": (96, 0, 0), "s[0].b": (104, 0, 0),  # S: align 16, size 16
          "s[1].a": (112, 0, 0), "s[1].b": (120, 0, 0)}
SIZES_B = {"B430": 96, "B140": 128}    # the end rounded up to the block's alignment (vec3: 16)
# the values main() stores, per member: (float index into the member, value)
STORED = {"f": [(0, 1)], "v": [(0, 2), (1, 3), (2, 4)], "g": [(0, 5)], "arr[0]": [(0, 10)],
          "s[0].a": [(0, 12), (1, 13)], "s[0].b": [(0, 14)], "s[1].a": [(0, 15), (1, 16)], "s[1].b": [(0, 17)]}


@pytest.fixture(scope="module")
def ran():
    ctx = driver.Context(api="gl43", width=4, height=4)
    p = compute_program(ctx, CS)
    bufs = ctx.glGenBuffers(2)
    for binding, buf in enumerate(bufs):
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, binding, buf)
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 256, bytes(256), E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    data = {}
    for name, buf in zip(("B430", "B140"), bufs):
        ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
        data[name] = np.frombuffer(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 256), np.float32)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return ctx, p, data


@pytest.mark.parametrize("block, want", [("B430", STD430), ("B140", STD140)])
def test_reported_offsets_are_the_hand_computed_ones(ran, block, want):
    ctx, p, _ = ran
    props = [E.GL_OFFSET, E.GL_ARRAY_STRIDE, E.GL_MATRIX_STRIDE, E.GL_TOP_LEVEL_ARRAY_SIZE,
             E.GL_TOP_LEVEL_ARRAY_STRIDE]
    for member, expected in want.items():
        v = ctx.glGetProgramResourceIndex(p, E.GL_BUFFER_VARIABLE, f"{block}.{member}")
        if member.startswith("s[1]"):
            # GL 4.6 section 7.3.1.1: a top-level array of structures lists its first element only
            assert v == E.GL_INVALID_INDEX, member
            continue
        assert v != E.GL_INVALID_INDEX, member
        # the top-level array s[2] (S: 16 bytes in both layouts); a member of no top-level
        # array of aggregates: 1 and 0 (arr[2] of floats is none)
        top = (2, 16) if member.startswith("s[") else (1, 0)
        assert tuple(ctx.glGetProgramResourceiv(p, E.GL_BUFFER_VARIABLE, v, 5, props, 5)) == expected + top, member
    i = ctx.glGetProgramResourceIndex(p, E.GL_SHADER_STORAGE_BLOCK, block)
    assert ctx.glGetProgramResourceiv(p, E.GL_SHADER_STORAGE_BLOCK, i, 1, [E.GL_BUFFER_DATA_SIZE], 1) == \
        [SIZES_B[block]]


@pytest.mark.parametrize("block, want", [("B430", STD430), ("B140", STD140)])
def test_the_shader_writes_where_gl_says(ran, block, want):
    _, _, data = ran
    words = data[block]
    for member, stores in STORED.items():
        offset_B = want[member][0]
        for k, value in stores:
            stride_B = want[member][1] or 4
            at = offset_B // 4 + (k * stride_B // 4 if member == "arr[0]" else k)
            assert words[at] == value, (member, k)
    # the matrix: column j at offset + j * matrix stride
    m_offset, _, m_stride = want["m"]
    for j, column in enumerate(([6.0, 7.0], [8.0, 9.0])):
        at = (m_offset + j * m_stride) // 4
        assert list(words[at:at + 2]) == column


def test_top_level_arrays_of_structures_list_their_first_element():
    """GL 4.6 section 7.3.1.1: a storage block member that is an array of aggregates (a
    top-level array) has entries for its first element only, each reporting the array's
    TOP_LEVEL_ARRAY_SIZE (0 when unsized) and TOP_LEVEL_ARRAY_STRIDE; the layouts by hand
    (T = { mat2 m[3]; float c; }): std140 row_major, a mat2 is two 16-byte rows, m's stride
    32, c at 96, T 112 bytes; std430 column-major, two 8-byte columns, m's stride 16, c at
    48, T 56 bytes (rounded to its 8-byte alignment). The same values llvmpipe reports."""
    ctx = driver.Context(api="gl43", width=4, height=4)
    p = compute_program(ctx, """#version 430
layout(local_size_x = 1) in;
struct T { mat2 m[3]; float c; };
layout(std140, row_major, binding = 0) buffer R { vec4 v; T t[]; } r;
layout(std430, binding = 1) buffer C { vec4 v; T t[2]; } c;
void main() { r.t[0].m[0] = mat2(1.0); r.t[0].c = c.t[1].c; c.v = r.v; }""")
    props = [E.GL_OFFSET, E.GL_ARRAY_SIZE, E.GL_ARRAY_STRIDE, E.GL_MATRIX_STRIDE, E.GL_IS_ROW_MAJOR,
             E.GL_TOP_LEVEL_ARRAY_SIZE, E.GL_TOP_LEVEL_ARRAY_STRIDE]
    want = {"R.v": (0, 1, 0, 0, 0, 1, 0),
            "R.t[0].m[0]": (16, 3, 32, 16, 1, 0, 112), "R.t[0].c": (112, 1, 0, 0, 0, 0, 112),
            "C.v": (0, 1, 0, 0, 0, 1, 0),
            "C.t[0].m[0]": (16, 3, 16, 8, 0, 2, 56), "C.t[0].c": (64, 1, 0, 0, 0, 2, 56)}
    n = ctx.glGetProgramInterfaceiv(p, E.GL_BUFFER_VARIABLE, E.GL_ACTIVE_RESOURCES)[0]
    got = {ctx.glGetProgramResourceName(p, E.GL_BUFFER_VARIABLE, i, 64):
           tuple(ctx.glGetProgramResourceiv(p, E.GL_BUFFER_VARIABLE, i, len(props), props, len(props)))
           for i in range(n)}
    assert got == want
    assert ctx.glGetError() == E.GL_NO_ERROR
