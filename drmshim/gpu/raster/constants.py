"""Enumerations and fixed parameters of the geometry and raster units.

The command-stream packet table (``uapi.packets``) is meant to become the single
source of truth for the enumerations below (primitive topology, compare function,
stencil op, cull mode, winding). Until it exposes them, the raster unit defines
them here as plain ints with GL's order, and every function accepts either the
int or its lower-case name (``"less"``, ``"triangle_strip"``...). When the packet
table grows these enums, replace the tables here by imports from it.
"""

from __future__ import annotations

import numpy as np

# --- fixed point -------------------------------------------------------------

#: Sub-pixel precision of the rasteriser: window x/y are snapped to 1/256 px.
SUBPIXEL_BITS = 8
SUBPIXEL_ONE = 1 << SUBPIXEL_BITS  # fixed-point units (fx) per pixel

#: Largest |window coordinate| in pixels the rasteriser accepts. Edge functions
#: are products of two coordinate differences in fx: (2 * 2^17 * 2^8)^2 = 2^52
#: keeps them, and their sums, exact in int64 (and even in float64).
MAX_WINDOW_COORD_PX = 1 << 17

# --- primitive topology (GL order) ----------------------------------------------

TOPOLOGIES = ("points", "lines", "line_loop", "line_strip",
              "triangles", "triangle_strip", "triangle_fan")
POINTS, LINES, LINE_LOOP, LINE_STRIP, TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN = range(7)

# --- depth/stencil compare functions (GL order: GL_NEVER + i) --------------------

COMPARE_FUNCS = ("never", "less", "equal", "lequal", "greater", "notequal", "gequal", "always")
NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS = range(8)

# --- stencil operations ------------------------------------------------------------

STENCIL_OPS = ("keep", "zero", "replace", "incr", "decr", "invert", "incr_wrap", "decr_wrap")
KEEP, ZERO, REPLACE, INCR, DECR, INVERT, INCR_WRAP, DECR_WRAP = range(8)

# --- culling and winding -------------------------------------------------------------

CULL_MODES = ("none", "front", "back", "front_and_back")
CULL_NONE, CULL_FRONT, CULL_BACK, CULL_FRONT_AND_BACK = range(4)
FRONT_FACES = ("ccw", "cw")
CCW, CW = range(2)

# --- sample patterns -------------------------------------------------------------------

#: Standard sample positions (D3D10 "standard multisample pattern", also what
#: GL implementations report through GL_SAMPLE_POSITION), in 1/16 pixel from the
#: pixel's corner (0, 0) with y growing with the row index. In fx (1/256 px) they
#: are exact: multiply by 16.
SAMPLE_POSITIONS_16THS = {
    1: ((8, 8),),
    2: ((12, 12), (4, 4)),
    4: ((6, 2), (14, 6), (2, 10), (10, 14)),
}


def sample_positions_fx(samples: int) -> np.ndarray:
    """(samples, 2) int64 sample offsets in fx (1/256 px) from the pixel corner."""
    if samples not in SAMPLE_POSITIONS_16THS:
        raise ValueError(f"unsupported sample count {samples}: use 1, 2 or 4")
    return np.array(SAMPLE_POSITIONS_16THS[samples], dtype=np.int64) * (SUBPIXEL_ONE // 16)


def sample_positions_px(samples: int) -> np.ndarray:
    """(samples, 2) float64 sample offsets in pixels from the pixel corner."""
    return sample_positions_fx(samples) / SUBPIXEL_ONE


def enum_value(value: int | str, names: tuple[str, ...], what: str) -> int:
    """Map an enum given as int or lower-case name to its int; raise on junk."""
    if isinstance(value, str):
        try:
            return names.index(value.lower())
        except ValueError:
            raise ValueError(f"unknown {what} {value!r}; expected one of {names}") from None
    value = int(value)
    if not 0 <= value < len(names):
        raise ValueError(f"{what} {value} out of range 0..{len(names) - 1}")
    return value
