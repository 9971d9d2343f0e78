"""Atomic counters as a program reports them (GL 4.6 section 7.3.1.1, GLSL 4.60 section
4.4.6.2): the number of active counter buffers, the buffer each counter uniform belongs to,
which stages reference a buffer; a counter declared by two stages must have the same
binding and offset in both (implicit offsets count within one shader); ``binding`` and
``offset`` may repeat in one layout(), the last one winning, as in Mesa; a default
``layout(binding, offset) uniform;`` is accepted and sets nothing. Expected values are
worked out by hand from the declarations."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

FS = """#version 140
#extension GL_ARB_shader_atomic_counters : enable
out ivec4 fcolor;
layout(binding=0) uniform atomic_uint a[2];     // binding 0: offsets 0, 4
layout(binding=0) uniform atomic_uint b;        // binding 0: offset 8 (implicit)
layout(binding=3, offset=8) uniform atomic_uint c;
layout(binding=5, binding=2, offset=4) uniform; // accepted, no effect
layout(binding=2) uniform atomic_uint d;        // binding 2: offset 0
layout(binding=7, offset=8, offset=0) uniform atomic_uint e;   // binding 7, offset 0
void main() {
    fcolor.x = int(atomicCounter(a[1]) + atomicCounter(b) + atomicCounter(c)
                   + atomicCounter(d) + atomicCounter(e));
}
"""
VS = """#version 140
#extension GL_ARB_shader_atomic_counters : enable
in vec4 position;
layout(binding=2) uniform atomic_uint d;        // the same binding 2, offset 0
layout(binding=3, offset=8) uniform atomic_uint c;
void main() { gl_Position = position + vec4(float(atomicCounter(d) + atomicCounter(c))); }
"""


@pytest.fixture()
def ctx():
    return driver.Context(api="gl43", width=4, height=4)


def _link(ctx, *stages):
    prog = ctx.glCreateProgram()
    for kind, src in stages:
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    return prog, bool(ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0])


def test_buffers_counters_and_their_buffer_indices(ctx):
    prog, ok = _link(ctx, (E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS))
    assert ok, ctx.glGetProgramInfoLog(prog)
    n = ctx.glGetProgramiv(prog, E.GL_ACTIVE_ATOMIC_COUNTER_BUFFERS)[0]
    assert n == 4
    bindings = [ctx.glGetActiveAtomicCounterBufferiv(prog, i, E.GL_ATOMIC_COUNTER_BUFFER_BINDING)[0]
                for i in range(n)]
    assert sorted(bindings) == [0, 2, 3, 7]
    want = {"a[0]": (0, 0), "b": (0, 8), "c": (3, 8), "d": (2, 0), "e": (7, 0)}   # binding, offset
    total = ctx.glGetProgramiv(prog, E.GL_ACTIVE_UNIFORMS)[0]
    seen = {}
    for i in range(total):
        name = ctx.glGetActiveUniformName(prog, i)
        if name not in want:
            continue
        buf = ctx.glGetActiveUniformsiv(prog, 1, [i], E.GL_UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX)[0]
        offset = ctx.glGetActiveUniformsiv(prog, 1, [i], E.GL_UNIFORM_OFFSET)[0]
        seen[name] = (bindings[buf], offset)
    assert seen == want
    # referenced-by, for every stage GL 4.3 has
    stages = {E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER: {2, 3},
              E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER: {0, 2, 3, 7},
              E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_CONTROL_SHADER: set(),
              E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_EVALUATION_SHADER: set(),
              E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_GEOMETRY_SHADER: set(),
              E.GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER: set()}
    for pname, expected in stages.items():
        got = {bindings[i] for i in range(n) if ctx.glGetActiveAtomicCounterBufferiv(prog, i, pname)[0]}
        assert got == expected, hex(pname)
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_a_plain_uniform_has_no_counter_buffer(ctx):
    src = FS.replace("out ivec4 fcolor;", "out ivec4 fcolor;\nuniform int k;").replace(
        "fcolor.x = int(", "fcolor.x = k + int(")
    prog, ok = _link(ctx, (E.GL_FRAGMENT_SHADER, src))
    assert ok, ctx.glGetProgramInfoLog(prog)
    i = ctx.glGetUniformIndices(prog, 1, ["k"])[0]
    assert ctx.glGetActiveUniformsiv(prog, 1, [i], E.GL_UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX) == [-1]


@pytest.mark.parametrize("decl", [
    "layout(binding=0) uniform atomic_uint d;",           # another binding
    "layout(binding=2, offset=4) uniform atomic_uint d;",  # another offset
])
def test_a_counter_declared_differently_by_two_stages_fails_to_link(ctx, decl):
    vs = VS.replace("layout(binding=2) uniform atomic_uint d;", decl)
    prog, ok = _link(ctx, (E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS))
    assert not ok
    assert "`d'" in ctx.glGetProgramInfoLog(prog)      # differs, or overlaps the other stage's a


def test_implicit_offsets_count_within_each_shader(ctx):
    # the vertex shader's c follows its own x at binding 3: offset 4, where the fragment
    # shader's c is at 8 -> the declarations differ
    vs = VS.replace("layout(binding=3, offset=8) uniform atomic_uint c;",
                    "layout(binding=3, offset=0) uniform atomic_uint x;\n"
                    "layout(binding=3) uniform atomic_uint c;").replace(
        "atomicCounter(c)", "atomicCounter(c) + atomicCounter(x)")
    prog, ok = _link(ctx, (E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS))
    assert not ok and "atomic counter `c'" in ctx.glGetProgramInfoLog(prog)
    fixed = vs.replace("layout(binding=3, offset=0) uniform atomic_uint x;",
                       "layout(binding=3, offset=4) uniform atomic_uint x;")
    prog, ok = _link(ctx, (E.GL_VERTEX_SHADER, fixed), (E.GL_FRAGMENT_SHADER, FS))
    assert ok, ctx.glGetProgramInfoLog(prog)
