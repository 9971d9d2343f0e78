"""EGL_MESA_query_driver through the system's glvnd libEGL (ctypes): the
driver's name and its (empty) driconf XML in malloc'ed memory the program
frees; EGL_BAD_DISPLAY for no display, EGL_NOT_INITIALIZED after
eglTerminate. Prints "name NAME", "config ..." and "OK", or FAIL lines."""

import ctypes

egl = ctypes.CDLL("libEGL.so.1")
libc = ctypes.CDLL(None)
vp = ctypes.c_void_p
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", ctypes.c_uint, [vp, vp, vp]),
                        ("eglTerminate", ctypes.c_uint, [vp]), ("eglGetError", ctypes.c_int, []),
                        ("eglQueryString", ctypes.c_char_p, [vp, ctypes.c_int]),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args
libc.free.argtypes = [vp]
EGL_EXTENSIONS, EGL_SUCCESS, EGL_NOT_INITIALIZED, EGL_BAD_DISPLAY = 0x3055, 0x3000, 0x3001, 0x3008
failures = []

dpy = egl.eglGetDisplay(None)
assert egl.eglInitialize(dpy, None, None)
if "EGL_MESA_query_driver" not in egl.eglQueryString(dpy, EGL_EXTENSIONS).decode().split():
    failures.append("EGL_MESA_query_driver is not listed")
get_name = ctypes.CFUNCTYPE(ctypes.c_char_p, vp)(egl.eglGetProcAddress(b"eglGetDisplayDriverName"))
get_config = ctypes.CFUNCTYPE(vp, vp)(egl.eglGetProcAddress(b"eglGetDisplayDriverConfig"))

if get_name(None) is not None or egl.eglGetError() != EGL_BAD_DISPLAY:
    failures.append("no display: not EGL_BAD_DISPLAY")
name = get_name(dpy)
if egl.eglGetError() != EGL_SUCCESS or name != b"shimgl":
    failures.append(f"driver name {name!r}")
config = get_config(dpy)
text = ctypes.string_at(config).decode() if config else ""
if egl.eglGetError() != EGL_SUCCESS or not text.startswith("<?xml") or "<driinfo>" not in text:
    failures.append(f"driver config {text!r}")
if config:
    libc.free(config)                     # the program owns it
print("name", name.decode() if name else None)
print("config", text.replace("\n", " "))
egl.eglTerminate(dpy)
if get_name(dpy) is not None or egl.eglGetError() != EGL_NOT_INITIALIZED:
    failures.append("after eglTerminate: not EGL_NOT_INITIALIZED")
if get_config(dpy) or egl.eglGetError() != EGL_NOT_INITIALIZED:
    failures.append("config after eglTerminate: not EGL_NOT_INITIALIZED")
for f in failures:
    print("FAIL", f)
print("OK" if not failures else f"{len(failures)} failures")
