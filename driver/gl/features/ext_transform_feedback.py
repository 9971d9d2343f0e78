"""GL_EXT_transform_feedback's one command that is not an alias of a core one:
glBindBufferOffsetEXT binds a transform-feedback buffer from `offset` to its
end (the EXT spec; the offset must be a multiple of 4)."""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import entry_point

__all__: list[str] = []


@entry_point
def glBindBufferOffsetEXT(ctx, target, index, buffer, offset):
    check(ctx.api.has_extension("GL_EXT_transform_feedback"), E.GL_INVALID_OPERATION,
          "GL_EXT_transform_feedback is not supported")
    if target != E.GL_TRANSFORM_FEEDBACK_BUFFER:
        raise GLError(E.GL_INVALID_ENUM, f"bad target {target:#x}")
    check(offset >= 0 and offset % 4 == 0, E.GL_INVALID_VALUE, "offset must be a non-negative multiple of 4")
    buf = ctx.buffers.get(buffer) if buffer else None
    check(buf is not None, E.GL_INVALID_OPERATION, f"{buffer} is not a buffer")
    check(offset < buf.size, E.GL_INVALID_VALUE, "offset beyond the buffer")
    # from `offset` to the buffer's end at the time the binding is used (as glBindBufferBase:
    # a later glBufferData that grows or shrinks the buffer moves the end)
    ctx._bind_indexed(target, index, buffer, offset, 0, ranged=False)
