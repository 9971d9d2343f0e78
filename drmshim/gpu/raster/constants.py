"""Enumerations and fixed parameters of the geometry and raster units.

Primitive topology, compare function and stencil op come from the command-stream
packet table (``uapi.packets``: ``Primitive``, ``CompareFunc``, ``StencilOp``), the
single source of truth; every function here accepts an enum member, its int value
or its name in any case (``"less"``, ``"triangle_strip"``; ``"incr"``/``"decr"`` are
accepted for ``INCR_SAT``/``DECR_SAT``). The packet table describes culling and
winding as booleans (``cull_front``, ``cull_back``, ``front_ccw``); the raster
functions take them as the small local enums ``CullMode`` and ``FrontFace``.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from uapi.packets import CompareFunc, Primitive, StencilOp
from uapi.samples import SAMPLE_POSITIONS_16THS  # noqa: F401 - the pattern, re-exported for the raster units

# --- fixed point -------------------------------------------------------------

#: Sub-pixel precision of the rasteriser: window x/y are snapped to 1/256 px.
SUBPIXEL_BITS = 8
SUBPIXEL_ONE = 1 << SUBPIXEL_BITS  # fixed-point units (fx) per pixel

#: Largest |window coordinate| in pixels the rasteriser accepts. Edge functions
#: are products of two coordinate differences in fx: (2 * 2^17 * 2^8)^2 = 2^52
#: keeps them, and their sums, exact in int64 (and even in float64).
MAX_WINDOW_COORD_PX = 1 << 17

# --- enumerations ---------------------------------------------------------------------


class CullMode(IntEnum):
    NONE = 0
    FRONT = 1
    BACK = 2
    FRONT_AND_BACK = 3


class FrontFace(IntEnum):
    CCW = 0
    CW = 1


POINTS, LINES, LINE_LOOP, LINE_STRIP = (int(Primitive[n]) for n in ("POINTS", "LINES", "LINE_LOOP", "LINE_STRIP"))
TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN = (int(Primitive[n]) for n in ("TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"))
NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS = (int(m) for m in CompareFunc)
KEEP, ZERO, REPLACE, INCR, DECR, INVERT, INCR_WRAP, DECR_WRAP = (
    int(StencilOp[n]) for n in ("KEEP", "ZERO", "REPLACE", "INCR_SAT", "DECR_SAT", "INVERT", "INCR_WRAP", "DECR_WRAP"))
CULL_NONE, CULL_FRONT, CULL_BACK, CULL_FRONT_AND_BACK = (int(m) for m in CullMode)
CCW, CW = int(FrontFace.CCW), int(FrontFace.CW)

#: lower-case names, in enum order (for messages, tests, parametrisation)
TOPOLOGIES = tuple(m.name.lower() for m in Primitive)
COMPARE_FUNCS = tuple(m.name.lower() for m in CompareFunc)
STENCIL_OPS = tuple(m.name.lower() for m in StencilOp)
CULL_MODES = tuple(m.name.lower() for m in CullMode)
FRONT_FACES = tuple(m.name.lower() for m in FrontFace)

_ALIASES = {"incr": "incr_sat", "decr": "decr_sat"}

# --- sample patterns (the pattern itself: uapi.samples) ---------------------------------


def sample_positions_fx(samples: int) -> np.ndarray:
    """(samples, 2) int64 sample offsets in fx (1/256 px) from the pixel corner."""
    if samples not in SAMPLE_POSITIONS_16THS:
        raise ValueError(f"unsupported sample count {samples}: use 1, 2 or 4")
    return np.array(SAMPLE_POSITIONS_16THS[samples], dtype=np.int64) * (SUBPIXEL_ONE // 16)


def sample_positions_px(samples: int) -> np.ndarray:
    """(samples, 2) float64 sample offsets in pixels from the pixel corner."""
    return sample_positions_fx(samples) / SUBPIXEL_ONE


def enum_value(value: int | str | IntEnum, enum: type[IntEnum], what: str) -> int:
    """Map an enum given as member, int value or (case-insensitive) name to its int."""
    if isinstance(value, str):
        name = value.lower()
        name = _ALIASES.get(name, name)
        try:
            return int(enum[name.upper()])
        except KeyError:
            names = [m.name.lower() for m in enum]
            raise ValueError(f"unknown {what} {value!r}; expected one of {names}") from None
    try:
        return int(enum(int(value)))
    except ValueError:
        raise ValueError(f"{what} {value} is not a {enum.__name__} value") from None
