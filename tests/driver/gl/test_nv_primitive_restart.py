"""GL_NV_primitive_restart's commands (compatibility contexts): the restart
switch as client state (shared with GL 3.1's GL_PRIMITIVE_RESTART),
glPrimitiveRestartIndexNV, glPrimitiveRestartNV between glBegin/glEnd and the
restart index given to glArrayElement. Images are checked against the two
triangles a restarted strip must leave (hand-computed coverage)."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

RESTART_NV, RESTART_INDEX_NV = 0x8558, 0x8559
# a strip over the left and the right halves: 0-1-2 | restart | 3-4-5; without the
# restart the strip would also fill the middle column with the triangles 1-2-3 and 2-3-4
VERTS = np.array([[-1, -1], [-0.5, -1], [-1, 1],            # left triangle
                  [0.5, -1], [1, -1], [1, 1]], np.float32)  # right triangle


def _setup(ctx):
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, VERTS)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)


def _middle_is_empty(ctx, w=16):
    img = np.frombuffer(ctx.glReadPixels(0, 0, w, w, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(w, w, 4)
    lit = img[..., 0] > 0
    # pixel centres at x in (-0.5, 0.5) NDC are covered only by the joining triangles
    xs = (np.arange(w) + 0.5) / w * 2 - 1
    middle = lit[:, (xs > -0.4) & (xs < 0.4)]
    return not middle.any() and lit[:, xs < -0.9].any() and lit[:, xs > 0.9].any()


def test_client_state_switch_and_index():
    ctx = glhelp.context(16, 16, api="compat")
    assert not ctx.glIsEnabled(RESTART_NV)
    ctx.glEnableClientState(RESTART_NV)
    assert ctx.glIsEnabled(RESTART_NV) and ctx.glIsEnabled(E.GL_PRIMITIVE_RESTART)
    ctx.glPrimitiveRestartIndexNV(0x1234)
    assert ctx.glGetIntegerv(RESTART_INDEX_NV)[0] == 0x1234
    assert ctx.glGetIntegerv(E.GL_PRIMITIVE_RESTART_INDEX)[0] == 0x1234
    ctx.glDisableClientState(RESTART_NV)
    assert not ctx.glIsEnabled(E.GL_PRIMITIVE_RESTART)
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_draw_elements_restart_through_the_nv_switch():
    ctx = glhelp.context(16, 16, api="compat")
    _setup(ctx)
    ctx.glEnableClientState(RESTART_NV)
    ctx.glPrimitiveRestartIndexNV(99)
    ctx.glDrawElements(E.GL_TRIANGLE_STRIP, 7, E.GL_UNSIGNED_INT, np.array([0, 1, 2, 99, 3, 4, 5], np.uint32))
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _middle_is_empty(ctx)


def test_primitive_restart_nv_inside_begin_end():
    ctx = glhelp.context(16, 16, api="compat")
    _setup(ctx)
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    for i in range(3):
        ctx.glArrayElement(i)
    ctx.glPrimitiveRestartNV()
    for i in range(3, 6):
        ctx.glArrayElement(i)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _middle_is_empty(ctx)
    ctx.glPrimitiveRestartNV()                    # outside glBegin/glEnd
    assert ctx.glGetError() == E.GL_INVALID_OPERATION


def test_array_element_with_the_restart_index_restarts():
    ctx = glhelp.context(16, 16, api="compat")
    _setup(ctx)
    ctx.glEnableClientState(RESTART_NV)
    ctx.glPrimitiveRestartIndexNV(7)
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    for i in (0, 1, 2, 7, 3, 4, 5):
        ctx.glArrayElement(i)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _middle_is_empty(ctx)
    # without restart enabled, the same stream draws the joining triangles too
    ctx.glDisableClientState(RESTART_NV)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    for i in (0, 1, 2, 3, 4, 5):
        ctx.glArrayElement(i)
    ctx.glEnd()
    assert not _middle_is_empty(ctx)
