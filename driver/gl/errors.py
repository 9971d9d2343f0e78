"""GL errors: entry points validate first and raise GLError before changing any
state; the context records the first error until glGetError reads it
(GL 4.6 section 2.3.1).

The last resort: an entry point never lets a Python exception out. One that
is not a GLError is a bug in the driver (every bad argument has the GL error
the spec names); the wrapper records GL_OUT_OF_MEMORY for a MemoryError and
GL_INVALID_OPERATION for anything else, appends "Kind: message" to the
context's `internal_errors` (what the fuzzers count), and prints one line on
stderr the first time each entry point fails that way."""

from __future__ import annotations

import contextlib
import errno
import functools
import sys

from driver.gl import enums as E

__all__ = ["GLError", "allocating", "check", "check_enum", "finish_context_class", "internal_error",
           "wrap_entry_points"]


class GLError(Exception):
    """Raised inside an entry point; `code` is the GL error enum."""

    def __init__(self, code: int, message: str = ""):
        super().__init__(message or hex(code))
        self.code = code
        self.message = message


def check(cond: bool, code: int, message: str = "") -> None:
    if not cond:
        raise GLError(code, message)


def check_buf_size(bufSize) -> None:
    """The name and log queries (GL 4.6 sections 7.3.1, 7.13, 7.14, 11.1.2.1): a
    negative bufSize is INVALID_VALUE. None = the Python caller gave no size."""
    check(bufSize is None or bufSize >= 0, E.GL_INVALID_VALUE, "negative bufSize")


def check_enum(value: int, allowed, message: str = "") -> None:
    if value not in allowed:
        shown = f"{value:#x}" if isinstance(value, int) else repr(value)
        raise GLError(E.GL_INVALID_ENUM, message or f"bad enum {shown}")


@contextlib.contextmanager
def allocating(what: str):
    """Around the allocation of ``what``: running out of host memory (MemoryError)
    or of GPU memory (the kernel's ENOMEM) is GL_OUT_OF_MEMORY, an error of the
    call, not a driver bug. Allocate before changing any state, so the call then
    has no side effect."""
    try:
        yield
    except MemoryError:
        raise GLError(E.GL_OUT_OF_MEMORY, f"out of host memory for {what}") from None
    except OSError as err:
        if err.errno != errno.ENOMEM:
            raise
        raise GLError(E.GL_OUT_OF_MEMORY, f"out of GPU memory for {what}") from None


_reported: set[tuple[str, str]] = set()      # (entry point, exception kind) already on stderr


def internal_error(ctx, name: str, err: Exception) -> None:
    """Record an unexpected exception `err` from entry point `name` as a GL
    error (see the module docstring)."""
    kind = type(err).__name__
    code = E.GL_OUT_OF_MEMORY if isinstance(err, MemoryError) else E.GL_INVALID_OPERATION
    where = ""
    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        where = f" at {'/'.join(tb.tb_frame.f_code.co_filename.rsplit('/', 2)[-2:])}:{tb.tb_lineno}"
    text = f"{kind}: {str(err)[:200]}{where}"
    internal = getattr(ctx, "internal_errors", None)
    if internal is not None:
        internal.append(text)
        del internal[:-1000]
    if (name, kind) not in _reported:
        _reported.add((name, kind))
        shown = "GL_OUT_OF_MEMORY" if code == E.GL_OUT_OF_MEMORY else "GL_INVALID_OPERATION"
        print(f"shimgl: internal error in {name}: {text} (reported as {shown})", file=sys.stderr)
    ctx.record_error(GLError(code, f"internal error in {name}: {text}"))


# What an entry point returns when it records an error, where the specification names
# a value: INVALID_INDEX for the index queries, -1 for the location queries (GL 4.6
# sections 7.3.1, 7.6 and 11.1.1; ARB_uniform_buffer_object: "or an error occurred,
# then INVALID_INDEX is returned"). Others return None (0 through the C ABI).
ERROR_RESULTS = {
    **dict.fromkeys(("glGetUniformBlockIndex", "glGetProgramResourceIndex", "glGetSubroutineIndex"),
                    E.GL_INVALID_INDEX),
    **dict.fromkeys(("glGetUniformLocation", "glGetAttribLocation", "glGetFragDataLocation", "glGetFragDataIndex",
                     "glGetProgramResourceLocation", "glGetProgramResourceLocationIndex",
                     "glGetSubroutineUniformLocation", "glGetUniformLocationARB", "glGetAttribLocationARB",
                     "glGetFragDataLocationEXT", "glGetFragDataIndexEXT", "glGetProgramResourceLocationIndexEXT"), -1),
}


def _wrap(fn):
    on_error = ERROR_RESULTS.get(fn.__name__)

    @functools.wraps(fn)
    def entry(self, *args, **kwargs):
        lost = getattr(self, "context_lost", None)     # set once a GPU reset lost the context
        if lost is not None:                            # (driver.gl.features.robustness)
            return lost(fn.__name__, args)
        try:
            return fn(self, *args, **kwargs)
        except GLError as err:
            self.record_error(err)
            return on_error
        except Exception as err:        # a driver bug: never out of an entry point
            internal_error(self, fn.__name__, err)
            return on_error
    entry.__gl_entry__ = True
    return entry


def wrap_entry_points(cls):
    """Class decorator: every method named gl* (except glGetError) catches
    GLError, records it and returns None."""
    for name in dir(cls):
        if not name.startswith("gl") or name == "glGetError":
            continue
        fn = getattr(cls, name)
        if callable(fn) and not getattr(fn, "__gl_entry__", False):
            setattr(cls, name, _wrap(fn))
    return cls


def finish_context_class(cls):
    """Wrap the gl* methods of the final Context class."""
    return wrap_entry_points(cls)
