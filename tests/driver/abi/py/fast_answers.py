"""glGetError, glFinish and glFlush answered by the library without Python
(driver/abi/build.py FAST_ANSWERS) give what the front end would: errors recorded
in Python, by a failing command, by the marshalling and between glBegin and glEnd
reach glGetError through C; a KHR_no_error context reports none; a glFinish after
new work waits for it. The script counts the calls that reach the front end by
putting counting methods on the current context.

    python fast_answers.py [no-error]

Prints one line per check and "OK"."""

import ctypes
import sys

egl = ctypes.CDLL("libEGL.so.1")
vp = ctypes.c_void_p
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", ctypes.c_uint, [vp, vp, vp]),
                        ("eglChooseConfig", ctypes.c_uint, [vp, vp, vp, ctypes.c_int, vp]),
                        ("eglCreatePbufferSurface", vp, [vp, vp, vp]),
                        ("eglBindAPI", ctypes.c_uint, [ctypes.c_uint]),
                        ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglMakeCurrent", ctypes.c_uint, [vp, vp, vp, vp]),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args

dpy = egl.eglGetDisplay(None)
assert egl.eglInitialize(dpy, None, None)
EGLint = ctypes.c_int
cfg, n = vp(), EGLint()
attrs = (EGLint * 5)(0x3033, 0x0001, 0x3040, 0x0008, 0x3038)          # PBUFFER_BIT, OPENGL_BIT
assert egl.eglChooseConfig(dpy, attrs, ctypes.byref(cfg), 1, ctypes.byref(n)) and n.value
surf = egl.eglCreatePbufferSurface(dpy, cfg, (EGLint * 5)(0x3057, 4, 0x3056, 4, 0x3038))
egl.eglBindAPI(0x30A2)                                                  # EGL_OPENGL_API
# a 2.1 context (the compatibility profile: glBegin); no-error: EGL_CONTEXT_OPENGL_NO_ERROR_KHR
ctx_attrs = [0x3098, 2, 0x30FB, 1]
if "no-error" in sys.argv:
    ctx_attrs += [0x31B3, 1]
ctx = egl.eglCreateContext(dpy, cfg, None, (EGLint * (len(ctx_attrs) + 1))(*ctx_attrs, 0x3038))
assert ctx and egl.eglMakeCurrent(dpy, surf, surf, ctx)


def gl(name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(egl.eglGetProcAddress(name.encode()))


glGetError = gl("glGetError", ctypes.c_uint)
glFinish = gl("glFinish", None)
glFlush = gl("glFlush", None)
glClearColor = gl("glClearColor", None, *[ctypes.c_float] * 4)
glClear = gl("glClear", None, ctypes.c_uint)
glEnable = gl("glEnable", None, ctypes.c_uint)
glBegin = gl("glBegin", None, ctypes.c_uint)
glEnd = gl("glEnd", None)
glGenBuffers = gl("glGenBuffers", None, ctypes.c_int, vp)
glReadPixels = gl("glReadPixels", None, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                  ctypes.c_uint, vp)
glGetError()        # the first calls start the library and bind the commands
glFinish()
glFlush()

# shimgl runs in this interpreter: the current context's front end, with counting methods
from driver.abi.state import current       # noqa: E402
from driver.gl import enums as E            # noqa: E402
from driver.gl.errors import GLError        # noqa: E402

g = current.gl
reached = {"glGetError": 0, "glFinish": 0, "glFlush": 0}


def counting(name):
    def count(*args):
        reached[name] += 1
        return getattr(type(g), name)(g, *args)     # the class's: glBegin changes the dispatch
    setattr(g, name, count)


for name in reached:
    counting(name)


def calls():
    got = dict(reached)
    for k in reached:
        reached[k] = 0
    return got["glGetError"], got["glFinish"], got["glFlush"]


print("fresh", hex(glGetError()), glGetError(), calls())
g.record_error(GLError(E.GL_INVALID_VALUE, "set in Python"))
print("set in python", hex(glGetError()), hex(glGetError()), calls())
glEnable(0xFFFF)
print("failing command", hex(glGetError()), hex(glGetError()), calls())
glGenBuffers(-1, None)
print("negative count", hex(glGetError()), calls())
glBegin(0x0004)                                                         # GL_TRIANGLES
print("inside begin", hex(glGetError()), calls())
glEnd()
print("after end", hex(glGetError()), hex(glGetError()), calls())
glClearColor(0.0, 1.0, 0.0, 1.0)
glClear(0x4000)
glFinish()
glFinish()
glFlush()
print("finish after clear", calls())
px = (ctypes.c_ubyte * 64)()
glReadPixels(0, 0, 4, 4, 0x1908, 0x1401, px)
glFinish()
print("finish after read", calls(), list(px[:4]))
glClearColor(0.0, 0.0, 1.0, 1.0)
glClear(0x4000)
glFlush()
glFinish()
glReadPixels(0, 0, 4, 4, 0x1908, 0x1401, px)
print("finish after a second clear", calls(), list(px[:4]))
glBegin(0x0004)
glFinish()
glEnd()
print("finish inside begin", hex(glGetError()), calls())
print("OK")
