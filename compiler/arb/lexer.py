"""Tokens of the ARB assembly languages (!!ARBvp1.0 / !!ARBfp1.0).

Every token keeps its byte offset in the program string: GL reports the
offset of the first token it could not accept as GL_PROGRAM_ERROR_POSITION_ARB.
Comments run from ``#`` to the end of the line; white space is space, tab, CR
and LF. Kinds: ``ident`` (letters, digits, ``_``, ``$``; a texture target such
as ``2D`` is one ident too), ``int``, ``float``, ``..`` and the single
characters ``; , . [ ] { } = + -``; ``eof`` at the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Token", "ARBProgramError", "tokenize"]


class ARBProgramError(Exception):
    """A program that fails to load: ``position`` is the byte offset
    (GL_PROGRAM_ERROR_POSITION_ARB), ``message`` the error string."""

    def __init__(self, position: int, message: str, source: str = ""):
        self.position = position
        self.message = message
        line = source.count("\n", 0, position) + 1 if source else 1
        column = position - (source.rfind("\n", 0, position) + 1) + 1 if source else position + 1
        self.line, self.column = line, column
        super().__init__(f"line {line}, char {column}: error: {message}")

    @property
    def error_string(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    pos: int

    @property
    def value(self):
        return int(self.text) if self.kind == "int" else float(self.text)


_SPACE = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)+")
# A float needs a '.' or an exponent; "1..3" is 1, '..', 3 (array ranges).
_NUMBER = re.compile(r"(?:\d+\.(?!\.)\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+")
_TARGET = re.compile(r"[123]D(?![A-Za-z0-9_$])")
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def tokenize(text: str, start: int):
    """The tokens of ``text`` from byte ``start`` (after the header), lazily:
    the parser stops at END and never looks at the text after it."""
    i, n = start, len(text)
    while True:
        m = _SPACE.match(text, i)
        if m:
            i = m.end()
        if i >= n:
            while True:
                yield Token("eof", "", n)
        c = text[i]
        if m := _TARGET.match(text, i):
            yield Token("ident", m.group(), i)
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = _NUMBER.match(text, i)
            yield Token("int" if m.group().isdigit() else "float", m.group(), i)
        elif m := _IDENT.match(text, i):
            yield Token("ident", m.group(), i)
        elif text.startswith("..", i):
            yield Token("..", "..", i)
            i += 2
            continue
        elif c in ";,.[]{}=+-":
            yield Token(c, c, i)
            i += 1
            continue
        else:
            raise ARBProgramError(i, f"invalid character {c!r}", text)
        i = m.end()
