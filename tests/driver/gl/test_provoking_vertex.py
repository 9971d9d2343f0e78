"""GL_ARB_provoking_vertex / GL_EXT_provoking_vertex: glProvokingVertex chooses
the vertex whose colour a flat-shaded triangle takes; quads keep their last
vertex under either convention, which GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION
reports as FALSE (a query of the compatibility profile and of GL 3.2 core only)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

COLOURS = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)]


def _flat(ctx, mode, pts):
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glBegin(mode)
    for (x, y), c in zip(pts, COLOURS):
        ctx.glColor3f(*c)
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    img = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)
    return tuple(int(v) // 255 for v in img[2, 5, :3])


@pytest.mark.parametrize("entry", ["glProvokingVertex", "glProvokingVertexEXT"])
def test_flat_triangle_takes_the_chosen_vertex_and_quads_their_last(entry):
    ctx = glhelp.context(8, 8, api="compat")
    names = ctx.glGetString(E.GL_EXTENSIONS).split()
    assert "GL_ARB_provoking_vertex" in names and "GL_EXT_provoking_vertex" in names
    ctx.glShadeModel(E.GL_FLAT)
    tri = [(-1, -1), (1, -1), (1, 1)]
    quad = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    getattr(ctx, entry)(E.GL_FIRST_VERTEX_CONVENTION)
    assert ctx.glGetIntegerv(E.GL_PROVOKING_VERTEX)[0] == E.GL_FIRST_VERTEX_CONVENTION
    assert _flat(ctx, E.GL_TRIANGLES, tri) == COLOURS[0]
    assert _flat(ctx, E.GL_QUADS, quad) == COLOURS[3]
    getattr(ctx, entry)(E.GL_LAST_VERTEX_CONVENTION)
    assert _flat(ctx, E.GL_TRIANGLES, tri) == COLOURS[2]
    assert _flat(ctx, E.GL_QUADS, quad) == COLOURS[3]
    assert not ctx.glGetBooleanv(E.GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION)[0]
    getattr(ctx, entry)(E.GL_TRIANGLES)                   # not a convention
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert ctx.glGetIntegerv(E.GL_PROVOKING_VERTEX)[0] == E.GL_LAST_VERTEX_CONVENTION


@pytest.mark.parametrize("api, error", [("gl32", E.GL_NO_ERROR), ("gl33", E.GL_INVALID_ENUM),
                                        ("gl45", E.GL_INVALID_ENUM)])
def test_quads_query_exists_in_gl32_core_only(api, error):
    ctx = glhelp.context(1, 1, api=api)
    ctx.glGetBooleanv(E.GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION)
    assert ctx.glGetError() == error
