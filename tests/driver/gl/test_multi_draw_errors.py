"""glMultiDrawArrays / glMultiDrawElements(BaseVertex): a negative drawcount or a
negative count of any draw is INVALID_VALUE and nothing is drawn, not even the draws
before the bad one (GL 4.6 sections 2.3.1 and 10.4; piglit gl-1.4-multidrawarrays-errors)."""

import numpy as np
import pytest

from driver.gl import enums as E

QUAD = np.array([(-1, -1), (1, -1), (-1, 1), (1, 1)], np.float32)
IDX = np.array([0, 1, 2, 3], np.uint16).tobytes()


@pytest.fixture
def c():
    import driver
    c = driver.Context(api="compat", width=4, height=4)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glVertexPointer(2, E.GL_FLOAT, 0, QUAD.tobytes())
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    return c


def drawn(c):
    return np.frombuffer(bytes(c.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).any()


@pytest.mark.parametrize("call", [
    lambda c, n, k: c.glMultiDrawArrays(E.GL_TRIANGLE_STRIP, [0, 0], k, n),
    lambda c, n, k: c.glMultiDrawElements(E.GL_TRIANGLE_STRIP, k, E.GL_UNSIGNED_SHORT, [IDX, IDX], n),
    lambda c, n, k: c.glMultiDrawElementsBaseVertex(E.GL_TRIANGLE_STRIP, k, E.GL_UNSIGNED_SHORT, [IDX, IDX], n,
                                                    [0, 0])])
def test_negative_counts_draw_nothing(c, call):
    call(c, 2, [4, -1])
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert not drawn(c)
    call(c, -1, [4, 4])
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert not drawn(c)
    call(c, 2, [4, 0])
    assert c.glGetError() == E.GL_NO_ERROR
    assert drawn(c)
