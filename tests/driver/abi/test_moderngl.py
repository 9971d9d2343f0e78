"""moderngl, unchanged, from its own virtual environment (pip install moderngl
glcontext): create_standalone_context(backend='egl'), a 4.3 core triangle and
a compute shader, compared with Mesa's llvmpipe (the same script on Mesa's EGL
vendor) when it is installed. Slow: it makes a virtual environment with pip."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.driver.abi.conftest import PY_DIR, clean_env, run

MESA_VENDOR = Path("/usr/share/glvnd/egl_vendor.d/50_mesa.json")


@pytest.fixture(scope="module")
def moderngl_python(tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("moderngl") / "venv"
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([str(base), "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "moderngl", "glcontext",
                          "numpy"], capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        pytest.skip(f"pip install moderngl failed (offline?): {res.stderr.strip()[-300:]}")
    return venv / "bin" / "python"


@pytest.mark.slow
def test_moderngl_standalone_egl(moderngl_python, shimgl_env, tmp_path):
    out = tmp_path / "shimgl.npz"
    res = run([moderngl_python, PY_DIR / "moderngl_egl.py", out], dict(shimgl_env))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "renderer shimgl" in res.stdout and res.stdout.rstrip().endswith("OK")
    ours = np.load(out)
    assert np.array_equal(ours["compute"], np.arange(256, dtype="f4") ** 2 + 1)
    if not MESA_VENDOR.exists():
        return
    ref = tmp_path / "llvmpipe.npz"
    res = run([moderngl_python, PY_DIR / "moderngl_egl.py", ref],
              clean_env(__EGL_VENDOR_LIBRARY_FILENAMES=str(MESA_VENDOR)))
    assert res.returncode == 0, res.stdout + res.stderr
    diff = np.abs(ours["image"].astype(int) - np.load(ref)["image"].astype(int))
    assert diff.max() <= 2, diff.max()       # interpolated colours: rounding only
