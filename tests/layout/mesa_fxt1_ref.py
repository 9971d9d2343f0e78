"""Decode FXT1 blocks with Mesa's llvmpipe (PyOpenGL, EGL surfaceless): the
independent reference of tests/layout/test_fxt1.py. Reads blocks (16 bytes each,
one row of 8 x 4 blocks) on stdin, uploads them with glCompressedTexImage2D as
COMPRESSED_RGB_FXT1_3DFX and COMPRESSED_RGBA_FXT1_3DFX and writes both images
read back with glGetTexImage (RGBA8, row 0 first) on stdout.

Usage: python mesa_fxt1_ref.py < blocks > pixels"""

import ctypes
import os
import sys

os.environ["__EGL_VENDOR_LIBRARY_FILENAMES"] = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
os.environ["LIBGL_ALWAYS_SOFTWARE"] = "1"
os.environ["PYOPENGL_PLATFORM"] = "egl"
os.environ["EGL_PLATFORM"] = "surfaceless"

COMPRESSED_RGB_FXT1_3DFX, COMPRESSED_RGBA_FXT1_3DFX = 0x86B0, 0x86B1


def main():
    import numpy as np
    from OpenGL import EGL, GL
    dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
    EGL.eglInitialize(dpy, None, None)
    cfg, n = EGL.EGLConfig(), EGL.EGLint()
    attrs = (EGL.EGLint * 5)(EGL.EGL_RENDERABLE_TYPE, EGL.EGL_OPENGL_BIT, EGL.EGL_SURFACE_TYPE,
                             EGL.EGL_PBUFFER_BIT, EGL.EGL_NONE)
    EGL.eglChooseConfig(dpy, attrs, ctypes.pointer(cfg), 1, ctypes.pointer(n))
    EGL.eglBindAPI(EGL.EGL_OPENGL_API)
    ctx = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT, None)
    assert EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, ctx)
    blocks = np.frombuffer(sys.stdin.buffer.read(), np.uint8).reshape(-1, 16)
    for fmt in (COMPRESSED_RGB_FXT1_3DFX, COMPRESSED_RGBA_FXT1_3DFX):
        GL.glBindTexture(GL.GL_TEXTURE_2D, GL.glGenTextures(1))
        GL.glCompressedTexImage2D(GL.GL_TEXTURE_2D, 0, fmt, 8 * blocks.shape[0], 4, 0, blocks.tobytes())
        assert GL.glGetError() == GL.GL_NO_ERROR
        px = GL.glGetTexImage(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE)
        sys.stdout.buffer.write(bytes(px))


if __name__ == "__main__":
    main()
