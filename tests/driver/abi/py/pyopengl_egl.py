"""PyOpenGL on shimgl through EGL (run with PYOPENGL_PLATFORM=egl and the
environment of `shimgl env`): a GLES 3 context on a surfaceless display, a
shader program drawing a triangle, read back with PyOpenGL's glReadPixels."""

import sys

import numpy as np
from OpenGL import EGL, GLES3 as GL
import ctypes

dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)   # glvnd asks the vendor (platform EGL_NONE)
major, minor = EGL.EGLint(), EGL.EGLint()
assert EGL.eglInitialize(dpy, ctypes.pointer(major), ctypes.pointer(minor))
print("EGL", major.value, minor.value, EGL.eglQueryString(dpy, EGL.EGL_VENDOR))
cfg = EGL.EGLConfig()
n = EGL.EGLint()
attrs = (EGL.EGLint * 5)(EGL.EGL_SURFACE_TYPE, EGL.EGL_PBUFFER_BIT, EGL.EGL_RENDERABLE_TYPE,
                         EGL.EGL_OPENGL_ES3_BIT, EGL.EGL_NONE)
assert EGL.eglChooseConfig(dpy, attrs, ctypes.pointer(cfg), 1, ctypes.pointer(n)) and n.value == 1
surf = EGL.eglCreatePbufferSurface(dpy, cfg, (EGL.EGLint * 5)(EGL.EGL_WIDTH, 64, EGL.EGL_HEIGHT,
                                                              64, EGL.EGL_NONE))
EGL.eglBindAPI(EGL.EGL_OPENGL_ES_API)
ctx = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT,
                           (EGL.EGLint * 3)(EGL.EGL_CONTEXT_MAJOR_VERSION, 3, EGL.EGL_NONE))
assert EGL.eglMakeCurrent(dpy, surf, surf, ctx)
print(ctypes.string_at(GL.glGetString.wrappedOperation(GL.GL_VERSION)
      if hasattr(GL.glGetString, "wrappedOperation") else GL.glGetString(GL.GL_VERSION)))

VS = """#version 300 es
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 300 es
precision mediump float;
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }"""


def shader(kind, src):
    s = GL.glCreateShader(kind)
    GL.glShaderSource(s, src)
    GL.glCompileShader(s)
    assert GL.glGetShaderiv(s, GL.GL_COMPILE_STATUS), GL.glGetShaderInfoLog(s)
    return s


prog = GL.glCreateProgram()
GL.glAttachShader(prog, shader(GL.GL_VERTEX_SHADER, VS))
GL.glAttachShader(prog, shader(GL.GL_FRAGMENT_SHADER, FS))
GL.glBindAttribLocation(prog, 0, "pos")
GL.glLinkProgram(prog)
assert GL.glGetProgramiv(prog, GL.GL_LINK_STATUS), GL.glGetProgramInfoLog(prog)
GL.glUseProgram(prog)
GL.glUniform4f(GL.glGetUniformLocation(prog, "color"), 0.0, 1.0, 0.0, 1.0)
vbo = GL.glGenBuffers(1)
GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
verts = np.array([-1, -1, 1, -1, -1, 1], np.float32)    # lower-left half
GL.glBufferData(GL.GL_ARRAY_BUFFER, verts.nbytes, verts, GL.GL_STATIC_DRAW)
GL.glVertexAttribPointer(0, 2, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
GL.glEnableVertexAttribArray(0)
GL.glClearColor(0.0, 0.0, 1.0, 1.0)
GL.glClear(GL.GL_COLOR_BUFFER_BIT)
GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3)
img = np.zeros((64, 64, 4), np.uint8)
GL.glReadPixels(0, 0, 64, 64, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, img)
print("corner", img[2, 2].tolist(), "opposite", img[61, 61].tolist())
assert img[2, 2].tolist() == [0, 255, 0, 255], img[2, 2]
assert img[61, 61].tolist() == [0, 0, 255, 255], img[61, 61]
assert GL.glGetError() == GL.GL_NO_ERROR
EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
EGL.eglTerminate(dpy)
print("OK")
sys.exit(0)
