"""drmshim.gpu.usc: the shader core.

Executes programs of the ``uapi.isa`` ISA, fetched from GPU memory, over many
lanes at once (numpy arrays ``[register, lane]``, one numpy operation per
instruction per batch of lanes). The pipeline fills an :class:`ExecContext`
(inputs, outputs; see its docstring) and calls :meth:`ShaderCore.run`.

Owns: registers, execution masks (r0l), quads, scoreboard checking, threadgroup
memory, atomics ordering, and the plumbing to the texture unit. The meaning of
each instruction lives in ``uapi.isa.semantics``. Imports only ``uapi``,
``drmshim.memory`` and (lazily) ``drmshim.gpu.texture``.
"""

from .context import ExecContext
from .core import Program, ScoreboardHazard, ShaderCore, ShaderError, compile_program
from .mem import sequential_atomic

__all__ = ["ExecContext", "ShaderCore", "Program", "ShaderError", "ScoreboardHazard", "compile_program",
           "sequential_atomic"]
