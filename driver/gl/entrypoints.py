"""Which GL commands a context of each API offers, from the Khronos registry
(for the C ABI's exported symbols and GetProcAddress tables)."""

from __future__ import annotations

from driver.gl.api import Api, get_api
from driver.gl.profiles import required_after_removal, version_tuple
from driver.gl.registry_commands import ADDED_IN, CORE_REMOVED

__all__ = ["entry_points", "missing_entry_points"]


def _registry_commands(api: Api) -> set[str]:
    family = ("gles1" if api.version < (2, 0) else "gles2") if api.es else "gl"
    out: set[str] = set()
    for (fam, version), names in ADDED_IN.items():
        if fam == family and version_tuple(version) <= api.version:
            out |= set(names)
    if api.core:
        out -= CORE_REMOVED - required_after_removal(api.version)
    return out


def entry_points(api: str | Api) -> list[str]:
    """The registry's commands for `api` that driver.gl.Context implements."""
    from driver.gl.families import Context
    a = api if isinstance(api, Api) else get_api(api)
    return sorted(n for n in _registry_commands(a) if hasattr(Context, n))


def missing_entry_points(api: str | Api) -> list[str]:
    """The registry's commands for `api` that are not implemented (yet)."""
    from driver.gl.families import Context
    a = api if isinstance(api, Api) else get_api(api)
    return sorted(n for n in _registry_commands(a) if not hasattr(Context, n))
