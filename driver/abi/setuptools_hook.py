"""The install hook: setuptools' build_py, then the C ABI (driver/abi/build.py).

pyproject.toml names this class in [tool.setuptools.cmdclass], so `pip install`
(and `pip install -e`, hence `make`) builds libshimgl.so and friends for the
interpreter being installed into. setuptools loads this file by path, without
importing the `driver` package (its dependencies are not installed yet during
the build), so build.py is loaded by path too.

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


def _load_builder():
    spec = importlib.util.spec_from_file_location("_shimgl_abi_build", HERE / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class build_py(_build_py):
    def run(self):
        super().run()
        editable = getattr(self, "editable_mode", False)
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
