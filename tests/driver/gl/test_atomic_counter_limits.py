"""Atomic counter limits at link time (GL 4.6 section 7.6.2, table 23.57; piglit's
arb_shader_atomic_counters/max-counters): a stage with more active counters than
MAX_<STAGE>_ATOMIC_COUNTERS (array elements counted one by one), or the stages together
more than MAX_COMBINED_ATOMIC_COUNTERS / MAX_COMBINED_ATOMIC_COUNTER_BUFFERS (a binding
both stages use counts twice), fails to link, naming the limit; at the limit it links.
The limits are read from the context; the counts are worked out from the declarations."""

from __future__ import annotations

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source


def fragment(n: int, bindings=(0,)) -> str:
    """A fragment shader reading ``n`` counters in an array at each of ``bindings``."""
    decls = "".join(f"layout(binding={b}) uniform atomic_uint f{b}[{n}];\n" for b in bindings)
    reads = " + ".join(f"atomicCounter(f{b}[i])" for b in bindings)
    return f"""#version 140
#extension GL_ARB_shader_atomic_counters : enable
{decls}flat in int k;
out ivec4 color;
void main() {{
    uint sum = 0u;
    for (int i = 0; i < k; i++) sum += {reads};
    color = ivec4(sum);
}}
"""


def vertex(n: int, bindings=(0,)) -> str:
    # past the fragment shader's counters (offset 64): the stages may share a binding
    decls = "".join(f"layout(binding={b}, offset=64) uniform atomic_uint v{b}[{n}];\n" for b in bindings)
    reads = " + ".join(f"atomicCounter(v{b}[gl_VertexID % {n}])" for b in bindings)
    return f"""#version 140
#extension GL_ARB_shader_atomic_counters : enable
{decls}flat out int k;
void main() {{
    k = int({reads});
    gl_Position = vec4(0.0);
}}
"""


def link(c, vs: str, fs: str) -> tuple[bool, str]:
    prog = c.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(c, kind, src)
        assert ok, log
        c.glAttachShader(prog, sh)
    c.glLinkProgram(prog)
    return c.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(prog)


def test_counters_past_a_stage_limit_or_the_combined_limit_fail_to_link():
    c = driver.Context(api="gl43", width=4, height=4)
    per_fs = c.glGetIntegerv(E.GL_MAX_FRAGMENT_ATOMIC_COUNTERS)[0]
    per_vs = c.glGetIntegerv(E.GL_MAX_VERTEX_ATOMIC_COUNTERS)[0]
    combined = c.glGetIntegerv(E.GL_MAX_COMBINED_ATOMIC_COUNTERS)[0]
    assert per_fs <= combined and per_vs <= combined
    ok, log = link(c, vertex(1, (1,)), fragment(per_fs))
    assert ok == (per_fs + 1 <= combined), log
    ok, log = link(c, vertex(1, (1,)), fragment(per_fs - 1))
    assert ok, log
    ok, log = link(c, vertex(1, (1,)), fragment(per_fs + 1))
    assert not ok and "GL_MAX_FRAGMENT_ATOMIC_COUNTERS" in log, log
    ok, log = link(c, vertex(per_vs + 1, (1,)), fragment(1))
    assert not ok and "GL_MAX_VERTEX_ATOMIC_COUNTERS" in log, log
    ok, log = link(c, vertex(combined - per_fs + 1, (1,)), fragment(per_fs))
    assert not ok and "GL_MAX_COMBINED_ATOMIC_COUNTERS" in log, log


def test_buffers_past_the_combined_limit_fail_to_link():
    c = driver.Context(api="gl43", width=4, height=4)
    combined = c.glGetIntegerv(E.GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS)[0]
    per_stage = min(c.glGetIntegerv(E.GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS)[0],
                    c.glGetIntegerv(E.GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS)[0])
    assert 2 <= combined <= 2 * per_stage
    half = combined // 2
    ok, log = link(c, vertex(1, range(half)), fragment(1, range(combined - half)))
    assert ok, log                        # bindings 0 .. half - 1 in both stages: counted once a stage
    ok, log = link(c, vertex(1, range(half + 1)), fragment(1, range(combined - half)))
    assert not ok and "GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS" in log, log
