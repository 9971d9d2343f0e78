"""Draws derive a pipe state again only when the generations of the state
groups it reads changed (driver/gl/pipestate.py DerivedStates), and what they
bind is what the pure derivation gives for the current state."""

import numpy as np
import pytest

from driver.gl import enums as E
from driver.gl import pipestate as ps
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.test_programs import program

VS = """#version 300 es
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }
"""
FS = """#version 300 es
precision mediump float;
uniform sampler2D tex;
out vec4 o;
void main() { o = texture(tex, vec2(0.5)); }
"""


@pytest.fixture
def ctx():
    c = make_ctx("gles3")
    c.glUseProgram(program(c, VS, FS))
    (b,) = c.glGenBuffers(1)
    c.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    c.glBufferData(E.GL_ARRAY_BUFFER, 48, np.arange(12, dtype=np.float32), E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 16, 0)
    c.glEnableVertexAttribArray(0)
    return c


def _draw(c):
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.glGetError() == E.GL_NO_ERROR


def _bound(c, kind):
    """The state value of the CSO bound now (``kind``: blend, rast, dsa)."""
    cache = {"blend": c.cso._blend, "rast": c.cso._rast, "dsa": c.cso._dsa}[kind]
    return next(state for state, handle in cache.items() if handle is c.cso._bound[kind])


def test_unchanged_state_is_not_derived_again(ctx):
    d = ctx.derived
    _draw(ctx)
    misses, hits = dict(d.misses), dict(d.hits)
    for _ in range(3):
        _draw(ctx)
    assert d.misses == misses
    # outside the compatibility profile the draws take the values the first one derived
    # (draws._emit_state) while every generation they were derived from stands: nothing
    # is asked again; asked, each state is the one kept
    assert d.hits == hits
    ctx._emitted_state = None
    _draw(ctx)
    assert d.misses == misses
    assert all(d.hits[name] == hits.get(name, 0) + 1 for name in ("blend", "dsa", "rasterizer", "viewport", "scissor"))
    # the same objects reach the CSO cache, which finds them bound: no create, no bind
    ctx.pipe.calls.clear()
    _draw(ctx)
    names = set(ctx.pipe.names())
    assert not names & {"create_blend_state", "bind_blend_state", "create_rasterizer_state",
                        "bind_rasterizer_state", "create_depth_stencil_alpha_state",
                        "bind_depth_stencil_alpha_state"}
    assert "draw_vbo" in names


@pytest.mark.parametrize("change, derived", [
    (lambda c: c.glDepthFunc(E.GL_GEQUAL), {"dsa"}),
    (lambda c: c.glEnable(E.GL_DEPTH_TEST), {"blend", "dsa", "rasterizer"}),    # enables feed all three
    (lambda c: c.glBlendFunc(E.GL_ONE, E.GL_ONE), {"blend"}),            # draw buffers' own groups
    (lambda c: c.glBlendColor(1.0, 0.0, 0.0, 1.0), set()),      # no CSO reads it (a pipe call does)
    (lambda c: c.glClearColor(1.0, 0.0, 0.0, 1.0), set()),
    (lambda c: c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_INCR), {"dsa"}),
    (lambda c: c.glCullFace(E.GL_FRONT), {"rasterizer"}),
    (lambda c: c.glViewport(0, 0, 8, 8), {"viewport", "scissor"}),
    (lambda c: c.glDepthFunc(E.GL_LESS), set()),          # the value it has: nothing changed
])
def test_a_change_derives_what_reads_it(ctx, change, derived):
    d = ctx.derived
    _draw(ctx)
    before = dict(d.misses)
    change(ctx)
    _draw(ctx)
    again = {name for name in d.misses if d.misses[name] != before.get(name)}
    assert again == derived


def test_bound_states_follow_the_gl_state(ctx):
    """After each change the bound CSOs equal the pure derivation of the state
    (a cached state is never stale)."""
    s = ctx.state
    changes = [lambda c: c.glEnable(E.GL_DEPTH_TEST), lambda c: c.glDepthFunc(E.GL_GREATER),
               lambda c: c.glEnable(E.GL_BLEND), lambda c: c.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE),
               lambda c: c.glColorMask(True, False, True, False), lambda c: c.glDisable(E.GL_DEPTH_TEST),
               lambda c: c.glFrontFace(E.GL_CW), lambda c: c.glEnable(E.GL_CULL_FACE),
               lambda c: c.glPolygonOffset(2.0, 1.0), lambda c: c.glEnable(E.GL_POLYGON_OFFSET_FILL)]
    for change in changes:
        change(ctx)
        _draw(ctx)
        fb = ctx.pipe.last("set_framebuffer_state")[0]
        assert ctx.pipe.last("set_viewport_states")[1] == [ps.viewport_state(s)]
        assert _bound(ctx, "blend") == ps.blend_state(s, len(fb.cbufs))
        assert _bound(ctx, "rast") == ps.rasterizer_state(
            s, ctx.api, fb.samples, 0, ctx.caps.point_size_range, ctx.caps.line_width_range)
        assert _bound(ctx, "dsa") == ps.dsa_state(s, True, 8, False)


def test_push_pop_attrib_is_seen_by_the_next_draw():
    """A group restored by glPopAttrib (copies of the saved values) is derived
    again: the restored content has a generation of its own."""
    c = make_ctx("compat")
    c.glDepthFunc(E.GL_LEQUAL)
    c.glEnable(E.GL_DEPTH_TEST)
    c.glPushAttrib(E.GL_DEPTH_BUFFER_BIT)
    c.glDepthFunc(E.GL_ALWAYS)
    c.glBegin(E.GL_TRIANGLES)
    for v in ((-1, -1), (1, -1), (0, 1)):
        c.glVertex2f(*v)
    c.glEnd()
    assert c.pipe.last("create_depth_stencil_alpha_state")[0].depth_func.name == "ALWAYS"
    c.glPopAttrib()
    c.glBegin(E.GL_TRIANGLES)
    for v in ((-1, -1), (1, -1), (0, 1)):
        c.glVertex2f(*v)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR
    assert _bound(c, "dsa").depth_func.name == "LEQUAL"
