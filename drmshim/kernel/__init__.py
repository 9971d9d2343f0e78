"""drmshim.kernel: the mock Asahi kernel.

Files and handle tables (``file.py``), physical memory (``arena.py``), GEM
objects (``gem.py``), VMs and page tables (``vm.py``), fences and sync objects
(``syncobj.py``, ``sync_ioctls.py``), SUBMIT (``submit.py``), user queues and
the scheduler (``scheduler.py``), GPU configurations (``params.py``), exported
descriptors (``fds.py``), and the device itself (``kernel.py``).
"""

from .arena import PAGE_SIZE_B, Arena
from .gem import GEMObject
from .kernel import DEVICE_PATH, Kernel, set_gpu_factory
from .params import GPU_CONFIGS, GPUConfig, select_config
from .syncobj import Fence, Syncobj
from .vm import VM, VMView

__all__ = ["Kernel", "set_gpu_factory", "DEVICE_PATH", "PAGE_SIZE_B", "Arena", "GEMObject", "GPUConfig",
           "GPU_CONFIGS", "select_config", "Fence", "Syncobj", "VM", "VMView"]
