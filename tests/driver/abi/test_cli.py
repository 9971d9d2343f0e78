"""`shimgl env` and `shimgl run`."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from driver.abi import paths
from driver.cli import main
from tests.driver.abi.conftest import run

SHIMGL = Path(sys.executable).parent / "shimgl"


def test_env_prints_export_lines(abi_dir, capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    assert main(["env"]) == 0
    lines = capsys.readouterr().out.splitlines()
    values = dict(shlex.split(line.removeprefix("export "))[0].split("=", 1) for line in lines)
    assert all(line.startswith("export ") for line in lines)
    assert Path(values["__EGL_VENDOR_LIBRARY_FILENAMES"]).is_file()
    assert values["LD_LIBRARY_PATH"].split(":")[0] == str(abi_dir)
    assert values["PIGLIT_PLATFORM"] == "surfaceless_egl"
    assert values["PYOPENGL_PLATFORM"] in ("egl", "osmesa")


def test_env_keeps_a_chosen_pyopengl_platform(abi_dir):
    assert paths.environment({"PYOPENGL_PLATFORM": "osmesa"})["PYOPENGL_PLATFORM"] == "osmesa"
    assert paths.environment({})["PYOPENGL_PLATFORM"] == "egl"


def test_env_selects_the_glx_vendor_only_with_a_display(abi_dir):
    with_display = paths.environment({"DISPLAY": ":5"})
    assert with_display["__GLX_VENDOR_LIBRARY_NAME"] == "shimgl"
    assert "PYOPENGL_PLATFORM" not in with_display      # PyOpenGL's own guess: GLX
    assert paths.environment({"DISPLAY": ":5", "PYOPENGL_PLATFORM": "egl"})[
        "PYOPENGL_PLATFORM"] == "egl"
    assert "__GLX_VENDOR_LIBRARY_NAME" not in paths.environment({})
    assert (abi_dir / paths.GLX_VENDOR).exists()      # what libGLX loads for "shimgl"


def test_env_without_the_library(monkeypatch, capsys):
    monkeypatch.setattr(paths, "library_dir", lambda: None)
    assert main(["env"]) == 1
    assert "not built" in capsys.readouterr().err


def test_run_python_script(abi_dir, tmp_path):
    if not SHIMGL.exists():
        pytest.skip("the shimgl console script is not installed")
    script = tmp_path / "show.py"
    script.write_text("import os, sys\n"
                      "print(os.environ['__EGL_VENDOR_LIBRARY_FILENAMES'])\n"
                      "print(os.environ['LD_LIBRARY_PATH'])\n"
                      "print(sys.argv[1:])\n")
    res = run([SHIMGL, "run", script, "a", "--b"], None)
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[0] == str(paths.vendor_json())
    assert out[1].split(":")[0] == str(abi_dir)
    assert out[2] == "['a', '--b']"


def test_run_missing_program(abi_dir):
    if not SHIMGL.exists():
        pytest.skip("the shimgl console script is not installed")
    res = run([SHIMGL, "run", "/nonexistent/program"], None)
    assert res.returncode == 127


def test_run_binary(abi_dir, build_host):
    """`shimgl run` a compiled EGL program: it reaches shimgl through glvnd."""
    if not SHIMGL.exists():
        pytest.skip("the shimgl console script is not installed")
    from tests.driver.abi.conftest import clean_env
    exe = build_host("egl_glvnd", "-lEGL", "-lGL", "-lpthread")
    env = clean_env(PATH=f"{SHIMGL.parent}:/usr/bin:/bin")
    res = run([SHIMGL, "run", exe, "gles3"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "EGL 1.5 vendor shimgl" in res.stdout


def test_run_pyopengl_script_unchanged(abi_dir):
    """`shimgl run script.py` with no PyOpenGL platform chosen: EGL by default."""
    if not SHIMGL.exists():
        pytest.skip("the shimgl console script is not installed")
    from tests.driver.abi.conftest import PY_DIR, clean_env
    res = run([SHIMGL, "run", PY_DIR / "pyopengl_egl.py"], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
