"""drmshim.gpu: the software GPU model (the units the firmware drives).

VDM/CDM (command-stream walkers), USC (the shader core), the texture unit, PPP
(primitive assembly, clipping, culling, viewport), the tiler, ISP (rasterisation,
depth/stencil, hidden surface removal), PDM (coefficients), PBE (stores through
layout). Every unit works in bulk with numpy and reaches memory only through a
``drmshim.memory.GPUMemory``.
"""
