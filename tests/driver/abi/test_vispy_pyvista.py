"""vispy and PyVista (VTK), unchanged, from their own virtual environment under
Xvfb: vispy's glfw backend (a SceneCanvas with text, a line and markers) and
PyVista's off-screen plotter (GLX; a shaded sphere and a cube), each compared
with the same script on Mesa's llvmpipe. Slow: pip installs the programs (VTK's
wheel is large); skipped with the reason when pip, Xvfb or Mesa is missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.driver.abi.conftest import PY_DIR, run
from tests.driver.abi.test_x11 import x_env, xvfb  # noqa: F401  (fixtures)


def _venv_with(tmp_path_factory, name: str, packages: list[str]) -> Path:
    venv = tmp_path_factory.mktemp(name) / "venv"
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([str(base), "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *packages], capture_output=True, text=True,
                         timeout=1800)
    if res.returncode != 0:
        pytest.skip(f"pip install {' '.join(packages)} failed (offline?): {res.stderr.strip()[-300:]}")
    return venv / "bin" / "python"


@pytest.fixture(scope="module")
def vispy_python(tmp_path_factory) -> Path:
    return _venv_with(tmp_path_factory, "vispy", ["vispy", "glfw", "numpy"])


@pytest.fixture(scope="module")
def pyvista_python(tmp_path_factory) -> Path:
    return _venv_with(tmp_path_factory, "pyvista", ["pyvista", "numpy"])


def _mesa_env(x_env):
    """The same X display and environment without shimgl's GLX/EGL vendor selection."""
    return {k: v for k, v in x_env.items() if k not in ("__GLX_VENDOR_LIBRARY_NAME", "__EGL_VENDOR_LIBRARY_FILENAMES")}


def _render(python, script, env, out) -> tuple[np.ndarray, str]:
    res = run([python, PY_DIR / script, out], env)
    assert res.returncode == 0 and res.stdout.rstrip().endswith("OK"), res.stdout + res.stderr
    renderer = next(line for line in res.stdout.splitlines() if line.startswith("renderer"))
    return np.load(out)["image"], renderer


def _compare(python, script, x_env, tmp_path, tolerance: int):
    ours, renderer = _render(python, script, x_env, tmp_path / "shimgl.npz")
    assert "shimgl" in renderer, renderer
    ref, ref_renderer = _render(python, script, _mesa_env(x_env), tmp_path / "mesa.npz")
    if "llvmpipe" not in ref_renderer:
        pytest.skip(f"the reference did not run on llvmpipe ({ref_renderer})")
    assert ours.shape == ref.shape
    diff = np.abs(ours.astype(int) - ref.astype(int)).max(axis=-1)
    assert (ours != ours.reshape(-1, ours.shape[-1])[0]).any(), "a blank image"
    assert diff.max() <= tolerance, f"{(diff > tolerance).mean():.2%} of the pixels differ by up to {diff.max()}"


@pytest.mark.slow
def test_vispy_scene_canvas_matches_llvmpipe(vispy_python, x_env, tmp_path):  # noqa: F811
    """Text, a 3-pixel line and two markers in a 160x120 canvas: within 2/255 of
    llvmpipe's image."""
    _compare(vispy_python, "vispy_scene.py", x_env, tmp_path, 2)


@pytest.mark.slow
def test_pyvista_offscreen_plotter_matches_llvmpipe(pyvista_python, x_env, tmp_path):  # noqa: F811
    """A shaded sphere and a cube, 160x120 screenshot through GLX: within 1/255 of
    llvmpipe's image."""
    _compare(pyvista_python, "pyvista_scene.py", x_env, tmp_path, 1)
