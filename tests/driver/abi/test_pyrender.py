"""pyrender, unchanged, from its own virtual environment: its EGL path (device
enumeration, platform_device) and its OSMesa path render a lit box with
directional-light shadows, compared with Mesa (llvmpipe through Mesa's EGL
vendor; Mesa's libOSMesa) running the same script. Slow: pip installs
pyrender, with numpy<2 (pyrender's shadow code uses np.infty) and PyOpenGL
3.1.7 (pyrender pins 3.1.0, whose osmesa module lacks
OSMesaCreateContextAttribs)."""

from __future__ import annotations

import ctypes.util
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
    pip = str(venv / "bin" / "pip")
    for args in (["pyrender", "numpy<2"], ["PyOpenGL==3.1.7"]):
        res = subprocess.run([pip, "install", "-q", *args], capture_output=True, text=True,
                             timeout=1500)
        if res.returncode != 0:
            pytest.skip(f"pip install {args} failed (offline?): {res.stderr.strip()[-300:]}")
    return venv / "bin" / "python"


#: pyrender's shadow maps are 2048x2048 depth passes: on a loaded 2-core machine one
#: can take more GPU time than the watchdog's default 60 s per command
PATIENT_GPU = {"SHIMGL_GPU_TIMEOUT_MS": "300000"}


def _render(python, env, out):
    res = run([python, PY_DIR / "pyrender_offscreen.py", out, "shadows"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "shimgl:" not in res.stderr
    return np.load(out)


def _same(a, b):
    assert (a["depth"] > 0).sum() > 1000                 # the box covers the middle
    assert np.abs(a["color"].astype(int) - b["color"].astype(int)).max() <= 2
    assert np.abs(a["depth"] - b["depth"]).max() < 1e-3


@pytest.mark.slow
def test_pyrender_egl_matches_llvmpipe(pyrender_python, shimgl_env, tmp_path):
    if not MESA_VENDOR.exists():
        pytest.skip("needs Mesa's EGL vendor (libegl-mesa0) for the reference image")
    ours = _render(pyrender_python, dict(shimgl_env, PYOPENGL_PLATFORM="egl", **PATIENT_GPU), tmp_path / "a.npz")
    ref = _render(pyrender_python, clean_env(PYOPENGL_PLATFORM="egl",
                                             __EGL_VENDOR_LIBRARY_FILENAMES=str(MESA_VENDOR)),
                  tmp_path / "b.npz")
    _same(ours, ref)


@pytest.mark.slow
def test_pyrender_osmesa_matches_mesa(pyrender_python, shimgl_env, tmp_path):
    if ctypes.util.find_library("OSMesa") is None:
        pytest.skip("needs Mesa's libOSMesa (libosmesa6) for the reference image")
    ours = _render(pyrender_python, dict(shimgl_env, PYOPENGL_PLATFORM="osmesa", **PATIENT_GPU),
                   tmp_path / "a.npz")
    ref = _render(pyrender_python, clean_env(PYOPENGL_PLATFORM="osmesa"), tmp_path / "b.npz")
    _same(ours, ref)


@pytest.mark.slow
@pytest.mark.parametrize("light", ["spot", "point", "all"])
@pytest.mark.parametrize("platform", ["egl", "osmesa"])
def test_pyrender_lights_and_shadows_match_mesa(pyrender_python, shimgl_env, tmp_path, light, platform):
    """A box shadowing a floor under a spot light (SHADOWS_SPOT), a point light,
    or directional + spot + point lights with both shadow kinds, on pyrender's
    EGL and OSMesa paths, against Mesa running the same script (measured: within
    1/255, depth within 2.1e-4)."""
    if platform == "egl" and not MESA_VENDOR.exists():
        pytest.skip("needs Mesa's EGL vendor (libegl-mesa0) for the reference image")
    if platform == "osmesa" and ctypes.util.find_library("OSMesa") is None:
        pytest.skip("needs Mesa's libOSMesa (libosmesa6) for the reference image")

    def render(env, out):
        res = run([pyrender_python, PY_DIR / "pyrender_lights.py", out, light], env)
        assert res.returncode == 0, res.stdout + res.stderr
        assert "shimgl:" not in res.stderr
        return np.load(out)

    mesa_env = dict(PYOPENGL_PLATFORM=platform)
    if platform == "egl":
        mesa_env["__EGL_VENDOR_LIBRARY_FILENAMES"] = str(MESA_VENDOR)
    ours = render(dict(shimgl_env, PYOPENGL_PLATFORM=platform, **PATIENT_GPU), tmp_path / "a.npz")
    ref = render(clean_env(**mesa_env), tmp_path / "b.npz")
    _same(ours, ref)
