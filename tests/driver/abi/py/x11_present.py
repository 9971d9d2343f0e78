"""driver.abi.x11's presenter on its own: the same RGBA8 image (bottom row
first) put into a window through MIT-SHM and through XPutImage reads back the
same from the X server, top row first, and the window's size follows a
resize (a new shared segment). Prints "shm True" when MIT-SHM was used, "OK"."""

import ctypes

import numpy as np

from driver.abi import x11

vp, ul, i32, u32 = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_uint
X = ctypes.CDLL("libX11.so.6")
for name, res, args in (("XOpenDisplay", vp, [ctypes.c_char_p]), ("XRootWindow", ul, [vp, i32]),
                        ("XCreateSimpleWindow", ul, [vp, ul, i32, i32, u32, u32, u32, ul, ul]),
                        ("XMapWindow", i32, [vp, ul]), ("XSync", i32, [vp, i32]),
                        ("XGetImage", vp, [vp, ul, i32, i32, u32, u32, ul, i32]),
                        ("XGetPixel", ul, [vp, i32, i32]), ("XDestroyImage", i32, [vp])):
    f = getattr(X, name)
    f.restype, f.argtypes = res, args

dpy = X.XOpenDisplay(None)
W, H = 24, 10
xid = X.XCreateSimpleWindow(dpy, X.XRootWindow(dpy, 0), 0, 0, W, H, 0, 0, 0)
X.XMapWindow(dpy, xid)
X.XSync(dpy, 0)
conn = x11.Connection(dpy)
rng = np.random.default_rng(7)
rgba = rng.integers(0, 256, (H, W, 4), dtype=np.uint8)
# what X must hold: rows top-down, 0x00RRGGBB
want = [[(int(r) << 16) | (int(g) << 8) | int(b) for r, g, b, _ in row] for row in rgba[::-1]]


def read_back():
    img = X.XGetImage(dpy, xid, 0, 0, W, H, 0xFFFFFFFF, 2)
    try:
        return [[X.XGetPixel(img, x, y) & 0xFFFFFF for x in range(W)] for y in range(H)]
    finally:
        X.XDestroyImage(img)


for use_shm in (True, False):
    win = conn.window(xid)
    win.use_shm = win.use_shm and use_shm
    print("shm", win.use_shm)
    X.XSync(dpy, 0)
    win.put_rgba(rgba, W, H)
    X.XSync(dpy, 0)
    assert read_back() == want, f"use_shm={use_shm}"
    win.put_rgba(np.zeros_like(rgba), W, H)      # the same segment again
    X.XSync(dpy, 0)
    assert read_back() == [[0] * W for _ in range(H)]
    win.close()
print("OK")
