"""driver.abi: shimgl's C ABI (libshimgl.so, libOSMesa.so.8, the glvnd EGL vendor).

Built at install time by driver/abi/build.py (see README.md); the modules here
are the Python side the library calls: runtime (binding and dispatch to the
calling thread's current context), marshal (C pointers <-> the GL front end's
calling convention), egl (EGL 1.5, surfaceless), osmesa (OSMesa). `paths` finds
the built files and the environment that selects them (`shimgl env`).

Importing this package is cheap (paths only); the library imports the rest.

In an interpreter the library started inside a C program (``sys.argv`` empty
or ``[""]``: piglit, any EGL/OSMesa program), numpy is imported here with
OpenBLAS limited to one thread unless the environment already chooses
(``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``): the driver multiplies only
4x4 matrices, and starting a BLAS thread per core costs ~50 ms of CPU at every
start (numpy's import: 0.126 s of CPU with the default threads, 0.071 s with
one). The environment is restored afterwards, so the program's children see
what they would have seen.

In such an interpreter the cyclic garbage collector is also paused while the
library starts (from here to the end of ``runtime.install``): the start creates
~90,000 long-lived objects (modules, classes, functions) and the collector
traversed them again and again as the heap grew (~30 ms of a ~330 ms trivial
EGL program; the start leaves ~400 unreachable objects). ``resume_gc`` then
moves what the start made to the permanent generation (``gc.freeze``) and
turns collection back on for everything made afterwards."""

import gc as _gc
import os as _os
import sys as _sys

from driver.abi.paths import environment, library_dir, missing_reason, vendor_json

__all__ = ["environment", "library_dir", "missing_reason", "vendor_json"]


_BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "GOTO_NUM_THREADS")


def _import_numpy_with_one_blas_thread() -> None:
    if "numpy" in _sys.modules or any(v in _os.environ for v in _BLAS_THREAD_VARIABLES):
        return
    _os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401 - OpenBLAS reads its thread count when it is loaded
    except ImportError:
        pass
    finally:
        del _os.environ["OPENBLAS_NUM_THREADS"]


_gc_paused = False


def resume_gc() -> None:
    """End the start-up's pause of the garbage collector, if it was paused (see above)."""
    global _gc_paused
    if _gc_paused:
        _gc_paused = False
        _gc.freeze()
        _gc.enable()


if not getattr(_sys, "argv", None) or _sys.argv == [""]:     # started by our library in a C host
    if _gc.isenabled():
        _gc.disable()
        _gc_paused = True
    _import_numpy_with_one_blas_thread()
