"""The Python face: an offscreen GL context on the AGX driver, for scripts and tests.

    ctx = driver.Context(api="gles3", width=256, height=256)
    ctx.glClearColor(1, 0, 0, 1); ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    image = ctx.read_pixels()          # numpy uint8 (height, width, 4), row 0 = bottom (GL order)
    ctx.save_png("out.png")            # top row first, as images are viewed

Every GL entry point of the front end (driver.gl.Context) is callable on it
with the front end's Python calling convention, and GL enums are attributes
(``ctx.GL_TRIANGLES``). The whole stack runs: GL front end -> pipe interface
-> driver.agx -> uapi seam -> the kernel and GPU behind /dev/dri/renderD128.

Lifetime: ``ctx.destroy()`` (also ``close()``, or leaving a ``with`` block) releases
the context's objects and its queue at once. A context the program merely drops is
released all the same when it is collected (a finalizer; see
``driver.agx.device.release_when_safe`` for when a collection defers it): the
entry points it hands out keep it alive, but its ``gl`` attribute (the front end's
context) is borrowed, valid while the Context object lives. The screen
(the device: its VM, USC heap with the uploaded shaders, BO cache) stays for the
process, shared by its contexts."""

from __future__ import annotations

import functools
import weakref

import numpy as np

from driver.gl import Context as GLContext
from driver.gl import enums as E

from .device import release_when_safe
from .pipe import AgxScreen

__all__ = ["Context", "default_screen"]

_screens: dict[str, AgxScreen] = {}


def default_screen(path: str = "/dev/dri/renderD128") -> AgxScreen:
    """One screen per device path, shared by the contexts of the process (as EGL displays
    are), kept when its last context goes: a new device would start with an empty VM,
    USC heap and BO cache, and a context's first draw on it re-uploads every shader
    (docs/architecture.md, object lifetime). Without contexts it costs the kernel no
    thread."""
    s = _screens.get(path)
    if s is None:
        s = _screens[path] = AgxScreen(path)
    return s


class Context:
    """An offscreen GL context with a width x height RGBA8 + depth/stencil window framebuffer."""

    def __init__(self, api: str = "gles3", width: int = 256, height: int = 256,
                 device: str = "/dev/dri/renderD128"):
        self.screen = default_screen(device)
        self.pipe = self.screen.context_create()
        self.gl = GLContext(self.pipe, api, width, height)
        self.width, self.height = width, height
        # released when collected; holds the GL and pipe contexts, never this object
        self._finalizer = weakref.finalize(self, release_when_safe, _destroy, self.gl, self.pipe)
        self._finalizer.atexit = False       # the process's end closes the device anyway

    def __getattr__(self, name):
        if name.startswith("GL_"):
            return getattr(E, name)
        if name in ("gl", "_finalizer"):
            raise AttributeError(name)
        attr = getattr(self.gl, name)
        if callable(attr):      # an entry point keeps this context alive while it is held:
            return functools.partial(_call, self, attr)   # Context().glGetString(...) is safe
        return attr

    def __dir__(self):
        return sorted(set(super().__dir__()) | {n for n in dir(self.gl) if n.startswith("gl")})

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()

    def read_pixels(self, x: int = 0, y: int = 0, width: int | None = None, height: int | None = None
                    ) -> np.ndarray:
        """RGBA8 pixels of the current read framebuffer (default: the whole window) as uint8
        (height, width, 4), row 0 at the bottom (glReadPixels order), after glFinish."""
        width = self.width - x if width is None else width
        height = self.height - y if height is None else height
        self.gl.glFinish()
        raw = self.gl.glReadPixels(x, y, width, height, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
        if raw is None:
            raise RuntimeError(f"glReadPixels failed: {self.gl.error_log[-1:]}")
        return np.frombuffer(bytes(raw), np.uint8).reshape(height, width, 4).copy()

    def save_png(self, path) -> None:
        from PIL import Image
        Image.fromarray(self.read_pixels()[::-1]).save(path)

    def destroy(self) -> None:
        """Release the window framebuffer, every object of the GL context and
        the pipe context's queue (idempotent)."""
        if self.gl is None:
            return
        gl, self.gl = self.gl, None
        self._finalizer.detach()
        _destroy(gl, self.pipe)

    close = destroy


def _call(owner: Context, function, *args, **kwargs):
    return function(*args, **kwargs)


def _destroy(gl: GLContext, pipe) -> None:
    gl.destroy()
    pipe.destroy()
