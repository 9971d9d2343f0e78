"""Rasterizer features of GL 4.5-4.6: ARB_polygon_offset_clamp, ARB_clip_control."""

from __future__ import annotations

import math

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import entry_point
from driver.gl.features.gles_ext import es_has

__all__: list[str] = []


@entry_point
def glPolygonOffsetClamp(ctx, factor, units, clamp):
    """GL 4.6 section 14.6.5: the offset o = factor * m + units * r becomes
    min(o, clamp) for a positive clamp and max(o, clamp) for a negative one;
    0 or NaN: no clamp (glPolygonOffset sets 0)."""
    check(ctx.api.has_extension("GL_ARB_polygon_offset_clamp") or es_has(ctx.api, "polygon_offset_clamp"),
          E.GL_INVALID_OPERATION, "needs GL 4.6, ARB_polygon_offset_clamp or EXT_polygon_offset_clamp")
    s = ctx.state
    s.polygon_offset_factor, s.polygon_offset_units = float(factor), float(units)
    clamp = float(clamp)
    s.polygon_offset_clamp = 0.0 if math.isnan(clamp) else clamp


@entry_point
def glClipControl(ctx, origin, depth):
    """GL 4.6 section 13.7: the clip volume's z range ([-w, w] or [0, w]) and
    whether window y grows down (UPPER_LEFT)."""
    check(ctx.api.has_extension("GL_ARB_clip_control") or ctx.api.has_extension("GL_EXT_clip_control"),
          E.GL_INVALID_OPERATION, "needs GL 4.5, ARB_clip_control or (GLES) EXT_clip_control")
    check(origin in (E.GL_LOWER_LEFT, E.GL_UPPER_LEFT), E.GL_INVALID_ENUM, f"bad origin {origin:#x}")
    check(depth in (E.GL_NEGATIVE_ONE_TO_ONE, E.GL_ZERO_TO_ONE), E.GL_INVALID_ENUM, f"bad depth mode {depth:#x}")
    ctx.state.clip_origin, ctx.state.clip_depth_mode = int(origin), int(depth)
