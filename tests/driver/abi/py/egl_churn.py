"""Create and destroy EGL contexts and pbuffer surfaces (and terminate the
display now and then) through libEGL, reading the mock kernel's arena: every
buffer must go back. Run by our own interpreter, so the library's Python is
this one and `drmshim.default_kernel()` is the kernel it uses.

    python egl_churn.py ROUNDS [terminate]

terminate: eglTerminate the display every 5 rounds (else only eglDestroy*).
Prints "used_kib A B C ..." (arena use after each 10 rounds) and "OK"."""

import ctypes
import sys

rounds = int(sys.argv[1])
terminate = "terminate" in sys.argv[2:]
egl = ctypes.CDLL("libEGL.so.1")
vp, uint, c_int = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", uint, [vp, vp, vp]),
                        ("eglTerminate", uint, [vp]),
                        ("eglChooseConfig", uint, [vp, vp, vp, c_int, vp]),
                        ("eglCreatePbufferSurface", vp, [vp, vp, vp]),
                        ("eglDestroySurface", uint, [vp, vp]), ("eglDestroyContext", uint, [vp, vp]),
                        ("eglBindAPI", uint, [uint]), ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglMakeCurrent", uint, [vp, vp, vp, vp]), ("eglGetError", c_int, []),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args


def attribs(*pairs):
    flat = [v for p in pairs for v in p] + [0x3038]
    return (c_int * len(flat))(*flat)


def check(cond, what):
    if not cond:
        print(f"FAIL {what} (EGL error {egl.eglGetError():#x})")
        sys.exit(1)


dpy = egl.eglGetDisplay(None)
used = []
gl_clear = gl_finish = None
for r in range(rounds):
    check(egl.eglInitialize(dpy, None, None), "eglInitialize")
    cfg, n = vp(), c_int()
    check(egl.eglChooseConfig(dpy, attribs((0x3033, 0x0001), (0x3040, 0x0040)), ctypes.byref(cfg), 1,
                              ctypes.byref(n)) and n.value == 1, "eglChooseConfig")
    egl.eglBindAPI(0x30A0)
    surf = egl.eglCreatePbufferSurface(dpy, cfg, attribs((0x3057, 128), (0x3056, 128)))
    ctx = egl.eglCreateContext(dpy, cfg, None, attribs((0x3098, 3)))
    check(surf and ctx and egl.eglMakeCurrent(dpy, surf, surf, ctx), "context")
    if gl_clear is None:
        gl_clear = ctypes.CFUNCTYPE(None, uint)(egl.eglGetProcAddress(b"glClear"))
        gl_finish = ctypes.CFUNCTYPE(None)(egl.eglGetProcAddress(b"glFinish"))
    gl_clear(0x4100)
    gl_finish()
    check(egl.eglMakeCurrent(dpy, None, None, None), "release")
    check(egl.eglDestroySurface(dpy, surf) and egl.eglDestroyContext(dpy, ctx), "destroy")
    if terminate and r % 5 == 4:
        check(egl.eglTerminate(dpy), "eglTerminate")
    if r % 10 == 9:
        import drmshim
        used.append(drmshim.default_kernel().arena.used_B >> 10)
print("used_kib", *used)
print("OK")
