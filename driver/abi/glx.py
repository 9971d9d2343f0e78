"""GLX 1.4 on shimgl, as a glvnd GLX vendor (libGLX_shimgl.so.0, selected by
__GLX_VENDOR_LIBRARY_NAME=shimgl): the Python side of the glX* functions
glvnd's libGLX calls (build.GLX_COMMANDS).

Rendering is direct and in this process, as Mesa's software GLX (xlib) does:
a window's back buffer is ours, and glXSwapBuffers puts it into the window with
MIT-SHM or XPutImage (driver/abi/x11.py; the same presenter as EGL's X11 windows). The
X server only needs to be an X server: its own GLX extension answers
glXQueryVersion/glXQueryExtension (libGLX asks it) but renders nothing.

FBConfigs, per screen: RGBA8 with depth 24 (stencil 8 or 0) or none (stencil 8
or 0), double- and single-buffered (single-buffered windows and pixmaps are
presented at glFlush/glFinish, the front buffer being the drawable), all on
the screen's default TrueColor visual; windows, pixmaps and pbuffers for every
config, as Mesa's (a pixmap is single-buffered whatever its config; the ids of
GLX pixmaps and pbuffers are the client's, each reserved with a 1x1 X pixmap,
so several GLX pixmaps may name one X pixmap). Contexts come from the rule EGL
and OSMesa use (egl.request_api): GLX_ARB_create_context(_profile) and
GLX_EXT_create_context_es2_profile for OpenGL ES. Swap intervals are recorded
(GLX_EXT/MESA/SGI_swap_control); presentation does not wait for vertical blank.

Errors are X protocol errors, as the GLX specification has them: reported to
the program's X error handler (x11.Connection.send_error) with the GLX
request's minor opcode, and the call returns its failure value."""

from __future__ import annotations

import threading

from driver.abi import egl, state, x11

__all__ = ["COMMANDS", "bind"]

ffi = None
NULL = None

# GLX 1.4 tokens (glx.xml)
GLX_USE_GL, GLX_BUFFER_SIZE, GLX_LEVEL, GLX_RGBA, GLX_DOUBLEBUFFER, GLX_STEREO = 1, 2, 3, 4, 5, 6
GLX_AUX_BUFFERS, GLX_RED_SIZE, GLX_GREEN_SIZE, GLX_BLUE_SIZE, GLX_ALPHA_SIZE = 7, 8, 9, 10, 11
GLX_DEPTH_SIZE, GLX_STENCIL_SIZE = 12, 13
GLX_ACCUM_RED_SIZE, GLX_ACCUM_GREEN_SIZE, GLX_ACCUM_BLUE_SIZE, GLX_ACCUM_ALPHA_SIZE = 14, 15, 16, 17
GLX_CONFIG_CAVEAT, GLX_X_VISUAL_TYPE, GLX_TRANSPARENT_TYPE = 0x20, 0x22, 0x23
GLX_TRANSPARENT_INDEX_VALUE, GLX_TRANSPARENT_RED_VALUE, GLX_TRANSPARENT_GREEN_VALUE = 0x24, 0x25, 0x26
GLX_TRANSPARENT_BLUE_VALUE, GLX_TRANSPARENT_ALPHA_VALUE = 0x27, 0x28
GLX_NONE, GLX_TRUE_COLOR, GLX_DONT_CARE = 0x8000, 0x8002, 0xFFFFFFFF
GLX_VISUAL_ID, GLX_SCREEN, GLX_DRAWABLE_TYPE, GLX_RENDER_TYPE = 0x800B, 0x800C, 0x8010, 0x8011
GLX_X_RENDERABLE, GLX_FBCONFIG_ID, GLX_RGBA_TYPE, GLX_COLOR_INDEX_TYPE = 0x8012, 0x8013, 0x8014, 0x8015
GLX_MAX_PBUFFER_WIDTH, GLX_MAX_PBUFFER_HEIGHT, GLX_MAX_PBUFFER_PIXELS = 0x8016, 0x8017, 0x8018
GLX_PRESERVED_CONTENTS, GLX_LARGEST_PBUFFER, GLX_WIDTH, GLX_HEIGHT = 0x801B, 0x801C, 0x801D, 0x801E
GLX_EVENT_MASK = 0x801F
GLX_WINDOW_BIT, GLX_PIXMAP_BIT, GLX_PBUFFER_BIT, GLX_RGBA_BIT = 0x1, 0x2, 0x4, 0x1
GLX_PBUFFER_HEIGHT, GLX_PBUFFER_WIDTH = 0x8040, 0x8041
MAX_PBUFFER_PX = 8192
GLX_SAMPLE_BUFFERS, GLX_SAMPLES = 100000, 100001
GLX_VENDOR, GLX_VERSION, GLX_EXTENSIONS = 1, 2, 3
GLX_CONTEXT_MAJOR_VERSION_ARB, GLX_CONTEXT_MINOR_VERSION_ARB = 0x2091, 0x2092
GLX_CONTEXT_FLAGS_ARB, GLX_CONTEXT_PROFILE_MASK_ARB = 0x2094, 0x9126
GLX_CONTEXT_CORE_PROFILE_BIT_ARB, GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB = 0x1, 0x2
GLX_CONTEXT_ES2_PROFILE_BIT_EXT = 0x4
GLX_CONTEXT_DEBUG_BIT_ARB, GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB = 0x1, 0x2
GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB = 0x4
# GLX_ARB_create_context_robustness (the values are GL's enums)
GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB = 0x8256
GLX_LOSE_CONTEXT_ON_RESET_ARB, GLX_NO_RESET_NOTIFICATION_ARB = 0x8252, 0x8261
GLX_SWAP_INTERVAL_EXT, GLX_MAX_SWAP_INTERVAL_EXT = 0x20F1, 0x20F2
GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB = 0x20B2
# errors (GLX 1.4 section 3.6; GLX_ARB_create_context) and core X errors
GLX_BAD_CONTEXT, GLX_BAD_DRAWABLE, GLX_BAD_PIXMAP, GLX_BAD_FBCONFIG = 0, 2, 3, 9
GLX_BAD_PBUFFER, GLX_BAD_WINDOW = 10, 12
GLX_BAD_PROFILE_ARB = 13
BAD_VALUE, BAD_MATCH, BAD_ACCESS, BAD_ALLOC = 2, 8, 10, 11
# return codes of glXGetConfig, glXQueryContext, glXSwapInterval{MESA,SGI} (GLX 1.4 glx.h)
RET_BAD_ATTRIBUTE, RET_BAD_VISUAL, RET_BAD_CONTEXT, RET_BAD_VALUE = 2, 4, 5, 6
# GLX request minor opcodes (for the error's minor code)
X_GLX_CREATE_CONTEXT, X_GLX_DESTROY_CONTEXT, X_GLX_MAKE_CURRENT = 3, 4, 5
X_GLX_SWAP_BUFFERS, X_GLX_CREATE_GLX_PIXMAP, X_GLX_CREATE_PIXMAP = 11, 13, 22
X_GLX_CREATE_NEW_CONTEXT, X_GLX_CREATE_PBUFFER, X_GLX_CREATE_WINDOW = 24, 27, 31
X_GLX_MAKE_CONTEXT_CURRENT, X_GLX_CREATE_CONTEXT_ATTRIBS_ARB = 26, 34
X_GLX_GET_FB_CONFIGS, X_GLX_QUERY_CONTEXT = 21, 25
X_GLX_COPY_CONTEXT, X_GLX_DESTROY_GLX_PIXMAP, X_GLX_DESTROY_PBUFFER = 10, 15, 28
X_GLX_GET_DRAWABLE_ATTRIBUTES, X_GLX_DESTROY_WINDOW = 29, 32

EXTENSIONS = ("GLX_ARB_create_context GLX_ARB_create_context_profile GLX_ARB_create_context_robustness "
              "GLX_ARB_get_proc_address "
              "GLX_EXT_create_context_es2_profile GLX_EXT_create_context_es_profile "
              "GLX_EXT_swap_control GLX_MESA_query_renderer GLX_MESA_swap_control GLX_SGI_swap_control")
CONFIG_BASE = 0x53470000        # GLXFBConfig handles: CONFIG_BASE + GLX_FBCONFIG_ID
MAX_WINDOW_PX = 16384


def bind(the_ffi) -> None:
    global ffi, NULL
    ffi, NULL = the_ffi, the_ffi.NULL


def _h(p) -> int:
    return int(ffi.cast("uintptr_t", p))


class Config:
    def __init__(self, config_id, double, depth, stencil, visual_id, samples=0):
        self.id, self.double, self.depth, self.stencil = config_id, double, depth, stencil
        self.samples = samples
        self.visual_id = visual_id
        self.attrs = {
            GLX_FBCONFIG_ID: config_id, GLX_BUFFER_SIZE: 32, GLX_LEVEL: 0,
            GLX_DOUBLEBUFFER: int(double), GLX_STEREO: 0, GLX_AUX_BUFFERS: 0,
            GLX_RED_SIZE: 8, GLX_GREEN_SIZE: 8, GLX_BLUE_SIZE: 8, GLX_ALPHA_SIZE: 8,
            GLX_DEPTH_SIZE: depth, GLX_STENCIL_SIZE: stencil,
            GLX_ACCUM_RED_SIZE: 0, GLX_ACCUM_GREEN_SIZE: 0, GLX_ACCUM_BLUE_SIZE: 0,
            GLX_ACCUM_ALPHA_SIZE: 0, GLX_RENDER_TYPE: GLX_RGBA_BIT,
            # every config draws to pixmaps too, as Mesa's: a pixmap is single-buffered
            # whatever the config (the pixmap is the front buffer, presented at flush)
            GLX_DRAWABLE_TYPE: GLX_WINDOW_BIT | GLX_PBUFFER_BIT | GLX_PIXMAP_BIT,
            GLX_X_RENDERABLE: 1, GLX_VISUAL_ID: visual_id,
            GLX_X_VISUAL_TYPE: GLX_TRUE_COLOR, GLX_CONFIG_CAVEAT: GLX_NONE,
            GLX_TRANSPARENT_TYPE: GLX_NONE, GLX_TRANSPARENT_INDEX_VALUE: 0,
            GLX_TRANSPARENT_RED_VALUE: 0, GLX_TRANSPARENT_GREEN_VALUE: 0,
            GLX_TRANSPARENT_BLUE_VALUE: 0, GLX_TRANSPARENT_ALPHA_VALUE: 0,
            GLX_MAX_PBUFFER_WIDTH: MAX_PBUFFER_PX, GLX_MAX_PBUFFER_HEIGHT: MAX_PBUFFER_PX,
            GLX_MAX_PBUFFER_PIXELS: MAX_PBUFFER_PX * MAX_PBUFFER_PX,
            GLX_SAMPLE_BUFFERS: int(samples > 1), GLX_SAMPLES: samples,
            GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: 0,
            GLX_USE_GL: 1, GLX_RGBA: 1,
        }
        self.handle = CONFIG_BASE + config_id


# matching rules of GLX 1.4 table 3.4
AT_LEAST = {GLX_BUFFER_SIZE, GLX_AUX_BUFFERS, GLX_RED_SIZE, GLX_GREEN_SIZE, GLX_BLUE_SIZE,
            GLX_ALPHA_SIZE, GLX_DEPTH_SIZE, GLX_STENCIL_SIZE, GLX_ACCUM_RED_SIZE,
            GLX_ACCUM_GREEN_SIZE, GLX_ACCUM_BLUE_SIZE, GLX_ACCUM_ALPHA_SIZE,
            GLX_SAMPLE_BUFFERS, GLX_SAMPLES}
MASK = {GLX_RENDER_TYPE, GLX_DRAWABLE_TYPE}
IGNORED = {GLX_MAX_PBUFFER_WIDTH, GLX_MAX_PBUFFER_HEIGHT, GLX_MAX_PBUFFER_PIXELS, GLX_VISUAL_ID}
# glXChooseVisual's boolean tokens (they take no value)
VISUAL_BOOLEANS = {GLX_USE_GL, GLX_RGBA, GLX_DOUBLEBUFFER, GLX_STEREO}


class Screen:
    """The configs of one (display, screen)."""

    def __init__(self, conn: x11.Connection):
        kinds = [(double, depth, stencil, samples)
                 for samples in (0, 4)         # 4: the multisampled configs (after the others)
                 for double in (True, False)
                 for depth, stencil in ((24, 8), (24, 0), (0, 0), (0, 8))]
        # one TrueColor visual per config when the server has enough (as Mesa's GLX
        # visuals: glXChooseVisual/glXGetConfig then tell single- from double-buffered
        # visuals); else every config shares the default visual, the first one standing for it
        visuals = conn.true_color_visuals()
        if len(visuals) < len(kinds):
            visuals = [visuals[0]] * len(kinds)
        self.configs = [Config(n, double, depth, stencil, visuals[n - 1], samples)
                        for n, (double, depth, stencil, samples) in enumerate(kinds, start=1)]
        self.by_handle = {c.handle: c for c in self.configs}
        self.by_visual = {}
        for c in self.configs:                 # a visual's config: the first, the richest
            self.by_visual.setdefault(c.visual_id, c)


class Display:
    def __init__(self, native: int):
        self.conn = x11.Connection(native)
        self.screen = Screen(self.conn) if self.conn.ok else None


DISPLAYS: dict[int, Display] = {}
CONTEXTS: dict[int, "Context"] = {}
DRAWABLES: dict[tuple[int, int], egl.Surface] = {}
GLX_WINDOWS: dict[tuple[int, int], int] = {}     # GLXWindow -> its X window (the same id)
EVENT_MASKS: dict[tuple[int, int], int] = {}


class GLXFail(Exception):
    def __init__(self, code, minor, glx=True, resource=0):
        super().__init__(code)
        self.code, self.minor, self.glx, self.resource = code, minor, glx, resource


class Context(egl.Context):
    """A GLX context: an EGL-style context whose single-buffered windows are
    presented at glFlush/glFinish (the window is the front buffer)."""

    def __init__(self, display, config, api, share, reset_strategy=egl.EGL_NO_RESET_NOTIFICATION):
        super().__init__(display, config, api, egl.EGL_OPENGL_API, (0, 0), share,
                         reset_strategy=reset_strategy)
        self.render_type = GLX_RGBA_TYPE

    def free(self):
        CONTEXTS.pop(self.handle, None)      # also when released after glXDestroyContext
        super().free()

    def after_flush(self) -> bool:
        d = self.draw
        if d is not None and d.window is not None and (not d.config.double or d.attrs.get("glx_pixmap")):
            egl.present(self, d)
            return True
        return False


def _display(dpy) -> Display:
    native = _h(dpy)
    d = DISPLAYS.get(native)
    if d is None:
        d = DISPLAYS[native] = Display(native)
    if d.screen is None:
        raise GLXFail(BAD_VALUE, 0, glx=False)
    return d


def _entry(fail):
    """Run a GLX function: a GLXFail becomes the X error the specification
    names (sent to the program's handler) and the failure value."""
    def wrap(fn):
        def entry(*args):
            try:
                return fn(*args)
            except GLXFail as e:
                if state._debug:
                    import sys
                    print(f"shimgl: {fn.__name__}: X error {e.code} (GLX {e.glx}), "
                          f"minor {e.minor}", file=sys.stderr)
                try:
                    d = DISPLAYS.get(_h(args[0])) if args and _is_display(args[0]) else None
                    if d is not None and d.conn.ok:
                        d.conn.send_error(e.code, e.resource, e.minor, e.glx)
                except Exception as err:   # pragma: no cover - reporting must not fail
                    state._report(fn.__name__, err)
                return fail() if callable(fail) else fail
            except Exception as err:
                state._report(fn.__name__, err)
                return fail() if callable(fail) else fail
        entry.__name__ = fn.__name__
        return entry
    return wrap


def _is_display(p) -> bool:
    return ffi.typeof(p) is ffi.typeof("Display *") if isinstance(p, ffi.CData) else False


COMMANDS: dict[str, object] = {}


def command(fail=0):
    def reg(fn):
        COMMANDS[fn.__name__] = _entry(fail)(fn)
        return fn
    return reg


def _null():
    return NULL


def _attrib_pairs(p, booleans=frozenset()) -> list[tuple[int, int]]:
    if p == NULL:
        return []
    arr = ffi.cast("int *", p)
    out, i = [], 0
    while arr[i] != 0:                       # None terminates
        if i > 1024:
            raise GLXFail(BAD_VALUE, 0, glx=False)
        k = arr[i] & 0xFFFFFFFF
        if k in booleans:
            out.append((k, 1))
            i += 1
        else:
            out.append((k, arr[i + 1] & 0xFFFFFFFF))
            i += 2
    return out


def _matches(c: Config, want: dict[int, int]) -> bool:
    for k, v in want.items():
        if v == GLX_DONT_CARE or k in IGNORED:
            continue
        have = c.attrs.get(k)
        if have is None:
            raise GLXFail(BAD_VALUE, 0, glx=False)
        if k in AT_LEAST:
            ok = have >= v
        elif k in MASK:
            ok = have & v == v
        else:
            ok = have == v
        if not ok:
            return False
    return True


def _sorted(configs):
    # GLX 1.4 section 3.3.3: caveat, colour bits (equal), single before double
    # buffered, fewer aux buffers, fewer sample buffers and samples, smaller depth,
    # smaller stencil, then id
    return sorted(configs, key=lambda c: (c.double, c.samples, c.depth, c.stencil, c.id))


def _choose(screen: Screen, attribs: list[tuple[int, int]], defaults: dict[int, int]):
    want = dict(defaults)
    want.update(attribs)
    if GLX_FBCONFIG_ID in want and want[GLX_FBCONFIG_ID] != GLX_DONT_CARE:
        return [c for c in screen.configs if c.id == want[GLX_FBCONFIG_ID]]
    return _sorted(c for c in screen.configs if _matches(c, want))


# -- configs and visuals --------------------------------------------------------------------
@command(fail=_null)
def glXGetFBConfigs(dpy, screen, nelements):
    s = _display(dpy).screen
    if nelements != NULL:
        nelements[0] = len(s.configs)
    return ffi.cast("GLXFBConfig *", x11.malloc_array("void *", [c.handle for c in s.configs]))


@command(fail=_null)
def glXChooseFBConfig(dpy, screen, attrib_list, nelements):
    s = _display(dpy).screen
    found = _choose(s, _attrib_pairs(attrib_list), {
        GLX_DOUBLEBUFFER: GLX_DONT_CARE, GLX_RENDER_TYPE: GLX_RGBA_BIT,
        GLX_DRAWABLE_TYPE: GLX_WINDOW_BIT, GLX_X_RENDERABLE: GLX_DONT_CARE,
        GLX_CONFIG_CAVEAT: GLX_DONT_CARE, GLX_X_VISUAL_TYPE: GLX_DONT_CARE,
        GLX_TRANSPARENT_TYPE: GLX_NONE, GLX_LEVEL: 0})
    if nelements != NULL:
        nelements[0] = len(found)
    return ffi.cast("GLXFBConfig *", x11.malloc_array("void *", [c.handle for c in found]))


def _config(d: Display, config, minor) -> Config:
    c = d.screen.by_handle.get(_h(config))
    if c is None:
        raise GLXFail(GLX_BAD_FBCONFIG, minor)
    return c


@command(fail=RET_BAD_ATTRIBUTE)
def glXGetFBConfigAttrib(dpy, config, attribute, value):
    c = _config(_display(dpy), config, X_GLX_GET_FB_CONFIGS)
    if attribute not in c.attrs or attribute in (GLX_USE_GL, GLX_RGBA):
        return RET_BAD_ATTRIBUTE
    value[0] = c.attrs[attribute] if attribute != GLX_SCREEN else 0
    return 0


@command(fail=_null)
def glXGetVisualFromFBConfig(dpy, config):
    d = _display(dpy)
    c = d.screen.by_handle.get(_h(config))
    if c is None:
        return NULL
    return ffi.cast("XVisualInfo *", d.conn.visual_info(c.visual_id))


@command(fail=_null)
def glXChooseVisual(dpy, screen, attrib_list):
    d = _display(dpy)
    pairs = _attrib_pairs(attrib_list, VISUAL_BOOLEANS)
    if (GLX_RGBA, 1) not in pairs:
        return NULL                       # colour-index visuals: none
    found = _choose(d.screen, [p for p in pairs if p[0] not in (GLX_USE_GL, GLX_RGBA)],
                    {GLX_DOUBLEBUFFER: 0, GLX_RENDER_TYPE: GLX_RGBA_BIT, GLX_LEVEL: 0,
                     GLX_STEREO: 0})
    # a visual stands for its config (by_visual): the others (multisampled ones) are
    # reached through FBConfigs only, so a visual never promises what it does not have
    found = [c for c in found if d.screen.by_visual.get(c.visual_id) is c]
    if not found:
        return NULL
    return ffi.cast("XVisualInfo *", d.conn.visual_info(found[0].visual_id))


def _visual_config(d: Display, vis) -> Config | None:
    if vis == NULL:
        return None
    return d.screen.by_visual.get(d.conn.visual_id_of(_h(vis)))


@command(fail=RET_BAD_ATTRIBUTE)
def glXGetConfig(dpy, visual, attrib, value):
    d = _display(dpy)
    c = _visual_config(d, visual)
    if c is None:
        if attrib == GLX_USE_GL:
            value[0] = 0
            return 0
        return RET_BAD_VISUAL
    if attrib not in c.attrs:
        return RET_BAD_ATTRIBUTE
    value[0] = c.attrs[attrib]
    return 0


# -- contexts -------------------------------------------------------------------------------
def _share(share, minor):
    if _h(share) == 0:
        return None
    s = CONTEXTS.get(_h(share))
    if s is None:
        raise GLXFail(GLX_BAD_CONTEXT, minor)
    return s


def _create(d, cfg, share, api, minor, reset=GLX_NO_RESET_NOTIFICATION_ARB):
    if api is None:
        raise GLXFail(BAD_MATCH, minor, glx=False)
    strategy = {GLX_NO_RESET_NOTIFICATION_ARB: egl.EGL_NO_RESET_NOTIFICATION,
                GLX_LOSE_CONTEXT_ON_RESET_ARB: egl.EGL_LOSE_CONTEXT_ON_RESET}[reset]
    if share is not None and share.reset_strategy != strategy:   # GLX_ARB_create_context_robustness
        raise GLXFail(BAD_MATCH, minor, glx=False)
    ctx = Context(d, cfg, api, share, reset_strategy=strategy)
    CONTEXTS[ctx.handle] = ctx
    return ffi.cast("GLXContext", ctx.handle)


@command(fail=_null)
def glXCreateContext(dpy, vis, share_list, direct):
    d = _display(dpy)
    cfg = _visual_config(d, vis)
    if cfg is None:
        raise GLXFail(BAD_VALUE, X_GLX_CREATE_CONTEXT, glx=False)
    return _create(d, cfg, _share(share_list, X_GLX_CREATE_CONTEXT),
                   egl.request_api(False, 1, 0, False), X_GLX_CREATE_CONTEXT)


@command(fail=_null)
def glXCreateNewContext(dpy, config, render_type, share_list, direct):
    d = _display(dpy)
    cfg = _config(d, config, X_GLX_CREATE_NEW_CONTEXT)
    if render_type != GLX_RGBA_TYPE:
        raise GLXFail(BAD_MATCH, X_GLX_CREATE_NEW_CONTEXT, glx=False)
    return _create(d, cfg, _share(share_list, X_GLX_CREATE_NEW_CONTEXT),
                   egl.request_api(False, 1, 0, False), X_GLX_CREATE_NEW_CONTEXT)


@command(fail=_null)
def glXCreateContextAttribsARB(dpy, config, share_context, direct, attrib_list):
    """GLX_ARB_create_context(_profile), GLX_EXT_create_context_es2_profile."""
    minor = X_GLX_CREATE_CONTEXT_ATTRIBS_ARB
    d = _display(dpy)
    cfg = _config(d, config, minor) if _h(config) else d.screen.configs[0]
    major_v, minor_v, flags = 1, 0, 0
    profile = GLX_CONTEXT_CORE_PROFILE_BIT_ARB
    reset = GLX_NO_RESET_NOTIFICATION_ARB
    for k, v in _attrib_pairs(attrib_list):
        if k == GLX_CONTEXT_MAJOR_VERSION_ARB:
            major_v = v
        elif k == GLX_CONTEXT_MINOR_VERSION_ARB:
            minor_v = v
        elif k == GLX_CONTEXT_FLAGS_ARB:
            flags = v
        elif k == GLX_CONTEXT_PROFILE_MASK_ARB:
            profile = v
        elif k == GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB:
            # the robustness extension names no error: BadMatch, as for an invalid
            # version (and NVIDIA's driver; piglit checks it)
            if v not in (GLX_NO_RESET_NOTIFICATION_ARB, GLX_LOSE_CONTEXT_ON_RESET_ARB):
                raise GLXFail(BAD_MATCH, minor, glx=False)
            reset = v
        elif k == GLX_RENDER_TYPE:
            # GLX_ARB_create_context: a render type that is not one is BadValue; colour
            # index, one the configs do not support, BadMatch
            if v == GLX_COLOR_INDEX_TYPE:
                raise GLXFail(BAD_MATCH, minor, glx=False)
            if v != GLX_RGBA_TYPE:
                raise GLXFail(BAD_VALUE, minor, glx=False)
        elif k != GLX_SCREEN:
            raise GLXFail(BAD_VALUE, minor, glx=False)
    if flags & ~0x7:
        raise GLXFail(BAD_VALUE, minor, glx=False)
    es = profile == GLX_CONTEXT_ES2_PROFILE_BIT_EXT
    if profile not in (GLX_CONTEXT_CORE_PROFILE_BIT_ARB, GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB,
                       GLX_CONTEXT_ES2_PROFILE_BIT_EXT):
        raise GLXFail(GLX_BAD_PROFILE_ARB, minor)
    # GLX_EXT_create_context_es2_profile: a version OpenGL ES does not have is GLXBadProfileARB
    if es and (major_v, minor_v) not in ((1, 0), (1, 1), (2, 0), (3, 0), (3, 1), (3, 2)):
        raise GLXFail(GLX_BAD_PROFILE_ARB, minor)
    core = not es and profile == GLX_CONTEXT_CORE_PROFILE_BIT_ARB
    api = egl.request_api(es, major_v, minor_v, core,
                          forward_compatible=bool(flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB),
                          debug=bool(flags & GLX_CONTEXT_DEBUG_BIT_ARB),
                          robust=bool(flags & GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB))
    return _create(d, cfg, _share(share_context, minor), api, minor, reset)


@command(fail=None)
def glXDestroyContext(dpy, ctx):
    _display(dpy)
    c = CONTEXTS.get(_h(ctx))
    if c is None:
        raise GLXFail(GLX_BAD_CONTEXT, X_GLX_DESTROY_CONTEXT)
    c.destroyed = True
    if c.thread is None:
        del CONTEXTS[c.handle]
        c.free()


@command(fail=0)
def glXIsDirect(dpy, ctx):
    return 1 if _h(ctx) in CONTEXTS else 0


@command(fail=None)
def glXCopyContext(dpy, src, dst, mask):
    raise GLXFail(BAD_MATCH, X_GLX_COPY_CONTEXT, glx=False)   # no state copies between contexts


@command(fail=RET_BAD_CONTEXT)
def glXQueryContext(dpy, ctx, attribute, value):
    c = CONTEXTS.get(_h(ctx))
    if c is None:
        raise GLXFail(GLX_BAD_CONTEXT, X_GLX_QUERY_CONTEXT)
    values = {GLX_FBCONFIG_ID: c.config.id, GLX_RENDER_TYPE: GLX_RGBA_TYPE, GLX_SCREEN: 0}
    if attribute not in values:
        return RET_BAD_ATTRIBUTE
    value[0] = values[attribute]
    return 0


# -- drawables -------------------------------------------------------------------------------
def _drawable(d: Display, native: int, xid: int, cfg: Config | None, minor) -> egl.Surface:
    """The surface of a window (made on first use: glXMakeCurrent takes X
    windows directly)."""
    s = DRAWABLES.get((native, xid))
    if s is None:
        window = d.conn.window(xid)
        if window is None:
            raise GLXFail(GLX_BAD_DRAWABLE, minor, resource=xid)
        w, h = window.size()
        s = egl.Surface(d, cfg or d.screen.configs[0], w, h, {}, window)
        DRAWABLES[(native, xid)] = s
    return s


@command(fail=0)
def glXCreateWindow(dpy, config, win, attrib_list):
    d = _display(dpy)
    cfg = _config(d, config, X_GLX_CREATE_WINDOW)
    _attrib_pairs(attrib_list)      # GLX 1.4 section 3.3.4: no attribute is used (the X server ignores them)
    key = (_h(dpy), int(win))
    if key in DRAWABLES and key in GLX_WINDOWS:
        raise GLXFail(BAD_ALLOC, X_GLX_CREATE_WINDOW, glx=False)
    s = _drawable(d, _h(dpy), int(win), cfg, X_GLX_CREATE_WINDOW)
    s.config = cfg
    GLX_WINDOWS[key] = int(win)
    return int(win)                  # the GLXWindow is named by its window's id


def _forget(key):
    s = DRAWABLES.get(key)
    if s is None:
        return
    s.destroyed = True
    if s.current_in is None:
        del DRAWABLES[key]
        s.free()


@command(fail=None)
def glXDestroyWindow(dpy, win):
    d = _display(dpy)
    key = (_h(dpy), int(win))
    if GLX_WINDOWS.pop(key, None) is None:
        raise GLXFail(GLX_BAD_WINDOW, X_GLX_DESTROY_WINDOW, resource=int(win))
    _forget(key)
    # GLX 1.4 section 3.3.4: destroying the X window destroyed the GLXWindow with it
    if d.conn.geometry(int(win)) is None:
        raise GLXFail(GLX_BAD_WINDOW, X_GLX_DESTROY_WINDOW, resource=int(win))


PIXMAPS: dict[tuple[int, int], int] = {}     # GLXPixmap -> its X pixmap
PBUFFERS: dict[tuple[int, int], int] = {}    # GLXPbuffer -> the X pixmap reserving its id


def _pixmap(dpy, cfg: Config, pixmap: int, minor) -> int:
    """A GLX pixmap: rendering lands in the X pixmap at glFlush/glFinish
    (XPutImage, as to a single-buffered window). Its id is one of the
    client's, reserved as a pbuffer's: several GLX pixmaps may name one X
    pixmap (the protocol allows it, as Mesa does)."""
    d = _display(dpy)
    if not cfg.attrs[GLX_DRAWABLE_TYPE] & GLX_PIXMAP_BIT:
        raise GLXFail(BAD_MATCH, minor, glx=False)
    window = d.conn.window(int(pixmap))
    if window is None:
        raise GLXFail(GLX_BAD_DRAWABLE, minor, resource=int(pixmap))
    w, h = window.size()
    xid = d.conn.reserve_id()
    DRAWABLES[(_h(dpy), xid)] = egl.Surface(d, cfg, w, h, {"glx_pixmap": True}, window)
    PIXMAPS[(_h(dpy), xid)] = int(pixmap)
    return xid


@command(fail=0)
def glXCreatePixmap(dpy, config, pixmap, attrib_list):
    cfg = _config(_display(dpy), config, X_GLX_CREATE_PIXMAP)
    _attrib_pairs(attrib_list)      # GLX 1.4 section 3.3.5: no attribute is used (the X server ignores them)
    return _pixmap(dpy, cfg, pixmap, X_GLX_CREATE_PIXMAP)


@command(fail=0)
def glXCreateGLXPixmap(dpy, visual, pixmap):
    d = _display(dpy)
    cfg = _visual_config(d, visual)          # a pixmap is single-buffered whatever the config
    if cfg is None:
        raise GLXFail(BAD_MATCH, X_GLX_CREATE_GLX_PIXMAP, glx=False)
    return _pixmap(dpy, cfg, pixmap, X_GLX_CREATE_GLX_PIXMAP)


@command(fail=None)
def glXDestroyPixmap(dpy, pixmap):
    d = _display(dpy)
    key = (_h(dpy), int(pixmap))
    if PIXMAPS.pop(key, None) is None:
        raise GLXFail(GLX_BAD_PIXMAP, X_GLX_DESTROY_GLX_PIXMAP, resource=int(pixmap))
    _forget(key)
    d.conn.release_id(int(pixmap))


COMMANDS["glXDestroyGLXPixmap"] = COMMANDS["glXDestroyPixmap"]


@command(fail=0)
def glXCreatePbuffer(dpy, config, attrib_list):
    """An offscreen buffer of ours; its id is reserved with a 1x1 X pixmap
    (X ids belong to the client's range; glvnd maps drawables by id)."""
    d = _display(dpy)
    cfg = _config(d, config, X_GLX_CREATE_PBUFFER)
    attrs = {GLX_PBUFFER_WIDTH: 0, GLX_PBUFFER_HEIGHT: 0, GLX_LARGEST_PBUFFER: 0,
             GLX_PRESERVED_CONTENTS: 1}
    for k, v in _attrib_pairs(attrib_list):
        if k not in attrs:
            raise GLXFail(BAD_VALUE, X_GLX_CREATE_PBUFFER, glx=False)
        attrs[k] = v
    w, h = attrs[GLX_PBUFFER_WIDTH], attrs[GLX_PBUFFER_HEIGHT]
    if w > MAX_PBUFFER_PX or h > MAX_PBUFFER_PX:
        if not attrs[GLX_LARGEST_PBUFFER]:
            raise GLXFail(BAD_ALLOC, X_GLX_CREATE_PBUFFER, glx=False)
        w, h = min(w, MAX_PBUFFER_PX), min(h, MAX_PBUFFER_PX)
    xid = d.conn.reserve_id()
    s = egl.Surface(d, cfg, w, h, {}, None)
    DRAWABLES[(_h(dpy), xid)] = s
    PBUFFERS[(_h(dpy), xid)] = xid
    return xid


@command(fail=None)
def glXDestroyPbuffer(dpy, pbuf):
    d = _display(dpy)
    key = (_h(dpy), int(pbuf))
    if PBUFFERS.pop(key, None) is None:
        raise GLXFail(GLX_BAD_PBUFFER, X_GLX_DESTROY_PBUFFER, resource=int(pbuf))
    _forget(key)
    d.conn.release_id(int(pbuf))


@command(fail=None)
def glXQueryDrawable(dpy, draw, attribute, value):
    d = _display(dpy)
    s = _drawable(d, _h(dpy), int(draw), None, X_GLX_GET_DRAWABLE_ATTRIBUTES)
    egl.follow_window(s)
    values = {GLX_WIDTH: s.width, GLX_HEIGHT: s.height,
              GLX_PRESERVED_CONTENTS: int(s.window is None),
              GLX_LARGEST_PBUFFER: 0, GLX_FBCONFIG_ID: s.config.id,
              GLX_SWAP_INTERVAL_EXT: s.swap_interval, GLX_MAX_SWAP_INTERVAL_EXT: 1,
              GLX_EVENT_MASK: EVENT_MASKS.get((_h(dpy), int(draw)), 0)}
    if attribute not in values:
        raise GLXFail(BAD_VALUE, X_GLX_GET_DRAWABLE_ATTRIBUTES, glx=False)
    if value != NULL:
        value[0] = values[attribute]


@command(fail=None)
def glXSelectEvent(dpy, draw, event_mask):
    EVENT_MASKS[(_h(dpy), int(draw))] = int(event_mask)   # we send no GLX events


@command(fail=None)
def glXGetSelectedEvent(dpy, draw, event_mask):
    if event_mask != NULL:
        event_mask[0] = EVENT_MASKS.get((_h(dpy), int(draw)), 0)


# -- make current, swap ------------------------------------------------------------------------
def _make_current(dpy, draw, read, ctx_handle, minor) -> int:
    if ctx_handle == 0:
        if draw or read:
            raise GLXFail(BAD_MATCH, minor, glx=False)
        egl._release_current()
        return 1
    d = _display(dpy)
    ctx = CONTEXTS.get(ctx_handle)
    if ctx is None:
        raise GLXFail(GLX_BAD_CONTEXT, minor)
    if not draw and not read and ctx.gl.api.version >= (3, 0):
        dsurf = rsurf = None      # GLX_ARB_create_context: GL 3.0+ current without a default framebuffer
    elif not draw or not read:
        raise GLXFail(BAD_MATCH, minor, glx=False)
    else:
        dsurf = _drawable(d, _h(dpy), int(draw), ctx.config, minor)
        rsurf = dsurf if read == draw else _drawable(d, _h(dpy), int(read), ctx.config, minor)
    me = threading.get_ident()
    if ctx.thread not in (None, me):
        raise GLXFail(BAD_ACCESS, minor, glx=False)
    if state.current.owner is not ctx:
        egl._release_current()
    ctx.thread = me
    for s in (ctx.draw, ctx.read):
        if s is not None and s not in (dsurf, rsurf):
            s.current_in = None
    ctx.draw, ctx.read = dsurf, rsurf
    for s in {dsurf, rsurf} - {None}:
        s.current_in = ctx
    ctx.bind_surface(dsurf)
    state.set_current(ctx, ctx.gl)
    return 1


@command(fail=0)
def glXMakeCurrent(dpy, drawable, ctx):
    return _make_current(dpy, drawable, drawable, _h(ctx), X_GLX_MAKE_CURRENT)


@command(fail=0)
def glXMakeContextCurrent(dpy, draw, read, ctx):
    return _make_current(dpy, draw, read, _h(ctx), X_GLX_MAKE_CONTEXT_CURRENT)


@command(fail=None)
def glXSwapBuffers(dpy, drawable):
    """Present the back buffer of a double-buffered window (through the
    context it is bound to); nothing for a single-buffered one."""
    s = DRAWABLES.get((_h(dpy), int(drawable)))
    if s is None:
        _drawable(_display(dpy), _h(dpy), int(drawable), None, X_GLX_SWAP_BUFFERS)
        return                            # a window never drawn to: nothing to show
    ctx = s.current_in
    if ctx is None or not s.config.double:
        return
    if s.window is None:                  # a pbuffer: no window to show; the swap flushes
        ctx.gl.glFlush()
        return
    egl.present(ctx, s)
    if s.resize(*s.window.size()) and ctx.draw is s:
        ctx.gl.window = s.fb


@command(fail=None)
def glXWaitGL():
    cur = state.current.owner
    if isinstance(cur, Context):
        cur.gl.glFinish()
        cur.after_flush()


@command(fail=None)
def glXWaitX():
    return None                            # each present is flushed to the server (synced for MIT-SHM)


_warned_font = []


@command(fail=None)
def glXUseXFont(font, first, count, list_base):
    if not _warned_font:
        _warned_font.append(1)
        import sys
        print("shimgl: glXUseXFont is not supported (no display lists are made)", file=sys.stderr)


# -- strings, swap intervals -------------------------------------------------------------------
_strings: dict[str, object] = {}


def _cstring(s: str):
    c = _strings.get(s)
    if c is None:
        c = _strings[s] = ffi.new("char[]", s.encode())
    return c


def _string(name):
    values = {GLX_VENDOR: "shimgl", GLX_VERSION: "1.4", GLX_EXTENSIONS: EXTENSIONS}
    return _cstring(values[name]) if name in values else NULL


@command(fail=_null)
def glXGetClientString(dpy, name):
    return _string(name)


@command(fail=_null)
def glXQueryServerString(dpy, screen, name):
    return _string(name)


@command(fail=_null)
def glXQueryExtensionsString(dpy, screen):
    return _cstring(EXTENSIONS)


def _current_draw():
    cur = state.current.owner
    return cur.draw if isinstance(cur, Context) else None


@command(fail=None)
def glXSwapIntervalEXT(dpy, drawable, interval):
    s = DRAWABLES.get((_h(dpy), int(drawable)))
    if s is None:
        raise GLXFail(GLX_BAD_DRAWABLE, 0, resource=int(drawable))
    if interval < 0:
        raise GLXFail(BAD_VALUE, 0, glx=False)
    s.swap_interval = min(int(interval), 1)


@command(fail=RET_BAD_CONTEXT)
def glXSwapIntervalMESA(interval):
    s = _current_draw()
    if s is None:
        return RET_BAD_CONTEXT
    s.swap_interval = min(int(interval), 1)
    return 0


@command(fail=0)
def glXGetSwapIntervalMESA():
    s = _current_draw()
    return s.swap_interval if s is not None else 0


@command(fail=RET_BAD_CONTEXT)
def glXSwapIntervalSGI(interval):
    if interval <= 0:
        return RET_BAD_VALUE
    s = _current_draw()
    if s is None:
        return RET_BAD_CONTEXT
    s.swap_interval = min(int(interval), 1)
    return 0


# -- GLX_MESA_query_renderer -------------------------------------------------------------------
GLX_RENDERER_VENDOR_ID_MESA, GLX_RENDERER_DEVICE_ID_MESA, GLX_RENDERER_VERSION_MESA = 0x8183, 0x8184, 0x8185
GLX_RENDERER_ACCELERATED_MESA, GLX_RENDERER_VIDEO_MEMORY_MESA = 0x8186, 0x8187
GLX_RENDERER_UNIFIED_MEMORY_ARCHITECTURE_MESA, GLX_RENDERER_PREFERRED_PROFILE_MESA = 0x8188, 0x8189
GLX_RENDERER_OPENGL_CORE_PROFILE_VERSION_MESA = 0x818A
GLX_RENDERER_OPENGL_COMPATIBILITY_PROFILE_VERSION_MESA = 0x818B
GLX_RENDERER_OPENGL_ES_PROFILE_VERSION_MESA, GLX_RENDERER_OPENGL_ES2_PROFILE_VERSION_MESA = 0x818C, 0x818D
NO_PCI_ID = 0xFFFFFFFF          # no PCI device: what Mesa's software renderers report


def _package_version() -> list[int]:
    from importlib import metadata
    try:
        parts = metadata.version("shimgl").split(".")
    except metadata.PackageNotFoundError:
        return [0, 0, 0]
    nums = [int(p) if p.isdigit() else 0 for p in parts[:3]]
    return nums + [0] * (3 - len(nums))


def _renderer_integers() -> dict[int, list[int]]:
    """The renderer's properties (GLX_MESA_query_renderer): no PCI ids and not
    accelerated (the GPU is modelled and renders on the CPU, as EGL's
    EGL_MESA_device_software says), memory shared with the host (the system's,
    in MiB), the newest versions the context requests get (driver.gl.api)."""
    from driver.gl.api import MAX_ES_VERSION, MAX_GL_VERSION
    import os
    memory_mib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20
    return {GLX_RENDERER_VENDOR_ID_MESA: [NO_PCI_ID], GLX_RENDERER_DEVICE_ID_MESA: [NO_PCI_ID],
            GLX_RENDERER_VERSION_MESA: _package_version(), GLX_RENDERER_ACCELERATED_MESA: [0],
            GLX_RENDERER_VIDEO_MEMORY_MESA: [memory_mib], GLX_RENDERER_UNIFIED_MEMORY_ARCHITECTURE_MESA: [1],
            GLX_RENDERER_PREFERRED_PROFILE_MESA: [GLX_CONTEXT_CORE_PROFILE_BIT_ARB],
            GLX_RENDERER_OPENGL_CORE_PROFILE_VERSION_MESA: list(MAX_GL_VERSION),
            GLX_RENDERER_OPENGL_COMPATIBILITY_PROFILE_VERSION_MESA: list(MAX_GL_VERSION),
            GLX_RENDERER_OPENGL_ES_PROFILE_VERSION_MESA: [1, 1],
            GLX_RENDERER_OPENGL_ES2_PROFILE_VERSION_MESA: list(MAX_ES_VERSION)}


def _renderer_strings() -> dict[int, str]:
    from driver.agx.face import default_screen
    caps = default_screen().caps
    return {GLX_RENDERER_VENDOR_ID_MESA: caps.vendor, GLX_RENDERER_DEVICE_ID_MESA: caps.name}


def _put_renderer_integer(attribute, value) -> int:
    values = _renderer_integers().get(attribute)
    if values is None or value == NULL:
        return 0
    for i, v in enumerate(values):
        value[i] = v
    return 1


@command(fail=0)
def glXQueryRendererIntegerMESA(dpy, screen, renderer, attribute, value):
    d = _display(dpy)
    if renderer != 0 or not 0 <= screen < d.conn.lib.XScreenCount(d.conn.dpy):
        return 0
    return _put_renderer_integer(attribute, value)


@command(fail=0)
def glXQueryCurrentRendererIntegerMESA(attribute, value):
    if not isinstance(state.current.owner, Context):
        return 0
    return _put_renderer_integer(attribute, value)


@command(fail=_null)
def glXQueryRendererStringMESA(dpy, screen, renderer, attribute):
    d = _display(dpy)
    if renderer != 0 or not 0 <= screen < d.conn.lib.XScreenCount(d.conn.dpy):
        return NULL
    text = _renderer_strings().get(attribute)
    return _cstring(text) if text is not None else NULL


@command(fail=_null)
def glXQueryCurrentRendererStringMESA(attribute):
    if not isinstance(state.current.owner, Context):
        return NULL
    text = _renderer_strings().get(attribute)
    return _cstring(text) if text is not None else NULL
