"""drmshim.firmware: the firmware queues of each user queue and the pluggable GPU.

Per user queue: a vertex, a fragment and a compute firmware queue, with the
barrier rules of the Asahi UAPI notes (see ``queues.py``); the GPU executor
protocol the GPU model implements (``executor.py``); the command record an
executor receives (``command.py``); ``SHIMGL_DEBUG=fw`` event logging
(``trace.py``). May import uapi and drmshim.memory; never driver or compiler.
"""

from .command import COUNTER_NAMES, Attachment, Counters, Feedback, FirmwareCommand
from .executor import GPUExecutor, NullExecutor
from .queues import QUEUE_NAMES, Firmware, FirmwareJob, unit_number
from .trace import FirmwareEvent, debug_enabled, stderr_logger

__all__ = ["Attachment", "Counters", "Feedback", "FirmwareCommand", "COUNTER_NAMES", "GPUExecutor",
           "NullExecutor", "Firmware", "FirmwareJob", "QUEUE_NAMES", "FirmwareEvent", "debug_enabled",
           "stderr_logger", "unit_number"]
