"""An OpenGL ES 1.1 context from C through the system's glvnd libEGL and
libGLESv1_CM: EGL_OPENGL_ES_BIT configs, EGL_CONTEXT_CLIENT_VERSION 1, the
fixed-point commands and GL_FIXED arrays drawn and read back against
hand-computed colours (tests/driver/abi/c/gles1_egl.c)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.driver.abi.conftest import run

pytestmark = pytest.mark.skipif(not Path("/usr/include/GLES/gl.h").exists(),
                                reason="needs the GLES 1 headers (libglvnd-dev)")


def test_gles1_context_through_glvnd(build_host, shimgl_env):
    exe = build_host("gles1_egl", "-lEGL", "-lGLESv1_CM")
    res = run([exe], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "GL_VERSION OpenGL ES-CM 1.1 shimgl" in res.stdout
    assert "0 failures" in res.stdout
    assert "internal error" not in res.stderr
