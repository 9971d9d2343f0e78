"""Fixtures for the C ABI tests: the built library (skip with the reason when
the install hook could not build it), a C compiler, compiled test hosts, and
the environment of `shimgl env`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from driver.abi import paths

HERE = Path(__file__).resolve().parent
C_DIR = HERE / "c"
PY_DIR = HERE / "py"
DATA_DIR = HERE / "data"
HOST_TIMEOUT_S = 600      # a C host starts Python and the whole stack; the machine may be loaded


@pytest.fixture(scope="session")
def abi_dir() -> Path:
    d = paths.library_dir()
    if d is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    return d


@pytest.fixture(scope="session")
def cc() -> str:
    c = shutil.which("cc") or shutil.which("gcc")
    if c is None:
        pytest.skip("needs a C compiler (gcc)")
    return c


@pytest.fixture(scope="session")
def build_host(cc, tmp_path_factory):
    """build_host(name, *flags) compiles tests/driver/abi/c/NAME.c once per session."""
    out = tmp_path_factory.mktemp("hosts")
    built: dict[tuple, Path] = {}

    def build(name: str, *flags: str) -> Path:
        key = (name, flags)
        if key not in built:
            exe = out / f"{name}{len(built)}"
            res = subprocess.run([cc, "-O1", "-o", str(exe), str(C_DIR / f"{name}.c"), *flags],
                                 capture_output=True, text=True)
            if res.returncode != 0:
                if "EGL/egl.h" in res.stderr or "cannot find -lEGL" in res.stderr:
                    pytest.skip("needs the EGL/GL development files (libglvnd-dev)")
                raise AssertionError(res.stderr)
            built[key] = exe
        return built[key]
    return build


def clean_env(**extra: str) -> dict[str, str]:
    """The test process's environment without any trace of the virtual
    environment (a C host must find the package on its own)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONHOME", "PYTHONPATH", "__EGL_VENDOR_LIBRARY_FILENAMES",
                        "LD_LIBRARY_PATH", "PYOPENGL_PLATFORM")}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = ":".join(p for p in env.get("PATH", "").split(":") if p != venv_bin)
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def shimgl_env(abi_dir) -> dict[str, str]:
    """clean_env() plus the variables `shimgl env` prints."""
    return clean_env(**paths.environment({}))


def run(cmd, env, cwd="/", timeout=HOST_TIMEOUT_S) -> subprocess.CompletedProcess:
    res = subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, capture_output=True, text=True,
                         timeout=timeout)
    print(res.stdout)
    print(res.stderr, file=sys.stderr)
    return res
