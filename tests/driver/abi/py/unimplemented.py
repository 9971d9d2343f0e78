"""Calls GL commands shimgl does not implement through the C ABI (ctypes on
libshimgl.so, no glvnd) and checks each records GL_INVALID_OPERATION (what a
command of a missing extension does), returns zero, and leaves the context
working. Usage: unimplemented.py LIBRARY_DIR; prints OK at the end.

Unattached commands never read their arguments, so each is called with
none. Two contexts: OpenGL 3.3 compatibility (OSMesa) and OpenGL ES 3.1
(surfaceless EGL, where desktop-only commands the front end has must also
fail with INVALID_OPERATION). Unimplemented EGL commands set
EGL_BAD_PARAMETER."""

import ctypes
import sys
from pathlib import Path

from driver.abi import _commands, marshal
from driver.gl import Context

GL_NO_ERROR, GL_INVALID_OPERATION = 0, 0x0502
lib = ctypes.CDLL(str(Path(sys.argv[1]) / "libshimgl.so"), mode=ctypes.RTLD_GLOBAL)
lib.glGetError.restype = ctypes.c_uint
lib.eglGetProcAddress.restype = ctypes.c_void_p
lib.eglGetProcAddress.argtypes = [ctypes.c_char_p]


def implemented(name: str) -> bool:
    has = getattr(Context, name, None) is not None or name in marshal.STANDALONE
    return has and bool(marshal.OVERRIDES.get(name) or _commands.MARSHAL.get(name))


missing = [n for n in _commands.NAMES
           if n.startswith("gl") and not n.startswith("glX") and not implemented(n)]
# a spread over the registry, plus a few chosen ones (DSA of GL 4.5, bindless,
# pointer and 64-bit returns, NV/AMD/OES/IMG vendor extensions)
chosen = ["glTextureParameteri", "glClearNamedBufferSubData", "glMapNamedBuffer",
          "glGetTextureHandleARB", "glGetImageHandleARB", "glCreateCommandListsNV",
          "glAccumxOES", "glGetTextureHandleIMG", "glBufferStorageMemEXT", "glSpecializeShader"]
# (the spread's step follows the list: about 30 of it, however many commands remain)
sample = sorted(set(missing[::max(1, len(missing) // 30)]) | {n for n in chosen if n in missing})
assert len(sample) >= 25, len(sample)
failures = []


def check_all(label: str, names) -> None:
    for name in names:
        fn = getattr(lib, name)
        fn.restype = ctypes.c_uint64        # wide enough for every return; must be zero
        ret = fn()
        err = lib.glGetError()
        if err != GL_INVALID_OPERATION or ret != 0:
            failures.append(f"{label} {name}: error {err:#x}, returned {ret}")
        if lib.glGetError() != GL_NO_ERROR:
            failures.append(f"{label} {name}: a second error")
        # the GetProcAddress route reaches the same entry point
        addr = lib.eglGetProcAddress(name.encode())
        if not addr:
            failures.append(f"{label} {name}: eglGetProcAddress gave NULL")
            continue
        ctypes.CFUNCTYPE(None)(addr)()
        if lib.glGetError() != GL_INVALID_OPERATION:
            failures.append(f"{label} {name}: no error through eglGetProcAddress")


def still_works(label: str) -> None:
    lib.glClearColor.argtypes = [ctypes.c_float] * 4
    lib.glClearColor(0.0, 1.0, 0.0, 1.0)
    lib.glClear(0x4000)
    px = (ctypes.c_ubyte * 4)()
    lib.glReadPixels(0, 0, 1, 1, 0x1908, 0x1401, px)
    if list(px) != [0, 255, 0, 255] or lib.glGetError() != GL_NO_ERROR:
        failures.append(f"{label}: the context no longer renders: {list(px)}")


# no current context: nothing happens, nothing crashes
for name in sample[:5]:
    getattr(lib, name)()

# OpenGL 3.3 compatibility through OSMesa
lib.OSMesaCreateContextExt.restype = ctypes.c_void_p
osctx = lib.OSMesaCreateContextExt(0x1908, 24, 8, 0, None)
buf = (ctypes.c_ubyte * (4 * 8 * 8))()
assert lib.OSMesaMakeCurrent(ctypes.c_void_p(osctx), buf, 0x1401, 8, 8)
check_all("compat", sample)
# commands shimgl implements that the compatibility profile lacks (OpenGL ES's and its
# extensions'): GL_INVALID_OPERATION as Mesa's no-op dispatch entry, and nothing runs
ids = (ctypes.c_uint * 1)(0)
f = ctypes.c_float
es_only = {"glOrthofOES": (f(-2.0), f(2.0), f(-2.0), f(2.0), f(-2.0), f(2.0)),
           "glPrimitiveBoundingBox": (f(0.0),) * 8, "glGenQueriesEXT": (1, ids),
           "glBindFramebufferOES": (0x8D40, 7)}
for name, args in es_only.items():
    getattr(lib, name)(*args)
    err = lib.glGetError()
    if err != GL_INVALID_OPERATION:
        failures.append(f"compat {name}: error {err:#x}, expected INVALID_OPERATION")
    lib.glGetError()
if ids[0] != 0:
    failures.append(f"compat glGenQueriesEXT ran: wrote name {ids[0]}")
still_works("compat")
lib.OSMesaMakeCurrent(None, None, 0, 0, 0)

# OpenGL ES 3.1 through surfaceless EGL
lib.eglGetPlatformDisplay.restype = ctypes.c_void_p
lib.eglCreateContext.restype = ctypes.c_void_p
dpy = ctypes.c_void_p(lib.eglGetPlatformDisplay(0x31DD, None, None))
assert lib.eglInitialize(dpy, None, None)
assert lib.eglBindAPI(0x30A0)
attribs = (ctypes.c_int * 3)(0x3098, 3, 0x3038)
ectx = ctypes.c_void_p(lib.eglCreateContext(dpy, None, None, attribs))
assert ectx.value and lib.eglMakeCurrent(dpy, None, None, ectx)
check_all("gles", sample)
# commands the front end has for desktop GL only, called in a GLES context
desktop_only = {"glBegin": (), "glNewList": (1, 0x1300), "glPolygonMode": (0x408, 0x1B01),
                "glClearDepth": (ctypes.c_double(1.0),), "glGetTexImage": (0x0DE1, 0, 0x1908, 0x1401, None)}
for name, args in desktop_only.items():
    getattr(lib, name)(*args)
    err = lib.glGetError()
    if err != GL_INVALID_OPERATION:
        failures.append(f"gles {name}: error {err:#x}, expected INVALID_OPERATION")
    lib.glGetError()
# an FBO, since a surfaceless context has no window to draw into
fbo, rb = ctypes.c_uint(), ctypes.c_uint()
lib.glGenFramebuffers(1, ctypes.byref(fbo))
lib.glBindFramebuffer(0x8D40, fbo)
lib.glGenRenderbuffers(1, ctypes.byref(rb))
lib.glBindRenderbuffer(0x8D41, rb)
lib.glRenderbufferStorage(0x8D41, 0x8058, 4, 4)
lib.glFramebufferRenderbuffer(0x8D40, 0x8CE0, 0x8D41, rb)
still_works("gles")

# unimplemented EGL commands: EGL_BAD_PARAMETER, a zero/NULL return, no crash
from driver.abi import egl  # noqa: E402
egl_missing = [n for n in _commands.NAMES if n.startswith("egl") and n not in egl.COMMANDS
               and n != "eglGetProcAddress"]          # a C function
for name in egl_missing[::9] + ["eglCreateStreamKHR", "eglQueryDmaBufFormatsEXT"]:
    fn = getattr(lib, name)
    fn.restype = ctypes.c_uint64
    ret = fn()
    err = lib.eglGetError()
    if ret != 0 or err != 0x300C:          # EGL_BAD_PARAMETER
        failures.append(f"{name}: returned {ret}, EGL error {err:#x}")
    if lib.eglGetError() != 0x3000:
        failures.append(f"{name}: the EGL error was not reset")

print(f"{len(sample)} unimplemented commands called in two contexts")
print("\n".join(failures))
if failures:
    sys.exit(1)
print("OK")
