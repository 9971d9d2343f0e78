"""The install hook: setuptools' build_py, then the C ABI (driver/abi/build.py).

pyproject.toml names this class in [tool.setuptools.cmdclass], so `pip install`
(and `pip install -e`, hence `make`) builds libshimgl.so and friends for the
interpreter being installed into. setuptools loads this file by path, without
importing the `driver` package (its dependencies are not installed yet during
the build), so build.py is loaded by path too.

It also compiles the DRM header's cffi declarations ahead of time
(uapi/drm/ffi_build.py: a Python module, so no C is parsed when a process
starts) and, for an editable install, byte-compiles the packages in the source
tree: a C host's embedded interpreter (or any process with
PYTHONDONTWRITEBYTECODE) would otherwise compile every module from source at
every start. A wheel's modules are byte-compiled by pip itself.

Policy: when a prerequisite is missing (C compiler, shared libpython, the
registry) the install still succeeds, with a warning; the ABI tests then skip
and `shimgl env` says what is missing. Set SHIMGL_ABI_REQUIRED=1 to make it an
error instead. Editable installs build into the source tree (driver/abi/),
others into the wheel's driver/abi/."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools.command.build_py import build_py as _build_py

__all__ = ["build_py"]

HERE = Path(__file__).resolve().parent


ROOT = HERE.parent.parent
#: the packages of the distribution (pyproject.toml [tool.setuptools.packages.find])
PACKAGES = ("driver", "uapi", "drmshim", "compiler", "layout")


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_builder():
    return _load("_shimgl_abi_build", HERE / "build.py")


def build_uapi_ffi(package_root: Path) -> Path:
    """uapi/drm/_header_ffi.py under package_root (the source tree or the build dir)."""
    ffi_build = _load("_shimgl_uapi_ffi_build", ROOT / "uapi" / "drm" / "ffi_build.py")
    return ffi_build.build(package_root / "uapi" / "drm")


def byte_compile_tree(root: Path) -> int:
    """Byte-compile every package under root in place (__pycache__, the
    interpreter's optimisation level 0); returns how many files failed."""
    import compileall
    failed = 0
    for name in PACKAGES:
        if (root / name).is_dir():
            ok = compileall.compile_dir(str(root / name), quiet=2, workers=0,
                                        rx=None, legacy=False)
            failed += not ok
    return failed


class build_py(_build_py):
    def run(self):
        super().run()
        editable = getattr(self, "editable_mode", False)
        package_root = ROOT if editable else Path(self.build_lib)
        build_uapi_ffi(package_root)
        if editable:
            byte_compile_tree(ROOT)
        outdir = HERE if editable else Path(self.build_lib) / "driver" / "abi"
        builder = _load_builder()
        try:
            files = builder.build(outdir)
        except builder.BuildError as e:
            msg = f"shimgl: the C ABI (libshimgl.so, libOSMesa.so.8) was not built: {e}"
            if os.environ.get("SHIMGL_ABI_REQUIRED") == "1":
                raise SystemExit(msg) from e
            print(f"WARNING: {msg}", file=sys.stderr)
            return
        print(f"shimgl: built the C ABI in {outdir} ({len(files)} files)", file=sys.stderr)
