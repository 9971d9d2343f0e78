"""``SHIMGL_DEBUG``: the debug options of every layer, in Mesa's style.

Sole responsibility: parse the comma-separated words of ``SHIMGL_DEBUG`` (read
each call, so tests and tools may change the environment). Each layer asks for the
words it understands (``trace``, ``fw``, ``sync``, ``flush``, ``sysmem``, ``nohsr``,
``nocompress``, ``shaders``, ``shaderdb``, ``scoreboard``, ``validate``, ``abi``,
``calls``); the list is in the README.
"""

from __future__ import annotations

import os

__all__ = ["debug_flags", "debug_enabled"]


def debug_flags() -> set[str]:
    """The words of ``SHIMGL_DEBUG``."""
    return {w.strip() for w in os.environ.get("SHIMGL_DEBUG", "").split(",") if w.strip()}


_parsed: tuple[str, frozenset] = ("", frozenset())


def debug_enabled(flag: str) -> bool:
    """Whether ``SHIMGL_DEBUG`` names ``flag`` (the words parsed again only when the
    variable's text changed: hot paths ask)."""
    global _parsed
    raw = os.environ.get("SHIMGL_DEBUG", "")
    if raw != _parsed[0]:
        _parsed = (raw, frozenset(debug_flags()))
    return flag in _parsed[1]
