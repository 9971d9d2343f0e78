"""Per-lane scratch (spill) memory for shaders whose USC_SHADER asks for it.

Sole responsibility: run a pipeline's program on the shader core with
``scratch_size_B`` bytes of private stack per lane. On the real GPU the kernel
and firmware provide scratch (helper programs); here it is memory of the GPU
itself, outside every VM: addresses from ``SCRATCH_BASE`` (above any VM's range)
are served from a host array, every other access goes to the command's VM.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SCRATCH_BASE", "ScratchMemory", "run_program"]

#: Where scratch lives in the GPU's address space: above the 40-bit VMs.
SCRATCH_BASE = 1 << 48


class ScratchMemory:
    """``inner`` (a GPUMemory) plus ``size_B`` bytes of scratch at SCRATCH_BASE."""

    def __init__(self, inner, size_B: int):
        self.inner = inner
        self.bytes = np.zeros(size_B, np.uint8)

    def __getattr__(self, name):            # soft_faults, faults, ... of the VM
        return getattr(self.inner, name)

    def _mine(self, vas) -> np.ndarray:
        return np.asarray(vas, np.uint64) >= np.uint64(SCRATCH_BASE)

    def read(self, va: int, nbytes: int, unit: str) -> np.ndarray:
        if va >= SCRATCH_BASE:
            o = va - SCRATCH_BASE
            return self.bytes[o:o + nbytes].copy()
        return self.inner.read(va, nbytes, unit)

    def write(self, va: int, data, unit: str) -> None:
        if va >= SCRATCH_BASE:
            raw = np.frombuffer(bytes(data), np.uint8) if isinstance(data, (bytes, bytearray, memoryview)) \
                else np.ascontiguousarray(data).view(np.uint8).reshape(-1)
            o = va - SCRATCH_BASE
            self.bytes[o:o + raw.size] = raw
            return
        self.inner.write(va, data, unit)

    def _words(self, off: np.ndarray, size: int) -> np.ndarray | None:
        """Indices of ``size``-byte words at byte offsets ``off`` when every offset is
        a multiple of the size (spill slots are): one typed index instead of a byte
        index per byte. None otherwise."""
        if self.bytes.size % size or (off & (size - 1)).any():
            return None
        return off // size

    def gather(self, vas, dtype, unit: str) -> np.ndarray:
        dtype = np.dtype(dtype)
        vas = np.asarray(vas, np.uint64)
        mine = self._mine(vas)
        if not mine.any():
            return self.inner.gather(vas, dtype, unit)
        every = mine.all()
        off = ((vas if every else vas[mine]) - np.uint64(SCRATCH_BASE)).astype(np.int64)
        words = self._words(off, dtype.itemsize)
        if words is not None:
            values = self.bytes.view(dtype)[words]
        else:
            values = self.bytes[off[:, None] + np.arange(dtype.itemsize)].view(dtype).reshape(-1)
        if every:
            return values.reshape(vas.shape)
        out = np.zeros(vas.shape, dtype)
        out[mine] = values
        out[~mine] = self.inner.gather(vas[~mine], dtype, unit)
        return out

    def scatter(self, vas, values, unit: str) -> None:
        vas = np.asarray(vas, np.uint64)
        values = np.ascontiguousarray(values)
        mine = self._mine(vas)
        if not mine.all():
            self.inner.scatter(vas[~mine], values[~mine], unit)
        if mine.any():
            size = values.dtype.itemsize
            off = (vas[mine] - np.uint64(SCRATCH_BASE)).astype(np.int64)
            words = self._words(off, size)
            if words is not None:
                self.bytes.view(values.dtype)[words] = values[mine]
            else:
                self.bytes[off[:, None] + np.arange(size)] = values[mine].view(np.uint8).reshape(-1, size)


def run_program(core, pipe, ctx):
    """``core.run(pipe.code_va, ctx)``, with the pipeline's scratch when it has any."""
    if not pipe.scratch_size_B:
        return core.run(pipe.code_va, ctx)
    ctx.stack_va = SCRATCH_BASE
    ctx.stack_bytes_per_lane = pipe.scratch_size_B
    outer = core.mem
    core.mem = ScratchMemory(outer, ctx.lanes * pipe.scratch_size_B)
    try:
        return core.run(pipe.code_va, ctx)
    finally:
        core.mem = outer
