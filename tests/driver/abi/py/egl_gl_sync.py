"""GL_EXT_EGL_sync / GL_OES_EGL_sync through glvnd's libEGL (ctypes alone,
surfaceless): an EGL fence sync (EGL_KHR_fence_sync) made while a desktop OpenGL
context (compatibility or core profile) or an OpenGL ES one is current stands for
the GL commands issued before it. The context lists the extension; the fence's
type, condition (EGL_SYNC_PRIOR_COMMANDS_COMPLETE) and status, a flushing client
wait that ends satisfied and signals it, a server wait (EGL_KHR_wait_sync) the
context accepts, and the pixels the commands before the fence wrote are there
after the wait. Mesa 22.3's llvmpipe runs the same script to OK (the independent
check).

Prints FAIL lines and "OK"."""

import ctypes

egl = ctypes.CDLL("libEGL.so.1")
vp, ci, cu = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", cu, [vp, vp, vp]),
                        ("eglChooseConfig", cu, [vp, vp, vp, ci, vp]),
                        ("eglBindAPI", cu, [cu]), ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglDestroyContext", cu, [vp, vp]),
                        ("eglMakeCurrent", cu, [vp, vp, vp, vp]), ("eglGetError", ci, []),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p]), ("eglTerminate", cu, [vp])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args

EGL_NONE = 0x3038
EGL_SYNC_FENCE, EGL_SYNC_STATUS, EGL_SYNC_TYPE, EGL_SYNC_CONDITION = 0x30F9, 0x30F1, 0x30F7, 0x30F8
EGL_SIGNALED, EGL_SYNC_PRIOR_COMMANDS_COMPLETE = 0x30F2, 0x30F0
EGL_CONDITION_SATISFIED, EGL_FOREVER, EGL_SYNC_FLUSH_COMMANDS_BIT = 0x30F6, 0xFFFFFFFFFFFFFFFF, 0x1
EGL_OPENGL_API, EGL_OPENGL_ES_API, EGL_RENDERABLE_TYPE = 0x30A2, 0x30A0, 0x3040
EGL_OPENGL_BIT, EGL_OPENGL_ES2_BIT = 0x8, 0x4
EGL_CONTEXT_MAJOR_VERSION, EGL_CONTEXT_MINOR_VERSION = 0x3098, 0x30FB
EGL_CONTEXT_OPENGL_PROFILE_MASK, CORE_BIT, COMPAT_BIT = 0x30FD, 0x1, 0x2
GL_EXTENSIONS, GL_NUM_EXTENSIONS, GL_FRAMEBUFFER, GL_RENDERBUFFER = 0x1F03, 0x821D, 0x8D40, 0x8D41
GL_RGBA8, GL_COLOR_ATTACHMENT0, GL_COLOR_BUFFER_BIT, GL_RGBA, GL_UNSIGNED_BYTE = 0x8058, 0x8CE0, 0x4000, 0x1908, 0x1401

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
create_sync = proc("eglCreateSyncKHR", vp, vp, cu, vp)
destroy_sync = proc("eglDestroySyncKHR", cu, vp, vp)
client_wait = proc("eglClientWaitSyncKHR", ci, vp, vp, ci, ctypes.c_uint64)
sync_attrib = proc("eglGetSyncAttribKHR", cu, vp, vp, ci, ctypes.POINTER(ci))
wait_sync = proc("eglWaitSyncKHR", ci, vp, vp, ci)


def attrib(sync, name):
    v = ci(0)
    ok = sync_attrib(dpy, sync, name, ctypes.byref(v))
    return v.value if ok else ("error", egl.eglGetError())


def run(label, api, bit, attribs, extension):
    cfg, n = vp(), ci(0)
    egl.eglChooseConfig(dpy, ints(EGL_RENDERABLE_TYPE, bit), ctypes.byref(cfg), 1, ctypes.byref(n))
    egl.eglBindAPI(api)
    ctx = egl.eglCreateContext(dpy, cfg, None, ints(*attribs))
    check(bool(ctx), f"{label}: no context ({egl.eglGetError():#x})")
    if not ctx:
        return
    assert egl.eglMakeCurrent(dpy, None, None, ctx)
    get_string = proc("glGetString", ctypes.c_char_p, cu)
    get_stringi = proc("glGetStringi", ctypes.c_char_p, cu, cu)
    get_integerv = proc("glGetIntegerv", None, cu, ctypes.POINTER(ci))
    names = (get_string(GL_EXTENSIONS) or b"").decode().split()
    if not names:
        count = ci(0)
        get_integerv(GL_NUM_EXTENSIONS, ctypes.byref(count))
        names = [get_stringi(GL_EXTENSIONS, i).decode() for i in range(count.value)]
    check(extension in names, f"{label}: {extension} is not listed")
    gen = proc("glGenFramebuffers", None, ci, ctypes.POINTER(cu))
    bind_fb = proc("glBindFramebuffer", None, cu, cu)
    gen_rb = proc("glGenRenderbuffers", None, ci, ctypes.POINTER(cu))
    bind_rb = proc("glBindRenderbuffer", None, cu, cu)
    storage = proc("glRenderbufferStorage", None, cu, cu, ci, ci)
    attach = proc("glFramebufferRenderbuffer", None, cu, cu, cu, cu)
    clear_color = proc("glClearColor", None, ctypes.c_float, ctypes.c_float, ctypes.c_float, ctypes.c_float)
    clear = proc("glClear", None, cu)
    read = proc("glReadPixels", None, ci, ci, ci, ci, cu, cu, vp)
    fb, rb = cu(0), cu(0)
    gen(1, ctypes.byref(fb))
    bind_fb(GL_FRAMEBUFFER, fb.value)
    gen_rb(1, ctypes.byref(rb))
    bind_rb(GL_RENDERBUFFER, rb.value)
    storage(GL_RENDERBUFFER, GL_RGBA8, 8, 8)
    attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb.value)
    clear_color(0.0, 1.0, 0.0, 1.0)
    clear(GL_COLOR_BUFFER_BIT)
    sync = create_sync(dpy, EGL_SYNC_FENCE, None)
    check(bool(sync), f"{label}: fence sync creation: error {egl.eglGetError():#x}")
    if sync:
        check(attrib(sync, EGL_SYNC_TYPE) == EGL_SYNC_FENCE, f"{label}: EGL_SYNC_TYPE")
        check(attrib(sync, EGL_SYNC_CONDITION) == EGL_SYNC_PRIOR_COMMANDS_COMPLETE, f"{label}: EGL_SYNC_CONDITION")
        check(client_wait(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER) == EGL_CONDITION_SATISFIED,
              f"{label}: client wait not satisfied")
        check(attrib(sync, EGL_SYNC_STATUS) == EGL_SIGNALED, f"{label}: not signalled after the wait")
        check(wait_sync(dpy, sync, 0) == 1, f"{label}: server wait refused ({egl.eglGetError():#x})")
        check(destroy_sync(dpy, sync) == 1, f"{label}: destroy")
    px = (ctypes.c_ubyte * 4)()
    read(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px)
    check(list(px) == [0, 255, 0, 255], f"{label}: pixel {list(px)}")
    egl.eglMakeCurrent(dpy, None, None, None)
    egl.eglDestroyContext(dpy, ctx)


run("compatibility", EGL_OPENGL_API, EGL_OPENGL_BIT, (EGL_CONTEXT_OPENGL_PROFILE_MASK, COMPAT_BIT), "GL_EXT_EGL_sync")
run("core 4.5", EGL_OPENGL_API, EGL_OPENGL_BIT, (EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                                  EGL_CONTEXT_OPENGL_PROFILE_MASK, CORE_BIT), "GL_EXT_EGL_sync")
run("es 3", EGL_OPENGL_ES_API, EGL_OPENGL_ES2_BIT, (EGL_CONTEXT_MAJOR_VERSION, 3), "GL_OES_EGL_sync")
egl.eglTerminate(dpy)
for f in failures:
    print("FAIL", f)
print("OK" if not failures else f"{len(failures)} failures")
