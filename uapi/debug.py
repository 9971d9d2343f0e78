"""``SHIMGL_DEBUG``: the debug options of every layer, in Mesa's style.

Sole responsibility: parse the comma-separated words of ``SHIMGL_DEBUG`` (read
each call, so tests and tools may change the environment). Each layer asks for the
words it understands (``trace``, ``fw``, ``sync``, ``flush``, ``sysmem``, ``nohsr``,
``nocompress``, ``shaders``, ``shaderdb``, ``scoreboard``, ``validate``, ``abi``,
``calls``, ``norepeat``); the list is in the README.
"""

from __future__ import annotations

import os

__all__ = ["debug_flags", "debug_enabled", "debug_words"]


def debug_flags() -> set[str]:
    """The words of ``SHIMGL_DEBUG``."""
    return {w.strip() for w in os.environ.get("SHIMGL_DEBUG", "").split(",") if w.strip()}


_parsed: tuple = ("", frozenset())
_KEY = "SHIMGL_DEBUG"
try:        # os.environ's own store (encoded key -> encoded value): no decoding per call
    _DATA, _RAW_KEY = os.environ._data, os.environ.encodekey(_KEY)
except AttributeError:      # another implementation of os.environ
    _DATA = None


def _raw_value():
    """The variable's value as os.environ stores it (bytes or str), "" when unset."""
    if _DATA is None:
        return os.environ.get(_KEY, "")
    return _DATA.get(_RAW_KEY, "")


def debug_enabled(flag: str) -> bool:
    """Whether ``SHIMGL_DEBUG`` names ``flag`` (the words parsed again only when the
    variable's text changed: hot paths ask)."""
    return flag in debug_words()


def debug_words() -> frozenset:
    """The words of ``SHIMGL_DEBUG`` as a frozenset, parsed again only when the
    variable's text changed (a hot path asking about several words at once)."""
    global _parsed
    raw = _raw_value()
    if raw != _parsed[0]:
        _parsed = (raw, frozenset(debug_flags()))
    return _parsed[1]
