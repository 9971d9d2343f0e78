"""PyOpenGL programs run unchanged on shimgl: PYOPENGL_PLATFORM=egl (glvnd
dispatching to shimgl's vendor library) and PYOPENGL_PLATFORM=osmesa
(libOSMesa.so.8 found through LD_LIBRARY_PATH), in a fresh process each, where
the library's Python is the script's own interpreter."""

from __future__ import annotations

import sys

import pytest

from tests.driver.abi.conftest import PY_DIR, run


@pytest.mark.parametrize("platform", ["egl", "osmesa"])
def test_pyopengl_platform(platform, shimgl_env):
    env = dict(shimgl_env, PYOPENGL_PLATFORM=platform)
    res = run([sys.executable, PY_DIR / f"pyopengl_{platform}.py"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert "internal error" not in res.stderr


@pytest.mark.parametrize("script, platform", [("pyopengl_egl_share", "egl"),
                                              ("pyopengl_osmesa_buffers", "osmesa")])
def test_pyopengl_scenario(script, platform, shimgl_env):
    """pyopengl_egl_share: shared EGL contexts, each current in its own
    thread; pyopengl_osmesa_buffers: OSMesaGetDepthBuffer (16/24/32 bits),
    OSMesaGetColorBuffer, OSMesaPixelStore and an OSMesa sharelist."""
    env = dict(shimgl_env, PYOPENGL_PLATFORM=platform)
    res = run([sys.executable, PY_DIR / f"{script}.py"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert "internal error" not in res.stderr


@pytest.mark.parametrize("platform", ["", "device"])
def test_egl_as_applications_probe_it(platform, shimgl_env):
    """Devices (EXT_device_base, platform_device, MESA_device_software), no-error
    contexts, KHR fence syncs dispatched by glvnd, context switches on one
    surface (EGL_BAD_ACCESS only across threads), EGL_PLATFORM."""
    env = dict(shimgl_env, EGL_PLATFORM=platform)
    res = run([sys.executable, PY_DIR / "egl_probe.py"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("0 failures")
    assert "internal error" not in res.stderr


def test_multisampled_egl_config(shimgl_env):
    """EGL_SAMPLES 4 configs: a pbuffer drawn with 4 samples (GL_SAMPLES), read,
    copied and blitted resolved (py/egl_multisample.py: coverage against the
    triangle's area)."""
    env = dict(shimgl_env, PYOPENGL_PLATFORM="egl")
    res = run([sys.executable, PY_DIR / "egl_multisample.py"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert "internal error" not in res.stderr
