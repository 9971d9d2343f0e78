"""compiler.backend: the SSA IR -> AGX-like ISA binaries.

Modules, in pipeline order: ``isel`` (instruction selection into the machine
IR of ``mir``), ``schedule`` (pre-RA list scheduling), ``ra`` + ``spill`` (SSA
register allocation with spilling to the stack, phi/parallel-copy lowering),
``cflow`` (r0l control flow), ``waits`` (scoreboard waits), ``pack`` (encoding
through the ISA table), ``stats`` (shader-db statistics); ``pipeline`` ties them
together; ``abi`` is the contract with the driver (read its docstring).

May import: uapi and compiler.ir. Must never import driver or drmshim.
"""

from .abi import IMAGE_DESCRIPTOR_BASE, TEXEL_BUFFER_MAX_ROWS, TEXEL_BUFFER_WIDTH_PX, BackendError, CompiledShader, UniformSlot
from .pipeline import compile_ir
from .stats import Stats

__all__ = ["compile_ir", "CompiledShader", "UniformSlot", "BackendError", "Stats",
           "IMAGE_DESCRIPTOR_BASE", "TEXEL_BUFFER_WIDTH_PX", "TEXEL_BUFFER_MAX_ROWS"]
