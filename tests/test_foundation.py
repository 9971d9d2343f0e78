"""The foundation: packages, layering contracts, the CLI and the uapi seam."""

from __future__ import annotations

import errno
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import uapi

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["uapi", "layout", "compiler", "drmshim", "driver"]


@pytest.mark.parametrize("name", PACKAGES)
def test_package_imports_and_says_what_it_must_never_import(name):
    module = importlib.import_module(name)
    assert module.__doc__ and "never import" in module.__doc__
    readme = (ROOT / name / "README.md").read_text()
    assert "never import" in readme


def _lint_imports(tree: Path) -> subprocess.CompletedProcess:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed (make test installs it)")
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.run([lint, "--no-cache"], cwd=tree, env=env, capture_output=True, text=True)


@pytest.fixture
def tree_copy(tmp_path):
    """A copy of the packages and the contracts, to break on purpose."""
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_layering_contracts_hold():
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "importer, imported",
    [("driver", "drmshim"), ("drmshim", "driver"), ("drmshim", "compiler"),
     ("compiler", "driver"), ("layout", "uapi"), ("uapi", "driver"), ("layout", "drmshim")],
)
def test_layering_check_catches_a_forbidden_import(tree_copy, importer, imported):
    (tree_copy / importer / "_forbidden.py").write_text(f"import {imported}\n")
    result = _lint_imports(tree_copy)
    assert result.returncode != 0
    assert f"{importer}._forbidden -> {imported}" in result.stdout


def test_cli_help_lists_commands():
    from driver.cli import build_parser

    text = build_parser().format_help()
    assert "shimgl" in text and "commands" in text


def test_cli_runs_as_console_script():
    exe = shutil.which("shimgl", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("the shimgl console script is not installed (make test installs it)")
    result = subprocess.run([exe, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "usage: shimgl" in result.stdout


class EchoBackend:
    """A toy backend: one bytearray per open file; ioctl 1 stores arg, others EINVAL."""

    def __init__(self):
        self.closed = []

    def open(self, path):
        return {"mem": bytearray(64), "last": None}

    def ioctl(self, file, request, arg):
        if request != 1:
            raise OSError(errno.EINVAL, "bad request")
        file["last"] = arg
        return 0

    def mmap(self, file, offset, length):
        return memoryview(file["mem"])[offset:offset + length]

    def close(self, file):
        self.closed.append(file)


def test_seam_routes_to_the_registered_backend():
    backend = EchoBackend()
    uapi.register_backend("/dev/test-echo", backend)
    try:
        fd = uapi.open("/dev/test-echo")
        assert uapi.ioctl(fd, 1, "x") == 0
        with pytest.raises(OSError) as e:
            uapi.ioctl(fd, 2, None)
        assert e.value.errno == errno.EINVAL
        view = uapi.mmap(fd, 8, 4)
        view[:] = b"abcd"
        assert bytes(uapi.mmap(fd, 8, 4)) == b"abcd"
        uapi.close(fd)
        assert len(backend.closed) == 1
        with pytest.raises(OSError) as e:
            uapi.ioctl(fd, 1, None)
        assert e.value.errno == errno.EBADF
    finally:
        uapi.unregister_backend("/dev/test-echo")


def test_seam_open_of_unknown_path_is_enoent():
    with pytest.raises(OSError) as e:
        uapi.open("/dev/nothing-answers-here")
    assert e.value.errno == errno.ENOENT
