"""EGL 1.5 on shimgl (the Python side of the egl* exports).

Displays: the surfaceless platform (EGL_MESA_platform_surfaceless; what
eglGetDisplay(EGL_DEFAULT_DISPLAY) returns unless EGL_PLATFORM names another),
the device platform (EGL_EXT_platform_device, one software device) and, when
libX11 can be loaded, X11 (EGL_KHR_platform_x11: window and pixmap surfaces
presented with MIT-SHM or XPutImage, driver/abi/x11.py). Each display has RGBA8
configs (depth 0/24, stencil 0/8; single-sampled and with 4 samples) with pbuffer
surfaces (and window and pixmap surfaces on X11),
contexts for OpenGL (compatibility, core) and OpenGL ES (the newest
backward-compatible version is what a request gets), surfaceless and
no-config contexts, fence syncs. Errors follow the EGL 1.5 specification:
every call sets the thread's error (EGL_SUCCESS on success); eglGetError
returns and resets it.

Devices (EGL_EXT_device_base: device_enumeration + device_query): one device,
the software GPU every display renders with. It advertises
EGL_MESA_device_software, as Mesa's software device does: it has no DRM render
node a client could open (no EGL_EXT_device_drm), and clients that choose
between hardware and software devices (VTK, glcontext) must be told it renders
in software.

Deliberate leniency: in eglChooseConfig an unspecified EGL_SURFACE_TYPE or
EGL_RENDERABLE_TYPE matches every config (the specification's defaults,
WINDOW_BIT and OPENGL_ES_BIT, would match none off X11, which has no windows);
eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, EGL_DEFAULT_DISPLAY) gives the
device display (what glvnd passes for EGL_PLATFORM=device).
A context created with a share_context joins its share group
(driver.gl.objects.ShareGroup): buffers, textures, renderbuffers, samplers,
shaders, programs, sync objects and display lists are shared."""

from __future__ import annotations

import itertools
import os
import sys
import threading

from driver.abi import state
from driver.abi._eglenums import *  # noqa: F403  (EGL_* constants, generated from egl.xml)
from driver.abi._eglenums import (
    EGL_BAD_ACCESS, EGL_BAD_ATTRIBUTE, EGL_BAD_CONFIG, EGL_BAD_CONTEXT, EGL_BAD_DISPLAY,
    EGL_BAD_MATCH, EGL_BAD_PARAMETER, EGL_BAD_SURFACE, EGL_NONE, EGL_NOT_INITIALIZED,
    EGL_SUCCESS,
)

__all__ = ["COMMANDS", "bind"]

ffi = None
NULL = None

DISPLAY_HANDLE = 0x5348474C           # "SHGL": the surfaceless display
DEVICE_DISPLAY_HANDLE = 0x5348474D    # the device platform's display
DEVICE_HANDLE = 0x53484456            # "SHDV": the one EGLDeviceEXT
EGL_BAD_DEVICE_EXT = 0x322B
EGL_DEVICE_EXT = 0x322C
EGL_CONTEXT_OPENGL_NO_ERROR_KHR = 0x31B3
DEVICE_EXTENSIONS = "EGL_MESA_device_software"
# X11 platform extensions are added when libX11 loads (x11_available)
CLIENT_EXTENSIONS_BASE = ("EGL_EXT_client_extensions EGL_EXT_platform_base "
                          "EGL_EXT_device_base EGL_EXT_device_enumeration EGL_EXT_device_query "
                          "EGL_EXT_platform_device EGL_KHR_client_get_all_proc_addresses "
                          "EGL_MESA_platform_surfaceless")
X11_CLIENT_EXTENSIONS = "EGL_KHR_platform_x11 EGL_EXT_platform_x11"
DISPLAY_EXTENSIONS = ("EGL_EXT_create_context_robustness "
                      "EGL_KHR_config_attribs EGL_KHR_context_flush_control "
                      "EGL_KHR_create_context EGL_KHR_create_context_no_error "
                      "EGL_KHR_fence_sync EGL_KHR_get_all_proc_addresses EGL_KHR_gl_colorspace "
                      "EGL_KHR_gl_renderbuffer_image EGL_KHR_gl_texture_2D_image "
                      "EGL_KHR_gl_texture_cubemap_image EGL_KHR_image_base "
                      "EGL_KHR_no_config_context EGL_KHR_reusable_sync EGL_KHR_surfaceless_context "
                      "EGL_KHR_wait_sync EGL_EXT_pixel_format_float "
                      "EGL_MESA_configless_context EGL_MESA_query_driver")
MAX_PBUFFER_PX = 8192


def bind(the_ffi) -> None:
    global ffi, NULL
    ffi, NULL = the_ffi, the_ffi.NULL


class EGLFail(Exception):
    def __init__(self, code: int):
        super().__init__(hex(code))
        self.code = code


def _check(cond, code) -> None:
    if not cond:
        raise EGLFail(code)


def _h(p) -> int:
    return int(ffi.cast("uintptr_t", p))


def _attribs(p, wide: bool) -> list[tuple[int, int]]:
    """(name, value) pairs of an EGL_NONE-terminated attribute list."""
    if p == NULL:
        return []
    arr = ffi.cast("EGLAttrib *" if wide else "EGLint *", p)
    out = []
    for i in itertools.count(0, 2):
        if arr[i] == EGL_NONE:
            return out
        _check(i < 512, EGL_BAD_ATTRIBUTE)
        out.append((int(arr[i]), int(arr[i + 1])))


# -- objects -------------------------------------------------------------------------
class Config:
    def __init__(self, config_id, depth, stencil, samples=0, window_visual=None):
        """window_visual: (visual id, X visual class) of the X11 display's
        visual, for configs that can draw to windows; None: pbuffers only.
        samples: 0, or the sample count of a multisampled config."""
        self.id, self.samples = config_id, samples
        surface_type = EGL_PBUFFER_BIT | (EGL_WINDOW_BIT | EGL_PIXMAP_BIT if window_visual else 0)
        visual_id, visual_type = window_visual or (0, EGL_NONE)
        self.attrs = {
            EGL_CONFIG_ID: config_id, EGL_BUFFER_SIZE: 32, EGL_RED_SIZE: 8, EGL_GREEN_SIZE: 8,
            EGL_BLUE_SIZE: 8, EGL_ALPHA_SIZE: 8, EGL_LUMINANCE_SIZE: 0, EGL_ALPHA_MASK_SIZE: 0,
            EGL_DEPTH_SIZE: depth, EGL_STENCIL_SIZE: stencil, EGL_SAMPLES: samples,
            EGL_SAMPLE_BUFFERS: int(samples > 1), EGL_CONFIG_CAVEAT: EGL_NONE, EGL_LEVEL: 0,
            EGL_COLOR_BUFFER_TYPE: EGL_RGB_BUFFER,
            EGL_MAX_PBUFFER_WIDTH: MAX_PBUFFER_PX, EGL_MAX_PBUFFER_HEIGHT: MAX_PBUFFER_PX,
            EGL_MAX_PBUFFER_PIXELS: MAX_PBUFFER_PX * MAX_PBUFFER_PX,
            EGL_NATIVE_RENDERABLE: 0, EGL_NATIVE_VISUAL_ID: visual_id,
            EGL_NATIVE_VISUAL_TYPE: visual_type,
            EGL_SURFACE_TYPE: surface_type, EGL_TRANSPARENT_TYPE: EGL_NONE,
            EGL_TRANSPARENT_RED_VALUE: 0, EGL_TRANSPARENT_GREEN_VALUE: 0,
            EGL_TRANSPARENT_BLUE_VALUE: 0,
            # eglBindTexImage: a pbuffer of a single-sampled config as an RGB or RGBA texture
            EGL_BIND_TO_TEXTURE_RGB: int(samples == 0), EGL_BIND_TO_TEXTURE_RGBA: int(samples == 0),
            EGL_MIN_SWAP_INTERVAL: 0, EGL_MAX_SWAP_INTERVAL: 1,
            EGL_RENDERABLE_TYPE: RENDERABLE_APIS,
            EGL_CONFORMANT: RENDERABLE_APIS,
            # EGL_EXT_pixel_format_float: every config is fixed-point
            EGL_COLOR_COMPONENT_TYPE_EXT: EGL_COLOR_COMPONENT_TYPE_FIXED_EXT,
        }


# (id, depth bits, stencil bits, samples); the sample count is one the screen renders
CONFIGS = ((1, 0, 0, 0), (2, 24, 8, 0), (3, 24, 0, 0), (4, 0, 8, 0),
           (5, 0, 0, 4), (6, 24, 8, 4), (7, 24, 0, 4), (8, 0, 8, 4))
# every config renders desktop GL, OpenGL ES 1.x (the fixed-function ES 1.1 context), 2.0 and 3.x
RENDERABLE_APIS = EGL_OPENGL_BIT | EGL_OPENGL_ES_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT
# attribute -> matching rule of EGL 1.5 table 3.4
AT_LEAST = {EGL_BUFFER_SIZE, EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_ALPHA_SIZE,
            EGL_LUMINANCE_SIZE, EGL_ALPHA_MASK_SIZE, EGL_DEPTH_SIZE, EGL_STENCIL_SIZE,
            EGL_SAMPLES, EGL_SAMPLE_BUFFERS}
MASK = {EGL_SURFACE_TYPE, EGL_RENDERABLE_TYPE, EGL_CONFORMANT}
EXACT = {EGL_CONFIG_ID, EGL_LEVEL, EGL_NATIVE_RENDERABLE, EGL_NATIVE_VISUAL_TYPE,
         EGL_TRANSPARENT_TYPE, EGL_BIND_TO_TEXTURE_RGB, EGL_BIND_TO_TEXTURE_RGBA,
         EGL_COLOR_BUFFER_TYPE, EGL_CONFIG_CAVEAT, EGL_MAX_SWAP_INTERVAL,
         EGL_MIN_SWAP_INTERVAL, EGL_TRANSPARENT_RED_VALUE, EGL_TRANSPARENT_GREEN_VALUE,
         EGL_TRANSPARENT_BLUE_VALUE, EGL_MATCH_NATIVE_PIXMAP, EGL_COLOR_COMPONENT_TYPE_EXT}
IGNORED_IN_CHOOSE = {EGL_MAX_PBUFFER_WIDTH, EGL_MAX_PBUFFER_HEIGHT, EGL_MAX_PBUFFER_PIXELS,
                     EGL_NATIVE_VISUAL_ID}


class Display:
    """One EGLDisplay: a platform and its native display (an X11 Display*
    as an int, 0 otherwise)."""

    def __init__(self, handle, platform, native=0, x11=None):
        self.handle, self.platform, self.native = handle, platform, native
        self.x11 = x11                   # driver.abi.x11.Connection of an X11 display
        self.initialized = False
        window_visual = x11.default_visual() if x11 is not None else None
        self.configs = [Config(i, d, s, n, window_visual) for i, d, s, n in CONFIGS]
        self.config_by_id = {c.id: c for c in self.configs}


DISPLAYS: dict[int, Display] = {}
_handles = itertools.count(0x100)
SURFACES: dict[int, "Surface"] = {}
CONTEXTS: dict[int, "Context"] = {}
SYNCS: dict[int, "Sync"] = {}


def _fixed_display(handle, platform) -> Display:
    d = DISPLAYS.get(handle)
    if d is None:
        d = DISPLAYS[handle] = Display(handle, platform)
    return d


def x11_available() -> bool:
    from driver.abi import x11
    return x11.available()


def client_extensions() -> str:
    return CLIENT_EXTENSIONS_BASE + (" " + X11_CLIENT_EXTENSIONS if x11_available() else "")


class Surface:
    """A pbuffer, or (window set) an X11 window's back buffer."""

    def __init__(self, display, config, width, height, attrs, window=None):
        from driver.gl import DefaultFramebuffer
        from driver.agx.face import default_screen
        self.handle = next(_handles) * 16
        self.display = display
        self.config, self.width, self.height, self.attrs = config, width, height, attrs
        self.window = window         # driver.abi.x11.Window, or None for a pbuffer
        # EGL_KHR_gl_colorspace: an sRGB surface's colour buffer is sRGB-encoded
        self.srgb = attrs.get(EGL_GL_COLORSPACE) == EGL_GL_COLORSPACE_SRGB
        self.fb = DefaultFramebuffer(default_screen(), max(width, 1), max(height, 1), config.samples,
                                     srgb=self.srgb)
        self.fit_config_bits()
        self.current_in = None       # the Context this surface is bound to
        self.destroyed = False
        self.swap_interval = 1
        self.texture_binding = None  # eglBindTexImage's SurfaceBinding (driver.gl.features.egl_image)

    def resize(self, width, height) -> bool:
        """Follow the window's size (checked at make-current and swap, as
        Mesa's X11 platform does): a new back buffer when it changed."""
        if (width, height) == (self.width, self.height) or width <= 0 or height <= 0:
            return False
        from driver.gl import DefaultFramebuffer
        from driver.agx.face import default_screen
        old = self.fb
        self.fb = DefaultFramebuffer(default_screen(), width, height, self.config.samples, srgb=self.srgb)
        self.fit_config_bits()
        self.width, self.height = width, height
        self._free_fb(old)
        return True

    def fit_config_bits(self) -> None:
        """The framebuffer's depth and stencil bits are the config's (EGL or GLX):
        the GL then tests depth and stencil only where the config has them (a
        config without a depth buffer passes every depth test, as GL 4.6 section
        17.3.4 says), and GL_DEPTH_BITS/GL_STENCIL_BITS read them."""
        if hasattr(self.config, "stencil"):           # a GLX config
            depth, stencil = self.config.depth, self.config.stencil
        else:
            depth, stencil = self.config.attrs[EGL_DEPTH_SIZE], self.config.attrs[EGL_STENCIL_SIZE]
        self.fb.bits = self.fb.bits[:4] + (depth, stencil)

    @staticmethod
    def _free_fb(fb):
        from driver.agx.face import default_screen
        screen = default_screen()
        for res in fb.resources():
            screen.resource_destroy(res)

    def bound_to_texture(self) -> bool:
        return self.texture_binding is not None and self.texture_binding.bound

    def release_texture(self) -> None:
        """eglReleaseTexImage, and eglDestroySurface of a bound pbuffer (EGL 1.5
        section 3.6.1): the texture loses the colour buffer."""
        if self.texture_binding is not None:
            self.texture_binding.release()
            self.texture_binding = None

    def free(self):
        self.release_texture()
        self._free_fb(self.fb)
        if self.window is not None:
            self.window.close()


class Context:
    def __init__(self, display, config, api_name, client_api, version, share=None,
                 reset_strategy=EGL_NO_RESET_NOTIFICATION):
        from driver.agx.face import default_screen
        from driver.gl import Context as GLContext
        self.handle = next(_handles) * 16
        self.display = display
        from driver.gl.features.robustness import set_reset_notification_strategy
        self.config, self.api_name, self.client_api, self.version = config, api_name, client_api, version
        self.screen = default_screen()
        self.pipe = self.screen.context_create()
        self.gl = GLContext(self.pipe, api_name, 1, 1,
                            share_group=share.gl.share_group if share is not None else None)
        self.own_window = self.gl.window
        self.thread = None           # threading ident while current
        self.reset_strategy = reset_strategy
        set_reset_notification_strategy(self.gl, RESET_STRATEGIES[reset_strategy])
        self.draw = self.read = None
        self.made_current = False
        self.destroyed = False
        self.release_flush = True        # EGL_KHR_context_flush_control

    def bind_surface(self, draw):
        if draw is not None and draw.window is not None:
            draw.resize(*draw.window.size())
        if draw is not None:
            draw.fit_config_bits()         # (a GLX window's config is set after its surface)
        old, new = self.gl.window, draw.fb if draw is not None else self.own_window
        if draw is not None and self.made_current and new is not old:
            # framebuffer 0's DRAW_BUFFER and READ_BUFFER are the context's state: the
            # drawable made current takes them (as Mesa's make-current re-applies its
            # ctx->Color.DrawBuffer), so glDrawBuffer(GL_FRONT) survives a switch of windows
            new.draw_buffers, new.read_buffer = list(old.draw_buffers), old.read_buffer
        self.gl.window = new
        if draw is not None and not self.made_current:
            self.made_current = True
            self.gl.glViewport(0, 0, draw.width, draw.height)
            self.gl.glScissor(0, 0, draw.width, draw.height)

    def after_flush(self) -> bool:
        """A single-buffered drawable (an X11 pixmap) receives the rendering
        at glFlush/glFinish (runtime calls this after them). Whether it did."""
        d = self.draw
        if d is not None and d.window is not None \
                and d.attrs.get(EGL_RENDER_BUFFER) == EGL_SINGLE_BUFFER:
            present(self, d)
            return True
        return False

    def free(self):
        """Release the GL context's objects, then the pipe context and its queue (the
        kernel's threads behind it): the queue goes even when the first part fails."""
        self.gl.window = self.own_window
        try:
            self.gl.destroy()
        except Exception as error:      # destroy never fails: say what was lost, free the rest
            print(f"shimgl: destroying context {self.handle:#x}: {error!r}; its objects may stay allocated",
                  file=sys.stderr)
        self.pipe.destroy()


class Sync:
    """A fence sync (EGL 1.5 section 3.8.1: the GPU work submitted before it) or
    a reusable sync (EGL_KHR_reusable_sync: signalled and unsignalled by
    eglSignalSyncKHR). Waiting on a reusable sync waits on a condition of the
    ABI's lock (driver.abi.state.LOCK), which the wait releases: another thread's
    eglSignalSyncKHR can then run."""

    def __init__(self, display, ctx, sync_type):
        self.handle = next(_handles) * 16
        self.display = display
        self.type = sync_type
        self.signaled = False
        if sync_type == EGL_SYNC_REUSABLE_KHR:
            self.changed = threading.Condition(state.LOCK)
        else:
            from driver.gallium import PipeFlush
            self.screen = ctx.screen
            self.fence = ctx.pipe.flush(PipeFlush.NONE)

    def wait(self, timeout_ns: int) -> bool:
        """Whether the sync is signalled, after waiting up to timeout_ns for it
        (PIPE_TIMEOUT_INFINITE: without a deadline)."""
        if self.type == EGL_SYNC_REUSABLE_KHR:
            from driver.gallium.defines import PIPE_TIMEOUT_INFINITE
            if not self.signaled and timeout_ns:
                limit = None if timeout_ns == PIPE_TIMEOUT_INFINITE else timeout_ns / 1e9
                with self.changed:
                    self.changed.wait_for(lambda: self.signaled, limit)
            return self.signaled
        if not self.signaled:
            self.signaled = bool(self.screen.fence_finish(self.fence, timeout_ns))
        return self.signaled

    def signal(self, signaled: bool) -> None:
        with self.changed:
            self.signaled = signaled
            if signaled:
                self.changed.notify_all()


# -- helpers -------------------------------------------------------------------------
def _display(dpy, initialized=True) -> Display:
    d = DISPLAYS.get(_h(dpy))
    _check(d is not None, EGL_BAD_DISPLAY)
    if initialized:
        _check(d.initialized, EGL_NOT_INITIALIZED)
    return d


def _config(display, cfg) -> Config:
    c = display.config_by_id.get(_h(cfg))
    _check(c is not None, EGL_BAD_CONFIG)
    return c


def _surface(s) -> Surface:
    surf = SURFACES.get(_h(s))
    _check(surf is not None, EGL_BAD_SURFACE)
    return surf


def _context(c) -> Context:
    ctx = CONTEXTS.get(_h(c))
    _check(ctx is not None, EGL_BAD_CONTEXT)
    return ctx


def _put(p, c_type, value) -> None:
    if p != NULL:
        ffi.cast(c_type + " *", p)[0] = value


def _entry(fail):
    """Decorator: set EGL_SUCCESS, run, map EGLFail to the thread's error and
    the command's failure value."""
    def wrap(fn):
        def entry(*args):
            state.current.egl_error = EGL_SUCCESS
            try:
                return fn(*args)
            except EGLFail as e:
                state.current.egl_error = e.code
                return fail() if callable(fail) else fail
            except Exception as e:       # internal error: EGL_BAD_ALLOC, never a crash
                state._report(fn.__name__, e)
                state.current.egl_error = EGL_BAD_ALLOC
                return fail() if callable(fail) else fail
        entry.__name__ = fn.__name__
        return entry
    return wrap


def _null():
    return NULL


COMMANDS: dict[str, object] = {}


def command(fail=0, names=()):
    def reg(fn):
        e = _entry(fail)(fn)
        COMMANDS[fn.__name__] = e
        for n in names:
            COMMANDS[n] = e
        return fn
    return reg


# -- errors, displays ------------------------------------------------------------------
def eglGetError():
    err, state.current.egl_error = state.current.egl_error, EGL_SUCCESS
    return err


COMMANDS["eglGetError"] = eglGetError


_X11_BY_NATIVE: dict[int, Display] = {}
_warned_platform: set[str] = set()
EGL_PLATFORM_X11_SCREEN_KHR = 0x31D6


def _x11_display(native: int) -> Display:
    """The display of an X11 connection (a Display* of the program's, or
    0: a connection of our own to $DISPLAY, as Mesa opens for EGL_DEFAULT_DISPLAY)."""
    d = _X11_BY_NATIVE.get(native)
    if d is None:
        from driver.abi import x11
        _check(x11.available(), EGL_BAD_PARAMETER)
        conn = x11.Connection(native or None)
        _check(conn.ok, EGL_BAD_PARAMETER if native else EGL_BAD_DISPLAY)
        h = next(_handles) * 16
        d = _X11_BY_NATIVE[native] = DISPLAYS[h] = Display(h, EGL_PLATFORM_X11_KHR, native, conn)
    return d


def _default_platform() -> int:
    """EGL_PLATFORM (as Mesa reads it) for eglGetDisplay(EGL_DEFAULT_DISPLAY):
    surfaceless (the default), device or x11."""
    name = os.environ.get("EGL_PLATFORM", "")
    platforms = {"": EGL_PLATFORM_SURFACELESS_MESA, "surfaceless": EGL_PLATFORM_SURFACELESS_MESA,
                 "device": EGL_PLATFORM_DEVICE_EXT, "x11": EGL_PLATFORM_X11_KHR}
    if name not in platforms:
        if name not in _warned_platform:
            _warned_platform.add(name)
            print(f"shimgl: EGL_PLATFORM={name!r} is not a platform of shimgl (surfaceless, "
                  "device, x11); using surfaceless", file=sys.stderr)
        return EGL_PLATFORM_SURFACELESS_MESA
    return platforms[name]


@command(fail=_null)
def eglGetDisplay(native):
    """EGL_DEFAULT_DISPLAY: the platform EGL_PLATFORM names (surfaceless by
    default); anything else must be an X11 Display*."""
    if _h(native) == 0:
        return _platform_display(_default_platform(), native, NULL, False)
    return _platform_display(EGL_PLATFORM_X11_KHR, native, NULL, False)


def _platform_display(platform, native, attribs, wide):
    attrs = _attribs(attribs, wide)
    if platform == EGL_PLATFORM_SURFACELESS_MESA:
        _check(_h(native) == 0, EGL_BAD_PARAMETER)
        _check(not attrs, EGL_BAD_ATTRIBUTE)
        d = _fixed_display(DISPLAY_HANDLE, platform)
    elif platform == EGL_PLATFORM_DEVICE_EXT:
        # EGL_EXT_platform_device: native is an EGLDeviceEXT; EGL_DEFAULT_DISPLAY
        # (glvnd's EGL_PLATFORM=device) is the one device too
        _check(_h(native) in (0, DEVICE_HANDLE), EGL_BAD_PARAMETER)
        _check(not attrs, EGL_BAD_ATTRIBUTE)
        d = _fixed_display(DEVICE_DISPLAY_HANDLE, platform)
    elif platform == EGL_PLATFORM_X11_KHR and x11_available():
        for k, v in attrs:
            _check(k == EGL_PLATFORM_X11_SCREEN_KHR, EGL_BAD_ATTRIBUTE)
        d = _x11_display(_h(native))
    else:
        raise EGLFail(EGL_BAD_PARAMETER)
    return ffi.cast("EGLDisplay", d.handle)


@command(fail=_null)
def eglGetPlatformDisplay(platform, native, attribs):
    return _platform_display(platform, native, attribs, True)


@command(fail=_null)
def eglGetPlatformDisplayEXT(platform, native, attribs):
    return _platform_display(platform, native, attribs, False)


@command()
def eglInitialize(dpy, major, minor):
    d = _display(dpy, initialized=False)
    d.initialized = True
    _put(major, "EGLint", 1)
    _put(minor, "EGLint", 5)
    return 1


@command()
def eglTerminate(dpy):
    d = _display(dpy, initialized=False)
    d.initialized = False
    for table in (CONTEXTS, SURFACES):
        for h, obj in list(table.items()):
            if obj.display is not d:
                continue
            bound = obj.thread is not None if isinstance(obj, Context) else obj.current_in is not None
            obj.destroyed = True
            if not bound:
                del table[h]
                obj.free()
    for h, sync in list(SYNCS.items()):
        if sync.display is d:
            del SYNCS[h]
    for h, image_display in list(IMAGE_DISPLAYS.items()):
        if image_display is d:
            _destroy_image(h)
    return 1


# -- devices (EGL_EXT_device_base) ----------------------------------------------------------
@command()
def eglQueryDevicesEXT(max_devices, devices, num_devices):
    _check(num_devices != NULL, EGL_BAD_PARAMETER)
    _check(devices == NULL or max_devices > 0, EGL_BAD_PARAMETER)
    n = 1 if devices == NULL else min(1, max_devices)
    if devices != NULL:
        ffi.cast("EGLDeviceEXT *", devices)[0] = ffi.cast("EGLDeviceEXT", DEVICE_HANDLE)
    _put(num_devices, "EGLint", n)
    return 1


def _device(dev):
    _check(_h(dev) == DEVICE_HANDLE, EGL_BAD_DEVICE_EXT)


@command(fail=_null)
def eglQueryDeviceStringEXT(device, name):
    _device(device)
    _check(name == EGL_EXTENSIONS, EGL_BAD_PARAMETER)
    return _cstring(DEVICE_EXTENSIONS)


@command()
def eglQueryDeviceAttribEXT(device, attribute, value):
    _device(device)
    raise EGLFail(EGL_BAD_ATTRIBUTE)       # no extension of ours defines device attributes


@command(names=("eglQueryDisplayAttribKHR",))
def eglQueryDisplayAttribEXT(dpy, attribute, value):
    _display(dpy)
    _check(value != NULL, EGL_BAD_PARAMETER)
    _check(attribute == EGL_DEVICE_EXT, EGL_BAD_ATTRIBUTE)
    _put(value, "EGLAttrib", DEVICE_HANDLE)
    return 1


_strings: dict[str, object] = {}


def _cstring(s: str):
    c = _strings.get(s)
    if c is None:
        c = _strings[s] = ffi.new("char[]", s.encode())
    return c


@command(fail=_null)
def eglQueryString(dpy, name):
    if _h(dpy) == 0:
        _check(name in (EGL_EXTENSIONS, EGL_VERSION), EGL_BAD_DISPLAY)
        return _cstring(client_extensions() if name == EGL_EXTENSIONS else "1.5 shimgl")
    _display(dpy)
    values = {EGL_VENDOR: "shimgl", EGL_VERSION: "1.5 shimgl",
              EGL_CLIENT_APIS: "OpenGL OpenGL_ES", EGL_EXTENSIONS: DISPLAY_EXTENSIONS}
    _check(name in values, EGL_BAD_PARAMETER)
    return _cstring(values[name])


# -- configs -----------------------------------------------------------------------------
def _write_configs(configs, out, size, num):
    _check(num != NULL, EGL_BAD_PARAMETER)
    n = len(configs)
    if out != NULL:
        n = min(n, max(size, 0))
        arr = ffi.cast("EGLConfig *", out)
        for i in range(n):
            arr[i] = ffi.cast("EGLConfig", configs[i].id)
    _put(num, "EGLint", n)
    return 1


@command()
def eglGetConfigs(dpy, configs, size, num):
    d = _display(dpy)
    return _write_configs(d.configs, configs, size, num)


@command()
def eglChooseConfig(dpy, attribs, configs, size, num):
    d = _display(dpy)
    # EGL_EXT_pixel_format_float: unless asked, only fixed-point configs match
    want = {EGL_COLOR_COMPONENT_TYPE_EXT: EGL_COLOR_COMPONENT_TYPE_FIXED_EXT, **dict(_attribs(attribs, False))}
    for k in want:
        _check(k in AT_LEAST or k in MASK or k in EXACT or k in IGNORED_IN_CHOOSE,
               EGL_BAD_ATTRIBUTE)
    if EGL_CONFIG_ID in want and want[EGL_CONFIG_ID] != EGL_DONT_CARE:
        found = [c for c in d.configs if c.id == want[EGL_CONFIG_ID]]
        return _write_configs(found, configs, size, num)
    found = []
    for c in d.configs:
        ok = True
        for k, v in want.items():
            if v == EGL_DONT_CARE or k in IGNORED_IN_CHOOSE:
                continue
            have = c.attrs.get(k, 0)
            if k in AT_LEAST:
                ok = have >= v
            elif k in MASK:
                ok = have & v == v
            elif k == EGL_MATCH_NATIVE_PIXMAP:
                ok = False
            else:
                ok = have == v
            if not ok:
                break
        if ok:
            found.append(c)
    # EGL 1.5 section 3.4.1.2 sort (colour bits equal): smaller buffer, fewer sample
    # buffers and samples, smaller depth, stencil first
    found.sort(key=lambda c: (c.attrs[EGL_BUFFER_SIZE], c.attrs[EGL_SAMPLE_BUFFERS], c.attrs[EGL_SAMPLES],
                              c.attrs[EGL_DEPTH_SIZE], c.attrs[EGL_STENCIL_SIZE], c.id))
    return _write_configs(found, configs, size, num)


@command()
def eglGetConfigAttrib(dpy, config, attribute, value):
    c = _config(_display(dpy), config)
    _check(attribute in c.attrs, EGL_BAD_ATTRIBUTE)
    _put(value, "EGLint", c.attrs[attribute])
    return 1


# -- surfaces -------------------------------------------------------------------------------
PBUFFER_ATTRS = {EGL_WIDTH, EGL_HEIGHT, EGL_LARGEST_PBUFFER, EGL_TEXTURE_FORMAT,
                 EGL_TEXTURE_TARGET, EGL_MIPMAP_TEXTURE, EGL_GL_COLORSPACE,
                 EGL_VG_ALPHA_FORMAT, EGL_VG_COLORSPACE}


@command(fail=_null)
def eglCreatePbufferSurface(dpy, config, attribs):
    d = _display(dpy)
    c = _config(d, config)
    attrs = {EGL_WIDTH: 0, EGL_HEIGHT: 0, EGL_TEXTURE_FORMAT: EGL_NO_TEXTURE,
             EGL_TEXTURE_TARGET: EGL_NO_TEXTURE, EGL_LARGEST_PBUFFER: 0, EGL_MIPMAP_TEXTURE: 0,
             EGL_GL_COLORSPACE: EGL_GL_COLORSPACE_LINEAR}
    for k, v in _attribs(attribs, False):
        _check(k in PBUFFER_ATTRS, EGL_BAD_ATTRIBUTE)
        attrs[k] = v
    _check_colorspace(attrs)
    w, h = attrs[EGL_WIDTH], attrs[EGL_HEIGHT]
    _check(w >= 0 and h >= 0, EGL_BAD_PARAMETER)
    # EGL 1.5 section 3.5.2: a texture format the config can bind, a 2D target, both or neither
    fmt, target = attrs[EGL_TEXTURE_FORMAT], attrs[EGL_TEXTURE_TARGET]
    _check(fmt in (EGL_NO_TEXTURE, EGL_TEXTURE_RGB, EGL_TEXTURE_RGBA), EGL_BAD_ATTRIBUTE)
    _check(target in (EGL_NO_TEXTURE, EGL_TEXTURE_2D), EGL_BAD_ATTRIBUTE)
    _check(fmt != EGL_TEXTURE_RGB or c.attrs[EGL_BIND_TO_TEXTURE_RGB], EGL_BAD_ATTRIBUTE)
    _check(fmt != EGL_TEXTURE_RGBA or c.attrs[EGL_BIND_TO_TEXTURE_RGBA], EGL_BAD_ATTRIBUTE)
    _check((fmt == EGL_NO_TEXTURE) == (target == EGL_NO_TEXTURE), EGL_BAD_MATCH)
    if w > MAX_PBUFFER_PX or h > MAX_PBUFFER_PX:
        _check(attrs[EGL_LARGEST_PBUFFER], EGL_BAD_MATCH)
        w, h = min(w, MAX_PBUFFER_PX), min(h, MAX_PBUFFER_PX)
    s = Surface(d, c, w, h, attrs)
    SURFACES[s.handle] = s
    return ffi.cast("EGLSurface", s.handle)


WINDOW_ATTRS = {EGL_RENDER_BUFFER, EGL_GL_COLORSPACE, EGL_VG_ALPHA_FORMAT, EGL_VG_COLORSPACE}


def _check_colorspace(attrs) -> None:
    """EGL_KHR_gl_colorspace (EGL 1.5 section 3.5.1): LINEAR or SRGB, else EGL_BAD_ATTRIBUTE."""
    _check(attrs[EGL_GL_COLORSPACE] in (EGL_GL_COLORSPACE_LINEAR, EGL_GL_COLORSPACE_SRGB), EGL_BAD_ATTRIBUTE)


def _window_surface(dpy, config, xid, attribs, wide):
    """A window surface on an X11 window (EGL 1.5 section 3.5.1): its back
    buffer follows the window's size; eglSwapBuffers presents it."""
    d = _display(dpy)
    c = _config(d, config)
    _check(c.attrs[EGL_SURFACE_TYPE] & EGL_WINDOW_BIT, EGL_BAD_MATCH)
    attrs = {EGL_RENDER_BUFFER: EGL_BACK_BUFFER, EGL_GL_COLORSPACE: EGL_GL_COLORSPACE_LINEAR}
    for k, v in _attribs(attribs, wide):
        _check(k in WINDOW_ATTRS, EGL_BAD_ATTRIBUTE)
        attrs[k] = v
    _check_colorspace(attrs)
    _check(not any(s.window is not None and s.window.xid == xid and s.display is d
                   and not s.destroyed for s in SURFACES.values()), EGL_BAD_ALLOC)
    window = d.x11.window(xid)
    _check(window is not None, EGL_BAD_NATIVE_WINDOW)
    w, h = window.size()
    attrs.update({EGL_LARGEST_PBUFFER: 0, EGL_TEXTURE_FORMAT: EGL_NO_TEXTURE,
                  EGL_TEXTURE_TARGET: EGL_NO_TEXTURE, EGL_MIPMAP_TEXTURE: 0})
    s = Surface(d, c, w, h, attrs, window)
    SURFACES[s.handle] = s
    return ffi.cast("EGLSurface", s.handle)


@command(fail=_null)
def eglCreateWindowSurface(dpy, config, win, attribs):
    return _window_surface(dpy, config, int(win), attribs, False)


def _platform_window(dpy, config, native, attribs, wide):
    """EGL_KHR_platform_x11: native_window points at the Window."""
    _check(native != NULL, EGL_BAD_NATIVE_WINDOW)
    xid = int(ffi.cast("unsigned long *", native)[0])
    return _window_surface(dpy, config, xid, attribs, wide)


@command(fail=_null)
def eglCreatePlatformWindowSurface(dpy, config, native, attribs):
    return _platform_window(dpy, config, native, attribs, True)


@command(fail=_null)
def eglCreatePlatformWindowSurfaceEXT(dpy, config, native, attribs):
    return _platform_window(dpy, config, native, attribs, False)


PIXMAP_ATTRS = {EGL_GL_COLORSPACE, EGL_VG_ALPHA_FORMAT, EGL_VG_COLORSPACE}


def _pixmap_surface(dpy, config, xid, attribs, wide):
    """A pixmap surface on an X11 pixmap (EGL 1.5 section 3.5.4): single-
    buffered, the pixmap receiving the rendering at glFlush/glFinish and
    eglWaitClient (the same presenter as windows)."""
    d = _display(dpy)
    c = _config(d, config)
    _check(c.attrs[EGL_SURFACE_TYPE] & EGL_PIXMAP_BIT, EGL_BAD_MATCH)
    attrs = {EGL_GL_COLORSPACE: EGL_GL_COLORSPACE_LINEAR}
    for k, v in _attribs(attribs, wide):
        _check(k in PIXMAP_ATTRS, EGL_BAD_ATTRIBUTE)
        attrs[k] = v
    _check_colorspace(attrs)
    _check(not any(s.window is not None and s.window.xid == xid and s.display is d
                   and not s.destroyed for s in SURFACES.values()), EGL_BAD_ALLOC)
    pixmap = d.x11.window(xid)
    _check(pixmap is not None, EGL_BAD_NATIVE_PIXMAP)
    w, h = pixmap.size()
    attrs.update({EGL_RENDER_BUFFER: EGL_SINGLE_BUFFER, EGL_LARGEST_PBUFFER: 0,
                  EGL_TEXTURE_FORMAT: EGL_NO_TEXTURE, EGL_TEXTURE_TARGET: EGL_NO_TEXTURE,
                  EGL_MIPMAP_TEXTURE: 0})
    s = Surface(d, c, w, h, attrs, pixmap)
    SURFACES[s.handle] = s
    return ffi.cast("EGLSurface", s.handle)


@command(fail=_null)
def eglCreatePixmapSurface(dpy, config, pixmap, attribs):
    return _pixmap_surface(dpy, config, int(pixmap), attribs, False)


def _platform_pixmap(dpy, config, native, attribs, wide):
    """EGL_KHR_platform_x11: native_pixmap points at the Pixmap."""
    _check(native != NULL, EGL_BAD_NATIVE_PIXMAP)
    return _pixmap_surface(dpy, config, int(ffi.cast("unsigned long *", native)[0]), attribs, wide)


@command(fail=_null)
def eglCreatePlatformPixmapSurface(dpy, config, native, attribs):
    return _platform_pixmap(dpy, config, native, attribs, True)


@command(fail=_null)
def eglCreatePlatformPixmapSurfaceEXT(dpy, config, native, attribs):
    return _platform_pixmap(dpy, config, native, attribs, False)


@command(fail=_null)
def eglCreatePbufferFromClientBuffer(dpy, buftype, buffer, config, attribs):
    _config(_display(dpy), config)
    raise EGLFail(EGL_BAD_PARAMETER)


@command()
def eglDestroySurface(dpy, surface):
    _display(dpy)
    s = _surface(surface)
    s.destroyed = True
    s.release_texture()
    if s.current_in is None:
        del SURFACES[s.handle]
        s.free()
    return 1


@command()
def eglQuerySurface(dpy, surface, attribute, value):
    _display(dpy)
    s = _surface(surface)
    follow_window(s)
    values = {EGL_WIDTH: s.width, EGL_HEIGHT: s.height, EGL_CONFIG_ID: s.config.id,
              EGL_LARGEST_PBUFFER: s.attrs[EGL_LARGEST_PBUFFER],
              EGL_TEXTURE_FORMAT: s.attrs[EGL_TEXTURE_FORMAT],
              EGL_TEXTURE_TARGET: s.attrs[EGL_TEXTURE_TARGET],
              EGL_MIPMAP_TEXTURE: s.attrs[EGL_MIPMAP_TEXTURE],
              EGL_MIPMAP_LEVEL: s.attrs.get(EGL_MIPMAP_LEVEL, 0),
              EGL_RENDER_BUFFER: s.attrs.get(EGL_RENDER_BUFFER, EGL_BACK_BUFFER),
              EGL_SWAP_BEHAVIOR: EGL_BUFFER_DESTROYED,
              EGL_MULTISAMPLE_RESOLVE: EGL_MULTISAMPLE_RESOLVE_DEFAULT,
              EGL_HORIZONTAL_RESOLUTION: EGL_UNKNOWN, EGL_VERTICAL_RESOLUTION: EGL_UNKNOWN,
              EGL_PIXEL_ASPECT_RATIO: EGL_UNKNOWN,
              EGL_GL_COLORSPACE: EGL_GL_COLORSPACE_SRGB if s.srgb else EGL_GL_COLORSPACE_LINEAR,
              EGL_VG_ALPHA_FORMAT: EGL_VG_ALPHA_FORMAT_NONPRE, EGL_VG_COLORSPACE: EGL_VG_COLORSPACE_sRGB}
    _check(attribute in values, EGL_BAD_ATTRIBUTE)
    _put(value, "EGLint", values[attribute])
    return 1


@command()
def eglSurfaceAttrib(dpy, surface, attribute, value):
    _display(dpy)
    s = _surface(surface)
    _check(attribute in (EGL_MIPMAP_LEVEL, EGL_SWAP_BEHAVIOR, EGL_MULTISAMPLE_RESOLVE),
           EGL_BAD_ATTRIBUTE)
    if attribute == EGL_MIPMAP_LEVEL:
        # recorded and answered; the surface has one level, which binding gives
        s.attrs[EGL_MIPMAP_LEVEL] = int(value)
    _check(attribute != EGL_SWAP_BEHAVIOR or value in (EGL_BUFFER_DESTROYED,), EGL_BAD_MATCH)
    _check(attribute != EGL_MULTISAMPLE_RESOLVE or value == EGL_MULTISAMPLE_RESOLVE_DEFAULT,
           EGL_BAD_MATCH)
    return 1


def _texture_surface(dpy, surface, buffer) -> Surface:
    """The pbuffer of eglBindTexImage/eglReleaseTexImage (EGL 1.5 section 3.6.1,
    in Mesa's order of checks)."""
    _display(dpy)
    s = _surface(surface)
    _check(s.window is None, EGL_BAD_SURFACE)                       # a pbuffer only
    _check(s.attrs[EGL_TEXTURE_FORMAT] != EGL_NO_TEXTURE, EGL_BAD_MATCH)
    _check(buffer == EGL_BACK_BUFFER, EGL_BAD_PARAMETER)
    return s


@command()
def eglBindTexImage(dpy, surface, buffer):
    """The pbuffer's colour buffer becomes level 0 of the texture bound to
    TEXTURE_2D in the current context (sharing its memory: what was drawn
    into the pbuffer is sampled); no current context: nothing happens."""
    from driver.gl.errors import GLError
    from driver.gl.features.egl_image import bind_surface_texture
    s = _texture_surface(dpy, surface, buffer)
    _check(not s.bound_to_texture(), EGL_BAD_ACCESS)
    cur = state.current.owner
    if not isinstance(cur, Context):
        return 1
    if s.current_in is not None:
        s.current_in.gl.glFlush()                 # what was drawn into it comes first
    try:
        s.texture_binding = bind_surface_texture(cur.gl, s.fb.color, s.width, s.height,
                                                 s.attrs[EGL_TEXTURE_FORMAT] == EGL_TEXTURE_RGBA)
    except GLError as e:                          # an immutable texture cannot take it
        raise EGLFail(EGL_BAD_MATCH) from e
    return 1


@command()
def eglReleaseTexImage(dpy, surface, buffer):
    """The texture loses the colour buffer (it has no level 0 after); a surface
    whose texture was deleted or respecified since is released silently."""
    s = _texture_surface(dpy, surface, buffer)
    s.release_texture()
    return 1


@command()
def eglSwapBuffers(dpy, surface):
    _display(dpy)
    s = _surface(surface)
    cur = state.current.owner
    _check(isinstance(cur, Context) and cur.draw is s, EGL_BAD_SURFACE)
    if s.window is None or s.attrs.get(EGL_RENDER_BUFFER) == EGL_SINGLE_BUFFER:
        cur.gl.glFlush()           # a pbuffer or pixmap: no effect beyond the implicit flush
        return 1
    present(cur, s)
    if s.resize(*s.window.size()):   # the window was resized: a new back buffer
        cur.gl.window = s.fb
    return 1


def follow_window(surface) -> None:
    """A window surface takes its window's current size, as Mesa's X11
    platforms re-read it when the program asks (eglQuerySurface,
    glXQueryDrawable) and when it sets a viewport (st_viewport invalidates the
    drawable): a new back buffer when the size changed, made the default
    framebuffer of the context it is current in."""
    if surface is None or surface.window is None:
        return
    ctx = surface.current_in
    if surface.resize(*surface.window.size()) and ctx is not None and ctx.draw is surface:
        ctx.gl.window = surface.fb


def present(ctx, surface, target=None) -> None:
    """Copy the surface's colour buffer (bottom-up RGBA8) to its X11 window or
    pixmap (or `target`, an x11.Window of another drawable)."""
    from driver.gallium import Box, PipeMap
    import numpy as np
    ctx.gl.glFinish()
    w, h = surface.width, surface.height
    tr = ctx.pipe.transfer_map(surface.fb.resolved(ctx.pipe), 0, PipeMap.READ, Box(0, 0, 0, w, h, 1))
    try:
        rows = np.lib.stride_tricks.as_strided(np.frombuffer(tr.data, np.uint8),
                                               (h, w * 4), (tr.stride_B, 1))
        (target or surface.window).put_rgba(rows.reshape(h, w, 4), w, h)
    finally:
        ctx.pipe.transfer_unmap(tr)


@command()
def eglSwapInterval(dpy, interval):
    _display(dpy)
    cur = state.current.owner
    _check(isinstance(cur, Context), EGL_BAD_CONTEXT)
    _check(cur.draw is not None, EGL_BAD_SURFACE)
    # clamped to the config's [MIN, MAX]_SWAP_INTERVAL (EGL 1.5 section 3.10.3);
    # presentation does not wait for vertical blank (as XPutImage in Mesa's swrast)
    cur.draw.swap_interval = max(0, min(int(interval), 1))
    return 1


@command()
def eglCopyBuffers(dpy, surface, target):
    """Copy the surface's colour buffer into an X11 pixmap of its size."""
    d = _display(dpy)
    s = _surface(surface)
    _check(d.x11 is not None, EGL_BAD_NATIVE_PIXMAP)
    pixmap = d.x11.window(int(target))
    _check(pixmap is not None, EGL_BAD_NATIVE_PIXMAP)
    _check(pixmap.size() == (s.width, s.height), EGL_BAD_MATCH)
    cur = state.current.owner
    ctx = cur if isinstance(cur, Context) and s in (cur.draw, cur.read) else s.current_in
    _check(ctx is not None, EGL_BAD_SURFACE)
    try:
        present(ctx, s, pixmap)
    finally:
        pixmap.close()
    return 1


# -- contexts ------------------------------------------------------------------------------------
@command()
def eglBindAPI(api):
    _check(api in (EGL_OPENGL_API, EGL_OPENGL_ES_API), EGL_BAD_PARAMETER)
    state.current.egl_api = api
    return 1


def eglQueryAPI():
    return state.current.egl_api


COMMANDS["eglQueryAPI"] = eglQueryAPI

CONTEXT_ATTRS = {EGL_CONTEXT_MAJOR_VERSION, EGL_CONTEXT_MINOR_VERSION,
                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_DEBUG,
                 EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE, EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
                 EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_CONTEXT_FLAGS_KHR,
                 EGL_CONTEXT_PRIORITY_LEVEL_IMG, EGL_CONTEXT_OPENGL_NO_ERROR_KHR,
                 EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                 EGL_CONTEXT_RELEASE_BEHAVIOR_KHR}
# EGL 1.5 / EGL_EXT_create_context_robustness: reset notification -> GL_RESET_NOTIFICATION_STRATEGY
RESET_STRATEGIES = {EGL_NO_RESET_NOTIFICATION: 0x8261, EGL_LOSE_CONTEXT_ON_RESET: 0x8252}


def request_api(es: bool, major: int, minor: int, core: bool, *, forward_compatible=False,
                debug=False, robust=False, no_error=False):
    """The driver.gl Api a context request gets, shared by EGL, GLX and
    OSMesa: the front end's api_for_request (the newest backward-compatible
    version of the API and profile, as Mesa gives; the flags become
    GL_CONTEXT_FLAGS). None when no context satisfies it (EGL_BAD_MATCH, GLX
    BadMatch, OSMesa NULL)."""
    from driver.gl.api import ContextRequestError, api_for_request
    try:
        return api_for_request(es, major, minor, core, forward_compatible=forward_compatible,
                               debug=debug, robust=robust, no_error=no_error)
    except ContextRequestError:
        return None


def _bool_attr(v) -> bool:
    _check(v in (0, 1), EGL_BAD_ATTRIBUTE)
    return bool(v)


@command(fail=_null)
def eglCreateContext(dpy, config, share, attribs):
    d = _display(dpy)
    cfg = None if _h(config) == 0 else _config(d, config)      # EGL_KHR_no_config_context
    share_ctx = _context(share) if _h(share) != 0 else None
    client_api = state.current.egl_api
    # EGL 1.5 section 3.7.1: the share context must be of the same client API
    _check(share_ctx is None or share_ctx.client_api == client_api, EGL_BAD_CONTEXT)
    es = client_api == EGL_OPENGL_ES_API
    major, minor = 1, 0
    profile = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
    flags = 0
    debug = forward = robust = no_error = False
    reset = EGL_NO_RESET_NOTIFICATION
    release_flush = True        # EGL_KHR_context_flush_control: FLUSH by default
    for k, v in _attribs(attribs, False):
        _check(k in CONTEXT_ATTRS, EGL_BAD_ATTRIBUTE)
        if k == EGL_CONTEXT_MAJOR_VERSION:
            major = v
        elif k == EGL_CONTEXT_MINOR_VERSION:
            minor = v
        elif k == EGL_CONTEXT_OPENGL_PROFILE_MASK:
            _check(not es, EGL_BAD_ATTRIBUTE)
            profile = v           # checked below: only GL 3.2 and later have profiles
        elif k == EGL_CONTEXT_FLAGS_KHR:
            # EGL_KHR_create_context: the forward-compatible and robust-access flag bits are
            # OpenGL's (for an OpenGL ES context EGL_BAD_ATTRIBUTE, as Mesa; ES asks for
            # robustness with EGL_EXT_create_context_robustness's attribute); debug serves both
            _check(not (es and v & (EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR
                                    | EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR)), EGL_BAD_ATTRIBUTE)
            flags = v
        elif k == EGL_CONTEXT_OPENGL_DEBUG:
            debug = _bool_attr(v)
        elif k == EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE:
            forward = _bool_attr(v)
        elif k in (EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT):
            robust = _bool_attr(v)
        elif k == EGL_CONTEXT_OPENGL_NO_ERROR_KHR:
            no_error = _bool_attr(v)
        elif k in (EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                   EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT):
            _check(v in RESET_STRATEGIES, EGL_BAD_ATTRIBUTE)
            reset = v
        elif k == EGL_CONTEXT_RELEASE_BEHAVIOR_KHR:
            _check(v in (EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR, EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR),
                   EGL_BAD_ATTRIBUTE)
            release_flush = v == EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR
    _check(not flags & ~0x7, EGL_BAD_ATTRIBUTE)
    debug |= bool(flags & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR)
    forward |= bool(flags & EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR)
    robust |= bool(flags & EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR)
    # EGL_KHR_create_context_no_error: not together with debug or robust access
    _check(not (no_error and (debug or robust)), EGL_BAD_MATCH)
    if es:
        es_bits = EGL_OPENGL_ES_BIT if major == 1 else EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT
        _check(cfg is None or cfg.attrs[EGL_RENDERABLE_TYPE] & es_bits, EGL_BAD_CONFIG)
    elif (major, minor) >= (3, 2):
        # EGL_KHR_create_context: no bit, another bit, or both bits set is EGL_BAD_MATCH
        # (below 3.2 the mask is ignored, whatever it holds)
        _check(profile in (EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                           EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT), EGL_BAD_MATCH)
    core = not es and bool(profile & EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT)
    api = request_api(es, major, minor, core, forward_compatible=forward, debug=debug,
                      robust=robust, no_error=no_error)
    _check(api is not None, EGL_BAD_MATCH)
    # EGL 1.5 section 3.7.1.5: a share context with another reset strategy is EGL_BAD_MATCH
    _check(share_ctx is None or share_ctx.reset_strategy == reset, EGL_BAD_MATCH)
    ctx = Context(d, cfg, api, client_api, (major, minor), share_ctx, reset_strategy=reset)
    ctx.release_flush = release_flush
    # GL_CONTEXT_RELEASE_BEHAVIOR (driver.gl.get): FLUSH (0x82FC) or NONE (0)
    ctx.gl.release_behavior = 0x82FC if release_flush else 0
    CONTEXTS[ctx.handle] = ctx
    return ffi.cast("EGLContext", ctx.handle)


@command()
def eglDestroyContext(dpy, context):
    _display(dpy)
    ctx = _context(context)
    ctx.destroyed = True
    if ctx.thread is None:
        del CONTEXTS[ctx.handle]
        ctx.free()
    return 1


def _release_current():
    cur = state.current.owner
    if isinstance(cur, Context):
        if cur.release_flush:            # EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR: no implicit flush
            cur.gl.glFlush()
        cur.thread = None
        for s in (cur.draw, cur.read):
            if s is not None:
                s.current_in = None
                if s.destroyed and SURFACES.pop(s.handle, None) is not None:
                    s.free()
        cur.draw = cur.read = None
        if cur.destroyed:
            CONTEXTS.pop(cur.handle, None)
            cur.free()
    elif cur is not None and hasattr(cur, "release"):
        cur.release()
    state.set_current(None, None)


@command()
def eglMakeCurrent(dpy, draw, read, context):
    if _h(context) == 0 and _h(draw) == 0 and _h(read) == 0 and _h(dpy) == 0:
        _release_current()       # EGL 1.5: releasing with EGL_NO_DISPLAY is allowed
        return 1
    # EGL 1.5 section 3.2: after eglTerminate, eglMakeCurrent may still release the
    # context (which is destroyed then): only a release skips the initialized check
    _display(dpy, initialized=_h(context) != 0)
    if _h(context) == 0:
        _check(_h(draw) == 0 and _h(read) == 0, EGL_BAD_MATCH)
        _release_current()
        return 1
    ctx = _context(context)
    _check((_h(draw) == 0) == (_h(read) == 0), EGL_BAD_MATCH)
    d = _surface(draw) if _h(draw) else None
    r = _surface(read) if _h(read) else None
    me = threading.get_ident()
    _check(ctx.thread in (None, me), EGL_BAD_ACCESS)
    for s in (d, r):
        # EGL 1.5 section 3.7.3: EGL_BAD_ACCESS when a surface is bound to a
        # context current in *another* thread; one current in this thread (the
        # context this call replaces, as when a program switches contexts on
        # one surface) is released first
        _check(s is None or s.current_in is None or s.current_in is ctx
               or s.current_in.thread == me, EGL_BAD_ACCESS)
        _check(s is None or s.display is ctx.display, EGL_BAD_MATCH)
        _check(s is None or ctx.config is None or s.config is ctx.config
               or s.config.attrs[EGL_RENDERABLE_TYPE] & ctx.config.attrs[EGL_RENDERABLE_TYPE],
               EGL_BAD_MATCH)
    # EGL_MESA_configless_context / EGL_KHR_no_config_context: a context of no config
    # takes draw and read surfaces of one config only (Mesa binds others: piglit's
    # egl_mesa_configless_context basic fails on llvmpipe)
    _check(ctx.config is not None or d is None or r is None or d.config is r.config, EGL_BAD_MATCH)
    if state.current.owner is not ctx:
        _release_current()
    ctx.thread = me
    for s in (ctx.draw, ctx.read):
        if s is not None and s not in (d, r):
            s.current_in = None
            if s.destroyed and SURFACES.pop(s.handle, None) is not None:
                s.free()
    ctx.draw, ctx.read = d, r
    for s in (d, r):
        if s is not None:
            s.current_in = ctx
    ctx.bind_surface(d)
    state.set_current(ctx, ctx.gl)
    return 1


@command(fail=_null)
def eglGetCurrentContext():
    cur = state.current.owner
    return ffi.cast("EGLContext", cur.handle if isinstance(cur, Context) else 0)


@command(fail=_null)
def eglGetCurrentDisplay():
    cur = state.current.owner
    return ffi.cast("EGLDisplay", DISPLAY_HANDLE if isinstance(cur, Context) else 0)


@command(fail=_null)
def eglGetCurrentSurface(readdraw):
    _check(readdraw in (EGL_READ, EGL_DRAW), EGL_BAD_PARAMETER)
    cur = state.current.owner
    if not isinstance(cur, Context):
        return ffi.cast("EGLSurface", 0)
    s = cur.draw if readdraw == EGL_DRAW else cur.read
    return ffi.cast("EGLSurface", s.handle if s is not None else 0)


@command()
def eglQueryContext(dpy, context, attribute, value):
    _display(dpy)
    ctx = _context(context)
    values = {EGL_CONFIG_ID: ctx.config.id if ctx.config else 0,
              EGL_CONTEXT_CLIENT_TYPE: ctx.client_api,
              EGL_CONTEXT_CLIENT_VERSION: ctx.gl.api.version[0],
              EGL_RENDER_BUFFER: EGL_BACK_BUFFER if ctx.draw is not None else EGL_NONE}
    _check(attribute in values, EGL_BAD_ATTRIBUTE)
    _put(value, "EGLint", values[attribute])
    return 1


@command()
def eglWaitClient():
    cur = state.current.owner
    if isinstance(cur, Context):
        cur.gl.glFinish()
        cur.after_flush()
    return 1


COMMANDS["eglWaitGL"] = COMMANDS["eglWaitClient"]


@command()
def eglWaitNative(engine):
    _check(engine == EGL_CORE_NATIVE_ENGINE, EGL_BAD_PARAMETER)
    return 1


@command()
def eglReleaseThread():
    _release_current()
    state.current.egl_api = EGL_OPENGL_ES_API
    return 1


# -- fence syncs (EGL 1.5 section 3.8.1, EGL_KHR_fence_sync) ------------------------------------
def _create_sync(dpy, sync_type, attribs, wide):
    """A fence sync needs a current context (of this display, EGL 1.5 section
    3.8.1); a reusable one (EGL_KHR_reusable_sync, as Mesa also through
    eglCreateSync) none: it starts unsignalled."""
    d = _display(dpy)
    _check(sync_type in (EGL_SYNC_FENCE, EGL_SYNC_REUSABLE_KHR), EGL_BAD_PARAMETER)
    _check(not _attribs(attribs, wide), EGL_BAD_ATTRIBUTE)
    cur = state.current.owner
    if sync_type == EGL_SYNC_FENCE:
        _check(isinstance(cur, Context) and cur.display is d, EGL_BAD_MATCH)
    s = Sync(d, cur, sync_type)
    SYNCS[s.handle] = s
    return ffi.cast("EGLSync", s.handle)


@command(fail=_null)
def eglCreateSync(dpy, sync_type, attribs):
    return _create_sync(dpy, sync_type, attribs, True)


@command(fail=_null)
def eglCreateSyncKHR(dpy, sync_type, attribs):
    return _create_sync(dpy, sync_type, attribs, False)


def _sync(sync) -> Sync:
    s = SYNCS.get(_h(sync))
    _check(s is not None, EGL_BAD_PARAMETER)
    return s


@command(names=("eglDestroySyncKHR",))
def eglDestroySync(dpy, sync):
    _display(dpy)
    SYNCS.pop(_sync(sync).handle)
    return 1


@command(names=("eglClientWaitSyncKHR",))
def eglClientWaitSync(dpy, sync, flags, timeout):
    _display(dpy)
    s = _sync(sync)
    if flags & EGL_SYNC_FLUSH_COMMANDS_BIT and isinstance(state.current.owner, Context):
        state.current.owner.gl.glFlush()
    # EGL_FOREVER (2^64-1), and anything beyond a century, waits without a
    # deadline (a deadline of now + 2^63 ns would not fit the kernel's s64)
    from driver.gallium.defines import PIPE_TIMEOUT_INFINITE
    timeout_ns = PIPE_TIMEOUT_INFINITE if int(timeout) >= 1 << 62 else int(timeout)
    return EGL_CONDITION_SATISFIED if s.wait(timeout_ns) else EGL_TIMEOUT_EXPIRED


@command(names=("eglWaitSyncKHR",))
def eglWaitSync(dpy, sync, flags):
    """A server wait (EGL_KHR_wait_sync): a current context is needed
    (EGL_BAD_MATCH, as Mesa). A fence's wait is already satisfied: one GPU queue
    runs in order. A reusable sync has no server wait (EGL_BAD_MATCH, as ANGLE)."""
    _display(dpy)
    s = _sync(sync)
    _check(isinstance(state.current.owner, Context), EGL_BAD_MATCH)
    _check(flags == 0, EGL_BAD_PARAMETER)
    _check(s.type != EGL_SYNC_REUSABLE_KHR, EGL_BAD_MATCH)
    return 1


@command()
def eglSignalSyncKHR(dpy, sync, mode):
    """EGL_KHR_reusable_sync: signal (waiters return) or unsignal a reusable
    sync; a fence sync is EGL_BAD_MATCH, another mode EGL_BAD_PARAMETER."""
    _display(dpy)
    s = _sync(sync)
    _check(s.type == EGL_SYNC_REUSABLE_KHR, EGL_BAD_MATCH)
    _check(mode in (EGL_SIGNALED, EGL_UNSIGNALED), EGL_BAD_PARAMETER)
    s.signal(mode == EGL_SIGNALED)
    return 1


def _sync_attrib(dpy, sync, attribute, value, c_type):
    _display(dpy)
    s = _sync(sync)
    if attribute == EGL_SYNC_STATUS:
        v = EGL_SIGNALED if s.wait(0) else EGL_UNSIGNALED
    elif attribute == EGL_SYNC_TYPE:
        v = s.type
    elif attribute == EGL_SYNC_CONDITION and s.type == EGL_SYNC_FENCE:    # a fence's only
        v = EGL_SYNC_PRIOR_COMMANDS_COMPLETE
    else:
        raise EGLFail(EGL_BAD_ATTRIBUTE)
    _put(value, c_type, v)
    return 1


@command()
def eglGetSyncAttrib(dpy, sync, attribute, value):
    return _sync_attrib(dpy, sync, attribute, value, "EGLAttrib")


@command()
def eglGetSyncAttribKHR(dpy, sync, attribute, value):
    return _sync_attrib(dpy, sync, attribute, value, "EGLint")


# -- images (EGL 1.5 section 3.9, EGL_KHR_image_base, EGL_KHR_gl_*_image) -------------------------
IMAGE_DISPLAYS: dict[int, Display] = {}     # image handle -> its display
# EGL_WIDTH and EGL_HEIGHT (EGL_MESA_drm_image's) are taken and ignored for every
# source, as Mesa's attribute parser does (piglit's oes_egl_image_external_essl3 passes them)
IMAGE_ATTRS = {EGL_GL_TEXTURE_LEVEL, EGL_GL_TEXTURE_ZOFFSET, EGL_IMAGE_PRESERVED, EGL_WIDTH, EGL_HEIGHT}
GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP = 0x0DE1, 0x8513
CUBE_FACE_TARGETS = range(EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X + 6)


def _create_image(dpy, context, target, buffer, attribs, wide):
    """An EGLImage of a GL texture level (2D, a cube map face) or a GL
    renderbuffer of ``context`` (driver.gl.egl_image: it shares the source's
    memory). 3D textures and native pixmaps are not image sources here
    (EGL_KHR_gl_texture_3D_image, EGL_KHR_image_pixmap are not listed)."""
    from driver.gl import egl_image
    d = _display(dpy)
    ctx = _context(context) if _h(context) else None
    _check(ctx is None or ctx.display is d, EGL_BAD_CONTEXT)
    _check(target == EGL_GL_TEXTURE_2D or target in CUBE_FACE_TARGETS or target == EGL_GL_RENDERBUFFER,
           EGL_BAD_PARAMETER)
    # EGL 1.5 section 3.9.1: a GL source needs the context whose objects it names
    _check(ctx is not None, EGL_BAD_PARAMETER)
    level = 0
    for k, v in _attribs(attribs, wide):
        _check(k in IMAGE_ATTRS, EGL_BAD_PARAMETER)
        if k == EGL_GL_TEXTURE_LEVEL:
            level = v
        elif k == EGL_IMAGE_PRESERVED:
            _check(v in (0, 1), EGL_BAD_PARAMETER)
    name = _h(buffer)
    _check(name >> 32 == 0, EGL_BAD_PARAMETER)
    try:
        if target == EGL_GL_RENDERBUFFER:
            image = egl_image.from_renderbuffer(ctx.gl, name)
        elif target == EGL_GL_TEXTURE_2D:
            image = egl_image.from_texture(ctx.gl, name, GL_TEXTURE_2D, 0, level)
        else:
            image = egl_image.from_texture(ctx.gl, name, GL_TEXTURE_CUBE_MAP,
                                           target - EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X, level)
    except egl_image.ImageError as e:
        raise EGLFail(e.code) from e
    IMAGE_DISPLAYS[image.handle] = d
    return ffi.cast("EGLImage", image.handle)


@command(fail=_null)
def eglCreateImage(dpy, context, target, buffer, attribs):
    return _create_image(dpy, context, target, buffer, attribs, True)


@command(fail=_null)
def eglCreateImageKHR(dpy, context, target, buffer, attribs):
    return _create_image(dpy, context, target, buffer, attribs, False)


def _destroy_image(handle: int) -> None:
    from driver.gl import egl_image
    IMAGE_DISPLAYS.pop(handle, None)
    image = egl_image.lookup(handle)
    if image is not None:
        egl_image.destroy(image)


@command(names=("eglDestroyImageKHR",))
def eglDestroyImage(dpy, image):
    d = _display(dpy)
    handle = _h(image)
    _check(IMAGE_DISPLAYS.get(handle) is d, EGL_BAD_PARAMETER)
    _destroy_image(handle)
    return 1


# -- EGL_MESA_query_driver ------------------------------------------------------------------------
DRIVER_NAME = "shimgl"
# the driver's configuration options in driconf's XML: shimgl has none
DRIVER_CONFIG = '<?xml version="1.0" standalone="yes"?>\n<driinfo>\n</driinfo>\n'


@command(fail=_null)
def eglGetDisplayDriverName(dpy):
    _display(dpy)
    return _cstring(DRIVER_NAME)


@command(fail=_null)
def eglGetDisplayDriverConfig(dpy):
    """A copy in malloc'ed memory: the program frees it."""
    import ctypes
    _display(dpy)
    data = DRIVER_CONFIG.encode() + b"\0"
    libc = ctypes.CDLL(None)
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    mem = libc.malloc(len(data))
    _check(mem is not None, EGL_BAD_ALLOC)
    ctypes.memmove(mem, data, len(data))
    return ffi.cast("char *", mem)
