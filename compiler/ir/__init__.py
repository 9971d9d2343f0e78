"""compiler.ir: the NIR-like SSA IR.

Data structures (``core``), one ALU op table (``opcodes``) and one intrinsic table
(``intrinsics``) from which the ``Builder`` methods, the constant folder, the
interpreter and the printer/parser derive; the validator; a vectorised
interpreter; the passes (``compiler.ir.passes``); shader variants. See the "IR"
section of compiler/README.md."""

from .builder import Builder
from .core import (
    Alu, AluSrc, Block, Call, Def, Deref, Function, If, Intrinsic, Jump, LoadConst, Loop, Phi,
    Shader, Tex, Undef, Variable, clone_shader, compute_cfg, walk_blocks, walk_instrs,
)
from .interp import InterpError, Interpreter, run_function
from .intrinsics import INTRINSICS
from .opcodes import OPS
from .parser import IRParseError, parse_shader
from .printer import print_function, print_shader
from .types import ArrayType, StructType, VecType, parse_type
from .validate import ValidationError, debug_validate, validate_shader
from .variants import ShaderKey, ShaderVariants

__all__ = [
    "Builder", "Alu", "AluSrc", "Block", "Call", "Def", "Deref", "Function", "If", "Intrinsic",
    "Jump", "LoadConst", "Loop", "Phi", "Shader", "Tex", "Undef", "Variable", "clone_shader",
    "compute_cfg", "walk_blocks", "walk_instrs", "InterpError", "Interpreter", "run_function",
    "INTRINSICS", "OPS", "IRParseError", "parse_shader", "print_function", "print_shader",
    "ArrayType", "StructType", "VecType", "parse_type", "ValidationError", "debug_validate",
    "validate_shader", "ShaderKey", "ShaderVariants",
]
