"""glClampColor (GL_ARB_color_buffer_float, core in GL 3.0): which colour clamps apply.

Three targets, each TRUE, FALSE or FIXED_ONLY (GL 4.6 compatibility table 23.x
initial values: vertex TRUE, fragment and read FIXED_ONLY). The core profile keeps
only CLAMP_READ_COLOR; the vertex and fragment clamps are the compatibility
profile's (in core, colours reach a fixed-point buffer through its conversion and
a floating-point one unclamped).

FIXED_ONLY clamps when every colour buffer of the framebuffer is fixed-point
(unsigned or signed normalized, as Mesa's "all colour buffers fixed-point";
the default framebuffer is RGBA8): so an RGBA8_SNORM buffer keeps [0, 1] under the
initial fragment clamp, and a float buffer keeps everything.

Where each applies:
- vertex (GL 4.6 compatibility section 13.? "Flatshading"'s colour clamping): the
  vertex stage's gl_FrontColor, gl_BackColor, gl_FrontSecondaryColor and
  gl_BackSecondaryColor are clamped to [0, 1] before interpolation (fixed function,
  ARB vertex programs and GLSL alike; the rasterizer state's clamp_vertex_color);
- fragment (section 17.3 "Fragment colour clamping"): the fragment colours before
  blending; and the queries of texture border, texture environment, fog, alpha test
  reference, blend and clear colours return their values clamped
  (``QUERY_CLAMPED_PNAMES``; the values are kept as specified);
- read (section 18.2.8): colours read by glReadPixels, clamped to [0, 1] (a signed
  normalized buffer's negative values included)."""

from __future__ import annotations

import layout
from driver.gl import enums as E

__all__ = ["INITIAL", "QUERY_CLAMPED_PNAMES", "all_fixed_point", "applies", "clamp_query", "fragment_clamps",
           "mode", "read_clamps", "vertex_clamps"]

#: glClampColor target -> its initial mode
INITIAL = {E.GL_CLAMP_VERTEX_COLOR: E.GL_TRUE, E.GL_CLAMP_FRAGMENT_COLOR: E.GL_FIXED_ONLY,
           E.GL_CLAMP_READ_COLOR: E.GL_FIXED_ONLY}

#: glGet pnames whose answers the fragment clamp clamps to [0, 1] (ARB_color_buffer_float,
#: "Data Conversions"); the border and environment colours are clamped in their own queries
QUERY_CLAMPED_PNAMES = frozenset({E.GL_COLOR_CLEAR_VALUE, E.GL_BLEND_COLOR, E.GL_FOG_COLOR,
                                  E.GL_ALPHA_TEST_REF})

_FIXED_POINT = frozenset({"UNORM", "SNORM"})


def mode(state, target: int) -> int:
    """The mode glClampColor set for ``target`` (its initial one when never set)."""
    return state.clamp_color.get(target, INITIAL[target])


def applies(clamp_mode: int, fixed_point: bool) -> bool:
    """Whether a clamp in ``clamp_mode`` applies to buffers that are (all) fixed-point or not."""
    if clamp_mode == E.GL_FIXED_ONLY:
        return fixed_point
    return clamp_mode == E.GL_TRUE


def _pipe_format_fixed_point(name: str) -> bool:
    channels = [c for c in layout.get_format(name).channels if c.name != "X"]
    return bool(channels) and all(c.type in _FIXED_POINT for c in channels)


def all_fixed_point(ctx, fb) -> bool:
    """Whether every colour attachment of ``fb`` (a framebuffer object; None: the
    default framebuffer, RGBA8) has fixed-point components. No colour attachment: True."""
    if fb is None:
        return True
    from driver.gl.formats import lookup
    for point, a in fb.attachments.items():
        if not E.GL_COLOR_ATTACHMENT0 <= point < E.GL_COLOR_ATTACHMENT0 + 32:
            continue
        info = a.image_info()
        fmt = lookup(info[2]) if info else None
        if fmt is not None and not _pipe_format_fixed_point(fmt.pipe.name):
            return False
    return True


def fragment_clamps(ctx) -> bool:
    """The fragment clamp of the draw framebuffer (compatibility profile only)."""
    if not ctx.api.compat:
        return False
    return applies(mode(ctx.state, E.GL_CLAMP_FRAGMENT_COLOR), all_fixed_point(ctx, ctx.draw_framebuffer))


def vertex_clamps(ctx) -> bool:
    """The vertex colour clamp for the draw framebuffer (compatibility profile only)."""
    if not ctx.api.compat:
        return False
    return applies(mode(ctx.state, E.GL_CLAMP_VERTEX_COLOR), all_fixed_point(ctx, ctx.draw_framebuffer))


def read_clamps(ctx) -> bool:
    """The read clamp of the read framebuffer (glReadPixels; desktop GL only: GLES has no
    glClampColor and reads signed normalized values as they are)."""
    if ctx.api.es:
        return False
    return applies(mode(ctx.state, E.GL_CLAMP_READ_COLOR), all_fixed_point(ctx, ctx.read_framebuffer))


def clamp_query(ctx, values):
    """A colour-state query's answer, clamped to [0, 1] when the fragment clamp applies."""
    if not fragment_clamps(ctx):
        return values
    if isinstance(values, (tuple, list)):
        return type(values)(min(1.0, max(0.0, float(v))) for v in values)
    return min(1.0, max(0.0, float(values)))
