"""GL_EXT_texture_integer's own parts (its integer formats are GL 3.0's plus the
legacy alpha/luminance/intensity rows in driver.gl.formats): integer clear
colours and the integer-framebuffer query."""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import entry_point
from driver.gl.formats import GL_RGBA_INTEGER_MODE_EXT, lookup

__all__ = ["GL_RGBA_INTEGER_MODE_EXT", "rgba_integer_mode"]


def _require(ctx):
    check(ctx.api.has_extension("GL_EXT_texture_integer"), E.GL_INVALID_OPERATION,
          "needs GL_EXT_texture_integer")


@entry_point
def glClearColorIiEXT(ctx, r, g, b, a):
    """The clear colour as signed integers: glClear writes them unconverted into
    integer colour buffers (EXT_texture_integer; glClearColor's floats are not
    converted for integer buffers)."""
    _require(ctx)
    ctx.state.clear_color = tuple(int(v) for v in (r, g, b, a))


@entry_point
def glClearColorIuiEXT(ctx, r, g, b, a):
    """The clear colour as unsigned integers (the 32-bit values as given)."""
    _require(ctx)
    ctx.state.clear_color = tuple(int(v) & 0xFFFFFFFF for v in (r, g, b, a))


def rgba_integer_mode(ctx) -> bool:
    """RGBA_INTEGER_MODE_EXT: whether the draw framebuffer's colour buffers hold
    unnormalised integers: any of its draw buffers (as Mesa's mask of integer draw
    buffers; a unorm buffer 0 beside an integer buffer 1 is integer mode), the
    window's never."""
    fb = ctx.draw_framebuffer
    if fb is None:
        return False
    for buf in fb.draw_buffers:
        a = fb.attachments.get(buf)
        info = a.image_info() if a is not None else None
        fmt = lookup(info[2]) if info else None
        if fmt is not None and fmt.integer:
            return True
    return False
