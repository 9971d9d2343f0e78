"""Vertex streams (GL_ARB_gpu_shader5, GL_ARB_transform_feedback3; GL 4.6 sections 4.2,
11.3.4.2, 13.3): the geometry stage emits to up to ``MAX_VERTEX_STREAMS`` streams, each
captured into the transform feedback buffers its varyings were given to; only stream 0
goes on to rasterisation.

The geometry passes (driver/gl/geometry.py) keep each stream's emitted primitives in a
region of their buffers and an index buffer of its own; ``geometry.stream_capture`` draws a
stream other than 0 once more, rasterisation discarded, through the pass-through program
that captures that stream's buffers only (and ``geometry.link_streams`` checks a link).

Counting per stream (what indexed queries read):

- primitives *generated* on stream s: the prefix-sum kernel adds each draw's total of
  stream s to a statistics word (stream 0: word 0, streams 1..3: words 4..6);
- primitives *written* on stream s > 0: a pipe query around that stream's capture pass
  while such a query is active (read back once the pass has run, as the passes already
  read the primitives-generated counter); stream 0's queries are the pipe's own counters
  minus what the other streams' passes added;
- overflow of stream s > 0: the pipe's overflow predicate around that stream's pass.

Query objects of streams 1..3 live in ``ctx.active_queries`` under ``(target, index)``;
their result is what the passes counted (``Query.stream``: the pipe's own counter does
not count for them).

Entry points: glBeginQueryIndexed, glEndQueryIndexed, glGetQueryIndexediv,
glDrawTransformFeedback[Stream][Instanced] (GL 4.0).
"""

from __future__ import annotations

import struct

from compiler.glsl.geometry import MAX_VERTEX_STREAMS
from driver.gallium import DrawInfo, DrawStartCountBias, IndirectInfo, PipePrim, PipeQueryType, StreamOutputTarget
from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features import call, context_method, entry_point

__all__ = ["MAX_VERTEX_STREAMS"]

# query targets with a vertex stream index (GL 4.6 section 4.2; ARB_transform_feedback_overflow_query)
_STREAM_TARGETS = (E.GL_PRIMITIVES_GENERATED, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
                   E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW)


def _cache(ctx) -> dict:
    from driver.gl.geometry import _ctx_cache
    return _ctx_cache(ctx)


def _stream_counters(ctx, stream: int) -> tuple[int, int, int]:
    """(primitives generated, written, overflowed passes) of vertex stream ``stream`` > 0
    so far (the generated count read once the GPU has run the passes)."""
    cache = _cache(ctx)
    generated = 0
    res = cache.get("stats")
    if res is not None:
        from driver.gallium import buffer_read
        generated = struct.unpack("<I", buffer_read(ctx.pipe, res, 4 * (3 + stream), 4))[0]
    return (generated, cache.get("stream_written", {}).get(stream, 0),
            cache.get("stream_overflow", {}).get(stream, 0))


# -- indexed queries (GL 4.6 section 4.2) -----------------------------------------------------
def _check_index(ctx, target: int, index: int) -> None:
    ctx._desktop(4, 0)
    check_enum(target, ctx._query_targets(), f"bad query target {target:#x}")
    limit = MAX_VERTEX_STREAMS if target in _STREAM_TARGETS else 1
    check(0 <= index < limit, E.GL_INVALID_VALUE, f"query index {index} out of range (< {limit})")


@entry_point
def glBeginQueryIndexed(ctx, target: int, index: int, id: int) -> None:
    _check_index(ctx, target, index)
    if index == 0:
        call(ctx, "glBeginQuery", target, id)
        return
    check(id != 0, E.GL_INVALID_OPERATION, "query name 0")
    check((target, index) not in ctx.active_queries, E.GL_INVALID_OPERATION,
          "a query of that target and index is active")
    check(ctx.queries.is_generated(id), E.GL_INVALID_OPERATION, "not a query name")
    q = ctx.queries.get_or_create(id)
    check(not q.active, E.GL_INVALID_OPERATION, "query already active")
    check(q.target in (0, target), E.GL_INVALID_OPERATION, "query has another target")
    if q.pipe_query is None:            # the pipe query gives the result's availability
        q.pipe_query = ctx.pipe.create_query(PipeQueryType.PRIMITIVES_GENERATED)
    q.target, q.active, q.ever_used, q.result, q.stream = target, True, True, None, index
    q.geometry_counters, q.geometry_adjust, q.overflowed_before = None, 0, False
    q.stream_counters = _stream_counters(ctx, index)
    ctx.active_queries[(target, index)] = q
    ctx.pipe.begin_query(q.pipe_query)


@entry_point
def glEndQueryIndexed(ctx, target: int, index: int) -> None:
    _check_index(ctx, target, index)
    if index == 0:
        call(ctx, "glEndQuery", target)
        return
    q = ctx.active_queries.get((target, index))
    check(q is not None, E.GL_INVALID_OPERATION, "no active query of that target and index")
    ctx.pipe.end_query(q.pipe_query)
    (g0, w0, o0), (g1, w1, o1) = q.stream_counters, _stream_counters(ctx, index)
    q.geometry_adjust = {E.GL_PRIMITIVES_GENERATED: g1 - g0, E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: w1 - w0,
                         E.GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW: int(o1 > o0)}[target]
    q.active = False
    del ctx.active_queries[(target, index)]


@entry_point
def glGetQueryIndexediv(ctx, target: int, index: int, pname: int) -> list[int]:
    _check_index(ctx, target, index)
    if index == 0:
        return call(ctx, "glGetQueryiv", target, pname)
    if pname == E.GL_CURRENT_QUERY:
        q = ctx.active_queries.get((target, index))
        return [q.name if q else 0]
    return call(ctx, "glGetQueryiv", target, pname)


# -- drawing what a stream captured (GL 4.6 section 13.3.1) -------------------------------------
@entry_point
def glDrawTransformFeedback(ctx, mode: int, id: int) -> None:
    _draw_xfb(ctx, mode, id, 0, 1)


@entry_point
def glDrawTransformFeedbackInstanced(ctx, mode: int, id: int, instancecount: int) -> None:
    _draw_xfb(ctx, mode, id, 0, instancecount)


@entry_point
def glDrawTransformFeedbackStream(ctx, mode: int, id: int, stream: int) -> None:
    _draw_xfb(ctx, mode, id, stream, 1)


@entry_point
def glDrawTransformFeedbackStreamInstanced(ctx, mode: int, id: int, stream: int, instancecount: int) -> None:
    _draw_xfb(ctx, mode, id, stream, instancecount)


def _draw_xfb(ctx, mode, id, stream, instances) -> None:
    """Draw the vertices the last capture of object ``id`` wrote on vertex stream ``stream``:
    those recorded in the first buffer that stream writes (none: nothing is drawn)."""
    ctx._desktop(4, 0)
    check(0 <= stream < MAX_VERTEX_STREAMS, E.GL_INVALID_VALUE,
          f"stream {stream} >= MAX_VERTEX_STREAMS ({MAX_VERTEX_STREAMS})")
    obj = ctx.transform_feedbacks.get(id)
    check(obj is not None, E.GL_INVALID_VALUE, "not a transform feedback object")
    check(not obj.active or obj.paused, E.GL_INVALID_OPERATION, "object still active")
    check(getattr(obj, "ended", False), E.GL_INVALID_OPERATION, "EndTransformFeedback never called")
    ctx.validate_draw(mode, 0, instances)
    layout = obj.program.linked_state.tf_layout if getattr(obj, "program", None) is not None and \
        obj.program.linked_state is not None else None
    first = 0 if layout is None else next((b for b in range(layout.buffers) if layout.stream_of(b) == stream), None)
    if first is None or obj.buffers[first][0] is None:
        return                          # the stream captured nothing
    buf, off, size = obj.buffers[first]
    so = StreamOutputTarget(buf.resource, off, size or buf.size - off)
    ctx._emit_draw(mode, DrawInfo(PipePrim(mode), instance_count=instances),
                   [DrawStartCountBias(0, 0)], IndirectInfo(None, count_from_stream_output=so), (0, 0))


@context_method
def _stream_query_key(ctx, q):
    """The key of query ``q`` in ``ctx.active_queries``."""
    return (q.target, q.stream) if getattr(q, "stream", 0) else q.target
