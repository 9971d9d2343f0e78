"""Shared pytest set-up: skips for optional tools, with a clear reason."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests must not be flaky on a loaded 2-core machine: no per-example
# deadline, and in CI a fixed sequence of examples (reproducible failures).
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The suite never writes into the user's cache (~/.cache/shimgl): the shader and
# native-code caches of this test process (and of the programs it starts) go to a
# folder of its own, removed at exit; or, when SHIMGL_TEST_CACHE_DIR names one, to
# that folder, kept between runs (`make test` uses build/test-cache): the entries
# are keyed by the compiler's sources and the C code, so a warm folder only saves
# recompiling what has not changed, as Mesa's disk cache does.
if os.environ.get("SHIMGL_TEST_CACHE_DIR"):
    _CACHE_DIR = os.environ["SHIMGL_TEST_CACHE_DIR"]
    os.makedirs(_CACHE_DIR, exist_ok=True)
else:
    _CACHE_DIR = tempfile.mkdtemp(prefix="shimgl-test-cache-")
    atexit.register(shutil.rmtree, _CACHE_DIR, ignore_errors=True)
os.environ["SHIMGL_SHADER_CACHE_DIR"] = _CACHE_DIR

PIGLIT_BIN_DIRS = [Path("/usr/lib/piglit/bin"), Path("/usr/lib/x86_64-linux-gnu/piglit/bin")]


def piglit_bin_dir() -> Path | None:
    """Where Debian's piglit test binaries are, or None when piglit is not installed."""
    for d in PIGLIT_BIN_DIRS:
        if (d / "shader_runner").exists():
            return d
    return None


def llvmpipe_available() -> bool:
    """True when Mesa's EGL (glvnd vendor) with llvmpipe is installed."""
    return Path("/usr/share/glvnd/egl_vendor.d/50_mesa.json").exists() and any(
        Path(p).exists() for p in ("/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so",
                                   "/usr/lib/x86_64-linux-gnu/dri/kms_swrast_dri.so")
    )


def pytest_collection_modifyitems(config, items):
    skip_piglit = None if piglit_bin_dir() else pytest.mark.skip(
        reason="needs Debian's piglit package (make optional-deps installs it)")
    skip_mesa = None if llvmpipe_available() else pytest.mark.skip(
        reason="needs Mesa's llvmpipe (libegl-mesa0, libgl1-mesa-dri) as a reference renderer")
    for item in items:
        if skip_piglit and "piglit" in item.keywords:
            item.add_marker(skip_piglit)
        if skip_mesa and "mesa" in item.keywords:
            item.add_marker(skip_mesa)


@pytest.fixture
def tool():
    """Look up an executable on PATH or skip the test with the reason."""
    def find(name: str) -> str:
        path = shutil.which(name)
        if path is None:
            pytest.skip(f"needs the '{name}' program")
        return path
    return find
