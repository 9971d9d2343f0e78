"""EGL_MESA_query_driver (py/egl_query_driver.py through glvnd's libEGL): the
name, the driconf XML the program frees, and the errors for no display and
after eglTerminate."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_driver_name_and_config(shimgl_env):
    res = run([sys.executable, PY_DIR / "egl_query_driver.py"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK"), res.stdout
    assert "name shimgl" in res.stdout
    assert "internal error" not in res.stderr
