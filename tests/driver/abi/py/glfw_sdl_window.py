"""A GL window opened by GLFW or SDL (the pip wheels `glfw` and `pysdl2` +
`pysdl2-dll`, which bundle their libraries), drawn through PyOpenGL, as a user's
program would: run with a virtual environment's Python that has them.

    python glfw_sdl_window.py glfw|sdl glx|egl

Opens a 64x48 window with a GL 3.3 core context (GLFW: NATIVE_CONTEXT_API =
GLX, or EGL_CONTEXT_API; SDL: its X11 GLX path, or SDL_VIDEO_X11_FORCE_EGL=1),
draws a triangle over a scissored clear, reads the back buffer, swaps twice.
Prints the renderer, the framebuffer size and three pixels:

  clear:  (255, 128, 64) at pixel (60, 40), outside the triangle (clear to (1, 0.5, 0.25))
  square: (0, 255, 0) at (5, 40), inside the scissored green 8x8 square at (2, 36)
  centre: the triangle (-1,-1) red, (1,-1) green, (0,1) blue at pixel (32, 24),
          centre (0.015625, 0.0208333) in NDC: weights 0.2369792, 0.2526042,
          0.5104167 -> (60, 64, 130)

Prints "skip: ..." and exits 0 when the library cannot open a window here."""

from __future__ import annotations

import ctypes
import os
import sys

lib, api = sys.argv[1], sys.argv[2]
os.environ["PYOPENGL_PLATFORM"] = "egl" if api == "egl" else "glx"
W, H = 64, 48

VS = """#version 330 core
layout(location = 0) in vec2 p; layout(location = 1) in vec3 c; out vec3 v;
void main() { v = c; gl_Position = vec4(p, 0.0, 1.0); }"""
FS = """#version 330 core
in vec3 v; out vec4 o; void main() { o = vec4(v, 1.0); }"""


def open_glfw():
    import glfw
    if not glfw.init():
        print("skip: glfw.init failed")
        sys.exit(0)
    glfw.window_hint(glfw.CONTEXT_CREATION_API,
                     glfw.EGL_CONTEXT_API if api == "egl" else glfw.NATIVE_CONTEXT_API)
    glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 3)
    glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
    glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
    glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, True)
    window = glfw.create_window(W, H, "shimgl", None, None)
    if not window:
        print("FAIL glfw.create_window")
        sys.exit(1)
    glfw.make_context_current(window)
    glfw.swap_interval(0)
    return (lambda: glfw.swap_buffers(window)), (lambda: glfw.get_framebuffer_size(window)), \
        (lambda: (glfw.destroy_window(window), glfw.terminate()))


def open_sdl():
    if api == "egl":
        os.environ["SDL_VIDEO_X11_FORCE_EGL"] = "1"
    import sdl2
    if sdl2.SDL_Init(sdl2.SDL_INIT_VIDEO) != 0:
        print("skip: SDL_Init failed:", sdl2.SDL_GetError())
        sys.exit(0)
    for attr, value in ((sdl2.SDL_GL_CONTEXT_MAJOR_VERSION, 3), (sdl2.SDL_GL_CONTEXT_MINOR_VERSION, 3),
                        (sdl2.SDL_GL_CONTEXT_PROFILE_MASK, sdl2.SDL_GL_CONTEXT_PROFILE_CORE),
                        (sdl2.SDL_GL_DOUBLEBUFFER, 1)):
        sdl2.SDL_GL_SetAttribute(attr, value)
    window = sdl2.SDL_CreateWindow(b"shimgl", 0, 0, W, H, sdl2.SDL_WINDOW_OPENGL)
    if not window:
        print("FAIL SDL_CreateWindow:", sdl2.SDL_GetError())
        sys.exit(1)
    context = sdl2.SDL_GL_CreateContext(window)
    if not context:
        print("FAIL SDL_GL_CreateContext:", sdl2.SDL_GetError())
        sys.exit(1)
    sdl2.SDL_GL_SetSwapInterval(0)

    def size():
        w, h = ctypes.c_int(), ctypes.c_int()
        sdl2.SDL_GL_GetDrawableSize(window, ctypes.byref(w), ctypes.byref(h))
        return w.value, h.value
    return (lambda: sdl2.SDL_GL_SwapWindow(window)), size, \
        (lambda: (sdl2.SDL_GL_DeleteContext(context), sdl2.SDL_DestroyWindow(window), sdl2.SDL_Quit()))


swap, size, close = (open_glfw if lib == "glfw" else open_sdl)()

import numpy as np                       # noqa: E402  (after the platform is chosen)
from OpenGL import GL                    # noqa: E402

print("renderer", GL.glGetString(GL.GL_RENDERER).decode())
print("size", *size())
prog = GL.glCreateProgram()
for kind, src in ((GL.GL_VERTEX_SHADER, VS), (GL.GL_FRAGMENT_SHADER, FS)):
    sh = GL.glCreateShader(kind)
    GL.glShaderSource(sh, src)
    GL.glCompileShader(sh)
    GL.glAttachShader(prog, sh)
GL.glLinkProgram(prog)
GL.glUseProgram(prog)
data = np.array([-1, -1, 1, 0, 0, 1, -1, 0, 1, 0, 0, 1, 0, 0, 1], np.float32)
vao = GL.glGenVertexArrays(1)
GL.glBindVertexArray(vao)
vbo = GL.glGenBuffers(1)
GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
GL.glBufferData(GL.GL_ARRAY_BUFFER, data.nbytes, data, GL.GL_STATIC_DRAW)
GL.glVertexAttribPointer(0, 2, GL.GL_FLOAT, False, 20, ctypes.c_void_p(0))
GL.glVertexAttribPointer(1, 3, GL.GL_FLOAT, False, 20, ctypes.c_void_p(8))
GL.glEnableVertexAttribArray(0)
GL.glEnableVertexAttribArray(1)
for frame in range(2):
    GL.glViewport(0, 0, W, H)
    GL.glClearColor(1.0, 0.5, 0.25, 1.0)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    GL.glEnable(GL.GL_SCISSOR_TEST)
    GL.glScissor(2, 36, 8, 8)
    GL.glClearColor(0.0, 1.0, 0.0, 1.0)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    GL.glDisable(GL.GL_SCISSOR_TEST)
    GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3)
    raw = GL.glReadPixels(0, 0, W, H, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE)
    px = np.frombuffer(raw, np.uint8).reshape(H, W, 4)
    swap()
print("clear", *px[40, 60, :3])
print("square", *px[40, 5, :3])
print("centre", *px[24, 32, :3])
print("error", GL.glGetError())
close()
