"""driver.agx: the AGX-like hardware driver (Mesa's src/gallium/drivers/asahi + src/asahi/lib).

Owns the device layer over the uapi seam (device.py: VM plan, BOs, BO cache,
sync objects, queues, submits), resources and transfers laid out with
``layout``, batches per framebuffer with hazard tracking, command-stream
encoders through ``uapi.packets``, shader variants from ``compiler``, and the
implementation of the pipe interface (pipe.py: AgxScreen, AgxContext).

May import: uapi, layout, compiler, driver.gallium. Never drmshim. See README.md."""

from .device import BO, BOCache, Command, Device
from .heap import VAHeap
from .pipe import AgxContext, AgxFence, AgxScreen
from .resource import AgxResource
from .shader import AgxShader, CFBinding, Push

__all__ = ["BO", "BOCache", "Command", "Device", "VAHeap", "AgxContext", "AgxFence", "AgxScreen",
           "AgxResource", "AgxShader", "CFBinding", "Push"]
