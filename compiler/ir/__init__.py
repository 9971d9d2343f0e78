"""compiler.ir: the NIR-like SSA IR, its builder, validator, printer, parser,
interpreter and passes. See compiler/README.md ("IR")."""

from .builder import Builder
from .core import (
    Alu, AluSrc, Block, Call, Def, Deref, Function, If, Intrinsic, Jump, LoadConst, Loop, Phi,
    Shader, Tex, Undef, Variable,
)
from .intrinsics import INTRINSICS
from .opcodes import OPS
from .parser import IRParseError, parse_shader
from .printer import print_function, print_shader
from .types import ArrayType, StructType, VecType, parse_type

__all__ = [
    "Builder", "Alu", "AluSrc", "Block", "Call", "Def", "Deref", "Function", "If", "Intrinsic",
    "Jump", "LoadConst", "Loop", "Phi", "Shader", "Tex", "Undef", "Variable", "INTRINSICS", "OPS",
    "IRParseError", "parse_shader", "print_function", "print_shader", "ArrayType", "StructType",
    "VecType", "parse_type",
]
