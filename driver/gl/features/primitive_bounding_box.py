"""OES/EXT_primitive_bounding_box (core in GLES 3.2, section 11.1.3.13 / 13.4), and the
same in desktop GL through ARB_ES3_2_compatibility (glPrimitiveBoundingBoxARB, the
registry's alias of the command, PRIMITIVE_BOUNDING_BOX_ARB, gl_BoundingBox with its
#extension):
``glPrimitiveBoundingBox`` stores the bounding box of the primitives the next
draws produce in clip space (``PRIMITIVE_BOUNDING_BOX``, eight floats: the
minimum corner then the maximum one; initially (-1, -1, -1, 1, 1, 1, 1, 1)), and
a tessellation control shader may write a patch's own box to
``gl_BoundingBox[2]`` (``gl_BoundingBoxOES``/``gl_BoundingBoxEXT`` with the
extensions).

The box is an optimisation hint a tiler may use to bin primitives before
geometry and tessellation run; the specification allows ignoring it (primitives
outside the box are undefined, not clipped). shimgl keeps the state and
ignores the hint: every primitive is binned from its own vertices, and the
control shader's writes are dropped by the lowering.
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import entry_point
from driver.gl.features.gles_ext import es_has

__all__ = ["DEFAULT_BOX", "available", "bounding_box"]

DEFAULT_BOX = (-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0)


def available(api) -> bool:
    """Whether a context has the bounding box (GLES 3.2 or the OES/EXT extension;
    desktop GL with ARB_ES3_2_compatibility)."""
    return es_has(api, "primitive_bounding_box") or (not api.es and api.has_extension("GL_ARB_ES3_2_compatibility"))


def bounding_box(ctx) -> tuple[float, ...]:
    """PRIMITIVE_BOUNDING_BOX: (minX, minY, minZ, minW, maxX, maxY, maxZ, maxW)."""
    return getattr(ctx, "_primitive_bounding_box", DEFAULT_BOX)


@entry_point
def glPrimitiveBoundingBox(ctx, min_x, min_y, min_z, min_w, max_x, max_y, max_z, max_w) -> None:
    check(available(ctx.api), E.GL_INVALID_OPERATION,
          "glPrimitiveBoundingBox needs GLES 3.2, GL_OES_primitive_bounding_box or GL_ARB_ES3_2_compatibility")
    ctx._primitive_bounding_box = tuple(float(v) for v in (min_x, min_y, min_z, min_w,
                                                           max_x, max_y, max_z, max_w))
