"""Which of the registry's commands a context's profile has, derived from the
generated registry tables (driver/gl/registry_commands.py, registry_aliases.py):
the commands only a compatibility-profile context has, which every other
context's dispatch leaves out (driver/gl/legacy/dlist.py), and which removed
commands a later core version requires again (driver/gl/entrypoints.py)."""

from __future__ import annotations

from driver.gl.registry_aliases import ALIASES
from driver.gl.registry_commands import ADDED_IN, CORE_REMOVED

__all__ = ["COMPATIBILITY_ONLY", "COMPATIBILITY_ONLY_ALIASES", "required_after_removal", "version_tuple"]


def version_tuple(text: str) -> tuple[int, int]:
    """A registry feature number ("4.3") as (4, 3)."""
    major, minor = text.split(".")
    return int(major), int(minor)


def required_after_removal(up_to: tuple[int, int]) -> frozenset[str]:
    """Commands the GL 3.2 core profile removed that a later GL version up to
    ``up_to`` requires again (GL 4.3's glGetPointerv, for KHR_debug's callback)."""
    return frozenset(n for (fam, version), names in ADDED_IN.items()
                     if fam == "gl" and (3, 2) < version_tuple(version) <= up_to
                     for n in names if n in CORE_REMOVED)


# The commands only a compatibility-profile context has: removed from the core profile
# and required by no later core version and no OpenGL ES 2.0+ version. Other contexts'
# dispatch has them as entries that record GL_INVALID_OPERATION, as Mesa's dispatch gives
# a command outside the context's API its no-op entry.
COMPATIBILITY_ONLY: frozenset[str] = CORE_REMOVED - required_after_removal((99, 0)) - frozenset(
    n for (fam, _), names in ADDED_IN.items() if fam == "gles2" for n in names)
# the extension commands that are aliases of those (glMultiTexCoord2fARB, glFogCoordfEXT, ...)
COMPATIBILITY_ONLY_ALIASES: frozenset[str] = frozenset(
    name for name, target in ALIASES.items() if target in COMPATIBILITY_ONLY)
