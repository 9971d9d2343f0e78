"""X11 for shimgl's window-system bindings (EGL's X11 platform, GLX): libX11
through cffi's ABI mode (dlopen, no headers), the few calls a software
presenter needs, as Mesa's software winsys (xlib) does: find a window's size
and depth, and put the back buffer into it through MIT-SHM (libXext: a shared
segment per window size) or, when the server cannot attach one (a remote
display, no libXext), with XPutImage.

The declarations below are the parts of Xlib's public structures we read
(Visual, XVisualInfo, XErrorEvent), in Xlib's order. A window id that is not a
window (BadWindow, BadDrawable) is caught by a temporary error handler, so a
program's bad argument becomes an EGL/GLX error instead of Xlib's default
handler ending the process.

Nothing here is imported until a program uses X11 (or the library starts in
a process whose own cffi it sets aside: runtime.warm_up)."""

from __future__ import annotations

import threading

import numpy as np

__all__ = ["Connection", "Window", "available"]

CDEF = """
typedef struct _XDisplay Display;
typedef unsigned long XID;
typedef XID Window;
typedef XID Drawable;
typedef XID Pixmap;
typedef XID Colormap;
typedef XID GLXDrawable;
typedef unsigned long VisualID;
typedef struct _XGC *GC;
typedef struct _XImage XImage;
typedef struct {
    void *ext_data; VisualID visualid; int class;
    unsigned long red_mask, green_mask, blue_mask; int bits_per_rgb; int map_entries;
} Visual;
typedef struct {
    Visual *visual; VisualID visualid; int screen; unsigned int depth; int class;
    unsigned long red_mask; unsigned long green_mask; unsigned long blue_mask;
    int colormap_size; int bits_per_rgb;
} XVisualInfo;
typedef struct {
    int type; Display *display; XID resourceid; unsigned long serial;
    unsigned char error_code; unsigned char request_code; unsigned char minor_code;
} XErrorEvent;
typedef int (*XErrorHandler)(Display *, XErrorEvent *);
Display *XOpenDisplay(const char *name);
int XCloseDisplay(Display *dpy);
int XDefaultScreen(Display *dpy);
int XScreenCount(Display *dpy);
Visual *XDefaultVisual(Display *dpy, int screen);
int XDefaultDepth(Display *dpy, int screen);
VisualID XVisualIDFromVisual(Visual *visual);
XVisualInfo *XGetVisualInfo(Display *dpy, long mask, XVisualInfo *templ, int *n);
int XImageByteOrder(Display *dpy);
int XFree(void *data);
int XGetGeometry(Display *dpy, Drawable d, Window *root, int *x, int *y, unsigned int *width,
                 unsigned int *height, unsigned int *border, unsigned int *depth);
GC XCreateGC(Display *dpy, Drawable d, unsigned long mask, void *values);
int XFreeGC(Display *dpy, GC gc);
XImage *XCreateImage(Display *dpy, Visual *visual, unsigned int depth, int format, int offset,
                     char *data, unsigned int width, unsigned int height, int pad, int bytes_per_line);
int XPutImage(Display *dpy, Drawable d, GC gc, XImage *image, int src_x, int src_y,
              int dst_x, int dst_y, unsigned int width, unsigned int height);
int XFlush(Display *dpy);
int XSync(Display *dpy, int discard);
XErrorHandler XSetErrorHandler(XErrorHandler handler);
char *XDisplayString(Display *dpy);
int XQueryExtension(Display *dpy, const char *name, int *major_opcode, int *first_event,
                    int *first_error);
unsigned long XNextRequest(Display *dpy);
void *malloc(size_t size);
Window XRootWindow(Display *dpy, int screen);
Pixmap XCreatePixmap(Display *dpy, Drawable d, unsigned int width, unsigned int height,
                     unsigned int depth);
int XFreePixmap(Display *dpy, Pixmap pixmap);
typedef struct { unsigned long shmseg; int shmid; char *shmaddr; int readOnly; } XShmSegmentInfo;
int XShmQueryExtension(Display *dpy);
XImage *XShmCreateImage(Display *dpy, Visual *visual, unsigned int depth, int format, char *data,
                        XShmSegmentInfo *shminfo, unsigned int width, unsigned int height);
int XShmAttach(Display *dpy, XShmSegmentInfo *shminfo);
int XShmDetach(Display *dpy, XShmSegmentInfo *shminfo);
int XShmPutImage(Display *dpy, Drawable d, GC gc, XImage *image, int src_x, int src_y,
                 int dst_x, int dst_y, unsigned int width, unsigned int height, int send_event);
int shmget(int key, size_t size, int shmflg);
void *shmat(int shmid, const void *shmaddr, int shmflg);
int shmdt(const void *shmaddr);
int shmctl(int shmid, int cmd, void *buf);
"""

ZPIXMAP = 2
TRUE_COLOR = 4
LSB_FIRST = 0
VISUAL_ID_MASK, VISUAL_SCREEN_MASK, VISUAL_DEPTH_MASK, VISUAL_CLASS_MASK = 0x1, 0x2, 0x4, 0x8

_lock = threading.Lock()
_state: dict[str, object] = {}


def _load():
    """(ffi, lib) of libX11, or (None, None) when it cannot be loaded."""
    with _lock:
        if "lib" not in _state:
            import cffi
            ffi = cffi.FFI()
            ffi.cdef(CDEF)
            try:
                lib = ffi.dlopen("libX11.so.6")
            except OSError:
                lib = None
            _state["ffi"], _state["lib"] = ffi, lib
            _state["libc"] = ffi.dlopen(None)
            try:
                _state["xext"] = ffi.dlopen("libXext.so.6") if lib is not None else None
            except OSError:
                _state["xext"] = None
        return _state["ffi"], _state["lib"]


def malloc_array(c_type: str, values: list[int]):
    """A C array of pointer-sized values in malloc'ed memory (what a program
    frees with XFree), as the embedding's void *; NULL when empty."""
    ffi, _ = _load()
    libc = _state["libc"]
    if not values:
        return 0
    mem = libc.malloc(ffi.sizeof("void *") * len(values))
    arr = ffi.cast("uintptr_t *", mem)
    for i, v in enumerate(values):
        arr[i] = v
    return int(ffi.cast("uintptr_t", mem))


def available() -> bool:
    """libX11 can be loaded (the X11 platform and GLX are offered). A plain
    dlopen answers (EGL's client extension string asks at every start); the
    declarations above are parsed (pycparser, tens of ms) only when X11 is used."""
    if "lib" in _state:
        return _state["lib"] is not None
    with _lock:
        if "loadable" not in _state:
            import ctypes
            try:
                ctypes.CDLL("libX11.so.6")
                _state["loadable"] = True
            except OSError:
                _state["loadable"] = False
        return _state["loadable"]


class _Trap:
    """Catch X protocol errors of the requests made inside (Xlib's default
    handler would end the process). Not re-entrant; one at a time."""
    _guard = threading.Lock()

    def __init__(self, conn):
        self.conn = conn
        self.errors: list[int] = []

    def __enter__(self):
        ffi, lib = self.conn.ffi, self.conn.lib
        self._guard.acquire()
        lib.XSync(self.conn.dpy, 0)

        @ffi.callback("int(Display *, XErrorEvent *)")
        def handler(dpy, event):
            self.errors.append(int(event.error_code))
            return 0
        self._handler = handler
        self._old = lib.XSetErrorHandler(handler)
        return self

    def __exit__(self, *exc):
        lib = self.conn.lib
        try:
            lib.XSync(self.conn.dpy, 0)
        finally:
            lib.XSetErrorHandler(self._old)
            self._guard.release()
        return False


class Connection:
    """An X11 display connection: the program's Display* (native) or one
    opened on $DISPLAY (native None). `ok` is False when it could not open."""

    def __init__(self, native: int | None):
        self.ffi, self.lib = _load()
        self.own = native is None
        if self.lib is None:
            self.dpy, self.ok = None, False
            return
        if native is None:
            self.dpy = self.lib.XOpenDisplay(self.ffi.NULL)
        else:
            self.dpy = self.ffi.cast("Display *", native)
        self.ok = self.dpy != self.ffi.NULL
        self.screen = self.lib.XDefaultScreen(self.dpy) if self.ok else 0
        self.byte_order = self.lib.XImageByteOrder(self.dpy) if self.ok else LSB_FIRST

    def visuals(self, screen: int | None = None) -> list[tuple[int, int, int]]:
        """(visual id, depth, class) of the TrueColor visuals of depth 24 and
        32 with 8-bit channels in the screen: the ones we can present to."""
        ffi, lib = self.ffi, self.lib
        templ = ffi.new("XVisualInfo *")
        templ.screen = self.screen if screen is None else screen
        n = ffi.new("int *")
        infos = lib.XGetVisualInfo(self.dpy, VISUAL_SCREEN_MASK, templ, n)
        out = []
        if infos == ffi.NULL:
            return out
        try:
            for i in range(n[0]):
                v = infos[i]
                masks = {int(v.red_mask), int(v.green_mask), int(v.blue_mask)}
                if getattr(v, "class") == TRUE_COLOR and v.depth in (24, 32) \
                        and masks == {0xFF0000, 0xFF00, 0xFF}:
                    out.append((int(v.visualid), int(v.depth), TRUE_COLOR))
        finally:
            lib.XFree(infos)
        return out

    def default_visual(self) -> tuple[int, int]:
        """(visual id, X visual class) of the screen's default visual."""
        vis = self.lib.XDefaultVisual(self.dpy, self.screen)
        return int(self.lib.XVisualIDFromVisual(vis)), int(getattr(vis, "class"))

    def _visual_info(self, depth: int):
        ffi, lib = self.ffi, self.lib
        templ = ffi.new("XVisualInfo *")
        templ.screen, templ.depth = self.screen, depth
        setattr(templ, "class", TRUE_COLOR)
        n = ffi.new("int *")
        infos = lib.XGetVisualInfo(self.dpy, VISUAL_SCREEN_MASK | VISUAL_DEPTH_MASK
                                   | VISUAL_CLASS_MASK, templ, n)
        if infos == ffi.NULL:
            return None
        try:
            v = infos[0]
            return v.visual, (int(v.red_mask), int(v.green_mask), int(v.blue_mask))
        finally:
            lib.XFree(infos)

    def geometry(self, drawable: int) -> tuple[int, int, int] | None:
        """(width, height, depth) of a window or pixmap; None when the id is
        not a drawable of this display."""
        ffi, lib = self.ffi, self.lib
        root, x, y = ffi.new("Window *"), ffi.new("int *"), ffi.new("int *")
        w, h, border, depth = (ffi.new("unsigned int *") for _ in range(4))
        with _Trap(self) as trap:
            ok = lib.XGetGeometry(self.dpy, drawable, root, x, y, w, h, border, depth)
        if not ok or trap.errors:
            return None
        return int(w[0]), int(h[0]), int(depth[0])

    def window(self, xid: int) -> "Window | None":
        if xid == 0:
            return None
        g = self.geometry(xid)
        if g is None or g[2] not in (24, 32):
            return None
        info = self._visual_info(g[2])
        if info is None:
            return None
        return Window(self, xid, g[2], *info)

    def true_color_visuals(self) -> list[int]:
        """The ids of the screen's TrueColor visuals of the default visual's
        depth, the default visual first (an X server with a GLX extension has
        one per GLX config: Xvfb's and Xorg's have hundreds)."""
        ffi, lib = self.ffi, self.lib
        default = self.default_visual()[0]
        templ = ffi.new("XVisualInfo *")
        templ.screen, templ.depth = self.screen, lib.XDefaultDepth(self.dpy, self.screen)
        setattr(templ, "class", TRUE_COLOR)
        n = ffi.new("int *")
        infos = lib.XGetVisualInfo(self.dpy, VISUAL_SCREEN_MASK | VISUAL_DEPTH_MASK | VISUAL_CLASS_MASK, templ, n)
        if infos == ffi.NULL:
            return [default]
        try:
            ids = [int(infos[i].visualid) for i in range(n[0])]
        finally:
            lib.XFree(infos)
        return [default] + [v for v in ids if v != default]

    def visual_info(self, visual_id: int) -> int:
        """An XVisualInfo* (Xlib's allocation: the program frees it with XFree)
        of the visual, as an address; 0 when there is none."""
        ffi, lib = self.ffi, self.lib
        templ = ffi.new("XVisualInfo *")
        templ.visualid = visual_id
        n = ffi.new("int *")
        info = lib.XGetVisualInfo(self.dpy, VISUAL_ID_MASK, templ, n)
        return int(ffi.cast("uintptr_t", info)) if info != ffi.NULL else 0

    def visual_id_of(self, info_address: int) -> int:
        """The visual id of a program's XVisualInfo*."""
        return int(self.ffi.cast("XVisualInfo *", info_address).visualid)

    def reserve_id(self) -> int:
        """A new X id of this client (a 1x1 pixmap holds it until release_id)."""
        root = self.lib.XRootWindow(self.dpy, self.screen)
        depth = self.lib.XDefaultDepth(self.dpy, self.screen)
        return int(self.lib.XCreatePixmap(self.dpy, root, 1, 1, depth))

    def release_id(self, xid: int) -> None:
        self.lib.XFreePixmap(self.dpy, xid)
        self.lib.XFlush(self.dpy)

    def send_error(self, code: int, resource: int, minor_opcode: int, glx: bool) -> None:
        """Report a GLX protocol error to the program (its X error handler),
        as the GLX specification's errors are: `code` is a GLX error number
        (glx True: added to the extension's first error) or a core X error."""
        ffi, lib = self.ffi, self.lib
        major, first_event, first_error = (ffi.new("int *") for _ in range(3))
        if not lib.XQueryExtension(self.dpy, b"GLX", major, first_event, first_error):
            major[0] = first_error[0] = 0
        event = ffi.new("XErrorEvent *")
        event.type = 0
        event.display = self.dpy
        event.resourceid = resource
        event.serial = lib.XNextRequest(self.dpy) - 1
        event.error_code = (first_error[0] + code if glx else code) & 0xFF
        event.request_code = major[0] & 0xFF
        event.minor_code = minor_opcode & 0xFF
        # the program's handler, called as Xlib would (Xlib's default one
        # prints the error and ends the program, as with any GLX error)
        handler = lib.XSetErrorHandler(ffi.NULL)
        lib.XSetErrorHandler(handler)
        handler(self.dpy, event)

    def close(self):
        if self.own and self.ok:
            self.lib.XCloseDisplay(self.dpy)
            self.ok = False


class Window:
    """A drawable we present to: XPutImage of RGBA8 rows converted to the
    visual's 32-bit pixels."""

    def __init__(self, conn: Connection, xid: int, depth: int, visual, masks):
        self.conn, self.xid, self.depth, self.visual = conn, xid, depth, visual
        self.gc = conn.lib.XCreateGC(conn.dpy, xid, 0, conn.ffi.NULL)
        self.shm = None                 # _Shm while MIT-SHM is in use
        self.use_shm = _state.get("xext") is not None and \
            bool(_state["xext"].XShmQueryExtension(conn.dpy))
        # byte of each of R, G, B in a pixel as the server stores it
        self.byte_of = [self._byte(m) for m in masks]
        self.alpha_byte = ({0, 1, 2, 3} - set(self.byte_of)).pop()
        self.closed = False

    def _byte(self, mask: int) -> int:
        shift = (mask & -mask).bit_length() - 1
        index = shift // 8
        return index if self.conn.byte_order == LSB_FIRST else 3 - index

    def size(self) -> tuple[int, int]:
        g = self.conn.geometry(self.xid)
        return (g[0], g[1]) if g is not None else (0, 0)

    def put_rgba(self, rgba: np.ndarray, width: int, height: int) -> None:
        """rgba: (height, width, 4) uint8, bottom row first (GL's order)."""
        if self.closed or width <= 0 or height <= 0:
            return
        ffi, lib = self.conn.ffi, self.conn.lib
        src = rgba[::-1]
        pixels = np.empty((height, width, 4), np.uint8)
        for channel, byte in enumerate(self.byte_of):
            pixels[:, :, byte] = src[:, :, channel]
        pixels[:, :, self.alpha_byte] = src[:, :, 3] if self.depth == 32 else 255
        if self.use_shm and self._put_shm(pixels, width, height):
            return
        data = ffi.from_buffer("char[]", pixels)
        image = lib.XCreateImage(self.conn.dpy, self.visual, self.depth, ZPIXMAP, 0, data,
                                 width, height, 32, width * 4)
        if image == ffi.NULL:
            raise MemoryError("XCreateImage failed")
        try:
            lib.XPutImage(self.conn.dpy, self.xid, self.gc, image, 0, 0, 0, 0, width, height)
            lib.XFlush(self.conn.dpy)
        finally:
            lib.XFree(image)          # the structure only: `data` is numpy's

    def _put_shm(self, pixels: np.ndarray, width: int, height: int) -> bool:
        """MIT-SHM, as Mesa's software winsys prefers: the pixels go through a
        shared memory segment (one per size) instead of the X connection.
        False (and XPutImage from then on) when the server cannot attach it
        (a remote display)."""
        if self.shm is None or (self.shm.width, self.shm.height) != (width, height):
            self._drop_shm()
            self.shm = _Shm.create(self.conn, self.visual, self.depth, width, height)
            if self.shm is None:
                self.use_shm = False
                return False
        ffi, lib = self.conn.ffi, self.conn.lib
        np.frombuffer(ffi.buffer(self.shm.addr, width * height * 4), np.uint8)[:] = \
            pixels.reshape(-1)
        _state["xext"].XShmPutImage(self.conn.dpy, self.xid, self.gc, self.shm.image, 0, 0, 0, 0,
                                    width, height, 0)
        lib.XSync(self.conn.dpy, 0)     # the server has read the segment before it is reused
        return True

    def _drop_shm(self):
        if self.shm is not None:
            self.shm.destroy()
            self.shm = None

    def close(self):
        if not self.closed:
            self.closed = True
            if self.conn.ok:
                self._drop_shm()
                self.conn.lib.XFreeGC(self.conn.dpy, self.gc)


class _Shm:
    """One MIT-SHM segment attached to the server, with its XImage."""
    IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 0o1000, 0

    def __init__(self, conn, info, addr, image, width, height):
        self.conn, self.info, self.addr, self.image = conn, info, addr, image
        self.width, self.height = width, height

    @classmethod
    def create(cls, conn, visual, depth, width, height) -> "_Shm | None":
        ffi, libc, xext = conn.ffi, _state["libc"], _state["xext"]
        size = width * height * 4
        shmid = libc.shmget(cls.IPC_PRIVATE, size, cls.IPC_CREAT | 0o600)
        if shmid < 0:
            return None
        addr = libc.shmat(shmid, ffi.NULL, 0)
        if int(ffi.cast("intptr_t", addr)) == -1:
            libc.shmctl(shmid, cls.IPC_RMID, ffi.NULL)
            return None
        info = ffi.new("XShmSegmentInfo *")
        info.shmid, info.shmaddr, info.readOnly = shmid, ffi.cast("char *", addr), 0
        with _Trap(conn) as trap:
            attached = xext.XShmAttach(conn.dpy, info)
        libc.shmctl(shmid, cls.IPC_RMID, ffi.NULL)      # freed once both sides detach
        image = ffi.NULL
        if attached and not trap.errors:
            image = xext.XShmCreateImage(conn.dpy, visual, depth, ZPIXMAP, info.shmaddr, info,
                                         width, height)
        if image == ffi.NULL:
            if attached and not trap.errors:
                xext.XShmDetach(conn.dpy, info)
            libc.shmdt(addr)
            return None
        return cls(conn, info, addr, image, width, height)

    def destroy(self):
        xext, libc = _state["xext"], _state["libc"]
        xext.XShmDetach(self.conn.dpy, self.info)
        self.conn.lib.XSync(self.conn.dpy, 0)
        self.conn.lib.XFree(self.image)      # the structure only: the data is the segment
        libc.shmdt(self.addr)
