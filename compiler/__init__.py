"""compiler: GLSL to AGX-like ISA binaries.

Owns the GLSL preprocessor and front end, the NIR-like SSA IR and its passes,
the backend (instruction selection, register allocation, scheduling, control-flow
lowering), the assembler, the disassembler and shader statistics. Encoding goes
through the one ISA table in uapi.

May import: uapi. Must never import driver or drmshim. See README.md.

Importing ``compiler`` (or one of its submodules, e.g. ``compiler.glsl.versions``)
loads nothing else: the names below are resolved on first use, so a program
that only asks for a GLSL version table does not pay for the whole compiler."""

from __future__ import annotations

import importlib
import importlib.util

# public name -> (submodule, attribute or None for the submodule itself)
_LAZY = {
    # GLSL front end (compiler/glsl): parse(source, stage) -> typed AST.
    "GLSLCompileError": ("compiler.glsl", "GLSLCompileError"),
    "parse_glsl": ("compiler.glsl", "parse"),
    "preprocess_glsl": ("compiler.glsl", "preprocess"),
    # SSA IR (compiler/ir): builder, validator, printer/parser, interpreter; passes in compiler.ir.passes.
    "ir": ("compiler.ir", None),
    # GLSL -> IR lowering (compiler/lower); GLSL text -> IR -> binary (compiler/compile.py).
    "lower": ("compiler.lower", None),
    "front_half": ("compiler.compile", "front_half"),
    "compile_glsl": ("compiler.compile", "compile_glsl"),
    # A linked stage's variants, what a driver calls (compiler/variant.py): no GLSL front end.
    "ShaderInfo": ("compiler.variant", "ShaderInfo"),
    "compile_stage": ("compiler.variant", "compile_stage"),
    # Backend (compiler/backend): IR -> ISA binary.
    "backend": ("compiler.backend", None),
    "CompiledShader": ("compiler.backend", "CompiledShader"),
    "compile_ir": ("compiler.backend", "compile_ir"),
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        module_name, attr = _LAZY[name]
    elif not name.startswith("_") and importlib.util.find_spec(f"compiler.{name}") is not None:
        module_name, attr = f"compiler.{name}", None        # any other subpackage, e.g. compiler.glsl
    else:
        raise AttributeError(f"module 'compiler' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
