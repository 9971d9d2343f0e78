"""The C ABI's per-thread state: the calling thread's current context (the
EGL, GLX or OSMesa context that made it current and its driver.gl.Context) and
the one lock that serialises calls into the driver stack (``LOCK``, see
``driver.abi.runtime``). The window-system modules (egl, glx, osmesa) make
contexts current here; ``runtime`` binds the library's symbols and reads it."""

from __future__ import annotations

import sys
import threading
import traceback

from uapi.debug import debug_flags

__all__ = ["LOCK", "current", "set_current"]


class _Current(threading.local):
    gl = None            # driver.gl.Context of the thread's current context
    owner = None         # the EGL or OSMesa context object that made it current
    egl_error = 0x3000   # EGL_SUCCESS
    egl_api = 0x30A0     # EGL_OPENGL_ES_API


current = _Current()
LOCK = threading.RLock()
_debug_flags = debug_flags()
_debug = "abi" in _debug_flags
_trace = "calls" in _debug_flags     # SHIMGL_DEBUG=calls: every GL call and its GL errors
_reported: set[str] = set()


#: runtime's: tells the library the answer words of the thread's new current context
#: (driver.gl.context ANSWER_WORDS; build.py FAST_ANSWERS), or None (no library, or tracing)
answers_hook = None


def set_current(owner, gl) -> None:
    current.owner, current.gl = owner, gl
    if gl is not None:
        gl.forget_idle()        # another drawable may want its glFinish (after_flush)
    if answers_hook is not None:
        answers_hook(gl)


def _report(name: str, err: BaseException) -> None:
    if name not in _reported or _debug:
        _reported.add(name)
        print(f"shimgl: internal error in {name}: {err!r}", file=sys.stderr)
        if _debug:
            traceback.print_exc()
