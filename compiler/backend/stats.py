"""Shader statistics and the shader-db line (Mesa's agx2_stats_fprintf)."""

from __future__ import annotations

from dataclasses import dataclass

from uapi.isa import decode

__all__ = ["Stats", "compute_stats", "threads_for_halves"]

# (max general-register halves, threads per core): Mesa's agx_performance.c anchors.
_OCCUPANCY = ((104, 1024), (128, 832), (160, 640), (208, 512), (256, 384))
_ALU_UNITS = ("falu", "ialu", "cmpsel", "convert", "mov", "mov_imm", "quad")


def threads_for_halves(halves: int) -> int:
    for limit, threads in _OCCUPANCY:
        if halves <= limit:
            return threads
    return _OCCUPANCY[-1][1]


@dataclass
class Stats:
    instrs: int
    alu: int
    code_size: int          # bytes
    gprs: int               # 16-bit halves of general registers (r0 included)
    uniforms: int           # 16-bit halves of uniform registers
    scratch: int            # bytes of stack per lane
    threads: int
    loops: int
    spills: int
    fills: int
    waits: int

    def shaderdb(self, stage: str) -> str:
        return (f"{stage} shader: {self.instrs} instrs, {self.alu} alu, {self.gprs} gprs, {self.uniforms} uniforms, "
                f"{self.scratch} scratch, {self.threads} threads, {self.loops} loops, "
                f"{self.spills}:{self.fills} spills:fills")


def compute_stats(binary: bytes, instrs: list | None, gprs: int, uniform_words: int, scratch: int, loops: int,
                  spills: int, fills: int) -> Stats:
    """``instrs``: the program's instructions (decoded from ``binary`` when None)."""
    if instrs is None:
        instrs = [i for _o, i in decode(binary)]
    alu = sum(1 for i in instrs if i.op.unit in _ALU_UNITS)
    waits = sum(1 for i in instrs if i.op.name == "wait")
    return Stats(len(instrs), alu, len(binary), gprs, 2 * uniform_words, scratch, threads_for_halves(gprs), loops,
                 spills, fills, waits)
