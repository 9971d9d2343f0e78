"""EGL 1.5 on shimgl, surfaceless platform (the Python side of the egl* exports).

One display (EGL_PLATFORM_SURFACELESS_MESA, also what eglGetDisplay(
EGL_DEFAULT_DISPLAY) returns), a few RGBA8 configs with pbuffer surfaces,
contexts for OpenGL (compatibility up to 3.3, core up to 4.3) and OpenGL ES
(2.0 to 3.1; the newest backward-compatible version is what a request gets), surfaceless and no-config contexts, fence syncs. Errors follow
the EGL 1.5 specification: every call sets the thread's error (EGL_SUCCESS on
success); eglGetError returns and resets it.

Deliberate leniency: in eglChooseConfig an unspecified EGL_SURFACE_TYPE or
EGL_RENDERABLE_TYPE matches every config (the specification's defaults,
WINDOW_BIT and OPENGL_ES_BIT, would match none: we have no windows nor GLES 1).
A context created with a share_context joins its share group
(driver.gl.objects.ShareGroup): buffers, textures, renderbuffers, samplers,
shaders, programs, sync objects and display lists are shared."""

from __future__ import annotations

import itertools

from driver.abi import runtime
from driver.abi._eglenums import *  # noqa: F403  (EGL_* constants, generated from egl.xml)
from driver.abi._eglenums import (
    EGL_BAD_ACCESS, EGL_BAD_ATTRIBUTE, EGL_BAD_CONFIG, EGL_BAD_CONTEXT, EGL_BAD_DISPLAY,
    EGL_BAD_MATCH, EGL_BAD_PARAMETER, EGL_BAD_SURFACE, EGL_NONE, EGL_NOT_INITIALIZED,
    EGL_SUCCESS,
)

__all__ = ["COMMANDS", "bind"]

ffi = None
NULL = None

DISPLAY_HANDLE = 0x5348474C           # "SHGL"
CLIENT_EXTENSIONS = ("EGL_EXT_client_extensions EGL_EXT_platform_base "
                     "EGL_MESA_platform_surfaceless")
DISPLAY_EXTENSIONS = ("EGL_KHR_create_context EGL_KHR_fence_sync EGL_KHR_no_config_context "
                      "EGL_KHR_surfaceless_context")
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
    def __init__(self, config_id, depth, stencil):
        self.id = config_id
        self.attrs = {
            EGL_CONFIG_ID: config_id, EGL_BUFFER_SIZE: 32, EGL_RED_SIZE: 8, EGL_GREEN_SIZE: 8,
            EGL_BLUE_SIZE: 8, EGL_ALPHA_SIZE: 8, EGL_LUMINANCE_SIZE: 0, EGL_ALPHA_MASK_SIZE: 0,
            EGL_DEPTH_SIZE: depth, EGL_STENCIL_SIZE: stencil, EGL_SAMPLES: 0,
            EGL_SAMPLE_BUFFERS: 0, EGL_CONFIG_CAVEAT: EGL_NONE, EGL_LEVEL: 0,
            EGL_COLOR_BUFFER_TYPE: EGL_RGB_BUFFER,
            EGL_MAX_PBUFFER_WIDTH: MAX_PBUFFER_PX, EGL_MAX_PBUFFER_HEIGHT: MAX_PBUFFER_PX,
            EGL_MAX_PBUFFER_PIXELS: MAX_PBUFFER_PX * MAX_PBUFFER_PX,
            EGL_NATIVE_RENDERABLE: 0, EGL_NATIVE_VISUAL_ID: 0, EGL_NATIVE_VISUAL_TYPE: EGL_NONE,
            EGL_SURFACE_TYPE: EGL_PBUFFER_BIT, EGL_TRANSPARENT_TYPE: EGL_NONE,
            EGL_TRANSPARENT_RED_VALUE: 0, EGL_TRANSPARENT_GREEN_VALUE: 0,
            EGL_TRANSPARENT_BLUE_VALUE: 0, EGL_BIND_TO_TEXTURE_RGB: 0,
            EGL_BIND_TO_TEXTURE_RGBA: 0, EGL_MIN_SWAP_INTERVAL: 0, EGL_MAX_SWAP_INTERVAL: 1,
            EGL_RENDERABLE_TYPE: EGL_OPENGL_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT,
            EGL_CONFORMANT: EGL_OPENGL_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT,
        }


CONFIGS = [Config(1, 0, 0), Config(2, 24, 8), Config(3, 24, 0), Config(4, 0, 8)]
CONFIG_BY_HANDLE = {c.id: c for c in CONFIGS}
# attribute -> matching rule of EGL 1.5 table 3.4
AT_LEAST = {EGL_BUFFER_SIZE, EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_ALPHA_SIZE,
            EGL_LUMINANCE_SIZE, EGL_ALPHA_MASK_SIZE, EGL_DEPTH_SIZE, EGL_STENCIL_SIZE,
            EGL_SAMPLES, EGL_SAMPLE_BUFFERS}
MASK = {EGL_SURFACE_TYPE, EGL_RENDERABLE_TYPE, EGL_CONFORMANT}
EXACT = {EGL_CONFIG_ID, EGL_LEVEL, EGL_NATIVE_RENDERABLE, EGL_NATIVE_VISUAL_TYPE,
         EGL_TRANSPARENT_TYPE, EGL_BIND_TO_TEXTURE_RGB, EGL_BIND_TO_TEXTURE_RGBA,
         EGL_COLOR_BUFFER_TYPE, EGL_CONFIG_CAVEAT, EGL_MAX_SWAP_INTERVAL,
         EGL_MIN_SWAP_INTERVAL, EGL_TRANSPARENT_RED_VALUE, EGL_TRANSPARENT_GREEN_VALUE,
         EGL_TRANSPARENT_BLUE_VALUE, EGL_MATCH_NATIVE_PIXMAP}
IGNORED_IN_CHOOSE = {EGL_MAX_PBUFFER_WIDTH, EGL_MAX_PBUFFER_HEIGHT, EGL_MAX_PBUFFER_PIXELS,
                     EGL_NATIVE_VISUAL_ID}


class Display:
    def __init__(self):
        self.initialized = False


DISPLAY = Display()
_handles = itertools.count(0x100)
SURFACES: dict[int, "Surface"] = {}
CONTEXTS: dict[int, "Context"] = {}
SYNCS: dict[int, "Sync"] = {}


class Surface:
    def __init__(self, config, width, height, attrs):
        from driver.gl import DefaultFramebuffer
        from driver.agx.face import default_screen
        self.handle = next(_handles) * 16
        self.config, self.width, self.height, self.attrs = config, width, height, attrs
        self.fb = DefaultFramebuffer(default_screen(), max(width, 1), max(height, 1))
        self.current_in = None       # the Context this surface is bound to
        self.destroyed = False

    def free(self):
        from driver.agx.face import default_screen
        screen = default_screen()
        screen.resource_destroy(self.fb.color)
        screen.resource_destroy(self.fb.depth_stencil)


class Context:
    def __init__(self, config, api_name, client_api, version, share=None):
        from driver.agx.face import default_screen
        from driver.gl import Context as GLContext
        self.handle = next(_handles) * 16
        self.config, self.api_name, self.client_api, self.version = config, api_name, client_api, version
        self.screen = default_screen()
        self.pipe = self.screen.context_create()
        self.gl = GLContext(self.pipe, api_name, 1, 1,
                            share_group=share.gl.share_group if share is not None else None)
        self.own_window = self.gl.window
        self.thread = None           # threading ident while current
        self.draw = self.read = None
        self.made_current = False
        self.destroyed = False

    def bind_surface(self, draw):
        self.gl.window = draw.fb if draw is not None else self.own_window
        if draw is not None and not self.made_current:
            self.made_current = True
            self.gl.glViewport(0, 0, draw.width, draw.height)
            self.gl.glScissor(0, 0, draw.width, draw.height)

    def free(self):
        self.gl.window = self.own_window
        try:
            self.gl.destroy()
            self.pipe.destroy()
        except Exception:     # pragma: no cover - best effort on teardown
            pass


class Sync:
    def __init__(self, ctx, sync_type):
        from driver.gallium import PipeFlush
        self.handle = next(_handles) * 16
        self.type = sync_type
        self.screen = ctx.screen
        self.fence = ctx.pipe.flush(PipeFlush.NONE)
        self.signaled = False

    def wait(self, timeout_ns: int) -> bool:
        if not self.signaled:
            self.signaled = bool(self.screen.fence_finish(self.fence, timeout_ns))
        return self.signaled


# -- helpers -------------------------------------------------------------------------
def _display(dpy, initialized=True) -> Display:
    _check(_h(dpy) == DISPLAY_HANDLE, EGL_BAD_DISPLAY)
    if initialized:
        _check(DISPLAY.initialized, EGL_NOT_INITIALIZED)
    return DISPLAY


def _config(cfg) -> Config:
    c = CONFIG_BY_HANDLE.get(_h(cfg))
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
            runtime.current.egl_error = EGL_SUCCESS
            try:
                return fn(*args)
            except EGLFail as e:
                runtime.current.egl_error = e.code
                return fail() if callable(fail) else fail
            except Exception as e:       # internal error: EGL_BAD_ALLOC, never a crash
                runtime._report(fn.__name__, e)
                runtime.current.egl_error = EGL_BAD_ALLOC
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
    err, runtime.current.egl_error = runtime.current.egl_error, EGL_SUCCESS
    return err


COMMANDS["eglGetError"] = eglGetError


@command(fail=_null)
def eglGetDisplay(native):
    _check(_h(native) == 0, EGL_BAD_PARAMETER)     # only EGL_DEFAULT_DISPLAY
    return ffi.cast("EGLDisplay", DISPLAY_HANDLE)


def _platform_display(platform, native, attribs, wide):
    _check(platform == EGL_PLATFORM_SURFACELESS_MESA, EGL_BAD_PARAMETER)
    _check(_h(native) == 0, EGL_BAD_PARAMETER)
    _check(not _attribs(attribs, wide), EGL_BAD_ATTRIBUTE)
    return ffi.cast("EGLDisplay", DISPLAY_HANDLE)


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
            bound = obj.thread is not None if isinstance(obj, Context) else obj.current_in is not None
            obj.destroyed = True
            if not bound:
                del table[h]
                obj.free()
    SYNCS.clear()
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
        return _cstring(CLIENT_EXTENSIONS if name == EGL_EXTENSIONS else "1.5 shimgl")
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
    _display(dpy)
    return _write_configs(CONFIGS, configs, size, num)


@command()
def eglChooseConfig(dpy, attribs, configs, size, num):
    _display(dpy)
    want = dict(_attribs(attribs, False))
    for k in want:
        _check(k in AT_LEAST or k in MASK or k in EXACT or k in IGNORED_IN_CHOOSE,
               EGL_BAD_ATTRIBUTE)
    if EGL_CONFIG_ID in want and want[EGL_CONFIG_ID] != EGL_DONT_CARE:
        found = [c for c in CONFIGS if c.id == want[EGL_CONFIG_ID]]
        return _write_configs(found, configs, size, num)
    found = []
    for c in CONFIGS:
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
    # EGL 1.5 section 3.4.1.2 sort: smaller buffer, depth, stencil first (colour bits equal)
    found.sort(key=lambda c: (c.attrs[EGL_BUFFER_SIZE], c.attrs[EGL_DEPTH_SIZE],
                              c.attrs[EGL_STENCIL_SIZE], c.id))
    return _write_configs(found, configs, size, num)


@command()
def eglGetConfigAttrib(dpy, config, attribute, value):
    _display(dpy)
    c = _config(config)
    _check(attribute in c.attrs, EGL_BAD_ATTRIBUTE)
    _put(value, "EGLint", c.attrs[attribute])
    return 1


# -- surfaces -------------------------------------------------------------------------------
PBUFFER_ATTRS = {EGL_WIDTH, EGL_HEIGHT, EGL_LARGEST_PBUFFER, EGL_TEXTURE_FORMAT,
                 EGL_TEXTURE_TARGET, EGL_MIPMAP_TEXTURE, EGL_GL_COLORSPACE,
                 EGL_VG_ALPHA_FORMAT, EGL_VG_COLORSPACE}


@command(fail=_null)
def eglCreatePbufferSurface(dpy, config, attribs):
    _display(dpy)
    c = _config(config)
    attrs = {EGL_WIDTH: 0, EGL_HEIGHT: 0, EGL_TEXTURE_FORMAT: EGL_NO_TEXTURE,
             EGL_TEXTURE_TARGET: EGL_NO_TEXTURE, EGL_LARGEST_PBUFFER: 0, EGL_MIPMAP_TEXTURE: 0}
    for k, v in _attribs(attribs, False):
        _check(k in PBUFFER_ATTRS, EGL_BAD_ATTRIBUTE)
        attrs[k] = v
    w, h = attrs[EGL_WIDTH], attrs[EGL_HEIGHT]
    _check(w >= 0 and h >= 0, EGL_BAD_PARAMETER)
    _check(attrs[EGL_TEXTURE_FORMAT] == EGL_NO_TEXTURE, EGL_BAD_MATCH)   # no bind-to-texture
    if w > MAX_PBUFFER_PX or h > MAX_PBUFFER_PX:
        _check(attrs[EGL_LARGEST_PBUFFER], EGL_BAD_MATCH)
        w, h = min(w, MAX_PBUFFER_PX), min(h, MAX_PBUFFER_PX)
    s = Surface(c, w, h, attrs)
    SURFACES[s.handle] = s
    return ffi.cast("EGLSurface", s.handle)


def _no_windows(dpy, config, *rest):
    _display(dpy)
    _config(config)
    raise EGLFail(EGL_BAD_MATCH)      # no config has EGL_WINDOW_BIT / EGL_PIXMAP_BIT


for _n in ("eglCreateWindowSurface", "eglCreatePlatformWindowSurface",
           "eglCreatePlatformWindowSurfaceEXT", "eglCreatePixmapSurface",
           "eglCreatePlatformPixmapSurface", "eglCreatePlatformPixmapSurfaceEXT"):
    _f = _entry(_null)(_no_windows)
    COMMANDS[_n] = _f


@command(fail=_null)
def eglCreatePbufferFromClientBuffer(dpy, buftype, buffer, config, attribs):
    _display(dpy)
    _config(config)
    raise EGLFail(EGL_BAD_PARAMETER)


@command()
def eglDestroySurface(dpy, surface):
    _display(dpy)
    s = _surface(surface)
    s.destroyed = True
    if s.current_in is None:
        del SURFACES[s.handle]
        s.free()
    return 1


@command()
def eglQuerySurface(dpy, surface, attribute, value):
    _display(dpy)
    s = _surface(surface)
    values = {EGL_WIDTH: s.width, EGL_HEIGHT: s.height, EGL_CONFIG_ID: s.config.id,
              EGL_LARGEST_PBUFFER: s.attrs[EGL_LARGEST_PBUFFER],
              EGL_TEXTURE_FORMAT: s.attrs[EGL_TEXTURE_FORMAT],
              EGL_TEXTURE_TARGET: s.attrs[EGL_TEXTURE_TARGET],
              EGL_MIPMAP_TEXTURE: s.attrs[EGL_MIPMAP_TEXTURE], EGL_MIPMAP_LEVEL: 0,
              EGL_RENDER_BUFFER: EGL_BACK_BUFFER, EGL_SWAP_BEHAVIOR: EGL_BUFFER_DESTROYED,
              EGL_MULTISAMPLE_RESOLVE: EGL_MULTISAMPLE_RESOLVE_DEFAULT,
              EGL_HORIZONTAL_RESOLUTION: EGL_UNKNOWN, EGL_VERTICAL_RESOLUTION: EGL_UNKNOWN,
              EGL_PIXEL_ASPECT_RATIO: EGL_UNKNOWN, EGL_GL_COLORSPACE: EGL_GL_COLORSPACE_LINEAR,
              EGL_VG_ALPHA_FORMAT: EGL_VG_ALPHA_FORMAT_NONPRE, EGL_VG_COLORSPACE: EGL_VG_COLORSPACE_sRGB}
    _check(attribute in values, EGL_BAD_ATTRIBUTE)
    _put(value, "EGLint", values[attribute])
    return 1


@command()
def eglSurfaceAttrib(dpy, surface, attribute, value):
    _display(dpy)
    _surface(surface)
    _check(attribute in (EGL_MIPMAP_LEVEL, EGL_SWAP_BEHAVIOR, EGL_MULTISAMPLE_RESOLVE),
           EGL_BAD_ATTRIBUTE)
    _check(attribute != EGL_SWAP_BEHAVIOR or value in (EGL_BUFFER_DESTROYED,), EGL_BAD_MATCH)
    _check(attribute != EGL_MULTISAMPLE_RESOLVE or value == EGL_MULTISAMPLE_RESOLVE_DEFAULT,
           EGL_BAD_MATCH)
    return 1


@command()
def eglBindTexImage(dpy, surface, buffer):
    _display(dpy)
    _surface(surface)
    raise EGLFail(EGL_BAD_MATCH)      # EGL_TEXTURE_FORMAT is always EGL_NO_TEXTURE


COMMANDS["eglReleaseTexImage"] = COMMANDS["eglBindTexImage"]


@command()
def eglSwapBuffers(dpy, surface):
    _display(dpy)
    s = _surface(surface)
    cur = runtime.current.owner
    _check(isinstance(cur, Context) and cur.draw is s, EGL_BAD_SURFACE)
    cur.gl.glFlush()           # a pbuffer: no effect beyond the implicit flush
    return 1


@command()
def eglSwapInterval(dpy, interval):
    _display(dpy)
    _check(isinstance(runtime.current.owner, Context), EGL_BAD_CONTEXT)
    return 1


@command()
def eglCopyBuffers(dpy, surface, target):
    _display(dpy)
    _surface(surface)
    raise EGLFail(EGL_BAD_NATIVE_PIXMAP)


# -- contexts ------------------------------------------------------------------------------------
@command()
def eglBindAPI(api):
    _check(api in (EGL_OPENGL_API, EGL_OPENGL_ES_API), EGL_BAD_PARAMETER)
    runtime.current.egl_api = api
    return 1


def eglQueryAPI():
    return runtime.current.egl_api


COMMANDS["eglQueryAPI"] = eglQueryAPI

CONTEXT_ATTRS = {EGL_CONTEXT_MAJOR_VERSION, EGL_CONTEXT_MINOR_VERSION,
                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_DEBUG,
                 EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE, EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
                 EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_CONTEXT_FLAGS_KHR,
                 EGL_CONTEXT_PRIORITY_LEVEL_IMG}


def choose_api(client_api: int, major: int, minor: int, profile: int) -> str:
    """The driver.gl API name for a requested version. EGL_KHR_create_context:
    the context may implement "any later version that is backward compatible
    with the requested version", and like Mesa we give the newest: OpenGL ES
    2.0-3.1 -> ES 3.1; core 3.2-4.3 -> 4.3 core; compatibility (or any version
    below 3.2) up to 3.3 -> the 3.3 compatibility context. EGL_BAD_MATCH when
    we have none (ES 1.x, ES 3.2, GL 4.4+)."""
    if client_api == EGL_OPENGL_ES_API:
        _check(major == 2 or (major == 3 and minor <= 1), EGL_BAD_MATCH)
        return "gles31"
    version = (major, minor)
    if version >= (3, 2):
        _check(profile & (EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                          | EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT), EGL_BAD_MATCH)
        if profile & EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT:
            _check(version <= (4, 3), EGL_BAD_MATCH)
            return "gl43"
    _check(version <= (3, 3), EGL_BAD_MATCH)
    return "compat"


@command(fail=_null)
def eglCreateContext(dpy, config, share, attribs):
    _display(dpy)
    cfg = None if _h(config) == 0 else _config(config)      # EGL_KHR_no_config_context
    share_ctx = _context(share) if _h(share) != 0 else None
    client_api = runtime.current.egl_api
    # EGL 1.5 section 3.7.1: the share context must be of the same client API
    _check(share_ctx is None or share_ctx.client_api == client_api, EGL_BAD_CONTEXT)
    es = client_api == EGL_OPENGL_ES_API
    major, minor = (1, 0) if not es else (1, 0)
    profile = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
    flags = 0
    for k, v in _attribs(attribs, False):
        _check(k in CONTEXT_ATTRS, EGL_BAD_ATTRIBUTE)
        if k == EGL_CONTEXT_MAJOR_VERSION:
            major = v
        elif k == EGL_CONTEXT_MINOR_VERSION:
            minor = v
        elif k == EGL_CONTEXT_OPENGL_PROFILE_MASK:
            _check(not es, EGL_BAD_ATTRIBUTE)
            _check(v & ~(EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                         | EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT) == 0, EGL_BAD_ATTRIBUTE)
            profile = v
        elif k == EGL_CONTEXT_FLAGS_KHR:
            flags = v
    _check(not flags & ~0x7, EGL_BAD_ATTRIBUTE)
    if es:
        _check(cfg is None or cfg.attrs[EGL_RENDERABLE_TYPE] & (EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT),
               EGL_BAD_CONFIG)
    api_name = choose_api(client_api, major, minor, profile)
    ctx = Context(cfg, api_name, client_api, (major, minor), share_ctx)
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
    cur = runtime.current.owner
    if isinstance(cur, Context):
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
    runtime.set_current(None, None)


@command()
def eglMakeCurrent(dpy, draw, read, context):
    import threading
    if _h(context) == 0 and _h(draw) == 0 and _h(read) == 0 and _h(dpy) == 0:
        _release_current()       # EGL 1.5: releasing with EGL_NO_DISPLAY is allowed
        return 1
    _display(dpy)
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
        _check(s is None or s.current_in in (None, ctx), EGL_BAD_ACCESS)
        _check(s is None or ctx.config is None or s.config is ctx.config
               or s.config.attrs[EGL_RENDERABLE_TYPE] & ctx.config.attrs[EGL_RENDERABLE_TYPE],
               EGL_BAD_MATCH)
    if runtime.current.owner is not ctx:
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
    runtime.set_current(ctx, ctx.gl)
    return 1


@command(fail=_null)
def eglGetCurrentContext():
    cur = runtime.current.owner
    return ffi.cast("EGLContext", cur.handle if isinstance(cur, Context) else 0)


@command(fail=_null)
def eglGetCurrentDisplay():
    cur = runtime.current.owner
    return ffi.cast("EGLDisplay", DISPLAY_HANDLE if isinstance(cur, Context) else 0)


@command(fail=_null)
def eglGetCurrentSurface(readdraw):
    _check(readdraw in (EGL_READ, EGL_DRAW), EGL_BAD_PARAMETER)
    cur = runtime.current.owner
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
    cur = runtime.current.owner
    if isinstance(cur, Context):
        cur.gl.glFinish()
    return 1


COMMANDS["eglWaitGL"] = COMMANDS["eglWaitClient"]


@command()
def eglWaitNative(engine):
    _check(engine == EGL_CORE_NATIVE_ENGINE, EGL_BAD_PARAMETER)
    return 1


@command()
def eglReleaseThread():
    _release_current()
    runtime.current.egl_api = EGL_OPENGL_ES_API
    return 1


# -- fence syncs (EGL 1.5 section 3.8.1, EGL_KHR_fence_sync) ------------------------------------
def _create_sync(dpy, sync_type, attribs, wide):
    _display(dpy)
    _check(sync_type == EGL_SYNC_FENCE, EGL_BAD_PARAMETER)
    _check(not _attribs(attribs, wide), EGL_BAD_ATTRIBUTE)
    cur = runtime.current.owner
    _check(isinstance(cur, Context), EGL_BAD_MATCH)
    s = Sync(cur, sync_type)
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
    if flags & EGL_SYNC_FLUSH_COMMANDS_BIT and isinstance(runtime.current.owner, Context):
        runtime.current.owner.gl.glFlush()
    timeout_ns = min(int(timeout), 2**63 - 1)
    return EGL_CONDITION_SATISFIED if s.wait(timeout_ns) else EGL_TIMEOUT_EXPIRED


@command()
def eglWaitSync(dpy, sync, flags):
    _display(dpy)
    _sync(sync)
    _check(flags == 0, EGL_BAD_PARAMETER)
    return 1          # one GPU queue in order: a server wait is already satisfied


def _sync_attrib(dpy, sync, attribute, value, c_type):
    _display(dpy)
    s = _sync(sync)
    if attribute == EGL_SYNC_STATUS:
        v = EGL_SIGNALED if s.wait(0) else EGL_UNSIGNALED
    elif attribute == EGL_SYNC_TYPE:
        v = s.type
    elif attribute == EGL_SYNC_CONDITION:
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
