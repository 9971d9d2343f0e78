"""GL_EXT_framebuffer_object's bind commands, the two of its commands that are
not registry aliases of the core ones: any name may be bound (an unused name
becomes an object, as glGen* had made it), and the only target is
GL_FRAMEBUFFER_EXT, which binds both the draw and the read framebuffer
(GL_EXT_framebuffer_blit adds the two separate targets). Every other command of
the extension is an alias (features/aliases.py)."""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import call, entry_point

__all__: list[str] = []


def _ext_fbo(ctx) -> None:
    check(ctx.api.has_extension("GL_EXT_framebuffer_object"), E.GL_INVALID_OPERATION,
          "GL_EXT_framebuffer_object is not supported")


@entry_point
def glBindFramebufferEXT(ctx, target, framebuffer):
    _ext_fbo(ctx)
    targets = {E.GL_FRAMEBUFFER}
    if ctx.api.has_extension("GL_EXT_framebuffer_blit"):
        targets |= {E.GL_DRAW_FRAMEBUFFER, E.GL_READ_FRAMEBUFFER}
    if target not in targets:
        raise GLError(E.GL_INVALID_ENUM, f"bad framebuffer target {target:#x}")
    if framebuffer:
        ctx.framebuffers.get_or_create(framebuffer)      # EXT: names need not come from glGen*
    call(ctx, "glBindFramebuffer", target, framebuffer)


@entry_point
def glBindRenderbufferEXT(ctx, target, renderbuffer):
    _ext_fbo(ctx)
    if target != E.GL_RENDERBUFFER:
        raise GLError(E.GL_INVALID_ENUM, f"bad renderbuffer target {target:#x}")
    if renderbuffer:
        ctx.renderbuffers.get_or_create(renderbuffer)
    call(ctx, "glBindRenderbuffer", target, renderbuffer)
