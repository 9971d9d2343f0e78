"""A display list called between glBegin and glEnd (GL 2.1 sections 2.6.3 and 5.4):
its vertex commands join the open primitive, and each command section 2.6.3 does not
allow there (glRect, glDrawArrays) is INVALID_OPERATION and draws nothing. Expected
images by hand: an 8x8 window, the quad covers it."""

import numpy as np

import driver
from driver.gl import enums as E

GREEN, RED = (0.0, 1.0, 0.0, 1.0), (1.0, 0.0, 0.0, 1.0)
QUAD = ((-1, -1), (1, -1), (1, 1), (-1, 1))


def _ctx():
    ctx = driver.Context(api="compat", width=8, height=8)
    ctx.glClearColor(0, 0, 0, 0)
    return ctx


def _pixels(ctx):
    return np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)


def _call_inside_begin_end(ctx, lst):
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glBegin(E.GL_QUADS)
    ctx.glCallList(lst)
    ctx.glEnd()


def _quad_list(ctx, illegal):
    lst = ctx.glGenLists(1)
    ctx.glNewList(lst, E.GL_COMPILE)
    ctx.glColor4fv(GREEN)
    for x, y in QUAD:
        ctx.glVertex2f(x, y)
    ctx.glColor4fv(RED)
    illegal()
    ctx.glEndList()
    assert ctx.glGetError() == E.GL_NO_ERROR
    return lst


def test_a_listed_rect_between_begin_and_end_is_invalid_and_draws_nothing():
    ctx = _ctx()
    lst = _quad_list(ctx, lambda: ctx.glRectf(-1, -1, 1, 1))
    _call_inside_begin_end(ctx, lst)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (_pixels(ctx) == (0, 255, 0, 255)).all()       # the listed quad, not the red rect


def test_a_listed_draw_arrays_between_begin_and_end_is_invalid_and_draws_nothing():
    ctx = _ctx()
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array(QUAD, np.float32))
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    lst = _quad_list(ctx, lambda: ctx.glDrawArrays(E.GL_QUADS, 0, 4))
    ctx.glDisableClientState(E.GL_VERTEX_ARRAY)
    _call_inside_begin_end(ctx, lst)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert (_pixels(ctx) == (0, 255, 0, 255)).all()
    # outside glBegin/glEnd the same list draws its quad and then the red array quad
    ctx.glCallList(lst)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (_pixels(ctx) == (255, 0, 0, 255)).all()
