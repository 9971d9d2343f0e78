"""Test helpers: a flat GPU address space with a bump allocator, USC words and
command builders, and a fake FirmwareCommand to call the executor directly."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

import uapi
from drmshim.firmware.command import Counters, Feedback, FirmwareCommand
from drmshim.memory import FlatMemory
from uapi import packets as P
from uapi.isa import assemble

BASE = 0x1_0000_0000


class Space:
    """FlatMemory plus a bump allocator."""

    def __init__(self, size_B: int = 64 << 20):
        self.mem = FlatMemory(size_B, base=BASE)
        self.top = BASE + 0x1000

    def alloc(self, size_B: int, align: int = 256) -> int:
        va = (self.top + align - 1) // align * align
        self.top = va + max(int(size_B), 1)
        assert self.top <= BASE + self.mem.bytes.size, "test address space exhausted"
        return va

    def put(self, data, align: int = 256) -> int:
        raw = data if isinstance(data, (bytes, bytearray)) else np.ascontiguousarray(data).tobytes()
        va = self.alloc(len(raw), align)
        self.mem.write(va, raw, "test")
        return va

    def get(self, va: int, n: int, dtype=np.uint8) -> np.ndarray:
        return self.mem.read(va, n * np.dtype(dtype).itemsize, "test").view(dtype)

    def program(self, asm: str) -> int:
        return self.put(assemble(asm), align=64)

    def usc(self, asm: str | None = None, *, code_va: int | None = None, uniforms: np.ndarray | None = None,
            textures: bytes | None = None, samplers: bytes | None = None, registers: int = 32,
            shared_B: int = 0, threads: int = 1, outputs: int = 0, cf: int = 0, fragment: dict | None = None) -> int:
        """USC words for a pipeline; returns their address."""
        if code_va is None:
            code_va = self.program(asm)
        words = [P.pack("USC_SHADER", register_count=registers, code=code_va)]
        if uniforms is not None:
            u = np.ascontiguousarray(uniforms).view(np.uint16)
            nz = np.flatnonzero(u)
            u = u[:max(2, int(nz[-1]) + 1 if nz.size else 2)]
            words.append(P.pack("USC_UNIFORM", start_halves=0, size_halves=u.size, buffer=self.put(u.tobytes())))
        if textures:
            words.append(P.pack("USC_TEXTURE", start=0, count=len(textures) // P.TEXTURE_DESC_B,
                                table=self.put(textures, 64)))
        if samplers:
            words.append(P.pack("USC_SAMPLER", start=0, count=len(samplers) // P.SAMPLER_DESC_B,
                                table=self.put(samplers, 64)))
        if shared_B:
            words.append(P.pack("USC_SHARED", local_memory_size_B=shared_B, threadgroup_size_threads=threads))
        if outputs or cf:
            words.append(P.pack("USC_VARYINGS", output_count_words=outputs, cf_count=cf))
        if fragment is not None:
            words.append(P.pack("USC_FRAGMENT", **fragment))
        words.append(P.pack("USC_END"))
        return self.put(b"".join(words), align=16)


def u64_uniforms(*values: int) -> np.ndarray:
    """uint32[256] uniforms: each value a 64-bit pair (u0_u1, u2_u3, ...)."""
    u = np.zeros(256, np.uint32)
    u[:2 * len(values)].view(np.uint64)[:] = values
    return u


def command(space: Space, kind: str, **fields) -> FirmwareCommand:
    """A FirmwareCommand as the firmware would build it (kind render/compute/blit)."""
    struct = "struct drm_asahi_cmd_compute" if kind == "compute" else "struct drm_asahi_cmd_render"
    if kind != "compute":
        fields = {"width_px": 16, "height_px": 16, "layers": 1, "samples": 1, "utile_width_px": 32,
                  "utile_height_px": 32, **fields}
    cmd = uapi.ffi.new(struct + " *", fields)[0]
    return FirmwareCommand(kind=kind, index=0, name="X0", cmd=cmd, memory=space.mem, vm=None,
                           usc_exec_base=0, config=SimpleNamespace(), counters=Counters(), feedback=Feedback())
