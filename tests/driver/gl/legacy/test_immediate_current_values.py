"""glBegin/glEnd batches: a value every vertex of the batch shares that is also the
current value is read as the current value, without a temporary array (GL 2.1
section 2.7: each vertex takes the current values when glVertex is called). The
edge cases: a value changed after the last vertex (the vertices keep the old one),
an enabled client array of that kind (a Begin/End batch never reads arrays),
values that vary across the batch."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E


def _quad(ctx, colours=None, after=None) -> None:
    ctx.glBegin(E.GL_QUADS)
    for i, (x, y) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
        if colours is not None:
            ctx.glColor4f(*colours[i])
        ctx.glVertex2f(x, y)
    if after is not None:
        ctx.glColor4f(*after)          # current colour changed after the last vertex
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR


def _pixels(ctx) -> np.ndarray:
    return np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)


def _arrays_of_next_batch(ctx, monkeypatch) -> list:
    seen = []
    real = type(ctx.gl)._draw_temporary_arrays

    def spy(self, mode, arrays, *args, **kw):
        seen.append(sorted(str(k) for k in arrays))
        return real(self, mode, arrays, *args, **kw)
    monkeypatch.setattr(type(ctx.gl), "_draw_temporary_arrays", spy)
    return seen


def test_a_batch_of_positions_only_makes_no_other_array(monkeypatch):
    ctx = driver.Context(api="compat", width=4, height=4)
    ctx.glColor4f(0.0, 1.0, 0.0, 1.0)
    seen = _arrays_of_next_batch(ctx, monkeypatch)
    _quad(ctx)
    assert seen == [sorted([str((E.GL_VERTEX_ARRAY, 0)), str(("generic", 0))])]
    assert (_pixels(ctx) == [0, 255, 0, 255]).all()
    ctx.destroy()


def test_the_vertices_keep_a_colour_changed_after_the_last_one():
    ctx = driver.Context(api="compat", width=4, height=4)
    red = (1.0, 0.0, 0.0, 1.0)
    _quad(ctx, colours=[red] * 4, after=(0.0, 0.0, 1.0, 1.0))
    assert (_pixels(ctx) == [255, 0, 0, 255]).all()
    _quad(ctx)                                          # the current colour now: blue
    assert (_pixels(ctx) == [0, 0, 255, 255]).all()
    ctx.destroy()


def test_an_enabled_colour_array_is_not_read_by_a_batch():
    ctx = driver.Context(api="compat", width=4, height=4)
    colours = np.tile(np.array([1.0, 1.0, 0.0, 1.0], np.float32), (4, 1))
    ctx.glEnableClientState(E.GL_COLOR_ARRAY)
    ctx.glColorPointer(4, E.GL_FLOAT, 0, colours)
    ctx.glColor4f(0.0, 1.0, 1.0, 1.0)
    _quad(ctx)
    assert (_pixels(ctx) == [0, 255, 255, 255]).all()
    ctx.destroy()


def test_colours_that_vary_across_the_batch_are_interpolated():
    ctx = driver.Context(api="compat", width=4, height=4)
    ctx.glShadeModel(E.GL_FLAT)
    last = (0.0, 0.0, 1.0, 1.0)                         # flat: the provoking (last) vertex's colour
    _quad(ctx, colours=[(1.0, 0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 1.0), (1.0, 1.0, 1.0, 1.0), last])
    assert (_pixels(ctx) == [0, 0, 255, 255]).all()
    ctx.destroy()
