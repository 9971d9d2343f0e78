"""A clear the driver draws as a quad (masked or scissored depth/stencil clears,
driver.gl.clearquad) passes no samples to an active occlusion query (GL 4.6 section
17.4.3: clears bypass the fragment operations; piglit occlusion_query_meta_no_fragments
counted 6400 for a scissored clear); a draw after it still counts (the pipe's
query state is restored). Sample counts by hand: 4x4 pixels, one sample each."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def test_quad_clears_count_nothing_and_draws_still_count():
    ctx = driver.Context(api="compat", width=4, height=4)
    q = ctx.glGenQueries(1)[0]
    ctx.glBeginQuery(E.GL_SAMPLES_PASSED, q)
    ctx.glClearColor(1, 1, 1, 1)
    ctx.glColorMask(True, False, True, True)          # a partial mask: drawn as a quad
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glColorMask(True, True, True, True)
    ctx.glEnable(E.GL_SCISSOR_TEST)                   # a scissored depth clear: a quad too
    ctx.glScissor(0, 0, 2, 2)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
    ctx.glDisable(E.GL_SCISSOR_TEST)
    ctx.glEndQuery(E.GL_SAMPLES_PASSED)
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [0]
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert list(px) == [255, 0, 255, 255]             # the clear itself happened
    ctx.glBeginQuery(E.GL_SAMPLES_PASSED, q)
    ctx.glRectf(-1, -1, 0, 1)                         # the left half: 8 pixels
    ctx.glEndQuery(E.GL_SAMPLES_PASSED)
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [8]
    expect(ctx, E.GL_NO_ERROR)
