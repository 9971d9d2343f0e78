"""compiler: GLSL to AGX-like ISA binaries.

Owns the GLSL preprocessor and front end, the NIR-like SSA IR and its passes,
the backend (instruction selection, register allocation, scheduling, control-flow
lowering), the assembler, the disassembler and shader statistics. Encoding goes
through the one ISA table in uapi.

May import: uapi. Must never import driver or drmshim. See README.md."""

__all__: list[str] = []

# GLSL front end (compiler/glsl): parse(source, stage) -> typed AST.
from .glsl import GLSLCompileError, parse as parse_glsl, preprocess as preprocess_glsl  # noqa: E402

__all__ += ["GLSLCompileError", "parse_glsl", "preprocess_glsl"]

# SSA IR (compiler/ir): builder, validator, printer/parser, interpreter; passes in compiler.ir.passes.
from . import ir  # noqa: E402

__all__ += ["ir"]

# GLSL -> IR lowering (compiler/lower) and the front half of the pipeline (compiler/compile.py).
from . import lower  # noqa: E402
from .compile import ShaderInfo, front_half  # noqa: E402

__all__ += ["lower", "ShaderInfo", "front_half"]

# Backend (compiler/backend): IR -> ISA binary; compile_glsl runs the whole compiler.
from . import backend  # noqa: E402
from .backend import CompiledShader, compile_glsl, compile_ir  # noqa: E402

__all__ += ["backend", "CompiledShader", "compile_glsl", "compile_ir"]
