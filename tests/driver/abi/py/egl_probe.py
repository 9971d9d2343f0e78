"""EGL as applications probe it, through the system's glvnd libEGL (ctypes
only): client extensions, device enumeration and query, the device platform,
EGL_PLATFORM for eglGetDisplay(EGL_DEFAULT_DISPLAY), no-error contexts, fence
syncs through eglGetProcAddress, and switching contexts on one surface.

Each check prints "ok NAME" or "FAIL NAME: why"; the last line is "N failures"."""

import ctypes
import os
import sys
import threading

vp, i32, u32 = ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint32
egl = ctypes.CDLL("libEGL.so.1")
PROTOS = {
    "eglGetDisplay": (vp, [vp]), "eglInitialize": (u32, [vp, vp, vp]),
    "eglQueryString": (ctypes.c_char_p, [vp, i32]), "eglGetError": (i32, []),
    "eglChooseConfig": (u32, [vp, vp, vp, i32, vp]), "eglBindAPI": (u32, [u32]),
    "eglCreatePbufferSurface": (vp, [vp, vp, vp]), "eglCreateContext": (vp, [vp, vp, vp, vp]),
    "eglMakeCurrent": (u32, [vp, vp, vp, vp]), "eglGetProcAddress": (vp, [ctypes.c_char_p]),
    "eglDestroyContext": (u32, [vp, vp]), "eglGetCurrentContext": (vp, []),
}
for name, (res, args) in PROTOS.items():
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args


def proc(name, res, *args):
    addr = egl.eglGetProcAddress(name.encode())
    return ctypes.CFUNCTYPE(res, *args)(addr) if addr else None


failures = 0


def check(name, cond, why=""):
    global failures
    if cond:
        print("ok", name)
    else:
        failures += 1
        print(f"FAIL {name}: {why}")


EGL_NONE, EGL_EXTENSIONS = 0x3038, 0x3055
EGL_PLATFORM_DEVICE_EXT, EGL_DEVICE_EXT, EGL_BAD_DEVICE_EXT = 0x313F, 0x322C, 0x322B
EGL_BAD_MATCH, EGL_BAD_ACCESS, EGL_SUCCESS = 0x3009, 0x3002, 0x3000
EGL_OPENGL_API = 0x30A2
EGL_CONTEXT_MAJOR_VERSION, EGL_CONTEXT_MINOR_VERSION = 0x3098, 0x30FB
EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_DEBUG = 0x30FD, 0x31B0
EGL_CONTEXT_OPENGL_NO_ERROR_KHR = 0x31B3


def attribs(*values):
    return (i32 * (len(values) + 1))(*values, EGL_NONE)


client = egl.eglQueryString(None, EGL_EXTENSIONS).decode().split()
for ext in ("EGL_EXT_device_base", "EGL_EXT_device_enumeration", "EGL_EXT_device_query",
            "EGL_EXT_platform_device", "EGL_MESA_platform_surfaceless",
            "EGL_KHR_client_get_all_proc_addresses"):
    check(f"client extension {ext}", ext in client, " ".join(client))

# -- devices
query_devices = proc("eglQueryDevicesEXT", u32, i32, vp, ctypes.POINTER(i32))
device_string = proc("eglQueryDeviceStringEXT", ctypes.c_char_p, vp, i32)
display_attrib = proc("eglQueryDisplayAttribEXT", u32, vp, i32, ctypes.POINTER(ctypes.c_ssize_t))
get_platform_display = proc("eglGetPlatformDisplayEXT", vp, u32, vp, vp)
check("device functions", None not in (query_devices, device_string, display_attrib,
                                       get_platform_display))
n = i32()
check("device count", query_devices(0, None, ctypes.byref(n)) and n.value == 1, n.value)
devices = (vp * 4)()
query_devices(4, devices, ctypes.byref(n))
dev = devices[0]
exts = device_string(dev, EGL_EXTENSIONS)
check("EGL_MESA_device_software", exts is not None and b"EGL_MESA_device_software" in exts, exts)
check("bad device", device_string(vp(0x1234), EGL_EXTENSIONS) is None
      and egl.eglGetError() == EGL_BAD_DEVICE_EXT)
dpy = get_platform_display(EGL_PLATFORM_DEVICE_EXT, dev, None)
check("device display", dpy and egl.eglInitialize(dpy, None, None))
value = ctypes.c_ssize_t()
check("display's device", display_attrib(dpy, EGL_DEVICE_EXT, ctypes.byref(value))
      and value.value == dev)

# -- a 4.3 core context on the device display, drawing into a pbuffer
cfg, ncfg = vp(), i32()
egl.eglChooseConfig(dpy, attribs(0x3033, 0x1, 0x3040, 0x8), ctypes.byref(cfg), 1, ctypes.byref(ncfg))
surf = egl.eglCreatePbufferSurface(dpy, cfg, attribs(0x3057, 8, 0x3056, 8))
egl.eglBindAPI(EGL_OPENGL_API)
core = attribs(EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
               EGL_CONTEXT_OPENGL_PROFILE_MASK, 1)
ctx = egl.eglCreateContext(dpy, cfg, None, core)
check("4.3 core context", ctx and egl.eglMakeCurrent(dpy, surf, surf, ctx))
get_string = proc("glGetString", ctypes.c_char_p, u32)
get_integer = proc("glGetIntegerv", None, u32, ctypes.POINTER(i32))
version = get_string(0x1F02)
check("GL version", version is not None and version.startswith(b"4."), version)

# -- KHR_create_context_no_error
flags = i32()
noerr = egl.eglCreateContext(dpy, cfg, None, attribs(EGL_CONTEXT_MAJOR_VERSION, 4,
                                                     EGL_CONTEXT_MINOR_VERSION, 3,
                                                     EGL_CONTEXT_OPENGL_PROFILE_MASK, 1,
                                                     EGL_CONTEXT_OPENGL_NO_ERROR_KHR, 1))
check("no-error context", bool(noerr), hex(egl.eglGetError()))
egl.eglMakeCurrent(dpy, surf, surf, noerr)
get_integer(0x821E, ctypes.byref(flags))                       # GL_CONTEXT_FLAGS
check("GL_CONTEXT_FLAG_NO_ERROR_BIT", flags.value & 0x8, flags.value)
egl.eglMakeCurrent(dpy, surf, surf, ctx)
bad = egl.eglCreateContext(dpy, cfg, None, attribs(EGL_CONTEXT_OPENGL_NO_ERROR_KHR, 1,
                                                   EGL_CONTEXT_OPENGL_DEBUG, 1))
check("no-error with debug is EGL_BAD_MATCH", not bad and egl.eglGetError() == EGL_BAD_MATCH)

# -- switching contexts on one surface in one thread (apitrace's multi-context traces)
other = egl.eglCreateContext(dpy, cfg, None, core)
check("switch to another context on the same surface",
      egl.eglMakeCurrent(dpy, surf, surf, other) and egl.eglGetCurrentContext() == other,
      hex(egl.eglGetError()))
check("and back", egl.eglMakeCurrent(dpy, surf, surf, ctx) and egl.eglGetCurrentContext() == ctx)
result = {}


def other_thread():
    result["made"] = egl.eglMakeCurrent(dpy, surf, surf, other)
    result["error"] = egl.eglGetError()


t = threading.Thread(target=other_thread)
t.start()
t.join()
check("the surface current in another thread is EGL_BAD_ACCESS",
      result == {"made": 0, "error": EGL_BAD_ACCESS}, result)

# -- fence syncs through eglGetProcAddress (glvnd dispatches them to us)
create_sync = proc("eglCreateSyncKHR", vp, vp, u32, vp)
wait_sync = proc("eglClientWaitSyncKHR", i32, vp, vp, i32, ctypes.c_uint64)
check("eglCreateSyncKHR dispatched", create_sync is not None and wait_sync is not None)
sync = create_sync(dpy, 0x30F9, None)                          # EGL_SYNC_FENCE_KHR
check("fence sync signals", sync and wait_sync(dpy, sync, 1, 10**10) == 0x30F6)   # CONDITION_SATISFIED

# -- EGL_PLATFORM for eglGetDisplay(EGL_DEFAULT_DISPLAY)
default = egl.eglGetDisplay(None)
want = {"device": dpy}.get(os.environ.get("EGL_PLATFORM", ""))
check("eglGetDisplay(EGL_DEFAULT_DISPLAY)", default and (want is None or default == want),
      (default, os.environ.get("EGL_PLATFORM")))
egl.eglMakeCurrent(dpy, None, None, None)
print(f"{failures} failures")
sys.exit(1 if failures else 0)
