"""Where shimgl's disk caches live: the one convention every layer's cache
follows (the compiled-shader cache of the driver, the native-code cache of the GPU
model, ...), which therefore sits below both.

``SHIMGL_SHADER_CACHE_DIR`` names the root, else ``$XDG_CACHE_HOME/shimgl`` (else
``~/.cache/shimgl``); ``SHIMGL_SHADER_CACHE_DISABLE=1`` (or true/yes) turns every
cache off. Read at each call, so tests and tools may change the environment."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_root", "cache_disabled"]


def cache_root() -> Path:
    """The root every shimgl cache keeps its own folder under."""
    explicit = os.environ.get("SHIMGL_SHADER_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "shimgl"


def cache_disabled() -> bool:
    """Whether ``SHIMGL_SHADER_CACHE_DISABLE`` turns the caches off."""
    return os.environ.get("SHIMGL_SHADER_CACHE_DISABLE", "").lower() in ("1", "true", "yes")
