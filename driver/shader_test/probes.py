"""Pixel probes with piglit's tolerances (pure numpy; no GL).

piglit compares a single probed pixel in float: |observed - expected| >
tolerance[c] fails, with tolerance 0.01 per channel unless a `tolerance`
command changes it. A rectangle probe on a framebuffer of at most 8 bits per
channel compares in bytes instead: expected = trunc(f * 255) (C's float to
unsigned byte conversion, after clamping to [0, 255]), tolerance =
ceil(tol * 255), and |observed - expected| > tolerance fails. On wider
formats it compares in float like the single-pixel probe."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["DEFAULT_TOLERANCE", "ProbeFailure", "probe_pixel", "probe_rect"]

DEFAULT_TOLERANCE = (0.01, 0.01, 0.01, 0.01)


class ProbeFailure(Exception):
    """A probe that did not match: the message names the pixel and both colours."""


def _fmt(values) -> str:
    return " ".join(f"{float(v):f}" for v in values)


def probe_pixel(observed, expected, tolerance, x: int, y: int) -> None:
    """Float compare of one pixel; `observed` and `expected` have the same length (3 or 4)."""
    n = len(expected)
    obs = np.asarray(observed, np.float64)[:n]
    exp = np.asarray(expected, np.float64)
    tol = np.asarray(tolerance[:n], np.float64)
    if (np.abs(obs - exp) > tol).any() or np.isnan(obs).any():
        raise ProbeFailure(f"Probe color at ({x},{y})\n  Expected: {_fmt(exp)}\n  Observed: {_fmt(obs)}")


def probe_rect(pixels, expected, tolerance, x0: int, y0: int, as_ubyte: bool) -> None:
    """Compare every pixel of `pixels` ((h, w, >=n) uint8 if `as_ubyte`, else
    float) with `expected` (n = 3 or 4 channels). Reports the first bad pixel
    in row order (bottom row first), as piglit does."""
    n = len(expected)
    if as_ubyte:
        px = np.asarray(pixels)[..., :n].astype(np.int32)
        exp = np.array([int(min(max(float(e), 0.0), 1.0) * 255) for e in expected], np.int32)
        tol = np.array([math.ceil(t * 255) for t in tolerance[:n]], np.int32)
        bad = (np.abs(px - exp) > tol).any(axis=-1)
    else:
        px = np.asarray(pixels, np.float64)[..., :n]
        exp = np.asarray(expected, np.float64)
        tol = np.asarray(tolerance[:n], np.float64)
        bad = (np.abs(px - exp) > tol).any(axis=-1) | np.isnan(px).any(axis=-1)
    if bad.any():
        j, i = (int(v) for v in np.argwhere(bad)[0])
        if as_ubyte:
            raise ProbeFailure(f"Probe color at ({x0 + i},{y0 + j})\n  Expected: "
                               + " ".join(str(int(v)) for v in exp)
                               + "\n  Observed: " + " ".join(str(int(v)) for v in px[j, i]))
        raise ProbeFailure(f"Probe color at ({x0 + i},{y0 + j})\n  Expected: {_fmt(exp)}\n"
                           f"  Observed: {_fmt(px[j, i])}")
