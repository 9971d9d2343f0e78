"""GL_NV_primitive_restart (compatibility profile): primitive restart as a
client state (glEnableClientState(GL_PRIMITIVE_RESTART_NV), the same switch as
GL 3.1's GL_PRIMITIVE_RESTART, as Mesa keeps one), glPrimitiveRestartIndexNV,
and glPrimitiveRestartNV, which restarts the primitive between glBegin and
glEnd."""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import call, entry_point

__all__ = ["GL_PRIMITIVE_RESTART_NV", "GL_PRIMITIVE_RESTART_INDEX_NV", "available"]

GL_PRIMITIVE_RESTART_NV, GL_PRIMITIVE_RESTART_INDEX_NV = 0x8558, 0x8559
_EXT = "GL_NV_primitive_restart"


def available(ctx) -> bool:
    return ctx.api.compat and ctx.api.has_extension(_EXT)


@entry_point
def glPrimitiveRestartNV(ctx):
    """Between glBegin and glEnd: end the primitive so far and begin another of
    the same mode (a strip or fan starts over). Outside them: INVALID_OPERATION."""
    check(available(ctx), E.GL_INVALID_OPERATION, "needs GL_NV_primitive_restart")
    mode = ctx._im_mode
    check(ctx._im is not None, E.GL_INVALID_OPERATION, "glPrimitiveRestartNV outside glBegin/glEnd")
    call(ctx, "glEnd")
    call(ctx, "glBegin", mode)


@entry_point
def glPrimitiveRestartIndexNV(ctx, index):
    check(available(ctx), E.GL_INVALID_OPERATION, "needs GL_NV_primitive_restart")
    call(ctx, "glPrimitiveRestartIndex", index)
