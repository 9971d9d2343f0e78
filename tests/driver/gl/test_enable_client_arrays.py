"""glEnable/glDisable of a client array (GL_VERTEX_ARRAY, GL_COLOR_ARRAY, ...) in the
compatibility profile switch it as glEnableClientState does, as Mesa accepts them
(piglit gl-1.1-color-material-array enables its arrays so); core contexts have no
client arrays: INVALID_ENUM. The drawn colour is the array's, by hand."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def test_glenable_switches_client_arrays_and_a_draw_reads_them():
    ctx = driver.Context(api="compat", width=4, height=4)
    pos = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    colour = np.tile(np.array([0.0, 0.4, 0.0, 0.8], np.float32), (4, 1))
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, pos)
    ctx.glColorPointer(4, E.GL_FLOAT, 0, colour)
    ctx.glEnable(E.GL_VERTEX_ARRAY)
    ctx.glEnable(E.GL_COLOR_ARRAY)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glIsEnabled(E.GL_VERTEX_ARRAY) and ctx.glIsEnabled(E.GL_COLOR_ARRAY)
    ctx.glClearColor(0.5, 0.5, 0.5, 0.5)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_FAN, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (np.abs(img.reshape(-1, 4).astype(int) - [0, 102, 0, 204]) <= 1).all()
    ctx.glDisable(E.GL_COLOR_ARRAY)
    assert not ctx.glIsEnabled(E.GL_COLOR_ARRAY) and ctx.glIsEnabled(E.GL_VERTEX_ARRAY)
    expect(ctx, E.GL_NO_ERROR)


def test_core_contexts_have_no_client_array_caps():
    ctx = driver.Context(api="gl43", width=4, height=4)
    ctx.glEnable(E.GL_VERTEX_ARRAY)
    expect(ctx, E.GL_INVALID_ENUM)
