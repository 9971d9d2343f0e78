"""EGL_KHR_reusable_sync (a wait released by another thread's signal),
EGL_KHR_context_flush_control (GL_CONTEXT_RELEASE_BEHAVIOR),
EGL_EXT_pixel_format_float, EGL_KHR_config_attribs and a configless context's
draw and read surfaces of one config, releasing a context after eglTerminate
(py/egl_sync_config.py, through glvnd's libEGL)."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_reusable_syncs_release_behaviour_and_config_attributes(shimgl_env):
    res = run([sys.executable, PY_DIR / "egl_sync_config.py"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK"), res.stdout
    assert "internal error" not in res.stderr
