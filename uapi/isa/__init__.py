"""uapi.isa: the AGX-like shader ISA, described once.

``table.OPS`` holds one :class:`Op` per instruction (encoding fields with bit
positions, operand kinds, assembly syntax roles, compiler flags, semantics);
everything else is derived from it:

- :func:`encode` / :func:`decode` / :func:`decode_one`: Instruction <-> bytes;
- :func:`assemble` / :func:`disassemble`: text <-> bytes (``format_instruction``
  and ``assemble_line`` for one instruction);
- :func:`make`: build an instruction from keyword values (the compiler's builder),
  with operand constructors ``r16 r32 r64 u32 u64 vec imm fimm``;
- ``semantics``: the lane-wise numpy meaning of each instruction (the executable
  spec; the shader core in ``drmshim.gpu.usc`` calls these).

Golden cases (``hex  asm`` lines) are in ``cases.txt`` beside the table.
"""

from . import semantics
from .codec import (AsmError, DecodeError, Instruction, assemble, assemble_line, decode, decode_one, disassemble,
                    encode, format_instruction, make, present_fields)
from .fields import Imm, Reg, fimm, imm, r16, r32, r64, u32, u64, vec
from .table import BY_NAME, BY_OPCODE, OPS, SPECIAL_REGS, TEX_DIMS, Field, Op

__all__ = ["OPS", "BY_NAME", "BY_OPCODE", "Op", "Field", "Instruction", "Reg", "Imm", "SPECIAL_REGS", "TEX_DIMS",
           "encode", "decode", "decode_one", "assemble", "assemble_line", "disassemble", "format_instruction",
           "present_fields", "make", "DecodeError", "AsmError", "semantics",
           "r16", "r32", "r64", "u32", "u64", "vec", "imm", "fimm"]
