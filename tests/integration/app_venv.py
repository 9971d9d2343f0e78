"""A virtual environment of its own for a real program's acceptance test: the
program is installed with pip, as its users install it, never into shimgl's
environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
