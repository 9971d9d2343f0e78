"""EGL and GL through ctypes alone (no PyOpenGL, numpy or cffi in the host):
for interpreters outside shimgl's environment (Debian's python3, another
virtual environment). Clears a 4x4 pbuffer to (1, 0.5, 0.25, 1) and reads it back.

    python ctypes_egl.py [preload-cffi]

preload-cffi: import the host's own _cffi_backend first (shimgl sets it
aside while it starts; the host's module object keeps working afterwards).
host-cffi-package: the host imported its own cffi package first (another
version: shimgl starts with its own and puts the host's back).
old-numpy: a numpy 1.20 is already imported (shimgl needs a newer one: the
first call must fail with one line saying so, and EGL_NOT_INITIALIZED).

Prints "pixel R G B A" and "OK", or the EGL error and exits 1."""

import ctypes
import sys

if "preload-cffi" in sys.argv:
    import _cffi_backend as host_backend
else:
    host_backend = None
if "host-cffi-package" in sys.argv:       # the host's own cffi package (another version)
    import cffi as host_cffi
    host_cffi.FFI().cdef("int abs(int);")
else:
    host_cffi = None
if "old-numpy" in sys.argv:
    import types
    old = types.ModuleType("numpy")
    old.__version__, old.__file__ = "1.20.0", "/old/numpy/__init__.py"
    sys.modules["numpy"] = old

egl = ctypes.CDLL("libEGL.so.1")
vp = ctypes.c_void_p
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", ctypes.c_uint, [vp, vp, vp]),
                        ("eglChooseConfig", ctypes.c_uint, [vp, vp, vp, ctypes.c_int, vp]),
                        ("eglCreatePbufferSurface", vp, [vp, vp, vp]),
                        ("eglBindAPI", ctypes.c_uint, [ctypes.c_uint]),
                        ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglMakeCurrent", ctypes.c_uint, [vp, vp, vp, vp]),
                        ("eglGetError", ctypes.c_int, []),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p]),
                        ("eglQueryString", ctypes.c_char_p, [vp, ctypes.c_int])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args


def fail(what):
    print(f"{what} failed: EGL error {egl.eglGetError():#x}")
    sys.exit(1)


dpy = egl.eglGetDisplay(None)
if not dpy:
    fail("eglGetDisplay")
if not egl.eglInitialize(dpy, None, None):
    fail("eglInitialize")
print("vendor", egl.eglQueryString(dpy, 0x3053).decode())       # EGL_VENDOR
EGLint4 = ctypes.c_int * 5
cfg, n = vp(), ctypes.c_int()
attrs = EGLint4(0x3033, 0x0001, 0x3040, 0x0008, 0x3038)          # PBUFFER_BIT, OPENGL_BIT
if not egl.eglChooseConfig(dpy, attrs, ctypes.byref(cfg), 1, ctypes.byref(n)) or n.value < 1:
    fail("eglChooseConfig")
surf = egl.eglCreatePbufferSurface(dpy, cfg, EGLint4(0x3057, 4, 0x3056, 4, 0x3038))
egl.eglBindAPI(0x30A2)                                           # EGL_OPENGL_API
ctx = egl.eglCreateContext(dpy, cfg, None, None)
if not surf or not ctx or not egl.eglMakeCurrent(dpy, surf, surf, ctx):
    fail("context creation")


def gl(name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(egl.eglGetProcAddress(name.encode()))


gl("glClearColor", None, *[ctypes.c_float] * 4)(1.0, 0.5, 0.25, 1.0)
gl("glClear", None, ctypes.c_uint)(0x4000)
px = (ctypes.c_ubyte * 64)()
gl("glReadPixels", None, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
   ctypes.c_uint, vp)(0, 0, 4, 4, 0x1908, 0x1401, px)
print("pixel", *px[:4])
if host_backend is not None:
    host_ffi = host_backend.FFI()
    assert host_ffi.sizeof("int") == 4 and host_backend.__version__ != "?"
    print("host cffi backend still works", host_backend.__version__)
if host_cffi is not None:
    # the host's package and backend are back in place and still agree
    import cffi
    assert cffi is host_cffi, "the host's cffi package was replaced"
    later = cffi.FFI()
    later.cdef("int abs(int);")
    assert later.dlopen(None).abs(-3) == 3
    print("host cffi package still works", cffi.__version__)
print("OK")
