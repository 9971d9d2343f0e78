"""The GPU's multisample pattern: where the samples of a pixel lie.

The standard multisample pattern (D3D10's, which GL implementations report
through ``GL_SAMPLE_POSITION``), per sample count, in 1/16 pixel from the
pixel's corner (0, 0), y growing with the row index. One table for the GPU
model's rasteriser and interpolation (``drmshim.gpu.raster``) and the driver's
answers (``glGetMultisamplefv``)."""

from __future__ import annotations

__all__ = ["SAMPLE_POSITIONS_16THS", "sample_position_px"]

SAMPLE_POSITIONS_16THS = {
    1: ((8, 8),),
    2: ((12, 12), (4, 4)),
    4: ((6, 2), (14, 6), (2, 10), (10, 14)),
}


def sample_position_px(samples: int, index: int) -> tuple[float, float]:
    """Sample ``index`` of the ``samples``-sample pattern, in pixels from the corner."""
    x, y = SAMPLE_POSITIONS_16THS[samples][index]
    return x / 16, y / 16
