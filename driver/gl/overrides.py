"""``MESA_EXTENSION_OVERRIDE``: a developer's switch over the extension list, as in Mesa.

The variable holds names separated by spaces; ``+GL_X`` (or a bare ``GL_X``)
exposes an extension, ``-GL_X`` hides one. It is read once per process, the
first time a context asks for its extensions, and it changes what every
context of the process lists (``GL_EXTENSIONS``, ``glGetStringi``), which entry
points answer (``Api.has_extension``) and which ``#extension`` names its
shaders may enable. The context version is not changed (it stays what the
table proves).

Exposing a line that is not DONE is how a driver developer tries a feature
before it is finished (e.g. to run a test suite that requires its name); the
list then claims more than the driver implements, so shimgl says so once on
stderr. Names the table does not know are reported and ignored, as Mesa
does.
"""

from __future__ import annotations

import os
import sys

__all__ = ["ENV", "Override", "read_override", "warn"]

ENV = "MESA_EXTENSION_OVERRIDE"


class Override:
    """The parsed variable: names to add and to remove (table names only)."""

    def __init__(self, enable: frozenset[str] = frozenset(), disable: frozenset[str] = frozenset()):
        self.enable = enable
        self.disable = disable

    def __bool__(self) -> bool:
        return bool(self.enable or self.disable)

    def apply(self, names, exposed) -> frozenset[str]:
        """``names`` with the override applied; ``exposed(ext)`` says whether an
        enabled table line belongs to the context's API at all (an override
        does not put a desktop-only extension into a GLES context)."""
        return (frozenset(names) | {n for n in self.enable if exposed(n)}) - self.disable

    @classmethod
    def parse(cls, text: str, known, warn=None) -> "Override":
        enable, disable = set(), set()
        for word in text.split():
            sign, name = (word[0], word[1:]) if word[0] in "+-" else ("+", word)
            if name not in known:
                if warn is not None:
                    warn(f"{ENV}: {name!r} is not an extension shimgl knows; ignored")
                continue
            (enable if sign == "+" else disable).add(name)
            (disable if sign == "+" else enable).discard(name)
        return cls(frozenset(enable), frozenset(disable))


def warn(line: str) -> None:
    """Say ``line`` once on stderr (the override's messages to the developer)."""
    print(f"shimgl: {line}", file=sys.stderr, flush=True)


def read_override(known) -> Override:
    """The variable as it is now, parsed against the ``known`` names (empty when
    unset). The extension table reads it once per process
    (``driver.gl.extensions.extension_override``)."""
    text = os.environ.get(ENV, "")
    if not text.strip():
        return Override()
    return Override.parse(text, known, warn)
