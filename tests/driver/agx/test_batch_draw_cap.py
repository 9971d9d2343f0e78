"""A batch holds at most MAX_DRAWS_PER_BATCH draws: the next draw goes into a new
render command after the full one is submitted, so a long run of draws without a
readback never becomes one command that spends the GPU's job-timeout budget. The
image is the same: each of 20 points (cap lowered to 8) lands on its own pixel, by
hand, with the earlier commands' pixels kept (stored and loaded between commands)."""

from __future__ import annotations

import numpy as np

import driver
from driver.agx import pipe as agx_pipe
from driver.gl import enums as E


def test_draws_beyond_the_cap_start_a_new_command(monkeypatch):
    monkeypatch.setattr(agx_pipe, "MAX_DRAWS_PER_BATCH", 8)
    with driver.Context(api="compat", width=20, height=1) as ctx:
        ctx.glClearColor(0, 0, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glMatrixMode(E.GL_PROJECTION)
        ctx.glOrtho(0, 20, 0, 1, -1, 1)
        submits = ctx.pipe.stats["submits"]
        for x in range(20):
            ctx.glColor3ub(10 * x + 5, 255, 0)
            ctx.glBegin(E.GL_POINTS)
            ctx.glVertex2f(x + 0.5, 0.5)
            ctx.glEnd()
            batch = ctx.pipe.batches.get(ctx.pipe.fb)
            assert batch is None or batch.draws < 8
        assert ctx.pipe.stats["submits"] - submits == 2          # after draws 8 and 16
        px = ctx.read_pixels()[0]
        np.testing.assert_array_equal(px[:, 0], 10 * np.arange(20) + 5)
        assert (px[:, 1] == 255).all()
