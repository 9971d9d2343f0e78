"""driver.gl: the GL front end (the GL state machine).

Owns GL contexts per API (GLES 2.0/3.0/3.1, GL 3.3 core, GL 4.3 core, a
compatibility context), object name spaces, binding points, validation and GL
errors, Get* queries. Reaches the GPU only through driver.gallium's pipe
interface; never imports driver.agx or drmshim.

Python calling convention: see driver.gl.context and driver.gl.pointers. In
short, `ctx.glBufferData(target, size, data, usage)` takes arguments in C
order, input arrays as bytes/numpy/sequences, and returns output arrays
(`ctx.glGenBuffers(2) -> [1, 2]`)."""

from driver.gl.api import API_NAMES, Api, get_api
from driver.gl.context import ContextBase, DefaultFramebuffer
from driver.gl.errors import GLError, finish_context_class
from driver.gl.families import Context, entry_points, missing_entry_points
from driver.gl.pointers import ClientMemory

__all__ = ["API_NAMES", "Api", "ClientMemory", "Context", "ContextBase", "DefaultFramebuffer",
           "GLError", "entry_points", "get_api", "missing_entry_points"]
