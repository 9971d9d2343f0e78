"""Paths, the tree of named strings and `#include` lookups (ARB_shading_language_include,
its appendix A "Looking up Paths in Trees" and section 3.3 of GLSL with the extension).

A *path* is a sequence of tokens separated by '/'; it is valid when it is not empty,
has no empty token ('//'), does not end with '/' and holds only characters of the
GLSL character set (section 3.1) other than the double quote, the angle brackets
and white space other than the space. A *tree location* is what a path walks to
from a start location: '..' goes to the parent (the root stays the root), '.'
stays, any other token goes to the child of that name. Locations are tuples of
tokens, the root ``()``.

The named strings themselves are GL state (the GL front end keeps them per share
group); a lookup gets them as a mapping location -> text. A location *exists* when
a named string lies at it or below it ("/foo/bar" makes "/foo" exist).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["IncludeError", "Includes", "Location", "location_path", "parse_path", "tree_location"]

Location = tuple[str, ...]

# GLSL section 3.1's characters less '"', '<', '>' and white space other than the space
# (the backslash only continues lines; '#' is a character of the set)
_PATH_RE = re.compile(r"[A-Za-z0-9_.+\-/*%\[\](){}^|&~=!:;,?# ]+")

MAX_INCLUDE_DEPTH = 32      # nested #include strings before an error (self-inclusion ends there)


def parse_path(path: str) -> list[str] | None:
    """The tokens of `path`, or None when it is not a valid path (appendix A).
    A path starting with '/' has an empty first token."""
    if not path or not _PATH_RE.fullmatch(path) or path.endswith("/") or "//" in path:
        return None
    return path.split("/")


def walk(start: Location, tokens: Sequence[str]) -> Location:
    """The location `tokens` walk to from `start` ('/'-first paths from the root)."""
    loc = list(start)
    if tokens and tokens[0] == "":
        loc, tokens = [], tokens[1:]
    for tok in tokens:
        if tok == "..":
            if loc:
                loc.pop()
        elif tok != ".":
            loc.append(tok)
    return tuple(loc)


def tree_location(name: str | None) -> Location | None:
    """The tree location of a named-string name given to the GL commands, or None
    when `name` is NULL or not a valid path beginning with '/' (their INVALID_VALUE)."""
    if name is None or not name.startswith("/"):
        return None
    tokens = parse_path(name)
    return None if tokens is None else walk((), tokens)


def location_path(loc: Location) -> str:
    """The canonical path of a location ("/" for the root)."""
    return "/" + "/".join(loc)


class IncludeError(Exception):
    """A `#include` that names no string; the message is the compile error's text."""


@dataclass(frozen=True)
class Includes:
    """What a compile may include: ``strings`` (location -> text, the share group's
    named strings as they were when the compile started) and ``search_paths`` (the
    locations of glCompileShaderIncludeARB's paths, in order)."""
    strings: Mapping[Location, str]
    search_paths: tuple[Location, ...] = ()

    def exists(self, loc: Location) -> bool:
        n = len(loc)
        return n == 0 or any(k[:n] == loc for k in self.strings)

    def resolve(self, path: str, angle: bool, including: Location | None) -> Location:
        """The location of the string `#include` names with `path` (quoted with angle
        brackets when `angle`) in a string found at `including` (None: a shader source
        string). Raises IncludeError when the spec makes it a compile error."""
        tokens = parse_path(path)
        if tokens is None:
            raise IncludeError(f'#include "{path}": invalid path')
        if path.startswith("/"):
            loc = walk((), tokens)
            if loc not in self.strings:
                raise IncludeError(f'#include "{path}": ' + (
                    f"no string is associated with {location_path(loc)}" if self.exists(loc)
                    else f"{location_path(loc)} is not in the tree of named strings"))
            return loc
        # relative: from the including string's place ("..." in an included string only),
        # then from each search point in order; the first location found decides
        starts = ([including[:-1]] if including is not None and not angle else []) + list(self.search_paths)
        for start in starts:
            loc = walk(start, tokens)
            if self.exists(loc):
                if loc not in self.strings:
                    raise IncludeError(f'#include "{path}": no string is associated with {location_path(loc)}')
                return loc
        where = ", ".join(location_path(s) for s in starts) or "no search path"
        raise IncludeError(f'#include "{path}": not found in the tree of named strings (searched {where})')
