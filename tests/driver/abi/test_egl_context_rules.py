"""EGL_KHR_create_context's profile-mask and flag rules (py/egl_context_attribute_rules.py,
through glvnd's libEGL): what piglit's egl_khr_create_context tests check."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_profile_mask_and_flag_rules(shimgl_env):
    res = run([sys.executable, PY_DIR / "egl_context_attribute_rules.py"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK"), res.stdout
    assert "internal error" not in res.stderr
