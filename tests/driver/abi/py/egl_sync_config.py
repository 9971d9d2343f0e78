"""EGL_KHR_reusable_sync, EGL_KHR_context_flush_control, EGL_EXT_pixel_format_float
and EGL_KHR_config_attribs through glvnd's libEGL (ctypes alone, surfaceless).
The same script runs on Mesa's llvmpipe (Mesa 22.3), the independent check: three
checks differ there, Mesa takes another eglSignalSyncKHR mode than SIGNALED or
UNSIGNALED (EGL_BAD_PARAMETER here), llvmpipe has floating-point configs (shimgl
has none: FLOAT chooses nothing here), and Mesa binds surfaces of two configs to a
configless context (piglit's egl_mesa_configless_context basic fails there).
The release after eglTerminate passes there too.

- A reusable sync starts unsignalled (no context needed), a zero-timeout wait
  expires, a wait without deadline returns when another thread signals it (the
  waiting thread does not block the signalling one), unsignal and signal again;
  EGL_SYNC_CONDITION is a fence's only attribute (EGL_BAD_ATTRIBUTE); another
  mode is EGL_BAD_PARAMETER, signalling a fence sync EGL_BAD_MATCH.
- EGL_CONTEXT_RELEASE_BEHAVIOR_KHR: NONE and FLUSH are read back by glGetIntegerv
  (GL_CONTEXT_RELEASE_BEHAVIOR, default FLUSH); another value is EGL_BAD_ATTRIBUTE.
- EGL_COLOR_COMPONENT_TYPE_EXT: every config answers FIXED; asking for FLOAT
  chooses none, FIXED (the default) as many as no attribute; EGL_CONFORMANT
  with the ES 2 bit chooses configs.
- A context of no config (EGL_KHR_no_config_context, EGL_MESA_configless_context)
  binds draw and read pbuffers of one config, and EGL_BAD_MATCH for two configs
  (one with a depth buffer, one without).
- eglTerminate with a live sync and a current context succeeds, and releasing
  the context after it (eglMakeCurrent with EGL_NO_CONTEXT on the terminated
  display) succeeds too (EGL 1.5 section 3.2).

Prints FAIL lines and "OK"."""

import ctypes
import sys
import threading
import time

egl = ctypes.CDLL("libEGL.so.1")
vp, ci, cu = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", cu, [vp, vp, vp]),
                        ("eglChooseConfig", cu, [vp, vp, vp, ci, vp]),
                        ("eglGetConfigAttrib", cu, [vp, vp, ci, vp]),
                        ("eglBindAPI", cu, [cu]), ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglDestroyContext", cu, [vp, vp]),
                        ("eglMakeCurrent", cu, [vp, vp, vp, vp]), ("eglGetError", ci, []),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p]),
                        ("eglQueryString", ctypes.c_char_p, [vp, ci]), ("eglTerminate", cu, [vp])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args

EGL_NONE, EGL_SUCCESS, EGL_EXTENSIONS = 0x3038, 0x3000, 0x3055
EGL_BAD_ATTRIBUTE, EGL_BAD_MATCH, EGL_BAD_PARAMETER = 0x3004, 0x3009, 0x300C
EGL_SYNC_REUSABLE_KHR, EGL_SYNC_FENCE = 0x30FA, 0x30F9
EGL_SYNC_STATUS, EGL_SYNC_TYPE, EGL_SYNC_CONDITION = 0x30F1, 0x30F7, 0x30F8
EGL_SIGNALED, EGL_UNSIGNALED = 0x30F2, 0x30F3
EGL_TIMEOUT_EXPIRED, EGL_CONDITION_SATISFIED, EGL_FOREVER = 0x30F5, 0x30F6, 0xFFFFFFFFFFFFFFFF
EGL_OPENGL_ES_API, EGL_CONTEXT_CLIENT_VERSION = 0x30A0, 0x3098
EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, RELEASE_FLUSH, RELEASE_NONE = 0x2097, 0x2098, 0x0
EGL_COLOR_COMPONENT_TYPE_EXT, FIXED, FLOAT = 0x3339, 0x333A, 0x333B
EGL_CONFORMANT, EGL_OPENGL_ES2_BIT = 0x3042, 0x4
GL_CONTEXT_RELEASE_BEHAVIOR = 0x82FB

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def ints(*values):
    return (ci * (len(values) + 1))(*values, EGL_NONE)


def proc(name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(egl.eglGetProcAddress(name.encode()))


dpy = egl.eglGetDisplay(None)
assert egl.eglInitialize(dpy, None, None)
listed = egl.eglQueryString(dpy, EGL_EXTENSIONS).decode().split()
for ext in ("EGL_KHR_reusable_sync", "EGL_KHR_context_flush_control", "EGL_EXT_pixel_format_float",
            "EGL_KHR_config_attribs"):
    check(ext in listed, f"{ext} is not listed")

create_sync = proc("eglCreateSyncKHR", vp, vp, cu, vp)
destroy_sync = proc("eglDestroySyncKHR", cu, vp, vp)
client_wait = proc("eglClientWaitSyncKHR", ci, vp, vp, ci, ctypes.c_uint64)
signal_sync = proc("eglSignalSyncKHR", cu, vp, vp, cu)
sync_attrib = proc("eglGetSyncAttribKHR", cu, vp, vp, ci, ctypes.POINTER(ci))
wait_sync = proc("eglWaitSyncKHR", ci, vp, vp, ci)


def attrib(sync, name):
    v = ci(0)
    ok = sync_attrib(dpy, sync, name, ctypes.byref(v))
    return v.value if ok else ("error", egl.eglGetError())


# -- EGL_KHR_reusable_sync (no context current) --------------------------------------------
sync = create_sync(dpy, EGL_SYNC_REUSABLE_KHR, None)
check(bool(sync), f"reusable sync creation: error {egl.eglGetError():#x}")
check(attrib(sync, EGL_SYNC_TYPE) == EGL_SYNC_REUSABLE_KHR, "EGL_SYNC_TYPE")
check(attrib(sync, EGL_SYNC_STATUS) == EGL_UNSIGNALED, "a new reusable sync is not unsignalled")
check(attrib(sync, EGL_SYNC_CONDITION) == ("error", EGL_BAD_ATTRIBUTE), "EGL_SYNC_CONDITION of a reusable sync")
check(client_wait(dpy, sync, 0, 0) == EGL_TIMEOUT_EXPIRED, "a zero-timeout wait did not expire")
check(client_wait(dpy, sync, 0, 20_000_000) == EGL_TIMEOUT_EXPIRED, "a 20 ms wait did not expire")
signaller = threading.Thread(target=lambda: (time.sleep(0.3), signal_sync(dpy, sync, EGL_SIGNALED)))
start = time.monotonic()
signaller.start()
got = client_wait(dpy, sync, 0, EGL_FOREVER)
waited = time.monotonic() - start
signaller.join()
check(got == EGL_CONDITION_SATISFIED and waited >= 0.25,
      f"waiting for another thread's signal: {got:#x} after {waited:.2f} s")
check(attrib(sync, EGL_SYNC_STATUS) == EGL_SIGNALED, "not signalled after the signal")
check(signal_sync(dpy, sync, EGL_UNSIGNALED) and attrib(sync, EGL_SYNC_STATUS) == EGL_UNSIGNALED, "unsignal")
check(not signal_sync(dpy, sync, 0x1234) and egl.eglGetError() == EGL_BAD_PARAMETER,
      "another mode is not EGL_BAD_PARAMETER")
check(signal_sync(dpy, sync, EGL_SIGNALED) and client_wait(dpy, sync, 0, 0) == EGL_CONDITION_SATISFIED,
      "signalled again")

# -- EGL_KHR_context_flush_control -------------------------------------------------------------
egl.eglBindAPI(EGL_OPENGL_ES_API)
behaviours = {}
for value in (None, RELEASE_NONE, RELEASE_FLUSH):
    extra = () if value is None else (EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, value)
    ctx = egl.eglCreateContext(dpy, None, None, ints(EGL_CONTEXT_CLIENT_VERSION, 3, *extra))
    if not ctx:
        failures.append(f"context with release behaviour {value}: error {egl.eglGetError():#x}")
        continue
    egl.eglMakeCurrent(dpy, None, None, ctx)
    got = ci(-1)
    proc("glGetIntegerv", None, cu, ctypes.POINTER(ci))(GL_CONTEXT_RELEASE_BEHAVIOR, ctypes.byref(got))
    behaviours[value] = got.value
    if value == RELEASE_NONE:
        # a fence needs a context; signalling it is EGL_BAD_MATCH; a reusable sync has no server wait
        fence = create_sync(dpy, EGL_SYNC_FENCE, None)
        check(bool(fence), "fence creation")
        check(not signal_sync(dpy, fence, EGL_SIGNALED) and egl.eglGetError() == EGL_BAD_MATCH,
              "signalling a fence is not EGL_BAD_MATCH")
        check(client_wait(dpy, fence, 0, EGL_FOREVER) == EGL_CONDITION_SATISFIED, "the fence's wait")
        destroy_sync(dpy, fence)
    egl.eglMakeCurrent(dpy, None, None, None)
    egl.eglDestroyContext(dpy, ctx)
GL_FLUSH = 0x82FC        # GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH; NONE is 0 in both APIs
check(behaviours == {None: GL_FLUSH, RELEASE_NONE: 0, RELEASE_FLUSH: GL_FLUSH},
      f"GL_CONTEXT_RELEASE_BEHAVIOR: {behaviours}")
bad = egl.eglCreateContext(dpy, None, None, ints(EGL_CONTEXT_CLIENT_VERSION, 3,
                                                 EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, 0x1234))
check(not bad and egl.eglGetError() == EGL_BAD_ATTRIBUTE, "a release behaviour that is none")

# -- EGL_EXT_pixel_format_float, EGL_KHR_config_attribs --------------------------------------------


PBUFFERS = (0x3033, 0x1)      # EGL_SURFACE_TYPE, EGL_PBUFFER_BIT (surfaceless: no windows)


def count(*attrs):
    n = ci()
    egl.eglChooseConfig(dpy, ints(*PBUFFERS, *attrs), None, 0, ctypes.byref(n))
    return n.value


cfg, n = vp(), ci()
egl.eglChooseConfig(dpy, ints(*PBUFFERS), ctypes.byref(cfg), 1, ctypes.byref(n))
value = ci()
check(egl.eglGetConfigAttrib(dpy, cfg, EGL_COLOR_COMPONENT_TYPE_EXT, ctypes.byref(value)) and value.value == FIXED,
      f"EGL_COLOR_COMPONENT_TYPE_EXT reads {value.value:#x}")
every = count()
check(every > 0 and count(EGL_COLOR_COMPONENT_TYPE_EXT, FIXED) == every, "FIXED does not choose every config")
check(count(EGL_COLOR_COMPONENT_TYPE_EXT, FLOAT) == 0, "FLOAT chooses configs")
check(count(EGL_CONFORMANT, EGL_OPENGL_ES2_BIT) > 0, "EGL_CONFORMANT with the ES 2 bit chooses none")

# -- a context of no config: draw and read of one config -------------------------------------------
egl.eglCreatePbufferSurface.restype, egl.eglCreatePbufferSurface.argtypes = vp, [vp, vp, vp]
pbuffers = []
for depth in (0, 24):
    c, n = vp(), ci()
    egl.eglChooseConfig(dpy, ints(*PBUFFERS, 0x3025, depth, 0x3031, 0), ctypes.byref(c), 1, ctypes.byref(n))
    value = ci()
    egl.eglGetConfigAttrib(dpy, c, 0x3025, ctypes.byref(value))     # EGL_DEPTH_SIZE
    pbuffers.append((value.value, egl.eglCreatePbufferSurface(dpy, c, ints(0x3057, 4, 0x3056, 4))))
(depth_a, plain), (depth_b, deep) = pbuffers
ctx = egl.eglCreateContext(dpy, None, None, ints(EGL_CONTEXT_CLIENT_VERSION, 3))
check(depth_a != depth_b, f"two configs of depth {depth_a} and {depth_b}")
check(egl.eglMakeCurrent(dpy, plain, plain, ctx), "a configless context on one pbuffer")
check(not egl.eglMakeCurrent(dpy, plain, deep, ctx) and egl.eglGetError() == EGL_BAD_MATCH,
      "draw and read of two configs are not EGL_BAD_MATCH for a configless context")
egl.eglMakeCurrent(dpy, None, None, None)
egl.eglDestroyContext(dpy, ctx)

ctx = egl.eglCreateContext(dpy, None, None, ints(EGL_CONTEXT_CLIENT_VERSION, 3))
check(egl.eglMakeCurrent(dpy, None, None, ctx), "a surfaceless current context")
check(egl.eglTerminate(dpy) and egl.eglGetError() == EGL_SUCCESS, "eglTerminate with a live sync")
check(egl.eglMakeCurrent(dpy, None, None, None) and egl.eglGetError() == EGL_SUCCESS,
      "releasing the context of a terminated display")
for f in failures:
    print("FAIL", f)
print("OK" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
