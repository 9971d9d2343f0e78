"""compiler.arb: GL_ARB_vertex_program / GL_ARB_fragment_program assembly.

``parse_program(text, limits) -> Program`` parses and checks a program string
(``ARBProgramError`` with the byte offset and message GL reports);
``compiler.arb.to_ir`` translates a ``Program`` to the compiler's IR (Mesa's
prog_to_nir idea), so ARB programs run through the same backend as GLSL.
May import compiler.glsl, compiler.lower, compiler.ir (never driver/drmshim).
"""

from .lexer import ARBProgramError
from .parser import FRAGMENT_OPCODES, VERTEX_OPCODES, parse_program
from .program import Dst, Instruction, Limits, ParamArray, ParamBinding, Program, Src

__all__ = ["ARBProgramError", "parse_program", "Program", "Limits", "Instruction", "Src", "Dst", "ParamArray",
           "ParamBinding", "VERTEX_OPCODES", "FRAGMENT_OPCODES"]
