"""OSMesa on shimgl (the Python side of the OSMesa* exports of libOSMesa.so.8).

A context renders into its own window framebuffer; the caller's buffer
(OSMesaMakeCurrent) receives the image after glFinish, glFlush and when the
context stops being current (Mesa's OSMesa renders into it directly; programs
read it after glFinish, as its documentation asks). Formats: OSMESA_RGBA,
BGRA, ARGB, RGB, BGR with GL_UNSIGNED_BYTE. Contexts are desktop GL: the
compatibility profile (GL 3.3) unless OSMESA_CORE_PROFILE asks for core."""

from __future__ import annotations

import itertools
import threading

import numpy as np

from driver.abi import runtime
from driver.gl import enums as E

__all__ = ["COMMANDS", "bind"]

ffi = None
NULL = None

OSMESA_RGBA, OSMESA_BGRA, OSMESA_ARGB, OSMESA_RGB, OSMESA_BGR = 0x1908, 0x1, 0x2, 0x1907, 0x4
OSMESA_ROW_LENGTH, OSMESA_Y_UP = 0x10, 0x11
OSMESA_WIDTH, OSMESA_HEIGHT, OSMESA_FORMAT, OSMESA_TYPE = 0x20, 0x21, 0x22, 0x23
OSMESA_MAX_WIDTH, OSMESA_MAX_HEIGHT = 0x24, 0x25
OSMESA_DEPTH_BITS, OSMESA_STENCIL_BITS, OSMESA_ACCUM_BITS = 0x30, 0x31, 0x32
OSMESA_PROFILE, OSMESA_CORE_PROFILE, OSMESA_COMPAT_PROFILE = 0x33, 0x34, 0x35
OSMESA_CONTEXT_MAJOR_VERSION, OSMESA_CONTEXT_MINOR_VERSION = 0x36, 0x37
MAX_SIZE_PX = 8192
# channel order of each format, as indices into RGBA
CHANNELS = {OSMESA_RGBA: [0, 1, 2, 3], OSMESA_BGRA: [2, 1, 0, 3], OSMESA_ARGB: [3, 0, 1, 2],
            OSMESA_RGB: [0, 1, 2], OSMESA_BGR: [2, 1, 0]}

_handles = itertools.count(1)
CONTEXTS: dict[int, "OSContext"] = {}


def bind(the_ffi) -> None:
    global ffi, NULL
    ffi, NULL = the_ffi, the_ffi.NULL


class OSContext:
    def __init__(self, fmt, api_name):
        from driver.agx.face import default_screen
        from driver.gl import Context as GLContext
        self.handle = next(_handles) * 16
        self.format = fmt
        self.screen = default_screen()
        self.pipe = self.screen.context_create()
        self.gl = GLContext(self.pipe, api_name, 1, 1)
        self.buffer = NULL
        self.width = self.height = 0
        self.row_length = 0
        self.y_up = True
        self.made_current = False
        self.thread = None

    def attach(self, buffer, width, height):
        from driver.gl import DefaultFramebuffer
        if (width, height) != (self.width, self.height):
            old = self.gl.window
            self.gl.window = DefaultFramebuffer(self.screen, width, height)
            if self.made_current:
                self.screen.resource_destroy(old.color)
                self.screen.resource_destroy(old.depth_stencil)
        self.buffer, self.width, self.height = buffer, width, height
        if not self.made_current:
            self.made_current = True
            self.gl.glViewport(0, 0, width, height)
            self.gl.glScissor(0, 0, width, height)

    def after_flush(self):
        """Copy the window's colour buffer into the caller's buffer."""
        if self.buffer == NULL or not self.width:
            return
        from driver.gallium import Box, PipeMap
        self.gl.glFinish()
        res = self.gl.window.color
        tr = self.pipe.transfer_map(res, 0, PipeMap.READ, Box(0, 0, 0, self.width, self.height, 1))
        try:
            data = np.frombuffer(tr.data, np.uint8)
            rows = np.lib.stride_tricks.as_strided(
                data, (self.height, self.width * 4), (tr.stride_B, 1)).reshape(
                    self.height, self.width, 4)
            rgba = rows[:, :, CHANNELS[self.format]]
        finally:
            self.pipe.transfer_unmap(tr)
        if not self.y_up:
            rgba = rgba[::-1]
        nc = len(CHANNELS[self.format])
        row_px = self.row_length or self.width
        out = np.frombuffer(ffi.buffer(ffi.cast("char *", self.buffer), row_px * self.height * nc),
                            np.uint8).reshape(self.height, row_px, nc)
        out[:, :self.width] = rgba

    def release(self):
        self.after_flush()
        self.thread = None

    def free(self):
        try:
            self.gl.destroy()
            self.pipe.destroy()
        except Exception:     # pragma: no cover - best effort
            pass


def _h(p) -> int:
    return int(ffi.cast("uintptr_t", p))


def _create(fmt, api_name):
    if fmt not in CHANNELS:
        return NULL
    ctx = OSContext(fmt, api_name)
    CONTEXTS[ctx.handle] = ctx
    return ffi.cast("OSMesaContext", ctx.handle)


def OSMesaCreateContext(fmt, sharelist):
    return _create(fmt, "compat")


def OSMesaCreateContextExt(fmt, depth_bits, stencil_bits, accum_bits, sharelist):
    return _create(fmt, "compat")


def OSMesaCreateContextAttribs(attribs, sharelist):
    fmt, profile, major, minor = OSMESA_RGBA, OSMESA_COMPAT_PROFILE, 1, 0
    if attribs != NULL:
        arr = ffi.cast("int *", attribs)
        i = 0
        while arr[i] != 0 and i < 256:
            k, v = arr[i], arr[i + 1]
            if k == OSMESA_FORMAT:
                fmt = v
            elif k == OSMESA_PROFILE:
                profile = v
            elif k == OSMESA_CONTEXT_MAJOR_VERSION:
                major = v
            elif k == OSMESA_CONTEXT_MINOR_VERSION:
                minor = v
            elif k not in (OSMESA_DEPTH_BITS, OSMESA_STENCIL_BITS, OSMESA_ACCUM_BITS):
                return NULL
            i += 2
    version = (major, minor)
    if profile == OSMESA_CORE_PROFILE and version >= (3, 2):
        api_name = "gl43" if version <= (4, 3) else None     # newest compatible core
    else:
        api_name = "compat" if version <= (3, 3) else None
    return NULL if api_name is None else _create(fmt, api_name)


def OSMesaDestroyContext(ctx):
    c = CONTEXTS.pop(_h(ctx), None)
    if c is None:
        return
    if runtime.current.owner is c:
        runtime.set_current(None, None)
    c.free()


def OSMesaMakeCurrent(ctx, buffer, type_, width, height):
    c = CONTEXTS.get(_h(ctx))
    if c is None or buffer == NULL or type_ != E.GL_UNSIGNED_BYTE:
        return 0
    if not (0 < width <= MAX_SIZE_PX and 0 < height <= MAX_SIZE_PX):
        return 0
    cur = runtime.current.owner
    if cur is not None and cur is not c and hasattr(cur, "release"):
        cur.release()
    elif cur is not None and cur is not c:         # an EGL context: release it
        from driver.abi import egl
        egl._release_current()
    c.attach(buffer, width, height)
    c.thread = threading.get_ident()
    runtime.set_current(c, c.gl)
    return 1


def OSMesaGetCurrentContext():
    cur = runtime.current.owner
    return ffi.cast("OSMesaContext", cur.handle if isinstance(cur, OSContext) else 0)


def OSMesaPixelStore(pname, value):
    c = runtime.current.owner
    if not isinstance(c, OSContext):
        return
    if pname == OSMESA_ROW_LENGTH and value >= 0:
        c.row_length = value
    elif pname == OSMESA_Y_UP:
        c.y_up = bool(value)


def OSMesaGetIntegerv(pname, value):
    c = runtime.current.owner
    if not isinstance(c, OSContext) and pname not in (OSMESA_MAX_WIDTH, OSMESA_MAX_HEIGHT):
        return
    values = {OSMESA_MAX_WIDTH: MAX_SIZE_PX, OSMESA_MAX_HEIGHT: MAX_SIZE_PX}
    if isinstance(c, OSContext):
        values |= {OSMESA_WIDTH: c.width, OSMESA_HEIGHT: c.height, OSMESA_FORMAT: c.format,
                   OSMESA_TYPE: E.GL_UNSIGNED_BYTE, OSMESA_ROW_LENGTH: c.row_length,
                   OSMESA_Y_UP: int(c.y_up)}
    if pname in values and value != NULL:
        ffi.cast("GLint *", value)[0] = values[pname]


def OSMesaGetColorBuffer(ctx, width, height, fmt, buffer):
    c = CONTEXTS.get(_h(ctx))
    if c is None or c.buffer == NULL:
        for p in (width, height, fmt):
            if p != NULL:
                ffi.cast("GLint *", p)[0] = 0
        if buffer != NULL:
            ffi.cast("void **", buffer)[0] = NULL
        return 0
    c.after_flush()
    for p, v in ((width, c.width), (height, c.height), (fmt, c.format)):
        if p != NULL:
            ffi.cast("GLint *", p)[0] = v
    if buffer != NULL:
        ffi.cast("void **", buffer)[0] = c.buffer
    return 1


def OSMesaGetDepthBuffer(ctx, width, height, bytes_per_value, buffer):
    """The depth buffer lives in GPU memory (tiled, Z32F + S8): not exposed."""
    for p in (width, height, bytes_per_value):
        if p != NULL:
            ffi.cast("GLint *", p)[0] = 0
    if buffer != NULL:
        ffi.cast("void **", buffer)[0] = NULL
    return 0


def OSMesaColorClamp(enable):
    return None


def OSMesaPostprocess(ctx, filter_, enable_value):
    return None


COMMANDS = {n: f for n, f in globals().items() if n.startswith("OSMesa") and callable(f)}
