"""Pixel-by-pixel glReadPixels with a conversion (GL_FLOAT of an RGBA8 window): once
the driver keeps the level whole (``Transfer.snapshot``: AgxResource._kept_level,
from the KEEP_AFTER_READS-th read under the same contents), the front end decodes
it once and later reads slice the decoded level, until the contents change (a new
snapshot). Expected colours by hand (scissored clears of exact values); decodes
counted."""

from __future__ import annotations

import numpy as np
import pytest

import driver
import driver.agx.resource as resource_module
import driver.gl.readback as readback
from driver.gl import enums as E

W, H = 16, 8
COLOURS = {(0, 0): (1.0, 0.0, 0.0, 1.0), (1, 0): (0.0, 1.0, 0.0, 1.0),
           (0, 1): (0.0, 0.0, 1.0, 1.0), (1, 1): (1.0, 1.0, 0.0, 0.0)}   # by (x half, y half)


@pytest.fixture
def decodes(monkeypatch):
    shapes = []
    real = readback.from_resource_bytes

    def counted(raw, name, shape):
        shapes.append(tuple(shape))
        return real(raw, name, shape)
    monkeypatch.setattr(readback, "from_resource_bytes", counted)
    return shapes


@pytest.fixture
def ctx():
    c = driver.Context(api="compat", width=W, height=H)
    c.glEnable(E.GL_SCISSOR_TEST)
    for (i, j), colour in COLOURS.items():
        c.glScissor(i * W // 2, j * H // 2, W // 2, H // 2)
        c.glClearColor(*colour)
        c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glDisable(E.GL_SCISSOR_TEST)
    yield c
    c.destroy()


def _pixel(c, x, y, width=1):
    raw = c.glReadPixels(x, y, width, 1, E.GL_RGBA, E.GL_FLOAT)
    return np.frombuffer(bytes(raw), np.float32).reshape(width, 4)


def _want(x, y):
    return COLOURS[(x * 2 // W, y * 2 // H)]


def test_reads_after_the_level_is_kept_decode_it_once(ctx, decodes):
    spots = [(0, 0), (15, 7), (3, 6), (12, 1), (9, 2), (1, 7), (8, 4), (7, 3)]
    assert resource_module.KEEP_AFTER_READS == 4
    for x, y in spots:
        assert _pixel(ctx, x, y).tolist() == [list(_want(x, y))]
    # three reads decode their pixel; the fourth (the level kept) the whole level; none after
    assert decodes == [(1, 1)] * 3 + [(H, W)]
    assert ctx.glGetError() == 0


def test_a_region_across_the_edge_reads_zero_outside(ctx, decodes):
    for _ in range(resource_module.KEEP_AFTER_READS + 1):
        got = _pixel(ctx, -1, 5, width=3)
    assert got.tolist() == [[0, 0, 0, 0], list(_want(0, 5)), list(_want(1, 5))]
    assert decodes[-1] == (H, W)


def test_a_change_after_the_level_is_kept_is_seen(ctx, decodes):
    for _ in range(resource_module.KEEP_AFTER_READS + 1):
        assert _pixel(ctx, 2, 2).tolist() == [list(_want(2, 2))]
    ctx.glClearColor(0.0, 0.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    for _ in range(resource_module.KEEP_AFTER_READS + 1):
        assert _pixel(ctx, 2, 2).tolist() == [[0.0, 0.0, 0.0, 1.0]]
    assert decodes.count((H, W)) == 2            # one whole decode per content
