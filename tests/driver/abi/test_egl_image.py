"""EGL images between two contexts of one display (EGL_KHR_image_base,
EGL_KHR_gl_texture_2D_image, EGL_KHR_gl_texture_cubemap_image,
EGL_KHR_gl_renderbuffer_image; GL_OES_EGL_image, GL_EXT_EGL_image_storage),
from a C program through the system's glvnd libEGL and libGLESv2
(tests/driver/abi/c/egl_image.c): a texture drawn in one context and sampled
through its image in another, rendering seen both ways, a renderbuffer cleared
through its sibling, a level-1 image and a cube map face image, the lifetimes
(source deleted and image destroyed while a sibling samples it; a respecified
sibling) and the errors of EGL 1.5 section 3.9.1 and the GL extensions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.driver.abi.conftest import run

pytestmark = pytest.mark.skipif(not Path("/usr/include/GLES3/gl31.h").exists(),
                                reason="needs the GLES headers")

EGL_EXTENSIONS = ("EGL_KHR_image_base", "EGL_KHR_gl_texture_2D_image", "EGL_KHR_gl_texture_cubemap_image",
                  "EGL_KHR_gl_renderbuffer_image", "EGL_MESA_configless_context", "EGL_KHR_wait_sync")


def test_images_shared_between_contexts(build_host, shimgl_env):
    exe = build_host("egl_image", "-lEGL", "-lGLESv2")
    res = run([exe], shimgl_env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 failures" in res.stdout
    egl_line = next(line for line in res.stdout.splitlines() if line.startswith("EGL extensions:"))
    gl_line = next(line for line in res.stdout.splitlines() if line.startswith("GL extensions:"))
    for ext in EGL_EXTENSIONS:
        assert ext in egl_line.split()
    for ext in ("GL_OES_EGL_image", "GL_EXT_EGL_image_storage"):
        assert ext in gl_line.split()
    assert "internal error" not in res.stderr
