"""pyrender, unchanged, from its own virtual environment (pip install pyrender):
its EGL path (device enumeration, platform_device) renders a lit box, compared
with Mesa's llvmpipe running the same script. Slow: pip installs pyrender."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.driver.abi.conftest import PY_DIR, clean_env, run
from tests.driver.abi.test_moderngl import MESA_VENDOR


@pytest.fixture(scope="module")
def pyrender_python(tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("pyrender") / "venv"
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([str(base), "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "pyrender"],
                         capture_output=True, text=True, timeout=1500)
    if res.returncode != 0:
        pytest.skip(f"pip install pyrender failed (offline?): {res.stderr.strip()[-300:]}")
    return venv / "bin" / "python"


@pytest.mark.slow
def test_pyrender_egl_matches_llvmpipe(pyrender_python, shimgl_env, tmp_path):
    if not MESA_VENDOR.exists():
        pytest.skip("needs Mesa's EGL vendor (libegl-mesa0) for the reference image")
    ours, ref = tmp_path / "shimgl.npz", tmp_path / "llvmpipe.npz"
    res = run([pyrender_python, PY_DIR / "pyrender_offscreen.py", ours],
              dict(shimgl_env, PYOPENGL_PLATFORM="egl"))
    assert res.returncode == 0, res.stdout + res.stderr
    res = run([pyrender_python, PY_DIR / "pyrender_offscreen.py", ref],
              clean_env(PYOPENGL_PLATFORM="egl", __EGL_VENDOR_LIBRARY_FILENAMES=str(MESA_VENDOR)))
    assert res.returncode == 0, res.stdout + res.stderr
    a, b = np.load(ours), np.load(ref)
    assert (a["depth"] > 0).sum() > 1000                 # the box covers the middle
    assert np.abs(a["color"].astype(int) - b["color"].astype(int)).max() <= 2
    assert np.abs(a["depth"] - b["depth"]).max() < 1e-3
