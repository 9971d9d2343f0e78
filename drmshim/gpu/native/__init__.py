"""drmshim.gpu.native: the shader core's native tier. ISA programs are translated
to C over SoA lanes (``codegen``, from the ISA table's C forms in
``uapi.isa.native``), compiled once and cached on disk (``uapi.native_build``), and run by the
interpreter's block loop with native lane loops in place of numpy steps
(``tier``). The numpy interpreter (``drmshim.gpu.usc``) stays the specification:
both give the same registers, memory and faults. See README.md."""

from .tier import STATS, NativeProgram, interpreted, native_for, ordered_ready, run_batch, threads, wait_builds

__all__ = ["STATS", "NativeProgram", "interpreted", "native_for", "ordered_ready", "run_batch", "threads",
           "wait_builds"]
