"""An X11 window drawn through EGL's X11 platform or GLX (ctypes only, through
the system's glvnd libEGL/libGLX), read back from the X server with XGetImage.

    python x11_window.py egl|glx

Draws: clear to (1, 0.5, 0.25), a scissored green 8x8 square at (4, 4) from
the bottom-left; swaps; checks the window's pixels (X's rows run top-down).
Then resizes the window and checks the surface follows; then the errors: a
bad window (EGL_BAD_NATIVE_WINDOW; GLXBadDrawable through the X error handler)
and an unsupported context version (EGL_BAD_MATCH; BadMatch). GLX also: a
pbuffer (read back with glReadPixels) and a GLX pixmap (read from the X pixmap).
Prints "ok ..."/"FAIL ..." lines and "N failures"."""

import ctypes
import sys

mode = sys.argv[1]
vp, i32, u32, ul = ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint32, ctypes.c_ulong
X = ctypes.CDLL("libX11.so.6")
for name, res, args in (("XOpenDisplay", vp, [ctypes.c_char_p]), ("XDefaultScreen", i32, [vp]),
                        ("XRootWindow", ul, [vp, i32]), ("XBlackPixel", ul, [vp, i32]),
                        ("XCreateSimpleWindow", ul, [vp, ul, i32, i32, u32, u32, u32, ul, ul]),
                        ("XMapWindow", i32, [vp, ul]), ("XSync", i32, [vp, i32]),
                        ("XResizeWindow", i32, [vp, ul, u32, u32]),
                        ("XGetImage", vp, [vp, ul, i32, i32, u32, u32, ul, i32]),
                        ("XGetPixel", ul, [vp, i32, i32]), ("XDestroyImage", i32, [vp]),
                        ("XSetErrorHandler", vp, [vp]),
                        ("XCreatePixmap", ul, [vp, ul, u32, u32, u32])):
    f = getattr(X, name)
    f.restype, f.argtypes = res, args

failures = 0


def check(what, cond, why=""):
    global failures
    print(("ok " if cond else "FAIL ") + what + ("" if cond else f": {why}"))
    failures += 0 if cond else 1


dpy = X.XOpenDisplay(None)
assert dpy, "no X display"
screen = X.XDefaultScreen(dpy)
W, H = 64, 48
win = X.XCreateSimpleWindow(dpy, X.XRootWindow(dpy, screen), 0, 0, W, H, 0,
                            X.XBlackPixel(dpy, screen), X.XBlackPixel(dpy, screen))
X.XMapWindow(dpy, win)
X.XSync(dpy, 0)

x_errors = []
ERROR_HANDLER = ctypes.CFUNCTYPE(i32, vp, vp)


@ERROR_HANDLER
def on_x_error(d, event):
    # XErrorEvent: int type; Display *; XID resourceid; unsigned long serial;
    # unsigned char error_code, request_code, minor_code
    raw = ctypes.string_at(event, 40)
    x_errors.append((raw[32], raw[33], raw[34]))
    return 0


X.XSetErrorHandler(ctypes.cast(on_x_error, vp))


def window_pixel(x, y_from_top):
    img = X.XGetImage(dpy, win, 0, 0, W, H, 0xFFFFFFFF, 2)     # ZPixmap
    try:
        p = X.XGetPixel(img, x, y_from_top)
    finally:
        X.XDestroyImage(img)
    return (p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF


def gl(get_proc, name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(get_proc(name.encode()))


def draw(get_proc):
    f = ctypes.c_float
    gl(get_proc, "glViewport", None, i32, i32, i32, i32)(0, 0, W, H)
    gl(get_proc, "glClearColor", None, f, f, f, f)(1.0, 0.5, 0.25, 1.0)
    gl(get_proc, "glClear", None, u32)(0x4000)
    gl(get_proc, "glEnable", None, u32)(0x0C11)                       # GL_SCISSOR_TEST
    gl(get_proc, "glScissor", None, i32, i32, i32, i32)(4, 4, 8, 8)
    gl(get_proc, "glClearColor", None, f, f, f, f)(0.0, 1.0, 0.0, 1.0)
    gl(get_proc, "glClear", None, u32)(0x4000)
    gl(get_proc, "glDisable", None, u32)(0x0C11)
    return gl(get_proc, "glGetString", ctypes.c_char_p, u32)(0x1F01)   # GL_RENDERER


def draw_corner(get_proc):
    """After the window grew to 80x60: glViewport (where the back buffer takes the
    window's size, as in Mesa), a blue clear, the back buffer's top-right pixel
    (79, 59), which a buffer of the old 64x48 size does not have."""
    f = ctypes.c_float
    gl(get_proc, "glViewport", None, i32, i32, i32, i32)(0, 0, 80, 60)
    gl(get_proc, "glClearColor", None, f, f, f, f)(0.0, 0.0, 1.0, 1.0)
    gl(get_proc, "glClear", None, u32)(0x4000)
    px = (ctypes.c_ubyte * 4)()
    gl(get_proc, "glReadPixels", None, i32, i32, i32, i32, u32, u32, vp)(
        79, 59, 1, 1, 0x1908, 0x1401, px)                              # RGBA, UNSIGNED_BYTE
    return list(px)


def check_image(what):
    check(f"{what}: background", window_pixel(40, 10) == (255, 128, 64), window_pixel(40, 10))
    # the square spans GL rows 4..11 = X rows H-12..H-5
    check(f"{what}: green square", window_pixel(6, H - 6) == (0, 255, 0), window_pixel(6, H - 6))
    check(f"{what}: outside the square", window_pixel(13, H - 6) == (255, 128, 64))


if mode == "egl":
    egl = ctypes.CDLL("libEGL.so.1")
    for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", u32, [vp, vp, vp]),
                            ("eglChooseConfig", u32, [vp, vp, vp, i32, vp]),
                            ("eglCreateWindowSurface", vp, [vp, vp, ul, vp]),
                            ("eglCreateContext", vp, [vp, vp, vp, vp]), ("eglBindAPI", u32, [u32]),
                            ("eglMakeCurrent", u32, [vp, vp, vp, vp]),
                            ("eglSwapBuffers", u32, [vp, vp]), ("eglGetError", i32, []),
                            ("eglQuerySurface", u32, [vp, vp, i32, vp]),
                            ("eglGetProcAddress", vp, [ctypes.c_char_p])):
        f = getattr(egl, name)
        f.restype, f.argtypes = res, args
    edpy = egl.eglGetDisplay(dpy)                 # glvnd recognises an X11 Display*
    check("X11 display", edpy and egl.eglInitialize(edpy, None, None), hex(egl.eglGetError()))
    cfg, n = vp(), i32()
    attrs = (i32 * 5)(0x3033, 0x4, 0x3040, 0x4, 0x3038)               # WINDOW_BIT, ES2
    check("window config", egl.eglChooseConfig(edpy, attrs, ctypes.byref(cfg), 1, ctypes.byref(n))
          and n.value == 1)
    surf = egl.eglCreateWindowSurface(edpy, cfg, win, None)
    check("window surface", bool(surf), hex(egl.eglGetError()))
    egl.eglBindAPI(0x30A0)
    ctx = egl.eglCreateContext(edpy, cfg, None, (i32 * 3)(0x3098, 2, 0x3038))
    check("make current", egl.eglMakeCurrent(edpy, surf, surf, ctx))
    renderer = draw(egl.eglGetProcAddress)
    check("renderer is shimgl", renderer is not None and renderer.startswith(b"shimgl"), renderer)
    check("eglSwapBuffers", egl.eglSwapBuffers(edpy, surf))
    X.XSync(dpy, 0)
    check_image("EGL window")
    X.XResizeWindow(dpy, win, 80, 60)
    X.XSync(dpy, 0)
    width = i32()
    egl.eglQuerySurface(edpy, surf, 0x3057, ctypes.byref(width))      # EGL_WIDTH
    check("EGL_WIDTH is the window's new width before a swap", width.value == 80, width.value)
    check("the back buffer follows at glViewport", draw_corner(egl.eglGetProcAddress) == [0, 0, 255, 255])
    egl.eglSwapBuffers(edpy, surf)
    egl.eglQuerySurface(edpy, surf, 0x3057, ctypes.byref(width))      # EGL_WIDTH
    check("the surface follows the window's size", width.value == 80, width.value)
    bad = egl.eglCreateWindowSurface(edpy, cfg, 0x7FFFFF, None)
    check("bad window: EGL_BAD_NATIVE_WINDOW", not bad and egl.eglGetError() == 0x300B)
    # eglCopyBuffers into an X pixmap of the window's (new) size
    for name, res, args in (("eglCopyBuffers", u32, [vp, vp, ul]),
                            ("eglCreatePixmapSurface", vp, [vp, vp, ul, vp])):
        f = getattr(egl, name)
        f.restype, f.argtypes = res, args
    draw(egl.eglGetProcAddress)              # the new back buffer's contents are undefined
    copy = X.XCreatePixmap(dpy, X.XRootWindow(dpy, screen), 80, 60, 24)
    check("eglCopyBuffers", egl.eglCopyBuffers(edpy, surf, copy), hex(egl.eglGetError()))
    X.XSync(dpy, 0)
    img = X.XGetImage(dpy, copy, 0, 0, 80, 60, 0xFFFFFFFF, 2)
    p = X.XGetPixel(img, 70, 5)
    X.XDestroyImage(img)
    check("the copy holds the surface", ((p >> 16) & 255, (p >> 8) & 255, p & 255)
          == (255, 128, 64), hex(p))
    # a pixmap surface: single-buffered, the pixmap gets the rendering at glFinish
    pcfg, n = vp(), i32()
    egl.eglChooseConfig(edpy, (i32 * 5)(0x3033, 0x2, 0x3040, 0x4, 0x3038), ctypes.byref(pcfg), 1,
                        ctypes.byref(n))                     # EGL_PIXMAP_BIT
    xpix = X.XCreatePixmap(dpy, X.XRootWindow(dpy, screen), 8, 8, 24)
    psurf = egl.eglCreatePixmapSurface(edpy, pcfg, xpix, None)
    check("pixmap surface", n.value == 1 and psurf and egl.eglMakeCurrent(edpy, psurf, psurf, ctx),
          hex(egl.eglGetError()))
    f = ctypes.c_float
    gl(egl.eglGetProcAddress, "glClearColor", None, f, f, f, f)(1.0, 0.0, 1.0, 1.0)
    gl(egl.eglGetProcAddress, "glClear", None, u32)(0x4000)
    gl(egl.eglGetProcAddress, "glFinish", None)()
    X.XSync(dpy, 0)
    img = X.XGetImage(dpy, xpix, 0, 0, 8, 8, 0xFFFFFFFF, 2)
    p = X.XGetPixel(img, 3, 3)
    X.XDestroyImage(img)
    check("the X pixmap holds the rendering", ((p >> 16) & 255, (p >> 8) & 255, p & 255)
          == (255, 0, 255), hex(p))
    egl.eglBindAPI(0x30A2)
    bad_ctx = egl.eglCreateContext(edpy, cfg, None, (i32 * 5)(0x3098, 9, 0x30FB, 9, 0x3038))
    check("GL 9.9: EGL_BAD_MATCH", not bad_ctx and egl.eglGetError() == 0x3009)
    egl.eglMakeCurrent(edpy, None, None, None)
else:
    glx = ctypes.CDLL("libGL.so.1")
    for name, res, args in (("glXChooseFBConfig", vp, [vp, i32, vp, vp]),
                            ("glXCreateNewContext", vp, [vp, vp, i32, vp, i32]),
                            ("glXMakeCurrent", i32, [vp, ul, vp]),
                            ("glXSwapBuffers", None, [vp, ul]),
                            ("glXQueryDrawable", None, [vp, ul, i32, vp]),
                            ("glXGetProcAddress", vp, [ctypes.c_char_p]),
                            ("glXGetClientString", ctypes.c_char_p, [vp, i32])):
        f = getattr(glx, name)
        f.restype, f.argtypes = res, args
    check("GLX vendor shimgl", glx.glXGetClientString(dpy, 1) == b"shimgl",
          glx.glXGetClientString(dpy, 1))
    n = i32()
    attrs = (i32 * 7)(0x8010, 1, 5, 1, 12, 24, 0)          # WINDOW_BIT, DOUBLEBUFFER, DEPTH 24
    configs = glx.glXChooseFBConfig(dpy, screen, attrs, ctypes.byref(n))
    check("double-buffered window configs", configs and n.value >= 1, n.value)
    cfg = ctypes.cast(configs, ctypes.POINTER(vp))[0]
    ctx = glx.glXCreateNewContext(dpy, cfg, 0x8014, None, 1)
    check("context", bool(ctx))
    check("make current on the X window", glx.glXMakeCurrent(dpy, win, ctx))
    renderer = draw(glx.glXGetProcAddress)
    check("renderer is shimgl", renderer is not None and renderer.startswith(b"shimgl"), renderer)
    # libGLX's own functions resolved as GL functions (eglretrace asks glvnd's libEGL
    # for glXGetCurrentDisplay: a GL dispatch stub the current GLX vendor fills)
    egl = ctypes.CDLL("libEGL.so.1")
    egl.eglGetProcAddress.restype, egl.eglGetProcAddress.argtypes = vp, [ctypes.c_char_p]
    for name, want in (("glXGetCurrentDisplay", dpy), ("glXGetCurrentDrawable", win),
                       ("glXGetCurrentContext", ctx)):
        stub = egl.eglGetProcAddress(name.encode())
        got = ctypes.CFUNCTYPE(vp)(stub)() if stub else None
        check(f"{name} through a GL dispatch stub", got == want, got)
    glx.glXSwapBuffers(dpy, win)
    X.XSync(dpy, 0)
    check_image("GLX window")
    X.XResizeWindow(dpy, win, 80, 60)
    X.XSync(dpy, 0)
    width = u32()
    glx.glXQueryDrawable(dpy, win, 0x801D, ctypes.byref(width))      # GLX_WIDTH
    check("GLX_WIDTH is the window's new width before a swap", width.value == 80, width.value)
    check("the back buffer follows at glViewport", draw_corner(glx.glXGetProcAddress) == [0, 0, 255, 255])
    glx.glXSwapBuffers(dpy, win)
    glx.glXQueryDrawable(dpy, win, 0x801D, ctypes.byref(width))      # GLX_WIDTH
    check("the drawable follows the window's size", width.value == 80, width.value)
    create_attribs = ctypes.CFUNCTYPE(vp, vp, vp, vp, i32, vp)(
        glx.glXGetProcAddress(b"glXCreateContextAttribsARB"))
    x_errors.clear()
    bad = create_attribs(dpy, cfg, None, 1, (i32 * 5)(0x2091, 9, 0x2092, 9, 0))
    X.XSync(dpy, 0)
    check("GL 9.9: NULL and BadMatch", not bad and [e[0] for e in x_errors] == [8], x_errors)
    x_errors.clear()
    check("bad drawable: False", not glx.glXMakeCurrent(dpy, 0x7FFFFF, ctx))
    X.XSync(dpy, 0)
    check("bad drawable: GLXBadDrawable", len(x_errors) == 1 and x_errors[0][2] == 5, x_errors)
    # a pbuffer (offscreen) and a GLX pixmap (drawn into the X pixmap at glFinish)
    for name, res, args in (("glXCreatePbuffer", ul, [vp, vp, vp]),
                            ("glXCreatePixmap", ul, [vp, vp, ul, vp]),
                            ("glXDestroyPbuffer", None, [vp, ul]),
                            ("glXDestroyPixmap", None, [vp, ul])):
        f = getattr(glx, name)
        f.restype, f.argtypes = res, args
    x_errors.clear()
    pbuf = glx.glXCreatePbuffer(dpy, cfg, (i32 * 5)(0x8041, 16, 0x8040, 8, 0))
    check("pbuffer", pbuf != 0 and glx.glXMakeCurrent(dpy, pbuf, ctx), x_errors)
    f = ctypes.c_float
    gl(glx.glXGetProcAddress, "glClearColor", None, f, f, f, f)(0.0, 0.0, 1.0, 1.0)
    gl(glx.glXGetProcAddress, "glClear", None, u32)(0x4000)
    px = (ctypes.c_ubyte * 4)()
    gl(glx.glXGetProcAddress, "glReadPixels", None, i32, i32, i32, i32, u32, u32, vp)(
        15, 7, 1, 1, 0x1908, 0x1401, px)
    check("pbuffer drawn", list(px) == [0, 0, 255, 255], list(px))
    # a double-buffered pbuffer swaps with no window to show (Blender's offscreen
    # contexts do; it raised inside the driver); the test checks stderr for it
    glx.glXSwapBuffers(dpy, pbuf)
    X.XSync(dpy, 0)
    check("pbuffer swapped", not x_errors and gl(glx.glXGetProcAddress, "glGetError", u32)() == 0, x_errors)
    glx.glXQueryDrawable(dpy, pbuf, 0x801D, ctypes.byref(width))
    check("pbuffer width", width.value == 16, width.value)
    single = (i32 * 5)(0x8010, 2, 5, 0, 0)                 # PIXMAP_BIT, single-buffered
    pconfigs = glx.glXChooseFBConfig(dpy, screen, single, ctypes.byref(n))
    check("pixmap configs", pconfigs and n.value >= 1, n.value)
    pcfg = ctypes.cast(pconfigs, ctypes.POINTER(vp))[0]
    pctx = glx.glXCreateNewContext(dpy, pcfg, 0x8014, None, 1)
    xpix = X.XCreatePixmap(dpy, X.XRootWindow(dpy, screen), 8, 8, 24)
    gpix = glx.glXCreatePixmap(dpy, pcfg, xpix, None)
    check("GLX pixmap", gpix != 0 and glx.glXMakeCurrent(dpy, gpix, pctx), x_errors)
    gl(glx.glXGetProcAddress, "glClearColor", None, f, f, f, f)(1.0, 0.0, 1.0, 1.0)
    gl(glx.glXGetProcAddress, "glClear", None, u32)(0x4000)
    gl(glx.glXGetProcAddress, "glFinish", None)()
    X.XSync(dpy, 0)
    img = X.XGetImage(dpy, xpix, 0, 0, 8, 8, 0xFFFFFFFF, 2)
    p = X.XGetPixel(img, 3, 3)
    X.XDestroyImage(img)
    check("the X pixmap holds the rendering", ((p >> 16) & 255, (p >> 8) & 255, p & 255)
          == (255, 0, 255), hex(p))
    glx.glXMakeCurrent(dpy, 0, None)
    glx.glXDestroyPixmap(dpy, gpix)
    glx.glXDestroyPbuffer(dpy, pbuf)
    X.XSync(dpy, 0)
    check("destroyed without errors", not x_errors, x_errors)
print(f"{failures} failures")
sys.exit(1 if failures else 0)
