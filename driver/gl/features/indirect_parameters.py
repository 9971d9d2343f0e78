"""ARB_indirect_parameters (GL 4.6 core): multi-draws whose number of draws
is read from a buffer bound to GL_PARAMETER_BUFFER.

glMultiDraw{Arrays,Elements}IndirectCount(..., indirect, drawcount,
maxdrawcount, stride): ``drawcount`` is a byte offset into the parameter
buffer where a uint32 count sits; min(count, maxdrawcount) commands are drawn
from the DRAW_INDIRECT_BUFFER at ``indirect`` (GL 4.6 section 10.4). The pipe
gets one indirect draw with the count's buffer and offset
(IndirectInfo.indirect_draw_count), so the front end never reads the count;
each draw's gl_DrawIDARB is its index.

Errors (section 10.4): no buffer bound to PARAMETER_BUFFER, or the count
beyond its end, is INVALID_OPERATION; an offset that is not a multiple of 4 or
a negative maxdrawcount is INVALID_VALUE; the DRAW_INDIRECT_BUFFER checks of
glMultiDraw*Indirect apply to all maxdrawcount commands.
"""

from __future__ import annotations

from driver.gallium import DrawInfo, DrawStartCountBias, IndirectInfo, PipePrim
from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features import entry_point


def _count_buffer(ctx, drawcount: int, maxdrawcount: int):
    check(ctx.api.has_extension("GL_ARB_indirect_parameters"), E.GL_INVALID_OPERATION,
          "needs GL 4.6 or GL_ARB_indirect_parameters")
    check(maxdrawcount >= 0, E.GL_INVALID_VALUE, "negative maxdrawcount")
    check(drawcount >= 0 and drawcount % 4 == 0, E.GL_INVALID_VALUE,
          "the draw count offset is not a multiple of 4")
    buf = ctx.buffer_bindings.get(E.GL_PARAMETER_BUFFER)
    check(buf is not None, E.GL_INVALID_OPERATION, "no PARAMETER_BUFFER bound")
    check(drawcount + 4 <= buf.size, E.GL_INVALID_OPERATION, "the draw count is beyond the parameter buffer")
    check(not buf.mapped or bool(buf.map_access & E.GL_MAP_PERSISTENT_BIT), E.GL_INVALID_OPERATION,
          "the parameter buffer is mapped")
    return buf


@entry_point
def glMultiDrawArraysIndirectCount(ctx, mode: int, indirect: int, drawcount: int, maxdrawcount: int,
                                   stride: int) -> None:
    indirect = indirect or 0
    count_buf = _count_buffer(ctx, drawcount, maxdrawcount)
    ctx._multi_indirect_offsets(indirect, maxdrawcount, stride, 16)
    ctx.validate_draw(mode, 0)
    if maxdrawcount == 0:
        return
    buf = ctx.buffer_bindings.get(E.GL_DRAW_INDIRECT_BUFFER)
    ctx._emit_draw(mode, DrawInfo(PipePrim(mode)), [DrawStartCountBias(0, 0)],
                   IndirectInfo(buf.resource, indirect, stride or 16, maxdrawcount,
                                indirect_draw_count=count_buf.resource,
                                indirect_draw_count_offset_B=drawcount),
                   ctx._no_client_arrays)


@entry_point
def glMultiDrawElementsIndirectCount(ctx, mode: int, type: int, indirect: int, drawcount: int,
                                     maxdrawcount: int, stride: int) -> None:
    from driver.gl.draws import INDEX_TYPES
    check_enum(type, INDEX_TYPES)
    indirect = indirect or 0
    count_buf = _count_buffer(ctx, drawcount, maxdrawcount)
    ctx._multi_indirect_offsets(indirect, maxdrawcount, stride, 20)
    ebo = ctx.vao.element_buffer
    check(ebo is not None, E.GL_INVALID_OPERATION, "no element array buffer")
    ctx.validate_draw(mode, 0)
    if maxdrawcount == 0:
        return
    size = INDEX_TYPES[type]
    restart = ctx._restart_index(size)
    buf = ctx.buffer_bindings.get(E.GL_DRAW_INDIRECT_BUFFER)
    ctx._emit_draw(mode, DrawInfo(PipePrim(mode), size, ebo.resource, primitive_restart=restart is not None,
                                  restart_index=restart or 0),
                   [DrawStartCountBias(0, 0)],
                   IndirectInfo(buf.resource, indirect, stride or 20, maxdrawcount,
                                indirect_draw_count=count_buf.resource,
                                indirect_draw_count_offset_B=drawcount),
                   ctx._no_client_arrays)
