"""drmshim: the mock kernel, its firmware queues and the software GPU.

Owns the DRM files, VMs and page tables, GEM objects, binds, queues, the
drm_sched-like scheduler, sync objects, the vertex/fragment/compute firmware
queues, the GPU model (VDM, PPP, tiler, ISP, PDM, USC shader core, texture unit,
PBE, CDM), capture/replay and fault dumps. It registers itself as the backend of
/dev/dri/renderD128 on the uapi seam.

May import: uapi, layout. Must never import driver or compiler: a kernel never
links against the userspace that calls it. See README.md.

Public API: :class:`Kernel` (one device; ``Kernel(config="m1max", gpu=executor)``),
:func:`register_backend` (the ``shimgl.uapi_backends`` entry point: installs the
default kernel at /dev/dri/renderD128), :func:`default_kernel`,
:func:`set_gpu_factory` (the GPU executor of kernels created afterwards).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .kernel import Kernel

__all__ = ["Kernel", "GPUConfig", "GPU_CONFIGS", "DEVICE_PATH", "register_backend", "default_kernel",
           "set_gpu_factory"]

# The kernel's names are imported on first use: importing a drmshim tool module
# (``shimgl fwtrace``, ``decode``, ... are registered through drmshim.*_cli) must
# not start the whole kernel and GPU model.
_KERNEL_NAMES = ("DEVICE_PATH", "GPU_CONFIGS", "GPUConfig", "Kernel", "set_gpu_factory")

_default: Kernel | None = None
_default_lock = threading.Lock()


def __getattr__(name: str):
    if name in _KERNEL_NAMES:
        from . import kernel
        value = getattr(kernel, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'drmshim' has no attribute {name!r}")


def default_kernel() -> Kernel:
    """The kernel behind /dev/dri/renderD128 (created on first use)."""
    global _default
    from .kernel import Kernel
    with _default_lock:
        if _default is None:
            _default = Kernel()
        return _default


def register_backend() -> None:
    """Answer for /dev/dri/renderD128 on the uapi seam (the entry point the seam loads)."""
    import uapi
    from .kernel import DEVICE_PATH
    uapi.register_backend(DEVICE_PATH, default_kernel())
