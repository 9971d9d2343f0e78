"""EGL_KHR_create_context's attribute rules piglit's egl_khr_create_context
tests check (ctypes, through glvnd's libEGL, surfaceless): an OpenGL 3.2+
request whose profile mask is empty, has both bits or another bit is
EGL_BAD_MATCH (below 3.2 the mask is ignored); for OpenGL ES the
forward-compatible and robust-access flag bits are EGL_BAD_ATTRIBUTE and the
debug bit makes a context. Prints FAIL lines and "OK"."""

import ctypes

egl = ctypes.CDLL("libEGL.so.1")
vp = ctypes.c_void_p
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", ctypes.c_uint, [vp, vp, vp]),
                        ("eglBindAPI", ctypes.c_uint, [ctypes.c_uint]), ("eglGetError", ctypes.c_int, []),
                        ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglDestroyContext", ctypes.c_uint, [vp, vp]), ("eglTerminate", ctypes.c_uint, [vp])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args
EGL_OPENGL_API, EGL_OPENGL_ES_API = 0x30A2, 0x30A0
MAJOR, MINOR, FLAGS, PROFILE = 0x3098, 0x30FB, 0x30FC, 0x30FD
CORE, COMPAT = 0x1, 0x2
EGL_SUCCESS, EGL_BAD_ATTRIBUTE, EGL_BAD_MATCH = 0x3000, 0x3004, 0x3009
failures = []
dpy = egl.eglGetDisplay(None)
assert egl.eglInitialize(dpy, None, None)


def attempt(what, api, pairs, want):
    egl.eglBindAPI(api)
    arr = (ctypes.c_int * (len(pairs) + 1))(*pairs, 0x3038)
    ctx = egl.eglCreateContext(dpy, None, None, arr)           # EGL_NO_CONFIG_KHR
    err = egl.eglGetError()
    if bool(ctx) != (want == EGL_SUCCESS) or err != want:
        failures.append(f"{what}: context {bool(ctx)}, error {err:#x}, want {want:#x}")
    if ctx:
        egl.eglDestroyContext(dpy, ctx)


for mask in (0, CORE | COMPAT, 0x4, 0x80000000):
    attempt(f"GL 3.2 profile mask {mask:#x}", EGL_OPENGL_API, [MAJOR, 3, MINOR, 2, PROFILE, mask], EGL_BAD_MATCH)
attempt("GL 3.2 core", EGL_OPENGL_API, [MAJOR, 3, MINOR, 2, PROFILE, CORE], EGL_SUCCESS)
attempt("GL 3.0, mask ignored", EGL_OPENGL_API, [MAJOR, 3, MINOR, 0, PROFILE, 0x4], EGL_SUCCESS)
attempt("ES 2 forward-compatible flag", EGL_OPENGL_ES_API, [MAJOR, 2, FLAGS, 0x2], EGL_BAD_ATTRIBUTE)
attempt("ES 3 robust-access flag", EGL_OPENGL_ES_API, [MAJOR, 3, FLAGS, 0x4], EGL_BAD_ATTRIBUTE)
attempt("ES 3 debug flag", EGL_OPENGL_ES_API, [MAJOR, 3, FLAGS, 0x1], EGL_SUCCESS)
attempt("GL 4.5 robust-access flag", EGL_OPENGL_API, [MAJOR, 4, MINOR, 5, PROFILE, CORE, FLAGS, 0x4], EGL_SUCCESS)
egl.eglTerminate(dpy)
for f in failures:
    print("FAIL", f)
print("OK" if not failures else f"{len(failures)} failures")
