"""GL_ARB_transform_feedback_overflow_query: TRANSFORM_FEEDBACK_OVERFLOW and
TRANSFORM_FEEDBACK_STREAM_OVERFLOW (stream 0, the only vertex stream) are true
when a primitive did not fit in a bound feedback buffer; usable with
conditional rendering and query buffers."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_xfb import _ctx, _feedback_buffers, _program, _vertices

TRI2 = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1],
                 [1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]], np.float32)


def _capture(ctx, room_triangles, draw_triangles, target, indexed=False):
    """One vec4 varying captured (12 floats per triangle) into room for
    `room_triangles`; returns the query's result."""
    _program(ctx, ["v"])
    _vertices(ctx, TRI2)
    _feedback_buffers(ctx, [12 * room_triangles])
    (q,) = ctx.glGenQueries(1)
    if indexed:
        ctx.glBeginQueryIndexed(target, 0, q)
    else:
        ctx.glBeginQuery(target, q)
    ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3 * draw_triangles)
    ctx.glEndTransformFeedback()
    if indexed:
        ctx.glEndQueryIndexed(target, 0)
    else:
        ctx.glEndQuery(target)
    expect(ctx, E.GL_NO_ERROR)
    return q


@pytest.mark.parametrize("target", [E.GL_TRANSFORM_FEEDBACK_OVERFLOW, E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW])
@pytest.mark.parametrize("room, drawn, overflow", [(2, 2, 0), (1, 2, 1), (2, 1, 0)])
def test_overflow_is_a_primitive_not_written(target, room, drawn, overflow):
    with _ctx("compat") as ctx:
        q = _capture(ctx, room, drawn, target, indexed=target == E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW)
        assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [overflow]


def test_conditional_render_and_query_buffer():
    with _ctx("compat") as ctx:
        q = _capture(ctx, 1, 2, E.GL_TRANSFORM_FEEDBACK_OVERFLOW)
        (buf,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(E.GL_QUERY_BUFFER, buf)
        ctx.glBufferData(E.GL_QUERY_BUFFER, 8, np.full(2, 7, np.uint32), E.GL_DYNAMIC_COPY)
        ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT, 4)
        ctx.glBindBuffer(E.GL_QUERY_BUFFER, 0)
        ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, buf)
        assert list(np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_COPY_READ_BUFFER, 0, 8)), np.uint32)) == [7, 1]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glBeginConditionalRender(q, E.GL_QUERY_WAIT_INVERTED)       # overflow: skipped
        ctx.glClearColor(1, 1, 1, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEndConditionalRender()
        expect(ctx, E.GL_NO_ERROR)
        assert (ctx.read_pixels() == 0).all()


def test_targets_need_the_extension_and_index_0():
    with _ctx("compat") as ctx:
        (q,) = ctx.glGenQueries(1)
        # the stream index is below MAX_VERTEX_STREAMS (4); the any-stream target takes index 0 only
        ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 4, q)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glBeginQueryIndexed(E.GL_TRANSFORM_FEEDBACK_OVERFLOW, 1, q)
        expect(ctx, E.GL_INVALID_VALUE)
        assert "GL_ARB_transform_feedback_overflow_query" in ctx.extensions
    with _ctx("gles31") as ctx:
        (q,) = ctx.glGenQueries(1)
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_OVERFLOW, q)
        expect(ctx, E.GL_INVALID_ENUM)
