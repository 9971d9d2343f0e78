"""KHR_robustness / ARB_robustness (GL 4.5 core): reads into client memory
bounded by the caller's buffer size, and GPU resets.

GL 4.6 section 2.3.2 and 22.2: a glGetn*/glReadnPixels whose answer would be
longer than `bufSize` bytes is GL_INVALID_OPERATION and writes nothing.

GPU resets (GL 4.6 section 2.3.3, KHR_robustness): the reset notification
strategy is chosen when the context is made (EGL/GLX attributes, or
`set_reset_notification_strategy` before first use) and read back with
GL_RESET_NOTIFICATION_STRATEGY. The pipe reports a reset of the context's own
work (the kernel's watchdog stopped a command of its queue: the queue is
guilty) through its reset callback and `get_device_reset_status`.

With GL_LOSE_CONTEXT_ON_RESET, a reset *loses* the context and every context
of its share group (they share its objects, whose contents the stopped work
left undefined): `glGetGraphicsResetStatus` answers GL_GUILTY_CONTEXT_RESET in
the context whose work was stopped and GL_INNOCENT_CONTEXT_RESET in the others
of its group, once each, then GL_NO_ERROR. Every later command of a lost
context generates GL_CONTEXT_LOST and has no effect (no draw, no memory
written), except glGetError and glGetGraphicsResetStatus, which work, and the
two polls the spec names, which answer "complete" (glGetSynciv of
GL_SYNC_STATUS: GL_SIGNALED; glGetQueryObjectuiv of GL_QUERY_RESULT_AVAILABLE:
GL_TRUE) besides the error. Contexts outside the group are not reset: the
firmware stops only the guilty queue's work, theirs runs on (NO_ERROR).

With GL_NO_RESET_NOTIFICATION (the default) nothing is reported: the stopped
work is lost, the pipe moves the context to a fresh queue and it keeps working.
"""

from __future__ import annotations


from driver.gallium import PipeResetStatus
from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import call, context_method, entry_point
from driver.gl.pixels import image_size_B

__all__ = ["GL_CONTEXT_ROBUST_ACCESS", "set_reset_notification_strategy"]

#: KHR_robustness / EXT_robustness: whether the context was made with robust access
#: (the registry has it only as GL_CONTEXT_ROBUST_ACCESS_EXT/_KHR)
GL_CONTEXT_ROBUST_ACCESS = 0x90F3

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


# the compatibility profile's bounded reads (GL 4.6 compatibility profile section 22.2)
for _name, _plain, _elem_B in (("glGetnMapdv", "glGetMapdv", 8), ("glGetnMapfv", "glGetMapfv", 4),
                               ("glGetnMapiv", "glGetMapiv", 4)):
    def _map(ctx, target, query, bufSize, _plain=_plain, _elem_B=_elem_B):
        _robust(ctx)
        values = call(ctx, _plain, target, query)
        if values is None:      # the plain query recorded its GL error
            return None
        _fits(len(values) * _elem_B, bufSize)
        return values
    _map.__name__ = _map.__qualname__ = _name
    _map.__doc__ = f"{_name}(target, query, bufSize): {_plain}, at most bufSize bytes."
    entry_point(_map)

for _name, _plain, _elem_B in (("glGetnPixelMapfv", "glGetPixelMapfv", 4),
                               ("glGetnPixelMapuiv", "glGetPixelMapuiv", 4),
                               ("glGetnPixelMapusv", "glGetPixelMapusv", 2)):
    def _pixel_map(ctx, map, bufSize, _plain=_plain, _elem_B=_elem_B):
        _robust(ctx)
        values = call(ctx, _plain, map)
        if values is None:      # the plain query recorded its GL error
            return None
        _fits(len(values) * _elem_B, bufSize)
        return values
    _pixel_map.__name__ = _pixel_map.__qualname__ = _name
    _pixel_map.__doc__ = f"{_name}(map, bufSize): {_plain}, at most bufSize bytes."
    entry_point(_pixel_map)


@entry_point
def glGetnPolygonStipple(ctx, bufSize):
    """glGetPolygonStipple (32x32 bits), at most bufSize bytes."""
    _robust(ctx)
    pattern = call(ctx, "glGetPolygonStipple")
    if pattern is None:         # written into the bound pixel pack buffer
        return None
    _fits(len(pattern), bufSize)
    return pattern


# -- GPU resets ------------------------------------------------------------------------------

STRATEGIES = (E.GL_NO_RESET_NOTIFICATION, E.GL_LOSE_CONTEXT_ON_RESET)
_GL_STATUS = {PipeResetStatus.GUILTY: E.GL_GUILTY_CONTEXT_RESET,
              PipeResetStatus.INNOCENT: E.GL_INNOCENT_CONTEXT_RESET,
              PipeResetStatus.UNKNOWN: E.GL_UNKNOWN_CONTEXT_RESET}
# what a lost context still answers (KHR_robustness, section 2.6.1 of the extension; GL 4.6
# section 2.3.3): the status query works; the two polls answer "complete" and CONTEXT_LOST
_WORKS_WHEN_LOST = ("glGetGraphicsResetStatus",)
_COMPLETE_WHEN_LOST = {"glGetSynciv": (E.GL_SYNC_STATUS, [E.GL_SIGNALED]),
                       "glGetQueryObjectuiv": (E.GL_QUERY_RESULT_AVAILABLE, [E.GL_TRUE])}


def set_reset_notification_strategy(ctx, strategy: int) -> None:
    """Choose the reset notification strategy of a new context (GL_NO_RESET_NOTIFICATION
    or GL_LOSE_CONTEXT_ON_RESET), as the window system's context attribute does. Every
    context of a share group must have the same one (EGL/GLX check it: BAD_MATCH)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"reset notification strategy {strategy:#x}: expected "
                         f"GL_NO_RESET_NOTIFICATION or GL_LOSE_CONTEXT_ON_RESET")
    ctx._reset_strategy = strategy
    if strategy == E.GL_LOSE_CONTEXT_ON_RESET:
        ctx.pipe.set_device_reset_callback(lambda status: _reset(ctx, status))


@context_method
def _reset_notification_strategy(ctx) -> int:
    """GL_RESET_NOTIFICATION_STRATEGY."""
    return getattr(ctx, "_reset_strategy", E.GL_NO_RESET_NOTIFICATION)


def _reset(ctx, status: PipeResetStatus) -> None:
    """The pipe saw a reset of `ctx`'s work: lose `ctx` (its status: `status`) and the
    other contexts of its share group (innocent). May run in another thread (the one
    that retired the stopped work): it only sets attributes."""
    _lose(ctx, _GL_STATUS.get(status, E.GL_UNKNOWN_CONTEXT_RESET))
    for other in list(ctx.share_group.contexts):
        if other is not ctx:
            _lose(other, E.GL_INNOCENT_CONTEXT_RESET)


def _lose(ctx, status: int) -> None:
    if _reset_notification_strategy(ctx) != E.GL_LOSE_CONTEXT_ON_RESET \
            or getattr(ctx, "context_lost", None) is not None:
        return
    ctx._reset_status = status
    ctx.context_lost = lambda name, args: _lost_call(ctx, name, args)
    ctx.forget_idle()           # glFinish records GL_CONTEXT_LOST from now on


def _lost_call(ctx, name: str, args: tuple):
    """Every entry point of a lost context comes here instead of running (the
    front end's entry wrapper calls ``ctx.context_lost``)."""
    for core in _WORKS_WHEN_LOST:
        if name.startswith(core):
            return call(ctx, core)
    ctx.record_error(GLError(E.GL_CONTEXT_LOST, f"{name}: the context was lost to a GPU reset"))
    for core, (pname, answer) in _COMPLETE_WHEN_LOST.items():
        if name.startswith(core) and len(args) >= 2 and args[1] == pname:
            return list(answer)
    return None


def _poll_resets(ctx) -> None:
    """Ask the pipes of the context and of its share group whether the watchdog stopped
    their work (a reset not yet seen through a completed command)."""
    if getattr(ctx, "context_lost", None) is not None:
        return
    for member in [ctx] + [c for c in ctx.share_group.contexts if c is not ctx]:
        status = member.pipe.get_device_reset_status()
        if status != PipeResetStatus.NO_RESET:
            _reset(member, status)
            return


@entry_point
def glGetGraphicsResetStatus(ctx):
    """GL_NO_ERROR, or once the reset that lost this context (GUILTY when its own work
    was stopped, INNOCENT when a context of its share group's was); then GL_NO_ERROR.
    Always GL_NO_ERROR with GL_NO_RESET_NOTIFICATION."""
    _robust(ctx)
    if _reset_notification_strategy(ctx) != E.GL_LOSE_CONTEXT_ON_RESET:
        return E.GL_NO_ERROR
    _poll_resets(ctx)
    status = getattr(ctx, "_reset_status", E.GL_NO_ERROR)
    ctx._reset_status = E.GL_NO_ERROR
    return status




# GL_ARB_robustness names the same commands with the ARB suffix (the registry marks only
# glReadnPixelsARB an alias; the others run the core command here). The imaging subset's
# glGetn* (ARB_imaging) are not offered: shimgl has no ARB_imaging.
_ARB_COMMANDS = ("glGetGraphicsResetStatus", "glGetnUniformfv", "glGetnUniformiv", "glGetnUniformuiv",
                 "glGetnUniformdv", "glGetnTexImage", "glGetnCompressedTexImage", "glGetnMapdv",
                 "glGetnMapfv", "glGetnMapiv", "glGetnPixelMapfv", "glGetnPixelMapuiv",
                 "glGetnPixelMapusv", "glGetnPolygonStipple")


def _arb_names() -> None:
    import inspect

    from driver.gl.features import _ENTRY_POINTS
    from driver.gl.features.aliases import _alias
    for core in _ARB_COMMANDS:
        fn = _ENTRY_POINTS[core]
        entry_point(_alias(core + "ARB", core, ("GL_ARB_robustness",), inspect.signature(fn)))


_arb_names()
