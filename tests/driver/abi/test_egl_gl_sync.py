"""GL_EXT_EGL_sync and GL_OES_EGL_sync: EGL fence syncs in desktop GL (both profiles)
and GLES contexts (py/egl_gl_sync.py, through glvnd's libEGL; Mesa 22.3's llvmpipe
runs the same script to OK)."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_egl_fence_syncs_in_gl_and_gles_contexts(shimgl_env):
    res = run([sys.executable, PY_DIR / "egl_gl_sync.py"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK"), res.stdout
    assert "internal error" not in res.stderr
