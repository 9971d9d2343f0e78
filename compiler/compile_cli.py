"""``shimgl compile FILE.{vert,frag,comp,geom} [--stats] [-o out.bin]``: compile one
standalone GLSL shader (stage from the extension, version from ``#version``,
default 1.10) to a binary; prints the info log and exits 1 on error."""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["register", "main"]

STAGES = {".vert": "vertex", ".vs": "vertex", ".frag": "fragment", ".fs": "fragment", ".comp": "compute",
          ".cs": "compute", ".geom": "geometry", ".gs": "geometry", ".tesc": "tess_control",
          ".tese": "tess_evaluation"}


def _compile(args: argparse.Namespace) -> int:
    from compiler.backend import BackendError
    from compiler.compile import compile_glsl
    from compiler.glsl import GLSLCompileError

    ext = os.path.splitext(args.file)[1].lower()
    stage = args.stage or STAGES.get(ext)
    if stage is None:
        print(f"{args.file}: cannot tell the stage from the extension {ext!r} (use .vert, .frag, .comp or .geom, "
              f"or --stage)", file=sys.stderr)
        return 2
    try:
        source = open(args.file).read()
    except OSError as e:
        print(f"{args.file}: {e.strerror}", file=sys.stderr)
        return 1
    try:
        key = None
        if stage == "geometry":     # a compute kernel for a non-indexed draw of its input primitive
            from compiler.glsl import parse
            from compiler.ir import ShaderKey
            from compiler.lower.geometry import standalone_key
            key = ShaderKey.make(gs=standalone_key(parse(source, "geometry")))
        elif stage in ("tess_control", "tess_evaluation"):     # compute kernels (lower/tessellation.py)
            from compiler.glsl import parse
            from compiler.ir import ShaderKey
            from compiler.lower.tessellation import standalone_tess_key
            name, tess_key = standalone_tess_key(parse(source, stage))
            key = ShaderKey.make(**{name: tess_key})
        compiled = compile_glsl(source, stage, key, max_regs=args.max_regs)
    except GLSLCompileError as e:
        print(getattr(e, "info_log", str(e)), end="" if str(getattr(e, "info_log", "")).endswith("\n") else "\n")
        return 1
    except BackendError as e:
        print(f"0:0(0): error: {e}")
        return 1
    except Exception as e:  # the lowering's errors (unsupported features) are compile errors too
        if type(e).__name__ == "LoweringError":
            print(f"0:0(0): error: {e}")
            return 1
        raise
    log = getattr(compiled.info, "info_log", "")
    if log:
        print(log, end="" if log.endswith("\n") else "\n")
    if args.asm:
        print(compiled.assembly, end="")
    if args.stats:
        print(compiled.stats.shaderdb(stage))
    out = args.output or os.path.splitext(args.file)[0] + ".bin"
    with open(out, "wb") as f:
        f.write(compiled.binary)
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("compile", help="compile a GLSL shader to a shader binary",
                              description="Compile a standalone GLSL shader (stage from the extension: .vert, "
                                          ".frag, .comp, .geom (a geometry shader becomes a compute kernel, "
                                          "here for a non-indexed draw of its input primitive), .tesc, .tese "
                                          "(tessellation stages: compute kernels too); version from "
                                          "#version, default 1.10).")
    p.add_argument("file", help="GLSL source")
    p.add_argument("-o", "--output", help="output binary (default: FILE with .bin)")
    p.add_argument("--stats", action="store_true", help="print the shader-db statistics line")
    p.add_argument("--asm", action="store_true", help="print the assembly")
    p.add_argument("--stage", choices=("vertex", "fragment", "compute", "geometry", "tess_control", "tess_evaluation"),
                   help="override the stage")
    p.add_argument("--max-regs", type=int, default=128, help="32-bit register budget (spills below it)")
    p.set_defaults(func=_compile)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="shimgl")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["compile"] + list(argv if argv is not None else sys.argv[1:]))
    return args.func(args)
