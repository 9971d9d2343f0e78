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
what they would have seen."""

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


if not getattr(_sys, "argv", None) or _sys.argv == [""]:     # started by our library in a C host
    _import_numpy_with_one_blas_thread()
