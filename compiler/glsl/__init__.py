"""compiler.glsl: the GLSL front end (preprocessor, lexer, parser, semantic analysis).

Public API:
- `preprocess(source)` -> `(text, version, profile, extensions)`
- `parse(source, stage)` -> `TranslationUnit`, a fully typed AST (see `ast.py`)
- `expand_includes(source, stage, includes)` -> the source with its `#include`
  directives replaced by the named strings they include (`include.py`)
- `GLSLCompileError` (raised with `.info_log` in Mesa's format)

May import nothing outside compiler.glsl (and the standard library).
"""

from __future__ import annotations

import importlib
from collections.abc import Collection
from typing import NamedTuple

from compiler.scope import MAX_NESTING_DEPTH, recursion_headroom

from .errors import FatalError, GLSLCompileError, InfoLog, Message, SourceLoc, internal_error_log
from .versions import GLSLVersion

# Re-exported names of the heavier modules, imported on first use: a program that
# only reads a table (``compiler.glsl.versions``, ``compiler.glsl.types``) does not
# load the parser and the semantic analysis (the GL front end reads the versions
# when it is imported; the C ABI's start pays for nothing else).
_LAZY = {"ast": ("ast", None), "NodeVisitor": ("ast", "NodeVisitor"), "TranslationUnit": ("ast", "TranslationUnit"),
         "walk": ("ast", "walk"), "tokenize": ("lexer", "tokenize"), "parse_tokens": ("parser", "parse_tokens"),
         "PreprocessResult": ("preprocessor", "PreprocessResult"),
         "preprocess_full": ("preprocessor", "preprocess_full"), "analyze": ("semantic", "analyze"),
         "FunctionSignature": ("symbols", "FunctionSignature"), "Variable": ("symbols", "Variable"),
         "GLSLType": ("types", "GLSLType")}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attr = _LAZY[name]
    module = importlib.import_module(f"{__name__}.{module_name}")
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value

STAGES = ("vertex", "fragment", "compute", "geometry", "tess_control", "tess_evaluation")


class Preprocessed(NamedTuple):
    text: str
    version: int
    profile: str
    extensions: dict[str, str]


def preprocess(source: str) -> Preprocessed:
    """Preprocess `source`; raises GLSLCompileError when the preprocessor reports an error.

    `version` is the number of `#version` (110 when absent), `profile` is "es",
    "core" or "compatibility", `extensions` maps extension names to behaviours.
    """
    from .preprocessor import preprocess_full
    log = InfoLog()
    with recursion_headroom():
        try:
            r = preprocess_full(source, log)
        except Exception as e:  # noqa: BLE001 - a compiler bug still ends in an info log
            raise GLSLCompileError(internal_error_log(e)) from e
    log.raise_if_errors()
    return Preprocessed(r.text, r.version.number, r.profile, r.extensions)


def expand_includes(source: str, stage: str, includes, *, compat_context: bool | None = None,
                    extensions: Collection[str] | None = None) -> str:
    """`source` with each `#include` it runs replaced by the named string it names,
    between `#line` directives that keep every position (the preprocessor's
    ``flat_source``; `source` itself when it includes nothing): a text that
    compiles as `source` does with `includes` (``include.Includes``: the named
    strings and search paths), without them. Raises GLSLCompileError with the
    preprocessor's messages (an `#include` naming no string among them)."""
    from .preprocessor import preprocess_full
    log = InfoLog()
    with recursion_headroom():
        try:
            r = preprocess_full(source, log, stage, compat_context, extensions, includes)
        except Exception as e:  # noqa: BLE001 - a compiler bug still ends in an info log
            raise GLSLCompileError(internal_error_log(e)) from e
    log.raise_if_errors()
    return r.flat_source if r.flat_source is not None else source


def parse(source: str, stage: str, *, compat_context: bool | None = None,
          require_main: bool = False, extensions: Collection[str] | None = None,
          shader_object: bool = False, includes=None) -> TranslationUnit:
    """Preprocess, parse and type-check one shader.

    `stage` is "vertex", "fragment" or "compute". `compat_context` says whether
    the GL context is a compatibility one: there a desktop 1.40+ shader without
    a `core` token keeps the deprecated features (gl_FragColor, `varying`, ...),
    as Mesa does with ARB_compatibility; None (unknown) keeps 1.40
    compatibility and 1.50+ core unless `#version` names the profile.
    `extensions`: the GL context's extensions with a shading-language part
    (only these may be named by `#extension`; None: every one the compiler
    implements). Returns the typed AST (see
    `compiler.glsl.ast`); its `info_log` holds the warnings. Raises nothing else than
    ValueError (an unknown stage) and
    GLSLCompileError, whose `info_log` holds every message in Mesa's format
    (`0:LINE(COL): error: ...`), when the shader has an error (a bug of the
    compiler itself is reported the same way, as `internal compiler error: ...`). A
    missing `main` is an error only with `require_main` (GL reports it when linking).
    `shader_object`: the source is one GL shader object, which another object of
    the same stage may complete: calls to functions declared without a body are
    listed in the unit's `unresolved_calls` for the link (`compiler.link`) instead
    of being errors. `includes`: what `#include` may name (``include.Includes``;
    None: nothing).
    """
    if stage not in STAGES:
        raise ValueError(f"unknown shader stage {stage!r}; expected one of {STAGES}")
    with recursion_headroom():
        try:
            return _parse(source, stage, compat_context, require_main, extensions, shader_object, includes)
        except GLSLCompileError:
            raise
        except Exception as e:  # noqa: BLE001 - a compiler bug still ends in an info log
            raise GLSLCompileError(internal_error_log(e)) from e


def _parse(source: str, stage: str, compat_context: bool | None, require_main: bool,
           extensions: Collection[str] | None, shader_object: bool = False, includes=None) -> TranslationUnit:
    from .lexer import tokenize
    from .parser import parse_tokens
    from .preprocessor import preprocess_full
    from .semantic import analyze
    log = InfoLog()
    pp = preprocess_full(source, log, stage, compat_context, extensions, includes)
    if not log.has_errors:
        extensions = dict(pp.extensions)
        if not pp.version.es:
            # As in Mesa, GL_ARB_texture_rectangle is enabled by default on desktop.
            extensions.setdefault("GL_ARB_texture_rectangle", "enable")
        from .versions import implied_extensions
        extensions = implied_extensions(pp.version, extensions)     # GLSL ES 3.20 core, ES names
        tokens = tokenize(pp.text, pp.line_map, pp.version, log, tuple(
            n for n, b in extensions.items() if b != "disable"))
        try:
            decls = parse_tokens(tokens, log)
        except FatalError:
            decls = None
        if decls is not None and not log.has_errors:
            tu = analyze(decls, pp.version, stage, extensions, log, pp.invariant_all, shader_object)
            if require_main and tu.main is None and not log.has_errors:
                # A link error in GL (a stage may be several shader objects, one with
                # main): checked only for a standalone compile.
                log.shader_error(f"{stage} shader lacks `main'")
            log.raise_if_errors()
            tu.info_log = log.text
            return tu
    log.raise_if_errors()
    raise AssertionError("unreachable: no error but no translation unit")


__all__ = [
    "FunctionSignature", "GLSLCompileError", "GLSLType", "GLSLVersion", "InfoLog", "MAX_NESTING_DEPTH", "Message",
    "NodeVisitor", "Preprocessed", "expand_includes", "PreprocessResult", "SourceLoc", "STAGES", "TranslationUnit",
    "Variable", "ast", "parse", "preprocess", "preprocess_full", "recursion_headroom", "walk",
]
