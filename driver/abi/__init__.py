"""driver.abi: shimgl's C ABI (libshimgl.so, libOSMesa.so.8, the glvnd EGL vendor).

Built at install time by driver/abi/build.py (see README.md); the modules here
are the Python side the library calls: runtime (binding and dispatch to the
calling thread's current context), marshal (C pointers <-> the GL front end's
calling convention), egl (EGL 1.5, surfaceless), osmesa (OSMesa). `paths` finds
the built files and the environment that selects them (`shimgl env`).

Importing this package is cheap (paths only); the library imports the rest."""

from driver.abi.paths import environment, library_dir, missing_reason, vendor_json

__all__ = ["environment", "library_dir", "missing_reason", "vendor_json"]
