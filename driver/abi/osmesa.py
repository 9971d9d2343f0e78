"""OSMesa on shimgl (the Python side of the OSMesa* exports of libOSMesa.so.8).

A context renders into its own window framebuffer; the caller's buffer
(OSMesaMakeCurrent) receives the image after glFinish, glFlush and when the
context stops being current (Mesa's OSMesa renders into it directly; programs
read it after glFinish, as its documentation asks). Formats: OSMESA_RGBA,
BGRA, ARGB, RGB, BGR with GL_UNSIGNED_BYTE. Contexts are desktop GL: the
compatibility profile unless OSMESA_CORE_PROFILE asks for core, or, a shimgl
extension Mesa's OSMesa lacks, OpenGL ES with OSMESA_PROFILE =
OSMESA_ES_PROFILE_SHIMGL (the token of osmesa_shimgl.h, the header shipped
beside the library, which is this module's source for its value): ES 1.0/1.1
give an ES 1.1 context, ES 2.0-3.2 an ES 3.2 one (the version rule of EGL,
egl.request_api). A request no context satisfies gives NULL and one line on
stderr. A context created with a sharelist (of the same API, desktop or ES)
joins its share group (driver.gl.objects.ShareGroup).

OSMesaGetDepthBuffer gives a copy of the window's depth buffer in the
layout OSMESA_DEPTH_BITS asks for (as Mesa's gallium OSMesa chooses its
depth format): up to 16 bits, 2-byte unsigned normalized values; up to 24,
4-byte values with the depth in the low 24 bits and the stencil in the top
8; more, 4-byte unsigned normalized values. Rows run in the colour buffer's
order (bottom to top unless OSMESA_Y_UP is 0). Once asked for, the copy is
refreshed whenever the colour buffer is (glFinish, glFlush, release)."""

from __future__ import annotations

import itertools
import re
import sys
import threading
from pathlib import Path

import numpy as np

from driver.abi import state
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
HEADER = Path(__file__).resolve().parent / "osmesa_shimgl.h"


def _header_token(name: str) -> int:
    """The value ``#define``d for ``name`` in osmesa_shimgl.h (the header C
    programs include is the one place the shimgl tokens are written)."""
    m = re.search(rf"^#define\s+{name}\s+(0x[0-9A-Fa-f]+|\d+)\s*$", HEADER.read_text(), re.M)
    if m is None:
        raise ImportError(f"{HEADER} does not define {name}")
    return int(m.group(1), 0)


OSMESA_ES_PROFILE_SHIMGL = _header_token("OSMESA_ES_PROFILE_SHIMGL")
PROFILES = (OSMESA_CORE_PROFILE, OSMESA_COMPAT_PROFILE, OSMESA_ES_PROFILE_SHIMGL)
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
    def __init__(self, fmt, api_name, depth_bits=24, share=None):
        from driver.agx.face import default_screen
        from driver.gl import Context as GLContext
        self.handle = next(_handles) * 16
        self.format = fmt
        self.depth_bits = depth_bits
        self.depth_copy = None       # np.ndarray behind OSMesaGetDepthBuffer's pointer
        self.screen = default_screen()
        self.pipe = self.screen.context_create()
        self.gl = GLContext(self.pipe, api_name, 1, 1,
                            share_group=share.gl.share_group if share is not None else None)
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
                for res in old.resources():
                    self.screen.resource_destroy(res)
        self.buffer, self.width, self.height = buffer, width, height
        if not self.made_current:
            self.made_current = True
            self.gl.glViewport(0, 0, width, height)
            self.gl.glScissor(0, 0, width, height)

    def after_flush(self) -> bool:
        """Copy the window's colour buffer into the caller's buffer. Whether it did."""
        if self.buffer == NULL or not self.width:
            return False
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
        if self.depth_copy is not None:
            self.read_depth()
        return True

    def read_depth(self):
        """Refresh self.depth_copy from the window's depth buffer (Z24S8)."""
        from driver.gallium import Box, PipeMap
        self.gl.glFinish()
        w, h = self.width, self.height
        tr = self.pipe.transfer_map(self.gl.window.depth_stencil, 0, PipeMap.READ,
                                    Box(0, 0, 0, w, h, 1))
        try:
            z24s8 = np.lib.stride_tricks.as_strided(
                np.frombuffer(tr.data, np.uint32), (h, w), (tr.stride_B, 4)).copy()
        finally:
            self.pipe.transfer_unmap(tr)
        if not self.y_up:
            z24s8 = z24s8[::-1]
        z24 = z24s8 & 0xFFFFFF
        if self.depth_bits <= 16:
            values = (z24 >> 8).astype(np.uint16)
        elif self.depth_bits <= 24:
            values = z24s8
        else:
            values = (z24 << 8) | (z24 >> 16)       # 24 -> 32 bits, 1.0 stays all ones
        if self.depth_copy is None or self.depth_copy.shape != values.shape \
                or self.depth_copy.dtype != values.dtype:
            self.depth_copy = np.ascontiguousarray(values)
        else:
            self.depth_copy[...] = values          # the caller's pointer stays valid

    def release(self):
        self.after_flush()
        self.thread = None

    def free(self):
        """As egl.Context.free: the GL objects, then the pipe context and its queue."""
        try:
            self.gl.destroy()
        except Exception as error:      # destroy never fails: say what was lost, free the rest
            print(f"shimgl: OSMesaDestroyContext: {error!r}; its objects may stay allocated", file=sys.stderr)
        self.pipe.destroy()


def _h(p) -> int:
    return int(ffi.cast("uintptr_t", p))


def _refuse(call: str, why: str):
    """OSMesa has no error query: a refused request is NULL and one line on
    stderr saying why."""
    print(f"shimgl: {call}: {why}; returning NULL", file=sys.stderr)
    return NULL


def _create(fmt, api_name, depth_bits=24, sharelist=None, call="OSMesaCreateContext"):
    share = None
    if sharelist is not None and sharelist != NULL:
        share = CONTEXTS.get(_h(sharelist))
        if share is None:
            return _refuse(call, f"sharelist {_h(sharelist):#x} is not an OSMesa context")
        from driver.gl.api import get_api
        es = (get_api(api_name) if isinstance(api_name, str) else api_name).es
        if share.gl.api.es != es:
            return _refuse(call, "the sharelist context is of another API (desktop GL and "
                                 "OpenGL ES contexts share nothing)")
    if fmt not in CHANNELS:
        return _refuse(call, f"format {fmt:#x} is not one of OSMESA_RGBA, BGRA, ARGB, RGB, BGR")
    ctx = OSContext(fmt, api_name, depth_bits, share)
    CONTEXTS[ctx.handle] = ctx
    return ffi.cast("OSMesaContext", ctx.handle)


def OSMesaCreateContext(fmt, sharelist):
    return _create(fmt, "compat", 24, sharelist, "OSMesaCreateContext")


def OSMesaCreateContextExt(fmt, depth_bits, stencil_bits, accum_bits, sharelist):
    return _create(fmt, "compat", depth_bits, sharelist, "OSMesaCreateContextExt")


def OSMesaCreateContextAttribs(attribs, sharelist):
    call = "OSMesaCreateContextAttribs"
    fmt, profile, major, minor, depth_bits = OSMESA_RGBA, OSMESA_COMPAT_PROFILE, 1, 0, 24
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
            elif k == OSMESA_DEPTH_BITS:
                depth_bits = v
            elif k not in (OSMESA_STENCIL_BITS, OSMESA_ACCUM_BITS):
                return _refuse(call, f"unknown attribute {k:#x}")
            i += 2
    if profile not in PROFILES:
        return _refuse(call, f"OSMESA_PROFILE {profile:#x} is not OSMESA_CORE_PROFILE, "
                             "OSMESA_COMPAT_PROFILE or OSMESA_ES_PROFILE_SHIMGL")
    es = profile == OSMESA_ES_PROFILE_SHIMGL
    from driver.gl.api import ContextRequestError, api_for_request   # the rule of EGL and GLX
    try:
        api = api_for_request(es, major, minor, profile == OSMESA_CORE_PROFILE)
    except ContextRequestError as e:
        return _refuse(call, str(e))
    return _create(fmt, api, depth_bits, sharelist, call)


def OSMesaDestroyContext(ctx):
    c = CONTEXTS.pop(_h(ctx), None)
    if c is None:
        return
    if state.current.owner is c:
        state.set_current(None, None)
    c.free()


def OSMesaMakeCurrent(ctx, buffer, type_, width, height):
    c = CONTEXTS.get(_h(ctx))
    if c is None or buffer == NULL or type_ != E.GL_UNSIGNED_BYTE:
        return 0
    if not (0 < width <= MAX_SIZE_PX and 0 < height <= MAX_SIZE_PX):
        return 0
    cur = state.current.owner
    if cur is not None and cur is not c and hasattr(cur, "release"):
        cur.release()
    elif cur is not None and cur is not c:         # an EGL context: release it
        from driver.abi import egl
        egl._release_current()
    c.attach(buffer, width, height)
    c.thread = threading.get_ident()
    state.set_current(c, c.gl)
    return 1


def OSMesaGetCurrentContext():
    cur = state.current.owner
    return ffi.cast("OSMesaContext", cur.handle if isinstance(cur, OSContext) else 0)


def OSMesaPixelStore(pname, value):
    c = state.current.owner
    if not isinstance(c, OSContext):
        return
    if pname == OSMESA_ROW_LENGTH and value >= 0:
        c.row_length = value
    elif pname == OSMESA_Y_UP:
        c.y_up = bool(value)


def OSMesaGetIntegerv(pname, value):
    c = state.current.owner
    if not isinstance(c, OSContext) and pname not in (OSMESA_MAX_WIDTH, OSMESA_MAX_HEIGHT):
        return
    values = {OSMESA_MAX_WIDTH: MAX_SIZE_PX, OSMESA_MAX_HEIGHT: MAX_SIZE_PX}
    if isinstance(c, OSContext):
        values |= {OSMESA_WIDTH: c.width, OSMESA_HEIGHT: c.height, OSMESA_FORMAT: c.format,
                   OSMESA_TYPE: E.GL_UNSIGNED_BYTE, OSMESA_ROW_LENGTH: c.row_length,
                   OSMESA_Y_UP: int(c.y_up)}
    if pname in values and value != NULL:
        ffi.cast("GLint *", value)[0] = values[pname]


def _store_buffer_query(width, height, third, buffer, values, pointer, ok: int) -> int:
    """Write ``values`` through the non-NULL GLint out-pointers and ``pointer``
    through ``buffer`` (if not NULL); returns ``ok``."""
    for p, v in zip((width, height, third), values):
        if p != NULL:
            ffi.cast("GLint *", p)[0] = v
    if buffer != NULL:
        ffi.cast("void **", buffer)[0] = pointer
    return ok


def OSMesaGetColorBuffer(ctx, width, height, fmt, buffer):
    c = CONTEXTS.get(_h(ctx))
    if c is None or c.buffer == NULL:
        return _store_buffer_query(width, height, fmt, buffer, (0, 0, 0), NULL, 0)
    c.after_flush()
    return _store_buffer_query(width, height, fmt, buffer, (c.width, c.height, c.format), c.buffer, 1)


def OSMesaGetDepthBuffer(ctx, width, height, bytes_per_value, buffer):
    """A copy of the depth buffer (see the module's docstring); false for a
    context without depth bits or never made current."""
    c = CONTEXTS.get(_h(ctx))
    if c is None or c.buffer == NULL or c.depth_bits <= 0:
        return _store_buffer_query(width, height, bytes_per_value, buffer, (0, 0, 0), NULL, 0)
    c.read_depth()
    return _store_buffer_query(width, height, bytes_per_value, buffer,
                               (c.width, c.height, c.depth_copy.itemsize),
                               ffi.cast("void *", c.depth_copy.ctypes.data), 1)


def OSMesaColorClamp(enable):
    return None


def OSMesaPostprocess(ctx, filter_, enable_value):
    return None


COMMANDS = {n: f for n, f in globals().items() if n.startswith("OSMesa") and callable(f)}
