"""Where shimgl's disk caches live: the one convention every layer's cache
follows (the compiled-shader cache of the driver, the native-code cache of the GPU
model, ...), which therefore sits below both.

``SHIMGL_SHADER_CACHE_DIR`` names the root, else ``$XDG_CACHE_HOME/shimgl`` (else
``~/.cache/shimgl``); ``SHIMGL_SHADER_CACHE_DISABLE=1`` (or true/yes) turns every
cache off. Read at each call, so tests and tools may change the environment."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_root", "cache_disabled", "write_atomically"]


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


def write_atomically(path: Path, data: bytes | str) -> None:
    """Write a cache entry through a temporary file in its folder renamed over
    ``path``: a reader (another process included) sees the old whole file or the
    new one, never a part. Raises OSError when it cannot be written (a cache that
    cannot be written is only slower: callers decide what to say)."""
    import tempfile         # only when storing (tempfile pulls in shutil, bz2, lzma, random)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
