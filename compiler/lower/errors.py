"""The lowering's error, in a module of its own so that every lowering module
(the AST walk, the built-ins, IO, geometry, 64-bit) can raise it without
importing the AST walk that uses them."""

from __future__ import annotations

__all__ = ["LoweringError"]


class LoweringError(Exception):
    """A shader the front end accepted but that the lowering cannot translate."""
