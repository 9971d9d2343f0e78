"""What the firmware hands the GPU for one command, and what it gets back.

Sole responsibility: the data passed between the firmware queues and a GPU
executor: :class:`FirmwareCommand` (the VM as GPUMemory, the decoded
``drm_asahi_cmd_render``/``drm_asahi_cmd_compute``, attachments, the queue's
counters and the command's feedback record) and :class:`Counters`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

import uapi

from ..memory import FaultInfo, GPUMemory

__all__ = ["Attachment", "Counters", "Feedback", "FirmwareCommand", "COUNTER_NAMES"]

# One source: the fields of the QUEUE_COUNTERS extension struct.
COUNTER_NAMES: tuple[str, ...] = tuple(name for name, _ in uapi.ffi.typeof("struct drm_asahi_queue_counters").fields)
_KNOWN_COUNTERS = frozenset(COUNTER_NAMES)


@dataclass(frozen=True)
class Attachment:
    """One ``drm_asahi_attachment``: a memory range the firmware must keep resident."""

    pointer: int
    size_B: int
    flags: int = 0


class Counters:
    """Per-queue performance counters (thread-safe). The executor adds vertices,
    primitives, fragments, tiles and shader instructions; the firmware adds
    commands, faults and each command's ``feedback.partial_renders``."""

    def __init__(self):
        self._lock = threading.Lock()
        self._values = dict.fromkeys(COUNTER_NAMES, 0)

    def add(self, **amounts: int) -> None:
        """``counters.add(vertices=3, primitives=1)``; unknown names are a ValueError."""
        if not _KNOWN_COUNTERS.issuperset(amounts):
            unknown = set(amounts) - _KNOWN_COUNTERS
            raise ValueError(f"unknown performance counters {sorted(unknown)}; known: {COUNTER_NAMES}")
        with self._lock:
            for name, amount in amounts.items():
                self._values[name] += int(amount)

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._values)


@dataclass
class Feedback:
    """What the kernel writes to the command's feedback buffer once it completes.
    The executor fills the TVB statistics and the partial-render count (which the
    firmware also adds to the queue's ``partial_renders`` counter)."""

    status: int = 0
    start_ns: int = 0
    end_ns: int = 0
    vertex_start_ns: int = 0
    vertex_end_ns: int = 0
    fragment_start_ns: int = 0
    fragment_end_ns: int = 0
    tvb_size_B: int = 0
    tvb_usage_B: int = 0
    tvb_overflows: int = 0
    partial_renders: int = 0
    fault: FaultInfo | None = None
    soft_fault: bool = False


@dataclass
class FirmwareCommand:
    """One hardware command of a job, as the GPU executor sees it.

    ``kind`` is "render", "compute" or "blit" (a fragment-only render command).
    ``cmd`` is the decoded struct (a private copy). ``memory`` is the queue's VM
    as :class:`~drmshim.memory.GPUMemory`; faults it records (soft faults) are
    reported in this command's feedback. An executor stops the command by
    raising ``GPUFault``; the firmware records it and carries on with the next.
    """

    kind: str
    index: int  # hardware command index within the submission, from 0
    name: str  # "R1", "C2": the firmware-queue name of the command
    cmd: object
    memory: GPUMemory
    vm: object  # the kernel's VM object (page tables) behind ``memory``
    usc_exec_base: int
    config: object  # the kernel's GPUConfig
    counters: Counters
    vertex_attachments: list[Attachment] = field(default_factory=list)
    fragment_attachments: list[Attachment] = field(default_factory=list)
    compute_attachments: list[Attachment] = field(default_factory=list)
    feedback: Feedback = field(default_factory=Feedback)
    faults: list[FaultInfo] = field(default_factory=list)
    # Kernel-resolved targets: physical arena offsets for timestamps and feedback.
    timestamp_targets: dict[str, int] = field(default_factory=dict)
    feedback_target: tuple[int, int] | None = None  # (physical offset, size in bytes)
    physical: np.ndarray | None = None  # the arena, for timestamp/feedback writes
    vdm_barrier: int = uapi.DRM_ASAHI_BARRIER_NONE
    cdm_barrier: int = uapi.DRM_ASAHI_BARRIER_NONE
    failed: bool = False

    def report_fault(self, info: FaultInfo) -> None:
        """Record a fault without stopping (what soft faults do)."""
        self.faults.append(info)
