"""Rasterizer features of GL 4.5-4.6: ARB_polygon_offset_clamp."""

from __future__ import annotations

import math

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import entry_point

__all__: list[str] = []


@entry_point
def glPolygonOffsetClamp(ctx, factor, units, clamp):
    """GL 4.6 section 14.6.5: the offset o = factor * m + units * r becomes
    min(o, clamp) for a positive clamp and max(o, clamp) for a negative one;
    0 or NaN: no clamp (glPolygonOffset sets 0)."""
    check(ctx.api.has_extension("GL_ARB_polygon_offset_clamp"), E.GL_INVALID_OPERATION,
          "needs GL 4.6 or ARB_polygon_offset_clamp")
    s = ctx.state
    s.polygon_offset_factor, s.polygon_offset_units = float(factor), float(units)
    clamp = float(clamp)
    s.polygon_offset_clamp = 0.0 if math.isnan(clamp) else clamp
