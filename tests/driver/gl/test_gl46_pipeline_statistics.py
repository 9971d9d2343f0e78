"""GL_ARB_pipeline_statistics_query: the eleven counters, counted by the GPU
model's VDM statistics block (vertices and primitives submitted, vertex shader
invocations, clipper in and out, fragment shader invocations) and by the driver
for compute launches; the stages this GPU never runs count 0. Expected values
are hand-counted from the draws."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = ("#version 330\nuniform vec3 shift;\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1)"
      " * 2.0 - 1.0; gl_Position = vec4(p, 0.0, 1.0) + vec4(shift, 0.0); }\n")
FS = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
TARGETS = [E.GL_VERTICES_SUBMITTED, E.GL_PRIMITIVES_SUBMITTED, E.GL_VERTEX_SHADER_INVOCATIONS,
           E.GL_CLIPPING_INPUT_PRIMITIVES, E.GL_CLIPPING_OUTPUT_PRIMITIVES, E.GL_FRAGMENT_SHADER_INVOCATIONS,
           E.GL_COMPUTE_SHADER_INVOCATIONS, E.GL_GEOMETRY_SHADER_INVOCATIONS,
           E.GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED, E.GL_TESS_CONTROL_SHADER_PATCHES,
           E.GL_TESS_EVALUATION_SHADER_INVOCATIONS]


def _measure(ctx, work):
    """Every statistics target active at once around `work()`."""
    qs = ctx.glGenQueries(len(TARGETS))
    for t, q in zip(TARGETS, qs):
        ctx.glBeginQuery(t, q)
    work()
    for t in TARGETS:
        ctx.glEndQuery(t)
    expect(ctx, E.GL_NO_ERROR)
    return {t: ctx.glGetQueryObjectui64v(q, E.GL_QUERY_RESULT)[0] for t, q in zip(TARGETS, qs)}


def _setup():
    ctx = glhelp.context(8, 8, api="compat")
    prog = glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    return ctx, ctx.glGetUniformLocation(prog, "shift")


@pytest.mark.parametrize("blend, shaded", [(True, 3 * 64), (False, 64)])
def test_a_full_screen_quad_three_times(blend, shaded):
    """A strip of 4 vertices, 3 instances: 12 vertices and 6 triangles submitted,
    12 vertex invocations (4 distinct vertices per instance), 6 triangles into and
    out of the clipper. Blended, 3 x 64 pixels are shaded; opaque, the tiler's
    hidden surface removal shades only the 64 visible ones (the spec leaves the
    count to the implementation where fragments need not run)."""
    ctx, _ = _setup()
    if blend:
        ctx.glEnable(E.GL_BLEND)
        ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)
    got = _measure(ctx, lambda: ctx.glDrawArraysInstanced(E.GL_TRIANGLE_STRIP, 0, 4, 3))
    assert got[E.GL_VERTICES_SUBMITTED] == 12
    assert got[E.GL_PRIMITIVES_SUBMITTED] == 6
    assert got[E.GL_VERTEX_SHADER_INVOCATIONS] == 12
    assert got[E.GL_CLIPPING_INPUT_PRIMITIVES] == 6
    assert got[E.GL_CLIPPING_OUTPUT_PRIMITIVES] == 6
    assert got[E.GL_FRAGMENT_SHADER_INVOCATIONS] == shaded
    assert all(got[t] == 0 for t in TARGETS[6:])


def test_a_quad_beyond_the_far_plane_is_clipped_away():
    ctx, shift = _setup()
    ctx.glUniform3f(shift, 0.0, 0.0, 5.0)
    got = _measure(ctx, lambda: ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4))
    assert got[E.GL_CLIPPING_INPUT_PRIMITIVES] == 2
    assert got[E.GL_CLIPPING_OUTPUT_PRIMITIVES] == 0
    assert got[E.GL_FRAGMENT_SHADER_INVOCATIONS] == 0


def test_compute_invocations_direct_and_indirect():
    """2 x 3 groups of 4 x 2 threads = 48, then an indirect (1, 1, 5) launch = 40."""
    ctx = glhelp.context(4, 4, api="compat")
    ctx.glUseProgram(glhelp.compute_program(ctx, "#version 430\nlayout(local_size_x = 4, local_size_y = 2) in;\n"
                                                 "void main() {}\n"))
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_DISPATCH_INDIRECT_BUFFER, buf)
    ctx.glBufferData(E.GL_DISPATCH_INDIRECT_BUFFER, 12, np.array([1, 1, 5], np.uint32), E.GL_STATIC_DRAW)
    got = _measure(ctx, lambda: (ctx.glDispatchCompute(2, 3, 1), ctx.glDispatchComputeIndirect(0)))
    assert got[E.GL_COMPUTE_SHADER_INVOCATIONS] == 48 + 40
    assert got[E.GL_VERTICES_SUBMITTED] == 0


def test_counting_stops_at_the_end():
    ctx, _ = _setup()
    (q,) = ctx.glGenQueries(1)
    ctx.glBeginQuery(E.GL_VERTICES_SUBMITTED, q)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glEndQuery(E.GL_VERTICES_SUBMITTED)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)                   # not counted
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [4]
    assert ctx.glGetQueryiv(E.GL_VERTICES_SUBMITTED, E.GL_QUERY_COUNTER_BITS) == [64]


@pytest.mark.parametrize("api", ["compat", "gl45"])
def test_listed(api):
    ctx = glhelp.context(4, 4, api=api)
    assert "GL_ARB_pipeline_statistics_query" in ctx.extensions
