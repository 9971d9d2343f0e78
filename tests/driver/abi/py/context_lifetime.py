"""Create, make current, draw with and destroy contexts over and over through the C
ABI (libEGL through glvnd, and libOSMesa), counting the process's threads and the
mock kernel's queues: destroying a context must give its queue and the kernel's
threads behind it back. Run by our own interpreter, so the library's Python is this
one and `drmshim.default_kernel()` is the kernel it uses.

    python context_lifetime.py ROUNDS

Prints "egl THREADS QUEUES ..." and "osmesa THREADS QUEUES ..." (after every 50
rounds), "deferred QUEUES_BEFORE AFTER_DESTROY AFTER_RELEASE" (eglDestroyContext of
the current context waits until it is released, EGL 1.5 section 3.7.2); with an X
display (DISPLAY), the same for GLX on a window ("glx ...", "glx-deferred ...",
glXDestroyContext of a current context waits too, GLX 1.4 section 3.3.7); then "OK";
"FAIL ..." and exit 1 otherwise."""

import ctypes
import os
import sys
import threading

rounds = int(sys.argv[1])
vp, uint, c_int = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
egl = ctypes.CDLL("libEGL.so.1")
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", uint, [vp, vp, vp]),
                        ("eglChooseConfig", uint, [vp, vp, vp, c_int, vp]),
                        ("eglCreatePbufferSurface", vp, [vp, vp, vp]),
                        ("eglDestroySurface", uint, [vp, vp]), ("eglDestroyContext", uint, [vp, vp]),
                        ("eglBindAPI", uint, [uint]), ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglMakeCurrent", uint, [vp, vp, vp, vp]), ("eglGetError", c_int, []),
                        ("eglGetCurrentContext", vp, []), ("eglGetProcAddress", vp, [ctypes.c_char_p])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args


def check(cond, what):
    if not cond:
        print(f"FAIL {what} (EGL error {egl.eglGetError():#x})")
        sys.exit(1)


def attribs(*pairs):
    flat = [v for p in pairs for v in p] + [0x3038]
    return (c_int * len(flat))(*flat)


def queues() -> int:
    import drmshim
    return sum(len(f.queues.items) for f in list(drmshim.default_kernel().files))


dpy = egl.eglGetDisplay(None)
check(egl.eglInitialize(dpy, None, None), "eglInitialize")
cfg, n = vp(), c_int()
check(egl.eglChooseConfig(dpy, attribs((0x3033, 0x0001), (0x3040, 0x0040)), ctypes.byref(cfg), 1,
                          ctypes.byref(n)) and n.value == 1, "eglChooseConfig")
egl.eglBindAPI(0x30A0)
surf = egl.eglCreatePbufferSurface(dpy, cfg, attribs((0x3057, 8), (0x3056, 8)))
check(surf, "eglCreatePbufferSurface")
gl_clear = gl_finish = gl_error = None


def draw():
    global gl_clear, gl_finish, gl_error
    if gl_clear is None:
        gl_clear = ctypes.CFUNCTYPE(None, uint)(egl.eglGetProcAddress(b"glClear"))
        gl_finish = ctypes.CFUNCTYPE(None)(egl.eglGetProcAddress(b"glFinish"))
        gl_error = ctypes.CFUNCTYPE(uint)(egl.eglGetProcAddress(b"glGetError"))
    gl_clear(0x4000)
    gl_finish()
    check(gl_error() == 0, "glClear")


line = ["egl"]
for r in range(rounds):
    ctx = egl.eglCreateContext(dpy, cfg, None, attribs((0x3098, 3)))
    check(ctx and egl.eglMakeCurrent(dpy, surf, surf, ctx), "context")
    draw()
    check(egl.eglMakeCurrent(dpy, None, None, None), "release")
    check(egl.eglDestroyContext(dpy, ctx), "eglDestroyContext")
    if r % 50 == 49:
        line += [threading.active_count(), queues()]
print(*line)

# destroying the current context: deferred until it is released
ctx = egl.eglCreateContext(dpy, cfg, None, attribs((0x3098, 3)))
check(ctx and egl.eglMakeCurrent(dpy, surf, surf, ctx), "context")
before = queues()
check(egl.eglDestroyContext(dpy, ctx), "eglDestroyContext of the current context")
check(egl.eglGetCurrentContext() == ctx, "still current after eglDestroyContext")
draw()                                        # still usable while current
after_destroy = queues()
check(egl.eglMakeCurrent(dpy, None, None, None), "release")
print("deferred", before, after_destroy, queues())
check(not egl.eglMakeCurrent(dpy, surf, surf, ctx) and egl.eglGetError() == 0x3006,
      "a destroyed and released context is EGL_BAD_CONTEXT")
egl.eglDestroySurface(dpy, surf)

osmesa = ctypes.CDLL("libOSMesa.so.8")
osmesa.OSMesaCreateContextExt.restype = vp
osmesa.OSMesaCreateContextExt.argtypes = [uint, c_int, c_int, c_int, vp]
osmesa.OSMesaMakeCurrent.restype = uint
osmesa.OSMesaMakeCurrent.argtypes = [vp, vp, uint, c_int, c_int]
osmesa.OSMesaDestroyContext.argtypes = [vp]
osmesa.OSMesaGetProcAddress.restype = vp
osmesa.OSMesaGetProcAddress.argtypes = [ctypes.c_char_p]
buf = (ctypes.c_ubyte * (8 * 8 * 4))()
line = ["osmesa"]
for r in range(rounds):
    ctx = osmesa.OSMesaCreateContextExt(0x1908, 24, 0, 0, None)         # OSMESA_RGBA
    check(ctx and osmesa.OSMesaMakeCurrent(ctx, buf, 0x1401, 8, 8), "OSMesa context")
    ctypes.CFUNCTYPE(None, uint)(osmesa.OSMesaGetProcAddress(b"glClear"))(0x4000)
    ctypes.CFUNCTYPE(None)(osmesa.OSMesaGetProcAddress(b"glFinish"))()
    osmesa.OSMesaDestroyContext(ctx)
    if r % 50 == 49:
        line += [threading.active_count(), queues()]
print(*line)

if os.environ.get("DISPLAY"):                 # GLX (glvnd's libGL) on the X server, when there is one
    X = ctypes.CDLL("libX11.so.6")
    ul = ctypes.c_ulong
    for name, res, args in (("XOpenDisplay", vp, [ctypes.c_char_p]), ("XDefaultScreen", c_int, [vp]),
                            ("XRootWindow", ul, [vp, c_int]),
                            ("XCreateSimpleWindow", ul, [vp, ul, c_int, c_int, uint, uint, uint, ul, ul]),
                            ("XMapWindow", c_int, [vp, ul]), ("XSync", c_int, [vp, c_int])):
        f = getattr(X, name)
        f.restype, f.argtypes = res, args
    glx = ctypes.CDLL("libGL.so.1")
    for name, res, args in (("glXChooseFBConfig", vp, [vp, c_int, vp, vp]),
                            ("glXCreateNewContext", vp, [vp, vp, c_int, vp, c_int]),
                            ("glXMakeCurrent", c_int, [vp, ul, vp]), ("glXDestroyContext", None, [vp, vp]),
                            ("glXGetCurrentContext", vp, []), ("glXGetProcAddress", vp, [ctypes.c_char_p])):
        f = getattr(glx, name)
        f.restype, f.argtypes = res, args
    xdpy = X.XOpenDisplay(None)
    check(xdpy, "XOpenDisplay")
    screen = X.XDefaultScreen(xdpy)
    win = X.XCreateSimpleWindow(xdpy, X.XRootWindow(xdpy, screen), 0, 0, 8, 8, 0, 0, 0)
    X.XMapWindow(xdpy, win)
    X.XSync(xdpy, 0)
    count = c_int()
    configs = glx.glXChooseFBConfig(xdpy, screen, (c_int * 5)(0x8010, 1, 5, 1, 0), ctypes.byref(count))
    check(configs and count.value >= 1, "glXChooseFBConfig")
    glx_cfg = ctypes.cast(configs, ctypes.POINTER(vp))[0]
    clear = ctypes.CFUNCTYPE(None, uint)(glx.glXGetProcAddress(b"glClear"))
    finish = ctypes.CFUNCTYPE(None)(glx.glXGetProcAddress(b"glFinish"))
    line = ["glx"]
    for r in range(rounds):
        ctx = glx.glXCreateNewContext(xdpy, glx_cfg, 0x8014, None, 1)      # GLX_RGBA_TYPE
        check(ctx and glx.glXMakeCurrent(xdpy, win, ctx), "GLX context")
        clear(0x4000)
        finish()
        check(glx.glXMakeCurrent(xdpy, 0, None), "GLX release")
        glx.glXDestroyContext(xdpy, ctx)
        if r % 50 == 49:
            line += [threading.active_count(), queues()]
    print(*line)
    ctx = glx.glXCreateNewContext(xdpy, glx_cfg, 0x8014, None, 1)
    check(ctx and glx.glXMakeCurrent(xdpy, win, ctx), "GLX context")
    before = queues()
    glx.glXDestroyContext(xdpy, ctx)               # current: destroyed when released
    check(glx.glXGetCurrentContext() == ctx, "still current after glXDestroyContext")
    clear(0x4000)
    finish()
    after_destroy = queues()
    check(glx.glXMakeCurrent(xdpy, 0, None), "GLX release")
    print("glx-deferred", before, after_destroy, queues())
print("OK")
