"""KHR_robustness / ARB_robustness (GL 4.5 core): reads into client memory
bounded by the caller's buffer size, and the graphics reset status.

GL 4.6 section 2.3.2 and 22.2: a glGetn*/glReadnPixels whose answer would be
longer than `bufSize` bytes is GL_INVALID_OPERATION and writes nothing;
glGetGraphicsResetStatus answers whether the context was lost to a GPU reset.
"""

from __future__ import annotations


from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.features import call, entry_point
from driver.gl.pixels import image_size_B

__all__: list[str] = []

_ELEMENT_B = {"float": 4, "int": 4, "uint": 4, "double": 8}


def _robust(ctx) -> None:
    check(ctx.api.has_extension("GL_KHR_robustness"), E.GL_INVALID_OPERATION,
          "robust access needs GL 4.5 or KHR_robustness")


def _fits(n_B: int, buf_size: int) -> None:
    check(buf_size >= 0, E.GL_INVALID_VALUE, "negative bufSize")
    check(n_B <= buf_size, E.GL_INVALID_OPERATION, f"the answer needs {n_B} bytes, bufSize is {buf_size}")


def _uniform(kind: str, plain: str):
    def entry(ctx, program, location, bufSize):
        _robust(ctx)
        values = call(ctx, plain, program, location)
        _fits(len(values) * _ELEMENT_B[kind], bufSize)
        return values
    return entry


for _name, _kind, _plain in (("glGetnUniformfv", "float", "glGetUniformfv"),
                             ("glGetnUniformiv", "int", "glGetUniformiv"),
                             ("glGetnUniformuiv", "uint", "glGetUniformuiv"),
                             ("glGetnUniformdv", "double", "glGetUniformdv")):
    _fn = _uniform(_kind, _plain)
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__doc__ = f"{_name}(program, location, bufSize): {_plain}, at most bufSize bytes."
    entry_point(_fn)


@entry_point
def glReadnPixels(ctx, x, y, width, height, format, type, bufSize):
    _robust(ctx)
    if ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER) is None:
        _fits(image_size_B(ctx.state.pack, format, type, max(width, 0), max(height, 0), 1), bufSize)
    return call(ctx, "glReadPixels", x, y, width, height, format, type)


@entry_point
def glGetnTexImage(ctx, target, level, format, type, bufSize):
    _robust(ctx)
    data = call(ctx, "glGetTexImage", target, level, format, type)
    if data is not None:
        _fits(len(data), bufSize)
    return data


@entry_point
def glGetnCompressedTexImage(ctx, target, lod, bufSize):
    _robust(ctx)
    data = call(ctx, "glGetCompressedTexImage", target, lod)
    _fits(len(data), bufSize)
    return data


@entry_point
def glGetGraphicsResetStatus(ctx):
    """GL_NO_ERROR, or the reset the device reported for this context
    (GUILTY/INNOCENT/UNKNOWN_CONTEXT_RESET) when the pipe reports one."""
    _robust(ctx)
    status = getattr(ctx.pipe, "get_device_reset_status", None)
    return int(status()) if status is not None else E.GL_NO_ERROR


