"""GL_NV_half_float (compatibility contexts): the immediate-mode commands that take
16-bit floats (``GLhalfNV``: IEEE 754 binary16, as GL_HALF_FLOAT). Each converts its
halves to floats and runs the float command of the same shape (glVertex3hNV ->
glVertex3f, glMultiTexCoord2hvNV -> glMultiTexCoord2f, ...). glVertexAttribs{1-4}hvNV set
``n`` consecutive attributes from ``n`` x size halves, the highest index first (as Mesa,
so attribute 0, which emits a vertex, comes last). The HALF_FLOAT_NV type of vertex
arrays is GL_HALF_FLOAT (the same token), which the arrays take already.
glVertexWeighthNV/hvNV exist only with EXT_vertex_weighting, which shimgl does not
list: they are INVALID_OPERATION."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import call, entry_point

__all__ = ["halves"]

_EXT = "GL_NV_half_float"


def halves(values) -> list[float]:
    """binary16 bit patterns -> floats; a value past 16 bits keeps its low 16, as a
    GLhalfNV (unsigned short) argument of C would."""
    return [float(v) for v in np.asarray([int(v) & 0xFFFF for v in values], np.uint16).view(np.float16)]


def _needs(ctx, name):
    if not ctx.api.has_extension(_EXT):
        raise GLError(E.GL_INVALID_OPERATION, f"{name} needs {_EXT}")


def _command(name: str, target: str, n: int, lead: int, vector: bool):
    """`name`(lead args..., n halves | a pointer to n halves) runs `target` with floats."""
    if vector:
        def entry(ctx, *args):
            _needs(ctx, name)
            call(ctx, target, *args[:lead], *halves(list(args[lead])[:n]))
    else:
        def entry(ctx, *args):
            _needs(ctx, name)
            call(ctx, target, *args[:lead], *halves(args[lead:lead + n]))
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"{name}: {target} with {n} half floats."
    entry_point(entry)


_SHAPES = ([("glVertex", k, 0) for k in (2, 3, 4)] + [("glNormal", 3, 0), ("glColor", 3, 0), ("glColor", 4, 0),
           ("glSecondaryColor", 3, 0)] + [("glTexCoord", k, 0) for k in (1, 2, 3, 4)]
           + [("glMultiTexCoord", k, 1) for k in (1, 2, 3, 4)] + [("glVertexAttrib", k, 1) for k in (1, 2, 3, 4)])
for _base, _n, _lead in _SHAPES:
    _command(f"{_base}{_n}hNV", f"{_base}{_n}f", _n, _lead, False)
    _command(f"{_base}{_n}hvNV", f"{_base}{_n}f", _n, _lead, True)
_command("glFogCoordhNV", "glFogCoordf", 1, 0, False)
_command("glFogCoordhvNV", "glFogCoordf", 1, 0, True)


def _attribs(size: int):
    name = f"glVertexAttribs{size}hvNV"

    def entry(ctx, index, n, v):
        _needs(ctx, name)
        check(n >= 0, E.GL_INVALID_VALUE, "negative count")
        values = halves(list(v)[:n * size])
        check(len(values) == n * size, E.GL_INVALID_VALUE, f"{n} attributes need {n * size} values")
        for i in reversed(range(n)):
            call(ctx, f"glVertexAttrib{size}f", index + i, *values[i * size:(i + 1) * size])
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"{name}: attributes index..index+n-1 from n x {size} half floats."
    entry_point(entry)


for _size in (1, 2, 3, 4):
    _attribs(_size)


@entry_point
def glVertexWeighthNV(ctx, weight):
    raise GLError(E.GL_INVALID_OPERATION, "glVertexWeighthNV needs GL_EXT_vertex_weighting (not listed)")


@entry_point
def glVertexWeighthvNV(ctx, weight):
    raise GLError(E.GL_INVALID_OPERATION, "glVertexWeighthvNV needs GL_EXT_vertex_weighting (not listed)")
