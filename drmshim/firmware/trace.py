"""Firmware queue events: recording and ``SHIMGL_DEBUG=fw`` logging.

Sole responsibility: the event record the firmware queues emit as they execute
(one per WAIT or RUN), and a listener that logs them to stderr when
``SHIMGL_DEBUG`` contains ``fw``. ``shimgl fwtrace`` listens to the same events.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from uapi.debug import debug_enabled  # noqa: F401 (re-exported)

__all__ = ["FirmwareEvent", "debug_enabled", "stderr_logger"]


@dataclass(frozen=True)
class FirmwareEvent:
    """``queue`` ("Vertex", "Fragment", "Compute") ran ``op`` ("WAIT"/"RUN") on ``what``
    ("C0", "R1f", "R2v", ...) for job ``job`` of user queue ``user_queue``."""

    user_queue: str
    job: int
    queue: str
    op: str
    what: str

    def __str__(self) -> str:
        return f"{self.op} {self.what}"




def stderr_logger(event: FirmwareEvent) -> None:
    print(f"shimgl fw: {event.user_queue} job {event.job} {event.queue}: {event}", file=sys.stderr, flush=True)
