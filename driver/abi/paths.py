"""Where the ABI's files are, and the environment that selects them.

Imports nothing heavy (no driver stack): used by `shimgl env`/`run` and tests."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

__all__ = ["LIBRARY", "OSMESA", "VENDOR_JSON", "environment", "library_dir", "missing_reason",
           "vendor_json"]

LIBRARY = "libshimgl.so"
OSMESA = "libOSMesa.so.8"
EGL_VENDOR = "libEGL_shimgl.so.0"
GLX_VENDOR = "libGLX_shimgl.so.0"
VENDOR_JSON = "50_shimgl.json"
HERE = Path(__file__).resolve().parent


def library_dir() -> Path | None:
    """The directory holding libshimgl.so (beside this file: the install hook
    builds it there), or None when the ABI was not built."""
    return HERE if (HERE / LIBRARY).is_file() and (HERE / OSMESA).is_file() else None


def missing_reason() -> str:
    if library_dir() is not None:
        return ""
    return (f"{HERE / LIBRARY} was not built. The install hook (driver/abi/setuptools_hook.py) "
            "needs a C compiler, a Python with a shared libpython and the glad2 package; "
            "reinstall with SHIMGL_ABI_REQUIRED=1 to see the error: "
            "pip install -e '.[test]'")


def vendor_json() -> Path | None:
    """The glvnd vendor file naming our library by absolute path. The one the
    build wrote is used when it names this directory; otherwise (a wheel built
    elsewhere) a corrected copy is written to the user's cache directory."""
    d = library_dir()
    if d is None:
        return None
    lib = str(d / EGL_VENDOR)
    want = {"file_format_version": "1.0.0", "ICD": {"library_path": lib}}
    shipped = d / VENDOR_JSON
    try:
        if json.loads(shipped.read_text()) == want:
            return shipped
    except (OSError, ValueError):
        pass
    # one file per library directory: two installs (two checkouts, two virtual
    # environments) used at once must not point each other's programs at their library
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shimgl"
    cache.mkdir(parents=True, exist_ok=True)
    tag = hashlib.sha1(str(d).encode()).hexdigest()[:12]
    out = cache / VENDOR_JSON.replace(".json", f"-{tag}.json")
    text = json.dumps(want, indent=4) + "\n"
    try:
        if out.read_text() == text:
            return out
    except OSError:
        pass
    from uapi.caches import write_atomically
    write_atomically(out, text)
    return out


def environment(base: dict[str, str] | None = None) -> dict[str, str] | None:
    """The variables `shimgl env` exports, or None when the ABI is missing."""
    d = library_dir()
    if d is None:
        return None
    base = os.environ if base is None else base
    ld = base.get("LD_LIBRARY_PATH", "")
    parts = [p for p in ld.split(":") if p and p != str(d)]
    env = {
        "__EGL_VENDOR_LIBRARY_FILENAMES": str(vendor_json()),
        "LD_LIBRARY_PATH": ":".join([str(d), *parts]),
        "PIGLIT_PLATFORM": "surfaceless_egl",
    }
    # PyOpenGL guesses GLX when DISPLAY is set (shimgl's GLX answers, as
    # Mesa's would: GLUT and other windowed programs need it), and otherwise
    # fails; headless, EGL is the platform. A choice already made (egl, glx or
    # osmesa) is kept
    if base.get("PYOPENGL_PLATFORM") or not base.get("DISPLAY"):
        env["PYOPENGL_PLATFORM"] = base.get("PYOPENGL_PLATFORM") or "egl"
    if base.get("DISPLAY"):
        # glvnd's libGLX loads libGLX_shimgl.so.0 (found through LD_LIBRARY_PATH)
        # instead of asking the X server which vendor to use
        env["__GLX_VENDOR_LIBRARY_NAME"] = "shimgl"
    return env
