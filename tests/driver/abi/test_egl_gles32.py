"""A GLES 3.2 context made through libEGL (EGL_CONTEXT_MINOR_VERSION 2) draws with a
GLSL ES 3.20 geometry shader (tests/driver/abi/py/egl_gles32_geometry.py)."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_gles32_context_and_a_geometry_shader_through_egl(shimgl_env):
    res = run([sys.executable, PY_DIR / "egl_gles32_geometry.py"], dict(shimgl_env))
    assert res.returncode == 0, res.stdout + res.stderr
    out = res.stdout.splitlines()
    assert out[0].startswith("version OpenGL ES 3.2 shimgl")
    assert "left 0 255 0 255" in out and "right 0 0 255 255" in out and out[-1] == "OK"
