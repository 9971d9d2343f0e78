"""Render one of scenes.py through PyOpenGL (EGL surfaceless, desktop GL
compatibility context) and print its pixels: with Mesa's llvmpipe it is the
independent reference of the `mesa` legacy tests; with VENDOR=shimgl (and
the environment of `shimgl env`) it runs the same program through shimgl's
C ABI.

Usage: python mesa_legacy_ref.py SCENE WIDTH HEIGHT [mesa|shimgl] > pixels
(raw RGBA8, row 0 at the bottom; JSON of the values a program returns,
for the selection and feedback programs)."""

import ctypes
import os
import sys

if sys.argv[4:5] != ["shimgl"]:
    os.environ["__EGL_VENDOR_LIBRARY_FILENAMES"] = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
    os.environ["LIBGL_ALWAYS_SOFTWARE"] = "1"
os.environ["PYOPENGL_PLATFORM"] = "egl"
os.environ["EGL_PLATFORM"] = "surfaceless"
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


class _CNames:
    """PyOpenGL's GL module with the C signatures where its wrappers differ
    (glMap1/glMap2 infer strides and orders from the array; glSelectBuffer,
    glFeedbackBuffer and glRenderMode parse the records themselves, the C
    ones fill the caller's array and return the count)."""

    def __init__(self, gl):
        from OpenGL.raw.GL.VERSION import GL_1_0
        self._gl, self._raw = gl, GL_1_0

    def __getattr__(self, name):
        if name in ("glMap1f", "glMap2f", "glMap1d", "glMap2d", "glSelectBuffer", "glFeedbackBuffer",
                    "glRenderMode"):
            return getattr(self._raw, name)
        return getattr(self._gl, name)


def main():
    import numpy as np
    from OpenGL import EGL
    from OpenGL import GL
    from tests.driver.gl.legacy.features import FEATURES, RECORD_PROGRAMS
    from tests.driver.gl.legacy.scenes import SCENES
    name, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
    EGL.eglInitialize(dpy, None, None)
    cfg, n = EGL.EGLConfig(), EGL.EGLint()
    attrs = (EGL.EGLint * 5)(EGL.EGL_RENDERABLE_TYPE, EGL.EGL_OPENGL_BIT, EGL.EGL_SURFACE_TYPE,
                             EGL.EGL_PBUFFER_BIT, EGL.EGL_NONE)
    EGL.eglChooseConfig(dpy, attrs, ctypes.pointer(cfg), 1, ctypes.pointer(n))
    EGL.eglBindAPI(EGL.EGL_OPENGL_API)
    ctx = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT, None)
    assert EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, ctx)
    fbo = GL.glGenFramebuffers(1)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo)
    rb = GL.glGenRenderbuffers(2)
    GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb[0])
    GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, w, h)
    GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, rb[0])
    GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb[1])
    GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_DEPTH24_STENCIL8, w, h)
    GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_DEPTH_STENCIL_ATTACHMENT, GL.GL_RENDERBUFFER, rb[1])
    records = {**SCENES, **FEATURES, **RECORD_PROGRAMS}[name](_CNames(GL), w, h)
    if name in RECORD_PROGRAMS:      # a program that returns values (selection, feedback)
        import json
        sys.stdout.write(json.dumps(records))
        return
    px = GL.glReadPixels(0, 0, w, h, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE)
    sys.stdout.buffer.write(np.frombuffer(bytes(px), np.uint8).tobytes())


if __name__ == "__main__":
    main()
