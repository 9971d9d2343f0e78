"""The one C header of the DRM interface, fed to cffi, and its constants.

Sole responsibility: load ``shimgl_drm.h`` into a cffi ``FFI`` (ABI mode, no
compiler) and expose every ``#define`` and enum constant of it under its
upstream name. Nothing here is typed twice: struct layouts come from the header,
constants are read from it.

The declarations are compiled ahead of time (``ffi_build.py``, run by the
install: cffi's out-of-line ABI mode, a plain Python module loaded without
parsing C). That module is used only while the header text it records equals
the header on disk; otherwise (not built yet, or the header was edited in an
editable checkout) the header is parsed here at run time, with the same result.
"""

from __future__ import annotations

import re
from importlib.resources import files

__all__ = ["HEADER", "ffi", "constants", "precompiled"]

HEADER: str = files(__package__).joinpath("shimgl_drm.h").read_text()


def _load_ffi():
    """(ffi, precompiled): the build's compiled declarations when they match
    HEADER, else a run-time parse of HEADER."""
    try:
        from . import _header_ffi as built
    except ImportError:
        built = None
    if built is not None and getattr(built, "HEADER_SOURCE", None) == HEADER:
        return built.ffi, True
    import cffi
    parsed = cffi.FFI()
    parsed.cdef(HEADER)
    return parsed, False


ffi, precompiled = _load_ffi()


def _constants() -> dict[str, int]:
    found: dict[str, int] = {}
    for name, value in re.findall(r"^#define\s+(\w+)\s+(\S+)\s*$", HEADER, re.M):
        found[name] = int(value, 0)
    for enum in re.findall(r"^enum\s+(\w+)\s*\{", HEADER, re.M):
        found.update(ffi.typeof(f"enum {enum}").relements)
    return found


constants: dict[str, int] = _constants()
