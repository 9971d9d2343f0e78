"""Which GL commands a context of each API offers, from the Khronos registry:
the C ABI's exported symbols and GetProcAddress tables, and the context's own
dispatch (driver/gl/legacy/dlist.py), where a command outside the context's API
is GL_INVALID_OPERATION and runs nothing.

A context's commands (``context_commands``) are the registry's commands of its
API up to its version (a core profile without those the core profile removed or
that only the compatibility profile requires) and the commands of the
extensions whose functionality it has (``driver.gl.extensions.available``: the
table's DONE and CORE lines exposed in it), as the registry lists them for its
API and profile, and the core command of each extension alias it has (a
command and its aliases are one entry, as in Mesa's dispatch). Which part of
the front end implements each command is ``driver.gl.families.command_owners``
(this module sits below the Context class: the dispatch reads it)."""

from __future__ import annotations

import functools

from driver.gl.api import Api, get_api
from driver.gl.profiles import required_after_removal, version_tuple
from driver.gl.registry_aliases import ALIASES
from driver.gl.registry_commands import ADDED_IN, COMPATIBILITY_PROFILE, CORE_REMOVED

__all__ = ["api_registry_commands", "context_commands", "registry_api", "registry_command_names"]


def registry_api(api: Api) -> str:
    """The registry's name of ``api``'s API: "gl", "gles1" or "gles2"."""
    return ("gles1" if api.version < (2, 0) else "gles2") if api.es else "gl"


def api_registry_commands(api: Api) -> set[str]:
    family = registry_api(api)
    out: set[str] = set()
    for (fam, version), names in ADDED_IN.items():
        if fam == family and version_tuple(version) <= api.version:
            out |= set(names)
    if api.core:
        out -= (CORE_REMOVED - required_after_removal(api.version)) | COMPATIBILITY_PROFILE
    return out


def _extension_commands(name: str, api: Api):
    """The commands extension ``name`` adds in a context of ``api`` (the registry's
    api and profile restrictions applied)."""
    from driver.gl.registry_extensions import EXTENSION_COMMANDS
    family = registry_api(api)
    for word in EXTENSION_COMMANDS.get(name, "").split():
        command, _, where = word.partition("@")
        where_api, _, profile = where.partition(":")
        if where_api and where_api != family:
            continue
        if profile == "compatibility" and api.core:
            continue
        yield command


@functools.lru_cache(maxsize=None)
def context_commands(api: Api) -> frozenset[str]:
    """Every command a context of ``api`` has (see the module's docstring); an
    extension's part that the registry marks as an interaction with another
    extension ("A+B") only with both."""
    from driver.gl.extensions import available
    from driver.gl.registry_extensions import EXTENSION_COMMANDS
    has = available(api.es, api.core, api.version)
    out = api_registry_commands(api)
    for key in EXTENSION_COMMANDS:
        if all(part in has for part in key.split("+")):
            out.update(_extension_commands(key, api))
    if "GL_ARB_imaging" not in has:
        out -= _imaging_reads()
    if not api.es and "GL_NV_ES1_1_compatibility" in has:
        # NVIDIA's unpublished extension, as Mesa has it: OpenGL ES 1.1's own commands (the
        # fixed-point ones and glOrthof/glFrustumf/glClipPlanef/glGetClipPlanef) in desktop GL
        from driver.gl.features.gles1 import ES1_ONLY
        out |= ES1_ONLY
    # a command and its extension aliases are one entry (as the slots of Mesa's dispatch):
    # the context has the core command when it has one of its aliases
    out.update(ALIASES[n] for n in list(out) if n in ALIASES)
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def _imaging_reads() -> frozenset[str]:
    """The bounded reads of the imaging subset (glGetnColorTable, glGetnHistogramARB,
    ...): GL 4.5's compatibility profile and ARB_robustness list them, but they
    read the imaging subset's state, which only a context with ARB_imaging has
    (GL 4.6 compatibility profile section 22.2): the glGetn forms of the subset's
    glGet commands."""
    from driver.gl.registry_extensions import EXTENSION_COMMANDS
    reads = {w.partition("@")[0] for w in EXTENSION_COMMANDS["GL_ARB_imaging"].split() if w.startswith("glGet")}
    return frozenset(f"glGetn{r[len('glGet'):]}{suffix}" for r in reads for suffix in ("", "ARB"))


@functools.lru_cache(maxsize=1)
def registry_command_names() -> frozenset[str]:
    """Every command some GL or GLES version or extension of the registry has."""
    from driver.gl.registry_extensions import EXTENSION_COMMANDS
    names = {n for names in ADDED_IN.values() for n in names}
    names.update(w.partition("@")[0] for words in EXTENSION_COMMANDS.values() for w in words.split())
    return frozenset(names)
