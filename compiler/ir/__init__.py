"""compiler.ir: the NIR-like SSA IR.

Data structures (``core``), one ALU op table (``opcodes``) and one intrinsic table
(``intrinsics``) from which the ``Builder`` methods, the constant folder, the
interpreter and the printer/parser derive; the validator; a vectorised
interpreter; the passes (``compiler.ir.passes``); shader variants. See the "IR"
section of compiler/README.md.

The names below are resolved on first use (as ``compiler``'s): the GL driver
reads ``ShaderKey`` at start, which needs only the IR's data structures, not the
builder, interpreter, parser, printer and validator."""

from __future__ import annotations

import importlib

# public name -> submodule (resolved on first use: see the module's docstring)
_LAZY = {
    "Builder": "builder",
    **dict.fromkeys(("Alu", "AluSrc", "Block", "Call", "Def", "Deref", "Function", "If", "Intrinsic", "Jump",
                      "LoadConst", "Loop", "Phi", "Shader", "Tex", "Undef", "Variable", "clone_shader", "compute_cfg",
                      "walk_blocks", "walk_instrs"), "core"),
    "InterpError": "interp", "Interpreter": "interp", "run_function": "interp",
    "INTRINSICS": "intrinsics",
    "OPS": "opcodes",
    "IRParseError": "parser", "parse_shader": "parser",
    "print_function": "printer", "print_shader": "printer",
    "ArrayType": "types", "StructType": "types", "VecType": "types", "parse_type": "types",
    "ValidationError": "validate", "debug_validate": "validate", "validate_shader": "validate",
    "ShaderKey": "variants", "ShaderVariants": "variants",
}

__all__ = [
    "Builder", "Alu", "AluSrc", "Block", "Call", "Def", "Deref", "Function", "If", "Intrinsic",
    "Jump", "LoadConst", "Loop", "Phi", "Shader", "Tex", "Undef", "Variable", "clone_shader",
    "compute_cfg", "walk_blocks", "walk_instrs", "InterpError", "Interpreter", "run_function",
    "INTRINSICS", "OPS", "IRParseError", "parse_shader", "print_function", "print_shader",
    "ArrayType", "StructType", "VecType", "parse_type", "ValidationError", "debug_validate",
    "validate_shader", "ShaderKey", "ShaderVariants",
]


def __getattr__(name: str):
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'compiler.ir' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
