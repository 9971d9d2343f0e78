"""The Python face: an offscreen GL context on the AGX driver, for scripts and tests.

    ctx = driver.Context(api="gles3", width=256, height=256)
    ctx.glClearColor(1, 0, 0, 1); ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    image = ctx.read_pixels()          # numpy uint8 (height, width, 4), row 0 = bottom (GL order)
    ctx.save_png("out.png")            # top row first, as images are viewed

Every GL entry point of the front end (driver.gl.Context) is callable on it
with the front end's Python calling convention, and GL enums are attributes
(``ctx.GL_TRIANGLES``). The whole stack runs: GL front end -> pipe interface
-> driver.agx -> uapi seam -> the kernel and GPU behind /dev/dri/renderD128."""

from __future__ import annotations

import numpy as np

from driver.gl import Context as GLContext
from driver.gl import enums as E

from .pipe import AgxScreen

__all__ = ["Context", "default_screen"]

_screens: dict[str, AgxScreen] = {}


def default_screen(path: str = "/dev/dri/renderD128") -> AgxScreen:
    """One screen per device path, shared by the contexts of the process (as EGL displays are)."""
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

    def __getattr__(self, name):
        if name.startswith("GL_"):
            return getattr(E, name)
        if name == "gl":
            raise AttributeError(name)
        return getattr(self.gl, name)

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
        gl.destroy()
        self.pipe.destroy()
