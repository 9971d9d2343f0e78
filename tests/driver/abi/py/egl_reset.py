"""EGL_EXT_create_context_robustness through libEGL (ctypes only): the reset
notification attribute is checked and reaches GL; a runaway shader (run with a
short SHIMGL_GPU_TIMEOUT_MS) loses the LOSE_CONTEXT_ON_RESET context while a
second context of the process keeps rendering.

Prints one line per check ("name value") and "OK", or "FAIL ..." and exits 1."""

import ctypes
import sys

egl = ctypes.CDLL("libEGL.so.1")
vp, uint, c_int = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", uint, [vp, vp, vp]),
                        ("eglChooseConfig", uint, [vp, vp, vp, c_int, vp]),
                        ("eglCreatePbufferSurface", vp, [vp, vp, vp]),
                        ("eglBindAPI", uint, [uint]), ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglMakeCurrent", uint, [vp, vp, vp, vp]), ("eglGetError", c_int, []),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p]),
                        ("eglQueryString", ctypes.c_char_p, [vp, c_int])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args

EGL_NONE, EGL_SUCCESS, EGL_BAD_ATTRIBUTE, EGL_BAD_MATCH = 0x3038, 0x3000, 0x3004, 0x3009
EGL_CONTEXT_MAJOR_VERSION = 0x3098
STRATEGY_EXT, STRATEGY_15 = 0x3138, 0x31BD           # ..._RESET_NOTIFICATION_STRATEGY(_EXT)
LOSE, NO_NOTIFY = 0x31BF, 0x31BE
GL_RESET_NOTIFICATION_STRATEGY, GL_LOSE_CONTEXT_ON_RESET = 0x8256, 0x8252
GL_GUILTY, GL_CONTEXT_LOST = 0x8253, 0x0507


def check(cond, what):
    if not cond:
        print(f"FAIL {what} (EGL error {egl.eglGetError():#x})")
        sys.exit(1)


def attribs(*pairs):
    flat = [v for p in pairs for v in p] + [EGL_NONE]
    return (c_int * len(flat))(*flat)


dpy = egl.eglGetDisplay(None)
check(dpy and egl.eglInitialize(dpy, None, None), "eglInitialize")
print("extension", "EGL_EXT_create_context_robustness" in egl.eglQueryString(dpy, 0x3055).decode())
cfg, n = vp(), c_int()
check(egl.eglChooseConfig(dpy, attribs((0x3033, 0x0001), (0x3040, 0x0040)), ctypes.byref(cfg), 1,
                          ctypes.byref(n)) and n.value == 1, "eglChooseConfig")      # PBUFFER, ES3
egl.eglBindAPI(0x30A0)                                                               # OpenGL ES
es3 = (EGL_CONTEXT_MAJOR_VERSION, 3)

check(not egl.eglCreateContext(dpy, cfg, None, attribs(es3, (STRATEGY_EXT, 0x1234))), "bad value")
print("bad value error", hex(egl.eglGetError()))
lose = egl.eglCreateContext(dpy, cfg, None, attribs(es3, (STRATEGY_EXT, LOSE)))
plain = egl.eglCreateContext(dpy, cfg, None, attribs(es3, (STRATEGY_15, NO_NOTIFY)))
check(lose and plain, "eglCreateContext")
check(not egl.eglCreateContext(dpy, cfg, lose, attribs(es3)), "share with another strategy")
print("share mismatch error", hex(egl.eglGetError()))
surf = egl.eglCreatePbufferSurface(dpy, cfg, attribs((0x3057, 4), (0x3056, 4)))
check(surf, "pbuffer")


def gl(name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(egl.eglGetProcAddress(name.encode()))


glGetIntegerv = gl("glGetIntegerv", None, uint, vp)
glGetError = gl("glGetError", uint)
glStatus = gl("glGetGraphicsResetStatusEXT", uint)
glCreateShader = gl("glCreateShader", uint, uint)
glShaderSource = gl("glShaderSource", None, uint, c_int, vp, vp)
glCompileShader = gl("glCompileShader", None, uint)
glCreateProgram = gl("glCreateProgram", uint)
glAttachShader = gl("glAttachShader", None, uint, uint)
glLinkProgram = gl("glLinkProgram", None, uint)
glUseProgram = gl("glUseProgram", None, uint)
glDrawArrays = gl("glDrawArrays", None, uint, c_int, c_int)
glFinish = gl("glFinish", None)
glClearColor = gl("glClearColor", None, *[ctypes.c_float] * 4)
glClear = gl("glClear", None, uint)
glReadPixels = gl("glReadPixels", None, c_int, c_int, c_int, c_int, uint, uint, vp)

VS = b"""#version 300 es
void main() { gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }"""
FS = b"""#version 300 es
precision highp float; uniform float stop; out vec4 color;
void main() { float a = 0.0; while (stop > -1.0) { a += stop; } color = vec4(a); }"""


def program(vs, fs):
    prog = glCreateProgram()
    for kind, src in ((0x8B31, vs), (0x8B30, fs)):
        sh = glCreateShader(kind)
        text = ctypes.c_char_p(src)
        glShaderSource(sh, 1, ctypes.cast(ctypes.pointer(text), vp), None)
        glCompileShader(sh)
        glAttachShader(prog, sh)
    glLinkProgram(prog)
    return prog


value = (c_int * 4)()
check(egl.eglMakeCurrent(dpy, surf, surf, lose), "make current")
glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, value)
print("strategy", hex(value[0]))
glUseProgram(program(VS, FS))
glDrawArrays(0x0004, 0, 3)
glFinish()                                       # returns once the watchdog stopped the draw
print("status", hex(glStatus()), hex(glStatus()))
glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, value)
print("lost error", hex(glGetError()))

check(egl.eglMakeCurrent(dpy, surf, surf, plain), "make the other context current")
print("other status", hex(glStatus()))
glClearColor(0.0, 1.0, 0.0, 1.0)
glClear(0x4000)
px = (ctypes.c_ubyte * 64)()
glReadPixels(0, 0, 4, 4, 0x1908, 0x1401, px)
print("other pixel", *px[:4], "error", hex(glGetError()))
print("OK")
