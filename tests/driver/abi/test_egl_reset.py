"""EGL_EXT_create_context_robustness / EGL 1.5's reset notification attribute,
end to end through libEGL: the attribute is validated (EGL_BAD_ATTRIBUTE for an
unknown strategy, EGL_BAD_MATCH for a share context of another strategy), reaches
GL_RESET_NOTIFICATION_STRATEGY, and a runaway shader stopped by the watchdog
loses its LOSE_CONTEXT_ON_RESET context (GUILTY once, then CONTEXT_LOST) while
another context of the process renders on."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_a_reset_reaches_egl_contexts(shimgl_env):
    env = dict(shimgl_env, SHIMGL_GPU_TIMEOUT_MS="250")
    res = run([sys.executable, PY_DIR / "egl_reset.py"], env)
    assert res.returncode == 0, res.stdout + res.stderr
    out = res.stdout.splitlines()
    assert "extension True" in out
    assert "bad value error 0x3004" in out              # EGL_BAD_ATTRIBUTE
    assert "share mismatch error 0x3009" in out         # EGL_BAD_MATCH
    assert "strategy 0x8252" in out                     # GL_LOSE_CONTEXT_ON_RESET
    assert "status 0x8253 0x0" in out                   # GUILTY once, then NO_ERROR
    assert "lost error 0x507" in out                    # GL_CONTEXT_LOST
    assert "other status 0x0" in out
    assert "other pixel 0 255 0 255 error 0x0" in out
    assert out[-1] == "OK"
