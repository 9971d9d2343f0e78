"""compiler.glsl: the GLSL front end (preprocessor, lexer, parser, semantic analysis).

Public API:
- `preprocess(source)` -> `(text, version, profile, extensions)`
- `parse(source, stage)` -> `TranslationUnit`, a fully typed AST (see `ast.py`)
- `GLSLCompileError` (raised with `.info_log` in Mesa's format)

May import nothing outside compiler.glsl (and the standard library).
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import GLSLCompileError, InfoLog, Message, SourceLoc
from .preprocessor import PreprocessResult, preprocess_full
from .versions import GLSLVersion


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
    log = InfoLog()
    r = preprocess_full(source, log)
    log.raise_if_errors()
    return Preprocessed(r.text, r.version.number, r.profile, r.extensions)


__all__ = [
    "GLSLCompileError", "GLSLVersion", "InfoLog", "Message", "Preprocessed",
    "PreprocessResult", "SourceLoc", "preprocess", "preprocess_full",
]
