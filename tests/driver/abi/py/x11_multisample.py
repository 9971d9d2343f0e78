"""A multisampled GLX window (ctypes, through the system's glvnd libGL):
glXChooseFBConfig with GLX_SAMPLES 4 gives 4-sample configs (single-sampled
ones first when none are asked for); each config has a visual of its own (the
X server has enough TrueColor visuals), so glXChooseVisual with GLX_SAMPLES 4
gives the visual of a 4-sample config (glXGetConfig says 4). A window of a
4-sample config draws the lower-left half-triangle white on black; after
glXSwapBuffers the X server holds the resolved image: partly covered pixels
along the diagonal and a total coverage equal to the triangle's area
(W*H/2). Prints "ok ..."/"FAIL ..." lines and "N failures"."""

import ctypes
import sys

vp, i32, u32, ul = ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint32, ctypes.c_ulong
X = ctypes.CDLL("libX11.so.6")
for name, res, args in (("XOpenDisplay", vp, [ctypes.c_char_p]), ("XDefaultScreen", i32, [vp]),
                        ("XRootWindow", ul, [vp, i32]), ("XBlackPixel", ul, [vp, i32]),
                        ("XCreateSimpleWindow", ul, [vp, ul, i32, i32, u32, u32, u32, ul, ul]),
                        ("XMapWindow", i32, [vp, ul]), ("XSync", i32, [vp, i32]),
                        ("XGetImage", vp, [vp, ul, i32, i32, u32, u32, ul, i32]),
                        ("XGetPixel", ul, [vp, i32, i32]), ("XDestroyImage", i32, [vp])):
    f = getattr(X, name)
    f.restype, f.argtypes = res, args
glx = ctypes.CDLL("libGL.so.1")
for name, res, args in (("glXChooseFBConfig", vp, [vp, i32, vp, vp]),
                        ("glXGetFBConfigAttrib", i32, [vp, vp, i32, vp]),
                        ("glXChooseVisual", vp, [vp, i32, vp]),
                        ("glXGetConfig", i32, [vp, vp, i32, vp]),
                        ("glXCreateNewContext", vp, [vp, vp, i32, vp, i32]),
                        ("glXMakeCurrent", i32, [vp, ul, vp]), ("glXSwapBuffers", None, [vp, ul]),
                        ("glXGetProcAddress", vp, [ctypes.c_char_p])):
    f = getattr(glx, name)
    f.restype, f.argtypes = res, args
GLX_RGBA, GLX_DOUBLEBUFFER, GLX_SAMPLE_BUFFERS, GLX_SAMPLES = 4, 5, 100000, 100001
failures = 0


def check(what, cond, why=""):
    global failures
    print(("ok " if cond else "FAIL ") + what + ("" if cond else f": {why}"))
    failures += 0 if cond else 1


def gl(name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(glx.glXGetProcAddress(name.encode()))


dpy = X.XOpenDisplay(None)
assert dpy, "no X display"
screen = X.XDefaultScreen(dpy)


def configs(*attrs):
    n = i32()
    lst = (i32 * (len(attrs) + 1))(*attrs, 0)
    p = glx.glXChooseFBConfig(dpy, screen, lst, ctypes.byref(n))
    return [ctypes.cast(p, ctypes.POINTER(vp))[i] for i in range(n.value)] if p else []


def attrib(cfg, name):
    v = i32()
    glx.glXGetFBConfigAttrib(dpy, cfg, name, ctypes.byref(v))
    return v.value


plain = configs(GLX_DOUBLEBUFFER, 1)
check("single-sampled configs first", plain and attrib(plain[0], GLX_SAMPLES) == 0)
ms = configs(GLX_DOUBLEBUFFER, 1, GLX_SAMPLE_BUFFERS, 1, GLX_SAMPLES, 4)
check("4-sample configs", ms and all(attrib(c, GLX_SAMPLES) == 4 and attrib(c, GLX_SAMPLE_BUFFERS) == 1
                                     for c in ms), len(ms))
check("no 16-sample config", not configs(GLX_SAMPLES, 16))
check("glXChooseVisual: a plain visual", bool(glx.glXChooseVisual(dpy, screen, (i32 * 3)(GLX_RGBA, GLX_DOUBLEBUFFER, 0))))
ms_visual = glx.glXChooseVisual(dpy, screen, (i32 * 5)(GLX_RGBA, GLX_DOUBLEBUFFER, GLX_SAMPLES, 4, 0))
visual_samples = ctypes.c_int(-1)
if ms_visual:
    glx.glXGetConfig(dpy, ms_visual, GLX_SAMPLES, ctypes.byref(visual_samples))
check("glXChooseVisual: the visual of a 4-sample config", visual_samples.value == 4, visual_samples.value)

W, H = 64, 48
win = X.XCreateSimpleWindow(dpy, X.XRootWindow(dpy, screen), 0, 0, W, H, 0,
                            X.XBlackPixel(dpy, screen), X.XBlackPixel(dpy, screen))
X.XMapWindow(dpy, win)
X.XSync(dpy, 0)
ctx = glx.glXCreateNewContext(dpy, ms[0], 0x8014, None, 1)          # GLX_RGBA_TYPE
check("make current", bool(ctx) and glx.glXMakeCurrent(dpy, win, ctx))
samples = (i32 * 1)()
gl("glGetIntegerv", None, u32, vp)(0x80A9, samples)                  # GL_SAMPLES
check("GL_SAMPLES is 4", samples[0] == 4, samples[0])
f = ctypes.c_float
gl("glViewport", None, i32, i32, i32, i32)(0, 0, W, H)
gl("glClearColor", None, f, f, f, f)(0.0, 0.0, 0.0, 1.0)
gl("glClear", None, u32)(0x4000)
gl("glColor3f", None, f, f, f)(1.0, 1.0, 1.0)
gl("glBegin", None, u32)(0x0004)                                     # GL_TRIANGLES
for x, y in ((-1, -1), (1, -1), (-1, 1)):
    gl("glVertex2f", None, f, f)(x, y)
gl("glEnd", None)()
glx.glXSwapBuffers(dpy, win)
X.XSync(dpy, 0)
img = X.XGetImage(dpy, win, 0, 0, W, H, 0xFFFFFFFF, 2)
reds = [[(X.XGetPixel(img, x, y) >> 16) & 0xFF for x in range(W)] for y in range(H)]
X.XDestroyImage(img)
partial = sum(1 for row in reds for v in row if 0 < v < 255)
coverage = sum(sum(row) for row in reds) / 255
print("edge pixels", partial, "coverage", coverage)
check("partly covered pixels along the edge", H - 2 <= partial <= 2 * W, partial)
check("coverage is the triangle's area", abs(coverage - W * H / 2) <= W / 4, coverage)
glx.glXMakeCurrent(dpy, 0, None)
print(f"{failures} failures")
sys.exit(1 if failures else 0)
