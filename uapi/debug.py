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


def debug_enabled(flag: str) -> bool:
    """Whether ``SHIMGL_DEBUG`` names ``flag``."""
    return flag in debug_flags()
