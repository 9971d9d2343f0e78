"""The one C header of the DRM interface, fed to cffi, and its constants.

Sole responsibility: load ``shimgl_drm.h`` into a cffi ``FFI`` (ABI mode, no
compiler) and expose every ``#define`` and enum constant of it under its
upstream name. Nothing here is typed twice: struct layouts come from the header,
constants are read from it.

The declarations are compiled ahead of time (``ffi_build.py``, run by the
install: cffi's out-of-line ABI mode, a plain Python module loaded without
parsing C). That module is used only while the header text it records equals
the header on disk; otherwise (not built yet, or the header was edited in an
editable checkout) the header is parsed here at run time, with the same result,
and the module is rewritten beside this file when that directory is writable
(as Python refreshes stale bytecode), so the next process loads it again.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["HEADER", "ffi", "constants", "precompiled"]

HEADER: str = Path(__file__).with_name("shimgl_drm.h").read_text()


def _load_ffi():
    """(ffi, precompiled): the build's compiled declarations when they match
    HEADER, else a run-time parse of HEADER."""
    try:        # names the module (``from . import _header_ffi`` names this package when it is absent)
        from ._header_ffi import HEADER_SOURCE as built_header, ffi as built_ffi
    except ImportError:
        built_header = built_ffi = None
    if built_header == HEADER:
        return built_ffi, True
    import cffi
    parsed = cffi.FFI()
    parsed.cdef(HEADER)
    _refresh(parsed)
    return parsed, False


def _refresh(parsed) -> None:
    """Best effort: rewrite the compiled module from this parse (a read-only
    install or any failure leaves things as they are; the parse is used)."""
    here = Path(__file__).resolve().parent
    if not os.access(here, os.W_OK) or not (here / "ffi_build.py").exists():
        return
    try:
        from . import ffi_build
        ffi_build.write_module(parsed, HEADER, here)
    except Exception:       # noqa: BLE001 - a cache refresh must never break the import
        pass


ffi, precompiled = _load_ffi()


def _constants() -> dict[str, int]:
    found: dict[str, int] = {}
    for name, value in re.findall(r"^#define\s+(\w+)\s+(\S+)\s*$", HEADER, re.M):
        found[name] = int(value, 0)
    for enum in re.findall(r"^enum\s+(\w+)\s*\{", HEADER, re.M):
        found.update(ffi.typeof(f"enum {enum}").relements)
    return found


constants: dict[str, int] = _constants()
