"""drmshim.gpu.pipeline: the units that walk command streams and drive the others.

- ``executor``: :class:`Executor` (run_vertex / run_fragment / run_compute /
  run_blit for the firmware) and :func:`executor_factory`.
- ``cdm``: compute launches. ``streams``: strict VDM/CDM walking.
- ``usc_words``: pipelines (USC words) -> shader-core contexts.
- ``vdm``, ``ppp``, ``render``, ``fragment``, ``zls``, ``pbe``: the render
  pipeline (``render``'s docstring and README.md give the conventions a driver
  must follow).

Imports ``uapi``, ``layout``, ``drmshim.memory`` and the sibling units
(``usc``, ``raster``, ``texture``) only.
"""

from .executor import Executor, debug_flags, executor_factory

__all__ = ["Executor", "executor_factory", "debug_flags"]
