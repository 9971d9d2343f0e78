"""Taichi, unchanged, from its own virtual environment, on its OpenGL backend
headless through EGL (taichi_scene.py: compute kernels over fields, atomics),
checked against numpy. Taichi is a pybind11 module: before the C ABI's build
accepted a PyCapsule version tag, its first GL call aborted the process
(test_capsule_version_tag.py). Slow: pip installs taichi. Skipped with the reason
when pip cannot install it (Taichi publishes wheels for x86_64 and aarch64 Linux,
Python 3.9-3.12) or the C ABI is not built."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.integration.app_venv import python_with

pytestmark = [pytest.mark.slow]

SCRIPT = Path(__file__).with_name("taichi_scene.py")


@pytest.fixture(scope="module")
def taichi_python(tmp_path_factory) -> Path:
    return python_with(tmp_path_factory, "taichi", "taichi", "numpy")


def test_taichi_opengl_kernels_match_numpy(taichi_python, tmp_path):
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    env = {k: v for k, v in clean_env().items() if k != "DISPLAY"}
    env = dict(env, **paths.environment({}), SHIMGL_DEBUG="cache")
    out = tmp_path / "taichi.npz"
    res = subprocess.run([str(taichi_python), str(SCRIPT), str(out)], env=env, capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0 and res.stdout.rstrip().endswith("OK"), res.stdout[-2000:] + res.stderr[-2000:]
    assert "arch opengl" in res.stdout, res.stdout         # no fallback to the CPU backend
    assert "shimgl: shader cache" in res.stderr, res.stderr[-2000:]   # the kernels ran on shimgl
    got = np.load(out)

    n = 64
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    a = (((i * 7 + j * 3) % 11) * 0.5).astype(np.float32)
    p = np.pad(a, 1)
    blur = (a * 4 + np.where(i > 0, p[:-2, 1:-1], 0) + np.where(i < n - 1, p[2:, 1:-1], 0)
            + np.where(j > 0, p[1:-1, :-2], 0) + np.where(j < n - 1, p[1:-1, 2:], 0)) / 8
    np.testing.assert_array_equal(got["blur"], blur.astype(np.float32))     # halves and eighths: exact
    np.testing.assert_array_equal(got["hist"], np.bincount(((i * j) % 8).ravel(), minlength=8))
    k = np.arange(n, dtype=np.float64)
    m = np.array([[1, 2, 0], [0, 1, 3], [1, 0, 1]], float)
    y = np.stack([k, k * 0.5, np.ones(n)], 1) @ m.T
    vectors = (y / np.linalg.norm(y, axis=1, keepdims=True) * np.log1p(k)[:, None]
               + np.stack([np.floor(k / 3), np.exp(-k * 0.1), np.sqrt(k)], 1))
    np.testing.assert_allclose(got["vectors"], vectors, rtol=2e-6, atol=2e-6)
