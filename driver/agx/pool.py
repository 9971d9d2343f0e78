"""Transient GPU memory (Mesa's agx_pool): bump allocation from slab BOs.

Sole responsibility: give a batch GPU memory for data that lives exactly as long
as the batch (streams, PPP state, USC words, uniforms, descriptors, user vertex
data). The slabs go back to the device's BO cache when the batch's submission
has completed (``release``)."""

from __future__ import annotations

from .device import BO, Device

__all__ = ["Pool"]

SLAB_B = 256 << 10


class Pool:
    """``usc=True`` allocates in the USC heap (what bg/eot offsets and shader
    binaries must address)."""

    def __init__(self, device: Device, usc: bool = False, label: str = "pool"):
        self.device, self.usc, self.label = device, usc, label
        self.bos: list[BO] = []
        self._bo: BO | None = None
        self._top = 0

    def alloc(self, size_B: int, align_B: int = 64) -> tuple[BO, int]:
        """(bo, offset_B) of size_B fresh bytes."""
        size = max(int(size_B), 1)
        if self._bo is not None:
            at = -(-self._top // align_B) * align_B
            if at + size <= self._bo.size_B:
                self._top = at + size
                return self._bo, at
        bo = self.device.bo_create(max(SLAB_B, size), usc=self.usc, label=self.label)
        self.bos.append(bo)
        self._bo, self._top = bo, size
        return bo, 0

    def upload(self, data, align_B: int = 64) -> int:
        """Copy ``data`` (bytes-like or numpy) in; returns its GPU address."""
        raw = data if isinstance(data, (bytes, bytearray)) else memoryview(data).cast("B").tobytes()
        bo, off = self.alloc(len(raw), align_B)
        bo.map[off:off + len(raw)] = raw
        return bo.va + off

    def release(self) -> None:
        for bo in self.bos:
            bo.release()
        self.bos, self._bo, self._top = [], None, 0
