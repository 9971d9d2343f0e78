"""Diagnostics in Mesa's info-log format.

Every message of the front end goes through one `InfoLog`. A message is
``SOURCE:LINE(COL): KIND: TEXT`` exactly as Mesa prints it, where SOURCE is the
source-string number (0 unless `#line` changes it), LINE is 1-based and COL is
the 1-based column of the first character of the offending construct. KIND is
``error`` or ``warning`` for the compiler and ``preprocessor error`` /
``preprocessor warning`` for the preprocessor, as in Mesa's glcpp.

Compilation continues after most errors so that one run reports as many of
them as possible; the public entry points raise `GLSLCompileError` at the end
when any error was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from compiler.scope import internal_error_text


class SourceLoc(NamedTuple):
    """Where a construct starts: source-string number (or the path of a string
    `#include` included, ARB_shading_language_include), 1-based line and column.

    A NamedTuple (not a dataclass): the lexer makes one per token.
    """

    source: int | str = 0
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.source}:{self.line}({self.column})"


@dataclass(frozen=True, slots=True)
class Message:
    loc: SourceLoc | None  # None: a whole-shader (link-style) message, printed without location
    kind: str  # "error", "warning", "preprocessor error", "preprocessor warning"
    text: str

    @property
    def is_error(self) -> bool:
        return self.kind.endswith("error")

    def __str__(self) -> str:
        if self.loc is None:
            return f"{self.kind}: {self.text}"
        return f"{self.loc}: {self.kind}: {self.text}"


@dataclass
class InfoLog:
    """An ordered list of messages; `text` is the info log a GL driver returns."""

    messages: list[Message] = field(default_factory=list)

    def error(self, loc: SourceLoc, text: str, *, preprocessor: bool = False) -> None:
        self.messages.append(Message(loc, "preprocessor error" if preprocessor else "error", text))

    def shader_error(self, text: str) -> None:
        """An error about the whole shader (Mesa reports these at link time)."""
        self.messages.append(Message(None, "error", text))

    def warning(self, loc: SourceLoc, text: str, *, preprocessor: bool = False) -> None:
        self.messages.append(Message(loc, "preprocessor warning" if preprocessor else "warning", text))

    @property
    def has_errors(self) -> bool:
        return any(m.is_error for m in self.messages)

    @property
    def text(self) -> str:
        return "".join(f"{m}\n" for m in self.messages)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise GLSLCompileError(self.text, list(self.messages))


class GLSLCompileError(Exception):
    """Compilation failed. `info_log` holds every message, one per line, Mesa-style."""

    def __init__(self, info_log: str, messages: list[Message] | None = None):
        super().__init__(info_log.rstrip("\n"))
        self.info_log = info_log
        self.messages = messages or []


class FatalError(Exception):
    """Internal: stop parsing after an unrecoverable error (already logged)."""


def internal_error_log(e: BaseException) -> str:
    """An info log in Mesa's format for a bug in the compiler (see internal_error_text)."""
    return f"0:0(0): error: {internal_error_text(e)}\n"
