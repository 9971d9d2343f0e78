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
        return getattr(self.gl, name)

    def read_pixels(self) -> np.ndarray:
        """The window's colour buffer as uint8 (height, width, 4), row 0 at the bottom."""
        self.gl.glFinish()
        raw = self.gl.glReadPixels(0, 0, self.width, self.height, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
        return np.frombuffer(bytes(raw), np.uint8).reshape(self.height, self.width, 4).copy()

    def save_png(self, path) -> None:
        from PIL import Image
        Image.fromarray(self.read_pixels()[::-1]).save(path)

    def destroy(self) -> None:
        self.pipe.destroy()
