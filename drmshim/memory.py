"""What the GPU model sees of memory: the contract between the kernel's VMs and the
units of the GPU (shader core, texture unit, VDM/CDM, PBE, ...).

Every GPU access goes through a :class:`GPUMemory` (in the kernel: a VM with its page
tables). Accesses are vectorised: whole numpy arrays of addresses at once, never a
Python loop per access. A bad address is a :class:`GPUFault` naming the address, the
unit and whether it was a read; with soft faults (``DRM_ASAHI_FEATURE_SOFT_FAULTS``)
bad reads give 0 and bad writes are dropped, and the first fault is still recorded.

:class:`FlatMemory` is the simplest implementation (one contiguous mapping), for
unit tests of the GPU units without a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

__all__ = ["GPUFault", "FaultInfo", "GPUMemory", "FlatMemory", "malformed"]


@dataclass(frozen=True)
class FaultInfo:
    """One GPU fault: what the command feedback and core dumps report."""

    address: int
    unit: str  # "USC", "TEX", "VDM", "CDM", "PBE", "ZLS", "PPP", ...
    is_read: bool
    #: Why, when the unit stopped on something it cannot execute (a malformed
    #: command, descriptor or program at ``address``) rather than on a bad access.
    reason: str = field(default="", compare=False)

    def __str__(self) -> str:
        if self.reason:
            return f"GPU fault: {self.unit} cannot execute what it read at 0x{self.address:x}: {self.reason}"
        kind = "read" if self.is_read else "write"
        return f"GPU fault: {kind} of unmapped or protected address 0x{self.address:x} by {self.unit}"


class GPUFault(Exception):
    """Raised by a GPU access to an unmapped page or a write to a read-only page."""

    def __init__(self, info: FaultInfo):
        super().__init__(str(info))
        self.info = info


def malformed(unit: str, address: int, why: BaseException | str) -> GPUFault:
    """The fault a unit reports when it stops on something it cannot execute (a
    malformed command, descriptor or program) that it read at ``address``."""
    if isinstance(why, BaseException):
        why = f"{type(why).__name__}: {why}" if str(why) else type(why).__name__
    return GPUFault(FaultInfo(int(address) & ((1 << 64) - 1), unit, True, reason=why[:300]))


class GPUMemory(Protocol):
    """The GPU's view of one address space. Addresses are GPU virtual addresses."""

    def read(self, va: int, nbytes: int, unit: str) -> np.ndarray:
        """Copy ``nbytes`` from ``va``; a uint8 array."""

    def write(self, va: int, data: bytes | np.ndarray, unit: str) -> None:
        """Write ``data`` (bytes or any array, as raw bytes) at ``va``."""

    def gather(self, vas: np.ndarray, dtype: np.dtype, unit: str) -> np.ndarray:
        """Load one ``dtype`` element at each address in ``vas`` (uint64 array)."""

    def scatter(self, vas: np.ndarray, values: np.ndarray, unit: str) -> None:
        """Store ``values[i]`` at ``vas[i]``; on duplicate addresses the last index wins."""

    # Optional: ``window(va, nbytes, is_read) -> np.ndarray | None``, the bytes of
    # ``[va, va + nbytes)`` as a writable view when every byte of it may be accessed
    # so (one permitted, contiguous mapping), else None; it never faults. A unit uses
    # it for bulk access in native code and falls back to gather/scatter on None.


class FlatMemory:
    """One contiguous, fully mapped read/write range ``[base, base + size)``."""

    def __init__(self, size: int, base: int = 0x1_0000_0000, soft_faults: bool = False):
        self.base = base
        self.bytes = np.zeros(size, dtype=np.uint8)
        self.soft_faults = soft_faults
        self.faults: list[FaultInfo] = []

    def _offsets(self, vas: np.ndarray, itemsize: int, unit: str, is_read: bool) -> tuple[np.ndarray, np.ndarray]:
        offs = np.asarray(vas, dtype=np.uint64).astype(np.int64) - self.base
        ok = (offs >= 0) & (offs + itemsize <= self.bytes.size)
        if not ok.all():
            bad = int(np.asarray(vas, dtype=np.uint64)[~ok][0])
            info = FaultInfo(bad, unit, is_read)
            self.faults.append(info)
            if not self.soft_faults:
                raise GPUFault(info)
        return np.where(ok, offs, 0), ok

    def read(self, va: int, nbytes: int, unit: str) -> np.ndarray:
        start, ok = self._offsets(np.array([va]), nbytes, unit, True)
        if not ok[0]:
            return np.zeros(nbytes, dtype=np.uint8)
        return self.bytes[start[0]:start[0] + nbytes].copy()

    def write(self, va: int, data: bytes | np.ndarray, unit: str) -> None:
        raw = np.frombuffer(bytes(data), dtype=np.uint8) if isinstance(data, (bytes, bytearray, memoryview)) \
            else np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        start, ok = self._offsets(np.array([va]), raw.size, unit, False)
        if ok[0]:
            self.bytes[start[0]:start[0] + raw.size] = raw

    def window(self, va: int, nbytes: int, is_read: bool) -> np.ndarray | None:
        start = va - self.base
        if nbytes <= 0 or start < 0 or start + nbytes > self.bytes.size:
            return None
        return self.bytes[start:start + nbytes]

    def run_window(self, va: int, is_read: bool) -> tuple[int, np.ndarray] | None:
        """(first VA, bytes) of the whole range when it holds ``va`` (``VM.run_window``)."""
        if not 0 <= va - self.base < self.bytes.size:
            return None
        return self.base, self.bytes

    def gather(self, vas: np.ndarray, dtype: np.dtype, unit: str) -> np.ndarray:
        dtype = np.dtype(dtype)
        offs, ok = self._offsets(vas, dtype.itemsize, unit, True)
        idx = offs[:, None] + np.arange(dtype.itemsize)
        out = self.bytes[idx].copy().view(dtype).reshape(offs.shape)
        out[~ok] = 0
        return out

    def scatter(self, vas: np.ndarray, values: np.ndarray, unit: str) -> None:
        values = np.ascontiguousarray(values)
        offs, ok = self._offsets(vas, values.dtype.itemsize, unit, False)
        raw = values.view(np.uint8).reshape(offs.size, values.dtype.itemsize)
        idx = offs[:, None] + np.arange(values.dtype.itemsize)
        self.bytes[idx[ok]] = raw[ok]
