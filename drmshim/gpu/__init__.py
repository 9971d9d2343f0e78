"""drmshim.gpu: the software GPU model (the units the firmware drives).

VDM/CDM (command-stream walkers), USC (the shader core), the texture unit, PPP
(primitive assembly, clipping, culling, viewport), the tiler, ISP (rasterisation,
depth/stencil, hidden surface removal), PDM (coefficients), PBE (stores through
layout). Every unit works in bulk with numpy and reaches memory only through a
``drmshim.memory.GPUMemory``.

``executor_factory(kernel)`` makes the executor kernels use by default
(``drmshim.gpu.pipeline.Executor``).
"""


def executor_factory(kernel=None):
    """The GPU model's executor for ``kernel`` (imported lazily: the kernel
    package imports this module at device creation)."""
    from .pipeline import executor_factory as factory
    return factory(kernel)


__all__ = ["executor_factory"]
