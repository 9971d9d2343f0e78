"""ARB_query_buffer_object (GL 4.4 core) and the DSA glGetQueryBufferObject*
(GL 4.5): query results written into a buffer object by the GPU.

With a buffer bound to GL_QUERY_BUFFER, glGetQueryObject*v's ``params`` is a
byte offset into it (GL 4.6 section 4.2.4; the C ABI passes the pointer value
as the offset). The result is then written by the GPU once the work the query
counts has run (the pipe's ``get_query_result_resource``): QUERY_RESULT and
QUERY_RESULT_NO_WAIT do not make the driver wait on the CPU for results held in
GPU memory, and QUERY_RESULT_AVAILABLE writes 1 because the GPU writes it after
the counted work (in order on the context's queue). Results the driver learns
on the CPU from command feedback (timer queries) are written when known;
with NO_WAIT and the result not known yet nothing is written, as the spec says.
QUERY_TARGET (GL 4.5) writes the query's target.

Errors (section 4.2.4): a name that is not a query object or an active query
is INVALID_OPERATION; a buffer name that is not a buffer object is
INVALID_OPERATION; a negative offset is INVALID_VALUE; a write past the end of
the buffer's store, or into a buffer mapped without MAP_PERSISTENT_BIT, is
INVALID_OPERATION.
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features import context_method, entry_point

_SIZE_B = {"u32": 4, "s32": 4, "u64": 8, "s64": 8}


def _has_qbo(ctx) -> bool:
    return ctx.api.has_extension("GL_ARB_query_buffer_object")


def _query_pnames(ctx) -> set[int]:
    return {E.GL_QUERY_RESULT, E.GL_QUERY_RESULT_AVAILABLE, E.GL_QUERY_RESULT_NO_WAIT,
            E.GL_QUERY_TARGET}


@context_method
def _query_to_buffer(ctx, q, pname: int, buf, offset: int, rtype: str) -> None:
    """Write query `q`'s answer to `pname` at `offset` of buffer `buf` on the
    GPU. `q` is a used, inactive query; `pname` already validated."""
    check(offset >= 0, E.GL_INVALID_VALUE, "negative offset")
    check(offset + _SIZE_B[rtype] <= buf.size and buf.resource is not None, E.GL_INVALID_OPERATION,
          f"{_SIZE_B[rtype]} bytes at offset {offset} are beyond the buffer's {buf.size} bytes")
    check(not buf.mapped or bool(buf.map_access & E.GL_MAP_PERSISTENT_BIT), E.GL_INVALID_OPERATION,
          "the query buffer is mapped")
    if pname == E.GL_QUERY_TARGET:
        _write_value(ctx, q.target, buf, offset, rtype)
        return
    if pname != E.GL_QUERY_RESULT_AVAILABLE and q.result is None and ctx._query_differs_from_pipe(q):
        # a vertex stream's or a geometry draw's count: the front end's value (read back now)
        if ctx._query_value(q, pname == E.GL_QUERY_RESULT) is None:
            return                      # QUERY_RESULT_NO_WAIT, not available: nothing written
    if pname != E.GL_QUERY_RESULT_AVAILABLE and q.result is not None:
        _write_value(ctx, q.result, buf, offset, rtype)   # already read back: a known value
        return
    ctx.pipe.get_query_result_resource(q.pipe_query, pname == E.GL_QUERY_RESULT, rtype,
                                       pname == E.GL_QUERY_RESULT_AVAILABLE, buf.resource, offset)


def _write_value(ctx, value: int, buf, offset: int, rtype: str) -> None:
    """A value the front end knows, stored by the GPU in order with the rest."""
    ctx.pipe.get_query_result_resource(int(value), True, rtype, False, buf.resource, offset)


def _buffer_query(ctx, id: int, buffer: int, pname: int, offset: int, rtype: str) -> None:
    check(_has_qbo(ctx), E.GL_INVALID_OPERATION, "needs GL 4.5 or GL_ARB_query_buffer_object")
    q = ctx.queries.get(id)
    check(q is not None and q.ever_used, E.GL_INVALID_OPERATION, f"{id} is not a query object")
    buf = ctx.buffers.get(buffer)
    check(buf is not None, E.GL_INVALID_OPERATION, f"{buffer} is not a buffer object")
    check_enum(pname, _query_pnames(ctx))
    check(not q.active, E.GL_INVALID_OPERATION, "the query is active")
    ctx._query_to_buffer(q, pname, buf, offset, rtype)


@entry_point
def glGetQueryBufferObjectiv(ctx, id: int, buffer: int, pname: int, offset: int) -> None:
    _buffer_query(ctx, id, buffer, pname, offset, "s32")


@entry_point
def glGetQueryBufferObjectuiv(ctx, id: int, buffer: int, pname: int, offset: int) -> None:
    _buffer_query(ctx, id, buffer, pname, offset, "u32")


@entry_point
def glGetQueryBufferObjecti64v(ctx, id: int, buffer: int, pname: int, offset: int) -> None:
    _buffer_query(ctx, id, buffer, pname, offset, "s64")


@entry_point
def glGetQueryBufferObjectui64v(ctx, id: int, buffer: int, pname: int, offset: int) -> None:
    _buffer_query(ctx, id, buffer, pname, offset, "u64")
