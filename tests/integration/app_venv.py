"""A virtual environment of its own for a real program's acceptance test: the
program is installed with pip, as its users install it, never into shimgl's
environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest


def python_with(tmp_path_factory, name: str, *packages: str) -> Path:
    """The Python of a new virtual environment holding ``packages``; the test is
    skipped with pip's reason when they cannot be installed (offline)."""
    venv = tmp_path_factory.mktemp(name) / "venv"
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([str(base), "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *packages], capture_output=True,
                         text=True, timeout=1800)
    if res.returncode != 0:
        pytest.skip(f"pip install {packages[0]} failed (offline?): {res.stderr.strip()[-300:]}")
    return venv / "bin" / "python"


def headless(env: dict) -> dict:
    """The environment without the X display (EGL picks its device platform); for
    shimgl's, as `shimgl env` prints it without DISPLAY."""
    from driver.abi import paths
    out = {k: v for k, v in env.items() if k != "DISPLAY"}
    if "__EGL_VENDOR_LIBRARY_FILENAMES" in env:
        out.pop("__GLX_VENDOR_LIBRARY_NAME", None)
        out.update(paths.environment({}))
    return out


def render_scene(python: Path, script: Path, env: dict, out: Path, *args: str,
                 error_line: str | None = None) -> tuple[np.ndarray, str, str]:
    """Run a scene script (``python script OUT ARGS...``) that saves its image to OUT
    (an npz with ``image``) and prints "renderer ...", then "OK" last; ``error_line``,
    when given, must be printed too (the program's own GL error report). Returns
    (image, the renderer line, stderr)."""
    res = subprocess.run([str(python), str(script), str(out), *args], env=env, capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0 and res.stdout.rstrip().endswith("OK"), res.stdout[-2000:] + res.stderr[-2000:]
    if error_line is not None:
        assert error_line in res.stdout, res.stdout
    renderer = next(line for line in res.stdout.splitlines() if line.startswith("renderer"))
    return np.load(out)["image"], renderer, res.stderr


def skip_without_qt_platform(python: Path, env: dict) -> None:
    """Skip (with Qt's own message) when PySide6 in ``python``'s environment cannot
    load its platform plugin under ``env`` (the X11 libraries of make optional-deps)."""
    probe = subprocess.run([str(python), "-c", "from PySide6.QtGui import QGuiApplication as A; A([])"],
                           env=env, capture_output=True, text=True, timeout=300)
    if probe.returncode != 0:
        pytest.skip(f"Qt's platform plugin does not load here: {probe.stderr.strip()[-300:]}")
