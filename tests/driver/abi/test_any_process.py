"""libshimgl loaded into Python programs that are not shimgl's: another virtual
environment (without shimgl or cffi), Debian's python3 (its own _cffi_backend
of another version), an interpreter of another Python version, a program that
already imported too old a numpy. The library finds its own installation and
dependencies; where it cannot run, the first call prints one line naming the
cause and the fix, and EGL reports EGL_NOT_INITIALIZED."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.driver.abi.conftest import PY_DIR, run

OURS = f"{sys.version_info[0]}.{sys.version_info[1]}"
SYSTEM_PYTHON = Path("/usr/bin/python3")


def _python_version(exe) -> str | None:
    try:
        res = subprocess.run([str(exe), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    return res.stdout.strip() if res.returncode == 0 else None


def _base_python() -> Path:
    return Path(getattr(sys, "_base_executable", sys.executable))


def _shimgl_lines(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.startswith("shimgl:")]


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory) -> Path:
    """A new virtual environment of the base interpreter with PyOpenGL and
    numpy only (linked from ours: no shimgl, no cffi in it)."""
    venv = tmp_path_factory.mktemp("hostvenv") / "venv"
    res = subprocess.run([str(_base_python()), "-m", "venv", "--without-pip", str(venv)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot create a virtual environment: {res.stderr.strip()}")
    ours = Path(sysconfig.get_paths()["purelib"])
    site = next((venv / "lib").glob("python3*/site-packages"))
    for name in ("OpenGL", "numpy", "numpy.libs"):
        if (ours / name).exists():
            (site / name).symlink_to(ours / name)
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", "import cffi"],
                           capture_output=True, text=True)
    assert probe.returncode != 0, "the bare environment must not see shimgl's cffi"
    return venv


def test_pyopengl_egl_from_another_venv(bare_venv, shimgl_env):
    env = dict(shimgl_env, PYOPENGL_PLATFORM="egl")
    res = run([bare_venv / "bin" / "python", PY_DIR / "pyopengl_egl.py"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert _shimgl_lines(res.stderr) == []


@pytest.mark.slow
def test_pyopengl_egl_from_a_venv_made_by_pip(tmp_path, shimgl_env):
    """As a user would: python -m venv; pip install PyOpenGL numpy."""
    venv = tmp_path / "venv"
    subprocess.run([str(_base_python()), "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "PyOpenGL", "numpy"],
                         capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        pytest.skip(f"pip install failed (offline?): {res.stderr.strip()[-300:]}")
    env = dict(shimgl_env, PYOPENGL_PLATFORM="egl")
    res = run([venv / "bin" / "python", PY_DIR / "pyopengl_egl.py"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")


def _system_python() -> Path:
    if not SYSTEM_PYTHON.exists() or _python_version(SYSTEM_PYTHON) != OURS:
        pytest.skip(f"needs the system's {SYSTEM_PYTHON} of Python {OURS}")
    return SYSTEM_PYTHON


@pytest.mark.parametrize("mode", ["plain", "preload-cffi"])
def test_system_python(mode, shimgl_env):
    """Debian's python3 (another build of the same version, its own sys.path;
    with preload-cffi its own _cffi_backend imported first, which shimgl sets
    aside while it starts and leaves in place)."""
    exe = _system_python()
    if mode == "preload-cffi":
        has = subprocess.run([str(exe), "-c", "import _cffi_backend"], capture_output=True)
        if has.returncode != 0:
            pytest.skip("the system python has no _cffi_backend of its own")
    res = run([exe, PY_DIR / "ctypes_egl.py", mode], dict(shimgl_env))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "pixel 255 128 64 255" in res.stdout      # (1, 0.5, 0.25, 1) in RGBA8
    assert res.stdout.rstrip().endswith("OK")
    assert _shimgl_lines(res.stderr) == []


def _other_python() -> Path | None:
    """An interpreter of another minor version (PATH, then pyenv)."""
    candidates = [shutil.which(f"python3.{m}") for m in range(8, 16)]
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    if root.is_dir():
        candidates += sorted(str(p) for p in root.glob("3.*/bin/python3"))
    for c in candidates:
        if c and _python_version(c) not in (None, OURS):
            return Path(c)
    return None


def test_incompatible_interpreter_fails_with_one_line(shimgl_env):
    exe = _other_python()
    if exe is None:
        pytest.skip(f"no Python other than {OURS} on this machine")
    version = _python_version(exe)
    res = run([exe, PY_DIR / "ctypes_egl.py"], dict(shimgl_env))
    assert res.returncode == 1
    lines = _shimgl_lines(res.stderr)
    assert len(lines) == 1, res.stderr
    assert f"it runs Python {version}" in lines[0] and f"built for Python {OURS}" in lines[0]
    assert "EGL error 0x3001" in res.stdout            # EGL_NOT_INITIALIZED


def test_too_old_numpy_already_imported(shimgl_env):
    exe = _system_python()
    res = run([exe, PY_DIR / "ctypes_egl.py", "old-numpy"], dict(shimgl_env))
    assert res.returncode == 1
    lines = _shimgl_lines(res.stderr)
    assert len(lines) == 1, res.stderr
    assert "numpy 1.20.0" in lines[0] and "numpy>=" in lines[0] and "pip install -U" in lines[0]
    assert "EGL error 0x3001" in res.stdout


@pytest.mark.slow
def test_host_with_its_own_cffi_package(tmp_path, shimgl_env):
    """A venv whose program imported cffi 1.x before loading EGL: shimgl starts
    with its own cffi and gives the host its package and backend back."""
    venv = tmp_path / "venv"
    subprocess.run([str(_base_python()), "-m", "venv", str(venv)], check=True)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "cffi<2"],
                         capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        pytest.skip(f"pip install failed (offline?): {res.stderr.strip()[-300:]}")
    res = run([venv / "bin" / "python", PY_DIR / "ctypes_egl.py", "host-cffi-package"],
              dict(shimgl_env))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "pixel 255 128 64 255" in res.stdout and "host cffi package still works 1." in res.stdout
    assert _shimgl_lines(res.stderr) == []


@pytest.mark.parametrize("delay_s", [0.0, 0.2])
def test_first_calls_from_two_threads_one_holding_the_gil(delay_s, shimgl_env):
    """Two threads of a Python host make their first calls at once, one through
    ctypes.PyDLL (it keeps the GIL during the call, as a C extension may): both
    return. With pthread_once around the start-up, the caller holding the GIL
    waited for the other thread's start-up, which waited for the GIL (with a
    0.2 s delay it hung every time)."""
    from driver.abi import paths
    library = paths.library_dir() / "libshimgl.so"
    try:
        res = run([sys.executable, PY_DIR / "first_call_two_threads.py", library, delay_s],
                  dict(shimgl_env), timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail("the two first calls deadlocked")
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stdout + res.stderr
