"""The one C header of the DRM interface, fed to cffi, and its constants.

Sole responsibility: load ``shimgl_drm.h`` into a cffi ``FFI`` (ABI mode, no
compiler) and expose every ``#define`` and enum constant of it under its
upstream name. Nothing here is typed twice: struct layouts come from the header,
constants are read from it.
"""

from __future__ import annotations

import re
from importlib.resources import files

import cffi

__all__ = ["HEADER", "ffi", "constants"]

HEADER: str = files(__package__).joinpath("shimgl_drm.h").read_text()

ffi = cffi.FFI()
ffi.cdef(HEADER)


def _constants() -> dict[str, int]:
    found: dict[str, int] = {}
    for name, value in re.findall(r"^#define\s+(\w+)\s+(\S+)\s*$", HEADER, re.M):
        found[name] = int(value, 0)
    for enum in re.findall(r"^enum\s+(\w+)\s*\{", HEADER, re.M):
        found.update(ffi.typeof(f"enum {enum}").relements)
    return found


constants: dict[str, int] = _constants()
