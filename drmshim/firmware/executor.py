"""The pluggable GPU the firmware drives.

Sole responsibility: the :class:`GPUExecutor` protocol (``run_vertex``,
``run_fragment``, ``run_compute``, optionally ``run_blit``; each takes a
:class:`~drmshim.firmware.command.FirmwareCommand`) and :class:`NullExecutor`,
which executes empty command streams: every command is a no-op. The GPU model
provides the real executor: kernels use ``drmshim.gpu.executor_factory(kernel)``
when that exists; install another per kernel with ``Kernel(gpu=...)`` or for new
kernels with ``drmshim.set_gpu_factory``. A blit goes to ``run_blit`` if the
executor has it, else to ``run_fragment`` (``command.kind == "blit"``).

Executors are called from the firmware threads of every queue. Unless an
executor sets ``concurrent = True`` the kernel serialises the calls.
"""

from __future__ import annotations

from typing import Protocol

from .command import FirmwareCommand

__all__ = ["GPUExecutor", "NullExecutor"]


class GPUExecutor(Protocol):
    def run_vertex(self, command: FirmwareCommand) -> None:
        """Run the vertex half of a render command (VDM stream, vertex shading, tiling)."""

    def run_fragment(self, command: FirmwareCommand) -> None:
        """Run the fragment half of a render command (or a blit)."""

    def run_compute(self, command: FirmwareCommand) -> None:
        """Run a compute command (the CDM stream)."""


class NullExecutor:
    """Executes nothing: empty command streams. Safe to call concurrently."""

    concurrent = True

    def run_vertex(self, command: FirmwareCommand) -> None:
        pass

    def run_fragment(self, command: FirmwareCommand) -> None:
        pass

    def run_compute(self, command: FirmwareCommand) -> None:
        pass
