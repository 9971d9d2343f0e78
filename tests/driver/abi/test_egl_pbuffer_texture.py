"""eglBindTexImage/eglReleaseTexImage with pbuffers and EGL_KHR_gl_colorspace
(py/egl_pbuffer_texture.py, through glvnd's libEGL): a pbuffer drawn into and
sampled as a texture, its release, the RGB format's alpha, the errors of EGL
1.5 sections 3.5.2 and 3.6.1, and an sRGB pbuffer's encoded clear."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, run


def test_pbuffer_textures_and_colorspace(shimgl_env):
    res = run([sys.executable, PY_DIR / "egl_pbuffer_texture.py"], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK"), res.stdout
    assert "internal error" not in res.stderr
