"""A non-indexed quad (or adjacency) draw becomes an indexed triangle list on the CPU;
the list depends on the range only, so the draws of one batch over the same range
share one upload, while each reads its own vertices."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E


def test_quads_of_one_range_share_their_index_list_and_read_their_own_vertices():
    ctx = driver.Context(api="compat", width=8, height=8)
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    left = np.array([[-1, -1], [0, -1], [0, 1], [-1, 1]], np.float32)
    right = left + np.array([1, 0], np.float32)
    for quad, colour in ((left, (1.0, 0.0, 0.0, 1.0)), (right, (0.0, 0.0, 1.0, 1.0))):
        ctx.glVertexPointer(2, E.GL_FLOAT, 0, quad)
        ctx.glColor4f(*colour)
        ctx.glDrawArrays(E.GL_QUADS, 0, 4)
    batch = ctx.pipe.render_batch()                   # both draws are in it, not yet submitted
    assert batch.draws == 2 and len(batch.index_cache) == 1
    img = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)
    assert (img[:, :4] == [255, 0, 0, 255]).all() and (img[:, 4:] == [0, 0, 255, 255]).all()
    ctx.destroy()
