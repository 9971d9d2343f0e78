"""GL_NV_primitive_restart (compatibility): primitive restart as client state
(glEnableClientState(GL_PRIMITIVE_RESTART_NV), glPrimitiveRestartIndexNV) and
glPrimitiveRestartNV between glBegin and glEnd. Being client state, the enable and the
index are not compiled into display lists (they run at once), and an array draw compiled
into a list restarts as they were when it was compiled, whatever they are when the list
is called (piglit's nv_primitive_restart-dlist, which crashed: the index reached the
compiled draw as a vertex index, 0x12345678, and its vertex was read from client
memory). Geometry from that test, by hand: a strip of the quadrant's six triangles,
restarted at the index; without the restart, triangles through the magenta vertex
(-1, -0.5) would be drawn."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

RESTART_NV, RESTART_INDEX_NV = 0x8558, 0x8559
VERTS = np.array([[-1, -1], [-.5, -1], [0, -1], [-1, -.5], [-.5, -.5], [0, -.5],
                  [-1, 0], [-.5, 0], [0, 0], [-1, -.5]], np.float32) * 2 + 1     # the whole window
COLOURS = np.array([[0, 1, 0]] * 9 + [[1, 0, 1]], np.float32)


def _elements(restart):
    return np.array([3, 0, 4, 1, 5, 2, restart, 6, 3, 7, 4, 8, 5], np.uint32)


def _arrays(ctx):
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, VERTS)
    ctx.glColorPointer(3, E.GL_FLOAT, 0, COLOURS)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glEnableClientState(E.GL_COLOR_ARRAY)


def _all_green(ctx):
    px = ctx.read_pixels()[..., :3].astype(int)
    return (px == [0, 255, 0]).all(), np.unique(px.reshape(-1, 3), axis=0)


@pytest.fixture
def ctx():
    with driver.Context(api="compat", width=8, height=8) as c:
        assert "GL_NV_primitive_restart" in c.glGetString(E.GL_EXTENSIONS).split()
        yield c


@pytest.mark.parametrize("restart", [9, 0x12345678])
def test_a_compiled_draw_restarts_as_at_compilation(ctx, restart):
    _arrays(ctx)
    ctx.glEnableClientState(RESTART_NV)
    ctx.glPrimitiveRestartIndexNV(restart)
    lst = ctx.glGenLists(1)
    ctx.glNewList(lst, E.GL_COMPILE)
    ctx.glDrawElements(E.GL_TRIANGLE_STRIP, 13, E.GL_UNSIGNED_INT, _elements(restart))
    ctx.glEndList()
    ctx.glPrimitiveRestartIndexNV(0)                 # client state: no effect on the list
    ctx.glDisableClientState(RESTART_NV)
    ctx.glCallList(lst)
    ok, colours = _all_green(ctx)
    assert ok, colours
    expect(ctx, E.GL_NO_ERROR)
    # ... and the state of the call is left as it was
    assert ctx.glIsEnabled(RESTART_NV) == 0 and ctx.glGetIntegerv(RESTART_INDEX_NV) == [0]


def test_the_enable_and_index_run_at_once_inside_a_list(ctx):
    _arrays(ctx)
    lst = ctx.glGenLists(1)
    ctx.glNewList(lst, E.GL_COMPILE)
    ctx.glEnableClientState(RESTART_NV)
    ctx.glPrimitiveRestartIndexNV(0x12345678)
    ctx.glDrawElements(E.GL_TRIANGLE_STRIP, 13, E.GL_UNSIGNED_INT, _elements(0x12345678))
    ctx.glEndList()
    assert ctx.glGetIntegerv(RESTART_INDEX_NV) == [0x12345678] and ctx.glIsEnabled(RESTART_NV) == 1
    ctx.glDisableClientState(RESTART_NV)
    ctx.glCallList(lst)
    ok, colours = _all_green(ctx)
    assert ok, colours
    expect(ctx, E.GL_NO_ERROR)


def test_array_elements_compiled_with_restart_on_restart_the_strip(ctx):
    """glArrayElement of the index, compiled after restart was enabled, restarts; the
    same index compiled before it is a vertex (vertex 0 here)."""
    _arrays(ctx)
    ctx.glPrimitiveRestartIndexNV(0)
    ctx.glDisableClientState(RESTART_NV)
    lst = ctx.glGenLists(1)
    ctx.glNewList(lst, E.GL_COMPILE)
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    for i in _elements(9):
        if i == 9:
            ctx.glEnableClientState(RESTART_NV)
            i = 0
        ctx.glArrayElement(int(i))
    ctx.glEnd()
    ctx.glEndList()
    ctx.glDisableClientState(RESTART_NV)
    ctx.glCallList(lst)
    ok, colours = _all_green(ctx)
    assert ok, colours


def test_restart_between_begin_and_end(ctx):
    _arrays(ctx)
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    for i in _elements(9):
        if i == 9:
            ctx.glPrimitiveRestartNV()
        else:
            ctx.glArrayElement(int(i))
    ctx.glEnd()
    ok, colours = _all_green(ctx)
    assert ok, colours
    ctx.glPrimitiveRestartNV()                         # outside glBegin/glEnd
    expect(ctx, E.GL_INVALID_OPERATION)
