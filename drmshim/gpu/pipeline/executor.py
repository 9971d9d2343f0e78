"""The GPU executor the firmware drives: the render pipeline, compute and blits.

Sole responsibility: turn a :class:`~drmshim.firmware.FirmwareCommand` into work
for the units: ``run_vertex`` (VDM, vertex shading, PPP, tiler: the tiled
vertex buffer of the command), ``run_fragment`` (tile passes: background
program, ISP, PDM, fragment shading, end-of-tile program), ``run_compute``
(CDM) and ``run_blit`` (a fragment-only render command). A fault of any unit
stops the command: it is reported (``report_fault``) and re-raised for the
firmware, which records it in the feedback and carries on with the next command.
The GPU never crashes: any other error of a unit (a malformed command,
descriptor or program) becomes the fault of that unit at the address it was
working on (``malformed``), the shader core's at the program's address
(``GuardedCore``; the texture unit reports bad descriptors itself, at the
descriptor); only the watchdog's JobTimeout passes through.

Debug options (``SHIMGL_DEBUG``, comma separated): ``sysmem`` renders straight to
memory (one pass over the whole framebuffer, no tiling, no TVB limit), ``nohsr``
disables hidden surface removal. ``SHIMGL_TVB_ENTRIES`` sets the tiled vertex
buffer capacity in (tile, primitive) entries.
"""

from __future__ import annotations

import os

from uapi import debug_words

from ...firmware import debug_enabled
from ...firmware.watchdog import JobTimeout, current_position
from ...memory import GPUFault, malformed
from ..usc import ShaderCore
from ..usc.control import StepLimit
from .cdm import run_cdm
from .render import run_fragment_half, run_vertex_half

__all__ = ["Executor", "executor_factory", "debug_flags"]

DEFAULT_TVB_ENTRIES = 1 << 22


def debug_flags() -> set[str]:
    """The ``SHIMGL_DEBUG`` options the GPU model reads (``sysmem``, ``nohsr``)."""
    return {f for f in ("sysmem", "nohsr") if debug_enabled(f)}


_OPTIONS = ("", (False, True))      # (the debug words, the (sysmem, hsr) they give)


class GuardedCore(ShaderCore):
    """The shader core as the pipeline drives it: whatever a program does, the core
    ends in a result, a GPUFault or a watchdog stop. A program that never stops
    within the step limit is hung: a watchdog stop (GPU timeout), as the firmware's
    budget would end it (which of the two comes first depends on the tier's speed).
    Any other error of the core (an undecodable word, an operand the unit cannot
    take) is the USC's fault at the program's address."""

    def load(self, program_va: int):
        try:
            return super().load(program_va)
        except (GPUFault, JobTimeout):
            raise
        except Exception as error:  # noqa: BLE001 - the USC reports, it does not crash
            raise malformed("USC", program_va, error) from None

    def run(self, program_va: int, ctx):
        try:
            return super().run(program_va, ctx)
        except (GPUFault, JobTimeout):      # incl. the texture unit's InvalidDescriptor faults
            raise
        except StepLimit:
            raise JobTimeout() from None
        except Exception as error:  # noqa: BLE001
            raise malformed("USC", program_va, error) from None


class Executor:
    """The software GPU. Not concurrent: the kernel serialises its calls.

    ``tvb_entries``: capacity of the tiled vertex buffer; ``sysmem``/``hsr``:
    override the ``SHIMGL_DEBUG`` options (None: read the environment per command).
    """

    concurrent = False

    def __init__(self, kernel=None, *, tvb_entries: int | None = None, sysmem: bool | None = None,
                 hsr: bool | None = None, debug_shaders: bool = False):
        self.kernel = kernel
        env_tvb = os.environ.get("SHIMGL_TVB_ENTRIES")
        self.tvb_entries = tvb_entries or (int(env_tvb) if env_tvb else DEFAULT_TVB_ENTRIES)
        self.sysmem = sysmem
        self.hsr = hsr
        self.debug_shaders = debug_shaders
        self._cores: dict[int, ShaderCore] = {}
        self._tvbs: dict[int, object] = {}
        self.caches: dict = {}      # facts about decoded programs (fragment.uniform_record, analyses)

    # ------------------------------------------------------------------ helpers
    def options(self) -> tuple[bool, bool]:
        """(sysmem, hsr): the constructor's, else ``SHIMGL_DEBUG``'s (read per command)."""
        global _OPTIONS
        words = debug_words()
        if words is not _OPTIONS[0]:
            _OPTIONS = (words, ("sysmem" in words, "nohsr" not in words))
        sysmem, hsr = _OPTIONS[1]
        return (sysmem if self.sysmem is None else self.sysmem), (hsr if self.hsr is None else self.hsr)

    def core(self, command) -> ShaderCore:
        """The shader core of the command's VM (programs stay decoded between commands)."""
        key = id(command.vm) if command.vm is not None else id(command.memory)
        core = self._cores.get(key)
        if core is None or core.mem is not command.memory:
            if core is None:
                core = GuardedCore(command.memory, debug=self.debug_shaders)
                if len(self._cores) > 64:
                    self._cores.clear()
                self._cores[key] = core
            core.mem = command.memory
        return core

    @staticmethod
    def _fault(command, fault: GPUFault) -> None:
        command.report_fault(fault.info)
        raise fault

    @staticmethod
    def _as_fault(error: Exception, unit: str, address: int) -> GPUFault:
        """Any other error of a unit: the fault of the unit the work had reached
        (the watchdog's last position) or else of the half's own master unit."""
        where = current_position()
        if where is not None and where[0]:
            unit, address = where
        return malformed(unit, address, error)

    # ------------------------------------------------------------------ halves
    def run_compute(self, command) -> None:
        cmd = command.cmd
        if not cmd.cdm_ctrl_stream_base:
            return
        try:
            run_cdm(self.core(command), command.memory, cmd.cdm_ctrl_stream_base, cmd.sampler_heap)
        except GPUFault as fault:
            self._fault(command, fault)
        except JobTimeout:
            raise
        except Exception as error:  # noqa: BLE001 - the GPU reports a fault, it never crashes
            self._fault(command, self._as_fault(error, "CDM", cmd.cdm_ctrl_stream_base))

    def run_vertex(self, command) -> None:
        try:
            self._tvbs[id(command)] = run_vertex_half(self, command)
        except GPUFault as fault:
            self._tvbs.pop(id(command), None)
            self._fault(command, fault)
        except JobTimeout:
            self._tvbs.pop(id(command), None)
            raise
        except Exception as error:  # noqa: BLE001
            self._tvbs.pop(id(command), None)
            self._fault(command, self._as_fault(error, "VDM", command.cmd.vdm_ctrl_stream_base))

    def run_fragment(self, command) -> None:
        tvb = self._tvbs.pop(id(command), None)
        try:
            run_fragment_half(self, command, tvb)
        except GPUFault as fault:
            self._fault(command, fault)
        except JobTimeout:
            raise
        except Exception as error:  # noqa: BLE001
            self._fault(command, self._as_fault(error, "ISP", command.cmd.vdm_ctrl_stream_base))

    def run_blit(self, command) -> None:
        """A blit is a fragment-only render command: no VDM work, an empty TVB."""
        self.run_fragment(command)


def executor_factory(kernel=None) -> Executor:
    """The executor a kernel uses by default (``drmshim.gpu.executor_factory``)."""
    return Executor(kernel)
